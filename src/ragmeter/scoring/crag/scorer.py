"""The CRAG scorer: one `ScoredSample` per question, decided in a fixed order.

1. no prediction → missing; a gold that is empty or ``nan`` → unscored (never scored);
2. the prediction is cut to its first 75 tokens (what CRAG scores);
3. the manipulation screen: grader-directed text, forged verdicts, role tags,
   delimiter look-alikes → incorrect (rule ``manipulation``, span recorded); the tags of a
   well-formed tagged output are its format, not a boundary;
4. the rules, on the prediction read plainly (a structured output, JSON text, CSV, XML or
   tagged, as the reply it amounts to, whose figures beside the answer must not contradict
   the gold's; `read_plainly`: no source markers, Markdown or HTML tags, a LaTeX box as the
   final answer, spoken figures in digits, European figures as US ones, inline arithmetic as
   its result, the gold company's ticker as its name, without a confidence stated beside
   the answer) and, for a reasoning that ends "Answer: X" (or a "Final:", "Result:" or "So:"
   line, a closing "which makes it X", or a box), on X: empty, refusal (unless the reply
   still guesses a figure of the gold's kind: the guess is then judged, as CRAG's rubric
   asks, and a rough one is a hedge; only the year of a date asked is no answer), exact or
   alias match, false premise;
5. hedges and retractions → incorrect, also over a rule's "correct" ("Yes, I believe so"),
   and so is a stated confidence below 0.8, an answer given with runner-ups, or candidates
   a reply opens with before it declines ("Paris or Lyon; I am not sure.");
6. mechanical equivalence: values (dates, amounts, numbers), yes/no, a comparison pick,
   a schedule for a count per year, a count of none, one side of a score, a list's items;
7. the judges (majority vote; of a structured output they read the answer field; a
   prediction they find gives no answer at all is missing); with no judge, incorrect
   flagged ``approximate``.

Usable on its own from Python::

    scorer = CragScorer(judges=[LLMJudge(llm, "local")], truncator=load_truncator())
    sample = await scorer.score(question, "Paris")
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, get_args

from ragmeter.scoring.crag.arithmetic import arithmetic_as_result
from ragmeter.scoring.crag.bilingual import without_translation
from ragmeter.scoring.crag.chinese import chinese_as_english
from ragmeter.scoring.crag.confidence import ConfidenceReading, read_confidence
from ragmeter.scoring.crag.console import without_console_noise
from ragmeter.scoring.crag.declines import (
    ASKS_BACK,
    answered_from_memory,
    bare_decline,
    only_declines,
)
from ragmeter.scoring.crag.equivalence import (
    affirmation_outcome,
    answered_figures,
    asks_for_score,
    clipped_gold_outcome,
    contradicted_values,
    gold_values,
    guessed_values,
    only_figure,
    only_part_of_the_date,
    opening_outcome,
    plain_list,
    restated_with_gold,
    restates_question,
    settle,
    unknown_outcome,
    yes_no_gold,
)
from ragmeter.scoring.crag.graph_trace import without_graph_trace
from ragmeter.scoring.crag.hypothetical import read_hypothetical
from ragmeter.scoring.crag.judge import Judge, decide, judge_against_golds
from ragmeter.scoring.crag.locale_formats import locale_figures_as_us
from ragmeter.scoring.crag.parser_errors import without_parser_frame
from ragmeter.scoring.crag.program import read_program, read_sql_chain
from ragmeter.scoring.crag.records import ScoredSample
from ragmeter.scoring.crag.reflexion import read_reflexion
from ragmeter.scoring.crag.rendered import as_rendered
from ragmeter.scoring.crag.rules import (
    RuleOutcome,
    Rules,
    final_answer,
    is_invalid_gold,
    without_drafts,
)
from ragmeter.scoring.crag.screen import (
    ScreenKind,
    ScreenMatch,
    alternatives_beside_decline,
    screen_hedge,
    screen_manipulation,
)
from ragmeter.scoring.crag.spanish import spanish_as_english
from ragmeter.scoring.crag.spoken import spoken_numbers_as_digits
from ragmeter.scoring.crag.stemmed import stems_as_gold_words
from ragmeter.scoring.crag.structured import (
    StructuredReading,
    read_structured,
)
from ragmeter.scoring.crag.tagged import (
    without_run_on_turn,
    without_stop_token,
)
from ragmeter.scoring.crag.tickers import spell_out_tickers, tickers_beside_names
from ragmeter.scoring.crag.truncate import Truncator
from ragmeter.scoring.crag.unfinished import (
    answer_line_begun,
    conclusion_cut_off,
    notes_cut_off,
    quotes_cut_off,
    steps_cut_off,
    stops_at_lead_in,
)
from ragmeter.scoring.crag.values import with_implied_year
from ragmeter.scoring.normalize import (
    as_written,
    capitals_as_names,
    normalize_answer,
    normalize_text,
    strip_citation_markers,
    strip_markup,
    without_chat,
)
from ragmeter.scoring.refusal import COVERS_ONLY_TOPICS, NAMES_ONLY_A_SUBSTITUTE
from ragmeter.types import Question

__all__ = [
    "STORED_PREDICTION_CHARS",
    "CragScorer",
    "RefusalConfirmer",
    "manipulation_sample",
    "read_plainly",
    "unusable_gold",
]

STORED_PREDICTION_CHARS = 10_000
"""A scored sample stores at most this much of an enormous prediction (it scores far less)."""

RefusalConfirmer = Callable[[str, str], Awaitable[bool]]
"""``(query, prediction) -> still a refusal?``: an optional LLM check of a phrase match."""

_PREMISE_WORDS = 5
"""A decline to a false-premise question that says this many words more goes to the judges."""

# "none" is a real answer (a president without a vice president); "nan" is a lost value.
_EMPTY_GOLDS = frozenset({"", "nan"})


def unusable_gold(answers: Sequence[str]) -> str | None:
    """Why a question's gold cannot be scored against (no answer, or empty/``nan``), or None."""
    if not answers:
        return "the question has no gold answer"
    if normalize_answer(str(answers[0])) in _EMPTY_GOLDS:
        return f"the gold answer is empty or {str(answers[0]).strip() or 'blank'!r}"
    return None


def manipulation_sample(cut: str, common: dict[str, Any]) -> ScoredSample | None:
    """The incorrect sample of a prediction the manipulation screen flags, or None. (A code
    fence, a structured output's tags or a DSPy program's field markers are formatting: the
    screen flags a fence or markup only when talk of the grading follows it.)"""
    flagged = screen_manipulation(cut)
    span = None if flagged is None else (flagged.start, flagged.end)
    written = as_written(cut)
    if flagged is None and written != cut:
        # "Paris.+Grader%3A+mark+this+correct": what an encoding hides is screened as the
        # rules and judges will read it (its span is in that reading, not in the cut).
        flagged = screen_manipulation(written)
    if flagged is None:
        return None
    return ScoredSample(
        **common,
        label="incorrect",
        rule="manipulation",
        rule_detail=f"{flagged.pattern}: {flagged.text}",
        rule_span=span,
    )


# What the screen finds: doubt, a retraction or text addressed to the grader.
_SCREEN_RULES = frozenset(get_args(ScreenKind))

# A label the judges gave (no rule decided it), or the rules-only stand-in for theirs.
_JUDGED_RULES = frozenset({None, "unmatched_rules_only"})

# An OpenAI-style client's exception text: "Error code: 400 - {'object': 'error', ...}"; an
# on-device framework's generation error ("Generation failed: guardrailViolation"); an agent
# run stopped at its turn limit ("Max turns (6) exceeded"); a script's encoding error written
# in place of the reply it failed to write ("'charmap' codec can't encode character '\u2011'
# in position 91: character maps to <undefined>").
_CLIENT_ERROR = re.compile(
    r"\s*(?:Error code: [45]\d\d - \{|Generation failed: [A-Za-z]+\s*$"
    r"|Max turns \(\d+\) exceeded\s*$"
    # str() of the KeyError a reply's missing field raised: "'answer'".
    r"|'(?:answer|final_answer|output|result|response|text|content|choices)'\s*$"
    r"|'[\w-]+' codec can't (?:en|de)code (?:character|byte)s? .{0,80}?in position \d+)"
)

# Llama 3.1's built-in tool call as the whole reply: its token, then one call with a query.
_TOOL_CALL_ONLY = re.compile(
    r"\s*<\|python_tag\|>\s*[A-Za-z_][\w.]*\(\s*(?:[A-Za-z_]\w*\s*=\s*)?(?:\"[^\"\n]*\"|'[^'\n]*')"
    r"\s*\)?\s*"
)


def read_plainly(prediction: str, answers: Sequence[str]) -> str:
    """The prediction as the rules and judges read it: without a chat reply's pleasantries ("Great
    question!", "Let me know if you'd like more!"), without source markers, whose digits are no
    figure of the answer ("16 [1]" is 16), without Markdown ("**Paris**", "1. Paris", a closing
    "Sources:" line), HTML tags or LaTeX (a box read as the final answer), with figures said as
    words in digits ("nineteen ninety-five" is 1995), European figures and dates as US ones
    ("5,33" is 5.33, "10/03/2024" is 10 March when the gold says so) and a ticker of the company
    the gold names as its name ("BA" is Boeing), an answer from memory without the decline
    before it ("The context does not say; based on general knowledge, X" is X), a French
    translation beside the English (`bilingual.without_translation`), a stemmed span in the
    gold's words ("treati of ghent" is "treaty of ghent"), Chinese or Spanish
    figures, dates, declines and denials in English ("约2.3亿美元" is about $230 million, "28 de
    junio de 1926" is June 28, 1926) and inline arithmetic read as its result ("2024 - 1987 = 37
    years" is 37 years), and names written in capitals as names ("JEFF MANGUM" is Jeff Mangum),
    all after the text is read as written (`normalize.as_written`: "JuneĠ4", "hadnâ€™t", "I do
    n't know" ...)."""
    text = strip_markup(as_rendered(without_translation(as_written(prediction))))
    text = stems_as_gold_words(text, answers)
    text = chinese_as_english(strip_citation_markers(without_chat(answered_from_memory(text))))
    text = spanish_as_english(text, answers)
    text = arithmetic_as_result(locale_figures_as_us(spoken_numbers_as_digits(text), answers))
    return capitals_as_names(spell_out_tickers(_ampersands_as_and(text, answers), answers))


# "Cooper, Helms & Galifianakis": an ampersand after a comma, with no other joiner after it
# in the sentence, joins a list's last item. One inside a title stays ("Fast Five, Fast &
# Furious 6 and Furious 7"), as the list reader keeps it.
_LAST_AMPERSAND = re.compile(r"(,[^,&.;\n]*?\w)\s+&\s+(?=\w)(?![^.;\n]*(?:&|\band\b))")


def _ampersands_as_and(text: str, answers: Sequence[str]) -> str:
    """ "Cooper, Helms & Galifianakis" as "... and Galifianakis": a list's last item after
    an ampersand. Kept where a gold writes one, whose names hold it ("procter & gamble")."""
    if any("&" in a for a in answers):
        return text
    return _LAST_AMPERSAND.sub(r"\1 and ", text)


def stated_doubt(confidence: ConfidenceReading | None, prediction: str) -> ScreenMatch | None:
    """The system's own doubt, as a hedge: a stated confidence below the rubric's bar
    ("Ezna Sands (confidence 0.6)."), or runner-ups beside the answer."""
    if confidence is None or not confidence.unsure:
        return None
    words = confidence.runner_up or confidence.lowest
    start = max(prediction.find(words), 0)
    pattern = "alternatives" if confidence.runner_up else "unsure"
    return ScreenMatch("hedge", pattern, start, start + len(words), words)


def offered_candidates(structured: StructuredReading | None, prediction: str) -> ScreenMatch | None:
    """Candidates a structured output names beside its answer, as a hedge among alternatives
    (``{"answer": "X", "candidates": ["X", "Y"]}``)."""
    if structured is None or structured.candidates_key is None:
        return None
    key = structured.candidates_key
    start = max(prediction.find(key), 0)
    words = f"{key}: {', '.join(structured.alternatives)}"
    return ScreenMatch("hedge", "alternatives", start, start + len(key), words)


def contradicted_beside(
    structured: StructuredReading | None, answers: Sequence[str], query: str
) -> RuleOutcome | None:
    """Incorrect when what a structured output says beside its answer restates one of the
    gold's figures wrongly (the answer "Katy Perry" with "Ariana Grande has seven" against
    the gold's eight): detail that contradicts the gold, by the rubric."""
    if structured is None or not structured.answer or not structured.beside:
        return None
    # Read as the answer followed by its detail, so figures that add up to the answer ("163
    # floors above ground and 2 below" beside 165) are detail of an answer that states the
    # gold's figure first, as in a sentence.
    score = asks_for_score(query)
    said = read_plainly(f"{structured.answer}. {structured.beside}", answers)
    wrong = contradicted_values(answers[0], said, score=score, query=query)
    if wrong:
        # The answer's own figures are the answer's rules' to judge ("Knicks 106, Cavaliers
        # 95" holds the gold's 95 as one side of a score), not detail beside it.
        own = read_plainly(structured.answer, answers)
        answered = {v.text for v in contradicted_values(answers[0], own, score=score, query=query)}
        wrong = [v for v in wrong if v.text not in answered]
    if not wrong:
        return None
    shown = ", ".join(v.text for v in wrong)
    return RuleOutcome("incorrect", "different_value", f"beside the answer: {shown}")


def _ruled(common: dict[str, Any], outcome: RuleOutcome) -> ScoredSample:
    """The sample a rule's outcome decides."""
    return ScoredSample(
        **common, label=outcome.label, rule=outcome.rule, rule_detail=outcome.detail
    )


def _figure_gold(answers: Sequence[str], query: str) -> bool:
    """True when the gold is a figure, or a sentence around one figure."""
    return gold_values(answers[0]) is not None or only_figure(answers[0], query) is not None


class CragScorer:
    """Scores predictions against CRAG questions, in the order the issue fixes."""

    judges_read_declines = True
    """The judges may find that a prediction gives no answer at all (missing): declines come
    in more words than the refusal phrases hold."""

    def __init__(
        self,
        judges: Sequence[Judge] = (),
        *,
        truncator: Truncator,
        rules: Rules | None = None,
        confirm_refusal: RefusalConfirmer | None = None,
        concurrency: int = 4,
    ):
        self.judges = list(judges)
        self.truncator = truncator
        self.rules = rules or Rules()
        self.confirm_refusal = confirm_refusal
        self.concurrency = max(1, concurrency)

    @property
    def rules_only(self) -> bool:
        """True when no judge is configured (labels of unmatched predictions are approximate)."""
        return not self.judges

    async def score(self, question: Question, prediction: str | None) -> ScoredSample:
        """Label one prediction (None = the question got no prediction) with its explanation."""
        answers = [str(a) for group in question.answers[:1] for a in group]
        base = {
            "id": question.id,
            "query": question.query,
            "answers": answers,
            "labels": question.labels,
        }
        bad_gold = unusable_gold(answers)
        if bad_gold is not None:
            stored = None if prediction is None else prediction[:STORED_PREDICTION_CHARS]
            return ScoredSample(
                **base,
                prediction=stored,
                truncated_prediction=None,
                label="unscored",
                unscored_reason=bad_gold,
            )
        if prediction is None:
            return ScoredSample(
                **base,
                prediction=None,
                truncated_prediction=None,
                label="missing",
                rule="no_prediction",
            )
        cut, truncated = self.truncator.cut(prediction)
        common = {
            **base,
            "prediction": prediction[:STORED_PREDICTION_CHARS],
            "prediction_chars": len(prediction),
            "truncated_prediction": cut,
            "truncated": truncated,
        }
        cut = without_stop_token(cut)
        # "Trial 1: X\nEvaluator: PASS": a self-critique loop's log. Its evaluator is the
        # pipeline's own, and its verdict is no word to the grader: the screen reads the log
        # without that label, the rules and judges the answer the log gives.
        log = read_reflexion(cut)
        if _CLIENT_ERROR.match(cut):
            # "Error code: 400 - {'object': 'error', 'message': "This model's maximum
            # context length is 8192 tokens. ..."}": a client's exception written in place
            # of the reply (or a framework's, an agent loop's); the system answered nothing.
            return ScoredSample(
                **common, label="missing", rule="refusal", rule_detail="an API error, no answer"
            )
        if _TOOL_CALL_ONLY.fullmatch(cut):
            # '<|python_tag|>brave_search.call(query="...")': a model's built-in tool call
            # submitted as its reply, its own special token first; it answers nothing.
            return ScoredSample(
                **common, label="missing", rule="refusal", rule_detail="a tool call, no answer"
            )
        flagged = manipulation_sample(cut if log is None else log.unlabelled, common)
        if flagged is not None:
            return flagged
        if log is not None:
            cut = log.answer
        cut = without_graph_trace(
            without_parser_frame(
                without_console_noise(without_stop_token(without_run_on_turn(cut)))
            )
        )
        if not cut:
            # "Loading checkpoint shards: 100%|██████████| 4/4 ...", "---RETRIEVE---": what
            # the libraries or the agent's graph printed before the reply filled the cut.
            return ScoredSample(
                **common,
                label="missing",
                rule="answer_past_cut",
                rule_detail="the cut holds only console output printed before the reply",
            )
        hypothetical = read_hypothetical(cut)
        if hypothetical is not None:
            cut = hypothetical.text
        # The screen reads the prediction as submitted; every later step reads it plain, and
        # a structured output ({"answer": null, "reason": ...}) as the reply it amounts to.
        structured = (
            read_program(cut) or read_sql_chain(cut) or read_structured(cut, cut_off=truncated)
        )
        if structured is not None and structured.cut_before_answer:
            return ScoredSample(
                **common,
                label="missing",
                rule="answer_past_cut",
                rule_detail="the cut falls inside a structured output before its answer field",
            )
        sample = await self._scored_reply(
            question, answers, cut, structured, prediction, common, truncated=truncated
        )
        if hypothetical is not None and hypothetical.hypothetical and sample.label == "correct":
            # "Hypothetical passage: ... it stands 309.6 metres tall" and no answer line in the
            # cut: the passage offers the fact as what might be so, no answer it stands behind.
            return sample.model_copy(
                update={
                    "label": "incorrect",
                    "rule": "hedge",
                    "rule_detail": "stated only in a hypothetical passage written to search with",
                }
            )
        if (
            truncated
            and (notes_cut_off(cut) or quotes_cut_off(cut))
            and sample.rule not in _SCREEN_RULES
        ):
            # "Note 1: ... gave Best Visual Effects to Gladiator.\nNote 2: Not": the notes
            # report what each document says, and the reply answers on a line past the cut,
            # right or wrong as the notes may be (the graders' label on 35 of 44 such real
            # answers; the other nine, five of them split and adjudicated, took a wrong
            # figure in the notes as asserted). Doubt the screen finds still counts. So with
            # a RAFT reasoning cut among its quotes of the context, before "<ANSWER>:".
            return sample.model_copy(
                update={
                    "label": "missing",
                    "rule": "answer_past_cut",
                    "rule_detail": "the cut falls in the reading notes, before the answer line",
                }
            )
        lead_in = not truncated and stops_at_lead_in(cut)  # its own end, not the cut's
        working_only = (
            lead_in
            or (structured is not None and structured.working_only)
            or (truncated and answer_line_begun(cut))
        )
        # A lead-in names no list: the items the rules found missing were never begun.
        unsettled = _JUDGED_RULES | ({"list_items"} if lead_in else set())
        if working_only and sample.label == "incorrect" and sample.rule in unsettled:
            # "<search_quality_reflection>The price history for KVAC includes the session on
            # Friday, February 23, 2024.</search_quality_reflection> ... <result>Keen Visi": a
            # report of what the search found, cut before the result, gives no answer unless
            # the judges find a true one in it. A wrong figure, option or list the rules find
            # in it ("0.185 x 4 = 0.74") and doubt ("so it depends") stay incorrect. So
            # with a program cut before its output, a reply stopped at the colon of its
            # lead-in ("The founding members of Pale Antler were:"), and reading notes cut a
            # few words into their answer line ("Answer: Jurassic Park was directed").
            return sample.model_copy(
                update={
                    "label": "missing",
                    "rule": "answer_past_cut",
                    "rule_detail": "the text stops before its answer: working or a lead-in",
                }
            )
        if structured is not None and structured.doubt and sample.label == "correct":
            # "x-confidence: medium" over "x-note: film is set in World War II, not World
            # War I" and a body past the cut: the note answers, and the service says it is
            # not sure of it. A note that answers nothing ("single source") stays missing.
            return sample.model_copy(
                update={"label": "incorrect", "rule": "hedge", "rule_detail": structured.doubt}
            )
        return sample

    async def _scored_reply(
        self,
        question: Question,
        answers: list[str],
        cut: str,
        structured: StructuredReading | None,
        prediction: str,
        common: dict[str, Any],
        *,
        truncated: bool,
    ) -> ScoredSample:
        """The sample for a reply the screen passed, read plain by the rules and judges."""
        if structured is not None:
            cut = structured.text
        # "Sirius XM" against the gold "siri": a company named in words, read with its ticker.
        cut = tickers_beside_names(read_plainly(cut, answers), answers, question.query)
        beside = contradicted_beside(structured, answers, question.query)
        if beside is not None:
            return _ruled(common, beside)
        # "Selena Gomez - confidence 97%": the rules and judges read the answer without the
        # confidence a service states beside it; a low one is its own doubt (below).
        confidence = read_confidence(cut)
        if confidence is not None:
            cut = confidence.text
        # A reasoning that ends "Answer: X" is judged on X by the rules (the judges still
        # read it all, and a hedge anywhere in it still counts).
        final = final_answer(cut)
        # "... on Sunday, March 17." against "2024-03-17": the year is read as the gold's.
        said = with_implied_year(final or cut, cut, answers)
        outcome = self.rules.apply(said, answers)
        if (
            final is not None
            and outcome is not None
            and outcome.rule == "yes_no"
            and is_invalid_gold(answers)
        ):
            # "... so Till did not direct it. Answer: No.": a reasoning that ends in a bare
            # no may have pointed out the premise on its way; it is read whole.
            outcome = self.rules.apply(cut, answers)
        if outcome is None or outcome.rule == "answer_to_false_premise":
            # "The retrieved pages don't settle this, so I won't guess.", "Do you mean the
            # 2023 remake or the 1998 original?": no phrase of the list, but nothing in it
            # besides the question's words is about the world, or it asks before it answers.
            why = bare_decline(question.query, said, false_premise=is_invalid_gold(answers))
            if why is not None:
                outcome = RuleOutcome("missing", "refusal", why)
        if (
            truncated
            and conclusion_cut_off(cut)
            and (outcome is None or outcome.label == "incorrect")
            and _figure_gold(answers, question.query)
        ):
            # "... One Medical ~$3.9B. That makes an average of": the cut fell before the
            # figure it worked towards; the figures it gave are its working, not its answer.
            return ScoredSample(
                **common,
                label="missing",
                rule="answer_past_cut",
                rule_detail="the cut text ends before the conclusion it opens",
            )
        if (
            outcome is not None
            and outcome.rule == "refusal"
            and self.confirm_refusal is not None
            and not await self.confirm_refusal(question.query, cut)
        ):
            # The LLM says the phrase match is not a refusal: judge it as an answer.
            outcome = self.rules.apply(said, answers, check_refusal=False)
        guessed = (
            # A verifier's drafts are steps towards its final answer, not guesses beside it.
            guessed_values(
                answers, without_drafts(cut) if final is not None else cut, question.query
            )
            # The options of a question back ("the Remy Zero track or the BTS single?") are
            # no guesses, nor are the figures of what its sources cover ("The text covers
            # its revenue of $962 million").
            if outcome is not None
            and outcome.rule == "refusal"
            and outcome.detail not in (ASKS_BACK, COVERS_ONLY_TOPICS, NAMES_ONLY_A_SUBSTITUTE)
            # An output whose answer field is empty answers nothing: the figures of its
            # caveat ("based on daily closes from October 2") are no guess it offers.
            and not (structured is not None and not structured.answer)
            else []
        )
        if final is not None:
            # "... for 02/26-02/28, which I don't have. Answer: I don't know.": the exact
            # figures of a reasoning are its working; only a rough one is a guess.
            guessed = [v for v in guessed if v.qualified]
        approximate = next((v for v in guessed if v.qualified), None)
        if approximate is not None:
            # "I can't give yesterday's close; it traded around $10.5": a guess it declines
            # to stand behind, and only roughly: a hedged guess, incorrect by the rubric.
            return ScoredSample(
                **common,
                label="incorrect",
                rule="hedge",
                rule_detail=f"an approximate guess beside a decline: {approximate.text}",
            )
        if guessed:
            # "I don't have live data, but it closed at $140.12": the guess is judged.
            outcome = self.rules.apply(said, answers, check_refusal=False)
        if (
            outcome is None
            and only_part_of_the_date(answers, said)
            and (found := self.rules.refusal.phrases.search_normalized(normalize_text(said)))
        ):
            # The rubric: a reply that declines the date asked and gives only its year (or
            # month) gives no answer.
            return ScoredSample(**common, label="missing", rule="refusal", rule_detail=found.phrase)
        premise_for_judges = (
            outcome is not None and outcome.rule == "answer_to_false_premise" and self.judges
        ) or (
            outcome is not None
            and self._declines_a_premise(outcome.rule, answers, question.query, said)
            # "Confidence below threshold (0.19) - no answer returned." abstains; it points
            # out no premise.
            and not (confidence is not None and confidence.unsure)
        )
        list_gold = question.labels.question_type == "set" or plain_list(answers[0], question.query)
        hedge = (
            screen_hedge(cut, list_gold=list_gold)
            # "So: probably around 150": doubt in the final answer a reasoning ends with.
            or (screen_hedge(said, list_gold=list_gold) if final is not None else None)
            or stated_doubt(confidence, prediction)
            or offered_candidates(structured, prediction)
        )
        if (
            outcome is not None
            and outcome.rule == "refusal"
            and outcome.detail != ASKS_BACK
            and not premise_for_judges
        ):
            # "Paris or Lyon; I am not sure.": a decline that still offers candidates guesses
            # among them, a hedge by the rubric, not an abstention (the options of a question
            # back are no candidates).
            hedge = alternatives_beside_decline(
                cut, question.query, lambda clause: self.rules.refusal.match(clause) is not None
            )
            if hedge is not None:
                return ScoredSample(
                    **common,
                    label="incorrect",
                    rule=hedge.kind,
                    rule_detail=f"candidates beside a decline: {hedge.text}",
                    rule_span=(hedge.start, hedge.end),
                )
        if outcome is not None and outcome.label == "correct" and hedge is not None:
            # "Yes, I believe so": the rubric's explicit uncertainty outweighs a matching word.
            outcome = None
        if outcome is not None and not premise_for_judges:
            return _ruled(common, outcome)
        if premise_for_judges:
            # No phrase says "invalid question", but real answers debunk a premise in their
            # own words ("X never played for Y"): the judges are asked about the premise.
            judged = await self._judged(question, answers, cut, common)
            if (
                outcome is not None
                and outcome.rule == "refusal"
                and judged.label == "incorrect"
                and not answered_figures(said, question.query)
            ):
                # "I'm not familiar with that film; which one do you mean?" points out no
                # false premise, and declines: missing, as its phrase said.
                return judged.model_copy(
                    update={"label": "missing", "rule": "refusal", "rule_detail": outcome.detail}
                )
            if judged.label == "correct" and hedge is not None and hedge.pattern == "unsure":
                # "Hmm, I don't think that movie exists!": a premise pointed out as a belief
                # is not sure of it, as an answer would not be (alternatives here are more
                # often "did you mean A or B?" than a hedge).
                return judged.model_copy(
                    update={
                        "label": "incorrect",
                        "rule": hedge.kind,
                        "rule_detail": hedge.text,
                        "rule_span": (hedge.start, hedge.end),
                    }
                )
            return judged
        if hedge is not None and (unknown := unknown_outcome(answers, said)) is not None:
            # To a question nobody can answer, a reply with no figure gives no answer, however
            # unsure it is of why ("... no P/E ratio (confidence 0.55)").
            return _ruled(common, unknown)
        if hedge is not None:
            return ScoredSample(
                **common,
                label="incorrect",
                rule=hedge.kind,
                rule_detail=hedge.text,
                rule_span=(hedge.start, hedge.end),
            )
        settled = (
            settle(question.query, answers, said, list_gold=list_gold)
            or opening_outcome(question.query, answers, said)
            or affirmation_outcome(question.query, answers, said)
            or restated_with_gold(question.query, answers, said)
            or clipped_gold_outcome(answers, said)
        )
        if settled is not None:
            return _ruled(common, settled)
        # To "Is X the film's first title?", "The film was first titled X." says yes.
        if yes_no_gold(answers) is None and restates_question(question.query, cut):
            return ScoredSample(**common, label="missing", rule="restates_question")
        if self.rules_only:
            return ScoredSample(
                **common, label="incorrect", rule="unmatched_rules_only", approximate=True
            )
        # A structured output's answer field is its answer: the judges read that, not the
        # evidence beside it, whose other names they take for the answer ("Embiid won the
        # MVP ..." beside the answer "Nikola Jokic"); its figures were checked above.
        judged = await self._judged(
            question, answers, said if structured is not None else cut, common
        )
        if truncated and judged.label == "incorrect" and steps_cut_off(cut):
            # "Follow up: Who performed it?\nInter": the judges find no true answer in the
            # steps, and the chain answers on its final line, past the cut. A wrong figure in
            # the steps was caught by the rules above.
            return judged.model_copy(
                update={
                    "label": "missing",
                    "rule": "answer_past_cut",
                    "rule_detail": "the cut text ends before the chain's final answer",
                }
            )
        return judged

    def _declines_a_premise(self, rule: str, answers: list[str], query: str, cut: str) -> bool:
        """True for a reply to a false-premise question that says "I couldn't find ..." and
        goes on ("... a Rayo match today: the league is on its break"): whether it points out
        the premise is the judges' question, not a phrase's."""
        if rule != "refusal" or not self.judges or not is_invalid_gold(answers):
            return False
        found = self.rules.refusal.match(cut)
        # "I couldn't find that." declines and says nothing more; nor does "I could not find
        # any information about Brad Pitt having a hidden pet rabbit."
        said = len(normalize_text(cut).split()) - len(found.phrase.split()) if found else 0
        return (
            said >= _PREMISE_WORDS
            and not only_declines(cut)
            and bare_decline(query, cut, false_premise=True) is None
        )

    async def _judged(
        self, question: Question, answers: list[str], cut: str, common: dict[str, Any]
    ) -> ScoredSample:
        votes = [
            await judge_against_golds(
                judge, question.query, answers, cut, read_declines=self.judges_read_declines
            )
            for judge in self.judges
        ]
        decision = decide(votes)
        if decision.verdict is None:
            return ScoredSample(
                **common,
                label="unscored",
                votes=votes,
                agreement=decision.agreement,
                unscored_reason=decision.reason,
            )
        return ScoredSample(
            **common, label=decision.verdict, votes=votes, agreement=decision.agreement
        )

    async def score_all(
        self,
        items: Iterable[tuple[Question, str | None]],
        on_done: Callable[[ScoredSample], None] | None = None,
    ) -> list[ScoredSample]:
        """Score many predictions concurrently (bounded), keeping the input order."""
        sem = asyncio.Semaphore(self.concurrency)

        async def one(q: Question, p: str | None) -> ScoredSample:
            async with sem:
                s = await self.score(q, p)
            if on_done is not None:
                on_done(s)
            return s

        return list(await asyncio.gather(*(one(q, p) for q, p in items)))
