"""Arithmetic a reply shows inline, read as its result: "2024 - 1987 = 37 years" states 37
years; "1 + 3 = 4 films" states 4 films.

A pipeline that computes its answer may print the sum it did. The operands are figures of
its working (two birth years, two counts), not claims that compete with the gold; the
figure after "=" is what it answers.
"""

from __future__ import annotations

import re

__all__ = ["arithmetic_as_result"]

_FIGURE = r"[$€£]?\d[\d,]*(?:\.\d+)?(?:%|[KMBT]|bn)?"
# One or more operations, then "=" and the figure that is their result.
_SUM_SHOWN = re.compile(
    rf"(?<![\w.$€£]){_FIGURE}(?:\s*[-+*/×x\u2212\u2013]\s*{_FIGURE})+\s*=\s*(?={_FIGURE})"
)


def arithmetic_as_result(text: str) -> str:
    """``text`` with each inline sum ("1974 - 1963 = 11") read as its result ("11")."""
    return _SUM_SHOWN.sub("", text)
