#!/usr/bin/env bash
# The Python binding's overhead (issue 40), measured in one run against the Rust it wraps, release builds:
#   1. Scenario.exact() on three-level-chain against criterion's solve_three_level_chain/exact_once (the
#      Rust call, runner::solve), target: within 2x;
#   2. Scenario.run(trials=10**7) on three-level-chain, trials per second of the whole Python call against the
#      rate the command line reports for its own sampling (`run` prints "(N M trials/s)"), the two taken in
#      turn ROUNDS times and their medians compared, target: within 5%;
#   3. the result tables read by polars and pyarrow in Rust's memory: the buffer addresses equal.
# It prints one line per measurement with its ratio and verdict, and exits non-zero if a target is missed.
#
#   bash benches/python.sh                 the release wheel into a fresh virtual environment, 5 rounds
#   ROUNDS=9 bash benches/python.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cache="$HOME/.cache/intercept-sim"
target="${CARGO_TARGET_DIR:-$root/target}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tools="$cache/python-tools"
[[ -x "$tools/bin/maturin" ]] || { python3 -m venv "$tools" && "$tools/bin/pip" install -q 'maturin>=1.9.4,<2'; }
CARGO_TARGET_DIR="$cache/target-python" "$tools/bin/maturin" build --release --quiet --out "$work/wheel" >/dev/null
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$work"/wheel/*.whl polars pyarrow

cargo build --release --locked --quiet
cargo bench --locked --quiet --bench solve -- --noplot exact_once >/dev/null
estimates="$target/criterion/solve_three_level_chain/exact_once/new/estimates.json"

"$work/venv/bin/python" benches/python_overhead.py \
  --rust-exact "$estimates" --cli "$target/release/intercept-sim" --rounds "${ROUNDS:-5}"
