"""A graph agent's printed trace in front of its reply, read away.

A pipeline built on LangGraph's streaming loop, run as its tutorials run it, prints each
node's banner ("---RETRIEVE---", "---GRADE: DOCUMENT NOT RELEVANT---", "---DECISION: ...
TRANSFORM QUERY---"), the node's name through ``pprint`` ("\\"Node 'retrieve':\\"") and a
separator (``'\\n---\\n'``), then the generation through ``pprint``: a string, which pprint
splits into adjacent literals in parentheses when it is long ("('Yes, he holds a PhD in '\\n
'astrophysics.')"). A harness that keeps the whole stdout submits all of it. The trace is no
answer; when it fills CRAG's 75-token cut, the cut holds none.
"""

from __future__ import annotations

import ast
import re

__all__ = ["without_graph_trace"]

# A node's banner in capitals between three dashes, its name as pprint writes it (quoted),
# and the separator pprint writes as a literal.
_TRACE_LINE = re.compile(
    r"[ \t]*(?:---[A-Z][A-Z0-9 _:,;'/&()-]*---|([\"']?)Node '\w+':\1|'\\n---\\n'|---)[ \t]*"
)
# The start of one, where the cut fell in it.
_TRACE_LINE_START = re.compile(r"[ \t]*(?:---[A-Z0-9 _:,;'/&()-]*|[\"']?Node\b.*|'\\n?-*\\?n?'?)")
# A string literal as pprint writes it; the last may be cut off before its closing quote.
_LITERAL = re.compile(r"""'(?:[^'\\\n]|\\.)*(?:'|$)|"(?:[^"\\\n]|\\.)*(?:"|$)""")
_LITERALS = re.compile(rf"\(?\s*(?:(?:{_LITERAL.pattern})\s*)+\)?\s*")


def without_graph_trace(text: str) -> str:
    """The reply after a graph agent's printed trace, its pprint quotes read away; "" when
    the trace is all there is; ``text`` as it is when it opens with no banner."""
    lines = text.split("\n")
    if not re.fullmatch(r"\s*---[A-Z][^\n]*---\s*", lines[0]):
        return text
    at = 0
    while at < len(lines) and (not lines[at].strip() or _TRACE_LINE.fullmatch(lines[at])):
        at += 1
    if at == len(lines) - 1 and _TRACE_LINE_START.fullmatch(lines[at]):
        at += 1  # the cut fell in the trace's last line
    return _printed_string("\n".join(lines[at:]).strip())


def _printed_string(text: str) -> str:
    """The string a ``pprint`` of one wrote (its adjacent literals joined, one cut off
    read as far as it goes); any other text as it is."""
    if not text or not _LITERALS.fullmatch(text):
        return text
    parts = []
    for literal in _LITERAL.findall(text):
        closed = len(literal) > 1 and literal[-1] == literal[0]
        try:
            parts.append(ast.literal_eval(literal if closed else literal.rstrip("\\") + literal[0]))
        except (ValueError, SyntaxError):
            return text
    return "".join(str(p) for p in parts)
