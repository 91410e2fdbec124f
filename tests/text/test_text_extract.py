"""HTML to text: structure kept, junk dropped, bad input bounded, recall at least bs4's."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from ragmeter.data.crag import read_crag
from ragmeter.text.answers import EvidenceTokens, answer_keys, first_hit_rank
from ragmeter.text.extract import ExtractLimits, decode_html_bytes, extract_html, extract_page
from ragmeter.types import Question

PAGE = """<!DOCTYPE html><html><head><title>Rory McIlroy &amp; the Majors</title>
<style>body{color:red}</style><script>var x = "hidden script text";</script></head>
<body><nav><a href="/">Home</a><a href="/golf">Golf menu item</a></nav>
<header role="banner">Site banner text</header>
<h1>Career</h1><p>McIlroy has won <b>four</b> major championships.</p>
<ul><li>2011 U.S. Open</li><li>2012 PGA Championship</li></ul>
<table><tr><th>Year</th><th>Tournament</th></tr><tr><td>2014</td><td>The Open</td></tr></table>
<footer>Copyright footer text</footer></body></html>"""


@pytest.fixture(scope="module")
def sample_questions(crag_sample: Path) -> list[Question]:
    return list(read_crag(crag_sample, with_html=True))


def test_structure_is_kept_and_junk_dropped() -> None:
    page = extract_html(PAGE, name="n", url="https://x.org/a", last_modified="Mon, 01 Jan 2024")
    lines = page.text.split("\n")
    assert lines[0] == "# Rory McIlroy & the Majors"
    assert page.title == "Rory McIlroy & the Majors"
    assert "Career" in lines
    assert "McIlroy has won four major championships." in lines
    assert "- 2011 U.S. Open" in lines and "- 2012 PGA Championship" in lines
    assert "Year | Tournament" in lines and "2014 | The Open" in lines
    for junk in ("hidden script", "Golf menu", "Site banner", "Copyright footer", "color:red"):
        assert junk not in page.text
    assert (page.name, page.url, page.last_modified) == ("n", "https://x.org/a", "Mon, 01 Jan 2024")
    assert page.empty_reason is None and page.lines == len([x for x in lines if x])


def test_real_pages_extract_with_metadata(sample_questions: list[Question]) -> None:
    pages = [p for q in sample_questions for p in q.pages]
    results = [extract_page(p) for p in pages]
    for page, result in zip(pages, results, strict=True):
        assert result.url == page.url and result.last_modified == page.last_modified
        assert bool(result.text) == (result.empty_reason is None)
        if page.html:
            assert result.text, result.empty_reason
        else:
            assert result.empty_reason == "empty input"
    wiki = next(r for r in results if "wikipedia.org/wiki/Microsoft_Office_2019" in r.url)
    # The infobox is a table: label and value stay on one row.
    assert "Available in | 102 languages[5]" in wiki.text.split("\n")


def test_answer_recall_at_least_bs4s(sample_questions: list[Question]) -> None:
    from bs4 import BeautifulSoup

    ours = bs4 = n = 0
    for q in sample_questions:
        keys = [k for k in answer_keys(q.answers, q.query) if k]
        if not keys:
            continue
        n += 1
        text_ours = "\n".join(extract_page(p).text for p in q.pages)
        text_bs4 = "\n".join(
            BeautifulSoup(p.html, "lxml").get_text(" ", strip=True) for p in q.pages if p.html
        )
        ours += all(first_hit_rank(k, [EvidenceTokens.of(text_ours)]) for k in keys)
        bs4 += all(first_hit_rank(k, [EvidenceTokens.of(text_bs4)]) for k in keys)
    assert n == 9
    assert ours >= bs4 and ours >= 5


@pytest.mark.parametrize(
    ("html", "reason"),
    [
        (None, "empty input"),
        ("", "empty input"),
        ("   \n\t ", "empty input"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8, "binary content"),
        ("\x01\x02\x03\x04\x05\x06" * 200, "binary content"),
        ("<html><body><script>only()</script><nav>menu</nav></body></html>", "no text"),
    ],
)
def test_bad_input_is_recorded_empty_with_a_reason(html: str | bytes | None, reason: str) -> None:
    page = extract_html(html)
    assert page.text == ""
    assert page.empty_reason is not None and page.empty_reason.startswith(reason)


def test_non_utf8_bytes_are_decoded() -> None:
    latin = '<html><head><meta charset="windows-1252"></head><body><p>Beyoncé “hit”</p>'
    page = extract_html(latin.encode("cp1252"))
    assert "Beyoncé “hit”" in page.text
    assert "Beyoncé" in decode_html_bytes("<p>Beyoncé</p>".encode())
    # Invalid UTF-8 without a declared charset falls back to cp1252, never raises.
    assert "ab" in extract_html(b"<p>a\xffb</p>").text.replace("\xff", "").replace("ÿ", "")


def test_lone_surrogates_and_malformed_markup() -> None:
    assert extract_html("<p>before \ud800after</p>").text == "before \ufffdafter"
    page = extract_html("<div><p>unclosed <b>bold <i>both</div></td></table><p>tail")
    assert "unclosed bold both" in page.text and "tail" in page.text


def test_oversized_page_is_refused_without_parsing() -> None:
    huge = "<html><body>" + "<p>filler text</p>" * 1_300_000 + "</body></html>"  # ~23 MB
    tracemalloc.start()
    page = extract_html(huge)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert page.empty_reason is not None and page.empty_reason.startswith("too large")
    assert peak < 1_000_000  # nothing proportional to the page was allocated


def test_giant_table_is_bounded_and_truncated() -> None:
    rows = "".join(f"<tr><td>row {i}</td><td>{i * 7}</td></tr>" for i in range(60_000))
    html = f"<html><body><table>{rows}</table></body></html>"
    limits = ExtractLimits(max_text_chars=200_000)
    page = extract_html(html, limits=limits)
    assert page.truncated
    assert len(page.text) <= 200_000
    assert page.text.split("\n")[0] == "row 0 | 0"
