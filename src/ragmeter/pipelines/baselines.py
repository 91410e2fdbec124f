"""The baseline RAG systems: ``llm_only``, ``rag``, ``rag_kg`` and ``cited``.

Each is small on purpose: it is the reference a user's own system is compared
with, and every stage it runs is timed and counted on the answer (extraction,
retrieval, kg, generation). Prompts are YAML data files in ``prompts/``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field

from ragmeter.errors import UserError
from ragmeter.llm.protocol import GenerationSettings
from ragmeter.pipelines.base import PIPELINES, Pipeline, Resources, StageClock
from ragmeter.pipelines.confidence import ConfidenceOptions, generation_settings, rate_answer
from ragmeter.pipelines.prompts import load_prompt
from ragmeter.retrieval.base import Hit, Retriever, make_retriever
from ragmeter.retrieval.evidence import question_evidence
from ragmeter.text.cache import TextCache
from ragmeter.text.chunk import ChunkParams
from ragmeter.types import Answer, Question

REFUSAL = "I don't know"
_ANSWER_PREFIX = re.compile(r"^\s*(final answer|answer)\s*[:：-]\s*", re.IGNORECASE)


def clean_answer(text: str) -> str:
    """The first non-empty line of a reply, without an ``Answer:`` prefix."""
    for line in text.strip().splitlines():
        line = _ANSWER_PREFIX.sub("", line).strip()
        if line:
            return line
    return ""


def is_refusal(text: str) -> bool:
    """True when the reply is the refusal the prompts ask for."""
    return text.strip().lower().rstrip(".!").replace("’", "'") in ("i don't know", "i do not know")


def query_time_text(question: Question) -> str:
    """The query time for a prompt (CRAG questions are time-sensitive)."""
    return question.query_time or "unknown"


class _Options(BaseModel):
    model_config = ConfigDict(extra="forbid")

    prompt: str | None = None
    """A YAML file with ``system`` and ``user`` templates replacing the built-in prompt."""


class LLMOnlyOptions(_Options, ConfidenceOptions):
    """Options of ``llm_only``."""


@PIPELINES.provides("llm_only")
class LLMOnlyPipeline(Pipeline):
    """Closed book: the model answers from what it knows, with the query time."""

    Options = LLMOnlyOptions

    def __init__(self, options: BaseModel, resources: Resources):
        super().__init__(options, resources)
        assert isinstance(options, LLMOnlyOptions)
        self.options: LLMOnlyOptions = options
        self.prompt = load_prompt("llm_only", options.prompt)
        self.llm = resources.llm()

    async def answer(self, question: Question) -> Answer:
        """One generation."""
        clock = StageClock()
        values = {"query": question.query, "query_time": query_time_text(question)}
        settings = generation_settings(self.options, self.resources.generation)
        with clock.stage("generation"):
            completion = await self.llm.generate(self.prompt.messages(**values), settings)
        clock.add_completion("generation", completion)
        text = clean_answer(completion.text)
        answer = Answer(text=text, refused=is_refusal(text), stages=clock.stages)
        return await rate_answer(
            self.options, self.llm, answer, completion, values, clock, False, REFUSAL
        )


class RetrievalOptions(_Options):
    """How evidence is found in the question's own pages or passages."""

    retriever: str = "bm25"
    retriever_options: dict[str, Any] = Field(default_factory=dict)
    top_k: int = Field(default=5, ge=1)
    chunk: ChunkParams = Field(default_factory=ChunkParams)
    text_cache: bool = True
    """Keep extracted page text in the per-user cache (keyed by the page's content hash)."""


class EvidenceFinder:
    """Extraction, chunking and retrieval over one question's own documents."""

    def __init__(self, options: RetrievalOptions):
        self.options = options
        self.retriever: Retriever = make_retriever(options.retriever, **options.retriever_options)
        self.cache = TextCache.default() if options.text_cache else None

    async def find(self, question: Question, query: str, clock: StageClock) -> list[Hit]:
        """The best chunks of the question's documents for ``query``."""
        with clock.stage("extraction"):
            evidence = await asyncio.to_thread(
                question_evidence, question, self.cache, self.options.chunk
            )
        if not evidence.chunks:
            return []
        with clock.stage("retrieval"):
            return await self.retriever.asearch(query, evidence.chunks, self.options.top_k)


def passages_text(hits: Sequence[Hit]) -> str:
    """Numbered passages for a prompt."""
    if not hits:
        return "(no passages)"
    return "\n".join(f"[{i}] {h.chunk.text.strip()}" for i, h in enumerate(hits, 1))


class RagOptions(RetrievalOptions, ConfidenceOptions):
    """Options of ``rag``."""


@PIPELINES.provides("rag")
class RagPipeline(Pipeline):
    """Retrieve from the question's own pages; answer concisely or say "I don't know"."""

    Options = RagOptions
    needs_html = True

    def __init__(self, options: BaseModel, resources: Resources):
        super().__init__(options, resources)
        assert isinstance(options, RagOptions)
        self.opts = options
        self.prompt = load_prompt("rag", options.prompt)
        self.finder = EvidenceFinder(options)
        self.llm = resources.llm()

    async def answer(self, question: Question) -> Answer:
        """Extraction, retrieval, one generation."""
        clock = StageClock()
        hits = await self.finder.find(question, question.query, clock)
        values = {
            "query": question.query,
            "query_time": query_time_text(question),
            "context": passages_text(hits),
        }
        settings = generation_settings(self.opts, self.resources.generation)
        with clock.stage("generation"):
            completion = await self.llm.generate(self.prompt.messages(**values), settings)
        clock.add_completion("generation", completion)
        text = clean_answer(completion.text)
        answer = Answer(
            text=text,
            refused=is_refusal(text),
            retrieved=[h.to_retrieved() for h in hits],
            stages=clock.stages,
        )
        return await rate_answer(
            self.opts, self.llm, answer, completion, values, clock, True, REFUSAL
        )


KG_DOMAINS = ("finance", "sports", "music", "movie", "open")


class RagKgOptions(RetrievalOptions, ConfidenceOptions):
    """Options of ``rag_kg``."""

    kg_url: str | None = None
    """The mock KG API server (default: ``$CRAG_SERVER`` or the official local address)."""
    max_calls: int = Field(default=3, ge=0)
    max_result_chars: int = Field(default=1500, ge=100)
    domain_from_labels: bool = False
    """Use the data set's domain label instead of asking the model (an oracle, off by default)."""
    domain_prompt: str | None = None
    calls_prompt: str | None = None


def _tool_lines(domain: str) -> str:
    from ragmeter.kg.tools import tool_schemas

    lines = []
    for tool in tool_schemas([domain]):
        fn = tool["function"]
        params = fn["parameters"]["properties"]
        args = ", ".join(f"{p}: {spec.get('type', 'any')}" for p, spec in params.items())
        lines.append(f"- {fn['name']}({args}): {fn['description']}")
    return "\n".join(lines)


def _parse_calls(text: str) -> list[dict[str, Any]]:
    """The ``calls`` of the model's JSON reply; unreadable replies give no calls."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return []
    try:
        data = orjson.loads(text[start : end + 1])
    except orjson.JSONDecodeError:
        return []
    calls = data.get("calls") if isinstance(data, dict) else None
    if not isinstance(calls, list):
        return []
    return [c for c in calls if isinstance(c, dict) and isinstance(c.get("name"), str)]


@PIPELINES.provides("rag_kg")
class RagKgPipeline(Pipeline):
    """Route to a KG domain, call its tools, then answer from KG results and page passages."""

    Options = RagKgOptions
    needs_html = True

    def __init__(self, options: BaseModel, resources: Resources):
        super().__init__(options, resources)
        assert isinstance(options, RagKgOptions)
        from ragmeter.kg.client import AsyncKGClient

        self.opts = options
        self.prompt = load_prompt("rag_kg", options.prompt)
        self.domain_prompt = load_prompt("rag_kg_domain", options.domain_prompt)
        self.calls_prompt = load_prompt("rag_kg_calls", options.calls_prompt)
        self.finder = EvidenceFinder(options)
        self.llm = resources.llm()
        self.kg = AsyncKGClient(options.kg_url)
        self.kg_limit = resources.limiter(f"kg:{self.kg.base_url}")

    async def _domain(self, question: Question, clock: StageClock) -> str:
        if self.opts.domain_from_labels and question.labels.domain in KG_DOMAINS:
            return str(question.labels.domain)
        messages = self.domain_prompt.messages(query=question.query)
        with clock.stage("kg"):
            probs = await self.llm.choice_probabilities(messages, list(KG_DOMAINS))
        clock.add_usage("kg", probs.usage, probs.cached)
        return probs.best()

    async def _kg_results(
        self, question: Question, domain: str, clock: StageClock
    ) -> tuple[str, list[dict[str, Any]]]:
        from ragmeter.kg.errors import KGRequestError
        from ragmeter.kg.tools import aexecute_tool_call, render_result

        if self.opts.max_calls == 0:
            return "(none)", []
        messages = self.calls_prompt.messages(
            tools=_tool_lines(domain),
            max_calls=self.opts.max_calls,
            query=question.query,
            query_time=query_time_text(question),
        )
        settings = GenerationSettings(max_tokens=200, temperature=0.0, json_output=True)
        with clock.stage("kg"):
            completion = await self.llm.generate(messages, settings)
        clock.add_completion("kg", completion)
        log: list[dict[str, Any]] = []
        parts = []
        for call in _parse_calls(completion.text)[: self.opts.max_calls]:
            name, args = call["name"], call.get("arguments") or {}
            entry: dict[str, Any] = {"name": name, "arguments": args}
            try:
                with clock.stage("kg"):
                    async with self.kg_limit:
                        result = await aexecute_tool_call(self.kg, name, args)
            except KGRequestError as exc:
                # The server answered, but not with a result (no such entity): the model's
                # lookup failed, the system did not.
                entry["error"] = str(exc)
            except UserError as exc:
                # A malformed call (unknown tool, wrong arguments) is the model's mistake.
                entry["error"] = str(exc)
            else:
                text = render_result(result, self.opts.max_result_chars)
                entry["result_chars"] = len(text)
                parts.append(f"{name}({orjson.dumps(args).decode()}) -> {text}")
            log.append(entry)
        return ("\n".join(parts) if parts else "(none)"), log

    async def answer(self, question: Question) -> Answer:
        """Domain routing, KG calls, retrieval, one generation."""
        clock = StageClock()
        domain = await self._domain(question, clock)
        kg_text, calls = await self._kg_results(question, domain, clock)
        hits = await self.finder.find(question, question.query, clock)
        values = {"query": question.query, "query_time": query_time_text(question)}
        context = passages_text(hits)
        messages = self.prompt.messages(**values, kg=kg_text, context=context)
        settings = generation_settings(self.opts, self.resources.generation)
        with clock.stage("generation"):
            completion = await self.llm.generate(messages, settings)
        clock.add_completion("generation", completion)
        text = clean_answer(completion.text)
        answer = Answer(
            text=text,
            refused=is_refusal(text),
            retrieved=[h.to_retrieved() for h in hits],
            stages=clock.stages,
            extras={"kg_domain": domain, "kg_calls": calls},
        )
        # The self-check sees what the answer was drawn from: KG results, then passages.
        evidence = f"Knowledge graph results:\n{kg_text}\n\nPage passages:\n{context}"
        return await rate_answer(
            self.opts,
            self.llm,
            answer,
            completion,
            {**values, "context": evidence},
            clock,
            True,
            REFUSAL,
        )

    async def aclose(self) -> None:
        """Close the KG client."""
        await self.kg.aclose()


class CitedOptions(_Options):
    """Options of ``cited``."""

    max_documents: int = Field(default=5, ge=1)
    """How many of the question's documents (in their given order) the model sees."""
    max_document_words: int = Field(default=150, ge=10)


_CITATION = re.compile(r"\[(\d+)\]")


def split_cited_sentences(text: str) -> list[str]:
    """Sentences of an attributed answer, each keeping the citations that follow it."""
    sentences: list[str] = []
    start = 0
    for m in re.finditer(r"[.!?](?:\s*\[\d+\])*(?=\s+|$)", text):
        end = m.end()
        piece = text[start:end].strip()
        if piece:
            sentences.append(piece)
        start = end
    rest = text[start:].strip()
    if rest:
        sentences.append(rest)
    return sentences


def parse_citations(text: str, n_documents: int) -> tuple[list[str], list[list[int]]]:
    """Sentences and, per sentence, the 0-based indexes of the documents it cites.

    Citation numbers in the text are 1-based as shown to the model; numbers that name
    no document are dropped (and do not count as citations).
    """
    sentences = split_cited_sentences(text)
    cites = []
    for s in sentences:
        found = []
        for m in _CITATION.finditer(s):
            i = int(m.group(1)) - 1
            if 0 <= i < n_documents and i not in found:
                found.append(i)
        cites.append(found)
    return sentences, cites


@PIPELINES.provides("cited")
class CitedPipeline(Pipeline):
    """An attributed answer with [n] citations over the question's given documents."""

    Options = CitedOptions

    def __init__(self, options: BaseModel, resources: Resources):
        super().__init__(options, resources)
        assert isinstance(options, CitedOptions)
        self.opts = options
        self.prompt = load_prompt("cited", options.prompt)
        self.llm = resources.llm()

    def _documents(self, question: Question) -> str:
        docs = []
        for i, p in enumerate(question.passages[: self.opts.max_documents], 1):
            words = p.text.split()
            text = " ".join(words[: self.opts.max_document_words])
            title = f"(Title: {p.title}) " if p.title else ""
            docs.append(f"[{i}] {title}{text}")
        return "\n".join(docs) if docs else "(no documents)"

    async def answer(self, question: Question) -> Answer:
        """One generation; citations parsed per sentence."""
        clock = StageClock()
        messages = self.prompt.messages(query=question.query, documents=self._documents(question))
        with clock.stage("generation"):
            completion = await self.llm.generate(messages, self.resources.generation)
        clock.add_completion("generation", completion)
        text = completion.text.strip()
        n_docs = min(len(question.passages), self.opts.max_documents)
        sentences, citations = parse_citations(text, n_docs)
        return Answer(
            text=text,
            citations=citations,
            refused=is_refusal(text),
            stages=clock.stages,
            extras={"sentences": sentences, "documents_shown": n_docs},
        )
