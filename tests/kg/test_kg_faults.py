"""Bad input and odd requests get 4xx answers with a message; unknown entities get empty shapes."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kg_helpers import canonical

from ragmeter.kg.client import KGClient
from ragmeter.kg.endpoints import ENDPOINTS, MAX_TEXT
from ragmeter.kg.errors import KGRequestError
from ragmeter.kg.server import DEFAULT_MAX_BODY_BYTES, BackgroundServer

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def http(kg_server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=kg_server, timeout=30) as client:
        yield client


def assert_refused(response: httpx.Response, status: int) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body["message"], str) and body["message"]


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("/finance/get_eps", b'{"query": '),  # cut-off JSON
        ("/finance/get_eps", b"{'query': 'META'}"),  # not JSON
        ("/finance/get_eps", b"[1, 2]"),  # JSON, but not an object
        ("/finance/get_eps", b"null"),
        ("/finance/get_eps", b'"META"'),
        ("/finance/get_eps", b'{"query": 5}'),  # wrong type
        ("/finance/get_eps", b'{"query": ["META"]}'),
        ("/finance/get_eps", b'{"query": null}'),
        ("/finance/get_eps", b"{}"),  # missing field
        ("/finance/get_eps", b""),  # no body
        ("/movie/get_movie_info_by_id", b'{"query": "abc"}'),
        ("/movie/get_movie_info_by_id", b'{"query": 1.5}'),
        ("/music/get_billboard_rank_date", b'{"rank": ' + b"9" * 20 + b"}"),
        ("/music/get_billboard_rank_date", b'{"date": "2024-02-28"}'),
        ("/music/get_billboard_attributes", b'{"date": "2024-02-28", "attribute": "rank"}'),
        ("/sports/nba/get_play_by_play_data_by_game_ids", b'{"game_ids": "0012200049"}'),
        ("/sports/nba/get_play_by_play_data_by_game_ids", b'{"game_ids": [1, 2]}'),
        ("/sports/soccer/get_games_on_date", b'{"team_name": "Everton"}'),
        ("/finance/get_eps", b'{"query": "' + b"x" * (MAX_TEXT + 1) + b'"}'),
        ("/movie/get_year_info", b'{"query": "1800"}'),  # outside 1990-2021
        ("/movie/get_year_info", b'{"query": "nineteen"}'),
    ],
)
def test_invalid_bodies_get_422_with_a_message(
    http: httpx.Client, path: str, content: bytes
) -> None:
    response = http.post(path, content=content, headers={"content-type": "application/json"})
    assert_refused(response, 422)


@pytest.mark.parametrize(
    "content",
    [
        b'{"query": "\xff\xfe"}',  # not UTF-8
        b"[" * 20_000 + b"]" * 20_000,  # nesting too deep for the JSON parser
        b'{"query": ' + b"9" * 5000 + b"}",  # more digits than Python parses
    ],
)
def test_unparsable_bodies_get_400_or_422(http: httpx.Client, content: bytes) -> None:
    response = http.post(
        "/finance/get_eps", content=content, headers={"content-type": "application/json"}
    )
    assert_refused(response, 422 if response.status_code == 422 else 400)


def test_a_huge_declared_body_gets_413(http: httpx.Client) -> None:
    content = b'{"query": "' + b"x" * (DEFAULT_MAX_BODY_BYTES + 10) + b'"}'
    assert_refused(http.post("/finance/get_eps", content=content), 413)


def test_a_huge_chunked_body_gets_413(http: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"query": "'
        for _ in range(DEFAULT_MAX_BODY_BYTES // 1024 + 2):
            yield b"x" * 1024
        yield b'"}'

    assert_refused(http.post("/finance/get_eps", content=chunks()), 413)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("POST", "/nowhere", 404),
        ("POST", "/finance/get_eps/more", 404),
        ("POST", "/finance//get_eps", 404),
        ("POST", "/FINANCE/GET_EPS", 404),
        ("POST", "/finance/get_eps%00", 404),
        ("GET", "/finance/get_eps", 405),
        ("PUT", "/finance/get_eps", 405),
        ("DELETE", "/", 405),
    ],
)
def test_odd_paths_and_methods_get_4xx(
    http: httpx.Client, method: str, path: str, status: int
) -> None:
    assert_refused(http.request(method, path, json={"query": "META"}), status)


def raw_exchange(url: str, request: bytes) -> bytes:
    parsed = urlparse(url)
    with socket.create_connection((parsed.hostname, parsed.port), timeout=10) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GARBAGE\r\n\r\n",
        b"POST /finance/get_eps HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}",
        b'POST /finance/get_eps HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"query"',
        b"POST /../../etc/passwd HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
    ],
)
def test_broken_http_never_gets_a_5xx(
    kg_server: str, http: httpx.Client, request_bytes: bytes
) -> None:
    answer = raw_exchange(kg_server, request_bytes)
    if answer:  # the server may also just close a connection it cannot read
        status = int(answer.split(b" ", 2)[1])
        assert 400 <= status < 500
    assert http.get("/").status_code == 200


EMPTY_ANSWERS: list[tuple[str, tuple[Any, ...], Any]] = [
    ("open_search_entity_by_name", ("qqqzzz",), []),
    ("open_get_entity", ("No Such Entity",), None),
    ("movie_get_person_info", ("qqqzzz",), []),
    ("movie_get_movie_info", ("qqqzzz",), []),
    ("movie_get_year_info", ("1995",), None),
    ("movie_get_movie_info_by_id", (987654321,), None),
    ("movie_get_person_info_by_id", (-1,), None),
    ("finance_get_company_name", ("qqqzzz",), []),
    ("finance_get_ticker_by_name", ("No Such Company",), None),
    ("finance_get_price_history", ("NOPE",), None),
    ("finance_get_detailed_price_history", ("NOPE",), None),
    ("finance_get_dividends_history", ("NOPE",), None),
    ("finance_get_market_capitalization", ("NOPE",), None),
    ("finance_get_eps", ("NOPE",), None),
    ("finance_get_pe_ratio", ("NOPE",), None),
    ("finance_get_info", ("NOPE",), None),
    ("music_search_artist_entity_by_name", ("qqqzzz",), []),
    ("music_search_song_entity_by_name", ("",), []),
    ("music_get_billboard_rank_date", (101,), [None, None]),
    ("music_get_billboard_rank_date", (1, "1900-01-01"), [[], []]),
    ("music_get_billboard_attributes", ("2024-02-28", "rank", "No Such Song"), None),
    ("music_grammy_get_best_artist_by_year", (1900,), None),
    ("music_grammy_get_best_artist_by_year", (2000,), []),
    ("music_grammy_get_award_count_by_artist", ("qqqzzz",), 0),
    ("music_grammy_get_award_count_by_song", ("No Such Song",), 0),
    ("music_grammy_get_best_song_by_year", (2030,), None),
    ("music_grammy_get_award_date_by_artist", ("qqqzzz",), []),
    ("music_grammy_get_best_album_by_year", (1800,), None),
    ("music_get_artist_birth_place", ("Nobody",), None),
    ("music_get_artist_birth_date", ("Lady Gaga",), None),  # known name, no birth date recorded
    ("music_get_members", ("Adele",), None),
    ("music_get_lifespan", ("Nobody",), [None, None]),
    ("music_get_song_author", ("Nobody",), None),
    ("music_get_song_release_country", ("Nobody",), None),
    ("music_get_song_release_date", ("Nobody",), None),
    ("music_get_artist_all_works", ("Nobody",), None),
    ("sports_soccer_get_games_on_date", ("1999-01-01",), None),
    ("sports_soccer_get_games_on_date", ("2024-03-09", "No Such Team"), None),
    ("sports_soccer_get_games_on_date", ("2024-03-09-01",), None),
    ("sports_nba_get_games_on_date", ("1999-01-01",), None),
    ("sports_nba_get_games_on_date", ("2022-10-11", "Team'); DROP TABLE game; --"), None),
    ("sports_nba_get_games_on_date", ("2022-10-11-01",), None),
    ("sports_nba_get_play_by_play_data_by_game_ids", (["nope"],), None),
    ("sports_nba_get_play_by_play_data_by_game_ids", ([],), None),
]


@pytest.mark.parametrize(("function", "args", "empty"), EMPTY_ANSWERS)
def test_unknown_entities_get_the_official_empty_answer(
    kg_server: str, function: str, args: tuple[Any, ...], empty: Any
) -> None:
    with KGClient(kg_server) as client:
        assert canonical(getattr(client, function)(*args)) == canonical(empty)


def test_every_endpoint_has_an_empty_answer_case() -> None:
    assert {f for f, _, _ in EMPTY_ANSWERS} == {e.name for e in ENDPOINTS} - {
        "music_grammy_get_all_awarded_artists"
    }


def test_partial_dates_select_months_and_years(kg_server: str) -> None:
    with KGClient(kg_server) as client:
        for date in ("2022-10", "2022"):
            games = client.sports_nba_get_games_on_date(date)
            assert len(games["game_id"]) == 5
        soccer = client.sports_soccer_get_games_on_date("2024-03")
        assert len(soccer["date"]) == 5
        assert len(client.sports_soccer_get_games_on_date("2024", "Everton")["date"]) == 1


def test_client_raises_the_servers_message(kg_server: str) -> None:
    with (
        KGClient(kg_server) as client,
        pytest.raises(KGRequestError, match="between 1990 and 2021") as err,
    ):
        client.movie_get_year_info("2050")
    assert err.value.status == 422


def test_health_and_docs(http: httpx.Client) -> None:
    health = http.get("/").json()
    assert health["message"] == "The CRAG API service is running"
    assert set(health["stores"]) == {"open", "movie", "finance", "music", "nba", "soccer"}
    spec = http.get("/openapi.json").json()
    posts = {p for p, ops in spec["paths"].items() if "post" in ops}
    assert posts == {e.path for e in ENDPOINTS}
    assert http.get("/docs").status_code == 200


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
field_names = st.sampled_from(
    ["query", "rank", "date", "attribute", "song_name", "team_name", "game_ids"]
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    body=json_values | st.dictionaries(field_names, json_values, max_size=4),
)
def test_random_bodies_never_get_a_5xx(http: httpx.Client, endpoint: Any, body: Any) -> None:
    response = http.post(endpoint.path, json=body)
    assert response.status_code in {200, 422}, response.text


def test_missing_data_gets_503_with_the_reason(tmp_path: Path) -> None:
    with BackgroundServer(tmp_path) as server, KGClient(server.url) as client:
        with pytest.raises(KGRequestError, match=r"movie_db\.json: file not found") as err:
            client.movie_get_movie_info("Rings")
        assert err.value.status == 503
        assert client.health()["stores"]["movie"] == "failed"
