"""fuzz.py BIN [ROUNDS] [SEED] [--project] — a structure-aware fuzzer of `semaprax lsp`
(sec21): fixture texts opened as documents, mutated by random ranged and
whole changes (token insertions, deletions, odd characters, \\r, astral
scalars), and every feature requested at random positions (past the end,
inside a surrogate pair, negative).  Asserts: every request is answered
with its id (a result or an error), the server never dies and shuts down
with status 0.  A reply taking over 60 s is a hang.  --project: the
documents are the sources of copies of tests/project/*, opened by their
file: URIs, so each is checked with its project."""
import glob
import json
import os
import random
import re
import select
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import u16  # noqa: E402

BIN = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 21
rnd = random.Random(SEED)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = sorted(glob.glob(os.path.join(ROOT, "fixtures", "run", "*.spx")) + glob.glob(os.path.join(ROOT, "fixtures", "**", "*.spx"), recursive=True)[::7])
TOKENS = ["fn", "let", "mut", "if", "else", "match", "{", "}", "(", ")", "[", "]", ";", ",", ".", "::", "->", "=>",
          "@id(\"x.y\")", "record", "variant", "class", "own", "borrow", "shared", "uses", "requires", "ensures",
          "module", "use", "\n", "\r", "\r\n", "\t", "é", "😀", "\u202e", "\u2028", "\ufeff", "\x00", "\"", "'",
          "//", "/*", "*/", "0", "18446744073709551616", "i64", "string", "Vec<i64>", "x", "main", "result",
          "permit", "resource", "for", "in", "while", "return", "?", "=", "+", "==", "\\u{10ffff}"]


class Dead(Exception):
    pass


class Server:
    def __init__(self):
        self.p = subprocess.Popen([BIN, "lsp", "--max-message-bytes", "262144"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 1
        self.buf = b""

    def send(self, msg):
        body = json.dumps(msg, ensure_ascii=False).encode("utf-8", "surrogatepass")
        try:
            self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.p.stdin.flush()
        except BrokenPipeError:
            raise Dead("broken pipe")

    def _fill(self):
        r, _, _ = select.select([self.p.stdout], [], [], 60)
        if not r:
            raise Dead("no reply within 60 s (hang)")
        chunk = os.read(self.p.stdout.fileno(), 1 << 20)
        if not chunk:
            raise Dead("server closed its output, status %r" % self.p.poll())
        self.buf += chunk

    def read(self):
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        head, _, rest = self.buf.partition(b"\r\n\r\n")
        n = None
        for line in head.split(b"\r\n"):
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                n = int(v)
        assert n is not None, head
        self.buf = rest
        while len(self.buf) < n:
            self._fill()
        body, self.buf = self.buf[:n], self.buf[n:]
        return json.loads(body)

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if "id" in m and "method" not in m:
                assert m["id"] == rid, (rid, m)
                assert ("result" in m) != ("error" in m), m
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})


SAFE = [" ", "\n", "\r\n", "// é😀 \u202e\n", "\t", "\n\n", "/* x */"]


def mutate(text):
    n = len(text)
    if rnd.random() < 0.85:   # mostly edits that keep a program verifying: the features then answer
        ws = [i for i in range(n) if text[i] in " \n"] or [n]
        a = rnd.choice(ws)
        return a, a, rnd.choice(SAFE)
    k = rnd.randrange(6)
    a = rnd.randrange(n + 1)
    b = min(n, a + rnd.choice([0, 0, 1, 2, 5, 20, 200]))
    if k == 0:
        return a, b, ""
    if k == 1:
        return a, a, rnd.choice(TOKENS)
    if k == 2:   # duplicate a slice elsewhere
        c = rnd.randrange(n + 1)
        return c, c, text[a:b]
    if k == 3:
        return a, b, " ".join(rnd.choice(TOKENS) for _ in range(rnd.randrange(1, 6)))
    if k == 4:   # a word of the text
        words = [w for w in text.replace("(", " ").replace(")", " ").split() if w.isidentifier()]
        return a, a, rnd.choice(words) if words else "x"
    return a, b, rnd.choice(TOKENS) * rnd.randrange(1, 4)


UTF8 = [False]   # the server's positionEncoding is utf-8 (offered at random)


def lsp_pos(text, off):
    start = text.rfind("\n", 0, off) + 1
    col = text[start:off]
    return {"line": text.count("\n", 0, off), "character": len(col.encode("utf-8", "surrogatepass")) if UTF8[0] else u16(col)}


def rand_pos(text):
    r = rnd.randrange(10)
    if r >= 4:   # on a word
        ws = [m.start() + rnd.randrange(len(m.group())) for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", text)]
        if ws:
            return lsp_pos(text, rnd.choice(ws))
    if r == 0:
        return {"line": rnd.choice([-1, 10**6, 2**31 - 1, 2**31, 2**53]), "character": rnd.choice([0, -1, 2**31])}
    if r == 1:
        return {"line": rnd.randrange(text.count("\n") + 2), "character": rnd.randrange(400)}
    p = lsp_pos(text, rnd.randrange(len(text) + 1))
    if r == 2:
        p["character"] += 1   # maybe inside a surrogate pair or past the line
    return p


PROJECT_FILES = []


def project_setup():
    """--project: copies of the tests/project fixtures that verify, their sources opened by file URI."""
    import shutil
    import tempfile
    d = tempfile.mkdtemp(prefix="spx-lsp-fuzz-")
    for name in sorted(os.listdir(os.path.join(ROOT, "project"))):
        src = os.path.join(ROOT, "project", name)
        if not os.path.isfile(os.path.join(src, "semaprax.toml")):
            continue
        shutil.copytree(src, os.path.join(d, name), symlinks=True)
        for f in glob.glob(os.path.join(d, name, "**", "*.spx"), recursive=True):
            PROJECT_FILES.append(f)
    return d


def main():
    tmp = project_setup() if "--project" in sys.argv else None
    try:
        run()
    finally:
        if tmp:
            import shutil
            shutil.rmtree(tmp, ignore_errors=True)


def run():
    s = Server()
    caps = {}
    if rnd.random() < 0.5:
        caps = {"general": {"positionEncodings": ["utf-8", "utf-16"]}}
    init = s.request("initialize", {"capabilities": caps, "initializationOptions": {"trace": rnd.random() < 0.5}})
    UTF8[0] = init["result"]["capabilities"]["positionEncoding"] == "utf-8"
    s.notify("initialized", {})
    docs = {}
    answered = 0
    stats = {}
    for rnd_i in range(ROUNDS):
        op = rnd.randrange(20)
        if op == 0 or not docs:
            path = rnd.choice(PROJECT_FILES or SEEDS)
            try:
                text = open(path, encoding="utf-8").read()
            except (UnicodeDecodeError, OSError):
                continue
            uri = "file://" + path if PROJECT_FILES else "file:///fuzz/%d/%s" % (rnd.randrange(40), os.path.basename(path))
            docs[uri] = [text, 1]
            s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "semaprax", "version": 1,
                                                                "text": text}})
            continue
        uri = rnd.choice(sorted(docs))
        text, ver = docs[uri]
        if op <= 6:   # ranged changes, applied in order
            changes = []
            for _ in range(rnd.randrange(1, 4)):
                if not text:
                    text = "x"
                    changes.append({"text": text})
                    continue
                a, b, t = mutate(text)
                changes.append({"range": {"start": lsp_pos(text, a), "end": lsp_pos(text, b)}, "text": t})
                text = text[:a] + t + text[b:]
            ver += 1
            docs[uri] = [text, ver]
            s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": ver}, "contentChanges": changes})
            continue
        if op == 7:
            s.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            del docs[uri]
            continue
        if op == 8:   # a whole-text change
            a, b, t = mutate(text)
            text = text[:a] + t + text[b:]
            ver += 1
            docs[uri] = [text, ver]
            s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": ver}, "contentChanges": [{"text": text}]})
            continue
        td = {"uri": uri}
        m = rnd.choice(["hover", "definition", "references", "rename", "formatting", "documentSymbol",
                        "semanticTokens/full", "codeAction", "rename", "references", "prepareRename"])
        params = {"textDocument": td}
        if m in ("hover", "definition", "references", "rename", "prepareRename"):
            params["position"] = rand_pos(text)
        if m == "references":
            params["context"] = {"includeDeclaration": rnd.random() < 0.5}
        if m == "rename":
            params["newName"] = rnd.choice(["y", "z9", "fn", "", "a b", "é", "main", "x" * 300, "_", "Y"])
        if m == "formatting":
            params["options"] = {"tabSize": 4, "insertSpaces": True}
        if m == "codeAction":
            params["range"] = {"start": rand_pos(text), "end": rand_pos(text)}
            params["context"] = {"diagnostics": []}
        r = s.request("textDocument/" + m, params)
        answered += 1
        key = (m, "error %d" % r["error"]["code"] if "error" in r else ("null" if r["result"] is None else "result"))
        stats[key] = stats.get(key, 0) + 1
    s.request("shutdown", None)
    s.notify("exit", None)
    s.p.stdin.close()
    st = s.p.wait(timeout=120)
    err = s.p.stderr.read()
    if st != 0:
        print("FAIL: exit status %r; stderr %r" % (st, err[-3000:]))
        sys.exit(1)
    if os.environ.get("FUZZ_STATS"):
        for k in sorted(stats):
            print(k, stats[k])
    print("lsp fuzz: ok (%d rounds, %d requests answered, seed %d)" % (ROUNDS, answered, SEED))


try:
    main()
except (Dead, AssertionError) as e:
    print("FAIL (seed %d): %s" % (SEED, e))
    sys.exit(1)
