"""A system's raw structured output, read the way a person reading it would.

Pipelines run with structured output return a JSON object as text: ``{"answer": "Fordham
University", "evidence": "...", "sources": [2, 4]}``, ``{"answer": null, "reason": "..."}``,
``{"answer": "...", "flags": ["false_premise"]}``, sometimes in code fences, with a note after
it, keys in another casing, or cut off by CRAG's 75-token limit. The rubric reads the value
given as the answer as the answer and everything else the output states as said beside it: a
null, empty or "N/A" answer declines, a premise flag points the premise out, and candidates
beside the answer offer alternatives. `read_structured` writes the output as the plain reply
it amounts to, so the rules and judges read it as they read any other; the JSON itself never
reaches a judge. A YAML block that opens with ``answer:`` (``answer: null`` over ``reason:
...``, ``sources:`` over ``- item`` lines) is read as the same fields, and so is a protocol
buffer printed in text format (``items: "Ana Ruiz"`` once per item, ``status: NOT_FOUND``),
an R vector's printout (``[1] "Ana Ruiz" "Tom Hale"``, ``NULL``) and a Java record's
``toString()`` (``AnswerResult[answer=null, value=1.2E9, unit=USD, ..., found=true]``);
`ragmeter.scoring.crag.printouts` reads those printouts into their fields.
Tagged output (``<answer>5</answer><evidence>...</evidence>``, a reply after ``<think> ...
</think>``) is read the same way, its elements as the object's fields, and so is a
function-calling pipeline's final call printed as text
(``submit_answer(answer=None, found=False, reason=...)``), its keyword arguments as the
fields. So are a whole HTTP response (its body the answer, a service's ``x-`` headers the
fields beside it; `ragmeter.scoring.crag.http_response`), a Prolog toplevel transcript
(`ragmeter.scoring.crag.prolog_toplevel`) and an answer line per source probed ("Pages: X" /
"Memory: Y"; `ragmeter.scoring.crag.source_lines`).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ragmeter.scoring.crag.accumulated import accumulated_answers
from ragmeter.scoring.crag.checklist import read_checklist
from ragmeter.scoring.crag.confidence import read_confidence
from ragmeter.scoring.crag.http_response import HttpResponse, read_http_response
from ragmeter.scoring.crag.printouts import (
    ANSWER_KEYS,
    CANDIDATE_KEYS,
    EVIDENCE_KEYS,
    KNOWN_KEYS,
    NOTE_KEYS,
    PREMISE_KEYS,
    REASON_KEYS,
    SURE_KEYS,
    first_parse,
    printed_fields,
    value_text,
)
from ragmeter.scoring.crag.prolog_toplevel import toplevel_fields
from ragmeter.scoring.crag.source_lines import read_source_lines
from ragmeter.scoring.crag.tagged import parse_tagged
from ragmeter.scoring.crag.toulmin import read_toulmin
from ragmeter.scoring.crag.working import attended_reply, working_and_reply
from ragmeter.scoring.refusal import match_refusal

__all__ = ["StructuredReading", "read_structured"]

# Values a reader takes as "no answer here" (the rubric's null, empty or N/A). "none" is
# left an answer: a president with no vice president.
_NO_VALUE = frozenset(
    {"", "n/a", "na", "null", "unknown", "no answer", "no_answer", "not available", "not found"}
)
_NO_ANSWER_STATUS = re.compile(r"no.?answer|not.?found|abstain|insufficient|unanswerable", re.I)
_PREMISE_FLAG = re.compile(r"premise|invalid", re.I)
_FENCE_OPEN = re.compile(r"^\s*```[a-zA-Z]*\s*")
_FENCE_CLOSE = re.compile(r"\s*```")
_KEY = re.compile(r'"(?P<key>[A-Za-z_][\w ]*)"\s*:\s*')


@dataclass(frozen=True)
class StructuredReading:
    """What a structured output says, written out as a plain reply."""

    text: str
    """The plain reply it amounts to: "No answer. <reason>", "The premise is false. <...>",
    or "<evidence and notes> Answer: <answer>" (the rules read what follows "Answer:")."""
    answer: str
    """The value given as the answer, as a reader would say it ("" for a decline)."""
    beside: str
    """What it says beside the answer: evidence, reasons, notes ("" for none)."""
    alternatives: tuple[str, ...]
    """Candidates it names beside its answer that are not the answer."""
    candidates_key: str | None
    """The key under which it named them, as written, to point at in an explanation."""
    cut_before_answer: bool = False
    """A JSON object the 75-token cut stopped before it wrote any answer field: its working
    ("reasoning": ...) is all that is read, and it gives no answer."""
    working_only: bool = False
    """The cut stopped before the answer element after a tagged output's working was
    written in full: ``text`` is that working (and the answer's first words), which gives
    an answer only where it states one itself."""
    doubt: str = ""
    """A confidence below the rubric's bar stated apart from ``text`` (an HTTP response's
    ``x-confidence`` header over a body past the cut), as written: it hedges whatever answer
    ``text`` is found to give, and leaves a text that gives none as it is."""


_HEADLESS_OBJECT = re.compile(r'"[A-Za-z_][\w ]*"\s*:\s*(?:"|null\b|true\b|false\b|-?\d|\[|\{)')


def _decode(text: str) -> tuple[dict[str, Any], str, bool] | None:
    """The leading JSON object, what follows it, and whether it was cut off part-way (then
    only the fields whose values were written in full)."""
    body = _FENCE_OPEN.sub("", text, count=1) if text.lstrip().startswith("```") else text
    body = body.lstrip()
    if _HEADLESS_OBJECT.match(body):
        # '"answer": "X",\n  "doc": 2\n}': an object whose opening brace was the prompt's
        # prefill, which the saved reply does not hold.
        body = "{" + body
    if not body.startswith("{"):
        return None
    decoder = json.JSONDecoder()
    try:
        found, end = decoder.raw_decode(body)
    except json.JSONDecodeError:
        literal = _dict_literal(body)
        if literal is not None:
            return literal, "", False
        written = _fields_written(body, decoder)
        return written, "", bool(written)
    if not isinstance(found, dict):
        return None
    rest = body[end:]
    rest = _FENCE_CLOSE.sub("", rest, count=1)
    return found, rest.strip().strip("`").strip(), False


# What a Python dict cut off part-way lacks at its end, tried in turn.
_DICT_ENDINGS = ("", "'}", '"}', "}", "...'}", '..."}')
_DICT_CHARS = 4_000


def _dict_literal(body: str) -> dict[str, Any] | None:
    """A reply that is a Python dict's repr ("{'query': '...', 'result': '...'}", as a script
    that prints a chain's output submits it), with string keys; a dict the cut stopped in its
    last string keeps what it wrote. None for anything else."""
    if len(body) > _DICT_CHARS or not _SINGLE_QUOTED_KEY.match(body):
        return None  # a JSON object cut off part-way is read as one
    found = first_parse(body.rstrip(), _DICT_ENDINGS, ast.literal_eval)
    if not isinstance(found, dict) or not found or not all(isinstance(k, str) for k in found):
        return None
    # The question it echoes ("query") is no part of what it says.
    return {k: v for k, v in found.items() if k.lower() not in _ECHO_KEYS}


_ECHO_KEYS = frozenset({"query", "question", "input", "prompt"})
_SINGLE_QUOTED_KEY = re.compile(r"\{\s*'")


def _fields_written(body: str, decoder: json.JSONDecoder) -> dict[str, Any]:
    """The top-level fields of a cut-off object whose values are complete; a string cut
    part-way keeps what was written, marked cut ("…"), and the truncation rules decide what
    a half reply says."""
    fields: dict[str, Any] = {}
    for m in _KEY.finditer(body):
        key = m.group("key")
        if key in fields:
            continue
        try:
            fields[key] = decoder.raw_decode(body, m.end())[0]
        except json.JSONDecodeError:
            start = body[m.end() : m.end() + 1]
            if start == '"' and '"' not in body[m.end() + 1 :]:
                fields[key] = body[m.end() + 1 :].rstrip() + " …"
            elif start == "[":
                fields[key] = _items_written(body, m.end() + 1, decoder)
    return fields


def _items_written(body: str, at: int, decoder: json.JSONDecoder) -> list[Any]:
    """The items of a list cut off part-way that were written in full, then "…": a list cut
    short is missing its later items."""
    items: list[Any] = []
    while True:
        while at < len(body) and body[at] in " \t\r\n,":
            at += 1
        try:
            item, at = decoder.raw_decode(body, at)
        except json.JSONDecodeError:
            return [*items, "…"]
        items.append(item)


def _field(found: Mapping[str, Any], keys: tuple[str, ...]) -> tuple[str, Any] | None:
    lowered = {k.lower().strip(): (k, v) for k, v in found.items()}
    for key in keys:
        if key in lowered:
            return lowered[key]
    return None


def _is_no_value(value: Any) -> bool:
    if value is None or value == [] or value == {}:
        return True
    return isinstance(value, str) and value.strip().lower().rstrip(".") in _NO_VALUE


def _says_premise_false(found: Mapping[str, Any]) -> bool:
    flags = _field(found, ("flags", "flag"))
    if flags is not None:
        values = flags[1] if isinstance(flags[1], list) else [flags[1]]
        if any(isinstance(v, str) and _PREMISE_FLAG.search(v) for v in values):
            return True
    status = _field(found, ("status",))
    if status is not None and isinstance(status[1], str) and _PREMISE_FLAG.search(status[1]):
        return True  # "status": "false_premise"
    flag = _field(found, PREMISE_KEYS)
    return flag is not None and flag[1] is True


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?…" else text + "."


def read_structured(prediction: str, *, cut_off: bool = False) -> StructuredReading | None:
    """The plain reply a structured output amounts to, or None when ``prediction`` opens with
    neither a JSON object, a list literal, a YAML block, ``answer=`` fields, a CSV block with
    an ``answer`` column, one XML element with attributes, one function call with keyword
    arguments, knowledge-graph triples, an HTTP response, a Prolog transcript, answer lines
    per source nor a well-formed tagged output (`ragmeter.scoring.crag.tagged`).
    ``cut_off``: the prediction was cut by the 75-token limit, so a reply after the thinking
    may be cut short too."""
    response = read_http_response(prediction)
    if response is not None:
        return _read_http(response)
    toplevel = toplevel_fields(prediction, cut_off=cut_off)
    if toplevel is not None and "answer" not in toplevel and "found" not in toplevel:
        # "?- market_cap(nwgl, ...), (A > B -> X = nwgl ; X = mficl).\nA = 177430000,\nB
        # = 10800": the cut fell before the binding the query was written to find.
        return StructuredReading(
            text="", answer="", beside="", alternatives=(), candidates_key=None,
            cut_before_answer=True,
        )  # fmt: skip
    if toplevel is not None:
        return _reading(toplevel, "")
    per_source = read_source_lines(prediction)
    if per_source is not None:
        # "Pages: Undefeated\nMemory: Searching for Sugar Man": two answers, alternatives.
        other = per_source.other
        return StructuredReading(
            text=per_source.answer or "No answer.", answer=per_source.answer, beside="",
            alternatives=(other,) if other else (), candidates_key=per_source.other_label,
        )  # fmt: skip
    argument = read_toulmin(prediction, cut_off=cut_off)
    if argument is not None:
        # "Data: ...\nWarrant: ...\nQualifier: very likely\nClaim: X": the claim, doubted.
        return StructuredReading(
            text=argument.answer or "No answer.", answer=argument.answer, beside=argument.held,
            alternatives=(), candidates_key=None, doubt=argument.doubt,
        )  # fmt: skip
    accumulated = accumulated_answers(prediction)
    if accumulated is not None:
        # "Response 1: X\n---...\nResponse 2: The context does not provide ...": the answers
        # the chunks gave, their declines set aside.
        text = " ".join(_sentence(a) for a in accumulated)
        return StructuredReading(
            text=text or "No answer.", answer=text, beside="", alternatives=(),
            candidates_key=None,
        )  # fmt: skip
    checked = read_checklist(prediction, cut_off=cut_off)
    if checked is not None:
        # "- [x] Value stated: ...\n\n**Verified:** July 21, 2022": the verdict line, or the
        # value check where the cut fell before it.
        if checked.premise_false:
            text = " ".join(p for p in ["The premise is false.", _sentence(checked.answer)] if p)
        else:
            text = checked.answer or "No answer."
        return StructuredReading(
            text=text, answer=checked.answer, beside=checked.reason, alternatives=(),
            candidates_key=None,
        )  # fmt: skip
    decoded = _decode(prediction)
    if decoded is None or not decoded[0]:
        # No JSON object with fields ("{Answer:[...] ...}" opens with a brace too).
        fields = printed_fields(prediction, cut_off=cut_off)
        if fields is not None:
            return _reading(fields, "")
        attended = attended_reply(prediction)
        if attended is not None:
            return StructuredReading(
                text=attended, answer=attended, beside="", alternatives=(), candidates_key=None
            )
        return _read_working_then_reply(prediction, cut_off) or _read_tagged(prediction, cut_off)
    found, trailing, cut_part_way = decoded
    if cut_part_way and cut_off and _field(found, (*ANSWER_KEYS, "status")) is None:
        # '{"reasoning": "... 13.7 + 8.45 + 3.9 = 26.05; 26' and no "answer" yet: the object
        # was cut in its working, before the field it answers in.
        return StructuredReading(
            text="", answer="", beside="", alternatives=(), candidates_key=None,
            cut_before_answer=True,
        )  # fmt: skip
    return _reading(found, trailing) if found else None


def _read_http(response: HttpResponse) -> StructuredReading:
    """The reply an HTTP response amounts to: its body, read with the service's own headers
    as fields beside it; none for an error status (FastAPI's 404 ``{"detail": "No answer
    found ..."}``, a 500). Cut before the body, a note header is all it states, and it
    answers only where it says so itself; with no note, the cut holds no answer."""
    fields: dict[str, Any] = dict(response.fields)
    body = response.body
    if body is None:
        note = fields.get("note", "")
        if not note:
            return StructuredReading(
                text="", answer="", beside="", alternatives=(), candidates_key=None,
                cut_before_answer=True,
            )  # fmt: skip
        stated = fields.get("confidence", "")
        confidence = read_confidence(f"confidence: {stated}") if stated else None
        return StructuredReading(
            text=note, answer=note, beside="", alternatives=(), candidates_key=None,
            working_only=True,
            doubt=f"x-confidence: {stated}" if confidence and confidence.unsure else "",
        )  # fmt: skip
    decoded = _decode(body)
    if decoded is not None and decoded[0]:
        # {"detail": "No answer found in the provided documents"}: FastAPI's error body.
        fields.update(decoded[0])
    elif body:
        fields["answer"] = body
    if response.failed:
        detail = next((v for k, v in fields.items() if k in ("detail", "answer")), None)
        fields = {"answer": None, "reason": value_text(detail) if detail else None}
    return _reading(fields, "")


def _read_working_then_reply(prediction: str, cut_off: bool) -> StructuredReading | None:
    """The reply of an output that writes its working (gpt-oss's leaked analysis channel, a
    rephrased question, a step-back question and its answer, Gemini's thought summaries)
    before it; cut before the reply, the working (and the reply's first words) is all the
    text states, and it answers only where the judges find it true."""
    found = working_and_reply(prediction, cut_off=cut_off)
    if found is None:
        return None
    working, reply = found
    if not reply:
        return StructuredReading(
            text=working, answer=working, beside="", alternatives=(), candidates_key=None,
            working_only=True,
        )  # fmt: skip
    return StructuredReading(
        text=reply, answer=reply, beside="", alternatives=(), candidates_key=None
    )


def _read_tagged(prediction: str, cut_off: bool) -> StructuredReading | None:
    tagged = parse_tagged(prediction)
    if tagged is None:
        return None
    # A search assistant's grade of its own search ("<search_quality_score>4") is no answer.
    fields = {k: v for k, v in tagged.fields.items() if k != "search_quality_score"}
    answered = any(k in fields and k != tagged.cut_element for k in ANSWER_KEYS)
    replied = tagged.thinking_closed and bool(tagged.reply) and not cut_off
    if tagged.thinking_tag == "search_quality_reflection" and not answered and not replied:
        # "<search_quality_reflection>...</search_quality_reflection>
        # <search_quality_score>4</search_quality_score><result>The 7": the cut fell before
        # the result was written. The reflection reports what the search found, which
        # answers only where it says so itself (a distilled model's <think> reasons towards
        # an answer, and is read as the cut left it, below).
        text = " ".join(p for p in (tagged.thinking, *fields.values(), tagged.reply) if p)
        return StructuredReading(
            text=text, answer=text, beside="", alternatives=(), candidates_key=None,
            working_only=True,
        )  # fmt: skip
    if fields:
        # The answer element is the reply; thinking before it is the working that led there.
        return _reading(fields, "")
    if tagged.thinking is None:
        return None
    if tagged.thinking_closed and tagged.reply and not cut_off:
        # A finished reply after the thinking is what the system answers: a guess it weighed
        # while thinking and did not give is no answer of its.
        text = tagged.reply
    else:
        # Cut off inside the thinking, or in a reply that had just begun: what the thinking
        # states is all the cut text states. Thinking cut before its reply is working: it
        # answers only where the judges find a true answer in it ("Okay, so I need the
        # coach. Looking at the context, Pete Carroll was the head coach from 2010 until" is
        # no answer). On 140 real replies cut inside a <think> or Open WebUI reasoning block,
        # reading it so agreed with the graders on 91 against 56.
        text = " ".join(part for part in (tagged.thinking, tagged.reply) if part)
    return StructuredReading(
        text=text, answer=text, beside="", alternatives=(), candidates_key=None,
        working_only=not tagged.thinking_closed,
    )  # fmt: skip


def _reading(found: Mapping[str, Any], trailing: str) -> StructuredReading:
    """The plain reply that an output's fields (and any text after them) amount to."""
    # {"answer": null, "items": ["A", "B"]}: the list is the answer.
    answer_field = next(
        (f for key in ANSWER_KEYS if (f := _field(found, (key,))) and not _is_no_value(f[1])),
        _field(found, ANSWER_KEYS),
    )
    status = _field(found, ("status",))
    no_value = answer_field is not None and _is_no_value(answer_field[1])
    no_answer_status = (
        status is not None
        and isinstance(status[1], str)
        and _NO_ANSWER_STATUS.search(status[1]) is not None
        and (answer_field is None or no_value)
    )
    # found=False: the call's own word that it has no answer.
    not_found = _field(found, ("found",))
    declined = (
        no_value
        or no_answer_status
        or (not_found is not None and not_found[1] is False and answer_field is None)
    )
    if answer_field is None and not declined:
        # No answer key: the fields it gives are what it says ({"winner": "Arsenal"}).
        said = {k: v for k, v in found.items() if k.lower() not in KNOWN_KEYS}
        answer = value_text(said) if len(said) != 1 else value_text(next(iter(said.values())))
    else:
        answer = "" if declined or answer_field is None else value_text(answer_field[1])
    beside = [
        _sentence(value_text(f[1]))
        for keys in (EVIDENCE_KEYS, REASON_KEYS, NOTE_KEYS)
        if (f := _field(found, keys)) is not None and not _is_no_value(f[1])
    ]
    if trailing:
        beside.append(_sentence(trailing))
    value = answer  # as given, before its unit and date are added
    if answer:
        for keys, form in ((("unit", "currency"), "{} {}"), (("as_of",), "{} (as of {})")):
            extra = _field(found, keys)
            if extra is not None and value_text(extra[1]) and value_text(extra[1]) not in answer:
                answer = form.format(answer, value_text(extra[1]))
    confidence = _field(found, ("confidence", "certainty"))
    sure = _field(found, SURE_KEYS)
    if confidence is None and sure is not None and sure[1] in (False, None, "", 0, "false"):
        # "sure": false beside an answer: the system says it does not stand behind it.
        confidence = ("certainty", "unsure")
    stated = (
        f" (confidence {value_text(confidence[1])})"
        if confidence is not None and isinstance(confidence[1], int | float | str)
        else ""
    )
    if _says_premise_false(found):
        text = " ".join(p for p in ["The premise is false.", _sentence(answer), *beside] if p)
    elif not answer:
        # A reason that itself declines ("The documents do not say.") is the whole reply;
        # any other is said after the decline. ("No answer: X" would read as the answer X.)
        reason = " ".join(beside)
        text = reason if reason and match_refusal(reason) else " ".join(["No answer.", *beside])
    elif beside:
        text = f"{' '.join(beside)} Answer: {answer}{stated}"
    else:
        text = f"{answer}{stated}"
    candidates = _field(found, CANDIDATE_KEYS)
    others: tuple[str, ...] = ()
    if candidates is not None and answer and isinstance(candidates[1], list):
        named = [value_text(c) for c in candidates[1]]
        others = tuple(c for c in named if c and c.lower() != value.lower())
    return StructuredReading(
        text=text.strip(),
        answer=answer,
        beside=" ".join(beside),
        alternatives=others,
        candidates_key=candidates[0] if candidates is not None and others else None,
    )
