"""Figures and dates in European formats, read as CRAG's golds write them."""

from __future__ import annotations

import pytest

from ragmeter.scoring.crag.locale_formats import locale_figures_as_us


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("a ratio of 4,6 to 1", "a ratio of 4.6 to 1"),
        ("USD 5,33 a share", "USD 5.33 a share"),
        ("about 42,3 % of votes", "about 42.3 % of votes"),
        ("1.234,56 euros", "1,234.56 euros"),
        ("1.234.567 viewers", "1,234,567 viewers"),
        ("about 1 560 words", "about 1,560 words"),
        ("3 377 USD", "3,377 USD"),
        ("€ 2,5 mrd", "€ 2.5 billion"),
        ("USD 192 mln", "USD 192 million"),
        # "1.234" is a US decimal too; it is a thousands group beside a decimal comma.
        ("1.234 km, or 0,7 of it", "1,234 km, or 0.7 of it"),
        # The Indian numbering system: lakh and crore, and groups of two above the thousands.
        ("sold 60 crore units", "sold 600 million units"),
        ("12.4 lakh visitors.", "1.24 million visitors."),
        ("$120 crore", "$1.2 billion"),
        ("2 lakh seats", "200,000 seats"),
        ("12,40,512 people", "1,240,512 people"),
    ],
)
def test_european_figures_read_as_us_figures(written: str, read: str) -> None:
    assert locale_figures_as_us(written, ["x"]) == read


@pytest.mark.parametrize(
    "text",
    [
        "It was 1,234 and 1.5",  # US figures
        "scores of 1,2,3",  # a run of numbers, no decimal comma
        "in 12 100-meter races",  # a count before a compound
        "in 2023 123 people",  # a year, then a count
        "a 0,125 share",  # three digits after a comma: left as it is
        "1.234 km",  # a US decimal without a decimal comma beside it
    ],
)
def test_us_figures_and_ambiguous_forms_stay(text: str) -> None:
    assert locale_figures_as_us(text, ["x"]) == text


def test_an_ambiguous_slash_date_is_read_day_first_where_the_gold_says_so() -> None:
    said = "Their last match was on 10/03/2024, a 4-0 win."
    assert locale_figures_as_us(said, ["2024-03-10"]) == (
        "Their last match was on 10 March 2024, a 4-0 win."
    )
    # Month first is the gold's reading, or the reply writes months first elsewhere: as is.
    assert locale_figures_as_us(said, ["2024-10-03"]) == said
    both = "From 03/26/2024 to 10/03/2024."
    assert locale_figures_as_us(both, ["2024-03-10"]) == both
    # No date in the gold: nothing to read it against.
    assert locale_figures_as_us(said, ["aston villa"]) == said
