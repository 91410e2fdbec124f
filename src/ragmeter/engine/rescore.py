"""Recompute a run folder's results from its journal, without generating again.

With the run's own scoring the labels in ``samples.jsonl`` are aggregated
again (no model call). With another judge every prediction in the journal is
labelled again (the pipeline's answers, retrieved chunks and timings are kept)
and the journal is rewritten atomically before ``results.json``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from pydantic import BaseModel

from ragmeter.config import LoadedSpec
from ragmeter.engine.data import finished_run_inputs
from ragmeter.engine.journal import Journal, RunRecord, read_spec
from ragmeter.engine.resources import EngineResources, default_llm_loader
from ragmeter.engine.runner import finish, score_answer
from ragmeter.engine.scorers import get_scorer
from ragmeter.types import StageTiming


def rescore_folder(folder: Path, judge: str | None = None) -> BaseModel:
    """Results of a run folder from its journal; ``judge`` labels every prediction again."""
    spec = read_spec(folder)
    if judge is None:
        return finish(folder, spec)
    spec = spec.model_copy(
        update={
            "scoring": spec.scoring.model_copy(
                update={"judge": None if judge == "rules" else judge}
            )
        }
    )
    records, selection = finished_run_inputs(folder, spec, with_html=False)
    by_id = {r.id: r for r in records}
    loaded = LoadedSpec(spec=spec, source=str(folder / "header.json"))

    async def go() -> list[RunRecord]:
        resources = EngineResources.for_spec(spec, default_llm_loader(spec.cache, spec.llm_options))
        scorer = get_scorer(spec.scoring.scorer).build(loaded, resources)
        out = []
        try:
            for _, q in selection:
                old = by_id.get(q.id)
                if old is None:
                    continue
                scored, usage, raw_label = await score_answer(scorer, q, old.prediction, old.answer)
                stages = dict(old.stages)
                stages["judging"] = StageTiming(usage=usage)
                run_fields = old.model_dump(
                    include={
                        "index",
                        "query_time",
                        "answer",
                        "error",
                        "missing_reason",
                        "seconds",
                        "active_seconds",
                        "worker",
                    }
                )
                out.append(
                    RunRecord(
                        **scored.model_dump(), **run_fields, raw_label=raw_label, stages=stages
                    )
                )
        finally:
            await resources.aclose()
        return out

    rescored = asyncio.run(go())
    Journal(folder).rewrite(rescored)
    return finish(folder, spec)
