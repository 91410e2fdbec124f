"""Distribution tables of a data set, as the CRAG paper prints them, computed in one pass."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from pydantic import Field

from ragmeter.data.formats import detect_format, read_questions
from ragmeter.data.jsonl import SkipLog, SkippedRow, iter_json_records
from ragmeter.types import Question, Record

LABELS = ("domain", "question_type", "static_or_dynamic", "popularity", "answer_type", "split")


class Spread(Record):
    """Count, total, mean, minimum and maximum of a per-row number."""

    rows: int = 0
    total: int = 0
    mean: float = 0.0
    min: int = 0
    max: int = 0


class DataInfo(Record):
    """What ``ragmeter data info`` reports about a file."""

    path: str
    format: str
    rows: int
    by: dict[str, dict[str, int]] = Field(default_factory=dict)
    domain_x_question_type: dict[str, dict[str, int]] = Field(default_factory=dict)
    pages_per_row: Spread | None = None
    html_bytes: Spread | None = None
    passages_per_row: Spread | None = None
    datasets: dict[str, int] = Field(default_factory=dict)
    skipped: list[SkippedRow] = Field(default_factory=list)


class _SpreadCounter:
    def __init__(self) -> None:
        self.total = 0
        self.rows = 0
        self.lo: int | None = None
        self.hi: int | None = None

    def add(self, v: int) -> None:
        self.rows += 1
        self.total += v
        self.lo = v if self.lo is None else min(self.lo, v)
        self.hi = v if self.hi is None else max(self.hi, v)

    def spread(self) -> Spread:
        return Spread(
            rows=self.rows,
            total=self.total,
            mean=self.total / self.rows if self.rows else 0.0,
            min=self.lo or 0,
            max=self.hi or 0,
        )


def _sorted(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def summarize(questions: Iterable[Question], path: str, fmt: str) -> DataInfo:
    """Count rows, labels, the domain × question_type table, pages, HTML bytes and passages."""
    by: dict[str, Counter[str]] = {k: Counter() for k in LABELS}
    cross: dict[str, Counter[str]] = {}
    datasets: Counter[str] = Counter()
    pages, html, passages = _SpreadCounter(), _SpreadCounter(), _SpreadCounter()
    rows = 0
    for q in questions:
        rows += 1
        datasets[q.dataset] += 1
        slices = q.labels.as_slices()
        for k in LABELS:
            if k in slices:
                by[k][slices[k]] += 1
        if "domain" in slices and "question_type" in slices:
            cross.setdefault(slices["domain"], Counter())[slices["question_type"]] += 1
        if q.pages:
            pages.add(len(q.pages))
            html.add(sum(p.html_bytes for p in q.pages))
        if q.passages:
            passages.add(len(q.passages))
    return DataInfo(
        path=path,
        format=fmt,
        rows=rows,
        by={k: _sorted(c) for k, c in by.items() if c},
        domain_x_question_type={d: _sorted(c) for d, c in sorted(cross.items())},
        pages_per_row=pages.spread() if pages.rows else None,
        html_bytes=html.spread() if html.rows else None,
        passages_per_row=passages.spread() if passages.rows else None,
        datasets=_sorted(datasets),
    )


def data_info(path: str | Path, fmt: str | None = None, skips: SkipLog | None = None) -> DataInfo:
    """Read a file once (page HTML dropped as it goes) and summarise it."""
    fmt = fmt or detect_format(path)
    if fmt == "predictions":
        rows = sum(1 for _ in iter_json_records(path, skips))
        info = DataInfo(path=str(path), format=fmt, rows=rows)
    else:
        info = summarize(read_questions(path, fmt, with_html=False, skips=skips), str(path), fmt)
    if skips is not None:
        info.skipped = list(skips.rows)
    return info


def render_text(info: DataInfo) -> str:
    """The info as plain-text tables for a terminal."""
    out = [f"file     {info.path}", f"format   {info.format}", f"rows     {info.rows:,}"]
    for name, counts in info.by.items():
        out.append("")
        out.append(name)
        width = max(len(k) for k in counts)
        for k, v in counts.items():
            share = 100.0 * v / info.rows if info.rows else 0.0
            out.append(f"  {k:<{width}}  {v:>7,}  {share:5.1f}%")
    if info.domain_x_question_type:
        types = sorted({t for row in info.domain_x_question_type.values() for t in row})
        domains = list(info.domain_x_question_type)
        w0 = max(len("domain"), *(len(d) for d in domains))
        widths = [max(len(t), 5) for t in types]
        out.append("")
        out.append("domain x question_type")
        out.append(
            "  "
            + "domain".ljust(w0)
            + "".join(f"  {t:>{w}}" for t, w in zip(types, widths, strict=True))
            + "  total"
        )
        for d in domains:
            row = info.domain_x_question_type[d]
            cells = "".join(f"  {row.get(t, 0):>{w}}" for t, w in zip(types, widths, strict=True))
            out.append(f"  {d:<{w0}}{cells}  {sum(row.values()):>5}")
    for title, spread in (
        ("pages per row", info.pages_per_row),
        ("HTML bytes per row", info.html_bytes),
        ("passages per row", info.passages_per_row),
    ):
        if spread is not None:
            out.append("")
            out.append(
                f"{title}: mean {spread.mean:,.1f}, min {spread.min:,}, max {spread.max:,}, "
                f"total {spread.total:,}"
            )
    if len(info.datasets) > 1:
        out.append("")
        out.append("datasets: " + ", ".join(f"{k} {v}" for k, v in info.datasets.items()))
    return "\n".join(out)
