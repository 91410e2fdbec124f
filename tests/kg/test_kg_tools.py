"""Function-calling tools over the KG endpoints: schemas, argument checks, execution."""

from __future__ import annotations

import asyncio
import re

import pytest

from ragmeter.kg.client import AsyncKGClient, KGClient
from ragmeter.kg.endpoints import BY_NAME, ENDPOINTS
from ragmeter.kg.errors import ToolCallError
from ragmeter.kg.tools import (
    aexecute_tool_call,
    execute_tool_call,
    parse_tool_call,
    render_result,
    tool_schemas,
)


def test_one_tool_per_endpoint_in_the_openai_format() -> None:
    tools = tool_schemas()
    assert len(tools) == len(ENDPOINTS) == 38
    for tool in tools:
        assert tool["type"] == "function"
        fn = tool["function"]
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", fn["name"])
        assert fn["description"]
        params = fn["parameters"]
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert set(params["required"]) <= set(params["properties"])
        body = BY_NAME[fn["name"]].body
        assert set(params["properties"]) == (set(body.model_fields) if body else set())
        for prop in params["properties"].values():
            assert prop["type"] in {"string", "integer", "array"} and prop["description"]


def test_tools_can_be_limited_to_domains() -> None:
    names = {t["function"]["name"] for t in tool_schemas(["finance", "sports"])}
    assert len(names) == 9 + 3
    assert all(n.startswith(("finance_", "sports_")) for n in names)
    with pytest.raises(ToolCallError, match="unknown KG domains"):
        tool_schemas(["weather"])


@pytest.mark.parametrize(
    ("name", "arguments", "match"),
    [
        ("finance_get_weather", "{}", "unknown tool"),
        ("finance_get_eps", "{query: META}", "not valid JSON"),
        ("finance_get_eps", "[1]", "JSON object"),
        ("finance_get_eps", '{"ticker": "META"}', "unexpected arguments"),
        ("finance_get_eps", "{}", "query: Field required"),
        ("finance_get_eps", '{"query": 3}', "query: Input should be a valid string"),
        ("music_get_billboard_rank_date", '{"rank": "first"}', "rank"),
    ],
)
def test_bad_tool_calls_are_explained(name: str, arguments: str, match: str) -> None:
    with pytest.raises(ToolCallError, match=match):
        parse_tool_call(name, arguments)


def test_tool_arguments_become_request_bodies() -> None:
    ep, body = parse_tool_call("music_grammy_get_best_artist_by_year", '{"query": "1998"}')
    assert ep.path == "/music/grammy_get_best_artist_by_year" and body == {"query": 1998}
    _, body = parse_tool_call("music_get_billboard_rank_date", {"rank": 1})
    assert body == {"rank": 1, "date": None}
    assert parse_tool_call("music_grammy_get_all_awarded_artists", "")[1] is None


def test_render_result_is_bounded() -> None:
    assert render_result({"a": [1, 2]}) == '{"a":[1,2]}'
    text = render_result(list(range(10_000)), max_chars=100)
    assert text.startswith("[0,1,2") and "cut" in text and len(text) < 150


@pytest.mark.server
def test_tool_calls_run_through_both_clients(kg_server: str) -> None:
    name, args = (
        "finance_get_ticker_by_name",
        '{"query": "Inflection Point Acquisition Corp. II Unit"}',
    )
    with KGClient(kg_server) as client:
        assert execute_tool_call(client, name, args) == "IPXXU"
        assert (
            execute_tool_call(client, "music_grammy_get_all_awarded_artists", "{}")[0]
            == "Billie Eilish"
        )

    async def run() -> object:
        async with AsyncKGClient(kg_server) as client:
            return await aexecute_tool_call(client, "music_get_members", {"query": "Maroon 5"})

    assert "Adam Levine" in asyncio.run(run())  # type: ignore[operator]
