"""HTML to structured plain text on Resiliparse's C++ extractor (Lexbor parser).

The output keeps what a reader needs and drops the rest:

- the page title as a first line ``# Title``;
- headings, paragraphs and other blocks as their own lines, paragraphs
  separated by a blank line;
- list items as ``- item`` lines (ordered lists keep their ``1.`` numbers);
- table rows as ``cell | cell | cell`` lines;
- scripts, styles, comments, navigation, site banners, footers, form controls
  and hidden elements removed.

Why this extractor: a Python walk over the DOM costs more than parsing itself.
Resiliparse formats block structure in C++, so the whole page costs little more
than one parse, about 20 times less than BeautifulSoup + lxml ``get_text`` (the
extractor of the official CRAG baseline); ``benchmarks/html_extraction.py``
measures it. The head of the document is not parsed at all (it holds only the
title, which is read directly).

Bad input never raises: empty, binary or oversized pages, and pages with no
text left after cleaning, come back as an `ExtractedPage` with empty text and
an ``empty_reason``.
"""

from __future__ import annotations

import hashlib
import html as html_lib
import re
from typing import Any

from pydantic import Field

from ragmeter.errors import MissingExtraError
from ragmeter.types import Record, WebPage

__all__ = [
    "EXTRACTOR_VERSION",
    "ExtractLimits",
    "ExtractedPage",
    "decode_html_bytes",
    "extract_html",
    "extract_page",
    "html_hash",
]

EXTRACTOR_VERSION = "resiliparse-plain-1"
"""Changes whenever the output of `extract_html` for the same input can change (cache key)."""

# Elements whose text is never page content (Resiliparse already drops scripts,
# styles, comments, noscript, form fields and hidden elements).
SKIP_ELEMENTS = (
    "nav",
    "footer",
    "[role=navigation]",
    "[role=banner]",
    "[role=contentinfo]",
    "[aria-hidden=true]",
    "select",
    "button",
    "dialog",
    "template",
    "svg",
    "iframe",
)
_SURROGATES = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x01-\x08\x0b\x0e-\x1f\x7f]")


class ExtractLimits(Record):
    """Bounds that keep time and memory flat on pathological pages."""

    max_html_chars: int = 10_000_000
    """Pages longer than this are recorded empty ("too large") instead of parsed."""
    max_text_chars: int = 2_000_000
    """Extracted text is cut here (a page that is one giant table); ``truncated`` says so."""
    binary_probe_chars: int = 4096
    """How much of the start of a page is inspected for binary content."""
    max_control_fraction: float = 0.05
    """A page whose probe has more control characters than this is binary, not HTML."""


class ExtractedPage(Record):
    """The plain text of one web page, with where it came from.

    ``text`` is empty exactly when ``empty_reason`` is set.
    """

    name: str = ""
    url: str = ""
    last_modified: str = ""
    title: str = ""
    text: str = ""
    empty_reason: str | None = None
    truncated: bool = False
    html_chars: int = 0
    html_hash: str = ""
    extractor: str = EXTRACTOR_VERSION
    lines: int = Field(default=0, description="Number of lines (blocks, rows, items) in text.")

    @property
    def is_empty(self) -> bool:
        """True when the page gave no text (see ``empty_reason``)."""
        return self.empty_reason is not None


def html_hash(html: str | bytes) -> str:
    """Content hash of a page's HTML (SHA-256, 32 hex digits): the cache key of its text."""
    data = html if isinstance(html, bytes) else html.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:32]


_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)


def decode_html_bytes(data: bytes) -> str:
    """Decode page bytes: a BOM, else UTF-8, else a declared ``<meta charset>``, else cp1252.

    Never raises: undecodable bytes become U+FFFD.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", "replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", "replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    m = _META_CHARSET.search(data[:4096])
    if m:
        try:
            return data.decode(m.group(1).decode("ascii"), "replace")
        except LookupError:
            pass  # an unknown charset name: fall through to the web's usual default
    return data.decode("cp1252", "replace")


def _looks_binary(probe: str, limits: ExtractLimits) -> bool:
    if "\x00" in probe:
        return True
    return len(_CONTROL.findall(probe)) > limits.max_control_fraction * max(len(probe), 1)


def _split_head(html: str) -> int:
    """Where the body starts, or 0 to parse everything.

    The head is about a fifth of a page (inline CSS and JSON) and holds no text
    but the title, so it is not parsed. Only done when a ``</head>`` precedes
    ``<body``, so a malformed page with content before the body tag is parsed
    whole. Plain ``find`` (lower, then upper case) is used because a
    case-insensitive regex costs more than skipping the head saves.
    """
    for head_close, body_open in (("</head>", "<body"), ("</HEAD>", "<BODY")):
        h = html.find(head_close)
        if h < 0:
            continue
        b = html.find(body_open, h)
        if b < 0 or b + 5 >= len(html) or html[b + 5] not in " \t\n\r\f>/":
            continue
        return b
    return 0


def _clean(text: str) -> str:
    return " ".join(text.split())


def _title_from_head(head: str) -> str:
    for tag in ("<title", "<TITLE"):
        i = head.find(tag)
        if i < 0:
            continue
        j = head.find(">", i)
        if j < 0:
            return ""
        k = head.find("</", j)
        return _clean(html_lib.unescape(head[j + 1 : k if k >= 0 else len(head)]))
    return ""


def _resiliparse() -> tuple[Any, Any]:
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.html import HTMLTree
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingExtraError("retrieval", "HTML extraction") from exc
    return HTMLTree, extract_plain_text


def _lines(raw: str) -> list[str]:
    """Resiliparse's plain text to our lines: cells joined by `` | ``, bullets as ``-``.

    Resiliparse has already collapsed runs of white space inside lines, so a
    line only needs its indentation stripped.
    """
    out: list[str] = []
    blank = False
    for part in raw.split("\n"):
        if "\t\t" in part:
            line = " | ".join(c for c in (x.strip() for x in part.split("\t\t")) if c)
        else:
            line = part.strip()
        if not line:
            blank = bool(out)
            continue
        if line[0] == "\u2022":
            line = "-" + line[1:]
        if blank:
            out.append("")
            blank = False
        out.append(line)
    return out


def extract_html(
    html: str | bytes | None,
    *,
    name: str = "",
    url: str = "",
    last_modified: str = "",
    limits: ExtractLimits | None = None,
) -> ExtractedPage:
    """Extract structured plain text from one page of HTML; never raises on bad input.

    ``html_hash`` is left empty here (hashing is the cache's job, see
    `ragmeter.text.cache`); ``bytes`` are decoded with `decode_html_bytes`.
    """
    limits = limits or ExtractLimits()
    meta = {"name": name, "url": url, "last_modified": last_modified}
    if html is None or len(html) == 0:
        return ExtractedPage(**meta, empty_reason="empty input")
    if isinstance(html, bytes):
        if b"\x00" in html[: limits.binary_probe_chars]:
            return ExtractedPage(**meta, html_chars=len(html), empty_reason="binary content")
        html = decode_html_bytes(html)
    n = len(html)
    base = {**meta, "html_chars": n}
    if n > limits.max_html_chars:
        return ExtractedPage(
            **base, empty_reason=f"too large: {n:,} characters > limit {limits.max_html_chars:,}"
        )
    if html.isspace():
        return ExtractedPage(**base, empty_reason="empty input")
    if _looks_binary(html[: limits.binary_probe_chars], limits):
        return ExtractedPage(**base, empty_reason="binary content")

    tree_cls, extract_plain_text = _resiliparse()
    body_at = _split_head(html)
    title = _title_from_head(html[:body_at]) if body_at else ""
    try:
        tree = tree_cls.parse(html[body_at:] if body_at else html)
    except UnicodeEncodeError:
        # Lone surrogates (possible in decoded JSON) cannot go to the C parser.
        html = _SURROGATES.sub("\ufffd", html)
        body_at = _split_head(html)
        tree = tree_cls.parse(html[body_at:] if body_at else html)
    if not body_at:
        title = _clean(tree.title or "")
    raw = extract_plain_text(
        tree,
        preserve_formatting=True,
        main_content=False,
        list_bullets=True,
        alt_texts=False,
        links=False,
        form_fields=False,
        noscript=False,
        skip_elements=list(SKIP_ELEMENTS),
    )
    lines = _lines(raw)
    if not lines:
        return ExtractedPage(**base, title=title, empty_reason="no text after cleaning")
    if title:
        lines[0:0] = ["# " + title, ""]
    text = "\n".join(lines)
    truncated = len(text) > limits.max_text_chars
    if truncated:
        cut = text.rfind("\n", 0, limits.max_text_chars + 1)
        text = text[: cut if cut > 0 else limits.max_text_chars]
    return ExtractedPage(
        **base,
        title=title,
        text=text,
        truncated=truncated,
        lines=text.count("\n") + 1 - text.count("\n\n"),
    )


def extract_page(page: WebPage, limits: ExtractLimits | None = None) -> ExtractedPage:
    """Extract one CRAG search result, carrying its name, URL and last-modified time."""
    return extract_html(
        page.html,
        name=page.name,
        url=page.url,
        last_modified=page.last_modified,
        limits=limits,
    )
