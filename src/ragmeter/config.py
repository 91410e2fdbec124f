"""Strict YAML reading for run specs and benchmark configs.

Unknown keys are rejected by the pydantic models that consume the result;
this module rejects what YAML itself lets through: duplicate keys.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ragmeter.errors import ConfigError


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
