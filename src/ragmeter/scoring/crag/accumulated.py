"""LlamaIndex's ``accumulate`` response mode: one answer per retrieved chunk, joined.

The engine asks the question of each chunk on its own and joins the answers as "Response 1:
...", "Response 2: ...", with a line of hyphens between them. Nothing combines them, so a
chunk without the fact gives its own decline ("The context does not provide information
about ...") beside chunks that answer. A reader takes the answers given and sets the
declines aside; the reply declines only when no response answers.
"""

from __future__ import annotations

import re

from ragmeter.scoring.refusal import match_refusal

__all__ = ["accumulated_answers"]

_FIRST = re.compile(r"\s*Response 1:\s*")
# The hyphen line between responses, and the next label (cut part-way, or not yet written).
_NEXT = re.compile(r"\n\s*-{3,}\s*(?:\n\s*(?:Response \d+:\s*|[A-Za-z ]*$)|$)")
# A part with no word in it (after the last hyphen line); "Empty Response" is a listed decline.
_WORDLESS = re.compile(r"\W*")
# "The context says the bridge closed in April 2021, but it does not say when it reopened.":
# a related fact from a chunk without the answer, with a note of what it lacks.
_LACKS = re.compile(
    r"\b(?:does\s+not|doesn't|do\s+not|don't)\s+(?:\w+\s+)?(?:say|give|provide|mention|state"
    r"|explain|include|list|indicate|specify|report)\b",
    re.IGNORECASE,
)


def accumulated_answers(text: str) -> list[str] | None:
    """The responses of an ``accumulate`` reply that answer, in order (an empty list when
    every one declines); None for text that does not open with "Response 1:"."""
    opening = _FIRST.match(text)
    if opening is None:
        return None
    parts = _NEXT.split(text[opening.end() :])
    return [
        p.strip()
        for p in parts
        if not _WORDLESS.fullmatch(p) and match_refusal(p.strip()) is None and not _LACKS.search(p)
    ]
