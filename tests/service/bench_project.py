"""bench_project.py BIN [MODULES] [FUNCTIONS] [REPS] — the served project
(issue 17 item 6 for projects): a generated project of MODULES (40) modules x
FUNCTIONS (250) functions, each module importing the previous one's last
function (a chain), plus an entry and a test module.  Measures, as CPU
(utime+stime) of the processes: a cold `semaprax check <project>` (best of
3) and the service's cold load and check; then REPS (200) refreshes each of
  body      one function body edited in the middle module (a buffer's
            `edits`, applied and undone alternately): that function spliced
            into the module's tree, its body alone re-checked
  contract  a `requires` clause edited there (outside the body, the
            interface kept): that function spliced, the declaration pass and
            the bodies naming it re-checked; its importer reused
  added     a function added there (the interface changed): that module
            and its importer re-checked, the importer's importer reused
and prints each as ms and as % of the cold check.  Then the same body edit
through the LSP server (`semaprax lsp`, the module open as a document of its
project): REPS ranged didChanges, each answered by its publishDiagnostics;
a first server with initializationOptions.trace asserts the per-module sets
(that body alone executed, every module reused), a second one without it is
measured.  Asserts the traces (the executed module sets), not the times
(target: refresh <= 1% of cold)."""
import os
import subprocess
import sys
import time

from client import Client, check, cold_check_cpu, lsp_read, lsp_send, proc_cpu, tempdir

BIN = sys.argv[1]
M = int(sys.argv[2]) if len(sys.argv) > 2 else 40
F = int(sys.argv[3]) if len(sys.argv) > 3 else 250
REPS = int(sys.argv[4]) if len(sys.argv) > 4 else 200
d = os.path.join(tempdir(), "bench")
os.makedirs(os.path.join(d, "src"))


def mod(i):
    return "bench.m%03d" % i


def source(i):
    parts = ["module %s;\n" % mod(i)]
    if i:
        parts.append('use function @id("%s.f%d") from %s as prev;\n' % (mod(i - 1), F - 1, mod(i - 1)))
    for j in range(F):
        callee = "f%d(x - 1) + " % (j - 1) if j else ("prev(x) + " if i else "")
        parts.append('\n@id("%s.f%d")\nfn f%d(x: i64) -> i64\n    requires x >= 0\n{\n    let y = x * %d;\n    %sy %% 7\n}\n'
                     % (mod(i), j, j, j % 13 + 1, callee))
    return "".join(parts)


files = {}
for i in range(M):
    files["src/m%03d.spx" % i] = source(i)
files["src/main.spx"] = ('module bench.main;\nuse function @id("%s.f%d") from %s as last;\n\n@id("bench.main.main")\n'
                         'fn main() -> i64\n{\n    last(0)\n}\n' % (mod(M - 1), F - 1, mod(M - 1)))
files["src/tests.spx"] = 'module bench.tests;\n\n@id("bench.tests.main")\nfn main() -> i64\n{\n    0\n}\n'
for rel, text in files.items():
    with open(os.path.join(d, rel), "w") as f:
        f.write(text)
with open(os.path.join(d, "semaprax.toml"), "w") as f:
    f.write('schema = "semaprax.manifest.v1"\n\n[package]\nname = "bench"\nversion = "0.1.0"\n\n[modules]\n'
            'entry = "bench.main"\nsources = [%s]\ntests = ["bench.tests"]\n\n[exports]\nweb = ["bench.main.main"]\n'
            % ", ".join('"%s"' % r for r in sorted(files)))


# settled files: a refresh trusts their unchanged identity (project.c, STAT_SETTLED)
time.sleep(3.2)



cold_cpu = cold_check_cpu(BIN, d, "the generated project verifies")

c = Client(BIN, d, "--max-message-bytes", str(64 << 20))
pid = c.p.pid
c0 = proc_cpu(pid)
r = c.call("check", {"trace": True})
load_cpu = proc_cpu(pid) - c0
check(r["ok"] and "manifest" in r["trace"]["executed"], "cold load")

k = M // 2
path = os.path.join(d, "src", "m%03d.spx" % k)
src = files["src/m%03d.spx" % k]
b = src.encode()


def at(s):
    i = b.index(s.encode())
    return i


body_at = at("let y = x * %d;\n    f%d(" % (F // 2 % 13 + 1, F // 2 - 1)) + len("let y = x * %d" % (F // 2 % 13 + 1))
req_at = at("fn f%d(x: i64) -> i64\n    requires x >= 0" % (F // 2)) + len("fn f%d(x: i64) -> i64\n    requires x >= " % (F // 2))
add_at = len(b)
added = '\n@id("%s.extra")\nfn extra() -> i64\n{\n    1\n}\n' % mod(k)
CASES = [
    ("body", [{"start": body_at, "end": body_at, "text": " + 0"}], [{"start": body_at, "end": body_at + 4, "text": ""}], []),
    ("contract", [{"start": req_at, "end": req_at + 1, "text": "1"}], [{"start": req_at, "end": req_at + 1, "text": "0"}], []),
    ("added", [{"start": add_at, "end": add_at, "text": added}], [{"start": add_at, "end": add_at + len(added), "text": ""}],
     [mod(k), mod(k + 1)]),
]
# the buffer first (its first refresh re-reads the disk bytes it edits)
c.call("refresh", {"path": path, "text": src})
rows = []
for name, fwd, back, want in CASES:
    for e in (fwd, back):
        r = c.call("refresh", {"path": path, "edits": e, "trace": True})
        ex = sorted(n[len("module:"):] for n in r["trace"]["executed"] if n.startswith("module:"))
        bodies = [n for n in r["trace"]["executed"] if n.startswith("body:")]
        # body: that body alone; contract: the declaration pass and the
        # bodies naming f{F/2} (its own and its caller's)
        want_bodies = {"body": ["body:%s:fn:f%d" % (mod(k), F // 2)],
                       "contract": ["body:%s:fn:f%d" % (mod(k), F // 2), "body:%s:fn:f%d" % (mod(k), F // 2 + 1)]}.get(name, [])
        check(bodies == want_bodies, "%s: bodies %r" % (name, bodies))
        check(r["ok"] and ex == want and "manifest" in r["trace"]["reused"],
              "%s: re-checked %r, want %r (%r)" % (name, ex, want, r["trace"]))
    c0 = proc_cpu(pid)
    for rep in range(REPS):
        r = c.call("refresh", {"path": path, "edits": fwd if rep % 2 == 0 else back})
    per = (proc_cpu(pid) - c0) / REPS
    check(r["ok"], name)
    rows.append((name, per))
c.call("shutdown")
c.notify("exit")
c.close()

# the same body edit through the LSP server: m{k} open as a document of the project
uri = "file://" + path
line = src[:body_at].count("\n")
col = body_at - (src.rindex("\n", 0, body_at) + 1)


def lsp_change(lsp, version, fwd_edit):
    rng = {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + (0 if fwd_edit else 4)}}
    lsp_send(lsp, {"jsonrpc": "2.0", "method": "textDocument/didChange",
                   "params": {"textDocument": {"uri": uri, "version": version},
                              "contentChanges": [{"range": rng, "text": " + 0" if fwd_edit else ""}]}})
    m = lsp_read(lsp)
    check(m["method"] == "textDocument/publishDiagnostics" and m["params"]["version"] == version and m["params"]["diagnostics"] == [],
          "LSP diagnostics: %r" % m)


def lsp_open(trace):
    lsp = subprocess.Popen([BIN, "lsp", "--max-message-bytes", str(64 << 20)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lsp_send(lsp, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"capabilities": {}, "initializationOptions": {"trace": trace}}})
    lsp_read(lsp)
    lsp_send(lsp, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                   "params": {"textDocument": {"uri": uri, "languageId": "semaprax", "version": 1, "text": src}}})
    m = lsp_read(lsp)
    check(m["method"] == "textDocument/publishDiagnostics" and m["params"]["diagnostics"] == [], "LSP open: %r" % m)
    return lsp


def lsp_close(lsp):
    lsp_send(lsp, {"jsonrpc": "2.0", "id": 99, "method": "shutdown"})
    lsp_read(lsp)
    lsp_send(lsp, {"jsonrpc": "2.0", "method": "exit"})
    lsp.stdin.close()
    check(lsp.wait(timeout=60) == 0, "LSP exit")


lsp = lsp_open(True)
for v in (2, 3):
    lsp_change(lsp, v, v == 2)
    lsp_send(lsp, {"jsonrpc": "2.0", "id": v, "method": "semaprax/trace", "params": {"textDocument": {"uri": uri}}})
    t = lsp_read(lsp)["result"]
    fn = "%s:fn:f%d" % (mod(k), F // 2)
    check(sorted(t["executed"]) == sorted(["parse:decl:" + fn, "body:" + fn, "project"]), "LSP body edit: executed %r" % t["executed"])
    check(len([n for n in t["reused"] if n.startswith("module:")]) == M + 1 and "manifest" in t["reused"], "LSP body edit: reused %r" % t["reused"])
lsp_close(lsp)
lsp = lsp_open(False)
c0 = proc_cpu(lsp.pid)
for rep in range(REPS):
    lsp_change(lsp, rep + 2, rep % 2 == 0)
lsp_per = (proc_cpu(lsp.pid) - c0) / REPS
lsp_close(lsp)
rows.append(("LSP body", lsp_per))
print("service project bench: %d modules x %d functions (%d functions)" % (M, F, M * F))
print("  cold `check` (process CPU, best of 3)   %8.1f ms" % (cold_cpu * 1e3))
print("  service cold load + check (CPU)         %8.1f ms" % (load_cpu * 1e3))
for name, per in rows:
    print("  refresh: %-8s (CPU per refresh)    %8.2f ms  = %.2f%% of cold check" % (name, per * 1e3, 100 * per / cold_cpu))
