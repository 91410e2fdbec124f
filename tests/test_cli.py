"""The command itself: help, version, user errors."""

from __future__ import annotations

import subprocess
import sys

from ragmeter import __version__


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ragmeter", *args], capture_output=True, text=True, check=False
    )


def test_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"ragmeter {__version__}"


def test_help_lists_groups() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    assert "data" in result.stdout
