"""project.py BIN — a scripted LSP session over a project (docs/editors.md,
"Projects"): an open file a semaprax.toml up its tree lists is checked as
part of its project, the other open documents of it as unsaved overlays.

A two-module project (calc.core provides, calc.app and calc.tests import):
both open, the project re-checked per module as the JSON-RPC service's
project product (semaprax/trace asserts the sets: a body edit re-checks that
body alone, a comment edit its module, a signature edit its module and the
importers), hover, definition and references on the spliced tree; an edit
in the provider that breaks the importer gives the
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
from lspclient import Lsp, pos, pos_at, rng  # noqa: E402

BIN = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
OK = os.path.join(HERE, "..", "project", "ok")


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


def no_diags_for(c, u):
    """No publishDiagnostics for u is pending (after a round trip)."""
    c.call("semaprax/trace", {"textDocument": {"uri": u}})
    assert not [n for n in c.notes if n.get("method") == "textDocument/publishDiagnostics" and n["params"]["uri"] == u], c.notes


MODS = ("calc.app", "calc.core", "calc.tests")


def trace(c, u):
    return c.call("semaprax/trace", {"textDocument": {"uri": u}})


def expect_trace(c, u, executed, reused, what):
    """The trace of the publish for uri u: exactly these product sets."""
    tr = trace(c, u)
    assert sorted(tr["executed"]) == sorted(executed) and sorted(tr["reused"]) == sorted(reused) and tr["backdated"] == [], (what, tr)


def module_sets(parsed=(), checked=(), decls=(), bodies=(), resolved=()):
    """A per-module refresh (the manifest reused): the executed and reused
    product names when the modules `parsed` were re-parsed, `checked`
    re-checked whole, the functions `decls` ("<module>:fn:<name>") spliced
    into their module's tree and re-checked alone (bodies), every other
    module reused; `project` executed when anything was re-checked."""
    spliced = set(d.split(":")[0] for d in decls)
    ex = ["parse:module:" + m for m in parsed] + ["parse:decl:" + d for d in decls]
    ex += ["module:" + m for m in checked] + ["body:" + b for b in bodies] + ["resolve:" + m for m in resolved]
    ru = ["manifest"] + ["parse:module:" + m for m in MODS if m not in parsed and m not in spliced]
    ru += ["module:" + m for m in MODS if m not in checked and m not in spliced]
    ru += ["resolve:" + m for m in spliced if m not in resolved]
    (ex if checked or bodies else ru).append("project")
    return ex, ru


def edit(c, u, version, text, at, old, new):
    """A range edit (as an editor sends): text[at:at+len(old)] becomes new."""
    assert text[at:at + len(old)] == old
    c.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": version},
                                        "contentChanges": [{"range": {"start": pos_at(text, at), "end": pos_at(text, at + len(old))}, "text": new}]})
    return text[:at] + new + text[at + len(old):]


def incremental(c, text, uri):
    """Edits re-check what the service's project product would: the others
    reused (counting, not timing)."""
    app, core = text["app"], text["core"]
    # a body edit in the importer (positions after it move): that body
    # spliced into calc.app's tree and re-checked alone
    at = app.index("let p: Pt")
    app2 = edit(c, uri["app"], 10, app, at, "", "let q = 1;\n    ")
    assert c.diags(uri["app"]) == []
    expect_trace(c, uri["app"], *module_sets(decls=["calc.app:fn:main"], bodies=["calc.app:fn:main"]), "body edit")
    # the other open document's diagnostics reused that check
    expect_trace(c, uri["core"], [], ["project"], "body edit, the provider")
    # hover, definition and references read the spliced tree
    h = c.call("textDocument/hover", {"textDocument": {"uri": uri["app"]}, "position": pos(app2, "plus(40")})
    assert "fn add(left: i64, right: i64) -> i64" in h["contents"]["value"] and h["range"] == rng(app2, "plus(40", length=4), h
    loc = c.call("textDocument/definition", {"textDocument": {"uri": uri["app"]}, "position": pos(app2, "Pt {")})
    assert loc == {"uri": uri["core"], "range": rng(core, "Point", 0)}, loc
    refs = c.call("textDocument/references", {"textDocument": {"uri": uri["core"]}, "position": pos(core, "add(left"),
                                              "context": {"includeDeclaration": False}})
    assert {"uri": uri["app"], "range": rng(app2, "plus(40", length=4)} in refs, refs
    h = c.call("textDocument/hover", {"textDocument": {"uri": uri["app"]}, "position": pos(app2, "q = 1")})
    assert h and "i64" in h["contents"]["value"], h
    # a rename from the spliced module's alias: planned against calc.core,
    # the candidate project checked with the edited buffer
    r = c.call("textDocument/rename", {"textDocument": {"uri": uri["app"]}, "position": pos(app2, "plus(40"), "newName": "sum"})
    assert r["documentChanges"][0]["edits"] == [{"range": rng(core, "add(left", length=3), "newText": "sum"}], r
    # and back (the same sets)
    assert edit(c, uri["app"], 11, app2, at, "let q = 1;\n    ", "") == app
    assert c.diags(uri["app"]) == []
    expect_trace(c, uri["app"], *module_sets(decls=["calc.app:fn:main"], bodies=["calc.app:fn:main"]), "body edit back")
    h = c.call("textDocument/hover", {"textDocument": {"uri": uri["app"]}, "position": pos(app, "main()")})
    assert "calc.app.main" in h["contents"]["value"], h
    # a comment in the provider: that module re-parsed and re-checked (it
    # has a generic function: no splice), its interface unchanged, so its
    # importers reused
    at = core.index('@id("calc.add")')
    core2 = edit(c, uri["core"], 10, core, at, "", "// the sum\n")
    assert c.diags(uri["core"]) == []
    expect_trace(c, uri["core"], *module_sets(parsed=["calc.core"], checked=["calc.core"]), "comment edit")
    # the importer, carried with what an earlier request lowered, answers
    # against the re-checked provider
    h = c.call("textDocument/hover", {"textDocument": {"uri": uri["app"]}, "position": pos(app, "plus(40")})
    assert "fn add(left: i64, right: i64) -> i64" in h["contents"]["value"], h
    loc = c.call("textDocument/definition", {"textDocument": {"uri": uri["app"]}, "position": pos(app, "plus(40")})
    assert loc == {"uri": uri["core"], "range": rng(core2, "add(left", length=3)}, loc
    assert edit(c, uri["core"], 11, core2, at, "// the sum\n", "") == core
    assert c.diags(uri["core"]) == []
    expect_trace(c, uri["core"], *module_sets(parsed=["calc.core"], checked=["calc.core"]), "comment removed")


def run(text, uri, extra):
    c = Lsp(BIN)
    c.call("initialize", {"capabilities": {}, "initializationOptions": {"trace": True}})
    c.notify("initialized", {})
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri["app"], "languageId": "semaprax", "version": 1, "text": text["app"]}})
    # alone, `use` is G172; in its project the importer verifies
    assert c.diags(uri["app"]) == []
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri["core"], "languageId": "semaprax", "version": 1, "text": text["core"]}})
    assert c.diags(uri["core"]) == []
    no_diags_for(c, uri["app"])   # unchanged: not published again
    # its buffer holds the disk's bytes: every module carried
    expect_trace(c, uri["core"], *module_sets(), "core opened")
    incremental(c, text, uri)

    # an edit in the provider that breaks the importer (one parameter fewer)
    old_sig = "fn add(left: i64, right: i64) -> i64\n{\n    left + right\n}"
    new_sig = "fn add(left: i64) -> i64\n{\n    left\n}"
    broken = text["core"].replace(old_sig, new_sig)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["core"], "version": 2},
                                        "contentChanges": [{"text": broken}]})
    assert c.diags(uri["core"]) == []
    d = c.diags(uri["app"])
    assert len(d) == 1, d
    assert d[0]["range"]["start"]["line"] == pos(text["app"], "plus(40, 2)")["line"], d
    assert d[0]["code"].startswith("SPX-"), d
    # counting: the edit checked the project once, for the edited document;
    # the importer's diagnostics reused that check
    # counting: the edit re-checked calc.core and, its interface changed,
    # both importers, for the edited document; the importer's diagnostics
    # reused that check
    expect_trace(c, uri["core"], *module_sets(parsed=["calc.core"], checked=MODS), "signature edit")
    expect_trace(c, uri["app"], [], ["project"], "signature edit, the importer")
    # the importer's own check is the project's: hover there still answers from
    # the syntax while the project does not verify
    h = c.call("textDocument/hover", {"textDocument": {"uri": uri["app"]}, "position": pos(text["app"], "main()")})
    assert h and "does not verify" in h["contents"]["value"], h
    # the repair clears it
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["core"], "version": 3},
                                        "contentChanges": [{"text": text["core"]}]})
    assert c.diags(uri["core"]) == []
    assert c.diags(uri["app"]) == []

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
    # a local is renamed by scope (tests/lsp/rename_local.py): the parameter and its use, in its
    # module only; a name its scope binds already is refused (the candidate project does not verify)
    r = c.call("textDocument/rename", {"textDocument": {"uri": uri["core"]}, "position": pos(text["core"], "left +"),
                                       "newName": "l"})
    dc = r["documentChanges"]
    assert len(dc) == 1 and dc[0]["textDocument"] == {"uri": uri["core"], "version": 3}, dc
    assert dc[0]["edits"] == [{"range": rng(text["core"], "left: i64", length=4), "newText": "l"},
                              {"range": rng(text["core"], "left +", length=4), "newText": "l"}], dc
    # its references and definition: by scope too, in its module
    lr = c.call("textDocument/references", {"textDocument": {"uri": uri["core"]}, "position": pos(text["core"], "left +"),
                                            "context": {"includeDeclaration": True}})
    assert lr == [{"uri": uri["core"], "range": rng(text["core"], "left: i64", length=4)},
                  {"uri": uri["core"], "range": rng(text["core"], "left +", length=4)}], lr
    assert c.call("textDocument/definition", {"textDocument": {"uri": uri["core"]}, "position": pos(text["core"], "left +")}) == lr[0]
    e = c.error("textDocument/rename", {"textDocument": {"uri": uri["core"]}, "position": pos(text["core"], "left +"),
                                        "newName": "right"})
    assert e["code"] == -32803 and "SPX-T102" in e["message"], e

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
    assert c.diags(uri["core"]) == []
    assert len(c.diags(uri["app"])) == 1
    c.notify("textDocument/didClose", {"textDocument": {"uri": uri["core"]}})
    assert c.diags(uri["core"]) == []
    assert c.diags(uri["app"]) == []
    # its buffer released: calc.core re-read from the disk and re-parsed, its
    # interface changed back, so both importers re-checked
    expect_trace(c, uri["app"], *module_sets(parsed=["calc.core"], checked=MODS), "provider closed")
    # an importer's own error (the provider closed: read from the disk)
    bad = text["app"].replace("plus(40, 2)", "plus(40)")
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["app"], "version": 2}, "contentChanges": [{"text": bad}]})
    d = c.diags(uri["app"])
    assert len(d) == 1 and d[0]["range"]["start"]["line"] == pos(bad, "plus(40)")["line"], d
    # a document that does not verify answers by name (docs/editors.md): an
    # imported name is the provider's declaration (its file, by stable id),
    # a name of its own the same file's
    loc = c.call("textDocument/definition", {"textDocument": {"uri": uri["app"]}, "position": pos(bad, "plus(40", offset=1)})
    assert loc == {"uri": uri["core"], "range": rng(text["core"], "add(left", length=3)}, loc
    h = c.call("textDocument/hover", {"textDocument": {"uri": uri["app"]}, "position": pos(bad, "plus(40")})
    v = h["contents"]["value"]
    assert "fn add(left: i64, right: i64) -> i64" in v and "imported from `calc.core`" in v and "does not verify" in v, v
    loc = c.call("textDocument/definition", {"textDocument": {"uri": uri["app"]}, "position": pos(bad, "main(")})
    assert loc == {"uri": uri["app"], "range": rng(bad, "main(", length=4)}, loc

    # the manifest is read at each check: its own diagnostics land at the file's start
    man = os.path.join(os.path.dirname(os.path.dirname(uri_path(uri["app"]))), "semaprax.toml")
    with open(man, encoding="utf-8") as f:
        mtext = f.read()
    with open(man, "w", encoding="utf-8") as f:
        f.write(mtext.replace('entry = "calc.app"', 'entry = "calc.nowhere"'))
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["app"], "version": 3}, "contentChanges": [{"text": text["app"]}]})
    d = c.diags(uri["app"])
    assert len(d) == 1 and d[0]["code"] == "SPX-G172" and "calc.nowhere" in d[0]["message"], d
    assert d[0]["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, d
    with open(man, "w", encoding="utf-8") as f:
        f.write(mtext)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri["app"], "version": 4}, "contentChanges": [{"text": text["app"]}]})
    assert c.diags(uri["app"]) == []

    # a file the manifest does not list: checked alone (its `use` is G172)
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri["extra"], "languageId": "semaprax", "version": 1, "text": extra}})
    d = c.diags(uri["extra"])
    assert d and d[0]["code"] == "SPX-G172", d
    assert c.call("textDocument/definition", {"textDocument": {"uri": uri["extra"]}, "position": pos(extra, "plus(1")}) is None

    c.call("shutdown")
    c.notify("exit")
    status, rest, err = c.finish()
    assert status == 0 and err == b"", (status, err[:2000])


if __name__ == "__main__":
    main()
