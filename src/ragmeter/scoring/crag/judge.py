"""The LLM judge: is a prediction the same fact as a gold answer?

The prompt and few-shot examples are data files beside this module
(``data/judge_prompt.txt``, ``data/judge_examples.jsonl``) and can be replaced.
A reply is parsed robustly (a JSON object, or a plain verdict word); a reply
that cannot be parsed, or a failed call, is retried with a reminder and then
with pinned sampling, and after that recorded as unscored with its reason.

Several judges vote by majority; a tie or a panel with no verdict leaves the
sample unscored. Caching is the LLM layer's business: a judge built on a
caching LLM reports ``cached`` on each check, and the cached reply keeps the
rationale, so re-scoring explains every verdict as the first run did.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import orjson

from ragmeter.data.jsonl import iter_json_lines, open_binary
from ragmeter.errors import BackendError, DataError
from ragmeter.llm.protocol import LLM, ChatMessage, GenerationSettings
from ragmeter.scoring.crag.records import GoldCheck, JudgeVote, Verdict
from ragmeter.scoring.normalize import format_number, number_value, tokens
from ragmeter.scoring.phrases import data_file
from ragmeter.types import Record

__all__ = [
    "Judge",
    "JudgeExample",
    "JudgePrompt",
    "LLMJudge",
    "PanelDecision",
    "decide",
    "judge_against_golds",
    "judge_notes",
    "parse_verdict",
]


class JudgeExample(Record):
    """One few-shot example of the judge prompt."""

    question: str
    gold: str
    prediction: str
    verdict: Verdict
    rationale: str


NOTES_VERSION = 3
"""Bumped when `judge_notes` changes what it tells the judge (part of the prompt fingerprint)."""


def _contains(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return n > 0 and any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


_DIGITS = re.compile(r"\d+(?:\.\d+)?")


_MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for name in names
}


def _numbers(toks: list[str]) -> list[str]:
    """Every number in the tokens, in canonical form.

    Numbers inside words count ("76ers", "f1"), and so do month names next to
    a number ("march 3" is 3 and 3), so that a date written with its month in
    words is not reported as having different numbers.
    """
    out: list[str] = []
    for i, tok in enumerate(toks):
        month = _MONTHS.get(tok)
        if month is not None:
            near = toks[max(0, i - 1) : i] + toks[i + 1 : i + 2]
            if any(_DIGITS.fullmatch(t) for t in near):
                out.append(str(month))
            continue
        for m in _DIGITS.finditer(tok):
            value = number_value(m.group(0))
            if value is not None:
                out.append(format_number(value))
    return out


def judge_notes(gold: str, prediction: str) -> list[str]:
    """Mechanical checks shown to the judge beside the answers.

    A small model reads "these numbers differ" far more reliably than it spots
    2.92 against 2.93 itself; the model still decides. Checks run on the
    normalised forms (`ragmeter.scoring.normalize.tokens`), so "twelve" and
    "12", "1,500" and "1500" count as the same number.
    """
    gold_toks, pred_toks = tokens(gold), tokens(prediction)
    notes: list[str] = []
    if _contains(pred_toks, gold_toks):
        notes.append("The true answer appears word for word inside the prediction.")
    gold_nums, pred_nums = _numbers(gold_toks), _numbers(pred_toks)
    if gold_nums:
        # As multisets: 2024-02-13, 2024-02-14 against 2024-3-13, 2024-02-14 lacks a 2.
        missing = Counter(gold_nums) - Counter(pred_nums)
        if missing:
            shown = ", ".join(dict.fromkeys(pred_nums)) or "none"
            notes.append(
                f"Numbers differ: the true answer has {', '.join(dict.fromkeys(gold_nums))}; "
                f"the prediction has {shown}."
            )
        else:
            notes.append("Every number of the true answer also appears in the prediction.")
    return notes


def _user_message(question: str, gold: str, prediction: str) -> str:
    text = f"Question: {question}\nTrue answer: {gold}\nPredicted answer: {prediction}"
    notes = judge_notes(gold, prediction)
    if notes:
        text += "\nChecks: " + " ".join(notes)
    return text


def _reply(verdict: str, rationale: str) -> str:
    return orjson.dumps({"verdict": verdict, "rationale": rationale}).decode()


@dataclass(frozen=True)
class JudgePrompt:
    """Instructions and few-shot examples, turned into chat messages per check."""

    instructions: str
    examples: tuple[JudgeExample, ...]
    source: str = "builtin"

    @classmethod
    def from_files(cls, instructions: str | Path, examples: str | Path) -> JudgePrompt:
        """Read a prompt file and a JSONL file of `JudgeExample` rows."""
        ipath, epath = Path(instructions), Path(examples)
        try:
            text = ipath.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise DataError(
                f"cannot read judge prompt: {exc.strerror or exc}", path=ipath
            ) from None
        if not text:
            raise DataError("the judge prompt is empty", path=ipath)
        rows: list[JudgeExample] = []
        with open_binary(epath) as stream:
            for line, obj in iter_json_lines(stream, epath):
                try:
                    rows.append(JudgeExample.model_validate(obj))
                except ValueError as exc:
                    raise DataError(f"bad judge example: {exc}", path=epath, line=line) from None
        return cls(text, tuple(rows), source=f"{ipath}+{epath}")

    @classmethod
    def builtin(cls) -> JudgePrompt:
        """The prompt shipped with ragmeter."""
        p = cls.from_files(
            data_file("judge_prompt.txt", "ragmeter.scoring.crag"),
            data_file("judge_examples.jsonl", "ragmeter.scoring.crag"),
        )
        return cls(p.instructions, p.examples, source="builtin")

    @property
    def fingerprint(self) -> str:
        """A short hash of the whole prompt: part of what makes a verdict what it is."""
        h = hashlib.sha256(f"notes-v{NOTES_VERSION}\n{self.instructions}".encode())
        for ex in self.examples:
            h.update(ex.model_dump_json().encode())
        return h.hexdigest()[:12]

    def messages(
        self, question: str, gold: str, prediction: str, reminder: bool = False
    ) -> list[ChatMessage]:
        """The chat for one check; ``reminder`` adds a nudge used on retries."""
        msgs = [ChatMessage(role="system", content=self.instructions)]
        for ex in self.examples:
            msgs.append(
                ChatMessage(role="user", content=_user_message(ex.question, ex.gold, ex.prediction))
            )
            msgs.append(ChatMessage(role="assistant", content=_reply(ex.verdict, ex.rationale)))
        content = _user_message(question, gold, prediction)
        if reminder:
            content += '\n\nAnswer only with JSON: {"verdict": "correct" or "incorrect", ...}'
        msgs.append(ChatMessage(role="user", content=content))
        return msgs


_JSON_OBJECT = re.compile(r"\{.*?\}", re.DOTALL)
_WORD = re.compile(r"\b(incorrect|correct|wrong|right|true|false|yes|no)\b", re.IGNORECASE)
_WORDS: dict[str, Verdict] = {
    "correct": "correct",
    "right": "correct",
    "true": "correct",
    "yes": "correct",
    "incorrect": "incorrect",
    "wrong": "incorrect",
    "false": "incorrect",
    "no": "incorrect",
}
_FIRST_WORD = re.compile(r"[\W_]*(\w+)\s*(?:[.,!:;\-]|$)")
_STRONG_WORD = re.compile(r"\b(incorrect|correct|wrong)\b", re.IGNORECASE)
_NEGATED = re.compile(r"\bnot\s+(correct|right|true)\b", re.IGNORECASE)
_VERDICT_KEYS = ("verdict", "label", "judgement", "judgment", "decision", "answer", "result")


def _verdict_of_value(value: Any) -> Verdict | None:
    if isinstance(value, bool):
        return "correct" if value else "incorrect"
    if isinstance(value, str):
        m = _WORD.match(value.strip())
        if m:
            return _WORDS[m.group(1).lower()]
    return None


def _from_json(text: str) -> tuple[Verdict | None, str] | None:
    for m in _JSON_OBJECT.finditer(text):
        try:
            obj = orjson.loads(m.group(0))
        except orjson.JSONDecodeError:
            continue
        if not isinstance(obj, dict):
            continue
        lowered = {str(k).lower(): v for k, v in obj.items()}
        rationale = str(lowered.get("rationale") or lowered.get("reason") or "").strip()
        for key in _VERDICT_KEYS:
            if key in lowered:
                return _verdict_of_value(lowered[key]), rationale
        if "correct" in lowered:
            return _verdict_of_value(lowered["correct"]), rationale
        if "is_correct" in lowered:
            return _verdict_of_value(lowered["is_correct"]), rationale
    return None


def parse_verdict(text: str) -> tuple[Verdict | None, str]:
    """``(verdict, rationale)`` from a judge reply; verdict None when it cannot be told.

    A JSON object with a ``verdict`` (or ``label``, ``correct``...) key wins.
    Otherwise the verdict words must all agree: a leading word standing alone
    ("Correct.", "No - ...", "yes"), and the words correct / incorrect / wrong
    anywhere ("The prediction is wrong"), with "not correct" read as incorrect.
    Anything else ("no idea", "correct or incorrect") is undecided.
    """
    stripped = text.strip()
    if not stripped:
        return None, ""
    parsed = _from_json(stripped)
    if parsed is not None and parsed[0] is not None:
        return parsed
    found = {_WORDS[w.lower()] for w in _STRONG_WORD.findall(stripped)}
    if _NEGATED.search(stripped):
        found.discard("correct")
        found.add("incorrect")
    first = _FIRST_WORD.match(stripped)
    if first and first.group(1).lower() in _WORDS:
        found.add(_WORDS[first.group(1).lower()])
    if len(found) == 1:
        return next(iter(found)), stripped
    return None, stripped


@runtime_checkable
class Judge(Protocol):
    """Anything that decides whether a prediction matches one gold answer."""

    @property
    def spec(self) -> str:
        """The judge spec as given by the user (``local``, ``openai:...``)."""
        ...

    @property
    def identity(self) -> str:
        """What makes this judge's verdicts what they are (model + prompt)."""
        ...

    async def check(self, question: str, gold: str, prediction: str) -> GoldCheck:
        """Compare ``prediction`` with one ``gold`` answer; never raises for a bad reply."""
        ...


class LLMJudge:
    """A judge backed by any `ragmeter.llm.protocol.LLM`."""

    def __init__(
        self,
        llm: LLM,
        spec: str,
        prompt: JudgePrompt | None = None,
        *,
        retries: int = 2,
        max_tokens: int = 80,
    ):
        self.llm = llm
        self._spec = spec
        self.prompt = prompt or JudgePrompt.builtin()
        self.retries = max(0, retries)
        self.max_tokens = max_tokens

    @property
    def spec(self) -> str:
        """The judge spec as given."""
        return self._spec

    @property
    def identity(self) -> str:
        """Model identity and prompt fingerprint."""
        return f"{self.llm.identity}#prompt={self.prompt.fingerprint}"

    def _settings(self, attempt: int) -> GenerationSettings:
        # First greedy; then greedy again with a reminder; then seeded sampling,
        # so a retry can give a different (and still cacheable) reply.
        if attempt < 2:
            return GenerationSettings(max_tokens=self.max_tokens, temperature=0.0)
        return GenerationSettings(max_tokens=self.max_tokens, temperature=0.7, seed=attempt)

    async def check(self, question: str, gold: str, prediction: str) -> GoldCheck:
        """Ask the model; retry unparseable replies and backend failures; never raise for them."""
        error: str | None = None
        raw = ""
        cached = False
        attempts = 0
        for attempt in range(self.retries + 1):
            attempts = attempt + 1
            messages = self.prompt.messages(question, gold, prediction, reminder=attempt > 0)
            try:
                completion = await self.llm.generate(messages, self._settings(attempt))
            except BackendError as exc:
                error = f"judge call failed: {exc}"
                continue
            raw = completion.text
            cached = completion.cached
            verdict, rationale = parse_verdict(raw)
            if verdict is not None:
                return GoldCheck(
                    gold=gold,
                    verdict=verdict,
                    rationale=rationale,
                    raw=raw,
                    attempts=attempts,
                    cached=cached,
                )
            error = f"unparseable judge reply: {raw.strip()[:200]!r}"
        return GoldCheck(
            gold=gold, verdict=None, raw=raw, attempts=attempts, cached=cached, error=error
        )


async def judge_against_golds(
    judge: Judge, question: str, answers: Sequence[str], prediction: str
) -> JudgeVote:
    """One judge's vote: each gold answer in turn, stopping at the first correct.

    The vote is correct if any gold is; unscored (None) if none is and a check
    failed; incorrect otherwise.
    """
    checks: list[GoldCheck] = []
    for gold in answers:
        check = await judge.check(question, gold, prediction)
        checks.append(check)
        if check.verdict == "correct":
            return JudgeVote(
                judge=judge.spec, model=judge.identity, verdict="correct", checks=checks
            )
    failed = [c for c in checks if c.verdict is None]
    if failed:
        return JudgeVote(
            judge=judge.spec,
            model=judge.identity,
            verdict=None,
            checks=checks,
            error=failed[0].error,
        )
    return JudgeVote(judge=judge.spec, model=judge.identity, verdict="incorrect", checks=checks)


@dataclass(frozen=True)
class PanelDecision:
    """The majority of a panel of judges."""

    verdict: Verdict | None
    agreement: float
    reason: str | None
    """Why there is no verdict (all judges failed, or a tie)."""


def decide(votes: Sequence[JudgeVote]) -> PanelDecision:
    """Majority vote; ``agreement`` is the share of all judges that voted with the result."""
    if not votes:
        raise ValueError("a panel needs at least one vote")
    counts = Counter(v.verdict for v in votes if v.verdict is not None)
    if not counts:
        reasons = "; ".join(sorted({v.error or "no verdict" for v in votes}))
        return PanelDecision(None, 0.0, reasons)
    ranked = counts.most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return PanelDecision(
            None, ranked[0][1] / len(votes), f"judges tied {ranked[0][1]}-{ranked[1][1]}"
        )
    verdict, count = ranked[0]
    return PanelDecision(verdict, count / len(votes), None)


class LLMRefusalConfirmer:
    """Asks an LLM whether a reply that matched a refusal phrase really declines to answer.

    Uses next-word probabilities of "yes" / "no" (one forward pass, no
    generation). A failed call keeps the phrase match: the detector's verdict
    stands unless the model clearly overrules it.
    """

    def __init__(self, llm: LLM, instructions: str | None = None):
        self.llm = llm
        self.instructions = instructions or data_file(
            "refusal_prompt.txt", "ragmeter.scoring.crag"
        ).read_text(encoding="utf-8")
        self.overruled = 0
        self.failures = 0

    async def __call__(self, query: str, prediction: str) -> bool:
        """True when the reply still counts as a refusal."""
        messages = [
            ChatMessage(role="system", content=self.instructions.strip()),
            ChatMessage(role="user", content=f"Question: {query}\nReply: {prediction}"),
        ]
        try:
            probs = await self.llm.choice_probabilities(messages, ["yes", "no"])
        except BackendError:
            self.failures += 1
            return True
        if probs.probs.get("no", 0.0) > 0.5:
            self.overruled += 1
            return False
        return True
