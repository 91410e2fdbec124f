"""One run: spec → questions → pipeline → scorer → journal → results.

`prepare` checks everything that can be checked before any model loads (the
spec, its components and their options, the data file, the run folder) and
writes ``header.json``. `process_batch` answers and scores a batch of questions
under the time budget; both executors (asyncio here, Ray in
`ragmeter.engine.ray_executor`) use it, which is why they write the same
journal. `run_local` drives the batches with bounded concurrency, appends each
finished record, keeps the error budget, and finally aggregates the journal
into ``results.json``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import platform
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel

from ragmeter import __version__
from ragmeter.config import LoadedSpec, RunSpec
from ragmeter.engine.cost import USAGE_KEY, run_usage
from ragmeter.engine.data import READERS, Selection, resolve_data_path
from ragmeter.engine.journal import (
    RESULTS,
    Journal,
    RunHeader,
    RunRecord,
    read_header,
    read_journal,
    write_header,
    write_json_atomic,
)
from ragmeter.engine.resources import (
    CURRENT_CLOCK,
    EngineResources,
    LLMLoader,
    QuestionClock,
    default_llm_loader,
)
from ragmeter.engine.scorers import RunScorer, get_scorer
from ragmeter.errors import ConfigError, UserError
from ragmeter.llm.protocol import GenerationSettings
from ragmeter.pipelines import load_builtin_pipelines
from ragmeter.pipelines.base import PIPELINES, Pipeline
from ragmeter.scoring.crag.records import ScoredSample
from ragmeter.types import Answer, Label, Question, StageTiming, Usage


class ErrorBudgetExceeded(UserError):
    """More questions failed than the spec's error budget allows; the run stopped."""

    exit_code = 1


@dataclass
class RunPlan:
    """A checked run, ready to execute."""

    loaded: LoadedSpec
    folder: Path
    selection: Selection
    pipeline_cls: type[Pipeline]
    pipeline_options: BaseModel
    header: RunHeader
    done: list[RunRecord] = field(default_factory=list)

    @property
    def spec(self) -> RunSpec:
        """The run spec."""
        return self.loaded.spec


def package_versions() -> dict[str, str]:
    """Versions of Python and of the packages that change results."""
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in ("ragmeter", "pydantic", "llama-cpp-python", "ray", "numpy", "bm25s", "torch"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            continue
    return out


def resolve_pipeline(loaded: LoadedSpec) -> tuple[type[Pipeline], BaseModel]:
    """The pipeline class named by the spec and its validated options."""
    load_builtin_pipelines()
    cls = PIPELINES.get(loaded.spec.pipeline.name)
    options = loaded.check_options(
        cls.Options, loaded.spec.pipeline.options, ("pipeline", "options")
    )
    return cls, options


def check_spec(
    loaded: LoadedSpec, base: Path | None = None, download: bool = True
) -> tuple[type[Pipeline], BaseModel, Path | None]:
    """Check components, their options and the data file (what ``ragmeter validate`` does).

    Without ``download`` a catalog data set that is not here yet gives None for its path.
    """
    cls, options = resolve_pipeline(loaded)
    get_scorer(loaded.spec.scoring.scorer).check_options(loaded)
    READERS.get(loaded.spec.data.format)
    loaded.check_options(GenerationSettings, loaded.spec.generation, ("generation",))
    path = resolve_data_path(loaded.spec.data.path, base, download=download)
    return cls, options, path


def prepare(
    loaded: LoadedSpec, out: Path, resume: bool = False, retry_errors: bool = False
) -> RunPlan:
    """Check the spec and the run folder, select the data and write ``header.json``."""
    base = Path(loaded.source).parent if Path(loaded.source).is_file() else None
    cls, options, path = check_spec(loaded, base)
    assert path is not None  # downloads when missing
    spec = loaded.spec
    selection = Selection(
        spec.data, path, with_html=spec.data.with_html and cls.wants_html(options)
    )
    out.mkdir(parents=True, exist_ok=True)
    journal = Journal(out)
    existing = (out / "header.json").exists()
    if existing and not resume:
        raise ConfigError(
            f"{out} already holds a run; pass --resume to continue it, or another --out"
        )
    fingerprint = selection.fingerprint()
    done: list[RunRecord] = []
    if existing:
        old = read_header(out)
        if old.spec_hash != spec.spec_hash():
            raise ConfigError(
                f"{out} holds a run of a different spec (hash {old.spec_hash[:12]}, this one "
                f"{spec.spec_hash()[:12]}); resume with the same spec and options, "
                "or use another --out"
            )
        if (old.data.sha256, old.data.selection_sha256) != (
            fingerprint.sha256,
            fingerprint.selection_sha256,
        ):
            raise ConfigError(
                f"{out} was run on different data ({old.data.path}); cannot resume it"
            )
        done = journal.recover()
        if retry_errors:
            kept = [r for r in done if r.error is None]
            if len(kept) != len(done):
                journal.rewrite(kept)
            done = kept
        header = old
    else:
        header = RunHeader(
            ragmeter_version=__version__,
            created=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            spec=spec.model_dump(mode="json"),
            spec_hash=spec.spec_hash(),
            spec_source=loaded.source,
            versions=package_versions(),
            data=fingerprint,
            executor=spec.executor.kind,
        )
        write_header(out, header)
    return RunPlan(loaded, out, selection, cls, options, header, done)


def _error_text(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _OverBudget(Exception):
    def __init__(self, active: float):
        self.active = active


async def _watch(
    task: asyncio.Task[list[Answer]], clock: QuestionClock, budget: float | None
) -> list[Answer]:
    """Wait for ``task``, cancelling it once its active time passes ``budget``."""
    if budget is None:
        return await task
    while True:
        remaining = budget - clock.active()
        if remaining <= 0:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            raise _OverBudget(clock.active())
        done, _ = await asyncio.wait({task}, timeout=remaining)
        if done:
            answers = task.result()
            active = clock.active()
            if active > budget:
                raise _OverBudget(active)
            return answers


async def process_batch(
    pipeline: Pipeline,
    scorer: RunScorer,
    items: Sequence[tuple[int, Question]],
    time_budget_s: float | None,
    worker: str | None = None,
) -> list[RunRecord]:
    """Answer ``items`` with ``pipeline`` under the time budget, then score each answer.

    The budget is per question (a batch of n questions gets n times the budget, as the
    KDD Cup did). A pipeline error or an overrun leaves the questions without a
    prediction (counted missing by CRAG scoring) and says why on each record.
    User errors (bad configuration) are not per-question failures: they propagate.
    """
    questions = [q for _, q in items]
    clock = QuestionClock()
    token = CURRENT_CLOCK.set(clock)
    try:
        task = asyncio.ensure_future(pipeline.answer_batch(questions))
    finally:
        CURRENT_CLOCK.reset(token)
    budget = time_budget_s * len(questions) if time_budget_s is not None else None
    answers: list[Answer | None] = [None] * len(questions)
    error: str | None = None
    missing_reason: str | None = None
    try:
        got = await _watch(task, clock, budget)
        if len(got) != len(questions):
            raise TypeError(
                f"the pipeline returned {len(got)} answers for {len(questions)} questions"
            )
        answers = list(got)
    except _OverBudget as over:
        missing_reason = f"time budget exceeded: {over.active:.1f} s of work > {budget:.1f} s" + (
            f" for {len(questions)} questions" if len(questions) > 1 else ""
        )
    except UserError:
        raise
    except Exception as exc:
        error = _error_text(exc)
        missing_reason = f"error: {error}"
    active = clock.active()
    wall = time.perf_counter() - clock.start
    records = []
    for (index, question), answer in zip(items, answers, strict=True):
        start = time.perf_counter()
        raw_label = None
        try:
            scored, judge_usage, raw_label = await score_answer(
                scorer, question, answer.text if answer is not None else None, answer
            )
            scoring_error = None
        except UserError:
            raise
        except Exception as exc:
            scoring_error = _error_text(exc)
            judge_usage = Usage()
            scored = scorer.unscored(
                question, answer.text if answer else None, f"scoring error: {scoring_error}"
            )
        judging = time.perf_counter() - start
        stages = dict(answer.stages) if answer is not None else {}
        stages["judging"] = StageTiming(seconds=judging, usage=judge_usage)
        record = RunRecord(
            **scored.model_dump(),
            index=index,
            query_time=question.query_time,
            answer=answer,
            raw_label=raw_label,
            error=error or scoring_error,
            missing_reason=missing_reason,
            seconds=wall + judging,
            active_seconds=active / len(items),
            stages=stages,
            worker=worker,
        )
        records.append(record)
    return records


async def score_answer(
    scorer: RunScorer, question: Question, prediction: str | None, answer: Answer | None
) -> tuple[ScoredSample, Usage, Label | None]:
    """Score a prediction; also the raw answer a pipeline abstained on (its label third).

    A pipeline that answered "I don't know" below its confidence threshold keeps the
    answer it would have given in ``extras["raw_answer"]``; scoring it too lets the run
    show the raw score beside the abstaining one.
    """
    scored, usage = await scorer.score(question, prediction, answer)
    raw = answer.extras.get("raw_answer") if answer is not None else None
    if not isinstance(raw, str):
        return scored, usage, None
    raw_scored, raw_usage = await scorer.score(question, raw, answer)
    return scored, usage + raw_usage, raw_scored.label


def pending_batches(
    selection: Selection, size: int, skip: set[str]
) -> Iterator[list[tuple[int, Question]]]:
    """Batches of ``size`` not-yet-done questions (ids in ``skip`` are left out), in order."""
    batch: list[tuple[int, Question]] = []
    for index, q in selection:
        if q.id in skip:
            continue
        batch.append((index, q))
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def batches(
    selection: Selection, size: int, skip: set[str]
) -> AsyncIterator[list[tuple[int, Question]]]:
    """`pending_batches` for the event loop: the file is read in a thread to keep the loop free."""

    async def gen() -> AsyncIterator[list[tuple[int, Question]]]:
        it = pending_batches(selection, size, skip)
        while (batch := await asyncio.to_thread(next, it, None)) is not None:
            yield batch

    return gen()


ProgressHook = Callable[[list[RunRecord]], None]


def build_components(
    loaded: LoadedSpec, loader: LLMLoader
) -> tuple[EngineResources, Pipeline, RunScorer]:
    """Build the resources, pipeline and scorer of a spec in this process."""
    spec = loaded.spec
    cls, options = resolve_pipeline(loaded)
    resources = EngineResources.for_spec(spec, loader)
    pipeline = cls(options, resources)
    scorer = get_scorer(spec.scoring.scorer).build(loaded, resources)
    return resources, pipeline, scorer


async def process_items(
    pipeline: Pipeline,
    scorer: RunScorer,
    items: Sequence[tuple[int, Question]],
    concurrency: int,
    time_budget_s: float | None,
    worker: str | None = None,
) -> list[RunRecord]:
    """Answer and score ``items`` in pipeline-sized batches, ``concurrency`` at a time."""
    size = pipeline.batch_size
    chunks = [list(items[i : i + size]) for i in range(0, len(items), size)]
    gate = asyncio.Semaphore(concurrency)

    async def one(chunk: list[tuple[int, Question]]) -> list[RunRecord]:
        async with gate:
            return await process_batch(pipeline, scorer, chunk, time_budget_s, worker)

    results = await asyncio.gather(*(one(c) for c in chunks))
    return [r for chunk in results for r in chunk]


async def run_local(
    plan: RunPlan,
    loader: LLMLoader,
    on_records: ProgressHook | None = None,
) -> BaseModel:
    """Run the plan's remaining questions in this process and write ``results.json``."""
    spec = plan.spec
    resources, pipeline, scorer = build_components(plan.loaded, loader)
    plan.header.models = {**plan.header.models, **_identities(resources)}
    journal = Journal(plan.folder)
    journal.open()
    errors = sum(1 for r in plan.done if r.error is not None)
    last_error = next((r.error for r in reversed(plan.done) if r.error), None)
    skip = {r.id for r in plan.done}
    pending: set[asyncio.Task[list[RunRecord]]] = set()
    stopped = False
    try:
        source = batches(plan.selection, pipeline.batch_size, skip)
        exhausted = False
        while True:
            while not stopped and not exhausted and len(pending) < spec.concurrency.questions:
                try:
                    batch = await anext(source)
                except StopAsyncIteration:
                    exhausted = True
                    break
                pending.add(
                    asyncio.create_task(
                        process_batch(pipeline, scorer, batch, spec.budget.time_per_question_s)
                    )
                )
            if not pending:
                break
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                records = task.result()
                for r in records:
                    journal.append(r)
                    if r.error is not None:
                        errors += 1
                        last_error = r.error
                if on_records is not None:
                    on_records(records)
            if errors > spec.budget.max_errors and not stopped:
                stopped = True
                for t in pending:
                    t.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                pending = set()
        plan.header.models = {**plan.header.models, **_identities(resources)}
        write_header(plan.folder, plan.header)
    finally:
        for t in pending:
            t.cancel()
        journal.close()
        await pipeline.aclose()
        await resources.aclose()
    results = finish(plan.folder, plan.spec)
    if stopped:
        raise ErrorBudgetExceeded(
            f"run stopped: {errors} questions failed, over the error budget of "
            f"{spec.budget.max_errors} (last error: {last_error}); the finished records are in "
            f"{plan.folder / 'samples.jsonl'}; fix the cause and continue with "
            "--resume --retry-errors"
        )
    return results


def _identities(resources: EngineResources) -> dict[str, str]:
    out = {}
    for spec, identity in resources.identities().items():
        role = "answer" if spec == resources.answer_llm else f"model:{spec}"
        out[role] = identity
    return out


def finish(folder: Path, spec: RunSpec) -> BaseModel:
    """Aggregate the journal (in selection order) into ``results.json``.

    Beside the scorer's figures, ``results.json`` gets a ``usage`` block: tokens (and cost,
    when the spec has prices) per stage.
    """
    records = sorted(read_journal(folder), key=lambda r: r.index)
    scorer_cls = get_scorer(spec.scoring.scorer)
    results = scorer_cls.aggregate(records, spec)
    usage = run_usage(records, spec.scoring.scorer, spec.prices)
    data = {**results.model_dump(mode="json"), USAGE_KEY: usage.model_dump(mode="json")}
    data.update(analysis_blocks(folder, records, spec))
    write_json_atomic(folder / RESULTS, orjson.dumps(data, option=orjson.OPT_INDENT_2))
    return results


def analysis_blocks(folder: Path, records: Sequence[RunRecord], spec: RunSpec) -> dict[str, Any]:
    """The ``abstention`` and ``diagnosis`` blocks of ``results.json``, where they apply.

    ``abstention`` when answers carry confidences (CRAG scoring); ``diagnosis`` when the
    folder holds per-question diagnoses (``ragmeter diagnose`` or ``diagnose: true``).
    """
    from ragmeter.diagnosis.abstention import summarize_abstention
    from ragmeter.diagnosis.store import read_diagnoses, summarize_diagnoses

    out: dict[str, Any] = {}
    if spec.scoring.scorer != "crag":
        return out
    threshold = spec.pipeline.options.get("abstain_below")
    abstention = summarize_abstention(
        records, abstain_below=threshold if isinstance(threshold, int | float) else None
    )
    if abstention is not None:
        out["abstention"] = abstention.model_dump(mode="json")
    diagnoses = read_diagnoses(folder)
    if diagnoses:
        out["diagnosis"] = summarize_diagnoses(diagnoses, records).model_dump(mode="json")
    elif spec.diagnose:
        from ragmeter.engine.diagnose import NO_EVIDENCE

        out["diagnosis_skipped"] = NO_EVIDENCE
    return out


def run(
    plan: RunPlan, loader: LLMLoader | None = None, on_records: ProgressHook | None = None
) -> BaseModel:
    """Execute a plan with its spec's executor (``loader`` defaults to `ragmeter.llm.load_llm`)."""
    loader = loader or default_llm_loader(plan.spec.cache, plan.spec.llm_options)
    if plan.spec.executor.kind == "ray":
        from ragmeter.engine.ray_executor import run_ray

        results = run_ray(plan, on_records, loader)
    else:
        results = asyncio.run(run_local(plan, loader, on_records))
    if plan.spec.diagnose and plan.spec.scoring.scorer == "crag":
        from ragmeter.engine.diagnose import NoEvidenceError, diagnose_folder

        # A system that returns no evidence (a user's callable, llm_only) still runs;
        # results.json says why it has no diagnosis.
        with contextlib.suppress(NoEvidenceError):
            diagnose_folder(plan.folder, loader=loader)
        results = finish(plan.folder, plan.spec)
    return results


def dump_json(value: Any) -> str:
    """Pretty JSON text of a model or plain value."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
