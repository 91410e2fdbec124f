"""ALCE metrics for attributed answers: correctness, fluency proxies and citation quality.

- ASQA: ``str_em`` (share of the required short answers present in the output)
  and ``str_hit`` (all of them present);
- QAMPARI: precision, recall, recall-5 (``min(5, hits) / min(5, #answers)``)
  and their F1, over the comma-separated items of the output;
- ELI5 / ExpertQA: ``claim_recall``, the share of gold claims the output entails (NLI);
- `rouge_l` (token LCS, F-measure, best over references) and `answer_length` (words);
- citation recall and precision as ALCE defines them (`citation_quality`): a
  sentence is supported when the passages it cites, together, entail it; a
  citation is irrelevant when it neither supports its sentence alone nor is
  needed by the others (the sentence is still entailed without it).

Matching uses `ragmeter.scoring.normalize.normalize_answer` on whole words
(``" 1 "`` does not match inside ``"1990"``), which is stricter than ALCE's
plain substring test. Citations are written ``[1]``, ``[2][3]`` or ``[2, 3]``
and count documents from 1; `CitedSentence.citations` holds 0-based indexes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ragmeter.scoring.attribution.nli import NLI
from ragmeter.scoring.normalize import normalize_answer
from ragmeter.types import Passage, Question, Record

__all__ = [
    "AlceScores",
    "AnswerKind",
    "CitationQuality",
    "CitedSentence",
    "QampariScores",
    "Sentence",
    "answer_kind",
    "answer_length",
    "citation_quality",
    "cited_sentences",
    "claim_recall",
    "format_passage",
    "lcs_length",
    "qampari_items",
    "qampari_scores",
    "remove_citations",
    "rouge_l",
    "rouge_n",
    "rouge_tokens",
    "score_alce",
    "split_sentences",
    "str_em",
    "str_hit",
]

# ---------------------------------------------------------------- sentences and citations

_CITATION = re.compile(r"\s*\[(\d+(?:\s*[,;]\s*\d+)*)\]")
_LEADING_CITATIONS = re.compile(r"^(?:\s*\[\d+(?:\s*[,;]\s*\d+)*\])+")
# A sentence ends at . ! ? (and closing quotes or brackets) followed by white space.
_BOUNDARY = re.compile(r"[.!?][\"'\u201d\u2019)\]]*(?=\s+)")
_ABBREVIATIONS = frozenset(
    re.split(
        r"\s+",
        "mr mrs ms dr prof sr jr st mt ft vs etc e.g i.e no vol inc ltd co corp jan feb mar apr "
        "jun jul aug sep sept oct nov dec gen col lt sgt capt rev u.s u.k",
    )
)


@dataclass(frozen=True)
class Sentence:
    """A sentence of a text with its character offsets (``text == source[start:end]``)."""

    text: str
    start: int
    end: int


AnswerKind = Literal["short", "list", "claims"]
"""How a data set's answers are graded: ASQA-like short answers, QAMPARI lists, ELI5 claims."""

_KINDS: dict[str, AnswerKind] = {
    "asqa": "short",
    "qampari": "list",
    "eli5": "claims",
    "expertqa": "claims",
}


def answer_kind(dataset: str) -> AnswerKind:
    """The grading of a data set by name (unknown names are graded as short answers)."""
    return _KINDS.get(dataset.lower(), "short")


def _ends_sentence(text: str, dot: int) -> bool:
    """False when the full stop at ``dot`` belongs to an abbreviation or an initial."""
    if text[dot] != ".":
        return True
    m = re.search(r"([\w.]+)$", text[:dot])
    word = m.group(1).lower() if m else ""
    if word in _ABBREVIATIONS:
        return False
    if len(word) == 1 and word.isalpha():  # "J. K. Rowling"
        return False
    nxt = re.match(r"\s+(\S)", text[dot + 1 :])
    # "... in the U.S. in 1990": a lower-case continuation is the same sentence.
    return not (nxt and nxt.group(1).islower())


def split_sentences(text: str) -> list[Sentence]:
    """Split ``text`` into sentences with offsets; citation marks after a stop stay with it."""
    out: list[Sentence] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        if not _ends_sentence(text, m.start()):
            continue
        end = m.end()
        # "... fact. [2] Next": the citation belongs to the sentence that just ended.
        lead = _LEADING_CITATIONS.match(text[end:])
        if lead:
            end += lead.end()
        _append(out, text, start, end)
        start = end
    _append(out, text, start, len(text))
    return out


def _append(out: list[Sentence], text: str, start: int, end: int) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        out.append(Sentence(text=text[start:end], start=start, end=end))


def remove_citations(text: str) -> str:
    """``text`` without ``[n]`` marks (and the space before them)."""
    cleaned = _CITATION.sub("", text)
    return re.sub(r"\s+([.,;:!?])", r"\1", cleaned).strip()


def _citation_numbers(text: str) -> list[int]:
    nums: list[int] = []
    for m in _CITATION.finditer(text):
        for part in re.split(r"[,;]", m.group(1)):
            n = int(part)
            if n not in nums:
                nums.append(n)
    return nums


@dataclass(frozen=True)
class CitedSentence:
    """An answer sentence, its text without citation marks, and the documents it cites.

    ``citations`` are 0-based document indexes; ``bad_citations`` the cited
    numbers that name no document (``[0]`` or beyond the last one), as written.
    """

    text: str
    claim: str
    citations: list[int]
    bad_citations: list[int] = field(default_factory=list)


def cited_sentences(
    text: str,
    n_docs: int,
    *,
    citations: Sequence[Sequence[int]] | None = None,
    qampari_question: str | None = None,
) -> list[CitedSentence]:
    """The sentences of an answer with their citations.

    Citations come from ``[n]`` marks in the text; when the text has none and
    ``citations`` (0-based, one list per sentence, as in `ragmeter.types.Answer`)
    matches the sentence count, those are used. With ``qampari_question`` the
    answer is a comma-separated list and each item, prefixed by the question,
    is a sentence (as ALCE evaluates QAMPARI).
    """
    if qampari_question is not None:
        body = text.rstrip().rstrip(".").rstrip(",")
        parts = [p.strip() for p in body.split(",") if p.strip()]
        raw = [(p, f"{qampari_question} {remove_citations(p)}") for p in parts]
    else:
        raw = [(s.text, remove_citations(s.text)) for s in split_sentences(text)]
    # Stray punctuation ("[3]. .") is no sentence: it states nothing to support.
    raw = [(t, c) for t, c in raw if re.search(r"\w", c)]
    given = None
    if citations is not None and not _CITATION.search(text) and len(citations) == len(raw):
        given = citations
    out: list[CitedSentence] = []
    for i, (sent, claim) in enumerate(raw):
        numbers = [n + 1 for n in given[i]] if given is not None else _citation_numbers(sent)
        good = [n - 1 for n in numbers if 1 <= n <= n_docs]
        bad = [n for n in numbers if not 1 <= n <= n_docs]
        out.append(CitedSentence(text=sent, claim=claim, citations=good, bad_citations=bad))
    return out


# ---------------------------------------------------------------- short answers


def _padded(text: str) -> str:
    return f" {normalize_answer(text)} "


def _present(aliases: Sequence[str], padded_context: str) -> bool:
    for alias in aliases:
        norm = normalize_answer(alias)
        if norm and f" {norm} " in padded_context:
            return True
    return False


def answers_present(answers: Sequence[Sequence[str]], text: str) -> list[bool]:
    """Per required answer, whether any of its aliases occurs in ``text`` (normalised words)."""
    ctx = _padded(remove_citations(text))
    return [_present(aliases, ctx) for aliases in answers]


def str_em(answers: Sequence[Sequence[str]], text: str) -> float:
    """ASQA STR-EM: the share of required answers (alias lists) present in ``text``.

    Raises ValueError when there are no answers: a score over nothing is not zero.
    """
    if not answers:
        raise ValueError("str_em needs at least one gold answer")
    found = answers_present(answers, text)
    return sum(found) / len(found)


def str_hit(answers: Sequence[Sequence[str]], text: str) -> float:
    """ASQA STR-HIT: 1.0 when every required answer is present, else 0.0."""
    return 1.0 if str_em(answers, text) == 1.0 else 0.0


class QampariScores(Record):
    """QAMPARI scores of one answer list."""

    n_predicted: int
    precision: float
    recall: float
    recall_5: float
    f1: float
    f1_5: float


def qampari_items(text: str) -> list[str]:
    """The normalised comma-separated items of a QAMPARI answer (empty items dropped)."""
    body = remove_citations(text).rstrip().rstrip(".").rstrip(",")
    items = [normalize_answer(x) for x in body.split(",")]
    return [x for x in items if x]


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def qampari_scores(answers: Sequence[Sequence[str]], text: str) -> QampariScores:
    """Precision (items equal to some alias), recall, recall-5 and F1s of one QAMPARI answer."""
    if not answers:
        raise ValueError("qampari_scores needs at least one gold answer")
    preds = qampari_items(text)
    gold = [{normalize_answer(a) for a in aliases} - {""} for aliases in answers]
    flat = set().union(*gold)
    pred_set = set(preds)
    precision = sum(p in flat for p in preds) / len(preds) if preds else 0.0
    hits = sum(bool(g & pred_set) for g in gold)
    recall = hits / len(gold)
    recall_5 = min(5, hits) / min(5, len(gold))
    return QampariScores(
        n_predicted=len(preds),
        precision=precision,
        recall=recall,
        recall_5=recall_5,
        f1=_f1(precision, recall),
        f1_5=_f1(precision, recall_5),
    )


# ---------------------------------------------------------------- ROUGE-L and length

_WORD = re.compile(r"[a-z0-9]+")


def rouge_tokens(text: str) -> list[str]:
    """Lower-cased alphanumeric tokens, as ROUGE tokenises (no stemming)."""
    return _WORD.findall(text.lower())


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token lists (O(len(a)·len(b)))."""
    if not a or not b:
        return 0
    if len(b) > len(a):
        a, b = b, a
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            cur[j] = prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1])
        prev = cur
    return prev[-1]


def rouge_l(prediction: str, references: str | Sequence[str]) -> float:
    """ROUGE-L F1 of ``prediction`` against the best of ``references`` (citations removed)."""
    refs = [references] if isinstance(references, str) else list(references)
    if not refs:
        raise ValueError("rouge_l needs at least one reference")
    pred = rouge_tokens(remove_citations(prediction))
    best = 0.0
    for ref in refs:
        gold = rouge_tokens(ref)
        lcs = lcs_length(pred, gold)
        if lcs:
            best = max(best, _f1(lcs / len(pred), lcs / len(gold)))
    return best


def rouge_n(prediction: str, references: str | Sequence[str], n: int = 1) -> float:
    """ROUGE-N F1 (clipped n-gram overlap) against the best of ``references``."""
    refs = [references] if isinstance(references, str) else list(references)
    if not refs:
        raise ValueError("rouge_n needs at least one reference")
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")

    def grams(tokens: list[str]) -> Counter[tuple[str, ...]]:
        return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))

    pred = grams(rouge_tokens(remove_citations(prediction)))
    best = 0.0
    for ref in refs:
        gold = grams(rouge_tokens(ref))
        overlap = sum((pred & gold).values())
        if overlap:
            p = overlap / sum(pred.values())
            r = overlap / sum(gold.values())
            best = max(best, _f1(p, r))
    return best


def answer_length(text: str) -> int:
    """Length in words (white-space separated), citation marks excluded."""
    return len(remove_citations(text).split())


# ---------------------------------------------------------------- NLI-based metrics


def format_passage(passage: Passage) -> str:
    """A passage as an NLI premise: its title line, then its text."""
    return f"Title: {passage.title}\n{passage.text}" if passage.title else passage.text


async def claim_recall(nli: NLI, claims: Sequence[str], text: str) -> float:
    """ELI5 / ExpertQA claim recall: the share of ``claims`` that the answer entails."""
    if not claims:
        raise ValueError("claim_recall needs at least one claim")
    premise = remove_citations(text)
    probs = await nli.probabilities([(premise, c) for c in claims])
    return sum(nli.entails(p) for p in probs) / len(claims)


class CitationQuality(Record):
    """ALCE citation recall and precision of one answer, with what went into them."""

    n_sentences: int
    n_supported: int
    n_citations: int
    n_precise: int
    sentences_without_citations: int
    bad_citations: int
    """Cited numbers that name no document (counted as unsupporting)."""
    recall: float
    """Supported sentences / sentences (0 when the answer has no sentence)."""
    precision: float
    """Precise citations / citations (0 when it cites nothing)."""

    @property
    def f1(self) -> float:
        """Harmonic mean of citation recall and precision."""
        return _f1(self.precision, self.recall)


async def citation_quality(
    nli: NLI,
    text: str,
    docs: Sequence[Passage],
    *,
    citations: Sequence[Sequence[int]] | None = None,
    qampari_question: str | None = None,
    max_citations: int | None = 3,
) -> CitationQuality:
    """ALCE citation recall and precision of one answer over its ``docs``.

    A sentence without citations, or citing a document that does not exist, is
    not supported. Only the first ``max_citations`` citations of a sentence are
    used (ALCE uses 3). A citation of an unsupported sentence is not precise; of
    a supported sentence with one citation, precise; with several, irrelevant
    exactly when it does not entail the sentence alone and the other citations
    still entail it without it.
    """
    sents = cited_sentences(text, len(docs), citations=citations, qampari_question=qampari_question)
    cites = [s.citations[:max_citations] if max_citations else s.citations for s in sents]

    def joint(ids: Sequence[int]) -> str:
        return "\n\n".join(format_passage(docs[i]) for i in ids)

    # Round 1: does the joint set of cited passages entail each sentence?
    checkable = [i for i, s in enumerate(sents) if cites[i] and not s.bad_citations]
    probs = await nli.probabilities([(joint(cites[i]), sents[i].claim) for i in checkable])
    supported = {i for i, p in zip(checkable, probs, strict=True) if nli.entails(p)}
    # Round 2 (multi-citation supported sentences): each citation alone, and the rest without it.
    multi = [i for i in sorted(supported) if len(cites[i]) > 1]
    alone_pairs = [(joint([c]), sents[i].claim) for i in multi for c in cites[i]]
    rest_pairs = [
        (joint([d for d in cites[i] if d != c]), sents[i].claim) for i in multi for c in cites[i]
    ]
    flat = await nli.probabilities(alone_pairs + rest_pairs)
    alone, rest = flat[: len(alone_pairs)], flat[len(alone_pairs) :]
    n_precise = 0
    k = 0
    for i in sorted(supported):
        if len(cites[i]) == 1:
            n_precise += 1
            continue
        for _ in cites[i]:
            irrelevant = not nli.entails(alone[k]) and nli.entails(rest[k])
            n_precise += 0 if irrelevant else 1
            k += 1
    n_citations = sum(len(c) + len(s.bad_citations) for c, s in zip(cites, sents, strict=True))
    return CitationQuality(
        n_sentences=len(sents),
        n_supported=len(supported),
        n_citations=n_citations,
        n_precise=n_precise,
        sentences_without_citations=sum(
            1 for s in sents if not s.citations and not s.bad_citations
        ),
        bad_citations=sum(len(s.bad_citations) for s in sents),
        recall=len(supported) / len(sents) if sents else 0.0,
        precision=n_precise / n_citations if n_citations else 0.0,
    )


class AlceScores(Record):
    """Every ALCE metric that applies to one answer (None where it does not apply)."""

    length: int
    str_em: float | None = None
    str_hit: float | None = None
    qampari: QampariScores | None = None
    claim_recall: float | None = None
    rouge_l: float | None = None
    """Against the long reference answers, when the question has them (``extras``)."""
    citation: CitationQuality | None = None


def _long_answers(extras: dict[str, Any]) -> list[str]:
    """Long reference answers kept in a question's extras (ALCE ASQA's ``annotations``)."""
    out: list[str] = []
    for ann in extras.get("annotations") or []:
        if isinstance(ann, dict) and isinstance(ann.get("long_answer"), str):
            out.append(ann["long_answer"])
    return out


async def score_alce(
    question: Question,
    output: str,
    nli: NLI | None,
    *,
    kind: str | None = None,
    docs: Sequence[Passage] | None = None,
    citations: Sequence[Sequence[int]] | None = None,
    max_citations: int | None = 3,
) -> AlceScores:
    """The ALCE metrics of one answer: by ``kind`` ("short", "list" or "claims", default
    from the data set name), plus ROUGE-L, length and, with an NLI model, citation quality."""
    kind = kind or answer_kind(question.dataset)
    docs = list(question.passages if docs is None else docs)
    scores = AlceScores(length=answer_length(output))
    if question.answers:
        if kind == "short":
            scores.str_em = str_em(question.answers, output)
            scores.str_hit = str_hit(question.answers, output)
        elif kind == "list":
            scores.qampari = qampari_scores(question.answers, output)
        elif nli is not None:
            claims = [a[0] for a in question.answers if a]
            scores.claim_recall = await claim_recall(nli, claims, output)
    longs = _long_answers(question.extras)
    if longs:
        scores.rouge_l = rouge_l(output, longs)
    if nli is not None:
        scores.citation = await citation_quality(
            nli,
            output,
            docs,
            citations=citations,
            qampari_question=question.query if kind == "list" else None,
            max_citations=max_citations,
        )
    return scores
