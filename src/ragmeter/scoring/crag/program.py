"""A program-aided reply: a short program and what it gave, then (maybe) an answer.

Program-aided pipelines ask a model for a few lines of Python that store the facts from the
documents in variables and print the answer; the harness runs the program and submits it
with its output:

    ```python
    stores_2022 = 1204  # doc 2: annual report
    print(stores_2022 + 87)
    ```
    Output: 1291

The printed line is the reply's answer; the program is its working, whose figures (ids,
dates of documents) are no claims beside the answer. ``Output: None`` and
a crash's last traceback line ("NameError: name 'x' is not defined") give no answer. The
fence is the format's own, not a fake prompt boundary, when the whole reply is one such
program and its output.

A text-to-SQL chain (LangChain's ``SQLDatabaseChain`` with its intermediate steps) writes
the same shape in three labelled lines:

    SQLQuery: SELECT revenue FROM financials WHERE company = 'Norland Mills';
    SQLResult: [(1204000000.0,)]
    Answer: Norland Mills' revenue in 2023 was 1204000000.0.

The answer line is the reply; an empty result or an error with no answer, or an answer that
only reports the result's ``None``, gives none; cut before the answer line, the query and
result are working.
"""

from __future__ import annotations

import re

from ragmeter.scoring.crag.structured import StructuredReading

__all__ = ["read_program", "read_sql_chain"]

_PROGRAM = re.compile(
    r"\s*(?P<open>```[ \t]*(?:python|py)[ \t]*\n)(?P<code>.*?)"
    r"(?:(?P<close>\n[ \t]*```)[ \t]*(?:\n+[ \t]*Output:[ \t]*(?P<output>.*?))?)?\s*",
    re.DOTALL,
)
# What a crash prints last: "NameError: name 'x' is not defined", "KeyError: '2024-02-27'".
_CRASH = re.compile(r"^(?:Traceback\b|[A-Z]\w*(?:Error|Exception)\b)")
_NOTHING_PRINTED = frozenset({"none", "nan", "null", "[]"})
_VERDICTS = {"True": "Yes", "False": "No"}
_NO_ANSWER = StructuredReading(
    text="No answer.", answer="", beside="", alternatives=(), candidates_key=None
)


def _answered(answer: str) -> StructuredReading:
    """A reply whose answer is ``answer`` and nothing beside it."""
    return StructuredReading(
        text=answer, answer=answer, beside="", alternatives=(), candidates_key=None
    )


def _working(text: str) -> StructuredReading:
    """A reply cut before its answer: ``text`` is its working."""
    return StructuredReading(
        text=text, answer=text, beside="", alternatives=(), candidates_key=None, working_only=True
    )


def read_program(text: str) -> StructuredReading | None:
    """The plain reply a program-aided reply amounts to, or None for any other text. Cut
    before its output, the program is all the text states: its working, which answers only
    where the judges find a true answer in it."""
    m = _PROGRAM.fullmatch(text)
    if m is None:
        return None
    code = m.group("code").strip()
    output = m.group("output")
    if output is None or not output.strip():
        # "Output:" with nothing after it: the cut fell before what the program printed.
        return _working(code)
    printed = output.strip()
    if printed.lower() in _NOTHING_PRINTED or _CRASH.match(printed):
        return _NO_ANSWER
    # print(a > b) says True or False: a yes or a no.
    return _answered(_VERDICTS.get(printed, printed))


_SQL_CHAIN = re.compile(
    r"\s*SQLQuery:[ \t]*(?P<query>.*?)"
    r"(?:\n+[ \t]*SQLResult:[ \t]*(?P<result>.*?))?"
    r"(?:\n+[ \t]*Answer:[ \t]*(?P<answer>.*?))?\s*",
    re.DOTALL,
)
# "... as of the most recent trading day is None.": the result's empty cell, read aloud.
_READS_NONE = re.compile(r"\b(?:is|was|are|were|of)\s+(?:None|null|NULL)\.?$")


def read_sql_chain(text: str) -> StructuredReading | None:
    """The plain reply a text-to-SQL chain's "SQLQuery: / SQLResult: / Answer:" lines amount
    to, or None for any other text."""
    m = _SQL_CHAIN.fullmatch(text)
    if m is None:
        return None
    answer = (m.group("answer") or "").strip()
    if not answer:
        return _working(" ".join(part.strip() for part in m.group("query", "result") if part))
    if answer.rstrip(".").lower() in _NOTHING_PRINTED or _READS_NONE.search(answer):
        return _NO_ANSWER
    return _answered(answer)
