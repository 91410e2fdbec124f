"""What diagnosis writes: one record per scored question, and the summary in ``results.json``."""

from __future__ import annotations

from pydantic import Field

from ragmeter.diagnosis.categories import Category
from ragmeter.types import Label, Record


class SampleDiagnosis(Record):
    """The diagnosis of one scored question (a line of ``diagnosis.jsonl``)."""

    id: str
    label: Label
    category: Category
    false_premise: bool = False
    answer_in_pages: bool | None = None
    """Was a gold answer in the question's own pages? None: no pages, or an answer no
    text can attest (yes/no, "invalid question")."""
    answer_in_evidence: bool | None = None
    """Was it in the evidence the system used (its retrieved chunks or documents shown)?"""
    supported: bool | None = None
    """Does the evidence entail the system's answer? None when nothing was answered."""
    support_probability: float | None = None
    evidence_chunks: int = 0
    note: str | None = None
    """Anything that qualifies the signals (no evidence returned, a failed NLI call...)."""


class CategoryCount(Record):
    """One category over a set of questions, with the score points it accounts for."""

    count: int = 0
    share: float = 0.0
    """Share of the scored questions."""
    score_points: float = 0.0
    """Its part of the CRAG score, in points of the score's scale (−1..1)."""
    points_short: float = 0.0
    """How much of the gap to a perfect score it accounts for (each question 1 − score)."""


class CategoryTable(Record):
    """Every category's count and points over one set of questions."""

    n: int
    categories: dict[str, CategoryCount] = Field(default_factory=dict)


class DiagnosisSummary(Record):
    """The ``diagnosis`` block of ``results.json``: overall and per slice."""

    n: int
    """Scored questions diagnosed (the categories add up to it, overall and in every slice)."""
    overall: CategoryTable
    slices: dict[str, dict[str, CategoryTable]] = Field(default_factory=dict)
    answer_in_pages: float | None = None
    """Share of the questions with a matchable answer whose pages held it."""
    answer_in_evidence: float | None = None
    supported: float | None = None
    """Share of the answered questions whose evidence entails the answer."""
    nli: str = ""
    """The model that judged support."""
    descriptions: dict[str, str] = Field(default_factory=dict)
