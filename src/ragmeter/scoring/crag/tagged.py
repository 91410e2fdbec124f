"""A system's raw output wrapped in tags, read the way a person reading it would.

Pipelines prompted for tagged output return ``<answer>5</answer><evidence>Hinault won the
Tour five times.</evidence>``, ``<answer>unknown</answer>`` or ``<answer></answer>``, and
distilled reasoning models keep their thinking in ``<think> ... </think>`` before the reply
(sometimes with no closing tag, or cut off inside it by CRAG's 75-token limit). A search
assistant prompted the way tool-use guides suggest writes
``<search_quality_reflection>...</search_quality_reflection>``, a
``<search_quality_score>`` it gives its own search, then ``<result>...</result>``: the
reflection is its working and the result its reply. These tags
are the output's own format, not a fake prompt boundary (the screen flags markup only when
talk of the grading follows it): `parse_tagged` reads a well-formed tagged output into its
parts. Well-formed means it opens with a tag of the format, every tag in it is one of the
format's, each element closes before the next opens (the last may be cut off), and nothing
but the reply after the thinking stands outside an element. Anything else ("Paris
</answer> The true answer is Paris.") is read as plain text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = [
    "TaggedOutput",
    "parse_tagged",
    "without_run_on_turn",
    "without_stop_token",
]

_THINK = frozenset({"think", "thinking", "search_quality_reflection"})
_ELEMENTS = frozenset(
    {
        "answer",
        "result",
        "search_quality_score",
        "final_answer",
        "evidence",
        "quote",
        "reason",
        "explanation",
        "note",
        "source",
        "sources",
        "citation",
        "citations",
        "confidence",
    }
)
_TAG = re.compile(r"<(?P<close>/)?\s*(?P<name>[A-Za-z_][\w-]*)\s*>")


@dataclass(frozen=True)
class TaggedOutput:
    """The parts of a well-formed tagged output."""

    thinking: str | None
    """What stood inside the thinking tags, or None when there were none."""
    thinking_closed: bool
    """True when the thinking was closed (a reply may follow); False when it runs to the end."""
    fields: dict[str, str] = field(default_factory=dict)
    """Each element's text by its tag's name, in lower case (the first of each name)."""
    reply: str = ""
    """Plain text after the thinking, when no element follows it."""
    tag_spans: tuple[tuple[int, int], ...] = ()
    """Where the format's tags stand in the text."""
    cut_element: str | None = None
    """The element the text ends inside, its closing tag never written (None when every
    element closes)."""
    thinking_tag: str | None = None
    """The name of the thinking's tag, in lower case ("think", "search_quality_reflection")."""


# "<response><answer>Paris</answer><confidence>0.9</confidence></response>": one element
# around the whole output (its closing tag may fall past the cut) only wraps it.
_WRAPPER = re.compile(
    r"^\s*<\s*(?P<name>response|result|output|reply)\s*>(?P<inner>.*?)"
    r"(?P<closing><\s*/\s*(?P=name)\s*>\s*)?$",
    re.IGNORECASE | re.DOTALL,
)


# Open WebUI's export of a reasoning model's reply: the thinking in a collapsed block,
# '<details type="reasoning" done="true" duration="9">', a "<summary>Thought for 9
# seconds</summary>" line and the thinking quoted line by line ("> Okay, so ..."), then
# "</details>" and the reply. It is a <think> block by another name.
_DETAILS_OPENING = re.compile(
    r'\s*<details\s+type="reasoning"[^<>]*>\s*(?:<summary>[^<>]*(?:</summary>|$)\s*)?'
)
_QUOTE_MARK = re.compile(r"^[ \t]*>[ \t]?", re.MULTILINE)


def _reasoning_details_as_think(text: str) -> str:
    opening = _DETAILS_OPENING.match(text)
    if opening is None:
        return text
    thinking, closed, reply = text[opening.end() :].partition("</details>")
    thinking = _QUOTE_MARK.sub("", thinking).strip()
    return f"<think>{thinking}</think>{reply}" if closed else f"<think>{thinking}"


def parse_tagged(text: str) -> TaggedOutput | None:
    """The parts of ``text`` when it is a well-formed tagged output (an Open WebUI reasoning
    block read as a <think> block), else None."""
    text = _reasoning_details_as_think(text)
    wrapped = _WRAPPER.match(text)
    if wrapped is None:
        return _parse_bare(text)
    start, end = wrapped.span("inner")
    inner = text[start:end]
    if _TAG.search(inner) is None:
        parsed: TaggedOutput | None = TaggedOutput(None, False, {"answer": inner.strip()})
    else:
        parsed = _parse_bare(inner)
    if parsed is None:
        return None
    spans = [(0, start), *((a + start, b + start) for a, b in parsed.tag_spans)]
    if wrapped.group("closing"):
        spans.append((end, len(text)))
    return TaggedOutput(
        parsed.thinking,
        parsed.thinking_closed,
        parsed.fields,
        parsed.reply,
        tuple(spans),
        parsed.cut_element,
        parsed.thinking_tag,
    )


# "...</search_quality_score>\n<resu": a tag the 75-token cut stopped inside.
_PARTIAL_TAG = re.compile(r"<\s*/?\s*[A-Za-z_][\w-]*\s*$|<\s*/?\s*$")


def _parse_bare(text: str) -> TaggedOutput | None:
    partial = _PARTIAL_TAG.search(text.rstrip())
    tail = () if partial is None else (partial.span(),)
    if partial is not None:
        text = text[: partial.start()]
    tags = list(_TAG.finditer(text))
    if not tags or text[: tags[0].start()].strip():
        return None
    if any(m.group("name").lower() not in _THINK | _ELEMENTS for m in tags):
        return None
    at = 0
    thinking: str | None = None
    closed = False
    first = tags[0]
    if first.group("name").lower() in _THINK and not first.group("close"):
        end = next(
            (m for m in tags[1:] if m.group("close") and m.group("name").lower() in _THINK), None
        )
        if end is None:
            if len(tags) > 1:
                return None  # a tag inside the thinking it never closes
            return TaggedOutput(
                text[first.end() :].strip(),
                False,
                tag_spans=(first.span(), *tail),
                thinking_tag=first.group("name").lower(),
            )
        if any(m.start() < end.start() for m in tags[1:] if m is not end):
            return None
        thinking, closed, at = text[first.end() : end.start()].strip(), True, end.end()
        thinking_tag: str | None = first.group("name").lower()
        tags = [m for m in tags if m.start() >= at]
        spans = [first.span(), end.span()]
    else:
        spans, thinking_tag = [], None
    if not tags:
        return TaggedOutput(
            thinking,
            closed,
            reply=text[at:].strip(),
            tag_spans=(*spans, *tail),
            thinking_tag=thinking_tag,
        )
    fields: dict[str, str] = {}
    cut_element: str | None = None
    i = 0
    while i < len(tags):
        opening = tags[i]
        name = opening.group("name").lower()
        if opening.group("close") or name in _THINK or text[at : opening.start()].strip():
            return None
        closing = tags[i + 1] if i + 1 < len(tags) else None
        if closing is None:
            fields.setdefault(name, text[opening.end() :].strip())  # cut off inside it
            spans.append(opening.span())
            cut_element = name
            at = len(text)
            break
        if not closing.group("close") or closing.group("name").lower() != name:
            return None
        fields.setdefault(name, text[opening.end() : closing.start()].strip())
        spans += [opening.span(), closing.span()]
        at = closing.end()
        i += 2
    if text[at:].strip():
        return None
    return TaggedOutput(thinking, closed, fields, "", (*spans, *tail), cut_element, thinking_tag)


# A raw completion whose server did not strip its stop tokens ends with them: "Paris</s>",
# "Paris<|im_end|>", "Paris.<|eot_id|><|end_of_text|>". At the very end they open no turn and
# pose as no one; anywhere else they are the screen's to judge.
# So does an agent framework's stop word on a line of its own ("...\n\nTERMINATE").
_STOP_TOKEN = re.compile(
    r"(?:\s*(?:</s>|<eos>|<\|[a-z_]{2,20}\|>|<end_of_turn>|(?-i:\n[ \t]*TERMINATE)))+\s*$",
    re.IGNORECASE,
)


# "assistant\n\nAccording to the documents, ...", "<|im_start|>assistant\nParis", "###
# Response:\nParis", "<s>[INST] who ...? [/INST] Paris": a chat template's header for the
# reply (and the prompt it echoes), left at the very start. It names the turn the reply is,
# and poses as no one else. So does the prefix of Python's default logging format
# ("INFO:__main__:Ubisoft") on a reply rebuilt from a log file.
_REPLY_HEADER = re.compile(
    r"^\s*(?:<s>|<\|begin_of_text\|>)?\s*"
    r"(?:(?:<\|im_start\|>|<start_of_turn>)[ \t]*(?:assistant|model)\b"
    r"|<\|start_header_id\|>[ \t]*assistant[ \t]*<\|end_header_id\|>|<\|assistant\|>"
    r"|\#\#\#[ \t]*(?:response|assistant)[ \t]*:|assistant(?=[ \t]*\n)"
    r"|\[INST\].*?\[/INST\](?=\s*\S)"
    r"|(?-i:(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.<>-]*:))\s*",
    re.IGNORECASE | re.DOTALL,
)


def without_stop_token(text: str) -> str:
    """``text`` without the stop tokens it ends with ("Paris</s>" -> "Paris") and a chat
    template's reply header it opens with ("<|assistant|>\nParis" -> "Paris")."""
    return _REPLY_HEADER.sub("", _STOP_TOKEN.sub("", text, count=1), count=1)


# A raw completion that did not stop at its turn's end runs on into the next one it makes
# up ("Paris.\n\n### Instruction:\nWhat is the capital of Italy?"): the reply ends there.
_RUN_ON_TURN = re.compile(
    r"\n\s*(?:\#\#\#[ \t]*(?:instructions?|input|user|human|question)\b"
    r"|<\|(?:im_start|start_header_id|user|system)\|>|<start_of_turn>[ \t]*user\b|\[INST\]"
    r"|(?:user|human)[ \t]*:)",
    re.IGNORECASE,
)


def without_run_on_turn(text: str) -> str:
    """``text`` up to a turn a raw completion ran on into, when a reply comes before it."""
    m = _RUN_ON_TURN.search(text)
    return text[: m.start()] if m is not None and text[: m.start()].strip() else text
