"""A Haskell record printed with its derived ``Show``, read into its fields.

A Haskell service that decodes the model's JSON into a record and prints it with ``print``
submits ``Answer {answer = Just "March 9, 2022", items = [], docs = [2,4], confidence = 0.95,
status = Found}``: fields as ``name = value``, ``Just x`` for a value, ``Nothing`` for none, a
constructor by its name (with its arguments: ``FalsePremise "set in World War II"``), and
strings with every character past ASCII written as a backslash and its decimal code
(``"Ren\\233"`` is "René"; ``\\&`` separates a code from a digit after it). The 75-token cut
may stop the print part-way: what was written in full is kept.
"""

from __future__ import annotations

import re
from typing import Any

from ragmeter.scoring.crag.print_tokens import TokenStream, closed_string, read_to_end

__all__ = ["show_record_fields"]

_OPENING = re.compile(r"\s*[A-Z][\w']*\s*\{\s*[a-z_][\w']*\s*=")
_TOKEN = re.compile(
    r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*(?:"|\\?$))|(?P<number>-?\d+(?:\.\d+)?(?:e-?\d+)?)'
    r"|(?P<name>[A-Za-z_][\w']*)|(?P<mark>[{}()\[\],=])|(?P<other>\S))"
)
_ESCAPE = re.compile(r"\\(?:(?P<code>\d+)|x(?P<hex>[0-9a-fA-F]+)|(?P<gap>&)|(?P<char>.))")
_CONTROL = {"n": "\n", "t": "\t", "r": "\r"}
_STATUS_FIELDS = ("status", "verdict", "outcome")


def _unescaped(m: re.Match[str]) -> str:
    if m.group("code"):
        return chr(int(m.group("code")))
    if m.group("hex"):
        return chr(int(m.group("hex"), 16))
    if m.group("gap"):
        return ""
    char = m.group("char")
    return _CONTROL.get(char, char)


class _Reader(TokenStream):
    def __init__(self, text: str) -> None:
        super().__init__(_TOKEN, text)

    def atom(self) -> Any:
        """A value that needs no brackets: a string, a number, a list, a bracketed value or
        a constructor's name alone."""
        kind, raw = self.take()
        if kind == "string":
            return _ESCAPE.sub(_unescaped, closed_string(raw))
        if kind == "number":
            return raw
        if raw == "[":
            items: list[Any] = []
            while self.peek() != ("mark", "]"):
                items.append(self.value())
                if self.peek() == ("mark", ","):
                    self.take()
            self.take()
            return items
        if raw == "(":
            inner = self.value()
            if self.take() != ("mark", ")"):
                raise ValueError(raw)
            return inner
        if kind != "name":
            raise ValueError(raw)
        return {"Nothing": None, "True": True, "False": False}.get(raw, raw)

    def value(self) -> Any:
        """An atom, ``Just x``, or a constructor applied to its arguments (a record too)."""
        kind, raw = self.peek() or ("", "")
        if kind != "name" or not raw[:1].isupper() or raw in ("Nothing", "True", "False"):
            return self.atom()
        self.take()
        if raw == "Just":
            return self.atom()
        if self.peek() == ("mark", "{"):
            self.take()
            return self.fields({"constructor": raw})
        given = []
        while (token := self.peek()) is not None and token not in (
            ("mark", ","), ("mark", "}"), ("mark", "]"), ("mark", ")"),
        ):  # fmt: skip
            given.append(self.atom())
        return {"constructor": raw, "given": given} if given else raw

    def fields(self, found: dict[str, Any]) -> dict[str, Any]:
        while self.peek() != ("mark", "}"):
            kind, name = self.take()
            if kind != "name" or self.take() != ("mark", "="):
                raise ValueError(name)
            found[name.lower()] = self.value()
            if self.peek() == ("mark", ","):
                self.take()
        self.take()
        return found


def show_record_fields(text: str) -> dict[str, Any] | None:
    """The fields of a Haskell record's derived ``Show`` (its status constructor under
    ``status``, what it carries said as a note), else None."""
    if _OPENING.match(text) is None:
        return None
    reader = _Reader(text)
    reader.take()  # the record's constructor
    reader.take()  # "{"
    found: dict[str, Any] = {}
    if read_to_end(reader, lambda: reader.fields(found)) is None:
        return None  # no record, or text after it
    for key in _STATUS_FIELDS:
        status = found.get(key)
        if isinstance(status, dict) and "given" in status:
            # 'status = FalsePremise "set in World War II"': the finding, and what it says.
            found["note"] = "; ".join(str(v) for v in status["given"] if v not in (None, ""))
            found[key] = status["constructor"]
        if key != "status" and key in found and "status" not in found:
            found["status"] = found.pop(key)
    return found
