"""tests/docs/lsp_roundtrip.py WORD… — starts the command line WORD… (an editor
configuration's, from docs/editors.md; tests/docs-test.sh puts the binary under
test first on PATH as `semaprax`) and does what every editor does first and
last: `initialize` (answered with capabilities naming the documented
features), `initialized`, `shutdown` (answered `null`), `exit`; the process
must then end with status 0. Prints one line; exit 1 on any difference."""
import json
import subprocess
import sys


def frame(msg):
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read(out):
    length = None
    while True:
        line = out.readline()
        if not line:
            raise SystemExit("FAIL %s: the server closed its output" % " ".join(sys.argv[1:]))
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
        else:
            raise SystemExit("FAIL %s: not an LSP header: %r" % (" ".join(sys.argv[1:]), line[:200]))
    if length is None:
        raise SystemExit("FAIL %s: a frame without Content-Length" % " ".join(sys.argv[1:]))
    return json.loads(out.read(length))


def main():
    argv = sys.argv[1:]
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
    p.stdin.flush()
    init = read(p.stdout)
    caps = init.get("result", {}).get("capabilities", {})
    want = ["hoverProvider", "definitionProvider", "referencesProvider", "renameProvider",
            "documentFormattingProvider", "documentSymbolProvider", "codeActionProvider",
            "semanticTokensProvider"]
    missing = [c for c in want if not caps.get(c)]
    if init.get("id") != 1 or missing:
        raise SystemExit("FAIL %s: initialize answered %r (missing %s)" % (" ".join(argv), init, missing))
    p.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    p.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    p.stdin.flush()
    down = read(p.stdout)
    if down != {"jsonrpc": "2.0", "id": 2, "result": None}:
        raise SystemExit("FAIL %s: shutdown answered %r" % (" ".join(argv), down))
    p.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    p.stdin.close()
    rest = p.stdout.read()
    status = p.wait(timeout=30)
    if status != 0 or rest:
        raise SystemExit("FAIL %s: after exit, status %d and output %r" % (" ".join(argv), status, rest[:200]))
    print("ok %s" % " ".join(argv))


try:
    main()
except (BrokenPipeError, ConnectionResetError, FileNotFoundError, PermissionError) as e:
    raise SystemExit("FAIL %s: %s" % (" ".join(sys.argv[1:]), e))
