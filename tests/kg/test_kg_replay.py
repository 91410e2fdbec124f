"""Every recorded call of the official API, replayed against our server on the fixture KG."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from kg_helpers import canonical, contains_recorded, same_set

from ragmeter.kg.client import AsyncKGClient, KGClient
from ragmeter.kg.endpoints import BY_NAME
from ragmeter.kg.fixture import RecordedCall
from ragmeter.kg.graph import KnowledgeGraph
from ragmeter.kg.payload import plain


def mismatch(call: RecordedCall, served: Any) -> str | None:
    """Why ``served`` does not answer ``call`` as recorded (None if it does)."""
    ep = BY_NAME[call.function]
    if call.display_truncated:
        ok = contains_recorded(served, call.result)
    elif ep.ranked:
        ok = same_set(served, call.result)
    else:
        ok = canonical(served) == canonical(call.result)
    return None if ok else f"{call.function}{tuple(call.args)}: served {str(served)[:200]}"


def body_of(call: RecordedCall) -> dict[str, Any] | None:
    """The request body the official client sends for a recorded call."""
    ep = BY_NAME[call.function]
    if ep.body is None:
        return None
    fields = list(ep.body.model_fields)
    body = dict.fromkeys(fields)
    body.update(zip(fields, call.args, strict=False))
    return body


def test_recording_covers_every_domain(recorded_calls: list[RecordedCall]) -> None:
    assert len(recorded_calls) == 40
    assert {BY_NAME[c.function].domain for c in recorded_calls} == {
        "open",
        "movie",
        "finance",
        "music",
        "sports",
    }
    assert sum(c.display_truncated for c in recorded_calls) == 2
    assert any(BY_NAME[c.function].ranked for c in recorded_calls)


@pytest.mark.server
def test_every_recorded_call_through_the_client(
    kg_server: str, recorded_calls: list[RecordedCall]
) -> None:
    with KGClient(kg_server) as client:
        problems = [mismatch(c, getattr(client, c.function)(*c.args)) for c in recorded_calls]
    assert [p for p in problems if p] == []


@pytest.mark.server
def test_every_recorded_call_as_raw_http(
    kg_server: str, recorded_calls: list[RecordedCall]
) -> None:
    problems = []
    with httpx.Client(base_url=kg_server) as http:
        for call in recorded_calls:
            response = http.post(BY_NAME[call.function].path, json=body_of(call))
            assert response.status_code == 200, response.text
            assert response.headers["content-type"] == "application/json"
            answer = response.json()
            assert list(answer) == ["result"]
            problems.append(mismatch(call, answer["result"]))
    assert [p for p in problems if p] == []


@pytest.mark.server
def test_every_recorded_call_at_once_through_the_async_client(
    kg_server: str, recorded_calls: list[RecordedCall]
) -> None:
    async def replay() -> list[Any]:
        async with AsyncKGClient(kg_server) as client:
            return await asyncio.gather(
                *(getattr(client, c.function)(*c.args) for c in recorded_calls)
            )

    served = asyncio.run(replay())
    problems = [mismatch(c, s) for c, s in zip(recorded_calls, served, strict=True)]
    assert [p for p in problems if p] == []


def test_in_place_conversion_answers_every_recorded_call(
    official_kg: Path, tmp_path: Path, recorded_calls: list[RecordedCall]
) -> None:
    """``kg convert SRC SRC`` writes the safe twins beside the pickles; the stores use them."""
    import shutil

    from ragmeter.kg.convert import convert_kg

    kg_dir = tmp_path / "kg"
    shutil.copytree(official_kg, kg_dir)
    convert_kg(kg_dir, kg_dir, trust_pickle=True)
    graph = KnowledgeGraph(kg_dir)
    problems = []
    for call in recorded_calls:
        ep = BY_NAME[call.function]
        body = None if ep.body is None else ep.body.model_validate(body_of(call))
        problems.append(mismatch(call, plain(graph.call(call.function, body))))
    assert [p for p in problems if p] == []
    assert set(graph.status().values()) == {"loaded"}
