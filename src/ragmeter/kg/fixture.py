"""``kg fixture``: a small KG in the official on-disk formats, built from recorded API calls.

Every record of ``api_examples.json`` (a call to the official API with its
response) is turned back into the data that produces it: the entities a lookup
returned, the names a search returned, the rows a games query returned. The
finance name table is the real one. Where a response only shows an aggregate
(the Grammy award count and years of an artist), the fixture adds rows that
name the artist in the ``artist`` column and leave the category empty, just
enough to give the recorded count and years; nothing else is invented, so a
field the records never show is simply absent.

The files are those of the official ``cragkg/`` folder, pickles included, so
``kg convert --trust-pickle`` runs on real shapes before the fixture is served.
"""

from __future__ import annotations

import ast
import bz2
import hashlib
import os
import pickle
import shutil
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragmeter.errors import DataError, MissingExtraError, UserError
from ragmeter.kg.formats import (
    COMPANY_NAMES,
    FINANCE_TABLES,
    GRAMMY,
    MOVIE_DB,
    MUSIC_DICTS,
    NBA_DB,
    OPEN_DIR,
    PERSON_DB,
    PICKLE_SUFFIX,
    SOCCER,
    SOCCER_PICKLE_SUFFIX,
    SQLITEDICT_SUFFIX,
    YEAR_DB,
)
from ragmeter.kg.music import ALBUM_OF_THE_YEAR, BEST_NEW_ARTIST, GRAMMY_COLUMNS, SONG_OF_THE_YEAR
from ragmeter.kg.text import normalize_name

EXAMPLES_RELATIVE = "crag/kg/api_examples.json"
COMPANIES_RELATIVE = "crag/kg/finance/company_name.dict"
INFO_NAME = "fixture_info.json"
SOCCER_INDEX = ["league", "season", "team", "game"]

_FINANCE_CALLS = {
    "finance_get_price_history": "price",
    "finance_get_detailed_price_history": "detailed_price",
    "finance_get_dividends_history": "dividend",
    "finance_get_market_capitalization": "marketcap",
    "finance_get_info": "info",
}
_INFO_FIELDS = {"finance_get_eps": "forwardEps", "finance_get_pe_ratio": "forwardPE"}


class RecordedCall(BaseModel):
    """One call of the official API with its response, as ``api_examples.json`` holds it."""

    model_config = ConfigDict(extra="forbid")

    function: str
    args: list[Any]
    response: dict[str, Any]
    display_truncated: bool = False

    @property
    def result(self) -> Any:
        """The ``result`` field of the response."""
        return self.response.get("result")


class FixtureInfo(BaseModel):
    """Where a fixture KG came from, written beside it."""

    format: str = "ragmeter-kg-fixture-1"
    examples: str
    examples_sha256: str
    companies_sha256: str
    calls: int
    synthesised_grammy_rows: int = Field(description="rows added only to give recorded aggregates")


def load_recorded_calls(path: Path) -> list[RecordedCall]:
    """Read and check ``api_examples.json``."""
    try:
        raw = orjson.loads(path.read_bytes())
    except FileNotFoundError:
        raise DataError("file not found", path) from None
    except orjson.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc}", path) from exc
    if not isinstance(raw, list):
        raise DataError("expected a JSON list of recorded calls", path)
    calls = []
    for i, item in enumerate(raw):
        try:
            calls.append(RecordedCall.model_validate(item))
        except ValidationError as exc:
            raise DataError(f"record {i}: {exc.errors()[0]['msg']}", path) from exc
    return calls


def find_in_mirror(relative: str) -> Path | None:
    """The first copy of ``relative`` in the data mirror folders (``RAGMETER_DATA_MIRROR``)."""
    for folder in os.environ.get("RAGMETER_DATA_MIRROR", "").split(os.pathsep):
        if folder and (Path(folder) / relative).is_file():
            return Path(folder) / relative
    return None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _put(table: dict[str, Any], key: str, value: Any, what: str) -> None:
    if key in table and table[key] != value:
        raise DataError(f"{what} {key!r} is recorded twice with different data")
    table[key] = value


def _write_pickle(path: Path, obj: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump(obj, f, protocol=pickle.HIGHEST_PROTOCOL)


def _write_sqlitedict(path: Path, items: dict[str, Any]) -> None:
    """A table as the ``sqlitedict`` package stores it: pickled values in table ``unnamed``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    try:
        con.execute('CREATE TABLE IF NOT EXISTS "unnamed" (key TEXT PRIMARY KEY, value BLOB)')
        con.executemany(
            'INSERT INTO "unnamed" (key, value) VALUES (?, ?)',
            [
                (k, sqlite3.Binary(pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL)))
                for k, v in items.items()
            ],
        )
        con.commit()
    finally:
        con.close()


def _columns_to_rows(result: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """A pandas ``to_json`` answer (column → label → cell) back into labelled rows."""
    rows: dict[str, dict[str, Any]] = {}
    for column, cells in result.items():
        for label, cell in cells.items():
            rows.setdefault(label, {})[column] = cell
    return list(rows.items())


class _Builder:
    def __init__(self, calls: list[RecordedCall]) -> None:
        self.calls = calls
        self.synthesised = 0

    def of(self, *functions: str) -> Iterable[RecordedCall]:
        return (c for c in self.calls if c.function in functions)

    # finance --------------------------------------------------------------------------------
    def finance(self, out: Path, companies: Path) -> None:
        (out / COMPANY_NAMES).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(companies, out / COMPANY_NAMES)
        tables: dict[str, dict[str, Any]] = {kind: {} for kind in FINANCE_TABLES}
        for call in self.of(*_FINANCE_CALLS):
            if call.result is not None:
                _put(
                    tables[_FINANCE_CALLS[call.function]], call.args[0], call.result, call.function
                )
        for call in self.of(*_INFO_FIELDS):
            if call.result is None:
                continue
            info = tables["info"].setdefault(call.args[0], {})
            field = _INFO_FIELDS[call.function]
            if info.get(field, call.result) != call.result:
                raise DataError(f"{call.function} {call.args[0]!r} disagrees with finance_get_info")
            info[field] = call.result
        for kind, stem in FINANCE_TABLES.items():
            _write_sqlitedict(out / (stem + SQLITEDICT_SUFFIX), tables[kind])

    # movie ----------------------------------------------------------------------------------
    def movie(self, out: Path) -> None:
        movies: dict[str, Any] = {}
        people: dict[str, Any] = {}
        years: dict[str, Any] = {}
        for call in self.of("movie_get_movie_info", "movie_get_movie_info_by_id"):
            found = call.result if isinstance(call.result, list) else [call.result]
            for m in found:
                if m is not None:
                    _put(movies, normalize_name(str(m.get("title", ""))), m, "movie")
        for call in self.of("movie_get_person_info", "movie_get_person_info_by_id"):
            found = call.result if isinstance(call.result, list) else [call.result]
            for p in found:
                if p is not None:
                    _put(people, normalize_name(str(p.get("name", ""))), p, "person")
        for call in self.of("movie_get_year_info"):
            if call.result is not None:
                _put(years, str(call.args[0]), call.result, "year")
        for rel, table in ((MOVIE_DB, movies), (PERSON_DB, people), (YEAR_DB, years)):
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_bytes(orjson.dumps(table))

    # music ----------------------------------------------------------------------------------
    def music(self, out: Path) -> None:
        pd = _pandas()
        artists: dict[str, dict[str, Any]] = {}
        songs: dict[str, dict[str, Any]] = {}
        for call in self.of("music_search_artist_entity_by_name"):
            for name in call.result or []:
                artists.setdefault(name, {})
        for call in self.of("music_search_song_entity_by_name"):
            for name in call.result or []:
                songs.setdefault(name, {})
        artist_fields = {
            "music_get_artist_birth_place": "country",
            "music_get_artist_birth_date": "birth_date",
            "music_get_members": "members",
        }
        for call in self.of(*artist_fields):
            if call.result is not None:
                self._set(artists.setdefault(call.args[0], {}), artist_fields[call.function], call)
        for call in self.of("music_get_lifespan"):
            begin, end = call.result
            if [begin, end] != [None, None]:
                entry = artists.setdefault(call.args[0], {})
                self._set_value(entry, "birth_date", begin, call)
                self._set_value(entry, "end_date", end, call)
        song_fields = {
            "music_get_song_author": "author",
            "music_get_song_release_country": "country",
            "music_get_song_release_date": "date",
        }
        for call in self.of(*song_fields):
            if call.result is not None:
                self._set(songs.setdefault(call.args[0], {}), song_fields[call.function], call)
        works = {
            c.args[0]: c.result
            for c in self.of("music_get_artist_all_works")
            if c.result is not None
        }
        ranks, chart_rows = self._billboard()
        grammy = self._grammy()

        music = {
            "artist": artists,
            "song": songs,
            "artist_works": works,
            "rank_hot100": ranks,
            "song_hot100": chart_rows,
        }
        for kind, stem in MUSIC_DICTS.items():
            _write_pickle(out / (stem + PICKLE_SUFFIX), music[kind])
        frame = pd.DataFrame(grammy, columns=list(GRAMMY_COLUMNS), dtype=object)
        frame.to_pickle(out / (GRAMMY + PICKLE_SUFFIX))

    @staticmethod
    def _set(entry: dict[str, Any], field: str, call: RecordedCall) -> None:
        _Builder._set_value(entry, field, call.result, call)

    @staticmethod
    def _set_value(entry: dict[str, Any], field: str, value: Any, call: RecordedCall) -> None:
        if field in entry and entry[field] != value:
            raise DataError(f"{call.function} {call.args!r} disagrees with another record")
        entry[field] = value

    def _billboard(self) -> tuple[dict[str, list[dict[str, Any]]], dict[str, dict[str, list[Any]]]]:
        ranks: dict[str, list[dict[str, Any]]] = {}
        where: dict[tuple[str, str], str] = {}  # (song, date) -> rank
        for call in self.of("music_get_billboard_rank_date"):
            rank = call.args[0]
            date = call.args[1] if len(call.args) > 1 else None
            song_list, artist_list = call.result
            if song_list is None:
                continue
            for song, artist in zip(song_list, artist_list, strict=True):
                ranks.setdefault(str(rank), []).append(
                    {"Date": date, "Song": song, "Artist": artist}
                )
                if date is not None:
                    where[(song, date)] = str(rank)
        fields: dict[tuple[str, str], dict[str, Any]] = {}
        for call in self.of("music_get_billboard_attributes"):
            date, attribute, song = call.args
            if call.result is not None:
                fields.setdefault((song, date), {})[attribute] = call.result
        chart_rows: dict[str, dict[str, list[Any]]] = {}
        for (song, date), known in fields.items():
            rank = known.get("rank", where.get((song, date)))
            artist = next(
                (
                    e["Artist"]
                    for e in ranks.get(str(rank), [])
                    if e["Song"] == song and e["Date"] == date
                ),
                None,
            )
            top, weeks, last = (
                known.get("top_position"),
                known.get("weeks_in_chart"),
                known.get("rank_last_week"),
            )
            # A chart row lists date, song, artist, rank, then last week / peak / weeks; a new
            # entry ("-" last week) keeps "-" in the last field instead.
            if last == "-":
                row = [date, song, artist, rank, top, weeks, "-"]
            else:
                row = [date, song, artist, rank, last, top, weeks]
            chart_rows.setdefault(song, {})[date] = row
        return ranks, chart_rows

    def _grammy(self) -> list[list[Any]]:
        """Rows (year, category, nominee, artist, workers) giving every recorded Grammy answer."""
        rows: list[list[Any]] = []
        winners_by_year: dict[str, dict[Any, int]] = {}
        for function, category in (
            ("music_grammy_get_best_artist_by_year", BEST_NEW_ARTIST),
            ("music_grammy_get_best_song_by_year", SONG_OF_THE_YEAR),
            ("music_grammy_get_best_album_by_year", ALBUM_OF_THE_YEAR),
        ):
            for call in self.of(function):
                for nominee in call.result or []:
                    winners_by_year.setdefault(category, {})[nominee] = int(call.args[0])
        listed = [
            n for c in self.of("music_grammy_get_all_awarded_artists") for n in (c.result or [])
        ]
        best_new = winners_by_year.pop(BEST_NEW_ARTIST, {})
        for name in dict.fromkeys(listed + list(best_new)):
            rows.append([best_new.get(name), BEST_NEW_ARTIST, name, None, None])
        for category, winners in winners_by_year.items():
            for nominee, year in winners.items():
                rows.append([year, category, nominee, None, None])
        for call in self.of("music_grammy_get_award_count_by_song"):
            have = sum(1 for r in rows if r[2] == call.args[0])
            if call.result < have:
                raise DataError(
                    f"{call.function} {call.args[0]!r}: recorded count below the rows built"
                )
            for _ in range(call.result - have):
                rows.append([None, None, call.args[0], None, None])
                self.synthesised += 1
        counts = {c.args[0]: c.result for c in self.of("music_grammy_get_award_count_by_artist")}
        years = {c.args[0]: c.result for c in self.of("music_grammy_get_award_date_by_artist")}
        for name in dict.fromkeys(list(counts) + list(years)):
            self._artist_rows(rows, name, counts.get(name), years.get(name) or [])
        return rows

    def _artist_rows(
        self, rows: list[list[Any]], name: str, count: int | None, years: list[int]
    ) -> None:
        def text(cell: Any) -> str:
            return "nan" if cell is None else str(cell)

        have = sum(name in text(r[i]) for r in rows for i in (2, 3, 4))
        covered = {r[0] for r in rows if any(name in text(r[i]) for i in (2, 3, 4))}
        needed = [y for y in years if y not in covered]
        extra = max(len(needed), 0 if count is None else count - have)
        if count is not None and have + extra != count:
            raise DataError(f"Grammy records of {name!r}: count {count} cannot hold years {years}")
        cycle: list[int | None] = list(needed or years) or [None]
        for i in range(extra):
            rows.append([cycle[i % len(cycle)], None, None, name, None])
            self.synthesised += 1

    # sports ---------------------------------------------------------------------------------
    def soccer(self, out: Path) -> None:
        pd = _pandas()
        rows: dict[tuple[Any, ...], dict[str, Any]] = {}
        columns: list[str] = []
        for call in self.of("sports_soccer_get_games_on_date"):
            if call.result is None:
                continue
            columns += [c for c in call.result if c not in columns]
            for label, cells in _columns_to_rows(call.result):
                key = ast.literal_eval(label)  # a tuple of strings, as pandas prints it
                if not isinstance(key, tuple) or len(key) != len(SOCCER_INDEX):
                    raise DataError(f"soccer row label {label!r} is not a 4-tuple")
                _put_row(rows, key, cells)
        labels = sorted(rows)
        index = pd.MultiIndex.from_tuples(labels, names=SOCCER_INDEX)
        data = [[rows[k].get(c) for c in columns] for k in labels]
        frame = pd.DataFrame(data, index=index, columns=columns, dtype=object)
        if "date" in frame.columns:
            frame["date"] = pd.to_datetime(frame["date"])
        (out / SOCCER).parent.mkdir(parents=True, exist_ok=True)
        frame.to_pickle(out / (SOCCER + SOCCER_PICKLE_SUFFIX))

    def nba(self, out: Path) -> None:
        games: dict[tuple[Any, ...], dict[str, Any]] = {}
        plays: dict[tuple[Any, ...], dict[str, Any]] = {}
        game_cols: list[str] = []
        play_cols: list[str] = []
        for call in self.of("sports_nba_get_games_on_date"):
            if call.result is not None:
                game_cols += [c for c in call.result if c not in game_cols]
                for _, cells in _columns_to_rows(call.result):
                    _put_row(games, (cells.get("game_date"), cells.get("game_id")), cells)
        for call in self.of("sports_nba_get_play_by_play_data_by_game_ids"):
            if call.result is not None:
                play_cols += [c for c in call.result if c not in play_cols]
                for label, cells in _columns_to_rows(call.result):
                    _put_row(plays, (cells.get("game_id"), label), cells)
        path = out / NBA_DB
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        con = sqlite3.connect(path)
        try:
            # Games in date and id order, as the official table lists them; events as recorded.
            tables = (
                ("game", game_cols, dict(sorted(games.items(), key=lambda kv: _sort_key(kv[0])))),
                ("play_by_play", play_cols, plays),
            )
            for table, cols, found in tables:
                # Columns without a declared type keep each value's own type (int, float, text).
                names = ", ".join('"' + c.replace('"', '""') + '"' for c in cols) or '"game_id"'
                con.execute(f'CREATE TABLE "{table}" ({names})')
                marks = ", ".join("?" for _ in cols)
                con.executemany(
                    f'INSERT INTO "{table}" VALUES ({marks})',
                    [[cells.get(c) for c in cols] for cells in found.values()],
                )
            con.commit()
        finally:
            con.close()

    # open -----------------------------------------------------------------------------------
    def open(self, out: Path) -> None:
        entities: dict[str, Any] = {}
        for call in self.of("open_search_entity_by_name"):
            for name in call.result or []:
                entities.setdefault(name, {})
        for call in self.of("open_get_entity"):
            if call.result is not None:
                entities[call.args[0]] = call.result
        items = list(entities.items())
        half = (len(items) + 1) // 2
        folder = out / OPEN_DIR
        folder.mkdir(parents=True, exist_ok=True)
        # Two files, as the official KG ships, so reading several files is exercised.
        for n, part in enumerate((items[:half], items[half:])):
            with bz2.open(folder / f"kg.{n}.jsonl.bz2", "wb") as f:
                for name, entity in part:
                    f.write(orjson.dumps([name, entity]) + b"\n")


def _sort_key(key: tuple[Any, ...]) -> tuple[str, ...]:
    return tuple("" if k is None else f"{k:>20}" if isinstance(k, int) else str(k) for k in key)


def _put_row(
    rows: dict[tuple[Any, ...], dict[str, Any]], key: tuple[Any, ...], cells: dict[str, Any]
) -> None:
    if key in rows and rows[key] != cells:
        raise DataError(f"row {key!r} is recorded twice with different cells")
    rows[key] = cells


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as exc:
        raise MissingExtraError("kg", "writing the official pandas pickles") from exc
    return pandas


def build_fixture(
    out: Path, *, examples: Path | None = None, companies: Path | None = None
) -> FixtureInfo:
    """Write the fixture KG under ``out`` (created if needed) and describe it."""
    examples = examples or find_in_mirror(EXAMPLES_RELATIVE)
    companies = companies or find_in_mirror(COMPANIES_RELATIVE)
    if examples is None or companies is None:
        raise UserError(
            f"cannot find {EXAMPLES_RELATIVE} and {COMPANIES_RELATIVE} in the data mirror "
            "(RAGMETER_DATA_MIRROR); pass --examples and --companies"
        )
    if not companies.is_file():
        raise DataError("file not found", companies)
    calls = load_recorded_calls(examples)
    out.mkdir(parents=True, exist_ok=True)
    builder = _Builder(calls)
    builder.finance(out, companies)
    builder.movie(out)
    builder.music(out)
    builder.soccer(out)
    builder.nba(out)
    builder.open(out)
    info = FixtureInfo(
        examples=examples.name,
        examples_sha256=_sha256(examples),
        companies_sha256=_sha256(companies),
        calls=len(calls),
        synthesised_grammy_rows=builder.synthesised,
    )
    (out / INFO_NAME).write_text(info.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return info
