"""cpu.py BIN [N] [REPS] — CPU (utime+stime from /proc) per one-body refresh of
the bench's program: REPS refreshes sent as JSON-RPC `edits` (alternately
applied and undone), then the same count as LSP ranged didChanges, each minus
the process's CPU after its cold check.  Prints ms per refresh and the ratio to
a cold `semaprax check` (CPU of the child).  Linux only (/proc)."""
import os
import subprocess
import sys

from client import Client, bench_program, check, cold_check_cpu, lsp_read, lsp_send, proc_cpu, tempdir

BIN = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
REPS = int(sys.argv[3]) if len(sys.argv) > 3 else 400
d = tempdir()
path = os.path.join(d, "bench.spx")
src = bench_program(N)
with open(path, "w") as f:
    f.write(src)



cold_cpu = cold_check_cpu(BIN, path, "verifies")

k = N // 2
at = src.encode().index(("let y = x * %d;\n    f%d(" % (k % 13 + 1, k - 1)).encode()) + len("let y = x * %d" % (k % 13 + 1))
fwd = [{"start": at, "end": at, "text": " + 0"}]
back = [{"start": at, "end": at + 4, "text": ""}]
c = Client(BIN, path, "--max-message-bytes", str(64 << 20))
c.call("check")
base = proc_cpu(c.p.pid)
for rep in range(REPS):
    r = c.call("refresh", {"edits": fwd if rep % 2 == 0 else back})
    check(r["ok"], "refresh verifies")
rpc = (proc_cpu(c.p.pid) - base) / REPS
c.call("shutdown")
c.notify("exit")
c.close()

# SPX_CPU_WRAP (e.g. "perf record -g -o lsp.data --"): the LSP server run under a profiler
lsp = subprocess.Popen(os.environ.get("SPX_CPU_WRAP", "").split() + [BIN, "lsp", "--max-message-bytes", str(64 << 20)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def send(obj):
    lsp_send(lsp, obj)


def read():
    return lsp_read(lsp)


send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
read()
uri = "file://" + path
send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "version": 1, "text": src}}})
check(read()["method"] == "textDocument/publishDiagnostics", "diagnostics on open")
line = src[:at].count("\n")
col = at - (src.rindex("\n", 0, at) + 1)
base = proc_cpu(lsp.pid) if not os.environ.get("SPX_CPU_WRAP") else 0
for rep in range(REPS):
    rng = {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + (0 if rep % 2 == 0 else 4)}}
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": rep + 2}, "contentChanges": [{"range": rng, "text": " + 0" if rep % 2 == 0 else ""}]}})
    m = read()
    check(m["method"] == "textDocument/publishDiagnostics" and m["params"]["version"] == rep + 2, "diagnostics")
lspc = (proc_cpu(lsp.pid) - base) / REPS if not os.environ.get("SPX_CPU_WRAP") else 0
lsp.stdin.close()
lsp.wait(timeout=60)
print("CPU per one-body refresh (%d functions, %d refreshes): cold check %.1f ms; JSON-RPC edits %.3f ms (%.2f%%); "
      "LSP ranged didChange %.3f ms (%.2f%%)" % (N, REPS, 1000 * cold_cpu, 1000 * rpc, 100 * rpc / cold_cpu, 1000 * lspc, 100 * lspc / cold_cpu))
