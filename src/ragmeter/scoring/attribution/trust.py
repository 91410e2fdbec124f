"""Trust-Score: grounded refusals, calibrated answer correctness, grounded citations.

A trustworthy attributed answer refuses exactly when its documents hold no
answer, is correct about what the documents support, and cites passages that
support it. Per data set (ASQA, QAMPARI, ELI5, ExpertQA):

- **answerability** of a question: some document supports some gold answer
  (the OR of the documents' ``answers_found``);
- **grounded refusals** ``F1_GR``: the mean of the F1 of refusing the
  unanswerable questions and the F1 of answering the answerable ones;
- **answer correctness** ``F1_AC``: per answered and answerable question, the
  correctness over the gold answers the documents support (STR-EM for ASQA,
  F1 of precision and recall-5 for QAMPARI, claim recall by NLI for ELI5 and
  ExpertQA); its sum over answered ∩ answerable questions divided by the
  answered count (precision) and by the answerable count (recall), then F1;
- **grounded citations** ``F1_GC``: the F1 of mean citation recall and mean
  citation precision (ALCE's definitions) over the answered questions;
- **TRUST**: the mean of the three.

Every figure has a bootstrap interval (questions resampled, the figure
recomputed). Bad input is counted, never dropped: documents without
``answers_found`` (answerability then comes from NLI when claims allow it,
else the question is left out of the refusal and correctness figures and
counted), answers without citations, citations to documents that do not
exist, empty outputs (counted and treated as refusals: they give no answer).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from pydantic import Field

from ragmeter.scoring.attribution.alce import (
    AnswerKind,
    CitationQuality,
    answer_kind,
    answers_present,
    citation_quality,
    format_passage,
    qampari_scores,
    remove_citations,
)
from ragmeter.scoring.attribution.nli import NLI
from ragmeter.scoring.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED, Estimate
from ragmeter.scoring.phrases import data_file
from ragmeter.scoring.refusal import RefusalDetector, is_refusal
from ragmeter.types import Passage, Question, Record

__all__ = [
    "TrustItem",
    "TrustResult",
    "aggregate_trust",
    "is_attributed_refusal",
    "score_trust_item",
    "trust_by_dataset",
]


@lru_cache(maxsize=1)
def _attributed_refusals() -> RefusalDetector:
    return RefusalDetector.from_file(
        data_file("trust_refusal_phrases.txt", "ragmeter.scoring.attribution")
    )


def is_attributed_refusal(text: str) -> bool:
    """A refusal by the general phrases, or one saying the documents hold no answer."""
    return is_refusal(text) or _attributed_refusals().match(text) is not None


class TrustItem(Record):
    """The Trust-Score ingredients of one answered (or refused) question."""

    id: str
    dataset: str
    refused: bool
    answerable: bool | None
    """None when no document says which answers it holds and NLI could not tell."""
    n_answers: int
    n_supported_answers: int
    """Gold answers some document supports (the calibrated answer set)."""
    correctness: float | None = None
    """Calibrated correctness; set for answered and answerable questions only."""
    citation: CitationQuality | None = None
    """Citation recall and precision; set for answered questions only."""
    issues: list[str] = Field(default_factory=list)
    """Bad-input marks: empty_output, no_answers_found, answers_found_computed (by string match,
    when the file had none), answers_found_by_nli, no_gold_answers, no_citations, bad_citations."""


async def _answers_found(
    question: Question, docs: Sequence[Passage], kind: AnswerKind, nli: NLI | None
) -> tuple[list[int] | None, list[str]]:
    """The OR over documents of ``answers_found``, filling gaps by string match or NLI."""
    answers = question.answers
    n = len(answers)
    union = [0] * n
    issues: list[str] = []
    if any(d.answers_found_computed for d in docs):
        issues.append("answers_found_computed")
    missing = [d for d in docs if d.answers_found is None]
    for d in docs:
        if d.answers_found is not None:
            if len(d.answers_found) != n:
                raise ValueError(
                    f"question {question.id}: a document's answers_found has "
                    f"{len(d.answers_found)} entries for {n} answers"
                )
            union = [u | int(bool(a)) for u, a in zip(union, d.answers_found, strict=True)]
    if missing:
        issues.append("no_answers_found")
        if kind != "claims":
            for d in missing:
                found = answers_present(question.answers, d.text)
                union = [u | int(f) for u, f in zip(union, found, strict=True)]
        elif nli is not None:
            issues.append("answers_found_by_nli")
            slots = [(d, j) for d in missing for j, a in enumerate(question.answers) if a]
            probs = await nli.probabilities([(format_passage(d), answers[j][0]) for d, j in slots])
            for (_, j), p in zip(slots, probs, strict=True):
                if nli.entails(p):
                    union[j] = 1
        else:
            return None, issues
    return union, issues


async def score_trust_item(
    question: Question,
    output: str,
    nli: NLI,
    *,
    docs: Sequence[Passage] | None = None,
    citations: Sequence[Sequence[int]] | None = None,
    kind: AnswerKind | None = None,
    refused: bool | None = None,
    max_citations: int | None = 3,
) -> TrustItem:
    """Score one answer for Trust-Score.

    ``docs`` are the documents the answer was written from and cites from 1
    (default: all of the question's passages). ``refused`` overrides the
    phrase-based refusal detector. ``citations`` are 0-based per-sentence
    citations for answers without ``[n]`` marks (see `alce.cited_sentences`).
    """
    docs = list(question.passages if docs is None else docs)
    kind = kind or answer_kind(question.dataset)
    issues: list[str] = []
    text = output.strip()
    if not text:
        issues.append("empty_output")
    is_refused = (
        (not text or is_attributed_refusal(remove_citations(text))) if refused is None else refused
    )
    answers = question.answers
    union: list[int] | None
    if not answers:
        issues.append("no_gold_answers")
        union = None
    else:
        union, found_issues = await _answers_found(question, docs, kind, nli)
        issues.extend(found_issues)
    answerable = None if union is None else any(union)
    supported = [a for a, u in zip(answers, union or [], strict=False) if u]

    correctness = None
    if not is_refused and answerable:
        if kind == "short":
            present = answers_present(supported, text)
            correctness = sum(present) / len(present)
        elif kind == "list":
            correctness = qampari_scores(supported, text).f1_5
        else:
            premise = remove_citations(text)
            claims = [a[0] for a in supported]
            probs = await nli.probabilities([(premise, c) for c in claims])
            correctness = sum(nli.entails(p) for p in probs) / len(claims)

    citation = None
    if not is_refused:
        citation = await citation_quality(
            nli,
            text,
            docs,
            citations=citations,
            qampari_question=question.query if kind == "list" else None,
            max_citations=max_citations,
        )
        if citation.sentences_without_citations:
            issues.append("no_citations")
        if citation.bad_citations:
            issues.append("bad_citations")
    return TrustItem(
        id=question.id,
        dataset=question.dataset,
        refused=is_refused,
        answerable=answerable,
        n_answers=len(answers),
        n_supported_answers=len(supported),
        correctness=correctness,
        citation=citation,
        issues=issues,
    )


# ---------------------------------------------------------------- aggregation

FloatArray = npt.NDArray[np.float64]


def _div(num: FloatArray, den: FloatArray) -> FloatArray:
    """num / den, 0 where den is 0 (Trust-Score's convention; the counts are reported beside)."""
    out: FloatArray = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
    return out


def _f1(p: FloatArray, r: FloatArray) -> FloatArray:
    return _div(2 * p * r, p + r)


class _Columns:
    """Per-question columns; every statistic works on a (resamples, n) weight matrix."""

    def __init__(self, items: Sequence[TrustItem]):
        known = [i.answerable is not None for i in items]
        self.known = np.array(known, dtype=np.float64)
        self.refused = np.array([i.refused for i in items], dtype=np.float64)
        self.answered = 1.0 - self.refused
        self.answerable = np.array([bool(i.answerable) for i in items], dtype=np.float64)
        self.correct = np.array([i.correctness or 0.0 for i in items], dtype=np.float64)
        self.cit_rec = np.array([i.citation.recall if i.citation else 0.0 for i in items])
        self.cit_prec = np.array([i.citation.precision if i.citation else 0.0 for i in items])

    def stats(self, w: FloatArray) -> dict[str, FloatArray]:
        """Every figure for weights ``w`` (counts of each question in a resample)."""
        k = w * self.known
        unans = 1.0 - self.answerable

        def s(x: FloatArray, weights: FloatArray = k) -> FloatArray:
            return np.asarray((weights * x).sum(axis=-1), dtype=np.float64)

        refuse_rec = _div(s(self.refused * unans), s(unans))
        refuse_prec = _div(s(self.refused * unans), s(self.refused))
        answer_rec = _div(s(self.answered * self.answerable), s(self.answerable))
        answer_prec = _div(s(self.answered * self.answerable), s(self.answered))
        refuse_f1 = _f1(refuse_prec, refuse_rec)
        answer_f1 = _f1(answer_prec, answer_rec)
        gr = (refuse_f1 + answer_f1) / 2
        ac_sum = s(self.correct * self.answered * self.answerable)
        ac_prec = _div(ac_sum, s(self.answered))
        ac_rec = _div(ac_sum, s(self.answerable))
        ac = _f1(ac_prec, ac_rec)
        n_answered_all = s(self.answered, w)
        cit_rec = _div(s(self.cit_rec * self.answered, w), n_answered_all)
        cit_prec = _div(s(self.cit_prec * self.answered, w), n_answered_all)
        gc = _f1(cit_prec, cit_rec)
        return {
            "refusal_precision": refuse_prec,
            "refusal_recall": refuse_rec,
            "refusal_f1": refuse_f1,
            "answer_precision": answer_prec,
            "answer_recall": answer_rec,
            "answer_f1": answer_f1,
            "grounded_refusals": gr,
            "correctness_precision": ac_prec,
            "correctness_recall": ac_rec,
            "answer_correctness": ac,
            "citation_recall": cit_rec,
            "citation_precision": cit_prec,
            "grounded_citations": gc,
            "trust": (gr + ac + gc) / 3,
        }


class TrustResult(Record):
    """Trust-Score of one data set: every figure in [0, 1] with its bootstrap interval."""

    dataset: str
    n: int
    n_answered: int
    n_answerable: int
    n_answered_and_answerable: int
    n_unknown_answerability: int
    issues: dict[str, int]
    """Questions per bad-input mark (see `TrustItem.issues`)."""
    refusal_precision: Estimate
    refusal_recall: Estimate
    refusal_f1: Estimate
    answer_precision: Estimate
    answer_recall: Estimate
    answer_f1: Estimate
    grounded_refusals: Estimate
    correctness_precision: Estimate
    correctness_recall: Estimate
    answer_correctness: Estimate
    citation_recall: Estimate
    citation_precision: Estimate
    grounded_citations: Estimate
    trust: Estimate


_BLOCK_CELLS = 4_000_000  # resamples are drawn in blocks so memory stays bounded


def _bootstrap(cols: _Columns, n_resamples: int, seed: int) -> dict[str, FloatArray]:
    """Every figure on each bootstrap resample (questions drawn with replacement)."""
    n = len(cols.refused)
    rng = np.random.default_rng(seed)
    block = max(1, _BLOCK_CELLS // n)
    parts: list[dict[str, FloatArray]] = []
    for start in range(0, n_resamples, block):
        rows = min(block, n_resamples - start)
        idx = rng.integers(0, n, size=(rows, n))
        w = np.zeros((rows, n), dtype=np.float64)
        np.add.at(w, (np.arange(rows)[:, None], idx), 1.0)
        parts.append(cols.stats(w))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def aggregate_trust(
    items: Sequence[TrustItem],
    *,
    dataset: str | None = None,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> TrustResult:
    """Trust-Score over ``items`` (one data set) with percentile bootstrap intervals.

    Raises ValueError for no items: a score over nothing is not zero.
    """
    if not items:
        raise ValueError("Trust-Score needs at least one scored question")
    if n_resamples < 1 or not 0.0 < confidence < 1.0:
        raise ValueError("need n_resamples >= 1 and 0 < confidence < 1")
    cols = _Columns(items)
    n = len(items)
    point = cols.stats(np.ones(n))
    boot = _bootstrap(cols, n_resamples, seed)
    alpha = (1.0 - confidence) / 2.0
    figures: dict[str, Estimate] = {}
    for name, value in point.items():
        low, high = np.quantile(boot[name], [alpha, 1.0 - alpha])
        figures[name] = Estimate(value=float(value), ci_low=float(low), ci_high=float(high))
    issues = Counter(issue for i in items for issue in set(i.issues))
    known = [i for i in items if i.answerable is not None]
    return TrustResult(
        dataset=dataset or items[0].dataset,
        n=n,
        n_answered=sum(not i.refused for i in items),
        n_answerable=sum(bool(i.answerable) for i in known),
        n_answered_and_answerable=sum(bool(i.answerable) and not i.refused for i in known),
        n_unknown_answerability=n - len(known),
        issues=dict(sorted(issues.items())),
        **figures,
    )


def trust_by_dataset(items: Iterable[TrustItem], **options: float | int) -> dict[str, TrustResult]:
    """`aggregate_trust` per data set, keyed by data set name (sorted)."""
    groups: dict[str, list[TrustItem]] = {}
    for item in items:
        groups.setdefault(item.dataset, []).append(item)
    agg: Callable[..., TrustResult] = aggregate_trust
    return {name: agg(group, dataset=name, **options) for name, group in sorted(groups.items())}
