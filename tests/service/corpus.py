"""corpus.py BIN [DIR [EVERY]] — the service agrees with `semaprax check --json` on
every fixture (tests/fixtures/**/*.spx): each is refreshed into one
long-lived service, then edited three ways — a comment line inserted after
the module line (positions move, parse backdated), a blank line at the end
of the first and of the last declaration with a body (that body re-checked)
and back, and a `let` statement inserted at the top of the first body and
back — and after each step the diagnostics, their order and the revision
must equal check's.  Edits inside one declaration take the incremental
parse (a splice, `parse:decl:<key>` in the trace) where it applies: the
service runs with SPX_SERVICE_VERIFY_SPLICE, so every splice is also
compared with a whole parse of the same text (tree dump, every span, the
comments), and the splices must have happened."""
import glob
import json
import os
import subprocess
import sys

from client import Client, check, cli_check, tempdir

BIN = sys.argv[1]
ROOT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "fixtures")
EVERY = int(sys.argv[3]) if len(sys.argv) > 3 else 1   # a sample: every EVERY-th fixture
files = sorted(glob.glob(os.path.join(ROOT, "**", "*.spx"), recursive=True))[::EVERY]
d = tempdir()
path = os.path.join(d, "corpus.spx")
open(path, "w").close()
os.environ["SPX_SERVICE_VERIFY_SPLICE"] = "1"
c = Client(BIN, path)
steps = 0
splices = 0
reuses = 0
# check --json of a text already checked at this path: its answer again (the
# "back" steps restore a text exactly; check is deterministic, so one process
# per distinct text, while the service still answers every step)
checked = {}


def step(text, what):
    global steps, splices, reuses
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        return
    with open(path, "wb") as f:
        f.write(data)
    r = c.call("refresh", {"text": text, "trace": True, "revision": True})
    splices += any(x.startswith("parse:decl:") for x in r["trace"]["executed"])
    reuses += "resolve" in r["trace"]["reused"] and any(x.startswith("body:") for x in r["trace"]["executed"])
    if data not in checked:
        checked[data] = cli_check(BIN, path)
    diags, rev = checked[data]
    check(r["diagnostics"] == diags, "%s: diagnostics differ from check --json\nservice: %s\ncheck:   %s" %
          (what, json.dumps(r["diagnostics"])[:3000], json.dumps(diags)[:3000]))
    check(r["revision"] == rev, "%s: revision %r, check %r" % (what, r["revision"], rev))
    steps += 1


for fx in files:
    try:
        with open(fx, encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        continue
    if len(text) > 200000:
        continue
    checked.clear()
    step(text, fx)
    nl = text.find("\n")
    if nl >= 0:
        step(text[:nl + 1] + "// moved\n" + text[nl + 1:], fx + " (comment inserted)")
    at = text.find("\n}\n")
    if at >= 0:
        step(text[:at] + "\n" + text[at:], fx + " (a body edited)")
        step(text, fx + " (back)")
    fn = text.find("\nfn ")
    top = text.find("{\n", fn) if fn >= 0 else -1
    if top >= 0:
        step(text[:top + 2] + "    let spx_corpus_edit = 1;\n" + text[top + 2:], fx + " (a statement inserted)")
        step(text, fx + " (the statement removed)")
    last = text.rfind("\n}\n")
    if last > at >= 0:
        step(text[:last] + "\n" + text[last:], fx + " (the last body edited)")
        step(text, fx + " (back again)")
c.call("shutdown")
c.notify("exit")
status, _, err = c.close()
check(status == 0, "service exit %r %s" % (status, err[-2000:]))
check(splices > len(files) // 4, "the incremental parse ran (%d splices)" % splices)
check(reuses > len(files) // 4, "the reusable resolve ran (%d)" % reuses)
print("service corpus: ok (%d fixtures, %d steps agree with check --json, %d of them splices verified against a whole parse, "
      "%d body re-checks with the resolve reused)" % (len(files), steps, splices, reuses))
