"""A Prolog toplevel's transcript submitted as the reply, read into the fields it prints.

A pipeline that answers by querying a Prolog knowledge base, and submits what the toplevel
printed, writes the query and its answer: "?- released(the_wizard_of_gore_2007, D).\\nD =
date(2007, 10, 26).", bindings one per line joined by commas ("A = 177430000,\\nB = ...,\\nX =
mficl."), "false." when the goal has no solution, "true." when it holds without bindings,
and "ERROR: Unknown procedure: pe_ratio/2 ..." when the knowledge base has no such fact.
`toplevel_fields` reads them as the answer they give.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["toplevel_fields"]

# The query line; the cut may fall in it, before any answer.
_QUERY = re.compile(r"\s*\?-[ \t]*(?P<goal>[^\n]*?)(?:\.[ \t]*(?:\n|$)|$)")
_BINDING = re.compile(r"(?P<var>[A-Z_]\w*)\s*=\s*(?P<value>.*?)\s*[,.;]?\s*")
_VARIABLE = re.compile(r"(?<![\w'])[A-Z_]\w*")
_UNIFIED = re.compile(r"\s*=(?!=)")
_QUOTED = re.compile(r"'(?:[^'\\]|'')*'|\"(?:[^\"\\])*\"")
_ERROR = re.compile(r"(?:ERROR|Warning):")
_CURRENCIES = frozenset({"usd", "eur", "gbp", "jpy", "cny", "cad", "aud", "chf", "inr"})
_TOKEN = re.compile(
    r"""\s*(?:(?P<number>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|(?P<quoted>'(?:[^'\\]|''|\\.)*')"""
    r"""|(?P<string>"(?:[^"\\]|\\.)*")|(?P<name>[A-Za-z_]\w*)|(?P<elided>\|\s*\.\.\.)"""
    r"""|(?P<punct>[\[\](),|]))"""
)


def toplevel_fields(text: str, *, cut_off: bool) -> dict[str, Any] | None:
    """The fields a toplevel transcript prints, or None when ``text`` is no transcript.
    A goal without variables asks yes or no: "false." says no, "true." yes. A goal with
    variables asks for their values: "false." and an error find none (``found`` false); one
    binding is the answer, several are read as the goal they solve. A transcript the cut
    stopped between bindings gives no ``answer``."""
    query = _QUERY.match(text)
    if query is None:
        return None
    goal = query.group("goal")
    asks_values = _VARIABLE.search(_QUOTED.sub(" ", goal)) is not None
    result = text[query.end() :].strip()
    if not result or _ERROR.match(result):
        return {"found": False}
    if re.fullmatch(r"(?:false|true)\.?", result):
        holds = result.startswith("true")
        return (
            {"found": False} if asks_values and not holds else {"answer": "Yes" if holds else "No"}
        )
    bindings: list[tuple[str, str]] = []
    lines = result.split("\n")
    for line in lines:
        binding = _BINDING.fullmatch(line)
        if binding is None:
            return None
        bindings.append((binding.group("var"), term_text(binding.group("value"))))
    if cut_off and _unprinted(goal, bindings[-1][0]):
        # "?- cap(nwgl, A), cap(mficl, B), (A > B -> X = nwgl ; X = mficl).\nA = 177430000,\nB
        # = 10800": the cut fell before the binding the query was written to find.
        return {"working": "; ".join(f"{var} = {value}" for var, value in bindings)}
    if len(bindings) == 1:
        return {"answer": bindings[0][1]}
    # "?- finals_mvp(tim_duncan, A), finals_mvp(kareem_abdul_jabbar, B).\nA = 3,\nB = 2.":
    # which value is whose only the goal says.
    values = dict(bindings)
    bare = _QUOTED.sub(lambda m: " " * len(m.group(0)), goal)  # a quoted atom names no variable
    unified = {m.group(0) for m in _VARIABLE.finditer(bare) if _UNIFIED.match(bare, m.end())}
    if len(unified & values.keys()) == 1:
        # "(A > B -> X = nwgl ; X = mficl)": the variable the goal sets is its result.
        return {"answer": values[(unified & values.keys()).pop()]}
    solved, at = [], 0
    for m in _VARIABLE.finditer(bare):
        solved += [goal[at : m.start()], values.get(m.group(0), m.group(0))]
        at = m.end()
    return {"answer": "".join([*solved, goal[at:]]).replace("_", " ")}


def _unprinted(goal: str, last: str) -> bool:
    """True when the goal names a variable after ``last`` (the toplevel prints bindings in
    the order the goal first names them)."""
    named = list(dict.fromkeys(_VARIABLE.findall(_QUOTED.sub(" ", goal))))
    return last in named and named.index(last) < len(named) - 1


def term_text(raw: str) -> str:
    """A Prolog term as a reader says it: atoms as words ("manchester_united" is
    "manchester united"), ``date(2007, 10, 26)`` as 2007-10-26, ``money(232.45, usd)`` as
    "232.45 USD", a list's items joined by commas; ``raw`` as it is when it will not parse."""
    tokens = [m for m in _TOKEN.finditer(raw)]
    if "".join(m.group(0) for m in tokens).strip() != raw.strip():
        return raw.strip()
    parser = _TermParser([(m.lastgroup or "", m.group(m.lastgroup or 0)) for m in tokens])
    try:
        said = parser.term()
    except (IndexError, ValueError):
        return raw.strip()
    return said if parser.at == len(parser.tokens) else raw.strip()


class _TermParser:
    def __init__(self, tokens: list[tuple[str, str]]):
        self.tokens = tokens
        self.at = 0

    def _take(self) -> tuple[str, str]:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def _peek(self) -> str:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else ""

    def term(self) -> str:
        kind, value = self._take()
        if kind == "number":
            return value
        if kind == "quoted":
            return value[1:-1].replace("''", "'")
        if kind == "string":
            return value[1:-1]
        if kind == "punct" and value == "[":
            return self._list()
        if kind != "name":
            raise ValueError(value)
        if self._peek() != "(":
            return value.replace("_", " ")
        self._take()
        args = [self.term()]
        while self._take()[1] == ",":
            args.append(self.term())
        return _compound_text(value, args)

    def _list(self) -> str:
        items: list[str] = []
        if self._peek() == "]":
            self._take()
            return ""
        while True:
            items.append(self.term())
            kind, value = self._take()
            if value == ",":
                continue
            if kind == "elided":
                items.append("...")
                value = self._take()[1]
            if value != "]":
                raise ValueError(value)
            return ", ".join(items)


def _compound_text(functor: str, args: list[str]) -> str:
    if functor == "date" and len(args) == 3 and all(a.isdigit() for a in args):
        year, month, day = (int(a) for a in args)
        return f"{year:04d}-{month:02d}-{day:02d}"
    if len(args) == 2 and args[1].lower() in _CURRENCIES:
        return f"{args[0]} {args[1].upper()}"
    return f"{functor.replace('_', ' ')}({', '.join(args)})"
