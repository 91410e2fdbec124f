"""Where ragmeter keeps its per-user files (model weights, the response cache)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def user_cache_dir() -> Path:
    """The per-user cache folder: ``RAGMETER_CACHE_DIR``, else the platform's cache folder.

    Linux uses ``$XDG_CACHE_HOME/ragmeter`` (default ``~/.cache/ragmeter``), macOS
    ``~/Library/Caches/ragmeter`` and Windows ``%LOCALAPPDATA%\\ragmeter\\Cache``.
    The folder is not created here: writers create what they need.
    """
    env = os.environ.get("RAGMETER_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "ragmeter" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ragmeter"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "ragmeter"


def models_dir() -> Path:
    """Where installed model weights live: ``<user cache>/models``."""
    return user_cache_dir() / "models"


def response_cache_path() -> Path:
    """The SQLite response cache: ``<user cache>/responses.sqlite3``."""
    return user_cache_dir() / "responses.sqlite3"
