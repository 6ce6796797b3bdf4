#!/bin/bash
# Submits one array task per shard (shards.sbatch) and a merge (merge.sbatch) that runs once they have all
# succeeded. Every setting has a default and can be overridden in the environment, e.g.
#   SHARDS=3 TRIALS=1000000 docs/slurm/submit.sh
# sbatch passes this environment on to the jobs, so the shards and the merge see the same settings.
set -euo pipefail
export CONFIG=${CONFIG:-configs/naval/three-level-chain.toml}
export TRIALS=${TRIALS:-100000000000}
export SEED=${SEED:-1941}
export INTERCEPT_SIM=${INTERCEPT_SIM:-intercept-sim}   # the binary, as a path or a name on PATH
export OUT=${OUT:-runs/three-level-chain}              # shards in $OUT/shards/K, the merged run in $OUT/merged
SHARDS=${SHARDS:-16}
CPUS=${CPUS:-8}                                        # threads for each shard
here=$(dirname "$0")
mkdir -p "$OUT/logs"
shards=$(sbatch --parsable --array="0-$((SHARDS - 1))" --cpus-per-task="$CPUS" \
    --output="$OUT/logs/shard-%a.out" "$here/shards.sbatch")
merge=$(sbatch --parsable --dependency="afterok:$shards" --output="$OUT/logs/merge.out" "$here/merge.sbatch")
echo "shards: job $shards; merge: job $merge, into $OUT/merged"
