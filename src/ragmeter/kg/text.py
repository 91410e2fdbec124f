"""Name normalisation shared by every name search of the mock KG.

The official API lower-cases a name, turns underscores into spaces, drops
ASCII punctuation and collapses white space before matching; doing the same
here keeps the searches comparable with the benchmark's.
"""

from __future__ import annotations

import string

_DROP_PUNCTUATION = str.maketrans("", "", string.punctuation)


def normalize_name(name: str) -> str:
    """Lower-case, ``_`` → space, ASCII punctuation removed, white space collapsed."""
    return " ".join(name.lower().replace("_", " ").translate(_DROP_PUNCTUATION).split())


def name_tokens(name: str) -> list[str]:
    """The tokens of a normalised name (what a BM25 document or query is made of)."""
    return normalize_name(name).split()
