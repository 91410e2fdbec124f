"""Saved KV states of recent prompts, so a prompt that starts like an earlier one skips its start.

A llama.cpp context keeps the KV cache of one token sequence: the prompt it read
last. Runs interleave different prompts on the same model (answer, judge,
answer, judge ...), so the judge's long fixed start (instructions and examples)
would be read again for every verdict. This store keeps the KV state of recent
long prompts (llama.cpp's per-sequence state: the keys and values only, about
28 KB a token for a 1.5B model) and, before a call, puts back the saved state
that shares the longest start with the new prompt when that beats what the
context already holds. The library then reads only the rest of the prompt.

The saved keys and values are the ones the model computed for those very
tokens, and at least one token is always read afresh so the logits belong to the
new prompt. Those logits can differ in the last digits from a full read (llama.cpp
picks its kernels by batch size), exactly as when the library reuses the prefix the
context already holds; measured on a judge prompt: the same replies, choice
probabilities within 0.01, and 2.7 times faster with other prompts in between.

Every method must run on the model's own thread (a context is not thread-safe).
"""

from __future__ import annotations

import ctypes
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["PrefixStates", "common_prefix"]

_SEQ = 0
"""llama-cpp-python's high-level API keeps every prompt in sequence 0."""


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading tokens ``a`` and ``b`` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class PrefixStates:
    """A least-recently-used store of KV states keyed by the tokens they hold."""

    def __init__(self, capacity_bytes: int, min_tokens: int = 256, min_gain: int = 64):
        self.capacity_bytes = capacity_bytes
        self.min_tokens = min_tokens
        """Shorter prompts are not saved: reading them again is cheap."""
        self.min_gain = min_gain
        """A state is put back only when it saves at least this many tokens of reading."""
        self._states: OrderedDict[tuple[int, ...], bytes] = OrderedDict()
        self._bytes = 0
        self.restored = 0
        self.tokens_saved = 0

    def __len__(self) -> int:
        return len(self._states)

    @property
    def size_bytes(self) -> int:
        """Bytes held by the saved states."""
        return self._bytes

    def prepare(self, llama: Any, tokens: Sequence[int]) -> int:
        """Before reading ``tokens``: put back the best saved state if it beats the context's.

        Returns the number of leading tokens the context now holds in common with ``tokens``.
        """
        held = common_prefix(llama.input_ids[: llama.n_tokens], tokens)
        best_key: tuple[int, ...] | None = None
        best = held
        for key in self._states:
            n = common_prefix(key, tokens)
            if n > best:
                best, best_key = n, key
        if best_key is None or best - held < self.min_gain:
            return held
        data = self._states[best_key]
        self._states.move_to_end(best_key)
        buf = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
        llama_cpp = _bindings()
        if llama_cpp.llama_state_seq_set_data(llama._ctx.ctx, buf, len(data), _SEQ) == 0:
            # The context refused the state (it has no room): start from scratch.
            llama.reset()
            return 0
        llama.input_ids[: len(best_key)] = np.asarray(best_key, dtype=llama.input_ids.dtype)
        llama.n_tokens = len(best_key)
        # The restored logits are not those of the last token: force a fresh decode.
        if hasattr(llama, "_requires_eval"):
            llama._requires_eval = True
        self.restored += 1
        self.tokens_saved += best - held
        return best

    def save(self, llama: Any) -> None:
        """After a call: keep the context's state when it holds a long enough sequence."""
        n = int(llama.n_tokens)
        if n < self.min_tokens or self.capacity_bytes <= 0:
            return
        key = tuple(int(t) for t in llama.input_ids[:n])
        if key in self._states:
            self._states.move_to_end(key)
            return
        llama_cpp = _bindings()
        ctx = llama._ctx.ctx
        size = int(llama_cpp.llama_state_seq_get_size(ctx, _SEQ))
        if size <= 0 or size > self.capacity_bytes:
            return
        buf = (ctypes.c_uint8 * size)()
        written = int(llama_cpp.llama_state_seq_get_data(ctx, buf, size, _SEQ))
        if written <= 0:
            return
        # A longer state holding this one's tokens makes the shorter ones redundant.
        for old in [k for k in self._states if len(k) <= n and key[: len(k)] == k]:
            self._bytes -= len(self._states.pop(old))
        self._states[key] = bytes(buf)[:written]
        self._bytes += written
        while self._bytes > self.capacity_bytes and self._states:
            _, dropped = self._states.popitem(last=False)
            self._bytes -= len(dropped)


def _bindings() -> Any:
    import llama_cpp

    return llama_cpp
