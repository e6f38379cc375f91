"""project_incr.py BIN — a served project's products per module (issue 17
item 1 for projects): after each scripted edit the refresh trace lists
exactly which modules were re-parsed (`parse:module:<name>`) and re-checked
(`module:<name>`), and the answer equals `semaprax check <dir> --json` (ok,
diagnostics, revision).  The service runs with SPX_SERVICE_VERIFY_PROJECT,
so every incremental refresh is also compared in-process with a cold check
of the same inputs (every module's revision and interface digest, every
diagnostic); a difference aborts the service and fails this test.

The project (tests/service/project_incr/): inc.base (a record and three
functions) <- inc.mid <- inc.top <- inc.lib (entry); inc.side and
inc.tests import nothing."""
import os
import shutil
import sys
import time

from client import Client, check, cli_check, tempdir

BIN = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
d = os.path.join(tempdir(), "inc")
shutil.copytree(os.path.join(HERE, "project_incr"), d)
# settled files (older than 3 s when first read): a refresh trusts an
# unchanged lstat identity instead of re-reading; the same-size body edit
# below must still be seen
time.sleep(3.2)
ALL = ["inc.base", "inc.lib", "inc.mid", "inc.side", "inc.tests", "inc.top"]
env = dict(os.environ, SPX_SERVICE_VERIFY_PROJECT="1")
c = Client(BIN, d, env=env)


def path(m):
    return os.path.join(d, "src", m + ".spx")


def read(m):
    with open(path(m)) as f:
        return f.read()


def write(m, text):
    with open(path(m), "w") as f:
        f.write(text)


def cli():
    return cli_check(BIN, d)


def sets(trace, kind, prefix):
    return sorted(n[len(prefix):] for n in trace[kind] if n.startswith(prefix))


def mods(names):
    return set(n.split(":")[0] for n in names)


def step(what, parsed, checked, params=None, whole=False, disk=True, decls=(), bodies=None, resolved=()):
    """A refresh: parsed/checked are the modules it must re-parse/re-check
    whole, decls the functions spliced into their module's tree
    ("<module>:fn:<name>"), bodies the bodies a reduced check ran (default:
    decls), resolved the modules whose declaration pass ran again for it
    (else it was the kept checker's); every other module reused.
    whole: the manifest executed (a whole check)."""
    bodies = list(decls) if bodies is None else bodies
    p = {"trace": True, "revision": True}
    p.update(params or {})
    r = c.call("refresh", p)
    t = r["trace"]
    check(("manifest" in t["executed"]) == whole, "%s: manifest %r" % (what, t))
    if not whole:
        check(sets(t, "executed", "parse:module:") == sorted(parsed), "%s: parsed %r" % (what, t))
        check(sets(t, "executed", "parse:decl:") == sorted(decls), "%s: spliced %r" % (what, t))
        check(sets(t, "reused", "parse:module:") == sorted(set(ALL) - set(parsed) - mods(decls)), "%s: parse reused %r" % (what, t))
        check(sets(t, "executed", "module:") == sorted(checked), "%s: checked %r" % (what, t))
        check(sets(t, "executed", "body:") == sorted(bodies), "%s: bodies %r" % (what, t))
        check(sets(t, "executed", "resolve:") == sorted(resolved), "%s: resolve executed %r" % (what, t))
        check(sets(t, "reused", "resolve:") == sorted(mods(bodies) - set(resolved)), "%s: resolve reused %r" % (what, t))
        check(sets(t, "reused", "module:") == sorted(set(ALL) - set(checked) - mods(bodies)), "%s: check reused %r" % (what, t))
        some = bool(checked) or bool(bodies)
        check(("project" in t["executed"]) == some and ("project" in t["reused"]) == (not some), "%s: project %r" % (what, t))
    if disk:
        diags, rev = cli()
        check(r["ok"] == (rev is not None) and r["revision"] == rev, "%s: ok/revision %r vs %r" % (what, r, rev))
        check(r["diagnostics"] == diags, "%s: diagnostics %r vs %r" % (what, r["diagnostics"], diags))
    return r


r = c.call("check", {"trace": True})
t = r["trace"]
check(r["ok"] and sets(t, "executed", "module:") == ALL and "manifest" in t["executed"], "cold %r" % t)
step("nothing changed", [], [])

base, mid, top, side = read("base"), read("mid"), read("top"), read("side")
# a body edit: that function spliced into its module's tree and its body
# alone re-checked in the module's kept checker
ONE = ["inc.base:fn:one"]
write("base", base.replace("{\n    1\n}", "{\n    3\n}"))
step("body edit", [], [], decls=ONE)
write("base", base)
step("body edit back", [], [], decls=ONE)
# a comment inside a body (no splice: comments are module-level) and
# between declarations: that module alone
write("side", side.replace("{\n    5\n}", "{\n    // five\n    5\n}"))
step("comment in a body", ["inc.side"], ["inc.side"])
write("side", side.replace("@id(\"inc.side.s\")", "// the side value\n@id(\"inc.side.s\")"))
step("comment before a declaration", ["inc.side"], ["inc.side"])
write("side", side)
step("comment removed", ["inc.side"], ["inc.side"])
# a signature change: spliced, the declaration pass and the bodies naming
# `two` (its own) re-run; the interface changed, so its importer is
# re-linked, and theirs (unchanged) stop the walk
TWO = ["inc.base:fn:two"]
write("base", base.replace("fn two(x: i64) -> i64\n{\n    x + 2", "fn two(x: i64, y: i64) -> i64\n{\n    x + y"))
step("signature edit", [], ["inc.mid"], decls=TWO, resolved=["inc.base"])
write("base", base)
step("signature back", [], ["inc.mid"], decls=TWO, resolved=["inc.base"])
# a contract edit: the interface kept, so no importer runs; the bodies
# naming `one` in its module (none but its own) re-run
ONE_REQ = base.replace("fn one() -> i64\n{", "fn one() -> i64\n    requires true\n{")
write("base", ONE_REQ)
step("contract edit", [], [], decls=["inc.base:fn:one"], resolved=["inc.base"])
write("base", base)
step("contract back", [], [], decls=["inc.base:fn:one"], resolved=["inc.base"])
# in mid, g's signature names `Pt` and its body `norm`: f does not name g
write("mid", mid.replace("fn g(p: Pt) -> i64", "fn g(q: Pt) -> i64").replace("norm(p)", "norm(q)"))
step("parameter renamed", [], ["inc.top"], decls=["inc.mid:fn:g"], resolved=["inc.mid"])
write("mid", mid)
step("parameter back", [], ["inc.top"], decls=["inc.mid:fn:g"], resolved=["inc.mid"])
# an added declaration in mid: top re-linked; top's interface unchanged
write("mid", mid + "\n@id(\"inc.mid.extra\")\nfn extra() -> i64\n{\n    7\n}\n")
step("declaration added", ["inc.mid"], ["inc.mid", "inc.top"])
write("mid", mid)
step("declaration removed", ["inc.mid"], ["inc.mid", "inc.top"])
# an @id another module declares (G172, the whole program's rule): the
# cold check reports it (the verifying cold check would differ otherwise),
# in an added declaration and in a spliced one's header
write("mid", mid + "\n@id(\"inc.one\")\nfn extra() -> i64\n{\n    7\n}\n")
r = step("id of another module", None, None, whole=True)
check(not r["ok"] and [x["code"] for x in r["diagnostics"]] == ["SPX-G172"], "G172 %r" % r)
write("mid", mid)
step("id of another module removed", [], [])
write("side", side.replace("@id(\"inc.side.s\")", "@id(\"inc.two\")"))
r = step("id of another module in a header", None, None, whole=True)
check(not r["ok"] and [x["code"] for x in r["diagnostics"]] == ["SPX-G172"], "G172 %r" % r)
write("side", side)
step("header id back", None, None, whole=True)
# an added `use` changes top's interface (its imports) and order: lib re-linked
top_use = top.replace("use function @id(\"inc.mid.f\") from inc.mid as f;\n",
                      "use function @id(\"inc.mid.f\") from inc.mid as f;\nuse function @id(\"inc.side.s\") from inc.side as s;\n").replace(
    "f() * 2", "f() * s()")
write("top", top_use)
step("use added", ["inc.top"], ["inc.lib", "inc.top"])
write("top", top)
step("use removed", ["inc.top"], ["inc.lib", "inc.top"])
# a type error in mid's body: spliced, but the body reports, so the whole
# module is checked; its importers are not checked (status changed); the
# repair (a module with diagnostics takes a whole parse) re-checks them
write("mid", mid.replace("one() + 1", "one() + true"))
r = step("type error", [], ["inc.lib", "inc.mid", "inc.top"], decls=["inc.mid:fn:f"], bodies=[])
check(not r["ok"] and r["diagnostics"], "broken %r" % r)
write("mid", mid)
r = step("type error repaired", ["inc.mid"], ["inc.lib", "inc.mid", "inc.top"])
check(r["ok"], "repaired")
# a parse error: a whole check answers; the repair starts from the last linked project
write("base", base.replace("{\n    1\n}", "{\n    1\n"))
r = step("parse error", None, None, whole=True)
check(not r["ok"] and r["diagnostics"], "parse error %r" % r)
write("base", base.replace("{\n    1\n}", "{\n    9\n}"))
step("parse error repaired (another body)", [], [], decls=ONE)
write("base", base)
step("back", [], [], decls=ONE)
# not canonical (G170) in the header: a whole check, the base kept, the repair incremental
write("side", side.replace("module inc.side;", "module  inc.side;"))
r = step("G170", None, None, whole=True)
check(any(x["code"] == "SPX-G170" for x in r["diagnostics"]), "G170 %r" % r)
write("side", side)
step("G170 repaired", [], [])
# G170 inside a body: spliced into the base's tree, then found not
# canonical: the base lost that module, so the repair is a whole check too
write("side", side.replace("    5", "  5"))
r = step("G170 in a body", None, None, whole=True)
check(any(x["code"] == "SPX-G170" for x in r["diagnostics"]), "G170 %r" % r)
write("side", side)
step("G170 in a body repaired", None, None, whole=True)
step("nothing changed after", [], [])
# unsaved buffers on two modules, each refresh re-checks its own
S = ["inc.side:fn:s"]
step("buffer on base", [], [], {"path": path("base"), "text": base.replace("    1\n", "    4\n")}, disk=False, decls=ONE)
step("buffer on side", [], [], {"path": path("side"), "edits": [{"start": side.index("5"), "end": side.index("5") + 1, "text": "6"}]}, disk=False, decls=S)
step("buffer on side again", [], [], {"path": path("side"), "edits": [{"start": side.index("5"), "end": side.index("5") + 1, "text": "8"}]}, disk=False, decls=S)
step("refresh with both held", [], [], disk=False)
step("base dropped", [], [], {"path": path("base")}, disk=False, decls=ONE)
step("side dropped", [], [], {"path": path("side")}, decls=S)
# a module renamed: a whole check
write("side", side.replace("module inc.side;", "module inc.sidex;"))
r = step("module renamed", None, None, whole=True)
check(r["ok"], "renamed %r" % r)
write("side", side)
r = step("module renamed back", None, None, whole=True)
# a deleted module file: I001 from a whole check; restored: nothing to re-check
os.rename(path("side"), path("side") + ".gone")
r = step("module file deleted", None, None, whole=True)
check(any(x["code"] == "SPX-I001" for x in r["diagnostics"]), "deleted %r" % r)
os.rename(path("side") + ".gone", path("side"))
step("module file restored", [], [])
# a manifest edit (a new module file listed): a whole check, then per module again
man = os.path.join(d, "semaprax.toml")
with open(man) as f:
    mtext = f.read()
write("extra", "module inc.extra;\nuse function @id(\"inc.one\") from inc.base as one;\n\n@id(\"inc.extra.e\")\nfn e() -> i64\n{\n    one()\n}\n")
with open(man, "w") as f:
    f.write(mtext.replace("\"src/base.spx\", ", "\"src/base.spx\", \"src/extra.spx\", "))
step("module added to the manifest", None, None, whole=True)
ALL = sorted(ALL + ["inc.extra"])
write("base", base.replace("fn two(x: i64) -> i64\n{\n    x + 2", "fn two(x: i64, y: i64) -> i64\n{\n    x + y"))
step("signature edit with two importers", [], ["inc.extra", "inc.mid"], decls=TWO, resolved=["inc.base"])
write("base", base)
step("signature back with two importers", [], ["inc.extra", "inc.mid"], decls=TWO, resolved=["inc.base"])
with open(man, "w") as f:
    f.write(mtext)
os.remove(path("extra"))
ALL.remove("inc.extra")
step("module removed from the manifest", None, None, whole=True)
step("nothing changed at the end", [], [])
# many refreshes in one process (LSan under the sanitizer build: nothing
# leaks across them): a body, a signature, a type error, each undone
cycle = [base.replace("    1\n", "    4\n"), base.replace("fn two(x: i64) -> i64\n{\n    x + 2", "fn two(x: i64, y: i64) -> i64\n{\n    x + y"),
         base.replace("    1\n", "    true\n"), base]
for i in range(int(os.environ.get("PROJECT_INCR_CYCLES", "50"))):
    for text in cycle:
        c.call("refresh", {"path": path("base"), "text": text})
check(c.call("refresh", {"path": path("base")})["ok"], "after the cycles")
c.call("shutdown")
c.notify("exit")
status, rest, err = c.close()
check(status == 0 and rest == b"", "exit %r" % err[-2000:])
print("service project_incr: ok")
