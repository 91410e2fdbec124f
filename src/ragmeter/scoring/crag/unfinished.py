"""Answers the 75-token cut stops just before they conclude.

CRAG's scorer reads the first 75 tokens of a prediction. A reply that works its way to a
figure ("Whole Foods ~$13.7B, MGM ~$8.45B, One Medical ~$3.9B. That makes an average of")
may be cut right where it was about to say it: the figures it has stated are its working,
and the cut text gives no answer. The rubric reads what the cut text states, and a
conclusion with nothing after it states nothing. A chain of follow-up questions cut before
its final line is read the same way, once the judges find no true answer in its steps.
"""

from __future__ import annotations

import re

__all__ = [
    "conclusion_cut_off",
    "notes_cut_off",
    "quotes_cut_off",
    "steps_cut_off",
    "stops_at_lead_in",
]

# The cut text ends on a conclusion that names no figure yet: "That makes an average of",
# "a gain of about", "So the total is". A bare "so" is no such conclusion: "..., so check a
# live quote" follows an answer as often as it leads to one; nor is "Answer:", which often
# only repeats a figure the working has stated ("a trailing P/E of roughly 105-110. Answer:").
_RESULT = (
    r"(?:total|average|result|difference|gain|loss|increase|decrease|drop|rise|sum|figure"
    r"|count|mean)"
)
_OPEN_CONCLUSION = re.compile(
    r"(?:\b(?:so|thus|therefore|hence)\b,?\s+(?:the\s+)?(?:\w+\s+){0,2}?"
    + _RESULT
    + r"\s+(?:is|was|would\s+be|comes\s+to|works\s+out\s+to)"
    r"|\b(?:that|this|which)\s+(?:makes|gives|comes\s+to|works\s+out\s+to|puts|adds\s+up\s+to)"
    r"(?:\s+(?:a|an|the))?(?:\s+\w+)?\s+" + _RESULT + r"(?:\s+of)?"
    r"|\b(?:a|an|the)\s+(?:\w+\s+)?" + _RESULT + r"\s+(?:of|is|was|comes\s+to|works\s+out\s+to)"
    r"|=)"
    r"(?:\s*(?:about|roughly|around|approximately|nearly|almost|just|over|under|some|~|\$|€|£"
    r"|\*+|:|,))*\s*$",
    re.IGNORECASE,
)


def conclusion_cut_off(cut: str) -> bool:
    """True when ``cut`` (a prediction as the 75-token cut left it) ends on a conclusion it
    never finishes ("..., a gain of about")."""
    return bool(_OPEN_CONCLUSION.search(cut.rstrip()))


# A chain of follow-up questions, as the self-ask prompt prints it: "Follow up: ..." and
# "Intermediate answer: ..." lines, then "So the final answer is: X."
_FOLLOW_UP = re.compile(r"^[ \t]*follow[ -]?up[ \t]*:", re.IGNORECASE | re.MULTILINE)
_FINAL_LINE = re.compile(
    r"^[ \t]*so,?\s+the\s+final\s+answer\s+is\s*:?[ \t]*\S", re.IGNORECASE | re.MULTILINE
)


def steps_cut_off(cut: str) -> bool:
    """True when ``cut`` is a chain of follow-up questions that the cut stopped before its
    final answer ("Follow up: Who performed it?\nInter"): its steps are its working, and it
    answers on a line the cut left out."""
    return bool(_FOLLOW_UP.search(cut)) and not _FINAL_LINE.search(cut)


def stops_at_lead_in(reply: str) -> bool:
    """True when ``reply`` is one line that ends on the colon of a lead-in ("The founding
    members of Pale Antler were:", "To find the total, we need to add the quarterly
    dividends:"): a reply stopped at its first line break, whose list or working never came.
    It answers only what the lead-in itself states."""
    text = reply.strip()
    return text.endswith(":") and "\n" not in text


# Chain-of-Note: a "Note N:" line on each retrieved document, then "Answer: X"; an evidence
# list, "Evidence (newest first):" over a "- " line on each, then "Answer: X".
_FIRST_NOTE = re.compile(r"^\s*(?:note\s*1\s*:|evidence\b[^:\n]{0,40}:[ \t]*\n)", re.IGNORECASE)
_ANSWER_LINE = re.compile(r"^[ \t]*answer\b[^:\n]{0,40}:", re.IGNORECASE | re.MULTILINE)


def notes_cut_off(cut: str) -> bool:
    """True when ``cut`` is a chain of reading notes ("Note 1: ...\nNote 2: ...", an
    "Evidence:" list) that the cut stopped before its answer line: the notes report what
    each document says, and the reply answers on a line the cut left out."""
    return bool(_FIRST_NOTE.match(cut)) and not _ANSWER_LINE.search(cut)


# The first words of a reply, before any clause of it ended: "Jurassic Park was directed".
_BEGUN_WORDS = 8
_CLAUSE_END = re.compile(r"[,;:.!?](?:\s|$)")


def answer_line_begun(cut: str) -> bool:
    """True when ``cut`` is a chain of reading notes that the cut stopped a few words into
    its answer line ("Evidence: ...\nAnswer: Jurassic Park was directed"): the reply had just
    begun, and the notes are no answer of its."""
    if not _FIRST_NOTE.match(cut):
        return False
    lines = list(_ANSWER_LINE.finditer(cut))
    if not lines:
        return False
    begun = cut[lines[-1].end() :].strip()
    return (
        bool(begun)
        and "\n" not in begun
        and len(begun.split()) < _BEGUN_WORDS
        and _CLAUSE_END.search(begun) is None
    )


# RAFT's chain of thought: the context quoted between "##begin_quote##" and "##end_quote##",
# then "<ANSWER>: X" on a line of its own.
_QUOTE_MARKER = "##begin_quote##"
_RAFT_ANSWER = re.compile(r"<answer>\s*:", re.IGNORECASE)
_FROM_MEMORY = re.compile(r"\b(?:general|background|prior)\s+knowledge\b", re.IGNORECASE)


def quotes_cut_off(cut: str) -> bool:
    """True when ``cut`` is a reasoning that quotes the context ("##begin_quote## ...
    ##end_quote##") and the cut stopped before its "<ANSWER>:" line: the quotes report what
    the documents say, and the reply answers past the cut. One that answers from memory
    instead ("based on general knowledge, ...") says so in its own words, read as any."""
    return (
        _QUOTE_MARKER in cut.lower()
        and _RAFT_ANSWER.search(cut) is None
        and _FROM_MEMORY.search(cut) is None
    )
