#!/usr/bin/env python3
"""The SAT search against the searches' proofs: every deal with a decided record of at least
MIN positions in a records file is solved again with `--search sat`, and the verdicts compared.

Usage: scripts/sat-cross-check.py RECORDS.jsonl MIN [VARIANT FLAGS...]
e.g.   scripts/sat-cross-check.py runs/wheel-seeds0-999999-retries.jsonl 1000000
Prints each disagreement, then the tally; exits 1 on any disagreement. The game is the one the
records file names on its first line (the Wheel is the one with formulas for now).
"""
import json
import subprocess
import sys


def main():
    records, least, flags = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    with open(records) as f:
        lines = [json.loads(line) for line in f]
    game = lines[0]["game"]
    proven = {}
    for r in lines[1:]:
        if r.get("verdict") in ("won", "lost") and r["nodes"] >= least:
            if r.get("search") != "sat":
                proven[r["deal"]["seed"]] = r["verdict"]
    tally, wrong = {}, 0
    for seed, verdict in sorted(proven.items()):
        out = subprocess.run(
            ["target/release/patience", "solve", game, *flags, "--seed", str(seed),
             "--search", "sat", "--json"],
            capture_output=True, text=True, check=True).stdout
        got = json.loads(out)["verdict"]
        tally[(verdict, got)] = tally.get((verdict, got), 0) + 1
        if got != verdict:
            wrong += 1
            print(f"seed {seed}: the searches {verdict}, SAT {got}", flush=True)
    for (verdict, got), n in sorted(tally.items()):
        print(f"{verdict} by the searches, {got} by SAT: {n}")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
