"""tmpdir.py BIN — the service's temporary files (sec21): the commands it runs
in-process (doc, patch/*, fix, run) capture their output, and patch/* write
the agent's patch text, in files under $TMPDIR.  A TMPDIR longer than 200
bytes was cut at byte 200 (`%.200s`): every such request failed with
-32009, and where a directory bore the cut name the files went there.  Now
a TMPDIR of any length that fits a path is used whole, and one too long to
hold a file name is refused with -32009 naming why (ENAMETOOLONG), nothing
created elsewhere."""
import os
import sys

from client import Client, tempdir

BIN = sys.argv[1]
d = tempdir()
src = os.path.join(d, "t.spx")
with open(src, "w") as f:
    f.write("module t;\n\n@id(\"t.main\")\nfn main() -> i64\n{\n    7\n}\n")

# a TMPDIR of over 300 bytes whose first 200 name a sibling of it (the cut name)
long_dir = os.path.join(d, "a" * max(1, 178 - len(d)), "b" * 140)
cut = long_dir[:200]
assert len(long_dir) > 200 and cut != long_dir
os.makedirs(long_dir)
env = dict(os.environ, TMPDIR=long_dir)
c = Client(BIN, src, env=env)
rev = c.call("check")["revision"]
for method, params in (("doc", {}), ("run", {}), ("patch/preview", {"patch": "base %s\n" % rev}),
                       ("patch/review", {"patch": "base %s\n" % rev}), ("fix", {"dry_run": True})):
    r = c.request(method, params)
    assert "result" in r, (method, r)
    assert r["result"]["exit"] in (0, 1), (method, r)
doc = c.call("doc", {})
assert "module t" in doc["stdout"], doc
run = c.call("run", {})
assert '"value":"7"' in run["stdout"], run
st, rest, err = c.close()
assert st == 0 and rest == b"", (st, rest, err)
assert not os.path.exists(cut), "nothing made under the cut name"
assert [n for n in os.listdir(long_dir) if n.startswith("semaprax-serve-")] == [], os.listdir(long_dir)

# a TMPDIR too long for any file name in it: refused, said, the service goes on
env = dict(os.environ, TMPDIR="/" + "v" * 5000)
c = Client(BIN, src, env=env)
for method, params in (("doc", {}), ("patch/preview", {"patch": "base %s\n" % rev})):
    r = c.request(method, params)
    assert "error" in r and r["error"]["code"] == -32009, (method, r)
    assert "File name too long" in r["error"]["message"], r
assert c.call("ping") == {}
st, rest, err = c.close()
assert st == 0, (st, err)
print("service tmpdir: ok")
