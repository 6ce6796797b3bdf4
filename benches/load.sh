#!/usr/bin/env bash
# Load test of the workbench (`intercept-sim serve`) on loopback, with wrk (Debian's package, installed here
# when missing). Three measurements, each bounded by LOAD_SECONDS and LOAD_REQUESTS:
#   1. POST /api/exact with a shipped config (the editor's live odds), EXACT_CONNECTIONS at a time;
#   2. a cheap request (GET /api/odds, a quick calculator) on an idle server;
#   3. the same cheap request while two Monte Carlo jobs run (both checked to be running before and after).
# It prints one table row per measurement and exits non-zero on any error or non-2xx answer. Latency is
# measured, not judged: the figures go to README, the test suite only checks the script runs clean.
#
#   bash benches/load.sh                               release build, 10 s or 20,000 requests each
#   BIN=path/to/intercept-sim LOAD_SECONDS=2 bash benches/load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${LOAD_SECONDS:-10}
REQUESTS=${LOAD_REQUESTS:-20000}
CONNECTIONS=${EXACT_CONNECTIONS:-2}
CONFIG=${LOAD_CONFIG:-configs/naval/three-level-chain.toml}
CHEAP=${LOAD_CHEAP:-/api/odds/naval?dice=2&distance=7}

need() { command -v "$1" >/dev/null || apt-get install -y -qq "$2" >/dev/null; }
need wrk wrk
need curl curl
if [[ -z "${BIN:-}" ]]; then
  cargo build --release --locked --quiet
  BIN="${CARGO_TARGET_DIR:-target}/release/intercept-sim"
fi

work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
"$BIN" serve --port 0 --configs configs --max-trials 100000000000 >"$work/out" 2>"$work/err" &
server=$!
for _ in $(seq 300); do grep -q http "$work/out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*' "$work/out" | head -1 | sed 's:/$::')
[[ -n "$url" ]] || { echo "load.sh: the server printed no URL: $(cat "$work/err")" >&2; exit 1; }

# wrk FILE|- PATH CONNECTIONS: the RESULT line of one bounded measurement.
measure() {
  wrk -t1 -c"$3" -d"${SECONDS_EACH}s" --timeout 10s -s benches/load.lua "$url$2" -- "$1" "$REQUESTS" |
    grep '^RESULT' || { echo "load.sh: wrk printed no result for $2" >&2; exit 1; }
}
job_state() { curl -sf "$url/api/run/$1" | grep -o '"state":"[a-z]*"' | cut -d'"' -f4; }
row() {
  local r=$2 f
  for f in requests p50_ms p90_ms p99_ms max_ms; do
    printf '%9s ' "$(sed -n "s/.* $f=\([0-9.]*\).*/\1/p" <<<"$r")"
  done
  echo " $1"
  grep -q ' errors=0 non2xx=0 ' <<<"$r" || { echo "load.sh: errors in: $r" >&2; exit 1; }
}

exact=$(measure "$CONFIG" /api/exact "$CONNECTIONS")
idle=$(measure - "$CHEAP" 1)
ids=()
for _ in 1 2; do
  ids+=("$(curl -sf -X POST -H 'Content-Type: application/toml' --data-binary @"$CONFIG" "$url/api/run?trials=50000000000" | cut -d'"' -f4)")
done
sleep 0.5
for id in "${ids[@]}"; do [[ $(job_state "$id") == running ]] || { echo "load.sh: job $id is not running" >&2; exit 1; }; done
busy=$(measure - "$CHEAP" 1)
for id in "${ids[@]}"; do
  [[ $(job_state "$id") == running ]] || { echo "load.sh: job $id stopped during the load" >&2; exit 1; }
  curl -sf -X DELETE "$url/api/run/$id" >/dev/null
done

printf '%9s %9s %9s %9s %9s  %s\n' requests p50_ms p90_ms p99_ms max_ms "request (wrk on loopback, $(nproc) cores)"
row "POST /api/exact $(basename "$CONFIG"), $CONNECTIONS at once" "$exact"
row "GET $CHEAP, idle server" "$idle"
row "GET $CHEAP, two Monte Carlo jobs running" "$busy"
