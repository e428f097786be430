#!/usr/bin/env bash
# The full FreeCell reference runs: Microsoft deals 1..32000 with 4, 3 and 2 cells, checked deal
# by deal against the published minimal-cells table. Resumable: rerun to continue after a kill.
# Each pass retries only the deals the passes before left unknown, with a search order that
# answers more of them: the portfolio first, then the beam and best-first searches (which find
# the hard wins), then a depth-first search with most of the machine's memory (which proves
# the hard losses), then the layered search with that memory (which proves the largest: two-cell
# deal 982).
# Usage: scripts/freecell-reference.sh [CELLS...]   (default: 4 3 2)
# Environment: BIG_MEMORY, the last pass's memory (default 19G; it needs a machine with more).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
mkdir -p runs results
# The first pass's position budget per deal, by cell count (the committed runs used these).
declare -A budget=([4]=50000000 [3]=20000000 [2]=10000000 [1]=10000000 [0]=10000000)
for cells in "${@:-4 3 2}"; do
  for c in $cells; do
    run() {
      target/release/patience stats freecell --cells "$c" --ms 1..32000 "$@" \
        --jsonl "runs/freecell-ms1-32000-${c}cells.jsonl" --resume \
        --json "results/freecell-ms32000-${c}cells.json"
    }
    run --max-nodes "${budget[$c]}" --max-memory 4G --threads 2
    # The deals left are few and large: one at a time.
    run --threads 1 --retry-unknown --search beam --max-nodes 40000000 --max-memory 2G
    run --threads 1 --retry-unknown --search best-first --max-nodes 60000000 --max-memory 3G
    run --threads 1 --retry-unknown --search beam --max-nodes 150000000 --max-memory 3500M
    run --threads 1 --retry-unknown --search depth-first --max-nodes 4000000000 \
      --max-memory "${BIG_MEMORY:-19G}"
    run --threads 1 --retry-unknown --search layered --max-memory "${BIG_MEMORY:-19G}"
    python3 scripts/check-freecell-oracle.py "$c" "results/freecell-ms32000-${c}cells.json"
  done
done
