"""leak.py BIN [COUNT] — COUNT (default 10,000) refreshes of `semaprax serve`
cycling through body (twice: the second a splice re-checked with the
resolve reused), signature, comment, type and syntax edits, with a
graph/query/context read every 50: under ASan/LSan (make test-sanitize) the
service must exit cleanly with no leak report; in any build its peak memory
after the last refresh stays within 2x (+8 MiB) of the peak after the first
tenth (no growth per refresh; not judged under ASAN_OPTIONS, whose quarantine
holds freed memory back)."""
import json
import os
import subprocess
import sys

from client import Client, check, tempdir

BIN = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
d = tempdir()
path = os.path.join(d, "l.spx")
BASE = """module demo.l;

@id("demo.add")
fn add(a: i64, b: i64) -> i64 {
    a + b
}

@id("demo.twice")
fn twice(x: i64) -> i64 {
    add(x, x)
}

@id("demo.main")
fn main() -> i64 {
    twice(21) - 42
}
"""
with open(path, "w") as f:
    f.write(BASE)
edits = [
    lambda n: BASE.replace("a + b", "a + b + %d" % n),                          # body
    lambda n: BASE.replace("a + b", "a + b + %d" % (n + 1)),                    # body again: spliced in place, resolve reused
    lambda n: BASE.replace("b: i64) -> i64 {\n    a + b", "c: i64) -> i64 {\n    a + c"),  # signature
    lambda n: BASE.replace("module demo.l;\n", "module demo.l;\n// %d\n" % n),  # comment
    lambda n: BASE + "\nrecord R%d {\n    x: i64,\n}\n" % (n % 7),             # a type
    lambda n: BASE.replace("twice(21) - 42", "twice(21) - true"),               # an error
    lambda n: BASE.replace("fn main() -> i64 {", "fn main( -> i64 {"),          # a syntax error
]


def peak(pid):
    with open("/proc/%d/status" % pid) as f:
        for l in f:
            if l.startswith("VmHWM:"):
                return int(l.split()[1])
    return 0


c = Client(BIN, path)
first = 0
for n in range(COUNT):
    r = c.call("refresh", {"text": edits[n % len(edits)](n), "trace": n % 3 == 0})
    check("diagnostics" in r, "refresh %d answered" % n)
    if n % 50 == 0:
        c.request("graph")
        c.request("query", {"name": "a"})
        c.request("context", {"symbol": "twice"})
    if n % 500 == 1:
        # the commands run in this process free what they load (cli_release_programs)
        with open(path, "w") as f:
            f.write(edits[n % len(edits)](n))
        c.request("refresh")
        c.request("run")
        c.request("doc")
        c.request("patch/preview", {"patch": "rename demo.add to plus\n"})
    if n == COUNT // 10:
        first = peak(c.p.pid)
last = peak(c.p.pid)
r = c.call("refresh", {})
check(r["ok"], "back to the file")
c.call("shutdown")
c.notify("exit")
status, rest, err = c.close()
check(status == 0, "exit status %r: %s" % (status, err[-3000:].decode(errors="replace")))
check(b"LeakSanitizer" not in err and b"AddressSanitizer" not in err, "sanitizer report: %s" % err[-3000:].decode(errors="replace"))
# ASan's quarantine holds freed memory back, so growth is judged in plain builds only
check("ASAN_OPTIONS" in os.environ or last <= 2 * first + 8192, "memory grew: %d KiB after %d refreshes, %d KiB after %d" % (last, COUNT, first, COUNT // 10))
print("service leak run: ok (%d refreshes, peak %d KiB after a tenth, %d KiB at the end)" % (COUNT, first, last))
