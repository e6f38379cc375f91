"""project.py BIN — a scripted LSP session over a project (docs/editors.md,
"Projects"): an open file a semaprax.toml up its tree lists is checked as
part of its project, the other open documents of it as unsaved overlays.

A two-module project (calc.core provides, calc.app and calc.tests import):
both open, an edit in the provider that breaks the importer gives the
importer the diagnostic, the repair clears it; closing an unsaved provider
reads its disk bytes again; go to definition, hover and references across
modules by (declaring module, stable id); rename from an importer's alias
edits the declaring module only (importers name it by stable id); a stale
rename is refused; documentSymbol and formatting stay per file; a file the
manifest does not list keeps the single-file check."""
import os
import shutil
import sys
import tempfile
from urllib.parse import quote, unquote

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Lsp  # noqa: E402

BIN = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
OK = os.path.join(HERE, "..", "project", "ok")


def pos(text, needle, nth=0, offset=0):
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    return {"line": text.count("\n", 0, at), "character": at - (text.rfind("\n", 0, at) + 1)}


def rng(text, needle, nth=0, length=None):
    s = pos(text, needle, nth)
    return {"start": s, "end": {"line": s["line"], "character": s["character"] + (len(needle) if length is None else length)}}


def whole(text):
    lines = text.split("\n")
    return {"start": {"line": 0, "character": 0}, "end": {"line": len(lines) - 1, "character": len(lines[-1])}}


def main():
    tmp = tempfile.mkdtemp(prefix="spx-lsp-project.")
    try:
        root = os.path.join(os.path.realpath(tmp), "calc proj")   # a blank: percent-encoded in URIs
        shutil.copytree(OK, root)
        for junk in ("README", "status", "stdout", "stderr", "args"):
            if os.path.exists(os.path.join(root, junk)):
                os.remove(os.path.join(root, junk))
        paths = {m: os.path.join(root, "src", m + ".spx") for m in ("app", "core", "tests")}
        text = {m: open(p, encoding="utf-8").read() for m, p in paths.items()}
        uri = {m: "file://" + quote(p) for m, p in paths.items()}
        extra_path = os.path.join(root, "src", "extra.spx")   # not in the manifest's sources
        extra = "module calc.extra;\nuse function @id(\"calc.add\") from calc.core as plus;\n\n@id(\"calc.extra.f\")\nfn f() -> i64\n{\n    plus(1, 2)\n}\n"
        with open(extra_path, "w", encoding="utf-8") as f:
            f.write(extra)
        uri["extra"] = "file://" + quote(extra_path)
        run(text, uri, extra)
        print("lsp project: ok")
    finally:
        shutil.rmtree(tmp)


def uri_path(u):
    return unquote(u[len("file://"):])


def diags_of(c, u):
    """The next publishDiagnostics for uri u (others are kept in order)."""
    while True:
        for i, n in enumerate(c.notes):
            if n.get("method") == "textDocument/publishDiagnostics" and n["params"]["uri"] == u:
                return c.notes.pop(i)["params"]["diagnostics"]
        c.notes.append(c.read())


def no_diags_for(c, u):
    """No publishDiagnostics for u is pending (after a round trip)."""
    c.call("semaprax/trace", {"textDocument": {"uri": u}})
    assert not [n for n in c.notes if n.get("method") == "textDocument/publishDiagnostics" and n["params"]["uri"] == u], c.notes


def run(text, uri, extra):
    c = Lsp(BIN)
    c.call("initialize", {"capabilities": {}, "initializationOptions": {"trace": True}})
    c.notify("initialized", {})
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri["app"], "languageId": "semaprax", "version": 1, "text": text["app"]}})
    # alone, `use` is G172; in its project the importer verifies
    assert diags_of(c, uri["app"]) == []
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri["core"], "languageId": "semaprax", "version": 1, "text": text["core"]}})
    assert diags_of(c, uri["core"]) == []
    no_diags_for(c, uri["app"])   # unchanged: not published again

    # an edit in the provider that breaks the importer (one parameter fewer)
    old_sig = "fn add(left: i64, right: i64) -> i64\n{\n    left + right\n}"
    new_sig = "fn add(left: i64) -> i64\n{\n    left\n}"
    broken = text["core"].replace(old_sig, new_sig)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["core"], "version": 2},
                                        "contentChanges": [{"text": broken}]})
    assert diags_of(c, uri["core"]) == []
    d = diags_of(c, uri["app"])
    assert len(d) == 1, d
    assert d[0]["range"]["start"]["line"] == pos(text["app"], "plus(40, 2)")["line"], d
    assert d[0]["code"].startswith("SPX-"), d
    # counting: the edit checked the project once, for the edited document;
    # the importer's diagnostics reused that check
    tr = c.call("semaprax/trace", {"textDocument": {"uri": uri["core"]}})
    assert tr == {"executed": ["project"], "reused": [], "backdated": []}, tr
    tr = c.call("semaprax/trace", {"textDocument": {"uri": uri["app"]}})
    assert tr == {"executed": [], "reused": ["project"], "backdated": []}, tr
    # the importer's own check is the project's: hover there still answers from
    # the syntax while the project does not verify
    h = c.call("textDocument/hover", {"textDocument": {"uri": uri["app"]}, "position": pos(text["app"], "main()")})
    assert h and "does not verify" in h["contents"]["value"], h
    # the repair clears it
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["core"], "version": 3},
                                        "contentChanges": [{"text": text["core"]}]})
    assert diags_of(c, uri["core"]) == []
    assert diags_of(c, uri["app"]) == []

    # go to definition across modules: the alias's call and a type alias
    loc = c.call("textDocument/definition", {"textDocument": {"uri": uri["app"]}, "position": pos(text["app"], "plus(40", offset=1)})
    assert loc == {"uri": uri["core"], "range": rng(text["core"], "add(left", length=3)}, loc
    loc = c.call("textDocument/definition", {"textDocument": {"uri": uri["app"]}, "position": pos(text["app"], "Pt {", offset=0)})
    assert loc == {"uri": uri["core"], "range": rng(text["core"], "Point", 0)}, loc
    # a field of an imported type: its declaration in the provider
    loc = c.call("textDocument/definition", {"textDocument": {"uri": uri["app"]}, "position": pos(text["app"], "x: 1")})
    assert loc == {"uri": uri["core"], "range": rng(text["core"], "x: i64", length=1)}, loc

    # hover across modules: the provider's declaration
    h = c.call("textDocument/hover", {"textDocument": {"uri": uri["app"]}, "position": pos(text["app"], "plus(40")})
    v = h["contents"]["value"]
    assert "calc.add" in v and "fn add(left: i64, right: i64) -> i64" in v and "imported from `calc.core`" in v, v
    assert h["range"] == rng(text["app"], "plus(40", length=4), h

    # references by (calc.core, calc.add): the declaration, each importer's
    # alias and calls (calc.tests is not open: its file URI), ModuleId order
    want = [
        {"uri": uri["app"], "range": rng(text["app"], "plus;", length=4)},
        {"uri": uri["app"], "range": rng(text["app"], "plus(40", length=4)},
        {"uri": uri["core"], "range": rng(text["core"], "add(left", length=3)},
        {"uri": uri["tests"], "range": rng(text["tests"], "add;", length=3)},
        {"uri": uri["tests"], "range": rng(text["tests"], "add(1", length=3)},
    ]
    refs = c.call("textDocument/references", {"textDocument": {"uri": uri["core"]}, "position": pos(text["core"], "add(left"),
                                              "context": {"includeDeclaration": True}})
    assert refs == want, refs
    refs = c.call("textDocument/references", {"textDocument": {"uri": uri["app"]}, "position": pos(text["app"], "plus(40"),
                                              "context": {"includeDeclaration": False}})
    assert refs == [r for r in want if r["uri"] != uri["core"]], refs
    # a same-named function of another module is another identity
    refs = c.call("textDocument/references", {"textDocument": {"uri": uri["app"]}, "position": pos(text["app"], "main()"),
                                              "context": {"includeDeclaration": True}})
    assert refs == [{"uri": uri["app"], "range": rng(text["app"], "main()", length=4)}], refs

    # rename from the importer's alias: the declaring module's text changes
    # (importers name it by stable id under their own alias)
    e = c.error("textDocument/rename", {"textDocument": {"uri": uri["app"], "version": 7}, "position": pos(text["app"], "plus(40"),
                                        "newName": "sum"})
    assert e["code"] == -32801 and "stale" in e["message"], e
    r = c.call("textDocument/rename", {"textDocument": {"uri": uri["app"]}, "position": pos(text["app"], "plus(40"), "newName": "sum"})
    dc = r["documentChanges"]
    assert len(dc) == 1 and dc[0]["textDocument"] == {"uri": uri["core"], "version": 3}, dc
    assert dc[0]["edits"] == [{"range": rng(text["core"], "add(left", length=3), "newText": "sum"}], dc
    # a name another declaration of that module holds: refused, never a text substitution
    e = c.error("textDocument/rename", {"textDocument": {"uri": uri["core"]}, "position": pos(text["core"], "add(left"),
                                        "newName": "norm1"})
    assert e["code"] == -32803 and "SPX-" in e["message"], e
    # a local has no stable identity
    e = c.error("textDocument/rename", {"textDocument": {"uri": uri["core"]}, "position": pos(text["core"], "left +"),
                                        "newName": "l"})
    assert "local" in e["message"], e

    # odd positions and names on a project document: an answer (or an error), never a crash
    for line, ch in ((0, 0), (0, 10 ** 6), (10 ** 6, 0), (2, 40), (len(text["app"].split("\n")) - 1, 1)):
        where_ = {"textDocument": {"uri": uri["app"]}, "position": {"line": line, "character": ch}}
        for m in ("textDocument/hover", "textDocument/definition", "textDocument/references"):
            assert "result" in c.request(m, where_), (m, line, ch)
        for name in ("", "9x", "sum", "a.b", "\u00e9t\u00e9"):
            r = c.request("textDocument/rename", dict(where_, newName=name))
            assert "result" in r or r["error"]["code"] in (-32602, -32803, -32801), r

    # per file: symbols and formatting
    syms = c.call("textDocument/documentSymbol", {"textDocument": {"uri": uri["app"]}})
    assert [s["name"] for s in syms] == ["main"], syms
    assert c.call("textDocument/formatting", {"textDocument": {"uri": uri["core"]}, "options": {"tabSize": 4, "insertSpaces": True}}) == []
    toks = c.call("textDocument/semanticTokens/full", {"textDocument": {"uri": uri["app"]}})
    assert toks["data"], toks

    # closing an unsaved, breaking provider: the disk bytes again, the importer cleared
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["core"], "version": 4},
                                        "contentChanges": [{"text": broken}]})
    assert diags_of(c, uri["core"]) == []
    assert len(diags_of(c, uri["app"])) == 1
    c.notify("textDocument/didClose", {"textDocument": {"uri": uri["core"]}})
    assert diags_of(c, uri["core"]) == []
    assert diags_of(c, uri["app"]) == []
    # an importer's own error (the provider closed: read from the disk)
    bad = text["app"].replace("plus(40, 2)", "plus(40)")
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["app"], "version": 2}, "contentChanges": [{"text": bad}]})
    d = diags_of(c, uri["app"])
    assert len(d) == 1 and d[0]["range"]["start"]["line"] == pos(bad, "plus(40)")["line"], d

    # the manifest is read at each check: its own diagnostics land at the file's start
    man = os.path.join(os.path.dirname(os.path.dirname(uri_path(uri["app"]))), "semaprax.toml")
    with open(man, encoding="utf-8") as f:
        mtext = f.read()
    with open(man, "w", encoding="utf-8") as f:
        f.write(mtext.replace('entry = "calc.app"', 'entry = "calc.nowhere"'))
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["app"], "version": 3}, "contentChanges": [{"text": text["app"]}]})
    d = diags_of(c, uri["app"])
    assert len(d) == 1 and d[0]["code"] == "SPX-G172" and "calc.nowhere" in d[0]["message"], d
    assert d[0]["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, d
    with open(man, "w", encoding="utf-8") as f:
        f.write(mtext)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["app"], "version": 4}, "contentChanges": [{"text": text["app"]}]})
    assert diags_of(c, uri["app"]) == []

    # a file the manifest does not list: checked alone (its `use` is G172)
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri["extra"], "languageId": "semaprax", "version": 1, "text": extra}})
    d = diags_of(c, uri["extra"])
    assert d and d[0]["code"] == "SPX-G172", d
    assert c.call("textDocument/definition", {"textDocument": {"uri": uri["extra"]}, "position": pos(extra, "plus(1")}) is None

    c.call("shutdown")
    c.notify("exit")
    status, rest, err = c.finish()
    assert status == 0 and err == b"", (status, err[:2000])


if __name__ == "__main__":
    main()
