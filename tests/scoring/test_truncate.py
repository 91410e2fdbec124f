"""75-token truncation with the real Llama-2 tokenizer, and the documented fallback."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragmeter.errors import ConfigError
from ragmeter.scoring.crag.truncate import (
    FALLBACK_NAME,
    Truncator,
    find_tokenizer_file,
    load_truncator,
)

LONG = "The quick brown fox, named Émile, jumped over 1,234 lazy dogs in 2019. " * 20


@pytest.fixture(scope="module")
def tokenizer_file(mirror_file) -> Path:  # type: ignore[no-untyped-def]
    return mirror_file("crag/tokenizer/tokenizer.json")  # type: ignore[no-any-return]


def test_cut_keeps_exactly_the_first_75_tokens(tokenizer_file: Path) -> None:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(tokenizer_file))
    t = Truncator(tokenizer_file)
    cut, truncated = t.cut(LONG)
    assert truncated
    assert LONG.startswith(cut)
    ids = tok.encode(LONG, add_special_tokens=False).ids
    # Same tokens as the official cut (first 75 ids, decoded).
    assert tok.encode(cut, add_special_tokens=False).ids == ids[:75]
    assert tok.decode(ids[:75]) == tok.decode(tok.encode(cut, add_special_tokens=False).ids)
    assert t.count(cut) == 75


def test_short_text_untouched(tokenizer_file: Path) -> None:
    t = Truncator(tokenizer_file)
    assert t.cut("Paris") == ("Paris", False)
    assert t.cut("") == ("", False)
    assert not t.fallback and t.name == str(tokenizer_file)


def test_enormous_prediction_is_cheap(tokenizer_file: Path) -> None:
    t = Truncator(tokenizer_file)
    huge = "word " * 2_000_000
    cut, truncated = t.cut(huge)
    assert truncated and t.count(cut) == 75


def test_fallback_never_cuts_more_than_the_tokenizer(tokenizer_file: Path) -> None:
    real, fallback = Truncator(tokenizer_file), Truncator(None)
    assert fallback.fallback and fallback.name == FALLBACK_NAME
    cut_real, _ = real.cut(LONG)
    cut_fb, truncated = fallback.cut(LONG)
    assert truncated and cut_fb.startswith(cut_real)
    assert fallback.count(cut_fb) == 75


def test_resolution(tokenizer_file: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("RAGMETER_CRAG_TOKENIZER", raising=False)
    monkeypatch.setenv("RAGMETER_DATA_MIRROR", str(tmp_path))
    assert find_tokenizer_file() is None
    assert load_truncator().fallback
    with pytest.raises(ConfigError, match="not found"):
        load_truncator(allow_fallback=False)
    monkeypatch.setenv("RAGMETER_CRAG_TOKENIZER", str(tokenizer_file.parent))
    assert find_tokenizer_file() == tokenizer_file
    with pytest.raises(ConfigError, match="not found"):
        find_tokenizer_file(tmp_path / "missing.json")
