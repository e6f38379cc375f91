"""project.py BIN — `semaprax serve <project-dir>`: the project's products
(per module re-checked from disk on refresh, reused otherwise; the sets are
project_incr.py's), test and run reach the project's commands,
graph/query/context/doc answer as the CLI's project forms; a refresh with
`path` holds an unsaved buffer for one module file, which graph/query/context/doc
read (the bytes the CLI gives on a copy with the buffer saved) while run and
test, which execute the disk, refuse."""
import json
import os
import shutil
import subprocess
import sys

from client import Client, check, tempdir

BIN = sys.argv[1]
d = os.path.join(tempdir(), "proj")
r = subprocess.run([BIN, "new", d, "--template", "library"], capture_output=True)
check(r.returncode == 0, "semaprax new: %r" % r.stderr)

c = Client(BIN, d)
p = c.call("protocol")
check(p["operand"]["kind"] == "project", "project operand")
st = c.call("status")
check(st["kind"] == "project" and st["checked"] is False and st["unsaved"] == [], "status before check %r" % st)
r = c.call("check", {"trace": True})
check(r["ok"] and r["revision"].startswith("sha256:"), "project check %r" % r)
MODS = ["proj.core", "proj.lib", "proj.tests"]
check(r["trace"]["executed"] == ["manifest"] + ["parse:module:" + m for m in MODS] + ["module:" + m for m in MODS] + ["project"],
      "project executed %r" % r["trace"])
r2 = c.call("check", {"trace": True})
check(r2["trace"]["reused"] == ["project"] and r2["revision"] == r["revision"], "project reused")
t = c.call("test")
check(t["exit"] == 0 and json.loads(t["stdout"].splitlines()[-1])["schema"].startswith("semaprax.project"), "test %r" % t)
# qa38: a project's run answers `run <manifest> --json`'s envelope, as a file's does
rn = c.call("run")
env = json.loads(rn["stdout"])
check(rn["exit"] == 0 and env["schema"] == "semaprax.project-execution.v1" and env["payload"]["role"] == "entry", "project run %r" % rn)

# graph, query and context of a project: the CLI's project forms, byte for byte
def cli_json(*args):
    r = subprocess.run([BIN] + list(args), capture_output=True, cwd=d)
    check(r.returncode == 0, "cli %r: %r" % (args, r.stderr))
    return json.loads(r.stdout)

check(c.call("graph")["graph"] == cli_json("graph", "."), "project graph equals the CLI's")
check(c.call("graph")["graph"]["schema"] == "semaprax.project-graph.c1", "project graph schema")
q = c.call("query", {"kind": ["function"], "name": "gcd"})["query"]
check(q == cli_json("query", ".", "--json", "--kind", "function", "--name", "gcd"), "project query equals the CLI's")
check(q["declarations"] and all(row[1] == "function" for row in q["declarations"]), "project query rows %r" % q)
sym = q["declarations"][0][2]
cx = c.call("context", {"symbol": sym, "direction": "both", "depth": 2})["context"]
check(cx == cli_json("context", ".", sym, "--direction", "both", "--depth", "2", "--max-bytes", "65536",
                     "--max-nodes", "256"), "project context equals the CLI's")
check(cx["schema"] == "semaprax.project-agent-context.v1", "project context schema")
# qa38: an empty name or id filter keeps every declaration, as the file form's does (the CLI's
# project form refused it as `option --name needs a value`); an empty calls names none
check(c.call("query", {"name": "", "id": "", "kind": ["function"]})["query"] == cli_json("query", ".", "--json", "--kind", "function"),
      "empty name and id filters")
check(c.error("query", {"calls": ""}) == -32005 and c.error("query", {"effect": ""}) == -32602, "empty calls and effect")
check(c.error("context", {"symbol": "no.such.id"}) == -32005, "unknown symbol")
e = c.request("context", {"symbol": "no.such.id"})["error"]
check("; help: `semaprax query <project>` lists every declaration" in e["message"], "a project's -32005 carries the help %r" % e)
# mend39: and its G001 as a `check` object (no span), not the CLI's human line
g = e.get("data", {}).get("diagnostics", [])
check(len(g) == 1 and g[0]["code"] == "SPX-G001" and g[0]["location"] is None and g[0]["path"] == "semaprax.toml"
      and "no.such.id" in g[0]["message"] and g[0]["help"].startswith("`semaprax query <project>`")
      and not e["message"].startswith("error["), "a project's -32005 data %r" % e)
# mend40: the diagnostic the command reported, not its human line read back: a symbol with a
# tab and an escape is the symbol sent (the human line shows `\x09`), as a file's -32005 says it
e = c.request("context", {"symbol": "p\tq\x1b"})["error"]
g = e.get("data", {}).get("diagnostics", [])
check(e["code"] == -32005 and len(g) == 1 and g[0]["code"] == "SPX-G001" and "`p\tq\x1b`" in g[0]["message"]
      and "`p\tq\x1b`" in e["message"] and "\\x09" not in json.dumps(e), "a project's -32005 of a symbol with controls %r" % e)
check(c.error("context", {"symbol": sym, "filters": ["types"]}) == -32602, "a project context takes no filters")
check(c.error("graph", {"trace": True}) == -32602, "no trace for a project's graph")
check(c.error("refresh", {"text": "x"}) == -32008, "a project refreshes from disk only")
check(c.error("fix") == -32008 and c.error("patch/review", {"patch": "x"}) == -32008, "fix and patch/* edit a single file")
check(c.error("repairs", {"target": "auto:m.f"}) == -32008 and c.error("repair", {"repair": "r", "persistent_id": "m.f"}) == -32008,
      "repairs and repair (agent40) take a single file")
# the refusal says what to send instead: the module file to the CLI, or a transaction
e = c.request("patch/apply", {"patch": "x"})["error"]["message"]
check("`semaprax patch <module file> <patch.spatch>`" in e and "`semaprax patch <project> <transaction.json>`" in e, "patch/apply -32008 %r" % e)

# doc of a project: `semaprax doc <project>` (text, json), byte for byte
def cli_out(where, *args):
    r = subprocess.run([BIN] + list(args), capture_output=True, cwd=where)
    return r.returncode, r.stdout.decode(), r.stderr.decode()

dt = c.call("doc")
check((dt["exit"], dt["stdout"], dt["stderr"]) == cli_out(d, "doc", "."), "project doc equals the CLI's %r" % dt)
check(dt["stdout"].startswith("project ") and "\n== src/" in dt["stdout"], "project doc text %r" % dt)
dj = c.call("doc", {"format": "json"})
check((dj["exit"], dj["stdout"], dj["stderr"]) == cli_out(d, "doc", ".", "--json"), "project doc json equals the CLI's")
check(json.loads(dj["stdout"])["schema"] == "semaprax.project-doc.c1", "project doc schema")
check(c.error("doc", {"format": "html"}) == -32602, "a project's doc is no page")

# an edit on disk is seen at the next refresh, not before
lib = os.path.join(d, "src", "core.spx")
with open(lib) as f:
    src = f.read()
with open(lib, "w") as f:
    f.write(src + "\nfn broken() -> i64 {\n    true\n}\n")
check(c.call("check")["ok"], "not re-read before refresh")
r = c.call("refresh", {"trace": True})
# not canonical (G170): answered by a whole check (project_incr.py covers
# the per-module sets)
check(not r["ok"] and "parse:module:proj.core" in r["trace"]["executed"] and "manifest" in r["trace"]["executed"]
      and r["diagnostics"], "refresh re-checks %r" % r)
with open(lib, "w") as f:
    f.write(src)
check(c.call("refresh")["ok"], "fixed on disk")

# an unsaved buffer (refresh with `path`): the project is checked with those
# bytes instead of the disk's, and answers as the same bytes on disk did
broken = src + "\nfn broken() -> i64 {\n    true\n}\n"
check(c.error("refresh", {"text": broken}) == -32008, "unsaved bytes name their module file")
check(c.error("refresh", {"path": os.path.join(d, "semaprax.toml"), "text": broken}) == -32602, "not a source")
check(c.error("refresh", {"path": os.path.join(d, "src", "nope.spx")}) == -32602, "no such source")
check(c.error("refresh", {"path": 3}) == -32602, "path is a string")
# a relative path is the working directory's; the manifest's own spelling
# (relative to its directory) is refused naming the path that works (a user
# walk: `serve demo` then `refresh` of `src/core.spx` said only "not a source")
c2 = Client(BIN, "proj", cwd=os.path.dirname(d))
e = c2.request("refresh", {"path": "src/core.spx", "text": broken})["error"]
check(e["code"] == -32602 and "`proj/src/core.spx`" in e["message"], "the manifest's spelling named %r" % e)
check(c2.call("status")["unsaved"] == [], "nothing held %r" % e)
e = c2.request("refresh", {"path": "src/nope.spx", "text": broken})["error"]
check(e["code"] == -32602 and "proj/" not in e["message"], "no such source in either spelling %r" % e)
check(c2.close()[0] == 0, "second service ends")
o = c.call("refresh", {"path": lib, "text": broken, "trace": True})
check(not o["ok"] and "parse:module:proj.core" in o["trace"]["executed"] and o["diagnostics"] == r["diagnostics"],
      "overlay checks as the disk bytes did %r" % o)
with open(lib) as f:
    check(f.read() == src, "the overlay never touches the disk")
check(not c.call("check")["ok"], "the overlay is held")
check(c.call("status")["unsaved"] == [lib], "status lists the buffer")
check(c.error("test") == -32006 and c.error("run") == -32006, "run and test execute the disk: refused while unsaved")
# graph/query/context/doc read the held buffer: it does not verify, as the CLI
# on a copy with it saved says
check(c.error("graph") == -32004 and c.error("query") == -32004 and c.error("context", {"symbol": sym}) == -32004,
      "the held buffer does not verify")
check(c.call("doc")["exit"] == 1, "doc of the held buffer fails as check does")
# mend39: the error carries the project's diagnostics as the objects `check`
# answers (code, span, message, help), not the CLI's human line
held = c.call("check")["diagnostics"]
for m, prm in (("graph", {}), ("query", {}), ("context", {"symbol": sym})):
    e = c.request(m, prm)["error"]
    check(e["code"] == -32004 and e["data"]["diagnostics"] == held and held and "error[" not in e["message"],
          "%s: structured diagnostics %r" % (m, e))
check(c.call("refresh")["ok"] is False, "a refresh from disk keeps the overlay")
# path alone: the disk bytes again
check(c.call("refresh", {"path": lib})["ok"], "overlay dropped")
check(c.call("test")["exit"] == 0, "test after the overlay is dropped")
# edits apply to the disk bytes first, then to the overlay
e = c.call("refresh", {"path": os.path.join(d, "src", "..", "src", "core.spx"),
                       "edits": [{"start": len(src.encode()), "end": len(src.encode()), "text": broken[len(src):]}]})
check(not e["ok"] and e["diagnostics"] == r["diagnostics"], "edits on the disk bytes %r" % e)
tail = len(broken.encode())
e = c.call("refresh", {"path": lib, "edits": [{"start": len(src.encode()), "end": tail, "text": ""}]})
check(e["ok"], "edits on the overlay undo the function %r" % e)
check(c.error("refresh", {"path": lib, "edits": [{"start": 0, "end": tail + 1, "text": ""}]}) == -32602,
      "an edit outside the overlay's bytes")
check(c.call("refresh", {"path": lib, "text": src})["ok"] and c.error("test") == -32006, "an overlay equal to the disk is still held")
check(c.call("refresh", {"path": lib})["ok"] and c.call("test")["exit"] == 0, "dropped again")

# a held buffer that verifies and changes the project's meaning: graph, query,
# context and doc answer exactly as the CLI on a copy with the buffer saved
held = src + "\n@id(\"held.extra\")\nfn held_extra() -> i64\n{\n    7\n}\n"
check(c.call("refresh", {"path": lib, "text": held})["ok"], "a verifying held buffer")
copy = os.path.join(tempdir(), "proj-saved")
shutil.copytree(d, copy)
with open(os.path.join(copy, "src", "core.spx"), "w") as f:
    f.write(held)
with open(lib) as f:
    check(f.read() == src, "the disk is untouched")

def saved_json(*args):
    st, out, err = cli_out(copy, *args)
    check(st == 0, "cli on the saved copy %r: %r" % (args, err))
    return json.loads(out)

g = c.call("graph")["graph"]
check(g == saved_json("graph", ".") and g != cli_json("graph", "."), "graph reads the held buffer")
q = c.call("query", {"name": "held_extra"})["query"]
check(q == saved_json("query", ".", "--json", "--name", "held_extra") and len(q["declarations"]) == 1, "query reads the held buffer %r" % q)
cx = c.call("context", {"symbol": "held.extra"})["context"]
check(cx == saved_json("context", ".", "held.extra", "--depth", "1", "--max-bytes", "65536", "--max-nodes", "256"),
      "context reads the held buffer")
dt = c.call("doc")
check((dt["exit"], dt["stdout"], dt["stderr"]) == cli_out(copy, "doc", ".") and "held.extra" in dt["stdout"], "doc reads the held buffer")
dj = c.call("doc", {"format": "json"})
check((dj["exit"], dj["stdout"], dj["stderr"]) == cli_out(copy, "doc", ".", "--json"), "doc json reads the held buffer")
check(c.error("test") == -32006, "test still reads the disk")
check(c.call("refresh", {"path": lib})["ok"], "dropped")
check(c.call("graph")["graph"] == cli_json("graph", "."), "the disk's graph again")
check(c.call("status")["unsaved"] == [], "no buffer left")
man = os.path.join(d, "semaprax.toml")
with open(man) as f:
    mtext = f.read()
with open(man, "w") as f:
    f.write("not a manifest\n")
check(c.error("refresh", {"path": lib, "text": src}) == -32602, "no buffer while the manifest lists no sources")
with open(man, "w") as f:
    f.write(mtext)
check(c.call("refresh")["ok"], "manifest restored")
c.call("shutdown")
c.notify("exit")
status, rest, err = c.close()
check(status == 0 and rest == b"" and err == b"", "exit (stderr: %r)" % err[:2000])   # LSan under ASan

f = Client(BIN, lib)
check(f.error("refresh", {"path": lib, "text": src}) == -32602, "path is for a served project")
f.call("shutdown")
f.notify("exit")
f.close()

# serve --manifest-path: the manifest taken literally, whatever its name
# (TOOLCHAIN.md §1.1; the I001 help suggests it), and the project's commands
# are handed it so (a manifest not named semaprax.toml was a source file to them)
other = os.path.join(d, "other.toml")
shutil.copyfile(man, other)
m = Client(BIN, "--manifest-path", other)
check(m.call("protocol")["operand"] == {"kind": "project", "path": other}, "--manifest-path serves a project")
check(m.call("check")["ok"], "--manifest-path check")
check(m.call("graph")["graph"] == cli_json("graph", "--manifest-path", other), "--manifest-path graph equals the CLI's")
q = m.call("query", {"name": "gcd"})["query"]
check(q == cli_json("query", "--manifest-path", other, "--json", "--name", "gcd"), "--manifest-path query equals the CLI's")
cx = m.call("context", {"symbol": sym})["context"]
check(cx == cli_json("context", "--manifest-path", other, sym, "--depth", "1", "--max-bytes", "65536", "--max-nodes", "256"),
      "--manifest-path context equals the CLI's")
dt = m.call("doc")
check((dt["exit"], dt["stdout"], dt["stderr"]) == cli_out(d, "doc", "--manifest-path", other), "--manifest-path doc equals the CLI's")
check(m.call("test")["exit"] == 0, "--manifest-path test")
m.call("shutdown")
m.notify("exit")
status, rest, err = m.close()
check(status == 0 and err == b"", "--manifest-path exit (stderr: %r)" % err[:2000])
r = subprocess.run([BIN, "serve", d, "--manifest-path", other], capture_output=True, stdin=subprocess.DEVNULL)
check(r.returncode == 2 and b"not both" in r.stderr, "serve takes an operand or --manifest-path %r" % r.stderr)
print("service project: ok")
