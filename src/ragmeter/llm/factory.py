"""Create an LLM from a short spec string: ``load_llm("local")``.

Specs:

- ``local``: the in-process default model (`ragmeter.llm.catalog.DEFAULT_MODEL`);
- ``llamacpp:NAME_OR_PATH``: a catalog model or a ``.gguf`` file, in process;
- ``openai:MODEL@BASE_URL``: an OpenAI-compatible server (``openai:MODEL`` uses
  ``OPENAI_BASE_URL`` or OpenAI's own API).

Backends live in the ``llm_backends`` registry, so a plugin can add a kind
(entry-point group ``ragmeter.llm_backends``): a factory called as
``factory(argument_or_None, **options)`` that returns an `LLM`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ragmeter.errors import ConfigError
from ragmeter.llm.catalog import DEFAULT_MODEL
from ragmeter.llm.protocol import LLM
from ragmeter.registry import Registry

BackendFactory = Callable[..., LLM]
LLM_BACKENDS: Registry[BackendFactory] = Registry("llm_backends")


def _check_options(cls: Any, options: dict[str, Any], spec: str) -> None:
    params = inspect.signature(cls).parameters
    unknown = sorted(set(options) - set(params))
    if unknown:
        allowed = ", ".join(p for p in params if params[p].kind is inspect.Parameter.KEYWORD_ONLY)
        raise ConfigError(f"unknown option(s) {', '.join(unknown)} for '{spec}' (known: {allowed})")


@LLM_BACKENDS.provides("llamacpp")
def _llamacpp(argument: str | None, **options: Any) -> LLM:
    """In-process llama.cpp: ``llamacpp:NAME_OR_PATH``."""
    from ragmeter.llm.llamacpp import LlamaCppLLM

    _check_options(LlamaCppLLM, options, "llamacpp")
    return LlamaCppLLM(argument or DEFAULT_MODEL, **options)


@LLM_BACKENDS.provides("local")
def _local(argument: str | None, **options: Any) -> LLM:
    """The default local model (``local``), or ``local:NAME_OR_PATH`` like ``llamacpp:``."""
    return _llamacpp(argument, **options)


@LLM_BACKENDS.provides("openai")
def _openai(argument: str | None, **options: Any) -> LLM:
    """An OpenAI-compatible server: ``openai:MODEL@BASE_URL`` or ``openai:MODEL``."""
    from ragmeter.llm.openai_compat import OpenAICompatLLM

    if not argument:
        raise ConfigError("the openai backend needs a model: openai:MODEL@BASE_URL")
    model, at, base_url = argument.partition("@")
    if at and not base_url:
        raise ConfigError(f"empty base URL in 'openai:{argument}'")
    _check_options(OpenAICompatLLM, options, "openai")
    return OpenAICompatLLM(model, base_url or None, **options)


def parse_spec(spec: str) -> tuple[str, str | None]:
    """Split ``KIND:ARGUMENT`` (a bare existing path or catalog name means ``llamacpp``)."""
    spec = spec.strip()
    if not spec:
        raise ConfigError("empty LLM spec (try 'local', 'llamacpp:NAME' or 'openai:MODEL@URL')")
    kind, colon, argument = spec.partition(":")
    if colon and kind in LLM_BACKENDS:
        return kind, argument or None
    if not colon and kind in LLM_BACKENDS:
        return kind, None
    if Path(spec).suffix == ".gguf":
        return "llamacpp", spec
    from ragmeter.llm.catalog import catalog

    if spec in catalog():
        return "llamacpp", spec
    LLM_BACKENDS.get(kind)  # raises with the known kinds and close names
    raise ConfigError(f"cannot read LLM spec '{spec}'")


def load_llm(spec: str = "local", *, cache: Any = False, **options: Any) -> LLM:
    """An `LLM` for ``spec`` (see the module doc); ``options`` go to the backend.

    ``cache`` wraps the backend in the persistent response cache: True for the
    user cache (`ragmeter.llm.paths.response_cache_path`), a path for another
    SQLite file, or a `ragmeter.llm.cache.ResponseCache` to share. In-process
    models are loaded once per (file, settings) and shared by every caller.
    """
    kind, argument = parse_spec(spec)
    llm = LLM_BACKENDS.get(kind)(argument, **options)
    if cache is False or cache is None:
        return llm
    from ragmeter.llm.cache import CachedLLM, ResponseCache

    if cache is True:
        store = ResponseCache()
    elif isinstance(cache, ResponseCache):
        store = cache
    elif isinstance(cache, str | Path):
        store = ResponseCache(Path(cache))
    else:
        raise ConfigError(f"cache must be a bool, a path or a ResponseCache, got {cache!r}")
    return CachedLLM(llm, store)
