"""BM25 ranking of entity names, as the official mock API ranks them.

Every document is one normalised name split on spaces. Two scoring schemes
exist in the official API and both are kept:

* ``okapi`` (open, movie and finance name searches): idf is
  ``log(N - n + 0.5) - log(n + 0.5)``; a negative idf is replaced by
  ``epsilon`` times the mean idf of the vocabulary; the ten best documents are
  taken over the *whole* corpus and those scoring exactly zero are dropped.
* ``cutoff`` (music searches): the same idf without the floor, but terms whose
  idf is at most ``idf_cutoff`` are ignored; every document that contains a
  remaining query term is a candidate, whatever the sign of its score.

The official cutoff (4) drops every term of a corpus of fewer than about 80
names, so a small knowledge graph (a fixture, a user's subset) could never
match anything. It is therefore applied only from ``cutoff_min_docs`` names
on; the full CRAG music corpus is far above that, so there it behaves exactly
like the official search.

Scores come from inverted postings of the query terms only, so a query costs
time in proportion to how many names share its words, not to the corpus size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

Scheme = Literal["okapi", "cutoff"]

K1 = 1.5
B = 0.75
EPSILON = 0.25
IDF_CUTOFF = 4.0
CUTOFF_MIN_DOCS = 10_000

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class NameIndex:
    """A BM25 index over tokenised names, queried by token lists."""

    def __init__(
        self,
        documents: Sequence[Sequence[str]],
        *,
        scheme: Scheme,
        k1: float = K1,
        b: float = B,
        epsilon: float = EPSILON,
        idf_cutoff: float = IDF_CUTOFF,
        cutoff_min_docs: int = CUTOFF_MIN_DOCS,
    ) -> None:
        self.scheme: Scheme = scheme
        self.n_docs = len(documents)
        vocab: dict[str, int] = {}
        term_ids: list[int] = []
        doc_ids: list[int] = []
        freqs: list[int] = []
        doc_len = np.zeros(self.n_docs, dtype=np.float64)
        for d, doc in enumerate(documents):
            doc_len[d] = len(doc)
            counts: dict[str, int] = {}
            for tok in doc:
                counts[tok] = counts.get(tok, 0) + 1
            for tok, c in counts.items():
                term_ids.append(vocab.setdefault(tok, len(vocab)))
                doc_ids.append(d)
                freqs.append(c)
        self._vocab = vocab
        terms = np.asarray(term_ids, dtype=np.int64)
        # Group postings by term (stable, so each term's documents stay in corpus order).
        order = np.argsort(terms, kind="stable")
        self._post_doc: IntArray = np.asarray(doc_ids, dtype=np.int64)[order]
        tf = np.asarray(freqs, dtype=np.float64)[order]
        df = np.bincount(terms, minlength=len(vocab)).astype(np.float64)
        self._start: IntArray = np.concatenate(([0], np.cumsum(df))).astype(np.int64)

        n = float(self.n_docs)
        idf: FloatArray = np.log(n - df + 0.5) - np.log(df + 0.5)
        active = np.ones(len(vocab), dtype=bool)
        if scheme == "okapi":
            mean_idf = float(idf.mean()) if len(idf) else 0.0
            idf = np.where(idf < 0, epsilon * mean_idf, idf)
        elif self.n_docs >= cutoff_min_docs:
            active = idf > idf_cutoff
        self._idf = idf
        self._active = active

        avgdl = float(doc_len.mean()) if self.n_docs else 0.0
        dl = doc_len[self._post_doc]
        norm = k1 * (1.0 - b + b * dl / avgdl) if avgdl > 0 else np.full_like(dl, k1)
        # The term-frequency part of BM25 depends only on (term, document): computed once.
        self._post_weight: FloatArray = tf * (k1 + 1.0) / (tf + norm)

    def idf(self, token: str) -> float | None:
        """The idf used for ``token`` (``None`` if unknown or ignored by the cutoff)."""
        t = self._vocab.get(token)
        if t is None or not self._active[t]:
            return None
        return float(self._idf[t])

    def sparse_scores(self, query: Sequence[str]) -> tuple[IntArray, FloatArray]:
        """Documents holding at least one (kept) query term, with their scores."""
        docs: list[IntArray] = []
        scores: list[FloatArray] = []
        for tok in query:  # a repeated query word counts again, as in the official scorers
            t = self._vocab.get(tok)
            if t is None or not self._active[t]:
                continue
            s, e = int(self._start[t]), int(self._start[t + 1])
            docs.append(self._post_doc[s:e])
            scores.append(self._idf[t] * self._post_weight[s:e])
        if not docs:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        if len(docs) == 1:
            return docs[0], scores[0]
        uniq, inverse = np.unique(np.concatenate(docs), return_inverse=True)
        summed = np.bincount(inverse, weights=np.concatenate(scores), minlength=len(uniq))
        return uniq.astype(np.int64), summed.astype(np.float64)

    def scores(self, query: Sequence[str]) -> FloatArray:
        """Dense scores of every document (zeros where no query term occurs)."""
        out = np.zeros(self.n_docs, dtype=np.float64)
        docs, vals = self.sparse_scores(query)
        out[docs] = vals
        return out

    def top(self, query: Sequence[str], n: int = 10) -> list[int]:
        """Indices of the best ``n`` documents, best first (ties: corpus order)."""
        docs, vals = self.sparse_scores(query)
        if self.scheme == "cutoff":
            return _best(docs, vals, n)
        positive = vals > 0
        best = _best(docs[positive], vals[positive], n)
        if len(best) < n:
            # The official search ranks all documents and then drops zero scores, so negative
            # scores only surface when fewer zero-score documents than free places exist.
            nonzero = int(np.count_nonzero(vals))
            zeros = self.n_docs - nonzero
            room = n - len(best) - zeros
            if room > 0:
                negative = vals < 0
                best += _best(docs[negative], vals[negative], room)
        return best


def _best(docs: IntArray, vals: FloatArray, n: int) -> list[int]:
    """The ``n`` highest-scoring documents, ties broken by document index."""
    if n <= 0 or len(docs) == 0:
        return []
    if len(docs) > n:
        # Keep everything scoring at least the n-th best value, then order exactly.
        kth = np.partition(vals, len(vals) - n)[len(vals) - n]
        keep = vals >= kth
        docs, vals = docs[keep], vals[keep]
    order = np.lexsort((docs, -vals))[:n]
    return [int(i) for i in docs[order]]
