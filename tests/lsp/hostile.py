"""hostile.py BIN [N] — N malformed or hostile messages to `semaprax lsp`
(issue 17 item 5, for the LSP framing): truncated JSON, wrong parameter
types, huge ids, deep nesting, invalid UTF-8, oversized frames, bad
headers, method names with NUL, a result over the bound, positions past the end, edits of unopened documents, requests
after shutdown.  Every request is answered (an error or a result), every
notification ignored, and the server ends with status 0 after shutdown."""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Lsp  # noqa: E402

BIN = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
URI = "file:///hostile.spx"
TD = {"uri": URI}
TEXT = ("module h;\n\n@id(\"h.r\")\nrecord R {\n    @id(\"h.r.v\")\n    v: i64,\n}\n\n@id(\"h.f\")\n"
        "fn f(x: i64, r: R) -> i64\n{\n    let y = x + r.v; // é😀\n    y\n}\n\nfn g() -> i64\n{\n    1\n}\n\n"
        "@id(\"h.main\")\nfn main() -> i64\n{\n    f(g(), R { v: 2 })\n}\n")
rnd = random.Random(17)


def frame(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def main():
    # a position encoding holding NUL is not "utf-8" (never the name before the NUL)
    e = Lsp(BIN)
    assert e.call("initialize", {"capabilities": {"general": {"positionEncodings": ["utf-8\u0000x"]}}})[
        "capabilities"]["positionEncoding"] == "utf-16"
    assert e.call("shutdown") is None
    e.notify("exit")
    assert e.finish()[0] == 0
    c = Lsp(BIN, "--max-message-bytes", "4096")
    c.call("initialize", {"capabilities": {}})
    c.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "semaprax", "version": 1, "text": TEXT}})
    c.note("textDocument/publishDiagnostics")
    methods = ["textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/rename", "textDocument/prepareRename",
               "textDocument/formatting", "textDocument/documentSymbol", "textDocument/semanticTokens/full",
               "textDocument/codeAction", "initialize", "nothing"]
    junk = [None, 1, -1, 2**62, "x", [], {}, True, 1.5, {"line": "1"}, {"line": -5, "character": 0},
            {"line": 10**9, "character": 10**9}, "\u0000", "é😀"]
    answered = 0
    for i in range(N):
        k = i % 9
        rid = i + 10
        if k == 0:      # truncated JSON: an error with id null
            body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": rnd.choice(methods)}).encode()
            c.send_raw(frame(body[:rnd.randrange(1, len(body))]))
            r = c.read()
            assert "error" in r and r["id"] is None, r
        elif k == 1:    # wrong types everywhere
            params = {"textDocument": rnd.choice(junk + [TD]), "position": rnd.choice(junk),
                      "newName": rnd.choice(junk), "range": rnd.choice(junk), "context": rnd.choice(junk)}
            c.send(({"jsonrpc": "2.0", "id": rid, "method": rnd.choice(methods), "params": params}))
            r = c.reply(rid)
            assert ("error" in r) != ("result" in r), r
        elif k == 2:    # huge and odd ids
            bad = rnd.choice([2**64, -2**63 - 1, 1.5, [1], {"a": 1}, True])
            c.send_raw(frame(json.dumps({"jsonrpc": "2.0", "id": bad, "method": "textDocument/hover"}).encode()))
            r = c.read()
            assert "error" in r, r
        elif k == 3:    # deep nesting
            depth = rnd.choice([65, 100, 1000])
            body = b'{"jsonrpc":"2.0","id":%d,"method":"x","params":' % rid + b"[" * depth + b"]" * depth + b"}"
            c.send_raw(frame(body))
            r = c.read()
            assert "error" in r, r
        elif k == 4:    # invalid UTF-8
            c.send_raw(frame(b'{"jsonrpc":"2.0","id":%d,"method":"\xff\xfe"}' % rid))
            assert c.read()["error"]["code"] == -32700
        elif k == 5:    # oversized frame (skipped without being stored)
            c.send_raw(frame(b"[" + b"1," * 3000 + b"1]"))
            assert c.read()["error"]["code"] == -32001
        elif k == 6:    # bad headers
            c.send_raw(rnd.choice([b"Content-Length: -3\r\n\r\n", b"Content-Length: 1x\r\n\r\n", b"X: y\r\n\r\n",
                                   b"Content-Length:\r\n\r\n"]))
            assert c.read()["error"]["code"] == -32600
        elif k == 7:    # notifications with junk are ignored: the next request is answered
            c.notify(rnd.choice(["textDocument/didChange", "textDocument/didOpen", "textDocument/didClose", "$/x"]),
                     rnd.choice(junk + [{"textDocument": {"uri": "file:///other"}, "contentChanges": [{"text": 5}]}]))
            # a method name with NUL is no method: `exit\u0000…` does not end the session,
            # `shutdown\u0000…` is -32601 (the name before the NUL is never taken)
            if i % 4 == 3:
                c.notify("exit\u0000x", {})
                assert c.error(rnd.choice(["shutdown", "textDocument/documentSymbol"]) + "\u0000",
                               {"textDocument": TD})["code"] == -32601
            c.send({"jsonrpc": "2.0", "id": rid, "method": "textDocument/documentSymbol", "params": {"textDocument": TD}})
            r = c.reply(rid)
            assert "result" in r or r["error"]["code"] == -32602, r
        else:           # positions anywhere, non-ASCII names
            pos = {"line": rnd.choice([rnd.randrange(26)] * 8 + [99, 2**31]),
                   "character": rnd.choice([rnd.randrange(24)] * 8 + [2**31])}
            c.send({"jsonrpc": "2.0", "id": rid, "method": rnd.choice(methods[:4]),
                    "params": {"textDocument": TD, "position": pos, "newName": rnd.choice(["é", "a b", "ok_name", "", "v", "f"]),
                               "context": {"includeDeclaration": rnd.choice([True, False])}}})
            r = c.reply(rid)
            assert ("error" in r) != ("result" in r), r
        answered += 1
    # a result over the bound (semantic tokens of a dense text under it) is -32803 RequestFailed,
    # never -32002, LSP's ServerNotInitialized
    dense = "module d;\n\n@id(\"d.main\")\nfn main() -> i64\n{\n" + "".join(
        "    let v%d = 0;\n" % k for k in range(180)) + "    v0\n}\n"
    du = "file:///dense.spx"
    c.notify("textDocument/didOpen", {"textDocument": {"uri": du, "languageId": "semaprax", "version": 1, "text": dense}})
    c.note("textDocument/publishDiagnostics")
    r = c.request("textDocument/semanticTokens/full", {"textDocument": {"uri": du}})
    assert r.get("error", {}).get("code") == -32803 and "exceeds the message bound" in r["error"]["message"], r
    assert c.call("shutdown") is None
    for i in range(50):
        assert c.error("textDocument/hover", {"textDocument": TD, "position": {"line": 0, "character": 0}})["code"] == -32600
    c.notify("exit")
    status, rest, err = c.finish()
    assert status == 0 and err == b"", (status, err[:2000])
    print("lsp hostile: ok (%d messages)" % answered)


main()
