"""Phrase sets matched on word boundaries after normalisation.

A phrase file holds one phrase per line (``#`` starts a comment). A line that
starts with ``=`` matches only when it is the whole text; the others match
anywhere on word boundaries. Phrases and texts go through the same
`ragmeter.scoring.normalize.normalize_text`, so a file may be written in any
case and with any punctuation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ragmeter.errors import DataError
from ragmeter.scoring.normalize import normalize_text

__all__ = ["PhraseMatch", "PhraseSet", "builtin_phrase_file", "data_file"]


@dataclass(frozen=True)
class PhraseMatch:
    """A phrase found in a text: the phrase as written and where it sits in the normalised text."""

    phrase: str
    start: int
    end: int
    normalized: str
    whole: bool


class PhraseSet:
    """A curated set of phrases with a fast word-boundary matcher."""

    def __init__(self, anywhere: list[str], whole: list[str], source: str = "<memory>"):
        self.source = source
        self._anywhere: dict[str, str] = {}
        self._whole: dict[str, str] = {}
        for phrase in anywhere:
            key = normalize_text(phrase)
            if key:
                self._anywhere.setdefault(key, phrase)
        for phrase in whole:
            key = normalize_text(phrase)
            if key:
                self._whole.setdefault(key, phrase)
        # "Idon'tknow": a whole reply whose spaces a pipeline deleted is read as the phrase.
        self._squashed = {
            key.replace(" ", ""): phrase
            for key, phrase in (*self._whole.items(), *self._anywhere.items())
            if " " in key
        }
        # A clipped phrase is shorter than the longest phrase; longer texts are not tried.
        self._longest = max((len(k) for k in (*self._whole, *self._anywhere)), default=0)
        alternatives = sorted(self._anywhere, key=len, reverse=True)
        self._pattern: re.Pattern[str] | None = (
            re.compile(r"(?<!\S)(?:" + "|".join(re.escape(a) for a in alternatives) + r")(?!\S)")
            if alternatives
            else None
        )

    @classmethod
    def from_text(cls, text: str, source: str = "<memory>") -> PhraseSet:
        """Parse the phrase-file format."""
        anywhere: list[str] = []
        whole: list[str] = []
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("="):
                whole.append(line[1:].strip())
            else:
                anywhere.append(line)
        return cls(anywhere, whole, source=source)

    @classmethod
    def from_file(cls, path: str | Path) -> PhraseSet:
        """Read a phrase file; a missing or unreadable file is a `DataError`."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise DataError(f"cannot read phrase file: {exc.strerror or exc}", path=p) from None
        return cls.from_text(text, source=str(p))

    def __len__(self) -> int:
        return len(self._anywhere) + len(self._whole)

    @property
    def phrases(self) -> list[str]:
        """Every phrase as written in its source (whole-text ones prefixed with ``=``)."""
        return list(self._anywhere.values()) + ["=" + p for p in self._whole.values()]

    def search(self, text: str) -> PhraseMatch | None:
        """The first (leftmost, then longest) phrase in ``text``, or None."""
        return self.search_normalized(normalize_text(text))

    def search_normalized(self, norm: str) -> PhraseMatch | None:
        """Like `search`, for a text already passed through ``normalize_text``."""
        if norm in self._whole:
            return PhraseMatch(self._whole[norm], 0, len(norm), norm, True)
        if norm in self._anywhere:
            return PhraseMatch(self._anywhere[norm], 0, len(norm), norm, True)
        if norm in self._squashed:
            return PhraseMatch(self._squashed[norm], 0, len(norm), norm, True)
        m = self._pattern.search(norm) if self._pattern is not None else None
        if m is None:
            return self._clipped(norm)
        return PhraseMatch(self._anywhere[m.group(0)], m.start(), m.end(), norm, False)

    def _clipped(self, norm: str) -> PhraseMatch | None:
        """A whole text that is a phrase cut inside its last word ("i dont kno": a pipeline
        stripped the reply's closing letters, or a token cap fell there), as the phrase."""
        if not _CLIPPED_MIN_CHARS <= len(norm) < self._longest or " " not in norm:
            return None
        for key, phrase in (*self._whole.items(), *self._anywhere.items()):
            if len(key) > len(norm) and key.startswith(norm) and key[len(norm)] != " ":
                return PhraseMatch(phrase, 0, len(norm), norm, True)
        return None


# A clipped phrase keeps at least this much of itself ("i dont k"), so that a short answer
# ("i do") is not read as the start of a phrase.
_CLIPPED_MIN_CHARS = 8


def data_file(name: str, package: str = "ragmeter.scoring") -> Path:
    """Path of a data file (phrases, prompts, examples) in the ``data`` folder of ``package``."""
    ref = resources.files(package).joinpath("data").joinpath(name)
    return Path(str(ref))


def builtin_phrase_file(name: str, package: str = "ragmeter.scoring") -> Path:
    """Path of a phrase file shipped in the ``data`` folder of ``package``."""
    return data_file(name, package)
