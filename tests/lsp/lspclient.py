"""lspclient.py — a scripted LSP client of `semaprax lsp` (tests/lsp/).

Speaks the LSP base protocol (Content-Length headers, JSON-RPC 2.0) over
the child's pipes; every check fails loudly (AssertionError, exit 1).
Also the position helpers the scripts share: LSP positions are (line,
UTF-16 column), the server's `positionEncoding`."""
import json
import subprocess


def u16(s):
    """The length of s in UTF-16 code units."""
    return len(s.encode("utf-16-le")) // 2


def pos_at(text, off):
    """The LSP position of text[off]."""
    start = text.rfind("\n", 0, off) + 1
    return {"line": text.count("\n", 0, off), "character": u16(text[start:off])}


def pos(text, needle, nth=0, offset=0):
    """The LSP position offset characters into the nth occurrence of needle."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return pos_at(text, at + offset)


def rng(text, needle, nth=0, length=None):
    """The range of the first `length` characters (all of them by default) of the nth needle."""
    s = pos(text, needle, nth)
    n = u16(needle if length is None else needle[:length])
    return {"start": s, "end": {"line": s["line"], "character": s["character"] + n}}


def whole(text):
    """The range of the whole text."""
    lines = text.split("\n")
    return {"start": {"line": 0, "character": 0}, "end": {"line": len(lines) - 1, "character": u16(lines[-1])}}


def apply(text, edits):
    """Applies LSP TextEdits (UTF-16 ranges) to text."""
    lines = text.split("\n")

    def off(p):
        before = sum(len(l) + 1 for l in lines[:p["line"]])
        line = lines[p["line"]] if p["line"] < len(lines) else ""
        units, i = 0, 0
        while i < len(line) and units < p["character"]:
            units += u16(line[i])
            i += 1
        return before + i
    spans = sorted(((off(e["range"]["start"]), off(e["range"]["end"]), e["newText"]) for e in edits), reverse=True)
    for s, e, t in spans:
        text = text[:s] + t + text[e:]
    return text


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

    def diags(self, uri):
        """The next publishDiagnostics for uri (other notifications are kept in order)."""
        while True:
            for i, n in enumerate(self.notes):
                if n.get("method") == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri:
                    return self.notes.pop(i)["params"]["diagnostics"]
            self.notes.append(self.read())

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
