#!/usr/bin/env python3
"""The library's functions longer than N lines, longest first: a reading aid, not a check.

  python3 scripts/long_functions.py [--max N] [FOLDER...]

N defaults to 80; a function counts from the first line of its signature to its closing brace. FOLDERs
default to the library folders of scripts/layers.py (not apps/, tests/, fuzz/). The parser only matches
braces outside comments, strings and character literals, so it needs no compiler: a brace that follows a
parameter list at namespace or class scope opens a function body (a lambda or a block inside one is part
of it).
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from layers import ALLOWED, ROOT  # noqa: E402

# Text between a parameter list's ')' and the body's '{': qualifiers, a trailing return type, or a
# constructor's member initializers.
TAIL = re.compile(r"\)\s*(const|noexcept(\([^()]*\))?|override|final|mutable|&|&&|->[^;{}=]*|\s)*"
                  r"(:\s*[^;{}]*)?$", re.S)
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b")


def blank(text):
    """text with comments, string and character literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            k = text.find("(", i)
            delim = ")" + text[i + 2:k] + '"'
            j = text.find(delim, k)
            j = n if j < 0 else j + len(delim)
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator: 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            out.append(c)
            i += 1
            continue
        out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
        i = j
    return "".join(out)


def functions(text):
    """(name, first line, last line) of each function body at namespace or class scope."""
    code = blank(text)
    found = []
    stack = []  # per open brace: True where it is a scope that may hold functions
    start = 0  # where the current declaration began (after the last ; { } at this level)
    i = 0
    while i < len(code):
        c = code[i]
        if c == "{":
            decl = code[start:i]
            at_scope = all(stack)
            paren = decl.rfind(")")
            if at_scope and paren >= 0 and TAIL.search(decl[paren:]) and "=" not in decl[:decl.find("(")]:
                # A function body: skip to its matching brace.
                depth, j = 1, i + 1
                while j < len(code) and depth:
                    depth += {"{": 1, "}": -1}.get(code[j], 0)
                    j += 1
                head = decl.lstrip()
                first = code.count("\n", 0, start + len(decl) - len(head)) + 1
                name = re.findall(r"([~\w:<>]+|operator\s*\S+)\s*\(", decl[:decl.find("(") + 1])
                found.append((name[-1] if name else "?", first, code.count("\n", 0, j - 1) + 1))
                i = start = j
                continue
            stack.append(bool(SCOPE.search(decl)) and at_scope)
            start = i + 1
        elif c == "}":
            if stack:
                stack.pop()
            start = i + 1
        elif c == ";":
            start = i + 1
        elif c == "#" and code[start:i].strip() == "":  # preprocessor line
            j = code.find("\n", i)
            while j > 0 and code[j - 1] == "\\":
                j = code.find("\n", j + 1)
            i = start = len(code) if j < 0 else j + 1
            continue
        i += 1
    return found


def main(argv):
    limit, folders = 80, []
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == "--max" and args:
            limit = int(args.pop(0))
        elif a.startswith("-"):
            print(__doc__.strip(), file=sys.stderr)
            return 2
        else:
            folders.append(a.rstrip("/"))
    rows = []
    for folder in folders or list(ALLOWED):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".h", ".cpp") or not path.is_file():
                continue
            for name, first, last in functions(path.read_text(errors="replace")):
                if last - first + 1 > limit:
                    rows.append((last - first + 1, f"{path.relative_to(ROOT)}:{first}", name))
    for lines, where, name in sorted(rows, key=lambda r: (-r[0], r[1])):
        print(f"{lines:5d}  {where}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
