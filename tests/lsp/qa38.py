"""qa38.py BIN — a project rename whose candidate does not verify
(qa38): the -32803 message names the first error's place, and when that lies
in another module than the declaring one (a record field or a variant case an
importer names by its name: rename edits the declaring module only), says the
way on, a project transaction.  A rename whose error is in the declaring
module itself gets the place only.  The hover of a generic record's field of
type `T` does not call it Copy: that depends on the instance.  A single
file's refused local rename says where its error is (line:col)."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Lsp, pos  # noqa: E402

BIN = sys.argv[1]

MODEL = """module shop.model;

@id("shop.model.item")
record Item {
    @id("shop.model.item.price")
    price: i64,
    @id("shop.model.item.qty")
    qty: i64,
}

@id("shop.model.pair")
record Pair<T> {
    @id("shop.model.pair.first")
    first: T,
    @id("shop.model.pair.n")
    n: i64,
}

@id("shop.model.total")
fn total(it: Item) -> i64
{
    let cost = it.price;
    let n = it.qty;
    cost * n
}
"""

APP = """module shop.app;
use type @id("shop.model.item") from shop.model as Item;
use function @id("shop.model.total") from shop.model as total;

@id("shop.app.main")
fn main() -> i64
{
    total(Item { price: 3, qty: 2 })
}
"""


def main():
    tmp = tempfile.mkdtemp(prefix="spx-lsp-refused.")
    try:
        root = os.path.join(os.path.realpath(tmp), "shop")
        r = subprocess.run([BIN, "new", root, "--name", "shop"], capture_output=True)
        assert r.returncode == 0, r.stderr
        paths = {"model": os.path.join(root, "src", "model.spx"), "app": os.path.join(root, "src", "app.spx")}
        text = {"model": MODEL, "app": APP}
        for m, p in paths.items():
            with open(p, "w", encoding="utf-8") as f:
                f.write(text[m])
        man = os.path.join(root, "semaprax.toml")
        with open(man, encoding="utf-8") as f:
            mt = f.read()
        with open(man, "w", encoding="utf-8") as f:
            f.write(mt.replace('"src/core.spx", ', '"src/core.spx", "src/model.spx", '))
        r = subprocess.run([BIN, "check", root], capture_output=True)
        assert r.returncode == 0, r.stderr
        uri = {m: "file://" + p for m, p in paths.items()}
        c = Lsp(BIN)
        c.call("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
        c.notify("initialized", {})
        for m in ("model", "app"):
            c.notify("textDocument/didOpen", {"textDocument": {"uri": uri[m], "languageId": "semaprax", "version": 1, "text": text[m]}})
            assert c.diags(uri[m]) == [], m
        # the field an importer's construction names: refused, the place and the way on
        e = c.error("textDocument/rename", {"textDocument": {"uri": uri["model"]}, "position": pos(MODEL, "qty: i64"),
                                            "newName": "count"})
        assert e["code"] == -32803, e
        assert e["message"].startswith("the renamed project does not verify: SPX-T212: unknown or duplicate field `qty` in `Item` construction at "
                                       + paths["app"] + ":8:28; help: rename edits the declaring module only; "
                                       "change both modules in one project transaction (docs/PATCH.md)"), e
        # a local renamed onto a name its scope binds: the error is in the declaring module, no transaction
        e = c.error("textDocument/rename", {"textDocument": {"uri": uri["model"]}, "position": pos(MODEL, "n = it"), "newName": "cost"})
        assert e["code"] == -32803 and " at " + paths["model"] + ":" in e["message"] and "transaction" not in e["message"], e
        # a field of type T: Copy per instance; a field of type i64: Copy
        h = c.call("textDocument/hover", {"textDocument": {"uri": uri["model"]}, "position": pos(MODEL, "first: T")})["contents"]["value"]
        assert "type: `T` \u2014 Copy when the type arguments it mentions are" in h, h
        h = c.call("textDocument/hover", {"textDocument": {"uri": uri["model"]}, "position": pos(MODEL, "n: i64")})["contents"]["value"]
        assert "type: `i64` \u2014 Copy\n" in h, h
        # a file no manifest lists: a local renamed onto a bound name, refused with the place
        solo = os.path.join(os.path.realpath(tmp), "solo.spx")
        st = "module t.solo;\n\n@id(\"app.main\")\nfn main() -> i64\n{\n    let a = 1;\n    let b = 2;\n    a + b\n}\n"
        with open(solo, "w", encoding="utf-8") as f:
            f.write(st)
        c.notify("textDocument/didOpen", {"textDocument": {"uri": "file://" + solo, "languageId": "semaprax", "version": 1, "text": st}})
        assert c.diags("file://" + solo) == []
        e = c.error("textDocument/rename", {"textDocument": {"uri": "file://" + solo}, "position": pos(st, "b = 2"), "newName": "a"})
        assert e["code"] == -32803 and e["message"] == "the renamed program does not verify: SPX-T209: local binding `a` shadows an existing value at 7:9", e
        c.call("shutdown")
        c.notify("exit")
        status, rest, err = c.finish()
        assert status == 0 and err == b"", (status, err[:2000])
        print("lsp qa38: ok")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
