"""Spanish in a reply, read as the English it states: what the rules and judges compare.

A system built for Spanish-speaking users answers English questions in Spanish: "28 de junio
de 1926" is June 28, 1926, "1.560 palabras" is 1,560 words, "unos 5,4 billones de dólares"
is about $5.4 trillion (a Spanish "billón" is a million million), "No encontré información"
declines, "Probablemente X" hedges and "Nunca ganó el Masters" denies. The rubric judges what
a reply states, whatever its language, so a reply that reads as Spanish is rewritten word by
word into the English the rules and the judges' prompts are written for:

- dates with Spanish month names, and slash dates day first ("03/05/2024" is 3 May 2024),
  as a Spanish writer means them;
- figures: dots between thousands, "mil", "millones", "mil millones" and "billones" at the
  precision they state, money in dollars, euros and pounds, ordinals ("76.ª" is 76th),
  numbers said as words;
- the words and phrases of ``data/spanish_glossary.tsv``: declines, hedges, denials,
  joiners, function words, the verbs and nouns answers use most, and places, languages and
  nationalities with a Spanish form.

Other words stay as written. Decimal commas ("189,84") are left to the European-figures
reader that runs after this one. A reply that does not read as Spanish is returned
unchanged: English replies with a Spanish name in them ("Frenkie de Jong", "La La Land")
are not touched.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache

from ragmeter.scoring.normalize import format_ordinal, normalize_answer
from ragmeter.scoring.phrases import data_file

__all__ = ["has_spanish", "spanish_as_english"]

_PACKAGE = "ragmeter.scoring.crag"
_WORD = re.compile(r"[^\W\d_]+")
_ENGLISH_WORDS = (
    "the of and is was in to for with on by has have are were it that this from at as an "
    "not her his their its he she they who which or but be will had did most include includes"
)
_ENGLISH_MARKERS = frozenset(_ENGLISH_WORDS.split())
# Glossary words that English also writes ("actor", "era", "solo", "disco", "mayo").
_SHARED_WORDS = (
    "a e o u son era solo series director actor original mar hay disco gales mayo dos sin "
    "total miles no"
)
_SHARED = frozenset(_SHARED_WORDS.split())

_MONTH_NAMES = "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre"
_MONTHS = dict(zip(f"{_MONTH_NAMES} diciembre".split(), calendar.month_name[1:], strict=True))
_MONTHS["setiembre"] = "September"
_MONTH = "|".join(_MONTHS)
_FULL_DATE = re.compile(
    rf"\b(el\s+)?(\d{{1,2}})(?:\.?º)?\s+de\s+({_MONTH})\s+del?\s+(\d{{4}})\b", re.IGNORECASE
)
_MONTH_YEAR = re.compile(rf"\b({_MONTH})\s+del?\s+(\d{{4}})\b", re.IGNORECASE)
_DAY_MONTH = re.compile(rf"\b(el\s+)?(\d{{1,2}})(?:\.?º)?\s+de\s+({_MONTH})\b", re.IGNORECASE)
_SLASH_DATE = re.compile(r"\b(el\s+)?(?<![\d/.])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d/])")

_NUM = r"\d[\d,]*(?:\.\d+)?"
# "1.560", "487.000": a dot before three digits groups thousands in Spanish (not before
# a decimal comma: "1.234,56" is left whole to the European-figures reader).
_DOT_THOUSANDS = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?:\.\d{3})+(?![\d]|,\d)")
# "12 millones de oyentes" is "12 million listeners".
_OF = r"(?:\s+de(?=\s))?"
_SCALES = [
    (re.compile(rf"({_NUM}(?:,\d+)?)\s+mil\s+millones\b{_OF}", re.IGNORECASE), "billion"),
    (re.compile(rf"({_NUM}(?:,\d+)?)\s+(?:millones|millón)\b{_OF}", re.IGNORECASE), "million"),
    (re.compile(rf"({_NUM}(?:,\d+)?)\s+(?:billones|billón)\b{_OF}", re.IGNORECASE), "trillion"),
    (re.compile(rf"({_NUM}(?:,\d+)?)\s+mil\b", re.IGNORECASE), "thousand"),
]
_THOUSANDS_OF_MILLIONS = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+) million\b")
_AMOUNT = rf"{_NUM}(?:,\d{{1,2}})?(?:\s(?:thousand|million|billion|trillion))?"
_CURRENCIES = {"dólares": "$", "dólar": "$", "euros": "€", "euro": "€", "libras": "£"}
_MONEY_AFTER = re.compile(
    rf"(?:US\$\s*|\$\s*)?({_AMOUNT})\s+(?:de\s+)?(dólares|dólar|euros|euro|libras)"
    r"(?:\s+estadounidenses)?\b",
    re.IGNORECASE,
)
_US_DOLLAR = re.compile(r"\bUS\$\s*(?=\d)")
_PERCENT = re.compile(r"(?<=\d)\s+%")
_ORDINAL = re.compile(r"\b(\d+)\s*\.?\s*(?:[ºª]|er\b)")
_PUNCTUATION = str.maketrans({"«": '"', "»": '"', "¿": "", "¡": ""})
_SENTENCE_START = re.compile(r"(?:^|[.!?:;(\"\n]\s*)$")
# Particles inside a name ("Frenkie de Jong", "Universidad de Columbia") stay as written.
_NAME_PARTICLES = frozenset({"el", "la", "los", "las", "de", "del"})
# Words that English text writes in Spanish names ("El Salvador", "Al Nassr", "Los Angeles",
# "Del Harris"): alone, they do not make a reply Spanish.
_IN_NAMES = _NAME_PARTICLES | {"al", "en", "un", "una", "con", "lo", "se", "su", "sus"}
_CAPITALISED_BEFORE = re.compile(r"[A-ZÁÉÍÓÚÑ][^\W\d_]*\.?\s+$")
_NOT = re.compile(r"(?<![^\W_])no\s+(?=[^\W\d_A-ZÁÉÍÓÚÑ])")
_NONE_WORDS = frozenset({"ningún", "ninguna", "ninguno"})
_NEGATED = re.compile(r"\b(?:no|nunca|jamás)\b[^.;:!?]*$", re.IGNORECASE)
_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_STOP = re.compile(r"[ \t]+(?=[.,;:!?)])")


@lru_cache(maxsize=1)
def _glossary() -> tuple[dict[str, str], frozenset[str], re.Pattern[str]]:
    """The glossary's entries, those read capitalised anywhere, and a pattern matching any
    entry as whole words, the longest first."""
    entries: dict[str, str] = {}
    anywhere: set[str] = set()
    in_anywhere = False
    path = data_file("spanish_glossary.tsv", _PACKAGE)
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.strip() == "[anywhere]":
            in_anywhere = True
            continue
        spanish, _, english = line.partition("\t")
        entries[spanish] = english
        if in_anywhere:
            anywhere.add(spanish)
    words = sorted(map(re.escape, entries), key=len, reverse=True)
    pattern = re.compile(rf"(?<![^\W_])(?:{'|'.join(words)})(?![^\W_])", re.IGNORECASE)
    return entries, frozenset(anywhere), pattern


def _reading(m: re.Match[str]) -> str | None:
    """The English for a glossary match, or None where the words are a name's:
    a particle between capitalised words ("Frenkie de Jong"), or a capitalised word that
    does not start a sentence ("Los Alamos"; places and languages excepted)."""
    entries, anywhere, _ = _glossary()
    found = m[0]
    key = found.lower()
    english = entries[key]
    before, after = m.string[: m.start()], m.string[m.end() :].lstrip()
    if key in _NAME_PARTICLES and _CAPITALISED_BEFORE.search(before) and after[:1].isupper():
        return None
    if not found[0].isupper() or key in anywhere:
        return english
    # A particle that starts a sentence before a capitalised word may be a name's too
    # ("El Tottenham", "La La Land", "Del Harris").
    if not _SENTENCE_START.search(before) or (key in _IN_NAMES and after[:1].isupper()):
        return None
    return english[:1].upper() + english[1:]


def has_spanish(text: str) -> bool:
    """True when ``text`` reads as Spanish: it has Spanish words the glossary would read
    (not words English writes too), and more of them than English function words, or some
    and no English function word at all."""
    _, _, pattern = _glossary()
    spanish = {
        m[0].lower()
        for m in pattern.finditer(text)
        if m[0].lower() not in _SHARED and m[0] != m[0].upper() and _reading(m) is not None
    }
    # English words in a title ("por The Artist") are not English prose.
    english = sum(
        1
        for m in _WORD.finditer(text)
        if m[0].lower() in _ENGLISH_MARKERS
        and (m[0].islower() or _SENTENCE_START.search(text[: m.start()]))
    )
    strong = spanish - _IN_NAMES
    if english == 0:
        return len(spanish) >= 2 or bool(strong)
    # Beside English words, particles may be a name's ("Antonio de la Rúa and ...").
    return bool(strong) and len(spanish) >= 2 and len(spanish) > english


def _dates(text: str) -> str:
    def month(name: str) -> str:
        return _MONTHS[name.lower()]

    def on(m: re.Match[str]) -> str:
        # "el 3 de marzo" is "on March 3"
        return "on " if m[1] else ""

    text = _FULL_DATE.sub(lambda m: f"{on(m)}{month(m[3])} {int(m[2])}, {m[4]}", text)
    text = _MONTH_YEAR.sub(lambda m: f"{month(m[1])} {m[2]}", text)
    text = _DAY_MONTH.sub(lambda m: f"{on(m)}{month(m[3])} {int(m[2])}", text)

    def day_first(m: re.Match[str]) -> str:
        day, number, year = int(m[2]), int(m[3]), m[4]
        if not (1 <= number <= 12 and 1 <= day <= 31):
            return m[0]
        return f"{on(m)}{calendar.month_name[number]} {day}, {year}"

    return _SLASH_DATE.sub(day_first, text)


def _figures(text: str) -> str:
    text = _DOT_THOUSANDS.sub(lambda m: m[0].replace(".", ","), text)
    for pattern, scale in _SCALES:
        text = pattern.sub(rf"\1 {scale}", text)
    text = _THOUSANDS_OF_MILLIONS.sub(_in_billions, text)
    text = _MONEY_AFTER.sub(lambda m: f"{_CURRENCIES[m[2].lower()]}{m[1]}", text)
    text = _US_DOLLAR.sub("$", text)
    text = _PERCENT.sub("%", text)
    return _ORDINAL.sub(lambda m: format_ordinal(int(m[1])), text)


def _in_billions(m: re.Match[str]) -> str:
    """ "487,000 million" as "487 billion", "8,450 million" as "8.45 billion": Spanish counts
    thousands of millions where English says billions."""
    billions = Decimal(m[1].replace(",", "")) / 1000
    return f"{billions.normalize():f} billion"


def _words(text: str) -> str:
    _, _, pattern = _glossary()

    def read(m: re.Match[str]) -> str:
        english = _reading(m)
        if english is None:
            return m[0]
        if m[0].lower() in _NONE_WORDS and _NEGATED.search(m.string[: m.start()]):
            # "no había ganado ningún Grammy": after a negation, "ningún" is "any".
            return "any"
        return english

    text = pattern.sub(read, text)
    # "Bitcoin no was released": a "no" left before a word negates it.
    return _NOT.sub("not ", text)


def spanish_as_english(text: str, answers: Sequence[str] = ()) -> str:
    """``text`` with its Spanish dates, figures and glossary words in English; unchanged
    when it does not read as Spanish, or when a gold answer among ``answers`` is Spanish
    words itself ("nadie sabe lo que va a pasar mañana", an album's title, is met by the
    same Spanish words, not by their English)."""
    if not has_spanish(text):
        return text
    # Of a word or two ("es"), a gold may be a code rather than Spanish; a reply that is a
    # gold word for word ("es.") has nothing to translate.
    said = normalize_answer(text)
    if any(
        (len(a.split()) >= 3 and has_spanish(a)) or normalize_answer(a) == said for a in answers
    ):
        return text
    text = _dates(text.translate(_PUNCTUATION))
    text = _words(_figures(text))
    text = _SPACE_BEFORE_STOP.sub("", _SPACES.sub(" ", text))
    return "\n".join(line.strip() for line in text.split("\n")).strip()
