#!/usr/bin/env bash
# Regenerates the web page's label fonts, web/static/labels-sans.woff and labels-serif.woff: subsets of
# Noto Sans CJK KR Regular and Noto Serif CJK KR Bold (SIL Open Font License 1.1, web/fonts/OFL.txt)
# holding exactly the Hangul and Hanja characters that the page files (web/static/*.html, *.js) and the
# server's notation (core/notation.cpp: piece names, 한수쉼; core/notation_xiangqi.cpp: Xiangqi's pieces,
# 進退平, 前後, the numerals) use, renamed as the licence asks of a
# modified version. Run it after adding CJK text to a page. Needs Debian's fonts-noto-cjk and
# python3-fonttools (not build dependencies: the fonts are checked in).
set -euo pipefail
cd "$(dirname "$0")/.."
NOTO=/usr/share/fonts/opentype/noto
[ -f $NOTO/NotoSansCJK-Regular.ttc ] || { echo "needs: apt-get install fonts-noto-cjk python3-fonttools" >&2; exit 1; }
/usr/bin/python3 - "$NOTO" <<'PY'
import glob, re, sys
from fontTools.ttLib import TTCollection
from fontTools import subset

noto = sys.argv[1]
text = ""
for f in sorted(glob.glob("web/static/*.html") + glob.glob("web/static/*.js")) + ["core/notation.cpp", "core/notation_xiangqi.cpp"]:
    text += open(f, encoding="utf-8").read()
# Hangul syllables and jamo, CJK ideographs, CJK punctuation and full-width forms.
chars = sorted({c for c in text if re.match(r"[\u1100-\u11ff\u3000-\u303f\u3130-\u318f\u4e00-\u9fff\uac00-\ud7a3\uff00-\uffef]", c)})
print(f"{len(chars)} characters: {''.join(chars)}")

def make(ttc, family, out):
    coll = TTCollection(f"{noto}/{ttc}")
    font = next(f for f in coll.fonts if "KR" in f["name"].getDebugName(1))
    opts = subset.Options()
    opts.flavor = "woff"
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    s = subset.Subsetter(opts)
    s.populate(unicodes=[ord(c) for c in chars])
    s.subset(font)
    name = font["name"]
    # A modified version may not keep the original names (OFL 1.1, condition 3).
    for rec in list(name.names):
        if rec.nameID in (1, 3, 4, 6, 16, 17, 21, 22):
            name.removeNames(nameID=rec.nameID)
    style = "Bold" if "Bold" in ttc else "Regular"
    for nid, value in ((1, family), (2, style), (3, f"{family}-{style}"), (4, f"{family} {style}"),
                       (6, f"{family.replace(' ', '')}-{style}")):
        name.setName(value, nid, 3, 1, 0x409)
        name.setName(value, nid, 1, 0, 0)
    desc = name.getDebugName(10) or ""
    name.setName((desc + " " if desc else "") + "Subset for janggi-zero's web page by scripts/make-web-fonts.sh.", 10, 3, 1, 0x409)
    font.flavor = "woff"
    font.save(out)
    print(out, family, style)

make("NotoSansCJK-Regular.ttc", "JZ Labels Sans", "web/static/labels-sans.woff")
make("NotoSerifCJK-Bold.ttc", "JZ Labels Serif", "web/static/labels-serif.woff")
PY
ls -l web/static/labels-*.woff
