"""The CRAG rules that settle a prediction without an LLM.

Applied in order to the truncated prediction:

1. empty (or white space, or ``nan``: an empty reply after a table's round trip) → missing;
2. a refusal ("I don't know" and its phrasings) → missing, unless the gold is "invalid
   question" and the reply says the premise is false (it may add "I'm not aware of ...");
3. equal to the gold answer or an alternative answer after normalisation → correct, and so
   is the same name spelt another way (`ragmeter.scoring.crag.names`);
4. the false-premise rule: a prediction saying the question is invalid is
   correct when the gold is "invalid question" and incorrect otherwise; an
   ordinary answer to an invalid question is incorrect;
5. otherwise undecided: a judge decides (or, rules only, incorrect as an approximation).

A reasoning that ends "Answer: X" is read by the rules as X (`final_answer`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ragmeter.scoring.crag.names import same_name
from ragmeter.scoring.crag.records import RuleName
from ragmeter.scoring.normalize import normalize_answer, normalize_text
from ragmeter.scoring.phrases import PhraseSet, builtin_phrase_file
from ragmeter.scoring.refusal import RefusalDetector, default_detector
from ragmeter.types import Label

__all__ = [
    "INVALID_QUESTION",
    "RuleOutcome",
    "Rules",
    "correction_named",
    "default_invalid_phrases",
    "final_answer",
    "is_invalid_gold",
]

# pandas writes an empty reply to CSV as nothing and reads it back as NaN: a reply that is
# just "nan" is a lost value, never an answer. A reply that is just "None", as Python prints
# a reply it never got (an SDK's response.text when the output cap ran out while the model
# thought), is one too, unless the gold itself says there is none: then it may be the word.
_LOST_VALUE = "nan"
_PYTHON_NONE = "None"
_NONE_GOLD = re.compile(r"^(?:none|no one|nobody|nothing|zero|0|never|neither|no)\b")
_NEITHER = re.compile(r"^\W*neither\b", re.IGNORECASE)
# A reply that is one function word ("To", from a spell-corrector that turned "No" into it)
# states nothing: graders read it as garbled, no answer. ("A" may be a grade and "IN" a
# state, and "The" is where a reply cut after "Answer:" begins, so none of them counts.)
_FUNCTION_WORDS = frozenset(["to", "of", "and", "or", "but", "with", "by", "from"])

INVALID_QUESTION = "invalid question"

# "It is Texas Rangers." is the gold with a few words before it.
_LEAD_IN = re.compile(
    r"^\s*(?:it\s+is|it's|it\s+was|the\s+answer\s+is|answer\s*:|short\s+answer\s*:|that\s+would\s+be"
    r"|that's|that\s+is|this\s+is|they\s+are|he\s+is|she\s+is|it\s+would\s+be)\s+",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RuleOutcome:
    """A label settled by a rule, with the rule's name and what it matched."""

    label: Label
    rule: RuleName
    detail: str | None = None


@lru_cache(maxsize=1)
def default_invalid_phrases() -> PhraseSet:
    """The built-in phrases by which a prediction says the question is invalid."""
    return PhraseSet.from_file(builtin_phrase_file("invalid_phrases.txt", "ragmeter.scoring.crag"))


def is_invalid_gold(answers: Sequence[str]) -> bool:
    """True when the gold answer is CRAG's "invalid question" (a false-premise question)."""
    return bool(answers) and normalize_answer(answers[0]) == INVALID_QUESTION


# "actually, walmart has the highest revenue ...": a gold that corrects the question's
# premise, naming what is so.
# "no, robert downey jr's iron man and chris evans' captain america": a gold that answers
# a yes/no question no and says what is so instead, correcting the premise it rests on.
# (A bare "no" answers a valid question; "No Country for Old Men" is a title.)
_CORRECTING_NO = re.compile(r"\s*no\s*[,;:\u2014-]\s*\w", re.IGNORECASE)
_CORRECTING_GOLD = re.compile(
    r"^\s*(?:actually|in fact),?\s+(?P<named>[^,;]+?)\s+(?:has|have|is|are|was|were|holds)\b",
    re.IGNORECASE,
)


def correction_named(gold: str) -> str | None:
    """What a gold that corrects the question's premise names instead ("actually, walmart has
    the highest revenue ..." -> "walmart"), else None."""
    m = _CORRECTING_GOLD.match(gold)
    return m.group("named").strip() if m else None


class Rules:
    """The rule path, with replaceable refusal and false-premise phrase sets."""

    def __init__(
        self,
        refusal: RefusalDetector | None = None,
        invalid_phrases: PhraseSet | None = None,
    ):
        self.refusal = refusal or default_detector()
        self.invalid_phrases = invalid_phrases or default_invalid_phrases()

    def apply(
        self, prediction: str, answers: Sequence[str], *, check_refusal: bool = True
    ) -> RuleOutcome | None:
        """The rule outcome for a (truncated) prediction, or None when a judge must decide.

        ``answers`` is the gold answer followed by its alternative answers; it
        must not be empty (a question without answers cannot be scored).
        ``check_refusal=False`` skips the refusal rule (used when an LLM has
        overruled a phrase match).
        """
        if not answers:
            raise ValueError("a question without gold answers cannot be scored")
        if (
            not normalize_text(prediction)
            or prediction.strip().lower() == _LOST_VALUE
            or (
                prediction.strip() == _PYTHON_NONE
                and not any(_NONE_GOLD.match(a.strip().lower()) for a in answers)
            )
            or _only_function_word(prediction, answers)
        ):
            # "", "-", "?", "🤷": not a word or a figure in it.
            return RuleOutcome("missing", "empty_prediction")
        invalid_gold = is_invalid_gold(answers)
        claim = self.invalid_phrases.search(prediction)
        refusal = self.refusal.match(prediction) if check_refusal else None
        if refusal is not None and invalid_gold and claim is not None:
            # "That premise is false: he never wrote a novel, and I'm not aware of one."
            return RuleOutcome("correct", "false_premise_detected", claim.phrase)
        if refusal is not None:
            return RuleOutcome("missing", "refusal", refusal.phrase)
        forms = {
            normalize_answer(prediction),
            normalize_answer(_LEAD_IN.sub("", prediction)),
            # "Alexander Albon (Red Bull Racing)": a closing aside is detail, not the name.
            normalize_answer(_CLOSING_ASIDE.sub("", prediction)),
        }
        forms.discard("")
        for i, gold in enumerate(answers):
            if normalize_answer(gold) in forms:
                return RuleOutcome("correct", "exact_match" if i == 0 else "alias_match", gold)
        for gold in answers:
            if any(same_name(form, gold) for form in forms):
                return RuleOutcome("correct", "name_match", gold)
        if claim is not None:
            # "none of the days", or "invalid question": a gold that accepts either accepts
            # a premise pointed out.
            # So does a gold that corrects the premise ("actually, walmart has the highest
            # revenue"): the question was not valid as asked.
            if any(is_invalid_gold([a]) or correction_named(a) for a in answers):
                return RuleOutcome("correct", "false_premise_detected", claim.phrase)
            if claim.whole or not any(_CORRECTING_NO.match(a) for a in answers):
                return RuleOutcome(
                    "incorrect", "false_premise_claim_on_valid_question", claim.phrase
                )
            # "Is Chris Evans most famous for Iron Man?" (gold "no, robert downey jr's iron
            # man ..."): a premise flag beside what is so instead is the gold's own
            # correction; whether it says the right thing is the judges' to weigh.
            return None
        if invalid_gold and forms & {"yes", "no"}:
            # A bare "yes" or "no" takes the question as asked: it points nothing out.
            return RuleOutcome("incorrect", "yes_no", "a bare yes or no to a false premise")
        if invalid_gold and _NEITHER.match(prediction):
            # "Neither: she won it at 20" to "did she win at 18 or 25?" denies what the
            # question takes for granted.
            return RuleOutcome("correct", "false_premise_detected", "neither")
        if invalid_gold:
            return RuleOutcome("incorrect", "answer_to_false_premise")
        return None


_CLOSING_ASIDE = re.compile(r"\s*\([^()]*\)\W*$")

# "... So the answer is X." / "Answer: X" / "Final answer: X" / "... Therefore, X.": how a
# reasoning ends.
# "Hop A → hop B ⇒ X": a chain of sub-answers ends with its answer after the double arrow.
_FINAL_ANSWER = re.compile(
    r"\b(?:final\s+)?answer\s*:\s*|\bso\s+the\s+(?:final\s+)?answer\s+is\s*:?\s*"
    # RAFT's answer line after its chain of thought: "<ANSWER>: June 4, 2019".
    r"|<answer>\s*:\s*"
    # "Draft: X / Check: ... / Final: Y", "Given: ... / Find: ... / Result: Y", "Expert 1: ...
    # / Consensus: Y" (a panel of personas that settles on Y): a pipeline's
    # line of its final answer (only this alternative reads line starts; "therefore," still
    # opens the text or follows a stop).
    r"|(?m:^(?:final|result|so|consensus)\s*:\s*)"
    # "..., a combined 10, which puts him at 5.": a closing clause that states the result.
    r"|,\s+which\s+(?:makes\s+it|puts\s+(?:it|him|her|them)\s+at)\s+"
    r"|(?:(?<=[.!?])\s+|^)therefore,\s*|\s*(?:\u21d2|=>|\u27f9)\s*",
    re.IGNORECASE,
)
# "Short answer: X. Longer answer: ...": a headline answer, then its context.
# (The label may already be read away as a lead-in; "Longer answer:" still marks the end.)
_SHORT_ANSWER = re.compile(
    r"^\W*(?:short\s+answer\s*:\s*)?(?P<answer>.+?[.!?])\s+(?:longer|long|full|detailed)"
    r"\s+answer\s*:"
    r"|^\W*short\s+answer\s*:\s*(?P<alone>.+)",
    re.IGNORECASE | re.DOTALL,
)
# A few-shot template's leak: "Q: <the question restated>" on a line, then "A: <answer>".
_QA_TEMPLATE = re.compile(r"^\s*Q\s*:[^\n]*\n\s*A\s*:\s*", re.IGNORECASE)
# "X → directed by Y → ? (birth year not found)": the hop left open is the chain's answer,
# none; what follows in brackets is why.
_OPEN_HOP = re.compile(r"(?:\u2192|->)\s*(\?)\s*(?:\([^()]*\))?\W*$")
_FINAL_ANSWER_WORDS = 30


def final_answer(text: str) -> str | None:
    """The answer a reasoning ends with ("Step 1: ... Answer: 42" -> "42"), or None when
    the text gives none (or what follows the last marker is more than a short answer)."""
    short = _SHORT_ANSWER.match(text)
    if short is not None:
        return (short.group("answer") or short.group("alone")).strip() or None
    template = _QA_TEMPLATE.match(text)
    if template is not None:
        return text[template.end() :].strip() or None
    found = list(_FINAL_ANSWER.finditer(text))
    if not found:
        open_hop = _OPEN_HOP.search(text.strip())
        return open_hop.group(1).strip() if open_hop else None
    tail = _MARKUP_AROUND.sub("", text[found[-1].end() :]).strip()
    first, _, rest = tail.partition("\n")
    heads = first.strip() and not _BULLET.match(first) and not first.rstrip().endswith(":")
    if heads and _DETAIL_LINES.match(rest):
        # "**Answer:** Eminem" over bullets of detail: the line is the answer, the bullets
        # back it up (a list the answer introduces ends its line with a colon).
        tail = first.strip()
    if not tail or len(tail.split()) > _FINAL_ANSWER_WORDS or _POINTS_BACK.match(tail):
        return None
    return tail


# "Draft: about 12,000 / Check: not supported / Final: cannot verify": a verifier's draft is a
# step its check tests, not an answer it offers beside its final one.
_DRAFT_LINE = re.compile(
    r"^[ \t]*(?:draft|(?:initial|preliminary|candidate)\s+answer)\s*:[^\n]*$",
    re.IGNORECASE | re.MULTILINE,
)


def without_drafts(text: str) -> str:
    """``text`` without the lines that label a draft answer ("Draft: ...")."""
    return _DRAFT_LINE.sub("", text)


# The emphasis closing a "**Answer:**" label, or opening its answer.
_MARKUP_AROUND = re.compile(r"^[*_`\s]+")
_BULLET_MARK = r"\s*(?:[-*\u2022]|\d+[.)])\s"
_BULLET = re.compile(_BULLET_MARK)
# Lines below an answer that only back it up: bullets, or nothing at all.
_DETAIL_LINES = re.compile(rf"^(?:{_BULLET_MARK}\s*[^\n]*(?:\n|$)|\s*\n)*\s*$")


# "... Jeff Mangum, Julian Koster and Scott Spillane. Answer: those four.": an answer that
# points back at the reasoning is the reasoning's.
_POINTS_BACK = re.compile(
    r"^(?:(?:those|these)(?:\s+\w+)?|them|all\s+(?:of\s+them|\w+)|both\s+of\s+them"
    r"|the\s+above|as\s+above|see\s+above)\W*$",
    re.IGNORECASE,
)


def _only_function_word(prediction: str, answers: Sequence[str]) -> bool:
    """True when the reply is one function word alone ("To."), as no gold is."""
    word = prediction.strip().rstrip(".!?")
    return (
        not word.isupper()
        and word.lower() in _FUNCTION_WORDS
        and all(normalize_text(a) != word.lower() for a in answers)
    )
