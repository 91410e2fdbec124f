"""Entry point of the ``ragmeter`` command.

Each command group lives in its own module and is attached here. User errors
(`ragmeter.errors.UserError`) become one message on stderr and exit code 2;
anything else keeps its traceback.
"""

from __future__ import annotations

import sys

import click
import typer

from ragmeter import __version__
from ragmeter.errors import UserError

app = typer.Typer(
    name="ragmeter",
    help="Run RAG systems on CRAG and attributed-QA benchmarks; score them honestly.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"ragmeter {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Print the version."
    ),
) -> None:
    """Run RAG systems on CRAG and attributed-QA benchmarks; score them honestly."""


def _attach_groups() -> None:
    """Attach every command group; each module's imports stay light so ``--help`` is fast."""
    from ragmeter.cli import data_cmd, run_cmd, validate_cmd

    app.add_typer(data_cmd.app, name="data")
    app.command("run")(run_cmd.run)
    app.command("validate")(validate_cmd.validate)

    from ragmeter.cli import cache_cmd, llm_cmd, models_cmd

    app.add_typer(models_cmd.app, name="models")
    app.add_typer(llm_cmd.app, name="llm")
    app.add_typer(cache_cmd.app, name="cache")

    # judge_feedback_cmd registers the qa-feedback subcommands on judge_cmd.app.
    from ragmeter.cli import (
        judge_cmd,
        judge_feedback_cmd,  # noqa: F401
        score_cmd,
    )

    app.command("score")(score_cmd.score)
    app.add_typer(judge_cmd.app, name="judge-check")

    from ragmeter.cli import kg_cmd

    app.add_typer(kg_cmd.app, name="kg")

    from ragmeter.cli import report_cmd

    app.command("report")(report_cmd.report)

    from ragmeter.cli import index_cmd, retrieval_cmd

    app.add_typer(index_cmd.app, name="index")
    app.command("retrieval-eval")(retrieval_cmd.retrieval_eval)


_attach_groups()


def main() -> None:
    """Run the CLI, turning user errors into one line and exit code 2."""
    try:
        # Outside standalone mode click returns the code of a `typer.Exit` instead of exiting.
        code = app(standalone_mode=False)
    except UserError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        typer.echo("aborted", err=True)
        sys.exit(130)
    if isinstance(code, int) and code != 0:
        sys.exit(code)
