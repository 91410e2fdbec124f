"""Retrieval metrics: answer recall@k, MRR, and recall of gold-bearing documents.

- **answer recall@k**: for each required answer of a question, whether any of
  its aliases is found in the top-k chunks (see `ragmeter.text.answers` for how
  phrases and sentence-long answers are matched); a question scores the share
  of its required answers found (0 or 1 for CRAG, which has one).
- **MRR**: the reciprocal of the rank at which the first required answer is
  found (0 when not found within the ranking evaluated, i.e. the largest k).
- **document recall@k** (data with ``answers_found``, e.g. Trust-Score): the
  share of a question's gold-bearing passages (any ``answers_found`` set) that
  have a chunk in the top k.

Questions whose answers no text can attest (yes/no, "invalid question", "i
don't know") are not scored for answer recall; they are counted in
``unmatchable``, never silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import Field

from ragmeter.retrieval.base import Hit
from ragmeter.text.answers import EvidenceTokens, answer_keys, first_hit_rank
from ragmeter.types import Question, Record

__all__ = [
    "MetricSummary",
    "QuestionRetrieval",
    "RetrievalReport",
    "aggregate",
    "score_question",
]


class QuestionRetrieval(Record):
    """The retrieval metrics of one question."""

    id: str
    slices: dict[str, str] = Field(default_factory=dict)
    answer_recall: dict[str, float] | None = None
    """Per k (as a string), the share of required answers found; None when unmatchable."""
    first_hit: int | None = None
    doc_recall: dict[str, float] | None = None
    """Per k, the share of gold-bearing documents retrieved; None without ``answers_found``."""
    unmatchable_reason: str | None = None

    @property
    def reciprocal_rank(self) -> float:
        """1 / rank of the first answer found, 0 if none."""
        return 1.0 / self.first_hit if self.first_hit else 0.0


def _gold_docs(question: Question) -> set[int] | None:
    flags = [p.answers_found for p in question.passages]
    if not flags or all(f is None for f in flags):
        return None
    return {i for i, f in enumerate(flags) if f and any(f)}


def score_question(question: Question, hits: Sequence[Hit], ks: Sequence[int]) -> QuestionRetrieval:
    """Metrics of one question's ranked hits (the ranking should hold at least max(ks) hits)."""
    keys = answer_keys(question.answers, question.query)
    matchable = [k for k in keys if k]
    evidence = [EvidenceTokens.of(h.chunk.text) for h in hits]
    result = QuestionRetrieval(id=question.id, slices=question.labels.as_slices())
    if matchable:
        ranks = [first_hit_rank(k, evidence) for k in matchable]
        result.answer_recall = {
            str(k): sum(1 for r in ranks if r is not None and r <= k) / len(ranks) for k in ks
        }
        found = [r for r in ranks if r is not None]
        result.first_hit = min(found) if found else None
    else:
        result.unmatchable_reason = (
            "no gold answer" if not question.answers else "answer cannot be matched in text"
        )
    gold = _gold_docs(question)
    if gold:
        result.doc_recall = {}
        for k in ks:
            got = {h.chunk.doc_index for h in hits[:k]}
            result.doc_recall[str(k)] = len(gold & got) / len(gold)
    return result


class MetricSummary(Record):
    """Averages over a group of questions (None where no question could be scored)."""

    n: int
    recall_at_k: dict[str, float | None]
    mrr: float | None
    doc_recall_at_k: dict[str, float] | None = None
    n_doc: int = 0


class RetrievalReport(MetricSummary):
    """Overall and per-slice averages, with the count of questions left out of answer recall."""

    slices: dict[str, dict[str, MetricSummary]] = Field(default_factory=dict)
    unmatchable: int = 0
    questions: int = 0

    def public_json(self) -> dict[str, object]:
        """The ``--json`` shape: ``n``, ``recall_at_k``, ``mrr``, ``slices`` (+ document recall
        when the data has ``answers_found``)."""

        def summary(s: MetricSummary) -> dict[str, object]:
            out: dict[str, object] = {"n": s.n, "recall_at_k": s.recall_at_k, "mrr": s.mrr}
            if s.doc_recall_at_k is not None:
                out["doc_recall_at_k"] = s.doc_recall_at_k
            return out

        body = summary(self)
        body["slices"] = {
            name: {value: summary(s) for value, s in group.items()}
            for name, group in self.slices.items()
        }
        return body


def _summary(items: Sequence[QuestionRetrieval], ks: Sequence[int]) -> MetricSummary:
    scored = [q for q in items if q.answer_recall is not None]
    docs = [q for q in items if q.doc_recall is not None]
    n = len(scored)
    # An empty group has no recall: None (null in JSON), never a made-up 0.
    recall: dict[str, float | None] = {
        str(k): (sum(q.answer_recall[str(k)] for q in scored if q.answer_recall) / n if n else None)
        for k in ks
    }
    mrr = sum(q.reciprocal_rank for q in scored) / n if n else None
    doc = None
    if docs:
        doc = {
            str(k): sum(q.doc_recall[str(k)] for q in docs if q.doc_recall) / len(docs) for k in ks
        }
    return MetricSummary(n=n, recall_at_k=recall, mrr=mrr, doc_recall_at_k=doc, n_doc=len(docs))


def aggregate(items: Iterable[QuestionRetrieval], ks: Sequence[int]) -> RetrievalReport:
    """Overall and per-slice (every label: domain, question type...) averages."""
    items = list(items)
    overall = _summary(items, ks)
    groups: dict[str, dict[str, list[QuestionRetrieval]]] = {}
    for q in items:
        for name, value in q.slices.items():
            groups.setdefault(name, {}).setdefault(value, []).append(q)
    slices = {
        name: {value: _summary(qs, ks) for value, qs in sorted(group.items())}
        for name, group in sorted(groups.items())
    }
    return RetrievalReport(
        **overall.model_dump(),
        slices=slices,
        unmatchable=sum(1 for q in items if q.unmatchable_reason),
        questions=len(items),
    )
