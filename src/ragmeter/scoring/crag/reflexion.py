"""A self-critique loop's whole log submitted as the reply, read for the answer it gives.

A Reflexion-style pipeline answers, has an evaluator grade the answer against its documents,
writes a reflection on a failure and tries again, and a harness that keeps the loop's log
submits all of it: "Trial 1: <answer>\\nEvaluator: FAIL (<why>)\\nReflection: <lesson>\\nTrial
2: <answer>\\nEvaluator: PASS", ending "No answer accepted after 3 trials." when every trial
failed. The evaluator is the pipeline's own component, not a word to CRAG's grader: its
verdicts and the reflections are the system's working. The answer is the trial its evaluator
passed; without one in the cut, the first trial's, the answer the cut states before any
critique of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ReflexionLog", "read_reflexion"]

_TRIAL = re.compile(r"Trial (?P<n>\d+):[ \t]*(?P<answer>.*)")
_VERDICT = re.compile(r"Evaluator:[ \t]*(?P<verdict>PASS|FAIL)\b.*")
_LABEL = re.compile(r"^Evaluator:", re.MULTILINE)
_WORKING = re.compile(r"Reflection:.*|No answer accepted after \d+ trials?\.?")
# The start of a log line, where the cut fell in its label.
_LABEL_START = re.compile(r"T(?:r(?:i(?:a(?:l(?: \d*)?)?)?)?)?|E[a-z]*|R[a-z]*|Evaluator:[ \t]*\w*")


@dataclass(frozen=True)
class ReflexionLog:
    """What a self-critique loop's log says."""

    answer: str
    """The answer it gives."""
    unlabelled: str
    """The log with the evaluator's label blanked out, offsets kept: what the manipulation
    screen reads, so that a note to the grader in a verdict's reason is still found."""


def read_reflexion(text: str) -> ReflexionLog | None:
    """The answer a self-critique loop's log gives, or None when ``text`` is no such log
    (it opens "Trial 1:", and every line after is a trial, a verdict or a reflection)."""
    lines = text.strip().split("\n")
    first = _TRIAL.fullmatch(lines[0])
    if first is None or first.group("n") != "1" or len(lines) < 2:
        return None
    trials: list[str] = []
    passed: str | None = None
    for at, line in enumerate(lines):
        trial, verdict = _TRIAL.fullmatch(line), _VERDICT.fullmatch(line)
        if trial is not None:
            trials.append(trial.group("answer").strip())
        elif verdict is not None:
            if verdict.group("verdict") == "PASS" and trials and passed is None:
                passed = trials[-1]
        elif _WORKING.fullmatch(line) is None and not (
            at == len(lines) - 1 and _LABEL_START.fullmatch(line)
        ):
            return None
    unlabelled = _LABEL.sub(lambda m: " " * len(m.group(0)), text)
    return ReflexionLog(passed if passed is not None else trials[0], unlabelled)
