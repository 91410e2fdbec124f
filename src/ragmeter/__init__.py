"""ragmeter: run RAG systems on hard benchmarks and measure how trustworthy their answers are.

From Python::

    import ragmeter
    result = ragmeter.run("demo", system=my_function, limit=5)
    result.score, result.slices["domain"], result.to_pandas()
    ragmeter.score("questions.jsonl", "predictions.json", judge="rules")
    ragmeter.load("runs/demo-...")

The functions are imported on first use: ``import ragmeter`` loads no model, no
engine and no scoring code.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

try:
    __version__ = version("ragmeter")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+unknown"

if TYPE_CHECKING:
    from ragmeter.api import RunResult, load, run, score

__all__ = ["RunResult", "__version__", "load", "run", "score"]

_LAZY = {"run", "score", "load", "RunResult"}


def __getattr__(name: str) -> Any:
    """Import the Python API on first use (PEP 562), keeping ``import ragmeter`` light."""
    if name in _LAZY:
        from ragmeter import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ragmeter' has no attribute '{name}'")
