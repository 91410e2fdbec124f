"""Python clients of the mock KG API, synchronous and asynchronous (httpx).

Each of the 38 endpoints is a method named as in the official client
(``finance_get_price_history`` …) that returns the ``result`` of the answer.
A refused request raises `KGRequestError` with the server's message; a
connection failure is retried a few times, then raises `BackendError`.
The server address defaults to ``$CRAG_SERVER`` or ``http://127.0.0.1:8000``.
"""

from __future__ import annotations

import asyncio
import functools
import os
import ssl
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable
from types import TracebackType
from typing import Any, Generic, TypeVar

import httpx
import orjson

from ragmeter.errors import BackendError
from ragmeter.kg.endpoints import BY_NAME
from ragmeter.kg.errors import KGRequestError

DEFAULT_URL = "http://127.0.0.1:8000"
URL_ENV = "CRAG_SERVER"
RETRIES = 2
RETRY_PAUSE_S = 0.2

R = TypeVar("R")


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    # Building httpx's default TLS context takes ~0.2 s; one per process is enough.
    return httpx.create_ssl_context()


def default_base_url() -> str:
    """``$CRAG_SERVER`` if set, else the official default address."""
    return os.environ.get(URL_ENV) or DEFAULT_URL


def _path(name: str) -> str:
    ep = BY_NAME.get(name)
    if ep is None:
        raise KGRequestError(0, f"unknown endpoint {name!r}")
    return ep.path


def _result(response: httpx.Response) -> Any:
    if response.status_code != 200:
        try:
            message = str(orjson.loads(response.content).get("message", response.text))
        except (orjson.JSONDecodeError, AttributeError):
            message = response.text[:500]
        raise KGRequestError(response.status_code, message)
    try:
        payload = orjson.loads(response.content)
    except orjson.JSONDecodeError as exc:
        raise BackendError(f"KG server sent invalid JSON: {exc}") from exc
    if not isinstance(payload, dict) or "result" not in payload:
        raise BackendError("KG server answer has no 'result' field")
    return payload["result"]


class KGEndpoints(ABC, Generic[R]):
    """One method per endpoint; subclasses decide how a call is carried out."""

    @abstractmethod
    def call(self, name: str, body: dict[str, Any] | None = None) -> R:
        """Call endpoint ``name`` with a request body; returns the answer's ``result``."""

    # open -------------------------------------------------------------------------------
    def open_search_entity_by_name(self, query: str) -> R:
        """Up to 10 encyclopedia entity names matching ``query``."""
        return self.call("open_search_entity_by_name", {"query": query})

    def open_get_entity(self, entity: str) -> R:
        """An encyclopedia entity (summary text, infobox, raw wiki text), or None."""
        return self.call("open_get_entity", {"query": entity})

    # movie ------------------------------------------------------------------------------
    def movie_get_person_info(self, person_name: str) -> R:
        """Up to 10 person records matching a name."""
        return self.call("movie_get_person_info", {"query": person_name})

    def movie_get_movie_info(self, movie_name: str) -> R:
        """Up to 10 movie records matching a title."""
        return self.call("movie_get_movie_info", {"query": movie_name})

    def movie_get_year_info(self, year: str) -> R:
        """Movie ids and Oscar awards of a year (1990–2021)."""
        return self.call("movie_get_year_info", {"query": year})

    def movie_get_movie_info_by_id(self, movie_id: int) -> R:
        """The movie record with this id, or None."""
        return self.call("movie_get_movie_info_by_id", {"query": movie_id})

    def movie_get_person_info_by_id(self, person_id: int) -> R:
        """The person record with this id, or None."""
        return self.call("movie_get_person_info_by_id", {"query": person_id})

    # finance ----------------------------------------------------------------------------
    def finance_get_company_name(self, query: str) -> R:
        """Up to 10 company names matching ``query``."""
        return self.call("finance_get_company_name", {"query": query})

    def finance_get_ticker_by_name(self, query: str) -> R:
        """The ticker of an exact company name, or None."""
        return self.call("finance_get_ticker_by_name", {"query": query})

    def finance_get_price_history(self, ticker_name: str) -> R:
        """One year of daily prices, keyed by date."""
        return self.call("finance_get_price_history", {"query": ticker_name})

    def finance_get_detailed_price_history(self, ticker_name: str) -> R:
        """Five days of minute prices, keyed by time."""
        return self.call("finance_get_detailed_price_history", {"query": ticker_name})

    def finance_get_dividends_history(self, ticker_name: str) -> R:
        """Dividends, keyed by date."""
        return self.call("finance_get_dividends_history", {"query": ticker_name})

    def finance_get_market_capitalization(self, ticker_name: str) -> R:
        """Market capitalisation in USD."""
        return self.call("finance_get_market_capitalization", {"query": ticker_name})

    def finance_get_eps(self, ticker_name: str) -> R:
        """Forward earnings per share."""
        return self.call("finance_get_eps", {"query": ticker_name})

    def finance_get_pe_ratio(self, ticker_name: str) -> R:
        """Forward price-to-earnings ratio."""
        return self.call("finance_get_pe_ratio", {"query": ticker_name})

    def finance_get_info(self, ticker_name: str) -> R:
        """Company profile and key figures."""
        return self.call("finance_get_info", {"query": ticker_name})

    # music ------------------------------------------------------------------------------
    def music_search_artist_entity_by_name(self, artist_name: str) -> R:
        """Up to 10 artist names matching ``artist_name``."""
        return self.call("music_search_artist_entity_by_name", {"query": artist_name})

    def music_search_song_entity_by_name(self, song_name: str) -> R:
        """Up to 10 song titles matching ``song_name``."""
        return self.call("music_search_song_entity_by_name", {"query": song_name})

    def music_get_billboard_rank_date(self, rank: int, date: str | None = None) -> R:
        """``[songs, artists]`` at a Hot 100 rank, on one date or on all."""
        return self.call("music_get_billboard_rank_date", {"rank": rank, "date": date})

    def music_get_billboard_attributes(self, date: str, attribute: str, song_name: str) -> R:
        """A song's Hot 100 figure (rank_last_week, weeks_in_chart, top_position, rank)."""
        return self.call(
            "music_get_billboard_attributes",
            {"date": date, "attribute": attribute, "song_name": song_name},
        )

    def music_grammy_get_best_artist_by_year(self, year: int) -> R:
        """Grammy Best New Artist of a year."""
        return self.call("music_grammy_get_best_artist_by_year", {"query": year})

    def music_grammy_get_award_count_by_artist(self, artist_name: str) -> R:
        """Number of Grammy awards of an artist."""
        return self.call("music_grammy_get_award_count_by_artist", {"query": artist_name})

    def music_grammy_get_award_count_by_song(self, song_name: str) -> R:
        """Number of Grammy awards of a song."""
        return self.call("music_grammy_get_award_count_by_song", {"query": song_name})

    def music_grammy_get_best_song_by_year(self, year: int) -> R:
        """Grammy Song Of The Year of a year."""
        return self.call("music_grammy_get_best_song_by_year", {"query": year})

    def music_grammy_get_award_date_by_artist(self, artist_name: str) -> R:
        """Years of an artist's Grammy awards."""
        return self.call("music_grammy_get_award_date_by_artist", {"query": artist_name})

    def music_grammy_get_best_album_by_year(self, year: int) -> R:
        """Grammy Album Of The Year of a year."""
        return self.call("music_grammy_get_best_album_by_year", {"query": year})

    def music_grammy_get_all_awarded_artists(self) -> R:
        """Every Grammy Best New Artist."""
        return self.call("music_grammy_get_all_awarded_artists", None)

    def music_get_artist_birth_place(self, artist_name: str) -> R:
        """ISO country code of an artist's birth place."""
        return self.call("music_get_artist_birth_place", {"query": artist_name})

    def music_get_artist_birth_date(self, artist_name: str) -> R:
        """Birth date of an artist (start date of a band)."""
        return self.call("music_get_artist_birth_date", {"query": artist_name})

    def music_get_members(self, band_name: str) -> R:
        """Members of a band."""
        return self.call("music_get_members", {"query": band_name})

    def music_get_lifespan(self, artist_name: str) -> R:
        """``[begin, end]`` of an artist or band."""
        return self.call("music_get_lifespan", {"query": artist_name})

    def music_get_song_author(self, song_name: str) -> R:
        """Author of a song."""
        return self.call("music_get_song_author", {"query": song_name})

    def music_get_song_release_country(self, song_name: str) -> R:
        """ISO country code where a song was released."""
        return self.call("music_get_song_release_country", {"query": song_name})

    def music_get_song_release_date(self, song_name: str) -> R:
        """Release date of a song."""
        return self.call("music_get_song_release_date", {"query": song_name})

    def music_get_artist_all_works(self, artist_name: str) -> R:
        """Every work of an artist."""
        return self.call("music_get_artist_all_works", {"query": artist_name})

    # sports -----------------------------------------------------------------------------
    def sports_soccer_get_games_on_date(self, date: str, team_name: str | None = None) -> R:
        """Soccer matches on a day, month or year, optionally of one team."""
        return self.call("sports_soccer_get_games_on_date", {"date": date, "team_name": team_name})

    def sports_nba_get_games_on_date(self, date: str, team_name: str | None = None) -> R:
        """NBA games on a day, month or year, optionally of one team."""
        return self.call("sports_nba_get_games_on_date", {"date": date, "team_name": team_name})

    def sports_nba_get_play_by_play_data_by_game_ids(self, game_ids: list[str]) -> R:
        """Play-by-play events of NBA games."""
        return self.call("sports_nba_get_play_by_play_data_by_game_ids", {"game_ids": game_ids})


class KGClient(KGEndpoints[Any]):
    """Synchronous client; usable as a context manager."""

    def __init__(
        self,
        base_url: str | None = None,
        *,
        timeout: float = 30.0,
        retries: int = RETRIES,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = (base_url or default_base_url()).rstrip("/")
        self.retries = retries
        self._http = httpx.Client(
            base_url=self.base_url, timeout=timeout, transport=transport, verify=_ssl_context()
        )

    def call(self, name: str, body: dict[str, Any] | None = None) -> Any:
        """POST ``body`` to endpoint ``name``; returns the answer's ``result``."""
        path = _path(name)
        for attempt in range(self.retries + 1):
            try:
                response = self._http.post(path, json=body)
            except httpx.TransportError as exc:
                if attempt == self.retries:
                    raise BackendError(f"KG server {self.base_url} unreachable: {exc}") from exc
                time.sleep(RETRY_PAUSE_S * (attempt + 1))
                continue
            return _result(response)
        raise AssertionError("unreachable")

    def health(self) -> dict[str, Any]:
        """The server's health answer (``GET /``)."""
        response = self._http.get("/")
        response.raise_for_status()
        value: dict[str, Any] = response.json()
        return value

    def close(self) -> None:
        """Close the connections."""
        self._http.close()

    def __enter__(self) -> KGClient:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class AsyncKGClient(KGEndpoints[Awaitable[Any]]):
    """Asynchronous client (every method returns an awaitable); usable with ``async with``."""

    def __init__(
        self,
        base_url: str | None = None,
        *,
        timeout: float = 30.0,
        retries: int = RETRIES,
        max_connections: int = 100,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = (base_url or default_base_url()).rstrip("/")
        self.retries = retries
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            timeout=timeout,
            transport=transport,
            verify=_ssl_context(),
            limits=httpx.Limits(
                max_connections=max_connections, max_keepalive_connections=max_connections
            ),
        )

    def call(self, name: str, body: dict[str, Any] | None = None) -> Awaitable[Any]:
        """POST ``body`` to endpoint ``name``; awaits to the answer's ``result``."""
        return self._call(name, body)

    async def _call(self, name: str, body: dict[str, Any] | None) -> Any:
        path = _path(name)
        for attempt in range(self.retries + 1):
            try:
                response = await self._http.post(path, json=body)
            except httpx.TransportError as exc:
                if attempt == self.retries:
                    raise BackendError(f"KG server {self.base_url} unreachable: {exc}") from exc
                await asyncio.sleep(RETRY_PAUSE_S * (attempt + 1))
                continue
            return _result(response)
        raise AssertionError("unreachable")

    async def health(self) -> dict[str, Any]:
        """The server's health answer (``GET /``)."""
        response = await self._http.get("/")
        response.raise_for_status()
        value: dict[str, Any] = response.json()
        return value

    async def aclose(self) -> None:
        """Close the connections."""
        await self._http.aclose()

    async def __aenter__(self) -> AsyncKGClient:
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
