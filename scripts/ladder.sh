#!/usr/bin/env bash
# The passes behind a game's odds over seeded deals: a first pass, then retry passes over the
# deals still unknown, each a search and budget that wins (or proves) more of what the passes
# before it left. Resumable and rerunnable: a pass skips the deals it has already tried (any
# record counts, `--retry-unknown`), so after a kill, or to add rungs, run the same line again.
# Per-deal records go to runs/GAME-seeds0-LAST.jsonl (not committed), the summary to
# results/GAME.json (results/GAME-seeds0-LAST.json where LAST is not the game's own). The rungs are those the committed results were made with, in order, and
# then the next ones measured (docs/rules/GAME.md, Measured); passes stopped part way and not
# finished are left out.
# Usage: scripts/ladder.sh GAME      (harp, sedgewick, terrace, queens, wheel)
# Environment: THREADS (default: all cores), FROM (first rung to run, 1-based; default 1),
# LAST (the last seed; default 99999, the Wheel's 999999).
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/ladder.sh GAME}
# Each rung: search order, first beam width (beam orders only), positions per deal, memory.
case $game in
  harp)
    own=99999
    rungs=("beam 8 1000000 3G" "beam-second 8 1000000 3G" "beam-second 700 2000000 3G"
      "beam 11 1000000 3G" "beam 700 2000000 3G" "beam 2800 5000000 4G") ;;
  sedgewick)
    own=99999
    rungs=("beam 8 200000 2G" "beam-second 8 200000 2G" "beam 300 500000 2G"
      "beam-second 300 500000 2G" "beam 1000 2000000 3G") ;;
  terrace)
    own=99999
    rungs=("beam 8 10000 2G" "portfolio - 10000 2G" "beam 8 100000 2G" "beam-second 8 100000 2G"
      "beam 11 100000 2G" "beam-second 11 100000 2G" "beam 150 300000 2G"
      "beam-second 150 300000 2G" "beam-second 300 600000 2G") ;;
  queens)
    own=99999
    rungs=("portfolio - 10000 2G" "portfolio - 100000 2G" "beam 8 100000 2G" "beam 8 150000 2G") ;;
  wheel)
    own=999999
    rungs=("portfolio - 200000 2G" "depth-first - 2000000 2G") ;;
  *)
    echo "scripts/ladder.sh: no ladder for '$game' (harp, sedgewick, terrace, queens, wheel)" >&2
    exit 2 ;;
esac
cargo build --release --quiet
mkdir -p runs results
last=${LAST:-$own}
file="runs/${game}-seeds0-${last}.jsonl"
summary="results/${game}.json"
[[ $last == "$own" ]] || summary="results/${game}-seeds0-${last}.json"
threads=()
[[ -n "${THREADS:-}" ]] && threads=(--threads "$THREADS")
for ((i = ${FROM:-1}; i <= ${#rungs[@]}; i++)); do
  read -r search width nodes memory <<< "${rungs[i - 1]}"
  args=(--search "$search" --max-nodes "$nodes" --max-memory "$memory")
  [[ $width != - ]] && args+=(--beam-width "$width")
  ((i > 1)) && args+=(--retry-unknown)
  echo "rung $i of ${#rungs[@]}: ${args[*]}" >&2
  target/release/patience stats "$game" --seeds "0..${last}" "${args[@]}" "${threads[@]}" \
    --jsonl "$file" --resume > /dev/null
done
target/release/patience merge "$file" --json "$summary"
