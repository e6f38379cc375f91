"""hostile.py BIN [COUNT] — COUNT (default 100,000) malformed or hostile
messages to `semaprax serve`: truncated JSON, wrong types, huge ids, deep
nesting, invalid UTF-8, oversized frames, duplicate keys, batches, garbage
notifications and, at the end, requests after `shutdown`.  Asserts: the
service never crashes, answers every request with an error carrying the
request's id (null when it has none or it could not be read), in order,
answers no notification, and its peak memory stays bounded."""
import json
import os
import random
import subprocess
import sys
import threading

from client import tempdir


def check(cond, what):
    """A failure kills the service first (the writer may be blocked on a full pipe)."""
    if not cond:
        print("FAIL: " + what, file=sys.stderr)
        try:
            p.kill()
        except Exception:
            pass
        os._exit(1)

BIN = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
BOUND = 65536
rng = random.Random(17)

d = tempdir()
path = os.path.join(d, "h.spx")
with open(path, "w") as f:
    f.write("module demo.h;\n\n@id(\"demo.main\")\nfn main() -> i64 {\n    0\n}\n")


def req(i, method="ping", params=None, rid=None):
    m = {"jsonrpc": "2.0", "id": i if rid is None else rid, "method": method}
    if params is not None:
        m["params"] = params
    return json.dumps(m).encode()


def nested(n):
    return b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":' + b"[" * n + b"]" * n + b"}}"


messages = []   # (bytes, expected reply: None = no reply, else (id, code or None for any error))


def add(data, expect):
    messages.append((data, expect))


kinds = 0
i = 0
while len(messages) < COUNT:
    i += 1
    k = i % 20
    if k == 0:      # truncated JSON
        full = req(i, "check", {"trace": True})
        add(full[:rng.randrange(1, len(full) - 1)], (None, -32700))
    elif k == 1:    # wrong type of method
        add(b'{"jsonrpc":"2.0","id":%d,"method":%d}' % (i, i), (i, -32600))
    elif k == 2:    # wrong type of id
        bad = rng.choice([b"{}", b"[1]", b"1.5", b"true", b"-0.25e3"])
        add(b'{"jsonrpc":"2.0","id":' + bad + b',"method":"ping"}', (None, -32600))
    elif k == 3:    # wrong type of params
        add(b'{"jsonrpc":"2.0","id":%d,"method":"check","params":"x"}' % i, (i, -32600))
    elif k == 4:    # wrong type of a parameter
        add(req(i, "check", {"trace": "yes"}), (i, -32602))
    elif k == 5:    # huge ids that fit: echoed exactly
        rid = rng.choice([2**63 - 1, -2**63, 0])
        add(req(i, "ping", rid=rid), (rid, "ok"))
    elif k == 6:    # ids past 64 bits: not readable, an error with id null
        add(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}' % (2**64 + i), (None, -32700))
    elif k == 7:    # long string ids are echoed
        rid = "x" * rng.randrange(1, 2000) + str(i)
        add(req(i, "nosuch", rid=rid), (rid, -32601))
    elif k == 8:    # deep nesting
        add(nested(rng.choice([65, 200, 5000])), (None, -32600))
    elif k == 9:    # invalid UTF-8
        bad = rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"])
        add(b'{"jsonrpc":"2.0","id":%d,"method":"p' % i + bad + b'"}', (None, -32700))
    elif k == 10:   # oversized frame
        add(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"a" * (BOUND + rng.randrange(1, 5000)) + b'"}}',
            (None, -32001))
    elif k == 11:   # duplicate keys
        add(b'{"jsonrpc":"2.0","id":%d,"id":%d,"method":"ping"}' % (i, i), (None, -32700))
    elif k == 12:   # batches
        add(b"[" + req(i) + b"]", (None, -32600))
    elif k == 13:   # not JSON-RPC 2.0 (nor "2.0" followed by a NUL)
        add(b'{"jsonrpc":"%s","id":%d,"method":"ping"}' % (rng.choice([b"1.0", b"2.0\\u0000"]), i), (i, -32600))
    elif k == 14:   # garbage notifications: never answered
        add(json.dumps({"jsonrpc": "2.0", "method": rng.choice(["nosuch", "check", "$/x", ""]),
                        "params": rng.choice([{}, {"trace": 5}, [1, 2]])}).encode(), None)
    elif k == 15:   # random bytes
        junk = bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 64))).replace(b"\n", b" ").replace(b"\r", b" ")
        if junk.strip(b" \t") in (b"",) or junk.strip().isdigit():
            junk = b"@" + junk
        add(junk, (None, None))
    elif k == 16:   # unknown members and wrong method names
        add(b'{"jsonrpc":"2.0","id":%d,"method":"ping","extra":1}' % i, (i, -32600))
    elif k == 17:   # scalars and empty containers
        add(rng.choice([b"5", b'"x"', b"null", b"[]", b"{}"]), (None, None))
    elif k == 18:   # NUL inside a string parameter, or a method name (never the name before the NUL:
        # `shutdown\u0000` is no shutdown, a notification `exit\u0000…` no exit)
        v = (i // 20) % 5
        if v == 3:      # a list member holding NUL is no filter or kind (never the word before it)
            add(b'{"jsonrpc":"2.0","id":%d,"method":"context","params":{"symbol":"demo.main","filters":["types\\u0000x"]}}' % i,
                (i, -32602))
        elif v == 4:
            add(b'{"jsonrpc":"2.0","id":%d,"method":"query","params":{"kind":["function\\u0000"]}}' % i, (i, -32602))
        elif v == 0:
            add(b'{"jsonrpc":"2.0","id":%d,"method":"context","params":{"symbol":"a\\u0000b"}}' % i, (i, -32602))
        elif v == 1:
            add(b'{"jsonrpc":"2.0","id":%d,"method":"%s\\u0000x"}' % (i, rng.choice([b"shutdown", b"status", b"ping"])), (i, -32601))
        else:
            add(b'{"jsonrpc":"2.0","method":"exit\\u0000"}', None)
    else:           # a valid request now and then: the service is still serving
        add(req(i, "status"), (i, "ok"))
# then shutdown and requests after it
add(req(-1, "shutdown"), (-1, "ok"))
for j in range(200):
    add(req(10**9 + j, rng.choice(["ping", "check", "graph", "refresh"])), (10**9 + j, -32003))
add(b'{"jsonrpc":"2.0","method":"ping"}', None)

p = subprocess.Popen([BIN, "serve", path, "--max-message-bytes", str(BOUND)], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def writer():
    try:
        for data, _ in messages:
            p.stdin.write(data + b"\n")
        p.stdin.flush()
    except BrokenPipeError:
        pass


t = threading.Thread(target=writer, daemon=True)
t.start()
expected = [e for _, e in messages if e is not None]
peak = 0
for n, (rid, code) in enumerate(expected):
    line = p.stdout.readline()
    check(line.endswith(b"\n"), "reply %d of %d missing (the service ended: status %r)" % (n, len(expected), p.poll()))
    r = json.loads(line)
    check(r.get("jsonrpc") == "2.0" and "id" in r, "reply %d is a JSON-RPC response: %r" % (n, line[:200]))
    check(r["id"] == rid, "reply %d: id %r, expected %r (%r)" % (n, r["id"], rid, line[:200]))
    if code == "ok":
        check("result" in r, "reply %d: a result expected: %r" % (n, line[:200]))
    else:
        check("error" in r and isinstance(r["error"].get("code"), int) and isinstance(r["error"].get("message"), str),
              "reply %d: an error expected: %r" % (n, line[:200]))
        if code is not None:
            check(r["error"]["code"] == code, "reply %d: code %r, expected %r (%r)" % (n, r["error"]["code"], code, line[:200]))
    if n % 5000 == 0:
        try:
            with open("/proc/%d/status" % p.pid) as f:
                for l in f:
                    if l.startswith("VmHWM:"):
                        peak = max(peak, int(l.split()[1]))
        except OSError:
            pass
t.join()
try:
    with open("/proc/%d/status" % p.pid) as f:
        for l in f:
            if l.startswith("VmHWM:"):
                peak = max(peak, int(l.split()[1]))
except OSError:
    pass
p.stdin.close()
rest = p.stdout.read()
status = p.wait(timeout=120)
check(rest == b"", "no reply to the final notification: %r" % rest[:200])
check(status == 0, "service exit status %r" % status)
# (ASan's shadow memory and quarantine make the figure meaningless there)
check(peak == 0 or "ASAN_OPTIONS" in os.environ or peak < 64 * 1024, "peak memory %d KiB (bound 64 MiB)" % peak)
print("service hostile: ok (%d messages, %d replies, peak %d KiB)" % (len(messages), len(expected), peak))
