"""The LLM judge: does a prediction give the gold answer?

How a verdict is reached, per gold answer:

0. A false-premise question (gold "invalid question"): an answer with no word of
   denial points out nothing; one that denies the question's own words ("in 1986,
   not 1987") without doubting itself points it out; otherwise the model is asked
   whether the answer points out the false assumption.
1. A comparison question whose gold names one of its two options: the model
   is first asked the narrow question "which option does the answer choose?";
   choosing the other option is incorrect without further ado.
2. A sentence gold: its key answer is read off where the sentence states a value or
   a list after its verb, holds the one figure a "how many" question asks for, names a
   place before its country, the partner of the one asked about, or the kind of thing a
   definition says its term is; otherwise it is extracted once (a short generation,
   cached like every reply; a key the model reworded keeps the gold's own words at one
   end). It is checked mechanically against the prediction, then shown beside the gold.
   Without a model: a gold that calls a comparison's options alike is met by an answer
   that does; a gold that corrects the question ("actually, walmart has ...") by an
   answer that corrects it and names the same; after a gold's own yes or no, an answer
   giving the same and one of its figures rightly may state other figures as reasons.
3. The verdict: the prediction is quoted inside a boundary it cannot forge
   (`ragmeter.scoring.crag.boundary`), and the verdict is read from the
   probabilities of the model's next word, "yes" or "no", not from free text
   the prediction could imitate. Backends without next-token probabilities
   give a parsed one-word reply, recorded as such.
4. A second look at a long prediction the verdict rejects without a clear no:
   a small model reads a short answer more reliably than one buried in
   sentences of detail. The prediction's own short answer is extracted (still
   quoted inside the boundary) and kept only when its words are the
   prediction's own; it is correct when it is the gold (or the gold's short
   form) word for word, or mechanics prove it so. A long prediction rejected
   for restating the gold's figures wrongly gets the same look when it also
   states rightly every gold figure it seems to restate wrongly (its other
   figures may be detail: "released in 2023 ... retired in 2022").
5. Still rejected, a long prediction whose opening sentence states the gold word for
   word gets a verdict on that sentence alone: an answer is judged by what it leads
   with (an added reading of an ambiguous question does not undo it).

6. No gold found in a prediction of four words or more that says something is missing:
   unless mechanics proved a wrong answer (another option, a differing value or list, the
   gold's figures restated wrongly), the model is asked one gold-free question,
   "does the reply give an answer to the question at all?" (quoted inside the boundary, with
   worked examples). A reply that gives none is missing, not incorrect: declines come in
   more words than any phrase list holds ("We are unable to assess X; available reporting
   does not address it.", an error panel, steps that stop before their answer). Said only
   after the first sentence, the decline must clear a higher bar (`no_answer_bar`).

The prompts are data files beside this module (``data/judge_prompt.txt``,
``data/judge_examples.jsonl``, ``data/key_answer_prompt.txt``,
``data/option_prompt.txt``, ``data/prediction_answer_prompt.txt``,
``data/answered_prompt.txt``, ``data/answered_examples.jsonl``). The fixed
part of the judge's chat (instructions and examples) comes first and never
varies, so a backend that keeps prompt prefixes reads it once.

A failed call or an unreadable reply is retried, then recorded as unscored
with its reason. Several judges vote by majority; a tie or a panel with no
verdict leaves the sample unscored.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, TypeVar, runtime_checkable

import orjson

from ragmeter.data.jsonl import iter_json_lines, open_binary
from ragmeter.errors import BackendError, DataError
from ragmeter.llm.protocol import LLM, ChatMessage, ChoiceProbabilities, GenerationSettings
from ragmeter.scoring.crag.boundary import marker_for, quote
from ragmeter.scoring.crag.counts import bare_count, counts_none, says_zero
from ragmeter.scoring.crag.declines import opens_with_absence, states_absence
from ragmeter.scoring.crag.equivalence import (
    COUNT_WORDS,
    asks_for_score,
    contradicted_values,
    corrects_question,
    defined_genus,
    denies,
    gold_option,
    long_list,
    named_before_figure,
    negates_question,
    only_figure,
    partner_named,
    picks_neither_alone,
    place_before_country,
    says_none,
    says_tied,
    settle,
    split_items,
    stated_beside,
    stated_list,
    stated_value,
    states_a_gold_figure,
    verdict_agreed,
)
from ragmeter.scoring.crag.names import named_by_initial, named_within, same_name
from ragmeter.scoring.crag.options import comparison_options
from ragmeter.scoring.crag.records import GoldCheck, JudgeVote, Verdict, VoteVerdict
from ragmeter.scoring.crag.rules import correction_named, final_answer, is_invalid_gold
from ragmeter.scoring.crag.screen import states_doubt
from ragmeter.scoring.crag.values import Value, find_values
from ragmeter.scoring.normalize import contains_in_order, contains_words, tokens
from ragmeter.scoring.phrases import data_file
from ragmeter.types import Record

__all__ = [
    "AnswerReader",
    "AnsweredExample",
    "Judge",
    "JudgeExample",
    "JudgePrompt",
    "LLMJudge",
    "PanelDecision",
    "decide",
    "gold_span",
    "is_long_prediction",
    "judge_against_golds",
    "lead_sentence",
    "own_answer",
]

_PACKAGE = "ragmeter.scoring.crag"
PROMPT_VERSION = 8
"""Bumped when the way a case is put to the judge changes (part of the prompt fingerprint)."""

YES_THRESHOLD = 0.8
"""The verdict is correct when P(yes) exceeds this, when the prediction does not contain the
gold (or its short form) word for word. A small model leans to "yes" on plausible wrong
answers: on the real-answer set's dev split, 7 of 89 such predictions were right, and the
default local model's verdicts agreed best with the graders at 0.75-0.8 (0.45 at 0.5)."""

YES_THRESHOLD_CONTAINED = 0.6
"""The same threshold when the prediction holds the gold (word for word, or the name in
another spelling; see `_holds`) (38 of 47 right
on the dev split; best agreement at 0.6). Containment alone proves nothing ("not Spielberg
but Lucas"), so the model still decides; it only needs less confidence. Strong judges give
probabilities near 0 or 1, where neither threshold matters."""

PREMISE_THRESHOLD = 0.5
"""P(points out the false premise) above which a reply to an invalid question is correct."""

PREMISE_THRESHOLD_CORRECTION = 0.4
"""The same for a reply that opens by denying the question's own claim ("Chris Pratt wasn't
married in 2005"): the default local model gave 8 of 9 such graded-correct replies on the
dev split 0.4-0.5, and no reply of any shape below 0.3."""

KEY_ANSWER_MIN_WORDS = 7
"""A gold of this many words or more gets a short form extracted for the judge."""

LONG_PREDICTION_MIN_WORDS = 8
"""A prediction of this many words or more gets a second look when the verdict rejects it."""

SECOND_LOOK_FLOOR = 0.2
"""The second look is only for a verdict short of a clear no: P(yes) at least this. Below
it the full answer's verdict stands, whatever its short answer says (an extraction could
pick a name the answer mentions only to reject it)."""

NO_ANSWER_THRESHOLD = 0.6
"""P(gives no answer) above which a prediction no gold was found in is missing, not incorrect
(see `LLMJudge.answer_check`). On the judged-incorrect replies of nine earlier blind fields
the default local model put 48 of the 60 the graders called missing above 0.6, and 4 of
the 148 they called answers (incorrect or correct); 0.5 took 6 more declines and 4 more
answers. Scoring a wrong answer as no answer is the error a gamer wants, so the bar leans
high."""

NO_ANSWER_THRESHOLD_LATER = 0.85
"""The bar for a prediction that says something is missing only after its first sentence (a
decline inside a format or after its working, or an answer with a remark on its sources):
weaker evidence of a decline asks a surer model. On the raw once-measured replies of twelve
blind fields (t50-t61) that the judge scored incorrect without asking, it took 26 of the 52
the graders called missing and 1 of the 39 they called answers; the adversarial suite's
wrong answers padded with remarks on sources stayed below 0.8."""

ANSWERED_MIN_WORDS = 4
"""Shorter predictions are not asked whether they answer: a bare span ("xxii", "Close Your
Eyes") asserts something, however odd; the short declines ("N/A", "unknown") are the refusal
rules' to find. Nor is a prediction that says nowhere that something is missing
(`declines.states_absence`). One that says so only after its first sentence (not
`declines.opens_with_absence`) meets the higher bar, since a small model takes an odd answer
padded with remarks ("It is Away. Sources do not always agree ...") for none."""

_NO_ANSWER = "no answer"


class JudgeExample(Record):
    """One worked example of the judge prompt."""

    question: str
    gold: str
    prediction: str
    verdict: Verdict
    rationale: str


class AnsweredExample(Record):
    """One worked example of the question "does the reply give an answer at all?"."""

    question: str
    prediction: str
    gives_answer: bool
    rationale: str


def _yes_no(verdict: Verdict) -> str:
    return "yes" if verdict == "correct" else "no"


def _verdict_case(
    question: str, gold: str, prediction: str, marker: str, key_answer: str | None = None
) -> str:
    lines = [f"Question: {question}", f"True answer: {gold}"]
    if key_answer:
        lines.append(f"Short form of the true answer: {key_answer}")
    lines.append(f"The answer to grade is between the lines <<{marker}>> and <<END-{marker}>>.")
    lines.append(quote(prediction, marker))
    lines.append("Does the graded answer give the true answer? Reply yes or no.")
    return "\n".join(lines)


def _quoted_case(question: str, prediction: str, marker: str, noun: str, ask: str) -> str:
    return (
        f"Question: {question}\n"
        f"The {noun} is between the lines <<{marker}>> and <<END-{marker}>>.\n"
        f"{quote(prediction, marker)}\n{ask} Reply yes or no."
    )


def _premise_case(question: str, prediction: str, marker: str) -> str:
    ask = "Does the answer point out the false assumption?"
    return _quoted_case(question, prediction, marker, "answer", ask)


def _answered_case(question: str, prediction: str, marker: str) -> str:
    ask = "Does the reply give an answer to the question?"
    return _quoted_case(question, prediction, marker, "reply", ask)


@dataclass(frozen=True)
class JudgePrompt:
    """Instructions, worked examples and the helper prompts of one judge."""

    instructions: str
    examples: tuple[JudgeExample, ...]
    key_answer_instructions: str = ""
    option_instructions: str = ""
    premise_instructions: str = ""
    premise_examples: tuple[JudgeExample, ...] = ()
    prediction_answer_instructions: str = ""
    answered_instructions: str = ""
    answered_examples: tuple[AnsweredExample, ...] = ()
    source: str = "builtin"

    @classmethod
    def from_files(
        cls,
        instructions: str | Path,
        examples: str | Path,
        *,
        key_answer: str | Path | None = None,
        option: str | Path | None = None,
        premise: str | Path | None = None,
        prediction_answer: str | Path | None = None,
    ) -> JudgePrompt:
        """Read a prompt file, a JSONL file of `JudgeExample` rows and the helper prompts
        (the built-in ones when not given)."""
        ipath, epath = Path(instructions), Path(examples)
        text = _read_text(ipath)
        rows = _read_rows(epath, JudgeExample)
        kpath = Path(key_answer) if key_answer else data_file("key_answer_prompt.txt", _PACKAGE)
        opath = Path(option) if option else data_file("option_prompt.txt", _PACKAGE)
        ppath = Path(premise) if premise else data_file("premise_prompt.txt", _PACKAGE)
        apath = (
            Path(prediction_answer)
            if prediction_answer
            else data_file("prediction_answer_prompt.txt", _PACKAGE)
        )
        pexamples = _read_rows(data_file("premise_examples.jsonl", _PACKAGE), JudgeExample)
        aexamples = _read_rows(data_file("answered_examples.jsonl", _PACKAGE), AnsweredExample)
        return cls(
            text,
            tuple(rows),
            key_answer_instructions=_read_text(kpath),
            option_instructions=_read_text(opath),
            premise_instructions=_read_text(ppath),
            premise_examples=tuple(pexamples),
            prediction_answer_instructions=_read_text(apath),
            answered_instructions=_read_text(data_file("answered_prompt.txt", _PACKAGE)),
            answered_examples=tuple(aexamples),
            source=f"{ipath}+{epath}",
        )

    @classmethod
    def builtin(cls) -> JudgePrompt:
        """The prompts shipped with ragmeter."""
        p = cls.from_files(
            data_file("judge_prompt.txt", _PACKAGE), data_file("judge_examples.jsonl", _PACKAGE)
        )
        return JudgePrompt(
            p.instructions,
            p.examples,
            key_answer_instructions=p.key_answer_instructions,
            option_instructions=p.option_instructions,
            premise_instructions=p.premise_instructions,
            premise_examples=p.premise_examples,
            prediction_answer_instructions=p.prediction_answer_instructions,
            answered_instructions=p.answered_instructions,
            answered_examples=p.answered_examples,
            source="builtin",
        )

    @property
    def fingerprint(self) -> str:
        """A short hash of every prompt: part of what makes a verdict what it is."""
        h = hashlib.sha256(f"prompt-v{PROMPT_VERSION}\n{self.instructions}".encode())
        for ex in self.examples:
            h.update(ex.model_dump_json().encode())
        h.update(self.key_answer_instructions.encode())
        h.update(self.option_instructions.encode())
        h.update(self.premise_instructions.encode())
        for ex in self.premise_examples:
            h.update(ex.model_dump_json().encode())
        h.update(self.prediction_answer_instructions.encode())
        h.update(self.answered_instructions.encode())
        for row in self.answered_examples:
            h.update(row.model_dump_json().encode())
        return h.hexdigest()[:12]

    def messages(
        self, question: str, gold: str, prediction: str, *, key_answer: str | None = None
    ) -> list[ChatMessage]:
        """The chat that asks for one verdict (the reply's first word is read).

        The instructions and the worked examples (as earlier turns of the chat) come
        first and never vary, so a backend that keeps prompt prefixes reads them once.
        """
        msgs = [ChatMessage(role="system", content=self.instructions)]
        for i, ex in enumerate(self.examples):
            marker = f"QUOTE-EXAMPLE-{i + 1}"
            msgs.append(
                ChatMessage(
                    role="user", content=_verdict_case(ex.question, ex.gold, ex.prediction, marker)
                )
            )
            msgs.append(ChatMessage(role="assistant", content=_yes_no(ex.verdict)))
        marker = marker_for("verdict", question, gold, prediction)
        case = _verdict_case(question, gold, prediction, marker, key_answer)
        msgs.append(ChatMessage(role="user", content=case))
        return msgs

    def key_answer_messages(self, question: str, gold: str) -> list[ChatMessage]:
        """The chat that asks for the short form of a long gold answer."""
        return [
            ChatMessage(role="system", content=self.key_answer_instructions),
            ChatMessage(role="user", content=f"Question: {question}\nFull answer: {gold}"),
        ]

    def prediction_answer_messages(self, question: str, prediction: str) -> list[ChatMessage]:
        """The chat that asks for the short answer a long prediction gives (quoted as data)."""
        marker = marker_for("answer", question, prediction)
        user = (
            f"Question: {question}\n"
            f"The reply is between the lines <<{marker}>> and <<END-{marker}>>.\n"
            f"{quote(prediction, marker)}\nWhat is the reply's answer to the question?"
        )
        return [
            ChatMessage(role="system", content=self.prediction_answer_instructions),
            ChatMessage(role="user", content=user),
        ]

    def premise_messages(self, question: str, prediction: str) -> list[ChatMessage]:
        """The chat that asks whether an answer points out a question's false premise."""
        msgs = [ChatMessage(role="system", content=self.premise_instructions)]
        for i, ex in enumerate(self.premise_examples):
            case = _premise_case(ex.question, ex.prediction, f"QUOTE-EXAMPLE-{i + 1}")
            msgs.append(ChatMessage(role="user", content=case))
            msgs.append(ChatMessage(role="assistant", content=_yes_no(ex.verdict)))
        marker = marker_for("premise", question, prediction)
        msgs.append(ChatMessage(role="user", content=_premise_case(question, prediction, marker)))
        return msgs

    def answered_messages(self, question: str, prediction: str) -> list[ChatMessage]:
        """The chat that asks whether a reply gives an answer to the question at all."""
        msgs = [ChatMessage(role="system", content=self.answered_instructions)]
        for i, ex in enumerate(self.answered_examples):
            case = _answered_case(ex.question, ex.prediction, f"QUOTE-EXAMPLE-{i + 1}")
            msgs.append(ChatMessage(role="user", content=case))
            msgs.append(ChatMessage(role="assistant", content="yes" if ex.gives_answer else "no"))
        marker = marker_for("answered", question, prediction)
        msgs.append(ChatMessage(role="user", content=_answered_case(question, prediction, marker)))
        return msgs

    def option_messages(
        self, question: str, first: str, second: str, prediction: str
    ) -> list[ChatMessage]:
        """The chat that asks which of a comparison's two options an answer chooses."""
        marker = marker_for("option", question, first, second, prediction)
        user = (
            f"Question: {question}\nOption A: {first}\nOption B: {second}\n"
            f"The answer is between the lines <<{marker}>> and <<END-{marker}>>.\n"
            f"{quote(prediction, marker)}\nWhich option does the answer choose? Reply A, B or N."
        )
        return [
            ChatMessage(role="system", content=self.option_instructions),
            ChatMessage(role="user", content=user),
        ]


_Row = TypeVar("_Row", bound=Record)


def _read_rows(path: Path, model: type[_Row]) -> list[_Row]:
    rows: list[_Row] = []
    with open_binary(path) as stream:
        for line, obj in iter_json_lines(stream, path):
            try:
                rows.append(model.model_validate(obj))
            except ValueError as exc:
                raise DataError(f"bad judge example: {exc}", path=path, line=line) from None
    return rows


def _read_text(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise DataError(f"cannot read judge prompt: {exc.strerror or exc}", path=path) from None
    if not text:
        raise DataError("the judge prompt is empty", path=path)
    return text


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


@runtime_checkable
class AnswerReader(Protocol):
    """A judge that can also tell whether a prediction gives any answer (`LLMJudge`)."""

    async def answer_check(
        self, question: str, prediction: str, *, threshold: float = NO_ANSWER_THRESHOLD
    ) -> GoldCheck:
        """Whether ``prediction`` answers ``question`` at all (``GoldCheck.gives_answer``: it
        gives none when P(no) exceeds ``threshold``)."""
        ...


def _probs_text(p: ChoiceProbabilities) -> str:
    shown = {k: round(v, 4) for k, v in p.probs.items()}
    return orjson.dumps({"probs": shown, "method": p.method, "reply": p.reply}).decode()


_CALLS: ContextVar[list[int] | None] = ContextVar("judge_calls", default=None)
"""The model requests of the check running in this task (checks of other tasks run apart)."""


def _count_call() -> None:
    tally = _CALLS.get()
    if tally is not None:
        tally[0] += 1


class LLMJudge:
    """A judge backed by any `ragmeter.llm.protocol.LLM`."""

    def __init__(
        self,
        llm: LLM,
        spec: str,
        prompt: JudgePrompt | None = None,
        *,
        retries: int = 2,
        key_answer_tokens: int = 24,
        prediction_answer_tokens: int = 32,
        yes_threshold: float = YES_THRESHOLD,
        yes_threshold_contained: float = YES_THRESHOLD_CONTAINED,
    ):
        self.llm = llm
        self._spec = spec
        self.prompt = prompt or JudgePrompt.builtin()
        self.retries = max(0, retries)
        self.key_answer_tokens = key_answer_tokens
        self.prediction_answer_tokens = prediction_answer_tokens
        self.yes_threshold = yes_threshold
        self.yes_threshold_contained = yes_threshold_contained

    @property
    def spec(self) -> str:
        """The judge spec as given."""
        return self._spec

    @property
    def identity(self) -> str:
        """Model identity and prompt fingerprint."""
        return f"{self.llm.identity}#prompt={self.prompt.fingerprint}"

    async def _choices(
        self, messages: list[ChatMessage], choices: list[str]
    ) -> tuple[ChoiceProbabilities | None, str | None, int]:
        error: str | None = None
        for attempt in range(self.retries + 1):
            _count_call()
            try:
                return await self.llm.choice_probabilities(messages, choices), None, attempt + 1
            except BackendError as exc:
                error = f"judge call failed: {exc}"
        return None, error, self.retries + 1

    async def key_answer(self, question: str, gold: str) -> str | None:
        """The short form of a sentence gold (None for a short gold, or when the model strays).

        A value or a list the sentence states after its verb ("the closing price is 561.32",
        "the movies are a, b and c"), or the only figure of a gold to a "how many" question,
        is read off mechanically, whole: a model asked for the short form may keep one item
        of a list. Other golds of seven words or more get a short generation, kept only when
        its words are the gold's and say more than the question.
        """
        numeric = _asks_for_number(question)
        if comparison_options(question) is not None and picks_neither_alone(gold):
            # "both interstellar and inception have won": no one option is its short form.
            return None
        stated = _stated_key(question, gold)
        if stated is not None:
            return stated
        if len(gold.split()) < KEY_ANSWER_MIN_WORDS:
            return None
        messages = self.prompt.key_answer_messages(question, gold)
        completion = None
        for max_tokens in (self.key_answer_tokens, 3 * self.key_answer_tokens):
            _count_call()
            try:
                completion = await self.llm.generate(
                    messages, GenerationSettings(max_tokens=max_tokens, temperature=0.0)
                )
            except BackendError:
                return None
            if completion.finish_reason != "length":
                break
        if completion is None or completion.finish_reason == "length":
            return None  # a list cut short would drop the gold's last items
        key = completion.text.strip().strip("\"'").strip().rstrip(".").strip()
        gold_words = set(tokens(gold))
        key_words = tokens(key)
        # The short form must come from the gold: a model that answers from its own
        # knowledge instead would smuggle a second truth into the verdict.
        if not key_words or len(key_words) >= len(tokens(gold)):
            return None
        gold_words |= {str(n) for w, n in COUNT_WORDS.items() if w in gold_words}
        if sum(w in gold_words for w in key_words) < 0.8 * len(key_words):
            span = gold_span(key_words, tokens(gold))
            if span is None:
                return None
            key, key_words = " ".join(span), span
        if _bare_count(key) and not numeric:
            # "3" for "can you list isla fisher's kids?": the gold's names are the answer.
            return None
        if numeric and find_values(key) and says_none(gold):
            # "seven" for "how many times has she won?" from "she has never won, though
            # nominated seven times": the figure counts something else.
            return None
        if _bare_date(key) and not _TIME_QUESTION & set(tokens(question)):
            # "February 16, 1815" for "what ended the war of 1812?": a date of the gold,
            # not its answer.
            return None
        if all(w in set(tokens(question)) for w in key_words) and not comparison_options(question):
            # "water" for "why did khloe throw water on scott?" says nothing the question
            # did not (an option of a comparison is another matter).
            return None
        return key

    async def prediction_answer(self, question: str, prediction: str) -> str | None:
        """The short answer a long prediction gives (None when it gives none, when the
        model strays from the prediction's words, or for a short prediction)."""
        if not self.prompt.prediction_answer_instructions or not is_long_prediction(prediction):
            return None
        _count_call()
        try:
            completion = await self.llm.generate(
                self.prompt.prediction_answer_messages(question, prediction),
                GenerationSettings(max_tokens=self.prediction_answer_tokens, temperature=0.0),
            )
        except BackendError:
            return None
        return own_answer(completion.text, prediction)

    async def _second_look(
        self,
        question: str,
        gold: str,
        prediction: str,
        key: str | None,
        first: GoldCheck,
    ) -> GoldCheck:
        """The rejected long prediction's own short answer against the gold (or ``first``).

        Only the gold word for word or a mechanical proof counts: on the real answers'
        dev split, the model's yes/no on the short answer never cleared the verdict's
        thresholds where mechanics left the case open, so it would only cost a call.
        """
        short = await self.prediction_answer(question, prediction)
        if short is None:
            return first
        first = first.model_copy(update={"prediction_answer": short})
        targets = [gold] if key is None else [gold, key]
        if _said_against(prediction, short) or (
            comparison_options(question) is not None and _PICKS_NONE.match(prediction)
        ):
            # "Nice played away from home": "home" is there, but denied; "Neither is really a
            # political film. ... Schindler's List is often seen ...": no option is chosen.
            return first.model_copy(
                update={"rationale": f"{first.rationale}; its short answer {short!r}: not given"}
            )
        if any(same_name(short, t) for t in targets):
            return first.model_copy(
                update={
                    "verdict": "correct",
                    "rationale": f"{first.rationale}; its short answer {short!r} is the gold",
                    "step": "prediction_answer",
                }
            )
        for target in targets:
            if len(find_values(short)) > len(find_values(target)):
                # "2 to 3 goldfish" for "two": a range or a second figure is no proof.
                continue
            settled = settle(
                question, [target], short, list_gold=_listed(target, question, gold, short)
            )
            if settled is None:
                continue
            if settled.label != "correct":
                # Mechanics prove the short answer wrong: the rejection stands.
                return first
            return first.model_copy(
                update={
                    "verdict": "correct",
                    "rationale": (
                        f"{first.rationale}; its short answer {short!r}: "
                        f"{settled.rule} ({settled.detail})"
                    ),
                    "step": "prediction_answer",
                }
            )
        return first.model_copy(
            update={"rationale": f"{first.rationale}; its short answer {short!r}: not proven"}
        )

    async def _option_check(self, question: str, gold: str, prediction: str) -> GoldCheck | None:
        """Incorrect when the prediction chooses the option the gold does not; else None."""
        options = comparison_options(question)
        picked = gold_option(question, [gold])
        if options is None or picked is None:
            return None
        messages = self.prompt.option_messages(question, options.first, options.second, prediction)
        probs, _error, attempts = await self._choices(messages, ["A", "B", "N"])
        if probs is None:
            return None
        chosen = probs.best()
        if chosen == "N" or probs.probs[chosen] <= 0.5:
            return None
        named = options.first if chosen == "A" else options.second
        if named == picked:
            return None
        return GoldCheck(
            gold=gold,
            verdict="incorrect",
            rationale=f"the answer chooses {named}; the true answer is {picked}",
            raw=_probs_text(probs),
            attempts=attempts,
            cached=probs.cached,
            p_correct=probs.probs.get("A" if picked == options.first else "B"),
            method=probs.method,
            step="option",
        )

    async def _none_check(self, question: str, gold: str, prediction: str) -> GoldCheck:
        said = final_answer(prediction) or prediction
        wrong = _counted_alike(gold, prediction, contradicted_values(gold, prediction))
        if wrong:
            # "Never won; nominated three times" against "never won, though nominated four
            # times": detail that restates the gold's figure wrongly.
            return _restated_wrongly(gold, wrong, "key_answer")
        if says_zero(said, question):
            return GoldCheck(
                gold=gold,
                verdict="correct",
                rationale="the true answer counts none, and so does the answer",
                key_answer="0",
                step="key_answer",
                calls=0,
            )
        settled = settle(question, ["0"], said) if bare_count(said) else None
        if settled is not None:
            return GoldCheck(
                gold=gold,
                verdict="correct" if settled.label == "correct" else "incorrect",
                rationale=f"short form '0': {settled.rule} ({settled.detail})",
                key_answer="0",
                step="key_answer",
                calls=0,
            )
        return await self._verdict(question, gold, prediction, "0")

    async def _premise_check(self, question: str, gold: str, prediction: str) -> GoldCheck:
        if not denies(prediction):
            return GoldCheck(
                gold=gold,
                verdict="incorrect",
                rationale="no word of denial: the answer cannot point out a false premise",
                step="premise",
                calls=0,
            )
        negated = negates_question(question, prediction)
        if negated is not None and not states_doubt(prediction):
            # "Microsoft went public in 1986, not 1987": the question's own claim denied in
            # so many words; a small model reads the figures after it as an answer.
            return GoldCheck(
                gold=gold,
                verdict="correct",
                rationale=f"says the question's own claim is not so: '{negated}'",
                step="premise",
                calls=0,
            )
        messages = self.prompt.premise_messages(question, prediction)
        probs, error, attempts = await self._choices(messages, ["yes", "no"])
        if probs is None:
            return GoldCheck(
                gold=gold, verdict=None, attempts=attempts, error=error, step="premise"
            )
        p_yes = probs.probs.get("yes", 0.0)
        corrects = corrects_question(question, prediction)
        threshold = PREMISE_THRESHOLD_CORRECTION if corrects else PREMISE_THRESHOLD
        return GoldCheck(
            gold=gold,
            verdict="correct" if p_yes > threshold else "incorrect",
            rationale=f"P(points out the false premise) = {p_yes:.2f}",
            raw=_probs_text(probs),
            attempts=attempts,
            cached=probs.cached,
            p_correct=p_yes,
            method=probs.method,
            step="premise",
        )

    async def answer_check(
        self, question: str, prediction: str, *, threshold: float = NO_ANSWER_THRESHOLD
    ) -> GoldCheck:
        """Whether a prediction in which no gold was found gives an answer at all.

        "BLUF: We are unable to assess X; available reporting does not address it." declines
        in words no phrase list holds; the verdict only says it does not give the gold. The
        question is the gold's business no more: a wrong answer, hedged or not, answers.
        A failed call leaves ``gives_answer`` unknown (the prediction stays incorrect).
        """
        messages = self.prompt.answered_messages(question, prediction)
        # One question, so its model requests are its attempts.
        probs, error, attempts = await self._choices(messages, ["yes", "no"])
        if probs is None:
            return GoldCheck(
                gold="",
                verdict=None,
                attempts=attempts,
                error=error,
                step="gives_answer",
                calls=attempts,
            )
        p_none = probs.probs.get("no", 0.0)
        return GoldCheck(
            gold="",
            verdict="incorrect",
            rationale=f"P(gives no answer) = {p_none:.2f}",
            raw=_probs_text(probs),
            attempts=attempts,
            cached=probs.cached,
            method=probs.method,
            step="gives_answer",
            gives_answer=p_none <= threshold,
            calls=attempts,
        )

    async def check(self, question: str, gold: str, prediction: str) -> GoldCheck:
        """One gold answer against the prediction; never raises for a failed call or reply."""
        tally = [0]
        token = _CALLS.set(tally)
        try:
            check = await self._check(question, gold, prediction)
        finally:
            _CALLS.reset(token)
        return check.model_copy(update={"calls": tally[0]})

    async def _check(self, question: str, gold: str, prediction: str) -> GoldCheck:
        if is_invalid_gold([gold]):
            return await self._premise_check(question, gold, prediction)
        option = await self._option_check(question, gold, prediction)
        if option is not None:
            return option
        if _NUMBER_QUESTION & set(tokens(question)) and counts_none(gold):
            # "she has never won, though nominated seven times": the count asked is 0,
            # and the gold's other figures are no answer.
            return await self._none_check(question, gold, prediction)
        if " ".join(tokens(gold)) in _NONE_GOLDS and says_zero(
            final_answer(prediction) or prediction, question
        ):
            # "Who was Arthur's vice president?" - "none": "He had no vice president."
            return GoldCheck(
                gold=gold,
                verdict="correct",
                rationale="the true answer is none, and so is the answer",
                key_answer=gold,
                step="key_answer",
                calls=0,
            )
        named = correction_named(gold)
        if named and corrects_question(question, prediction) and contains_words(prediction, named):
            # "Target isn't the top-earning company (that's Walmart), but Target's revenue was
            # $107 billion" to "actually, walmart has the highest revenue ... $640 billion":
            # the premise corrected alike; the figures are the question's own company's.
            return GoldCheck(
                gold=gold,
                verdict="correct",
                rationale=f"corrects the question as the true answer does, naming {named}",
                key_answer=named,
                step="key_answer",
                calls=0,
            )
        wrong = contradicted_values(
            gold, prediction, years=True, score=asks_for_score(question), query=question
        )
        if wrong:
            # The gold's own figures restated wrongly ("a 2009 movie" for "a 1999 movie").
            check = _restated_wrongly(gold, wrong, "verdict")
            beside = stated_beside(gold, prediction, wrong, years=True)
            # With the gold's year stated too, another year dates something else ("retired
            # in 2022, but his films came out in 2023"): the verdict's to read, below.
            # "Yes. NBA games are 48 minutes; NCAA men's games are 40." against "yes, ... 48
            # minutes, 8 minutes longer than ncaa games": after the gold's own verdict and one
            # of its figures stated rightly, other figures are the answer's reasons.
            reasons = verdict_agreed([gold], prediction) and states_a_gold_figure(gold, prediction)
            dated = beside and all(v.is_year_like or v.kind == "date" for v in wrong)
            if not (reasons or dated):
                if not beside or not is_long_prediction(prediction):
                    return check
                key = await self.key_answer(question, gold)
                check = check.model_copy(update={"key_answer": key})
                return await self._second_look(question, gold, prediction, key, check)
        if (
            comparison_options(question) is not None
            and says_tied(gold)
            # "... each received one nomination. FINAL ANSWER: neither" ties in its final answer.
            and (
                says_tied(prediction, question)
                or says_tied(final_answer(prediction) or "", question)
            )
        ):
            # "Both have won an Oscar" and "They're tied: one nomination each, both won".
            return GoldCheck(
                gold=gold,
                verdict="correct",
                rationale="the true answer and the answer both call the options alike",
                step="key_answer",
                calls=0,
            )
        key = await self.key_answer(question, gold)
        if key is not None:
            # The short form of a sentence gold may be a value, a yes/no or an option:
            # what mechanics can prove about it is settled without asking for a verdict.
            # Of a reasoning that ends "Answer: X", X is what is settled: its working may
            # name other figures ("his four 50-40-90 seasons ... Answer: about 4.5").
            said = final_answer(prediction) or prediction
            settled = settle(question, [key], said, list_gold=_listed(key, question, gold, said))
            if settled is not None:
                return GoldCheck(
                    gold=gold,
                    verdict="correct" if settled.label == "correct" else "incorrect",
                    rationale=f"short form {key!r}: {settled.rule} ({settled.detail})",
                    key_answer=key,
                    step="key_answer",
                )
        return await self._verdict(question, gold, prediction, key)

    async def _verdict(
        self, question: str, gold: str, prediction: str, key: str | None
    ) -> GoldCheck:
        """The model's verdict, with a second look at a long prediction it rejects."""
        messages = self.prompt.messages(question, gold, prediction, key_answer=key)
        probs, error, attempts = await self._choices(messages, ["yes", "no"])
        if probs is None:
            return GoldCheck(gold=gold, verdict=None, attempts=attempts, error=error)
        p_yes = probs.probs.get("yes", 0.0)
        contained = _holds(prediction, gold, key, question)
        threshold = self.yes_threshold_contained if contained else self.yes_threshold
        verdict: Verdict = "correct" if p_yes > threshold else "incorrect"
        short = f" (short form: {key})" if key else ""
        check = GoldCheck(
            gold=gold,
            verdict=verdict,
            rationale=f"P(gives the true answer{short}) = {p_yes:.2f}",
            raw=_probs_text(probs),
            attempts=attempts,
            cached=probs.cached,
            p_correct=p_yes,
            method=probs.method,
            key_answer=key,
            step="verdict",
        )
        if verdict == "incorrect" and p_yes >= SECOND_LOOK_FLOOR and is_long_prediction(prediction):
            check = await self._second_look(question, gold, prediction, key, check)
            if check.verdict == "incorrect":
                return await self._lead_look(question, gold, prediction, key, check)
        return check

    async def _lead_look(
        self, question: str, gold: str, prediction: str, key: str | None, first: GoldCheck
    ) -> GoldCheck:
        """The verdict on the sentence a long prediction opens with, when that sentence
        states the gold word for word: an answer is judged by what it leads with ("Coco won
        at the 2018 ceremony. For 2018 films, Spider-Verse won.")."""
        lead = lead_sentence(prediction)
        if lead is None or not _holds(lead, gold, key, question):
            return first
        messages = self.prompt.messages(question, gold, lead, key_answer=key)
        probs, _error, _attempts = await self._choices(messages, ["yes", "no"])
        if probs is None:
            return first
        p_yes = probs.probs.get("yes", 0.0)
        if p_yes <= self.yes_threshold_contained:
            return first
        return first.model_copy(
            update={
                "verdict": "correct",
                "rationale": f"{first.rationale}; its opening sentence: P = {p_yes:.2f}",
                "step": "lead_sentence",
                "p_correct": p_yes,
            }
        )


# "Both are extremely selective. ... So Stanford's rate is higher." still picks.
_PICKS_NONE = re.compile(r"^\W*(?:neither|none)\b", re.IGNORECASE)
# Words that, just before a name, say it is not the one: "away from home", "not Lucas",
# "more than The Godfather", "instead of Paris".
_AGAINST = frozenset(
    [
        *("not", "never", "no", "neither", "nor", "away", "instead", "rather", "than"),
        *("except", "without", "isnt", "wasnt", "arent", "werent", "unlike"),
    ]
)
_AGAINST_REACH = 3


def _said_against(prediction: str, short: str) -> bool:
    """True when every place ``prediction`` says ``short`` follows a word against it."""
    words, said = tokens(prediction), tokens(short)
    if not said:
        return False
    starts = [i for i in range(len(words) - len(said) + 1) if words[i : i + len(said)] == said]
    return bool(starts) and all(
        _AGAINST & set(words[max(0, i - _AGAINST_REACH) : i]) for i in starts
    )


def _holds(text: str, gold: str, key: str | None, question: str) -> bool:
    """True when ``text`` states the gold (or its short form) word for word, its content words
    in order ("Wrangell-St. Elias National Park and Preserve" for "... park & preserve"), or
    the name it is in another spelling ("the Mariana Trench" for "marianas trench"), unless
    the question itself names it, or a person's name with the first name as its initial."""
    return any(
        contains_words(text, g)
        or contains_in_order(text, g)
        or (named_within(text, g) and not named_within(question, g))
        or named_by_initial(text, g)
        or _names_the_family(text, g)
        or _names_the_examples(text, g)
        for g in (key or gold, gold)
    )


_EXAMPLES = re.compile(r"\bincluding\s+(?P<items>[^.;:()]+)", re.IGNORECASE)


def _names_the_examples(text: str, gold: str) -> bool:
    """True when ``text`` names every example a gold gives after "including" ("five
    children, including katherine schwarzenegger, patrick schwarzenegger and joseph baena"),
    a shared surname said once ("Katherine, Christina, Patrick and Christopher
    Schwarzenegger")."""
    m = _EXAMPLES.search(gold)
    if m is None:
        return False
    items = [tokens(i) for i in split_items(m.group("items")) if tokens(i)]
    said = set(tokens(text))
    return len(items) >= 2 and all(item[0] in said and item[-1] in said for item in items)


_FAMILY = re.compile(r"^(?:the\s+)?(?P<name>[\w'-]+)\s+family$", re.IGNORECASE)


def _names_the_family(text: str, gold: str) -> bool:
    """True when a gold that is a family ("the york family") is answered by its members
    ("Denise DeBartolo York and her husband John York")."""
    m = _FAMILY.match(gold.strip())
    return m is not None and m.group("name").lower() in tokens(text)


def _restated_wrongly(
    gold: str, wrong: Sequence[Value], step: Literal["verdict", "key_answer"]
) -> GoldCheck:
    """The incorrect check of a prediction that restates the gold's figures wrongly."""
    shown = ", ".join(v.text for v in wrong)
    return GoldCheck(
        gold=gold,
        verdict="incorrect",
        rationale=f"restates the true answer's figures wrongly: {shown}",
        step=step,
        calls=0,
    )


def _counted_alike(gold: str, prediction: str, figures: Sequence[Value]) -> list[Value]:
    """Of a prediction's figures, those that count the same thing as one of the gold's,
    by the word after them ("nominated three times" against "nominated four times"; "won
    14 Grammys" counts something else)."""
    counted = {_word_after(gold, g) for g in find_values(gold)} - {""}
    return [v for v in figures if _word_after(prediction, v) in counted]


def _word_after(text: str, value: Value) -> str:
    following = tokens(text[value.end :])
    return following[0] if following else ""


_NONE_GOLDS = frozenset(["none", "no one", "nobody"])
"""Golds that say the thing asked for does not exist."""

_NUMBER_QUESTION = frozenset(
    ["how", "many", "much", "number", "count", "percentage", "percent", "ratio", "rate", "age"]
)


_SHORT_LIST_WORDS = 12
"""A two-item list is counted only in an answer this short: in prose ("the Humboldt is the
longest, and the Colorado the other") the list rule would count clauses as items."""


def _listed(short: str, question: str, gold: str, prediction: str) -> bool:
    """True when a short form is a list whose items the list rule can count: three items or
    more, or the two a sentence gold states against a short answer ("humboldt; colorado")."""
    if long_list(short):
        return True
    return len(tokens(prediction)) <= _SHORT_LIST_WORDS and short == stated_list(gold, question)


def gold_span(key_words: list[str], gold_words: list[str]) -> list[str] | None:
    """The gold's own words at one end of a key the model put in its own words ("Fast and
    Furious 7" from "furious 7 marked the final film ..."): the longest run that opens or
    closes the key and stands in the gold as it is, when it holds at least half the key's
    words (None otherwise). A run from the middle of the key could be any words."""
    n = len(key_words)
    for size in range(n - 1, 0, -1):
        if 2 * size < n:
            break
        for run in (key_words[:size], key_words[n - size :]):
            if any(gold_words[i : i + size] == run for i in range(len(gold_words) - size + 1)):
                return run
    return None


def _stated_key(question: str, gold: str) -> str | None:
    """The short form a sentence gold states outright: the value after its verb, the only
    figure of a gold to a "how many" question, or (to a question not after a number) the
    list after its verb, the name before its figure or its country, the partner of the one
    asked about or the kind of thing a definition says its term is; None when it states
    none."""
    stated = stated_value(gold)
    counts = bool(_NUMBER_QUESTION & set(tokens(question)))
    if stated is None and counts:
        stated = only_figure(gold, question)
    if stated is None and not counts:
        # A figure in the question ("in all four categories") does not make it ask for one.
        stated = (
            stated_list(gold, question)
            or named_before_figure(gold)
            or place_before_country(gold)
            or partner_named(gold, question)
            or defined_genus(gold, question)
        )
    return stated


def _bare_count(key: str) -> bool:
    """True for a key that is only a plain number: no unit, currency, percent or date."""
    values = find_values(key)
    return (
        len(tokens(key)) == 1
        and len(values) == 1
        and values[0].kind == "number"
        and values[0].unit is None
        and not values[0].is_year_like
    )


_TIME_QUESTION = frozenset(
    ["when", "date", "year", "years", "day", "days", "month", "time", "decade", "century"]
)


def _bare_date(key: str) -> bool:
    """True for a key that is only a date or a year ("February 16, 1815", "1999")."""
    values = find_values(key)
    return (
        len(values) == 1
        and (values[0].kind == "date" or values[0].is_year_like)
        and len(tokens(key)) == len(tokens(values[0].text))
    )


def _asks_for_number(question: str) -> bool:
    """True when the question may be answered by a bare number ("how many ...")."""
    return bool(_NUMBER_QUESTION & set(tokens(question))) or bool(find_values(question))


_LEAD_END = re.compile(r"(?<=[\w)\"'\u201d])[.;!?](?:\s+|$)")


def lead_sentence(prediction: str) -> str | None:
    """The sentence (or clause before a semicolon) a prediction opens with, when more follows."""
    for m in _LEAD_END.finditer(prediction):
        lead = prediction[: m.start() + 1].strip()
        if len(tokens(lead)) < 4:
            continue  # "Dr." or "No. 1" ends no sentence
        return lead if prediction[m.end() :].strip() else None
    return None


def is_long_prediction(prediction: str) -> bool:
    """True for a prediction long enough that its answer may be lost among details."""
    return len(tokens(prediction)) >= LONG_PREDICTION_MIN_WORDS


def own_answer(reply: str, prediction: str) -> str | None:
    """The extracted short answer ``reply``, when it is one the prediction itself gives.

    None for "no answer", an empty reply, one with a word the prediction does not have
    (a model that answers from its own knowledge must not put words in its mouth), or
    one of more than half the prediction's words (a sentence copied out is no short
    answer).
    """
    lines = reply.strip().splitlines()
    text = lines[0].strip() if lines else ""
    if text.lower().startswith("answer:"):
        text = text[len("answer:") :].strip()
    text = text.strip("\"'`*").strip().rstrip(".").strip()
    words = tokens(text)
    if not words or " ".join(words) == _NO_ANSWER:
        return None
    own = tokens(prediction)
    if any(w not in own for w in words) or 2 * len(words) > len(own):
        return None
    if _offered_as_example(words, own):
        return None
    return text


# Words that introduce one example among several ("songs like X, Y and Z were near the
# top"): an answer picked out of such a list is a candidate, not the answer given.
_EXAMPLE_WORDS = frozenset(["like", "such", "including", "among", "eg", "example"])


def _offered_as_example(words: list[str], own: list[str]) -> bool:
    n = len(words)
    for i in range(len(own) - n + 1):
        if own[i : i + n] == words:
            return any(w in _EXAMPLE_WORDS for w in own[max(0, i - 3) : i])
    return False


async def judge_against_golds(
    judge: Judge,
    question: str,
    answers: Sequence[str],
    prediction: str,
    *,
    read_declines: bool = True,
) -> JudgeVote:
    """One judge's vote: each gold answer in turn, stopping at the first correct.

    The vote is correct if any gold is; unscored (None) if none is and a check
    failed; otherwise missing when the judge finds the prediction gives no answer at all
    (only asked when no check proved a wrong answer mechanically, and not with
    ``read_declines=False``), and incorrect.
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
    bar = no_answer_bar(prediction)
    if (
        read_declines
        and bar is not None
        and isinstance(judge, AnswerReader)
        and not any(_proves_an_answer(c) for c in checks)
    ):
        answered = await judge.answer_check(question, prediction, threshold=bar)
        checks.append(answered)
        if answered.gives_answer is False:
            return JudgeVote(
                judge=judge.spec, model=judge.identity, verdict="missing", checks=checks
            )
    return JudgeVote(judge=judge.spec, model=judge.identity, verdict="incorrect", checks=checks)


def no_answer_bar(prediction: str) -> float | None:
    """The P(gives no answer) above which ``prediction`` is missing; None when it is not to
    be asked (too short, or it says nowhere that something is missing)."""
    if len(prediction.split()) < ANSWERED_MIN_WORDS:
        return None
    if opens_with_absence(prediction):
        return NO_ANSWER_THRESHOLD
    return NO_ANSWER_THRESHOLD_LATER if states_absence(prediction) else None


def _proves_an_answer(check: GoldCheck) -> bool:
    """A check that found a wrong answer by mechanics: another option chosen, a value or list
    that differs from the gold's short form, the gold's figures restated wrongly."""
    if check.step in ("option", "key_answer"):
        return True
    return check.step == "verdict" and check.p_correct is None


@dataclass(frozen=True)
class PanelDecision:
    """The majority of a panel of judges."""

    verdict: VoteVerdict | None
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
