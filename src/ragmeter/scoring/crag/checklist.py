"""A reply written as a Markdown task list of checks, then a bold verdict line.

A "verified answer" product makes the model tick its checks before it answers: "- [x]
Subject found: Document 2 (canal trust notice)", "- [x] Value stated: \\"reopened on 21
July\\"", "- [ ] Corroborated: single source", then a blank line and "**Verified:** July 21,
2022" ("**Partly verified:** ...", "**Not verified:** no document gives ...", "**Premise
false:** ..."). The verdict line is the reply. Where CRAG's 75-token cut fell before it, the
checks are all the text states: the value check, ticked, states the value found; left empty,
it is the system's own word that no page states one (a decline, unless it works the value
out: "1,652 + 47 = 1,699"), and an empty premise check points out a false premise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CheckedReply", "read_checklist"]

_ITEM = re.compile(
    r"[ \t]*[-*][ \t]+\[(?P<mark>[ xX])\][ \t]+(?P<name>[^:\n]{1,40}?)[ \t]*:[ \t]*(?P<detail>.*)"
)
_VERDICT = re.compile(r"[ \t]*\*\*(?P<label>[^*\n]{1,40}?):?\*\*:?[ \t]*(?P<answer>.*)")
_DECLINED = re.compile(
    r"\bnot\s+(?:verified|found|answered|available)|\bunverified\b|\bno\s+answer\b", re.I
)
_PREMISE = re.compile(r"\bpremise\b", re.I)
_VALUE = re.compile(r"\b(?:value|answer|figure|fact)\b", re.I)
_WORKED = re.compile(r"\s=\s*(?P<result>[^=;]+?)\s*$")


@dataclass(frozen=True)
class CheckedReply:
    """What a checklist reply answers."""

    answer: str
    """The answer given ("" for a decline); for a false premise, what it says instead."""
    premise_false: bool
    """The reply says the question's premise is false."""
    reason: str
    """Why it declined, as written ("" otherwise)."""


def read_checklist(text: str, *, cut_off: bool) -> CheckedReply | None:
    """The reply of a Markdown task list of checks (two or more "- [x] Name: detail" or "- [ ]
    Name: detail" lines, then a bold verdict line); None for any other text. ``cut_off``: the
    text was cut by the 75-token limit, so its last line may stop part-way."""
    lines = [line for line in text.strip().split("\n") if line.strip()]
    items: list[re.Match[str]] = []
    for line in lines:
        m = _ITEM.fullmatch(line)
        if m is None:
            break
        items.append(m)
    rest = lines[len(items) :]
    if len(items) < 2 and not (cut_off and items and not rest):
        return None
    if rest:
        verdict = _VERDICT.fullmatch(rest[0])
        if verdict is not None and len(rest) == 1:
            return _verdict(verdict["label"], verdict["answer"].strip())
        if not (cut_off and len(rest) == 1 and rest[0].lstrip()[:1] in ("-", "*")):
            return None  # other text after the list: not this format
    # Cut before the verdict line: the checks are all the text states.
    for m in items:
        if _PREMISE.search(m["name"]) and m["mark"] == " ":
            return CheckedReply(answer=m["detail"].strip(), premise_false=True, reason="")
    value = next((m for m in items if _VALUE.search(m["name"])), None)
    if value is None:
        return CheckedReply(answer="", premise_false=False, reason="")
    if value["mark"] == " ":
        detail = value["detail"].strip()
        worked = _WORKED.search(detail)
        if worked is not None:
            # "no document gives the 2023 total; 1,652 + 47 = 1,699": no page states it, and
            # the reply works it out; the result is its answer.
            return CheckedReply(answer=worked["result"], premise_false=False, reason="")
        return CheckedReply(answer="", premise_false=False, reason=detail)
    return CheckedReply(answer=value["detail"].strip(), premise_false=False, reason="")


def _verdict(label: str, answer: str) -> CheckedReply:
    if _PREMISE.search(label):
        return CheckedReply(answer=answer, premise_false=True, reason="")
    if _DECLINED.search(label) or not answer:
        return CheckedReply(answer="", premise_false=False, reason=answer)
    return CheckedReply(answer=answer, premise_false=False, reason="")
