"""The movie domain: movies, people and years, from the official JSON files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from ragmeter.kg._files import require_file
from ragmeter.kg.bm25 import NameIndex
from ragmeter.kg.errors import KGDataError, KGInputError
from ragmeter.kg.formats import MOVIE_DB, PERSON_DB, YEAR_DB
from ragmeter.kg.search import MAX_RESULTS
from ragmeter.kg.text import name_tokens

FIRST_YEAR = 1990
LAST_YEAR = 2021


def _load_object(path: Path) -> dict[str, Any]:
    require_file(path)
    try:
        value = orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise KGDataError(f"invalid JSON: {exc}", path) from exc
    if not isinstance(value, dict):
        raise KGDataError("expected a JSON object keyed by name", path)
    return value


class _EntityTable:
    """Entities keyed by normalised name, searchable by BM25 and addressable by id."""

    def __init__(self, db: dict[str, Any], path: Path) -> None:
        self.entities: list[Any] = []
        self.by_id: dict[int, Any] = {}
        docs: list[list[str]] = []
        for key, entity in db.items():
            if not isinstance(entity, dict):
                raise KGDataError(f"entry {key!r} is not an object", path)
            # The official files are keyed by already-normalised names; the key's words are
            # the document.
            docs.append(key.split())
            self.entities.append(entity)
            ident = entity.get("id")
            if isinstance(ident, int):
                self.by_id[ident] = entity
        self.index = NameIndex(docs, scheme="okapi")

    def search(self, query: str) -> list[Any]:
        return [self.entities[i] for i in self.index.top(name_tokens(query), MAX_RESULTS)]


class MovieStore:
    """Movie answers from ``movie_db.json``, ``person_db.json`` and ``year_db.json``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.movies = _EntityTable(_load_object(root / MOVIE_DB), root / MOVIE_DB)
        self.people = _EntityTable(_load_object(root / PERSON_DB), root / PERSON_DB)
        self.years = _load_object(root / YEAR_DB)

    def get_person_info(self, name: str) -> list[Any]:
        """Up to 10 people whose names best match ``name``."""
        return self.people.search(name)

    def get_movie_info(self, title: str) -> list[Any]:
        """Up to 10 movies whose titles best match ``title``."""
        return self.movies.search(title)

    def get_year_info(self, year: str) -> Any:
        """Movies and Oscar ceremonies of a year between 1990 and 2021."""
        try:
            number = int(year)
        except ValueError:
            raise KGInputError(f"year must be a number, got {year!r}") from None
        if not FIRST_YEAR <= number <= LAST_YEAR:
            raise KGInputError(f"year must be between {FIRST_YEAR} and {LAST_YEAR}, got {number}")
        # Looked up by the string as given, like the official API.
        return self.years.get(year)

    def get_movie_info_by_id(self, movie_id: int) -> Any:
        """The movie with this id."""
        return self.movies.by_id.get(movie_id)

    def get_person_info_by_id(self, person_id: int) -> Any:
        """The person with this id."""
        return self.people.by_id.get(person_id)
