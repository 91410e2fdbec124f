"""The KG endpoints as function-calling tools for language models (OpenAI ``tools`` format).

`tool_schemas` lists the tools; `execute_tool_call` / `aexecute_tool_call`
check a model's call (name and JSON arguments) and run it through a client;
`render_result` turns an answer into bounded text for the model's context.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from pydantic import ValidationError

from ragmeter.kg.client import AsyncKGClient, KGClient
from ragmeter.kg.endpoints import BY_NAME, ENDPOINTS, Endpoint
from ragmeter.kg.errors import ToolCallError

DOMAINS = ("open", "movie", "finance", "music", "sports")


def tool_schema(ep: Endpoint) -> dict[str, Any]:
    """The tool definition of one endpoint."""
    return {
        "type": "function",
        "function": {
            "name": ep.name,
            "description": ep.description,
            "parameters": {
                "type": "object",
                "properties": {p.name: p.schema() for p in ep.params},
                "required": [p.name for p in ep.params if p.required],
                "additionalProperties": False,
            },
        },
    }


def tool_schemas(domains: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Tool definitions of every endpoint, or of those of the given domains."""
    wanted = set(DOMAINS if domains is None else domains)
    unknown = wanted - set(DOMAINS)
    if unknown:
        raise ToolCallError(f"unknown KG domains {sorted(unknown)}; known: {', '.join(DOMAINS)}")
    return [tool_schema(ep) for ep in ENDPOINTS if ep.domain in wanted]


def parse_tool_call(
    name: str, arguments: str | Mapping[str, Any] | None
) -> tuple[Endpoint, dict[str, Any] | None]:
    """Check a model's tool call; returns the endpoint and the request body to send."""
    ep = BY_NAME.get(name)
    if ep is None:
        raise ToolCallError(f"unknown tool {name!r}")
    if isinstance(arguments, str):
        try:
            args = orjson.loads(arguments) if arguments.strip() else {}
        except orjson.JSONDecodeError as exc:
            raise ToolCallError(f"{name}: arguments are not valid JSON: {exc}") from exc
    else:
        args = dict(arguments or {})
    if not isinstance(args, dict):
        raise ToolCallError(f"{name}: arguments must be a JSON object")
    known = {p.name for p in ep.params}
    extra = set(args) - known
    if extra:
        raise ToolCallError(f"{name}: unexpected arguments {sorted(extra)}; takes {sorted(known)}")
    if ep.body is None:
        return ep, None
    try:
        body = ep.body.model_validate(args)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()
        )
        raise ToolCallError(f"{name}: {problems}") from exc
    return ep, body.model_dump()


def execute_tool_call(
    client: KGClient, name: str, arguments: str | Mapping[str, Any] | None
) -> Any:
    """Run a model's tool call through a synchronous client; returns the ``result``."""
    ep, body = parse_tool_call(name, arguments)
    return client.call(ep.name, body)


async def aexecute_tool_call(
    client: AsyncKGClient, name: str, arguments: str | Mapping[str, Any] | None
) -> Any:
    """Run a model's tool call through an asynchronous client; returns the ``result``."""
    ep, body = parse_tool_call(name, arguments)
    return await client.call(ep.name, body)


def render_result(result: Any, max_chars: int = 4000) -> str:
    """Compact JSON text of a result, cut to ``max_chars`` with a note saying so."""
    text = orjson.dumps(result, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    if len(text) <= max_chars:
        return text
    return text[:max_chars] + f" …[cut: {len(text)} characters in all]"
