"""Reading CRAG rows with pages: ragmeter's reader against the naive loop, 1x to 10x input.

Builds CRAG task 1&2 files of growing size by repeating the 10 sample rows (15.8 MB
of HTML-heavy JSON) under new ids, in a temporary folder. Each (reader, size) runs
in its own subprocess, which reports its decompressed MB/s and its peak RSS, so
memory figures do not leak between runs. The alternative is what a user would
write first: ``json.loads`` over the lines of ``bz2.open``.

    .venv/bin/python benchmarks/data_read.py [--sizes 1,2,5,10] [--repeat 1]

The last line printed is JSON with every figure. Wall-clock MB/s depends on what
else the machine runs; MB per CPU-second (all threads) does much less.
"""

from __future__ import annotations

import argparse
import bz2
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SAMPLE = "crag/crag_sample_10_with_pages.jsonl.bz2"


def find_sample() -> Path:
    """The sample file in the data mirror (RAGMETER_DATA_MIRROR or ../shared/data)."""
    dirs = os.environ.get("RAGMETER_DATA_MIRROR", "")
    candidates = [Path(d) for d in dirs.split(os.pathsep) if d]
    candidates.append(Path(__file__).resolve().parents[1].parent / "shared" / "data")
    for d in candidates:
        if (d / SAMPLE).is_file():
            return d / SAMPLE
    raise SystemExit(f"sample file {SAMPLE} not found in {candidates}")


def build_copies(sample: Path, copies: int, tmp: Path) -> list[Path]:
    """One bz2 stream per copy of the sample, each copy's ids made unique."""
    rows = bz2.decompress(sample.read_bytes()).splitlines()
    paths = []
    for k in range(copies):
        out = []
        for raw in rows:
            row = json.loads(raw)
            row["interaction_id"] = f"{row['interaction_id']}-copy{k}"
            out.append(json.dumps(row, ensure_ascii=False).encode("utf-8"))
        p = tmp / f"copy{k}.bz2"
        p.write_bytes(bz2.compress(b"\n".join(out) + b"\n", 9))
        paths.append(p)
    return paths


def build_file(copies: list[Path], n: int, tmp: Path) -> Path:
    """An n-times file: the first n copies' bz2 streams, concatenated (a valid bz2 file)."""
    p = tmp / f"crag_{n}x.jsonl.bz2"
    with open(p, "wb") as out:
        for c in copies[:n]:
            out.write(c.read_bytes())
    return p


def child(reader: str, path: str) -> None:
    """Run one reader over one file; print decompressed bytes, seconds, rows and peak RSS."""
    start = time.perf_counter()
    cpu0 = _cpu()
    rows = 0
    nbytes = 0
    if reader == "naive":
        with bz2.open(path, "rb") as f:
            for line in f:
                row = json.loads(line)
                nbytes += len(line)
                rows += 1 if row else 0
    else:
        from ragmeter.data.crag import read_crag

        for q in read_crag(path, with_html=(reader == "ragmeter")):
            rows += 1
            nbytes += sum(p.html_bytes for p in q.pages)
    seconds = time.perf_counter() - start
    cpu = _cpu() - cpu0
    print(json.dumps({"rows": rows, "seconds": seconds, "cpu": cpu, "peak_rss_mb": peak_rss_mb()}))


def _cpu() -> float:
    """User + system CPU seconds of this process, all threads included."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def peak_rss_mb() -> float:
    """This process's peak resident memory since exec (VmHWM; ru_maxrss survives exec on Linux
    and would report the parent's peak)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(reader: str, path: Path) -> dict[str, float]:
    """One measurement in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", reader, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    """Build the inputs, run every (reader, size) pair, print a table and a JSON line."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1,2,5,10")
    ap.add_argument("--repeat", type=int, default=1, help="runs per (reader, size); median kept")
    ap.add_argument("--child", nargs=2, metavar=("READER", "PATH"))
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    sample = find_sample()
    unit_mb = len(bz2.decompress(sample.read_bytes())) / 1e6
    readers = ["naive", "ragmeter", "ragmeter_no_html"]
    results: dict[str, dict[str, dict[str, float]]] = {r: {} for r in readers}
    with tempfile.TemporaryDirectory(prefix="ragmeter-bench-") as d:
        tmp = Path(d)
        copies = build_copies(sample, max(sizes), tmp)
        for n in sizes:
            path = build_file(copies, n, tmp)
            mb = unit_mb * n
            for _ in range(args.repeat):
                # Interleave the readers so background load hits them alike.
                for reader in readers:
                    r = run(reader, path)
                    results[reader].setdefault(str(n), {"runs": []})  # type: ignore[dict-item]
                    results[reader][str(n)]["runs"].append(r)  # type: ignore[attr-defined]
            for reader in readers:
                runs = results[reader][str(n)].pop("runs")  # type: ignore[arg-type]
                secs = statistics.median(x["seconds"] for x in runs)  # type: ignore[index, union-attr]
                cpu = statistics.median(x["cpu"] for x in runs)  # type: ignore[index, union-attr]
                results[reader][str(n)] = {
                    "input_mb": round(mb, 1),
                    "mb_per_s": round(mb / secs, 2),
                    "mb_per_cpu_s": round(mb / cpu, 2),
                    "peak_rss_mb": round(max(x["peak_rss_mb"] for x in runs), 1),  # type: ignore[index, union-attr]
                }
            print(
                f"{n:>3}x  {mb:7.1f} MB  "
                + "  ".join(
                    f"{r}: {results[r][str(n)]['mb_per_s']:6.2f} MB/s "
                    f"({results[r][str(n)]['mb_per_cpu_s']:5.2f} MB/cpu-s) "
                    f"{results[r][str(n)]['peak_rss_mb']:6.1f} MB RSS"
                    for r in readers
                ),
                flush=True,
            )
    lo, hi = str(sizes[0]), str(sizes[-1])
    summary = {
        "benchmark": "crag_read",
        "unit_mb": round(unit_mb, 2),
        "sizes": sizes,
        "results": results,
        "speedup_vs_naive": {
            n: round(results["ragmeter"][n]["mb_per_s"] / results["naive"][n]["mb_per_s"], 2)
            for n in results["naive"]
        },
        "load_average": os.getloadavg(),
        "ragmeter_rss_growth_mb": round(
            results["ragmeter"][hi]["peak_rss_mb"] - results["ragmeter"][lo]["peak_rss_mb"], 1
        ),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
