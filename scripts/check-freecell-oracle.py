#!/usr/bin/env python3
"""Compares a results summary over Microsoft deals 1..32000 with the published table of the
fewest free cells each deal needs. Usage: check-freecell-oracle.py CELLS SUMMARY.json"""
import json
import pathlib
import sys

cells, path = int(sys.argv[1]), sys.argv[2]
table = pathlib.Path(__file__).parent.parent / "tests/data/ms32000-min-freecells.txt"
need = {int(a): int(b) for a, b in (line.split() for line in table.read_text().splitlines())}
summary = json.load(open(path))
first = summary["first_deal"]["ms"]
wrong_lost, wrong_won, unknown_lost = [], [], []
for offset, verdict in enumerate(summary["verdicts"]):
    deal = first + offset * summary["deal_step"]
    winnable = need[deal] <= cells
    if verdict == "l" and winnable:
        wrong_lost.append(deal)
    if verdict == "w" and not winnable:
        wrong_won.append(deal)
    if verdict == "u" and not winnable:
        unknown_lost.append(deal)
deals = [first + i * summary["deal_step"] for i in range(len(summary["verdicts"]))]
expected_lost = sum(1 for d in deals if need[d] > cells)
print(f"{cells} cells: {summary['lost']} proven lost (table: {expected_lost}), "
      f"{summary['unknown']} unknown; wrongly lost {wrong_lost}, wrongly won {wrong_won}, "
      f"lost but unknown {unknown_lost}")
sys.exit(1 if wrong_lost or wrong_won else 0)
