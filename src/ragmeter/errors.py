"""The exception tree of ragmeter.

Every error a user can cause (a bad file, a bad config, a missing extra) is a
`UserError`: the CLI prints its message on one line and exits with code 2.
Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

from pathlib import Path


class RagmeterError(Exception):
    """Root of every error raised by ragmeter on purpose."""


class UserError(RagmeterError):
    """An error the user can fix: reported as one message, exit code 2."""

    exit_code = 2


class DataError(UserError):
    """A data file is malformed: names the file and, where known, the line."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.reason = message
        self.path = str(path) if path is not None else None
        self.line = line
        where = ""
        if self.path is not None:
            where = self.path + (f", line {line}" if line is not None else "") + ": "
        super().__init__(where + message)


class ConfigError(UserError):
    """A run spec or an option is invalid."""


class MissingExtraError(UserError):
    """An optional dependency group is not installed."""

    def __init__(self, extra: str, what: str):
        self.extra = extra
        super().__init__(f"{what} needs the '{extra}' extra: pip install 'ragmeter[{extra}]'")


class UnknownComponentError(ConfigError):
    """A registry name that does not exist; suggests close names."""


class BackendError(RagmeterError):
    """An LLM or HTTP backend failed after its retries; carries the server's message."""


class ScoringError(RagmeterError):
    """A prediction could not be scored."""
