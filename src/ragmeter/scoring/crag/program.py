"""A program-aided reply: a short program in a code fence, then the line it printed.

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
"""

from __future__ import annotations

import re

from ragmeter.scoring.crag.structured import StructuredReading

__all__ = ["read_program"]

_PROGRAM = re.compile(
    r"\s*(?P<open>```[ \t]*(?:python|py)[ \t]*\n)(?P<code>.*?)"
    r"(?:(?P<close>\n[ \t]*```)[ \t]*(?:\n+[ \t]*Output:[ \t]*(?P<output>.*?))?)?\s*",
    re.DOTALL,
)
# What a crash prints last: "NameError: name 'x' is not defined", "KeyError: '2024-02-27'".
_CRASH = re.compile(r"^(?:Traceback\b|[A-Z]\w*(?:Error|Exception)\b)")
_NOTHING_PRINTED = frozenset({"none", "nan", "null", "[]"})
_VERDICTS = {"True": "Yes", "False": "No"}


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
        return StructuredReading(
            text=code, answer=code, beside="", alternatives=(), candidates_key=None,
            working_only=True,
        )  # fmt: skip
    printed = output.strip()
    if printed.lower() in _NOTHING_PRINTED or _CRASH.match(printed):
        return StructuredReading(
            text="No answer.", answer="", beside="", alternatives=(), candidates_key=None
        )
    # print(a > b) says True or False: a yes or a no.
    printed = _VERDICTS.get(printed, printed)
    return StructuredReading(
        text=printed, answer=printed, beside="", alternatives=(), candidates_key=None
    )
