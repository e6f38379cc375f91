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
          window/showMessage; closing a document makes room again
  lsp     the projects held count too (the left11 note: documents in 10,000
          project directories, each its own semaprax.toml, were each held
          with a checked project): at most 256 projects, a didOpen of a file
          of one more is refused with a window/showMessage; and each held
          project counts the sources its check read plus 64 KiB in the
          bound above, so projects of large unopened modules are refused
          sooner; closing a project's last document makes room again
  serve   `run` takes at most 10^9 interpreter steps (`max_steps`; it took
          up to 10^12, hours of one request): more is -32602 naming the
          bound and the CLI; an endless loop run at the bound stops there
          with the interpreter's own fuel outcome; a run still going at the
          wall-clock limit (60 s; the test hook SEMAPRAX_TEST_RUN_DEADLINE_MS=0
          makes it "at once", so no test waits on a clock) is stopped and
          answered -32011, and the service answers the next request; a
          failing waitpid (the test hook SEMAPRAX_TEST_WAITPID_FAIL=EINTR or
          =ECHILD) is polled again, or ends and reaps the child, -32603"""
import json
import os
import shutil
import signal
import tempfile
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


LOOP = """module loop;

@id("loop.main")
fn main() -> i64
{
    let mut i: i64 = 0;
    while true {
        i = i + 1;
        0
    }
    i
}
"""


def serve_run_bound():
    d = tempdir()
    path = os.path.join(d, "loop.spx")
    with open(path, "w") as f:
        f.write(LOOP)
    c = Client(BIN, path)
    for steps in (10 ** 9 + 1, 10 ** 12):
        r = c.request("run", {"max_steps": steps})
        assert r["error"]["code"] == -32602 and "at most 1000000000" in r["error"]["message"] and \
            "semaprax run --max-steps" in r["error"]["message"], r
    # the bound itself: the endless loop stops by it, as the CLI's run does
    r = c.call("run", {"max_steps": 10 ** 9})
    env = json.loads(r["stdout"])
    assert r["exit"] == 1 and env["payload"]["outcome"] == {"kind": "fuel_exhausted"}, r
    assert env["payload"]["fuel"] == {"steps_used": 10 ** 9, "budget": 10 ** 9, "exhausted": True}, env
    status, _, err = c.close()
    assert status == 0 and err == b"", (status, err)
    # the wall-clock limit, set to zero: the run is stopped, the service lives on
    c = Client(BIN, path, env=dict(os.environ, SEMAPRAX_TEST_RUN_DEADLINE_MS="0"))
    r = c.request("run", {"max_steps": 10 ** 9})
    assert r["error"]["code"] == -32011 and "wall-clock limit of 0 s per request" in r["error"]["message"], r
    assert c.call("check")["ok"] and c.call("ping") == {}
    status, _, err = c.close()
    assert status == 0 and err == b"", (status, err)
    # waitpid failing (the test hook SEMAPRAX_TEST_WAITPID_FAIL: the first poll
    # fails with that errno): EINTR is polled again, so the run ends as it
    # would; anything else ends and reaps the child (no process of the service's
    # is left, not even a zombie) and is answered -32603; the service goes on
    c = Client(BIN, path, env=dict(os.environ, SEMAPRAX_TEST_WAITPID_FAIL="EINTR"))
    r = c.call("run", {"max_steps": 1000})
    assert r["exit"] == 1 and json.loads(r["stdout"])["payload"]["outcome"] == {"kind": "fuel_exhausted"}, r
    status, _, err = c.close()
    assert status == 0 and err == b"", (status, err)
    c = Client(BIN, path, env=dict(os.environ, SEMAPRAX_TEST_WAITPID_FAIL="ECHILD"))
    r = c.request("run", {"max_steps": 10 ** 9})
    assert r["error"]["code"] == -32603 and "lost the command's process (waitpid: " in r["error"]["message"], r
    assert children(c.p.pid) == [], children(c.p.pid)
    assert c.call("ping") == {}
    status, _, err = c.close()
    assert status == 0 and err == b"", (status, err)
    shutil.rmtree(d)


def children(pid):
    """The processes whose parent is pid, zombies included (/proc/N/stat)."""
    found = []
    for n in os.listdir("/proc"):
        if not n.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % n) as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid:
            found.append((int(n), fields[0]))
    return found


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


MANIFEST = """schema = "semaprax.manifest.v1"

[package]
name = "%s"
version = "0.1.0"

[modules]
entry = "%s.app"
sources = [%s]
tests = ["%s.tests"]

[exports]
web = ["%s.app.main"]
"""


def make_project(root, name, big=0):
    """A project directory: src/app.spx, and with big a listed module of
    about big bytes nobody opens.  The app's file: URI and text."""
    os.makedirs(os.path.join(root, "src"))
    app = "module %s.app;\n\n@id(\"%s.app.main\")\nfn main() -> i64\n{\n    1\n}\n" % (name, name)
    sources = '"src/app.spx", "src/tests.spx"'
    with open(os.path.join(root, "src", "tests.spx"), "w") as f:
        f.write("module %s.tests;\n\n@id(\"%s.tests.main\")\nfn main() -> i64\n{\n    0\n}\n" % (name, name))
    if big:
        sources = '"src/app.spx", "src/big.spx", "src/tests.spx"'
        with open(os.path.join(root, "src", "big.spx"), "w") as f:
            f.write("module %s.big;\n\n" % name + ("// " + "z" * 996 + "\n") * (big // 1000))
    with open(os.path.join(root, "semaprax.toml"), "w") as f:
        f.write(MANIFEST % (name, name, sources, name, name))
    path = os.path.join(root, "src", "app.spx")
    with open(path, "w") as f:
        f.write(app)
    return "file://" + path, app


def open_doc(c, uri, text):
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "semaprax", "version": 1, "text": text}})


def release_then_open(c, closed, doc):
    """closing `closed` (a project's only open document) releases its
    project, so `doc`, refused before, opens without a message; then the
    server shuts down cleanly"""
    c.notify("textDocument/didClose", {"textDocument": {"uri": closed}})
    assert c.diags(closed) == []
    open_doc(c, *doc)
    assert c.diags(doc[0]) == []
    assert not any(m.get("method") == "window/showMessage" for m in c.notes), c.notes
    c.call("shutdown")
    c.notify("exit")
    status, _, err = c.finish()
    assert status == 0 and err == b"", (status, err)


def many_projects(n):
    """n project directories of the same two modules (the manifest and the
    module nobody opens hard links of one copy: 10,000 directories of three
    new files each took a loaded disk a minute), on a tmpfs when there is
    one.  The directory, the file: URIs
    of their app modules and its text."""
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    d = tempfile.mkdtemp(prefix="spx-lsp-projects-", dir=base)
    uri, app = make_project(os.path.join(d, "master"), "p")
    master = os.path.join(d, "master")
    for i in range(n):
        root = os.path.join(d, "p%d" % i)
        os.makedirs(os.path.join(root, "src"))
        for f in ("semaprax.toml", "src/tests.spx"):
            os.link(os.path.join(master, f), os.path.join(root, f))
        with open(os.path.join(root, "src", "app.spx"), "w") as f:
            f.write(app)   # its own file: the server tells files by identity
    return d, ["file://" + os.path.join(d, "p%d" % i, "src", "app.spx") for i in range(n)], app


def lsp_projects():
    d, uris, app = many_projects(10000)
    docs = [(u, app) for u in uris]
    try:
        c = Lsp(BIN)   # the default bound: 64 MiB held, room for 800 such projects by bytes
        c.call("initialize", {"capabilities": {}})
        for uri, text in docs[:256]:
            open_doc(c, uri, text)
            assert c.diags(uri) == [], uri
        # the 257th project and every later one: refused, said, not held
        for i, (uri, text) in enumerate(docs[256:]):
            open_doc(c, uri, text)
            shown = shown_before_reply(c, uri)
            assert shown and shown["type"] == 1 and "documents of 256 projects are open" in shown["message"], (i, shown)
        assert not any(m.get("method") == "textDocument/publishDiagnostics" for m in c.notes), c.notes[:3]
        r = c.request("textDocument/documentSymbol", {"textDocument": {"uri": docs[300][0]}})
        assert r.get("result") is None or "error" in r, r
        # the near miss: a document of no project still opens at the cap
        open_doc(c, "file:///edit-bounds/alone.spx", HEAD)
        assert c.diags("file:///edit-bounds/alone.spx") == []
        assert not any(m.get("method") == "window/showMessage" for m in c.notes), c.notes
        # closing a project's only document releases it: the next one opens
        release_then_open(c, docs[0][0], docs[300])
    finally:
        shutil.rmtree(d)


def lsp_project_bytes():
    d = tempdir()
    try:
        # 64 x 65,536 = 4,194,304 bytes held in all; each project reads a
        # 950 kB module nobody opens and counts about 950,200 + 65,536 bytes
        # from its first check, its open document 16,384 + 60: four are
        # admitted, a small document of no project still fits (about
        # 4,144,000 held), and the fifth project is refused by bytes (it would
        # add 65,536 + 16,444 before its check), not by count
        docs = [make_project(os.path.join(d, "b%d" % i), "b%d" % i, big=950000) for i in range(6)]
        c = Lsp(BIN, "--max-message-bytes", "65536")
        c.call("initialize", {"capabilities": {}})
        for uri, text in docs[:4]:
            open_doc(c, uri, text)
            ds = c.diags(uri)
            assert ds == [], (uri, ds)
        # the near miss: a small document of no project still fits
        open_doc(c, "file:///edit-bounds/alone.spx", HEAD)
        assert c.diags("file:///edit-bounds/alone.spx") == []
        open_doc(c, *docs[4])
        shown = shown_before_reply(c, docs[4][0])
        assert shown and shown["type"] == 1 and "the open documents and their projects would hold more than" in shown["message"], \
            c.notes
        # closing a project's document releases the project: room again
        release_then_open(c, docs[0][0], docs[4])
    finally:
        shutil.rmtree(d)


signal.alarm(600)   # a hang guard only (the whole file takes seconds): a missed notification must not block forever
serve()
serve_run_bound()
lsp_changes()
lsp_open()
lsp_projects()
lsp_project_bytes()
print("edit_bounds: ok")
