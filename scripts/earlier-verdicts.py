#!/usr/bin/env python3
"""Deals a summary holds unknown that an earlier run decided.

Usage: scripts/earlier-verdicts.py SUMMARY [OTHER ...] [--narrower SUMMARY2] [--out FILE]

SUMMARY is a `stats --json` summary under results/ (same game and variant throughout). The
earlier runs are every committed version of SUMMARY (`git log`) and each OTHER: another
summary, or a `stats --jsonl` records file, over some of the same deals. Prints how many deals
SUMMARY holds unknown that an earlier run won, and how many it proved lost, and stops with an
error if any deal is won in one and lost in another. With --out, writes a copy of SUMMARY in
which only those deals are unknown: give it to `patience stats --unknown-in FILE` to search
them again (`--no-json`; then `patience merge --onto` as usual). The copy's other fields are
SUMMARY's and mean nothing; it is for choosing deals, never a result.

--narrower SUMMARY2 adds the wins of a summary of a variant with fewer moves (`Game::narrower`:
Terrace without `--fill-from-talon`, say, for a SUMMARY with it): they are wins here too, and
`--search narrower` finds them again.

An earlier verdict is a hint where to search, not a verdict: the rules' code may have changed
since, so a deal counts only once the present solver decides it again.
"""
import json
import subprocess
import sys


def deal_number(deal):
    return deal if isinstance(deal, int) else next(iter(deal.values()))


def summary_verdicts(summary):
    first = deal_number(summary["first_deal"])
    step = summary["deal_step"]
    return {first + i * step: v for i, v in enumerate(summary["verdicts"])}


def records_verdicts(text):
    """A records file's verdict per deal: a won or lost record outranks an unknown one."""
    verdicts = {}
    for line in text.splitlines():
        record = json.loads(line)
        if "deal" in record:
            deal, verdict = deal_number(record["deal"]), record["verdict"][0]
            if verdicts.get(deal, "u") == "u":
                verdicts[deal] = verdict
    return verdicts


def committed_versions(path):
    log = subprocess.run(["git", "log", "--format=%H", "--", path], capture_output=True, text=True)
    # A file outside a git checkout has no committed versions.
    for revision in log.stdout.split() if log.returncode == 0 else []:
        shown = subprocess.run(["git", "show", f"{revision}:{path}"], capture_output=True, text=True)
        if shown.returncode == 0:
            yield json.loads(shown.stdout)


def main(args):
    def option(name):
        nonlocal args
        if name not in args:
            return None
        at = args.index(name)
        value = args[at + 1]
        args = args[:at] + args[at + 2 :]
        return value

    out = option("--out")
    narrower = option("--narrower")
    if not args:
        sys.exit(__doc__.split("\n\n")[1])
    path, others = args[0], args[1:]
    with open(path) as f:
        summary = json.load(f)
    kind = (summary["game"], summary["variant"])
    now = summary_verdicts(summary)
    earlier = [summary_verdicts(s) for s in committed_versions(path) if (s["game"], s["variant"]) == kind]
    for other in others:
        with open(other) as f:
            text = f.read()
        if other.endswith(".jsonl"):
            header = json.loads(text.splitlines()[0])
            if (header["game"], header["variant"]) != kind:
                sys.exit(f"{other} is not {kind[0]} ({kind[1]})")
            earlier.append(records_verdicts(text))
        else:
            s = json.loads(text)
            if (s["game"], s["variant"]) != kind:
                sys.exit(f"{other} is not {kind[0]} ({kind[1]})")
            earlier.append(summary_verdicts(s))
    if narrower:
        with open(narrower) as f:
            wins = summary_verdicts(json.load(f))
        earlier.append({deal: v for deal, v in wins.items() if v == "w"})
    decided = {}
    for verdicts in earlier:
        for deal, verdict in verdicts.items():
            if verdict == "u" or deal not in now:
                continue
            if {verdict, now[deal]} == {"w", "l"} or {verdict, decided.get(deal, verdict)} == {"w", "l"}:
                sys.exit(f"deal {deal} is won in one run and lost in another")
            if now[deal] == "u":
                decided[deal] = verdict
    won = sorted(d for d, v in decided.items() if v == "w")
    lost = sorted(d for d, v in decided.items() if v == "l")
    print(f"{path}: {len(won)} unknown deals an earlier run won, {len(lost)} it proved lost")
    if out:
        first = deal_number(summary["first_deal"])
        step = summary["deal_step"]
        chosen = set(decided)
        summary["verdicts"] = "".join(
            "u" if first + i * step in chosen else "w" for i in range(len(summary["verdicts"]))
        )
        with open(out, "w") as f:
            json.dump(summary, f)


if __name__ == "__main__":
    main(sys.argv[1:])
