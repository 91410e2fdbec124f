"""The sports domain: NBA games and play-by-play (sqlite), soccer matches (converted table).

Answers have the shape of a pandas table written with ``to_json``: one object per
column, mapping row labels to cells, as the official API returns them.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

from ragmeter.kg._files import open_frame, require_file
from ragmeter.kg.errors import KGDataError
from ragmeter.kg.formats import NBA_DB, SOCCER, SOCCER_PICKLE_SUFFIX, frame_path


def _date_prefix(date: str) -> int | None:
    """How many leading characters of an ISO date to compare: YYYY, YYYY-MM or YYYY-MM-DD."""
    parts = date.split("-")
    return {1: 4, 2: 7, 3: 10}.get(len(parts))


_NUMBERS = {int, float, type(None)}


def _pandas_column(values: tuple[Any, ...]) -> list[Any] | tuple[Any, ...]:
    """Cells of one column as pandas would type them after reading them from sqlite.

    A numeric column holding a float or a missing value becomes floating point, so
    its integers are written as floats; other columns are left as they are. (pandas
    would also round floats to 10 decimals; the NBA figures have at most 3, so the
    per-cell rounding is not worth its cost.)
    """
    kinds = set(map(type, values))
    if kinds <= _NUMBERS and int in kinds and len(kinds) > 1:
        return [None if v is None else float(v) for v in values]
    return values


def _columns_json(names: list[str], rows: list[tuple[Any, ...]]) -> dict[str, dict[str, Any]]:
    labels = [str(i) for i in range(len(rows))]
    return {
        name: dict(zip(labels, _pandas_column(column), strict=True))
        for name, column in zip(names, zip(*rows, strict=True), strict=True)
    }


class NBAStore:
    """NBA answers from the official ``nba.sqlite`` (tables ``game`` and ``play_by_play``)."""

    def __init__(self, root: Path) -> None:
        self.path = require_file(root / NBA_DB)
        self._local = threading.local()
        tables = {
            r[0] for r in self._con().execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        missing = {"game", "play_by_play"} - tables
        if missing:
            raise KGDataError(f"missing tables {sorted(missing)}", self.path)

    def _con(self) -> sqlite3.Connection:
        con: sqlite3.Connection | None = getattr(self._local, "con", None)
        if con is None:
            try:
                con = sqlite3.connect(
                    f"file:{self.path.resolve()}?mode=ro", uri=True, check_same_thread=False
                )
                con.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            except sqlite3.DatabaseError as exc:
                raise KGDataError(f"cannot read sqlite file: {exc}", self.path) from exc
            self._local.con = con
        return con

    def _query(self, sql: str, params: list[Any]) -> dict[str, dict[str, Any]] | None:
        cur = self._con().execute(sql, params)
        rows = cur.fetchall()
        if not rows:
            return None
        names = [d[0] for d in cur.description]
        return _columns_json(names, rows)

    def get_games_on_date(
        self, date: str, team_name: str | None
    ) -> dict[str, dict[str, Any]] | None:
        """Games on a day, month or year, optionally of one team (home or away)."""
        prefix = _date_prefix(date)
        if prefix is None:
            # The official API returns every game for such a date; an empty answer is kinder.
            return None
        fmt = {4: "%Y", 7: "%Y-%m", 10: "%Y-%m-%d"}[prefix]
        sql = "SELECT * FROM game WHERE strftime(?, game_date) = ?"
        params: list[Any] = [fmt, date]
        if team_name is not None:
            sql += " AND (team_name_home = ? OR team_name_away = ?)"
            params += [team_name, team_name]
        return self._query(sql, params)

    def get_play_by_play_data_by_game_ids(
        self, game_ids: list[str]
    ) -> dict[str, dict[str, Any]] | None:
        """Play-by-play events of the given games."""
        if not game_ids:
            return None
        marks = ", ".join("?" for _ in game_ids)
        return self._query(f"SELECT * FROM play_by_play WHERE game_id IN ({marks})", list(game_ids))


class SoccerStore:
    """Soccer answers from the converted team-match table (index: league, season, team, game)."""

    def __init__(self, root: Path) -> None:
        path = frame_path(root, SOCCER)
        frame = open_frame(root, SOCCER, SOCCER_PICKLE_SUFFIX)
        names = frame.index_names
        if "team" not in names or "league" not in names or "date" not in frame.columns:
            raise KGDataError("expected index levels league and team and a date column", path)
        i_team, i_league = names.index("team"), names.index("league")
        i_date = frame.columns.index("date")
        self.columns = frame.columns
        self.rows: list[tuple[str, Any, str, list[Any]]] = []
        for label, cells in zip(frame.index, frame.data, strict=True):
            if not isinstance(label, list) or len(label) != len(names):
                raise KGDataError("every row label must list the index levels", path)
            if label[i_league] is None:
                continue  # the official API drops rows without a league
            date = cells[i_date]
            # pandas writes a tuple label as Python shows the tuple.
            self.rows.append(
                (repr(tuple(label)), label[i_team], date if isinstance(date, str) else "", cells)
            )
        self.teams = {r[1] for r in self.rows}

    def get_games_on_date(
        self, date: str, team_name: str | None
    ) -> dict[str, dict[str, Any]] | None:
        """Matches on a day, month or year, optionally of one team."""
        if team_name is not None and team_name not in self.teams:
            return None
        prefix = _date_prefix(date)
        if prefix is None:
            return None
        hits = [
            r
            for r in self.rows
            if (team_name is None or r[1] == team_name)
            and r[2][:prefix] == date
            and len(r[2]) >= prefix
        ]
        if not hits:
            return None
        labels = [r[0] for r in hits]
        if len(set(labels)) != len(labels):
            return None  # pandas refuses to write duplicate labels this way; the API answers null
        return {
            col: {label: r[3][j] for label, r in zip(labels, hits, strict=True)}
            for j, col in enumerate(self.columns)
        }
