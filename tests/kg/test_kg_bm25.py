"""BM25 name ranking: the official scoring, checked against rank_bm25 on the real company names."""

from __future__ import annotations

import csv
import math
import random
from typing import Any

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from ragmeter.kg.bm25 import IDF_CUTOFF, NameIndex
from ragmeter.kg.search import NameSearch
from ragmeter.kg.text import normalize_name


@pytest.fixture(scope="module")
def company_corpus(mirror_file: Any) -> list[list[str]]:
    with mirror_file("crag/kg/finance/company_name.dict").open(newline="") as f:
        names = [row["Name"] for row in csv.DictReader(f)]
    return [n.split() for n in dict.fromkeys(normalize_name(n) for n in names)]


def official_top(scores: np.ndarray, n: int = 10) -> list[int]:
    """The official rule: the n best of all documents, zero scores dropped."""
    order = np.argsort(scores, kind="stable")[::-1][:n]
    return [int(i) for i in order if scores[i] != 0]


@pytest.mark.parametrize(
    "query",
    [
        "apple",
        "inflection point acquisition corp ii unit",
        "bank of america",
        "the the inc",
        "zzz",
        "",
    ],
)
def test_okapi_scores_equal_rank_bm25_on_real_company_names(
    company_corpus: list[list[str]], query: str
) -> None:
    ours = NameIndex(company_corpus, scheme="okapi")
    reference = BM25Okapi(company_corpus)
    tokens = query.split()
    np.testing.assert_allclose(
        ours.scores(tokens), reference.get_scores(tokens), rtol=1e-9, atol=1e-12
    )
    ref_scores = reference.get_scores(tokens)
    top = ours.top(tokens)
    assert sorted(ref_scores[top]) == pytest.approx(sorted(ref_scores[official_top(ref_scores)]))


def test_company_search_finds_both_apple_companies(company_corpus: list[list[str]]) -> None:
    index = NameIndex(company_corpus, scheme="okapi")
    hits = [" ".join(company_corpus[i]) for i in index.top(["apple"])]
    assert hits == ["apple inc common stock", "apple hospitality reit inc common shares"]


def test_okapi_top_matches_the_official_rule_on_random_corpora() -> None:
    rng = random.Random(7)
    words = ["a", "b", "c", "d", "e", "f"]
    for _ in range(200):
        corpus = [rng.choices(words, k=rng.randint(0, 4)) for _ in range(rng.randint(1, 25))]
        query = rng.choices(words, k=rng.randint(1, 3))
        index = NameIndex(corpus, scheme="okapi")
        scores = index.scores(query)
        if any(corpus):  # rank_bm25 divides by the mean length, so it needs one word somewhere
            np.testing.assert_allclose(scores, BM25Okapi(corpus).get_scores(query), atol=1e-12)
        got = index.top(query, 10)
        assert sorted(scores[got]) == pytest.approx(sorted(scores[official_top(scores)]))


def test_negative_scores_surface_only_where_zero_scores_leave_room() -> None:
    # "a" and "z" are in most documents, so the mean idf and with it the score of "a" are negative.
    corpus = [["a"], ["a"], ["a", "b"]]
    index = NameIndex(corpus, scheme="okapi")
    assert all(index.scores(["a"]) < 0)
    assert sorted(index.top(["a"], 10)) == [0, 1, 2]
    for zero_docs, expected in ((5, 5), (12, 0)):
        corpus = [["a", "z"]] * 15 + [["z"]] * zero_docs
        index = NameIndex(corpus, scheme="okapi")
        scores = index.scores(["a"])
        assert scores.min() < 0
        top = index.top(["a"], 10)
        assert len(top) == len(official_top(scores, 10)) == expected
        assert all(scores[top] < 0)


def cutoff_reference(corpus: list[list[str]], query: list[str], alpha: float) -> dict[int, float]:
    """Scores of the documents sharing a kept term, straight from the formula."""
    n = len(corpus)
    avgdl = sum(map(len, corpus)) / n
    out: dict[int, float] = {}
    for tok in query:
        df = sum(tok in d for d in corpus)
        if df == 0:
            continue
        idf = math.log(n - df + 0.5) - math.log(df + 0.5)
        if idf <= alpha:
            continue
        for i, d in enumerate(corpus):
            tf = d.count(tok)
            if tf:
                out[i] = out.get(i, 0.0) + idf * tf * 2.5 / (
                    tf + 1.5 * (0.25 + 0.75 * len(d) / avgdl)
                )
    return out


def test_cutoff_scheme_ignores_common_terms_in_a_large_corpus() -> None:
    corpus = [["common", f"w{i}"] for i in range(12_000)] + [["rare", "w5"]]
    index = NameIndex(corpus, scheme="cutoff")
    assert index.idf("common") is None  # idf far below the official cutoff of 4
    assert index.idf("w5") is not None and index.idf("w5") > IDF_CUTOFF
    expected = cutoff_reference(corpus, ["common", "w5"], IDF_CUTOFF)
    docs, scores = index.sparse_scores(["common", "w5"])
    assert dict(zip(docs.tolist(), scores.tolist(), strict=True)) == pytest.approx(expected)
    assert sorted(index.top(["common", "w5"])) == [5, 12_000]


def test_cutoff_scheme_keeps_every_term_in_a_small_corpus() -> None:
    corpus = [["lady", "gaga"], ["gaga"], ["el", "gaga"], ["lady"], ["adele"]]
    index = NameIndex(corpus, scheme="cutoff")
    expected = cutoff_reference(corpus, ["lady", "gaga"], -math.inf)
    docs, scores = index.sparse_scores(["lady", "gaga"])
    assert dict(zip(docs.tolist(), scores.tolist(), strict=True)) == pytest.approx(expected)
    # Candidates are every document sharing a word, whatever the sign of the score.
    assert sorted(index.top(["lady", "gaga"])) == [0, 1, 2, 3]


def test_name_search_groups_spellings_and_caps_at_ten() -> None:
    names = ["Lady Gaga", "Ga-Ga", "Gaga", "El Gaga", "Lady", "LADY", ".lady.", "Adele"]
    search = NameSearch(names, scheme="cutoff", sort_corpus=True)
    assert len(search) == 5
    assert set(search.search("lady gaga")) == set(names) - {"Adele"}
    assert search.search("adele") == ["Adele"]
    many = NameSearch([f"Name {i}" for i in range(30)], scheme="okapi", sort_corpus=False)
    assert len(many.search("name")) == 10


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("Ga-Ga", "gaga"),
        ("I can feel IT", "i can feel it"),
        ("Florida City, Florida", "florida city florida"),
        ("snake_case  name", "snake case name"),
        ("Almería!", "almería"),
        ("", ""),
    ],
)
def test_normalize_name(raw: str, normalized: str) -> None:
    assert normalize_name(raw) == normalized
