"""Inline arithmetic read as its result."""

from __future__ import annotations

import pytest

from ragmeter.scoring.crag.arithmetic import arithmetic_as_result


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Brad Pitt, 1974 - 1963 = 11 years", "Brad Pitt, 11 years"),
        ("1 + 3 = 4 films", "4 films"),
        ("$40.3B - $26.5B = $13.8B gap", "$13.8B gap"),
        ("12% - 5% = 7%", "7%"),
        # No "=" and a result: a score, a date or an equation of names stays as written.
        ("won 3-1 on March 2", "won 3-1 on March 2"),
        ("2024-03-17", "2024-03-17"),
        ("x = 5", "x = 5"),
    ],
)
def test_inline_arithmetic_reads_as_its_result(text: str, read: str) -> None:
    assert arithmetic_as_result(text) == read
