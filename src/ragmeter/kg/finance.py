"""The finance domain: company names, tickers, prices, dividends, market caps and ratios."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

from ragmeter.kg._files import Lazy, open_kv, require_file
from ragmeter.kg.errors import KGDataError
from ragmeter.kg.formats import COMPANY_NAMES, FINANCE_TABLES, SQLITEDICT_SUFFIX, KVFile
from ragmeter.kg.payload import RawJSON, Result
from ragmeter.kg.search import NameSearch


def read_company_names(path: Path) -> dict[str, str | None]:
    """The official name table (CSV: index, ``Name``, ``Symbol``) as name → ticker.

    A name listed twice keeps its last ticker, as a dict built from the table does.
    """
    require_file(path)
    out: dict[str, str | None] = {}
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None or "Name" not in header or "Symbol" not in header:
            raise KGDataError("the header must name the columns Name and Symbol", path, 1)
        i_name, i_symbol = header.index("Name"), header.index("Symbol")
        for line_no, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise KGDataError(f"expected {len(header)} fields, found {len(row)}", path, line_no)
            symbol = row[i_symbol]
            out[row[i_name]] = symbol or None
    return out


def _kv_opener(root: Path, stem: str) -> Callable[[], KVFile]:
    return lambda: open_kv(root, stem, SQLITEDICT_SUFFIX)


class FinanceStore:
    """Finance answers from the company table and the five converted sqlite tables."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.tickers = read_company_names(root / COMPANY_NAMES)
        self.names = NameSearch(self.tickers, scheme="okapi", sort_corpus=False)
        self._tables = {kind: Lazy(_kv_opener(root, stem)) for kind, stem in FINANCE_TABLES.items()}

    def _table(self, kind: str) -> KVFile:
        return self._tables[kind].get()

    def get_company_name(self, query: str) -> list[str]:
        """Up to 10 company names matching ``query``."""
        return self.names.search(query)

    def get_ticker_by_name(self, name: str) -> str | None:
        """The ticker of an exact company name."""
        return self.tickers.get(name)

    def _raw(self, kind: str, ticker: str) -> Result:
        raw = self._table(kind).get_raw(ticker)
        return None if raw is None else RawJSON(raw)

    def get_price_history(self, ticker: str) -> Result:
        """Daily prices over one year, keyed by date."""
        return self._raw("price", ticker)

    def get_detailed_price_history(self, ticker: str) -> Result:
        """Minute prices over the last five trading days."""
        return self._raw("detailed_price", ticker)

    def get_dividends_history(self, ticker: str) -> Result:
        """Dividends paid, keyed by date."""
        return self._raw("dividend", ticker)

    def get_market_capitalization(self, ticker: str) -> Result:
        """Market capitalisation in USD."""
        return self._raw("marketcap", ticker)

    def _info_field(self, ticker: str, field: str) -> Result:
        info = self._table("info").get(ticker)
        if isinstance(info, dict):
            return info.get(field)
        return None

    def get_eps(self, ticker: str) -> Result:
        """Forward earnings per share."""
        return self._info_field(ticker, "forwardEps")

    def get_pe_ratio(self, ticker: str) -> Result:
        """Forward price-to-earnings ratio."""
        return self._info_field(ticker, "forwardPE")

    def get_info(self, ticker: str) -> Result:
        """The company's profile and key figures."""
        return self._raw("info", ticker)
