"""How a store hands a result to the server: a Python value, or JSON text kept as is."""

from __future__ import annotations

from typing import Any

import orjson


class RawJSON:
    """A result that is already JSON text (read from disk), sent without re-encoding."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def decode(self) -> Any:
        """The Python value of the JSON text."""
        return orjson.loads(self.data)


Result = Any
"""A JSON-compatible Python value or a `RawJSON`."""


def result_body(result: Result) -> bytes:
    """The response body ``{"result": ...}`` for a store's result."""
    if isinstance(result, RawJSON):
        return b'{"result":' + result.data + b"}"
    return orjson.dumps({"result": result}, option=orjson.OPT_NON_STR_KEYS)


def plain(result: Result) -> Any:
    """A store's result as a plain Python value (decoding `RawJSON`)."""
    return result.decode() if isinstance(result, RawJSON) else result
