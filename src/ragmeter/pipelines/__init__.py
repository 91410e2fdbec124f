"""RAG systems: baselines and adapters for a user's own system, registered by name."""

from __future__ import annotations

import importlib

_BUILTIN_MODULES = ("ragmeter.pipelines.adapters", "ragmeter.pipelines.baselines")


def load_builtin_pipelines() -> None:
    """Import the modules whose import registers the built-in pipelines."""
    for name in _BUILTIN_MODULES:
        importlib.import_module(name)
