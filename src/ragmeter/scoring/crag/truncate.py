"""Cut predictions to their first 75 tokens, as the official CRAG evaluation does.

The official evaluation encodes each prediction with the Llama-2 tokenizer
(without special tokens), keeps the first 75 tokens and decodes them. We keep
the same tokens but cut the original text at the end offset of the last kept
token, so the characters scored are exactly the characters given.

The tokenizer file is found, in order: an explicit path; the environment
variable ``RAGMETER_CRAG_TOKENIZER``; ``crag/tokenizer/tokenizer.json`` in each
data mirror folder (``RAGMETER_DATA_MIRROR``, separated by the path separator).
When none exists and a fallback is allowed, predictions are cut at 75
*words-or-punctuation-marks* instead: every word and every punctuation mark is
at least one Llama-2 token, so this fallback never cuts more than the official
one (it may keep a little more). Results record which was used.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from ragmeter.errors import ConfigError, DataError

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "FALLBACK_NAME",
    "TOKENIZER_ENV",
    "Truncator",
    "find_tokenizer_file",
    "load_truncator",
]

DEFAULT_MAX_TOKENS = 75
TOKENIZER_ENV = "RAGMETER_CRAG_TOKENIZER"
MIRROR_ENV = "RAGMETER_DATA_MIRROR"
MIRROR_RELATIVE = Path("crag") / "tokenizer" / "tokenizer.json"
FALLBACK_NAME = "fallback:words-and-punctuation"
# Only this many characters are tokenized: 75 Llama-2 tokens never span more
# (the longest vocabulary piece is 16 characters), and it keeps enormous
# predictions cheap.
_CHAR_WINDOW = 64 * 1024
_PIECE = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def find_tokenizer_file(path: str | Path | None = None) -> Path | None:
    """The Llama-2 ``tokenizer.json`` to use, or None when none can be found.

    An explicit ``path`` that does not exist is an error, not a silent fallback.
    """
    if path is not None:
        p = Path(path)
        if p.is_dir():
            p = p / "tokenizer.json"
        if not p.is_file():
            raise ConfigError(f"tokenizer file not found: {p}")
        return p
    env = os.environ.get(TOKENIZER_ENV)
    if env:
        return find_tokenizer_file(env)
    for folder in (os.environ.get(MIRROR_ENV) or "").split(os.pathsep):
        if folder:
            candidate = Path(folder) / MIRROR_RELATIVE
            if candidate.is_file():
                return candidate
    return None


class Truncator:
    """Cuts texts to their first ``max_tokens`` tokens (Llama-2, or the documented fallback)."""

    def __init__(self, tokenizer_file: Path | None, max_tokens: int = DEFAULT_MAX_TOKENS):
        if max_tokens < 1:
            raise ConfigError("max_tokens must be at least 1")
        self.max_tokens = max_tokens
        self.tokenizer_file = tokenizer_file
        self._tokenizer = None
        if tokenizer_file is not None:
            from tokenizers import Tokenizer

            try:
                self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
            except Exception as exc:  # the library raises a bare Exception on a bad file
                raise DataError(f"cannot load tokenizer: {exc}", path=tokenizer_file) from None

    @property
    def fallback(self) -> bool:
        """True when the Llama-2 tokenizer is absent and the word fallback is used."""
        return self._tokenizer is None

    @property
    def name(self) -> str:
        """The tokenizer file, or the fallback's name."""
        return str(self.tokenizer_file) if self.tokenizer_file is not None else FALLBACK_NAME

    def cut(self, text: str) -> tuple[str, bool]:
        """``(first max_tokens tokens of text, whether anything was cut)``."""
        if not text:
            return text, False
        window = text[:_CHAR_WINDOW]
        if self._tokenizer is None:
            end = self._fallback_end(window)
        else:
            enc = self._tokenizer.encode(window, add_special_tokens=False)
            if len(enc.ids) <= self.max_tokens:
                end = len(window)
            else:
                end = enc.offsets[self.max_tokens - 1][1]
        if end >= len(text):
            return text, False
        return text[:end], True

    def count(self, text: str) -> int:
        """Number of tokens (or fallback pieces) in ``text``."""
        if self._tokenizer is None:
            return sum(1 for _ in _PIECE.finditer(text))
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)

    def _fallback_end(self, text: str) -> int:
        for i, m in enumerate(_PIECE.finditer(text)):
            if i == self.max_tokens - 1:
                return m.end()
        return len(text)


@lru_cache(maxsize=8)
def _cached(path: Path | None, max_tokens: int) -> Truncator:
    return Truncator(path, max_tokens)


def load_truncator(
    path: str | Path | None = None,
    *,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    allow_fallback: bool = True,
) -> Truncator:
    """The truncator for ``path`` (or the one found in the mirror); loaded once per process.

    Without a tokenizer file, raises `ConfigError` unless ``allow_fallback``.
    """
    found = find_tokenizer_file(path)
    if found is None and not allow_fallback:
        raise ConfigError(
            "the Llama-2 tokenizer (crag/tokenizer/tokenizer.json) was not found: set "
            f"{TOKENIZER_ENV} or {MIRROR_ENV}, or pass --tokenizer"
        )
    return _cached(found.resolve() if found else None, max_tokens)
