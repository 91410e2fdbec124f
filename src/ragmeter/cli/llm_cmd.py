"""``ragmeter llm``: talk to a backend directly (the quickest check that it works)."""

from __future__ import annotations

import asyncio
import sys

import typer

from ragmeter.errors import BackendError, ConfigError

app = typer.Typer(help="Ask a model directly to check a backend.", no_args_is_help=True)


@app.command("ask")
def ask(
    text: str = typer.Argument(..., help="The user message."),
    model: str | None = typer.Option(
        None, "--model", "-m", help="A catalog model name or .gguf path (in process)."
    ),
    backend: str | None = typer.Option(
        None,
        "--backend",
        "-b",
        help="A backend spec: local, llamacpp:NAME_OR_PATH or openai:MODEL@BASE_URL.",
    ),
    system: str | None = typer.Option(None, "--system", help="A system message."),
    max_tokens: int = typer.Option(256, "--max-tokens", min=1),
    temperature: float = typer.Option(0.0, "--temperature", min=0.0),
    seed: int | None = typer.Option(None, "--seed"),
    json_output: bool = typer.Option(False, "--json-output", help="Ask for a JSON object."),
    choices: str | None = typer.Option(
        None, "--choices", help="Comma-separated words (e.g. yes,no): print their probabilities."
    ),
    cache: bool = typer.Option(False, "--cache/--no-cache", help="Use the response cache."),
    max_retries: int = typer.Option(
        2, "--max-retries", min=0, help="Retries of an HTTP backend before giving up."
    ),
) -> None:
    """Send one message and print the reply and the token usage."""
    from ragmeter.llm import GenerationSettings, load_llm, user

    if model and backend:
        raise ConfigError("give either --model or --backend, not both")
    spec = backend or (f"llamacpp:{model}" if model else "local")
    messages = user(text, system)
    settings = GenerationSettings(
        max_tokens=max_tokens, temperature=temperature, seed=seed, json_output=json_output
    )

    async def run() -> None:
        options = {"max_retries": max_retries} if spec.startswith("openai:") else {}
        llm = load_llm(spec, cache=cache, **options)
        try:
            if choices:
                words = [w.strip() for w in choices.split(",") if w.strip()]
                result = await llm.choice_probabilities(messages, words)
                for word, p in sorted(result.probs.items(), key=lambda kv: -kv[1]):
                    typer.echo(f"{word}\t{p:.4f}")
                mass = f", mass {result.mass:.3f}" if result.mass is not None else ""
                typer.echo(
                    f"[{result.method}{mass}; {result.usage.prompt_tokens} prompt tokens"
                    f"{'; cached' if result.cached else ''}; {llm.identity}]",
                    err=True,
                )
                return
            reply = await llm.generate(messages, settings)
            typer.echo(reply.text)
            typer.echo(
                f"[{reply.usage.prompt_tokens} prompt + {reply.usage.completion_tokens} completion "
                f"tokens; {reply.latency_s:.2f}s; finish: {reply.finish_reason}"
                f"{'; cached' if reply.cached else ''}; {llm.identity}]",
                err=True,
            )
        finally:
            await llm.aclose()

    try:
        asyncio.run(run())
    except BackendError as exc:
        # The answer to "does this backend work?": one line, not a traceback.
        # (sys.exit, not typer.Exit: the entry point runs click with standalone_mode=False,
        # where an Exit's code is returned rather than raised.)
        typer.echo(f"error: {exc}", err=True)
        sys.exit(1)
