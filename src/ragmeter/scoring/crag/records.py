"""On-disk records of CRAG scoring: per-sample verdicts and aggregated results.

``samples.jsonl`` holds one `ScoredSample` per question; ``results.json`` holds
one `Results`. Both are read back by re-scoring, the run engine and reports,
so every field says where a label came from (a rule, a refusal phrase, or the
judges' votes with their rationales) and nothing is ever silently dropped: a
sample that could not be scored carries ``label="unscored"`` and its reason.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ragmeter.scoring.bootstrap import Estimate
from ragmeter.types import Label, Labels, Record

__all__ = [
    "LABEL_SCORES",
    "CaseRecord",
    "GoldCheck",
    "HumanLabel",
    "HumanLabelRow",
    "HumanScaleResult",
    "JudgeCheckResult",
    "JudgeVote",
    "LabelCounts",
    "ManipulationSummary",
    "MeasuredAgreement",
    "PanelAgreement",
    "Results",
    "RuleName",
    "ScoredSample",
    "ScoringInfo",
    "SliceResult",
    "TruncationInfo",
    "UnknownPredictions",
    "UnscoredSummary",
    "Verdict",
    "VoteVerdict",
    "WeightedScores",
]

Verdict = Literal["correct", "incorrect"]
VoteVerdict = Literal["correct", "incorrect", "missing"]
"""A judge's vote: gives a gold (correct), gives none (incorrect), or gives no answer at all."""
HumanLabel = Literal["perfect", "acceptable", "missing", "incorrect"]

RuleName = Literal[
    "no_prediction",
    "empty_prediction",
    "refusal",
    "exact_match",
    "alias_match",
    "name_match",
    "false_premise_detected",
    "false_premise_claim_on_valid_question",
    "answer_to_false_premise",
    "manipulation",
    "hedge",
    "retraction",
    "equivalent_value",
    "different_value",
    "yes_no",
    "comparison_option",
    "list_items",
    "code_match",
    "frequency",
    "score",
    "restates_question",
    "opens_with_gold",
    "clipped_gold",
    "answer_past_cut",
    "unmatched_rules_only",
]
"""How a rule settled a sample.

- ``no_prediction``: the question has no prediction (counts missing, as the official protocol).
- ``empty_prediction``: the prediction is empty or white space (missing).
- ``refusal``: the prediction says it has no answer (missing).
- ``exact_match`` / ``alias_match``: equals the gold / an alternative answer after normalisation.
- ``name_match``: names the gold (or an alternative answer) in another spelling: without
  spaces, an abbreviation written out, an acronym, a country code.
- ``false_premise_detected``: says the question is invalid and the gold is "invalid question".
- ``false_premise_claim_on_valid_question``: says the question is invalid, but it is valid.
- ``answer_to_false_premise``: an ordinary answer to an invalid question (incorrect).
- ``manipulation``: text addressed to the grader, a forged verdict, role tags or delimiter
  look-alikes (incorrect, whatever else the prediction says).
- ``hedge`` / ``retraction``: the answer spread over alternatives, a rough guess beside a
  decline, or an answer given and taken back (incorrect, as CRAG's rubric scores unsure and
  self-contradicting answers).
- ``equivalent_value`` / ``different_value``: the gold is a value (date, amount, percentage,
  number or a list of them) and the prediction's values of its kind are proven the same
  (correct) or proven different (incorrect), formats and rounding allowed.
- ``yes_no``: a yes/no gold against a prediction that opens with yes or no; a bare yes or no
  to a question answered otherwise (or resting on a false premise).
- ``comparison_option``: a comparison answer picks the gold's option or the other one (a bare
  pick, or the option a sentence leads with).
- ``list_items``: a set question's list answer has exactly the gold's items, or misses or
  adds one.
- ``code_match``: a gold that is one of CRAG's short codes ("en", "es", "w") named in words.
- ``frequency``: a count per year as the gold ("4") against a schedule in words ("quarterly").
- ``score``: a game's score as a pair ("106-95") that holds, or lacks, the one side the gold
  gives ("95").
- ``restates_question``: the prediction only repeats the question, so it gives no answer
  (missing).
- ``opens_with_gold``: a sentence opens with the gold name as its subject ("Lynn Shelton
  directed it."), with no denial, doubt, qualifier or second name (correct).
- ``clipped_gold``: a short reply is the gold's opening words cut inside a word, as a column of
  fixed width stores it ("O.J.: Made in Americ"): correct.
- ``answer_past_cut``: the 75-token cut fell where the prediction was about to give the figure
  it worked towards ("That makes an average of"), or inside a JSON object before its answer
  field; the figures before are working (missing).
- ``unmatched_rules_only``: no rule matched and no judge ran (incorrect, an approximation).
"""

LABEL_SCORES: dict[str, int] = {"correct": 1, "missing": 0, "incorrect": -1}
"""CRAG's per-sample score: a hallucination costs as much as a correct answer earns."""


class GoldCheck(Record):
    """One judge call: the prediction compared with one gold answer."""

    gold: str
    verdict: Verdict | None
    """None when the judge's reply could not be parsed or the call failed after retries."""
    rationale: str = ""
    raw: str = ""
    """The judge's reply as generated (last attempt)."""
    attempts: int = 1
    cached: bool = False
    error: str | None = None
    p_correct: float | None = None
    """The model's probability that the prediction gives this gold (None when not read)."""
    method: str | None = None
    """How the verdict was read: ``logits``, ``logprobs`` or ``parsed`` (a one-word reply)."""
    key_answer: str | None = None
    """The short form of a long gold that the judge was shown."""
    calls: int = 1
    """Model requests this check made (a comparison's option question, a long gold's short
    form and the verdict, retries included; replies served from a cache count too)."""
    prediction_answer: str | None = None
    """The short answer found in a long prediction for a second look (see the judge)."""
    step: (
        Literal[
            "verdict",
            "option",
            "premise",
            "key_answer",
            "prediction_answer",
            "lead_sentence",
            "gives_answer",
        ]
        | None
    ) = None
    """Which question decided: ``verdict`` (gives the gold?), ``option`` (which option of a
    comparison it chooses), ``premise`` (does it point out a false premise?),
    ``key_answer`` (mechanics against the short form of a sentence-long gold) or
    ``prediction_answer`` (the short answer of a long prediction, against the gold) or
    ``lead_sentence`` (the verdict on the sentence a long prediction opens with) or
    ``gives_answer`` (no gold found in it: does it answer at all?)."""
    gives_answer: bool | None = None
    """For the ``gives_answer`` step: whether the prediction answers the question at all
    (None when the call failed)."""


class JudgeVote(Record):
    """One judge's verdict on a sample: gold answers checked in turn until one is correct."""

    judge: str
    """The judge spec as given (``local``, ``openai:MODEL@URL``...)."""
    model: str = ""
    """The model identity (weights hash or server + model name)."""
    verdict: VoteVerdict | None
    """None (unscored) when no gold answer was found correct and at least one check failed;
    missing when none was found and the prediction gives no answer at all."""
    checks: list[GoldCheck] = Field(default_factory=list)
    error: str | None = None

    @property
    def rationale(self) -> str:
        """The rationale of the deciding check."""
        return self.checks[-1].rationale if self.checks else ""


class ScoredSample(Record):
    """The label of one question and everything that explains it (a line of ``samples.jsonl``)."""

    id: str
    query: str = ""
    answers: list[str] = Field(default_factory=list)
    """The gold answer first, then its alternative answers."""
    prediction: str | None
    """The prediction as given (its first 10,000 characters when longer); None when the
    question had no prediction."""
    prediction_chars: int | None = None
    """Length in characters of the prediction as given."""
    truncated_prediction: str | None
    """The prediction cut to its first tokens, as scored."""
    truncated: bool = False
    """True when truncation removed something."""
    label: Label
    rule: RuleName | None = None
    """The rule that settled the label; None when judges decided."""
    rule_detail: str | None = None
    """The matched refusal or false-premise phrase, the gold answer that matched, the values
    compared, or the span a screen flagged."""
    rule_span: tuple[int, int] | None = None
    """Where in the scored (truncated) prediction a screen's match sits (start, end)."""
    votes: list[JudgeVote] = Field(default_factory=list)
    agreement: float | None = None
    """Share of judges whose verdict equals the majority (1.0 = unanimous)."""
    approximate: bool = False
    """True when the label is a rules-only approximation (no judge looked at it)."""
    unscored_reason: str | None = None
    labels: Labels = Field(default_factory=Labels)
    human_label: HumanLabel | None = None

    @property
    def score(self) -> int | None:
        """+1 correct, 0 missing, −1 incorrect; None when unscored."""
        return LABEL_SCORES.get(self.label)


class LabelCounts(Record):
    """How many samples got each label."""

    correct: int = 0
    incorrect: int = 0
    missing: int = 0
    unscored: int = 0


class UnscoredSummary(Record):
    """Samples that could not be scored, by reason; excluded from the rates, never dropped."""

    count: int = 0
    reasons: dict[str, int] = Field(default_factory=dict)


class SliceResult(Record):
    """The CRAG metrics of one slice (or of the whole set).

    Rates are over the scored samples (``n_scored = n - unscored``).
    """

    n: int
    n_scored: int
    accuracy: Estimate
    hallucination: Estimate
    missing: Estimate
    score: Estimate
    """accuracy − hallucination: the mean of the per-sample +1 / 0 / −1."""
    unscored: int = 0
    manipulation: int = 0
    """Predictions the manipulation screen flagged (counted incorrect)."""


class ManipulationSummary(Record):
    """Predictions that addressed the grader, forged a verdict or imitated delimiters."""

    count: int = 0
    by_pattern: dict[str, int] = Field(default_factory=dict)
    ids: list[str] = Field(default_factory=list)
    """The flagged questions (at most 200)."""


class PanelAgreement(Record):
    """How far several judges agreed on the samples they decided."""

    n: int
    """Samples on which at least two judges gave a verdict."""
    rate: float | None
    """Share of judge pairs giving the same verdict, over those samples."""
    kappa: float | None
    """Fleiss' kappa of the verdicts (None when undefined: one verdict everywhere)."""
    split_share: float | None
    """Share of those samples on which the judges did not all agree."""


class MeasuredAgreement(Record):
    """A judge's agreement with careful graders, measured on the shipped real-answer set."""

    suite: str
    split: str
    n: int
    accuracy: float
    kappa: float | None
    command: str


class HumanScaleResult(Record):
    """Truthfulness on the human scale: perfect 1, acceptable 0.5, missing 0, incorrect −1."""

    n: int
    truthfulness: Estimate
    counts: dict[str, int] = Field(default_factory=dict)
    agreement: float | None = None
    """Share of labeled samples whose automatic label agrees with the human one
    (perfect and acceptable count as correct); unscored samples are left out."""
    unmatched_ids: int = 0
    """Human labels whose id is not in the data set."""


class WeightedScores(Record):
    """Scores weighted per question type, and the equal-weight mean over domains."""

    source: str
    """Where the weights came from (a file path, or ``builtin:<name>``)."""
    question_type: float | None
    """Σ w_t · score_t / Σ w_t over the question types present."""
    question_type_weights: dict[str, float] = Field(default_factory=dict)
    missing_weights: list[str] = Field(default_factory=list)
    """Question types present in the data that the weights do not cover (left out)."""
    domain_mean: float | None = None
    """The unweighted mean of the per-domain scores."""


class TruncationInfo(Record):
    """How predictions were cut before scoring."""

    max_tokens: int = 75
    tokenizer: str
    """The tokenizer file used, or ``fallback:<method>`` when the Llama-2 tokenizer was absent."""
    fallback: bool = False
    n_truncated: int = 0


class UnknownPredictions(Record):
    """Predictions whose id is not a question of the data set (reported, not scored)."""

    count: int = 0
    ids: list[str] = Field(default_factory=list)
    """The first of them (at most 50)."""


class ScoringInfo(Record):
    """How the results were produced."""

    judge: str
    """The judge spec: ``rules``, ``local``, ``openai:...`` or several joined by commas."""
    judges: list[str] = Field(default_factory=list)
    """The model identity of each judge."""
    approximate: bool = False
    """True with ``--judge rules``: unmatched predictions count incorrect without a judge."""
    truncation: TruncationInfo
    rules_share: float | None = None
    """Share of the samples whose label a rule settled (no judge call)."""
    no_prediction: int = 0
    empty_prediction: int = 0
    unknown_predictions: UnknownPredictions = Field(default_factory=UnknownPredictions)
    judge_calls: int = 0
    """Gold-answer checks asked of judges (one per judge and gold answer compared)."""
    judge_cache_hits: int = 0
    judge_agreement: float | None = None
    """Mean, over the samples judges decided, of the share of judges voting with the majority."""
    unanimous_share: float | None = None
    """Share of the judged samples on which every judge gave the same verdict."""
    panel: PanelAgreement | None = None
    """With several judges: their pairwise agreement, Fleiss' kappa and split share."""
    measured_agreement: MeasuredAgreement | None = None
    """With one judge: its agreement with careful graders on the shipped real-answer set,
    when it is the judge (model and prompts) that was measured."""
    rules: dict[str, int] = Field(default_factory=dict)
    """How many samples each rule or screen settled (the rest went to the judges)."""
    bootstrap_resamples: int
    bootstrap_seed: int
    confidence: float = 0.95
    ragmeter_version: str = ""


class Results(Record):
    """The aggregate of a scored set (``results.json``)."""

    n: int
    n_scored: int
    accuracy: Estimate
    hallucination: Estimate
    missing: Estimate
    score: Estimate
    unscored: UnscoredSummary
    counts: LabelCounts
    manipulation: ManipulationSummary = Field(default_factory=ManipulationSummary)
    slices: dict[str, dict[str, SliceResult]] = Field(default_factory=dict)
    """Per slice name (domain, question_type...), per slice value, the metrics."""
    human: HumanScaleResult | None = None
    weighted: WeightedScores | None = None
    scoring: ScoringInfo
    warnings: list[str] = Field(default_factory=list)
    """Everything that makes these figures less than exact (fallbacks, approximations...)."""


class HumanLabelRow(Record):
    """One line of a human labels file."""

    id: str
    label: HumanLabel


class CaseRecord(Record):
    """One labeled judge-check case.

    Real CRAG rows hold numbers where strings are expected (``alt_ans: [0]``,
    ``answer: 12``): they are read as the strings they stand for.
    """

    query: str
    answer: str
    alt_ans: list[str] = Field(default_factory=list)

    @field_validator("answer", mode="before")
    @classmethod
    def _answer_text(cls, value: object) -> object:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        return value

    @field_validator("alt_ans", mode="before")
    @classmethod
    def _alternatives_text(cls, value: object) -> object:
        if value is None:
            return []
        if isinstance(value, list):
            return [
                str(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                for v in value
            ]
        return value

    prediction: str
    expected: Literal["correct", "incorrect", "missing"]
    kind: str | None = None
    interaction_id: str | None = None
    domain: str | None = None
    question_type: str | None = None
    system: str | None = None
    """Which system or style wrote the prediction (real-answer sets)."""
    split: Literal["dev", "test"] | None = None
    """Real-answer sets: ``dev`` cases may be tuned on, ``test`` cases are held out."""
    note: str | None = None
    """How the label was decided, where it was not obvious."""


class JudgeCheckResult(Record):
    """Agreement of a scorer with labeled cases."""

    n: int
    accuracy: float
    kappa: float | None
    """Cohen's kappa; None when it is undefined (a single label in both series)."""
    confusion: dict[str, dict[str, int]]
    """``confusion[expected][got]`` counts; ``got`` may be ``unscored``."""
    by_kind: dict[str, float] = Field(default_factory=dict)
    judge: str = ""
    unscored: int = 0
