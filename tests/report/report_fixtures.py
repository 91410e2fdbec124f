"""Run folders for report tests and benchmarks, built from the real on-disk records.

Every record is a pydantic model of the engine (`RunRecord`, `RunHeader`) or of
scoring (`ScoredSample` fields, `JudgeVote`, `Results` from the real `aggregate`),
written with the engine's own writers, so the report reads exactly what a run
leaves behind. Content is synthetic but shaped like CRAG: labels over the five
domains and eight question types, five retrieved chunks per question that
sometimes hold the gold answer, judge votes with rationales, per-stage timings.
With ``payload=True`` every text field carries HTML and script payloads.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import orjson

from ragmeter.config import RunSpec
from ragmeter.diagnosis.categories import categorize
from ragmeter.diagnosis.records import SampleDiagnosis
from ragmeter.engine.journal import DataFingerprint, Journal, RunHeader, RunRecord, write_header
from ragmeter.scoring.crag.aggregate import aggregate
from ragmeter.scoring.crag.records import GoldCheck, JudgeVote, ScoringInfo, TruncationInfo
from ragmeter.types import Answer, Labels, RetrievedChunk, StageTiming, Usage

DOMAINS = ["finance", "sports", "music", "movie", "open"]
TYPES = [
    "simple",
    "simple_w_condition",
    "comparison",
    "aggregation",
    "set",
    "multi-hop",
    "post-processing",
    "false_premise",
]
DYNAMISM = ["static", "slow-changing", "fast-changing", "real-time"]
POPULARITY = ["head", "torso", "tail"]

PAYLOADS = [
    "<script>alert('pred')</script>",
    "<img src=x onerror=\"alert('img')\">",
    "</script><script>alert('breakout')</script>",
    "<svg onload=alert('svg')>",
    "<!-- <script>console.log('comment')</script> -->",
    '"><iframe src="javascript:alert(\'frame\')"></iframe>',
    "\u2028\u2029<b onmouseover=alert('b')>hover</b>",
    "]]></script><script>console.error('x')</script>",
]
"""Strings that would run script if any of them reached the page as markup."""

FILLER = (
    "The company reported its quarterly results on Tuesday, with revenue above analyst "
    "expectations. Shares moved in after-hours trading as investors weighed the outlook. "
    "The board also announced a dividend and a new buyback programme for the coming year. "
)

WRONG = ["42", "Paris", "1987", "Taylor Swift", "$3.2 billion", "the Lakers", "no", "12.5%"]
GOLD = ["Tokyo", "1994", "Steven Spielberg", "$1.08", "Real Madrid", "13", "Adele", "yes"]


def _chunk_text(rng: random.Random, gold: str, hit: bool, payload: bool) -> str:
    parts = [FILLER[: rng.randint(200, len(FILLER))]]
    if hit:
        parts.append(f"According to the page, the answer is {gold}. ")
    if payload:
        parts.append(rng.choice(PAYLOADS) + " ")
    parts.append(FILLER * rng.randint(1, 4))
    return "".join(parts)


def make_records(
    n: int,
    *,
    seed: int = 0,
    payload: bool = False,
    questions: list[dict[str, Any]] | None = None,
    chunks: int = 5,
    skill: float = 0.45,
) -> list[RunRecord]:
    """``n`` finished questions of a run; ``skill`` shifts labels towards correct."""
    rng = random.Random(seed)
    records: list[RunRecord] = []
    for i in range(n):
        q = questions[i % len(questions)] if questions else None
        # Labels and gold answers depend on the question, not the seed, so two runs of
        # the same questions share them; only the system's behaviour differs.
        qrng = random.Random(i)
        gold = q["answer"] if q else qrng.choice(GOLD)
        alts = list(q.get("alternatives", [])) if q else qrng.sample(GOLD, 1)
        query = (
            q["query"]
            if q
            else f"question {i}: what is the answer to this {qrng.choice(DOMAINS)} question?"
        )
        labels = Labels(
            domain=(q or {}).get("domain") or qrng.choice(DOMAINS),
            question_type=(q or {}).get("question_type") or qrng.choice(TYPES),
            static_or_dynamic=(q or {}).get("static_or_dynamic") or qrng.choice(DYNAMISM),
            popularity=qrng.choice(POPULARITY),
        )
        qid = q["id"] if q else f"q{i:05d}-{qrng.getrandbits(32):08x}"
        if payload:
            query = f"{query} {PAYLOADS[i % len(PAYLOADS)]}"
            if i % 9 == 0:
                # A slice value that is markup: it reaches plots, filters and tables.
                labels = labels.model_copy(update={"domain": PAYLOADS[1]})
        r = rng.random()
        label = (
            "correct"
            if r < skill
            else "incorrect"
            if r < skill + 0.3
            else "missing"
            if r < 0.98
            else "unscored"
        )
        prediction: str | None
        truncated = False
        cut: str | None
        if label == "correct":
            prediction = gold if rng.random() < 0.6 else f"The answer is {gold}."
        elif label == "missing":
            prediction = None if i % 7 == 0 else "I don't know."
        else:
            prediction = rng.choice(WRONG)
        if prediction is not None and rng.random() < 0.08:
            prediction = prediction + " " + FILLER * 2
            truncated = True
        if payload and prediction is not None:
            prediction = f"{prediction} {PAYLOADS[(i + 3) % len(PAYLOADS)]}"
        cut = prediction
        if truncated and prediction is not None:
            cut = " ".join(prediction.split(" ")[:60])
        retrieved = [
            RetrievedChunk(
                chunk_id=f"c{i}-{k}",
                text=_chunk_text(rng, gold, rng.random() < 0.35, payload),
                score=round(1.0 - k * 0.1 - rng.random() * 0.05, 4),
                source=f"https://example.com/page/{i}/{k}"
                + ("?<script>alert(1)</script>" if payload else ""),
                doc_index=k,
            )
            for k in range(chunks)
        ]
        gen_prompt = rng.randint(600, 1400)
        gen_out = rng.randint(5, 40)
        stages = {
            "extraction": StageTiming(seconds=rng.uniform(0.05, 0.4)),
            "retrieval": StageTiming(seconds=rng.uniform(0.01, 0.2)),
            "generation": StageTiming(
                seconds=rng.uniform(0.5, 4.0),
                usage=Usage(prompt_tokens=gen_prompt, completion_tokens=gen_out),
            ),
        }
        votes: list[JudgeVote] = []
        rule: str | None = None
        if label == "missing":
            rule = "refusal" if prediction is not None else "no_prediction"
        elif label == "correct" and prediction == gold:
            rule = "exact_match"
        else:
            verdict = (
                "correct" if label == "correct" else "incorrect" if label == "incorrect" else None
            )
            rationale = (
                f"The prediction {'matches' if verdict == 'correct' else 'does not match'} "
                f"the gold answer {gold}."
            )
            if payload:
                rationale += " " + PAYLOADS[(i + 5) % len(PAYLOADS)]
            votes.append(
                JudgeVote(
                    judge="local",
                    model="qwen2.5-coder-1.5b-instruct-q4_k_m",
                    verdict=verdict,
                    checks=[GoldCheck(gold=gold, verdict=verdict, rationale=rationale)],
                    error=None if verdict else "judge reply could not be parsed",
                )
            )
            stages["judging"] = StageTiming(
                seconds=rng.uniform(0.3, 1.5),
                usage=Usage(
                    prompt_tokens=rng.randint(200, 300), completion_tokens=rng.randint(3, 30)
                ),
            )
        answer = (
            Answer(
                text=prediction,
                citations=[[0, 2]] if rng.random() < 0.2 else [],
                retrieved=retrieved,
                refused=label == "missing",
                stages={k: v for k, v in stages.items() if k != "judging"},
            )
            if prediction is not None
            else None
        )
        records.append(
            RunRecord(
                id=qid,
                index=i,
                query=query,
                answers=[gold, *alts],
                prediction=prediction,
                truncated_prediction=cut,
                truncated=truncated,
                label=label,  # type: ignore[arg-type]
                rule=rule,  # type: ignore[arg-type]
                votes=votes,
                agreement=1.0 if votes else None,
                unscored_reason="judge reply could not be parsed" if label == "unscored" else None,
                labels=labels,
                answer=answer,
                missing_reason=None if prediction is not None else "time budget of 30 s exceeded",
                seconds=sum(s.seconds for s in stages.values()),
                active_seconds=sum(s.seconds for s in stages.values()),
                stages=stages,
            )
        )
    return records


def write_run(
    folder: Path,
    records: list[RunRecord],
    *,
    name: str = "rag-bm25",
    llm: str = "llamacpp:smollm2-135m",
    trust: dict[str, Any] | None = None,
    resamples: int = 200,
) -> Path:
    """Write a run folder (header, journal, results) for ``records``; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = RunSpec.model_validate(
        {
            "name": name,
            "description": "synthetic run for report tests",
            "data": {"path": "crag/crag_task_1_dev_v4.jsonl.bz2"},
            "pipeline": {"name": "rag", "options": {"top_k": 5}},
            "llm": llm,
        }
    )
    header = RunHeader(
        ragmeter_version="0.1.0",
        created="2025-06-01T12:00:00+00:00",
        spec=spec.model_dump(mode="json"),
        spec_hash=spec.spec_hash(),
        spec_source="<test>",
        versions={"python": "3.11"},
        data=DataFingerprint(
            format="crag",
            path="crag/crag_task_1_dev_v4.jsonl.bz2",
            bytes=123456,
            sha256="ab" * 32,
            selected=len(records),
            selection_sha256="cd" * 32,
        ),
        models={"answer": llm + " (sha256 0123abcd)", "judge": "local"},
    )
    write_header(folder, header)
    # A fresh journal: the engine's appends to an existing one (that is how it resumes).
    (folder / "samples.jsonl").unlink(missing_ok=True)
    journal = Journal(folder)
    journal.open()
    for r in records:
        journal.append(r)
    journal.close()
    info = ScoringInfo(
        judge="local",
        judges=["qwen2.5-coder-1.5b-instruct-q4_k_m"],
        truncation=TruncationInfo(tokenizer="crag/tokenizer/tokenizer.json"),
        bootstrap_resamples=resamples,
        bootstrap_seed=0,
    )
    results = aggregate(records, info).model_dump(mode="json")
    if trust is not None:
        results["trust"] = trust
    (folder / "results.json").write_bytes(orjson.dumps(results, option=orjson.OPT_INDENT_2))
    return folder


def write_trust_run(folder: Path, n: int, *, seed: int = 0) -> Path:
    """A ``trust`` scorer run (ASQA-like): results.json is scoring's own `TrustResult`."""
    from ragmeter.scoring.attribution.alce import CitationQuality
    from ragmeter.scoring.attribution.trust import TrustItem, aggregate_trust

    rng = random.Random(seed)
    base = make_records(n, seed=seed)
    items: list[TrustItem] = []
    records: list[RunRecord] = []
    for r in base:
        refused = r.label == "missing"
        answerable = rng.random() < 0.8
        item = TrustItem(
            id=r.id,
            dataset="asqa",
            refused=refused,
            answerable=answerable,
            n_answers=2,
            n_supported_answers=2 if answerable else 0,
            correctness=rng.choice([0.0, 0.5, 1.0]) if answerable and not refused else None,
            citation=None
            if refused
            else CitationQuality(
                n_sentences=2,
                n_supported=rng.randint(0, 2),
                n_citations=2,
                n_precise=rng.randint(0, 2),
                sentences_without_citations=0,
                bad_citations=0,
                recall=rng.random(),
                precision=rng.random(),
            ),
        )
        items.append(item)
        records.append(r.model_copy(update={"trust": item.model_dump(mode="json"), "votes": []}))
    write_run(folder, records, name="cited-asqa")
    result = aggregate_trust(items, dataset="asqa", n_resamples=200)
    (folder / "results.json").write_bytes(
        orjson.dumps(result.model_dump(mode="json"), option=orjson.OPT_INDENT_2)
    )
    return folder


def _with_confidence(
    records: list[RunRecord], rng: random.Random, abstain_below: float | None
) -> list[RunRecord]:
    """Records whose answers carry a confidence, higher for right answers than wrong ones.

    With ``abstain_below``, a scored answer under the threshold becomes "I don't know"
    the way the engine records it: missing, with the raw answer and its label kept.
    """
    out = []
    for r in records:
        if r.answer is None:
            out.append(r)
            continue
        high = {"correct": (0.35, 1.0), "incorrect": (0.0, 0.75)}.get(r.label, (0.0, 0.5))
        confidence = round(rng.uniform(*high), 4)
        answer = r.answer.model_copy(update={"confidence": confidence})
        update: dict[str, Any] = {"answer": answer}
        abstains = abstain_below is not None and confidence < abstain_below
        if abstains and r.label in ("correct", "incorrect"):
            answer = answer.model_copy(
                update={"text": "I don't know", "extras": {"raw_answer": r.prediction}}
            )
            update = {
                "answer": answer,
                "raw_label": r.label,
                "label": "missing",
                "prediction": "I don't know",
                "truncated_prediction": "I don't know",
                "rule": "refusal",
                "votes": [],
            }
        out.append(r.model_copy(update=update))
    return out


def _diagnosis_of(r: RunRecord, rng: random.Random) -> SampleDiagnosis:
    """A question's signals read off its record, as the diagnosis would find them."""
    gold = r.answers[0].lower()
    chunks = r.answer.retrieved if r.answer is not None else []
    in_evidence = any(gold in c.text.lower() for c in chunks)
    in_pages = in_evidence or rng.random() < 0.5
    premise = r.labels.question_type == "false_premise"
    answered = r.label != "missing"
    probability = (0.9 if in_evidence else 0.2) if answered else None
    supported = probability > 0.5 if probability is not None else None
    return SampleDiagnosis(
        id=r.id,
        label=r.label,
        category=categorize(
            r.label,
            false_premise=premise,
            answer_in_evidence=in_evidence,
            answer_in_pages=in_pages,
            supported=supported,
        ),
        false_premise=premise,
        answer_in_pages=in_pages,
        answer_in_evidence=in_evidence,
        supported=supported,
        support_probability=probability,
        evidence_chunks=len(chunks),
        note=None if answered else "no answer",
    )


def write_diagnosed_run(
    folder: Path,
    n: int,
    *,
    seed: int = 0,
    name: str = "rag-diagnosed",
    diagnose: bool = True,
    abstain_below: float | None = None,
) -> Path:
    """A run whose answers carry confidences, with the engine's ``abstention`` block and,
    with ``diagnose``, a ``diagnosis.jsonl`` and its ``diagnosis`` block.

    The blocks come from the engine's own `analysis_blocks`, as `ragmeter run` and
    `ragmeter diagnose` write them; only the NLI verdicts are stood in for.
    """
    from ragmeter.diagnosis.store import write_diagnoses
    from ragmeter.engine.runner import analysis_blocks

    rng = random.Random(seed)
    records = _with_confidence(make_records(n, seed=seed, skill=0.5), rng, abstain_below)
    write_run(folder, records, name=name)
    if diagnose:
        scored = [r for r in records if r.label != "unscored"]
        write_diagnoses(folder, [_diagnosis_of(r, rng) for r in scored], "fake:support")
    options: dict[str, Any] = {"top_k": 5}
    if abstain_below is not None:
        options["abstain_below"] = abstain_below
    spec = RunSpec.model_validate(
        {
            "name": name,
            "data": {"path": "crag.jsonl"},
            "pipeline": {"name": "rag", "options": options},
        }
    )
    results = orjson.loads((folder / "results.json").read_bytes())
    results.update(analysis_blocks(folder, records, spec))
    (folder / "results.json").write_bytes(orjson.dumps(results, option=orjson.OPT_INDENT_2))
    return folder
