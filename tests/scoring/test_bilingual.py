"""A reply written in English and again in French is read by its English."""

from __future__ import annotations

import pytest
from test_crag_scorer import rules_label

from ragmeter.scoring.crag.bilingual import without_translation
from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.crag.truncate import Truncator


@pytest.fixture(scope="module")
def scorer(truncator: Truncator) -> CragScorer:
    return CragScorer([], truncator=truncator)


def test_the_french_paragraph_after_the_english_is_read_away() -> None:
    english = "The bridge was opened in 1932 and is about 1,149 metres long."
    french = "Le pont a été inauguré en 1932 et mesure environ 1 149 mètres de long."
    assert without_translation(f"{english}\n\n{french}") == english
    # Cut part-way through the French, and French first.
    assert without_translation(f"{english}\n\nLe pont a été inauguré en") == english
    assert without_translation(f"{french}\n\n{english}") == english
    # Names and titles a translation keeps do not make it English.
    titled = "Les Misérables a été publié en 1862 par Victor Hugo."
    assert without_translation(f"Les Misérables was published in 1862.\n\n{titled}") == (
        "Les Misérables was published in 1862."
    )


def test_an_english_reply_with_french_in_it_stays() -> None:
    for reply in (
        "The motto is « Liberté, égalité, fraternité ».",
        "Partners:\n\n- Élodie de la Tour (2001–2008), Remy Dufresne (2010–)\n\nBoth are private.",
        "Paris is the capital.\n\nIt is also the largest city.",
    ):
        assert without_translation(reply) == reply


def test_a_bilingual_list_is_scored_by_its_english_items(scorer: CragScorer) -> None:
    reply = (
        "The three largest are Canada, Russia and China.\n\n"
        "Les trois plus grands sont le Canada, la Russie et la Chine."
    )
    assert rules_label(scorer, "russia, canada, china", reply, "which are largest?") == (
        "correct",
        "list_items",
    )
