"""The HTTP backend: any OpenAI-compatible chat server (vLLM, llama.cpp, Ollama, hosted APIs).

Requests go through one `httpx.AsyncClient` per event loop, at most
``concurrency`` at a time. Every attempt has a connect timeout and an overall
timeout (so a server that stalls, or trickles bytes, cannot hang a run).
429, 5xx, timeouts and dropped connections are retried with exponential
backoff and jitter, honouring ``Retry-After``, until ``max_retries`` or the
``retry_budget_s`` of waiting is spent; then, and on any other error status, a
`BackendError` carries the server's own message.
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import os
import random
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from ragmeter.errors import BackendError, ConfigError
from ragmeter.llm.choices import check_choices, normalise, parse_verdict, variants
from ragmeter.llm.protocol import ChatMessage, ChoiceProbabilities, Completion, GenerationSettings
from ragmeter.types import Usage

DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524, 529})
"""Statuses worth another try: rate limits, overload, gateway trouble, conflicts."""
TOP_LOGPROBS = 20
"""The most alternatives OpenAI's API returns per position."""
_VERDICT_TOKENS = 16


class HTTPBackendError(BackendError):
    """The server answered with an error status (after retries where they apply)."""

    def __init__(self, message: str, status: int | None = None, server_message: str = ""):
        self.status = status
        self.server_message = server_message
        super().__init__(message)


def server_message(resp: httpx.Response) -> str:
    """The human message in an error response (OpenAI ``error.message``, FastAPI ``detail``...)."""
    try:
        body = resp.json()
    except ValueError:
        return resp.text.strip()[:500] or resp.reason_phrase
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:500]
        if isinstance(err, str):
            return err[:500]
        for key in ("detail", "message"):
            if body.get(key):
                return str(body[key])[:500]
    return str(body)[:500]


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Parse ``Retry-After`` (seconds or an HTTP date) into seconds to wait, or None."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - (now if now is not None else time.time())
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)


@dataclass
class _LoopState:
    client: httpx.AsyncClient
    limit: asyncio.Semaphore


class OpenAICompatLLM:
    """A chat model behind an OpenAI-compatible ``/chat/completions`` endpoint.

    ``api_key`` defaults to the environment variable named by ``api_key_env``
    (``RAGMETER_API_KEY``, then ``OPENAI_API_KEY``); local servers need none.
    ``logprobs`` None means "use them when the server offers them", False never
    asks for them (choice probabilities then come from a parsed verdict).
    """

    kind = "openai"

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        api_key_env: str | None = None,
        concurrency: int = 8,
        connect_timeout_s: float = 10.0,
        timeout_s: float = 300.0,
        max_retries: int = 6,
        retry_budget_s: float = 120.0,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        logprobs: bool | None = None,
        extra_body: dict[str, Any] | None = None,
    ):
        if not model:
            raise ConfigError("the openai backend needs a model name: openai:MODEL@BASE_URL")
        if concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, got {concurrency}")
        if min(connect_timeout_s, timeout_s) <= 0:
            raise ConfigError("timeouts must be positive")
        if max_retries < 0 or retry_budget_s < 0:
            raise ConfigError("max_retries and retry_budget_s must not be negative")
        url = (base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        if not url.startswith(("http://", "https://")):
            raise ConfigError(f"base URL must start with http:// or https://, got {url!r}")
        self.model = model
        self.base_url = url
        if api_key is None:
            names = [api_key_env] if api_key_env else ["RAGMETER_API_KEY", "OPENAI_API_KEY"]
            api_key = next((os.environ[n] for n in names if os.environ.get(n)), None)
        self._api_key = api_key
        self.concurrency = concurrency
        self.connect_timeout_s = connect_timeout_s
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.retry_budget_s = retry_budget_s
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.logprobs = logprobs
        self.extra_body = dict(extra_body or {})
        self.retries = 0
        """Attempts repeated so far (for reports and tests)."""
        self.usage = Usage()
        """Tokens used by this backend so far, as reported by the server."""
        self._states: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState] = (
            weakref.WeakKeyDictionary()
        )

    def __repr__(self) -> str:
        return f"OpenAICompatLLM({self.model!r}, {self.base_url!r})"

    @property
    def identity(self) -> str:
        """``openai:<base URL>|<model>``: what the server serves under that name."""
        return f"openai:{self.base_url}|{self.model}"

    def _state(self) -> _LoopState:
        # httpx clients and semaphores belong to one event loop; callers may use several
        # (each asyncio.run makes a new one), so keep one of each per loop.
        loop = asyncio.get_running_loop()
        state = self._states.get(loop)
        if state is None:
            headers = {"Content-Type": "application/json"}
            if self._api_key:
                headers["Authorization"] = f"Bearer {self._api_key}"
            timeout = httpx.Timeout(self.timeout_s, connect=self.connect_timeout_s)
            limits = httpx.Limits(
                max_connections=self.concurrency, max_keepalive_connections=self.concurrency
            )
            client = httpx.AsyncClient(
                base_url=self.base_url, headers=headers, timeout=timeout, limits=limits
            )
            state = _LoopState(client=client, limit=asyncio.Semaphore(self.concurrency))
            self._states[loop] = state
        return state

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with equal jitter: half fixed, half random."""
        cap = min(self.backoff_max_s, self.backoff_base_s * 2.0 ** (attempt - 1))
        return cap / 2 + random.uniform(0.0, cap / 2)

    async def _post(self, payload: dict[str, Any]) -> dict[str, Any]:
        """POST ``/chat/completions`` with retries; the parsed JSON body."""
        state = self._state()
        spent = 0.0
        attempt = 0
        async with state.limit:
            while True:
                attempt += 1
                retry_after: float | None = None
                try:
                    resp = await asyncio.wait_for(
                        state.client.post("/chat/completions", json=payload), self.timeout_s
                    )
                except (TimeoutError, httpx.TimeoutException):
                    reason = f"no reply within {self.timeout_s:g}s"
                except httpx.TransportError as exc:
                    reason = f"connection failed: {type(exc).__name__}: {exc}".rstrip(": ")
                else:
                    if resp.status_code == 200:
                        try:
                            body = resp.json()
                        except ValueError:
                            reason = "invalid JSON in a 200 reply (truncated?)"
                        else:
                            if isinstance(body, dict) and body.get("choices"):
                                return dict(body)
                            reason = f"reply without choices: {str(body)[:200]}"
                    else:
                        message = server_message(resp)
                        reason = f"HTTP {resp.status_code}: {message}"
                        if resp.status_code not in RETRY_STATUSES:
                            raise HTTPBackendError(
                                f"{self.base_url} ({self.model}) {reason}",
                                status=resp.status_code,
                                server_message=message,
                            )
                        retry_after = retry_after_seconds(resp.headers.get("Retry-After"))
                if attempt > self.max_retries:
                    raise HTTPBackendError(
                        f"{self.base_url} ({self.model}) failed after {attempt} "
                        f"attempt{'s' if attempt > 1 else ''}: {reason}"
                    )
                if retry_after is not None:
                    # The server said when; add a little jitter so clients do not return together.
                    delay = retry_after + random.uniform(0.0, min(1.0, 0.1 * retry_after + 0.05))
                else:
                    delay = self._backoff(attempt)
                if spent + delay > self.retry_budget_s:
                    raise HTTPBackendError(
                        f"{self.base_url} ({self.model}) gave up: waiting {delay:.1f}s more would "
                        f"exceed the retry budget of {self.retry_budget_s:g}s "
                        f"after {attempt} attempts; last error: {reason}"
                    )
                spent += delay
                self.retries += 1
                await asyncio.sleep(delay)

    def _payload(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            **self.extra_body,
            "model": self.model,
            "messages": [m.model_dump() for m in messages],
            "max_tokens": settings.max_tokens,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
        }
        if settings.stop:
            payload["stop"] = list(settings.stop)
        if settings.seed is not None:
            payload["seed"] = settings.seed
        if settings.json_output:
            payload["response_format"] = {"type": "json_object"}
        return payload

    def _usage(self, body: dict[str, Any]) -> Usage:
        raw = body.get("usage") or {}
        usage = Usage(
            prompt_tokens=int(raw.get("prompt_tokens") or 0),
            completion_tokens=int(raw.get("completion_tokens") or 0),
        )
        self.usage = self.usage + usage
        return usage

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        """Generate one reply; latency covers retries (what the caller waited)."""
        start = time.perf_counter()
        payload = self._payload(messages, settings)
        if settings.logprobs and self.logprobs is not False:
            payload["logprobs"] = True
            # Some servers (llama-cpp-python's) send log-probabilities only with alternatives.
            payload["top_logprobs"] = 1
        body = await self._post(payload)
        choice = body["choices"][0]
        message = choice.get("message") or {}
        return Completion(
            text=message.get("content") or "",
            logprobs=_token_logprobs(choice) if settings.logprobs else None,
            finish_reason=choice.get("finish_reason"),
            usage=self._usage(body),
            latency_s=time.perf_counter() - start,
        )

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        """From the first token's ``top_logprobs`` when offered, else a parsed verdict.

        A listed token counts for a choice when it is one of the choice's
        spellings (surrounding spaces ignored) or, for a choice the tokenizer
        splits, a prefix (two characters or more) of that choice alone.
        """
        cleaned = check_choices(choices)
        if self.logprobs is not False:
            settings = GenerationSettings(max_tokens=1, temperature=0.0)
            payload = self._payload(messages, settings)
            payload["logprobs"] = True
            payload["top_logprobs"] = TOP_LOGPROBS
            try:
                body = await self._post(payload)
            except HTTPBackendError as exc:
                # A server that rejects the parameter (400/422) or cannot do it (501): fall back.
                if self.logprobs is None and exc.status in (400, 422, 501):
                    self.logprobs = False
                    return await self._parsed(messages, cleaned)
                raise
            top = _first_top_logprobs(body)
            if top is None:
                if self.logprobs is None:
                    self.logprobs = False  # the server ignores the parameter: stop asking
                return await self._parsed(messages, cleaned, usage=self._usage(body))
            raw = _masses(top, cleaned)
            if sum(raw.values()) > 0.0:
                probs, total = normalise(raw)
                return ChoiceProbabilities(
                    probs=probs, method="logprobs", mass=total, usage=self._usage(body)
                )
            # None of the choices is among the top alternatives: let the model say it in words.
            return await self._parsed(messages, cleaned, usage=self._usage(body))
        return await self._parsed(messages, cleaned)

    async def _parsed(
        self, messages: Sequence[ChatMessage], choices: list[str], usage: Usage | None = None
    ) -> ChoiceProbabilities:
        reply = await self.generate(
            messages, GenerationSettings(max_tokens=_VERDICT_TOKENS, temperature=0.0)
        )
        verdict = parse_verdict(reply.text, choices)
        return ChoiceProbabilities(
            probs={c: 1.0 if c == verdict else 0.0 for c in choices},
            method="parsed",
            reply=reply.text,
            usage=(usage or Usage()) + reply.usage,
        )

    async def aclose(self) -> None:
        """Close the HTTP client of the running event loop (others close with their loop)."""
        loop = asyncio.get_running_loop()
        state = self._states.pop(loop, None)
        if state is not None:
            await state.client.aclose()


def _first_top_logprobs(body: dict[str, Any]) -> list[tuple[str, float]] | None:
    """(token, logprob) alternatives for the first generated token, if the server sent them."""
    logprobs = body["choices"][0].get("logprobs")
    if not isinstance(logprobs, dict):
        return None
    content = logprobs.get("content")
    if not content or not isinstance(content, list):
        return None
    first = content[0]
    alternatives = first.get("top_logprobs") or []
    pairs = [(str(a["token"]), float(a["logprob"])) for a in alternatives if "token" in a]
    if not pairs and "token" in first:
        pairs = [(str(first["token"]), float(first["logprob"]))]
    return pairs or None


def _masses(top: list[tuple[str, float]], choices: list[str]) -> dict[str, float]:
    """Probability mass of the listed first tokens per choice."""
    raw = dict.fromkeys(choices, 0.0)
    spellings = {c: set(variants(c)) for c in choices}
    seen: set[str] = set()
    for token, logprob in top:
        if token in seen or not math.isfinite(logprob):
            continue
        seen.add(token)
        word = token.strip()
        exact = [c for c in choices if word in spellings[c]]
        if exact:
            raw[exact[0]] += math.exp(logprob)
            continue
        low = word.lower()
        if len(low) >= 2:
            owners = [c for c in choices if c.lower().startswith(low) and c.lower() != low]
            if len(owners) == 1:
                raw[owners[0]] += math.exp(logprob)
    return raw


def _token_logprobs(choice: dict[str, Any]) -> list[float] | None:
    """The generated tokens' log-probabilities of a chat choice (None when not given)."""
    content = (choice.get("logprobs") or {}).get("content")
    if not isinstance(content, list):
        return None
    out = []
    for item in content:
        value = item.get("logprob") if isinstance(item, dict) else None
        if not isinstance(value, int | float):
            return None
        out.append(float(value))
    return out
