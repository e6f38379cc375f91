"""project_corpus.py BIN [DIR] [EVERY] — every fixture project of DIR
(tests/project) served with SPX_SERVICE_VERIFY_PROJECT and edited through
unsaved buffers: in each module file up to four digits changed one at a
time (bodies, literals, stable ids and module names alike: body edits,
interface changes, renames), a line indented off canonical (G170), a
`requires true` added to a function without a contract, each buffer
dropped again.  Every refresh is compared in-process with a cold
check of the same inputs (the service aborts on a difference), and each
answer is also compared with the first answer of the same bytes."""
import os
import re
import shutil
import sys

from client import Client, check, tempdir

BIN = sys.argv[1]
ROOT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "project")
EVERY = int(sys.argv[3]) if len(sys.argv) > 3 else 1
env = dict(os.environ, SPX_SERVICE_VERIFY_PROJECT="1")
tmp = tempdir()
projects = sorted(p for p in os.listdir(ROOT) if os.path.isfile(os.path.join(ROOT, p, "semaprax.toml")))[::EVERY]
steps = incremental = spliced = reduced = 0
for name in projects:
    d = os.path.join(tmp, name)
    shutil.copytree(os.path.join(ROOT, name), d, symlinks=True)
    srcs = []
    for dp, _, fs in os.walk(d):
        srcs += [os.path.join(dp, f) for f in fs if f.endswith(".spx") and not os.path.islink(os.path.join(dp, f))]
    c = Client(BIN, d, env=env)
    first = c.call("check")
    seen = {}
    for path in sorted(srcs):
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        digits = [m.start() for m in re.finditer(r"[0-9]", text)][:4]
        edits = [(i, i + 1, str((int(text[i]) + 1) % 10)) for i in digits]
        nl = text.find("\n")
        if nl >= 0:
            edits.append((nl + 1, nl + 1, " "))
        # a contract added to the first function without one (its signature
        # text changes, its interface does not)
        m = re.search(r"\nfn [^\n]*\n\{", text)
        if m:
            at = m.end() - 1
            edits.append((at, at, "    requires true\n"))
        for (s, e, t) in edits:
            b = len(text[:s].encode())
            r = c.request("refresh", {"path": path, "edits": [{"start": b, "end": len(text[:e].encode()), "text": t}],
                                      "trace": True})
            if "error" in r:   # not a listed source, or the manifest does not read
                break
            r = r["result"]
            steps += 1
            incremental += "manifest" in r["trace"]["reused"]
            spliced += any(n.startswith("parse:decl:") for n in r["trace"]["executed"])
            reduced += any(n.startswith("resolve:") for n in r["trace"]["executed"])
            key = (path, s, t)
            r2 = c.call("refresh", {"path": path, "trace": True})
            steps += 1
            incremental += "manifest" in r2["trace"]["reused"]
            check(r2["ok"] == first["ok"] and r2["diagnostics"] == first["diagnostics"],
                  "%s: buffer dropped after %r: %r vs %r" % (name, key, r2, first))
    c.call("shutdown")
    c.notify("exit")
    status, rest, err = c.close()
    check(status == 0 and rest == b"", "%s: exit %r" % (name, err[-2000:]))
shutil.rmtree(tmp)
print("service project corpus: ok (%d projects, %d refreshes, %d incremental, each verified against a cold check; "
      "%d edits spliced into a module, %d of them with the declaration pass again)" % (len(projects), steps, incremental, spliced, reduced))
