#!/usr/bin/env python3
"""Checks the results summaries against the inclusions between variants: where every line of
play of one variant is a line of play of another (an option that only adds moves), a deal won
under the narrower is won under the wider, and a deal lost under the wider is lost under the
narrower. A verdict that breaks this is a bug in one of the two searches. Also counts the
verdicts the inclusion gives where a summary says unknown. Exit 1 on a contradiction.
Usage: check-variant-inclusions.py (from the repository's top level or anywhere)."""
import json
import pathlib
import sys

RESULTS = pathlib.Path(__file__).parent.parent / "results"

# (narrower, wider, why): every line of the narrower variant is a line of the wider one.
PAIRS = [
    ("freecell-ms32000-2cells.json", "freecell-ms32000-3cells.json", "a free cell more"),
    ("freecell-ms32000-3cells.json", "freecell-ms32000-4cells.json", "a free cell more"),
    ("wheel-seeds0-99999.json", "wheel-deal-any-time.json", "--deal-any-time adds deals"),
    ("sedgewick-no-wrap-seeds0-9999.json", "sedgewick.json", "the wrap adds builds"),
    ("sedgewick-no-wrap-seeds0-9999.json", "sedgewick-seeds0-99999.json", "the wrap adds builds"),
    ("terrace-seeds0-999.json", "terrace-no-terrace-preference.json", "the flag adds moves"),
    ("terrace-seeds0-999.json", "terrace-fill-from-talon.json", "the flag adds moves"),
    ("terrace.json", "terrace-no-terrace-preference-seeds0-9999.json", "the flag adds moves"),
    ("terrace.json", "terrace-fill-from-talon-seeds0-9999.json", "the flag adds moves"),
    (
        "klondike-draw3-seeds0-999.json",
        "klondike-draw1-seeds0-999.json",
        "drawing one plays any line drawing three plays",
    ),
    (
        "klondike-draw3.json",
        "klondike-draw1.json",
        "drawing one plays any line drawing three plays",
    ),
    ("wheel.json", "wheel-deal-any-time.json", "--deal-any-time adds deals"),
]


def verdicts(name):
    summary = json.load(open(RESULTS / name))
    (kind, first), = summary["first_deal"].items()
    step = summary.get("deal_step", 1)
    return kind, {first + i * step: v for i, v in enumerate(summary["verdicts"])}


broken = False
for narrower, wider, why in PAIRS:
    (kind_n, n), (kind_w, w) = verdicts(narrower), verdicts(wider)
    assert kind_n == kind_w, (narrower, wider)
    common = sorted(set(n) & set(w))
    contradictions = [d for d in common if n[d] == "w" and w[d] == "l"]
    won_implied = sum(1 for d in common if n[d] == "w" and w[d] == "u")
    lost_implied = sum(1 for d in common if w[d] == "l" and n[d] == "u")
    print(
        f"{narrower} within {wider} ({why}): {len(common)} deals, "
        f"{len(contradictions)} contradictions {contradictions[:10]}; "
        f"won by the narrower and unknown to the wider {won_implied}, "
        f"lost by the wider and unknown to the narrower {lost_implied}"
    )
    broken |= bool(contradictions)
sys.exit(1 if broken else 0)
