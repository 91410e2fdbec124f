"""A hypothetical passage a retrieval pipeline wrote before its answer, read as offered, not
stated.

HyDE-style pipelines have the model write a passage that *would* answer the question, embed
it to search with, and then answer from what the search found. A pipeline that submits the
model's whole output keeps the passage in front: "Hypothetical passage: The Shard ... stands
309.6 metres tall ...\\n\\nAnswer: The tallest building in the UK is the Shard." The passage
is written to look like a source, not checked against one: the facts in it are offered as
what might be so. So the reply's answer is its answer line, and when the 75-token cut stops
before that line, the cut text states no answer of its own: a fact in the passage is
offered hypothetically, which CRAG's rubric reads as unsure (no better than a hedge), and a
passage that states nothing asked for gives no answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["HypotheticalReading", "read_hypothetical"]

_OPENING = re.compile(
    r"\s*(?:\*\*)?hypothetical\s+(?:passage|document|answer|context|doc)(?:\*\*)?\s*:\s*",
    re.IGNORECASE,
)
_ANSWER_LINE = re.compile(r"\n\s*(?:\*\*)?(?:final\s+)?answer(?:\*\*)?\s*:(?:\*\*)?\s*", re.I)


@dataclass(frozen=True)
class HypotheticalReading:
    """What a reply that opens with a hypothetical passage gives to be read."""

    text: str
    """The answer line, when the cut holds one with words in it; else the passage."""
    hypothetical: bool
    """True when ``text`` is the passage: whatever it states is offered, not asserted."""


def read_hypothetical(cut: str) -> HypotheticalReading | None:
    """The reading of a reply that opens with a hypothetical passage, else None."""
    opening = _OPENING.match(cut)
    if opening is None:
        return None
    passage = cut[opening.end() :]
    answer_line = _ANSWER_LINE.search(passage)
    if answer_line is not None:
        answer = passage[answer_line.end() :].strip()
        if answer:
            return HypotheticalReading(text=answer, hypothetical=False)
        passage = passage[: answer_line.start()]
    return HypotheticalReading(text=passage.strip(), hypothetical=True)
