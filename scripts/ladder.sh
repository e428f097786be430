#!/usr/bin/env bash
# The passes behind a game's odds over seeded deals: a first pass, then retry passes over the
# deals still unknown, each a search and budget that wins (or proves) more of what the passes
# before it left. Resumable and rerunnable: a pass skips the deals it has already tried (any
# record counts, `--retry-unknown`), so after a kill, or to add rungs, run the same line again.
# Per-deal records go to runs/GAME-seeds0-LAST.jsonl (not committed: too large), the summary
# to results/GAME.json (results/GAME-seeds0-LAST.json where LAST is not the game's own). The
# rungs are those the committed results were made with, in order, and then the next ones
# measured (docs/rules/GAME.md, Measured); where a rung has run over only some of the deals,
# a comment says which.
# Where that records file is gone but runs/GAME-seeds0-LAST-base.json is committed (a copy of
# the summary the rungs up to `based` made), the rungs after `based` run over its unknown deals
# only (`stats --unknown-in`), their records go to runs/GAME-seeds0-LAST-retries.jsonl
# (committed: it is small), and `merge --onto` enters them onto the base to give the summary.
# Usage: scripts/ladder.sh NAME      (harp, sedgewick, terrace, queens, wheel,
#                                     wheel-deal-any-time, klondike-draw3, klondike-draw1: a
#                                     game, or a game with its variant)
# Environment: THREADS (default: all cores), FROM (first rung to run, 1-based; default 1, or
# the rung after `based` over a base), LAST (the last seed; default 99999, the Wheel's and
# General Sedgewick's 999999), FRESH=1 (run every rung from the first deal, ignoring a base).
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/ladder.sh NAME}
play=("$game")
# Each rung: search order, first beam width (beam orders only), positions per deal, memory,
# and, for a beam that breaks ties by a salt (`--beam-salt`), the salt (`-` for none), and
# for a beam that widens no further than a width (`--max-beam-width`), that width (`-` for
# none), and for the nested rollouts (`--search rollout`), their level (`--rollout-level`).
# `based`: how many rungs the committed base summary (if any) already holds; `named`: the
# summary's name under results/ where it is not the game's own.
based=0
named=
# Where a ladder leaves the first seeds to a deeper one: the first seed it runs, and that
# ladder's files, entered onto the summary too.
seeds_from=0
deeper=()
case $game in
  harp)
    own=99999
    rungs=("beam 8 1000000 3G" "beam-second 8 1000000 3G" "beam-second 700 2000000 3G"
      "beam 11 1000000 3G" "beam 700 2000000 3G" "beam 2800 5000000 4G"
      "beam-second 2800 5000000 4G" "beam 2800 5000000 4G 1" "beam-second 2800 5000000 4G 1"
      "beam 2800 5000000 4G 2" "beam-second 2800 10000000 4G 2" "beam-second 2800 10000000 4G 3"
      "beam-second 2800 10000000 4G 4" "beam-second 2800 10000000 4G 5"
      "beam-second 5600 10000000 4G" "beam 5600 10000000 4G" "beam-second 5600 10000000 4G 1"
      "beam 5600 10000000 4G 1" "beam-second 5600 10000000 4G 2")
    based=5 ;;
  sedgewick)
    # Two ladders. LAST=99999, the deepest: its summary is results/sedgewick-seeds0-99999.json
    # and its rungs up to the twelfth have run over every deal (the comment below). The
    # million (the default): its first rung over seeds 0-999999 is the base
    # (runs/sedgewick-seeds0-999999-base.json), the rungs after it run over the unknown deals
    # beyond seed 99999 only (runs/sedgewick-seeds0-999999-retries.jsonl), and the summary,
    # results/sedgewick.json, is the base with those records and the deeper ladder's entered.
    # The million's second and third rungs have run over every deal (session 69), its fourth
    # too (session 70), and its fifth over 18,981 of the 56,292 the fourth left (sessions 70-71).
    own=999999
    if [[ ${LAST:-$own} == 99999 ]]; then
      based=5
    else
      based=1
      seeds_from=100000
      deeper=(runs/sedgewick-seeds0-99999-retries.jsonl runs/sedgewick-seeds0-99999-base.json)
    fi
    # Seeds 0-99999: the sixth rung has run (2026-11-27) over the 382 deals an earlier file had won,
    # then over seeds up to 2421, and (2026-11-29) over every deal left; the seventh (2026-11-28)
    # over seeds up to 5568 and 32 others, and (2026-11-29) over 2,168 more; the eighth over every
    # deal the others had left, and only its wins are in the records file (its unknown records, the
    # latest, would stand in the summary for the deeper searches'). The seventh has since
    # (2026-11-29, session 52) run over every deal left, and so has the ninth, the sixth with salt 1
    # (292 won of 3,431). The tenth, the seventh with salt 1 (2 of 30 deals the seventh left), has
    # run over 1,033 of the 3,139 deals the ninth left (48 won), and (session 53) over 708 more, up
    # to seed 76859 (31 won), and (session 56) over 1,036 more (37 won), and (session 57) over the
    # last 362 (18 won). The eleventh, the nested rollouts of level 2 (4 of 30 random deals the
    # tenth left), has run (session 64) over all 3,005 (105 won). The twelfth, the rollouts of level
    # 3 (1 of 30 random deals the eleventh left, against none for the adapted rollouts of level 2
    # and the eleventh salted), has run (session 67) over all 2,900 (35 won).
    rungs=("beam 8 200000 2G" "beam-second 8 200000 2G" "beam 300 500000 2G"
      "beam-second 300 500000 2G" "beam 1000 2000000 3G" "beam 16384 6000000 3G"
      "beam-second 16384 6000000 3G" "depth-first - 10000 2G" "beam 16384 6000000 3G 1"
      "beam-second 16384 6000000 3G 1" "rollout - 6000000 3G - - 2" "rollout - 6000000 3G - - 3") ;;
  terrace)
    own=99999
    rungs=("beam 8 10000 2G" "portfolio - 10000 2G" "beam 8 100000 2G" "beam-second 8 100000 2G"
      "beam 11 100000 2G" "beam-second 11 100000 2G" "beam 150 300000 2G"
      "beam-second 150 300000 2G" "beam-second 300 600000 2G" "beam-second 300 600000 2G 1"
      "beam 1200 1200000 2G" "beam-second 1200 1200000 2G" "beam-second 16384 6000000 3G"
      "beam-second 16384 8000000 3G - 16384" "beam 16384 8000000 3G - 16384"
      "depth-first - 10000 2G" "beam-third 1024 2000000 2G - 1024"
      "beam-fourth 1024 2000000 2G - 1024" "beam-fifth 1024 2000000 2G - 1024"
      "beam-third 4096 4000000 2G - 4096" "beam-second 4096 4000000 2G - 4096"
      "beam-third 1024 2000000 2G 2 1024" "beam-third 1024 2000000 2G 1 1024"
      "beam-fourth 1024 2000000 2G 1 1024" "beam-fifth 1024 2000000 2G 1 1024"
      "beam-fourth 1024 2000000 2G 2 1024" "beam-fifth 4096 4000000 2G - 4096"
      "beam-second 4096 4000000 2G 1 4096" "beam-fourth 4096 4000000 2G - 4096"
      "rollout - 4000000 2G - - 3" "adaptive-rollout - 4000000 2G - - 2"
      "rollout - 8000000 2G - - 4" "rollout - 4000000 2G 1 - 3")
    # The thirteenth has run only over 20 samples and the first deals of each half of the
    # seeds (2026-11-28, 514 deals): its wins came in its run of width 16384, and on six deals
    # traced the run of 32768 after it had too little of the 6M left to win, so the fourteenth
    # is that first run alone; it has run over 3,654 of the unknown deals the thirteenth had
    # not tried, and (2026-11-28, late) over 138 more, winning only 9 once the cheaper rungs
    # below had run. The fifteenth, the same run by the first heuristic, is measured on 16 deals
    # the fourteenth left (3 won), and (2026-11-29) has run over the unknown deals up to seed
    # 11173 (36 won of 420). The sixteenth has run over every
    # deal the others had left, and only its wins are in the records file (then, its unknown
    # records, the latest, hid the deeper searches' in the summary; since 2026-11-28 the
    # summaries count superseded records' time and largest search). The seventeenth has run
    # over every deal left (2026-11-28), all its records kept, and so has the eighteenth; the
    # twentieth ran over 621 deals before them (paused to make way for the cheaper two), and
    # over 3,084 more after them, and then over the last 999. The twenty-first, chosen from
    # four width-4,096 runs (each heuristic but the third) on 40 random deals left, won 5 of
    # its first 275 and was stopped for the twenty-second and twenty-third: the seventeenth
    # salted, cheaper a win on 60 random deals; both ran over every deal left (50 and 30
    # won), and the twenty-fourth and twenty-fifth, the eighteenth and nineteenth salted, after
    # them (54 and 37 won), and the twenty-sixth, the eighteenth with salt 2, after them (34).
    # The twenty-seventh, the fifth heuristic's run of width 4,096 (session 57), has run over
    # the 2,238 unknown deals up to seed 55538 (74 won), and (session 58) over 1,007 of the
    # 1,890 after them (31 won), and (session 60) over the last 883 (32 won). The
    # twenty-eighth, the twenty-first salted (on 60 random deals left, 7 won, against none for
    # the twenty-seventh salted), has run over 1,519 of the 3,991 left, up to seed 73722
    # (41 won), and (session 61) over 426 more (12 won) and then 409 more (38 won), and
    # (session 63) over the last 1,637 (170 won). The twenty-ninth, the fourth heuristic's
    # run of width 4,096 (session 63: on 30 random deals left it, rung 28 with salt 2, and the
    # third's and fifth's runs with salt 1 won 1, 0, 1 and 1) has run over all 3,730
    # (session 63, 122 won). The thirtieth, the nested rollouts of level 3 (6 of 30 random
    # deals the twenty-ninth left), has run (session 64) over 2,118 of the 3,608, up to seed
    # 59574 (195 won), and (session 65) over the other 1,490 (130 won). The thirty-first, the
    # adapted rollouts of level 2 (4 of 30 random deals the thirtieth left, 2 of them new), has
    # run (session 66) over all 3,283 (176 won). The thirty-second, the rollouts of level 4
    # within 8M (3 of 30 random deals left, against 2, 2 and 1 for the others tried), has run
    # over 222 of the 3,107, up to seed 7774, and won only 2: a rung to replace, not finish.
    # The thirty-third, the thirtieth salted (2 of the same 30), replaced it (session 67), and
    # has run over 903 of the 3,105, up to seed 32362 (9 won).
    based=8 ;;
  queens)
    own=99999
    # results/queens.json is the million deals within 10k (README, Results), not this ladder's.
    named=queens-seeds0-99999
    # The fifth rung is the first again, with the code of 2026-11-27, over the base's unknowns;
    # the sixth has run over all of them, and only its win is in the records file (as
    # Sedgewick's eighth). The seventh, the nested rollouts of level 2 (3 of 30 random deals
    # left), has run (session 64) over 356 of the 3,859, up to seed 8433 (30 won), and
    # (session 65) over 372 more, up to seed 18465 (22 won), and (session 66) over 343 more,
    # up to seed 27249 (31 won), and then (two threads, so from both ends of the range) over
    # 158 more (10 won), and (session 67) over the last 2,630 (247 won). The eighth, the
    # rollouts of level 3 (1 of 20 random deals the seventh left, against none of 20 for the
    # adapted rollouts of level 2 and none of 30 for the seventh salted), has run (session
    # 68) over 230 of the 3,519, seeds 19-2741 and 49341-52622 (7 won).
    rungs=("portfolio - 10000 2G" "portfolio - 100000 2G" "beam 8 100000 2G" "beam 8 150000 2G"
      "portfolio - 10000 2G" "depth-first - 10000 2G" "rollout - 4000000 2G - - 2"
      "rollout - 4000000 2G - - 3")
    based=4 ;;
  wheel)
    own=999999
    # The fourth rung came with pruning rule 5 (docs/rules/wheel.md: the cushion cleared from
    # the bottom up near the end) and ran (session 57) over every deal left unknown, those the
    # third had tried at 2M and the earlier passes at 10M included: its records were made in a
    # file of their own (`stats --unknown-in results/wheel.json`) and appended. Its first 953
    # deals were searched with the rule's first form (once the stock is out) only. The fifth,
    # the same way, over 199 of the 2,154 the fourth left (9 won, 62 lost); the earlier
    # passes' records within 10M were made without the rule, so it too needs a file of its own.
    # (Session 58) the fifth over 90 more (2 won, 17 lost); then pruning rule 6 (the first
    # deal's end, when the deals after it bury its cards) and the sixth, depth-first within
    # 2.5M again, over all 2,064 left (8 won, 1,185 lost), and the seventh, within 10M, over
    # all 871 it left (48 won, 198 lost); each in a file of its own, appended. (2026-12-01)
    # Then pruning rule 7 (the game after the first deal for every placing of its cards) and
    # the eighth, depth-first within 2.5M again, over all 625 left (2 won, 213 lost), and the
    # ninth, within 10M, over 276 of the 410 it left (2 lost), and (session 60) over the
    # other 134 (1 lost); each in a file of its own, appended. (Session 61) the tenth, within
    # 60M, over 19 of the 407 (1 won, 5 lost), the eleventh, within 30M, over 32 of the others
    # (1 won, 4 lost); then rule 5's backward game searched within 64 positions with the last
    # deal to come once a deal's search is past 100k positions, and the twelfth, within 10M
    # again, over 291 of the 396 left (1 won, 11 lost), in files of its own, appended;
    # (session 62) over the other 105 (1 won, 2 lost). Then the wide backward game narrowed
    # again on deals where it does not close, and the backward game three times as fast on
    # hard deals, and the thirteenth, within 60M (it skips the deals the tenth tried), over 78
    # of the 369 (8 won, 13 lost), stopped for the session's end; (session 63) over 7 more
    # (1 won, 6 lost), stopped again. Then the fourteenth, the SAT search (docs/rules/wheel.md,
    # Decided as a formula; its budget is conflicts), over all 360 left (61 won, 299 lost) in a
    # file of its own, appended: every deal decided.
    rungs=("portfolio - 200000 2G" "beam - 1000000 3G" "depth-first - 2000000 3G"
      "depth-first - 2500000 3G" "depth-first - 10000000 4G" "depth-first - 2500000 2G"
      "depth-first - 10000000 3G" "depth-first - 2500000 2G" "depth-first - 10000000 3G"
      "depth-first - 60000000 6G" "depth-first - 30000000 3G" "depth-first - 10000000 3G"
      "depth-first - 60000000 6G" "sat - 100000000 2G")
    based=1 ;;
  wheel-deal-any-time)
    own=99999
    play=(wheel --deal-any-time)
    rungs=("portfolio - 100000 2G" "depth-first - 500000 2G" "beam - 1000000 3G"
      "beam 11 2000000 3G" "beam 13 5000000 3G" "depth-first - 20000000 6G"
      "beam 13 5000000 3G 1" "beam 13 5000000 3G 2" "beam 13 5000000 3G 3" "beam 13 5000000 3G 4"
      "beam 8 2000000 3G 5" "beam 20 5000000 3G 6" "beam 8 2000000 3G 7" "beam 8 2000000 3G 8"
      "beam 8 2000000 3G 9" "beam 8 2000000 3G 10" "beam 8 2000000 3G 11" "beam 8 2000000 3G 12"
      "depth-first - 10000000 4G" "depth-first - 40000000 6G" "depth-first - 100000000 10G"
      "depth-first - 10000000 2G" "depth-first - 10000000 3G" "depth-first - 90000000 8G"
      "depth-first - 10000000 3G" "sat - 100000000 2G")
    # Those from the 19th came with the Wheel's pruning rule 5 (session 57) and ran over every
    # deal left, their records made in files of their own (`stats --unknown-in`) and appended;
    # the 21st (session 58, before rule 6) over 12 of the 14 left, the 22nd (with rule 6)
    # over all 14, none decided; the 23rd (2026-12-01, with rule 7) over all 14, none decided;
    # the 24th (session 61) over the 2 not tried within 100M, the 25th (with rule 5's wider
    # last-deal search) over all 14 in a file of its own, appended: none decided. The 26th,
    # the SAT search (session 63), over all 14 in a file of its own, appended: 1 won, 13
    # lost, every deal decided.
    based=2 ;;
  klondike-draw3 | klondike-draw1)
    own=99999
    play=(klondike --draw "${game#klondike-draw}")
    # Blake & Gent's yardstick (docs/rules/klondike.md). After the beam's first pass, the
    # narrower search (without worrying back) wins many of the deals left in a few positions;
    # drawing three, the wider search proves losses drawing one; drawing one, depth-first
    # proves them there; then the beam within 2M, and with a salt. 2026-11-29: drawing three,
    # the second rung has run over the deals drawing one won in its first pass, the third
    # over every deal drawing one had not won, the fourth over every deal left; drawing one,
    # the second over every deal, the third over the deals the wider search had proven lost
    # drawing one (all lost within it), the fourth over every deal left. The fifth has run,
    # drawing three, over the deals left that drawing one had won, and drawing one over every
    # deal left; then, drawing three, the sixth over 1,071 of the deals left that drawing one had
    # won, and drawing one the sixth (the narrower search, drawing three among its variants)
    # over the 29 deals won drawing three. The seventh, once the key took twin runs for one
    # (lost graphs 10 to 45 times smaller), over every deal left; drawing three the eighth after
    # it, over the deals left that drawing one had lost. Then (session 56, the blocked-card test
    # following what lies on what) depth-first within 4M, drawing one over every deal left,
    # drawing three over those drawing one had won; drawing three the wider search within 4M
    # over those drawing one had lost; drawing one depth-first within 16M over every deal left;
    # drawing three the wider search within 16M over those drawing one had newly lost, then
    # depth-first within 16M over every deal left; then depth-first within 64M, and drawing
    # three the wider search within 64M over the deals drawing one had newly lost: every deal
    # decided (docs/rules/klondike.md, Where the search stands).
    rungs=("beam 8 200000 2G" "narrower - 100000 2G")
    if [[ $game == klondike-draw3 ]]; then
      rungs+=("wider - 2000000 2G" "beam 8 2000000 2G" "beam 8 2000000 2G 1"
        "beam 8 2000000 2G 2")
    else
      rungs+=("depth-first - 2000000 2G" "beam 8 2000000 2G" "beam 8 2000000 2G 1"
        "narrower - 2000000 2G")
    fi
    rungs+=("depth-first - 1000000 2G")
    if [[ $game == klondike-draw3 ]]; then
      rungs+=("wider - 1000000 2G" "depth-first - 4000000 2G" "wider - 4000000 2G"
        "wider - 16000000 3G")
    else
      rungs+=("depth-first - 4000000 2G")
    fi
    rungs+=("depth-first - 16000000 3G" "depth-first - 64000000 6G")
    if [[ $game == klondike-draw3 ]]; then
      rungs+=("wider - 64000000 6G")
    fi
    based=1 ;;
  *)
    echo "scripts/ladder.sh: no ladder for '$game' (harp, sedgewick, terrace, queens, wheel, wheel-deal-any-time, klondike-draw3, klondike-draw1)" >&2
    exit 2 ;;
esac
cargo build --release --quiet
mkdir -p runs results
last=${LAST:-$own}
file="runs/${game}-seeds0-${last}.jsonl"
base="runs/${game}-seeds0-${last}-base.json"
summary="results/${named:-$game}.json"
[[ $last == "$own" ]] || summary="results/${game}-seeds0-${last}.json"
threads=()
[[ -n "${THREADS:-}" ]] && threads=(--threads "$THREADS")
over_base=()
first=1
if [[ ! -e $file && -e $base && -z "${FRESH:-}" ]]; then
  over_base=(--unknown-in "$base")
  file="runs/${game}-seeds0-${last}-retries.jsonl"
  first=$((based + 1))
fi
for ((i = ${FROM:-$first}; i <= ${#rungs[@]}; i++)); do
  read -r search width nodes memory salt widest level <<< "${rungs[i - 1]}"
  args=(--search "$search" --max-nodes "$nodes" --max-memory "$memory")
  [[ $width != - ]] && args+=(--beam-width "$width")
  [[ -n $salt && $salt != - ]] && args+=(--beam-salt "$salt")
  [[ -n $widest && $widest != - ]] && args+=(--max-beam-width "$widest")
  [[ -n $level ]] && args+=(--rollout-level "$level")
  ((i > 1)) && args+=(--retry-unknown)
  echo "rung $i of ${#rungs[@]}: ${args[*]} ${over_base[*]}" >&2
  target/release/patience stats "${play[@]}" --seeds "${seeds_from}..${last}" "${args[@]}" \
    "${threads[@]}" "${over_base[@]}" --jsonl "$file" --resume --no-json > /dev/null
done
if ((${#over_base[@]})) && [[ ! -e $file ]]; then
  echo "no rung after the ${based} the base holds: $base is the summary" >&2
  cp "$base" "$summary"
elif ((${#over_base[@]})); then
  target/release/patience merge --onto "$base" "$file" "${deeper[@]}" --json "$summary"
else
  target/release/patience merge "$file" --json "$summary"
fi
