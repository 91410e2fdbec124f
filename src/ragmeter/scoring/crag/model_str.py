"""A pydantic model printed with ``str()``, read into its fields.

A pipeline that returns a pydantic object and writes ``str(result)`` to its submission
submits the model's fields as ``name=value`` pairs with Python reprs for values, nested
models as calls and enum members in angle brackets:
``answer='Pripyat River' citations=[Citation(doc=1, quote='...')] verdict=<Verdict.SUPPORTED:
'supported'>``, or ``answer=None citations=[] verdict=<Verdict.NOT_FOUND: 'not_found'>``.
"""

from __future__ import annotations

import ast
import re
from typing import Any

__all__ = ["model_str_fields"]

_OPENING = re.compile(r"\s*[a-z_]\w*=(?:'|\"|None\b|\[|\d|-\d|True\b|False\b|<|[A-Z]\w*\()")
# An enum member's repr, "<Verdict.NOT_FOUND: 'not_found'>", read as its value.
_ENUM = re.compile(r"<[A-Z]\w*\.\w+: (?P<value>'[^'\n]*'|\"[^\"\n]*\"|-?\d+(?:\.\d+)?)>")
_FIELD_START = re.compile(r"\s+(?=[a-z_]\w*=)")
_STATUS_FIELDS = ("status", "verdict", "outcome")


def _as_call(text: str) -> str:
    """The printout as the arguments of one call: a comma wherever a new top-level field
    begins, outside strings and brackets."""
    out: list[str] = []
    depth = 0
    quote = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                out.append(text[i : i + 2])
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and (gap := _FIELD_START.match(text, i)) is not None:
            out.append(", ")
            i = gap.end()
            continue
        out.append(ch)
        i += 1
    return "_(" + "".join(out) + ")"


def _value(node: ast.expr) -> Any:
    if isinstance(node, ast.Call):
        return {k.arg: _value(k.value) for k in node.keywords if k.arg is not None}
    if isinstance(node, ast.List | ast.Tuple):
        return [_value(item) for item in node.elts]
    return ast.literal_eval(node)


def model_str_fields(text: str) -> dict[str, Any] | None:
    """The fields of a pydantic model's ``str()`` (its status under ``status``), else None."""
    if not _OPENING.match(text) or "\n" in text.strip():
        return None
    body = _ENUM.sub(lambda m: m.group("value"), text.strip())
    try:
        call = ast.parse(_as_call(body), mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            return None
        fields = {k.arg.lower(): _value(k.value) for k in call.keywords if k.arg is not None}
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None
    for key in _STATUS_FIELDS:
        if key in fields and "status" not in fields and isinstance(fields[key], str):
            fields["status"] = fields.pop(key)
    return fields
