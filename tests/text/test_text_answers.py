"""Answer matching: phrases, numbers, sentence-long CRAG answers, unmatchable answers."""

from __future__ import annotations

from ragmeter.text.answers import EvidenceTokens, answer_keys, first_hit_rank, normalize_tokens


def ev(*texts: str) -> list[EvidenceTokens]:
    return [EvidenceTokens.of(t) for t in texts]


def test_normalisation() -> None:
    assert normalize_tokens("The Beyoncé album sold 3,696 copies at $2.50!") == [
        "beyonce",
        "album",
        "sold",
        "3696",
        "copies",
        "at",
        "2.5",
    ]


def test_short_answers_match_as_phrases() -> None:
    [[key]] = answer_keys([["Universal Pictures"]], "owned by time warner or universal pictures?")
    assert key.kind == "phrase"
    assert first_hit_rank([key], ev("Warner Bros.", "a unit of UNIVERSAL pictures, Inc.")) == 2
    assert first_hit_rank([key], ev("universal studios pictures")) is None
    [[num]] = answer_keys([["1,234"]], "how many?")
    assert first_hit_rank([num], ev("about 1234 people")) == 1
    assert first_hit_rank([num], ev("about 12345 people")) is None


def test_sentence_answers_match_by_key_terms_across_chunks() -> None:
    answer = "the shortest highway in the us, i-878 in new york, is only 3,696 feet long."
    [[key]] = answer_keys([[answer]], "what is the shortest highway in the us in feet?")
    assert key.kind == "key_terms"
    assert key.numbers == {"878", "3696"}
    assert {"new", "york"} <= key.words and "shortest" not in key.words
    ranked = ev("Interstate 878 is in New York.", "nothing here", "It is 3,696 feet long.")
    assert first_hit_rank([key], ranked) == 3
    assert first_hit_rank([key], ranked[:2]) is None
    # All numbers are required, words only in part.
    assert first_hit_rank([key], ev("I-878 in New York is long.")) is None


def test_aliases_and_unmatchable_answers() -> None:
    keys = answer_keys([["yes"], ["invalid question"], ["I don't know"], ["Bob", "Robert"]], "q")
    assert keys[:3] == [[], [], []]
    assert first_hit_rank(keys[3], ev("said Robert")) == 1
