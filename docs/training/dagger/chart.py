#!/usr/bin/env python3
"""Draws race.svg: each arm's score against its parent rl-44817 (64 simulations each, 100 colour-swapped
games, or 50 where the table says) at the CPU hours it had spent, with the 95% interval. The points are the matches of README.md."""
import math
import pathlib

# (arm, CPU hours, points, games)
POINTS = [
    ("plain self-play (rl2, session 20)", 0.64, 35, 100), ("plain self-play (rl2, session 20)", 0.69, 32, 100),
    ("plain self-play (race arm)", 0.26, 27, 100),
    ("self-play + expert labels (DAgger arm)", 0.30, 58, 100), ("self-play + expert labels (DAgger arm)", 0.74, 64, 100),
    ("self-play + expert labels (DAgger arm)", 1.45, 34, 50), ("self-play + expert labels (DAgger arm)", 8.39, 39, 50),
]
COLORS = {"plain self-play (rl2, session 20)": "#999999", "plain self-play (race arm)": "#c0271d",
          "self-play + expert labels (DAgger arm)": "#155fa0"}
W, H, L, R, T, B = 640, 380, 60, 20, 30, 50
X0, X1, Y0, Y1 = 0.2, 10.0, 0.0, 1.0  # CPU hours on a log scale: the line ran 8 hours


def x(v): return L + math.log(v / X0) / math.log(X1 / X0) * (W - L - R)
def y(v): return H - B - (v - Y0) / (Y1 - Y0) * (H - T - B)


out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{W / 2}" y="18" text-anchor="middle" font-size="14">Score against the parent network rl-44817 '
       '(64 simulations, 100 games)</text>']
for t in [0, 0.25, 0.5, 0.75, 1.0]:
    out.append(f'<line x1="{L}" x2="{W - R}" y1="{y(t)}" y2="{y(t)}" stroke="#ddd"/>')
    out.append(f'<text x="{L - 6}" y="{y(t) + 4}" text-anchor="end">{int(t * 100)}%</text>')
for t in [0.25, 0.5, 1, 2, 4, 8]:
    out.append(f'<text x="{x(t)}" y="{H - B + 16}" text-anchor="middle">{t:g}</text>')
out.append(f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">CPU hours since rl-44817 '
           '(self-play + trainer + teacher labels, log scale)</text>')
out.append(f'<line x1="{L}" x2="{W - R}" y1="{y(0.5)}" y2="{y(0.5)}" stroke="#333" stroke-dasharray="4 3"/>')
for arm, h, pts, n in POINTS:
    s = pts / n
    half = 1.96 * math.sqrt(s * (1 - s) / n)
    c = COLORS[arm]
    out.append(f'<line x1="{x(h)}" x2="{x(h)}" y1="{y(s - half)}" y2="{y(s + half)}" stroke="{c}" stroke-width="2"/>')
    out.append(f'<circle cx="{x(h)}" cy="{y(s)}" r="5" fill="{c}"/>')
for i, (arm, c) in enumerate(COLORS.items()):
    out.append(f'<circle cx="{L + 14}" cy="{T + 16 + 16 * i}" r="5" fill="{c}"/>')
    out.append(f'<text x="{L + 24}" y="{T + 20 + 16 * i}">{arm}</text>')
out.append("</svg>")
(pathlib.Path(__file__).parent / "race.svg").write_text("\n".join(out) + "\n")
