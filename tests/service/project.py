"""project.py BIN — `semaprax serve <project-dir>`: the project is one product
(re-checked from disk on refresh, reused otherwise), test and run reach the
project's commands, the single-file operations refuse with -32008."""
import json
import os
import subprocess
import sys

from client import Client, check, tempdir

BIN = sys.argv[1]
d = os.path.join(tempdir(), "proj")
r = subprocess.run([BIN, "new", d, "--template", "library"], capture_output=True)
check(r.returncode == 0, "semaprax new: %r" % r.stderr)

c = Client(BIN, d)
p = c.call("protocol")
check(p["operand"]["kind"] == "project", "project operand")
st = c.call("status")
check(st["kind"] == "project" and st["checked"] is False, "status before check %r" % st)
r = c.call("check", {"trace": True})
check(r["ok"] and r["revision"].startswith("sha256:"), "project check %r" % r)
check(r["trace"]["executed"] == ["project"], "project executed %r" % r["trace"])
r2 = c.call("check", {"trace": True})
check(r2["trace"]["reused"] == ["project"] and r2["revision"] == r["revision"], "project reused")
t = c.call("test")
check(t["exit"] == 0 and json.loads(t["stdout"].splitlines()[-1])["schema"].startswith("semaprax.project"), "test %r" % t)
check(c.error("graph") == -32008 and c.error("doc") == -32008, "single-file operations refused")
check(c.error("refresh", {"text": "x"}) == -32008, "a project refreshes from disk only")

# an edit on disk is seen at the next refresh, not before
lib = os.path.join(d, "src", "core.spx")
with open(lib) as f:
    src = f.read()
with open(lib, "w") as f:
    f.write(src + "\nfn broken() -> i64 {\n    true\n}\n")
check(c.call("check")["ok"], "not re-read before refresh")
r = c.call("refresh", {"trace": True})
check(not r["ok"] and r["trace"]["executed"] == ["project"] and r["diagnostics"], "refresh re-checks %r" % r)
with open(lib, "w") as f:
    f.write(src)
check(c.call("refresh")["ok"], "fixed on disk")
c.call("shutdown")
c.notify("exit")
status, rest, _ = c.close()
check(status == 0 and rest == b"", "exit")
print("service project: ok")
