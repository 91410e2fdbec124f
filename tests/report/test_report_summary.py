"""The report's content: headline, slices, extra blocks, cost, and run comparison."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import orjson
from report_fixtures import make_records, write_run, write_trust_run

from ragmeter.report import build_report, load_run, load_runs, render
from ragmeter.report.stats import paired_difference
from ragmeter.report.summary import LABEL_SCORES, ordered_values


def test_headline_is_the_results_file(run_a: Path) -> None:
    results = orjson.loads((run_a / "results.json").read_bytes())
    report = build_report([load_run(run_a)])
    h = report.runs[0].headline
    assert h.n == results["n"]
    assert h.score is not None
    assert h.score.value == results["score"]["value"]
    assert (h.score.low, h.score.high) == (results["score"]["ci_low"], results["score"]["ci_high"])
    assert h.counts == results["counts"]
    assert h.unscored == results["unscored"]["count"]
    facts = report.runs[0].facts
    assert facts.pipeline == "rag"
    assert facts.answer_model.startswith("llamacpp:smollm2-135m")
    assert facts.created.startswith("2025-06-01")
    assert report.comparison is None


def test_slices_in_crag_order(run_a: Path) -> None:
    summary = build_report([load_run(run_a)]).runs[0]
    assert list(summary.slices)[:3] == ["domain", "question_type", "static_or_dynamic"]
    values = [r.value for r in summary.slices["static_or_dynamic"]]
    assert values == ordered_values("static_or_dynamic", values)
    assert values[0] == "static"
    assert sum(r.n for r in summary.slices["domain"]) == 120
    assert ordered_values("popularity", ["tail", "zeta", "head", "alpha"]) == [
        "head",
        "tail",
        "alpha",
        "zeta",
    ]


def test_trust_block_is_read_whatever_its_shape(run_a: Path) -> None:
    summary = build_report([load_run(run_a)]).runs[0]
    (block,) = summary.blocks
    assert block.title == "Trust-Score"
    metrics = {m.name: m for m in block.metrics}
    assert metrics["asqa.trust"].value == 0.524
    assert metrics["asqa.trust"].low == 0.481
    assert metrics["asqa.answer_correctness"].high is None
    assert block.info == {"asqa.dataset": "asqa"}


def test_cost_summary_adds_up(run_a: Path) -> None:
    run = load_run(run_a)
    cost = build_report([run]).runs[0].cost
    gen = next(s for s in cost.stages if s.stage == "generation")
    assert gen.questions == 120
    assert gen.prompt_tokens == sum(s.stages["generation"].usage.prompt_tokens for s in run.samples)
    assert np.isclose(cost.seconds_total, sum(s.seconds or 0 for s in run.samples))
    assert cost.seconds_p50 == np.percentile([s.seconds for s in run.samples], 50)
    assert cost.prompt_tokens == sum(
        t.usage.prompt_tokens for s in run.samples for t in s.stages.values()
    )
    # Questions without a prediction are explained by reason.
    missing = sum(1 for s in run.samples if s.prediction is None)
    assert missing > 0
    assert cost.missing_reasons == {"time budget of 30 s exceeded": missing}


def test_comparison_of_two_runs(tmp_path: Path) -> None:
    base = make_records(50, seed=5)
    other = [r.model_copy(deep=True) for r in base]
    # Five questions go from incorrect to correct, two from correct to missing.
    ups = [r.index for r in other if r.label == "incorrect"][:5]
    downs = [r.index for r in other if r.label == "correct"][:2]
    for r in other:
        if r.index in ups:
            r.label = "correct"
        elif r.index in downs:
            r.label = "missing"
    a = write_run(tmp_path / "a", base, name="before")
    b = write_run(tmp_path / "b", other, name="after")
    report = build_report(load_runs([a, b]))
    comp = report.comparison
    assert comp is not None
    assert comp.baseline == "before" and comp.common == 50
    assert comp.transitions == [{"incorrect→correct": 5, "correct→missing": 2}]
    assert {f.id for f in comp.flips} == {r.id for r in base if r.index in ups + downs}
    assert all(f.labels[0] == "incorrect" for f in comp.flips[:5])  # correct↔incorrect first
    (overall,) = comp.overall
    assert overall is not None
    scored = [i for i, r in enumerate(base) if r.label != "unscored"]
    assert np.isclose(overall.value, (5 * 2 - 2 * 1) / len(scored))
    assert overall.low is not None and overall.high is not None
    assert overall.low <= overall.value <= overall.high
    assert [r.name for r in comp.leaderboard] == ["after", "before"]
    finance = next(d for d in comp.slice_diffs if d.slice == "domain" and d.value == "finance")
    ids = [r.index for r in base if r.labels.domain == "finance" and r.label != "unscored"]
    assert finance.n_pairs == [len(ids)]


def test_paired_difference() -> None:
    assert paired_difference([], []) is None
    assert paired_difference([0.0, 1.0], [1.0, 2.0]) == (1.0, 1.0, 1.0)
    rng = np.random.default_rng(1)
    a = rng.choice([-1.0, 0.0, 1.0], size=400)
    b = np.clip(a + rng.choice([0.0, 1.0], size=400, p=[0.8, 0.2]), -1, 1)
    mean, low, high = paired_difference(list(a), list(b))  # type: ignore[misc]
    assert np.isclose(mean, float((b - a).mean()))
    assert 0 < low < mean < high
    assert paired_difference(list(a), list(b)) == (mean, low, high)  # seeded


def test_label_scores_match_crag() -> None:
    assert LABEL_SCORES == {"correct": 1, "missing": 0, "incorrect": -1}


def test_a_trust_score_run(tmp_path: Path, run_a: Path) -> None:
    # results.json of a `trust` scorer run is scoring's own TrustResult, not CRAG metrics.
    folder = write_trust_run(tmp_path / "trust", 40)
    results = orjson.loads((folder / "results.json").read_bytes())
    run = load_run(folder)
    summary = build_report([run]).runs[0]
    assert summary.headline.score is None and summary.headline.n == 40
    (block,) = summary.blocks
    assert block.title == "Trust-Score" and block.info == {"dataset": "asqa"}
    assert [m.name for m in block.metrics[:4]] == [
        "trust",
        "grounded_refusals",
        "answer_correctness",
        "grounded_citations",
    ]
    assert block.metrics[0].value == results["trust"]["value"]
    assert run.samples[0].trust is not None and run.samples[0].trust["dataset"] == "asqa"
    md = render([run], "markdown")
    assert "| Accuracy |" not in md and f"| trust | {results['trust']['value']:.3f} |" in md
    # Beside a CRAG run, the leaderboard carries its TRUST figure.
    board = build_report(load_runs([run_a, folder])).comparison.leaderboard  # type: ignore[union-attr]
    trust_row = next(r for r in board if r.name == "cited-asqa")
    assert trust_row.trust == results["trust"]["value"]
