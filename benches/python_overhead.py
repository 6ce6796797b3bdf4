"""The measurements of benches/python.sh, in the virtual environment it made: see that script."""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl
import pyarrow as pa

import intercept_sim as isim

CHAIN = "configs/naval/three-level-chain.toml"
TRIALS = 10**7


def exact_seconds(scenario: isim.Scenario) -> float:
    """The fastest of many calls of Scenario.exact(), after a warm-up: what criterion's estimate compares with."""
    scenario.exact()
    best = float("inf")
    for _ in range(20):
        started = time.perf_counter()
        for _ in range(20):
            scenario.exact()
        best = min(best, (time.perf_counter() - started) / 20)
    return best


def cli_rate(cli: str) -> float:
    """The trials per second the command line reports for its own sampling."""
    with tempfile.TemporaryDirectory() as out:
        args = [cli, "run", CHAIN, "--trials", str(TRIALS), "--seed", "1", "--out", f"{out}/run"]
        text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    found = re.search(r"\(([\d.]+) M trials/s\)", text)
    if found is None:
        sys.exit(f"python_overhead: no rate in the command line's output: {text[:200]!r}")
    return float(found.group(1)) * 1e6


def python_rate(scenario: isim.Scenario) -> float:
    """Trials per second of the whole Scenario.run call."""
    started = time.perf_counter()
    scenario.run(trials=TRIALS, seed=1)
    return TRIALS / (time.perf_counter() - started)


def main() -> int:
    given = argparse.ArgumentParser()
    given.add_argument("--rust-exact", type=Path, required=True)
    given.add_argument("--cli", required=True)
    given.add_argument("--rounds", type=int, default=5)
    args = given.parse_args()
    chain = isim.Scenario.load(CHAIN)
    missed = 0

    rust = json.loads(args.rust_exact.read_text())["mean"]["point_estimate"] / 1e9
    python = exact_seconds(chain)
    ratio = python / rust
    missed += ratio > 2
    verdict = "within 2x" if ratio <= 2 else "MISSED 2x"
    print(f"exact, three-level-chain: Python {python * 1e3:.3f} ms, Rust {rust * 1e3:.3f} ms: {ratio:.2f}x ({verdict})")

    cli, py = [], []
    python_rate(chain)  # warm-up: the thread pool, the page cache
    for _ in range(args.rounds):
        cli.append(cli_rate(args.cli))
        py.append(python_rate(chain))
    cli_m, py_m = statistics.median(cli), statistics.median(py)
    ratio = py_m / cli_m
    missed += ratio < 0.95
    verdict = "within 5%" if ratio >= 0.95 else "MISSED 5%"
    print(
        f"run(10**7), three-level-chain, median of {args.rounds}: Python {py_m / 1e6:.1f} M trials/s, "
        f"command line {cli_m / 1e6:.1f} M trials/s: {ratio:.3f} ({verdict})"
    )

    r = chain.run(trials=100_000, seed=1)
    rust_addresses = r.buffer_addresses("summary")
    table, frame = pa.table(r.summary), pl.DataFrame(r.summary)
    same = all(
        table.column(c).chunks[0].buffers()[1].address == a and frame[c].to_arrow().buffers()[1].address == a
        for c, a in rust_addresses.items()
    )
    missed += not same
    verdict = "no copy" if same else "MISSED: copied"
    print(f"tables: {len(rust_addresses)} number columns at the same addresses in Rust, pyarrow and polars ({verdict})")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
