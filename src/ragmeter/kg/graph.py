"""The whole mock knowledge graph: one lazily loaded store per domain, called by endpoint name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from ragmeter.kg._files import Lazy
from ragmeter.kg.endpoints import BY_NAME
from ragmeter.kg.errors import KGDataError, KGInputError
from ragmeter.kg.finance import FinanceStore
from ragmeter.kg.movie import MovieStore
from ragmeter.kg.music import MusicStore
from ragmeter.kg.open_domain import OpenStore
from ragmeter.kg.payload import Result
from ragmeter.kg.sports import NBAStore, SoccerStore

STORES: dict[str, Callable[[Path], object]] = {
    "open": OpenStore,
    "movie": MovieStore,
    "finance": FinanceStore,
    "music": MusicStore,
    "nba": NBAStore,
    "soccer": SoccerStore,
}

StoreState = Literal["loaded", "not loaded", "failed"]


def _opener(make: Callable[[Path], object], root: Path) -> Callable[[], object]:
    return lambda: make(root)


class KnowledgeGraph:
    """Routes endpoint calls to the domain stores under ``root``, loading each on first use."""

    def __init__(self, root: Path) -> None:
        if not root.is_dir():
            raise KGDataError("not a directory", root)
        self.root = root
        self._stores: dict[str, Lazy[object]] = {
            name: Lazy(_opener(make, root)) for name, make in STORES.items()
        }
        self._errors: dict[str, str] = {}

    def store(self, name: str) -> Any:
        """The store of a domain, loaded now if needed."""
        try:
            value = self._stores[name].get()
        except KGDataError as exc:
            self._errors[name] = str(exc)
            raise
        self._errors.pop(name, None)
        return value

    def loaded(self, name: str) -> bool:
        """Whether the store of a domain is loaded already."""
        return self._stores[name].loaded

    def status(self) -> dict[str, StoreState]:
        """Which stores are loaded, not loaded yet, or failed to load last time."""
        return {
            name: "loaded" if lazy.loaded else ("failed" if name in self._errors else "not loaded")
            for name, lazy in self._stores.items()
        }

    def preload(self) -> dict[str, str | None]:
        """Load every store now; maps each to ``None`` or the reason it could not load."""
        out: dict[str, str | None] = {}
        for name in self._stores:
            try:
                self.store(name)
                out[name] = None
            except KGDataError as exc:
                out[name] = str(exc)
        return out

    def call(self, endpoint: str, body: BaseModel | None) -> Result:
        """Answer one endpoint call (a validated request body, or ``None`` for no body)."""
        ep = BY_NAME.get(endpoint)
        if ep is None:
            raise KGInputError(f"unknown endpoint {endpoint!r}")
        if (ep.body is None) != (body is None) or (
            ep.body is not None and not isinstance(body, ep.body)
        ):
            raise KGInputError(
                f"{endpoint} takes a {ep.body.__name__ if ep.body else 'empty'} body"
            )
        args = [] if body is None else [getattr(body, f) for f in type(body).model_fields]
        method = getattr(self.store(ep.store), ep.method)
        return method(*args)
