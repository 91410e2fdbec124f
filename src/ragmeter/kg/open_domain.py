"""The open domain: encyclopedia entities from the official ``kg.N.jsonl.bz2`` files."""

from __future__ import annotations

import bz2
from pathlib import Path

import orjson

from ragmeter.kg.errors import KGDataError
from ragmeter.kg.formats import OPEN_DIR, OPEN_GLOB, open_kg_files
from ragmeter.kg.payload import RawJSON, Result
from ragmeter.kg.search import NameSearch


class OpenStore:
    """Entity lookup and name search over every ``open/kg.N.jsonl.bz2`` file."""

    def __init__(self, root: Path) -> None:
        files = open_kg_files(root)
        if not files:
            raise KGDataError(f"no {OPEN_GLOB} file found", root / OPEN_DIR)
        # Entities are kept as JSON text: far smaller than Python objects, and sent as is.
        self.entities: dict[str, bytes] = {}
        for path in files:
            with bz2.open(path, "rb") as f:
                for line_no, line in enumerate(f, start=1):
                    if not line.strip():
                        continue
                    try:
                        pair = orjson.loads(line)
                    except orjson.JSONDecodeError as exc:
                        raise KGDataError(f"invalid JSON: {exc}", path, line_no) from exc
                    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
                        raise KGDataError("expected a [name, entity] pair", path, line_no)
                    self.entities[pair[0]] = orjson.dumps(pair[1])
        self.names = NameSearch(self.entities, scheme="okapi", sort_corpus=True)

    def search_entity_by_name(self, query: str) -> list[str]:
        """Up to 10 entity names matching ``query``."""
        return self.names.search(query)

    def get_entity(self, name: str) -> Result:
        """The entity ``name``: summary text, infobox fields and the raw article."""
        raw = self.entities.get(name)
        return None if raw is None else RawJSON(raw)
