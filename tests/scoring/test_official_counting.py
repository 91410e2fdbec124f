"""``--counting official``: the official CRAG script's three steps, on hand-made rows."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cli_helpers import run_cli
from ragmeter.scoring.crag.official import OfficialCountingScorer, official_rule
from ragmeter.scoring.crag.records import GoldCheck
from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.crag.truncate import load_truncator
from ragmeter.types import Question


def _q(answer: str, alt: list[str] | None = None) -> Question:
    return Question(id="q", dataset="t", query="Which city?", answers=[[answer, *(alt or [])]])


class ContainsJudge:
    """A judge saying correct when the prediction contains the gold; remembers what it saw."""

    spec = "fake"
    identity = "fake:contains"

    def __init__(self) -> None:
        self.golds: list[str] = []

    async def check(self, question: str, gold: str, prediction: str) -> GoldCheck:
        self.golds.append(gold)
        verdict = "correct" if gold.lower() in prediction.lower() else "incorrect"
        return GoldCheck(gold=gold, verdict=verdict, rationale="contains")


def test_official_steps() -> None:
    assert official_rule("I don't know the answer", "paris") == "missing"
    assert official_rule("Well, i don\u2019t know", "paris") == "missing"
    assert official_rule("  PARIS ", "Paris") == "correct"
    # No other refusal phrasing, no normalisation beyond case and the ends: the judge decides.
    assert official_rule("I cannot find this information", "paris") is None
    assert official_rule("Paris.", "paris") is None
    assert official_rule("the paris", "paris") is None


ROWS = [
    # (prediction, gold, alternatives, official label, ragmeter label or None: not asserted)
    ("I don't know", "paris", [], "missing", "missing"),
    ("I cannot find this information", "paris", [], "incorrect", "missing"),
    ("paris", "Paris", [], "correct", "correct"),
    ("Paris.", "paris", [], "correct", "correct"),  # official: by the judge
    ("It is Paris, I don't know more", "paris", [], "missing", None),
    ("lutetia", "paris", ["lutetia"], "incorrect", "correct"),  # official: gold only
    ("london", "paris", [], "incorrect", "incorrect"),
]


def test_official_counting_beside_ragmeter_counting() -> None:
    truncator = load_truncator(None)
    judge = ContainsJudge()
    official = OfficialCountingScorer([judge], truncator=truncator)
    default = CragScorer([judge], truncator=truncator)

    async def labels(scorer: CragScorer) -> list[str]:
        out: list[str] = []
        for prediction, gold, alt, _, _ in ROWS:
            out.append((await scorer.score(_q(gold, alt), prediction)).label)
        return out

    assert asyncio.run(labels(official)) == [r[3] for r in ROWS]
    # The official judge saw only the gold answer, never the alternative.
    assert "lutetia" not in judge.golds
    got = asyncio.run(labels(default))
    assert [g for g, r in zip(got, ROWS, strict=True) if r[4]] == [r[4] for r in ROWS if r[4]]


def test_no_prediction_and_rules_only() -> None:
    scorer = OfficialCountingScorer([], truncator=load_truncator(None))
    none = asyncio.run(scorer.score(_q("paris"), None))
    assert none.label == "missing" and none.rule == "no_prediction"
    left = asyncio.run(scorer.score(_q("paris"), "Paris."))
    assert left.label == "incorrect" and left.approximate


def test_counting_official_from_the_command(tmp_path: Path) -> None:
    dataset = tmp_path / "q.jsonl"
    rows = [
        ("1", "paris", "I cannot find it"),
        ("2", "rome", "Rome"),
        ("3", "oslo", "i don't know"),
    ]
    dataset.write_text(
        "".join(
            json.dumps({"interaction_id": i, "query": f"capital {i}?", "answer": a}) + "\n"
            for i, a, _ in rows
        )
    )
    preds = tmp_path / "p.jsonl"
    preds.write_text("".join(json.dumps({"id": i, "prediction": p}) + "\n" for i, _, p in rows))
    base = ["score", "--dataset", str(dataset), "--predictions", str(preds), "--judge", "rules"]
    official = run_cli(*base, "--out", str(tmp_path / "o"), "--counting", "official")
    default = run_cli(*base, "--out", str(tmp_path / "d"))
    assert official.returncode == 0 and default.returncode == 0, official.stderr + default.stderr
    o = json.loads((tmp_path / "o" / "results.json").read_text())
    d = json.loads((tmp_path / "d" / "results.json").read_text())
    assert o["counts"] == {"correct": 1, "incorrect": 1, "missing": 1, "unscored": 0}
    assert d["counts"] == {"correct": 1, "incorrect": 0, "missing": 2, "unscored": 0}
    assert any("counting: official" in w for w in o["warnings"])
    bad = run_cli(*base, "--out", str(tmp_path / "x"), "--counting", "kdd")
    assert bad.returncode == 2 and "expected one of ragmeter, official" in bad.stderr
