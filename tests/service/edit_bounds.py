"""edit_bounds.py BIN — what one frame of incremental edits may cost, in
`semaprax serve` and `semaprax lsp` (found by the qa10 pass: a 3 MB frame
of 100,000 empty edits against a 60 MB source kept `serve` busy for 565 s,
each edit copying the whole source), and how much the LSP's open documents
may hold together (any number of didOpens used to be held: 200 documents of
500 kB took 300 MB).

  serve   edits copying more than 4 x the edited-text bound (64 x the message
          bound) in all are -32602 and leave the source as it was; a few
          edits against the same source are applied in order
  lsp     didChange past that work drops the rest of its changes and says so
          (window/showMessage, type 1); a few changes are applied
  lsp     didOpen past 64 x the message bound held in all (each document
          counting 16 KiB more than its text) is refused with a
          window/showMessage; closing a document makes room again"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lsp"))
from client import Client, tempdir  # noqa: E402
from lspclient import Lsp  # noqa: E402

BIN = sys.argv[1]
BOUND = 65536           # --max-message-bytes: edited text <= 4 MiB, edit work <= 16 MiB
HEAD = "module e;\n\n@id(\"app.main\")\nfn main() -> i64\n{\n    1\n}\n"
BIG = HEAD + ("// " + "x" * 996 + "\n") * 1000        # about 1 MB
MID = HEAD + ("// " + "x" * 996 + "\n") * 60          # about 60 kB: one LSP frame


def shown_before_reply(c, uri):
    """The window/showMessage the server sent before answering a request
    made after the notification (None when it sent none)."""
    c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    for i, n in enumerate(c.notes):
        if n.get("method") == "window/showMessage":
            return c.notes.pop(i)["params"]
    return None


def serve():
    d = tempdir()
    path = os.path.join(d, "e.spx")
    with open(path, "w") as f:
        f.write(BIG)
    c = Client(BIN, path, "--max-message-bytes", str(BOUND))
    assert c.call("check")["ok"]
    # 1,500 empty edits would copy 1.5 GB: refused whole, nothing applied
    code = c.error("refresh", {"edits": [{"start": 0, "end": 0, "text": ""}] * 1500})
    assert code == -32602, code
    # the near miss: 10 edits (10 MB of copying) apply in order
    n = len(HEAD)
    edits = [{"start": n, "end": n, "text": "// %d\n" % i} for i in range(10)]
    r = c.call("refresh", {"edits": edits})
    assert r["ok"], r
    st = c.call("status")
    assert st["bytes"] == len(BIG) + sum(len(e["text"]) for e in edits), st
    status, _, err = c.close()
    assert status == 0 and err == b"", (status, err)


def lsp_changes():
    c = Lsp(BIN, "--max-message-bytes", str(BOUND))
    c.call("initialize", {"capabilities": {}})
    uri = "file:///edit-bounds/big.spx"
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "semaprax", "version": 1, "text": MID}})
    assert c.diags(uri) == []
    at = {"line": 7, "character": 0}
    # 600 changes would copy 36 MB: the rest past the work bound is dropped, and said
    many = [{"range": {"start": at, "end": at}, "text": ""}] * 600
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": many})
    shown = shown_before_reply(c, uri)
    assert shown and shown["type"] == 1 and "and later dropped" in shown["message"], c.notes
    assert c.diags(uri) == []
    # the near miss: 5 changes, applied (a broken body is reported)
    few = [{"range": {"start": {"line": 5, "character": 4}, "end": {"line": 5, "character": 5}}, "text": "true"}]
    few += [{"range": {"start": at, "end": at}, "text": "// %d\n" % i} for i in range(4)]
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": few})
    ds = c.diags(uri)
    assert [d["code"] for d in ds] == ["SPX-T103"], ds
    assert not any(n.get("method") == "window/showMessage" for n in c.notes), c.notes
    c.call("shutdown")
    c.notify("exit")
    status, _, err = c.finish()
    assert status == 0 and err == b"", (status, err)


def lsp_open():
    small = 16384   # 64 x 16,384 = 1 MiB held in all
    c = Lsp(BIN, "--max-message-bytes", str(small))
    c.call("initialize", {"capabilities": {}})
    text = HEAD + "// " + "y" * 12000 + "\n"     # 12 kB + 16 KiB each: 36 fit, the 37th does not
    for i in range(36):
        uri = "file:///edit-bounds/d%d.spx" % i
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "semaprax", "version": 1, "text": text}})
        assert c.diags(uri) == []
    c.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///edit-bounds/d36.spx", "languageId": "semaprax",
                                                       "version": 1, "text": text}})
    shown = shown_before_reply(c, "file:///edit-bounds/d36.spx")
    assert shown and shown["type"] == 1 and "didOpen refused" in shown["message"], c.notes
    # a refused document is not held: a request on it finds nothing
    r = c.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///edit-bounds/d36.spx"}})
    assert r.get("result") is None or "error" in r, r
    # closing one makes room
    c.notify("textDocument/didClose", {"textDocument": {"uri": "file:///edit-bounds/d0.spx"}})
    assert c.diags("file:///edit-bounds/d0.spx") == []
    c.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///edit-bounds/d36.spx", "languageId": "semaprax",
                                                       "version": 1, "text": text}})
    assert c.diags("file:///edit-bounds/d36.spx") == []
    assert not any(n.get("method") == "window/showMessage" for n in c.notes), c.notes
    c.call("shutdown")
    c.notify("exit")
    status, _, err = c.finish()
    assert status == 0 and err == b"", (status, err)


serve()
lsp_changes()
lsp_open()
print("edit_bounds: ok")
