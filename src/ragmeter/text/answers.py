"""Does a piece of evidence contain a gold answer? Normalised matching for recall metrics.

Both sides are normalised the same way: Unicode compatibility form, accents
removed, lower case, thousands separators dropped between digits ("3,696" →
"3696"), trailing decimal zeros dropped ("2.50" → "2.5"), then split into word
and number tokens; the articles "a", "an" and "the" are ignored on both sides.

An answer alias is matched in one of two ways:

- **phrase** (up to `PHRASE_MAX_TOKENS` tokens, e.g. "universal pictures",
  "$1.23", "march 2, 2024"): its tokens must appear contiguously in one piece
  of evidence.
- **key terms** (longer, sentence-like answers, common in CRAG: "the shortest
  highway in the us, i-878 in new york, is only 3,696 feet long"): the answer's
  key terms are its numbers and its content words that are not in the question
  and not common function words. Evidence holds the answer when it contains
  every key number and at least `KEY_WORD_FRACTION` of the key words. For
  ranked evidence the terms may be spread over several chunks: an answer
  counts as found within the top k when the union of those chunks satisfies
  the rule.

Answers that text cannot attest are **unmatchable** and left out of recall
(counted, with a reason): yes/no answers, CRAG's "invalid question" and
"i don't know", and answers with no key terms at all.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "KEY_WORD_FRACTION",
    "PHRASE_MAX_TOKENS",
    "AnswerKey",
    "EvidenceTokens",
    "answer_keys",
    "first_hit_rank",
    "normalize_tokens",
]

PHRASE_MAX_TOKENS = 5
"""Aliases with at most this many tokens (articles excluded) must appear as a phrase."""
KEY_WORD_FRACTION = 0.6
"""Share of a long answer's key words that evidence must contain (all key numbers are needed)."""

_ARTICLES = frozenset({"a", "an", "the"})
# Function words and very common words that carry no answer on their own.
_COMMON_WORDS = """
    a an the and or but nor so yet if then than as at by for from in into of off on onto out
    over to under up upon with within without about above across after against along among
    around before behind below beneath beside besides between beyond during except inside
    near since through throughout toward towards until via per i me my mine we us our ours
    you your yours he him his she her hers it its they them their theirs this that these
    those who whom whose which what when where why how there here is am are was were be been
    being do does did done doing have has had having will would shall should can could may
    might must ought also only just very too quite rather really not no yes all any both
    each either neither every few many more most much other some such same own one ones
    another several lot lots answer answers question questions s t d ll m o re ve y
"""
_COMMON = frozenset(_COMMON_WORDS.split())
_NON_ANSWERS = frozenset(
    {"yes", "no", "true", "false", "invalid question", "i don't know", "i dont know", ""}
)

_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_THOUSANDS = re.compile(r"(?<=\d)[,\u066c\u2009\u202f](?=\d{3}(?!\d))")
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+")
_TRAILING_ZEROS = re.compile(r"^(\d+)\.(\d*?)0+$")


def _fold(text: str) -> str:
    if not text.isascii():
        text = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    return text.lower()


def _number(tok: str) -> str:
    if "." in tok:
        m = _TRAILING_ZEROS.match(tok)
        if m:
            return m.group(1) + ("." + m.group(2) if m.group(2) else "")
    return tok


def normalize_tokens(text: str) -> list[str]:
    """Normalised word and number tokens of ``text``, articles removed."""
    text = _THOUSANDS.sub("", _fold(text))
    out = []
    for tok in _TOKEN.findall(text):
        if tok in _ARTICLES:
            continue
        out.append(_number(tok) if tok[0].isdigit() else tok)
    return out


@dataclass(frozen=True)
class EvidenceTokens:
    """One piece of evidence, normalised once: a padded token string and a token set."""

    joined: str
    tokens: frozenset[str]

    @classmethod
    def of(cls, text: str) -> EvidenceTokens:
        """Normalise ``text`` for matching."""
        toks = normalize_tokens(text)
        return cls(" " + " ".join(toks) + " ", frozenset(toks))


@dataclass(frozen=True)
class AnswerKey:
    """How one answer alias is recognised in evidence."""

    alias: str
    kind: Literal["phrase", "key_terms", "unmatchable"]
    phrase: str = ""
    numbers: frozenset[str] = field(default_factory=frozenset)
    words: frozenset[str] = field(default_factory=frozenset)
    reason: str = ""

    @property
    def words_needed(self) -> int:
        """How many key words evidence must contain."""
        return math.ceil(KEY_WORD_FRACTION * len(self.words))

    def in_text(self, evidence: EvidenceTokens) -> bool:
        """True when ``evidence`` alone holds this answer."""
        if self.kind == "phrase":
            return self.phrase in evidence.joined
        if self.kind == "key_terms":
            return self.satisfied_by(evidence.tokens)
        return False

    def satisfied_by(self, tokens: frozenset[str] | set[str]) -> bool:
        """Key-term rule over a set of tokens (possibly the union of several chunks)."""
        if not self.numbers <= tokens:
            return False
        return len(self.words & tokens) >= self.words_needed


def _key(alias: str, query_tokens: frozenset[str]) -> AnswerKey:
    folded = " ".join(_fold(alias).split())
    if folded.strip(" .!") in _NON_ANSWERS:
        return AnswerKey(alias, "unmatchable", reason="yes/no or non-answer")
    toks = normalize_tokens(alias)
    if not toks:
        return AnswerKey(alias, "unmatchable", reason="no words or numbers")
    if len(toks) <= PHRASE_MAX_TOKENS:
        return AnswerKey(alias, "phrase", phrase=" " + " ".join(toks) + " ")
    numbers = frozenset(t for t in toks if t[0].isdigit() and t not in query_tokens)
    words = frozenset(
        t
        for t in toks
        if not t[0].isdigit() and len(t) > 1 and t not in _COMMON and t not in query_tokens
    )
    if not numbers and not words:
        return AnswerKey(alias, "unmatchable", reason="no key terms beyond the question")
    return AnswerKey(alias, "key_terms", numbers=numbers, words=words)


def answer_keys(answers: Sequence[Sequence[str]], query: str) -> list[list[AnswerKey]]:
    """Per required answer, the matchable keys of its aliases (empty when none is matchable)."""
    q = frozenset(normalize_tokens(query))
    out = []
    for aliases in answers:
        keys = [_key(a, q) for a in aliases if isinstance(a, str)]
        out.append([k for k in keys if k.kind != "unmatchable"])
    return out


def first_hit_rank(keys: Sequence[AnswerKey], ranked: Iterable[EvidenceTokens]) -> int | None:
    """1-based rank at which ranked evidence first holds any of ``keys``; None if never.

    Phrases must sit inside one chunk; key terms may be spread over the chunks
    ranked so far.
    """
    seen: set[str] = set()
    phrase_keys = [k for k in keys if k.kind == "phrase"]
    term_keys = [k for k in keys if k.kind == "key_terms"]
    for rank, ev in enumerate(ranked, start=1):
        if any(k.phrase in ev.joined for k in phrase_keys):
            return rank
        if term_keys:
            seen |= ev.tokens
            if any(k.satisfied_by(seen) for k in term_keys):
                return rank
    return None
