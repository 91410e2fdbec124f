"""``ragmeter gate``: thresholds on intervals, paired no-regression checks, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cli_helpers import run_cli
from ragmeter.errors import ConfigError
from ragmeter.gate import check_gate, gate_markdown
from ragmeter.gate.check import compare_runs
from ragmeter.gate.folders import ScoredRun
from ragmeter.gate.rules import parse_threshold
from ragmeter.testing import assert_gate

LABELS = ("correct", "missing", "incorrect")


def write_folder(path: Path, labels: dict[str, str]) -> Path:
    """A minimal scored folder: the journal's ids and labels, and a CRAG results file."""
    path.mkdir(parents=True)
    lines = "".join(json.dumps({"id": k, "label": v}) + "\n" for k, v in labels.items())
    (path / "samples.jsonl").write_text(lines)
    (path / "results.json").write_text(json.dumps({"n": len(labels), "hallucination": {}}))
    return path


def labels_of(counts: dict[str, int]) -> dict[str, str]:
    out: dict[str, str] = {}
    for label, n in counts.items():
        for _ in range(n):
            out[f"q{len(out)}"] = label
    return out


BASE = labels_of({"correct": 100, "missing": 60, "incorrect": 40})


def test_a_run_passes_against_itself_and_a_copy_whose_changes_cancel(tmp_path: Path) -> None:
    base = write_folder(tmp_path / "base", BASE)
    swapped = dict(BASE)
    correct = [k for k, v in BASE.items() if v == "correct"][:15]
    incorrect = [k for k, v in BASE.items() if v == "incorrect"][:15]
    for a, b in zip(correct, incorrect, strict=True):
        swapped[a], swapped[b] = "incorrect", "correct"
    copy = write_folder(tmp_path / "copy", swapped)
    metrics = ["score", "accuracy", "hallucination", "missing"]
    same = check_gate(base, baseline=base, no_worse=metrics)
    assert same.passed and all(c.ci_low == c.ci_high == 0.0 for c in same.checks)
    cancel = check_gate(copy, baseline=base, no_worse=metrics)
    assert cancel.passed, cancel
    assert all(c.value == 0.0 and c.ci_low < 0 < c.ci_high for c in cancel.checks[:3])
    assert cancel.n_paired == 200


def test_clearly_more_hallucinations_fail(tmp_path: Path) -> None:
    worse = dict(BASE)
    for k in [k for k, v in BASE.items() if v == "correct"][:30]:
        worse[k] = "incorrect"
    base = write_folder(tmp_path / "base", BASE)
    run = write_folder(tmp_path / "run", worse)
    report = check_gate(run, baseline=base, no_worse=["score", "hallucination", "missing"])
    failed = {c.metric for c in report.failed}
    assert failed == {"score", "hallucination"}
    hallucination = next(c for c in report.checks if c.metric == "hallucination")
    assert hallucination.value == pytest.approx(0.15) and hallucination.ci_low > 0
    with pytest.raises(AssertionError, match="FAIL"):
        assert_gate(run, baseline=base, no_worse=["hallucination"])
    # The other way round the run is the better one: no regression.
    assert check_gate(base, baseline=run, no_worse=["score", "hallucination"]).passed


def _simulated_pair(rng: np.random.Generator, n: int) -> tuple[ScoredRun, ScoredRun]:
    """Two runs of equal quality: each question's label drawn twice from the same odds."""
    odds = rng.dirichlet([2.0, 1.0, 1.5], size=n)
    runs = []
    for _ in range(2):
        picks = [LABELS[rng.choice(3, p=p)] for p in odds]
        runs.append(ScoredRun(Path("."), "sim", {f"q{i}": lab for i, lab in enumerate(picks)}, 0))
    return runs[0], runs[1]


@pytest.mark.parametrize("level", [0.95, 0.90])
def test_equal_runs_fail_each_other_as_often_as_the_level_allows(level: float) -> None:
    rng = np.random.default_rng(2024)
    pairs = 600
    one_way = either_way = 0
    for i in range(pairs):
        a, b = _simulated_pair(rng, 150)
        forward = compare_runs(b, a, ["score"], level=level, resamples=500, seed=i)[0]
        backward = compare_runs(a, b, ["score"], level=level, resamples=500, seed=i)[0]
        one_way += not forward.passed
        either_way += (not forward.passed) or (not backward.passed)
    alpha = 1 - level
    # 600 pairs: the binomial standard deviation of the rate is under 0.013 at alpha=0.10.
    assert abs(either_way / pairs - alpha) < 3.5 * np.sqrt(alpha * (1 - alpha) / pairs)
    assert one_way / pairs < alpha


def test_threshold_edges(tmp_path: Path) -> None:
    perfect = write_folder(tmp_path / "perfect", labels_of({"correct": 20}))
    assert check_gate(perfect, require=["score>=1"]).passed  # interval [1, 1] meets it
    assert not check_gate(perfect, require=["score>1"]).passed  # ... but never exceeds it
    assert check_gate(perfect, require=["hallucination<=0", "missing<0.01"]).passed
    assert not check_gate(perfect, require=["hallucination<0"]).passed
    mixed = write_folder(tmp_path / "mixed", labels_of({"correct": 4, "missing": 6}))
    # accuracy 0.4 with a wide interval: below 0.5, yet not clearly, so it holds.
    holds = check_gate(mixed, require=["accuracy>=0.5"])
    assert holds.passed and holds.checks[0].value == pytest.approx(0.4)
    assert holds.checks[0].ci_high >= 0.5
    assert not check_gate(mixed, require=["accuracy>=0.9"]).passed
    assert check_gate(mixed, require=["missing<=50%"]).passed
    assert parse_threshold(" hallucination <= 30% ").value == pytest.approx(0.30)


def test_bad_input_is_a_config_error(tmp_path: Path) -> None:
    run = write_folder(tmp_path / "run", BASE)
    for kwargs, message in [
        ({}, "nothing to check"),
        ({"require": ["score=>0.1"]}, "expected METRIC OP NUMBER"),
        ({"require": ["recall>=0.1"]}, "unknown metric 'recall'"),
        ({"no_worse": ["score"]}, "give --baseline"),
        ({"require": ["score>=0"], "level": 1.5}, "strictly between 0 and 1"),
        ({"no_worse": ["score"], "baseline": tmp_path / "nope"}, "not a scored run folder"),
    ]:
        with pytest.raises(ConfigError, match=message):
            check_gate(run, **kwargs)  # type: ignore[arg-type]
    other = write_folder(tmp_path / "other", {"z1": "correct"})
    with pytest.raises(ConfigError, match="share no scored question"):
        check_gate(run, baseline=other, no_worse=["score"])


def test_command_exit_codes_json_and_markdown(tmp_path: Path) -> None:
    base = write_folder(tmp_path / "base", BASE)
    worse = dict(BASE)
    for k in [k for k, v in BASE.items() if v == "correct"][:40]:
        worse[k] = "incorrect"
    run = write_folder(tmp_path / "run", worse)
    md = tmp_path / "comment.md"
    ok = run_cli("gate", str(base), "--require", "score>=0.1", "--markdown", str(md))
    assert ok.returncode == 0, ok.stderr
    assert "gate passed" in ok.stdout and "✅ passed" in md.read_text()
    bad = run_cli(
        "gate",
        str(run),
        "--baseline",
        str(base),
        "--no-worse",
        "hallucination",
        "--level",
        "0.9",
        "--json",
    )
    assert bad.returncode == 1, bad.stderr
    verdict = json.loads(bad.stdout)
    assert verdict["passed"] is False and verdict["level"] == 0.9
    assert verdict["checks"][0]["kind"] == "no_worse"
    usage = run_cli("gate", str(run), "--require", "score>>1")
    assert usage.returncode == 2 and usage.stderr.startswith("error: --require")


def test_markdown_states_the_level_and_the_rule(tmp_path: Path) -> None:
    base = write_folder(tmp_path / "base", BASE)
    text = gate_markdown(
        check_gate(base, baseline=base, require=["score>=0"], no_worse=["score"], level=0.9)
    )
    assert "90% bootstrap intervals" in text and "| no worse: score (run − baseline) |" in text
    assert "paired on 200 questions" in text
