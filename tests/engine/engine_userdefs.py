"""User systems for engine tests, loaded by file path the way a user's own code is."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from ragmeter.types import Question


def first_snippet(q: Question) -> str:
    """Answers with the start of the first page's snippet (deterministic, instant)."""
    return q.pages[0].snippet[:40] if q.pages else "i don't know"


def slow_first_snippet(q: Question) -> str:
    """Like `first_snippet`, but takes a while (so a run can be killed halfway)."""
    time.sleep(float(os.environ.get("RAGMETER_TEST_DELAY", "0.3")))
    return first_snippet(q)


def gold_answer(q: Question) -> str:
    """Answers with the gold answer (correct by the exact-match rule)."""
    return q.answer or ""


async def never_finishes(q: Question) -> str:
    """Overruns any time budget."""
    await asyncio.sleep(3600)
    return "too late"


def fails_on_comparisons(q: Question) -> str:
    """Fails on comparison questions (unless RAGMETER_TEST_FIXED is set), answers the rest."""
    if q.labels.question_type == "comparison" and not os.environ.get("RAGMETER_TEST_FIXED"):
        raise RuntimeError(f"cannot compare in {q.id}")
    return gold_answer(q)


class OfficialModel:
    """A participant class with the official CRAG interface (batches of 3)."""

    def __init__(self, refuse_every: int = 2):
        self.refuse_every = refuse_every
        self.batches: list[int] = []

    def get_batch_size(self) -> int:
        return 3

    def batch_generate_answer(self, batch: dict[str, Any]) -> list[str]:
        for key in ("interaction_id", "query", "search_results", "query_time"):
            assert len(batch[key]) == len(batch["query"])
        self.batches.append(len(batch["query"]))
        answers = []
        for i, results in enumerate(batch["search_results"]):
            # Every page arrives with its HTML under the official key.
            assert all(isinstance(r["page_result"], str) for r in results)
            name = results[0]["page_name"] if results else ""
            answers.append("i don't know" if i % self.refuse_every else name or "no name")
        return answers


def confident_snippet(q: Question) -> dict[str, Any]:
    """The gold answer when the query has an even length, a wrong one otherwise, with
    confidences that rank them right (a user's system returning its own confidence)."""
    right = len(q.query) % 2 == 0
    return {
        "answer": (q.answer or "") if right else "Atlantis",
        "confidence": 0.9 if right else 0.1,
    }


class ConfidentOfficialModel:
    """The official interface, answering with mappings that carry a confidence."""

    def get_batch_size(self) -> int:
        return 2

    def batch_generate_answer(self, batch: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"answer": "Atlantis", "confidence": 0.25} for _ in batch["query"]]


def snippet_with_evidence(q: Question) -> dict[str, Any]:
    """Answers with the start of the first snippet and returns the snippets it used as evidence,
    with a confidence (a user's RAG system behind the callable adapter)."""
    snippets = [p.snippet for p in q.pages[:3] if p.snippet]
    return {
        "answer": snippets[0][:40] if snippets else "i don't know",
        "confidence": min(1.0, len(snippets[0]) / 400) if snippets else None,
        "retrieved": [
            {"chunk_id": f"{q.id}:{i}", "text": s, "score": 1.0 / (i + 1), "source": q.pages[i].url}
            for i, s in enumerate(snippets)
        ],
    }
