"""Sentence- and paragraph-aware chunking with stable ids and character offsets.

A text (usually an `ExtractedPage`'s) is cut into sentences: every line is a
unit of its own (a list item, a table row, a heading), and lines are split
further at sentence ends. Sentences are packed greedily into chunks of at most
``max_tokens`` tokens (whitespace-separated words; MiniLM sees about 1.3
word pieces per word, so the default 96 stays well inside its 256-piece
window). When a chunk is full, the next one starts with the last sentences of
the previous one, up to ``overlap_tokens``. At a paragraph break (a blank
line) a chunk that already holds ``min_tokens`` is closed without overlap, so
paragraphs are not split needlessly. A sentence longer than ``max_tokens`` is
cut into windows of words.

Every chunk is a contiguous slice ``text[start:end]`` of the input, and its id
is a hash of its text: identical passages on duplicated pages get the same id
(retrievers keep the first), and ids do not change between runs.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import Field

from ragmeter.types import Record

__all__ = ["Chunk", "ChunkParams", "chunk_id", "chunk_text", "split_sentences"]


class ChunkParams(Record):
    """Chunking settings; part of every index manifest and cache key."""

    max_tokens: int = Field(default=96, ge=8)
    overlap_tokens: int = Field(default=16, ge=0)
    min_tokens: int = Field(default=32, ge=0)
    """A chunk holding at least this many tokens is closed at a paragraph break."""

    def key(self) -> str:
        """A short string naming these settings (for cache keys and manifests)."""
        return f"w{self.max_tokens}-o{self.overlap_tokens}-m{self.min_tokens}"


class Chunk(Record):
    """A piece of one document's text, with where it sits in that text."""

    chunk_id: str
    text: str
    doc_index: int = 0
    """Index of the page or passage within its question (or within a corpus)."""
    source: str = ""
    """Page URL or passage title."""
    start: int
    end: int
    n_tokens: int


def chunk_id(text: str) -> str:
    """The stable id of a chunk: 16 hex digits of the SHA-256 of its text."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# A sentence ends at . ! or ? (optionally followed by closing quotes or brackets)
# before white space and an upper-case letter, a digit or an opening quote.
_BOUNDARY = re.compile(r"""[.!?]["'\u201d\u2019)\]]*(?=\s+["'\u201c\u2018(\[]?[A-Z0-9])""")
_ABBREVIATION_WORDS = """
    mr mrs ms dr prof sr jr st mt ft vs etc inc ltd co corp no nos vol fig approx est jan
    feb mar apr jun jul aug sep sept oct nov dec u.s e.g i.e a.m p.m
"""
_ABBREVIATIONS = frozenset(_ABBREVIATION_WORDS.split())
_WORD = re.compile(r"\S+")


def _is_abbreviation(text: str, dot: int) -> bool:
    i = dot
    stop = max(0, dot - 12)  # longer words are never abbreviations
    while i > stop and not text[i - 1].isspace():
        i -= 1
    word = text[i:dot].lower().lstrip("(\"'")
    if not word:
        return False
    # Single initials ("J. K. Rowling") and known abbreviations do not end a sentence.
    return (len(word) == 1 and word.isalpha()) or word in _ABBREVIATIONS


def split_sentences(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """Character spans of the sentences of ``text[start:end]``, white space trimmed."""
    end = len(text) if end is None else end
    pos = start
    for m in _BOUNDARY.finditer(text, start, end):
        if text[m.start()] == "." and _is_abbreviation(text, m.start()):
            continue
        yield from _trimmed(text, pos, m.end())
        pos = m.end()
    yield from _trimmed(text, pos, end)


def _trimmed(text: str, a: int, b: int) -> Iterator[tuple[int, int]]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    if a < b:
        yield a, b


@dataclass
class _Unit:
    start: int
    end: int
    tokens: int
    para_start: bool


def _units(text: str, max_tokens: int) -> Iterator[_Unit]:
    para_start = True
    pos = 0
    for line in text.split("\n"):
        a, b = pos, pos + len(line)
        pos = b + 1
        if not line or line.isspace():
            para_start = True
            continue
        for s, e in split_sentences(text, a, b):
            n = len(text[s:e].split())
            if n <= max_tokens:
                yield _Unit(s, e, n, para_start)
                para_start = False
                continue
            # Only an overlong sentence pays for word offsets.
            words = [m.span() for m in _WORD.finditer(text, s, e)]
            for i in range(0, len(words), max_tokens):
                piece = words[i : i + max_tokens]
                yield _Unit(piece[0][0], piece[-1][1], len(piece), para_start)
                para_start = False


def chunk_text(
    text: str,
    params: ChunkParams | None = None,
    doc_index: int = 0,
    source: str = "",
) -> list[Chunk]:
    """Cut ``text`` into chunks (see the module docstring for the rules)."""
    params = params or ChunkParams()
    chunks: list[Chunk] = []
    current: list[_Unit] = []
    size = 0

    def emit() -> None:
        s, e = current[0].start, current[-1].end
        piece = text[s:e]
        chunks.append(
            Chunk(
                chunk_id=chunk_id(piece),
                text=piece,
                doc_index=doc_index,
                source=source,
                start=s,
                end=e,
                n_tokens=size,
            )
        )

    for unit in _units(text, params.max_tokens):
        if current and unit.para_start and size >= params.min_tokens:
            emit()
            current, size = [], 0
        elif current and size + unit.tokens > params.max_tokens:
            emit()
            keep: list[_Unit] = []
            kept = 0
            for u in reversed(current[1:]):
                if kept + u.tokens > params.overlap_tokens:
                    break
                keep.insert(0, u)
                kept += u.tokens
            current, size = keep, kept
            if size + unit.tokens > params.max_tokens:
                current, size = [], 0
        current.append(unit)
        size += unit.tokens
    if current:
        emit()
    return chunks
