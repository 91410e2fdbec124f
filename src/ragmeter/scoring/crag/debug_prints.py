"""A struct printed by its language's own description, read into its fields.

A service may write its answer struct to the submission as the language prints it: Rust's
Debug print (``{:?}`` or ``{:#?}``), ``Answer { text: Some("Walter Mondale"), items: [],
docs: [1], verdict: Found }``, or Swift's ``print`` of a struct, ``AnswerCard(answer:
Optional("23 September 2020"), items: [], sources: [1, 2], found: true, note: nil)``.
Struct fields become a dict; ``Some(x)`` and ``Optional(x)`` are ``x``; ``None`` and ``nil``
no value; a unit enum variant (``Found``, ``NotFound``) its name as a string. The 75-token
cut may stop the print part-way: what was written in full is kept.
"""

from __future__ import annotations

import re
from typing import Any

from ragmeter.scoring.crag.print_tokens import PrintCut, TokenStream, read_to_end

__all__ = ["debug_struct_fields"]

# Rust prints "Answer {" with a space, Swift "AnswerCard(" without: "Russia (confidence:
# high)" is a reply with a note, no struct.
_OPENING = re.compile(r"\s*[A-Z]\w*(?:\s*(?P<brace>\{)|(?P<paren>\())\s*[a-z_]\w*\s*:")
_TOKEN = re.compile(
    r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*(?:"|\\?$))|(?P<number>-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)'
    r"|(?P<name>[A-Za-z_]\w*)|(?P<mark>[{}()\[\],:])|(?P<other>\S))",
    re.IGNORECASE,
)
_ESCAPE = re.compile(r"\\(.)")
# The fields a struct may hold its answer in, and the ones a status goes by.
_ANSWER_FIELDS = ("answer", "text", "value", "items")
_STATUS_FIELDS = ("status", "verdict", "outcome")
_VARIANT = "variant"
_CONFLICT = re.compile(r"conflict|disputed|ambiguous|mixed", re.IGNORECASE)


class _Reader(TokenStream):
    def __init__(self, text: str) -> None:
        super().__init__(_TOKEN, text)

    def value(self) -> Any:
        kind, raw = self.take()
        if kind == "string":
            if len(raw) < 2 or not raw.endswith('"'):
                raise PrintCut  # a string the cut stopped part-way
            return _ESCAPE.sub(r"\1", raw[1:-1])
        if kind == "number":
            return raw
        if raw == "[":
            return self.sequence("]")
        if raw == "{":
            return self.fields()
        if kind != "name":
            raise ValueError(raw)
        following = self.peek()
        if following == ("mark", "{"):
            self.take()
            return self.fields({_VARIANT: raw})
        if following == ("mark", "(") and self.ahead(2) == ("mark", ":"):
            self.take()
            return self.fields({_VARIANT: raw}, close=")")  # a Swift struct inside
        if following == ("mark", "("):
            self.take()
            inner = self.sequence(")")
            # Some(x), Optional(x), a tuple variant of one value: the value itself.
            return inner[0] if len(inner) == 1 else inner
        return {"None": None, "nil": None, "true": True, "false": False}.get(raw, raw)

    def sequence(self, close: str) -> list[Any]:
        items: list[Any] = []
        while self.peek() != ("mark", close):
            items.append(self.value())
            if self.peek() == ("mark", ","):
                self.take()
        self.take()
        return items

    def fields(self, found: dict[str, Any] | None = None, close: str = "}") -> dict[str, Any]:
        found = {} if found is None else found
        while self.peek() != ("mark", close):
            kind, name = self.take()
            if kind != "name" or self.take() != ("mark", ":"):
                raise ValueError(name)
            key = name.lower()
            variant = self.peek()
            if variant is not None and variant[0] == "name" and self.ahead(1) == ("mark", "{"):
                # A struct variant ("FalsePremise { correction: .. }") keeps its name, and
                # goes in before its fields are read, so that a cut inside it leaves it.
                self.at += 2
                found[key] = {_VARIANT: variant[1]}
                self.fields(found[key])
            else:
                found[key] = self.value()
            if self.peek() == ("mark", ","):
                self.take()
        self.take()
        return found


def debug_struct_fields(text: str) -> dict[str, Any] | None:
    """The fields of a Rust struct's Debug print or a Swift struct's description (its answer
    under ``answer``, its status under ``status``), else None."""
    opening = _OPENING.match(text)
    if opening is None:
        return None
    reader = _Reader(text)
    reader.take()  # the struct's name
    reader.take()  # "{" or "("
    found: dict[str, Any] = {}
    # A field cut part-way is not kept: "text: Some(\"Walter" was never finished.
    close = "}" if opening.group("brace") else ")"
    cut = read_to_end(reader, lambda: reader.fields(found, close=close))
    if cut is None:
        return None  # no such print, or prose after it
    answer = next((found[k] for k in _ANSWER_FIELDS if found.get(k) not in (None, [], "")), None)
    fields = {k: v for k, v in found.items() if k not in _ANSWER_FIELDS + _STATUS_FIELDS}
    status = next((found[k] for k in _STATUS_FIELDS if k in found), None)
    if isinstance(status, dict):
        variant = status.get(_VARIANT)
        given = {k: v for k, v in status.items() if k != _VARIANT}
        if isinstance(variant, str) and _CONFLICT.search(variant):
            # "Conflicting { other: "Pete Carroll" }": the other value the sources give is
            # offered beside the answer, as a candidate.
            fields["alternatives"] = [v for v in given.values() if v not in (None, [], "")]
        else:
            # The variant's own fields (a correction, a reason) are said beside the answer.
            fields = {**given, **fields}
        status = variant
    if answer is not None or not cut:
        fields["answer"] = answer  # a print cut before its answer field says nothing of it
    if isinstance(status, str):
        fields["status"] = status
    return fields
