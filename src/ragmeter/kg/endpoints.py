"""The 38 endpoints of the CRAG mock KG API: paths, request bodies, descriptions.

One table drives the server's routes, the client's calls and the tool schemas
given to language models, so the three can never disagree. Paths and body
fields are the official API's (e.g. ``POST /finance/get_price_history`` with
``{"query": "META"}``); the descriptions are ours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

MAX_TEXT = 1024
MAX_SHORT = 64
MAX_GAME_IDS = 1000
# Integers are ids, ranks and years: 64 bits is plenty, and Python cannot even print
# an integer of more than 4,300 digits.
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


class TextQuery(BaseModel):
    """``{"query": "<text>"}``."""

    query: str = Field(max_length=MAX_TEXT)


class IntQuery(BaseModel):
    """``{"query": <integer>}`` (numeric strings such as ``"100"`` are accepted)."""

    query: int = Field(ge=INT64_MIN, le=INT64_MAX)


class RankDate(BaseModel):
    """``{"rank": 1, "date": "2024-02-28"}``; ``date`` may be omitted."""

    rank: int = Field(ge=INT64_MIN, le=INT64_MAX)
    date: str | None = Field(default=None, max_length=MAX_SHORT)


class BillboardAttribute(BaseModel):
    """``{"date": ..., "attribute": ..., "song_name": ...}``."""

    date: str = Field(max_length=MAX_SHORT)
    attribute: str = Field(max_length=MAX_SHORT)
    song_name: str = Field(max_length=MAX_TEXT)


class SportsDate(BaseModel):
    """``{"date": "2024-03-09", "team_name": "Everton"}``; ``team_name`` may be omitted."""

    date: str = Field(max_length=MAX_SHORT)
    team_name: str | None = Field(default=None, max_length=MAX_TEXT)


class GameIds(BaseModel):
    """``{"game_ids": ["0022200547", ...]}``."""

    game_ids: list[str] = Field(max_length=MAX_GAME_IDS)


BODY_MODELS: tuple[type[BaseModel], ...] = (
    TextQuery,
    IntQuery,
    RankDate,
    BillboardAttribute,
    SportsDate,
    GameIds,
)


@dataclass(frozen=True)
class Param:
    """One request field, as a language model sees it."""

    name: str
    json_type: str
    description: str
    required: bool = True

    def schema(self) -> dict[str, Any]:
        """JSON schema of the field."""
        if self.json_type == "array":
            return {"type": "array", "items": {"type": "string"}, "description": self.description}
        return {"type": self.json_type, "description": self.description}


@dataclass(frozen=True)
class Endpoint:
    """One POST endpoint."""

    name: str
    path: str
    store: str
    method: str
    body: type[BaseModel] | None
    params: tuple[Param, ...]
    description: str
    ranked: bool = False
    """A ranked name search: its order depends on corpus-wide statistics."""

    @property
    def domain(self) -> str:
        """open, movie, finance, music or sports."""
        return self.path.split("/")[1]


def _text(desc: str) -> tuple[Param, ...]:
    return (Param("query", "string", desc),)


def _int(desc: str) -> tuple[Param, ...]:
    return (Param("query", "integer", desc),)


_TICKER = _text("Ticker symbol, e.g. META (find it with finance_get_ticker_by_name).")
_ARTIST = _text("Exact artist name as the KG spells it (see music_search_artist_entity_by_name).")
_SONG = _text("Exact song title as the KG spells it (see music_search_song_entity_by_name).")
_GRAMMY_YEAR = _int("Year of the award, YYYY, between 1958 and 2019.")
_SPORTS = (
    Param("date", "string", "Day, month or year: YYYY-MM-DD, YYYY-MM or YYYY."),
    Param("team_name", "string", "Optional team name to keep only its games.", required=False),
)


def _ep(
    name: str,
    store: str,
    body: type[BaseModel] | None,
    params: tuple[Param, ...],
    description: str,
    *,
    ranked: bool = False,
) -> Endpoint:
    domain, _, rest = name.partition("_")
    if domain == "sports":
        _, _, rest = rest.partition("_")
    path = "/" + name.replace("_", "/", 2 if domain == "sports" else 1)
    return Endpoint(name, path, store, rest, body, params, description, ranked)


ENDPOINTS: tuple[Endpoint, ...] = (
    # open -------------------------------------------------------------------------------
    _ep(
        "open_search_entity_by_name",
        "open",
        TextQuery,
        _text("Entity name or words from it."),
        "Search encyclopedia entities by name; returns up to 10 entity names.",
        ranked=True,
    ),
    _ep(
        "open_get_entity",
        "open",
        TextQuery,
        _text("Exact entity name from open_search_entity_by_name."),
        "Get an encyclopedia entity: summary text, infobox fields (summary_structured) and "
        "raw wiki text.",
    ),
    # movie ------------------------------------------------------------------------------
    _ep(
        "movie_get_person_info",
        "movie",
        TextQuery,
        _text("Person name to search for."),
        "Search people of film by name; returns up to 10 person records (id, name, birthday, "
        "acted and directed movie ids, Oscar awards).",
        ranked=True,
    ),
    _ep(
        "movie_get_movie_info",
        "movie",
        TextQuery,
        _text("Movie title to search for."),
        "Search movies by title; returns up to 10 movie records (id, title, release date, budget, "
        "revenue, rating, genres, cast, crew, Oscar awards).",
        ranked=True,
    ),
    _ep(
        "movie_get_year_info",
        "movie",
        TextQuery,
        _text("Year as a string, between 1990 and 2021."),
        "Get a year's movie ids and the Oscar awards of that year's ceremony.",
    ),
    _ep(
        "movie_get_movie_info_by_id",
        "movie",
        IntQuery,
        _int("Movie id."),
        "Get one movie record by its id.",
    ),
    _ep(
        "movie_get_person_info_by_id",
        "movie",
        IntQuery,
        _int("Person id."),
        "Get one person record by its id.",
    ),
    # finance ----------------------------------------------------------------------------
    _ep(
        "finance_get_company_name",
        "finance",
        TextQuery,
        _text("Company name or words from it."),
        "Search company names; returns up to 10 exact names.",
        ranked=True,
    ),
    _ep(
        "finance_get_ticker_by_name",
        "finance",
        TextQuery,
        _text("Exact company name from finance_get_company_name."),
        "Get the ticker symbol of a company.",
    ),
    _ep(
        "finance_get_price_history",
        "finance",
        TextQuery,
        _TICKER,
        "Daily open, high, low, close and volume over one year, keyed by date.",
    ),
    _ep(
        "finance_get_detailed_price_history",
        "finance",
        TextQuery,
        _TICKER,
        "Per-minute open, high, low, close and volume over the last five trading days.",
    ),
    _ep(
        "finance_get_dividends_history",
        "finance",
        TextQuery,
        _TICKER,
        "Dividends paid, keyed by date.",
    ),
    _ep(
        "finance_get_market_capitalization",
        "finance",
        TextQuery,
        _TICKER,
        "Market capitalisation in USD.",
    ),
    _ep("finance_get_eps", "finance", TextQuery, _TICKER, "Forward earnings per share."),
    _ep("finance_get_pe_ratio", "finance", TextQuery, _TICKER, "Forward price-to-earnings ratio."),
    _ep(
        "finance_get_info",
        "finance",
        TextQuery,
        _TICKER,
        "Company profile and key figures (sector, address, ratios, officers...).",
    ),
    # music ------------------------------------------------------------------------------
    _ep(
        "music_search_artist_entity_by_name",
        "music",
        TextQuery,
        _text("Artist name to search for."),
        "Search artists by name; returns up to 10 exact artist names.",
        ranked=True,
    ),
    _ep(
        "music_search_song_entity_by_name",
        "music",
        TextQuery,
        _text("Song title to search for."),
        "Search songs by title; returns up to 10 exact song titles.",
        ranked=True,
    ),
    _ep(
        "music_get_billboard_rank_date",
        "music",
        RankDate,
        (
            Param("rank", "integer", "Billboard Hot 100 rank, 1 to 100."),
            Param(
                "date",
                "string",
                "Optional chart date, YYYY-MM-DD; omit for every date.",
                required=False,
            ),
        ),
        "Songs and artists at a Billboard Hot 100 rank: [[songs], [artists]].",
    ),
    _ep(
        "music_get_billboard_attributes",
        "music",
        BillboardAttribute,
        (
            Param("date", "string", "Chart date, YYYY-MM-DD."),
            Param(
                "attribute", "string", "One of rank_last_week, weeks_in_chart, top_position, rank."
            ),
            Param("song_name", "string", "Exact song title."),
        ),
        "A song's Billboard Hot 100 figure on a chart date.",
    ),
    _ep(
        "music_grammy_get_best_artist_by_year",
        "music",
        IntQuery,
        _GRAMMY_YEAR,
        "Grammy Best New Artist of a year.",
    ),
    _ep(
        "music_grammy_get_award_count_by_artist",
        "music",
        TextQuery,
        _ARTIST,
        "Number of Grammy awards of an artist.",
    ),
    _ep(
        "music_grammy_get_award_count_by_song",
        "music",
        TextQuery,
        _SONG,
        "Number of Grammy awards of a song.",
    ),
    _ep(
        "music_grammy_get_best_song_by_year",
        "music",
        IntQuery,
        _GRAMMY_YEAR,
        "Grammy Song Of The Year of a year.",
    ),
    _ep(
        "music_grammy_get_award_date_by_artist",
        "music",
        TextQuery,
        _ARTIST,
        "Years in which an artist won Grammy awards.",
    ),
    _ep(
        "music_grammy_get_best_album_by_year",
        "music",
        IntQuery,
        _GRAMMY_YEAR,
        "Grammy Album Of The Year of a year.",
    ),
    _ep(
        "music_grammy_get_all_awarded_artists",
        "music",
        None,
        (),
        "Every artist who won the Grammy Best New Artist award.",
    ),
    _ep(
        "music_get_artist_birth_place",
        "music",
        TextQuery,
        _ARTIST,
        "Country (ISO 3166 two-letter code) where an artist was born or a band formed.",
    ),
    _ep(
        "music_get_artist_birth_date",
        "music",
        TextQuery,
        _ARTIST,
        "Birth date of an artist, or the date a band started.",
    ),
    _ep("music_get_members", "music", TextQuery, _text("Exact band name."), "Members of a band."),
    _ep(
        "music_get_lifespan",
        "music",
        TextQuery,
        _ARTIST,
        "[start, end] dates of an artist or band.",
    ),
    _ep("music_get_song_author", "music", TextQuery, _SONG, "Author of a song."),
    _ep(
        "music_get_song_release_country",
        "music",
        TextQuery,
        _SONG,
        "Country (ISO 3166 two-letter code) where a song was released.",
    ),
    _ep("music_get_song_release_date", "music", TextQuery, _SONG, "Release date of a song."),
    _ep(
        "music_get_artist_all_works",
        "music",
        TextQuery,
        _ARTIST,
        "Every work (songs, albums, recordings) of an artist.",
    ),
    # sports -----------------------------------------------------------------------------
    _ep(
        "sports_soccer_get_games_on_date",
        "soccer",
        SportsDate,
        _SPORTS,
        "Soccer matches on a day, month or year (major European leagues): per column, one cell "
        "per team and match (venue, result, GF goals for, GA goals against, xG, possession, "
        "opponent, captain...).",
    ),
    _ep(
        "sports_nba_get_games_on_date",
        "nba",
        SportsDate,
        _SPORTS,
        "NBA games on a day, month or year: per column, one cell per game (game_id, "
        "team_name_home, team_name_away, wl_home, pts_home, pts_away...).",
    ),
    _ep(
        "sports_nba_get_play_by_play_data_by_game_ids",
        "nba",
        GameIds,
        (Param("game_ids", "array", 'NBA game ids, e.g. ["0022200547"].'),),
        "Play-by-play events of NBA games (period, clocks, descriptions, players, score).",
    ),
)

BY_NAME: dict[str, Endpoint] = {e.name: e for e in ENDPOINTS}
BY_PATH: dict[str, Endpoint] = {e.path: e for e in ENDPOINTS}
