"""The fixture KG in the official formats, the pickle conversion, and the stores' data errors."""

from __future__ import annotations

import bz2
import pickle
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import orjson
import pandas as pd
import pytest
from sqlitedict import SqliteDict

from ragmeter.errors import DataError, UserError
from ragmeter.kg.convert import convert_kg, to_jsonable
from ragmeter.kg.endpoints import TextQuery
from ragmeter.kg.errors import KGDataError
from ragmeter.kg.fixture import INFO_NAME, FixtureInfo, RecordedCall, build_fixture
from ragmeter.kg.formats import MANIFEST_NAME, KVFile, Manifest, read_frame
from ragmeter.kg.graph import KnowledgeGraph
from ragmeter.kg.music import GRAMMY_COLUMNS

OFFICIAL_FILES = [
    "finance/company_name.dict",
    "finance/finance_price.sqlite",
    "finance/finance_detailed_price.sqlite",
    "finance/finance_dividend.sqlite",
    "finance/finance_marketcap.sqlite",
    "finance/finance_info.sqlite",
    "movie/movie_db.json",
    "movie/person_db.json",
    "movie/year_db.json",
    "music/artist_dict_simplified.pickle",
    "music/song_dict_simplified.pickle",
    "music/grammy_df.pickle",
    "music/rank_dict_hot100.pickle",
    "music/song_dict_hot100.pickle",
    "music/artist_work_dict.pickle",
    "sports/nba.sqlite",
    "sports/soccer_team_match_stats.pkl",
    "open/kg.0.jsonl.bz2",
    "open/kg.1.jsonl.bz2",
]


def recorded(calls: list[RecordedCall], function: str) -> RecordedCall:
    return next(c for c in calls if c.function == function)


def test_fixture_has_every_official_file(official_kg: Path, mirror_file: Any) -> None:
    for rel in OFFICIAL_FILES:
        assert (official_kg / rel).is_file(), rel
    company = mirror_file("crag/kg/finance/company_name.dict")
    assert (official_kg / "finance/company_name.dict").read_bytes() == company.read_bytes()
    info = FixtureInfo.model_validate_json((official_kg / INFO_NAME).read_text())
    assert info.calls == 40
    assert info.synthesised_grammy_rows == 15  # Adele's count (16) and years need them


def test_finance_tables_are_real_sqlitedict_files(
    official_kg: Path, recorded_calls: list[RecordedCall]
) -> None:
    with SqliteDict(str(official_kg / "finance/finance_price.sqlite"), flag="r") as db:
        assert db["META"] == recorded(recorded_calls, "finance_get_price_history").result
    with SqliteDict(str(official_kg / "finance/finance_info.sqlite"), flag="r") as db:
        assert db["META"]["forwardEps"] == 22.95


def test_pandas_tables_have_the_official_shape(official_kg: Path) -> None:
    grammy = pd.read_pickle(official_kg / "music/grammy_df.pickle")
    assert list(grammy.columns) == list(GRAMMY_COLUMNS)
    soccer = pd.read_pickle(official_kg / "sports/soccer_team_match_stats.pkl")
    assert list(soccer.index.names) == ["league", "season", "team", "game"]
    assert str(soccer["date"].dtype).startswith("datetime64")
    assert len(soccer) == 5


def test_other_files_have_the_official_shape(official_kg: Path) -> None:
    movies = orjson.loads((official_kg / "movie/movie_db.json").read_bytes())
    assert movies["lock stock and two smoking barrels"]["id"] == 100
    with bz2.open(official_kg / "open/kg.0.jsonl.bz2") as f:
        name, entity = orjson.loads(f.readline())
    assert isinstance(name, str) and isinstance(entity, dict)
    con = sqlite3.connect(official_kg / "sports/nba.sqlite")
    assert con.execute("SELECT COUNT(*) FROM game").fetchone()[0] == 5
    assert con.execute("SELECT COUNT(*) FROM play_by_play").fetchone()[0] == 481
    con.close()
    with (official_kg / "music/artist_dict_simplified.pickle").open("rb") as f:
        artists = pickle.load(f)  # our own fixture file
    assert artists["Adele"] == {"country": "NO", "birth_date": "1987", "end_date": None}


def test_convert_writes_safe_twins_and_a_manifest(safe_kg: Path) -> None:
    manifest = Manifest.model_validate_json((safe_kg / MANIFEST_NAME).read_text())
    kinds = {f.output: f.kind for f in manifest.files}
    assert kinds["finance/finance_price.kv.sqlite"] == "kv"
    assert kinds["music/grammy_df.frame.json"] == "frame"
    assert kinds["sports/soccer_team_match_stats.frame.json"] == "frame"
    assert kinds["movie/movie_db.json"] in {"linked", "copied"}
    assert not list(safe_kg.rglob("*.pickle")) and not list(safe_kg.rglob("*.pkl"))
    assert not (safe_kg / "finance/finance_price.sqlite").exists()
    kv = KVFile(safe_kg / "music/artist_dict_simplified.kv.sqlite")
    assert list(kv.keys())[:2] == ["Lady Gaga", "Ga-Ga"]  # the dictionary's order is kept
    frame = read_frame(safe_kg / "sports/soccer_team_match_stats.frame.json")
    assert frame.data[0][frame.columns.index("date")].endswith("T00:00:00.000")


def test_convert_needs_trust(official_kg: Path, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="--trust-pickle"):
        convert_kg(official_kg, tmp_path / "out", trust_pickle=False)
    assert not (tmp_path / "out").exists()


def test_stores_refuse_pickles_and_say_how_to_convert(official_kg: Path, tmp_path: Path) -> None:
    kg_dir = tmp_path / "kg"
    shutil.copytree(
        official_kg, kg_dir, ignore=shutil.ignore_patterns("*.kv.sqlite", "*.frame.json")
    )
    graph = KnowledgeGraph(kg_dir)
    with pytest.raises(KGDataError, match="kg convert --trust-pickle"):
        graph.call("music_get_song_author", TextQuery(query="I Can Feel It"))
    with pytest.raises(KGDataError, match="kg convert --trust-pickle"):
        graph.call("finance_get_price_history", TextQuery(query="META"))
    # Domains without pickles are served as they are.
    assert (
        graph.call("finance_get_ticker_by_name", TextQuery(query="Apple Inc. Common Stock"))
        == "AAPL"
    )
    assert graph.status()["music"] == "failed"


def test_missing_domain_data_is_a_data_error(tmp_path: Path) -> None:
    graph = KnowledgeGraph(tmp_path)
    with pytest.raises(KGDataError, match="not found"):
        graph.call("movie_get_movie_info", TextQuery(query="x"))
    with pytest.raises(KGDataError):
        KnowledgeGraph(tmp_path / "absent")


def test_convert_turns_nan_and_numpy_values_into_json(tmp_path: Path) -> None:
    import numpy as np

    src = tmp_path / "src"
    (src / "finance").mkdir(parents=True)
    with SqliteDict(str(src / "finance/finance_marketcap.sqlite"), autocommit=True) as db:
        db["AAA"] = float("nan")
        db["BBB"] = np.float64(2.5)
        db["CCC"] = {"2024-01-02 00:00:00 EST": np.int64(3), 7: (1, 2)}
    convert_kg(src, tmp_path / "dest", trust_pickle=True)
    kv = KVFile(tmp_path / "dest/finance/finance_marketcap.kv.sqlite")
    assert [kv.get(k) for k in ("AAA", "BBB", "CCC")] == [
        None,
        2.5,
        {"2024-01-02 00:00:00 EST": 3, "7": [1, 2]},
    ]


def test_convert_rejects_values_without_json_form() -> None:
    with pytest.raises(KGDataError, match="no JSON form"):
        to_jsonable({"a": object()}, "somewhere")


def test_fixture_rejects_a_bad_recording(tmp_path: Path, mirror_file: Any) -> None:
    bad = tmp_path / "api_examples.json"
    bad.write_text('[{"function": "x", "args": "not a list", "response": {}}]')
    companies = mirror_file("crag/kg/finance/company_name.dict")
    with pytest.raises(DataError, match="record 0"):
        build_fixture(tmp_path / "out", examples=bad, companies=companies)
