"""Output that writes its working before its reply, under labels of its format.

gpt-oss's leaked analysis channel ("analysisWe need ... assistantfinalParis"),
Rephrase-and-Respond ("Rephrased question: ..." over "Response: ..."), IBM Granite's thinking
("Here is my thought process:" over "Here is my response:"), Plan-and-Solve ("Plan:" and
"Solution:" over "Answer:"), an evidence list ("Evidence (newest first):" over "- " lines,
then "Answer:"), Step-Back prompting
("Step-back question:", "Step-back answer:", "Final answer:") and Gemini's thought summaries
submitted with the reply ("**Pinpointing the Date**" over "I'm focusing on ...") each say
where the working ends and the reply begins; DeepSeek-R1's untagged reasoning, saved in place
of its reply ("Okay, let's see. The user is asking ..."), is working throughout.
`working_and_reply` splits them there; the structured reader reads the reply, or, where
CRAG's 75-token cut fell before it, the working as all the text states.
"""

from __future__ import annotations

import re

__all__ = ["attended_reply", "working_and_reply"]

# gpt-oss's harmony format with its special tokens dropped: "analysis" glued to the
# reasoning ("analysisWe need ...", "analysis2023 revenue ..."), "assistantfinal" glued to the
# reply. ("analysis: ..." or "analysis shows" is a reply's own word.)
_HARMONY = re.compile(
    r"\s*analysis(?=[A-Z0-9])(?P<working>.*?)(?:assistantfinal(?P<reply>.*))?", re.DOTALL
)
# Rephrase-and-Respond: "Rephrased question: ..." then a blank line and "Response: ...".
_REPHRASED = re.compile(
    r"\s*Rephrased question:(?P<working>.*?)(?:\n\s*Response:(?P<reply>.*))?", re.DOTALL
)
# IBM Granite with thinking on: "Here is my thought process:" then "Here is my response:".
_GRANITE = re.compile(
    r"\s*Here is my thought process:(?P<working>.*?)(?:\n\s*Here is my response:(?P<reply>.*))?",
    re.DOTALL,
)


# Plan-and-Solve prompting: "Plan:" over numbered steps, "Solution:" over the steps carried
# out, then "Answer: <the reply>".
_PLAN_AND_SOLVE = re.compile(
    r"\s*Plan:(?P<working>\s*\n.*?)(?:\n\s*Answer:(?P<reply>.*))?", re.DOTALL
)


# An evidence list before the answer: "Evidence (newest first):" over "- [2022-04] doc 2
# (council notice): ..." lines, then "Answer: <the reply>".
_EVIDENCE_LIST = re.compile(
    r"\s*Evidence(?:\s*\([^)\n]*\))?:(?P<working>\s*\n.*?)(?:\n\s*Answer:(?P<reply>.*))?",
    re.DOTALL,
)


# Step-Back prompting: "Step-back question: <a broader question>", "Step-back answer:
# <background>", then "Final answer: <the reply>".
_STEP_BACK = re.compile(
    r"\s*Step-back question:[^\n]*(?:\n\s*Step-back answer:(?P<working>.*?))?"
    r"(?:\n\s*Final answer:(?P<reply>.*))?",
    re.DOTALL | re.IGNORECASE,
)
_REPLY_LABEL = "final answer:"


# Gemini's thought summaries, submitted with the reply by a client that joins the text of
# every part: a bold heading naming what it is doing ("**Pinpointing the Reopening Date**"),
# a blank line and a first-person paragraph ("I'm focusing on ..."), once or more.
_THOUGHT = re.compile(
    r"\s*\*\*[A-Z][a-z]+ing\b[^*\n]{0,80}\*\*"
    r"(?:[ \t]*\n\s*\n(?P<thought>(?:I(?:['\u2019](?:m|ve|ll|d))?|My)\s[^\n]*)(?:\n\s*\n|\s*$)"
    r"|\s*$)"
)


def _thoughts_then_reply(prediction: str) -> tuple[str, str] | None:
    """The thought summaries a reply opens with, and the reply after them; None without."""
    thoughts: list[str] = []
    at = 0
    # Each block opens with its bold heading, so every match moves on.
    while (m := _THOUGHT.match(prediction, at)) is not None:
        thoughts.append((m.group("thought") or "").strip())
        at = m.end()
    if not thoughts:
        return None
    return " ".join(t for t in thoughts if t), prediction[at:].strip()


# DeepSeek-R1's reasoning saved in place of its reply (``message.reasoning_content``), with no
# tags: it opens the way R1 opens its thinking ("Okay, let's see. The user is asking ...",
# "Alright, so I need to figure out ..."). Cut by the 75-token limit, it is thinking cut
# before the conclusion it was working towards.
_UNTAGGED_THINKING = re.compile(
    r"\s*(?:okay|alright|all right|ok|hmm)[,.!]?\s+(?:so[,]?\s+)?(?:let's\s+see\b|let\s+me\s+"
    r"(?:think|see|figure|check)\b|i\s+(?:need|have)\s+to\b|the\s+user\s+(?:is\s+asking|wants"
    r"|asked|is\s+wondering)\b)",
    re.IGNORECASE,
)


def working_and_reply(prediction: str, *, cut_off: bool) -> tuple[str, str] | None:
    """The working an output writes before its reply under a label of its format, and the
    reply ("" when the cut fell before it, or inside the one sentence a step-back or a
    thought-summarising reply gives: then its first words are read with the working)."""
    m = (
        _HARMONY.fullmatch(prediction)
        or _REPHRASED.fullmatch(prediction)
        or _GRANITE.fullmatch(prediction)
        or _PLAN_AND_SOLVE.fullmatch(prediction)
        or _EVIDENCE_LIST.fullmatch(prediction)
    )
    if m is not None:
        return (m.group("working") or "").strip(), (m.group("reply") or "").strip()
    if cut_off and _UNTAGGED_THINKING.match(prediction):
        return prediction.strip(), ""
    found = _thoughts_then_reply(prediction)
    if found is None:
        m = _STEP_BACK.fullmatch(prediction)
        if m is None:
            return None
        working = (m.group("working") or "").strip()
        # "...Shady Records.\nFinal a": the cut fell in the reply's label.
        head, _, last = working.rpartition("\n")
        if head and _REPLY_LABEL.startswith(last.strip().lower()):
            working = head.strip()
        found = working, (m.group("reply") or "").strip()
    working, reply = found
    if cut_off and reply:
        return f"{working} {reply}", ""
    return working, reply


# System 2 Attention's two steps submitted together: "Unbiased text context (...): <what it
# kept of the documents>", "Question/Query (...): <the question restated>", then "Answer:
# <the reply>". The context is kept from the documents for the reply to read; it states what
# the reply has not yet said, so it is read in the reply's stead only where the cut left no
# reply. The restated question states nothing.
_S2A = re.compile(
    r"\s*Unbiased text context\b[^:\n]*:(?P<context>.*?)"
    r"(?:\n\s*Question/Query\b[^\n]*(?:\n|$))?(?:\s*\nAnswer:(?P<reply>.*)|\s*$)",
    re.DOTALL,
)


def attended_reply(prediction: str) -> str | None:
    """What a System 2 Attention output amounts to: its "Answer:" line, or the context it
    kept when the cut fell before that line; None for any other text."""
    m = _S2A.fullmatch(prediction)
    if m is None:
        return None
    reply = (m.group("reply") or "").strip()
    return reply or m.group("context").strip()
