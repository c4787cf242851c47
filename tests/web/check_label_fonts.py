#!/usr/bin/python3
# Every Hangul and Hanja character the web pages (web/static/*.html, *.js) and the server's notation
# (core/notation.cpp, core/notation_xiangqi.cpp) use must be in the embedded label font, and every piece label in the pieces' font,
# or a browser without CJK fonts shows an empty box. Fails with the missing characters; the fix is
# scripts/make-web-fonts.sh. Needs python3-fonttools (scripts/install-deps.sh).
import glob, re, sys
from fontTools.ttLib import TTFont

root = sys.argv[1]
text = ""
for f in sorted(glob.glob(f"{root}/web/static/*.html") + glob.glob(f"{root}/web/static/*.js")) + [f"{root}/core/notation.cpp", f"{root}/core/notation_xiangqi.cpp"]:
    text += open(f, encoding="utf-8").read()
cjk = re.compile(r"[\u1100-\u11ff\u3000-\u303f\u3130-\u318f\u4e00-\u9fff\uac00-\ud7a3\uff00-\uffef]")
used = {c for c in text if cjk.match(c)}
pieces = set("楚漢士象馬車包卒兵")  # Janggi's
pieces |= set("帥仕相傌俥炮兵將士象馬車砲卒")  # Xiangqi's, red then black, and the river
pieces |= set("楚河漢界")
bad = 0
for font, need in ((f"{root}/web/static/labels-sans.woff", used), (f"{root}/web/static/labels-serif.woff", used | pieces)):
    cmap = TTFont(font).getBestCmap()
    missing = sorted(c for c in need if ord(c) not in cmap)
    for c in missing:
        print(f"{font}: no glyph for {c} (U+{ord(c):04X})")
    bad += len(missing)
print(f"{len(used)} CJK characters used; {bad} missing")
sys.exit(1 if bad else 0)
