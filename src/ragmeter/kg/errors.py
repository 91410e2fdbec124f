"""Errors of the mock knowledge-graph API, placed in ragmeter's exception tree."""

from __future__ import annotations

from ragmeter.errors import BackendError, DataError, UserError


class KGInputError(UserError):
    """A request the API refuses (the server answers 422 with this message)."""


class KGDataError(DataError):
    """A domain's data files are missing, unconverted or malformed (the server answers 503)."""


class KGRequestError(BackendError):
    """The KG server refused a client's request; carries its status and message."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        self.message = message
        super().__init__(f"KG server answered {status}: {message}")


class ToolCallError(UserError):
    """A function call from a model names no KG tool or carries invalid arguments."""
