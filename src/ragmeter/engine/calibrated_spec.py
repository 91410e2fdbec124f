"""Write a calibrated abstention threshold into a run spec."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ragmeter.config import load_yaml_strict, parse_run_spec
from ragmeter.engine.journal import read_spec
from ragmeter.errors import ConfigError

_THRESHOLD_LINE = re.compile(r"^(\s*abstain_below\s*:\s*)([^#\n]*?)(\s*(#.*)?)$", re.MULTILINE)


def write_threshold(path: Path, run_dir: Path, threshold: float, signal: str | None) -> None:
    """Set ``pipeline.options.abstain_below`` (and ``confidence`` to ``signal``) in ``path``.

    An existing spec that already has an ``abstain_below:`` line keeps its text and
    comments, only that value changing; otherwise the spec is written afresh (a new
    file gets the spec of the run the threshold was calibrated on). The result must
    still be a valid spec.
    """
    value = repr(round(threshold, 4))
    if path.exists():
        text = path.read_text(encoding="utf-8")
        data = load_yaml_strict(text, str(path))
        lines = _THRESHOLD_LINE.findall(text)
        if len(lines) == 1 and signal in (None, _confidence_of(data)):
            new = _THRESHOLD_LINE.sub(lambda m: f"{m.group(1)}{value}{m.group(3)}", text)
        else:
            new = _with_threshold(data, value, signal)
    else:
        spec = read_spec(run_dir)
        new = _with_threshold(spec.model_dump(mode="json", exclude_defaults=True), value, signal)
    parse_run_spec(new, str(path))  # never write a spec that does not load
    path.write_text(new, encoding="utf-8")


def _confidence_of(data: object) -> object:
    """The spec's ``pipeline.options.confidence`` (None when it does not say)."""
    pipeline = data.get("pipeline") if isinstance(data, dict) else None
    options = pipeline.get("options") if isinstance(pipeline, dict) else None
    return options.get("confidence") if isinstance(options, dict) else None


def _with_threshold(data: object, value: str, signal: str | None) -> str:
    if not isinstance(data, dict) or not isinstance(data.get("pipeline"), dict):
        raise ConfigError("the spec has no pipeline mapping to put the threshold in")
    options = data["pipeline"].setdefault("options", {})
    if not isinstance(options, dict):
        raise ConfigError("pipeline.options of the spec is not a mapping")
    options["abstain_below"] = float(value)
    if signal is not None:
        options["confidence"] = signal
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
