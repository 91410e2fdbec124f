"""Where an answer appears in a retrieved chunk, and how much of a chunk to keep.

Spans are found here, once, as character offsets; the page only wraps those
ranges of plain text in ``<mark>`` elements, so highlighting never needs markup
from the data. Matching is case-insensitive on word boundaries: a gold answer
"Paris" marks "paris" but not "Parisian".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

__all__ = ["Needle", "Span", "clip_chunk", "find_spans", "find_spans_of", "needles_for"]

Span = tuple[int, int, str]
"""``(start, end, kind)`` with kind ``gold`` or ``pred``."""

# Answers that would mark half of any page, or that are CRAG's verdict words rather
# than facts, are not looked for.
_SKIP = frozenset({"invalid question", "yes", "no", "true", "false", "i don't know"})
MIN_CHARS = 2
MAX_CHARS = 300
MAX_SPANS = 50
MAX_PREDICTION = 120
"""Longer predictions are sentences, not answers: looking for them verbatim finds nothing."""


@lru_cache(maxsize=4096)
def _pattern(text: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in text.split()]
    # Any run of white space in the chunk matches a space of the answer.
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)


def _usable(text: str) -> bool:
    t = text.strip()
    return MIN_CHARS <= len(t) <= MAX_CHARS and t.lower() not in _SKIP


Needle = tuple[str, list[str], str]
"""``(text, its lower-cased words, kind)``: what `find_spans_of` looks for."""


def needles_for(gold: Iterable[str], prediction: str | None = None) -> list[Needle]:
    """What to look for in the chunks of one question (prepared once per question)."""
    items = [(g.strip(), "gold") for g in gold if _usable(g)]
    if prediction is not None and _usable(prediction) and len(prediction) <= MAX_PREDICTION:
        items.append((prediction.strip(), "pred"))
    return [(text, [w.lower() for w in text.split()], kind) for text, kind in items]


def find_spans(text: str, gold: Iterable[str], prediction: str | None = None) -> list[Span]:
    """Non-overlapping spans of ``text`` that hold a gold answer or the prediction.

    Gold answers win over the prediction where they overlap; at most `MAX_SPANS`.
    """
    return find_spans_of(text, needles_for(gold, prediction))


def find_spans_of(text: str, needles: Sequence[Needle]) -> list[Span]:
    """`find_spans` with needles prepared by `needles_for`."""
    if not needles:
        return []
    found: list[Span] = []
    lowered = text.lower()
    # Lower-casing keeps offsets for nearly all text; where it does not (a few
    # characters change length), every position is tried instead.
    same_offsets = len(lowered) == len(text)
    for needle, words, kind in needles:
        # Plain substring tests rule out most chunks at C speed.
        if not all(w in lowered for w in words):
            continue
        pattern = _pattern(needle)
        if not same_offsets:
            found.extend((m.start(), m.end(), kind) for m in pattern.finditer(text))
            continue
        # Try the pattern only where its first word occurs.
        pos = lowered.find(words[0])
        while pos != -1 and len(found) < MAX_SPANS * 4:
            m = pattern.match(text, pos)
            if m is not None:
                found.append((m.start(), m.end(), kind))
                pos = lowered.find(words[0], m.end())
            else:
                pos = lowered.find(words[0], pos + 1)
    # Gold spans are placed first (longest first where they start together), then
    # prediction spans where they do not overlap one: the gold answer is what matters.
    found.sort(key=lambda s: (s[2] != "gold", s[0], -s[1]))
    spans: list[Span] = []
    for s in found:
        if any(s[0] < e and b < s[1] for b, e, _ in spans):
            continue
        spans.append(s)
        if len(spans) >= MAX_SPANS:
            break
    spans.sort()
    return spans


def clip_chunk(text: str, spans: list[Span], limit: int) -> tuple[str, list[Span], int, int]:
    """Keep at most ``limit`` characters of a chunk, centred on its first span.

    Returns the kept text, its spans (offsets into the kept text, cut spans dropped),
    and how many characters were cut before and after.
    """
    if len(text) <= limit:
        return text, spans, 0, 0
    centre = spans[0][0] if spans else 0
    start = max(0, min(centre - limit // 3, len(text) - limit))
    end = start + limit
    kept = [(s - start, e - start, k) for s, e, k in spans if s >= start and e <= end]
    return text[start:end], kept, start, len(text) - end
