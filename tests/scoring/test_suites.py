"""The shipped case sets and ``judge-check --suite``, without a model (rules and screens)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from cli_helpers import run_cli
from ragmeter.errors import ConfigError
from ragmeter.scoring.meta.judge_check import SUITES, read_cases, suite_path

ATTACKS = (
    "injection_note", "forged_verdict", "forged_json", "delimiter_escape", "role_tag",
    "injection_chinese", "injection_markdown", "injection_spanish",
)  # fmt: skip


def test_every_suite_is_shipped_and_readable() -> None:
    for name in SUITES:
        cases = read_cases(suite_path(name))
        assert cases and all(c.expected in ("correct", "incorrect", "missing") for c in cases)
    with pytest.raises(ConfigError, match="unknown suite 'nope'"):
        suite_path("nope")


def test_real_set_has_enough_answers_systems_and_a_held_out_split() -> None:
    cases = read_cases(suite_path("real"))
    assert len(cases) >= 400
    systems = Counter(c.system for c in cases)
    assert len(systems) >= 3 and all(n >= 50 for n in list(systems.values())[:3])
    assert {c.split for c in cases} == {"dev", "test"}
    assert {c.expected for c in cases} == {"correct", "incorrect", "missing"}
    # Every held-out answer is unseen in one way at least: its question is in no dev case,
    # or its system's style is in none (once the free questions ran out, held-out splits
    # became new styles of answer to known questions).
    dev_queries = {c.query for c in cases if c.split == "dev"}
    dev_systems = {c.system for c in cases if c.split == "dev"}
    held_out = [c for c in cases if c.split == "test"]
    assert held_out
    assert all(c.query not in dev_queries or c.system not in dev_systems for c in held_out)


def test_numbers_where_strings_are_expected_are_read_as_strings(tmp_path: Path) -> None:
    row = {"query": "how many?", "answer": 12, "alt_ans": [0, 1.5], "prediction": "12"}
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({**row, "expected": "correct"}) + "\n", encoding="utf-8")
    (case,) = read_cases(path)
    assert case.answer == "12" and case.alt_ans == ["0", "1.5"]


def test_adversarial_suite_screens_catch_attacks_and_spare_controls(
    crag_validation: Path, tmp_path: Path
) -> None:
    samples = tmp_path / "s.jsonl"
    res = run_cli(
        "judge-check", "--suite", "adversarial", "--judge", "rules", "--json",
        "--samples", str(samples), mirror=crag_validation.parents[1],
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    cases = read_cases(suite_path("adversarial"))
    scored = [json.loads(x) for x in samples.read_text().splitlines()]
    by_kind: dict[str, list[str | None]] = {}
    for case, s in zip(cases, scored, strict=True):
        by_kind.setdefault(case.kind or "", []).append(s["rule"])
    for kind in ATTACKS:
        rules = by_kind[kind]
        assert sum(r == "manipulation" for r in rules) >= 0.95 * len(rules), kind
    for kind in ("hedge", "retraction", "hedge_chinese", "hedge_markdown", "hedge_spanish"):
        rules = by_kind[kind]
        assert sum(r in ("hedge", "retraction") for r in rules) >= 0.95 * len(rules), kind
    screens = {"manipulation", "hedge", "retraction"}
    for kind, rules in by_kind.items():
        if kind.startswith("control"):
            assert not screens & set(rules), kind


def test_judge_check_suite_errors(crag_validation: Path) -> None:
    mirror = crag_validation.parents[1]
    res = run_cli("judge-check", "--suite", "bogus", "--judge", "rules", mirror=mirror)
    assert res.returncode == 2 and "unknown suite 'bogus'" in res.stderr
    assert "Traceback" not in res.stderr
    res = run_cli("judge-check", "--judge", "rules", mirror=mirror)
    assert res.returncode == 2 and "--suite" in res.stderr
    # The test split is the small one: the option is checked at the entry point quickly.
    res = run_cli(
        "judge-check", "--suite", "real", "--split", "test", "--judge", "rules", "--json",
        mirror=mirror,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    test_cases = [c for c in read_cases(suite_path("real")) if c.split == "test"]
    assert json.loads(res.stdout)["n"] == len(test_cases) > 0
