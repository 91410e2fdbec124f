"""Diagnose scored questions: was the answer findable, found, and does the evidence back it?

Three signals per scored question, then its category (`categories.categorize`):

- ``answer_in_pages`` / ``answer_in_evidence``: a gold answer (or an alias) found in the
  text of the question's own pages / in the evidence the system used, with the
  project's answer matching (`ragmeter.text.answers`: normalised phrases, key terms of
  sentence-long answers);
- ``supported``: the evidence entails the system's answer, asked of an LLM through
  the NLI code of the attribution scorer (one call per answered question);
- the CRAG label the run gave.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

from ragmeter.diagnosis.categories import categorize
from ragmeter.diagnosis.records import SampleDiagnosis
from ragmeter.scoring.attribution.nli import NLI
from ragmeter.text.answers import EvidenceTokens, answer_keys, first_hit_rank
from ragmeter.text.cache import TextCache
from ragmeter.types import Answer, Question

__all__ = ["answer_found", "diagnose", "evidence_texts", "is_false_premise", "support_claim"]

_FALSE_PREMISE_GOLD = "invalid question"


def is_false_premise(question: Question) -> bool:
    """CRAG's false-premise questions: labeled so, or with the gold "invalid question"."""
    gold = (question.answer or "").strip().lower().rstrip(".")
    return question.labels.question_type == "false_premise" or gold == _FALSE_PREMISE_GOLD


def answer_found(question: Question, texts: Iterable[str]) -> bool | None:
    """Whether ``texts`` hold the question's first required answer (any alias).

    None when no alias can be attested by text (yes/no, "invalid question", "i don't
    know"). Phrases must sit inside one text; a sentence-long answer's key terms may be
    spread over several.
    """
    keys = answer_keys(question.answers[:1], question.query)
    if not keys or not keys[0]:
        return None
    return first_hit_rank(keys[0], (EvidenceTokens.of(t) for t in texts)) is not None


def evidence_texts(question: Question, answer: Answer | None) -> list[str]:
    """The evidence the system used: its retrieved chunks, or the documents it was shown."""
    if answer is None:
        return []
    if answer.retrieved:
        return [c.text for c in answer.retrieved]
    shown = answer.extras.get("documents_shown")
    if isinstance(shown, int) and question.passages:
        return [f"{p.title}\n{p.text}".strip() for p in question.passages[:shown]]
    return []


def page_texts(question: Question, cache: TextCache | None) -> list[str]:
    """The plain text of each of the question's pages (or passages)."""
    if question.pages:
        pages = (cache or TextCache(None)).extract_pages(question.pages)
        return [p.text for p in pages if p.text]
    return [f"{p.title}\n{p.text}".strip() for p in question.passages]


def support_claim(question: Question, prediction: str) -> str:
    """The statement whose entailment by the evidence means the answer is supported."""
    return f'The answer to the question "{question.query}" is: {prediction.strip()}'


def _numbered(texts: Sequence[str]) -> str:
    return "\n".join(f"[{i}] {t.strip()}" for i, t in enumerate(texts, 1))


async def diagnose(
    items: Iterable[tuple[Question, Any]],
    nli: NLI,
    *,
    cache: TextCache | None = None,
) -> list[SampleDiagnosis]:
    """Diagnose each scored ``(question, record)`` pair (records: ``RunRecord``-like).

    Unscored records are skipped. Page text comes through ``cache`` (extracted once per
    page content). Support is asked only for questions the system answered.
    """
    pending: list[tuple[Question, Any, list[str], bool | None, bool | None]] = []
    for question, record in items:
        if record.label == "unscored":
            continue
        answer: Answer | None = record.answer
        evidence = evidence_texts(question, answer)
        pages = await asyncio.to_thread(page_texts, question, cache)
        in_pages = answer_found(question, pages) if pages else None
        in_evidence = answer_found(question, evidence)
        pending.append((question, record, evidence, in_pages, in_evidence))
    pairs = [
        (_numbered(ev), support_claim(q, r.prediction or ""))
        for q, r, ev, _, _ in pending
        if r.label != "missing" and ev
    ]
    probabilities = iter(await nli.probabilities(pairs)) if pairs else iter(())
    out = []
    for question, record, evidence, in_pages, in_evidence in pending:
        p_support = None
        supported = None
        if record.label != "missing" and evidence:
            p_support = next(probabilities)
            supported = nli.entails(p_support)
        false_premise = is_false_premise(question)
        note = None
        if not evidence:
            note = "no evidence on the answer (nothing retrieved or shown)"
        if record.answer is None:
            note = record.missing_reason or "no answer"
        out.append(
            SampleDiagnosis(
                id=record.id,
                label=record.label,
                category=categorize(
                    record.label,
                    false_premise=false_premise,
                    answer_in_evidence=in_evidence,
                    answer_in_pages=in_pages,
                    supported=supported,
                ),
                false_premise=false_premise,
                answer_in_pages=in_pages,
                answer_in_evidence=in_evidence,
                supported=supported,
                support_probability=p_support,
                evidence_chunks=len(evidence),
                note=note,
            )
        )
    return out
