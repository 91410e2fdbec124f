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
from ragmeter.engine.data import Selection, resolve_data_path
from ragmeter.engine.journal import RunRecord, read_header, read_journal
from ragmeter.engine.resources import EngineResources, LLMLoader, default_llm_loader
from ragmeter.errors import ConfigError
from ragmeter.llm.protocol import GenerationSettings
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
    spec = RunSpec.model_validate(read_header(folder).spec)
    if spec.scoring.scorer != "crag":
        raise ConfigError(
            f"{folder}: diagnosis needs a CRAG-scored run (scorer is {spec.scoring.scorer})"
        )
    records = read_journal(folder)
    if not records:
        raise ConfigError(f"{folder}: the journal holds no records")
    path = resolve_data_path(spec.data.path, download=False)
    if path is None:
        raise ConfigError(f"{folder}: the run's data ({spec.data.path}) is not here")
    by_id: dict[str, RunRecord] = {r.id: r for r in records}
    selection = Selection(spec.data, path, with_html=True)
    items = [(q, by_id[q.id]) for _, q in selection if q.id in by_id]
    if not any(evidence_texts(q, r.answer) for q, r in items):
        raise NoEvidenceError(f"{folder}: {NO_EVIDENCE}")
    model = nli_model(spec, nli)

    async def go() -> tuple[str, list[SampleDiagnosis]]:
        resources = EngineResources(
            answer_llm=spec.llm,
            generation=GenerationSettings.model_validate(spec.generation),
            concurrency=spec.concurrency,
            loader=loader or default_llm_loader(spec.cache, spec.llm_options),
            seed=spec.seed,
        )
        try:
            checker = NLI(resources.llm(model), concurrency=1)
            return checker.identity, await diagnose(items, checker, cache=TextCache.default())
        finally:
            await resources.aclose()

    identity, diagnoses = asyncio.run(go())
    return write_diagnoses(folder, diagnoses, identity)
