"""Automatic metrics checked against qa-feedback's human labels.

Two checks on ``*_feedback`` files (see `ragmeter.data.qa_feedback`):

- **preferences**: a metric scores each question's four predictions; for each
  of the six human pairwise preferences that is not a tie, the metric agrees
  (1), disagrees (0) or ties (0.5). Two baselines run beside it: ROUGE-L
  against the gold answer and answer length.
- **spans**: a detector marks the sentences of prediction 1 it finds
  unsupported by the passages; humans marked ``Wrong-Grounding`` and
  ``Unverifiable`` spans. Precision, recall and F1 per sentence, beside a
  lexical baseline.

Metrics and detectors are registered by name (`PREFERENCE_METRICS`,
`SPAN_DETECTORS`); NLI-based ones get an `NLI` object, the others run without a model.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass

from ragmeter.registry import Registry
from ragmeter.scoring.attribution.alce import (
    Sentence,
    remove_citations,
    rouge_l,
    rouge_n,
    split_sentences,
)
from ragmeter.scoring.attribution.nli import NLI
from ragmeter.scoring.bootstrap import Estimate, estimate
from ragmeter.scoring.normalize import tokens
from ragmeter.types import Question, Record

__all__ = [
    "PAIRS",
    "PREFERENCE_METRICS",
    "SPAN_DETECTORS",
    "UNSUPPORTED_TYPES",
    "PreferenceCheck",
    "PreferenceMetric",
    "SpanCheck",
    "SpanDetector",
    "SpanScores",
    "check_preferences",
    "check_spans",
    "content_words",
    "lexical_support",
    "pair_agreement",
    "passage_sentences",
    "sentence_labels",
]

PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
"""The six preference pairs of qa-feedback, in file order (1v2, 1v3, 1v4, 2v3, 2v4, 3v4)."""
UNSUPPORTED_TYPES = ("Wrong-Grounding", "Unverifiable")
"""Human error types that mark content the passages do not support."""

MetricFn = Callable[[Question, Sequence[str], NLI | None], Awaitable[list[float]]]
DetectorFn = Callable[[Question, Sequence[Sentence], NLI | None], Awaitable[list[bool]]]


@dataclass(frozen=True)
class PreferenceMetric:
    """A named metric that scores a question's predictions (higher is better)."""

    name: str
    fn: MetricFn
    needs_nli: bool
    description: str


@dataclass(frozen=True)
class SpanDetector:
    """A named detector that flags the unsupported sentences of a prediction."""

    name: str
    fn: DetectorFn
    needs_nli: bool
    description: str


PREFERENCE_METRICS: Registry[PreferenceMetric] = Registry("preference_metrics")
SPAN_DETECTORS: Registry[SpanDetector] = Registry("span_detectors")


# ---------------------------------------------------------------- shared text helpers

# Function words carry no claim: leaving them out makes lexical support mean "content found".
_STOPWORDS = frozenset(
    re.split(
        r"\s+",
        """a an the of in on at to and or is was were be been being by for with as that this these
    those it its from his her their he she they them which who whom whose has had have also are
    not but into than then there such so if about after before over under between during while
    when where what how can could would should may might will shall do does did i we you our your
    one other both all any each more most some only same own very just""",
    )
)


def content_words(text: str) -> list[str]:
    """The normalised words of ``text`` that carry content (no function words)."""
    return [t for t in tokens(remove_citations(text)) if t not in _STOPWORDS]


def passage_sentences(question: Question) -> list[str]:
    """The passages' sentences (qa-feedback keeps them; otherwise split), titles first."""
    kept = question.extras.get("passage_sentences")
    out: list[str] = []
    if isinstance(kept, list) and len(kept) == len(question.passages):
        for passage, sents in zip(question.passages, kept, strict=True):
            out.append(passage.title)
            out.extend(str(s) for s in sents)
    else:
        for passage in question.passages:
            out.append(passage.title)
            out.extend(s.text for s in split_sentences(passage.text))
    return [s for s in out if s.strip()]


def lexical_support(sentence: str, vocabulary: set[str]) -> float:
    """The share of the sentence's content words found in ``vocabulary`` (1.0 when it has none)."""
    words = content_words(sentence)
    if not words:
        return 1.0
    return sum(w in vocabulary for w in words) / len(words)


def _gold(question: Question) -> list[str]:
    return [a for aliases in question.answers for a in aliases if a.strip()]


# ---------------------------------------------------------------- preference metrics


async def _rouge(question: Question, preds: Sequence[str], nli: NLI | None) -> list[float]:
    gold = _gold(question)
    return [rouge_l(p, gold) if gold else 0.0 for p in preds]


async def _rouge1(question: Question, preds: Sequence[str], nli: NLI | None) -> list[float]:
    gold = _gold(question)
    return [rouge_n(p, gold, 1) if gold else 0.0 for p in preds]


async def _length(question: Question, preds: Sequence[str], nli: NLI | None) -> list[float]:
    return [float(len(remove_citations(p).split())) for p in preds]


PREFERENCE_METRICS.register(
    "rougeL",
    PreferenceMetric(
        "rougeL", _rouge, False, "ROUGE-L F1 against the gold answer (the first baseline)"
    ),
)
PREFERENCE_METRICS.register(
    "rouge1",
    PreferenceMetric("rouge1", _rouge1, False, "ROUGE-1 F1 against the gold answer"),
)
PREFERENCE_METRICS.register(
    "length", PreferenceMetric("length", _length, False, "answer length in words (a baseline)")
)


# ---------------------------------------------------------------- preference check


def pair_agreement(scores: Sequence[float], preferences: Sequence[int]) -> list[float]:
    """Per non-tied human preference: 1 when the metric agrees, 0.5 on a metric tie, else 0."""
    out: list[float] = []
    for (a, b), pref in zip(PAIRS, preferences, strict=True):
        if pref == 0:
            continue
        if scores[a] == scores[b]:
            out.append(0.5)
        else:
            metric_first = scores[a] > scores[b]
            out.append(1.0 if metric_first == (pref == 1) else 0.0)
    return out


class PreferenceCheck(Record):
    """Agreement of a metric with qa-feedback's human pairwise preferences."""

    metric: str
    n_questions: int
    n_pairs: int
    """Human preferences that are not ties (the pairs scored)."""
    n_human_ties: int
    metric_ties: int
    agreement: float
    interval: Estimate
    """Bootstrap interval over pairs."""
    baselines: dict[str, float]
    skipped: dict[str, int]
    """Questions left out, by reason (e.g. fewer than four predictions, no preferences)."""


def _usable(question: Question, skipped: Counter[str]) -> bool:
    fb = question.feedback
    if fb is None:
        skipped["no_feedback"] += 1
        return False
    if len(fb.predictions) < 4:
        skipped["fewer_than_4_predictions"] += 1
        return False
    if len(fb.preferences) != len(PAIRS):
        skipped["no_preferences"] += 1
        return False
    return True


async def check_preferences(
    questions: Iterable[Question],
    metric: str,
    nli: NLI | None = None,
    *,
    baselines: Sequence[str] = ("rougeL", "length"),
) -> PreferenceCheck:
    """Score every question's four predictions with ``metric`` and the baselines; compare."""
    spec = PREFERENCE_METRICS.get(metric)
    specs = [spec] + [PREFERENCE_METRICS.get(b) for b in baselines]
    specs = list({s.name: s for s in specs}.values())  # a baseline may be the metric itself
    if any(s.needs_nli for s in specs) and nli is None:
        raise ValueError(f"metric '{metric}' needs an NLI model")
    skipped: Counter[str] = Counter()
    agree: dict[str, list[float]] = {s.name: [] for s in specs}
    n_questions = human_ties = 0
    for q in questions:
        if not _usable(q, skipped):
            continue
        assert q.feedback is not None
        preds = q.feedback.predictions[:4]
        prefs = q.feedback.preferences
        n_questions += 1
        human_ties += sum(1 for p in prefs if p == 0)
        for s in specs:
            scores = await s.fn(q, preds, nli)
            agree[s.name].extend(pair_agreement(scores, prefs))
    main = agree[spec.name]
    if not main:
        raise ValueError("no question with four predictions and a non-tied human preference")
    return PreferenceCheck(
        metric=spec.name,
        n_questions=n_questions,
        n_pairs=len(main),
        n_human_ties=human_ties,
        metric_ties=sum(1 for x in main if x == 0.5),
        agreement=sum(main) / len(main),
        interval=estimate(main),
        baselines={b: sum(agree[b]) / len(agree[b]) for b in baselines},
        skipped=dict(skipped),
    )


# ---------------------------------------------------------------- span detection


_MIN_SPAN_CHARS = 10


def sentence_labels(
    text: str,
    sentences: Sequence[Sentence],
    spans: Iterable[tuple[int, int]],
) -> list[bool]:
    """Per sentence, whether a human span marks it.

    A span marks a sentence when it covers at least 30 % of it, or when at least
    half of the span (and 10 characters) lies inside it. Offsets are clipped to
    ``text``; a span of a few characters at a sentence's edge marks nothing.
    """
    clipped = [(max(0, s), min(len(text), e)) for s, e in spans]
    clipped = [(s, e) for s, e in clipped if e > s]
    out: list[bool] = []
    for sent in sentences:
        marked = False
        for s, e in clipped:
            overlap = min(sent.end, e) - max(sent.start, s)
            if overlap <= 0:
                continue
            inside = overlap >= 0.5 * (e - s) and overlap >= _MIN_SPAN_CHARS
            if overlap >= 0.3 * (sent.end - sent.start) or inside:
                marked = True
                break
        out.append(marked)
    return out


class SpanScores(Record):
    """Sentence-level detection scores of one detector."""

    detector: str
    flagged: int
    true_positives: int
    precision: float
    recall: float
    f1: float


class SpanCheck(Record):
    """Detection of human-marked unsupported sentences in prediction 1, with a baseline."""

    n_questions: int
    n_sentences: int
    n_unsupported: int
    """Sentences humans marked (``Wrong-Grounding`` / ``Unverifiable``)."""
    scores: SpanScores
    baseline: SpanScores
    skipped: dict[str, int]


def _span_scores(name: str, labels: Sequence[bool], flags: Sequence[bool]) -> SpanScores:
    tp = sum(1 for y, f in zip(labels, flags, strict=True) if y and f)
    flagged = sum(flags)
    positives = sum(labels)
    p = tp / flagged if flagged else 0.0
    r = tp / positives if positives else 0.0
    return SpanScores(
        detector=name,
        flagged=flagged,
        true_positives=tp,
        precision=p,
        recall=r,
        f1=2 * p * r / (p + r) if p + r else 0.0,
    )


async def check_spans(
    questions: Iterable[Question],
    detector: str,
    nli: NLI | None = None,
    *,
    baseline: str = "lexical",
    error_types: Sequence[str] = UNSUPPORTED_TYPES,
) -> SpanCheck:
    """Run ``detector`` and ``baseline`` on the sentences of every prediction 1; compare."""
    spec = SPAN_DETECTORS.get(detector)
    base = SPAN_DETECTORS.get(baseline)
    if (spec.needs_nli or base.needs_nli) and nli is None:
        raise ValueError(f"detector '{detector}' needs an NLI model")
    skipped: Counter[str] = Counter()
    labels: list[bool] = []
    flags: list[bool] = []
    base_flags: list[bool] = []
    n_questions = 0
    for q in questions:
        fb = q.feedback
        if fb is None or not fb.predictions:
            skipped["no_prediction"] += 1
            continue
        text = fb.predictions[0]
        sentences = split_sentences(text)
        if not sentences:
            skipped["empty_prediction"] += 1
            continue
        n_questions += 1
        spans = [(e.start, e.end) for e in fb.error_spans if e.error_type in error_types]
        labels.extend(sentence_labels(text, sentences, spans))
        flags.extend(await spec.fn(q, sentences, nli))
        base_flags.extend(await base.fn(q, sentences, nli))
    if not labels:
        raise ValueError("no question with a non-empty prediction 1")
    return SpanCheck(
        n_questions=n_questions,
        n_sentences=len(labels),
        n_unsupported=sum(labels),
        scores=_span_scores(spec.name, labels, flags),
        baseline=_span_scores(base.name, labels, base_flags),
        skipped=dict(skipped),
    )


LEXICAL_THRESHOLD = 0.95
"""The lexical baseline flags a sentence when fewer than 95 % of its content words occur in
the passages (the best threshold for this baseline on dev_feedback's first 100 rows)."""


async def _lexical(question: Question, sents: Sequence[Sentence], nli: NLI | None) -> list[bool]:
    vocab = {w for s in passage_sentences(question) for w in content_words(s)}
    return [lexical_support(s.text, vocab) < LEXICAL_THRESHOLD for s in sents]


SPAN_DETECTORS.register(
    "lexical",
    SpanDetector(
        "lexical",
        _lexical,
        False,
        "flags sentences with content words absent from the passages (the baseline)",
    ),
)


# ---------------------------------------------------------------- NLI grounding

EVIDENCE_SENTENCES = 4
"""Passage sentences in the premise of one claim: enough for a fact spread over two or three."""


def _passage_blocks(question: Question) -> list[tuple[str, list[str]]]:
    """Per passage: its title and its sentences (qa-feedback keeps them; otherwise split)."""
    kept = question.extras.get("passage_sentences")
    if isinstance(kept, list) and len(kept) == len(question.passages):
        pairs = zip(question.passages, kept, strict=True)
        return [(p.title, [str(s) for s in ss]) for p, ss in pairs]
    return [(p.title, [s.text for s in split_sentences(p.text)]) for p in question.passages]


def evidence(question: Question, claim: str, k: int = EVIDENCE_SENTENCES) -> str:
    """The premise for checking ``claim``: the ``k`` passage sentences sharing most words with it.

    A cheap lexical retriever: content words shared with the claim, each
    weighted by its rarity among the question's passage sentences, rank the
    sentences; the best ``k`` are given in passage order under their titles.
    A short premise is faster and easier for a small model than whole passages.
    """
    blocks = _passage_blocks(question)
    sents = [
        (b, i, sent, set(content_words(sent)))
        for b, (_, ss) in enumerate(blocks)
        for i, sent in enumerate(ss)
    ]
    df: Counter[str] = Counter(w for *_, words in sents for w in words)
    wanted = set(content_words(claim))
    scored = []
    for b, i, sent, words in sents:
        score = sum(1.0 / df[w] for w in wanted & words)
        if score > 0:
            scored.append((score, b, i, sent))
    top = sorted(scored, key=lambda x: (-x[0], x[1], x[2]))[:k]
    parts: list[str] = []
    for b, (title, _) in enumerate(blocks):
        picked = [sent for _, bb, i, sent in sorted(top, key=lambda x: (x[1], x[2])) if bb == b]
        if picked:
            head = f"Title: {title}\n" if title else ""
            parts.append(head + _WS.sub(" ", " ".join(picked)).strip())
    return "\n\n".join(parts)


_WS = re.compile(r"\s+")


async def grounding_probabilities(
    question: Question, texts: Sequence[str], nli: NLI
) -> list[list[float]]:
    """Per text, per sentence: P(the question's passages entail the sentence)."""
    split = [[remove_citations(s.text) for s in split_sentences(t)] for t in texts]
    flat = await nli.probabilities([(evidence(question, s), s) for ss in split for s in ss])
    out: list[list[float]] = []
    k = 0
    for ss in split:
        out.append(flat[k : k + len(ss)])
        k += len(ss)
    return out


async def _support_probabilities(
    question: Question, sents: Sequence[Sentence], nli: NLI
) -> list[float]:
    """P(the best-matching passage sentences entail the sentence), per sentence."""
    claims = [remove_citations(s.text) for s in sents]
    return await nli.probabilities([(evidence(question, c), c) for c in claims])


async def _nli_flags(question: Question, sents: Sequence[Sentence], nli: NLI | None) -> list[bool]:
    assert nli is not None
    return [not nli.entails(p) for p in await _support_probabilities(question, sents, nli)]


CASCADE_CLEAR_PROBABILITY = 0.7
"""The entailment probability that clears a lexically suspect sentence.

Higher than the NLI's even-odds verdict on purpose: a small model leans to
"yes", and a sentence with words the passages lack should be cleared only on a
confident yes. On the first 100 rows of both feedback files 0.7 beat the lexical
baseline on each (0.5 did on dev only); see benchmarks/trust_feedback.py.
"""


async def _cascade_flags(
    question: Question, sents: Sequence[Sentence], nli: NLI | None
) -> list[bool]:
    """Lexical screen, then NLI: only sentences with unseen content words go to the model."""
    assert nli is not None
    lexical = await _lexical(question, sents, nli)
    suspects = [s for s, flag in zip(sents, lexical, strict=True) if flag]
    probs = iter(await _support_probabilities(question, suspects, nli))
    return [next(probs) < CASCADE_CLEAR_PROBABILITY if flag else False for flag in lexical]


SPAN_DETECTORS.register(
    "nli",
    SpanDetector(
        "nli",
        _nli_flags,
        True,
        "flags sentences their best-matching passage sentences do not entail, by NLI",
    ),
)
SPAN_DETECTORS.register(
    "lexical+nli",
    SpanDetector(
        "lexical+nli",
        _cascade_flags,
        True,
        "flags sentences with content words absent from the passages that NLI also finds "
        "unsupported (the lexical screen spares the model most sentences)",
    ),
)


async def _gold_recall(question: Question, preds: Sequence[str], nli: NLI | None) -> list[float]:
    """Per prediction: the share of the gold answer's sentences it entails."""
    assert nli is not None
    gold = _gold(question)
    claims = [remove_citations(s.text) for s in split_sentences(gold[0])] if gold else []
    if not claims:
        return [0.0 for _ in preds]
    pairs = [(remove_citations(p), c) for p in preds for c in claims]
    probs = await nli.probabilities(pairs)
    n = len(claims)
    return [sum(probs[i * n : (i + 1) * n]) / n for i in range(len(preds))]


async def _faithfulness(question: Question, preds: Sequence[str], nli: NLI | None) -> list[float]:
    """Per prediction: the mean probability that the passages entail its sentences."""
    assert nli is not None
    per = await grounding_probabilities(question, preds, nli)
    return [sum(ps) / len(ps) if ps else 0.0 for ps in per]


PREFERENCE_METRICS.register(
    "nli-gold-recall",
    PreferenceMetric(
        "nli-gold-recall",
        _gold_recall,
        True,
        "mean probability that the prediction entails each sentence of the gold answer",
    ),
)
PREFERENCE_METRICS.register(
    "nli-faithfulness",
    PreferenceMetric(
        "nli-faithfulness",
        _faithfulness,
        True,
        "mean probability that the passages entail each sentence of the prediction",
    ),
)


DEFAULT_METRIC = "rouge1"
"""What ``--metric default`` names: the metric that agrees best with the human preferences."""
DEFAULT_DETECTOR = "lexical+nli"
"""What ``--detector default`` names."""
PREFERENCE_METRICS.register("default", PREFERENCE_METRICS.get(DEFAULT_METRIC))
SPAN_DETECTORS.register("default", SPAN_DETECTORS.get(DEFAULT_DETECTOR))
