"""``ragmeter score``: label every prediction of a CRAG set and write results with intervals."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

import typer

from ragmeter.errors import ConfigError
from ragmeter.scoring.bootstrap import Estimate
from ragmeter.scoring.crag.records import Results

JUDGE_HELP = (
    "rules (no LLM: unmatched predictions count incorrect, flagged approximate), "
    "local (rules, then the default local model), openai:MODEL@BASE_URL, "
    "or several joined by commas for a majority vote."
)


def _progress(total: int, enabled: bool) -> Callable[[object], None]:
    """A callback printing progress on stderr about every tenth of the way."""
    done = 0
    step = max(1, total // 10)

    def tick(_: object) -> None:
        nonlocal done
        done += 1
        if enabled and (done % step == 0 or done == total):
            print(f"scored {done}/{total}", file=sys.stderr, flush=True)

    return tick


def _fmt(label: str, est: Estimate) -> str:
    if est.value is None:
        return f"{label:<14} n/a"
    return f"{label:<14} {est.value:7.3f}  [{est.ci_low:.3f}, {est.ci_high:.3f}]"


def _print_summary(results: Results) -> None:
    """Warnings on stderr, then the headline figures with their intervals."""
    for w in results.warnings:
        typer.echo(f"warning: {w}", err=True)
    if results.scoring.unknown_predictions.count:
        shown = ", ".join(results.scoring.unknown_predictions.ids[:5])
        typer.echo(f"unknown prediction ids (first): {shown}", err=True)
    c = results.counts
    typer.echo(
        f"n={results.n} scored={results.n_scored} correct={c.correct} "
        f"incorrect={c.incorrect} missing={c.missing} unscored={c.unscored}"
    )
    typer.echo(_fmt("accuracy", results.accuracy))
    typer.echo(_fmt("hallucination", results.hallucination))
    typer.echo(_fmt("missing", results.missing))
    typer.echo(_fmt("score", results.score))
    if results.human is not None:
        typer.echo(
            _fmt("truthfulness", results.human.truthfulness)
            + f"  (human labels, n={results.human.n})"
        )


def _score_run_folder(folder: Path, judge: str | None, json_out: bool) -> None:
    """Re-aggregate (or, with a judge, label again) a run folder's journal."""
    from ragmeter.engine.rescore import rescore_folder

    if not (folder / "header.json").is_file():
        raise ConfigError(f"{folder} is not a run folder (no header.json)")
    results = rescore_folder(folder, judge)
    if json_out:
        typer.echo(results.model_dump_json(indent=2))
        return
    if isinstance(results, Results):
        _print_summary(results)
    import orjson

    from ragmeter.engine.summary import analysis_lines

    for line in analysis_lines(orjson.loads((folder / "results.json").read_bytes())):
        typer.echo(line)
    typer.echo(f"wrote {folder / 'results.json'}")


def score(
    run_dir: Path | None = typer.Argument(
        None,
        metavar="[RUN_DIR]",
        help="A run folder to score again from its journal (instead of --dataset/--predictions).",
    ),
    dataset: Path | None = typer.Option(
        None, "--dataset", help="CRAG questions with gold answers (JSONL, optionally compressed)."
    ),
    predictions: Path | None = typer.Option(
        None,
        "--predictions",
        help='JSONL {"id": ..., "prediction": ...} per line; or the CRAG starter kit\'s '
        "predictions.json (lists queries / ground_truths / predictions) or a JSONL of "
        '{"query": ..., "prediction": ...}, matched to questions by query text.',
    ),
    counting: str = typer.Option(
        "ragmeter",
        "--counting",
        help="ragmeter (default) or official: the official CRAG script's counting (missing "
        'only for "i don\'t know", lower-cased exact match, then the judge), to compare '
        "with numbers published that way.",
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Folder for results.json and samples.jsonl."
    ),
    judge: str | None = typer.Option(
        None,
        "--judge",
        help=JUDGE_HELP + " Default: local; for a run folder, the run's own labels.",
    ),
    tokenizer: Path | None = typer.Option(
        None,
        "--tokenizer",
        help="Llama-2 tokenizer.json (default: the data mirror's crag/tokenizer).",
    ),
    strict_tokenizer: bool = typer.Option(
        False,
        "--strict-tokenizer",
        help="Fail instead of falling back when the Llama-2 tokenizer is absent.",
    ),
    labels: Path | None = typer.Option(
        None, "--labels", help="Human labels (JSONL id + perfect/acceptable/missing/incorrect)."
    ),
    weights: Path | None = typer.Option(
        None, "--weights", help="Traffic weights per question type (YAML or JSON)."
    ),
    confirm_refusals: bool = typer.Option(
        False,
        "--confirm-refusals",
        help="Ask the first judge's LLM to confirm phrase-matched refusals.",
    ),
    cache: bool = typer.Option(
        True, "--cache/--no-cache", help="Use the persistent response cache for judge calls."
    ),
    cache_path: Path | None = typer.Option(
        None, "--cache-path", help="Response cache file (default: the user cache)."
    ),
    concurrency: int = typer.Option(4, "--concurrency", min=1, help="Predictions judged at once."),
    resamples: int = typer.Option(1000, "--resamples", min=1, help="Bootstrap resamples."),
    seed: int = typer.Option(0, "--seed", help="Bootstrap seed."),
    json_out: bool = typer.Option(
        False, "--json", help="Print results.json to stdout instead of a summary."
    ),
) -> None:
    """Score predictions against a CRAG set: results.json (slices, 95% CIs) and samples.jsonl."""
    from ragmeter.scoring.crag.aggregate import load_weights
    from ragmeter.scoring.crag.inputs import read_dataset, read_human_labels
    from ragmeter.scoring.crag.judges import parse_judge_spec
    from ragmeter.scoring.crag.official import COUNTINGS
    from ragmeter.scoring.crag.prediction_files import read_predictions_file
    from ragmeter.scoring.crag.service import score_to_folder

    if judge is not None:
        parse_judge_spec(judge)  # a bad spec fails before any file is read
    if counting not in COUNTINGS:
        raise ConfigError(f"--counting {counting}: expected one of {', '.join(COUNTINGS)}")
    if run_dir is not None:
        if dataset is not None or predictions is not None or out is not None:
            raise ConfigError("give either a run folder or --dataset/--predictions/--out, not both")
        if counting != "ragmeter":
            raise ConfigError("--counting applies to --dataset/--predictions, not a run folder")
        _score_run_folder(run_dir, judge, json_out)
        return
    if dataset is None or predictions is None or out is None:
        raise ConfigError("score needs --dataset, --predictions and --out (or a run folder)")
    judge = judge or "local"
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} exists and is not a folder")
    questions = read_dataset(dataset)
    preds = read_predictions_file(predictions, questions)
    human = read_human_labels(labels) if labels is not None else None
    traffic = load_weights(weights) if weights is not None else None
    rules_only = parse_judge_spec(judge) == []

    results, _ = asyncio.run(
        score_to_folder(
            questions,
            preds,
            out,
            judge=judge,
            counting=counting,
            tokenizer=tokenizer,
            allow_tokenizer_fallback=not strict_tokenizer,
            cache=(cache_path if cache_path is not None else True) if cache else False,
            confirm_refusals=confirm_refusals,
            concurrency=concurrency,
            human=human,
            weights=traffic,
            n_resamples=resamples,
            seed=seed,
            on_done=_progress(len(questions), enabled=not rules_only),
        )
    )
    if json_out:
        typer.echo(results.model_dump_json(indent=2))
        return
    _print_summary(results)
    typer.echo(f"wrote {out / 'results.json'} and {out / 'samples.jsonl'}")
