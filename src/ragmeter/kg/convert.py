"""``kg convert --trust-pickle``: turn the official pickled KG files into safe formats, once.

Reading a pickle can run arbitrary code, so this step only runs when the user
says they trust the files. It writes, beside a copy (hard link where possible)
of every non-pickled file:

* each finance ``sqlitedict`` table (pickled values) → ``NAME.kv.sqlite``;
* each music dictionary pickle → ``NAME.kv.sqlite``;
* the Grammy and soccer pandas tables → ``NAME.frame.json``, written by pandas
  itself (``orient="split"``, ISO dates, 10 decimals) so every cell has the form
  the official API answers with.

DEST may be SRC: the safe twins are then written next to the originals.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import os
import pickle
import shutil
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from ragmeter.errors import MissingExtraError, UserError
from ragmeter.kg.errors import KGDataError
from ragmeter.kg.formats import (
    COMPANY_NAMES,
    FINANCE_TABLES,
    GRAMMY,
    MANIFEST_NAME,
    MOVIE_DB,
    MUSIC_DICTS,
    NBA_DB,
    PERSON_DB,
    PICKLE_SUFFIX,
    SOCCER,
    SOCCER_PICKLE_SUFFIX,
    SQLITEDICT_SUFFIX,
    YEAR_DB,
    ConvertedFile,
    FrameFile,
    Manifest,
    frame_path,
    kv_path,
    open_kg_files,
    write_kv,
)

SQLITEDICT_TABLE = "unnamed"


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as exc:
        raise MissingExtraError("kg", "reading the official pandas pickles") from exc
    return pandas


def json_key(key: Any, where: str) -> str:
    """A mapping key as JSON text would hold it (as ``json.dumps`` turns keys into strings)."""
    if isinstance(key, np.generic):  # before the Python types: np.float64 is a float
        return json_key(key.item(), where)
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int):
        return str(key)
    if isinstance(key, float):
        return repr(key)
    if key is None:
        return "null"
    if isinstance(key, dt.date | dt.datetime):
        return key.isoformat()
    raise KGDataError(f"{where}: a key of type {type(key).__name__} has no JSON form")


def to_jsonable(obj: Any, where: str) -> Any:
    """``obj`` as plain JSON values; NaN and NaT become null, unknown types are an error."""
    if isinstance(obj, np.generic):  # before the Python types: np.float64 is a float
        return to_jsonable(obj.item(), where)
    if obj is None or isinstance(obj, str | bool | int):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, Mapping):
        return {json_key(k, where): to_jsonable(v, where) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [to_jsonable(v, where) for v in obj]
    if isinstance(obj, set | frozenset):
        return [to_jsonable(v, where) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist(), where)
    if isinstance(obj, dt.date | dt.datetime | dt.time):
        if obj != obj:  # pandas NaT is a datetime that differs from itself
            return None
        return obj.isoformat()
    if isinstance(obj, decimal.Decimal):
        return to_jsonable(float(obj), where)
    to_dict = getattr(obj, "to_dict", None)  # a pandas Series
    if callable(to_dict):
        return to_jsonable(to_dict(), where)
    raise KGDataError(f"{where}: a value of type {type(obj).__name__} has no JSON form")


def _dumps(obj: Any, where: str) -> bytes:
    return orjson.dumps(to_jsonable(obj, where))


def _sqlitedict_items(path: Path) -> Iterator[tuple[str, bytes]]:
    """``(key, JSON)`` of a sqlitedict file, unpickling its values (trusted by the caller)."""
    con = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        table = (
            SQLITEDICT_TABLE
            if SQLITEDICT_TABLE in tables
            else (tables[0] if len(tables) == 1 else None)
        )
        if table is None:
            raise KGDataError(f"expected one sqlitedict table, found {tables}", path)
        quoted = '"' + table.replace('"', '""') + '"'
        for key, value in con.execute(f"SELECT key, value FROM {quoted} ORDER BY rowid"):
            obj = pickle.loads(bytes(value))  # trusted: the user passed --trust-pickle
            yield str(key), _dumps(obj, f"{path}: key {key!r}")
    except sqlite3.DatabaseError as exc:
        raise KGDataError(f"cannot read sqlitedict file: {exc}", path) from exc
    finally:
        con.close()


def _read_pickle(path: Path) -> Any:
    try:
        return _pandas().read_pickle(path)  # trusted: the user passed --trust-pickle
    except (pickle.UnpicklingError, EOFError, ValueError) as exc:
        raise KGDataError(f"cannot read pickle: {exc}", path) from exc


def frame_from_pandas(df: Any, source: str) -> FrameFile:
    """A pandas DataFrame as a frame file, cells encoded by pandas' own JSON writer."""
    split = orjson.loads(df.to_json(orient="split", date_format="iso"))
    names = [None if n is None else str(n) for n in df.index.names]
    index = split["index"]
    if len(names) > 1:
        index = [list(label) for label in index]
    return FrameFile(
        source=source,
        index_names=names,
        columns=[str(c) for c in split["columns"]],
        index=index,
        data=split["data"],
    )


def _write_frame(path: Path, frame: FrameFile) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(orjson.dumps(frame.model_dump(mode="json")))
    tmp.replace(path)


def _place(src: Path, dest: Path) -> str:
    """Hard-link ``src`` at ``dest`` (copy across file systems); returns which was done."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.exists():
        dest.unlink()
    try:
        os.link(src, dest)
        return "linked"
    except OSError:
        shutil.copy2(src, dest)
        return "copied"


def convert_kg(src: Path, dest: Path, *, trust_pickle: bool) -> Manifest:
    """Convert the KG at ``src`` into a servable KG at ``dest``; returns what was written."""
    if not trust_pickle:
        raise UserError(
            "converting reads pickles, which can run code: pass --trust-pickle if you trust "
            f"the files under {src}"
        )
    if not src.is_dir():
        raise KGDataError("not a directory", src)
    dest.mkdir(parents=True, exist_ok=True)
    manifest = Manifest(source_dir=str(src.resolve()))

    for stem in FINANCE_TABLES.values():
        official = src / (stem + SQLITEDICT_SUFFIX)
        if official.is_file():
            out = kv_path(dest, stem)
            n = write_kv(out, _sqlitedict_items(official), source=official.name)
            manifest.files.append(_entry(src, dest, official, out, "kv", n))

    for stem in MUSIC_DICTS.values():
        official = src / (stem + PICKLE_SUFFIX)
        if official.is_file():
            obj = _read_pickle(official)
            if not isinstance(obj, Mapping):
                raise KGDataError(f"expected a dictionary, found {type(obj).__name__}", official)
            out = kv_path(dest, stem)
            items = (
                (json_key(k, str(official)), _dumps(v, f"{official}: key {k!r}"))
                for k, v in obj.items()
            )
            n = write_kv(out, items, source=official.name)
            manifest.files.append(_entry(src, dest, official, out, "kv", n))

    for stem, suffix in ((GRAMMY, PICKLE_SUFFIX), (SOCCER, SOCCER_PICKLE_SUFFIX)):
        official = src / (stem + suffix)
        if official.is_file():
            df = _read_pickle(official)
            if not hasattr(df, "to_json") or not hasattr(df, "index"):
                raise KGDataError(
                    f"expected a pandas DataFrame, found {type(df).__name__}", official
                )
            out = frame_path(dest, stem)
            frame = frame_from_pandas(df, official.name)
            _write_frame(out, frame)
            manifest.files.append(_entry(src, dest, official, out, "frame", len(frame.data)))

    if dest.resolve() != src.resolve():
        plain = [src / p for p in (COMPANY_NAMES, MOVIE_DB, PERSON_DB, YEAR_DB, NBA_DB)]
        for official in [p for p in plain if p.is_file()] + open_kg_files(src):
            out = dest / official.relative_to(src)
            how = _place(official, out)
            manifest.files.append(_entry(src, dest, official, out, how, None))

    (dest / MANIFEST_NAME).write_text(manifest.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return manifest


def _entry(
    src: Path, dest: Path, official: Path, out: Path, kind: Any, items: int | None
) -> ConvertedFile:
    return ConvertedFile(
        source=str(official.relative_to(src)),
        output=str(out.relative_to(dest)),
        kind=kind,
        items=items,
    )
