"""The in-process backend: a GGUF model run by llama-cpp-python (extra ``local``).

One loaded model per (file, context size, threads, batch size) is shared by
the whole process: every `LlamaCppLLM` built with the same settings uses it.
A llama.cpp context is not thread-safe, so each loaded model owns a single
worker thread that runs all its calls in turn; async callers await that
thread, so the event loop keeps serving other work (HTTP calls, scoring)
while the model computes.

Prompts are formatted with the GGUF's own chat template. Choice probabilities
come straight from the next-token logits after the formatted prompt.

Each loaded model keeps the KV states of its recent long prompts
(`ragmeter.llm.prefix_states`), so a prompt that starts like an earlier one (a
judge's fixed instructions and examples) reads only its new part, even when
other prompts ran in between.
"""

from __future__ import annotations

import asyncio
import functools
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ragmeter.errors import BackendError, ConfigError, MissingExtraError
from ragmeter.llm.catalog import DEFAULT_MODEL, catalog
from ragmeter.llm.choices import check_choices, normalise, variants
from ragmeter.llm.prefix_states import PrefixStates
from ragmeter.llm.protocol import ChatMessage, ChoiceProbabilities, Completion, GenerationSettings
from ragmeter.llm.weights import Progress, file_sha256, resolve_model
from ragmeter.types import Usage

T = TypeVar("T")


class ContextLengthError(BackendError):
    """The prompt (plus the reply budget) does not fit the model's context window."""


def default_threads() -> int:
    """The cores this process may use (``sched_getaffinity`` where it exists)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


@dataclass
class _LoadedModel:
    """A llama.cpp model with the one thread allowed to touch it."""

    key: tuple[str, int, int, int]
    llama: Any
    executor: ThreadPoolExecutor
    formatter: Any
    n_ctx: int
    prefix: PrefixStates = field(default_factory=lambda: PrefixStates(0))
    users: int = 0
    sha256: str | None = None
    sha_lock: threading.Lock = field(default_factory=threading.Lock)


_LOADED: dict[tuple[str, int, int, int], _LoadedModel] = {}
_LOADED_LOCK = threading.Lock()


def _import_llama() -> Any:
    # llama.cpp's OpenMP workers spin between graph runs by default. When the machine
    # is busier than its cores (other tests, servers, builds), the spinning steals the
    # CPU the computing thread needs: measured 0.7 tok/s spinning against 4 tok/s
    # passive on a loaded 2-core machine. libgomp reads this once, when it loads;
    # a user's own setting wins.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        import llama_cpp
    except ImportError as exc:
        raise MissingExtraError("local", "the llamacpp backend") from exc
    return llama_cpp


def _load(path: Path, n_ctx: int, n_threads: int, n_batch: int) -> _LoadedModel:
    """Load (or reuse) the model for these settings and take one reference to it."""
    key = (str(path.resolve()), n_ctx, n_threads, n_batch)
    with _LOADED_LOCK:
        loaded = _LOADED.get(key)
        if loaded is None:
            llama_cpp = _import_llama()
            from llama_cpp import llama_chat_format

            try:
                llama = llama_cpp.Llama(
                    model_path=str(path),
                    n_ctx=n_ctx,
                    n_threads=n_threads,
                    n_threads_batch=n_threads,
                    n_batch=n_batch,
                    verbose=False,
                )
            except ValueError as exc:  # llama-cpp-python's way of saying "cannot load"
                raise BackendError(f"cannot load model {path}: {exc}") from exc
            template = llama.metadata.get("tokenizer.chat_template")
            formatter = None
            if template:
                # Force the GGUF's own template: the library may otherwise guess a
                # built-in format that differs in details (default system prompts).
                llama.chat_format = "chat_template.default"
                model = llama._model
                eos = llama.token_eos()
                bos = llama.token_bos()
                formatter = llama_chat_format.Jinja2ChatFormatter(
                    template=template,
                    eos_token=model.token_get_text(eos) if eos != -1 else "",
                    bos_token=model.token_get_text(bos) if bos != -1 else "",
                    stop_token_ids=[eos],
                )
            loaded = _LoadedModel(
                key=key,
                llama=llama,
                executor=ThreadPoolExecutor(max_workers=1, thread_name_prefix="llamacpp"),
                formatter=formatter,
                n_ctx=n_ctx,
            )
            _LOADED[key] = loaded
        loaded.users += 1
        return loaded


def _release(loaded: _LoadedModel) -> None:
    """Drop one reference; the last one frees the model."""
    with _LOADED_LOCK:
        loaded.users -= 1
        if loaded.users > 0 or _LOADED.get(loaded.key) is not loaded:
            return
        del _LOADED[loaded.key]
    loaded.executor.submit(loaded.llama.close).result()
    loaded.executor.shutdown(wait=True)


def loaded_models() -> int:
    """How many models this process holds in memory (for tests and diagnostics)."""
    with _LOADED_LOCK:
        return len(_LOADED)


def _recurrent(llama: Any) -> bool:
    """Recurrent and hybrid models keep no per-token KV cache to reuse or restore."""
    return bool(getattr(llama, "_is_recurrent", False) or getattr(llama, "_is_hybrid", False))


def _log_softmax(logits: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    shifted: npt.NDArray[np.float64] = logits - logits.max()
    return shifted - math.log(float(np.exp(shifted).sum()))


class LlamaCppLLM:
    """A local GGUF model behind the `ragmeter.llm.LLM` protocol.

    ``model`` is a catalog name (installed on first use) or a ``.gguf`` path.
    ``n_ctx`` defaults to the catalog's context size (4096 for other files),
    ``n_threads`` to the cores this process may use.
    """

    kind = "llamacpp"

    def __init__(
        self,
        model: str | Path = DEFAULT_MODEL,
        *,
        n_ctx: int | None = None,
        n_threads: int | None = None,
        n_batch: int = 512,
        prefix_cache_mb: int = 256,
        progress: Progress | None = None,
    ):
        name = str(model)
        spec = catalog().get(name)
        if n_ctx is not None and n_ctx < 64:
            raise ConfigError(f"n_ctx must be at least 64, got {n_ctx}")
        if n_threads is not None and n_threads < 1:
            raise ConfigError(f"n_threads must be at least 1, got {n_threads}")
        if prefix_cache_mb < 0:
            raise ConfigError(f"prefix_cache_mb must be 0 or more, got {prefix_cache_mb}")
        self.model_name = name
        self.path = resolve_model(name, progress=progress)
        self.n_ctx = n_ctx or (spec.context_length if spec else 4096)
        self.n_threads = n_threads or default_threads()
        self._loaded: _LoadedModel | None = _load(
            self.path, self.n_ctx, self.n_threads, max(1, n_batch)
        )
        if spec is not None:
            self._loaded.sha256 = spec.sha256
        # The store is the loaded model's, shared by its handles: the largest request wins.
        store = self._loaded.prefix
        store.capacity_bytes = max(store.capacity_bytes, prefix_cache_mb << 20)

    def __repr__(self) -> str:
        return f"LlamaCppLLM({self.model_name!r}, n_ctx={self.n_ctx}, n_threads={self.n_threads})"

    @property
    def _model(self) -> _LoadedModel:
        if self._loaded is None:
            raise BackendError(f"{self!r} is closed")
        return self._loaded

    @property
    def identity(self) -> str:
        """``llamacpp:sha256:<hex>`` of the weights (hashed once per file, then remembered)."""
        m = self._model
        with m.sha_lock:
            if m.sha256 is None:
                m.sha256 = file_sha256(self.path)
        return f"llamacpp:sha256:{m.sha256}"

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._model.executor, functools.partial(fn, *args))

    # ------------------------------------------------------------------ generation

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        """Generate one reply with the GGUF's chat template."""
        return await self._run(self._generate_sync, list(messages), settings)

    def _generate_sync(
        self, messages: list[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        llama = self._model.llama
        kwargs: dict[str, Any] = {
            "messages": [m.model_dump() for m in messages],
            "max_tokens": settings.max_tokens,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
            # OpenAI semantics: no hidden top-k / min-p truncation on top of top-p.
            "top_k": 0,
            "min_p": 0.0,
            "stop": list(settings.stop),
            "seed": settings.seed,
        }
        if settings.json_output:
            kwargs["response_format"] = {"type": "json_object"}
        start = time.perf_counter()
        store = self._model.prefix
        use_store = bool(store.capacity_bytes) and not _recurrent(llama)
        try:
            if use_store and self._model.formatter is not None:
                # The library reuses whatever prefix the context holds: give it the best one.
                store.prepare(llama, self.prompt_tokens(messages))
            out = llama.create_chat_completion(**kwargs)
            if use_store:
                store.save(llama)
        except ValueError as exc:
            if "context window" in str(exc):
                raise ContextLengthError(f"{self.model_name}: {exc}") from exc
            raise BackendError(f"{self.model_name}: {exc}") from exc
        choice = out["choices"][0]
        text = choice["message"].get("content") or ""
        logprobs = self._text_logprobs(messages, text) if settings.logprobs else None
        latency = time.perf_counter() - start
        usage = out.get("usage") or {}
        return Completion(
            text=text,
            logprobs=logprobs,
            finish_reason=choice.get("finish_reason"),
            usage=Usage(
                prompt_tokens=int(usage.get("prompt_tokens", 0)),
                completion_tokens=int(usage.get("completion_tokens", 0)),
            ),
            latency_s=latency,
        )

    # ------------------------------------------------------------------ choices

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        """Probability that the reply starts with each choice, from the model's logits."""
        cleaned = check_choices(choices)
        return await self._run(self._choices_sync, list(messages), cleaned)

    def prompt_tokens(self, messages: Sequence[ChatMessage]) -> list[int]:
        """The token ids of ``messages`` formatted for a reply (chat template applied)."""
        m = self._model
        if m.formatter is None:
            raise ConfigError(f"{self.path} has no chat template: cannot score choices")
        result = m.formatter(messages=[msg.model_dump() for msg in messages])
        tokens: list[int] = m.llama.tokenize(
            result.prompt.encode("utf-8"), add_bos=not result.added_special, special=True
        )
        return tokens

    def _last_logits(self) -> npt.NDArray[np.float64]:
        m = self._model
        ptr = m.llama._ctx.get_logits_ith(-1)
        row = np.ctypeslib.as_array(ptr, shape=(m.llama.n_vocab(),))
        return row.astype(np.float64)

    def _eval_prompt(self, tokens: list[int]) -> npt.NDArray[np.float64]:
        """Evaluate ``tokens``, reusing the longest prefix already in the KV cache."""
        llama = self._model.llama
        if len(tokens) >= self._model.n_ctx:
            raise ContextLengthError(
                f"{self.model_name}: prompt of {len(tokens)} tokens does not fit "
                f"the context window of {self._model.n_ctx}"
            )
        keep = 0
        recurrent = _recurrent(llama)
        store = self._model.prefix
        if not recurrent:
            keep = store.prepare(llama, tokens)
        # Always evaluate at least one token so the logits belong to this prompt.
        keep = min(keep, len(tokens) - 1)
        if keep == 0:
            llama.reset()
        llama.n_tokens = keep
        llama.eval(tokens[keep:])
        if not recurrent:
            store.save(llama)
        return _log_softmax(self._last_logits())

    def _choices_sync(self, messages: list[ChatMessage], choices: list[str]) -> ChoiceProbabilities:
        llama = self._model.llama
        prompt = self.prompt_tokens(messages)
        first = self._eval_prompt(prompt)
        raw: dict[str, float] = {}
        for choice in choices:
            seen: set[tuple[int, ...]] = set()
            mass = 0.0
            for spelling in variants(choice):
                seq = tuple(llama.tokenize(spelling.encode("utf-8"), add_bos=False, special=False))
                if not seq or seq in seen:
                    continue
                seen.add(seq)
                mass += math.exp(self._sequence_logprob(prompt, first, seq))
            raw[choice] = mass
        probs, total = normalise(raw)
        return ChoiceProbabilities(
            probs=probs,
            method="logits",
            mass=total,
            usage=Usage(prompt_tokens=len(prompt)),
        )

    def _text_logprobs(self, messages: list[ChatMessage], text: str) -> list[float]:
        """Log-probability of each token of ``text`` as the reply to ``messages``.

        The library keeps only the last position's logits, so the reply is read again one
        token at a time after its prompt (whose keys and values the context still holds).
        """
        llama = self._model.llama
        seq = llama.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        if not seq:
            return []
        prompt = self.prompt_tokens(messages)
        if len(prompt) + len(seq) >= self._model.n_ctx:
            return []
        logits = self._eval_prompt(prompt)
        out = [float(logits[seq[0]])]
        for i in range(1, len(seq)):
            llama.eval([seq[i - 1]])
            out.append(float(_log_softmax(self._last_logits())[seq[i]]))
        return out

    def _sequence_logprob(
        self, prompt: list[int], first: npt.NDArray[np.float64], seq: tuple[int, ...]
    ) -> float:
        """log P(seq | prompt): the first token from ``first``, the rest by evaluating on."""
        total = float(first[seq[0]])
        if len(seq) == 1:
            return total
        llama = self._model.llama
        if len(prompt) + len(seq) >= self._model.n_ctx:
            raise ContextLengthError(f"{self.model_name}: prompt plus choice exceed the context")
        llama.n_tokens = len(prompt)  # drop any earlier continuation from the KV cache
        for i in range(1, len(seq)):
            llama.eval([seq[i - 1]])
            total += float(_log_softmax(self._last_logits())[seq[i]])
        return total

    async def aclose(self) -> None:
        """Release this handle; the model is freed when its last handle closes."""
        loaded, self._loaded = self._loaded, None
        if loaded is not None:
            await asyncio.get_running_loop().run_in_executor(None, _release, loaded)
