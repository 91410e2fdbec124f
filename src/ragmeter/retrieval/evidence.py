"""A question's own evidence as chunks: its web pages (CRAG) or its passages (ALCE/Trust-Score).

``doc_index`` of a chunk is the index of its page in ``Question.pages`` or of
its passage in ``Question.passages``, so metrics can map chunks back to gold
documents (``answers_found``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ragmeter.text.cache import TextCache
from ragmeter.text.chunk import Chunk, ChunkParams, chunk_text
from ragmeter.text.extract import ExtractedPage
from ragmeter.types import Question

__all__ = ["QuestionEvidence", "question_evidence"]


@dataclass
class QuestionEvidence:
    """The chunks of one question, and the pages that could not be read (with reasons)."""

    chunks: list[Chunk]
    pages: list[ExtractedPage] = field(default_factory=list)

    @property
    def empty_pages(self) -> list[tuple[int, str]]:
        """``(page index, reason)`` for every page that gave no text."""
        return [(i, p.empty_reason) for i, p in enumerate(self.pages) if p.empty_reason]


def question_evidence(
    question: Question,
    cache: TextCache | None = None,
    params: ChunkParams | None = None,
) -> QuestionEvidence:
    """Extract (through the content-hash cache) and chunk a question's pages or passages."""
    params = params or ChunkParams()
    if question.pages:
        cache = cache if cache is not None else TextCache(None)
        pages = cache.extract_pages(question.pages)
        chunks: list[Chunk] = []
        for i, page in enumerate(pages):
            if page.text:
                chunks.extend(chunk_text(page.text, params, doc_index=i, source=page.url))
        return QuestionEvidence(chunks, pages)
    chunks = []
    for i, passage in enumerate(question.passages):
        text = f"{passage.title}\n{passage.text}" if passage.title else passage.text
        chunks.extend(chunk_text(text, params, doc_index=i, source=passage.title))
    return QuestionEvidence(chunks)
