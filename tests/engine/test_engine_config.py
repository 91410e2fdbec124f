"""Run specs: strict keys with lines, --set overrides, component names and options."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragmeter.config import parse_run_spec
from ragmeter.engine.runner import check_spec
from ragmeter.engine.specs import builtin_spec_names, load_spec
from ragmeter.errors import ConfigError

BASE = """\
name: t
data:
  path: {path}
pipeline:
  name: callable
  options:
    target: tests/engine/engine_userdefs.py:gold_answer
scoring:
  judge: null
"""


def test_unknown_key_names_line_and_suggests() -> None:
    text = BASE.format(path="x.jsonl") + "budget:\n  max_error: 3\n"
    with pytest.raises(
        ConfigError,
        match=r"spec\.yaml, line 11: budget\.max_error: unknown key; did you mean 'max_errors'",
    ):
        parse_run_spec(text, "spec.yaml")


def test_duplicate_key_names_both_lines() -> None:
    text = BASE.format(path="x.jsonl") + "name: again\n"
    with pytest.raises(ConfigError, match=r"line 10: duplicate key 'name' \(first at line 1\)"):
        parse_run_spec(text, "spec.yaml")


def test_bad_value_names_line() -> None:
    text = BASE.format(path="x.jsonl") + "budget:\n  time_per_question_s: -1\n"
    with pytest.raises(
        ConfigError, match=r"line 11: budget\.time_per_question_s: Input should be greater than 0"
    ):
        parse_run_spec(text, "spec.yaml")


def test_set_overrides_and_errors_name_the_option() -> None:
    loaded = parse_run_spec(
        BASE.format(path="x.jsonl"),
        "spec.yaml",
        ["budget.max_errors=3", "data.limit=2", "concurrency.backends={local: 2}"],
    )
    assert loaded.spec.budget.max_errors == 3
    assert loaded.spec.data.limit == 2
    assert loaded.spec.concurrency.limit_for("local") == 2
    with pytest.raises(
        ConfigError, match=r"--set data\.limt=2: data\.limt: unknown key; did you mean 'limit'"
    ):
        parse_run_spec(BASE.format(path="x.jsonl"), "spec.yaml", ["data.limt=2"])
    with pytest.raises(ConfigError, match="expected key=value"):
        parse_run_spec(BASE.format(path="x.jsonl"), "spec.yaml", ["data.limit"])


def test_spec_hash_changes_with_overrides() -> None:
    a = parse_run_spec(BASE.format(path="x.jsonl"), "s").spec
    b = parse_run_spec(BASE.format(path="x.jsonl"), "s", ["data.limit=2"]).spec
    assert a.spec_hash() == parse_run_spec(BASE.format(path="x.jsonl"), "s").spec.spec_hash()
    assert a.spec_hash() != b.spec_hash()


def test_component_names_and_options_are_checked(crag_sample: Path) -> None:
    text = BASE.format(path=crag_sample)
    check_spec(parse_run_spec(text, "spec.yaml"))
    bad_name = text.replace("name: callable", "name: calable")
    with pytest.raises(ConfigError, match=r"unknown pipelines 'calable'; did you mean 'callable'"):
        check_spec(parse_run_spec(bad_name, "spec.yaml"))
    bad_option = text.replace("    target:", "    pages_htm: false\n    target:")
    with pytest.raises(ConfigError, match=r"line 7: pipeline\.options\.pages_htm: unknown key"):
        check_spec(parse_run_spec(bad_option, "spec.yaml"))
    with pytest.raises(ConfigError, match="not found"):
        check_spec(parse_run_spec(BASE.format(path="nowhere/x.jsonl"), "spec.yaml"))


def test_builtin_specs_parse_and_unknown_names_suggest() -> None:
    names = builtin_spec_names()
    assert {"crag-task1", "crag-task2", "crag-task3", "demo"} <= set(names)
    for name in names:
        assert load_spec(name).spec.name == name
    with pytest.raises(ConfigError, match="did you mean 'crag-task1'"):
        load_spec("crag-tsk1")


def test_validate_command_reports_one_line_and_exit_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    spec = tmp_path / "spec.yaml"
    spec.write_text(BASE.format(path="x.jsonl") + "pipelin: {}\n")
    result = subprocess.run(
        [sys.executable, "-m", "ragmeter", "validate", str(spec)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {spec}, line 10: pipelin: unknown key; did you mean 'pipeline'?"
    ]
    ok = subprocess.run(
        [sys.executable, "-m", "ragmeter", "validate", "demo"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and ok.stdout.startswith("ok: demo")


def test_spec_hash_ignores_how_a_run_executes() -> None:
    a = parse_run_spec(BASE.format(path="x.jsonl"), "s").spec
    b = parse_run_spec(
        BASE.format(path="x.jsonl"), "s", ["executor.kind=ray", "concurrency.questions=4"]
    ).spec
    assert a.spec_hash() == b.spec_hash()
