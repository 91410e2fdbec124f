"""Measure a scorer against labeled cases: accuracy, Cohen's kappa, confusion, per kind.

A case file is JSONL with ``query``, ``answer``, ``alt_ans`` (list),
``prediction``, ``expected`` (``correct``, ``incorrect`` or ``missing``) and
optional ``kind``, ``interaction_id``, ``domain``, ``question_type``. Each case
goes through the whole scorer (truncation, rules, judges), exactly as a
prediction would.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import ValidationError

from ragmeter.data.jsonl import iter_json_lines, open_binary
from ragmeter.errors import ConfigError, DataError
from ragmeter.scoring.crag.records import CaseRecord, JudgeCheckResult, ScoredSample
from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.phrases import data_file
from ragmeter.types import Labels, Question

__all__ = [
    "EXPECTED_LABELS",
    "SUITES",
    "case_question",
    "cohen_kappa",
    "read_cases",
    "run_judge_check",
    "suite_path",
]

EXPECTED_LABELS = ("correct", "incorrect", "missing")

SUITES = {
    "real": "crag_real_answers.jsonl",
    "adversarial": "crag_adversarial_cases.jsonl",
    "constructed": "crag_constructed_cases.jsonl",
}
"""The built-in case sets (``data/`` beside this module; see its README):

- ``real``: answers real systems and styles gave to CRAG validation questions, labeled
  by careful graders following CRAG's rubric (the figure that counts);
- ``adversarial``: answers written to game a judge, and controls;
- ``constructed``: cases built from the gold answers (a floor, not evidence).
"""


def suite_path(name: str) -> Path:
    """The file of a built-in suite; an unknown name is a `ConfigError` listing the known ones."""
    if name not in SUITES:
        raise ConfigError(f"unknown suite '{name}' (known: {', '.join(SUITES)})")
    return data_file(SUITES[name], "ragmeter.scoring.meta")


def read_cases(path: str | Path) -> list[CaseRecord]:
    """Read a case file; a malformed line is a `DataError` naming the file and line."""
    cases: list[CaseRecord] = []
    with open_binary(path) as stream:
        for line, obj in iter_json_lines(stream, path):
            try:
                cases.append(CaseRecord.model_validate(obj))
            except ValidationError as exc:
                err = exc.errors()[0]
                where = ".".join(str(p) for p in err["loc"]) or "row"
                raise DataError(f"bad case ({where}: {err['msg']})", path=path, line=line) from None
    if not cases:
        raise DataError("the case file holds no cases", path=path)
    return cases


def case_question(case: CaseRecord, index: int) -> Question:
    """The `Question` a case stands for."""
    return Question(
        id=case.interaction_id or f"case-{index}",
        dataset="judge-check",
        query=case.query,
        answers=[[case.answer, *case.alt_ans]],
        labels=Labels(domain=case.domain, question_type=case.question_type),
    )


def cohen_kappa(expected: Sequence[str], got: Sequence[str]) -> float | None:
    """Cohen's kappa of two label series; None when chance agreement is total (undefined)."""
    if len(expected) != len(got):
        raise ValueError("the two series must have the same length")
    n = len(expected)
    if n == 0:
        return None
    observed = sum(a == b for a, b in zip(expected, got, strict=True)) / n
    ce, cg = Counter(expected), Counter(got)
    chance = sum(ce[k] * cg.get(k, 0) for k in ce) / (n * n)
    if chance >= 1.0:
        return None
    return (observed - chance) / (1.0 - chance)


async def run_judge_check(
    cases: Sequence[CaseRecord],
    scorer: CragScorer,
    judge: str,
    on_done: Callable[[ScoredSample], None] | None = None,
) -> tuple[JudgeCheckResult, list[ScoredSample]]:
    """Score every case and compare with its expected label."""
    items = [(case_question(c, i), c.prediction) for i, c in enumerate(cases)]
    samples = await scorer.score_all(items, on_done=on_done)
    expected = [c.expected for c in cases]
    got = [s.label for s in samples]
    confusion: dict[str, dict[str, int]] = {
        e: {g: 0 for g in (*EXPECTED_LABELS, "unscored")} for e in EXPECTED_LABELS
    }
    for e, g in zip(expected, got, strict=True):
        confusion[e][g] += 1
    hits: dict[str, list[bool]] = defaultdict(list)
    for c, g in zip(cases, got, strict=True):
        hits[c.kind or "unspecified"].append(c.expected == g)
    correct = sum(e == g for e, g in zip(expected, got, strict=True))
    result = JudgeCheckResult(
        n=len(cases),
        accuracy=correct / len(cases),
        kappa=cohen_kappa(expected, got),
        confusion=confusion,
        by_kind={k: sum(v) / len(v) for k, v in sorted(hits.items())},
        judge=judge,
        unscored=sum(1 for g in got if g == "unscored"),
    )
    return result, samples
