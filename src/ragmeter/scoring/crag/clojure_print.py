"""A Clojure map printed with ``prn`` (EDN), read into its fields.

A Clojure service that decodes the model's JSON into a map and prints it submits ``{:answer
"John Wick: Chapter 4", :note nil, :docs [1 2], :as_of nil, :status :found}``: keyword keys,
``nil`` for no value, vectors without commas (commas are white space to a Clojure reader),
and keywords as values (``:status :not-found``). Keys and keyword values are named as a JSON
object's would be ("as-of" as "as_of"). The 75-token cut may stop the print part-way: what
was written in full is kept.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ragmeter.scoring.crag.print_tokens import PrintCut, TokenStream, closed_string, read_to_end

__all__ = ["edn_map_fields"]

_OPENING = re.compile(r"\s*\{\s*:[A-Za-z_][\w\-?!]*\s")
_TOKEN = re.compile(
    r'[\s,]*(?:(?P<string>"(?:[^"\\]|\\.)*(?:"|\\?$))|(?P<keyword>:[A-Za-z_][\w\-?!./]*)'
    r"|(?P<number>-?\d+(?:\.\d+)?(?:[eE]-?\d+)?M?)|(?P<mark>#\{|[{}\[\]()])"
    r"|(?P<name>[A-Za-z_*+!?<>=/.-][\w*+!?<>=/.-]*)|(?P<other>\S))"
)
_CONSTANTS: dict[str, Any] = {"nil": None, "true": True, "false": False}
_CLOSING = {"[": "]", "(": ")", "#{": "}"}


class _CutList(PrintCut):
    """The print ended inside a collection: the items written in full before the cut."""

    def __init__(self, items: list[Any]) -> None:
        super().__init__()
        self.items = items


def _named(keyword: str) -> str:
    return keyword[1:].replace("-", "_")


class _Reader(TokenStream):
    def __init__(self, text: str) -> None:
        super().__init__(_TOKEN, text)

    def value(self) -> Any:
        """One EDN value: a string, number, keyword, constant, collection or map."""
        kind, raw = self.take()
        if kind == "string":
            return json.loads(f'"{closed_string(raw)}"', strict=False)
        if kind == "number":
            return raw.rstrip("M")
        if kind == "keyword":
            return _named(raw)
        if kind == "name" and raw in _CONSTANTS:
            return _CONSTANTS[raw]
        if raw == "{":
            return self.fields()
        if raw in _CLOSING:
            items: list[Any] = []
            try:
                while self.peek() != ("mark", _CLOSING[raw]):
                    items.append(self.value())
                self.take()
            except PrintCut as cut:
                raise _CutList(items) from cut
            return items
        raise ValueError(raw)

    def fields(self, found: dict[str, Any] | None = None) -> dict[str, Any]:
        """A map's entries up to its closing brace, keyword keys named as JSON's."""
        found = {} if found is None else found
        while self.peek() != ("mark", "}"):
            kind, key = self.take()
            if kind != "keyword":
                raise ValueError(key)
            try:
                found[_named(key)] = self.value()
            except _CutList as cut:
                if cut.items:
                    found[_named(key)] = cut.items
                raise
        self.take()
        return found


def edn_map_fields(text: str) -> dict[str, Any] | None:
    """The fields of a Clojure map printed as EDN (the last one dropped where the 75-token
    cut fell inside it), else None."""
    if _OPENING.match(text) is None:
        return None
    reader = _Reader(text)
    reader.take()  # "{"
    found: dict[str, Any] = {}
    if read_to_end(reader, lambda: reader.fields(found)) is None:
        return None  # no map, or text after it
    return found or None
