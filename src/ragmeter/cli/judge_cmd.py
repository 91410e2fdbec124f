"""``ragmeter judge-check``: how often does a judge agree with labeled cases?

Without a subcommand it measures ``--judge`` on ``--cases``; other modules add
subcommands to the same ``app`` (e.g. checks against human feedback).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import typer

from ragmeter.errors import ConfigError
from ragmeter.scoring.crag.records import JudgeCheckResult, ScoredSample

app = typer.Typer(
    help="Measure a judge against labeled cases (accuracy, Cohen's kappa, confusion, per kind).",
)


@app.callback(invoke_without_command=True)
def judge_check(
    ctx: typer.Context,
    cases: Path | None = typer.Option(
        None,
        "--cases",
        help="Labeled cases (JSONL: query, answer, alt_ans, prediction, expected, kind...).",
    ),
    suite: str | None = typer.Option(
        None,
        "--suite",
        help="A built-in case set: real (real systems' answers, human-style labels), "
        "adversarial (answers that try to game the judge, and controls), constructed.",
    ),
    split: str | None = typer.Option(
        None, "--split", help="Only cases of this split (real set: dev or test)."
    ),
    judge: str = typer.Option(
        "local", "--judge", help="rules, local, openai:MODEL@BASE_URL, or several joined by commas."
    ),
    json_out: bool = typer.Option(
        False, "--json", help='Print {"n", "accuracy", "kappa", "confusion", "by_kind"} as JSON.'
    ),
    tokenizer: Path | None = typer.Option(
        None, "--tokenizer", help="Llama-2 tokenizer.json (default: the data mirror's)."
    ),
    cache: bool = typer.Option(
        True, "--cache/--no-cache", help="Use the persistent response cache."
    ),
    cache_path: Path | None = typer.Option(
        None, "--cache-path", help="Response cache file (default: the user cache)."
    ),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Check only the first N cases."),
    samples_out: Path | None = typer.Option(
        None, "--samples", help="Also write every scored case (with verdicts) to this JSONL file."
    ),
) -> None:
    """Score labeled cases with a judge and compare with the expected labels."""
    if ctx.invoked_subcommand is not None:
        return
    if (cases is None) == (suite is None):
        raise ConfigError(
            "judge-check needs --cases CASES.jsonl or --suite real|adversarial|constructed "
            "(one of them; or a subcommand, see --help)"
        )
    from ragmeter.scoring.crag.judges import parse_judge_spec
    from ragmeter.scoring.crag.service import build_scorer
    from ragmeter.scoring.meta.judge_check import read_cases, run_judge_check, suite_path

    parse_judge_spec(judge)  # a bad spec fails before any file is read
    rows = read_cases(cases if cases is not None else suite_path(str(suite)))
    if split is not None:
        rows = [r for r in rows if r.split == split]
        if not rows:
            raise ConfigError(f"no case has split '{split}'")
    if limit is not None:
        rows = rows[:limit]
    scorer, panel = build_scorer(
        judge,
        tokenizer=tokenizer,
        cache=(cache_path if cache_path is not None else True) if cache else False,
    )

    async def run() -> tuple[JudgeCheckResult, list[ScoredSample]]:
        try:
            return await run_judge_check(rows, scorer, judge)
        finally:
            await panel.aclose()

    result, samples = asyncio.run(run())
    if samples_out is not None:
        samples_out.parent.mkdir(parents=True, exist_ok=True)
        samples_out.write_text(
            "".join(s.model_dump_json() + "\n" for s in samples), encoding="utf-8"
        )
    if json_out:
        typer.echo(
            result.model_dump_json(
                include={"n", "accuracy", "kappa", "confusion", "by_kind"}, indent=2
            )
        )
        return
    kappa = "n/a" if result.kappa is None else f"{result.kappa:.3f}"
    typer.echo(
        f"judge {judge}: n={result.n} accuracy={result.accuracy:.3f} kappa={kappa} "
        f"unscored={result.unscored}"
    )
    got_labels = ["correct", "incorrect", "missing", "unscored"]
    typer.echo("expected \\ got  " + "".join(f"{g:>11}" for g in got_labels))
    for expected, row in result.confusion.items():
        typer.echo(f"{expected:<15} " + "".join(f"{row.get(g, 0):>11}" for g in got_labels))
    typer.echo("accuracy by kind:")
    for kind, acc in result.by_kind.items():
        typer.echo(f"  {kind:<28} {acc:.3f}")
