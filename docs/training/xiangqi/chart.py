#!/usr/bin/env python3
"""Draws curve.svg: the Xiangqi line's score against each alpha-beta rung of its own gauntlet (64 simulations,
20 games per point, gauntlet.csv) at the CPU hours of self-play and trainer it had spent (train.csv's
cpu_hours at that step; the teacher games' 0.91 CPU hours come before and are not on the axis)."""
import csv
import math
import pathlib

HERE = pathlib.Path(__file__).parent
RUNGS = {"alphabeta:depth=1": "#2a9d3a", "alphabeta:depth=2": "#155fa0", "alphabeta:level=easy": "#c0271d"}
W, H, L, R, T, B = 640, 360, 60, 170, 30, 50


def cpu_hours_by_step():
    rows = [(int(r["step"]), float(r["cpu_hours"])) for r in csv.DictReader(open(HERE / "train.csv"))]
    rows.sort()
    def at(step):  # the last logged row at or before the step (the first row for step 0)
        best = rows[0][1]
        for s, h in rows:
            if s > step: break
            best = h
        return best
    return at


def main():
    at = cpu_hours_by_step()
    points = {k: [] for k in RUNGS}
    for r in csv.DictReader(open(HERE / "gauntlet.csv")):
        if r["opponent"] in RUNGS:
            points[r["opponent"]].append((at(int(r["step"])), float(r["score"]), int(r["games"])))
    x1 = max(h for pts in points.values() for h, _, _ in pts) * 1.05 or 1.0
    x = lambda v: L + v / x1 * (W - L - R)
    y = lambda v: H - B - v * (H - T - B)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{(W - R + L) / 2}" y="18" text-anchor="middle" font-size="14">Xiangqi 4x32: score against '
           'alpha-beta (64 simulations, 20 games)</text>']
    for t in [0, 0.25, 0.5, 0.75, 1.0]:
        out.append(f'<line x1="{L}" x2="{W - R}" y1="{y(t)}" y2="{y(t)}" stroke="#ddd"/>')
        out.append(f'<text x="{L - 6}" y="{y(t) + 4}" text-anchor="end">{int(t * 100)}%</text>')
    step = 0.25 if x1 < 2 else 0.5
    for i in range(int(x1 / step) + 1):
        v = i * step
        out.append(f'<text x="{x(v)}" y="{H - B + 16}" text-anchor="middle">{v:g}</text>')
    out.append(f'<text x="{(W - R + L) / 2}" y="{H - 12}" text-anchor="middle">CPU hours of self-play and trainer '
               '(after 0.91 h of teacher games)</text>')
    for i, (rung, color) in enumerate(RUNGS.items()):
        pts = sorted(points[rung])
        if not pts: continue
        for h, s, n in pts:  # 95% interval of a score over n games (normal approximation, clipped)
            e = 1.96 * math.sqrt(max(s * (1 - s), 0.25 / n) / n)
            out.append(f'<line x1="{x(h)}" x2="{x(h)}" y1="{y(min(1, s + e))}" y2="{y(max(0, s - e))}" stroke="{color}" '
                       'stroke-opacity="0.35"/>')
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' %
                   (color, " ".join(f"{x(h):.1f},{y(s):.1f}" for h, s, _ in pts)))
        for h, s, _ in pts:
            out.append(f'<circle cx="{x(h):.1f}" cy="{y(s):.1f}" r="3" fill="{color}"/>')
        out.append(f'<rect x="{W - R + 12}" y="{T + 10 + i * 20}" width="12" height="12" fill="{color}"/>')
        out.append(f'<text x="{W - R + 30}" y="{T + 20 + i * 20}">{rung.split(":")[1]}</text>')
    out.append("</svg>")
    (HERE / "curve.svg").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
