"""tests/docs/layout.py TEMPLATE FILE… — a text layout a document outlines (a
`<placeholder>` stands for any text, a `…` for any more) against real outputs
(tests/docs-test.sh): every non-empty line of each FILE must match one line of
the outline, its indentation exactly. Prints the lines that match none; exit 1."""
import re
import sys

tmpl = [l for l in open(sys.argv[1], encoding="utf-8").read().split("\n") if l.strip()]
pats = []
for l in tmpl:
    text = l.lstrip(" ")
    parts = re.split(r"(<[^>]*>|…)", text)
    rx = "".join(".+" if p.startswith("<") else ".*" if p == "…" else re.escape(p) for p in parts)
    # the outline's indentation exactly: no more spaces before the line's first text
    pats.append(re.compile(" " * (len(l) - len(text)) + "(?! )" + rx + r"\Z"))
bad = 0
for path in sys.argv[2:]:
    for n, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line and not any(p.match(line) for p in pats):
            print("%s:%d: %s" % (path, n, line[:120])); bad += 1
sys.exit(1 if bad else 0)
