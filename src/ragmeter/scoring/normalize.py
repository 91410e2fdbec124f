"""Answer normalisation for exact and alias matching.

Two answers that differ only in case, accents, punctuation, articles, white
space, number words versus digits ("twenty-one" / "21"), thousands separators
("1,234" / "1234") or trailing decimal zeros ("2.50" / "2.5") normalise to the
same string. The transformation is applied identically to both sides of a
comparison, so an imperfection (e.g. "second" is left alone because it is also
a unit of time) never makes two different answers match that would not match
as written.
"""

from __future__ import annotations

import ast
import json
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from urllib.parse import unquote_plus

__all__ = [
    "FUNCTION_WORDS",
    "NUMBER_WORDS",
    "ORDINAL_WORDS",
    "answer_sentence",
    "as_bpe_decoded",
    "as_detokenized",
    "as_form_decoded",
    "as_unescaped",
    "as_written",
    "bracket_labels_as_text",
    "capitals_as_names",
    "contains_in_order",
    "contains_words",
    "format_number",
    "format_ordinal",
    "is_chat_opener",
    "normalize_answer",
    "normalize_text",
    "number_value",
    "opening_sentence",
    "repaired_mojibake",
    "strip_citation_markers",
    "strip_markup",
    "tokens",
    "without_chat",
    "without_markdown_escapes",
    "without_repeated_lines",
    "without_sms_frame",
]

_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_TEENS = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {
    "thousand": 10**3,
    "million": 10**6,
    "billion": 10**9,
    "trillion": 10**12,
}
# Ordinal words become "1st", "3rd"...; "second" is left out on purpose: it is
# far more often the unit of time than the ordinal in short answers.
_ORDINALS = {
    "first": "1st",
    "third": "3rd",
    "fourth": "4th",
    "fifth": "5th",
    "sixth": "6th",
    "seventh": "7th",
    "eighth": "8th",
    "ninth": "9th",
    "tenth": "10th",
    "eleventh": "11th",
    "twelfth": "12th",
}
_ARTICLES = frozenset({"a", "an", "the"})

FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "with",
        "by",
        "from",
        "and",
        "or",
        "is",
        "was",
        "are",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "which",
        "who",
        "what",
        "whom",
        "whose",
        "that",
        "this",
        "these",
        "those",
        "it",
        "its",
        "their",
        "his",
        "her",
        "than",
        "more",
        "most",
    ]
)
"""Words that carry no content of their own (articles, prepositions, auxiliaries, pronouns)."""

NUMBER_WORDS: dict[str, int] = {**_UNITS, **_TEENS, **_TENS}
"""Cardinal number words up to ninety, with their values."""
ORDINAL_WORDS: dict[str, int] = {w: int(v[:-2]) for w, v in _ORDINALS.items()}
"""Ordinal number words ("third"), with their values; "second" is left out (a unit of time)."""

_THOUSANDS_SEP = re.compile(r"(?<=\d)[,\u202f\u00a0](?=\d{3}(?!\d))")
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")
_NEGATIVE = re.compile(r"(?:(?<=^)|(?<=[\s(]))[-\u2212](?=\d)")
_APOSTROPHES = re.compile(r"['\u2018\u2019\u02bb\u02bc\u2032`]")
_NUMERIC = re.compile(r"^\d+(?:\.\d+)?$")
_PROTECTED_DOT = "\u2024"  # one-dot leader: stands in for a decimal point while punctuation goes


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _is_punct(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat.startswith("P") or cat.startswith("S")


def normalize_text(text: str) -> str:
    """Lower case, strip accents, drop punctuation and collapse white space.

    Decimal points between digits, thousands separators (removed) and a minus
    sign before a number (kept as the word ``minus``) survive; apostrophes are
    removed without leaving a space, so "don't" becomes "dont".
    """
    t = _strip_accents(unicodedata.normalize("NFKC", text)).casefold()
    # Repeated so that "1,234,567" loses both separators (matches cannot overlap).
    t = _THOUSANDS_SEP.sub("", t)
    t = _THOUSANDS_SEP.sub("", t)
    t = _NEGATIVE.sub("minus ", t)
    t = _DECIMAL_POINT.sub(_PROTECTED_DOT, t)
    t = t.replace("%", " percent ")
    t = _APOSTROPHES.sub("", t)
    t = "".join(" " if _is_punct(ch) and ch != _PROTECTED_DOT else ch for ch in t)
    t = t.replace(_PROTECTED_DOT, ".")
    return " ".join(t.split())


def number_value(token: str) -> Decimal | None:
    """The value of a digit token ("12", "2.50"), or None when it is not one."""
    if not _NUMERIC.match(token):
        return None
    try:
        return Decimal(token)
    except InvalidOperation:  # pragma: no cover - the regex admits only valid decimals
        return None


def format_number(value: Decimal) -> str:
    """Canonical digits: no exponent, no trailing decimal zeros."""
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def format_ordinal(n: int) -> str:
    """``n`` as an English ordinal in digits: 1st, 22nd, 76th, 113th."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _word_number_tokens(words: list[str]) -> list[str]:
    """Replace runs of number words (and digits followed by scale words) by digits."""
    out: list[str] = []
    i = 0
    n = len(words)
    while i < n:
        value, used = _parse_number(words, i)
        if used:
            out.append(format_number(value))
            i += used
        else:
            w = words[i]
            num = number_value(w)
            out.append(format_number(num) if num is not None else _ORDINALS.get(w, w))
            i += 1
    return out


def _parse_number(words: list[str], start: int) -> tuple[Decimal, int]:
    """Parse the longest well-formed number starting at ``start``.

    Returns ``(value, tokens_used)``; ``tokens_used`` is 0 when no number
    words start there. A lone digit token is not consumed here (the caller
    formats it); digits count only when a scale word follows ("1.2 million").
    """
    total = Decimal(0)
    current = Decimal(0)
    last: str | None = None  # kind of the previous token in this number
    last_scale = 10**15
    used = 0
    i = start
    saw_word = False
    while i < len(words):
        w = words[i]
        digits = number_value(w)
        if digits is not None:
            if last is not None:
                break
            current = digits
            last = "digits"
        elif w in _UNITS:
            if last not in (None, "tens", "hundred", "scale"):
                break
            current += _UNITS[w]
            last = "unit"
            saw_word = True
        elif w in _TEENS:
            if last not in (None, "hundred", "scale"):
                break
            current += _TEENS[w]
            last = "teen"
            saw_word = True
        elif w in _TENS:
            if last not in (None, "hundred", "scale"):
                break
            current += _TENS[w]
            last = "tens"
            saw_word = True
        elif w == "hundred":
            if last == "hundred" or current >= 100:
                break
            current = (current if last is not None else Decimal(1)) * 100
            last = "hundred"
            saw_word = True
        elif w in _SCALES:
            scale = _SCALES[w]
            if scale >= last_scale:
                break
            total += (current if last is not None else Decimal(1)) * scale
            current = Decimal(0)
            last_scale = scale
            last = "scale"
            saw_word = True
        elif w == "and" and last in ("hundred", "scale") and i + 1 < len(words):
            nxt = words[i + 1]
            if nxt not in _UNITS and nxt not in _TEENS and nxt not in _TENS:
                break
            i += 1
            continue
        else:
            break
        i += 1
        used = i - start
    if not saw_word:
        return Decimal(0), 0
    return total + current, used


def tokens(text: str) -> list[str]:
    """Normalised tokens of ``text`` with articles removed and numbers as digits."""
    words = normalize_text(text).split()
    # Articles go before number parsing so that "a hundred" reads as "hundred" = 100.
    words = [w for w in words if w not in _ARTICLES]
    return _word_number_tokens(words)


def normalize_answer(text: str) -> str:
    """The canonical form used to compare a prediction with a gold answer."""
    return " ".join(tokens(text))


def contains_words(text: str, part: str) -> bool:
    """True when ``part`` appears in ``text`` word for word, after normalisation."""
    hay, needle = tokens(text), tokens(part)
    n = len(needle)
    return n > 0 and any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


def contains_in_order(text: str, part: str, max_gap: int = 3, max_words: int = 8) -> bool:
    """True when the content words of a short ``part`` appear in ``text`` in order, each
    at most ``max_gap`` words after the one before ("MetLife Stadium in East Rutherford,
    New Jersey" holds "metlife stadium in new jersey"; "&" and "and" are alike)."""
    needle = [w for w in tokens(part.replace("&", " and ")) if w not in FUNCTION_WORDS]
    if not needle or len(needle) > max_words:
        return False
    hay = tokens(text.replace("&", " and "))
    for start in (i for i, w in enumerate(hay) if w == needle[0]):
        at, found = start, 1
        while found < len(needle):
            window = range(at + 1, min(len(hay), at + max_gap + 2))
            nxt = next((j for j in window if hay[j] == needle[found]), None)
            if nxt is None:
                break
            at, found = nxt, found + 1
        if found == len(needle):
            return True
    return False


# "[1]", "[1][2]", "[1, 3]", "[2-4]", "[^1]": markers pointing at a retrieved source.
_CITATION_MARKER = re.compile(r"[ \t]*(?:\[\^?\d{1,3}(?:\s*[,\u2013-]\s*\d{1,3})*\])+(?![\w(])")


# "We see passage 1 lists ...", "source 3 says ...": a source named by its number; the number
# is no figure of the answer.
_NUMBERED_SOURCE = re.compile(
    r"\b(passage|snippet|chunk|document|doc|source|excerpt|context|result|reference)"
    r"\s*#?\s*\d{1,2}\b(?![.,]\d)",
    re.IGNORECASE,
)


# "[Relevant]...[Fully supported][Utility:5]": a Self-RAG model's reflection tokens, which
# grade its own retrieval and support; "[Partially supported]" and "[No support /
# Contradictory]" say doubt and stay.
_REFLECTION_TOKEN = re.compile(
    r"\[(?:relevant|irrelevant|no retrieval|retrieval|retrieve|fully supported"
    r"|continue to use evidence|utility\s*:\s*\d)\]",
    re.IGNORECASE,
)


# "【4:0†page_1.html】": a file-search annotation an assistants API leaves in the text.
_ANNOTATION = re.compile(r"[ \t]*\u3010[^\u3011\n]{0,120}\u3011")


# "[Data: Sources (2, 5); Entities (4, 9, +more)]": a graph-based RAG's references to the
# records behind a sentence, sometimes cut off by the 75-token limit before they close.
_DATA_REFERENCE = re.compile(
    r"[ \t]*\[Data:\s*(?:Sources|Entities|Relationships|Reports|Claims)\b[^\]\n]{0,200}"
    r"(?:\]|$)",
    re.IGNORECASE,
)


# "[Search(Tamsworth Lock reopening date)]": an active-retrieval model's lookup, written
# where it needed a fact and left in the text (cut off too: "[Search(Lloyd Simandl bo").
# A call that shows its result inside ("[Calculator(4/2) → 2]") is kept.
_TOOL_CALL = re.compile(
    r"[ \t]*\[(?:search|retrieve|retrieval|lookup|look_up|query|web_search|websearch"
    r"|wiki(?:pedia)?(?:_?search)?)\((?:[^()\]\n]{0,200}\)\]|[^()\]\n]{0,200}$)",
    re.IGNORECASE,
)
# "(ticket #48213)", "case no. 5521-A": a support desk's reference, no figure of the answer.
_TICKET = re.compile(
    r"\b(ticket|case|reference|ref\.?|request|incident)\s*(?:no\.?|number|id)?\s*[#:]?\s*"
    r"#?[A-Z]{0,4}-?\d{3,}[\w-]*",
    re.IGNORECASE,
)


# " ##0$$ ##3$$": a knowledge-base chat assistant's chunk markers, left unrendered.
_CHUNK_MARKER = re.compile(r"[ \t]*##\d{1,3}\$\$")
# The Gemini app's grounding markup, copied with the reply: "[cite_start]" where a cited span
# begins, "[cite: 31, 44]" where it ends.
# Legal-brief citations of the retrieved documents, a signal and a parenthetical or two:
# "See Doc. 1 (Wikipedia article on Mel Brooks).", "Cf. Doc. 2 (Nasdaq quote page, Feb.
# 2024) (reporting only the current quote).", "Accord Doc. 3 (Biography.com, Jan. 2024)."
_BRIEF_CITATION = re.compile(
    r"[ \t]*\b(?:See also|See|Cf\.|Accord|But see|Contra)\s+Docs?\.\s*\d{1,2}"
    r"(?:\s*(?:,|and|&)\s*\d{1,2})*(?:\s*\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))*"
    r"(?:\s*;\s*Docs?\.\s*\d{1,2}(?:\s*\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))*)*\.?"
)
_GEMINI_CITE = re.compile(r"\[cite_start\]|[ \t]*\[cite:\s*\d{1,3}(?:\s*,\s*\d{1,3})*\s*\]")


# "(5/5 sources)", "(3 of 5 passages; 2 say Home)": a tally of the sources behind an answer,
# with any dissent it reports; the answer is what stands before it.
_SOURCE_TALLY = re.compile(
    r"[ \t]*\((?:\d{1,2}\s*/\s*\d{1,2}|\d{1,2}\s+of\s+\d{1,2}|all\s+\d{1,2})\s+"
    r"(?:sources?|passages?|documents?|docs|results|snippets?|pages?|retrievers?|runs?)"
    r"\b[^()\n]{0,80}\)",
    re.IGNORECASE,
)


def strip_citation_markers(text: str) -> str:
    """``text`` without bracketed source markers ("... 16 [1][2]." -> "... 16.", "...
    2019【4:1†page_2.html】." -> "... 2019.", "[Data: Sources (1, 4)]", " ##0$$",
    "[cite_start]...[cite: 3]", "See Doc. 1 (Wikipedia article on X)."; "passage 2
    says" -> "a passage says"), lookups an active-retrieval model left in ("[Search(...)]"),
    a support ticket's number ("ticket #48213" -> "ticket"), a Self-RAG model's grades of
    itself ("[Relevant]", "[Utility:5]") and tallies of sources ("1929 to 1939 (4/5 sources;
    1 says 1929 to 1941)" -> "1929 to 1939"): they point at sources or grade the reply, and
    are no figure or claim of the answer."""
    text = _DATA_REFERENCE.sub("", _CHUNK_MARKER.sub("", _TOOL_CALL.sub("", text)))
    text = _BRIEF_CITATION.sub("", _GEMINI_CITE.sub("", text))
    text = _TICKET.sub(r"\1", text)
    text = _REFLECTION_TOKEN.sub("", _ANNOTATION.sub("", text))
    text = _SOURCE_TALLY.sub("", _CITATION_MARKER.sub("", text))
    return _NUMBERED_SOURCE.sub(r"a \1", text)


# A closing line that lists where the answer came from: "Sources: [1] en.wikipedia.org".
_SOURCES_LINE = re.compile(r"\n[ \t]*(?:sources?|references?)[ \t]*:[^\n]*\s*$", re.IGNORECASE)
_STAR_BULLET = re.compile(r"^([ \t]*)[*+\u2022][ \t]+", re.MULTILINE)
_NUMBERED_ITEM = re.compile(r"^([ \t]*)\d{1,2}[.)][ \t]+", re.MULTILINE)
# Emphasis stars; "2*3" between digits is arithmetic and stays.
_EMPHASIS = re.compile(r"(?<!\d)\*+|\*+(?!\d)|(?<![\w_])__|__(?![\w_])")
# A highlight, "==Bergen==" (not "==" between figures: "x == 1").
_HIGHLIGHT = re.compile(r"(?<![=\w])==(?=[^\s=])([^\n]+?)(?<=[^\s=])==(?![=\w])")


# A closing "Sources:" heading over a list of them, to the end of the text.
_SOURCES_BLOCK = re.compile(
    r"\n[ \t]*(?:sources?|references?)[ \t]*:[ \t]*"
    r"(?:\n[ \t]*(?:[-*+\u2022]|\d{1,2}[.)]|\[\^?\d{1,3}\]:?)[^\n]*)+\s*$",
    re.IGNORECASE,
)
# "[ESPN](https://www.espn.com/...)" reads as "ESPN"; a bare address is a citation, and the
# dates and ids in its path ("/2024/03/12/", "tt0468569") are no figure of the answer.
# A link the 75-token cut fell inside ("[Albert Pujols](https://en") still reads as its text.
_LINK = re.compile(r"\[([^\]\n]+)\]\((?:https?://|www\.)[^)\s]*(?:\)|$)")
# "See [the official page](https://...).", "Check [Nasdaq](https://...) for the live open.": a
# sentence that only points at a linked source is a citation, like a footnote.
_LINK_POINTER = re.compile(
    r"(?:^|(?<=[.!?]))[ \t]*(?:please\s+)?(?:see|check|visit|read)\s+(?:the\s+)?"
    r"\[[^\]\n]+\]\((?:https?://|www\.)[^)\s]*\)(?:\s+for\s+[^.!?\n]{0,60})?[.!?]?",
    re.IGNORECASE | re.MULTILINE,
)
_URL = re.compile(r"<?(?:https?://|www\.)[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"]>?")
# A footnote's label ("[^1]: "): its text stays, since a note may take the answer back.
_FOOTNOTE_LABEL = re.compile(r"^[ \t]*\[\^?\d{1,3}\]:[ \t]*", re.MULTILINE)
# Words that make a source entry a statement ("- Actually, it is Lyon."): such a list is read.
_STATEMENT_WORD = re.compile(
    r"\b(?:is|are|was|were|not|no|never|actually|instead|rather|wrong|correct|answer|but"
    r"|however|grader|mark)\b",
    re.IGNORECASE,
)


def _drop_citations(match: re.Match[str]) -> str:
    # A list of sources is dropped only when it cites: addresses, names and titles.
    cited = _URL.sub("", _LINK.sub(r"\1", match.group(0)))
    return match.group(0) if _STATEMENT_WORD.search(cited) else ""


# "Related: How many albums did Queen release? · Who wrote it?": an answer box's closing
# suggestions are questions for the user, no part of the answer (nor their years figures).
_SUGGESTIONS = re.compile(
    r"\n[ \t]*(?:related(?:[ \t]+(?:questions|searches))?|people also ask"
    r"|(?:you[ \t]+)?(?:may|might)[ \t]+also[ \t]+(?:ask|like)|suggested(?:[ \t]+questions)?"
    r"|follow-?up questions)[ \t]*:(?P<asked>[\s\S]*)$",
    re.IGNORECASE,
)
_SUGGESTION_SPLIT = re.compile(r"[\n\u00b7|\u2022]+|(?<=\?)[ \t]*[-;,][ \t]")


def _drop_suggestions(match: re.Match[str]) -> str:
    # Dropped only when every piece after the label is a question.
    pieces = [p.strip(" \t-*") for p in _SUGGESTION_SPLIT.split(match.group("asked"))]
    pieces = [p for p in pieces if p]
    return "" if pieces and all(p.endswith("?") for p in pieces) else match.group(0)


_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+", re.MULTILINE)
# GSM8K's layout, learnt by fine-tunes: a rationale, then "#### 2461" on its last line, which
# is the final answer, not a heading.
_HASHES_FINAL = re.compile(r"(?<=\S)[ \t]*\n[ \t]*####[ \t]+(?=[^\n#][^\n]*\s*\Z)")
# "### Toshio Kai, Shigeichi Ishimura" over "*Credited with the music.*": a heading over more
# text is a unit of its own, as a sentence is; its line gets the stop it lacks.
_HEADING_OVER_TEXT = re.compile(r"^([ \t]*#{1,6}[ \t]+[^\n]*?\w[)\"'*_]*)[ \t]*(?=\n\s*\S)", re.M)
_TABLE_RULE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-{2,}:?[ \t]*\|?)+[ \t]*")
_TABLE_ROW = re.compile(r"[ \t]*\|(.*[^|\s].*)")


# "**Short answer:** No.", "TL;DR: 0", "Quick correction: ...": a label the reply opens with
# names what follows; it is no part of the answer.
# "Result: X", "Final Answer - X": a pipeline's name for its output field reads the same way.
_ANSWER_LABEL = re.compile(
    r"^\s*(?:short answer|final answer|answer|ans|result|response|output|prediction|reply"
    r"|tl;?\s?dr|in short|bottom line|quick correction|small correction|correction)"
    r"[ \t]*(?::|[-\u2013\u2014](?=[ \t]))[ \t]*",
    re.IGNORECASE,
)

# "Who: Denis Villeneuve", "How many: 7 albums", "When: — (not in sources)": a slot filler
# labels each line with the question word it fills; the label is no part of the answer.
_SLOT_LABEL = re.compile(
    r"^[ \t]*(?:who|whom|what|when|where|which|why"
    r"|how(?:[ \t]+(?:many|much|long|old|far|big|tall|often))?)[ \t]*:[ \t]*(?=\S)",
    re.IGNORECASE | re.MULTILINE,
)


def _plain_table_row(cells: list[str], header: bool) -> str:
    # A row is a list item: its first cell names the thing, the rest is detail about it
    # ("| Napoli | 10 |" -> "- Napoli (10)"); the header row leads in to the list.
    if header:
        return ", ".join(cells) + ":"
    rest = f" ({'; '.join(cells[1:])})" if len(cells) > 1 else ""
    return f"- {cells[0]}{rest}"


def _plain_tables(text: str) -> str:
    if "|" not in text:
        return text
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if "-" in line and _TABLE_RULE.fullmatch(line):
            continue
        row = _TABLE_ROW.fullmatch(line)
        if row is None:
            out.append(line)
            continue
        cells = [c.strip() for c in row.group(1).split("|") if c.strip()]
        if not cells:
            continue
        header = i + 1 < len(lines) and bool(_TABLE_RULE.fullmatch(lines[i + 1]))
        out.append(_plain_table_row(cells, header))
    return "\n".join(out)


def strip_markup(text: str) -> str:
    """``text`` without the Markdown a formatted answer wears: emphasis ("**Paris**") and
    highlight ("==Paris=="), list markers made plain bullets ("1. Paris" and "* Paris" ->
    "- Paris"), headings (ended as a sentence when text follows), links read
    as their text, bare addresses and footnote labels dropped, table rows as list items, a
    closing "Sources:" line or list that only cites, closing suggested questions
    ("Related: ...?"), an opening label ("Short answer:",
    "TL;DR:") and a slot filler's question-word labels ("Who: ", "How many: "); a last line
    "#### X" under a rationale is its answer ("Answer: X"), as GSM8K writes it.
    None of it is part of the answer; "1." is no figure of it."""
    text = _HASHES_FINAL.sub("\nAnswer: ", text)
    text = _SUGGESTIONS.sub(_drop_suggestions, _SOURCES_BLOCK.sub(_drop_citations, text))
    text = _LINK_POINTER.sub("", _FOOTNOTE_LABEL.sub("", text))
    text = _URL.sub("", _LINK.sub(r"\1", text))
    text = _SOURCES_LINE.sub(
        _drop_citations, _plain_tables(_HEADING.sub("", _HEADING_OVER_TEXT.sub(r"\1.", text)))
    )
    text = _STAR_BULLET.sub(r"\1- ", text)
    if len(_NUMBERED_ITEM.findall(text)) >= 2:
        # Two numbered lines make a list; "20. No doubt about it." is an answer of 20.
        text = _NUMBERED_ITEM.sub(r"\1- ", text)
    return _SLOT_LABEL.sub(
        "", _ANSWER_LABEL.sub("", _EMPHASIS.sub("", _HIGHLIGHT.sub(r"\1", text)), count=1)
    )


_SENTENCE_STOP = re.compile(r"(?<=[\w)*\"'])[.!?](?:\s|$)")


def opening_sentence(text: str) -> str:
    """The sentence ``text`` opens with, its Markdown dropped ("**Zero.** She was ..." ->
    "Zero")."""
    return _SENTENCE_STOP.split(strip_markup(text).strip(), maxsplit=1)[0]


# "Great question!", "Hmm, tough call!", "Quick correction!": a chat opener before the
# sentence that answers.
_OPENER_WORD = re.compile(
    r"great|good|fun|nice|tough|tricky|close|interesting|excellent|fair|question|one|call|sure"
    r"|thing|ooh|oh|hmm|wow|quick|small|correction|note|heads|up|okay|ok|alright|absolutely"
    r"|happy|glad|to|help"
)
_OPENER_MAX_WORDS = 4


def is_chat_opener(sentence: str) -> bool:
    """True for a sentence that only opens a chat reply ("Great question!", "Sure thing!")."""
    words = re.findall(r"[a-z]+", sentence.lower())
    return 0 < len(words) <= _OPENER_MAX_WORDS and all(_OPENER_WORD.fullmatch(w) for w in words)


_LEADING_SENTENCE = re.compile(r"^\s*([^.!?\n]{1,60}[.!?]+)\s+")
# "Let me know if you'd like more detail!", "Hope this helps.", "Want me to list them?": a
# chat reply's closing offer, after the answer. So is the disclaimer a gateway appends to
# every reply ("AI-generated content may be incorrect."): it says nothing of this answer.
_CLOSING_OFFER = re.compile(
    r"(?:(?<=[.!?)])\s+|\n\s*)(?:(?:just\s+)?let\s+me\s+know|hope\s+(?:this|that)\s+helps"
    r"|feel\s+free\s+to|happy\s+to\s+help|glad\s+to\s+help|would\s+you\s+like|want\s+me\s+to"
    r"|do\s+you\s+want|if\s+you(?:'|\u2019)?d\s+like|enjoy\b"
    r"|ai[- ]generated\s+(?:content|answers?|responses?)\s+(?:may|might|can)\s+(?:be\s+"
    r"(?:incorrect|inaccurate|wrong)|contain\s+(?:errors|mistakes|inaccuracies))\.?\s*$)[^\n]*$",
    re.IGNORECASE,
)


# A text-message service's frame: a keyword footer ("Reply MORE for details.", "Text STOP to
# opt out.") after the reply, a sender tag before it ("TextAsk: ") and part markers ("(1/2) ")
# on a reply sent as several texts. Only the footer shows the frame: without it a leading
# "Word: " may be the answer itself ("Dune: released in 2021").
_SMS_FOOTER = re.compile(
    r"(?:(?<=[.!?)])\s+|\n\s*)(?:reply|text|send)\s+(?-i:[A-Z]{3,})\b[^\n]*$", re.IGNORECASE
)
_SMS_SENDER = re.compile(r"^\s*[A-Z][\w-]*:[ \t]+(?=\S)")
_SMS_PART = re.compile(r"^[ \t]*\(\d/\d\)[ \t]*", re.MULTILINE)


def without_sms_frame(text: str) -> str:
    """``text`` without a text-message service's frame: its keyword footer ("Reply MORE for
    details."), the sender tag it opens with ("TextAsk: ") and the "(1/2)" marks of a reply
    sent in parts. Text without such a footer is returned as it is."""
    body = _SMS_FOOTER.sub("", text.rstrip())
    if body == text.rstrip() or not tokens(body):
        return text
    return _SMS_PART.sub("", _SMS_SENDER.sub("", body)).strip()


def without_chat(text: str) -> str:
    """``text`` without a chat reply's pleasantries: the openers before its answer ("Great
    question!", "Sure!") and the offer that closes it ("Let me know if you'd like more
    detail!"), and without a text-message service's frame (`without_sms_frame`). A reply
    that is nothing but pleasantries is left as it is."""
    out = without_sms_frame(text)
    while (m := _LEADING_SENTENCE.match(out)) and _pleasantry(m.group(1)):
        out = out[m.end() :]
    out = _CLOSING_OFFER.sub("", out).strip()
    return out if tokens(out) else text


# An opener that announces a correction or a note says something of its own.
_ANNOUNCES = frozenset(["correction", "note", "heads"])


def _pleasantry(sentence: str) -> bool:
    return is_chat_opener(sentence) and not _ANNOUNCES & set(tokens(sentence))


def answer_sentence(text: str) -> str:
    """The opening sentence past any chat opener ("Quick correction! It hit in 2024, not
    2022." -> "It hit in 2024, not 2022"), its Markdown dropped."""
    sentences = [s for s in _SENTENCE_STOP.split(strip_markup(text).strip()) if s.strip()]
    return next((s for s in sentences if not is_chat_opener(s)), sentences[0] if sentences else "")


# A word in capitals ("MANGUM", "MARC-ANDRÉ", "GÜ"): letters only, hyphens between parts.
_CAPITAL_WORD = r"[^\W\d_a-z]{2,}(?:-[^\W\d_a-z]+)*"
_CAPITAL_RUN = re.compile(rf"(?<![\w-]){_CAPITAL_WORD}(?:[ \t]+{_CAPITAL_WORD})+(?![\w-])")


def capitals_as_names(text: str) -> str:
    """``text`` with runs of two or more words in capitals written as names ("JEFF MANGUM
    and JEREMY BARNES" -> "Jeff Mangum and Jeremy Barnes"), when it is otherwise written in
    lower case: a graph-based RAG prints the entities it found so, and a judge reads a name
    in capitals as something else than the name. A run needs two words of four letters or
    more: "NBA MVP" and one word in capitals ("ALLT") are acronyms or tickers and stay, and
    so does a reply all in capitals."""
    if not any(c.islower() for c in text):
        return text

    def as_name(run: re.Match[str]) -> str:
        parts = re.split(r"(\s+|-)", run.group())
        words = parts[::2]
        if not all(w.isupper() for w in words) or sum(len(w) >= 4 for w in words) < 2:
            # A lower-case letter outside a-z ("DÉJÀ vu"), or acronyms side by side ("NBA
            # MVP", "TTM EPS", "FC BARCELONA"), which stay as written.
            return run.group()
        return "".join(p.capitalize() for p in parts)

    return _CAPITAL_RUN.sub(as_name, text)


# UTF-8 read as cp1252: a lead byte's character ("â", "Ã", "Â") then continuation bytes'
# characters ("€™", "©"), as a script that saved a reply with the wrong encoding wrote it.
_CP1252_CONTINUATION = (
    "\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    + ("\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122")
)
_MOJIBAKE = re.compile(f"[\u00c2-\u00f4][{_CP1252_CONTINUATION}]+")
# "â€" with nothing after: the closing quote's last byte (0x9d) has no cp1252 character.
_LOST_CLOSING_QUOTE = b"\xe2\x80"


def repaired_mojibake(text: str) -> str:
    """``text`` with UTF-8 that was read as cp1252 read again as UTF-8 ("Thereâ€™s" ->
    "There’s", "BonmatÃ­" -> "Bonmatí", "Â£4.5 million" -> "£4.5 million"). A sequence
    that does not decode is left as written."""

    def repaired(m: re.Match[str]) -> str:
        try:
            raw = m.group().encode("cp1252")
        except UnicodeEncodeError:
            return m.group()
        if raw.endswith(_LOST_CLOSING_QUOTE):
            raw += b"\x9d"
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return m.group()

    return _MOJIBAKE.sub(repaired, text)


def without_repeated_lines(text: str) -> str:
    """The one line a reply repeats until its length cap ("June 4, 2019\nJune 4, 2019\nJune
    4, 20" -> "June 4, 2019"), as a model that never learned to stop writes it; any other
    text as it is."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) < 2:
        return text
    first = lines[0]
    if all(line == first for line in lines[1:-1]) and first.startswith(lines[-1]):
        return first
    return text


# A list whose spaces a pipeline deleted: "TheWeeknd,TaylorSwiftandDrake". Its signature is
# a reply with no whitespace, words run together at their capitals and a comma or an "and"
# joining items; the spaces go back before each capital and after each comma.
_SQUASHED_JOINS = re.compile(r"[a-zI]and[A-Z]|[A-Za-z.)],[A-Z]")
_SQUASHED_CAPITAL = re.compile(r"(?<=[a-z)])(?=[A-Z])")
_SQUASHED_AND = re.compile(r"(?<=[a-zI)])and(?=[A-Z])")


def as_spaced(text: str) -> str:
    """A list written with its spaces deleted, with them put back; anything else as it is."""
    stripped = text.strip()
    if (
        len(stripped) < 12
        or any(ch.isspace() for ch in stripped)
        or len(_SQUASHED_CAPITAL.findall(stripped)) < 2
        or _SQUASHED_JOINS.search(stripped) is None
    ):
        return text
    # The "and" before the last item: the last one after the last comma ("Holland" and
    # "Grand" hold one too, so no other is split).
    head, comma, tail = stripped.rpartition(",")
    joins = list(_SQUASHED_AND.finditer(tail))
    if joins:
        last = joins[-1]
        tail = f"{tail[: last.start()]} and {tail[last.end() :]}"
    return _SQUASHED_CAPITAL.sub(" ", head + comma + tail).replace(",", ", ")


# Penn-Treebank tokens a span model was trained on and never joined again: "I do n't know",
# "June 4 , 2019", "$ 86 million", "45 %", "`` Salt Meridian ''", "-LRB- 2019 -RRB-".
_PTB_SPACES = (
    (re.compile(r"(?<=\w) (n't|'s|'re|'ve|'ll|'d|'m)\b", re.IGNORECASE), r"\1"),
    (re.compile(r" ([,.;:!?%)\]])"), r"\1"),
    (re.compile(r"([$(\[]) (?=\S)"), r"\1"),
)
_PTB_QUOTES = re.compile(r"``\s*(.*?)\s*''")
_PTB_BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]"}
_PTB_SIGNS = re.compile(r" n't\b|``|-[LR][RS]B-| [,.] | 's\b|\$ \d|\d %")


def as_detokenized(text: str) -> str:
    """``text`` with Penn-Treebank tokens joined as written English ("I do n't know" -> "I
    don't know", "June 4 , 2019" -> "June 4, 2019", "`` Salt Meridian ''" -> '"Salt
    Meridian"'), when it shows such tokens; any other text as it is."""
    if not _PTB_SIGNS.search(text):
        return text
    for token, sign in _PTB_BRACKETS.items():
        text = text.replace(token, sign)
    text = _PTB_QUOTES.sub(r'"\1"', text)
    for spaced, joined in _PTB_SPACES:
        text = spaced.sub(joined, text)
    return text


# A reply saved form-encoded and never decoded ("I+don%27t+know", "May+16%2C+2023"): one run
# without white space, its spaces written "+", with a "%XX" escape or "+" between two words.
_FORM_SIGNS = re.compile(r"%[0-9A-Fa-f]{2}|[A-Za-z]\+[A-Za-z]")


def as_form_decoded(text: str) -> str:
    """``text`` read as the form-encoded value it was saved as ("I+don%27t+know" -> "I don't
    know", "%C2%A34.5+million" -> "£4.5 million"), when it is one run without white space
    that shows such encoding; any other text as it is ("1+1", "C++")."""
    stripped = text.strip()
    if not stripped or re.search(r"\s", stripped) or not _FORM_SIGNS.search(stripped):
        return text
    return unquote_plus(stripped)


# A reply saved as a JSON string's inside: '\n' for new lines, '\"' for quotes, "\u00e9".
_JSON_ESCAPE = re.compile(r"\\(?:n|u[0-9a-fA-F]{4})")
# Any other backslash ("\boxed", "\text", "\("): LaTeX or a path, not a JSON string.
_OTHER_BACKSLASH = re.compile(r'\\(?![n"\\]|u[0-9a-fA-F]{0,4})')


def as_unescaped(text: str) -> str:
    """``text`` read as the JSON string it was saved as ("Ren\\u00e9 paid \\u00a34.5
    million.\\n\\nX" -> "René paid £4.5 million.\\n\\nX"), when it holds such escapes and
    no line break of its own; any other text as it is."""
    if "\n" in text or not _JSON_ESCAPE.search(text) or _OTHER_BACKSLASH.search(text):
        return text
    try:
        decoded = json.loads(f'"{text}"')
    except json.JSONDecodeError:
        # Cut off inside an escape ("\u00"): what decodes before it.
        cut = re.sub(r"\\(?:u[0-9a-fA-F]{0,3})?$", "", text)
        try:
            decoded = json.loads(f'"{cut}"')
        except json.JSONDecodeError:
            return text
    return decoded if isinstance(decoded, str) else text


# "b'Joe Flacco\\n'": a reply printed as the Python bytes it was read as (a subprocess's
# output, an HTTP body), quotes, escapes and all.
_BYTES_LITERAL = re.compile(r"\s*b(?P<q>['\"]).*(?P=q)\s*", re.DOTALL)
_BYTES_CHARS = 4_000


def as_bytes_decoded(text: str) -> str:
    """``text`` as the bytes literal it prints decodes ("b'Joe Flacco\\n'" -> "Joe Flacco"),
    when the whole text is one; any other text as it is."""
    m = _BYTES_LITERAL.fullmatch(text)
    if m is None or len(text) > _BYTES_CHARS:
        return text
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError):
        return text
    if not isinstance(value, bytes):
        return text
    return value.decode("utf-8", errors="replace").strip()


# "【Answer】June 4, 2019【Basis】The notice says ...": a template with lenticular labels, in
# English or Chinese.
_BRACKET_TEMPLATE = re.compile(
    r"\s*\u3010\s*(?:answer|\u7b54\u6848)\s*\u3011(?P<answer>.*?)"
    r"(?:\u3010\s*(?:basis|\u4f9d\u636e)\s*\u3011(?P<basis>.*))?\s*",
    re.IGNORECASE | re.DOTALL,
)


def bracket_labels_as_text(text: str) -> str:
    """A "【Answer】X【Basis】Y" reply as "Y Answer: X", its basis the evidence before the
    answer it supports (an annotation's brackets would otherwise be dropped with the labels
    inside them); any other text as it is."""
    m = _BRACKET_TEMPLATE.fullmatch(text)
    if m is None:
        return text
    answer, basis = m.group("answer").strip(), (m.group("basis") or "").strip()
    return f"{basis} Answer: {answer}" if basis else answer


def _byte_symbols() -> dict[str, int]:
    """The byte each symbol of a byte-level BPE vocabulary stands for: printable Latin-1
    bytes stand for themselves, the others were shifted past U+0100 ("Ġ" is a space)."""
    kept = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    symbols = {chr(b): b for b in kept}
    shifted = 0
    for b in range(256):
        if b not in kept:
            symbols[chr(0x100 + shifted)] = b
            shifted += 1
    return symbols


_BYTE_SYMBOLS = _byte_symbols()


def as_bpe_decoded(text: str) -> str:
    """``text`` written in a byte-level BPE vocabulary's symbols read as the text they stand
    for ("JuneĠ4,Ġ2019" -> "June 4, 2019", "NikolaĠJokiÄĩ" -> "Nikola Jokić"), as a script
    that joined the tokens instead of decoding them wrote it; any other text as it is."""
    if "\u0120" not in text or " " in text.strip():
        return text
    if any(c not in _BYTE_SYMBOLS for c in text):
        return text
    return bytes(_BYTE_SYMBOLS[c] for c in text).decode("utf-8", errors="replace")


# "\." "\-" "\(2022\)": a chat app's Markdown escapes, kept when the reply was saved from
# its send path.
_MARKDOWN_ESCAPE = re.compile(r"\\([_*\[\]()~`>#+\-=|{}.!])")


def without_markdown_escapes(text: str) -> str:
    """``text`` without the backslashes of Markdown escapes ("$1\\.2 billion\\." -> "$1.2
    billion."), when it holds two or more; any other text as it is."""
    if len(_MARKDOWN_ESCAPE.findall(text)) < 2:
        return text
    return _MARKDOWN_ESCAPE.sub(r"\1", text)


# "[32mReopened on [1mApril 18, 2022[22m.[0m": a terminal's colour and weight codes, with or
# without the escape character a portal or a log viewer deleted.
_TERMINAL_CODE = re.compile(r"\x1b?\[(?:\d{1,3}(?:;\d{1,3})*)?m")


def without_terminal_codes(text: str) -> str:
    """``text`` without a terminal's colour codes ("[32m", "[1m", "[0m"), when it holds two or
    more; any other text as it is."""
    if len(_TERMINAL_CODE.findall(text)) < 2:
        return text
    return _TERMINAL_CODE.sub("", text)


# "𝗔𝗽𝗿𝗶𝗹 𝟮𝟮, 𝟮𝟬𝟮𝟭": letters and digits of Unicode's mathematical alphabets, which apps
# use for bold and italic where Markdown is not rendered.
_MATH_ALPHANUMERIC = re.compile("[\U0001d400-\U0001d7ff]+")


def math_letters_as_plain(text: str) -> str:
    """``text`` with mathematical bold, italic and other styled letters and digits written
    plain ("𝗔𝗽𝗿𝗶𝗹 𝟮𝟮" is "April 22")."""
    return _MATH_ALPHANUMERIC.sub(lambda m: unicodedata.normalize("NFKC", m.group(0)), text)


def as_written(text: str) -> str:
    """``text`` as its system meant it, before any reading: styled Unicode letters written
    plain, a terminal's colour codes removed, a form-encoded value, a printed bytes literal
    and byte-level BPE symbols decoded, a JSON string's escapes and a chat app's Markdown
    escapes undone, UTF-8 read as cp1252 repaired, Penn-Treebank tokens joined, a
    "【Answer】X【Basis】Y" template as "Y Answer: X", a list's deleted spaces put back, and one
    copy of a line repeated until the token cap. Each step changes only text that shows its
    own signature."""
    text = as_form_decoded(without_terminal_codes(math_letters_as_plain(text)))
    text = as_unescaped(as_bpe_decoded(as_bytes_decoded(text)))
    text = without_markdown_escapes(text)
    text = repaired_mojibake(as_spaced(as_detokenized(text)))
    return without_repeated_lines(bracket_labels_as_text(text))
