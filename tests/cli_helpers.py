"""Running the ``ragmeter`` command in a subprocess, as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_cli(*args: str, mirror: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m ragmeter ARGS``; ``mirror`` sets RAGMETER_DATA_MIRROR for the child."""
    env = dict(os.environ)
    if mirror is not None:
        env["RAGMETER_DATA_MIRROR"] = str(mirror)
    return subprocess.run(
        [sys.executable, "-m", "ragmeter", *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
