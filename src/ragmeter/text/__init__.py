"""HTML to structured plain text, chunking with stable ids and offsets, answer matching.

Importing this package is light: the HTML parser is loaded on first use.
"""

from ragmeter.text.answers import AnswerKey, EvidenceTokens, answer_keys, normalize_tokens
from ragmeter.text.cache import BlobCache, TextCache, default_cache_dir
from ragmeter.text.chunk import Chunk, ChunkParams, chunk_id, chunk_text, split_sentences
from ragmeter.text.extract import (
    EXTRACTOR_VERSION,
    ExtractedPage,
    ExtractLimits,
    decode_html_bytes,
    extract_html,
    extract_page,
    html_hash,
)

__all__ = [
    "EXTRACTOR_VERSION",
    "AnswerKey",
    "BlobCache",
    "Chunk",
    "ChunkParams",
    "EvidenceTokens",
    "ExtractLimits",
    "ExtractedPage",
    "TextCache",
    "answer_keys",
    "chunk_id",
    "chunk_text",
    "decode_html_bytes",
    "default_cache_dir",
    "extract_html",
    "extract_page",
    "html_hash",
    "normalize_tokens",
    "split_sentences",
]
