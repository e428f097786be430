#!/usr/bin/env bash
# A game's odds over seeded deals 0..999999, resumable: rerun the same line after a kill.
# Per-deal records go to RUNS/NAME-seeds0-999999.jsonl (not committed: about 90 MB), the
# summary to results/NAME.json.
# Usage: scripts/odds.sh NAME GAME [GAME OPTIONS...]
# Environment: MAX_NODES (default 20000000), THREADS (default: all cores), LAST (default 999999),
# RUNS (default runs: a folder outside the work tree keeps the records where a fresh checkout
# of the work tree would lose them).
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 game=$2
shift 2
cargo build --release --quiet
runs=${RUNS:-runs}
mkdir -p "$runs" results
threads=()
[[ -n "${THREADS:-}" ]] && threads=(--threads "$THREADS")
target/release/patience stats "$game" "$@" --seeds "0..${LAST:-999999}" \
  --max-nodes "${MAX_NODES:-20000000}" --max-memory 4G "${threads[@]}" \
  --jsonl "${runs}/${name}-seeds0-${LAST:-999999}.jsonl" --resume \
  --json "results/${name}.json"
