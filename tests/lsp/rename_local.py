"""rename_local.py BIN — rename of a local binding (src/service/lsp_local.c):
a local has no stable identity, so it is renamed by scope — the binding and
every use in its scope, never a same-named binding of a sibling scope or
another function; a `{ x }` shorthand (record literal or pattern) keeps its
field (`{ x: name }`); from a use or from the binding; every renamed text
verifies.  Refused: a name the scope already binds (it would shadow or be
captured), a function's name where that function is called, no identifier,
`result`, a stale revision.  Definition and references of a local answer
the same bindings and uses.  Then a sweep over run fixtures: every rename
answered at a seeded position keeps the program's exit status and output."""
import glob
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Lsp, apply, pos, pos_at  # noqa: E402

BIN = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "locals.spx"), encoding="utf-8").read()
URI = "file:///work/lsp/locals.spx"
TD = {"uri": URI}


def verifies(text):
    with tempfile.TemporaryDirectory(prefix="spx-lsp-") as d:
        p = os.path.join(d, "locals.spx")
        open(p, "w", encoding="utf-8").write(text)
        r = subprocess.run([BIN, "check", p], capture_output=True, text=True)
        return r.returncode == 0


def rename(needle, name, nth=0, offset=0):
    r = c.call("textDocument/rename", {"textDocument": TD, "position": pos(TEXT, needle, nth, offset), "newName": name})
    dc = r["documentChanges"]
    assert len(dc) == 1 and dc[0]["textDocument"] == {"uri": URI, "version": 1}, r
    out = apply(TEXT, dc[0]["edits"])
    assert verifies(out), out
    return out, len(dc[0]["edits"])


def refused(needle, name, nth=0, offset=0, **extra):
    params = {"textDocument": TD, "position": pos(TEXT, needle, nth, offset), "newName": name}
    params.update(extra)
    return c.error("textDocument/rename", params)


def fn_text(text, name):
    """The text of function `name` (to its closing line)."""
    at = text.index(f"fn {name}(")
    return text[at:text.index("\n}\n", at) + 3]


c = Lsp(BIN)
c.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
c.notify("initialized", {})
c.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "semaprax", "version": 1, "text": TEXT}})
assert c.note("textDocument/publishDiagnostics")["diagnostics"] == []

# a parameter, from a use in the contract: the binding, the contract, the loop condition
out, n = rename("n >= 0", "count")
assert n == 4 and "fn sum(count: i64)" in out and "requires count >= 0" in out and "while i < count" in out \
    and "i < count\n" in out, out
assert fn_text(out, "area") == fn_text(TEXT, "area")
# a `let mut` from its binding: every read and assignment
out, n = rename("total = 0", "running")
assert n == 4 and "let mut running = 0;" in out and "running = running + i;" in out and "    running\n}" in out, out
# sibling scopes: each `x` of branches is its own binding, and make's parameter `x` another
out, n = rename("x + 1", "first")
assert n == 2 and "let first = 1;\n        first + 1" in out and "let x = 2;\n        x * 3" in out, out
assert fn_text(out, "make") == fn_text(TEXT, "make")
out, n = rename("x * 3", "second")
assert n == 2 and "let x = 1;" in out and "let second = 2;\n        second * 3" in out, out
# a shorthand field init `Pt { x, y }` keeps its field
out, n = rename("x: i64) -> Pt", "px")
assert n == 3 and "fn make(px: i64)" in out and "let y = px + 1;" in out and "Pt { x: px, y }" in out, out
# a pattern's shorthand binding keeps its field too; only that arm's uses
out, n = rename("x > y", "left")
assert n == 3 and "Pt { x: left, y }" in out and "if left > y { left } else { y }" in out, out
# a loop item, a closure parameter, a closure capture
out, n = rename("v in values", "item")
assert n == 2 and "for item in values" in out and "acc = acc + item;" in out, out
out, n = rename("v + base", "w")
assert n == 2 and "fn(w: i64) -> i64 { w + base }" in out and "for v in values" in out, out
out, n = rename("step(0)", "double")
assert n == 2 and "let double = fn(v: i64) -> i64 { v * 2 };" in out and "double(0)" in out, out
out, n = rename("base = 10", "origin")
assert n == 2 and "let origin = 10;" in out and "v + origin" in out, out

# definition and references of a local answer the same set by scope (a sibling's `x` is
# another binding; the parameter `x` of make a third)
def refs(needle, nth=0, offset=0, decl=True):
    r = c.call("textDocument/references", {"textDocument": TD, "position": pos(TEXT, needle, nth, offset),
                                           "context": {"includeDeclaration": decl}})
    return [x["range"]["start"] for x in r]


assert refs("x + 1") == [pos(TEXT, "x = 1"), pos(TEXT, "x + 1")]
assert refs("x * 3", decl=False) == [pos(TEXT, "x * 3")]
assert refs("x: i64) -> Pt") == [pos(TEXT, "x: i64) -> Pt"), pos(TEXT, "x + 1;"), pos(TEXT, "x, y }\n")]
d = c.call("textDocument/definition", {"textDocument": TD, "position": pos(TEXT, "total\n}")})
assert d == {"uri": URI, "range": {"start": pos(TEXT, "total = 0"), "end": pos(TEXT, "total = 0", offset=5)}}, d
assert refs("v + base") == [pos(TEXT, "v: i64) -> i64 { v + base"), pos(TEXT, "v + base")]

# refused: a name bound in the scope already (no shadowing; a capture would change meaning)
e = refused("total = 0", "i")
assert e["code"] == -32803 and "SPX-T209" in e["message"], e
# a function's name where it is called: the call would read the local (no function value)
e = refused("p = make", "area")
assert e["code"] == -32803 and "SPX-P202" in e["message"], e
# a function's name where it is read as a value: the renamed text verifies
# (`twice(inc, 1)` would pass the closure), but it means another program
e = refused("step = fn", "inc")
assert e["code"] == -32803 and "changes meaning" in e["message"], e
for bad in ("1abc", "a b", "_", "result", "x-y", ""):
    e = refused("total = 0", bad)
    assert e["code"] in (-32803, -32602), (bad, e)
e = refused("total = 0", "running", revision="sha256:" + "0" * 64)
assert e["code"] == -32801 and "stale" in e["message"], e
# a revision holding NUL is no revision (never the current one before the NUL)
cur = subprocess.run([BIN, "check", os.path.join(HERE, "locals.spx")], capture_output=True, text=True).stdout
cur = cur.split("(")[-1].rstrip(")\n")
ok = c.call("textDocument/rename", {"textDocument": TD, "position": pos(TEXT, "total = 0"), "newName": "running", "revision": cur})
assert len(ok["documentChanges"][0]["edits"]) == 4, ok
e = refused("total = 0", "running", revision=cur + "\u0000x")
assert e["code"] == -32602, e
# a keyword is no binding's name: the candidate does not parse
e = refused("total = 0", "match")
assert e["code"] == -32803, e
# no local and no declaration at the position: the refusal as before
e = refused("module", "x")
assert e["code"] == -32803 and "no declaration" in e["message"], e

assert c.call("shutdown") is None
c.notify("exit")
st, _, err = c.finish()
assert st == 0 and not err, err


# ---- a sweep: renames at seeded positions of run fixtures (every SWEEP_EVERY-th) keep the
# program's meaning: where a rename is answered, the renamed text runs with the same exit
# status and output as the original (a capture, or a use left out, would change them) ----
def run(text):
    with tempfile.TemporaryDirectory(prefix="spx-lsp-") as d:
        p = os.path.join(d, "t.spx")
        open(p, "w", encoding="utf-8").write(text)
        r = subprocess.run([BIN, "run", p], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
        return r.returncode, r.stdout


EVERY = int(os.environ.get("SWEEP_EVERY", "8"))
fixtures = sorted(glob.glob(os.path.join(HERE, "..", "fixtures", "run", "*.spx")))[::EVERY]
rnd = random.Random(25)
c = Lsp(BIN)
c.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
c.notify("initialized", {})
renamed = 0
for f in fixtures:
    text = open(f, encoding="utf-8").read()
    u = "file://" + os.path.abspath(f)
    c.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "semaprax", "version": 1, "text": text}})
    if any(x.get("severity") == 1 for x in c.note("textDocument/publishDiagnostics")["diagnostics"]):
        c.notify("textDocument/didClose", {"textDocument": {"uri": u}})
        continue
    base = None
    words = [m.start() for m in re.finditer(r"\b[a-z_][a-z0-9_]*\b", text)]
    for off in rnd.sample(words, min(len(words), 10)):
        r = c.request("textDocument/rename", {"textDocument": {"uri": u}, "position": pos_at(text, off), "newName": "zq_new"})
        if "error" in r:
            assert r["error"]["code"] in (-32803, -32801), (f, off, r)
            continue
        out = apply(text, r["result"]["documentChanges"][0]["edits"])
        base = base or run(text)
        assert run(out) == base, (f, text[off:off + 30], out)
        renamed += 1
    c.notify("textDocument/didClose", {"textDocument": {"uri": u}})
assert c.call("shutdown") is None
c.notify("exit")
st, _, err = c.finish()
assert st == 0 and not err, err
assert renamed >= len(fixtures), (renamed, len(fixtures))
print("lsp rename_local: ok (%d renames over %d fixtures keep their meaning)" % (renamed, len(fixtures)))
