"""Comparisons used by the KG tests."""

from __future__ import annotations

from typing import Any

import orjson


def canonical(value: Any) -> bytes:
    """JSON text with sorted keys: equal only for equal values of equal JSON types."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def contains_recorded(served: Any, recorded: Any) -> bool:
    """Whether ``served`` holds everything a cut-short recording shows (lists as prefixes)."""
    if isinstance(recorded, dict):
        return isinstance(served, dict) and all(
            k in served and contains_recorded(served[k], v) for k, v in recorded.items()
        )
    if isinstance(recorded, list):
        return (
            isinstance(served, list)
            and len(served) >= len(recorded)
            and all(contains_recorded(s, r) for s, r in zip(served, recorded, strict=False))
        )
    return canonical(served) == canonical(recorded)


def same_set(served: Any, recorded: Any) -> bool:
    """Whether two lists hold the same items in any order."""
    return isinstance(served, list) and sorted(map(canonical, served)) == sorted(
        map(canonical, recorded)
    )
