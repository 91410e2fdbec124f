"""The command itself: help, version, user errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import typer

from cli_helpers import run_cli
from ragmeter import __version__


def test_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"ragmeter {__version__}"


def test_help_lists_groups() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    assert "data" in result.stdout


def test_exit_code_of_a_command_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command ending with `typer.Exit(3)` makes the process exit 3, not 0."""
    from ragmeter.cli import main as cli_main

    @cli_main.app.command("exit-three-for-test", hidden=True)
    def exit_three() -> None:
        raise typer.Exit(3)

    monkeypatch.setattr(sys, "argv", ["ragmeter", "exit-three-for-test"])
    try:
        with pytest.raises(SystemExit) as info:
            cli_main.main()
        assert info.value.code == 3
    finally:
        cli_main.app.registered_commands[:] = [
            c for c in cli_main.app.registered_commands if c.name != "exit-three-for-test"
        ]


def _installed_command() -> Path:
    """The ``ragmeter`` console script installed beside this interpreter (what users run)."""
    script = Path(sys.executable).with_name("ragmeter")
    assert script.is_file(), f"no installed ragmeter entry point at {script}; pip install -e ."
    return script


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["run", "--bogus"], "No such option: --bogus"),
        (["bogus-command"], "No such command 'bogus-command'"),
        (["data", "info"], "Missing argument"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args: list[str], expected: str) -> None:
    """Whichever click copy typer raises from, a usage error is one line, never a traceback."""
    result = subprocess.run(
        [str(_installed_command()), *args], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert expected in lines[0]
    assert result.stdout == ""


def test_group_without_command_shows_help_and_exits_2() -> None:
    result = subprocess.run(
        [str(_installed_command()), "data"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "subsample" in result.stdout + result.stderr
