"""project_edge.py BIN — edges of an LSP project (docs/editors.md, "Projects"),
each a defect once: the manifest decides which open files are a project's,
so what it says must reach them.

- a manifest that does not read (here: it lists a symbolic link, J102, or
  has a syntax error, J100) claims the files under it: their diagnostics are
  its own, at the file's start, not the single-file check's SPX-G172 that
  hid it; the CLI's `fix` and `repairs` of such a file agree (J100, nothing
  changed);
- a manifest that stops listing an open file: the file is checked alone at
  its next change (it showed no diagnostics at all, its module gone from
  the project), and a listed file again once reopened;
- a listed source that cannot be read (not on disk): its SPX-I001 names no
  place in any file, so each open file of the project shows it at its start
  (every open file was clean while the project failed);
- nested manifests: an open document of the inner project that the outer
  one lists is the outer project's overlay too (its importers there read
  the disk's text and were never republished);
- a document whose file an editor's save replaced (a new inode) still finds
  its module;
- only a file: URI of an absolute path is looked up for a manifest
  (`file://localhost/…` is one): a relative path or another host's URI was
  resolved against the server's working directory and joined its project;
- a rename whose declaration is in a module file that is not open, after
  that file changed on disk with no notification (a checkout, another
  tool): its edits (version null: the editor applies them to the disk's
  bytes) were placed by the bytes of the project's last check, so the
  editor wrote `@idmanhattanc.norm1")` into it (sec21); the project is
  re-read first now, and so is it before any request when a file it read
  from disk has another identity there (definition pointed at the old
  line); such a re-read republishes every open document of the project
  whose diagnostics it changed (they waited for their next change)."""

import os
import shutil
import subprocess
import sys
import tempfile
from urllib.parse import quote

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Lsp, apply, pos  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
OK = os.path.join(HERE, "..", "project", "ok")
START = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}


class Client(Lsp):
    def __init__(self, cwd=None):
        self.p = subprocess.Popen([BIN, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, cwd=cwd)
        self.next_id = 1
        self.notes = []
        self.call("initialize", {"capabilities": {}})
        self.notify("initialized", {})

    def open(self, uri, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "semaprax", "version": version, "text": text}})
        return self.diags(uri)

    def change(self, uri, text, version):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})
        return self.diags(uri)

    def end(self):
        self.call("shutdown")
        self.notify("exit")
        status, rest, err = self.finish()
        assert status == 0 and err == b"", (status, err[:2000])   # LSan under ASan


def copy(tmp, name):
    root = os.path.join(tmp, name)
    shutil.copytree(OK, root)
    for junk in ("README", "status", "stdout", "stderr", "args"):
        if os.path.exists(os.path.join(root, junk)):
            os.remove(os.path.join(root, junk))
    return root


def uri(path):
    return "file://" + quote(path)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def codes(d):
    return [(x["code"], x["range"]["start"]["line"]) for x in d]


def main():
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="spx-lsp-edge."))
    try:
        app = read(os.path.join(OK, "src", "app.spx"))
        bad_app = app.replace("plus(40, 2)", "plus(40)")   # T204 on the call's line
        call_line = pos(app, "plus(40, 2)")["line"]

        # a manifest listing a symbolic link does not read: its J102 is the file's
        root = copy(tmp, "linked")
        outside = os.path.join(tmp, "outside")
        os.mkdir(outside)
        shutil.move(os.path.join(root, "src", "core.spx"), os.path.join(outside, "core.spx"))
        os.symlink(os.path.join(outside, "core.spx"), os.path.join(root, "src", "core.spx"))
        c = Client()
        d = c.open(uri(os.path.join(root, "src", "app.spx")), app)
        assert len(d) == 1 and d[0]["code"] == "SPX-J102" and "symbolic link" in d[0]["message"] and d[0]["range"] == START, d
        # near miss: a manifest that reads and does not list the file passes it over
        extra = os.path.join(root, "src", "extra.spx")
        write(extra, "module calc.extra;\n\n@id(\"calc.extra.main\")\nfn main() -> i64\n{\n    1\n}\n")
        os.remove(os.path.join(root, "src", "core.spx"))
        shutil.move(os.path.join(outside, "core.spx"), os.path.join(root, "src", "core.spx"))
        assert c.open(uri(extra), read(extra)) == []
        c.end()

        # a manifest with a syntax error claims its files too, and the CLI's
        # file commands agree (docs/DECISIONS.md, "patch of a project module"):
        # they report the manifest's J100 and change nothing, never the file alone
        root = copy(tmp, "syntax")
        man = os.path.join(root, "semaprax.toml")
        write(man, read(man).replace('entry = "calc.app"', "entry = calc.app"))
        app_path = os.path.join(root, "src", "app.spx")
        c = Client()
        d = c.open(uri(app_path), app)
        assert len(d) == 1 and d[0]["code"] == "SPX-J100" and d[0]["range"] == START, d
        c.end()
        before = read(app_path)
        for args in (["fix", app_path], ["repairs", app_path, "assign-function-id", "auto:calc.app.x"]):
            r = subprocess.run([BIN] + args, capture_output=True, cwd=root)
            assert r.returncode == 1 and b"SPX-J100" in r.stderr and b"not taken alone" in r.stderr, (args, r.stderr)
        assert read(app_path) == before

        # the manifest stops listing an open file, then lists it again
        root = copy(tmp, "unlisted")
        write(os.path.join(root, "src", "main2.spx"), "module calc.main2;\n\n@id(\"calc.main2.main\")\nfn main() -> i64\n{\n    0\n}\n")
        man = os.path.join(root, "semaprax.toml")
        mtext = read(man)
        u_app = uri(os.path.join(root, "src", "app.spx"))
        c = Client()
        assert codes(c.open(u_app, bad_app)) == [("SPX-T204", call_line)]
        write(man, mtext.replace('"src/app.spx", ', "").replace('"src/core.spx", ', '"src/core.spx", "src/main2.spx", ')
              .replace('entry = "calc.app"', 'entry = "calc.main2"'))
        r = subprocess.run([BIN, "check", root], capture_output=True)
        assert r.returncode == 0, r.stderr   # the project verifies without it
        # checked alone: its `use` lines are G172 (it showed nothing before)
        d = c.change(u_app, bad_app + "\n", 2)
        assert codes(d) == [("SPX-G172", 0)] and "through the project" in d[0]["message"], d
        h = c.call("textDocument/hover", {"textDocument": {"uri": u_app}, "position": {"line": call_line, "character": 5}})
        assert h is None or "imported from" not in h["contents"]["value"], h
        write(man, mtext)
        assert c.change(u_app, bad_app, 3)[0]["code"] == "SPX-G172"   # decided at opening
        c.notify("textDocument/didClose", {"textDocument": {"uri": u_app}})
        assert c.diags(u_app) == []
        assert codes(c.open(u_app, bad_app, 4)) == [("SPX-T204", call_line)]
        c.end()

        # an editor's save by rename (a new inode, no change): the features still
        # find the document's module (files are matched by the identities
        # recorded at the check, then by path)
        root = copy(tmp, "saved")
        core_path = os.path.join(root, "src", "core.spx")
        core = read(core_path)
        u_core = uri(core_path)
        c = Client()
        assert c.open(u_core, core) == []
        write(core_path + ".tmp", core)
        os.replace(core_path + ".tmp", core_path)
        where = {"textDocument": {"uri": u_core}, "position": pos(core, "add(left")}
        h = c.call("textDocument/hover", where)
        assert h and "calc.add" in h["contents"]["value"] and "does not verify" not in h["contents"]["value"], h
        refs = c.call("textDocument/references", dict(where, context={"includeDeclaration": True}))
        assert refs and len(refs) == 5, refs
        c.end()

        # a listed source not on disk: its I001 at each open file's start
        root = copy(tmp, "missing")
        os.remove(os.path.join(root, "src", "tests.spx"))
        c = Client()
        d = c.open(uri(os.path.join(root, "src", "app.spx")), app)
        assert len(d) == 1 and d[0]["code"] == "SPX-I001" and "tests.spx" in d[0]["message"] and d[0]["range"] == START, d
        d = c.open(uri(os.path.join(root, "src", "core.spx")), read(os.path.join(root, "src", "core.spx")))
        assert codes(d) == [("SPX-I001", 0)], d
        c.end()

        # nested manifests: the outer one lists a file the inner one owns; an
        # unsaved edit of it (its document the inner project's) reaches the
        # outer project's open importer, and closing it reads the disk again
        outer = os.path.join(tmp, "outer")
        inner = copy(outer, "inner")
        os.mkdir(os.path.join(outer, "src"))
        main_text = ("module out.main;\nuse function @id(\"calc.add\") from calc.core as plus;\n\n@id(\"out.main\")\n"
                     "fn main() -> i64\n{\n    plus(1, 2)\n}\n")
        write(os.path.join(outer, "src", "main.spx"), main_text)
        write(os.path.join(outer, "src", "tests.spx"), "module out.tests;\n\n@id(\"out.tests.main\")\nfn main() -> i64\n{\n    0\n}\n")
        write(os.path.join(outer, "semaprax.toml"), 'schema = "semaprax.manifest.v1"\n\n[package]\nname = "out"\nversion = "0.1.0"\n\n'
              '[modules]\nentry = "out.main"\nsources = ["inner/src/core.spx", "src/main.spx", "src/tests.spx"]\n'
              'tests = ["out.tests"]\n\n[exports]\nweb = ["out.main"]\n')
        r = subprocess.run([BIN, "check", outer], capture_output=True)
        assert r.returncode == 0, r.stderr
        core_path = os.path.join(inner, "src", "core.spx")
        core = read(core_path)
        broken = core.replace("fn add(left: i64, right: i64) -> i64\n{\n    left + right\n}", "fn add(left: i64) -> i64\n{\n    left\n}")
        assert broken != core
        u_main, u_core = uri(os.path.join(outer, "src", "main.spx")), uri(core_path)
        c = Client()
        assert c.open(u_main, main_text) == []
        assert c.open(u_core, core) == []
        assert c.change(u_core, broken, 2) == []
        d = c.diags(u_main)   # it read the disk's provider before
        assert codes(d) == [("SPX-T204", pos(main_text, "plus(1, 2)")["line"])], d
        c.notify("textDocument/didClose", {"textDocument": {"uri": u_core}})
        assert c.diags(u_core) == [] and c.diags(u_main) == []
        c.end()

        # a rename into a module not open, after that file changed on disk
        root = copy(tmp, "renamed-on-disk")
        app_path, core_path = os.path.join(root, "src", "app.spx"), os.path.join(root, "src", "core.spx")
        c = Client()
        u_app = uri(app_path)
        assert c.open(u_app, app) == []
        assert c.call("textDocument/hover", {"textDocument": {"uri": u_app}, "position": pos(app, "norm1(p)")})
        moved = "// a line another tool added\n" + read(core_path)
        write(core_path, moved)
        # definition into the changed file: placed in its bytes now (it was the old line)
        loc = c.call("textDocument/definition", {"textDocument": {"uri": u_app}, "position": pos(app, "norm1(p)")})
        loc = loc[0] if isinstance(loc, list) else loc
        assert loc["uri"] == uri(core_path) and loc["range"]["start"] == pos(moved, "norm1(p: Point)"), loc
        r = c.call("textDocument/rename", {"textDocument": {"uri": u_app}, "position": pos(app, "norm1(p)"),
                                          "newName": "manhattan"})
        [ch] = r["documentChanges"]
        assert ch["textDocument"] == {"uri": uri(core_path), "version": None}, ch
        assert apply(moved, ch["edits"]) == moved.replace("fn norm1(", "fn manhattan("), apply(moved, ch["edits"])
        c.end()

        # a request that re-reads the project (a file not open changed on disk) republishes
        # the open documents whose diagnostics that changed, after its answer (svc22: an
        # importer showed the old provider's verdict until its own next change)
        root = copy(tmp, "republished")
        app_path, core_path, t_path = (os.path.join(root, "src", f) for f in ("app.spx", "core.spx", "tests.spx"))
        tests_text, core = read(t_path), read(core_path)
        c = Client()
        u_app, u_tests = uri(app_path), uri(t_path)
        assert c.open(u_app, app) == [] and c.open(u_tests, tests_text) == []
        write(core_path, core.replace("fn add(left: i64, right: i64)", "fn add(left: i64, right: i64, more: i64)"))

        def published():
            """The publishDiagnostics received so far, by URI (the last of each), in order."""
            got = [n["params"] for n in c.notes if n.get("method") == "textDocument/publishDiagnostics"]
            c.notes = [n for n in c.notes if n.get("method") != "textDocument/publishDiagnostics"]
            return [(p["uri"], codes(p["diagnostics"])) for p in got]
        c.call("textDocument/hover", {"textDocument": {"uri": u_app}, "position": pos(app, "norm1(p)")})
        c.call("textDocument/documentSymbol", {"textDocument": {"uri": u_app}})   # any republish came before this answer
        got = published()
        assert got == [(u_app, [("SPX-T204", call_line)]), (u_tests, [("SPX-T204", pos(tests_text, "add(1, -1)")["line"])])], got
        write(core_path, core)   # restored: both clean again, each published once
        c.call("textDocument/definition", {"textDocument": {"uri": u_tests}, "position": pos(tests_text, "add(1, -1)")})
        c.call("textDocument/documentSymbol", {"textDocument": {"uri": u_tests}})
        got = published()
        assert got == [(u_app, []), (u_tests, [])], got
        c.call("textDocument/hover", {"textDocument": {"uri": u_app}, "position": pos(app, "norm1(p)")})
        assert published() == [], "nothing changed on disk: nothing republished"
        c.end()

        # URIs: only a file: URI of an absolute path joins a project
        root = copy(tmp, "uris")
        c = Client(cwd=root)
        for u in ("src/app.spx", "file://src/app.spx", "untitled:src/app.spx"):
            d = c.open(u, app)
            assert codes(d) == [("SPX-G172", 0)] and "through the project" in d[0]["message"], (u, d)
        for u in ("file://localhost" + quote(os.path.join(root, "src", "app.spx")),
                  "file://" + quote(os.path.join(root, "src", "%61pp.spx")).replace("%2561", "%61")):
            assert c.open(u, app) == [], u
        c.end()
        print("lsp project edges: ok")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
