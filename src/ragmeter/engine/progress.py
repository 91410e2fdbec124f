"""Live progress of a run: questions done, ETA, running accuracy / hallucination, tokens/s.

On a terminal it is a rich progress bar on stderr; elsewhere (CI, pipes) one
plain line every few seconds and at the end, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ragmeter.engine.journal import RunRecord


class RunStats:
    """Running counts over finished records."""

    def __init__(self, already: list[RunRecord] | None = None):
        self.correct = 0
        self.incorrect = 0
        self.missing = 0
        self.unscored = 0
        self.errors = 0
        self.over_budget = 0
        self.tokens = 0
        self.prompt_tokens = 0
        self.start = time.perf_counter()
        self.new = 0
        for r in already or []:
            self._count(r, new=False)

    def _count(self, r: RunRecord, new: bool) -> None:
        if r.label == "correct":
            self.correct += 1
        elif r.label == "incorrect":
            self.incorrect += 1
        elif r.label == "missing":
            self.missing += 1
        else:
            self.unscored += 1
        if r.error is not None:
            self.errors += 1
        elif r.missing_reason is not None:
            self.over_budget += 1
        if new:
            self.new += 1
            self.tokens += sum(s.usage.completion_tokens for s in r.stages.values())
            self.prompt_tokens += sum(s.usage.prompt_tokens for s in r.stages.values())

    def add(self, records: list[RunRecord]) -> None:
        """Count newly finished records."""
        for r in records:
            self._count(r, new=True)

    @property
    def scored(self) -> int:
        """Records with a label other than unscored."""
        return self.correct + self.incorrect + self.missing

    def summary(self) -> str:
        """``acc 40.0% · hall 20.0% · in 310 tok/s · out 12.3 tok/s · 1 error``.

        RAG prompts are long and answers short, so prompt tokens read (in) and tokens
        generated (out) per second are shown apart; both count every model call.
        """
        parts = []
        if self.scored:
            parts.append(f"acc {100 * self.correct / self.scored:.1f}%")
            parts.append(f"hall {100 * self.incorrect / self.scored:.1f}%")
        elapsed = time.perf_counter() - self.start
        if elapsed > 0 and self.new:
            parts.append(f"in {self.prompt_tokens / elapsed:.0f} tok/s")
            parts.append(f"out {self.tokens / elapsed:.1f} tok/s")
        if self.errors:
            parts.append(f"{self.errors} error{'s' if self.errors > 1 else ''}")
        if self.over_budget:
            parts.append(f"{self.over_budget} over budget")
        if self.unscored:
            parts.append(f"{self.unscored} unscored")
        return " · ".join(parts)


class RunProgress:
    """The progress display of one run; call `update` with each batch of finished records."""

    def __init__(self, total: int, done: list[RunRecord], enabled: bool = True):
        self.stats = RunStats(done)
        self.total = total
        self.enabled = enabled
        self.interactive = enabled and sys.stderr.isatty()
        self._last_line = 0.0
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        if self.interactive:
            self._progress = Progress(
                TextColumn("[bold]run"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                TextColumn("{task.fields[stats]}"),
                console=Console(stderr=True),
                transient=False,
            )

    def __enter__(self) -> RunProgress:
        if self._progress is not None:
            self._progress.start()
            self._task = self._progress.add_task(
                "run", total=self.total, completed=len_done(self.stats), stats=""
            )
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
        elif self.enabled:
            self._line(force=True)

    def update(self, records: list[RunRecord]) -> None:
        """Count finished records and refresh the display."""
        self.stats.add(records)
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, advance=len(records), stats=self.stats.summary())
        elif self.enabled:
            self._line()

    def _line(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self._last_line < 5.0:
            return
        self._last_line = now
        done = len_done(self.stats)
        elapsed = now - self.stats.start
        eta = ""
        if self.stats.new and done < self.total:
            eta = f" · eta {elapsed / self.stats.new * (self.total - done):.0f} s"
        print(
            f"run {done}/{self.total} · {elapsed:.0f} s{eta} · {self.stats.summary()}",
            file=sys.stderr,
            flush=True,
        )


def len_done(stats: RunStats) -> int:
    """Records counted so far (earlier and new)."""
    return stats.scored + stats.unscored
