"""A reply written twice, in English and in French, read by its English.

A service for a bilingual audience (a Canadian public body's, say) answers in both official
languages, one paragraph after the other: "The plant was cooled by a pond fed by the Pripyat
River.\\n\\nLa centrale était refroidie par un étang alimenté par la rivière Pripiat." The
French paragraph states again what the English one does; read beside it, its words count as
extra items and its figures ("170,78 milliards") as other figures. Only a reply with as many
French paragraphs as English ones is changed, so a French name, title or quotation in an
English reply stays.
"""

from __future__ import annotations

import re

__all__ = ["without_translation"]

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# Words common in running text of one language and rare in the other's.
_FRENCH = frozenset(
    [
        "le",
        "la",
        "les",
        "des",
        "du",
        "est",
        "sont",
        "une",
        "dans",
        "pour",
        "avec",
        "qui",
        "ne",
        "pas",
        "sur",
        "par",
        "environ",
        "été",
        "ont",
        "elle",
        "cette",
        "ses",
        "aux",
        "je",
        "au",
        "avait",
        "était",
        "selon",
        "mais",
        "aussi",
        "leur",
        "d'un",
        "d'une",
        "l'a",
        "n'ai",
        "n'est",
        "c'est",
        "et",
        "en",
        "de",
        "un",
    ]
)
_ENGLISH = frozenset(
    [
        "the",
        "is",
        "are",
        "of",
        "was",
        "were",
        "with",
        "that",
        "it",
        "by",
        "on",
        "at",
        "in",
        "to",
        "and",
        "for",
        "as",
        "about",
        "has",
        "have",
        "had",
        "which",
        "from",
        "this",
        "their",
        "an",
        "not",
        "could",
        "find",
    ]
)
_LONGER = 1.6
_ACCENTED = re.compile(r"[éèêàçùâîôû]", re.IGNORECASE)


def _words(paragraph: str) -> set[str]:
    return {w.lower().replace("’", "'") for w in _WORD.findall(paragraph)}


def _language(own: set[str], others: set[str]) -> str | None:
    """ "fr" or "en" for a paragraph whose words not found in the others (the names and
    titles a translation keeps are in both) read more as French, by its function words and
    words with accents, or more as English; else None."""
    words = own - others
    french = sum(w in _FRENCH or _ACCENTED.search(w) is not None for w in words)
    english = sum(w in _ENGLISH for w in words)
    if french >= 2 and french > english:
        return "fr"
    return "en" if english > french else None


def without_translation(text: str) -> str:
    """``text`` without its French paragraphs when it holds as many English ones; any other
    text as it is."""
    paragraphs = _PARAGRAPH_BREAK.split(text.strip())
    if len(paragraphs) < 2:
        return text
    words = [_words(p) for p in paragraphs]
    languages = [
        _language(own, set().union(*(w for j, w in enumerate(words) if j != i)))
        for i, own in enumerate(words)
    ]
    english = [p for p, lang in zip(paragraphs, languages, strict=True) if lang == "en"]
    french = [p for p, lang in zip(paragraphs, languages, strict=True) if lang == "fr"]
    if not french or len(french) != len(english):
        return text  # a translation has a French paragraph for each English one
    for i, (source, translated) in enumerate(zip(english, french, strict=True)):
        # A translation runs about as long as what it translates; the last may be cut short.
        cut_short = i == len(french) - 1 and paragraphs[-1] == translated
        if len(translated) > _LONGER * len(source) or (
            not cut_short and len(translated) < len(source) / _LONGER
        ):
            return text
    return "\n\n".join(p for p, lang in zip(paragraphs, languages, strict=True) if lang != "fr")
