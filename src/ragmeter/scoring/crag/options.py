"""The two options of a comparison question, and which one an answer names.

"who has won more super bowls, tom brady or peyton manning?" offers two
options; its gold names one. A judge asked "is this the same fact?" is easily
swayed by an answer that names the other option with plausible detail, so
the option the gold picks is found mechanically and the judge is asked a
narrower question (which option does the answer pick?).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragmeter.scoring.crag.names import CODES, name_tokens
from ragmeter.scoring.normalize import FUNCTION_WORDS, tokens

__all__ = [
    "ComparisonOptions",
    "comparison_options",
    "denies_before_naming",
    "first_named",
    "named_options",
    "same_word",
]

_STOP = FUNCTION_WORDS | frozenset(
    ["album", "band", "company", "fewer", "film", "less", "movie", "one", "player", "song", "team"]
)

# "..., X or Y?", "...: X or Y?", "... between X and Y?", "X vs Y"
_MORE_OPTIONS = re.compile(r",(?P<item>[^,]+),\s*$")
# "in 2022, which team had more victories, a or b?": a question between commas, not a
# third option ("an old man and his grandson, b or c" offers three).
_QUESTION_WORD = re.compile(r"\b(?:which|who|what|whose|how|when|where)\b")
_TAIL_OR = re.compile(r"[,:;?]\s*(?:between\s+)?(?P<a>[^,:;?]+?)\s+or\s+(?P<b>[^,:;?]+?)\s*\??\s*$")
# "..., jurassic park or star wars: episode iv - a new hope?": titles may hold colons.
_COMMA_OR = re.compile(r",\s*(?:between\s+)?(?P<a>[^,;]+?)\s+or\s+(?P<b>[^,;?]+?)\s*\??\s*$")
# "is it owned by time warner or universal pictures?"
_PREP_OR = re.compile(
    r"\b(?:by|from|in|at|on|than|to|of|for|with)\s+(?P<a>(?:\S+\s+){0,3}?\S+)\s+or\s+"
    r"(?P<b>[^,;?]+?)\s*\??\s*$"
)
_BETWEEN = re.compile(r"\bbetween\s+(?P<a>.+?)\s+(?:and|or)\s+(?P<b>[^,:;?]+?)(?:[,:;?]|$)")
_VERSUS = re.compile(r"(?P<a>[^,:;]+?)\s+(?:vs\.?|versus)\s+(?P<b>[^,:;?]+?)(?:[,:;?]|$)")
# "does manning or brady have more touchdowns?"
_LEAD_OR = re.compile(
    r"^(?:does|did|do|is|was|are|were|has|have|had|can|could|will|would)\s+"
    r"(?P<a>(?:\S+\s+){0,3}?\S+)\s+or\s+(?P<b>(?:\S+\s+){0,3}?\S+)\s+"
    r"(?:have|has|had|get|got|make|made|earn|earned|score|scored|win|won|hold|held|own|sell"
    r"|sold|play|played|weigh|cost|rank|contain)\b"
)
# "is the galaxy s24 or the galaxy z flip 5 newer?": the options, then a comparative.
_LEAD_OR_COMPARATIVE = re.compile(
    r"^(?:is|was|are|were)\s+(?P<a>(?:\S+\s+){0,5}?\S+)\s+or\s+(?P<b>(?:\S+\s+){0,6}?\S+)\s+"
    r"(?:\w{2,}er|more\s+\w+|less\s+\w+)\s*\??\s*$"
)
# "The age difference between a and b" asks about both options at once, not for a pick.
_NO_PICK = frozenset(["difference", "differ", "gap", "combined", "sum", "together", "distance"])


@dataclass(frozen=True)
class ComparisonOptions:
    """The two options as written in the question, and their distinctive words."""

    first: str
    second: str
    first_words: frozenset[str]
    second_words: frozenset[str]


def _words(text: str) -> frozenset[str]:
    return frozenset(t for t in tokens(text) if t not in _STOP)


def comparison_options(query: str) -> ComparisonOptions | None:
    """The two options a comparison question offers, or None when it offers no clear pair."""
    q = query.strip().lower()
    no_pick = bool(_NO_PICK & set(tokens(q)))
    patterns = (_TAIL_OR, _COMMA_OR, _BETWEEN, _VERSUS, _PREP_OR, _LEAD_OR, _LEAD_OR_COMPARATIVE)
    for pattern in patterns:
        m = pattern.search(q)
        if m is None or (no_pick and pattern is _BETWEEN):
            continue
        more = _MORE_OPTIONS.search(q[: m.start("a")])
        if more and not _QUESTION_WORD.search(more.group("item")):
            return None  # "a, b, or c": three options or more are not a comparison of two
        a, b = m.group("a").strip(), m.group("b").strip()
        wa, wb = _words(a), _words(b)
        if not wa or not wb or len(a.split()) > 8 or len(b.split()) > 8:
            continue
        # Words both options share ("the", "inc", a common surname) tell them apart poorly.
        common = wa & wb
        if wa - common and wb - common:
            return ComparisonOptions(a, b, wa - common, wb - common)
    return None


def same_word(a: str, b: str) -> bool:
    """Equal, or the same long word misspelt at its end ("carpenterers" for "carpenters")."""
    if a == b:
        return True
    n = min(len(a), len(b))
    if n < 6:
        return False
    common = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), n)
    return common >= max(6, int(0.75 * n))


def _one_edit(a: str, b: str) -> bool:
    """A long word one letter off ("gretsky" for "gretzky"): one substitution, insertion
    or deletion."""
    if min(len(a), len(b)) < 6 or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    return a[i + (len(a) == len(b)) :] == b[i + 1 :]


def _option_word(option_word: str, tok: str) -> bool:
    # Between two fixed options a misspelt name still names one of them.
    return same_word(option_word, tok) or _one_edit(option_word, tok)


def _has(words: frozenset[str], tok: str) -> bool:
    return any(_option_word(w, tok) for w in words)


def _mentions(words: frozenset[str], text_tokens: set[str]) -> bool:
    if not words:
        return False
    hit = sum(1 for w in words if any(_option_word(w, t) for t in text_tokens))
    # A surname alone names a person ("brady"); require most words of longer names.
    return hit >= max(1, (len(words) + 1) // 2)


def _other_names(option: str) -> list[list[str]]:
    """The option written as one word ("mrbeast") and, for a country code, its names."""
    words = name_tokens(option)
    out = [["".join(words)]] if len(words) > 1 else []
    out += [n.split() for n in CODES.get(" ".join(words), ()) if " " in n or len(n) > 2]
    return out


def _other_name_at(option: str, toks: list[str]) -> int | None:
    starts = [
        i
        for name in _other_names(option)
        for i in range(len(toks) - len(name) + 1)
        if toks[i : i + len(name)] == name
    ]
    return min(starts) if starts else None


def named_options(options: ComparisonOptions, text: str) -> tuple[bool, bool]:
    """Whether ``text`` names the first option, and whether it names the second."""
    listed = name_tokens(text)
    toks = set(listed)
    return (
        _mentions(options.first_words, toks) or _other_name_at(options.first, listed) is not None,
        _mentions(options.second_words, toks) or _other_name_at(options.second, listed) is not None,
    )


def first_named(options: ComparisonOptions, text: str) -> int | None:
    """Which option ``text`` names first (0 or 1), or None when it names neither."""
    toks = name_tokens(text)
    lead: int | None = None
    for i, tok in enumerate(toks):
        in_first, in_second = _has(options.first_words, tok), _has(options.second_words, tok)
        if in_first != in_second:
            lead = i
            break
    firsts: list[tuple[int, int]] = []
    for side, option in enumerate((options.first, options.second)):
        at = _other_name_at(option, toks)
        if at is not None:
            firsts.append((at, side))
    if lead is not None:
        in_first = _has(options.first_words, toks[lead])
        firsts.append((lead, 0 if in_first else 1))
    return min(firsts)[1] if firsts else None


_DENIAL = frozenset(
    [
        *("neither", "nor", "never", "not", "no", "none"),
        *("isnt", "wasnt", "arent", "werent", "hasnt", "havent", "hadnt", "doesnt", "didnt"),
    ]
)
_CLAUSE_BREAK = re.compile(r"[.;:!?](?:\s+|$)")


def denies_before_naming(options: ComparisonOptions, text: str) -> bool:
    """True when the clause that first names an option denies before naming it ("Based on
    the context, neither INBX nor RXRX has a meaningful P/E", "Brad Pitt was never married
    to Nicole Kidman or Katie Holmes"): no option is chosen, whichever comes first."""
    for clause in _CLAUSE_BREAK.split(text):
        toks = name_tokens(clause)
        at = next(
            (
                i
                for i, t in enumerate(toks)
                if _has(options.first_words, t) or _has(options.second_words, t)
            ),
            None,
        )
        if at is not None:
            return bool(_DENIAL & set(toks[:at]))
    return False
