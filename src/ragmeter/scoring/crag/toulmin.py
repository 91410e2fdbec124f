"""A reply laid out as a Toulmin argument, read as the answer it argues for.

A pipeline prompted to argue before it answers writes one labelled line per part, evidence
first and the claim last: "Data: Document 1, a filmography page, lists X and Y as his 2023
films.\\nWarrant: A filmography ...\\nRebuttal: None in the documents.\\nQualifier:
certainly\\nClaim: He worked on X and Y." The claim is the answer and the qualifier its
stated certainty ("very likely" and "possibly" doubt it; "not determinable" declines).

CRAG's 75-token cut often falls before the claim. The data line then is all the text
states, and it states what the documents say as the system's own finding: a reader takes a
figure it reports as the answer given, right or wrong ("lists BEPC's previous close as
$25.61"), and a data line that ends by saying the documents lack the fact ("..., but none
gives daily opening prices") as a decline. The warrant and rebuttal say how facts of that
kind are recorded, nothing about this one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ToulminArgument", "read_toulmin"]

_LABELS = ("data", "grounds", "warrant", "backing", "rebuttal", "qualifier", "claim")
_LINE = re.compile(rf"[ \t]*(?P<label>{'|'.join(_LABELS)})[ \t]*:[ \t]*(?P<value>.*)", re.I)
# "Data: ..." or "Grounds: ..." opens the argument: the evidence comes first.
_OPENING = ("data", "grounds")
# A qualifier that stands by the claim; any other modal ("very likely", "probably",
# "possibly", "presumably") is the system's own doubt, as the screen reads "likely X".
_SURE = re.compile(
    r"(?:almost\s+)?(?:certainly|definitely|surely|undoubtedly|necessarily)|beyond\s+doubt",
    re.I,
)
_UNDETERMINED = re.compile(
    r"not\s+determinable|undeterminable|(?:cannot|can\s*not|can't)\s+be\s+determined"
    r"|undetermined|indeterminate|unknown|none|n/?a|insufficient(?:\s+evidence)?",
    re.I,
)
# "..., but none gives daily opening prices", "..., but no document gives his purse", "...
# but do not say whether it was released under another title": the data's last clause says
# what the documents lack, after naming what they hold instead.
_LACKS = re.compile(
    r"[,;]?\s+but\s+(?:none(?:\s+of\s+(?:them|the\s+\w+))?|no\s+(?:other\s+)?(?:document|page"
    r"|source|article|entry|listing|report)s?|neither(?:\s+of\s+them)?|(?:they\s+|it\s+)?"
    r"(?:do|does)\s+not|(?:they\s+|it\s+)?(?:don't|doesn't))\s+(?:give|say|list|state|name"
    r"|mention|report|show|include|cover|record)s?\b[^,;]*$",
    re.I,
)


@dataclass(frozen=True)
class ToulminArgument:
    """What a Toulmin-style reply says, part by part."""

    answer: str
    """The claim, or where the cut fell before it the data (and the claim's first words);
    "" when the argument declines."""
    held: str
    """What the data says the documents hold, when the argument declines."""
    doubt: str
    """The qualifier as written, when it doubts the claim ("" for a sure one or none)."""


def read_toulmin(text: str, *, cut_off: bool) -> ToulminArgument | None:
    """The answer a reply written as labelled Toulmin lines argues for ("Data:" first, then
    any of "Warrant:", "Backing:", "Rebuttal:", "Qualifier:", "Claim:"); None for any other
    text. ``cut_off``: the text was cut by the 75-token limit, so its last line may stop
    part-way, even inside a label."""
    lines = [line for line in text.strip().split("\n") if line.strip()]
    if not lines:
        return None
    parts: dict[str, str] = {}
    last_label = ""
    for at, line in enumerate(lines):
        m = _LINE.fullmatch(line)
        if m is None:
            if cut_off and at == len(lines) - 1 and _begins_label(line):
                break  # "...\nQual": the cut fell inside the next label.
            return None
        label = m.group("label").lower()
        if (at == 0) != (label in _OPENING) or label in parts:
            return None
        parts[label] = m.group("value").strip()
        last_label = label
    if not parts or (len(parts) < 2 and not cut_off):
        return None
    data = next(parts[label] for label in _OPENING if label in parts)
    qualifier = parts.get("qualifier", "")
    claim = parts.get("claim", "")
    if qualifier and _UNDETERMINED.fullmatch(qualifier.rstrip(".")):
        return ToulminArgument(answer="", held=data, doubt="")
    doubt = qualifier if qualifier and not _SURE.fullmatch(qualifier.rstrip(".")) else ""
    if claim and not (cut_off and last_label == "claim"):
        return ToulminArgument(answer=claim, held="", doubt=doubt)
    if _LACKS.search(data):
        return ToulminArgument(answer="", held=_LACKS.sub("", data), doubt="")
    # Cut before the claim was written in full: what the data reports is what it states.
    answer = f"{data} {claim}" if claim else data
    return ToulminArgument(answer=answer, held="", doubt=doubt)


def _begins_label(line: str) -> bool:
    word = line.strip().lower()
    return bool(word) and any(label.startswith(word) for label in _LABELS)
