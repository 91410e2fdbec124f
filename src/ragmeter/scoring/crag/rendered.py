"""Replies written for a renderer, read as the plain text a reader of the rendered page sees.

Some systems answer in markup their front end renders: a search box returns an HTML fragment
(``<p>The bridge opened on <strong>Sep 14, 1998</strong>.</p>``, ``<ul><li>A</li></ul>``),
and reasoning models trained on mathematics close with the answer in a LaTeX box
(``... a difference of 4.7. \\boxed{4.7\\text{ billion USD}}``). The tags and commands are
no words of the answer: "<p>No answer found.</p>" declines as "No answer found." does, and a
box holds the reply's final answer, so it is read as one ("Final answer: 4.7 billion USD").
A voice pipeline may submit the speech markup it sends its synthesiser
(``<speak>... born on <say-as interpret-as="date">19390710</say-as>.</speak>``).

Only the formatting tags of HTML are read away; any other tag (``<answer>``, a role tag) is
left for the parts that read it (`ragmeter.scoring.crag.tagged`, the manipulation screen).
"""

from __future__ import annotations

import html
import re

__all__ = ["as_rendered"]

_FORMATTING = (
    r"p|br|hr|div|span|strong|b|em|i|u|s|small|mark|sup|sub|code|pre|blockquote"
    r"|ul|ol|li|h[1-6]|table|thead|tbody|tr|td|th"
)
_TAG = re.compile(rf"<\s*(?P<close>/)?\s*(?P<name>{_FORMATTING})\b[^<>]*?/?\s*>", re.IGNORECASE)
# Tags that end a line of the rendered text; an item of a list starts one with a bullet.
_BREAKING = frozenset(
    ["p", "br", "hr", "div", "ul", "ol", "blockquote", "pre", "table", "thead", "tbody", "tr"]
    + [f"h{level}" for level in range(1, 7)]
)
_BLANK_LINES = re.compile(r"[ \t]*\n[ \t\n]*")
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);")


# Speech markup (SSML) a voice pipeline submits as it sends it to its synthesiser: the
# <speak> wrapper and the tags that only shape the voice are read away, and a date written
# for the synthesiser as eight digits ("<say-as interpret-as="date">20210809</say-as>",
# year first unless its format says otherwise) as the ISO date it speaks.
_SSML_TAG = re.compile(
    r"<\s*/?\s*(?:speak|say-as|break|prosody|emphasis|voice|lang|phoneme|sub|audio|mark"
    r"|amazon:[\w-]+)\b[^<>]*?/?\s*>",
    re.IGNORECASE,
)
_SSML_DATE = re.compile(
    r"<\s*say-as\s+interpret-as\s*=\s*[\"']date[\"']"
    r"(?:\s+format\s*=\s*[\"'](?P<format>ymd|mdy|dmy|yyyymmdd)[\"'])?\s*>"
    r"\s*(?P<digits>\d{8})\s*<\s*/\s*say-as\s*>",
    re.IGNORECASE,
)


def _ssml_date(m: re.Match[str]) -> str:
    digits, order = m.group("digits"), (m.group("format") or "ymd").lower()
    if order == "mdy":
        return f"{digits[4:]}-{digits[:2]}-{digits[2:4]}"
    if order == "dmy":
        return f"{digits[4:]}-{digits[2:4]}-{digits[:2]}"
    return f"{digits[:4]}-{digits[4:6]}-{digits[6:]}"


# Wikitext a Wikipedia-style writer submits: "[[Tesla, Inc.|Tesla]]" is shown as "Tesla",
# "''[[Inception]]''" as "Inception", a footnote "<ref name="d1" />" not at all, and a
# template as the words it renders ("{{As of|2023}}" as "As of 2023", "{{convert|309.6|m}}"
# as "309.6 m"; a maintenance tag such as "{{dubious}}" or "{{citation needed}}" as nothing;
# a comment, HTML's too, as nothing).
_WIKI_SIGNS = re.compile(r"\[\[[^\[\]\n]+\]\]|<ref\b|\{\{[^{}\n]+\}\}|<!--")
# A comment ("<!-- No source found for ... -->") is not shown at all.
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_WIKI_REF = re.compile(r"<ref\b[^<>]*/>|<ref\b[^<>]*>.*?</ref\s*>", re.DOTALL | re.IGNORECASE)
_WIKI_LINK = re.compile(r"\[\[(?:[^\[\]|\n]*\|)?([^\[\]|\n]*)\]\]")
_WIKI_EMPHASIS = re.compile(r"'{2,5}(?=\S)|(?<=\S)'{2,5}")
_WIKI_TEMPLATE = re.compile(r"\{\{\s*([^{}|\n]+?)\s*(?:\|([^{}\n]*))?\}\}")


def _wiki_template(m: re.Match[str]) -> str:
    name, args = m.group(1).strip().lower(), (m.group(2) or "").split("|")
    if name == "as of":
        return "As of " + " ".join(a for a in args[:3] if a and "=" not in a)
    if name in ("convert", "cvt"):
        return " ".join(args[:2])
    return ""


# Slack's mrkdwn, as a bot's reply is saved from the API's "text" field: "<@U06QX4K7B2N>" a
# mention, "<https://url|Page title>" a link, "<#C03LM8R2T7Q|research-help>" a channel,
# "*bold*", "_italic_", "~struck~"; a closing "_from <url|title>_" line names the sources.
_SLACK_SIGNS = re.compile(
    r"<(?:@[UW][A-Z0-9]{5,}|#C[A-Z0-9]{5,}\|[^<>\n]*|https?://[^<>|\s]+\|[^<>\n]*)>"
)
_SLACK_MENTION = re.compile(r"<@[UW][A-Z0-9]{5,}(?:\|[^<>\n]*)?>\s*")
_SLACK_CHANNEL = re.compile(r"<#C[A-Z0-9]{5,}\|([^<>\n]*)>")
_SLACK_LINK = re.compile(r"<(https?://[^<>|\s]+)(?:\|([^<>\n]*))?>")
_SLACK_SOURCES = re.compile(
    r"\n[ \t]*_?from\s+(?P<links>(?:<https?://[^\n]*>\s*(?:and\s+)?)+)_?[ \t]*$"
)
_SLACK_EMPHASIS = re.compile(r"(?<![\w*_~])[*_~]+(?=\S)([^*_~\n]+?)(?<=\S)[*_~]+(?![\w*_~])")


def _slack_as_text(text: str) -> str:
    if _SLACK_SIGNS.search(text) is None:
        return text
    text = _SLACK_SOURCES.sub(lambda m: "\nSources: " + m.group("links"), text.rstrip())
    text = _SLACK_CHANNEL.sub(r"#\1", _SLACK_MENTION.sub("", text))
    text = _SLACK_LINK.sub(lambda m: m.group(2) or m.group(1), text)
    return _SLACK_EMPHASIS.sub(r"\1", text).strip()


def _wikitext_as_text(text: str) -> str:
    if _WIKI_SIGNS.search(text) is None:
        return text
    text = _WIKI_TEMPLATE.sub(_wiki_template, _WIKI_REF.sub("", _COMMENT.sub("", text)))
    text = _WIKI_EMPHASIS.sub("", _WIKI_LINK.sub(r"\1", text))
    return re.sub(r"[ \t]{2,}", " ", text).strip()


def _ssml_as_text(text: str) -> str:
    if "<" not in text or _SSML_TAG.search(text) is None:
        return text
    return _SSML_TAG.sub("", _SSML_DATE.sub(_ssml_date, text)).strip()


def _html_as_text(text: str) -> str:
    if _TAG.search(text) is None:
        return html.unescape(text) if _ENTITY.search(text) else text

    def plain(tag: re.Match[str]) -> str:
        name = tag.group("name").lower()
        if name == "li":
            return "" if tag.group("close") else "\n- "
        if name in _BREAKING:
            return "\n"
        if name in ("td", "th"):
            return "" if tag.group("close") else " "
        return ""

    out = html.unescape(_TAG.sub(plain, text))
    return _BLANK_LINES.sub("\n", out).strip()


_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{")
_TEXT_COMMAND = re.compile(r"\\(?:text|textbf|textit|mathrm|mathbf|operatorname|mbox)\s*\{")
_ESCAPED = re.compile(r"\\([$%&#_{}])")
_SPACING = re.compile(r"\\(?:[,;:! ]|quad|qquad)")
_MATH_DELIMITER = re.compile(r"\\[()\[\]]|\$\$")
_SYMBOLS = {r"\times": "×", r"\approx": "≈", r"\le": "≤", r"\ge": "≥", r"\cdot": "·"}
_SYMBOL = re.compile(r"\\(?:times|approx|le|ge|cdot)(?![A-Za-z])")


def _braced(text: str, start: int) -> tuple[str, int]:
    """What stands inside the brace group opened just before ``start``, and where the group
    ends (the end of ``text`` when the group was cut off before it closed)."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "{" and text[i - 1] != "\\":
            depth += 1
        elif text[i] == "}" and text[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                return text[start:i], i + 1
    return text[start:], len(text)


def _unwrapped(text: str, command: re.Pattern[str]) -> str:
    """``text`` with each ``\\command{X}`` of the pattern made X."""
    out: list[str] = []
    pos = 0
    while (found := command.search(text, pos)) is not None:
        inner, end = _braced(text, found.end())
        out.append(text[pos : found.start()])
        out.append(_unwrapped(inner, command))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _math_as_text(math: str) -> str:
    text = _unwrapped(math, _TEXT_COMMAND)
    text = _SYMBOL.sub(lambda m: _SYMBOLS[m.group(0)], _SPACING.sub(" ", text))
    return re.sub(r"[ \t]{2,}", " ", _ESCAPED.sub(r"\1", text)).strip()


def _latex_as_text(text: str) -> str:
    if "\\" not in text:
        return text
    # One box holds the final answer. Several ("\boxed{A} or \boxed{B}") are read where
    # they stand, so that what joins them (a hedge, a list) is read too.
    single = len(_BOX.findall(text)) == 1
    out: list[str] = []
    pos = 0
    while (box := _BOX.search(text, pos)) is not None:
        inner, end = _braced(text, box.end())
        # "$\boxed{42}$": the math delimiters around the box go with it.
        out.append(text[pos : box.start()].rstrip(" $" if single else "$"))
        while end < len(text) and text[end] == "$":
            end += 1
        answer = _math_as_text(inner)
        opened = bool(_MATH_DELIMITER.sub("", "".join(out)).strip(" \t\n$"))
        out.append(f"\nFinal answer: {answer}" if single and opened else answer)
        pos = end
    out.append(text[pos:])
    plain = _MATH_DELIMITER.sub("", "".join(out))
    if _TEXT_COMMAND.search(plain) or _ESCAPED.search(plain):
        plain = _math_as_text(plain)
    return plain.strip()


def as_rendered(text: str) -> str:
    """``text`` as its renderer would show it, when it is an HTML fragment, Slack mrkdwn,
    wikitext, speech markup or holds LaTeX: a Slack mention read away and a link as its
    title, formatting tags read away (list items as "- " lines), entities decoded, a
    synthesiser's eight-digit date as an ISO date, a box read as the final answer and text
    commands as their text. Anything else is returned as it is."""
    text = _ssml_as_text(_wikitext_as_text(_slack_as_text(text)))
    return _latex_as_text(_html_as_text(text))
