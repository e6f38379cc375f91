"""hostile_project.py BIN [COUNT] — a seeded storm of hostile requests
against `semaprax serve <project>` (issue 17 item 5, for served projects).

A copy of a `semaprax new --template library` project is served while the
script sends COUNT (default 3,000; 300 under ASAN_OPTIONS) steps drawn from:
refreshes whose `path` is a `..` escape, an absolute path outside the
project, a symbolic link to an outside file, a directory, a /proc file, a
FIFO (must never block the server), a missing file, another spelling of a
module file, NUL or invalid UTF-8 in `path` or `text`, texts over the
message bound, thousands of distinct spellings of the module files (the held
buffers stay bounded), edits with out-of-range, reversed or overlapping
ranges, edits on a path with no buffer; disk changes between refreshes
(a module added to the manifest, an import cycle, the entry module deleted,
a module file deleted or replaced by a directory); and graph, context,
query, doc, run, test, check and status in between.

Asserts: every request is answered within a deadline, in order, with a
result or an error whose code is one of docs/service.md's; the server never
dies; after the storm a `check` with known buffers held answers what
`semaprax check <copy> --json` answers for a copy with those buffers saved,
and after the buffers are released what it answers for the disk.
Run it with SPX_SERVICE_VERIFY_PROJECT=1 as well (tests/service-test.sh)."""
import json
import os
import random
import select
import shutil
import subprocess
import sys

from client import tempdir

BIN = os.path.abspath(sys.argv[1])
ASAN = "ASAN_OPTIONS" in os.environ
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else (300 if ASAN else 3000)
BOUND = 65536
DEADLINE = 120 if ASAN else 30
CODES = {-32700, -32600, -32601, -32602, -32001, -32002, -32003, -32004, -32005, -32006, -32008, -32009, -32010}
rng = random.Random(int(os.environ.get("HOSTILE_PROJECT_SEED", "17")))
p = None


def check(cond, what):
    if not cond:
        print("FAIL: " + what, file=sys.stderr)
        if p is not None:
            try:
                p.kill()
                errf.seek(0)
                print(errf.read()[-3000:].decode(errors="replace"), file=sys.stderr)
            except Exception:
                pass
        os._exit(1)


root = tempdir()
d = os.path.join(root, "proj")
r = subprocess.run([BIN, "new", d, "--template", "library"], capture_output=True)
check(r.returncode == 0, "semaprax new: %r" % r.stderr)
NAME = os.path.basename(d)
MANIFEST = os.path.join(d, "semaprax.toml")
with open(MANIFEST) as f:
    MAN0 = f.read()
SRC = {}
for m in ("core", "lib", "tests"):
    with open(os.path.join(d, "src", m + ".spx")) as f:
        SRC[m] = f.read()
outside = os.path.join(root, "outside.spx")
with open(outside, "w") as f:
    f.write("module proj.outside;\n")
os.symlink(outside, os.path.join(d, "src", "link.spx"))
os.mkdir(os.path.join(d, "src", "dir.spx"))
fifo = os.path.join(d, "src", "fifo.spx")
os.mkfifo(fifo)

errf = open(os.path.join(root, "stderr"), "w+b")
p = subprocess.Popen([BIN, "serve", d, "--max-message-bytes", str(BOUND)], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=errf, cwd=d)
buf = b""
next_id = 1


def readline():
    global buf
    while b"\n" not in buf:
        ready, _, _ = select.select([p.stdout], [], [], DEADLINE)
        check(ready, "no answer within %d s (the server hangs)" % DEADLINE)
        chunk = os.read(p.stdout.fileno(), 1 << 16)
        check(chunk, "the service closed its output: exit %r" % p.poll())
        buf += chunk
    line, buf = buf.split(b"\n", 1)
    return json.loads(line)


def send(data):
    p.stdin.write(data)
    p.stdin.flush()


def answer(rid, alt=()):
    rep = readline()
    check(rep.get("jsonrpc") == "2.0" and (rep.get("id") == rid or rep.get("id") in alt), "answer out of order: %r for id %r" % (rep, rid))
    check(("result" in rep) != ("error" in rep), "neither result nor error: %r" % rep)
    if "error" in rep:
        check(rep["error"].get("code") in CODES, "unstable code %r" % rep)
    return rep


TALLY = {}


def call(method, params=None):
    global next_id
    rid = next_id
    next_id += 1
    m = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        m["params"] = params
    send(json.dumps(m).encode() + b"\n")
    rep = answer(rid)
    key = (method, "ok" if "result" in rep and rep["result"] is not None and rep["result"].get("ok", True) is not False
           else "not ok" if "result" in rep else rep["error"]["code"]) if isinstance(rep.get("result", {}), dict) else (method, "ok")
    TALLY[key] = TALLY.get(key, 0) + 1
    return rep


def raw(data, rid):
    """A hostile frame: answered with its id, or with null when the reader refuses it whole."""
    send(data + b"\n")
    rep = answer(None, (rid,))
    check("error" in rep, "a hostile frame accepted: %r" % rep)


def module_path():
    m = rng.choice(["core", "lib", "tests"])
    return m, rng.choice([
        "src/%s.spx" % m, "./src/%s.spx" % m, "src//%s.spx" % m, "src/../src/%s.spx" % m,
        os.path.join(d, "src", m + ".spx"), os.path.join(d, ".", "src", m + ".spx"),
    ])


def hostile_path():
    return rng.choice([
        "../outside.spx", "../../../../../../etc/passwd", os.path.join(d, "..", "outside.spx"), outside,
        os.path.join(d, "src", "link.spx"), os.path.join(d, "src", "dir.spx"), os.path.join(d, "src"), d,
        "/proc/self/status", "/proc/self/mem", "/proc/self/fd/0", "/dev/zero", "/dev/stdin", fifo, "src/fifo.spx",
        os.path.join(d, "src", "missing.spx"), "", "/", MANIFEST, "semaprax.toml",
    ])


def abs_src(m):
    return os.path.join(d, "src", m + ".spx")


def put(path, text):
    """Write a file on disk, whatever stood at path (a FIFO would block the writer)."""
    if os.path.isdir(path) and not os.path.islink(path):
        os.rmdir(path)
    elif os.path.lexists(path):
        os.unlink(path)
    with open(path, "w") as f:
        f.write(text)


def disk_change():
    k = rng.randrange(13)
    if k == 0:      # a module added to the manifest
        put(os.path.join(d, "src", "extra.spx"), ("module %s.extra;\n\n@id(\"%s.extra.one\")\nfn one() -> i64 {\n    1\n}\n" % (NAME, NAME)))
        put(MANIFEST, MAN0.replace('"src/core.spx", ', '"src/core.spx", "src/extra.spx", '))
    elif k == 1:    # an import cycle core -> lib -> core
        put(abs_src("core"), SRC["core"].replace("\n", "\nuse function @id(\"%s.lib.main\") from %s.lib as lm;\n" % (NAME, NAME), 1))
    elif k == 2:    # the entry module deleted
        if os.path.isfile(abs_src("lib")):
            os.unlink(abs_src("lib"))
    elif k == 3:    # a module file replaced by a directory
        m = rng.choice(["core", "tests"])
        if os.path.isfile(abs_src(m)):
            os.unlink(abs_src(m))
            os.mkdir(abs_src(m))
    elif k == 4:    # a module file replaced by a FIFO
        m = rng.choice(["core", "tests"])
        if os.path.isfile(abs_src(m)):
            os.unlink(abs_src(m))
            os.mkfifo(abs_src(m))
    elif k == 5:    # a module file replaced by a symbolic link outside
        m = rng.choice(["core", "lib"])
        if os.path.isfile(abs_src(m)):
            os.unlink(abs_src(m))
            os.symlink(outside, abs_src(m))
    elif k == 6:    # a broken manifest
        put(MANIFEST, MAN0[: rng.randrange(len(MAN0))])
    elif k == 7:    # the manifest replaced by a FIFO or a directory
        put(MANIFEST, "")
        os.unlink(MANIFEST)
        if rng.randrange(2):
            os.mkfifo(MANIFEST)
        else:
            os.mkdir(MANIFEST)
    else:           # restored
        restore()


def restore():
    for m in ("core", "lib", "tests"):
        put(abs_src(m), SRC[m])
    put(MANIFEST, MAN0)


def edits():
    out = []
    for _ in range(rng.randrange(1, 4)):
        a = rng.choice([0, 1, 5, 40, 10 ** 6, -1, 2 ** 63 - 1, 2 ** 62 + 3])
        b = min(rng.choice([a, a + 1, a - 3, 0, 10 ** 7, 2 ** 62]), 2 ** 63 - 1)
        e = {"start": a, "end": b, "text": rng.choice(["", "x", "// c\n", "\u00e9", "fn"])}
        if rng.randrange(10) == 0:
            e = rng.choice([{"start": "0", "end": 1, "text": ""}, {"start": 0, "end": 1}, {"start": 0, "end": 1, "text": 3},
                            {"start": 0, "end": 1, "text": "", "x": 1}, [0, 1, ""], None])
        out.append(e)
    return out


REQS = [
    ("check", None), ("status", None), ("graph", None), ("query", {"kind": ["function"]}), ("query", {"name": "gcd"}),
    ("context", {"symbol": "%s.gcd" % NAME}), ("context", {"symbol": "%s.gcd" % NAME, "direction": "both", "depth": 3}),
    ("context", {"symbol": "no.such"}), ("doc", None), ("doc", {"format": "json"}), ("run", None), ("test", None),
    ("refresh", None), ("refresh", {"trace": True, "revision": True}), ("ping", None), ("protocol", None),
]

for i in range(COUNT):
    k = rng.randrange(100)
    if k < 22:
        call("refresh", {"path": hostile_path(), **rng.choice([{}, {"text": "module x;\n"}, {"edits": [{"start": 0, "end": 0, "text": "x"}]}])})
    elif k < 40:
        m, q = module_path()
        pr = {"path": q}
        c = rng.randrange(4)
        if c == 0:
            pr["text"] = rng.choice([SRC[m], SRC[m], SRC[m].replace("0", "1"), SRC[m] + "\n// tail\n", SRC[m] + "fn bad( {\n",
                                     SRC[rng.choice(["core", "lib", "tests"])]])
        elif c == 1:
            pr["edits"] = edits()
        elif c == 2:
            pr["edits"] = [{"start": 0, "end": 0, "text": "// x\n"}]
        call("refresh", pr)
    elif k < 44:    # NUL, invalid UTF-8, a huge text
        c = rng.randrange(4)
        if c == 0:
            raw(b'{"jsonrpc":"2.0","id":%d,"method":"refresh","params":{"path":"src/core.spx\\u0000x"}}' % i, i)
        elif c == 1:
            raw(b'{"jsonrpc":"2.0","id":%d,"method":"refresh","params":{"path":"src/\xff\xfe.spx","text":"a"}}' % i, i)
        elif c == 2:
            raw(b'{"jsonrpc":"2.0","id":%d,"method":"refresh","params":{"path":"src/core.spx","text":"\xc3("}}' % i, i)
        else:
            raw(json.dumps({"jsonrpc": "2.0", "id": i, "method": "refresh",
                            "params": {"path": "src/core.spx", "text": "/" * (BOUND + rng.randrange(1000))}}).encode(), i)
    elif k < 46:    # many distinct spellings of the module files
        for j in range(rng.randrange(50, 400)):
            m = rng.choice(["core", "lib", "tests"])
            call("refresh", {"path": "src/" + "./" * j + m + ".spx", "text": SRC[m]})
        st = call("status")
        if "result" in st:
            check(len(st["result"]["unsaved"]) <= 64, "held buffers unbounded: %d" % len(st["result"]["unsaved"]))
    elif k < 58:
        disk_change()
    else:
        call(*rng.choice(REQS))
    check(p.poll() is None, "the service died at step %d" % i)

# the held buffers together are bounded (64 x the message bound, -32010):
# each alone may grow to that bound by edits, all of them would not
block = ("// " + "x" * 60 + "\n") * 900
grown = 0
while grown + len(block) <= 64 * BOUND - len(SRC["core"]):
    check("result" in call("refresh", {"path": "src/core.spx", "edits": [{"start": 0, "end": 0, "text": block}]}), "growing core")
    grown += len(block)
check(call("refresh", {"path": "src/lib.spx", "text": block}).get("error", {}).get("code") == -32010, "buffers past the bound in all")
check(call("refresh", {"path": "src/core.spx", "edits": [{"start": 0, "end": 0, "text": block}]})["error"]["code"] == -32602,
      "one buffer past the bound")
check("result" in call("refresh", {"path": "./src/core.spx"}), "dropping core")
check("result" in call("refresh", {"path": "src/lib.spx", "text": block}), "lib held once core is dropped")
check("result" in call("refresh", {"path": "src/lib.spx"}), "dropping lib")

# after the storm: known buffers held over a restored disk
restore()
for f in ("extra.spx",):
    q = os.path.join(d, "src", f)
    if os.path.lexists(q):
        os.unlink(q)
# every buffer is released by the path it was held under, even when that
# file is no source any more (it was not: its buffer stayed, and run/test
# refused with -32006 for good)
restore()
for u in call("status")["result"]["unsaved"]:
    check("result" in call("refresh", {"path": u}), "releasing %r" % u)
check(call("status")["result"]["unsaved"] == [], "every buffer of the storm released")
for m in ("core", "lib"):
    check("result" in call("refresh", {"path": "src/%s.spx" % m, "text": SRC[m]}), "holding %s" % m)
os.unlink(abs_src("core"))
put(MANIFEST, "broken")
restore_after = call("status")["result"]["unsaved"]
for u in call("status")["result"]["unsaved"] + ["src/lib.spx"]:
    call("refresh", {"path": u})
check(call("status")["result"]["unsaved"] == [], "buffers of files no longer sources released")
check(sorted(restore_after) == ["src/core.spx", "src/lib.spx"], "held %r" % restore_after)
restore()
held = {"core": SRC["core"].replace("gcd(b, a % b)", "gcd(b, a % b) + 0"),
        "tests": SRC["tests"].replace("// Runs first", "// Runs\u0000 first \u00e9")}
for m, t in held.items():
    check("result" in call("refresh", {"path": "src/%s.spx" % m, "text": t}), "holding %s" % m)


def cli(where):
    r = subprocess.run([BIN, "check", where, "--json"], capture_output=True)
    lines = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
    rev = [l.get("revision") for l in lines if l.get("status") == "verified"]
    return [l for l in lines if "code" in l], r.returncode, rev[0] if rev else None


def service_check():
    rep = call("check")
    check("result" in rep, "check after the storm %r" % rep)
    return rep["result"]


copy = os.path.join(root, "saved")
shutil.copytree(d, copy, symlinks=True, ignore=shutil.ignore_patterns("fifo.spx"))
for m, t in held.items():
    with open(os.path.join(copy, "src", m + ".spx"), "w") as f:
        f.write(t)
res = service_check()
diags, rc, rev = cli(copy)
check(res["ok"] == (rc == 0) and res.get("revision") == rev, "ok %r, the CLI exit %d; %r vs %r" % (res["ok"], rc, res.get("revision"), rev))
check(rev and json.loads(json.dumps(res["diagnostics"]).replace(d, copy)) == diags,
      "diagnostics with buffers: %r vs %r" % (res.get("diagnostics"), diags))
for m in held:
    call("refresh", {"path": "src/%s.spx" % m})
res = service_check()
diags, rc, rev = cli(d)
check(res["ok"] and rev and res["ok"] == (rc == 0) and res.get("diagnostics", []) == diags and res.get("revision") == rev,
      "after release: %r vs %r %r" % (res, diags, rev))
check(call("status")["result"]["unsaved"] == [], "buffers released")

with open("/proc/%d/status" % p.pid) as f:
    peak = int([l.split()[1] for l in f if l.startswith("VmHWM:")][0])
check(ASAN or peak < 64 * 1024, "peak memory %d KiB (bound 64 MiB)" % peak)
send(b'{"jsonrpc":"2.0","id":0,"method":"shutdown"}\n')
answer(0)
p.stdin.close()
status = p.wait(timeout=DEADLINE)
errf.seek(0)
err = errf.read()
check(status == 0, "exit %d: %r" % (status, err[-2000:]))
check(b"LeakSanitizer" not in err and b"AddressSanitizer" not in err, "sanitizer report: %r" % err[-3000:])

# the LSP server over the same kind of project: a FIFO where a module file or
# the manifest stands answers a diagnostic (the open blocked the whole server)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lsp"))
from lspclient import Lsp  # noqa: E402
import threading  # noqa: E402
lsp = Lsp(BIN)
p = lsp.p
timer = threading.Timer(DEADLINE, lambda: check(False, "the LSP server hangs on a FIFO"))
timer.start()
lsp.call("initialize", {"capabilities": {}, "rootUri": "file://" + d})
lsp.notify("initialized", {})
put(abs_src("core"), "")
os.unlink(abs_src("core"))
os.mkfifo(abs_src("core"))
lib = abs_src("lib")
luri = "file://" + lib
lsp.notify("textDocument/didOpen", {"textDocument": {"uri": luri, "languageId": "semaprax", "version": 1, "text": SRC["lib"]}})
ds = lsp.note("textDocument/publishDiagnostics")["diagnostics"]
check(any(x.get("code") == "SPX-I001" for x in ds), "a FIFO module: %r" % ds)
lsp.call("textDocument/hover", {"textDocument": {"uri": luri}, "position": {"line": 1, "character": 1}})
put(MANIFEST, "")
os.unlink(MANIFEST)
os.mkfifo(MANIFEST)
lsp.notify("textDocument/didChange", {"textDocument": {"uri": luri, "version": 2}, "contentChanges": [{"text": SRC["lib"] + "\n"}]})
lsp.note("textDocument/publishDiagnostics")
lsp.call("shutdown")
lsp.notify("exit")
status = lsp.p.wait(timeout=DEADLINE)
timer.cancel()
err = lsp.p.stderr.read()
check(status == 0 and b"Sanitizer" not in err, "LSP exit %d: %r" % (status, err[-2000:]))
shutil.rmtree(root, ignore_errors=True)
print("hostile_project: %d steps, ok (%s)" % (COUNT, ", ".join("%s %s: %d" % (k[0], k[1], n) for k, n in sorted(TALLY.items(), key=str))))
