"""A Julia struct printed with its default ``show``, read into its fields.

A Julia pipeline that fills a result struct and prints it submits one line: the type's name,
then its values in the order the struct declares them, with no field names:
'AnswerCard("April 22, 2021", String[], [2, 4], 0.95, nothing)',
'AnswerCard(nothing, ["Maddie Quaile", "Oskar Brandvold"], [3], 0.9, nothing)',
'AnswerCard(nothing, String[], Int64[], 0.0, "no document gives ...")'. With no names, the
values are told apart by what they are, as a reader tells them: the first text (or
``nothing``) is the answer, a vector of texts the items, a vector of integers the sources, a
fraction the confidence, and a text after those a caveat beside the answer.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["julia_show_fields"]

_OPENING = re.compile(r"\s*[A-Z][A-Za-z0-9_]*\(")
_VALUE = re.compile(
    r"""\s*(?:(?P<nothing>nothing)|(?P<string>"(?:[^"\\]|\\.)*(?:"|$))"""
    r"""|(?P<empty>(?:String|Int64|Int|Float64|Any)\[\])|(?P<vector>\[[^\]]*(?:\]|$))"""
    r"""|(?P<number>-?\d+(?:\.\d+)?(?:e-?\d+)?)|(?P<bool>true|false))\s*(?:,|\)\s*$|$)"""
)
# Only Julia prints these: they tell its show from any other call.
_JULIA_TOKEN = re.compile(r"\bnothing\b|\b(?:String|Int64|Float64)\[")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)(?:"|$)')


def julia_show_fields(text: str) -> dict[str, Any] | None:
    """The fields of a Julia struct's default ``show``, or None for any other text."""
    opening = _OPENING.match(text)
    if opening is None or not _JULIA_TOKEN.search(text):
        return None
    values: list[tuple[str, Any]] = []
    at = opening.end()
    end = len(text.rstrip())
    while at < end:
        m = _VALUE.match(text, at)
        if m is None or m.end() == at:
            return None
        kind = m.lastgroup or ""
        values.append((kind, _value(kind, m.group(kind))))
        at = m.end()
    fields: dict[str, Any] = {}
    for kind, value in values:
        if kind in ("nothing", "string") and "answer" not in fields:
            fields["answer"] = value
        elif kind in ("nothing", "string"):
            fields.setdefault("caveat", value)
        elif kind == "number" and "." in str(value) and "confidence" not in fields:
            fields["confidence"] = value
        elif kind == "empty":
            # "String[]" holds no items, "Int64[]" no sources.
            fields.setdefault("items" if value.startswith("String") else "docs", [])
        elif kind == "vector" and value:
            fields.setdefault("items" if isinstance(value[0], str) else "docs", value)
    return fields or None


def _value(kind: str, raw: str) -> Any:
    if kind == "nothing":
        return None
    if kind == "string":
        return _unescaped(raw[1:])
    if kind in ("empty", "number"):
        return raw  # "String[]" says which vector is empty; a figure stays as written
    if kind == "bool":
        return raw == "true"
    inner = raw.strip("[]")
    strings = _STRING.findall(inner)
    if strings:
        return [_unescaped(s) for s in strings]
    return [int(n) for n in re.findall(r"-?\d+", inner)]


def _unescaped(raw: str) -> str:
    raw = raw[:-1] if raw.endswith('"') else raw
    return re.sub(r"\\(.)", r"\1", raw)
