"""Run specs by name or path: built-in specs are YAML files in ``engine/specs/``."""

from __future__ import annotations

import difflib
from importlib import resources
from pathlib import Path

from ragmeter.config import LoadedSpec, load_run_spec_file, parse_run_spec
from ragmeter.errors import ConfigError

_PACKAGE = "ragmeter.engine"


def builtin_spec_names() -> list[str]:
    """Names of the built-in run specs."""
    folder = resources.files(_PACKAGE).joinpath("specs")
    return sorted(p.name[: -len(".yaml")] for p in folder.iterdir() if p.name.endswith(".yaml"))


def builtin_spec_text(name: str) -> str:
    """The YAML text of a built-in spec."""
    return resources.files(_PACKAGE).joinpath("specs", f"{name}.yaml").read_text(encoding="utf-8")


def load_spec(name_or_path: str, overrides: list[str] | None = None) -> LoadedSpec:
    """A spec file, or a built-in spec by name (an existing file wins)."""
    p = Path(name_or_path)
    if p.is_file():
        return load_run_spec_file(p, overrides)
    names = builtin_spec_names()
    if name_or_path in names:
        return parse_run_spec(builtin_spec_text(name_or_path), f"builtin:{name_or_path}", overrides)
    if p.suffix in (".yaml", ".yml") or "/" in name_or_path:
        raise ConfigError(f"{name_or_path}: no such spec file")
    close = difflib.get_close_matches(name_or_path, names, n=3)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise ConfigError(
        f"unknown run spec '{name_or_path}'{hint} "
        f"(built-in: {', '.join(names)}; or give a YAML file)"
    )
