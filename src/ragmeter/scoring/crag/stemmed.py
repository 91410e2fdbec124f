"""A span passed through a stemmer, read with the gold's own words.

A pipeline that normalises its answers as its retriever normalises text (Porter stemming,
lower case) submits stems: "treati of ghent", "detroit piston", "the carpent", "dolli
parton". A reader knows the words they stand for. `stems_as_gold_words` writes each stem as
the gold's word it is the stem of, so that the rules and judges compare words with words;
a word that is not one of the gold's stems stays as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["stems_as_gold_words"]

# What a stemmer strips from the end of a word (and "y" it writes as "i").
_SUFFIXES = frozenset(
    {"s", "es", "e", "ed", "ing", "er", "ers", "ly", "ment", "ments", "ness", "al", "ation",
     "ations", "ion", "ions", "ate", "ates", "ive", "ize", "izes"}
)  # fmt: skip
_SPAN = re.compile(r"[^\W_]+(?:['\s][^\W_]+)*")
_SPAN_WORDS = 8


def stems_as_gold_words(text: str, answers: Sequence[str]) -> str:
    """``text`` with each stem of a gold word written as that word, when ``text`` is a short
    lower-case span; any other text as it is."""
    span = text.strip().rstrip(".")
    words = span.split()
    lower = span == span.lower() and _SPAN.fullmatch(span) is not None
    if not answers or not lower or not 0 < len(words) <= _SPAN_WORDS:
        return text
    gold = set(re.findall(r"[^\W_]+", " ".join(answers).lower()))
    written = []
    for word in words:
        found = {g for g in gold if _is_stem(word, g)}
        written.append(found.pop() if len(found) == 1 and word not in gold else word)
    return text if written == words else " ".join(written)


def _is_stem(stem: str, word: str) -> bool:
    """True when a stemmer writes ``word`` as ``stem`` ("treaty" as "treati")."""
    if len(stem) < 2 or len(word) < len(stem):
        return False
    if word.startswith(stem) and word[len(stem) :] in _SUFFIXES:
        return True
    return (
        stem.endswith("i")
        and word.startswith(stem[:-1])
        and word[len(stem) - 1 :] in ("y", "ies", "ied")
    )
