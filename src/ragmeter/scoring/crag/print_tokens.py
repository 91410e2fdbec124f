"""The token stream the readers of a language's own struct prints walk.

A Rust or Swift struct's description (`ragmeter.scoring.crag.debug_prints`) and a Haskell
record's ``show`` (`ragmeter.scoring.crag.haskell_show`) are read token by token from a
pattern of named groups; the 75-token cut may end the print anywhere, which the readers learn
as `PrintCut` when they take past its end.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["PrintCut", "TokenStream", "closed_string", "read_to_end"]


class PrintCut(Exception):
    """The print ended before the value being read did."""


def closed_string(raw: str) -> str:
    """What a quoted string token holds between its quotes; `PrintCut` when the cut stopped
    the string part-way (no closing quote, or only an escaped one)."""
    if len(raw) < 2 or not raw.endswith('"') or raw.endswith('\\"'):
        raise PrintCut
    return raw[1:-1]


class TokenStream:
    """The ``(group name, text)`` tokens ``pattern`` finds in ``text``, read in order."""

    def __init__(self, pattern: re.Pattern[str], text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        for m in pattern.finditer(text):
            kind = m.lastgroup or "other"
            self.tokens.append((kind, m.group(kind)))
        self.at = 0

    def peek(self) -> tuple[str, str] | None:
        """The next token, or None at the end."""
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def ahead(self, n: int) -> tuple[str, str] | None:
        """The token ``n`` places after the next, or None past the end."""
        at = self.at + n
        return self.tokens[at] if at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        """The next token, consumed; `PrintCut` at the end."""
        token = self.peek()
        if token is None:
            raise PrintCut
        self.at += 1
        return token


def read_to_end(reader: TokenStream, fill: Callable[[], object]) -> bool | None:
    """Runs ``fill``, which reads a print's fields from ``reader``: True when the cut stopped
    the print part-way (the field it was in is not kept), False when it was read whole, None
    when the text is no such print (a token out of place, or text after the print)."""
    try:
        fill()
    except PrintCut:
        cut = True
    except ValueError:
        return None
    else:
        cut = False
    return None if reader.peek() is not None else cut
