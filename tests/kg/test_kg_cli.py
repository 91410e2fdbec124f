"""``ragmeter kg fixture`` and ``kg convert`` from the command line; user errors exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ragmeter", "kg", *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def test_fixture_then_convert(tmp_path: Path, mirror_file: Any) -> None:
    examples = mirror_file("crag/kg/api_examples.json")
    companies = mirror_file("crag/kg/finance/company_name.dict")
    out, dest = tmp_path / "official", tmp_path / "safe"
    made = run_cli(
        "fixture", "--out", str(out), "--examples", str(examples), "--companies", str(companies)
    )
    assert made.returncode == 0, made.stderr
    assert "40 recorded calls" in made.stdout
    assert (out / "music/grammy_df.pickle").is_file()

    refused = run_cli("convert", str(out), str(dest))
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [refused.stderr.strip()]  # one line
    assert "--trust-pickle" in refused.stderr

    converted = run_cli("convert", "--trust-pickle", str(out), str(dest))
    assert converted.returncode == 0, converted.stderr
    assert "music/grammy_df.pickle -> music/grammy_df.frame.json" in converted.stdout


def test_serve_needs_an_existing_folder(tmp_path: Path) -> None:
    result = run_cli("serve", "--data", str(tmp_path / "absent"), "--port", "1")
    assert result.returncode == 2
    assert "not a directory" in result.stderr


def test_fixture_without_mirror_says_what_to_pass(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "RAGMETER_DATA_MIRROR": str(tmp_path)}
    result = run_cli("fixture", "--out", str(tmp_path / "out"), env=env)
    assert result.returncode == 2
    assert "--examples" in result.stderr
