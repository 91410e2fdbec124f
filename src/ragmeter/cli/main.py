"""Entry point of the ``ragmeter`` command.

Each command group lives in its own module and is attached here. User errors
(`ragmeter.errors.UserError`) and usage errors (a mistyped option, an unknown
command) become one message on stderr and exit code 2; anything else keeps its
traceback.
"""

from __future__ import annotations

import sys
from typing import Any

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

    from ragmeter.cli import calibrate_cmd, diagnose_cmd

    app.command("diagnose")(diagnose_cmd.diagnose)
    app.command("calibrate")(calibrate_cmd.calibrate)

    from ragmeter.cli import export_cmd, gate_cmd

    app.command("gate")(gate_cmd.gate)
    app.command("export")(export_cmd.export)

    from ragmeter.cli import index_cmd, retrieval_cmd

    app.add_typer(index_cmd.app, name="index")
    app.command("retrieval-eval")(retrieval_cmd.retrieval_eval)


_attach_groups()


def _is_framework(exc: BaseException, name: str) -> bool:
    """Whether ``exc`` is the CLI framework's exception class ``name`` (or a subclass of it).

    Matched by name and home package, not by identity: typer 0.29 carries its own copy of click
    (``typer._click``) and raises that copy's exceptions, so catching ``click.*`` lets every usage
    error escape as a traceback. Any click copy inside ``click`` or ``typer`` is recognised.
    """
    return any(
        cls.__name__ == name and cls.__module__.split(".")[0] in {"click", "typer"}
        for cls in type(exc).__mro__
    )


def _usage_line(exc: Any) -> str:
    """One line for a usage error: the framework's message and where to find help."""
    line = f"error: {str(exc.format_message()).rstrip('.')}"
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        line += f"; see '{ctx.command_path} --help'"
    return line


def main() -> None:
    """Run the CLI, turning user and usage errors into one line and exit code 2."""
    try:
        # Outside standalone mode the framework returns the code of a `typer.Exit` instead of
        # exiting, and raises its usage errors here, where they get one line instead of a panel.
        code = app(standalone_mode=False)
    except UserError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except Exception as exc:
        if _is_framework(exc, "NoArgsIsHelpError"):
            # A group called without a command: its help (rich help is already printed while the
            # error is built, plain help is the message), and the usage exit code.
            message = str(exc.format_message())  # type: ignore[attr-defined]
            if message.strip():
                typer.echo(message, err=True)
            sys.exit(2)
        if _is_framework(exc, "UsageError"):
            typer.echo(_usage_line(exc), err=True)
            sys.exit(2)
        if _is_framework(exc, "ClickException"):
            typer.echo(f"error: {exc.format_message()}", err=True)  # type: ignore[attr-defined]
            sys.exit(int(getattr(exc, "exit_code", 1)))
        if _is_framework(exc, "Exit"):
            sys.exit(int(getattr(exc, "exit_code", 0)))
        if _is_framework(exc, "Abort"):
            typer.echo("aborted", err=True)
            sys.exit(130)
        raise
    if isinstance(code, int) and code != 0:
        sys.exit(code)
