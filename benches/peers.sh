#!/usr/bin/env bash
# The engine beside the speed peers of ../shared/peers (programs written from the same rules: a tuned Numba loop
# per rule set), alternately in one run, one thread each. Prints each round's nanoseconds per trial, then the
# median ratio peer / engine for each sampler ([run] draws = "paired", the default, and "packed"): above 1,
# the engine is faster. Each round also prints the engine over its generator floor (the same trials' random
# words alone), and packed over a run of the peer's size from an empty memo (`packed_peer_run`). Last, the cost
# a trial of grand-armada (14 groups, beyond exact) over the three-level chain's, and grand-armada's generator
# floor over the chain's engine.
#
# The engine's figures are criterion's medians of `floor/<config>/{engine,packed}_one_thread` and the floors'
# of `floor/<config>/{generator,packed}_floor` (benches/floor.rs, 2^20 trials, a fresh memo each iteration),
# per trial; the peer's is the `trials_per_s` of its sampling loop alone (Numba's compile excluded). "Warm" is
# `floor/<config>/{engine,packed}_warm`: the same trials through a memo that has learned the tree from another
# seed's, the cost of each further trial of a long run (the peer's runs are 20 to 50 million trials).
#
# usage: bash benches/peers.sh VENV [ROUNDS]
#   VENV    a Python venv with numpy and numba (python3 -m venv VENV && VENV/bin/pip install numpy numba)
#   ROUNDS  alternations, 3 by default
#   PEERS   the peers' folder, ../shared/peers by default
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:?usage: bash benches/peers.sh VENV [ROUNDS]}
ROUNDS=${2:-3}
PEERS=${PEERS:-../shared/peers}
PY="$VENV/bin/python"
TARGET=${CARGO_TARGET_DIR:-target}
export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-$TARGET/numba-cache}

# rule set's peer, config, trials a peer run
CASES=(
  "naval_numba_fast.py configs/naval/three-level-chain.toml 20000000"
  "cavalry_numba_fast.py configs/cavalry/charge-on-pikes.toml 50000000"
)

# Nanoseconds a trial of the peer $1 on config $2 over $3 trials, on one thread.
peer_ns() {
  "$PY" "$PEERS/$1" "$2" --trials "$3" --threads 1 --json 2>/dev/null | tail -n 1 |
    python3 -c 'import json, sys; print(1e9 / json.load(sys.stdin)["trials_per_s"])'
}

# Criterion's median nanoseconds per element of the benchmark whose results are in folder $1.
per_element() {
  python3 - "$TARGET/criterion/$1/new" <<'EOF'
import json, sys
d = sys.argv[1]
median = json.load(open(f"{d}/estimates.json"))["median"]["point_estimate"]
trials = json.load(open(f"{d}/benchmark.json"))["throughput"]["Elements"]
print(median / trials)
EOF
}

# Runs the floor bench's four functions of config $1 (both samplers, both floors), one thread.
engine_bench() {
  cargo bench -q --bench floor -- --noplot "floor/$(basename "$1" .toml)/" >/dev/null 2>&1
}

median() {
  sort -g | python3 -c 'import sys; v = [float(x) for x in sys.stdin]; print(v[len(v) // 2])'
}

cargo bench -q --bench floor --no-run 2>/dev/null
for case in "${CASES[@]}"; do
  read -r peer config trials <<<"$case"
  "$PY" "$PEERS/$peer" "$config" --trials 10000 --threads 1 --json >/dev/null 2>&1 # compile once, not timed
  name=$(basename "$config" .toml)
  paired=() packed=() warm=() floored=() long=() long_floored=()
  for round in $(seq "$ROUNDS"); do
    p=$(peer_ns "$peer" "$config" "$trials")
    engine_bench "$config"
    e=$(per_element "floor_$name/engine_one_thread")
    k=$(per_element "floor_$name/packed_one_thread")
    ew=$(per_element "floor_$name/engine_warm")
    kw=$(per_element "floor_$name/packed_warm")
    ef=$(per_element "floor_$name/generator_floor")
    kf=$(per_element "floor_$name/packed_floor")
    kr=$(per_element "floor_$name/packed_peer_run")
    paired+=("$(python3 -c "print($p / $e)")")
    packed+=("$(python3 -c "print($p / $k)")")
    warm+=("$(python3 -c "print($p / $kw)")")
    floored+=("$(python3 -c "print($kw / $kf)")")
    long+=("$(python3 -c "print($p / $kr)")")
    long_floored+=("$(python3 -c "print($kr / $kf)")")
    printf '%s round %d: peer %.1f ns; engine paired %.1f ns (%.1fx its floor %.1f; warm %.1f), packed %.1f ns (%.1fx its floor %.1f; warm %.1f ns, %.1fx)\n' \
      "$name" "$round" "$p" "$e" "$(python3 -c "print($e / $ef)")" "$ef" "$ew" "$k" "$(python3 -c "print($k / $kf)")" "$kf" \
      "$kw" "$(python3 -c "print($kw / $kf)")"
    printf '%s round %d: packed over the peer'"'"'s %s trials from an empty memo %.1f ns (%.1fx its floor)\n' \
      "$name" "$round" "$trials" "$kr" "$(python3 -c "print($kr / $kf)")"
  done
  printf '%s: the engine is %.2fx the tuned peer paired, %.2fx packed; warm and packed, %.2fx the peer and %.2fx its floor (medians of %d)\n' "$name" \
    "$(printf '%s\n' "${paired[@]}" | median)" "$(printf '%s\n' "${packed[@]}" | median)" \
    "$(printf '%s\n' "${warm[@]}" | median)" "$(printf '%s\n' "${floored[@]}" | median)" "$ROUNDS"
  printf '%s: over a run of the peer'"'"'s size, packed from an empty memo, %.2fx the peer and %.2fx its floor\n' "$name" \
    "$(printf '%s\n' "${long[@]}" | median)" "$(printf '%s\n' "${long_floored[@]}" | median)"
done

# The 14-group scenario beyond exact (benches/data/grand-armada.toml, rules every trial: the path memo has too
# many paths) against the three-level chain through the whole engine, both on one thread, in one bench run,
# under each sampler.
cargo bench -q --bench naval -- --noplot "naval_rules_every_trial/grand-armada|naval_three_level_chain/(engine|packed)_one_thread" >/dev/null 2>&1
for pair in "grand-armada engine_one_thread paired" "grand-armada_packed packed_one_thread packed"; do
  read -r armada_bench chain_bench label <<<"$pair"
  armada=$(per_element "naval_rules_every_trial/$armada_bench")
  chain=$(per_element "naval_three_level_chain/$chain_bench")
  printf 'grand-armada, %s: %.1f ns a trial, %.1fx the three-level chain (%.1f ns)\n' "$label" "$armada" "$(python3 -c "print($armada / $chain)")" "$chain"
done
chain_paired=$(per_element "naval_three_level_chain/engine_one_thread")

# What grand-armada's random draws alone cost (its generator floor: 36.5 words a trial under paired draws)
# against the three-level chain's whole paired engine just measured: the least any engine drawing a word a
# node could reach.
cargo bench -q --bench floor -- --noplot "floor/grand-armada/generator_floor" >/dev/null 2>&1
armada_floor=$(per_element "floor_grand-armada/generator_floor")
printf "grand-armada's generator floor (paired): %.1f ns a trial, %.2fx the three-level chain's engine (%.1f ns)\n" \
  "$armada_floor" "$(python3 -c "print($armada_floor / $chain_paired)")" "$chain_paired"
