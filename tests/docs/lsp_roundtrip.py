"""tests/docs/lsp_roundtrip.py LIST — for each line `WHO<tab>WORD…` of LIST,
starts the command line WORD… (an editor configuration's, from docs/editors.md;
tests/docs-test.sh puts the binary under test first on PATH as `semaprax`) and
does what every editor does first and last: `initialize` (answered with
capabilities naming the documented features), `initialized`, `shutdown`
(answered `null`), `exit`; the process must then end with status 0. Prints one FAIL line per command line that does
not (naming WHO); exit 1 when there is one."""
import json
import subprocess
import sys
import threading


class Fail(Exception):
    pass


def frame(msg):
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read(out):
    length = None
    while True:
        line = out.readline()
        if not line:
            raise Fail("the server closed its output")
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
        else:
            raise Fail("not an LSP header: %r" % line[:200])
    if length is None:
        raise Fail("a frame without Content-Length")
    return json.loads(out.read(length))


def session(argv):
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    watchdog = threading.Timer(30, p.kill)   # a server that never answers is killed, then fails
    watchdog.start()
    try:
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
            raise Fail("initialize answered %r (missing %s)" % (init, missing))
        p.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        p.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        p.stdin.flush()
        down = read(p.stdout)
        if down != {"jsonrpc": "2.0", "id": 2, "result": None}:
            raise Fail("shutdown answered %r" % (down,))
        p.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
        p.stdin.close()
        rest = p.stdout.read()
        status = p.wait(timeout=30)
        if status != 0 or rest:
            raise Fail("after exit, status %d and output %r" % (status, rest[:200]))
    finally:
        watchdog.cancel()
        if p.poll() is None:
            p.kill()
            p.wait()


def main():
    bad = 0
    for row in open(sys.argv[1], encoding="utf-8").read().splitlines():
        who, line = row.split("\t")
        try:
            session(line.split())
        except (Fail, BrokenPipeError, ConnectionResetError, FileNotFoundError, PermissionError, ValueError,
                subprocess.TimeoutExpired) as e:
            print("FAIL docs/editors.md: %s starts `%s`: %s" % (who, line, e))
            bad = 1
    sys.exit(bad)


main()
