"""``ragmeter run``: run a RAG system over a benchmark, score it, keep a complete record."""

from __future__ import annotations

from pathlib import Path

import typer

from ragmeter.errors import UserError


def _overrides(
    sets: list[str],
    limit: int | None,
    sample: int | None,
    seed: int | None,
    executor: str | None,
    ray_address: str | None,
    num_cpus: int | None,
    workers: int | None,
) -> list[str]:
    out = list(sets)
    if limit is not None:
        out.append(f"data.limit={limit}")
    if sample is not None:
        out.append(f"data.sample={sample}")
    if seed is not None:
        out.append(f"data.seed={seed}")
    if executor is not None:
        out.append(f"executor.kind={executor}")
    if ray_address is not None:
        out.append(f"executor.address={ray_address}")
    if num_cpus is not None:
        out.append(f"executor.num_cpus={num_cpus}")
    if workers is not None:
        out.append(f"executor.workers={workers}")
    return out


def run(
    spec: str = typer.Argument(..., help="A run spec YAML file or a built-in spec name."),
    out: Path | None = typer.Option(
        None, "--out", "-o", help="The run folder to write (not needed with --dry-run)."
    ),
    resume: bool = typer.Option(False, "--resume", help="Continue the run already in --out."),
    retry_errors: bool = typer.Option(
        False, "--retry-errors", help="With --resume: answer again the questions that failed."
    ),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N questions."),
    sample: int | None = typer.Option(None, "--sample", min=1, help="N questions at random."),
    seed: int | None = typer.Option(None, "--seed", help="Seed of --sample."),
    sets: list[str] = typer.Option(
        [], "--set", help="Override a spec key: --set budget.max_errors=3 (repeatable)."
    ),
    executor: str | None = typer.Option(None, "--executor", help="local or ray."),
    ray_address: str | None = typer.Option(None, "--ray-address", help="Join this Ray cluster."),
    num_cpus: int | None = typer.Option(None, "--num-cpus", min=1, help="CPUs of a local Ray."),
    workers: int | None = typer.Option(None, "--workers", min=1, help="Ray workers."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress display."),
    dry_run: bool = typer.Option(
        False,
        "--dry-run",
        help="Estimate tokens, wall time and cost (spec prices) from the real prompts of a "
        "sample and a few timed calls; write nothing.",
    ),
    dry_run_sample: int = typer.Option(
        20, "--dry-run-sample", min=1, help="With --dry-run: questions whose prompts are counted."
    ),
    dry_run_calls: int = typer.Option(
        3, "--dry-run-calls", min=0, help="With --dry-run: questions run for real and timed."
    ),
) -> None:
    """Run SPEC and write header.json, samples.jsonl, results.json and a report into --out.

    With --dry-run, estimate what the run will cost instead, writing nothing.
    """
    import orjson

    from ragmeter.engine.cost import read_usage, usage_table
    from ragmeter.engine.journal import RESULTS
    from ragmeter.engine.progress import RunProgress
    from ragmeter.engine.report_hook import write_report
    from ragmeter.engine.runner import prepare
    from ragmeter.engine.runner import run as run_plan
    from ragmeter.engine.specs import load_spec
    from ragmeter.engine.summary import analysis_lines, result_table

    if retry_errors and not resume:
        raise UserError("--retry-errors continues a run: pass --resume too")
    loaded = load_spec(
        spec, _overrides(sets, limit, sample, seed, executor, ray_address, num_cpus, workers)
    )
    if dry_run:
        if resume:
            raise UserError("--dry-run estimates a new run: leave out --resume")
        from ragmeter.engine.estimate import estimate_run, estimate_table

        estimate = estimate_run(loaded, prompt_sample=dry_run_sample, timed=dry_run_calls)
        typer.echo(estimate_table(estimate))
        return
    if out is None:
        raise UserError("run needs --out DIR (the run folder to write), or --dry-run")
    plan = prepare(loaded, out, resume=resume, retry_errors=retry_errors)
    total = plan.header.data.selected
    if plan.done:
        typer.echo(f"resuming: {len(plan.done)} of {total} questions already done", err=True)
    with RunProgress(total, plan.done, enabled=not quiet) as progress:
        results = run_plan(plan, on_records=progress.update)
    typer.echo(result_table(results, loaded.spec.name))
    data = orjson.loads((out / RESULTS).read_bytes())
    for line in analysis_lines(data):
        typer.echo(line)
    usage = read_usage(data)
    if usage is not None and usage.stages:
        typer.echo(usage_table(usage))
    report = write_report(out) if loaded.spec.report else None
    typer.echo(f"run folder: {out}")
    if report is not None:
        typer.echo(f"report: {report}")
