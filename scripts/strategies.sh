#!/usr/bin/env bash
# Every game's strategies on seeds 0..99999 beside the solver's verdicts, into
# results/strategies.json. The solver's verdicts are read back from each game's stats run
# (resumable: rerun after a kill; runs/GAME-seeds0-99999.jsonl, not committed); the Gate's
# come from its million-deal run when that is present.
# Usage: scripts/strategies.sh [GAME...]   (default: every game)
# Environment: MAX_NODES (solver budget per deal for games solved here, default 10000),
#              THREADS (default: all cores), LAST (default 99999).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
mkdir -p runs results
last=${LAST:-99999}
threads=()
[[ -n "${THREADS:-}" ]] && threads=(--threads "$THREADS")
games=("$@")
[[ ${#games[@]} -eq 0 ]] && games=(wedge gate harp sedgewick wheel terrace queens freecell)
for game in "${games[@]}"; do
  verdicts="runs/${game}-seeds0-999999.jsonl"
  if [[ ! -s "$verdicts" ]]; then
    verdicts="runs/${game}-seeds0-${last}.jsonl"
    target/release/patience stats "$game" --seeds "0..${last}" --max-nodes "${MAX_NODES:-10000}" \
      "${threads[@]}" --jsonl "$verdicts" --resume --no-json > /dev/null
  fi
  target/release/patience compare "$game" --seeds "0..${last}" --solver-results "$verdicts" \
    "${threads[@]}" --json results/strategies.json
done
