"""Replies that only decline: "I could not find any information about Brad Pitt having a
hidden pet rabbit." says nothing about the question's premise.

To a false-premise question only a reply that points the premise out is correct; a plain
decline is missing. A decline that names what it could not find reads much like a premise
correction ("I couldn't find any film with both, so the answer is zero."), and the premise
judges take one for the other. What tells them apart is a denial of the reply's own: a
decline that stays one sentence and one clause, opens with its decline and goes on to no
"not", "never", "no such", "premise" or "zero" of its own (a pointer to other sources aside:
"Check ligue1.com.") only declines.
"""

from __future__ import annotations

import re

from ragmeter.scoring.normalize import normalize_text
from ragmeter.scoring.refusal import default_detector

__all__ = ["only_declines"]

# "Check ligue1.com for the fixture.", "A site like ESPN should have the latest results.",
# "⚽ The Sports tab should have their latest scores!"
_POINTER = re.compile(
    r"(?:^|(?<=[.!?;]))\s*[^\w\s]*\s*(?:please\s+)?(?:check|try|visit|consult|see|look up"
    r"|refer to|a site like|you (?:can|could|may|might) (?:check|try|find|look)"
    r"|for (?:the )?(?:latest|current|live|up-to-date|real-time)"
    r"|[^.!?]{0,60}?\b(?:should|will|would|might|may|can|could) (?:have|show|list|carry)"
    r"(?! been))\b[^.!?]*[.!?]?",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'\u201d\u2019)]))\s+")
# On normalised text (lower case, no apostrophes: "can't" is "cant"). Negations that
# decline again ("so I cannot confirm that comparison") deny nothing.
_DECLINING_NEGATION = re.compile(
    r"\b(?:cannot|can not|could not|do not|does not|did not|am not|is not|are not|was not"
    r"|cant|couldnt|dont|doesnt|didnt|isnt|arent|wasnt|wont)\s+(?:\w+\s+){0,2}?(?:give|provide"
    r"|confirm|say|tell|find|verify|determine|know|have|see|locate|access|answer|share|report"
    r"|sure|certain|aware|available|able|total|add up|compute|calculate|work out|average)\b"
)
_DENIAL = re.compile(
    r"\b(?:no|not|never|none|nothing|zero|nobody|neither|nor|false|incorrect|wrong|mistaken"
    r"|untrue|premise|myth|rumou?r|actually|in fact|instead|rather|cant|couldnt|dont|doesnt"
    r"|didnt|isnt|arent|wasnt|werent|hasnt|havent|hadnt|wont)\b"
)
# The decline opens the sentence: "I'm sorry, I couldn't find ...", not "DiDi was delisted,
# so I don't know its P/E ratio."
_OPENING_WORDS = 4
_CLAUSE_WORDS = 3


def only_declines(reply: str) -> bool:
    """True when ``reply`` is one sentence that opens with a decline and denies nothing."""
    sentences = [s for s in _SENTENCE_END.split(_POINTER.sub(" ", reply).strip()) if s.strip()]
    if len(sentences) != 1:
        return False
    sentence = sentences[0]
    if any(len(clause.split()) >= _CLAUSE_WORDS for clause in sentence.split(";")[1:]):
        # "The context does not mention them changing their name; the band has performed as
        # Fall Out Boy since 2001.": a clause of its own says what is so instead.
        return False
    norm = normalize_text(sentence)
    found = default_detector().decline(norm)
    if found is None or len(norm[: found.start].split()) > _OPENING_WORDS:
        return False
    return not _DENIAL.search(_DECLINING_NEGATION.sub(" ", norm[found.end :]))
