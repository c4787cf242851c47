#!/usr/bin/env python3
"""Running score of player1 in an `evaluate` games file (JSONL), e.g. while the match is still going.
Usage: scripts/match-score.py RESULTS_DIR_OR_GAMES_FILE"""
import glob, json, math, os, sys

path = sys.argv[1]
files = [path] if path.endswith('.jsonl') else sorted(glob.glob(os.path.join(path, '*.games.jsonl')))
for f in files:
    w = d = l = 0
    for line in open(f):
        g = json.loads(line)
        r = g['result']
        p1_cho = g['player1_cho']
        if r == '1/2-1/2':
            d += 1
        elif (r == '1-0') == p1_cho:
            w += 1
        else:
            l += 1
    n = w + d + l
    s = (w + 0.5 * d) / n if n else 0.5
    elo = -400 * math.log10(1 / s - 1) if 0 < s < 1 else float('inf') * (1 if s else -1)
    print(f'{os.path.basename(f)}: +{w} ={d} -{l} of {n}, score {s:.3f}, Elo {elo:+.0f}')
