"""client.py — a scripted client of `semaprax serve` (tests/service/).

Speaks newline-delimited JSON-RPC 2.0 over the child's pipes, the framing
docs/service.md describes; every test here fails loudly (AssertionError,
exit 1) on the first unexpected answer."""
import json
import os
import resource
import subprocess
import sys
import tempfile


class Client:
    def __init__(self, binary, operand, *extra, cwd=None, env=None):
        self.p = subprocess.Popen([binary, "serve", operand, *extra], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.next_id = 1

    def send_raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def read(self):
        line = self.p.stdout.readline()
        assert line, "the service closed its output (stderr: %r)" % self.p.stderr.read()[:2000]
        assert line.endswith(b"\n")
        return json.loads(line)

    def request(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send_raw(json.dumps(msg).encode() + b"\n")
        reply = self.read()
        assert reply.get("id") == rid, (method, reply)
        assert reply.get("jsonrpc") == "2.0", reply
        return reply

    def call(self, method, params=None):
        reply = self.request(method, params)
        assert "result" in reply, (method, reply)
        return reply["result"]

    def error(self, method, params=None):
        reply = self.request(method, params)
        assert "error" in reply, (method, reply)
        return reply["error"]["code"]

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send_raw(json.dumps(msg).encode() + b"\n")

    def close(self):
        self.p.stdin.close()
        rest = self.p.stdout.read()
        status = self.p.wait(timeout=60)
        err = self.p.stderr.read()
        return status, rest, err


def cli_check(binary, path):
    """`semaprax check --json`: (diagnostics, revision or None).  The oracle
    runs in $PLAIN_BIN when set: the sanitizer lane's plain build (its own
    test-fixtures runs `check` under ASan; here the sanitized binary is the
    service under test)."""
    r = subprocess.run([os.environ.get("PLAIN_BIN") or binary, "check", path, "--json"], capture_output=True)
    lines = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
    diags = [l for l in lines if "code" in l]
    status = [l for l in lines if "status" in l]
    rev = status[0].get("revision") if status and status[0]["status"] == "verified" else None
    return diags, rev


def tempdir():
    return tempfile.mkdtemp(prefix="spx-service-")


def check(cond, what):
    if not cond:
        print("FAIL: " + what, file=sys.stderr)
        sys.exit(1)



def proc_cpu(pid):
    """CPU seconds (user + system) a live process has used, from /proc."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cold_check_cpu(binary, path, what, runs=3):
    """The least CPU of `runs` fresh `semaprax check path` processes (each must verify)."""
    cold = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = subprocess.run([binary, "check", path], capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        check(r.returncode == 0, "%s: %r" % (what, r.stdout[-2000:]))
        cold.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return min(cold)


def bench_program(n):
    """The service benches' generated module: n small functions, each
    calling the one before it (`bench.f<i>`), and a `main`."""
    parts = ["module bench.gen;\n"]
    for i in range(n):
        callee = "f%d(x - 1) + " % (i - 1) if i else ""
        parts.append('\n@id("bench.f%d")\nfn f%d(x: i64) -> i64\n    requires x >= 0\n{\n    let y = x * %d;\n    %sy %% 7\n}\n'
                     % (i, i, i % 13 + 1, callee))
    parts.append('\n@id("bench.main")\nfn main() -> i64 {\n    f%d(3) - f%d(3)\n}\n' % (n - 1, n - 1))
    return "".join(parts)

def lsp_send(proc, obj):
    """One LSP message (Content-Length framing) to proc's stdin."""
    body = json.dumps(obj).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def lsp_read(proc):
    """The next LSP message from proc's stdout."""
    length = 0
    while True:
        line = proc.stdout.readline()
        check(line, "the LSP server ended")
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(proc.stdout.read(length))
