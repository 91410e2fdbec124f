"""Numbers written as they are spoken, read as digits."""

from __future__ import annotations

import pytest

from ragmeter.scoring.crag.spoken import spoken_numbers_as_digits


@pytest.mark.parametrize(
    ("said", "digits"),
    [
        ("released in nineteen ninety-five", "released in 1995"),
        ("in twenty twenty-three", "in 2023"),
        ("in twenty ten", "in 2010"),
        ("in June two thousand seven", "in June 2007"),
        ("won thirty-two Grammys", "won 32 Grammys"),
        ("lost one hundred six to ninety-five", "lost 106 to 95"),
        ("three thousand three hundred seventy-seven dollars", "3377 dollars"),
        ("two hundred and three million dollars", "203 million dollars"),
        ("about one point one million people", "about 1.1 million people"),
        ("twelve point five percent", "12.5 percent"),
        ("born on July tenth, nineteen thirty-nine", "born on July 10, 1939"),
        ("On April twenty-second, twenty twenty-three", "On April 22, 2023"),
        # The day before its month, British style; cents said after the dollars.
        ("on the tenth of March, twenty twenty-four", "on 10 March, 2024"),
        ("on the twenty-first of June", "on 21 June"),
        ("at one hundred eighty-nine dollars and eighty cents", "at $189.80"),
        # "and" joins one number only after a hundred or a scale: a record is two numbers.
        ("went fifty-six and twenty-six", "went 56 and 26"),
        ("one hundred and five points", "105 points"),
        ("in two thousand and eight", "in 2008"),
    ],
)
def test_spoken_figures_become_digits(said: str, digits: str) -> None:
    assert spoken_numbers_as_digits(said) == digits


@pytest.mark.parametrize(
    "text",
    ["one of the best", "Fast Five", "six Grammys", "the second album", "five six seven"],
)
def test_lone_number_words_and_non_numbers_stay(text: str) -> None:
    assert spoken_numbers_as_digits(text) == text
