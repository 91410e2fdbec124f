"""A whole HTTP response submitted as the reply, read into its status, fields and body.

A service called with ``curl -si``, or a harness that writes the raw response, submits the
status line, the headers, a blank line and the body: "HTTP/1.1 200 OK\\ndate: ...\\nserver:
uvicorn\\nx-confidence: medium\\nx-note: single source\\n...\\n\\nTaxi to the Dark Side". The
body is the reply. Headers a service adds of its own (``x-confidence``, ``x-note``,
``x-sources``) are fields it states beside the reply; the transport's (date, server,
content-length, content-type ...) say nothing about the question. The headers take many
tokens, so CRAG's 75-token cut often ends among them, before the body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["HttpResponse", "read_http_response"]

_STATUS_LINE = re.compile(r"\s*HTTP/\d(?:\.\d)? (?P<status>\d{3})\b[^\n]*\n")
_HEADER = re.compile(r"(?P<name>[A-Za-z][A-Za-z0-9-]*):[ \t]*(?P<value>.*?)\s*")
# A service's own header: "x-" and the field's name ("x-confidence" is its confidence).
_OWN_HEADER = re.compile(r"x-(?P<field>[a-z0-9][a-z0-9-]*)")


@dataclass(frozen=True)
class HttpResponse:
    """What an HTTP response written out as text holds."""

    status: int
    """The status code (200, 404, 500 ...)."""
    fields: dict[str, str]
    """The service's own headers by field name, "x-" dropped and "-" as "_"
    (``x-confidence: medium`` is ``{"confidence": "medium"}``)."""
    body: str | None
    """The body, or None when the text stops before the blank line that opens it."""

    @property
    def failed(self) -> bool:
        """True for a status that carries no answer: an error (4xx, 5xx) or no content."""
        return self.status >= 400 or self.status == 204


def read_http_response(text: str) -> HttpResponse | None:
    """The response ``text`` writes out, or None when it opens with no HTTP status line
    followed by headers. A header line cut part-way through its name ends the headers."""
    status = _STATUS_LINE.match(text)
    if status is None:
        return None
    lines = text[status.end() :].split("\n")
    fields: dict[str, str] = {}
    for at, line in enumerate(lines):
        if not line.strip():
            body = "\n".join(lines[at + 1 :]).strip()
            return HttpResponse(int(status.group("status")), fields, body)
        header = _HEADER.fullmatch(line)
        if header is None:
            if at == len(lines) - 1:
                break  # "x-no": the cut fell in a header's name
            return None
        own = _OWN_HEADER.fullmatch(header.group("name").lower())
        if own is not None:
            fields[own.group("field").replace("-", "_")] = header.group("value")
    return HttpResponse(int(status.group("status")), fields, None)
