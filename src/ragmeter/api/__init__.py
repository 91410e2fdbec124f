"""ragmeter from Python: `run`, `score` and `load`, each giving a `RunResult`.

The top-level ``ragmeter`` package re-exports these lazily, so ``import ragmeter``
stays fast and loads no model until one of them is called.
"""

from ragmeter.api.calls import run, score
from ragmeter.api.result import RunResult, load

__all__ = ["RunResult", "load", "run", "score"]
