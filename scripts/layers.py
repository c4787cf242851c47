#!/usr/bin/env python3
"""The layering of the source folders, written once: which folder may include which.

  python3 scripts/layers.py --check   every #include "FOLDER/..." in a library folder names itself or a folder
                                      it may use, and docs/architecture.md shows the current table; else the
                                      offending lines and exit 1 (ctest `layering`, in the quick set)
  python3 scripts/layers.py --doc     the table for docs/architecture.md (between its layers markers)

apps/, tests/ and fuzz/ may include everything.
"""
import pathlib
import re
import sys

# folder -> the folders it may include (besides itself). Lower layers first.
ALLOWED = {
    "util": [],
    "core": ["util"],
    "replay": ["core", "util"],
    "nn": ["core", "util"],
    "alphabeta": ["core", "util"],
    "mcts": ["core", "nn", "util"],
    "selfplay": ["core", "mcts", "nn", "replay", "util"],
    "arena": ["alphabeta", "core", "mcts", "nn", "util"],
    "records": ["core", "replay", "util"],
    "teacher": ["alphabeta", "arena", "core", "replay", "util"],
    "training": ["core", "nn", "replay", "selfplay", "util"],
    "play": ["alphabeta", "core", "mcts", "nn", "util"],
    "web": ["alphabeta", "core", "nn", "play", "records", "replay", "util"],
    "cluster": ["replay", "util"],
}
ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')
BEGIN, END = "<!-- layers:begin (scripts/layers.py --doc) -->", "<!-- layers:end -->"


def layer_of(rel):
    """The layer of a source path relative to the root, or None for apps/tests/fuzz/others."""
    return rel.parts[0] if rel.parts[0] in ALLOWED else None


def violations():
    out = []
    for path in sorted(ROOT.rglob("*")):
        if path.suffix not in (".h", ".cpp") or not path.is_file():
            continue
        rel = path.relative_to(ROOT)
        if rel.parts[0].startswith("build") or rel.parts[0] == "third_party":
            continue
        layer = layer_of(rel)
        if layer is None:
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            if target not in ALLOWED or target == layer or target in ALLOWED[layer]:
                continue
            out.append(f"{rel}:{n}: {layer} may not include {target} ({line.strip()})")
    return out


def doc_table():
    rows = ["| layer | may use |", "|---|---|"]
    for layer, uses in ALLOWED.items():
        rows.append(f"| `{layer}` | {', '.join(f'`{u}`' for u in uses) or '-'} |")
    rows.append("| `apps`, `tests`, `fuzz` | every layer |")
    return "\n".join(rows)


def main(argv):
    if argv[1:] == ["--doc"]:
        print(doc_table())
        return 0
    if argv[1:] != ["--check"]:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = violations()
    for b in bad:
        print(b)
    doc = (ROOT / "docs/architecture.md").read_text()
    want = f"{BEGIN}\n{doc_table()}\n{END}"
    if want not in doc:
        bad.append("docs/architecture.md: the layers table differs from scripts/layers.py --doc")
        print(bad[-1])
    print(f"layering: {len(bad)} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
