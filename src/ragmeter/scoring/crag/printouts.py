"""Structured output printed in a format other than JSON, read into its fields.

A pipeline's result reaches CRAG as whatever its harness printed: a YAML block, a protocol
buffer in text format, ``answer=`` log fields, a CSV block, one XML element, a function
call, knowledge-graph triples, a Go struct, a Rust or Swift struct's own print, a Haskell
record's ``show``, a pydantic model's ``str()``, a PHP array's ``print_r``, an agent run's
printed result, a pandas DataFrame, DSPy's field markers, an R vector, a Java or C#
record's ``toString()``, a Ruby hash's ``inspect``, a Clojure map's ``prn``, a Go service's
logfmt line, a Julia struct's ``show``.
`printed_fields` reads each into the fields it gives, named as a JSON object's would be
(the answer under ``answer``), so that `ragmeter.scoring.crag.structured` reads them all as
it reads JSON.
"""

from __future__ import annotations

import ast
import csv
import html
import json
import re
import tomllib
from collections.abc import Callable
from typing import Any

from ragmeter.scoring.crag.clojure_print import edn_map_fields
from ragmeter.scoring.crag.debug_prints import debug_struct_fields
from ragmeter.scoring.crag.haskell_show import show_record_fields
from ragmeter.scoring.crag.julia_show import julia_show_fields
from ragmeter.scoring.crag.logfmt import logfmt_fields
from ragmeter.scoring.crag.model_str import model_str_fields
from ragmeter.scoring.crag.php_print_r import print_r_fields

__all__ = [
    "ANSWER_KEYS",
    "CANDIDATE_KEYS",
    "EVIDENCE_KEYS",
    "KNOWN_KEYS",
    "NOTE_KEYS",
    "PARSE_ERRORS",
    "PREMISE_KEYS",
    "REASON_KEYS",
    "SURE_KEYS",
    "first_parse",
    "printed_fields",
    "value_text",
]

# The names fields go by, whatever the format: an answer, what is said beside it, and what
# a reader passes over (a confidence, sources, a status read on its own).
ANSWER_KEYS = ("answer", "final_answer", "response", "result", "items")
REASON_KEYS = ("reason", "explanation", "rationale", "message", "error")
EVIDENCE_KEYS = ("evidence", "quote", "support", "basis", "context")
NOTE_KEYS = ("note", "notes", "caveat", "warning", "disclaimer", "remark", "remarks")
CANDIDATE_KEYS = ("candidates", "alternatives", "other_candidates", "other_answers")
# A yes-or-no field on whether the system stands behind its answer.
SURE_KEYS = ("sure", "certain", "confident", "is_sure", "is_certain")
PREMISE_KEYS = ("false_premise", "invalid_question", "premise_false", "invalid_premise")
KNOWN_KEYS = {
    *ANSWER_KEYS, *REASON_KEYS, *EVIDENCE_KEYS, *NOTE_KEYS, *CANDIDATE_KEYS,
    *PREMISE_KEYS, "flags", "flag", "status", "unit", "currency", "as_of", "confidence",
    "certainty", "sources", "source", "citation", "citations", "source_ids", "docs", "documents",
    "found", "doc_ids", *SURE_KEYS,
}  # fmt: skip

PARSE_ERRORS = (ValueError, SyntaxError, TypeError, MemoryError, RecursionError)


def first_parse(body: str, endings: tuple[str, ...], parse: Callable[[str], Any]) -> Any:
    """``parse`` of ``body`` with the first of ``endings`` that makes it parse (what a reply
    cut off part-way lacks at its end), or None when none does."""
    for ending in endings:
        try:
            return parse(body + ending)
        except PARSE_ERRORS:
            continue
    return None


def _number_text(value: float) -> str:
    """A number as written out: a whole float without its ".0", no exponent below 1e18."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e18:
        return str(int(value))
    return str(value)


def value_text(value: Any) -> str:
    """A field's value as a reader would say it ("Yes" for true, a list's items joined)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, int | float):
        return _number_text(value)
    if isinstance(value, list):
        return ", ".join(t for t in (value_text(v) for v in value) if t)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {value_text(v)}" for k, v in value.items() if value_text(v))
    return str(value).strip()


def printed_fields(prediction: str, *, cut_off: bool) -> dict[str, Any] | None:
    """The fields a structured output printed in one of the formats below gives (its answer
    under ``answer``), or None when it is none of them. ``cut_off``: the 75-token cut fell in
    it, so its last field may be cut short."""
    listed = _list_literal(prediction)
    if listed is not None:
        return {"answer": listed or None}
    return (
        _yaml_fields(prediction)
        or _run_result_fields(prediction)
        # A model's str() before a log line's "answer=..." fields, which it looks like.
        or model_str_fields(prediction)
        or _toml_fields(prediction, cut_off=cut_off)
        or _key_value_fields(prediction)
        or logfmt_fields(prediction)
        or _csv_fields(prediction, cut_off=cut_off)
        or _xml_fields(prediction)
        or _call_fields(prediction, cut_off=cut_off)
        or _triple_fields(prediction)
        or _go_struct_fields(prediction)
        or debug_struct_fields(prediction)
        or show_record_fields(prediction)
        or print_r_fields(prediction, cut_off=cut_off)
        or _frame_fields(prediction)
        or _dspy_fields(prediction)
        or _r_vector_fields(prediction)
        or _record_fields(prediction)
        or _content_block_fields(prediction, cut_off=cut_off)
        or _js_object_fields(prediction, cut_off=cut_off)
        or _ruby_hash_fields(prediction)
        or edn_map_fields(prediction)
        or julia_show_fields(prediction)
    )


# A YAML block as a pipeline prints it: "answer: X", "confidence: 0.8", "sources:" over
# "- item" lines; a protocol buffer's text format the same way. Only a block whose first line
# is a lower-case "answer:", "items:" or "status:" is read as one: a reply's "Answer: X" line
# is prose, read by the rules.
_YAML_LINE = re.compile(r"^(?P<key>[a-z_][a-z0-9_]*):(?:\s+(?P<value>.*?))?\s*$")
_YAML_ITEM = re.compile(r"^\s*-\s+(?P<item>.*?)\s*$")
_YAML_NULL = frozenset({"", "null", "~"})


_LIST_LITERAL_CHARS = 2_000


# The OpenAI Agents SDK's str() of a run's result: "RunResult:", "- Last agent: Agent(...)",
# "- Final output (str):" over the output indented four spaces, then counts of its items.
_RUN_RESULT = re.compile(
    r"\s*RunResult:\n- Last agent: [^\n]*\n- Final output \([^)\n]*\):\n"
    r"(?P<output>(?:(?: {4}[^\n]*| *)(?:\n|$))*)"
)


def _run_result_fields(text: str) -> dict[str, Any] | None:
    """The final output of an agent run's printed result as the answer, else None."""
    m = _RUN_RESULT.match(text)
    if m is None:
        return None
    output = "\n".join(line[4:] for line in m.group("output").split("\n")).strip()
    return {"answer": output or None}


def _list_literal(text: str) -> list[Any] | None:
    """The items of a reply that is nothing but a list literal ("['Greta Gerwig']", "[]", as
    a pipeline that prints its result returns it), else None."""
    body = text.strip()
    if not (body.startswith("[") and body.endswith("]")) or len(body) > _LIST_LITERAL_CHARS:
        return None
    try:
        found = ast.literal_eval(body)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if not isinstance(found, list) or not all(
        isinstance(item, (str, int, float)) and not isinstance(item, bool) for item in found
    ):
        return None
    return found


# "answer=Paris; confidence=0.9", "answer=null | reason=not found": a log line's fields.
_KEY_VALUE = re.compile(r"^\s*(?P<key>[A-Za-z_][\w]*)\s*=\s*(?P<value>.*?)\s*$", re.DOTALL)
_KEY_VALUE_SPLIT = re.compile(r"\s*[;|\n]\s*(?=[A-Za-z_]\w*\s*=)")
_KEY_VALUE_OPENING = re.compile(r"\s*answer\s*=", re.IGNORECASE)


# A TOML document a framework wrote with toml.dumps(): "key = value" lines, strings in double
# quotes, arrays as "[ 2, 4,]", a null field left out. One that opens with an answer or items
# line is read as fields; the 75-token cut may fall inside its last line.
_TOML_OPENING = re.compile(r"\s*(?:answer|items|status)\s*=\s*\S")


def _toml_fields(text: str, *, cut_off: bool) -> dict[str, Any] | None:
    """The fields of a TOML document that opens with ``answer =``, ``items =`` or
    ``status =`` (its last line dropped when the cut left it unreadable), else None."""
    if not _TOML_OPENING.match(text):
        return None
    body = text.strip()
    try:
        return tomllib.loads(body)
    except tomllib.TOMLDecodeError:
        head, _, _last = body.rpartition("\n")
        if not cut_off or not head:
            return None
    try:
        return tomllib.loads(head)
    except tomllib.TOMLDecodeError:
        return None


def _key_value_fields(text: str) -> dict[str, Any] | None:
    """The fields of a ``key=value`` line that opens with ``answer=``, else None."""
    if not _KEY_VALUE_OPENING.match(text):
        return None
    fields: dict[str, Any] = {}
    for piece in _KEY_VALUE_SPLIT.split(text.strip()):
        m = _KEY_VALUE.match(piece)
        if m is None:
            return None
        value = m.group("value").strip().strip("'\"")
        # A logged Python None is no answer; "none" may be one (a count of none).
        null = value.lower() in _YAML_NULL or value == "None"
        fields[m.group("key").lower()] = None if null else value
    return fields


# "{Answer:[June 4, 2019] Grounded:true Chunks:[2] Caveat:}": a Go struct printed with %+v,
# its fields "Name:value" with a space between them and its slices in brackets. The 75-token
# cut may fall before the closing brace.
_GO_STRUCT = re.compile(r"\s*\{(?P<body>Answer:.*?)(?:\}\s*)?", re.DOTALL)
_GO_FIELD = re.compile(r"(?:^|(?<=[\s\]]))(?P<name>[A-Z][A-Za-z0-9]*):")


def _go_struct_fields(text: str) -> dict[str, Any] | None:
    """The fields of a Go struct printed with ``%+v`` that opens with ``Answer:``, else None.
    A slice is read as its text between the brackets (Go prints its items with bare spaces
    between them, so "[Tova Lind Jun Sato]" cannot be split), and an empty one as no value."""
    m = _GO_STRUCT.fullmatch(text)
    if m is None:
        return None
    body = m.group("body")
    names = list(_GO_FIELD.finditer(body))
    fields: dict[str, Any] = {}
    for i, name in enumerate(names):
        end = names[i + 1].start() if i + 1 < len(names) else len(body)
        value = body[name.end() : end].strip()
        if value.startswith("["):
            value = value[1:].removesuffix("]").strip()
        fields[name.group("name").lower()] = (
            {"true": True, "false": False}.get(value, value) if value else None
        )
    if fields.get("grounded") is False and fields.get("answer") is None:
        fields["found"] = False  # the struct's own word that it found no answer
    return fields


# A pandas DataFrame as str() prints it: a header of snake_case column names, then rows that
# open with their index, values two or more spaces apart. Empty, it prints its columns.
_FRAME_EMPTY = re.compile(r"\s*Empty DataFrame\s*\nColumns: \[[^\]\n]*\]\s*(?:\nIndex: \[\]\s*)?")
_FRAME_COLUMN = re.compile(r"[a-z_][a-z0-9_]*")
_FRAME_ROW = re.compile(r"\s*\d+\s+(?P<values>\S.*?)\s*")


def _frame_fields(text: str) -> dict[str, Any] | None:
    """What a printed DataFrame answers, else None: its one column's values, each row's
    values named by their columns when there are more, True or False as a verdict, and an
    empty frame as no answer."""
    if _FRAME_EMPTY.fullmatch(text):
        return {"answer": None}
    lines = [line for line in text.splitlines() if line.strip()]
    header = lines[0].split() if lines else []
    if len(lines) < 2 or not all(_FRAME_COLUMN.fullmatch(name) for name in header):
        return None
    rows = []
    for line in lines[1:]:
        m = _FRAME_ROW.fullmatch(line)
        values = re.split(r"\s{2,}", m.group("values")) if m else []
        if len(header) == 1 and m is not None:
            values = [m.group("values")]
        if len(values) != len(header):
            return None
        rows.append(values)
    if len(header) == 1:
        items = [row[0] for row in rows]
        if items in (["True"], ["False"]):
            return {"answer": "yes" if items == ["True"] else "no"}
        return {"answer": items[0] if len(items) == 1 else items}
    described = []
    for row in rows:
        named = (
            f"{name.replace('_', ' ')} {v}" for name, v in zip(header[1:], row[1:], strict=True)
        )
        described.append(f"{row[0]} ({', '.join(named)})")
    return {"answer": described[0] if len(described) == 1 else described}


# "[[ ## answer ## ]]\nJune 4, 2019\n\n[[ ## supporting_docs ## ]]\n[2]\n\n[[ ## completed ## ]]":
# DSPy's chat adapter's field markers, left in a raw completion. Only fields a program
# answers in count as the format: any other name ("verdict") is left for the screen.
_DSPY_MARKER = re.compile(r"\[\[ ## (?P<name>[a-z_][a-z0-9_]*) ## \]\]")
_DSPY_NAMES = frozenset(
    {*KNOWN_KEYS, "reasoning", "rationale", "supporting_docs", "supporting_documents", "completed"}
)
_DSPY_CUT_MARKER = re.compile(r"\[\[[^\]\n]*\]?$")


def _dspy_parts(text: str) -> list[tuple[str, str, tuple[int, int]]] | None:
    """Each field's name, text and marker span in a raw DSPy completion, else None."""
    end = len(text.rstrip())
    cut = _DSPY_CUT_MARKER.search(text[:end])
    markers = list(_DSPY_MARKER.finditer(text, 0, cut.start() if cut else end))
    if not markers or text[: markers[0].start()].strip():
        return None
    names = [m.group("name") for m in markers]
    if len(set(names)) != len(names) or not set(names) <= _DSPY_NAMES:
        return None
    stops = [m.start() for m in markers[1:]] + [cut.start() if cut else end]
    return [
        (m.group("name"), text[m.end() : stop].strip(), m.span())
        for m, stop in zip(markers, stops, strict=True)
    ]


def _dspy_fields(text: str) -> dict[str, Any] | None:
    """The fields of a raw DSPy completion, else None."""
    parts = _dspy_parts(text)
    if parts is None:
        return None
    return {name: value or None for name, value, _ in parts if name != "completed"}


# "answer,unit,as_of,status" over rows: a CSV block as a table pipeline prints it. Only a
# header of plain column names that holds "answer" opens one.
_CSV_HEADER = re.compile(r"^\s*[a-z_][a-z0-9_]*(?:\s*,\s*[a-z_][a-z0-9_]*)+\s*$")


def _csv_fields(text: str, *, cut_off: bool) -> dict[str, Any] | None:
    """The fields of a CSV block whose header names an ``answer`` column, else None. Each
    row is one item of the answer; the other columns are read from the first row."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) < 2 or not _CSV_HEADER.match(lines[0]):
        return None
    header = [name.strip() for name in lines[0].split(",")]
    if "answer" not in header:
        return None
    if cut_off and len(lines) > 2:
        lines = lines[:-1]  # a row the 75-token cut stopped part-way
    cells = list(csv.reader(lines[1:]))
    if any(len(row) != len(header) for row in cells):
        return None  # not a table after all
    rows = [dict(zip(header, row, strict=True)) for row in cells]
    items = [row["answer"].strip() for row in rows if row["answer"].strip()]
    fields: dict[str, Any] = {
        key: (value.strip() or None) for key, value in rows[0].items() if key != "answer"
    }
    fields["answer"] = (items[0] if len(items) == 1 else items) or None
    return fields


# '<result status="found" unit="km">8849</result>', '<result status="not_found"/>',
# '<result status="found"><item>Oslo</item><item>Bergen</item></result>': one element with
# attributes around the whole reply; the attributes are fields beside its content. (An
# element without attributes, "<answer>X</answer>", is the tagged-output reader's.)
_XML_ELEMENT = re.compile(
    r"^\s*<(?P<tag>[A-Za-z_][\w-]*)(?P<attrs>(?:\s+[A-Za-z_][\w-]*\s*=\s*"
    r"(?:\"[^\"]*\"|'[^']*'))+)\s*(?:/>|>(?P<body>.*?)(?:</(?P=tag)\s*>|$))\s*$",
    re.DOTALL,
)
_XML_ATTRIBUTE = re.compile(r"([A-Za-z_][\w-]*)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_XML_ITEM = re.compile(r"<item>(.*?)(?:</item>|$)", re.DOTALL)


def _xml_fields(text: str) -> dict[str, Any] | None:
    """The fields of a reply that is one XML element with attributes, else None."""
    m = _XML_ELEMENT.match(text)
    if m is None:
        return None
    fields: dict[str, Any] = {
        name.lower(): html.unescape(double or single)
        for name, double, single in _XML_ATTRIBUTE.findall(m.group("attrs"))
    }
    body = m.group("body") or ""
    items = [html.unescape(i).strip() for i in _XML_ITEM.findall(body)]
    if items:
        fields["answer"] = [i for i in items if i] or None
    elif "<" in body:
        return None  # other markup inside: not a plain element
    else:
        fields["answer"] = html.unescape(body).strip() or None
    return fields


# 'submit_answer(answer="Oslo", found=True, note="2021 figure")', 'finish(answer=None,
# reason="not in sources")': a function-calling pipeline's final tool call printed as its
# reply; its keyword arguments are the fields.
_CALL_OPENING = re.compile(r"^\s*[A-Za-z_][\w.]*\(\s*[A-Za-z_]\w*\s*=")
_CALL_CHARS = 4_000
# What a call cut off by the 75-token limit lacks at its end, tried in turn.
_CALL_ENDINGS = ("", ")", '")', "')")


def _call_fields(text: str, *, cut_off: bool) -> dict[str, Any] | None:
    """The keyword arguments of a reply that is one function call with literal arguments,
    else None. A call the cut stopped part-way keeps the arguments written in full."""
    body = text.strip()
    if not _CALL_OPENING.match(body) or len(body) > _CALL_CHARS:
        return None
    tree = first_parse(
        body, _CALL_ENDINGS if cut_off else ("",), lambda text: ast.parse(text, mode="eval")
    )
    call = tree.body if tree is not None else None
    if not isinstance(call, ast.Call) or call.args:
        return None
    fields: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            return None
        try:
            fields[keyword.arg.lower()] = ast.literal_eval(keyword.value)
        except PARSE_ERRORS:
            return None
    return fields


# "[TextBlock(citations=None, text='It reopened in 2019.', type='text')]": an SDK's list of
# content blocks printed whole instead of its text; the blocks' text is the reply.
_BLOCKS_OPENING = re.compile(r"^\s*\[\s*[A-Z]\w*Block\(")
_BLOCKS_ENDINGS = ("", "')]", '")]')


def _content_block_fields(text: str, *, cut_off: bool) -> dict[str, Any] | None:
    """The text of a printed list of content blocks as the answer, else None. A list the cut
    stopped inside its text keeps the text written before the cut."""
    body = text.strip()
    if not _BLOCKS_OPENING.match(body) or len(body) > _CALL_CHARS:
        return None
    tree = first_parse(
        body, _BLOCKS_ENDINGS if cut_off else ("",), lambda text: ast.parse(text, mode="eval")
    )
    if tree is None or not isinstance(tree.body, ast.List):
        return None
    texts: list[str] = []
    for block in tree.body.elts:
        if not isinstance(block, ast.Call):
            return None
        for keyword in block.keywords:
            if keyword.arg != "text":
                continue
            try:
                value = ast.literal_eval(keyword.value)
            except PARSE_ERRORS:
                return None
            if isinstance(value, str):
                texts.append(value)
    return {"answer": "\n\n".join(texts).strip() or None} if texts else None


# "{ answer: null, items: [], note: 'no chunk gives it' }": a JavaScript object as Node's
# console.log prints it, keys bare and strings in single quotes.
_JS_OPENING = re.compile(r"\s*\{\s*[A-Za-z_$][\w$]*\s*:")
_JS_STRING = re.compile(r"""('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")
_JS_KEY = re.compile(r"(?<=[{,\n])(\s*)([A-Za-z_$][\w$]*)(\s*):")
_JS_CONSTANTS = {"null": "None", "undefined": "None", "true": "True", "false": "False"}
_JS_CONSTANT = re.compile(r"\b(?:null|undefined|true|false)\b")
_JS_ENDINGS = ("", "}", "'}", '"}', "]}", "'\n}", '"\n}')


def _js_object_fields(text: str, *, cut_off: bool) -> dict[str, Any] | None:
    """The fields of a printed JavaScript object, else None. An object the cut stopped
    part-way keeps the fields written in full."""
    body = text.strip()
    if not _JS_OPENING.match(body) or len(body) > _CALL_CHARS:
        return None
    pieces = _JS_STRING.split(body)
    # Outside the string literals: bare keys quoted, JavaScript's constants as Python's.
    for i in range(0, len(pieces), 2):
        code = _JS_KEY.sub(lambda m: f'{m.group(1)}"{m.group(2)}"{m.group(3)}:', pieces[i])
        pieces[i] = _JS_CONSTANT.sub(lambda m: _JS_CONSTANTS[m.group(0)], code)
    found = first_parse("".join(pieces), _JS_ENDINGS if cut_off else ("",), ast.literal_eval)
    if not isinstance(found, dict) or not all(isinstance(k, str) for k in found):
        return None
    fields = {k.lower(): v for k, v in found.items()}
    if fields.get("answer") in (None, "", []) and fields.get("items"):
        # A list answer goes in its own field, the answer field left null.
        fields["answer"] = fields["items"]
    return fields


# "(Harlow Bridge, opening_date, 2019-06-04)", "(A, member, X); (A, member, Y)", "(Mill Town
# FC, league_titles, ?)", "(X, original_title, Y): false": a knowledge-graph pipeline's
# result printed as triples. The objects are the answer; "?" leaves it open; a verdict after a
# triple answers yes or no about it.
_TRIPLE = re.compile(
    r"\(\s*(?P<subject>[^()]+?)\s*,\s*(?P<relation>[^(),]+?)\s*,\s*(?P<object>[^()]*?)\s*\)"
    r"(?:\s*:\s*(?P<verdict>true|false|\?))?",
    re.IGNORECASE,
)
_TRIPLE_JOINER = re.compile(r"\s*[;\n]\s*")
_OPEN_OBJECT = frozenset({"", "?", "unknown", "none", "null", "n/a"})


def _triple_fields(text: str) -> dict[str, Any] | None:
    """The fields of a reply that is nothing but triples, else None."""
    body = text.strip()
    if not body.startswith("("):
        return None
    found: list[re.Match[str]] = []
    at = 0
    while True:
        m = _TRIPLE.match(body, at)
        if m is None:
            return None
        found.append(m)
        if m.end() == len(body):
            break
        joiner = _TRIPLE_JOINER.match(body, m.end())
        if joiner is None:
            return None  # more than triples
        at = joiner.end()
    judged = [m for m in found if m.group("verdict")]
    subjects = {m.group("subject").lower() for m in found}
    if (judged and len(judged) != len(found)) or (not judged and len(subjects) > 1):
        # A verdict beside a correcting triple, or a comparison's values for each option:
        # read as written, where the subjects stay beside their objects.
        return None
    verdicts = {m.group("verdict").lower() for m in judged}
    stated = "; ".join(
        f"{m.group('subject')} {m.group('relation').replace('_', ' ')} {m.group('object')}"
        for m in found
    )
    if verdicts:
        if verdicts == {"true"}:
            return {"answer": "yes", "evidence": stated}
        if verdicts == {"false"}:
            # The triple a question assumes, marked false, says it is not so.
            return {"answer": "no", "evidence": f"It is not true that {stated}"}
        return {"answer": None}
    objects = [m.group("object") for m in found]
    if all(o.strip().lower() in _OPEN_OBJECT for o in objects):
        return {"answer": None}
    known = [o for o in objects if o.strip().lower() not in _OPEN_OBJECT]
    return {"answer": known[0] if len(known) == 1 else known}


_FIELD_LINE_OPENINGS = ("answer:", "items:", "status:")
_ESCAPED = re.compile(r"\\(.)")


def _yaml_fields(text: str) -> dict[str, Any] | None:
    """The top-level fields of a block of ``key: value`` lines that opens with an answer
    (``answer:``, ``items:``) or a status line, else None."""
    # A code fence around the block is its wrapper, not a line of it.
    lines = [
        line.rstrip()
        for line in text.strip().splitlines()
        if line.strip() and not line.strip().startswith("```")
    ]
    if not lines or not lines[0].startswith(_FIELD_LINE_OPENINGS):
        return None
    fields: dict[str, Any] = {}
    repeated: set[str] = set()
    key: str | None = None
    for line in lines:
        item = _YAML_ITEM.match(line)
        if item is not None and key is not None:
            listed = fields[key] if isinstance(fields[key], list) else []
            fields[key] = [*listed, item.group("item").strip("'\"")]
            continue
        m = _YAML_LINE.match(line)
        if m is None:
            return None  # not a block of fields: prose after all
        key = m.group("key")
        raw = (m.group("value") or "").strip()
        value = None if raw.lower() in _YAML_NULL else _scalar(raw)
        if fields.get(key) is not None and value is not None:
            # Protocol-buffer text format writes a repeated field once per value
            # ('items: "Ana Ruiz"' over 'items: "Tom Hale"').
            before = fields[key] if key in repeated else [fields[key]]
            fields[key] = [*before, value]
            repeated.add(key)
        else:
            fields[key] = value
    return fields


def _scalar(raw: str) -> str:
    """A field's value as written: without its quotes, and a double-quoted string's escapes
    (``\\'``, ``\\"``) read as the characters they stand for."""
    if len(raw) > 1 and raw[0] == raw[-1] == '"':
        return _ESCAPED.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), raw[1:-1])
    return raw.strip("'\"")


# A Java record's toString(), as a service mapping the reply onto a record prints it:
# "AnswerResult[answer=June 4, 2019, value=null, unit=null, items=[A, B], sources=[2],
# found=true]". A comma before "name=" ends a field; one inside a value ("June 4, 2019") does
# not.
_RECORD = re.compile(r"\s*[A-Z]\w*\[(?P<body>[a-z_]\w*=.*?)\]?\s*", re.DOTALL)
_RECORD_FIELD = re.compile(r",\s+(?=[a-z_]\w*=)")
_RECORD_ANSWERS = ("answer", "value", "items")
_RECORD_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:E-?\d+)?")


# A C# record's compiler-generated ToString(), as a .NET harness writes it with
# Console.WriteLine: "AnswerCard { Answer = June 4, 2019, Items = System.String[], Sources =
# System.Collections.Generic.List`1[System.Int32], Found = True, Caveat =  }". A string
# prints bare and a null as nothing; a collection prints its type's name, so what it held was
# never written.
_CS_RECORD = re.compile(r"\s*[A-Z]\w*\s\{\s(?P<body>[A-Z]\w*\s=.*?)\s*\}?\s*", re.DOTALL)
_CS_FIELD = re.compile(r",\s+(?=[A-Z]\w*\s=(?:\s|$))")
_CS_TYPE_NAME = re.compile(r"System\.[\w.`]+(?:\[[\w.`, \[\]]*\])?")


def _record_fields(text: str) -> dict[str, Any] | None:
    """The fields of a Java or C# record's printout, its first set answer field as the
    answer."""
    fields: dict[str, Any] = {}
    if (m := _RECORD.fullmatch(text)) is not None:
        for part in _RECORD_FIELD.split(m.group("body")):
            name, _, raw = part.partition("=")
            fields[name] = _record_value(raw.strip())
    elif (m := _CS_RECORD.fullmatch(text)) is not None:
        for part in _CS_FIELD.split(m.group("body")):
            name, _, raw = part.partition("=")
            fields[name.strip().lower()] = _cs_record_value(raw.strip())
    else:
        return None
    if not {*_RECORD_ANSWERS, "found"} & fields.keys():
        return None  # a record of something else: "Paris { Capital = France }"
    given = [fields[k] for k in _RECORD_ANSWERS if fields.get(k) not in (None, [])]
    # The answer, a figure (with its unit) or a list: whichever is set; what else is set
    # beside the answer ("answer=Yes, items=[...]") is said beside it.
    found = {k: v for k, v in fields.items() if k not in _RECORD_ANSWERS}
    found["answer"] = given[0] if given else None
    if len(given) > 1:
        found["evidence"] = ", ".join(value_text(v) for v in given[1:])
    return found


def _record_value(raw: str) -> Any:
    if raw == "null":
        return None
    if raw in ("true", "false"):
        return raw == "true"
    if raw.startswith("["):
        inner = raw[1:].removesuffix("]").strip()
        return [item.strip() for item in inner.split(",")] if inner else []
    return _number_text(float(raw)) if _RECORD_NUMBER.fullmatch(raw) else raw


def _cs_record_value(raw: str) -> Any:
    if raw in ("True", "False"):
        return raw == "True"
    if not raw or _CS_TYPE_NAME.fullmatch(raw):
        return None  # a null, or a collection whose items were not printed
    return _number_text(float(raw)) if _RECORD_NUMBER.fullmatch(raw) else raw


# A Ruby hash printed with ``inspect`` (Ruby 3.3 and before): '{:answer=>nil, :items=>["Ines
# Calder", "Rafe Okonjo"], :docs=>[3], :confident=>true, :remark=>nil}'. Symbol keys before
# "=>", nil for no value; strings are written as JSON writes them.
_RUBY_OPENING = re.compile(r'\s*\{\s*(?::[A-Za-z_]\w*|"[^"\n]*")\s*=>')
_RUBY_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|:(?P<symbol>[A-Za-z_]\w*[?!]?)\s*=>|=>|\bnil\b')
_RUBY_ENDINGS = ("", "}", '"}', "]}", '"]}', "null}")


def _ruby_token(m: re.Match[str]) -> str:
    token = m.group(0)
    if token.startswith('"'):
        return token
    if m.group("symbol"):
        return json.dumps(m.group("symbol")) + ":"
    return ":" if token == "=>" else "null"


def _ruby_hash_fields(text: str) -> dict[str, Any] | None:
    """The fields of a Ruby hash's ``inspect`` (the last one cut short where the 75-token
    cut fell), else None."""
    if _RUBY_OPENING.match(text) is None:
        return None
    found = first_parse(_RUBY_TOKEN.sub(_ruby_token, text.strip()), _RUBY_ENDINGS, json.loads)
    return found if isinstance(found, dict) and found else None


# R's console printout of one vector (a pipeline writing capture.output(print(x))):
# '[1] "Ana Ruiz" "Tom Hale"', '[1] 1291', '[1] 8.6e+10', each wrapped line opening with the
# index of its first element ("[4]"); "NULL", or NA, for no value.
_R_LINE = re.compile(r"\s*\[\d+\]\s+(?P<elements>.*?)\s*")
_R_ELEMENT = re.compile(r'"(?P<text>(?:[^"\\]|\\.)*)(?:"|$)|(?P<bare>\S+)')
_R_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?", re.IGNORECASE)
_R_CONSTANTS = frozenset({"NA", "TRUE", "FALSE"})


def _r_vector_fields(text: str) -> dict[str, Any] | None:
    """The elements of an R vector's printout as the answer, else None."""
    body = text.strip()
    if body == "NULL":
        return {"answer": None}
    elements = [_R_LINE.fullmatch(line) for line in body.splitlines()]
    if not elements or any(line is None for line in elements):
        return None
    items: list[str] = []
    for line in filter(None, elements):
        for m in _R_ELEMENT.finditer(line.group("elements")):
            bare = m.group("bare")
            if bare is None:
                items.append(_ESCAPED.sub(lambda e: e.group(1), m.group("text")))
            elif _R_NUMBER.fullmatch(bare):
                items.append(_number_text(float(bare)) if "e" in bare.lower() else bare)
            elif bare not in _R_CONSTANTS:
                return None  # "[1] Paris is the capital.": a citation marker and prose
            elif bare != "NA":
                items.append(bare)
    if not items:
        return {"answer": None}
    return {"answer": items[0] if len(items) == 1 else items}
