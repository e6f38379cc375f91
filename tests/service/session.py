"""session.py BIN — a scripted JSON-RPC session against `semaprax serve FILE`:
every method, the incremental database's traces for a body, a signature and
a comment edit (asserted as sets of products), and the service's diagnostics
compared with `semaprax check --json` after every edit."""
import json
import os
import subprocess
import sys

from client import Client, check, cli_check, tempdir

BIN = sys.argv[1]
d = tempdir()
path = os.path.join(d, "app.spx")

BASE = """module demo.app;

// the callee
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn twice(x: i64) -> i64 {
    add(x, x)
}

@id("demo.other")
fn other(x: i64) -> i64 {
    x * 3
}

fn main() -> i64 {
    twice(21) + other(0) - 42
}
"""


def write(text):
    with open(path, "w") as f:
        f.write(text)


def trace_sets(result):
    t = result["trace"]
    return set(t["executed"]), set(t["reused"]), set(t["backdated"])


def same_as_cli(c, result, text, what):
    """The service's answer equals `semaprax check --json` on the same bytes."""
    write(text)
    diags, rev = cli_check(BIN, path)
    check(result["diagnostics"] == diags, what + ": diagnostics differ from check --json:\n%s\n%s" %
          (json.dumps(result["diagnostics"]), json.dumps(diags)))
    if "revision" in result:
        got = result["revision"]
    else:
        # a plain refresh leaves the revision pending: status computes it on demand
        got = c.call("status")["revision"]
    check(got == rev, what + ": revision %r, check says %r" % (got, rev))
    check(result["ok"] == (rev is not None), what + ": ok")


write(BASE)
c = Client(BIN, path)

# protocol, ping, status before anything was read
p = c.call("protocol")
check(p["protocol"] == "semaprax.service.v1" and p["framing"] == "newline-delimited", "protocol")
check(p["max_message_bytes"] == 1048576, "default bound")
check(set(p["methods"]) >= {"status", "check", "graph", "context", "query", "doc", "refresh", "patch/preview",
                            "patch/impact", "patch/review", "patch/apply", "repairs", "repair", "fix", "run", "test", "ping",
                            "shutdown"}, "methods listed")
check(c.call("ping") == {}, "ping")
st = c.call("status")
check(st["kind"] == "file" and st["parsed"] is False and st["revision"] is None, "status before check")

# the cold check: everything executes
r = c.call("check", {"trace": True})
ex, re_, bd = trace_sets(r)
ALL_BODIES = {"body:fn:add", "body:fn:twice", "body:fn:other", "body:fn:main"}
check(ex == {"parse", "resolve", "revision"} | ALL_BODIES and not re_ and not bd, "cold check trace %r" % r["trace"])
same_as_cli(c, r, BASE, "cold")
check(c.call("status")["revision"] == r["revision"], "status revision after check")

# nothing changed: everything reused
r = c.call("check", {"trace": True})
ex, re_, bd = trace_sets(r)
check(not ex and re_ == {"parse", "resolve", "revision"} | ALL_BODIES, "warm check trace %r" % r["trace"])

# a body edit re-checks that body only
BODY = BASE.replace("x * 3", "x * 4 - x")
r = c.call("refresh", {"text": BODY, "trace": True})
ex, re_, bd = trace_sets(r)
# the parse is incremental: only that declaration is re-parsed (parse:decl:<key>, src/parse/reparse.c)
# and the declaration pass is reused: the last check's checker re-checks that body alone
check(ex == {"parse:decl:fn:other", "body:fn:other"}, "body edit executed %r" % r["trace"])
check(re_ == {"resolve"} | ALL_BODIES - {"body:fn:other"} and not bd, "body edit reused %r" % r["trace"])
same_as_cli(c, r, BODY, "body edit")

# the revision is computed only when asked: not on a plain refresh (no "revision" in
# the answer), but with `revision: true`, by `check`, and by `status` on demand
r = c.call("refresh", {"text": BASE, "trace": True})
check("revision" not in r and "revision" not in trace_sets(r)[0] | trace_sets(r)[1], "plain refresh: no revision %r" % r)
r = c.call("refresh", {"text": BODY, "trace": True, "revision": True})
ex, re_, bd = trace_sets(r)
check(ex == {"parse:decl:fn:other", "body:fn:other", "revision"} and r["revision"].startswith("sha256:"), "revision asked %r" % r)
same_as_cli(c, r, BODY, "revision asked")
check(c.error("refresh", {"text": BODY, "revision": "yes"}) == -32602, "`revision` is a boolean")
r = c.call("refresh", {"text": BASE})
r = c.call("refresh", {"text": BODY, "trace": True})
check("revision" not in trace_sets(r)[0], "plain refresh: revision pending %r" % r["trace"])
same_as_cli(c, r, BODY, "revision pending, status computes it")
r = c.call("check", {"trace": True})
check(trace_sets(r)[0] == set() and "revision" in trace_sets(r)[1], "check after status: revision reused %r" % r["trace"])
r = c.call("refresh", {"text": BASE})
r = c.call("refresh", {"text": BODY})
r = c.call("check", {"trace": True})
check(trace_sets(r)[0] == {"revision"}, "check after a plain refresh: the revision alone executes %r" % r["trace"])
same_as_cli(c, r, BODY, "check after refresh")

# a signature edit re-checks the function and its callers (twice), not the rest
SIG = BODY.replace("fn add(a: i64, b: i64) -> i64 {\n    a + b", "fn add(a: i64, c: i64) -> i64 {\n    a + c")
r = c.call("refresh", {"text": SIG, "trace": True})
ex, re_, bd = trace_sets(r)
check(ex == {"parse:decl:fn:add", "resolve", "body:fn:add", "body:fn:twice"}, "signature edit executed %r" % r["trace"])
check(re_ == {"body:fn:other", "body:fn:main"}, "signature edit reused %r" % r["trace"])
same_as_cli(c, r, SIG, "signature edit")

# a comment edit re-runs the parse only, which is backdated
COMMENT = SIG.replace("// the callee\n", "// the callee\n// a second line\n\n")
r = c.call("refresh", {"text": COMMENT, "trace": True})
ex, re_, bd = trace_sets(r)
check(ex == {"parse"} and bd == {"parse"}, "comment edit executed %r" % r["trace"])
check(re_ == {"resolve", "revision"} | ALL_BODIES, "comment edit reused %r" % r["trace"])
same_as_cli(c, r, COMMENT, "comment edit")

# an error in one body, then lines above it move: the cached diagnostic moves with it
ERR = COMMENT.replace("x * 4 - x", "x * true")
r = c.call("refresh", {"text": ERR, "trace": True})
check(not r["ok"] and any(x["code"] == "SPX-T208" for x in r["diagnostics"]), "error reported")
ex, re_, bd = trace_sets(r)
# (the comment edit before was a whole parse: its tree has no checker yet, so resolve runs)
check(ex == {"parse:decl:fn:other", "resolve", "body:fn:other"}, "error body executed %r" % r["trace"])
FIXED = ERR.replace("x * true", "x * 2")
r = c.call("refresh", {"text": FIXED, "trace": True})
ex, re_, bd = trace_sets(r)
check(ex == {"parse:decl:fn:other", "body:fn:other"} and "resolve" in re_, "error mended: resolve reused %r" % r["trace"])
same_as_cli(c, r, FIXED, "error mended")
r = c.call("refresh", {"text": ERR, "trace": True})
ex, re_, bd = trace_sets(r)
check(ex == {"parse:decl:fn:other", "body:fn:other"} and "resolve" in re_, "error again: resolve reused %r" % r["trace"])
same_as_cli(c, r, ERR, "error again")
same_as_cli(c, r, ERR, "error body")
MOVED = ERR.replace("// a second line\n", "// a second line\n// and a third\n")
r = c.call("refresh", {"text": MOVED, "trace": True})
ex, re_, bd = trace_sets(r)
check(ex == {"parse"} and bd == {"parse"}, "moved error: parse only %r" % r["trace"])
same_as_cli(c, r, MOVED, "moved error")

# a syntax error: the parse fails, and the next good parse re-checks everything
BROKEN = MOVED.replace("fn main() -> i64 {", "fn main( -> i64 {")
r = c.call("refresh", {"text": BROKEN, "trace": True})
check(not r["ok"] and r["diagnostics"] and trace_sets(r)[0] == {"parse"}, "parse error")
same_as_cli(c, r, BROKEN, "parse error")
r = c.call("refresh", {"text": BASE, "trace": True})
ex, re_, bd = trace_sets(r)
check(ex == {"parse", "resolve"} | ALL_BODIES, "after a parse error everything runs %r" % r["trace"])
same_as_cli(c, r, BASE, "recovered")

# a new function: resolve runs, only the new body and bodies naming it are checked
ADDED = BASE + "\nfn extra() -> i64 {\n    other(2)\n}\n"
r = c.call("refresh", {"text": ADDED, "trace": True})
ex, re_, bd = trace_sets(r)
check(ex == {"parse", "resolve", "body:fn:extra"}, "added function %r" % r["trace"])
same_as_cli(c, r, ADDED, "added function")
# a type declaration changes: every body runs again (the sound fallback)
TYPED = ADDED + "\nrecord Pair {\n    a: i64,\n}\n"
r = c.call("refresh", {"text": TYPED, "trace": True})
ex, re_, bd = trace_sets(r)
check(ex >= ALL_BODIES | {"body:fn:extra", "resolve"}, "type change re-checks all %r" % r["trace"])
same_as_cli(c, r, TYPED, "type added")

# back to the disk: refresh without text re-reads the file (BASE)
write(BASE)
r = c.call("refresh", {"trace": True})
same_as_cli(c, r, BASE, "disk refresh")

# `edits`: byte-range replacements of the held source (an editor's incremental change)
at = BASE.encode().index(b"x * 3")
r = c.call("refresh", {"edits": [{"start": at, "end": at + 5, "text": "x * 4 - x"}], "trace": True})
ex, re_, bd = trace_sets(r)
check(ex == {"parse:decl:fn:other", "body:fn:other"} and "resolve" in re_, "edits: one body executed %r" % r["trace"])
same_as_cli(c, r, BODY, "edits body")
# applied in order, each against the text the previous one left
r = c.call("refresh", {"edits": [{"start": at, "end": at, "text": "(("}, {"start": at + 11, "end": at + 11, "text": "))"}],
                       "trace": True})
same_as_cli(c, r, BODY.replace("x * 4 - x", "((x * 4 - x))"), "edits in order")
# edits in two declarations at once: the changed range (taken from the edits'
# own ranges, not by comparing the texts) spans both, so no splice
cur = BODY.replace("x * 4 - x", "((x * 4 - x))")
a1 = cur.encode().index(b"a + b")
a2 = cur.encode().index(b"twice(21)")
r = c.call("refresh", {"edits": [{"start": a1, "end": a1 + 5, "text": "b + a"}, {"start": a2, "end": a2 + 9, "text": "twice(20)"}],
                       "trace": True})
ex = trace_sets(r)[0]
check("parse" in ex and not any(x.startswith("parse:decl:") for x in ex), "edits in two declarations: a whole parse %r" % r["trace"])
cur = cur.replace("a + b", "b + a").replace("twice(21)", "twice(20)")
same_as_cli(c, r, cur, "edits in two declarations")
# an edit, then one in another declaration, then the first undone: one refresh, one splice-free parse
a1 = cur.encode().index(b"b + a")
a3 = cur.encode().index(b"twice(20)")
r = c.call("refresh", {"edits": [{"start": a3 + 6, "end": a3 + 8, "text": "21"}, {"start": a1, "end": a1 + 5, "text": "a + b"}],
                       "trace": True})
cur = cur.replace("b + a", "a + b").replace("twice(20)", "twice(21)")
same_as_cli(c, r, cur, "edits back in two declarations")
c.call("refresh", {"text": BODY})
# the incremental parse falls back to a whole parse whenever a splice could
# differ from one; each answer still equals check --json
r = c.call("refresh", {"text": BODY, "trace": True})
def step(text, what, whole):
    r = c.call("refresh", {"text": text, "trace": True})
    ex = trace_sets(r)[0]
    if whole:
        check("parse" in ex and not any(x.startswith("parse:decl:") for x in ex), "%s: a whole parse %r" % (what, r["trace"]))
    else:
        check(any(x.startswith("parse:decl:") for x in ex) and "parse" not in ex, "%s: a splice %r" % (what, r["trace"]))
    same_as_cli(c, r, text, what)
    return text
t = step(BODY.replace("x * 4 - x", "x * 5 - x"), "splice: a body", False)
t = step(t.replace("x * 5 - x", "x * 5 - x // note"), "a comment inside a declaration", True)
t = step(t.replace(" // note", ""), "the comment removed", True)
t = step(t.replace("x * 5 - x", "x * 5 - x\n}\n\nfn split() -> i64 {\n    1"), "a `}` and `fn` added inside a body", True)
t = step(t.replace("x * 5 - x\n}\n\nfn split() -> i64 {\n    1", "x * 5 - x"), "the split undone", True)
t = step(t.replace("x * 5 - x", "if x > 0 { x } else { 0 }"), "an `if` (discard numbering)", True)
t = step(t.replace("if x > 0 { x } else { 0 }", "x * 6"), "the `if` removed", True)
t = step(t.replace("x * 6", "x * 6 +"), "a syntax error inside a body", True)
t = step(t.replace("x * 6 +", "x * 7"), "the syntax error mended", True)
t = step(t.replace("x * 7", "x * 7 - 1"), "splice again", False)
t = step(t.replace("fn other(", "fn renamed("), "a declaration renamed", False)
t = step(t.replace("fn renamed(", "fn other("), "its name back", False)
# a body edit spliced in place re-checks that body in the last checker; a class or a module
# with a generic function takes the whole declaration pass (still a splice)
t = step(t.replace("x * 7 - 1", "x * 7 - 2"), "in place", False)
r = c.call("refresh", {"text": t.replace("x * 7 - 2", "x * 7 - 3"), "trace": True})
ex, re_, bd = trace_sets(r)
check(ex == {"parse:decl:fn:other", "body:fn:other"} and "resolve" in re_, "in place: resolve reused %r" % r["trace"])
t = step(t + "\nfn ident<T>(v: T) -> T {\n    v\n}\n", "a generic function added", True)
r = c.call("refresh", {"text": t.replace("x * 7 - 2", "x * 7 - 4"), "trace": True})
ex, re_, bd = trace_sets(r)
check("parse:decl:fn:other" in ex and "resolve" in ex and "body:fn:add" in ex, "generic module: every body %r" % r["trace"])
same_as_cli(c, r, t.replace("x * 7 - 2", "x * 7 - 4"), "generic module body edit")
t = step(BASE + "\nclass Counter {\n    n: i64,\n\n    fn get(self: Counter) -> i64 {\n        self.n\n    }\n}\n", "a class", True)
r = c.call("refresh", {"text": t.replace("self.n\n", "self.n + 1\n"), "trace": True})
ex, re_, bd = trace_sets(r)
check("parse:decl:class:Counter" in ex and "resolve" in ex, "class body: the declaration pass runs %r" % r["trace"])
same_as_cli(c, r, t.replace("self.n\n", "self.n + 1\n"), "class body edit")
r = c.call("refresh", {"text": BODY.replace("x * 4 - x", "((x * 4 - x))")})
check(c.error("refresh", {"edits": [{"start": 0, "end": 10 ** 9, "text": ""}]}) == -32602, "edit past the end")
check(c.error("refresh", {"edits": [{"start": 5, "end": 4, "text": ""}]}) == -32602, "edit end before start")
check(c.error("refresh", {"edits": [{"start": 0, "end": 0}]}) == -32602, "edit without text")
check(c.error("refresh", {"edits": [{"start": 0, "end": 0, "text": "", "x": 1}]}) == -32602, "edit with an extra field")
check(c.error("refresh", {"edits": {"start": 0}}) == -32602, "edits not an array")
check(c.error("refresh", {"edits": [], "text": BASE}) == -32602, "text and edits together")
r = c.call("refresh", {"edits": []})
same_as_cli(c, r, BODY.replace("x * 4 - x", "((x * 4 - x))"), "no edits: the held source stays")
write(BASE)
r = c.call("refresh", {"trace": True})
same_as_cli(c, r, BASE, "disk refresh after edits")

# the read side: graph, context, query from the program product
g = c.call("graph", {"trace": True})
check(g["graph"]["schema"] == "semaprax.graph.c1", "graph schema")
check(set(g["trace"]["executed"]) == {"program", "graph"}, "graph executes the program %r" % g["trace"])
q = c.call("query", {"name": "tw", "trace": True})
check([x[1] for x in q["query"]["declarations"]] == ["auto:demo.app.twice"], "query by name %r" % q)
check(set(q["trace"]["reused"]) == {"program", "graph"} and not q["trace"]["executed"], "query reuses %r" % q["trace"])
q = c.call("query", {"calls": "add"})
check([x[1] for x in q["query"]["declarations"]] == ["auto:demo.app.twice"], "query calls")
cx = c.call("context", {"symbol": "twice", "direction": "both", "depth": 2})
check(cx["context"]["root"] == "auto:demo.app.twice", "context root")
check(c.error("context", {"symbol": "nosuch"}) == -32005, "unknown symbol code")
# mend39: the CLI's G001 as the object `check` answers, in `data`
e = c.request("context", {"symbol": "nosuch"})["error"]
g = e.get("data", {}).get("diagnostics", [])
check(len(g) == 1 and g[0]["code"] == "SPX-G001" and g[0]["location"] is None and "`nosuch`" in g[0]["message"]
      and g[0]["help"] and e["message"].endswith("; help: " + g[0]["help"]), "G001 data %r" % e)
# -32005 carries the CLI's G001 help: the nearest ids (a user walk: the service
# said only "no declaration has …", the CLI "did you mean …")
e = c.request("context", {"symbol": "twicee"})["error"]
check(e["code"] == -32005 and "did you mean `auto:demo.app.twice`" in e["message"], "unknown symbol help %r" % e)
check(c.error("context", {}) == -32602, "context needs a symbol")
check(c.error("context", {"symbol": "twice", "depth": 0}) == -32602, "depth bound")
check(c.error("query", {"kind": ["nonsense"]}) == -32602, "query kind")

# commands run in this process on the file on disk
run = c.call("run")
out = [json.loads(l) for l in run["stdout"].splitlines() if l.strip()]
check(run["exit"] == 0 and out[-1]["payload"]["outcome"]["value"] == "0", "run outcome %r" % run)
doc = c.call("doc")
check(doc["exit"] == 0 and "fn twice(x: i64) -> i64" in doc["stdout"], "doc text")
check(c.error("doc", {"format": "pdf"}) == -32602, "doc format")
check(c.error("test") == -32008, "test of a single file is unsupported")

# unsaved bytes: commands that read the disk refuse
c.call("refresh", {"text": BODY})
check(c.error("run") == -32006, "run refuses unsaved bytes")
c.call("refresh")
# no file on disk to run a command on (replaced by a directory, deleted): -32009 saying why,
# not -32006's "write it, or refresh", which cannot help
os.rename(path, path + ".away")
os.mkdir(path)
r = c.request("run")
check(r["error"]["code"] == -32009 and "Is a directory" in r["error"]["message"], "run of a directory %r" % r)
os.rmdir(path)
r = c.request("doc")
check(r["error"]["code"] == -32009 and "SPX-I001" in r["error"]["message"], "doc of a deleted file %r" % r)
os.rename(path + ".away", path)
check(c.call("run")["exit"] == 0, "run once the file is back")

# patches: preview writes nothing; apply is stale-safe and refreshes the held source
rev = c.call("check")["revision"]
PATCH = "base %s\nrename demo.other to triple\n" % rev
prev = c.call("patch/preview", {"patch": PATCH})
check(prev["exit"] == 0 and "triple" in prev["stdout"], "patch/preview %r" % prev)
with open(path) as f:
    check(f.read() == BASE, "preview wrote nothing")
# impact and review answer the CLI's reports byte for byte and write nothing
# (qa20: an agent over the service could preview and apply a patch, not
# review it)
for method, cmd in (("patch/impact", "impact"), ("patch/review", "review")):
    got = c.call(method, {"patch": PATCH, "revision": rev})
    with open(os.path.join(os.path.dirname(path), "cli.spatch"), "w") as f:
        f.write(PATCH)
    cli = subprocess.run([BIN, cmd, path, os.path.join(os.path.dirname(path), "cli.spatch")], capture_output=True)
    check(got["exit"] == 0 and got["stdout"] == cli.stdout.decode() and got["stderr"] == "", "%s %r" % (method, got))
    check(json.loads(got["stdout"])["schema"] == "semaprax.semantic-%s.v1" % cmd, "%s schema" % method)
    check(c.error(method, {"patch": PATCH, "revision": "sha256:" + "0" * 64}) == -32007, "%s stale revision" % method)
    check(c.error(method, {}) == -32602, "%s patch text required" % method)
# patch/impact takes impact's bounds (--depth, --max-bytes, --max-nodes): the CLI's report with them
got = c.call("patch/impact", {"patch": PATCH, "depth": 0, "max_nodes": 1})
cli = subprocess.run([BIN, "impact", path, os.path.join(os.path.dirname(path), "cli.spatch"), "--depth", "0", "--max-nodes", "1"],
                     capture_output=True)
check(got["exit"] == 0 and got["stdout"] == cli.stdout.decode() and json.loads(got["stdout"])["query"]["depth"] == 0,
      "patch/impact bounds %r" % got)
small = c.call("patch/impact", {"patch": PATCH, "max_bytes": 1024})
cli = subprocess.run([BIN, "impact", path, os.path.join(os.path.dirname(path), "cli.spatch"), "--max-bytes", "1024"],
                     capture_output=True)
check(small["exit"] == cli.returncode and small["stdout"] == cli.stdout.decode(), "patch/impact max_bytes %r" % small)
check(c.error("patch/impact", {"patch": PATCH, "depth": 1025}) == -32602, "patch/impact depth bound")
check(c.error("patch/review", {"patch": PATCH, "depth": 1}) == -32602, "patch/review takes no bounds")
with open(path) as f:
    check(f.read() == BASE, "impact and review wrote nothing")
check(c.error("patch/apply", {"patch": PATCH, "revision": "sha256:" + "0" * 64}) == -32007, "stale revision refused")
# `revision` is checked against the patch's own `base` line, before anything runs
# (svc22: a patch whose base differed from a current `revision` was handed to the
# engine, so the stale one was never named); both are named, as -32007
OTHER = "base sha256:%s\nrename demo.other to triple\n" % ("1" * 64)
for method in ("patch/preview", "patch/impact", "patch/review", "patch/apply"):
    r = c.request(method, {"patch": OTHER, "revision": rev})
    e = r.get("error", {})
    check(e.get("code") == -32007 and "sha256:" + "1" * 64 in e.get("message", "") and rev in e.get("message", "")
          and "base" in e["message"], "%s: base and revision differ %r" % (method, r))
# both stale: the refusal names the revision the program is at, the one to send
e = c.request("patch/apply", {"patch": OTHER, "revision": "sha256:" + "2" * 64}).get("error", {})
check(e.get("code") == -32007 and "base " + rev in e.get("message", ""), "base and revision both stale: the current named %r" % e)
# comments and the schema line before `base` are read as the engine reads them
V2 = "# a comment\nschema semaprax.semantic-patch.v2\n\n" + OTHER
e = c.request("patch/apply", {"patch": V2, "revision": rev}).get("error", {})
check(e.get("code") == -32007 and "1" * 64 in e.get("message", ""), "v2 base read %r" % e)
with open(path) as f:
    check(f.read() == BASE, "a stale apply wrote nothing")
check(c.error("patch/preview", {}) == -32602, "patch text required")
# a patch's diagnostics name it `<patch>`, not the temporary file the service
# wrote it to: the same request answers the same bytes (a user walk: each
# answer named another /tmp/semaprax-serve-XXXXXX)
bad = [c.call("patch/preview", {"patch": "garbage\n"}) for _ in range(2)]
check(bad[0] == bad[1] and bad[0]["exit"] == 1 and " at <patch>:1:1\n" in bad[0]["stderr"]
      and "semaprax-serve" not in bad[0]["stderr"], "patch diagnostics %r" % bad)
ap = c.call("patch/apply", {"patch": PATCH, "revision": rev})
check(ap["exit"] == 0, "patch/apply %r" % ap)
with open(path) as f:
    now = f.read()
check("fn triple(" in now and "triple(0)" in now, "apply renamed the function and its call")
# status before the next check: the written bytes, not parsed, so no declarations
# and no revision (a user walk: it kept the count of the text before the patch)
st = c.call("status")
check(st["bytes"] == len(now.encode()) and st["parsed"] is False and st["declarations"] == 0 and st["revision"] is None,
      "status after patch/apply %r" % st)
r = c.call("check", {"trace": True})
check("body:fn:triple" in r["trace"]["executed"], "the applied patch is the held source now %r" % r["trace"])
same_as_cli(c, r, now, "after patch/apply")
# the same patch again at its old revision: the refusal names the current
# revision, the one to rebase on (qa24: it named only the stale one, and an
# agent had to call `check` to learn what to write on the `base` line)
e = c.request("patch/apply", {"patch": PATCH, "revision": rev}).get("error", {})
check(e.get("code") == -32007 and r["revision"] in e.get("message", "") and "base " + r["revision"] in e["message"],
      "a stale apply names the current revision %r" % e)
write(BASE)
c.call("refresh")

# fix: the diagnostics' machine-applicable fixes applied by the tool, as
# `semaprax fix` (qa20: an agent over the service had the fixes as byte
# ranges against the original text and had to order and apply them itself)
BROKEN = BASE.replace("    a + b\n", "    return a + b;\n")
write(BROKEN)
r = c.call("refresh")
check(not r["ok"] and r["diagnostics"][0]["code"] == "SPX-P106" and r["diagnostics"][0]["fixes"], "a fixable error %r" % r)
dry = c.call("fix", {"dry_run": True})
check(dry["exit"] == 0 and "-    return a + b;\n+    a + b\n" in dry["stdout"] and "would fix 1 diagnostic" in dry["stdout"], "fix dry_run %r" % dry)
with open(path) as f:
    check(f.read() == BROKEN, "fix dry_run wrote nothing")
check(c.error("fix", {"code": "P106"}) == -32602, "fix code is SPX-…")
check(c.request("fix", {"code": "P106"})["error"]["message"].endswith("write `SPX-P106`"), "fix code: the spelling to send")
check(c.error("fix", {"dry_run": 1}) == -32602, "fix dry_run is a boolean")
# agent40: an unknown SPX- code was the command's usage refusal (exit 2) naming
# its `--code` option, which the agent never wrote
r = c.request("fix", {"code": "SPX-Q999"})
check(r.get("error", {}).get("code") == -32602 and "`code`" in r["error"]["message"] and "--code" not in r["error"]["message"],
      "fix: an unknown code is the parameter's refusal %r" % r)
c.call("refresh", {"text": BROKEN + "\n"})
check(c.error("fix") == -32006, "fix refuses unsaved bytes")
c.call("refresh")
fx = c.call("fix", {"code": "SPX-P106"})
check(fx["exit"] == 0 and fx["stdout"].startswith("fixed 1 diagnostic; graph is now sha256:"), "fix %r" % fx)
with open(path) as f:
    check(f.read() == BASE, "fix wrote the fixed file")
r = c.call("check")
check(r["ok"] and r["revision"] in fx["stdout"], "the fixed file is the held source %r" % r)

# errors: unknown method, bad params, notifications get nothing
check(c.error("nosuch") == -32601, "unknown method")
# a message quoting a name cut at its byte bound stays UTF-8 (a cut `é` is
# U+FFFD): Client.read decodes each reply as UTF-8 (a user walk: `%.100s`
# split the character, and the reply was not UTF-8)
for method, params in (("context", {"symbol": "a" * 99 + "\u00e9"}), ("x" * 99 + "\u00e9", None)):
    r = c.request(method, params)
    check("error" in r and "\ufffd`" in r["error"]["message"], "a cut name is U+FFFD %r" % r)
check(c.error("check", {"bogus": 1}) == -32602, "unknown parameter")
# an unknown parameter names the ones the method takes (qa24: `context` with
# `bytes` said only "unknown parameter", and the agent had to find `max_bytes`
# in docs/service.md)
e = c.request("context", {"symbol": "main", "bytes": 2048}).get("error", {})
check(e.get("code") == -32602 and "`bytes`" in e.get("message", "") and "`max_bytes`" in e["message"]
      and "`depth`" in e["message"], "unknown parameter names the known ones %r" % e)
e = c.request("ping", {"x": 1}).get("error", {})
check(e.get("code") == -32602 and "takes no parameters" in e.get("message", ""), "ping takes no parameters %r" % e)
check(c.error("check", {"trace": "yes"}) == -32602, "wrong type")
check(c.error("refresh", {"text": 5}) == -32602, "text must be a string")
c.notify("check")
c.notify("nosuch")
check(c.call("ping") == {}, "notifications were not answered")
# blank lines, also of spaces and tabs, are not messages: no reply (a user
# walk: "   " and "\t" lines were answered -32700, an empty one was not)
c.send_raw(b"\n   \n\t\n \t\r\n\r\n")
check(c.call("ping") == {}, "blank lines are not answered")

# a parse error names the offending token's byte offset, not the byte past
# the last one the parser read (qa19: it named no position; jansson's is past the token)
for frame, at in ((b'{"jsonrpc":"2.0","id":5,"method":tru}', 33), (b'{"jsonrpc":"2.0","id":5 "method":"ping"}', 24),
                  (b'{"jsonrpc":"2.0","id":5,"method":"p\\q"}', 35)):
    c.send_raw(frame + b"\n")
    r = c.read()
    check(r["id"] is None and r["error"]["code"] == -32700 and r["error"]["message"].startswith("parse error at byte %d: " % at),
          "parse error position %r" % r)

# the default bound: 1 MiB a frame; a larger one is skipped and answered with -32001
c.send_raw(b'{"jsonrpc":"2.0","id":77,"method":"refresh","params":{"text":"' + b"a" * (1 << 20) + b'"}}\n')
big = c.read()
check(big["id"] is None and big["error"]["code"] == -32001, "oversized frame %r" % big)
check(c.call("ping") == {}, "serving after an oversized frame")
# a text just under the bound is taken
r = c.call("refresh", {"text": BASE + "//" + "x" * 1000000 + "\n"})
check(r["ok"], "a large comment is fine")
c.call("refresh")

# shutdown, then every request is an error, then exit
check(c.call("shutdown") is None, "shutdown")
check(c.error("ping") == -32003, "request after shutdown")
check(c.error("check") == -32003, "request after shutdown (check)")
c.notify("exit")
status, rest, err = c.close()
check(status == 0 and rest == b"", "exit status %r, trailing output %r" % (status, rest))

# --max-message-bytes bounds responses too
write(BASE)
c = Client(BIN, path, "--max-message-bytes", "1024")
check(c.error("graph") == -32002, "a response over the bound is an error")
check(c.call("ping") == {}, "still serving")
c.close()
# the lazy span shift: plain refreshes splice the first body again and again
# (the later declarations' inner spans owe the sum), each splice compared with
# a whole parse under SPX_SERVICE_VERIFY_SPLICE (the owed shift paid for the
# comparison only); the re-checked body's and a later body's diagnostics equal
# check --json throughout, then every request that reads the whole tree
LAZY = BASE
write(LAZY)
os.environ["SPX_SERVICE_VERIFY_SPLICE"] = "1"
c = Client(BIN, path)
del os.environ["SPX_SERVICE_VERIFY_SPLICE"]
r = c.call("check")
check(r["ok"], "verifies")
at = LAZY.encode().index(b"x * 3") + 1
text = LAZY
for i in range(6):
    grow = i % 3 != 2
    e = {"start": at, "end": at, "text": " + 0"} if grow else {"start": at, "end": at + 4, "text": ""}
    r = c.call("refresh", {"edits": [e], "trace": True})
    text = text[:at] + " + 0" + text[at:] if grow else text[:at] + text[at + 4:]
    ex = trace_sets(r)[0]
    check(ex == {"parse:decl:fn:other", "body:fn:other"}, "lazy shift: one body, resolve reused %r" % r["trace"])
    write(text)
    diags, _ = cli_check(BIN, path)
    check(r["diagnostics"] == diags, "lazy shift %d: diagnostics %s, check %s" % (i, json.dumps(r["diagnostics"]), json.dumps(diags)))
r = c.call("refresh", {"edits": [{"start": at - 1, "end": at - 1, "text": "true + "}], "trace": True})
text = text[:at - 1] + "true + " + text[at - 1:]
same_as_cli(c, r, text, "lazy shift: an error in the spliced body")
# a signature edit: the whole declaration pass reads the settled tree
sig = text.encode().index(b"fn other(x") + len("fn other(")
r = c.call("refresh", {"edits": [{"start": sig, "end": sig + 1, "text": "y"}], "trace": True})
text = text[:sig] + "y" + text[sig + 1:]
check("resolve" in trace_sets(r)[0], "signature: resolve runs %r" % r["trace"])
same_as_cli(c, r, text, "lazy shift, then a signature edit")
c.close()

# an operand whose name is not UTF-8 is named with U+FFFD in protocol and status:
# the replies stay UTF-8 (Client.read decodes them)
odd = os.path.join(os.fsencode(tempdir()), b"odd\xff.spx")
with open(odd, "w") as f:
    f.write(BASE)
c = Client(BIN, odd)
check(c.call("protocol")["operand"]["path"].endswith("odd\ufffd.spx"), "protocol names the operand in UTF-8")
check(c.call("status")["operand"].endswith("odd\ufffd.spx"), "status names the operand in UTF-8")
c.close()

# a file that cannot be read: -32009 says why, in the reader's words (a user
# walk: it said only "cannot read `nosuch.spx`")
c = Client(BIN, os.path.join(tempdir(), "nosuch.spx"))
r = c.request("check")
check(r.get("error", {}).get("code") == -32009 and r["error"]["message"].startswith("SPX-I001: cannot read ")
      and "No such file or directory" in r["error"]["message"], "unreadable file %r" % r)
c.close()

# mend39: graph, context and query of a program that does not verify answer
# -32004 with its diagnostics in `data`, the objects `check` answers
bad = os.path.join(tempdir(), "bad.spx")
with open(bad, "w") as f:
    f.write(BASE.replace("x * 3", "x * true"))
c = Client(BIN, bad)
held = c.call("check")["diagnostics"]
for m, prm in (("graph", {}), ("query", {}), ("context", {"symbol": "demo.other"})):
    e = c.request(m, prm).get("error", {})
    check(e.get("code") == -32004 and held and e.get("data", {}).get("diagnostics") == held, "%s: structured diagnostics %r" % (m, e))
c.close()
print("service session: ok")
