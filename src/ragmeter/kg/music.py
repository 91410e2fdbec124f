"""The music domain: artists, songs, Billboard Hot 100 and Grammy awards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ragmeter.kg._files import Lazy, open_frame, open_kv
from ragmeter.kg.errors import KGDataError
from ragmeter.kg.formats import GRAMMY, MUSIC_DICTS, PICKLE_SUFFIX, FrameFile, frame_path
from ragmeter.kg.payload import RawJSON, Result
from ragmeter.kg.search import NameSearch

FIRST_GRAMMY_YEAR = 1957
LAST_GRAMMY_YEAR = 2019
BEST_NEW_ARTIST = "Best New Artist"
SONG_OF_THE_YEAR = "Song Of The Year"
ALBUM_OF_THE_YEAR = "Album Of The Year"
GRAMMY_COLUMNS = ("year", "category", "nominee", "artist", "workers")


def _as_text(cell: Any) -> str:
    """A cell as the official substring tests see it: pandas shows a missing cell as "nan"."""
    return "nan" if cell is None else str(cell)


class GrammyTable:
    """The Grammy awards table, column by column."""

    def __init__(self, frame: FrameFile, path: Path) -> None:
        missing = [c for c in GRAMMY_COLUMNS if c not in frame.columns]
        if missing:
            raise KGDataError(f"the Grammy table lacks the columns {missing}", path)
        cols = {name: [row[i] for row in frame.data] for i, name in enumerate(frame.columns)}
        self.year: list[Any] = cols["year"]
        self.category: list[Any] = cols["category"]
        self.nominee: list[Any] = cols["nominee"]
        # The per-person queries test substrings of these three columns' text.
        self._texts = [
            [_as_text(c) for c in cols[name]] for name in ("nominee", "artist", "workers")
        ]

    def _nominees(self, category: str, year: int) -> list[Any] | None:
        if year < FIRST_GRAMMY_YEAR or year > LAST_GRAMMY_YEAR:
            return None
        return [
            n
            for c, y, n in zip(self.category, self.year, self.nominee, strict=True)
            if c == category and y is not None and y == year
        ]

    def best_new_artist(self, year: int) -> list[Any] | None:
        """Best New Artist of ``year``."""
        return self._nominees(BEST_NEW_ARTIST, year)

    def song_of_the_year(self, year: int) -> list[Any] | None:
        """Song Of The Year of ``year``."""
        return self._nominees(SONG_OF_THE_YEAR, year)

    def album_of_the_year(self, year: int) -> list[Any] | None:
        """Album Of The Year of ``year``."""
        return self._nominees(ALBUM_OF_THE_YEAR, year)

    def count_by_artist(self, name: str) -> int:
        """Rows naming ``name`` in nominee, artist or workers, counted once per column."""
        return sum(name in text for column in self._texts for text in column)

    def count_by_song(self, song: str) -> int:
        """Rows whose nominee is exactly ``song``."""
        return sum(1 for n in self.nominee if n == song)

    def years_by_artist(self, name: str) -> list[int]:
        """Years of the rows naming ``name``.

        The official API collects matching row numbers and then years through Python
        sets; doing the same steps gives the same (hash-determined) order of years.
        """
        rows = [i for column in self._texts for i, text in enumerate(column) if name in text]
        years = [self.year[i] for i in list(set(rows))]
        return [int(y) for y in list(set(years)) if y is not None]

    def all_best_new_artists(self) -> list[Any]:
        """Every Best New Artist, first appearance first."""
        seen: dict[Any, None] = {}
        for c, n in zip(self.category, self.nominee, strict=True):
            if c == BEST_NEW_ARTIST and n is not None:
                seen.setdefault(n, None)
        return list(seen)


class MusicStore:
    """Music answers from the converted music dictionaries and Grammy table."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.artists = open_kv(root, MUSIC_DICTS["artist"], PICKLE_SUFFIX)
        self.songs = open_kv(root, MUSIC_DICTS["song"], PICKLE_SUFFIX)
        self.works = open_kv(root, MUSIC_DICTS["artist_works"], PICKLE_SUFFIX)
        self.rank_hot100 = open_kv(root, MUSIC_DICTS["rank_hot100"], PICKLE_SUFFIX)
        self.song_hot100 = open_kv(root, MUSIC_DICTS["song_hot100"], PICKLE_SUFFIX)
        self.grammy = GrammyTable(open_frame(root, GRAMMY, PICKLE_SUFFIX), frame_path(root, GRAMMY))
        self._artist_search = Lazy(
            lambda: NameSearch(self.artists.keys(), scheme="cutoff", sort_corpus=True)
        )
        self._song_search = Lazy(
            lambda: NameSearch(self.songs.keys(), scheme="cutoff", sort_corpus=True)
        )

    # -- names ----------------------------------------------------------------------------
    def search_artist_entity_by_name(self, query: str) -> list[str]:
        """Up to 10 artist names matching ``query``."""
        return self._artist_search.get().search(query)

    def search_song_entity_by_name(self, query: str) -> list[str]:
        """Up to 10 song names matching ``query``."""
        return self._song_search.get().search(query)

    # -- Billboard --------------------------------------------------------------------------
    def get_billboard_rank_date(self, rank: int, date: str | None) -> list[Any]:
        """``[songs, artists]`` at ``rank`` on ``date`` (all dates when none is given)."""
        entries = self.rank_hot100.get(str(rank))
        if entries is None:
            return [None, None]
        if not isinstance(entries, list):
            raise KGDataError(
                f"rank {rank}: expected a list of chart entries", self.rank_hot100.path
            )
        songs: list[Any] = []
        artists: list[Any] = []
        for item in entries:
            if not isinstance(item, dict):
                raise KGDataError(
                    f"rank {rank}: a chart entry is not an object", self.rank_hot100.path
                )
            if date:
                if item.get("Date") == date:
                    return [[item.get("Song")], [item.get("Artist")]]
            else:
                songs.append(item.get("Song"))
                artists.append(item.get("Artist"))
        return [songs, artists]

    def get_billboard_attributes(self, date: str, attribute: str, song_name: str) -> Any:
        """``rank_last_week``, ``weeks_in_chart``, ``top_position`` or ``rank`` of a song."""
        by_date = self.song_hot100.get(song_name)
        if not isinstance(by_date, dict) or date not in by_date:
            return None
        row = by_date[date]
        if not isinstance(row, list) or len(row) < 7:
            raise KGDataError(
                f"{song_name!r} on {date}: expected a chart row of 7 fields", self.song_hot100.path
            )
        # A new entry has "-" as last week's rank in the last field, which shifts the others.
        if row[6] == "-":
            fields = {"rank_last_week": row[6], "weeks_in_chart": row[5], "top_position": row[4]}
        else:
            fields = {"rank_last_week": row[4], "weeks_in_chart": row[6], "top_position": row[5]}
        return fields.get(attribute, row[3])

    # -- Grammy -----------------------------------------------------------------------------
    def grammy_get_best_artist_by_year(self, year: int) -> Any:
        """Best New Artist of ``year`` (1957–2019)."""
        return self.grammy.best_new_artist(year)

    def grammy_get_award_count_by_artist(self, name: str) -> int:
        """How many Grammy rows name the artist."""
        return self.grammy.count_by_artist(name)

    def grammy_get_award_count_by_song(self, song: str) -> int:
        """How many Grammy rows have the song as nominee."""
        return self.grammy.count_by_song(song)

    def grammy_get_best_song_by_year(self, year: int) -> Any:
        """Song Of The Year of ``year``."""
        return self.grammy.song_of_the_year(year)

    def grammy_get_award_date_by_artist(self, name: str) -> list[int]:
        """Years in which the artist appears in the Grammy table."""
        return self.grammy.years_by_artist(name)

    def grammy_get_best_album_by_year(self, year: int) -> Any:
        """Album Of The Year of ``year``."""
        return self.grammy.album_of_the_year(year)

    def grammy_get_all_awarded_artists(self) -> list[Any]:
        """Every Best New Artist winner."""
        return self.grammy.all_best_new_artists()

    # -- artists and songs --------------------------------------------------------------------
    def _field(self, table: str, name: str, field: str) -> Any:
        entry = (self.artists if table == "artist" else self.songs).get(name)
        if not isinstance(entry, dict):
            return None
        return entry.get(field) or None

    def get_artist_birth_place(self, name: str) -> Any:
        """ISO 3166 country code of the artist."""
        return self._field("artist", name, "country")

    def get_artist_birth_date(self, name: str) -> Any:
        """Birth date of a person, or start date of a band."""
        return self._field("artist", name, "birth_date")

    def get_members(self, band: str) -> Any:
        """Members of a band, each once."""
        entry = self.artists.get(band)
        if not isinstance(entry, dict) or not isinstance(entry.get("members"), list):
            return None
        try:
            return list(dict.fromkeys(entry["members"]))
        except TypeError:
            raise KGDataError(f"{band!r}: members must be names", self.artists.path) from None

    def get_lifespan(self, name: str) -> list[Any]:
        """``[begin, end]`` of an artist; ``[None, None]`` when unknown."""
        entry = self.artists.get(name)
        if not isinstance(entry, dict) or "birth_date" not in entry or "end_date" not in entry:
            return [None, None]
        return [entry["birth_date"], entry["end_date"]]

    def get_song_author(self, song: str) -> Any:
        """Author of a song."""
        return self._field("song", song, "author")

    def get_song_release_country(self, song: str) -> Any:
        """ISO 3166 country code where the song was released."""
        return self._field("song", song, "country")

    def get_song_release_date(self, song: str) -> Any:
        """Release date of a song."""
        return self._field("song", song, "date")

    def get_artist_all_works(self, name: str) -> Result:
        """Every work of an artist."""
        raw = self.works.get_raw(name)
        return None if raw is None else RawJSON(raw)
