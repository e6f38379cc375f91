"""stat_count.py BIN [N] — counting, not timing: the stat() calls one edit of
an LSP project document costs with N modules all open must grow linearly
with N (at most 16 per module), not with N² (each open document matched
against each module or source by two stat()s per pair).  Needs strace; it
says so and passes without it.

Not wired into lsp-test.sh yet: the LSP side (lsp_project.c) is linear,
but project_check_overlay (src/project/project.c, overlay_for) still
stat()s every overlay path for every source — 2·N² per check."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from urllib.parse import quote

BIN = os.path.abspath(sys.argv[1])
N = int(sys.argv[2]) if len(sys.argv) > 2 else 120
HERE = os.path.dirname(os.path.abspath(__file__))


def frame(obj):
    import json
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def session(root, srcs, edits):
    """The stat-family system calls of a session opening every module and
    making `edits` edits of the provider."""
    msgs = [frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})]
    for k, text in sorted(srcs.items()):
        msgs.append(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": "file://" + quote(os.path.join(root, "src", k + ".spx")), "languageId": "semaprax", "version": 1, "text": text}}}))
    core = "file://" + quote(os.path.join(root, "src", "core.spx"))
    for i in range(edits):
        msgs.append(frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": core, "version": i + 2},
            "contentChanges": [{"text": srcs["core"].replace("x + 1", "x + %d" % (i + 2))}]}}))
    msgs.append(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    msgs.append(frame({"jsonrpc": "2.0", "method": "exit"}))
    out = os.path.join(root, "strace.txt")
    r = subprocess.run(["strace", "-f", "-c", "-o", out, "-e", "trace=stat,lstat,newfstatat,statx", BIN, "lsp"], input=b"".join(msgs),
                       capture_output=True)
    assert r.returncode == 0, r.stderr[-2000:]
    total = 0
    with open(out) as f:
        for line in f:
            m = re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$", line)
            if m and m.group(2) != "total":
                total += int(m.group(1))
    return total


def main():
    if not shutil.which("strace"):
        print("lsp stat count: skipped (no strace)")
        return
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="spx-lsp-stat."))
    try:
        root = os.path.join(tmp, "big")
        os.makedirs(os.path.join(root, "src"))
        srcs = {"core": 'module big.core;\n\n@id("big.core.f")\nfn f(x: i64) -> i64\n{\n    x + 1\n}\n',
                "app": 'module big.app;\n\n@id("big.app.main")\nfn main() -> i64\n{\n    0\n}\n',
                "tests": 'module big.tests;\n\n@id("big.tests.main")\nfn main() -> i64\n{\n    0\n}\n'}
        for i in range(N):
            m = "m%04d" % i
            srcs[m] = ('module big.%s;\nuse function @id("big.core.f") from big.core as f;\n\n@id("big.%s.g")\n'
                       'fn g() -> i64\n{\n    f(1)\n}\n' % (m, m))
        for k, v in srcs.items():
            with open(os.path.join(root, "src", k + ".spx"), "w") as f:
                f.write(v)
        paths = ", ".join(sorted('"src/%s.spx"' % k for k in srcs))
        with open(os.path.join(root, "semaprax.toml"), "w") as f:
            f.write('schema = "semaprax.manifest.v1"\n\n[package]\nname = "big"\nversion = "0.1.0"\n\n[modules]\n'
                    'entry = "big.app"\nsources = [%s]\ntests = ["big.tests"]\n\n[exports]\nweb = ["big.app.main"]\n' % paths)
        r = subprocess.run([BIN, "check", root], capture_output=True)
        assert r.returncode == 0, r.stderr[-2000:]
        base = session(root, srcs, 0)
        edited = session(root, srcs, 5)
        per_edit = (edited - base) / 5
        mods = len(srcs)
        print("lsp stat count: %d modules, %.0f stat calls an edit (%.1f a module)" % (mods, per_edit, per_edit / mods))
        assert per_edit <= 16 * mods, "an edit costs %.0f stat calls with %d open modules: quadratic" % (per_edit, mods)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
