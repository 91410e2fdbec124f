"""Diagnose a finished run folder: per-question categories into ``diagnosis.jsonl``.

Reads the run's own questions again (with their pages, whose text comes from the
extraction cache) and its journal; nothing is generated again. The NLI model that
judges support is the run's first judge, else its answering model, unless given.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from ragmeter.config import RunSpec
from ragmeter.diagnosis.diagnose import diagnose, evidence_texts
from ragmeter.diagnosis.records import SampleDiagnosis
from ragmeter.diagnosis.store import write_diagnoses
from ragmeter.engine.data import finished_run_inputs
from ragmeter.engine.journal import RunRecord, read_spec
from ragmeter.engine.resources import EngineResources, LLMLoader, default_llm_loader
from ragmeter.errors import ConfigError
from ragmeter.scoring.attribution.nli import NLI
from ragmeter.scoring.crag.judges import parse_judge_spec
from ragmeter.text.cache import TextCache


def nli_model(spec: RunSpec, override: str | None = None) -> str:
    """The model that judges support: ``override``, the run's first judge, or its answerer."""
    if override:
        return override
    judges = parse_judge_spec(spec.scoring.judge) if spec.scoring.judge else []
    return judges[0] if judges else spec.llm


NO_EVIDENCE = (
    "no answer carries evidence (retrieved chunks or documents shown); diagnosis needs a "
    "pipeline such as rag, rag_kg or an adapter returning them"
)


class NoEvidenceError(ConfigError):
    """A run whose answers carry no evidence cannot be diagnosed."""


def diagnose_folder(folder: Path, nli: str | None = None, loader: LLMLoader | None = None) -> Path:
    """Write ``diagnosis.jsonl`` for a finished CRAG run folder (then aggregate with
    ``engine.runner.finish`` to put the summary into ``results.json``)."""
    spec = read_spec(folder)
    if spec.scoring.scorer != "crag":
        raise ConfigError(
            f"{folder}: diagnosis needs a CRAG-scored run (scorer is {spec.scoring.scorer})"
        )
    records, selection = finished_run_inputs(folder, spec, with_html=True)
    by_id: dict[str, RunRecord] = {r.id: r for r in records}
    items = [(q, by_id[q.id]) for _, q in selection if q.id in by_id]
    if not any(evidence_texts(q, r.answer) for q, r in items):
        raise NoEvidenceError(f"{folder}: {NO_EVIDENCE}")
    model = nli_model(spec, nli)

    async def go() -> tuple[str, list[SampleDiagnosis]]:
        resources = EngineResources.for_spec(
            spec, loader or default_llm_loader(spec.cache, spec.llm_options)
        )
        try:
            checker = NLI(resources.llm(model), concurrency=1)
            return checker.identity, await diagnose(items, checker, cache=TextCache.default())
        finally:
            await resources.aclose()

    identity, diagnoses = asyncio.run(go())
    return write_diagnoses(folder, diagnoses, identity)
