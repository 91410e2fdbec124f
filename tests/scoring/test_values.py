"""Values read out of answers, and when two of them are the same."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ragmeter.scoring.crag.values import (
    find_values,
    same_value,
    surely_different,
    with_implied_year,
)


def one(text: str):  # type: ignore[no-untyped-def]
    values = find_values(text)
    assert len(values) == 1, values
    return values[0]


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("7/20/74", "July 20, 1974"),
        ("1974-07-20", "20 July 1974"),
        ("july 20, 1974", "Jul. 20th, 1974"),
        ("$50m", "$50 million"),
        ("$50 million", "50,000,000 dollars"),
        ("$1.2bn", "$1,200 million"),
        ("12.5%", "12.5 percent"),
        ("618 ft", "618.23 feet"),
        ("$310.17", "$310.2"),
        ("101,756,123", "102 million"),
        ("3rd", "third"),
        ("2019", "March 3, 2019"),
        ("twelve", "12"),
        ("12", "a dozen"),
        ("6", "half a dozen"),
        # A capital letter glued to a number is its scale, with or without a currency sign.
        ("52.5 million", "52.5M"),
        ("$60.9 billion", "60.9B"),
        ("3,400", "3.4K"),
        ("2.1 billion", "2.1bn"),
        # Halfway between two whole numbers, a figure rounds either way.
        ("62.5%", "62%"),
        ("62.5%", "63%"),
    ],
)
def test_same_value_across_formats(gold: str, pred: str) -> None:
    assert same_value(one(gold), one(pred))
    assert not surely_different(one(gold), one(pred))


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("$2,237,578,268", "$2.16 billion"),
        ("3,576,873", "3.3 million"),
        ("2.81 trillion", "2.67 trillion"),
        ("1996-01-01", "02/01/1996"),
        ("12", "13"),
        ("2019", "2018"),
        ("7/20/74", "July 21, 1974"),
        ("45%", "54%"),
        ("62.5%", "61%"),
    ],
)
def test_different_values(gold: str, pred: str) -> None:
    assert not same_value(one(gold), one(pred))
    assert surely_different(one(gold), one(pred))


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("$3.2 billion", "3.2"),  # a scale left out is not proof of a different amount
        ("618 ft", "618 m"),  # other units
        ("2023-01-24", "January 24"),  # the gold's year is not stated
        ("2,237,578", "2.2 million"),  # rounding beyond 1.5% is neither proven same nor different
    ],
)
def test_undecided_pairs(gold: str, pred: str) -> None:
    assert not same_value(one(gold), one(pred))
    assert not surely_different(one(gold), one(pred))


def test_precision_and_kinds() -> None:
    v = one("$102 million")
    assert v.kind == "money" and v.amount == Decimal(102_000_000)
    assert v.precision == Decimal(1_000_000)
    assert one("151 m").kind == "number"  # a letter scale needs a currency sign
    assert one("over 4,000 miles").qualified
    assert one("it may be 5").kind == "number"  # "may" alone is no month
    assert find_values("COVID-19 hit in") == []  # a number glued to a word is part of a name
    # Grams glued to their number are grams; an upper-case "G" is a network generation.
    assert [(v.amount, v.unit) for v in find_values("14g of fat, 200mg")] == [
        (14, "gram"),
        (200, "milligram"),
    ]
    assert find_values("a 5G phone") == []
    # An area's unit is a square or two words, and the forms are one unit.
    areas = find_values("1,122 m², 1122 square meters, 12,077 sq ft, 1,545 sq mi")
    assert [v.unit for v in areas] == ["square metre"] * 2 + ["square foot", "square mile"]
    assert not surely_different(areas[0], areas[1])
    assert surely_different(one("14g"), one("21 g"))
    assert [v.amount for v in find_values("won 3-2")] == [3, 2]
    # A range of days is two dates; the second year of a season is a year.
    days = find_values("Feb 1-7, 2024")
    assert [(v.kind, v.month, v.day, v.year) for v in days] == [
        ("date", 2, 1, 2024),
        ("date", 2, 7, 2024),
    ]
    assert [v.amount for v in find_values("the 2022\u201323 season")] == [2022, 2023]
    assert [v.amount for v in find_values("from 1929-1941")] == [1929, 1941]
    # Years are not written with a thousands separator.
    assert one("1960").is_year_like and not one("1,560 words").is_year_like


def test_a_bound_after_a_figure_outweighs_an_approximation_before_it() -> None:
    values = find_values("with roughly 10+ No. 1s, about 5 and 140-plus goals")
    assert [(v.text, v.qualifier) for v in values][:2] == [("10", "over"), ("5", "about")]


def test_fiscal_years_and_filing_names() -> None:
    found = find_values("From the 10-Ks: FY2022 had the highest gross profit ($170.8B).")
    assert [(v.text, v.is_year_like) for v in found] == [("2022", True), ("$170.8B", False)]
    assert find_values("See the 8-K and the 20-F.") == []
    assert [v.text for v in find_values("They won 10 games in FY 2023.")] == ["10", "2023"]


def test_a_date_without_its_year_takes_the_golds_when_no_other_year_is_given() -> None:
    gold = ["2024-03-17"]
    said = "Their next game is on Sunday, March 17."
    assert with_implied_year(said, said, gold) == "Their next game is on Sunday, March 17, 2024."
    # Another year in the reply dates something else; another day is left to differ.
    other = "March 17, after the 2023 loss"
    assert with_implied_year(other, other, gold) == other
    assert with_implied_year("March 18", "March 18", gold) == "March 18"
    # The cut fell in the year it was writing: no year is taken as read.
    cut = "She was born on March 17, 19"
    assert with_implied_year(cut, cut, gold) == cut
    # A reasoning's final answer takes the year the reasoning gave, of the gold's century.
    reply = "Mel Brooks was born on June 28, 1926. Answer: June 28."
    assert with_implied_year("June 28.", reply, ["6/28/26"]) == "June 28, 1926."
    assert with_implied_year("June 28.", "June 28.", ["6/28/26"]) == "June 28."


def test_a_tilde_before_a_figure_makes_it_approximate() -> None:
    (rough,) = find_values("~13% of the year")
    assert rough.qualifier == "approximately" and not rough.bound
    (priced,) = find_values("≈ $4.2 billion")
    assert priced.qualified
