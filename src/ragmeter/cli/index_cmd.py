"""``ragmeter index``: build, inspect and query persistent corpus indexes."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import typer

app = typer.Typer(
    help="Build and inspect corpus indexes over every page of a data set.", no_args_is_help=True
)

FORMAT = typer.Option(None, "--format", help="Data format (default: detected).")


class _Progress:
    """Progress on stderr: one updating line on a terminal, a line every few seconds otherwise."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def __call__(self, p: object) -> None:
        from ragmeter.retrieval.corpus import BuildProgress

        assert isinstance(p, BuildProgress)
        if p.rows == p.resumed_from_row and p.resumed_from_row and not p.finished:
            typer.echo(
                f"resuming after row {p.resumed_from_row} ({p.shards} shards kept)", err=True
            )
        now = time.monotonic()
        if not p.finished and not self.tty and now - self.last < 5:
            return
        self.last = now
        rate = (p.rows - p.resumed_from_row) / p.seconds if p.seconds > 0 else 0.0
        line = (
            f"rows {p.rows:,}  documents {p.documents:,}  chunks {p.chunks:,}  "
            f"checkpoints {p.shards}  {rate:.2f} rows/s"
        )
        if self.tty:
            sys.stderr.write("\r" + line + ("\n" if p.finished else ""))
            sys.stderr.flush()
        else:
            typer.echo(line, err=True)


@app.command()
def build(
    data: Path = typer.Argument(..., help="A data file with pages (CRAG) or passages (ALCE)."),
    out: Path = typer.Option(..., "--out", help="Index folder (created; resumed if unfinished)."),
    chunk_tokens: int = typer.Option(96, "--chunk-tokens", min=8, help="Words per chunk at most."),
    overlap: int = typer.Option(16, "--overlap", min=0, help="Words of overlap between chunks."),
    embedding_model: str | None = typer.Option(
        None, "--embedding-model", help="A local model folder or hub name (default: MiniLM)."
    ),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Index only the first N rows."),
    checkpoint: int = typer.Option(
        64, "--checkpoint", min=1, help="Checkpoint after this many new documents."
    ),
    force: bool = typer.Option(False, "--force", help="Rebuild even if an index is there."),
    fmt: str | None = FORMAT,
    as_json: bool = typer.Option(False, "--json", help="Print the manifest as JSON."),
) -> None:
    """Build a corpus index: FAISS vectors + BM25 + a manifest. Resumes after interruption."""
    from ragmeter.data.formats import read_questions
    from ragmeter.retrieval.corpus import IndexParams, build_corpus_index, data_fingerprint
    from ragmeter.retrieval.dense import Embedder
    from ragmeter.text.chunk import ChunkParams

    params = IndexParams(
        chunk=ChunkParams(
            max_tokens=chunk_tokens,
            overlap_tokens=overlap,
            min_tokens=min(ChunkParams().min_tokens, chunk_tokens // 2),
        )
    )
    manifest = build_corpus_index(
        lambda: read_questions(data, fmt=fmt, with_html=True),
        data_fingerprint(data),
        out,
        params=params,
        embedder=Embedder(embedding_model),
        checkpoint_docs=checkpoint,
        limit=limit,
        progress=_Progress(),
        force=force,
    )
    if as_json:
        typer.echo(manifest.model_dump_json(indent=2))
    else:
        typer.echo(
            f"index {out}: {manifest.documents:,} documents ({manifest.empty_documents:,} empty), "
            f"{manifest.chunks:,} chunks from {manifest.rows:,} rows; "
            f"corpus {manifest.corpus_hash[:16]}"
        )


@app.command()
def info(
    folder: Path = typer.Argument(..., help="An index folder."),
    as_json: bool = typer.Option(False, "--json", help="Print the manifest as JSON."),
) -> None:
    """Show an index's manifest."""
    from ragmeter.retrieval.corpus import load_manifest

    m = load_manifest(folder)
    if as_json:
        typer.echo(m.model_dump_json(indent=2))
        return
    typer.echo(f"builder      {m.builder} (format {m.format_version}), built {m.created}")
    typer.echo(f"data         {m.data.name} ({m.data.size:,} bytes), {m.rows:,} rows")
    typer.echo(f"documents    {m.documents:,} ({m.empty_documents:,} empty)")
    typer.echo(f"chunks       {m.chunks:,} ({m.params.chunk.key()})")
    typer.echo(f"embeddings   {m.params.embedding_model} in {m.params.vector_store}")
    typer.echo(f"corpus hash  {m.corpus_hash}")
    typer.echo("versions     " + ", ".join(f"{k} {v}" for k, v in sorted(m.versions.items())))


@app.command()
def search(
    folder: Path = typer.Argument(..., help="An index folder."),
    query: str = typer.Argument(..., help="The query."),
    k: int = typer.Option(5, "-k", min=1, help="Number of chunks."),
    mode: str = typer.Option("hybrid", "--mode", help="bm25, dense or hybrid."),
    as_json: bool = typer.Option(False, "--json", help="Print the hits as JSON lines."),
) -> None:
    """Search an index and print the best chunks."""
    from ragmeter.retrieval.corpus import CorpusIndex

    index = CorpusIndex.open(folder)
    try:
        hits = index.search(query, k, mode=mode)
    finally:
        index.close()
    for rank, hit in enumerate(hits, start=1):
        if as_json:
            typer.echo(hit.to_retrieved().model_dump_json())
        else:
            text = " ".join(hit.chunk.text.split())
            typer.echo(f"{rank}. [{hit.score:.4f}] {hit.chunk.source}\n   {text[:300]}")
