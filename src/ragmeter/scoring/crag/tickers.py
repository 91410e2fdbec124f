"""Stock tickers read as the companies they stand for: "BA" is Boeing, "AMGN; HON; CRM" are
Amgen, Honeywell International and Salesforce.

Terse finance answers name companies by ticker; CRAG's golds name them in words. The
table (``data/tickers.txt``) is built from the company list of CRAG's own knowledge graph
(``finance/company_name.dict``: name and symbol of every listed company), so a ticker is
read as the company that graph gives it. A ticker is spelt out only where the gold names
that very company: an upper-case word that is also a ticker of some other company
("PHI", "IT") is left alone, and so is a ticker the gold itself gives.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ragmeter.scoring.normalize import FUNCTION_WORDS, tokens

__all__ = [
    "build_ticker_table",
    "company_words",
    "spell_out_tickers",
    "ticker_names",
    "tickers_beside_names",
]

TABLE = "tickers.txt"

# What follows a company's name in the listing: the kind of security, not the company.
_SECURITY = re.compile(
    r"\s+(?:Common Stock|Common Shares|Class [A-Z]\b|Ordinary Shares?|American Deposit[ao]ry"
    r"|Capital Stock|Subordinate Voting|Voting Shares|Shares of Beneficial|Sponsored|ADR\b"
    r"|Deposit[ao]ry|New York Registry)",
    re.IGNORECASE,
)
# Listings that are not a company's stock: warrants, rights, units, notes, preferreds.
_NOT_STOCK = re.compile(
    r"Warrant|\bRights?\b|\bUnits?\b|Preferred|\bNotes?\b|Debentures|%", re.IGNORECASE
)
# Words a company's name carries that a person naming it leaves out.
_LEGAL = frozenset(
    [
        "inc",
        "incorporated",
        "corp",
        "corporation",
        "co",
        "company",
        "companies",
        "ltd",
        "limited",
        "plc",
        "llc",
        "lp",
        "sa",
        "ag",
        "nv",
        "se",
        "the",
        "holdings",
        "holding",
        "group",
    ]
)
# An upper-case ticker as written in an answer: "BA", "AAPL", "BRK.B".
_TICKER = re.compile(r"(?<![\w.$])[A-Z]{1,5}(?:\.[A-Z])?(?![\w.]*\w)")


def build_ticker_table(company_names: Path) -> str:
    """The shipped table's text from the graph's company list (CSV: index, Name, Symbol)."""
    rows: dict[str, str] = {}
    with company_names.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            symbol, name = (row.get("Symbol") or "").strip(), (row.get("Name") or "").strip()
            if not symbol or not name or _NOT_STOCK.search(name):
                continue
            rows[symbol] = _SECURITY.split(name, maxsplit=1)[0].strip()
    header = (
        "# Ticker and company, tab-separated, from the company list of CRAG's knowledge graph\n"
        "# (finance/company_name.dict); rebuilt by tickers.build_ticker_table.\n"
    )
    return header + "".join(f"{s}\t{n}\n" for s, n in sorted(rows.items()))


@lru_cache(maxsize=1)
def ticker_names() -> dict[str, str]:
    """The shipped table: ticker → the company's listed name."""
    text = resources.files("ragmeter.scoring.crag").joinpath("data", TABLE).read_text("utf-8")
    pairs = (line.split("\t", 1) for line in text.splitlines() if line and line[0] != "#")
    return {p[0]: p[1] for p in pairs if len(p) == 2}


def company_words(name: str) -> list[str]:
    """A listed name's words without legal forms: "Boeing Company (The)" → ["boeing"]."""
    return [w for w in tokens(name) if w not in _LEGAL]


def _named_in(words: list[str], gold: list[str]) -> list[str] | None:
    """The company's words as the gold writes them: all of them in a row, or its first
    word alone ("meta" for Meta Platforms); None when the gold does not name it."""
    if not words:
        return None
    for i, w in enumerate(gold):
        if w != words[0]:
            continue
        run = [w]
        for nxt, want in zip(gold[i + 1 :], words[1:], strict=False):
            if nxt != want:
                break
            run.append(nxt)
        if len(run) == len(words) or len(words[0]) >= 4:
            return run
    return None


def spell_out_tickers(prediction: str, answers: Sequence[str]) -> str:
    """``prediction`` with each upper-case ticker of a company the gold names replaced by the
    gold's words for it ("BA" → "boeing"); unchanged when no ticker names a gold company."""
    if not _TICKER.search(prediction):
        return prediction
    gold = [w for a in answers for w in tokens(a)]
    if not gold:
        return prediction
    table = ticker_names()

    def spelt(m: re.Match[str]) -> str:
        ticker = m.group(0)
        name = table.get(ticker)
        if name is None or ticker.lower() in gold:
            return ticker
        run = _named_in(company_words(name), gold)
        return " ".join(run) if run else ticker

    return _TICKER.sub(spelt, prediction)


_LEGAL_AFTER = re.compile(
    r"(?:,?\s+(?:" + "|".join(sorted(_LEGAL - {"the"}, key=len, reverse=True)) + r")\b\.?)+",
    re.IGNORECASE,
)
_SHORTEST_NAME_WORD = 4
"""A company's first word alone names it only when it is this long ("allot", not "xm")."""


def tickers_beside_names(prediction: str, answers: Sequence[str], query: str) -> str:
    """``prediction`` with the ticker after each company it names in words, for the tickers
    the gold and the question give ("Sirius XM" -> "Sirius XM (SIRI)" when the gold is "siri"
    and the question asks "siri or aca?"): the reverse of `spell_out_tickers`, for golds and
    options that are tickers."""
    table = ticker_names()
    gold = [tokens(a) for a in answers]
    if not any(len(g) == 1 and g[0].upper() in table for g in gold):
        # Only a gold that is a ticker ("siri"); "alex albon" is no company's ("ALEX").
        return prediction
    asked = [w for g in gold for w in g] + tokens(query)
    tickers = dict.fromkeys(
        w.upper() for w in asked if len(w) >= 2 and w not in FUNCTION_WORDS and w.upper() in table
    )
    for ticker in tickers:
        if re.search(rf"\b{re.escape(ticker)}\b", prediction, re.IGNORECASE):
            continue  # the prediction gives the ticker itself
        words = company_words(table[ticker])
        if not words:
            continue
        whole = r"\W+".join(re.escape(w) for w in words)
        name = re.search(rf"\b{whole}\b", prediction, re.IGNORECASE)
        if name is None and len(words[0]) >= _SHORTEST_NAME_WORD:
            name = re.search(rf"\b{re.escape(words[0])}\b", prediction, re.IGNORECASE)
        if name is not None:
            # After the legal form that ends the name: "Allot Ltd. (ALLT)".
            legal = _LEGAL_AFTER.match(prediction, name.end())
            end = legal.end() if legal else name.end()
            prediction = f"{prediction[:end]} ({ticker}){prediction[end:]}"
    return prediction
