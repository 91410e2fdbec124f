"""The Ray executor: batches of questions go to workers that each hold their own models.

The driver (this process) reads the data, sends batches to the workers, and
appends the records they return to the same journal the local executor writes;
each worker builds the pipeline and scorer from the spec and answers its batch
with the same `process_batch`, so both executors produce the same records.
``executor.address`` joins an existing cluster (``ray.init(address=...)``);
without it a local Ray starts with ``executor.num_cpus`` CPUs.
"""

from __future__ import annotations

import os
from typing import Any

from pydantic import BaseModel

from ragmeter.config import LoadedSpec
from ragmeter.engine.journal import Journal, RunRecord, write_header
from ragmeter.engine.resources import EngineResources, LLMLoader, default_llm_loader
from ragmeter.engine.runner import (
    ErrorBudgetExceeded,
    ProgressHook,
    RunPlan,
    build_components,
    finish,
    pending_batches,
    process_items,
)
from ragmeter.errors import MissingExtraError
from ragmeter.pipelines.base import Pipeline
from ragmeter.types import Question


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MissingExtraError("ray", "--executor ray") from None
    return ray


class RunWorker:
    """One Ray worker: builds its own models, pipeline and scorer, answers batches."""

    def __init__(
        self, loaded: LoadedSpec, index: int, cpus: float, loader: LLMLoader | None = None
    ):
        self.loaded = loaded
        self.name = f"ray-{index}"
        self.loader = loader or default_llm_loader(loaded.spec.cache, loaded.spec.llm_options)
        self._pin(index, cpus)
        self._built: tuple[EngineResources, Pipeline, Any] | None = None

    @staticmethod
    def _pin(index: int, cpus: float) -> None:
        # A worker given k CPUs should compute on k cores, not on all of them: models size
        # their thread pools by the cores this process may use.
        if not hasattr(os, "sched_getaffinity"):
            return
        cores = sorted(os.sched_getaffinity(0))
        k = max(1, int(cpus))
        if len(cores) <= k:
            return
        start = (index * k) % len(cores)
        chosen = {cores[(start + i) % len(cores)] for i in range(k)}
        os.sched_setaffinity(0, chosen)

    async def process(self, items: list[tuple[int, Question]]) -> list[RunRecord]:
        """Answer and score a batch of questions."""
        if self._built is None:
            self._built = build_components(self.loaded, self.loader)
        _, pipeline, scorer = self._built
        spec = self.loaded.spec
        return await process_items(
            pipeline,
            scorer,
            items,
            spec.concurrency.questions,
            spec.budget.time_per_question_s,
            self.name,
        )

    def identities(self) -> dict[str, str]:
        """Identities of the models this worker loaded."""
        return self._built[0].identities() if self._built else {}

    async def close(self) -> None:
        """Release the worker's models."""
        if self._built is not None:
            resources, pipeline, _ = self._built
            await pipeline.aclose()
            await resources.aclose()
            self._built = None


def run_ray(
    plan: RunPlan, on_records: ProgressHook | None = None, loader: LLMLoader | None = None
) -> BaseModel:
    """Run the plan's remaining questions on Ray workers and write ``results.json``."""
    ray = _import_ray()
    ex = plan.spec.executor
    started_here = False
    if not ray.is_initialized():
        if ex.address:
            ray.init(address=ex.address, log_to_driver=False)
        else:
            ray.init(
                num_cpus=ex.num_cpus,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        started_here = True
    actor = ray.remote(RunWorker)
    workers = [
        actor.options(num_cpus=ex.cpus_per_worker).remote(
            plan.loaded, i, ex.cpus_per_worker, loader
        )
        for i in range(ex.workers)
    ]
    journal = Journal(plan.folder)
    journal.open()
    errors = sum(1 for r in plan.done if r.error is not None)
    last_error = next((r.error for r in reversed(plan.done) if r.error), None)
    source = pending_batches(plan.selection, ex.batch_size, {r.id for r in plan.done})
    in_flight: dict[Any, int] = {}
    load = dict.fromkeys(range(len(workers)), 0)
    stopped = False
    try:
        exhausted = False
        while True:
            # Two batches per worker keep each busy while the driver handles results.
            while not stopped and not exhausted and len(in_flight) < 2 * len(workers):
                batch = next(source, None)
                if batch is None:
                    exhausted = True
                    break
                w = min(load, key=lambda i: load[i])
                in_flight[workers[w].process.remote(batch)] = w
                load[w] += 1
            if not in_flight:
                break
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                load[in_flight.pop(ref)] -= 1
                records: list[RunRecord] = ray.get(ref)
                for r in records:
                    journal.append(r)
                    if r.error is not None:
                        errors += 1
                        last_error = r.error
                if on_records is not None:
                    on_records(records)
            if errors > plan.spec.budget.max_errors and not stopped:
                stopped = True
                for ref in in_flight:
                    ray.cancel(ref)
                in_flight.clear()
        if not stopped:
            ids = ray.get(workers[0].identities.remote())
            plan.header.models = {**plan.header.models, **_roles(ids, plan.spec.llm)}
            write_header(plan.folder, plan.header)
            ray.get([w.close.remote() for w in workers])
    finally:
        journal.close()
        for w in workers:
            ray.kill(w)
        if started_here:
            ray.shutdown()
    results = finish(plan.folder, plan.spec)
    if stopped:
        raise ErrorBudgetExceeded(
            f"run stopped: {errors} questions failed, over the error budget of "
            f"{plan.spec.budget.max_errors} (last error: {last_error}); the finished records are "
            f"in {plan.folder / 'samples.jsonl'}; fix the cause and continue with "
            "--resume --retry-errors"
        )
    return results


def _roles(identities: dict[str, str], answer_spec: str) -> dict[str, str]:
    return {("answer" if s == answer_spec else f"model:{s}"): i for s, i in identities.items()}
