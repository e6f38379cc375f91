"""lspclient.py — a scripted LSP client of `semaprax lsp` (tests/lsp/).

Speaks the LSP base protocol (Content-Length headers, JSON-RPC 2.0) over
the child's pipes; every check fails loudly (AssertionError, exit 1)."""
import json
import subprocess


class Lsp:
    def __init__(self, binary, *extra):
        self.p = subprocess.Popen([binary, "lsp", *extra], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 1
        self.notes = []          # notifications received, in order

    def send_raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg, ensure_ascii=False).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def read(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            assert line, "the server closed its output (stderr: %r)" % self.p.stderr.read()[:2000]
            assert line.endswith(b"\r\n"), line
            if line == b"\r\n":
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value.strip())
        assert length is not None
        body = self.p.stdout.read(length)
        assert len(body) == length
        return json.loads(body)

    def reply(self, rid):
        """The reply to request rid; notifications before it are kept."""
        while True:
            msg = self.read()
            assert msg.get("jsonrpc") == "2.0", msg
            if "id" in msg and "method" not in msg:
                assert msg["id"] == rid, (rid, msg)
                return msg
            self.notes.append(msg)

    def request(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.reply(rid)

    def call(self, method, params=None):
        r = self.request(method, params)
        assert "result" in r, (method, r)
        return r["result"]

    def error(self, method, params=None):
        r = self.request(method, params)
        assert "error" in r, (method, r)
        return r["error"]

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def note(self, method):
        """The next notification named method (reading as needed)."""
        while True:
            for i, n in enumerate(self.notes):
                if n.get("method") == method:
                    return self.notes.pop(i)["params"]
            self.notes.append(self.read())

    def finish(self):
        self.p.stdin.close()
        rest = self.p.stdout.read()
        status = self.p.wait(timeout=60)
        err = self.p.stderr.read()
        return status, rest, err
