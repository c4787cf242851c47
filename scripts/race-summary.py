#!/usr/bin/env python3
"""Figures of a learning race from the runs' metrics (run `janggi-zero report` first for games.csv).
   scripts/race-summary.py RUN_DIR...
KL(search target || prior) = loss_policy - target_entropy per train.csv row; endings from
metrics/games.csv (one row per chunk, in creation order), by quarter of all games."""
import csv, sys

def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))

def num(x):
    try: return float(x)
    except (TypeError, ValueError): return None

for run in sys.argv[1:]:
    t = rows(f"{run}/metrics/train.csv")
    kl = [num(r["loss_policy"]) - num(r["target_entropy"]) for r in t
          if num(r["loss_policy"]) is not None and num(r["target_entropy"]) is not None]
    last = t[-1]
    print(f"{run}: step {last['step']}, cpu_hours {last.get('cpu_hours')}, games {last['games']}, "
          f"positions {last['positions']}, ratio {last['ratio']}")
    print(f"  KL(target||prior): min {min(kl):.3f} mean {sum(kl)/len(kl):.3f} last {kl[-1]:.3f} nats; "
          f"target entropy {last['target_entropy']}, policy entropy {last['policy_entropy']}")
    g = rows(f"{run}/metrics/games.csv")
    total = sum(int(r["games"]) for r in g)
    quarters, acc, q = [[0, 0] for _ in range(4)], 0, 0
    for r in g:
        n = int(r["games"])
        ended = int(r.get("double pass", 0) or 0) + int(r.get("bikjang", 0) or 0)
        q = min(3, acc * 4 // max(1, total))
        quarters[q][0] += n
        quarters[q][1] += ended
        acc += n
    share = " -> ".join(f"{100.0 * e / max(1, n):.0f}%" for n, e in quarters)
    print(f"  games ended by double pass or bikjang, by quarter of {total} games: {share}")
