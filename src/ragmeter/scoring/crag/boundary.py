"""Quoting a prediction for a judge inside a boundary the prediction cannot forge.

The marker of each call is an HMAC of the call's content under a secret key
of this installation: the system under evaluation cannot know it (so it
cannot write a fake closing marker), while the same call gets the same
marker again, so cached verdicts stay valid. The key is read from
``RAGMETER_JUDGE_KEY`` or from a file in the user cache (created once, from
the operating system's random source).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from functools import lru_cache
from pathlib import Path

__all__ = ["marker_for", "quote"]

_KEY_ENV = "RAGMETER_JUDGE_KEY"


def _key_path() -> Path:
    base = os.environ.get("RAGMETER_CACHE_DIR") or str(Path.home() / ".cache" / "ragmeter")
    return Path(base) / "judge_boundary.key"


@lru_cache(maxsize=1)
def _key() -> bytes:
    env = os.environ.get(_KEY_ENV)
    if env:
        return env.encode()
    path = _key_path()
    try:
        return path.read_bytes()
    except OSError:
        pass
    key = secrets.token_hex(32).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(key)
        os.replace(tmp, path)
        return path.read_bytes()
    except OSError:
        # A read-only home: a key for this process only (verdicts are then cached per process).
        return key


def marker_for(*parts: str) -> str:
    """The marker of a call about ``parts`` (question, gold, prediction...)."""
    digest = hmac.new(_key(), "\x1f".join(parts).encode(), hashlib.sha256).hexdigest()
    return f"QUOTE-{digest[:16].upper()}"


def quote(text: str, marker: str) -> str:
    """``text`` between two marker lines; a marker inside the text is defused first."""
    # The marker is unguessable, but a text that somehow holds it must not close the quote.
    safe = text.replace(marker, marker.lower())
    return f"<<{marker}>>\n{safe}\n<<END-{marker}>>"
