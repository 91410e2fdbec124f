"""A structured log line submitted as the reply, read into its fields.

A Go service that logs its result with ``log/slog``'s text handler, and a harness that keeps
the line, submits logfmt: "time=2025-06-02T10:51:56.878Z level=INFO msg=answered answer=\\"Mike
Bossy\\" items=[] docs=[1] confidence=0.84 note=\\"39 hat tricks\\"", or, when it found
nothing, "level=WARN msg=\\"no answer\\" reason=\\"no page gives ...\\"". The time, level and
message are the logger's; the other pairs are the result's fields.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["logfmt_fields"]

_OPENING = re.compile(r"\s*time=\S+\s+level=[A-Z]+\s+msg=")
# key=value, the value quoted as Go quotes strings, a slice in brackets, or a bare word;
# the cut may fall before a quote or bracket closes.
_PAIR = re.compile(
    r"\s*(?P<key>[A-Za-z_][\w.-]*)=(?P<value>\"(?:[^\"\\]|\\.)*(?:\"|$)|\[[^\]]*(?:\]|$)|\S*)"
)
_LOGGER_KEYS = frozenset({"time", "level", "msg", "source"})
_NO_ANSWER = re.compile(r"no.?answer|not.?found|unanswered|abstain", re.IGNORECASE)


def logfmt_fields(text: str) -> dict[str, Any] | None:
    """The fields of a log line in logfmt that opens with slog's time, level and message;
    None for any other text. A message that says no answer was found declines."""
    if not _OPENING.match(text):
        return None
    pairs: dict[str, str] = {}
    at = 0
    while at < len(text.rstrip()):
        m = _PAIR.match(text, at)
        if m is None or m.end() == at:
            return None
        pairs[m.group("key").lower()] = _value(m.group("value"))
        at = m.end()
    fields: dict[str, Any] = {k: v for k, v in pairs.items() if k not in _LOGGER_KEYS}
    if _NO_ANSWER.search(pairs.get("msg", "")) and not fields.get("answer"):
        fields["answer"] = None
    return fields


def _value(raw: str) -> str:
    """A value as written: a quoted one unquoted, a slice's items without its brackets
    ("[Real Madrid Juventus]"; Go prints them space-separated, so they are read as one)."""
    if raw.startswith('"'):
        closed = raw + ('"' if len(raw) == 1 or not raw.endswith('"') else "")
        try:
            raw = str(json.loads(closed))
        except ValueError:
            raw = raw.strip('"')
    if raw.startswith("["):
        return raw.strip("[]").strip()
    return raw
