"""Ranked name search: BM25 over normalised names, answers expanded to the original spellings."""

from __future__ import annotations

from collections.abc import Iterable

from ragmeter.kg.bm25 import NameIndex, Scheme
from ragmeter.kg.text import name_tokens, normalize_name

MAX_RESULTS = 10


class NameSearch:
    """Finds names by BM25 over their normalised forms.

    Names that normalise alike ("Gaga", "Ga-Ga") form one document; a hit returns
    all of them in the order they were given, and the answer is cut to ``n`` names.
    """

    def __init__(self, names: Iterable[str], *, scheme: Scheme, sort_corpus: bool) -> None:
        groups: dict[str, list[str]] = {}
        for name in names:
            groups.setdefault(normalize_name(name), []).append(name)
        # The open and music searches index the normalised names in sorted order, finance in
        # the table's order; the order only breaks ties between equal scores.
        keys = sorted(groups) if sort_corpus else list(groups)
        self._groups = [groups[k] for k in keys]
        self.index = NameIndex([k.split() for k in keys], scheme=scheme)

    def __len__(self) -> int:
        return len(self._groups)

    def search(self, query: str, n: int = MAX_RESULTS) -> list[str]:
        """Up to ``n`` names best matching ``query``."""
        out: list[str] = []
        for d in self.index.top(name_tokens(query), n):
            out.extend(self._groups[d])
            if len(out) >= n:
                break
        return out[:n]
