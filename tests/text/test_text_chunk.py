"""Chunking: exact offsets, token bounds, overlap, paragraph breaks, stable ids."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragmeter.text.chunk import ChunkParams, chunk_id, chunk_text, split_sentences

TEXT = (
    "# Rory McIlroy\n\n"
    "Rory McIlroy is a golfer from Northern Ireland. He was born in 1989. Dr. Smith coached "
    "him in the U.S. for a while. J. K. Rowling was not involved.\n"
    "- 2011 U.S. Open\n"
    "- 2012 PGA Championship\n\n"
    "Year | Tournament\n2014 | The Open\n\n" + " ".join(f"word{i}" for i in range(250)) + ".\n"
)


def test_sentences_respect_abbreviations_and_initials() -> None:
    line = TEXT.split("\n")[2]
    sentences = [line[a:b] for a, b in split_sentences(line)]
    assert sentences == [
        "Rory McIlroy is a golfer from Northern Ireland.",
        "He was born in 1989.",
        "Dr. Smith coached him in the U.S. for a while.",
        "J. K. Rowling was not involved.",
    ]


def test_offsets_bounds_and_overlap() -> None:
    params = ChunkParams(max_tokens=40, overlap_tokens=10, min_tokens=15)
    chunks = chunk_text(TEXT, params, doc_index=3, source="https://x.org")
    assert len(chunks) >= 7
    for c in chunks:
        assert TEXT[c.start : c.end] == c.text
        assert c.n_tokens == len(c.text.split()) <= 40
        assert (c.doc_index, c.source) == (3, "https://x.org")
        assert c.chunk_id == chunk_id(c.text)
    # The 250-word run-on sentence is cut into windows that follow each other.
    tail = [c for c in chunks if "word" in c.text]
    assert tail[0].text.startswith("word0") and tail[-1].text.endswith("word249.")
    # A paragraph break closes a chunk cleanly: the table starts its own chunk.
    assert any(c.text.startswith("Year | Tournament") for c in chunks)
    starts = [c.start for c in chunks]
    assert starts == sorted(starts)


def test_full_chunks_carry_their_last_sentences_over() -> None:
    prose = TEXT.split("\n")[2]
    chunks = chunk_text(prose, ChunkParams(max_tokens=20, overlap_tokens=8, min_tokens=4))
    assert [c.text for c in chunks] == [
        "Rory McIlroy is a golfer from Northern Ireland. He was born in 1989.",
        "He was born in 1989. Dr. Smith coached him in the U.S. for a while.",
        "J. K. Rowling was not involved.",
    ]


def test_ids_are_stable_and_content_addressed() -> None:
    a = chunk_text(TEXT)
    b = chunk_text(TEXT)
    assert [c.chunk_id for c in a] == [c.chunk_id for c in b]
    shifted = chunk_text("New first line.\n\n" + TEXT)
    assert {c.chunk_id for c in a} & {c.chunk_id for c in shifted}


@settings(max_examples=60, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("ab .!?\n|-AZ19")), max_size=600),
    st.integers(8, 40),
    st.integers(0, 12),
)
def test_every_word_is_covered_and_slices_are_exact(
    text: str, max_tokens: int, overlap: int
) -> None:
    params = ChunkParams(max_tokens=max_tokens, overlap_tokens=overlap, min_tokens=4)
    chunks = chunk_text(text, params)
    covered = set()
    for c in chunks:
        assert text[c.start : c.end] == c.text and c.text.strip() == c.text
        assert 0 < c.n_tokens <= max_tokens
        covered.update(range(c.start, c.end))
    for i, ch in enumerate(text):
        if not ch.isspace():
            assert i in covered
