"""An output parser's failure message submitted in place of the reply, read for the reply.

A LangChain chain whose JSON parser fails raises ``OutputParserException``, whose message is
the model's whole output between a frame: "Invalid json output: {...}" and, on a line of its
own, "For troubleshooting, visit: https://python.langchain.com/docs/troubleshooting/errors/
OUTPUT_PARSING_FAILURE". A pipeline that writes ``str(e)`` as its answer submits that message;
the model's output inside it is what the system said.
"""

from __future__ import annotations

import re

__all__ = ["without_parser_frame"]

_OPENING = re.compile(r"\s*Invalid (?:json|JSON) output:[ \t]*")
_TROUBLESHOOTING = re.compile(
    r"\s*For troubleshooting, visit: https?://\S*troubleshooting/errors/[A-Z_]*\S*\s*$"
)


def without_parser_frame(text: str) -> str:
    """The model's output inside an output parser's failure message, or ``text`` as it is
    when it is no such message. Only the opening "Invalid json output:" shows the frame (the
    75-token cut may drop the troubleshooting line after it)."""
    opening = _OPENING.match(text)
    if opening is None:
        return text
    return _TROUBLESHOOTING.sub("", text[opening.end() :])
