"""fuzz.py BIN [ROUNDS] [SEED] [--mcp] [--project] — a parameter fuzzer of `semaprax serve`
(sec21): every method (or MCP tool) called with parameters drawn from the
names it takes and from values of every JSON type and edge (huge and
negative integers, floats, NUL and astral text, byte offsets inside a UTF-8
sequence, nested containers); `refresh` edits mutate the held source.
Asserts: each request is answered once, with its id, a result or an error;
the service never dies, never stalls past 60 s, and ends with status 0."""
import json
import os
import random
import select
import shutil
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 21
MCP = "--mcp" in sys.argv
PROJECT = "--project" in sys.argv   # serve a copy of tests/project/doc-project; refresh edits name a module
rnd = random.Random(SEED)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = open(os.path.join(ROOT, "lsp", "demo.spx"), encoding="utf-8").read()

METHODS = {
    "protocol": [], "status": [], "check": ["trace"], "ping": [],
    "refresh": ["text", "edits", "path", "trace", "revision"],
    "graph": ["trace"],
    "context": ["symbol", "direction", "depth", "max_bytes", "max_nodes", "filters", "trace"],
    "query": ["kind", "name", "id", "effect", "calls", "called_by", "trace"],
    "doc": ["format"],
    "patch/preview": ["patch", "revision"], "patch/impact": ["patch", "revision", "depth", "max_bytes", "max_nodes"],
    "patch/review": ["patch", "revision"], "patch/apply": ["patch", "revision"],
    "repairs": ["target"], "repair": ["repair", "persistent_id"],
    "fix": ["code", "dry_run"],
    "run": ["args", "max_steps"], "test": [],
}
WORDS = ["main", "demo.main", "forward", "reverse", "both", "text", "json", "html", "contracts", "function",
         "record", "SPX-T201", "SPX-", "", "\u0000", "é😀", "\ud800", "x" * 5000, "a.b.c", "fs.read", "2.0",
         "sha256:" + "0" * 64]
INTS = [0, 1, -1, 2, 64, 1024, 2048, 65536, 2**31 - 1, 2**31, 2**32, 2**53, 2**63 - 1, -2**63, 10**9, 10**9 + 1]


def value(depth=0):
    k = rnd.randrange(9)
    if k == 0:
        return None
    if k == 1:
        return rnd.choice([True, False])
    if k in (2, 3):
        return rnd.choice(INTS)
    if k == 4:
        return rnd.choice([0.5, -0.0, 1e300, 3.0])
    if k in (5, 6):
        return rnd.choice(WORDS)
    if k == 7 and depth < 3:
        return [value(depth + 1) for _ in range(rnd.randrange(0, 4))]
    if depth < 3:
        return {rnd.choice(["start", "end", "text", "x"]): value(depth + 1) for _ in range(rnd.randrange(0, 3))}
    return 0


def patch_text(rev):
    return rnd.choice([
        "base %s\nrename demo.add to plus\n" % rev,
        "base %s\nrename demo.add to fn\n" % rev,
        "schema semaprax.semantic-patch.v4\nbase %s\nremove-clause demo.add requires 0\n" % rev,
        "base %s\n" % rev, "", "base\n", "\u0000", "base %s\nrename %s to y\n" % (rev, "x" * 3000),
        "schema semaprax.semantic-patch.v4\nbase %s\n" % rev + "rename demo.add to p\n" * 200,
    ])


class Dead(Exception):
    pass


class Serve:
    def __init__(self, path):
        args = [BIN, "serve", path, "--max-message-bytes", "65536"] + (["--mcp"] if MCP else [])
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buf = b""
        self.next_id = 1

    def line(self):
        while b"\n" not in self.buf:
            r, _, _ = select.select([self.p.stdout], [], [], 60)
            if not r:
                raise Dead("no reply within 60 s (hang)")
            chunk = os.read(self.p.stdout.fileno(), 1 << 20)
            if not chunk:
                raise Dead("the service closed its output, status %r, stderr %r" % (self.p.wait(), self.p.stderr.read()[-2000:]))
            self.buf += chunk
        l, _, self.buf = self.buf.partition(b"\n")
        return l

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        data = json.dumps(msg).encode()
        try:
            self.p.stdin.write(data + b"\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            raise Dead("broken pipe")
        r = json.loads(self.line())
        if r.get("id") != rid and not (r.get("id") is None and "error" in r):
            raise Dead("reply id %r for request %r: %r" % (r.get("id"), rid, r))
        if ("result" in r) == ("error" in r):
            raise Dead("neither or both of result and error: %r" % r)
        return r


def main():
    d = tempfile.mkdtemp(prefix="spx-svc-fuzz-")
    path = os.path.join(d, "demo.spx")
    with open(path, "w") as f:
        f.write(SOURCE)
    operand = path
    modules = []
    if PROJECT:
        operand = os.path.join(d, "p")
        shutil.copytree(os.path.join(ROOT, "project", "doc-project"), operand)
        modules = sorted(os.path.join(operand, "src", n) for n in os.listdir(os.path.join(operand, "src")))
        path = modules[0]
    s = Serve(operand)
    if MCP:
        s.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "f", "version": "1"}})
    text = SOURCE.encode()
    rev = "sha256:" + "0" * 64
    stats = {}
    for i in range(ROUNDS):
        method = rnd.choice(sorted(METHODS))
        if rnd.random() < 0.05:   # re-read the disk: the held source is the file again
            method = "refresh"
            params = {"path": rnd.choice(modules)} if PROJECT else {}
            text = open(path, "rb").read()
        else:
            params = {}
            for name in METHODS[method]:
                if rnd.random() < 0.4:
                    params[name] = value()
            if method == "refresh" and rnd.random() < 0.6:
                params.pop("text", None)
                edits = []
                for _ in range(rnd.randrange(1, 4)):
                    a = rnd.randrange(len(text) + 2)
                    b = a + rnd.choice([0, 0, 1, 3, 40])
                    edits.append({"start": a, "end": b, "text": rnd.choice(["", " ", "\n", "é", "😀", "fn", "}", "x"])})
                params["edits"] = edits
            if PROJECT and method == "refresh" and rnd.random() < 0.8:
                params["path"] = rnd.choice(modules + ["src/../" + os.path.relpath(modules[0], operand), "/dev/null", "/"])
                if rnd.random() < 0.2:
                    params.pop("edits", None)
                    params.pop("text", None)
            if method in ("patch/preview", "patch/impact", "patch/review", "patch/apply") and rnd.random() < 0.7:
                params["patch"] = patch_text(rev)
            if method == "context" and rnd.random() < 0.6:
                params["symbol"] = rnd.choice(["demo.add", "demo.main", "add", "main", "nosuch"])
            if method == "run":
                params["max_steps"] = rnd.choice([1, 100, 10000])
        if MCP:
            r = s.request("tools/call", {"name": method.replace("/", "_"), "arguments": params})
        else:
            r = s.request(method, params or rnd.choice([None, {}]))
        res = r.get("result")
        if isinstance(res, dict) and isinstance(res.get("revision"), str):
            rev = res["revision"]
        key = (method, "error %d" % r["error"]["code"] if "error" in r else "result")
        stats[key] = stats.get(key, 0) + 1
    if not MCP:
        s.request("shutdown", None)
    s.p.stdin.close()
    st = s.p.wait(timeout=120)
    err = s.p.stderr.read()
    shutil.rmtree(d, ignore_errors=True)
    if st != 0:
        raise Dead("exit status %r; stderr %r" % (st, err[-3000:]))
    if os.environ.get("FUZZ_STATS"):
        for k in sorted(stats):
            print(k, stats[k])
    print("service fuzz%s%s: ok (%d rounds, seed %d)" % (" --mcp" if MCP else "", " --project" if PROJECT else "", ROUNDS, SEED))


try:
    main()
except (Dead, AssertionError, ValueError) as e:
    print("FAIL (seed %d%s): %s" % (SEED, " --mcp" if MCP else "", e))
    sys.exit(1)
