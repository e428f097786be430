#!/usr/bin/env bash
# The full FreeCell reference runs: Microsoft deals 1..32000 with 4, 3 and 2 cells, checked deal
# by deal against the published minimal-cells table. Resumable: rerun to continue after a kill.
# Usage: scripts/freecell-reference.sh [CELLS...]   (default: 4 3 2)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
mkdir -p runs results
# The position budget per deal, by cell count (the committed runs used these).
declare -A budget=([4]=50000000 [3]=20000000 [2]=10000000 [1]=10000000 [0]=10000000)
for cells in "${@:-4 3 2}"; do
  for c in $cells; do
    target/release/patience stats freecell --cells "$c" --ms 1..32000 \
      --max-nodes "${budget[$c]}" --max-memory 4G \
      --jsonl "runs/freecell-ms1-32000-${c}cells.jsonl" --resume \
      --json "results/freecell-ms32000-${c}cells.json"
    python3 scripts/check-freecell-oracle.py "$c" "results/freecell-ms32000-${c}cells.json"
  done
done
