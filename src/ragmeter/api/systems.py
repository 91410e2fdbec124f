"""In-process systems handed to `ragmeter.run` as Python objects.

A run spec names its system by an importable target (``module:attribute``). A
system given as an object has no such name, so it is placed in this module under
a slot attribute and the spec points at ``ragmeter.api.systems:<slot>``; the
run's adapters then load it like any user code. Slots live as long as the process.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["system_pipeline"]

_counter = itertools.count(1)
_MODULE = __name__


def _slot_name(obj: Any) -> str:
    """A readable, unique attribute name: the object's own name and a number."""
    base = getattr(obj, "__qualname__", None) or type(obj).__qualname__
    clean = re.sub(r"\W+", "_", str(base)).strip("_") or "system"
    return f"system_{clean}_{next(_counter)}"


def _place(value: Any, obj: Any) -> str:
    name = _slot_name(obj)
    setattr(sys.modules[_MODULE], name, value)
    return f"{_MODULE}:{name}"


def system_pipeline(system: Any) -> dict[str, Any]:
    """The ``pipeline`` part of a spec that runs ``system`` in this process.

    An object with the official CRAG participant interface (``get_batch_size()`` and
    ``batch_generate_answer(batch)``) runs as ``crag_class``; any other callable taking
    a `ragmeter.types.Question` runs as ``callable``.
    """
    official = callable(getattr(system, "get_batch_size", None)) and callable(
        getattr(system, "batch_generate_answer", None)
    )
    if official:
        if isinstance(system, type):
            return {"name": "crag_class", "options": {"target": _place(system, system)}}
        # crag_class constructs its target: a factory returning the user's instance.
        factory: Callable[[], Any] = lambda: system  # noqa: E731
        return {"name": "crag_class", "options": {"target": _place(factory, system)}}
    if callable(system):
        return {"name": "callable", "options": {"target": _place(system, system)}}
    raise TypeError(
        "system must be a callable taking a Question, or an object with get_batch_size() "
        f"and batch_generate_answer(batch); got {type(system).__name__}"
    )
