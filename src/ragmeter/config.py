"""Strict YAML reading and the run spec.

Unknown keys are rejected by the pydantic models that consume the result;
the YAML loader rejects what YAML itself lets through: duplicate keys. Errors
name the file and line of the offending key, or the ``--set`` that set it.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragmeter.errors import ConfigError

M = TypeVar("M", bound=BaseModel)


class _StrictLoader(yaml.SafeLoader):
    """A safe loader that refuses duplicate mapping keys."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        line = key_node.start_mark.line + 1
        if key in seen:
            raise ConfigError(
                f"{key_node.start_mark.name}, line {line}: duplicate key '{key}' "
                f"(first at line {seen[key]})"
            )
        seen[key] = line
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
    _construct_mapping,
)


def load_yaml_strict(text: str, source: str = "<string>") -> Any:
    """Parse YAML, rejecting duplicate keys; errors name the source and line."""
    try:
        loader = _StrictLoader(text)
        loader.name = source
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = f", line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"{source}{line}: {exc.problem}") from None


def load_yaml_file(path: str | Path) -> Any:
    """Read and parse a YAML file strictly."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read: {exc.strerror}") from None
    return load_yaml_strict(text, source=str(p))


# --------------------------------------------------------------------------------------
# Positions: where each key of a YAML document sits, so schema errors can name a line.
# --------------------------------------------------------------------------------------

KeyPath = tuple[str | int, ...]


def _node_lines(node: yaml.Node, path: KeyPath, out: dict[KeyPath, int]) -> None:
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node)
            out[(*path, key)] = key_node.start_mark.line + 1
            _node_lines(value_node, (*path, key), out)
            # The key's own line wins over the value's (a nested mapping starts below it).
            out[(*path, key)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _node_lines(item, (*path, i), out)


def load_yaml_with_lines(text: str, source: str = "<string>") -> tuple[Any, dict[KeyPath, int]]:
    """Parse YAML strictly and also return the line (1-based) of every key path."""
    data = load_yaml_strict(text, source)
    lines: dict[KeyPath, int] = {}
    loader = _StrictLoader(text)
    loader.name = source
    try:
        node = loader.get_single_node()
    finally:
        loader.dispose()
    if node is not None:
        _node_lines(node, (), lines)
    return data, lines


# --------------------------------------------------------------------------------------
# The run spec: what `ragmeter run` runs. Strict: unknown keys are errors.
# --------------------------------------------------------------------------------------


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DataSpec(_Spec):
    """Which questions to run: a file (path, mirror-relative path or catalog name) and a reader."""

    format: str = "auto"
    """Reader: ``auto`` (detect), ``crag``, ``crag_task3``, ``alce``, ``qa_feedback``..."""
    path: str
    """A file (as given, beside the spec, or in the data mirror) or ``catalog:NAME``."""
    with_html: bool = True
    limit: int | None = Field(default=None, ge=1)
    """Keep only the first N questions (after sampling)."""
    sample: int | None = Field(default=None, ge=1)
    """Draw N questions at random (seeded by ``seed``), keeping file order."""
    seed: int = 0
    options: dict[str, Any] = Field(default_factory=dict)
    """Extra reader options (checked by the reader)."""


class ComponentSpec(_Spec):
    """A registered component by name, with its own options (checked by the component)."""

    name: str
    options: dict[str, Any] = Field(default_factory=dict)


class ScoringSpec(_Spec):
    """How answers are scored."""

    scorer: str = "crag"
    judge: str | None = "local"
    """LLM spec of the judge (``local``, ``llamacpp:NAME``, ``openai:M@URL``); null: rules only."""
    options: dict[str, Any] = Field(default_factory=dict)


class BudgetSpec(_Spec):
    """Per-question time budget and the run's error budget."""

    time_per_question_s: float | None = Field(default=30.0, gt=0)
    """Seconds a question may take (the KDD Cup allowed 30); an answer over it counts as missing."""
    max_errors: int = Field(default=10, ge=0)
    """The run stops once more than this many questions have failed with an error."""


class ConcurrencySpec(_Spec):
    """How much runs at once: questions in flight, and calls per backend."""

    questions: int = Field(default=2, ge=1)
    backends: dict[str, int] = Field(default_factory=dict)
    """Concurrent calls per backend spec (e.g. ``local: 1``, ``openai:m@http://h/v1: 8``)."""
    default_local: int = Field(default=1, ge=1)
    default_remote: int = Field(default=8, ge=1)

    def limit_for(self, spec: str) -> int:
        """The concurrency limit of a backend spec."""
        if spec in self.backends:
            return self.backends[spec]
        remote = spec.startswith(("openai:", "http:", "https:"))
        return self.default_remote if remote else self.default_local


class ExecutorSpec(_Spec):
    """Where questions run: this process (asyncio) or a Ray cluster."""

    kind: Literal["local", "ray"] = "local"
    address: str | None = None
    """Ray cluster address for ``ray.init(address=...)``; null starts a local Ray."""
    num_cpus: int | None = Field(default=None, ge=1)
    """CPUs of a local Ray."""
    workers: int = Field(default=1, ge=1)
    """Ray workers, each holding its own models."""
    cpus_per_worker: float = Field(default=1.0, gt=0)
    batch_size: int = Field(default=4, ge=1)
    """Questions sent to a Ray worker at a time."""


class TokenPrice(_Spec):
    """What one model costs, per million tokens read (``input``) and generated (``output``)."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)


class PricesSpec(_Spec):
    """Token prices per role, for cost estimates (``--dry-run``) and a finished run's cost.

    ``answer`` prices the answering stages, ``judge`` the CRAG judge, ``nli`` the entailment
    model of Trust-Score runs. A role without a price is counted in tokens only.
    """

    answer: TokenPrice | None = None
    judge: TokenPrice | None = None
    nli: TokenPrice | None = None
    currency: str = "USD"


# Prices change what a run costs, not what it scores: a run may be resumed with new prices.
_NOT_HASHED = {"executor", "concurrency", "report", "description", "prices", "diagnose"}


class RunSpec(_Spec):
    """A complete, strict description of one run."""

    name: str
    description: str = ""
    data: DataSpec
    pipeline: ComponentSpec
    llm: str = "local"
    """LLM spec of the answering model."""
    generation: dict[str, Any] = Field(default_factory=dict)
    """Generation settings of the answering model (max_tokens, temperature, seed...)."""
    scoring: ScoringSpec = Field(default_factory=ScoringSpec)
    budget: BudgetSpec = Field(default_factory=BudgetSpec)
    concurrency: ConcurrencySpec = Field(default_factory=ConcurrencySpec)
    executor: ExecutorSpec = Field(default_factory=ExecutorSpec)
    seed: int = 0
    """Seed handed to pipelines (retrieval ties, sampling) and the generation settings."""
    cache: bool | str = True
    """LLM response cache: true = the user cache, false = none, or the path of a cache file."""
    llm_options: dict[str, Any] = Field(default_factory=dict)
    """Backend options for every model of the run (e.g. ``n_ctx``, ``n_threads``)."""
    report: bool = True
    diagnose: bool = False
    """After scoring, diagnose every scored question (``ragmeter diagnose`` does it later)."""
    prices: PricesSpec | None = None
    """Token prices per role (per million tokens); null: tokens are counted, not priced."""

    def canonical_json(self) -> bytes:
        """A stable serialisation: equal specs give equal bytes (and equal hashes)."""
        return json.dumps(
            self.model_dump(mode="json"), sort_keys=True, separators=(",", ":")
        ).encode()

    def spec_hash(self) -> str:
        """sha256 of what decides the results: the canonical spec without how it executes.

        Executor, concurrency, report, description, prices and diagnose are left out, so a run
        started locally may be resumed on Ray (both write the same records).
        """
        dumped = self.model_dump(mode="json", exclude=_NOT_HASHED)
        text = json.dumps(dumped, sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(text).hexdigest()


def _describe_loc(loc: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in loc) or "<root>"


def _error_line(loc: tuple[str | int, ...], lines: dict[KeyPath, int]) -> int | None:
    # Walk up from the failing key to the nearest key with a known line (a missing key
    # is reported at its parent mapping).
    for n in range(len(loc), -1, -1):
        if loc[:n] in lines:
            return lines[loc[:n]]
    return None


def validate_model(
    model: type[M],
    data: Any,
    source: str,
    lines: dict[KeyPath, int] | None = None,
    prefix: KeyPath = (),
    overrides: dict[KeyPath, str] | None = None,
) -> M:
    """Validate ``data`` with ``model``; the first problem becomes a `ConfigError` with its line.

    ``prefix`` is where ``data`` sits in the document (for nested component options);
    ``overrides`` maps key paths set by ``--set`` to the option text, named instead of a line.
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = (*prefix, *err["loc"])
            where = source
            set_by = _set_by(loc, overrides or {})
            if set_by is not None:
                where = f"--set {set_by}"
            else:
                line = _error_line(loc, lines or {})
                if line is not None:
                    where = f"{source}, line {line}"
            msg = err["msg"]
            if err["type"] == "extra_forbidden":
                msg = "unknown key" + _suggest(str(loc[-1]), model, err["loc"][:-1])
            problems.append(f"{where}: {_describe_loc(loc)}: {msg}")
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ConfigError(problems[0] + more) from None


def _set_by(loc: KeyPath, overrides: dict[KeyPath, str]) -> str | None:
    for n in range(len(loc), 0, -1):
        if loc[:n] in overrides:
            return overrides[loc[:n]]
    return None


def _suggest(key: str, model: type[BaseModel], parent: tuple[str | int, ...]) -> str:
    """', did you mean ...?' for an unknown key, from the fields of the enclosing model."""
    current: Any = model
    for part in parent:
        field = getattr(current, "model_fields", {}).get(part)
        if field is None:
            return ""
        current = field.annotation
    fields = list(getattr(current, "model_fields", {}))
    close = difflib.get_close_matches(key, fields, n=2)
    return f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""


def parse_override(text: str) -> tuple[KeyPath, Any]:
    """Parse one ``--set key.path=value``; the value is read as a YAML scalar or flow value."""
    if "=" not in text:
        raise ConfigError(f"--set {text}: expected key=value (e.g. budget.max_errors=3)")
    key, _, raw = text.partition("=")
    parts = [p for p in key.strip().split(".")]
    if not key.strip() or any(not p for p in parts):
        raise ConfigError(f"--set {text}: empty key")
    value = load_yaml_strict(raw, source=f"--set {text}") if raw.strip() else ""
    path: KeyPath = tuple(int(p) if p.isdigit() else p for p in parts)
    return path, value


def apply_overrides(data: Any, overrides: list[str]) -> tuple[Any, dict[KeyPath, str]]:
    """Apply ``--set`` overrides to a parsed spec; return it and which paths each set."""
    data = copy.deepcopy(data)
    if not isinstance(data, dict):
        raise ConfigError("a run spec must be a mapping")
    set_paths: dict[KeyPath, str] = {}
    for text in overrides:
        path, value = parse_override(text)
        node: Any = data
        for i, part in enumerate(path[:-1]):
            if isinstance(node, dict):
                if node.get(part) is None:
                    node[part] = {}
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                where = ".".join(str(p) for p in path[: i + 1])
                raise ConfigError(f"--set {text}: '{where}' is not a mapping")
        last = path[-1]
        settable = isinstance(node, dict) or (
            isinstance(node, list) and isinstance(last, int) and last < len(node)
        )
        if settable:
            node[last] = value
        else:
            raise ConfigError(f"--set {text}: cannot set '{key_text(path)}'")
        set_paths[path] = text
    return data, set_paths


def key_text(path: KeyPath) -> str:
    """A key path as dotted text."""
    return ".".join(str(p) for p in path)


class LoadedSpec(BaseModel):
    """A validated run spec with where it came from (for errors in component options)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    spec: RunSpec
    source: str
    lines: dict[KeyPath, int] = Field(default_factory=dict)
    overrides: dict[KeyPath, str] = Field(default_factory=dict)

    def check_options(self, model: type[M], data: Any, prefix: KeyPath) -> M:
        """Validate a component's options (found at ``prefix`` in the spec) with its own model."""
        return validate_model(model, data, self.source, self.lines, prefix, self.overrides)


def parse_run_spec(text: str, source: str, overrides: list[str] | None = None) -> LoadedSpec:
    """Parse and validate a run spec from YAML text, applying ``--set`` overrides."""
    data, lines = load_yaml_with_lines(text, source)
    if data is None:
        raise ConfigError(f"{source}: empty run spec")
    data, set_paths = apply_overrides(data, overrides or [])
    spec = validate_model(RunSpec, data, source, lines, (), set_paths)
    return LoadedSpec(spec=spec, source=source, lines=lines, overrides=set_paths)


def load_run_spec_file(path: str | Path, overrides: list[str] | None = None) -> LoadedSpec:
    """Read, parse and validate a run spec file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read: {exc.strerror}") from None
    return parse_run_spec(text, str(p), overrides)
