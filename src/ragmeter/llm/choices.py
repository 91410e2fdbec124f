"""Shared logic for choice probabilities: spelling variants, normalisation, verdict parsing.

A classifier prompt ("Answer yes or no") is read as the probability that the
reply *starts with* each choice. Models capitalise freely, so each choice
counts its common case variants ("yes", "Yes", "YES") together.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from ragmeter.errors import BackendError, ConfigError


class VerdictParseError(BackendError):
    """A generated verdict matched none of the choices (so no probability can be given)."""

    def __init__(self, text: str, choices: Sequence[str]):
        self.text = text
        self.choices = list(choices)
        super().__init__(f"reply {text[:200]!r} names none of the choices {self.choices}")


def check_choices(choices: Sequence[str]) -> list[str]:
    """Validate the candidate words: at least two, non-empty, distinct ignoring case."""
    cleaned = [c.strip() for c in choices]
    if len(cleaned) < 2:
        raise ConfigError(f"choice probabilities need at least two choices, got {list(choices)}")
    if any(not c for c in cleaned):
        raise ConfigError(f"empty choice in {list(choices)}")
    if len({c.lower() for c in cleaned}) != len(cleaned):
        raise ConfigError(f"choices must differ ignoring case: {list(choices)}")
    return cleaned


def variants(choice: str) -> list[str]:
    """The spellings of ``choice`` counted together: as given, lower, capitalised, upper."""
    out: list[str] = []
    for v in (choice, choice.lower(), choice[:1].upper() + choice[1:].lower(), choice.upper()):
        if v not in out:
            out.append(v)
    return out


def normalise(raw: Mapping[str, float]) -> tuple[dict[str, float], float]:
    """Normalise probability masses over the choices; also return their total mass."""
    total = sum(raw.values())
    if not math.isfinite(total) or total <= 0.0:
        raise BackendError(f"the model gives no probability to any of the choices {list(raw)}")
    return {k: v / total for k, v in raw.items()}, total


_WORD = re.compile(r"[\w'-]+", re.UNICODE)


def parse_verdict(text: str, choices: Sequence[str]) -> str:
    """The choice a generated reply states: its first word, else the only choice it names.

    Raises `VerdictParseError` when the reply names none or several choices.
    """
    lowered = {c.lower(): c for c in choices}
    stripped = text.strip().lower()
    # Multi-word choices ("not enough information") are matched as prefixes first.
    for low, original in sorted(lowered.items(), key=lambda kv: -len(kv[0])):
        if stripped.startswith(low) and (
            len(stripped) == len(low) or not stripped[len(low)].isalnum()
        ):
            return original
    words = [w.lower() for w in _WORD.findall(text)]
    named = [c for low, c in lowered.items() if low in words]
    if len(named) == 1:
        return named[0]
    raise VerdictParseError(text, choices)
