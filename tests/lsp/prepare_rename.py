"""prepare_rename.py BIN — textDocument/prepareRename (src/service/lsp_feat.c):
initialize offers `renameProvider: {prepareProvider: true}`; the answer is
{range, placeholder} of the name under the cursor where rename would be
planned — a local (binding or use), a function (declaration or call), a
record field, a variant case, a case field — and null on a keyword, a
literal, a type, a record's name, `result`, a builtin (`vec_push`), a
compiler-owned case (`Option::Some`) and `main` (its rename does not
verify); a document that does not verify is refused (-32803) as rename is.
In a project: an imported function's alias, a declaration, a local.  Then a sweep over run fixtures: at seeded
identifier positions, prepareRename answers exactly where a rename to a
fresh name is answered, with the range rename edits there."""
import glob
import os
import random
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Lsp, pos, pos_at, rng  # noqa: E402

BIN = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = """module lsp.prepare;

@id("pr.pt")
record Pt {
    @id("pr.pt.x")
    x: i64,
}

@id("pr.shape")
variant Shape {
    @id("pr.shape.dot")
    Dot {
        @id("pr.shape.dot.at")
        at: Pt,
    },
    @id("pr.shape.none")
    Nothing,
}

@id("pr.area")
fn area(s: Shape) -> i64
    ensures result >= 0
{
    match s { Shape::Dot { at: p } => if p.x > 0 { p.x } else { 0 }, Shape::Nothing {} => { 0 }, }
}

@id("pr.main")
fn main() -> i64
{
    let total = area(Shape::Dot { at: Pt { x: 42 } });
    let v = vec_push<i64>(vec_with_capacity<i64>(4usize), total);
    let o = Option<i64>::Some { value: total };
    match o { Option::Some { value: n } => n + i64_from_usize(vec_len<i64>(v)), Option::None {} => 0, }
}
"""
URI = "file:///work/lsp/prepare.spx"
TD = {"uri": URI}


def prepare(needle, nth=0, offset=0):
    return c.call("textDocument/prepareRename", {"textDocument": TD, "position": pos(TEXT, needle, nth, offset)})


def offered(needle, name, nth=0, offset=0, at=None, at_nth=0):
    """prepareRename at needle answers the range of `name` (at the nth `at`, default needle) and its text."""
    r = prepare(needle, nth, offset)
    want = rng(TEXT, at if at is not None else needle, at_nth if at is not None else nth, len(name))
    assert r == {"range": want, "placeholder": name}, (needle, r, want)


c = Lsp(BIN)
init = c.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
assert init["capabilities"]["renameProvider"] == {"prepareProvider": True}, init
c.notify("initialized", {})
c.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "semaprax", "version": 1, "text": TEXT}})
assert c.diags(URI) == []

# a local: its binding, a use, and the cursor at the name's end
offered("total = area", "total")
offered("total);", "total")
offered("total);", "total", offset=5)
offered("p.x > 0", "p")
# a function: its declaration and a call
offered("area(s", "area")
offered("area(Shape", "area", offset=2)
# a record field: its declaration and a projection; a variant case and a case field
offered("x: i64", "x")
offered("x > 0", "x", at="x > 0")
offered("Dot {\n", "Dot")
offered("Dot { at: Pt", "Dot")
offered("at: Pt,", "at")
# null: a keyword, a literal, a type, a record's name, `result`, blank space,
# a builtin, a compiler-owned case and its field
for needle, nth, off in (("fn area", 0, 0), ("let total", 0, 1), ("42", 0, 0), ("0 }, Shape", 0, 0), ("i64,", 0, 1),
                         ("record Pt", 0, 7), ("result >= 0", 0, 2), ("    let total", 0, 1), ("vec_push", 0, 3),
                         ("vec_len", 0, 0), ("i64_from_usize", 0, 4), ("Some { value: total", 0, 1), ("Option<i64>", 0, 1), ("value: total", 0, 0), ("module", 0, 2)):
    r = prepare(needle, nth, off)
    assert r is None, (needle, r)

# `main`: the patch engine plans it, but the renamed program has no entry point
assert prepare("main()", 0, 1) is None

# a document that does not verify: refused as rename is
BROKEN = TEXT.replace("n + i64_from", "n + missing + i64_from")
c.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": BROKEN}]})
assert any(d["severity"] == 1 for d in c.diags(URI))
e = c.error("textDocument/prepareRename", {"textDocument": TD, "position": pos(BROKEN, "area(s")})
assert e["code"] == -32803 and "does not verify" in e["message"], e
c.notify("textDocument/didClose", {"textDocument": TD})

# a program that itself declares the name prepareRename probes with: still offered
PROBE = """module lsp.probe;

@id("pb.zq")
fn zq_prepare_rename_probe(x: i64) -> i64 {
    x
}

@id("pb.other")
fn other(x: i64) -> i64 {
    zq_prepare_rename_probe(x)
}

@id("pb.main")
fn main() -> i64 {
    other(1)
}
"""
PURI = {"uri": "file:///work/lsp/probe.spx"}
c.notify("textDocument/didOpen", {"textDocument": dict(PURI, languageId="semaprax", version=1, text=PROBE)})
assert c.diags(PURI["uri"]) == []
r = c.call("textDocument/prepareRename", {"textDocument": PURI, "position": pos(PROBE, "other(x")})
assert r == {"range": rng(PROBE, "other(x", 0, 5), "placeholder": "other"}, r
r = c.call("textDocument/prepareRename", {"textDocument": PURI, "position": pos(PROBE, "zq_prepare_rename_probe(x:")})
assert r == {"range": rng(PROBE, "zq_prepare_rename_probe(x:", 0, 23), "placeholder": "zq_prepare_rename_probe"}, r
c.notify("textDocument/didClose", {"textDocument": PURI})

# a project's module (tests/project/impact-module-importers): an imported
# function's alias is offered (rename edits the declaring module), a module's
# local too, an entry `main` not
tmp = tempfile.mkdtemp(prefix="spx-lsp-prepare.")
try:
    root = os.path.join(os.path.realpath(tmp), "geom")
    shutil.copytree(os.path.join(HERE, "..", "project", "impact-module-importers"), root)
    lib = os.path.join(root, "src", "lib.spx")
    core = os.path.join(root, "src", "core.spx")
    for path in (lib, core):
        t = open(path, encoding="utf-8").read()
        c.notify("textDocument/didOpen", {"textDocument": {"uri": "file://" + path, "languageId": "semaprax", "version": 1, "text": t}})
        assert c.note("textDocument/publishDiagnostics")["diagnostics"] == []
    lt = open(lib, encoding="utf-8").read()
    ct = open(core, encoding="utf-8").read()

    def pprep(path, text, needle, offset=0):
        return c.call("textDocument/prepareRename", {"textDocument": {"uri": "file://" + path}, "position": pos(text, needle, 0, offset)})
    call = "gcd(12, 18) + lcm(4, 6)\n"   # the body's call (the comment above has the same text)
    assert pprep(lib, lt, call) == {"range": rng(lt, call, 0, 3), "placeholder": "gcd"}
    assert pprep(lib, lt, "lcm(4, 6)\n", 2) == {"range": rng(lt, "lcm(4, 6)\n", 0, 3), "placeholder": "lcm"}
    assert pprep(core, ct, "gcd(a, b)") == {"range": rng(ct, "gcd(a, b)", 0, 3), "placeholder": "gcd"}
    assert pprep(core, ct, "value < low") == {"range": rng(ct, "value < low", 0, 5), "placeholder": "value"}
    assert pprep(lib, lt, "main()", 1) is None
    assert pprep(core, ct, "fn clamp") is None
    for path in (lib, core):
        c.notify("textDocument/didClose", {"textDocument": {"uri": "file://" + path}})
finally:
    shutil.rmtree(tmp)

# the sweep: prepareRename answers where rename answers, with the range it edits there
EVERY = int(os.environ.get("SWEEP_EVERY", "8"))
fixtures = sorted(glob.glob(os.path.join(HERE, "..", "fixtures", "run", "*.spx")))[::EVERY]
rnd = random.Random(36)
agreed = offers = 0
for f in fixtures:
    text = open(f, encoding="utf-8").read()
    u = "file://" + os.path.abspath(f)
    c.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "semaprax", "version": 1, "text": text}})
    if any(x.get("severity") == 1 for x in c.diags(u)):
        c.notify("textDocument/didClose", {"textDocument": {"uri": u}})
        continue
    words = [m.start() for m in re.finditer(r"\b[A-Za-z_][A-Za-z0-9_]*\b", text)]
    for off in rnd.sample(words, min(len(words), 10)):
        p = pos_at(text, off)
        pr = c.request("textDocument/prepareRename", {"textDocument": {"uri": u}, "position": p})
        rn = c.request("textDocument/rename", {"textDocument": {"uri": u}, "position": p, "newName": "zq_new"})
        assert "error" not in pr, (f, off, pr)
        if "error" in rn:
            assert rn["error"]["code"] in (-32803, -32801), (f, off, rn)
            assert pr["result"] is None, (f, text[off:off + 30], pr, rn)
        else:
            res = pr["result"]
            assert res is not None, (f, text[off:off + 30], rn)
            edits = rn["result"]["documentChanges"][0]["edits"]
            assert any(e["range"] == res["range"] for e in edits), (f, text[off:off + 30], res, edits)
            assert text[off:].startswith(res["placeholder"]) or res["placeholder"] in text, (f, res)
            offers += 1
        agreed += 1
    c.notify("textDocument/didClose", {"textDocument": {"uri": u}})
assert c.call("shutdown") is None
c.notify("exit")
st, _, err = c.finish()
assert st == 0 and not err, err
assert offers >= len(fixtures) // 2, (offers, len(fixtures))
print("lsp prepare_rename: ok (%d positions agree with rename, %d offered, over %d fixtures)" % (agreed, offers, len(fixtures)))
