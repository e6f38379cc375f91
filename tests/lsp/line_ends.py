"""line_ends.py BIN [N] — LSP line ends (LSP 3.17, "Text Documents"): a line
ends at `\\n`, `\\r\\n` or a lone `\\r`, and positions count lines that way.
The language reads `\\r` as whitespace, so a document with `\\r` line ends
verifies; the server must then address its lines as the editor does:
definition, symbols and semantic tokens of a `\\r`-only and a `\\r\\n`
document, a position past a line's end clamped before its `\\r\\n` (an edit
there must not split the pair), and N (default 400) random ranged edits that
insert and delete `\\r`, `\\n`, `\\r\\n` and spaces in whitespace (joining a
lone `\\r` with a following `\\n` into one line end, or splitting one),
checked against a model of the text after each edit by `definition` and at
the end by `documentSymbol`. (A user walk found every `\\r`-only document
held as one line: hover and definition answered null, symbols sat on line 0.)"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Lsp, u16  # noqa: E402

BIN = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 400
URI = "file:///tmp/spx-line-ends/m.spx"
TD = {"uri": URI}
BASE = ('module m;\n\n@id("m.f")\nfn f(x: i64) -> i64\n{\n    x + 1\n}\n\n'
        '@id("m.main")\nfn main() -> i64\n{\n    let s = "\U0001F600\U0001F600"; f(2)\n}\n')


def starts(text):
    """Line starts, LSP's way."""
    out = [0]
    for m in re.finditer(r"\r\n|\r|\n", text):
        out.append(m.end())
    return out


def pos(text, off):
    st = starts(text)
    line = max(i for i, s in enumerate(st) if s <= off)
    return {"line": line, "character": u16(text[st[line]:off])}


def between_crlf(text, off):
    return 0 < off < len(text) and text[off - 1] == "\r" and text[off] == "\n"


def expect_definition(c, text, what):
    use = text.index("f(2)")
    got = c.call("textDocument/definition", {"textDocument": TD, "position": pos(text, use)})
    name = re.search(r"fn\s+f\(", text).end() - 2
    want = {"uri": URI, "range": {"start": pos(text, name), "end": pos(text, name + 1)}}
    assert got == want, (what, got, want, text)


def expect_symbols(c, text, what):
    got = c.call("textDocument/documentSymbol", {"textDocument": TD})
    want = []
    for name in ("f", "main"):
        at = re.search(r"fn\s+%s\(" % name, text).end() - 1 - len(name)
        want.append((name, pos(text, at), pos(text, at + len(name))))
    have = [(s["name"], s["selectionRange"]["start"], s["selectionRange"]["end"]) for s in got]
    assert have == want, (what, have, want)


def main():
    c = Lsp(BIN)
    c.call("initialize", {"capabilities": {}})
    c.notify("initialized", {})
    version = 1
    for eol in ("\r", "\r\n"):
        # (a `//` comment runs to a `\n`: the lexer's rule, not LSP's; only the `\r\n` text has one)
        text = (BASE.replace("module m;\n", "module m;\n// the sum\n") if eol == "\r\n" else BASE).replace("\n", eol)
        version += 1
        c.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "semaprax", "version": version, "text": text}})
        assert c.diags(URI) == [], repr(eol)
        expect_definition(c, text, repr(eol))
        expect_symbols(c, text, repr(eol))
        # a token never runs into its line end: the comment is 10 units long
        data = c.call("textDocument/semanticTokens/full", {"textDocument": TD})["data"]
        line = col = 0
        toks = []
        for i in range(0, len(data), 5):
            line, col = (line + data[i], data[i + 1]) if data[i] else (line, col + data[i + 1])
            toks.append((line, col, data[i + 2]))
        if eol == "\r\n":
            one = pos(text, text.index("// the sum"))
            assert (one["line"], one["character"], 10) in toks, (repr(eol), toks)
        # a position past the end of `{` clamps before the line end: the pair stays whole
        brace = pos(text, text.index("{"))
        past = {"line": brace["line"], "character": 99}
        version += 1
        c.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": version},
                                            "contentChanges": [{"range": {"start": past, "end": past}, "text": " "}]})
        assert c.diags(URI) == [], repr(eol)
        at = text.index("{") + 1
        text = text[:at] + " " + text[at:]
        expect_symbols(c, text, repr(eol) + " after a clamped edit")
        c.notify("textDocument/didClose", {"textDocument": TD})
        assert c.diags(URI) == []

    rnd = random.Random(17)
    text = BASE
    version += 1
    c.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "semaprax", "version": version, "text": text}})
    assert c.diags(URI) == []
    ws = " \r\n"
    for k in range(N):
        inserts = [o for o in range(1, len(text)) if (text[o - 1] in ws or text[o] in ws) and not between_crlf(text, o)]
        deletes = [o for o in range(1, len(text) - 1) if text[o] in ws and (text[o - 1] in ws or text[o + 1] in ws)
                   and not between_crlf(text, o) and not between_crlf(text, o + 1)]
        if deletes and rnd.random() < 0.45:
            a = rnd.choice(deletes)
            b, new = a + 1, ""
        else:
            a = b = rnd.choice(inserts)
            new = rnd.choice(["\r", "\n", "\r\n", " ", "\n\r", "\r\r"])
        change = {"range": {"start": pos(text, a), "end": pos(text, b)}, "text": new}
        text = text[:a] + new + text[b:]
        version += 1
        c.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]})
        assert c.diags(URI) == [], (k, repr(text))
        expect_definition(c, text, "edit %d" % k)
    expect_symbols(c, text, "after %d edits" % N)
    c.call("shutdown")
    c.notify("exit")
    status, _, err = c.finish()
    assert status == 0 and err == b"", (status, err[:2000])
    print("lsp line ends: \\r, \\r\\n and %d random edits of line ends agree with the model" % N)


main()
