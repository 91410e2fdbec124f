"""The command itself: help, version, user errors."""

from __future__ import annotations

import sys

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
