"""On-disk layout of a CRAG mock knowledge graph, and the safe formats we read.

The official layout (``cragkg/``) keeps some data as pickles: the music
dictionaries and the Grammy table, the soccer match table, and the values of
the finance ``sqlitedict`` tables. Unpickling runs code, so the server never
does it: ``ragmeter kg convert --trust-pickle`` turns each of those files once
into a safe twin beside it —

* a dictionary becomes a *kv sqlite* file (``NAME.kv.sqlite``): table
  ``kv(pos, key, value)`` with JSON text values, in the dictionary's order;
* a pandas table becomes a *frame file* (``NAME.frame.json``): the table as
  pandas writes it with ``orient="split"`` and ISO dates, so every cell is
  already in the JSON form the official API answers with.

Everything else (movie JSON, open-domain ``jsonl.bz2``, the company name CSV,
``nba.sqlite``) is read in its official form.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field

from ragmeter.errors import DataError

KV_FORMAT = "ragmeter-kv-1"
FRAME_FORMAT = "ragmeter-frame-1"
MANIFEST_NAME = "ragmeter_kg.json"

# Official file names (relative to the KG root) -------------------------------------------
COMPANY_NAMES = "finance/company_name.dict"
FINANCE_TABLES = {
    "price": "finance/finance_price",
    "detailed_price": "finance/finance_detailed_price",
    "dividend": "finance/finance_dividend",
    "marketcap": "finance/finance_marketcap",
    "info": "finance/finance_info",
}
MOVIE_DB = "movie/movie_db.json"
PERSON_DB = "movie/person_db.json"
YEAR_DB = "movie/year_db.json"
MUSIC_DICTS = {
    "artist": "music/artist_dict_simplified",
    "song": "music/song_dict_simplified",
    "artist_works": "music/artist_work_dict",
    "rank_hot100": "music/rank_dict_hot100",
    "song_hot100": "music/song_dict_hot100",
}
GRAMMY = "music/grammy_df"
NBA_DB = "sports/nba.sqlite"
SOCCER = "sports/soccer_team_match_stats"
OPEN_DIR = "open"
OPEN_GLOB = "kg.*.jsonl.bz2"

SQLITEDICT_SUFFIX = ".sqlite"
PICKLE_SUFFIX = ".pickle"
SOCCER_PICKLE_SUFFIX = ".pkl"
KV_SUFFIX = ".kv.sqlite"
FRAME_SUFFIX = ".frame.json"


def kv_path(root: Path, stem: str) -> Path:
    """Where the safe kv twin of ``stem`` lives under ``root``."""
    return root / (stem + KV_SUFFIX)


def frame_path(root: Path, stem: str) -> Path:
    """Where the safe frame twin of ``stem`` lives under ``root``."""
    return root / (stem + FRAME_SUFFIX)


def open_kg_files(root: Path) -> list[Path]:
    """The open-domain ``kg.N.jsonl.bz2`` files in the order of N."""
    files = list((root / OPEN_DIR).glob(OPEN_GLOB))

    def number(p: Path) -> tuple[int, str]:
        middle = p.name[len("kg.") : -len(".jsonl.bz2")]
        return (int(middle), p.name) if middle.isdigit() else (1 << 30, p.name)

    return sorted(files, key=number)


# kv sqlite --------------------------------------------------------------------------------


def write_kv(path: Path, items: Iterable[tuple[str, bytes]], *, source: str) -> int:
    """Write ``(key, JSON bytes)`` pairs as a kv sqlite file; returns the number written.

    A later duplicate key replaces the earlier value but keeps its position, as a
    Python dict would.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp)
    try:
        con.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute(
            "CREATE TABLE kv "
            "(pos INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, value TEXT NOT NULL)"
        )
        con.executemany(
            "INSERT INTO meta VALUES (?, ?)", [("format", KV_FORMAT), ("source", source)]
        )
        count = 0
        for key, value in items:
            con.execute(
                "INSERT INTO kv (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value.decode("utf-8")),
            )
            count += 1
        con.commit()
    finally:
        con.close()
    tmp.replace(path)
    return count


class KVFile:
    """Read-only access to a kv sqlite file, safe to share between threads."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise DataError("file not found", path)
        self.path = path
        self._local = threading.local()
        fmt = self._con().execute("SELECT value FROM meta WHERE name = 'format'").fetchone()
        if fmt is None or fmt[0] != KV_FORMAT:
            raise DataError(f"not a {KV_FORMAT} file (found {fmt!r})", path)

    def _con(self) -> sqlite3.Connection:
        con: sqlite3.Connection | None = getattr(self._local, "con", None)
        if con is None:
            try:
                con = sqlite3.connect(
                    f"file:{self.path.resolve()}?mode=ro", uri=True, check_same_thread=False
                )
                con.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            except sqlite3.DatabaseError as exc:
                raise DataError(f"cannot read sqlite file: {exc}", self.path) from exc
            self._local.con = con
        return con

    def get_raw(self, key: str) -> bytes | None:
        """The JSON text stored under ``key``, or ``None``."""
        row = self._con().execute("SELECT value FROM kv WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0]).encode("utf-8")

    def get(self, key: str) -> Any:
        """The decoded value under ``key``, or ``None``."""
        raw = self.get_raw(key)
        return None if raw is None else orjson.loads(raw)

    def keys(self) -> Iterator[str]:
        """Every key, in the order of the original dictionary."""
        for (key,) in self._con().execute("SELECT key FROM kv ORDER BY pos"):
            yield str(key)

    def __len__(self) -> int:
        return int(self._con().execute("SELECT COUNT(*) FROM kv").fetchone()[0])


# frame files ------------------------------------------------------------------------------


class FrameFile(BaseModel):
    """A pandas table in ``orient="split"`` form, cells already JSON-encoded by pandas."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["ragmeter-frame-1"] = "ragmeter-frame-1"
    source: str
    index_names: list[str | None]
    columns: list[str]
    index: list[Any]
    data: list[list[Any]]


def read_frame(path: Path) -> FrameFile:
    """Load a frame file, checking its format."""
    if not path.is_file():
        raise DataError("file not found", path)
    try:
        raw = orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc}", path) from exc
    try:
        frame = FrameFile.model_validate(raw)
    except ValueError as exc:
        raise DataError(f"not a {FRAME_FORMAT} file: {exc}", path) from exc
    if len(frame.index) != len(frame.data):
        raise DataError("index and data have different lengths", path)
    return frame


# manifest ---------------------------------------------------------------------------------


class ConvertedFile(BaseModel):
    """One file written (or linked) by ``kg convert``."""

    source: str
    output: str
    kind: Literal["kv", "frame", "linked", "copied"]
    items: int | None = None


class Manifest(BaseModel):
    """What ``kg convert`` did, written beside the converted files."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["ragmeter-kg-manifest-1"] = "ragmeter-kg-manifest-1"
    source_dir: str
    files: list[ConvertedFile] = Field(default_factory=list)
