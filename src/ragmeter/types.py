"""The shared vocabulary: benchmark records, answers and run records.

Everything that goes to disk is a pydantic model. Field names follow the
benchmarks where they have one (CRAG's ``query_time``, ``static_or_dynamic``;
Trust-Score's ``answers_found``, ``rec_score``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

AnswerType = Literal["valid", "invalid", "no_answer"]
Label = Literal["correct", "incorrect", "missing", "unscored"]


class Record(BaseModel):
    """Base for every on-disk record: unknown fields are errors, not silently kept."""

    model_config = ConfigDict(extra="forbid")


class Labels(Record):
    """The slicing labels of a question; any of them may be unknown for a data set."""

    domain: str | None = None
    question_type: str | None = None
    static_or_dynamic: str | None = None
    popularity: str | None = None
    split: int | str | None = None
    answer_type: AnswerType | None = None

    def as_slices(self) -> dict[str, str]:
        """The labels that are set, as strings, keyed by slice name."""
        return {k: str(v) for k, v in self.model_dump().items() if v not in (None, "")}


class WebPage(Record):
    """One search result of a CRAG question.

    ``html`` is None when the reader was asked not to materialise page HTML.
    """

    name: str = ""
    url: str = ""
    snippet: str = ""
    html: str | None = None
    html_bytes: int = 0
    last_modified: str = ""


class Passage(Record):
    """One retrieved document of an attributed-QA question (ALCE / Trust-Score)."""

    title: str = ""
    text: str = ""
    answers_found: list[int] | None = None
    rec_score: float | None = None
    answers_found_computed: bool = False
    """True when ``answers_found`` was computed by normalised string presence, not shipped."""


class ErrorSpan(Record):
    """A human-marked error span in a qa-feedback prediction (character offsets)."""

    error_type: str
    start: int
    end: int
    explanation: str = ""


class MissingInfo(Record):
    """A qa-feedback mark of information missing from a prediction."""

    error_type: str = ""
    passage_id: int | None = None
    sentence_id: int | None = None
    explanation: str = ""
    sentence_ids: list[int] = Field(default_factory=list)
    """All sentence ids of the mark (qa-feedback stores a list); ``sentence_id`` is set
    only when there is exactly one."""


class QAFeedback(Record):
    """qa-feedback extras: model predictions with human errors and preferences."""

    predictions: list[str] = Field(default_factory=list)
    error_spans: list[ErrorSpan] = Field(default_factory=list)
    missing_info: list[MissingInfo] = Field(default_factory=list)
    corrected_prediction: str | None = None
    preferences: list[int] = Field(default_factory=list)
    """Six pairwise preferences in the order 1v2, 1v3, 1v4, 2v3, 2v4, 3v4 (1, 2 or 0 = none)."""


class Question(Record):
    """One benchmark question with its gold answers, labels and evidence.

    ``answers`` is a list of required answers, each a list of accepted aliases.
    A CRAG question has one required answer: ``[[answer, *alternative_answers]]``.
    An ASQA question has several, each with its own aliases.
    """

    id: str
    dataset: str
    query: str
    query_time: str | None = None
    answers: list[list[str]] = Field(default_factory=list)
    labels: Labels = Field(default_factory=Labels)
    pages: list[WebPage] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)
    feedback: QAFeedback | None = None
    extras: dict[str, Any] = Field(default_factory=dict)

    @property
    def answer(self) -> str | None:
        """The first gold answer (CRAG's ``answer``), or None when there is none."""
        return self.answers[0][0] if self.answers and self.answers[0] else None

    @property
    def alternative_answers(self) -> list[str]:
        """CRAG's alternative answers: the aliases after the first of the first answer."""
        return list(self.answers[0][1:]) if self.answers else []


class Usage(Record):
    """Token usage of one or more LLM calls."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
        )


class RetrievedChunk(Record):
    """A chunk of evidence returned by a retriever, with where it came from."""

    chunk_id: str
    text: str
    score: float
    source: str = ""
    """Page URL or passage title the chunk belongs to."""
    doc_index: int | None = None
    start: int | None = None
    end: int | None = None


class StageTiming(Record):
    """Seconds and tokens spent in one pipeline stage."""

    seconds: float = 0.0
    usage: Usage = Field(default_factory=Usage)
    """Tokens the models computed for this stage (replies from the response cache count 0)."""


class Answer(Record):
    """What a pipeline returns for one question."""

    text: str
    citations: list[list[int]] = Field(default_factory=list)
    """Per answer sentence, the indexes of the documents it cites."""
    retrieved: list[RetrievedChunk] = Field(default_factory=list)
    refused: bool | None = None
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    """How sure the system is that ``text`` is right, in [0, 1] (None: not given)."""
    stages: dict[str, StageTiming] = Field(default_factory=dict)
    extras: dict[str, Any] = Field(default_factory=dict)
