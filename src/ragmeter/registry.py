"""Named component registries.

Built-in components register exactly as third-party plugins do: a plugin
package declares an entry point in the group ``ragmeter.<kind>`` whose value is
``module:attribute``; built-ins call `Registry.register` at import time.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from ragmeter.errors import UnknownComponentError

T = TypeVar("T")


class Registry(Generic[T]):
    """A mapping from names to components of one kind (pipelines, retrievers, judges...)."""

    def __init__(self, kind: str):
        self.kind = kind
        self._items: dict[str, T] = {}
        self._entry_points_loaded = False

    def register(self, name: str, item: T) -> T:
        """Register ``item`` under ``name`` and return it."""
        self._add(name, item)
        return item

    def provides(self, name: str) -> Callable[[T], T]:
        """Decorator form of `register`."""

        def decorator(obj: T) -> T:
            self._add(name, obj)
            return obj

        return decorator

    def _add(self, name: str, item: T) -> None:
        if name in self._items and self._items[name] is not item:
            raise ValueError(f"{self.kind} '{name}' is already registered")
        self._items[name] = item

    def _load_entry_points(self) -> None:
        if self._entry_points_loaded:
            return
        self._entry_points_loaded = True
        for ep in entry_points(group=f"ragmeter.{self.kind}"):
            if ep.name not in self._items:
                self._items[ep.name] = ep.load()

    def get(self, name: str) -> T:
        """Return the component named ``name`` or raise with the closest names."""
        if name not in self._items:
            self._load_entry_points()
        try:
            return self._items[name]
        except KeyError:
            close = difflib.get_close_matches(name, list(self._items), n=3)
            hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
            known = ", ".join(sorted(self._items)) or "none"
            raise UnknownComponentError(
                f"unknown {self.kind} '{name}'{hint} (known: {known})"
            ) from None

    def names(self) -> list[str]:
        """All registered names, sorted."""
        self._load_entry_points()
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        self._load_entry_points()
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())
