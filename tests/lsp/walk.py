"""walk.py BIN — find references reach names in every expression, pattern and
type shape (src/service/lsp_walk.c): a `?` operand, a variant literal and its
case patterns, record patterns nested in a case, `if` branches in a match
arm, a block arm, a closure body, a function value argument, a method call
and its `with` update, a function type, each resolved by stable identity; a
record invariant's bare field name is the field (hover, definition, rename)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Lsp, pos  # noqa: E402

BIN = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "walk.spx"), encoding="utf-8").read()
URI = "file:///work/lsp/walk.spx"
TD = {"uri": URI}


def refs(needle, nth=0, offset=0):
    r = c.call("textDocument/references", {"textDocument": TD, "position": pos(TEXT, needle, nth, offset),
                                           "context": {"includeDeclaration": True}})
    assert all(x["uri"] == URI for x in r), r
    return [x["range"]["start"] for x in r]


def at(*needles):
    return [pos(TEXT, n, k, o) for n, k, o in needles]


c = Lsp(BIN)
c.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
c.notify("initialized", {})
c.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "semaprax", "version": 1, "text": TEXT}})
d = c.note("textDocument/publishDiagnostics")
assert d["diagnostics"] == [], d

if os.environ.get("WALK_PRINT"):
    for n in ("weight(v: i64)", "Pt {", "Shape {", "at: Pt,", "bump(self", "count: i64", "Counter {"):
        print(n, refs(n))
    sys.exit(0)

# a function: its `?`-fed call in a variant literal, both `if` branches of a match
# arm, a block arm, a closure body, a function value argument
assert refs("weight(v: i64)") == at(("weight(v: i64)", 0, 0), ("weight(v) }", 0, 0), ("weight(x)", 0, 0),
                                    ("weight(y)", 0, 0), ("weight(0)", 0, 0), ("weight(v) + 1", 0, 0),
                                    ("weight, 5", 0, 0)), refs("weight(v: i64)")
# a record: a case field's type, a record pattern inside a case pattern, a literal inside a variant literal
assert refs("Pt {") == at(("Pt {", 0, 0), ("Pt,", 0, 0), ("Pt { x, y }", 0, 0), ("Pt { x: 3", 0, 0))
# a variant: a parameter's type, both case patterns, a variant literal
assert refs("Shape {") == at(("Shape {", 0, 0), ("Shape)", 0, 0), ("Shape::Dot { at: Pt { x, y", 0, 0),
                             ("Shape::Nothing {} =>", 0, 0), ("Shape::Dot { at: Pt { x: 3", 0, 0))
# a case field: its field pattern and its initialiser
assert refs("at: Pt,") == at(("at: Pt,", 0, 0), ("at: Pt { x, y", 0, 0), ("at: Pt { x: 3", 0, 0))
# a method: its call; a class field: a `with` update, a read through self, a literal, a read of a result
assert refs("bump(self") == at(("bump(self", 0, 0), ("bump(2)", 0, 0))
assert refs("count: i64") == at(("count: i64", 0, 0), ("count: self", 0, 0), ("self.count", 0, 5),
                                ("count: 1", 0, 0), ("d.count", 0, 2))
assert refs("Counter {") == at(("Counter {", 0, 0), ("Counter, by", 0, 0), ("Counter\n", 0, 0), ("Counter { count: 1", 0, 0))
# a local binding is no declaration: a pattern binding's references are by scope (lsp_local.c),
# its binding and the uses in its arm
assert refs("x > y") == at(("x, y } }", 0, 0), ("x > y", 0, 0), ("x) }", 0, 0))
# a record invariant reads its fields by bare name: `y` there is the field walk.pt.y,
# not a local (its hover, definition, references and rename are the field's)
assert refs("y: i64") == at(("y: i64", 0, 0), ("y >= 0", 0, 0), ("y } }", 0, 0), ("y: 4", 0, 0)), refs("y: i64")
assert refs("y >= 0") == refs("y: i64")
h = c.call("textDocument/hover", {"textDocument": TD, "position": pos(TEXT, "y >= 0")})
assert "stable id: `walk.pt.y`" in h["contents"]["value"], h
d = c.call("textDocument/definition", {"textDocument": TD, "position": pos(TEXT, "y >= 0")})
assert d["range"]["start"] == pos(TEXT, "y: i64"), d
rn = c.call("textDocument/rename", {"textDocument": {"uri": URI, "version": 1}, "position": pos(TEXT, "y >= 0"),
                                    "newName": "height"})
starts = [e["range"]["start"] for e in rn["documentChanges"][0]["edits"]]
assert starts == at(("y: i64", 0, 0), ("y >= 0", 0, 0), ("y } }", 0, 0), ("y: 4", 0, 0)), starts
assert c.call("shutdown") is None
c.notify("exit")
assert c.finish()[0] == 0
print("lsp walk: ok")
