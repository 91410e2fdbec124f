"""One name in two spellings: joined words, abbreviations, acronyms, country codes."""

from __future__ import annotations

import pytest

from ragmeter.scoring.crag.names import acronym_of, named_by_initial, named_within, same_name
from ragmeter.scoring.crag.rules import Rules


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("MrBeast", "mr. beast"),
        ("Manchester United", "manchester utd"),
        ("MIT", "massachusetts institute of technology"),
        ("WBA", "World Boxing Association"),
        ("usa", "the United States"),
        ("Kahoʻolawe", "kahoolawe"),  # the okina is an apostrophe, not a letter
        ("The Mariana Trench", "marianas trench"),
        ("joule", "joules"),
        ("John Clauser", "john f clauser"),  # a middle initial left out
        ("Alexander Albon", "alex albon"),  # a first name cut short
        # without what kind of place it is
        ("Wrangell-St. Elias", "wrangell-st. elias national park & preserve"),
        ("Yellowstone", "yellowstone national park"),
    ],
)
def test_same_name(a: str, b: str) -> None:
    assert same_name(a, b) and same_name(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Tom Brady", "brady"),  # a part of a name is not the name
        ("MIT", "michigan state university"),
        ("Manchester City", "manchester utd"),
        ("uk", "the United States"),
        ("A", "alpha beta"),  # one letter is no acronym
        ("J. Smith", "john smith"),  # an initial is not the first name
        ("Al Albon", "alexander albon"),  # two letters are no first name
        ("Alex Smith", "alexander albon"),  # another family name
        ("Columbia", "columbia river"),  # one word left and one designator dropped
        ("Apple", "apple inc"),  # a firm's designator is not dropped
    ],
)
def test_different_names(a: str, b: str) -> None:
    assert not same_name(a, b)


def test_acronym_skips_little_words() -> None:
    assert acronym_of(["bank", "of", "america"]) == "ba"


def test_the_rules_match_a_name_spelt_another_way() -> None:
    outcome = Rules().apply("MrBeast", ["mr. beast"])
    assert outcome is not None and outcome.label == "correct" and outcome.rule == "name_match"
    assert Rules().apply("PewDiePie", ["mr. beast"]) is None


def test_a_name_within_a_sentence() -> None:
    text = "The deepest oceanic trench is the Mariana Trench, which reaches 36,000 feet."
    assert named_within(text, "marianas trench")
    assert not named_within("It is the Puerto Rico Trench.", "marianas trench")
    # A single word is no longer name's acronym by chance.
    assert not named_within("It won at the 1993 Oscars.", "anna thomson")
    assert named_within("He studied at MIT.", "mit")


def test_a_name_with_the_first_name_as_its_initial() -> None:
    assert named_by_initial("PL Player of Season: E. Haaland (Man City)", "erling haaland")
    assert named_by_initial("I. Swiatek; 6 titles", "iga swiatek")
    assert not named_by_initial("B. Albon", "alex albon")
    assert not named_by_initial("Albon", "alex albon")
    # It only tells the judge the name is there: the rules still do not take it as the name.
    assert not same_name("E. Haaland", "erling haaland")
