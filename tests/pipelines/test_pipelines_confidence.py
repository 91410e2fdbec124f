"""Answer confidence and abstention in the baselines; diagnosis of real runs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from ragmeter.config import parse_run_spec
from ragmeter.engine.journal import read_journal
from ragmeter.engine.runner import prepare, run
from ragmeter.llm.protocol import ChatMessage, ChoiceProbabilities, Completion, GenerationSettings
from ragmeter.pipelines.baselines import LLMOnlyOptions, LLMOnlyPipeline
from ragmeter.pipelines.confidence import answer_probability
from ragmeter.types import Question

SMOL = "llamacpp:smollm2-135m-instruct"
REPO = Path(__file__).resolve().parents[2]
USERDEFS = REPO / "tests" / "engine" / "engine_userdefs.py"


class SureOfParis:
    """Answers "Paris" with two tokens' log-probabilities; says yes only to Paris."""

    identity = "fake:sure-of-paris"

    def __init__(self) -> None:
        self.settings: list[GenerationSettings] = []

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        self.settings.append(settings)
        text = "Paris" if "France" in messages[-1].content else "Lyon"
        return Completion(text=text, logprobs=[-0.1, -0.3] if settings.logprobs else None)

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        yes = 0.9 if "Proposed answer: Paris" in messages[-1].content else 0.2
        return ChoiceProbabilities(probs={"yes": yes, "no": 1 - yes}, method="logits")

    async def aclose(self) -> None:
        pass


class _Resources:
    def __init__(self, llm: SureOfParis):
        self._llm = llm
        self.seed = 0
        self.generation = GenerationSettings(max_tokens=16)

    def llm(self, spec: str | None = None) -> SureOfParis:
        return self._llm

    def limiter(self, backend: str):  # type: ignore[no-untyped-def]
        raise AssertionError("no other backend")


def _ask(options: dict[str, object], query: str) -> tuple[object, SureOfParis]:
    import asyncio

    llm = SureOfParis()
    pipeline = LLMOnlyPipeline(LLMOnlyOptions.model_validate(options), _Resources(llm))  # type: ignore[arg-type]
    q = Question(id="q", dataset="crag", query=query, answers=[["Paris"]])
    return asyncio.run(pipeline.answer(q)), llm


def test_answer_probability_by_default_self_check_on_request() -> None:
    answer, llm = _ask({}, "What is the capital of France?")
    expected = answer_probability([-0.1, -0.3])
    assert answer.text == "Paris" and answer.confidence == pytest.approx(expected)  # type: ignore[attr-defined]
    assert answer.extras["confidence_signals"] == {"answer_probability": expected}  # type: ignore[attr-defined]
    assert llm.settings[0].logprobs is True
    assert "confidence" not in answer.stages  # type: ignore[attr-defined]

    checked, _ = _ask({"confidence": "self_check"}, "What is the capital of France?")
    assert checked.confidence == pytest.approx(0.9)  # type: ignore[attr-defined]
    assert "confidence" in checked.stages  # type: ignore[attr-defined]
    both, _ = _ask({"record_all_signals": True}, "What is the capital of France?")
    assert both.confidence == pytest.approx(expected)  # type: ignore[attr-defined]
    assert both.extras["confidence_signals"]["self_check"] == pytest.approx(0.9)  # type: ignore[attr-defined]


def test_abstaining_below_the_threshold_keeps_the_raw_answer() -> None:
    opts = {"confidence": "self_check", "abstain_below": 0.5}
    answer, _ = _ask(opts, "What is the second city of Italy?")
    assert answer.text == "I don't know" and answer.refused  # type: ignore[attr-defined]
    assert answer.extras["raw_answer"] == "Lyon"  # type: ignore[attr-defined]
    assert answer.confidence == pytest.approx(0.2)  # type: ignore[attr-defined]
    kept, _ = _ask(opts, "What is the capital of France?")
    assert kept.text == "Paris"  # type: ignore[attr-defined]


def test_no_confidence_means_no_extra_calls_and_abstention_needs_a_signal() -> None:
    answer, llm = _ask({"confidence": "none"}, "What is the capital of France?")
    assert answer.confidence is None and llm.settings[0].logprobs is False  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="abstain_below needs a confidence"):
        LLMOnlyOptions.model_validate({"confidence": "none", "abstain_below": 0.3})


def _run_spec(text: str, out: Path) -> dict:  # type: ignore[type-arg]
    run(prepare(parse_run_spec(text, "spec.yaml"), out))
    return json.loads((out / "results.json").read_text())


@pytest.mark.model
def test_llm_only_abstains_with_a_real_model(crag_validation: Path, tmp_path: Path) -> None:
    results = _run_spec(
        f"""\
name: closed-book-abstaining
data: {{path: {crag_validation}, limit: 3}}
pipeline: {{name: llm_only, options: {{abstain_below: 0.999, record_all_signals: true}}}}
llm: {SMOL}
llm_options: {{n_threads: 1}}
budget: {{time_per_question_s: 600}}
generation: {{max_tokens: 16}}
scoring: {{judge: null}}
cache: false
""",
        tmp_path / "run",
    )
    records = read_journal(tmp_path / "run")
    abstained = [r for r in records if r.answer and "raw_answer" in r.answer.extras]
    assert abstained, [r.prediction for r in records]
    for r in abstained:
        assert r.answer is not None and r.answer.text == "I don't know" and r.label == "missing"
        assert r.answer.confidence is not None and r.answer.confidence < 0.999
        signals = r.answer.extras["confidence_signals"]
        assert 0.0 < signals["answer_probability"] <= 1.0 and 0.0 <= signals["self_check"] <= 1.0
        assert r.raw_label in ("correct", "incorrect", "missing")
    block = results["abstention"]
    assert block["abstain_below"] == 0.999 and block["raw_score"]["value"] is not None


@pytest.mark.model
def test_rag_run_diagnoses_itself_with_a_real_model(
    crag_sample: Path, tmp_path: Path, text_cache_dir: Path
) -> None:
    results = _run_spec(
        f"""\
name: rag-diagnosed
data: {{path: {crag_sample}, limit: 3}}
pipeline: {{name: rag, options: {{top_k: 3}}}}
llm: {SMOL}
llm_options: {{n_threads: 1}}
budget: {{time_per_question_s: 600}}
generation: {{max_tokens: 24}}
scoring: {{judge: null}}
diagnose: true
cache: false
""",
        tmp_path / "run",
    )
    block = results["diagnosis"]
    scored = results["n_scored"]
    assert block["n"] == scored
    assert sum(c["count"] for c in block["overall"]["categories"].values()) == scored
    for values in block["slices"].values():
        assert sum(t["n"] for t in values.values()) == scored
    lines = (tmp_path / "run" / "diagnosis.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["nli"].startswith("llamacpp:sha256:") and len(lines) == scored + 1


@pytest.mark.model
def test_diagnose_a_run_folder_written_before_diagnosis_existed(
    crag_sample: Path, tmp_path: Path, text_cache_dir: Path
) -> None:
    out = tmp_path / "run"
    _run_spec(
        f"""\
name: user-rag
data: {{path: {crag_sample}, limit: 3}}
pipeline: {{name: callable, options: {{target: "{USERDEFS}:snippet_with_evidence"}}}}
scoring: {{judge: null}}
""",
        out,
    )
    # As an older release wrote it: no diagnose key in the spec, no raw labels, no blocks.
    header = json.loads((out / "header.json").read_text())
    header["spec"].pop("diagnose")
    (out / "header.json").write_text(json.dumps(header))
    lines = []
    for line in (out / "samples.jsonl").read_text().splitlines():
        record = json.loads(line)
        record.pop("raw_label")
        lines.append(json.dumps(record))
    (out / "samples.jsonl").write_text("\n".join(lines) + "\n")
    old = json.loads((out / "results.json").read_text())
    old.pop("abstention", None)
    (out / "results.json").write_text(json.dumps(old))
    shutil.rmtree(out / "report.html", ignore_errors=True)

    done = subprocess.run(
        [sys.executable, "-m", "ragmeter", "diagnose", str(out), "--nli", SMOL],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads((out / "results.json").read_text())
    scored = results["n_scored"]
    assert f"where the points went ({scored} questions)" in done.stdout
    assert results["diagnosis"]["n"] == scored > 0
    assert results["n"] == old["n"] and results["score"] == old["score"]
