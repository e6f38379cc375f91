"""Extract (program source, expected outcome) pairs from one reference test
file written in Rust.

The reference states its expectations in ordinary Rust tests, so we read
them with a small abstract evaluator over the test's tokens:

* string values are computed where the test computes them from literals:
  consts and statics, `let`, `.replace`/`.replacen`, `format!` (positional
  and inline named arguments), `concat!`, `+`, `String::from`,
  `.to_string()`, helper functions of the file whose body builds a string,
  and `for` loops over array literals (one case per element);
* a string that looks like a program (it declares a `module` or a `fn`)
  becomes a case; anything computed from it (a parsed program, its
  diagnostics, its graph) is tainted with that case;
* assertions over exactly one case state its outcome: SPX codes it names
  (rejected with those codes), `.is_empty()` (accepted; negated: rejected
  with any code), `parse(..).is_ok()` (parses); `.unwrap()` of a verifying
  stage (graph, HIR, codegen, wasm) is a weaker "accepted", `.unwrap_err()`
  a weaker "rejected".

What the evaluator cannot follow is skipped, never guessed: a case is only
reported with an expectation some assertion states.

Details (details.py) ride along: diagnostic texts and locations, the
interpreter's envelopes (a row's profile chosen by `let result = if *id ==
"…" { … } else { … }` reads the chosen block; `InterpreterOptions::new(65536,
N)` or `max_steps = N` below the default is a Budget), and
`format::canonical(&program)` (Canonical) stated equal to a text or, parsed
again, to itself; `graph::revision` (Revision) and `graph::to_json`
(GraphJson) of a program or of its canonical text parsed again; the exit
status of a `CARGO_BIN_EXE_semaprax` command (clirun.py). Figures
(session 21, v0.2.0 plus the 82 newest tests/language files): verdicts
798/821 raw, 798/798 over what our spec does not decide otherwise; message
91/91, help 64/68 (64/64), location 2/2, run 323/327 (323/323, 4 decided,
30 on a decided rewrite), fmt 118/119 (118/118, 1 decided), rev 51/51,
graph 41/42 (41/41, 1 decided).
"""

import re

from rustlex import tokenize, match_close, skip_to, split_top
from values import Taint, Seq, RunOut, CodeHit, UNKNOWN, Helper, ExamplePath
from clirun import CliReader, Cli, CliOut, Fixture
from details import DetailReader, char_value, Envelope, Budget, Canonical, Reparsed, DEFAULT_OPTIONS, \
    DEFAULT_MAX_STEPS, Revision, GraphJson

CODE_RE = re.compile(r"^SPX-[A-Z]+[0-9]+$")
PROGRAM_RE = re.compile(r"(^|\n)[ \t]*(module[ \t]+[A-Za-z_][\w.]*|"
                        r"(@id\(\"[^\"]*\"\)[ \t]*\n?[ \t]*)?fn[ \t]+[A-Za-z_]\w*\s*[<(])")

# calls whose .unwrap() means the reference verified the program
VERIFYING = {"to_json", "context_json", "agent_context_json", "emit_c",
             "emit_hir_c", "emit_module", "emit_resolved_module", "resolve",
             "check", "revision_checked"}
# codes of the reference's lowering and lanes (HIR validator, C and Wasm
# backends, the LI list-induction proof export): verdicts of a lane's
# profile, not of the checker
BACKEND = "HBWL"
# the reference's read-only projections of a verified program (ABI report,
# C header, C++ shim, OpenAPI, package report, UI schema): what their
# results and failures (budget codes A203/D103/X103/OA105/P302/U102,
# exclusions OA103, tampered envelopes) show is that tool's, not a verdict
TOOL_MODULES = {"abi_report", "c_header", "cxx_shim", "openapi", "package_report",
                "ui_schema"}
# an assertion naming these judges a lane's output, not the checker's
LANE_WORDS = {"wasm", "codegen", "emit_c", "emit_hir_c", "emit_module",
              "emit_resolved_module", "native", "lower"}
# a string of the test holding one of these is a driver program of its own
DRIVER_WORDS = ("int main", "WebAssembly", "import {", "instantiate", ".mjs",
                "node", "spx_decl_", "#include")
# methods and macros that mutate a parsed or lowered program
MUTATORS = {"iter_mut", "clear", "push", "remove", "insert", "retain", "swap",
            "truncate", "pop", "last_mut", "first_mut", "get_mut", "as_mut",
            "swap_remove", "extend", "drain", "reverse", "sort"}
# assertions about artefacts other than the program's verdict
SKIP_ASSERT = ("validate", "patch", "apply", "repair", "workspace", "evidence",
               "impact", "review", "manifest", "project", "unlock", "lock_",
               "verify_envelope")



# fields a test reads diagnostics from (`analysis.diagnostics.is_empty()`)
DIAGNOSTIC_FIELDS = {"diagnostics", "errors", "warnings", "codes", "report"}


def looks_like_program(s):
    return isinstance(s, str) and "fn " in s and "{" in s and \
        PROGRAM_RE.search(s) is not None


class FileExtractor(DetailReader, CliReader):
    def __init__(self, path, text, files=None):
        self.path = path
        self.files = files      # every file read, for include_str!
        self.toks = tokenize(text)
        self.consts = {}
        self.helpers = {}
        self.programs = []      # [(key, source)]
        self.prog_index = {}    # source -> index in self.programs
        self.expect = {}        # index -> list of (strength, kind, codes, where)
        self.details = {}       # index -> detail records (details.py)
        self.test = None
        self.test_progs = 0
        self.depth = 0
        self.tampered = set()   # programs a test has mutated after parsing
        self.helper_depth = 0   # walking a helper's body for a call
        self.declared = []      # names each open inner block binds
        self.touched = set()    # programs the current test has handled
        self.driver = False     # the test runs the program under a driver
        self.helper_made = set()  # programs the last helper built itself

    # ---- programs -------------------------------------------------------
    def prog(self, source):
        idx = self.prog_index.get(source)
        if idx is None:
            idx = len(self.programs)
            self.test_progs += 1
            key = "%s::%s#%d" % (self.path, self.test or "const", self.test_progs)
            self.programs.append((key, source))
            self.prog_index[source] = idx
        return idx

    def taint_of(self, v):
        out = self._taint_of(v)
        if self.test:
            self.touched |= out
        return out

    def _taint_of(self, v):
        if isinstance(v, Taint):
            return set(v.progs)
        if isinstance(v, str):
            return {self.prog(v)} if looks_like_program(v) else set()
        if isinstance(v, Seq):
            out = set()
            for x in v.items:
                out |= self.taint_of(x)
            return out
        return set()

    # ---- items ----------------------------------------------------------
    def run(self):
        # consts and helpers first (Rust items are order-free), then tests
        self.items(False)
        self.items(True)
        return self.programs, self.expect

    def items(self, tests):
        toks = self.toks
        i = 0
        pending_test = False
        while i < len(toks):
            t = toks[i]
            if t[1] == "#" and i + 1 < len(toks) and toks[i + 1][1] == "[":
                j = match_close(toks, i + 1)
                attr = " ".join(x[1] for x in toks[i + 2:j])
                if attr.startswith("test") or attr.startswith("tokio :: test"):
                    pending_test = True
                i = j + 1
                continue
            if t[0] == "ident" and t[1] in ("const", "static") and \
                    i + 1 < len(toks) and toks[i + 1][0] == "ident":
                j = i + 1
                if toks[j][1] == "mut":
                    j += 1
                name = toks[j][1]
                k = j
                while k < len(toks) and toks[k][1] != "=":
                    if toks[k][1] in (";", "{"):
                        break
                    k += 1
                if k < len(toks) and toks[k][1] == "=":
                    e = self.stmt_end(k + 1)
                    if not tests:
                        v = self.eval(toks[k + 1:e], {})
                        if isinstance(v, (str, Seq, int)):
                            self.consts[name] = v
                    i = e + 1
                    continue
            if t[0] == "ident" and t[1] == "fn" and i + 1 < len(toks):
                name = toks[i + 1][1]
                j = i + 2
                while j < len(toks) and toks[j][1] != "(":
                    j += 1
                pe = match_close(toks, j)
                params = []
                for p in split_top(toks[j + 1:pe]):
                    if p and p[0][0] == "ident":
                        params.append(p[0][1] if p[0][1] != "mut" else p[1][1])
                k = pe + 1
                while k < len(toks) and toks[k][1] not in ("{", ";"):
                    k += 1
                if k >= len(toks) or toks[k][1] == ";":
                    i = k + 1
                    pending_test = False
                    continue
                be = match_close(toks, k)
                body = toks[k + 1:be]
                if pending_test and tests:
                    self.test = name
                    self.test_progs = 0
                    self.tampered = set()
                    self.touched = set()
                    # a test that runs the program under its own C or
                    # JavaScript driver asserts the driver's output
                    self.driver = any(t[0] == "str" and t[2] and any(
                        w in t[2] for w in DRIVER_WORDS) for t in body)
                    self.block(body, {})
                    self.test = None
                elif not pending_test and not tests and name not in self.helpers:
                    self.helpers[name] = Helper(params, body)
                pending_test = False
                i = be + 1
                continue
            i += 1

    def stmt_end(self, i):
        return skip_to(self.toks, i, ";", ("(", "[", "{"))

    # ---- statements -----------------------------------------------------
    def block(self, toks, env):
        i = 0
        n = len(toks)
        while i < n:
            t = toks[i]
            if t[1] == ";":
                i += 1
                continue
            if t[0] == "ident" and t[1] == "for":
                j = i + 1
                while j < n and toks[j][1] != "in":
                    j += 1
                pat = toks[i + 1:j]
                k = skip_to(toks, j + 1, "{", ("(", "["))
                if k >= n:
                    return
                be = match_close(toks, k)
                src = self.eval(toks[j + 1:k], env)
                body = toks[k + 1:be]
                items = src.items if isinstance(src, Seq) else [src]
                for item in items:
                    e2 = dict(env)
                    self.bind(pat, item, e2)
                    if self.skipped(body, e2):
                        continue
                    self.inner(body, env, e2, pat)
                i = be + 1
                continue
            if t[0] == "ident" and t[1] in ("if", "while", "loop", "else", "unsafe"):
                # walk every block the statement holds, conditions ignored
                j = skip_to(toks, i + 1, "{", ("(", "["))
                if j >= n:
                    return
                be = match_close(toks, j)
                # a condition the evaluator knows (clirun.cli_if): only the
                # branch taken is walked; else every block, and an argument
                # a command gets there is optional
                truth = self.cli_if(toks[i + 1:j], env) if t[1] == "if" else None
                if truth is not None:
                    k = be + 1
                    if truth:
                        while k + 1 < n and toks[k][1] == "else":
                            k = match_close(toks, skip_to(toks, k + 1, "{", ("(", "["))) + 1
                        self.inner(toks[j + 1:be], env, dict(env), [])
                    elif k < n and toks[k][1] == "else" and k + 1 < n and toks[k + 1][1] == "{":
                        e = match_close(toks, k + 1)
                        self.inner(toks[k + 2:e], env, dict(env), [])
                        k = e + 1
                    elif k < n and toks[k][1] == "else":
                        k += 1  # `else if …`: the next statement
                    i = k
                    continue
                undecided = t[1] in ("if", "else")
                e2 = dict(env)
                if t[1] == "if" and toks[i + 1][1] == "let":
                    self.cli_if_let(toks[i + 2:j], env, e2)
                self.cli_level += undecided
                driver = self.driver
                # `if let Some(stdout) = run_wasm(…) { … }`: inside, stdout
                # is the Node driver's (`node_helper`), not `run`'s
                self.driver = driver or any(
                    c[0] == "ident" and c[1] in self.helpers and
                    self.node_helper(self.helpers[c[1]]) for c in toks[i + 1:j])
                try:
                    self.inner(toks[j + 1:be], env, e2, [])
                finally:
                    self.driver = driver
                    self.cli_level -= undecided
                i = be + 1
                continue
            if t[1] == "{":
                be = match_close(toks, i)
                self.inner(toks[i + 1:be], env, dict(env), [])
                i = be + 1
                continue
            # a plain statement up to ';' at this level
            j = skip_to(toks, i, ";", ("(", "[", "{"))
            stmt = toks[i:j]
            self.statement(stmt, env)
            i = j + 1

    def if_value(self, rhs, env):
        """`if COND { A } else { B }` as a `let`'s value when COND is decided
        by the row a table loop bound (`*id == "…"`, `matches!(*id, "…" |
        "…")`): the chosen block's statements run (their assertions read)
        and its tail is the value. None when COND is not decided."""
        k = skip_to(rhs, 1, "{", ("(", "["))
        if k >= len(rhs):
            return None
        be = match_close(rhs, k)
        rest = rhs[be + 1:]
        if not rest or rest[0][1] != "else" or len(rest) < 3 or rest[1][1] != "{" or \
                match_close(rest, 1) != len(rest) - 1:
            return None
        cond = self.decide(rhs[1:k], env)
        if cond is None:
            return None
        body = rhs[k + 1:be] if cond else rest[2:-1]
        return self.block_value(body, env)

    def decide(self, toks, env):
        """A row condition's truth, or None."""
        w = [t[1] for t in toks]
        if w[:3] == ["matches", "!", "("] and match_close(toks, 2) == len(toks) - 1:
            parts = split_top(toks[3:-1])
            if len(parts) != 2:
                return None
            v = self.eval(parts[0], env)
            alts = split_top(parts[1], "|")
            if not isinstance(v, str) or not all(len(a) == 1 and a[0][0] == "str" and
                                                 a[0][2] is not None for a in alts):
                return None
            return v in [a[0][2] for a in alts]
        sides = split_top(toks, "==")
        neg = False
        if len(sides) != 2:
            sides, neg = split_top(toks, "!="), True
        if len(sides) != 2:
            return None
        a, b = self.eval(sides[0], env), self.eval(sides[1], env)
        if not isinstance(a, str) or not isinstance(b, str):
            return None
        return (a == b) != neg

    def block_value(self, body, env):
        """A block's statements run in an inner scope; its tail's value."""
        e2 = dict(env)
        stmts = []
        i = 0
        while i < len(body):
            j = skip_to(body, i, ";", ("(", "[", "{"))
            stmts.append(body[i:j])
            i = j + 1
        tail = stmts.pop() if stmts and stmts[-1] else None
        if tail is None:
            return None
        for st in stmts:
            if st and st[0][1] in ("if", "for", "while", "loop", "match"):
                return None
            self.statement(st, e2)
        return self.eval(tail, e2)

    def skipped(self, body, env):
        """`if row.contains("…") { continue; }` heading a table loop's body:
        the row it names is skipped, its program never checked."""
        w = [t[1] for t in body[:11]]
        if len(w) == 11 and w[0] == "if" and body[1][0] == "ident" and \
                w[2:5] == [".", "contains", "("] and body[5][0] == "str" and \
                body[5][2] is not None and w[6:11] == [")", "{", "continue", ";", "}"]:
            v = self.eval(body[1:2], env)
            return isinstance(v, str) and body[5][2] in v
        return False

    def inner(self, body, outer, env, pat):
        """An inner block: its `let`s shadow, its assignments and
        `push_str`s to outer bindings stay (a loop's accumulation)."""
        declared = {t[1] for t in pat if t[0] == "ident"}
        self.declared.append(declared)
        try:
            self.block(body, env)
        finally:
            self.declared.pop()
        for k, v in env.items():
            if k in outer and k not in declared and outer[k] is not v:
                outer[k] = v

    def closure(self, toks):
        """`|a: &str, b| body` (or `move |…|`) as a helper."""
        if toks and toks[0][1] == "move":
            toks = toks[1:]
        if not toks or toks[0][1] not in ("|", "||"):
            return None
        if toks[0][1] == "||":
            params, k = [], 1
        else:
            k = 1
            while k < len(toks) and toks[k][1] != "|":
                k += 1
            params = []
            for p in split_top(toks[1:k]):
                p = [t for t in p if t[1] not in ("mut", "&")]
                if p and p[0][0] == "ident":
                    params.append(p[0][1])
            k += 1
        body = toks[k:]
        if body and body[0][1] == "->":
            while k < len(toks) and toks[k][1] != "{":
                k += 1
            body = toks[k:]
        if body and body[0][1] == "{" and match_close(body, 0) == len(body) - 1:
            body = body[1:-1]
        return Helper(params, body)

    def bind(self, pat, value, env):
        pat = [t for t in pat if t[1] not in ("&", "mut", "ref")]
        if len(pat) == 1 and pat[0][0] == "ident":
            env[pat[0][1]] = value
            return
        if pat and pat[0][1] == "(":
            parts = split_top(pat[1:match_close(pat, 0)])
            items = value.items if isinstance(value, Seq) else None
            for k, p in enumerate(parts):
                self.bind(p, items[k] if items and k < len(items) else UNKNOWN, env)
            return
        for t in pat:
            if t[0] == "ident" and t[1][0].islower():
                env[t[1]] = value

    def tamper(self, stmt, env):
        """A statement that mutates what a program was parsed or lowered to
        (the reference's hostile-AST/HIR tests): later assertions about
        that program judge the forged tree, not the source."""
        words = [t[1] for t in stmt]
        field_store = len(words) > 3 and stmt[0][0] == "ident" and words[0] != "let" \
            and words[1] == "." and "=" in words
        mutating = field_store or (words[:1] == ["*"] and "=" in words) or \
            any(w in MUTATORS and k + 1 < len(words) and words[k + 1] == "("
                for k, w in enumerate(words))
        if not mutating:
            return
        for t in stmt:
            if t[0] == "ident" and t[1] in env:
                self.tampered |= self.taint_of(env[t[1]])

    def statement(self, stmt, env):
        if not stmt:
            return
        self.tamper(stmt, env)
        if stmt[0][1] == "let":
            k = 1
            depth = 0
            while k < len(stmt):
                s = stmt[k][1]
                if s in ("(", "[", "<"):
                    depth += 1
                elif s in (")", "]", ">"):
                    depth -= 1
                elif s == "=" and depth <= 0:
                    break
                k += 1
            pat = stmt[1:k]
            # drop a type annotation
            for c in range(len(pat)):
                if pat[c][1] == ":" and c > 0:
                    pat = pat[:c]
                    break
            rhs = stmt[k + 1:]
            depth = 0
            for c in range(len(rhs)):  # let-else (not an `if` expression's else)
                depth += (rhs[c][1] in ("(", "[", "{")) - (rhs[c][1] in (")", "]", "}"))
                if rhs[c][0] == "ident" and rhs[c][1] == "else" and c > 0 and \
                        rhs[0][1] != "if" and depth == 0:
                    rhs = rhs[:c]
                    break
            clo = self.closure(rhs)
            chosen = self.if_value(rhs, env) if rhs and rhs[0][1] == "if" else None
            value = clo if clo else chosen if chosen is not None else \
                self.eval(rhs, env) if rhs else UNKNOWN
            rw = [t[1] for t in rhs]
            if "filter" in rw and "code" in rw and "==" in rw and "next" not in rw and \
                    isinstance(value, Taint):
                hit = self.codes_in(rhs, env)
                if hit:
                    value = CodeHit(value.progs, hit)
            self.bind(pat, value, env)
            self.let_details(pat, rhs, env)
            if self.declared:
                self.declared[-1].update(t[1] for t in pat if t[0] == "ident")
            if chosen is None:  # a chosen block's statements were read already
                self.implicit(rhs, env)
            return
        if stmt[0][0] == "ident" and stmt[0][1] in ("assert", "assert_eq", "assert_ne",
                                                      "debug_assert") and \
                len(stmt) > 2 and stmt[1][1] == "!":
            self.assertion(stmt[0][1], stmt[3:match_close(stmt, 2)], env)
            return
        # a field of default interpreter options changed: a smaller step
        # budget is read (Budget), anything else is not
        if len(stmt) > 3 and stmt[0][0] == "ident" and stmt[1][1] == "." and \
                (env.get(stmt[0][1]) is DEFAULT_OPTIONS or
                 isinstance(env.get(stmt[0][1]), Budget)) and any(t[1] == "=" for t in stmt):
            n = self.eval(stmt[4:], env) if len(stmt) > 4 and stmt[3][1] == "=" else None
            if stmt[2][1] == "max_steps" and isinstance(n, int) and \
                    not isinstance(n, bool) and 0 < n < DEFAULT_MAX_STEPS:
                env[stmt[0][1]] = Budget(n)
            else:
                env[stmt[0][1]] = UNKNOWN
            return
        # assignment `x = expr`
        if len(stmt) > 2 and stmt[0][0] == "ident" and stmt[1][1] == "=":
            env[stmt[0][1]] = self.eval(stmt[2:], env)
            self.implicit(stmt[2:], env)
            return
        if len(stmt) > 4 and stmt[0][0] == "ident" and stmt[1][1] == "." and \
                stmt[2][1] == "push_str" and stmt[3][1] == "(" and \
                isinstance(env.get(stmt[0][1]), str):
            add = self.eval(stmt[4:match_close(stmt, 3)], env)
            if isinstance(add, str):
                env[stmt[0][1]] = env[stmt[0][1]] + add
                return
            env[stmt[0][1]] = Taint(self.taint_of(env[stmt[0][1]]) | self.taint_of(add))
            return
        self.eval(stmt, env)  # a helper called for its assertions
        self.implicit(stmt, env)

    # ---- expectations ---------------------------------------------------
    def note(self, progs, strength, kind, codes):
        if len(progs) != 1 or progs & self.tampered:
            return
        if kind != "output" and codes and all(c[4] in BACKEND for c in codes if c[:4] == "SPX-"):
            kind = "backend"
        (p,) = progs
        if self.helper_depth:
            strength = min(strength, 1)
        self.expect.setdefault(p, []).append((strength, kind, tuple(codes),
                                              "%s::%s" % (self.path, self.test)))

    def codes_in(self, toks, env):
        """The SPX codes a statement names, in order; `"A" | "B"` (inside
        `matches!`) is one entry "A|B": either agrees."""
        out = []
        alt = False
        for k, t in enumerate(toks):
            if t[1] == "|" and out and k > 0 and toks[k - 1][0] == "str" and \
                    CODE_RE.match(toks[k - 1][2] or ""):
                alt = True
                continue
            v = None
            if t[0] == "str":
                v = t[2]
            elif t[0] == "ident" and isinstance(env.get(t[1]), str):
                v = env[t[1]]
            if isinstance(v, str) and CODE_RE.match(v):
                if alt:
                    out[-1] = out[-1] + "|" + v
                elif v not in out:
                    out.append(v)
            alt = False
        return out

    def assertion(self, mac, args, env):
        # the names it calls, not the text of its literals (a message saying
        # "invalidate" or "projected" is no validator or project)
        text = " ".join(t[1] for t in args if t[0] != "str")
        if any(s in text for s in SKIP_ASSERT):
            return
        parts = split_top(args)
        nval = 2 if mac in ("assert_eq", "assert_ne") else 1
        parts = parts[:nval]
        if self.read_interpreter(mac, parts, env) or self.read_exit(mac, parts, env):
            return
        self.read_details(mac, parts, env)
        flat = [t for p in parts for t in p]
        progs = set()
        for p in parts:
            progs |= self.taint_of(self.eval(p, env))
        codes = self.codes_in(flat, env)
        negated = mac == "assert_ne" or any(
            t[1] == "!" and (k == 0 or flat[k - 1][0] != "ident")
            for k, t in enumerate(flat))
        # `.all(|d| d.code != "SPX-…")`: the code must NOT appear
        negated = negated or any(
            t[1] == "!=" and any(u[0] == "str" and CODE_RE.match(u[2] or "")
                                 for u in flat[max(k - 1, 0):k + 2])
            for k, t in enumerate(flat))
        words = {t[1] for t in flat if t[0] == "ident"}
        if codes:
            if not negated:
                lane = bool(words & LANE_WORDS)
                self.note(progs, 2, "backend" if lane else "reject", codes)
            return
        if "is_empty" in words:
            # `x.field.is_empty()` over a tree (`resolved.functions`,
            # `plan.slots`) says nothing about the program's diagnostics
            for k, t in enumerate(flat):
                if t[1] == "is_empty" and k >= 3 and flat[k - 1][1] == "." and \
                        flat[k - 2][0] == "ident" and flat[k - 3][1] == "." and \
                        flat[k - 2][1] not in DIAGNOSTIC_FIELDS:
                    return
            self.note(progs, 2, "reject" if negated else "accept", ())
            return
        vals = [self.eval(p, env) for p in parts]
        if mac == "assert_eq" and len(vals) == 2 and not negated and \
                any(isinstance(v, RunOut) for v in vals) and any(isinstance(v, str) for v in vals):
            run = [v for v in vals if isinstance(v, RunOut)][0]
            text = [v for v in vals if isinstance(v, str)][0]
            self.note(set(run.progs), 2, "output", (text,))
            return
        if "stdout" in words and mac == "assert_eq" and len(parts) == 2 and not negated:
            # a program's output, compiled or interpreted: with no program
            # in the assertion itself, the one program the test handled;
            # `stdout["schema"]` is a field of a JSON report, not an output
            if any(len(p) > 1 and p[0][1] == "stdout" and p[1][1] == "[" for p in parts):
                return
            text = [v for v in (self.eval(p, env) for p in parts) if isinstance(v, str)]
            if len(text) == 1 and not CODE_RE.match(text[0]):
                if not progs and len(self.touched) == 1:
                    progs = set(self.touched)
                if not self.driver:
                    self.note(progs, 2, "output", (text[0],))
            return
        if mac == "assert_eq" and len(parts) == 2 and \
                [t[1] for t in parts[1]][-4:] in (["::", "new", "(", ")"],) and \
                any(w in words for w in ("codes", "error_codes", "errors",
                                         "diagnostics", "diagnostic_codes", "verify")):
            self.note(progs, 2, "accept", ())
            return
        if "is_ok" in words or "is_err" in words:
            parse_only = "parse" in words and not (words & VERIFYING) and \
                "verify" not in words
            ok = ("is_ok" in words) != negated
            if not ok and words & LANE_WORDS:
                return  # a lane refusing (`wasm::emit_…(…).is_err()`) is no check verdict
            if parse_only:
                self.note(progs, 1, "parse-ok" if ok else "parse-err", ())
            else:
                self.note(progs, 2, "accept" if ok else "reject", ())

    def implicit(self, toks, env):
        """`.unwrap()` / `.unwrap_err()` right after a verifying call, and
        `diagnostics.iter().find(|d| d.code == "SPX-…").expect(…)`."""
        words = [t[1] for t in toks]
        if any(w in ("unwrap", "expect", "unwrap_or_else") for w in words):
            for t in toks:
                v = env.get(t[1]) if t[0] == "ident" else None
                if isinstance(v, CodeHit):
                    self.note(set(v.progs), 2, "reject", v.codes)
                    break
        if "code" in words and "==" in words and \
                any(w in ("expect", "unwrap", "unwrap_or_else") for w in words):
            codes = self.codes_in(toks, env)
            negated = any(t[1] == "!" and (k == 0 or toks[k - 1][0] != "ident")
                          for k, t in enumerate(toks))
            if codes and not negated:
                progs = set()
                for t in toks:
                    if t[0] == "ident" and t[1] in env:
                        progs |= self.taint_of(env[t[1]])
                self.note(progs, 2, "reject", codes)
        for i, t in enumerate(toks):
            if t[0] != "ident" or i + 1 >= len(toks) or toks[i + 1][1] != "(":
                continue
            if t[1] not in VERIFYING and t[1] != "parse":
                continue
            ce = match_close(toks, i + 1)
            if ce + 2 < len(toks) and toks[ce + 1][1] == "." and \
                    toks[ce + 2][1] in ("unwrap", "expect", "unwrap_err", "expect_err",
                                        "unwrap_or_else"):
                args = split_top(toks[i + 2:ce])
                if not args:
                    continue
                progs = self.taint_of(self.eval(args[0], env))
                err = toks[ce + 2][1].endswith("err")
                if t[1] == "parse":
                    self.note(progs, 0, "parse-err" if err else "parse-ok", ())
                else:
                    rest = toks[ce + 3:]
                    codes = self.codes_in(rest, env) if err else []
                    lane = err and t[1] in LANE_WORDS
                    self.note(progs, 1, "backend" if lane else
                              "reject" if err else "accept", codes)

    # ---- expressions ----------------------------------------------------
    def eval(self, toks, env):
        try:
            self.depth += 1
            if self.depth > 40:
                return UNKNOWN
            return self._eval(toks, env)
        except (IndexError, ValueError, KeyError, TypeError):
            return self.taint_all(toks, env)
        finally:
            self.depth -= 1

    def taint_all(self, toks, env):
        progs = set()
        for t in toks:
            if t[0] == "str" and looks_like_program(t[2]):
                progs.add(self.prog(t[2]))
            elif t[0] == "ident" and t[1] in env:
                progs |= self.taint_of(env[t[1]])
            elif t[0] == "ident" and t[1] in self.consts:
                progs |= self.taint_of(self.consts[t[1]])
        return Taint(progs)

    def _eval(self, toks, env):
        toks = list(toks)
        while toks and toks[0][1] in ("&", "*", "mut") or \
                (len(toks) > 1 and toks[0][1] == "move"):
            toks = toks[1:]
        if not toks:
            return UNKNOWN
        # binary + (string concatenation) at top level
        parts = split_top(toks, "+")
        if len(parts) > 1 and all(parts):
            vals = [self.eval(p, env) for p in parts]
            if all(isinstance(v, str) for v in vals):
                return "".join(vals)
            if all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
                return sum(vals)
            return self.taint_all(toks, env)
        v, i = self.primary(toks, env)
        while i < len(toks):
            t = toks[i]
            if t[1] == "." and i + 1 < len(toks):
                name = toks[i + 1][1]
                if i + 2 < len(toks) and toks[i + 2][1] in ("(", "::"):
                    j = i + 2
                    if toks[j][1] == "::":  # turbofish
                        while j < len(toks) and toks[j][1] != "(":
                            j += 1
                    ce = match_close(toks, j)
                    h = self.closure(toks[j + 1:ce]) if (name == "map" and isinstance(v, Seq)) or \
                        (name in ("or_else", "map") and isinstance(v, Envelope) and
                         not v.path) else None
                    if h is not None and name == "map" and isinstance(v, Envelope):
                        # `interpret(…).map(|run| run.envelope)`: the envelope
                        alt = self.eval(h.body, dict(env, **{h.params[0]: v})) \
                            if len(h.params) == 1 else None
                        v = alt if isinstance(alt, Envelope) and alt.progs == v.progs \
                            else Taint(self.taint_of(v))
                    elif h is not None and name == "or_else":
                        # `interpret(…).or_else(|_| internal_strings::interpret(…))`
                        alt = self.eval(h.body, env)
                        same = isinstance(alt, Envelope) and alt.profile == "strings" and \
                            v.profile is None and (alt.progs, alt.entry, alt.args, alt.path) == \
                            (v.progs, v.entry, v.args, v.path)
                        v = Envelope(v.progs, v.entry, (), v.args, "fallback") if same \
                            else Taint(self.taint_of(v))
                    elif h is not None and len(h.params) == 1:
                        # `.map(|a| a.to_string())` over known values
                        v = Seq([self.eval(h.body, dict(env, **{h.params[0]: x}))
                                 for x in v.items])
                    else:
                        args = [self.eval(a, env) for a in split_top(toks[j + 1:ce])]
                        v = self.method(v, name, args)
                    i = ce + 1
                else:
                    v = self.taint_all([], env) if not isinstance(v, Taint) else v
                    if isinstance(v, Envelope):
                        v = self.envelope_field(v, name)
                    if isinstance(v, Seq) and toks[i + 1][0] == "num":
                        k = int(toks[i + 1][1])
                        v = v.items[k] if k < len(v.items) else UNKNOWN
                    elif not isinstance(v, Taint):
                        v = UNKNOWN
                    i += 2
            elif t[1] == "?":
                i += 1
            elif t[1] == "[":
                ce = match_close(toks, i)
                idx = self.eval(toks[i + 1:ce], env)
                if isinstance(v, Seq) and [x[1] for x in toks[i + 1:ce]] == [".."]:
                    pass  # `&[…][..]`: the whole slice
                elif isinstance(v, Seq) and isinstance(idx, int) and idx < len(v.items):
                    v = v.items[idx]
                elif isinstance(v, Envelope):
                    v = self.envelope_index(v, idx)
                else:
                    v = Taint(self.taint_of(v))
                i = ce + 1
            elif t[1] == "as":
                i += 2
            else:
                # an operator we do not model: everything it touches taints
                return self.taint_all(toks, env)
        return v

    def method(self, v, name, args):
        if isinstance(v, (Cli, CliOut, Fixture)):
            r = self.cli_method(v, name, args)
            if r is not None:
                return r
        if (v is DEFAULT_OPTIONS or isinstance(v, Budget)) and name in ("unwrap", "expect",
                                                                         "clone"):
            return v
        if isinstance(v, (Revision, GraphJson)) and name in (
                "unwrap", "expect", "clone", "to_string", "to_owned", "as_str", "as_ref",
                "trim", "trim_end"):
            return v
        if isinstance(v, (Canonical, Reparsed)) and name in (
                "unwrap", "expect", "clone", "to_string", "to_owned", "as_str", "as_ref"):
            return v
        if isinstance(v, Envelope):
            r = self.envelope_method(v, name)
            if r is not None:
                return r
        if isinstance(v, int) and not isinstance(v, bool) and name == "to_string":
            return str(v)
        if isinstance(v, str):
            if name in ("to_string", "to_owned", "clone", "as_str", "into", "as_ref",
                        "to_vec", "borrow", "deref"):
                return v
            if name == "replace" and len(args) == 2 and all(isinstance(a, str) for a in args):
                return v.replace(args[0], args[1])
            if name == "replacen" and len(args) == 3 and isinstance(args[0], str) and \
                    isinstance(args[1], str) and isinstance(args[2], int):
                return v.replace(args[0], args[1], args[2])
            if name == "trim":
                return v.strip()
            if name == "trim_start":
                return v.lstrip()
            if name == "trim_end":
                return v.rstrip()
            if name == "repeat" and args and isinstance(args[0], int):
                return v * args[0]
        if isinstance(v, Seq):
            if name in ("iter", "into_iter", "to_vec", "clone", "copied", "cloned",
                        "as_slice", "collect"):
                return v
            if name == "enumerate":
                return Seq([Seq([k, x]) for k, x in enumerate(v.items)])
            if name in ("concat", "join") and all(isinstance(x, str) for x in v.items):
                sep = args[0] if name == "join" and args and isinstance(args[0], str) else ""
                return sep.join(v.items)
        progs = self.taint_of(v)
        for a in args:
            progs |= self.taint_of(a)
        return Taint(progs)

    def primary(self, toks, env):
        t = toks[0]
        if t[0] == "str":
            return (t[2] if t[2] is not None else UNKNOWN), 1
        if t[0] == "char" and t[1].startswith("b'"):
            c = char_value(("char", t[1][1:]))  # a byte literal: its value
            return (ord(c) if c is not None else UNKNOWN), 1
        if t[0] == "num":
            s = t[1].rstrip("usizeiu0123456789") or t[1]
            m = re.match(r"0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9_]+", t[1])
            return (int(m.group(0).replace("_", ""), 0 if m.group(0)[:2] in ("0x", "0o", "0b")
                        else 10) if m else UNKNOWN), 1
        if t[1] == "(":
            ce = match_close(toks, 0)
            parts = split_top(toks[1:ce])
            inner = toks[1:ce]
            if len(parts) == 1 and not (inner and inner[-1][1] == ","):
                return self.eval(parts[0], env), ce + 1
            return Seq([self.eval(p, env) for p in parts]), ce + 1
        if t[1] == "[":
            ce = match_close(toks, 0)
            inner = toks[1:ce]
            if any(x[1] == ";" for x in inner):
                return self.taint_all(inner, env), ce + 1
            return Seq([self.eval(p, env) for p in split_top(inner)]), ce + 1
        if t[1] in ("|", "||"):  # closure: taint by its captures, not its parameters
            clo = self.closure(toks)
            inner = {k: v for k, v in env.items() if k not in (clo.params if clo else ())}
            return self.taint_all(clo.body if clo else toks, inner), len(toks)
        if t[0] != "ident":
            return self.taint_all(toks, env), len(toks)
        # path a::b::c
        i = 1
        path = [t[1]]
        while i + 1 < len(toks) and toks[i][1] == "::":
            if toks[i + 1][1] == "<":  # turbofish
                depth = 0
                j = i + 1
                while j < len(toks):
                    if toks[j][1] == "<":
                        depth += 1
                    elif toks[j][1] == ">":
                        depth -= 1
                        if depth == 0:
                            break
                    elif toks[j][1] == ">>":
                        depth -= 2
                        if depth <= 0:
                            break
                    j += 1
                i = j + 1
                continue
            path.append(toks[i + 1][1])
            i += 2
        name = path[-1]
        if i < len(toks) and toks[i][1] == "!" and i + 1 < len(toks) and \
                toks[i + 1][1] in ("(", "["):
            ce = match_close(toks, i + 1)
            inner = toks[i + 2:ce]
            return self.macro(name, inner, env), ce + 1
        if i < len(toks) and toks[i][1] == "(":
            ce = match_close(toks, i)
            argt = split_top(toks[i + 1:ce])
            args = [self.eval(a, env) for a in argt]
            c = self.cli_call(path, argt, args)
            if c is not None:
                return c, ce + 1
            if path[-1] in ("build_web", "build_web_with_scalar_exports") and \
                    len(argt) >= 2:
                # the directory a program's Wasm package is built into
                names = [t[1] for t in argt[1] if t[0] == "ident"]
                if len(names) == 1:
                    env["#web " + names[0]] = set(self.taint_of(args[0]))
            if path[-2:] == ["fs", "write"] and len(args) == 2 and \
                    isinstance(args[1], str) and self.test:
                # a JavaScript probe written into that directory
                # (`fs::write(web.join("probe.mjs"), …)`)
                names = [t[1] for t in argt[0] if t[0] == "ident"]
                if names and isinstance(env.get("#web " + names[0]), set):
                    self.probe_detail(env["#web " + names[0]], args[1])
            d = self.detail_call(path, argt, args, env)
            if d is not None:
                return d, ce + 1
            return self.call(path, args, env), ce + 1
        if i < len(toks) and toks[i][1] == "{" and name[:1].isupper():
            ce = match_close(toks, i)
            return self.taint_all(toks[i:ce + 1], env), ce + 1
        if len(path) == 1:
            if name in env:
                return env[name], i
            if name in self.consts:
                return self.consts[name], i
            if name in ("true", "false"):
                return (name == "true"), i
        if name == "DEFAULT_MAX_STEPS" and (len(path) > 1 or name not in env):
            return DEFAULT_MAX_STEPS, i
        return UNKNOWN, i

    def call(self, path, args, env):
        name = path[-1]
        if len(path) >= 2 and path[-2] in TOOL_MODULES:
            return UNKNOWN
        if name in ("from", "new", "to_string", "to_owned") and len(args) == 1 and \
                isinstance(args[0], str) and path[0] in ("String", "str", "Cow", "Box"):
            return args[0]
        if name in ("new", "default") and not args and path[0] == "String":
            return ""
        if name == "new" and path == ["Path", "new"] and len(args) == 1 and \
                isinstance(args[0], str) and args[0] in (self.files or {}) and \
                args[0].startswith("examples/") and args[0].endswith(".spx"):
            # a path to one of the reference's examples, relative to its
            # root: that file's program (read where the interpreter is given
            # the path)
            return ExamplePath(args[0], self.files[args[0]])
        if name in ("Some", "Ok", "Box", "Rc", "Arc") and len(args) == 1:
            return args[0]
        if name == "replace_once" and len(args) == 3 and all(isinstance(a, str) for a in args):
            return args[0].replace(args[1], args[2], 1)
        h = None
        closure = False
        if len(path) == 1:
            closure = isinstance(env.get(name), Helper)
            h = env[name] if closure else self.helpers.get(name)
        progs = set()
        for a in args:
            progs |= self.taint_of(a)
        if closure and h is not None and len(h.params) == len(args) and not progs:
            # a closure over the test's bindings (`let expects = |id, why| {
            # … interpret(&path, id, …) … }`): what it captures
            for t in h.body:
                if t[0] == "ident" and t[1] not in h.params and t[1] in env and \
                        not isinstance(env[t[1]], Helper):
                    progs |= self.taint_of(env[t[1]])
        if h is not None and not h.params and not args:
            # a zero-argument helper over a const program (`fn program()`)
            progs = set(self.taint_all(h.body, {}).progs)
        if h is not None and len(h.params) == len(args) and self.test and \
                any(t[0] == "str" and t[2] == "CARGO_BIN_EXE_semaprax" for t in h.body):
            # a helper running our binary: the statuses it states and returns
            v = self.cli_helper(h, dict(zip(h.params, args)))
            if isinstance(v, CliOut) or isinstance(v, Seq) and \
                    any(isinstance(x, CliOut) for x in v.items):
                return v
        if h is not None and len(h.params) == len(args):
            env2 = dict(zip(h.params, args))
            v = self.helper_value(h, env2)
            if isinstance(v, (str, Envelope)) or \
                    isinstance(v, Seq) and all(isinstance(x, str) for x in v.items):
                # a string, an envelope, or strings (`owned_args(&["1"])`)
                return v
            built = self.helper_made - progs
            made = [self.programs[i][1] for i in built]
            if built and all(any(self.programs[i][1] in m for m in made) for i in progs):
                # a helper that builds its program from fragments (`let
                # source = format!("module …{body}…")`): the built program,
                # not the fragments handed to it
                progs = set(built)
            if len(progs) == 1 and self.test and self.node_helper(h):
                # a helper running the program's Wasm module under a
                # JavaScript probe it is given: what the probe asserts
                for a in args:
                    if isinstance(a, str):
                        self.probe_detail(progs, a)
            words = {t[2] if t[0] == "str" else t[1] for t in h.body}
            if progs and "stdout" in words and "CARGO_BIN_EXE_semaprax" in words and \
                    "run" in words:
                return RunOut(progs)
            if progs and self.helper_depth < 3 and self.test:
                # what the helper asserts or unwraps about its argument,
                # as a weaker expectation than the test's own
                self.helper_depth += 1
                driver = self.driver
                # a helper that runs the program under its own C or
                # JavaScript driver asserts that driver's output
                self.driver = driver or any(t[0] == "str" and t[2] and any(
                    w in t[2] for w in DRIVER_WORDS) for t in h.body)
                try:
                    self.block(h.body, dict(env, **dict(zip(h.params, args))) if closure
                               else dict(zip(h.params, args)))
                finally:
                    self.helper_depth -= 1
                    self.driver = driver
        return Taint(progs)

    def probe_detail(self, progs, js):
        """What a JavaScript probe of one program's Wasm module states of
        its `main` (probe_conds), as a run detail of that program."""
        if len(progs) != 1:
            return
        (p,) = progs
        m = MAIN_ID.search(self.programs[p][1])
        conds = probe_conds(js) if m else None
        if conds:
            self.note_detail(set(progs), ("run", m.group(1), conds))

    @staticmethod
    def node_helper(h):
        """A helper that runs the program under Node (`run_wasm`): what the
        test then compares is that driver's output, not `run`'s."""
        return any(t[0] == "str" and t[2] == "node" for t in h.body)

    def helper_value(self, h, env):
        """A helper's final expression when it builds a string."""
        body = h.body
        # statements before the tail: only `let`
        stmts = []
        cur = []
        i = 0
        while i < len(body):
            t = body[i]
            if t[1] in ("(", "[", "{"):
                j = match_close(body, i)
                cur.extend(body[i:j + 1])
                i = j + 1
                continue
            if t[1] == ";":
                stmts.append(cur)
                cur = []
            else:
                cur.append(t)
            i += 1
        env = dict(env)
        saved = self.expect, self.details, set(self.tampered), set(self.touched)
        # a helper's own assertions belong to no case
        self.expect = {}
        self.details = {}
        impure = False  # statements other than `let` run: only an envelope counts
        out = [UNKNOWN]   # the tail's value, whatever is returned
        try:
            for s in stmts:
                if s and s[0][1] == "let":
                    self.statement(s, env)
                elif s and s[0][1] == "return":
                    out[0] = self.eval(s[1:], env)
                    return out[0] if not impure or isinstance(out[0], Envelope) else UNKNOWN
                elif s and s[0][0] == "ident" and s[0][1] not in ("assert", "assert_eq",
                                                                  "assert_ne", "if", "for"):
                    impure = True
                    self.statement(s, env)
                else:
                    return UNKNOWN
            if not cur:
                return UNKNOWN
            out[0] = self.eval(cur, env)
            return out[0] if not impure or isinstance(out[0], Envelope) else UNKNOWN
        finally:
            self.expect, self.details, self.tampered, self.touched = saved
            # the programs the helper built: its bindings' and, for one
            # built inline (`parse(&module_of(expr))…`), its value's
            self.helper_made = set(self._taint_of(out[0]))
            for v in env.values():
                self.helper_made |= self._taint_of(v)

    def macro(self, name, inner, env):
        if name == "format":
            parts = split_top(inner)
            if not parts or parts[0][0][0] != "str" or parts[0][0][2] is None:
                return self.taint_all(inner, env)
            fmt = parts[0][0][2]
            pos = []
            named = {}
            for p in parts[1:]:
                if len(p) > 2 and p[0][0] == "ident" and p[1][1] == "=":
                    named[p[0][1]] = self.eval(p[2:], env)
                else:
                    pos.append(self.eval(p, env))
            # a format string is never a program text itself (its braces
            # are doubled): when the arguments are unknown, the result
            # derives from the arguments' programs only
            # `format!("{graph}\n")` of a graph: the graph (a snapshot is
            # compared field by field, the newline does not matter)
            m = re.fullmatch(r"\{(\w*)\}\n?", fmt)
            if m and len(pos) + len(named) == (0 if m.group(1) else 1):
                g = pos[0] if pos else named.get(m.group(1), env.get(m.group(1)))
                if isinstance(g, GraphJson):
                    return g
            formatted = self.format(fmt, pos, named, env)
            if formatted is not None:
                return formatted
            return self.taint_all([t for p in parts[1:] for t in p], env)
        if name == "concat":
            vals = [self.eval(p, env) for p in split_top(inner)]
            if all(isinstance(v, str) for v in vals):
                return "".join(vals)
            return self.taint_all(inner, env)
        if name == "include_str":
            parts = split_top(inner)
            rel = self.eval(parts[0], env) if parts else None
            if isinstance(rel, str) and self.files is not None:
                base = self.path.rsplit("/", 1)[0]
                path = normpath(base + "/" + rel)
                if path in self.files:
                    return self.files[path]
            return UNKNOWN
        if name == "vec":
            if any(x[1] == ";" for x in inner):
                return self.taint_all(inner, env)
            return Seq([self.eval(p, env) for p in split_top(inner)])
        return self.taint_all(inner, env)

    def format(self, fmt, pos, named, env):
        out = []
        i = 0
        k = 0
        while i < len(fmt):
            c = fmt[i]
            if fmt.startswith("{{", i):
                out.append("{")
                i += 2
                continue
            if fmt.startswith("}}", i):
                out.append("}")
                i += 2
                continue
            if c == "{":
                j = fmt.index("}", i)
                spec = fmt[i + 1:j]
                arg = spec.split(":")[0]
                debug = spec.split(":")[1:] == ["?"]
                if spec.split(":")[1:] not in ([], [""]) and not debug:
                    return None
                if arg == "":
                    v = pos[k] if k < len(pos) else None
                    k += 1
                elif arg.isdigit():
                    v = pos[int(arg)] if int(arg) < len(pos) else None
                elif arg in named:
                    v = named[arg]
                else:
                    v = env.get(arg, self.consts.get(arg))
                if isinstance(v, bool):
                    v = "true" if v else "false"
                if isinstance(v, int):
                    v = str(v)
                elif debug and isinstance(v, str):
                    v = rust_debug_str(v)
                if not isinstance(v, str):
                    return None
                out.append(v)
                i = j + 1
                continue
            out.append(c)
            i += 1
        return "".join(out)


def rust_debug_str(s):
    """`format!("{:?}", s)` of a string: quoted, with Rust's escapes for a
    backslash, a quote, newline, return, tab, NUL and other controls."""
    out = ['"']
    for ch in s:
        if ch in '\\"':
            out.append("\\" + ch)
        elif ch in "\n\r\t\0":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7f:
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# a JavaScript probe's statement about the exported `main`: its value
# (`semaprax_main()!==7n`) or its failure (`status.domain_id!=='d'`,
# `status.code!==N`, then `throw error`)
PROBE_VALUE = re.compile(r"semaprax_main\(\)\s*!==\s*(-?[0-9]+)n\b")
PROBE_DOMAIN = re.compile(r"status\.domain_id\s*!==\s*(['\"])([A-Za-z0-9_.-]+)\1")
MAIN_ID = re.compile(r'@id\("([^"]+)"\)\s*fn\s+main\s*\(')
PROBE_CODE = re.compile(r"status\.code\s*!==\s*([0-9]+)\b")


def probe_conds(js):
    """The outcome of `main` a JavaScript probe of the program's Wasm
    module asserts (LANGUAGE.md §0.2: the lanes agree), as run conditions,
    or None."""
    if js.count("semaprax_main(") != 1:
        return None
    m = PROBE_VALUE.search(js)
    if m and "status" not in js:
        return (("json", ("payload", "outcome", "value"), m.group(1)),)
    d, c = PROBE_DOMAIN.findall(js), PROBE_CODE.findall(js)
    if not m and len(d) == 1 and len(c) == 1 and "semaprax_main()" in js and \
            "throw error" in js:
        return (("json", ("payload", "outcome", "kind"), "failed"),
                ("json", ("payload", "outcome", "status", "domain_id"), d[0][1]),
                ("json", ("payload", "outcome", "status", "code"), int(c[0])))
    return None


def normpath(path):
    out = []
    for part in path.split("/"):
        if part == "..":
            if out:
                out.pop()
        elif part not in ("", "."):
            out.append(part)
    return "/".join(out)


def extract(path, text, files=None, details=None, parent=None):
    """[(key, source, expectation)] for one Rust test file; expectation is
    (kind, codes) with kind 'accept', 'reject', 'parse-ok', 'parse-err',
    'backend' (a lane's code) or 'output' (codes holds the expected stdout),
    or ('conflict', ()) when the file's assertions disagree. With `details`
    (a dict), each program's detail records (details.py) land there by key:
    ('diag', 'first'|'any', CODE, negated, ((field, op, value), …)) with
    field message/help/loc, or ('run', ENTRY, (('contains', text) |
    ('json', path, value), …)); a program with details and no verdict is
    returned with kind 'detail'. `parent` ((path, text)): the file that
    declares this one as its submodule (`#[path = "…"] mod …;`, the child
    starting `use super::*;`): its consts and helpers are the child's too."""
    ex = FileExtractor(path, text, files)
    if parent is not None:
        pex = FileExtractor(parent[0], parent[1], files)
        pex.items(False)
        ex.consts.update(pex.consts)
        ex.helpers.update(pex.helpers)
    programs, expect = ex.run()
    out = []
    for idx, (key, source) in enumerate(programs):
        notes = expect.get(idx)
        if details is not None and ex.details.get(idx):
            details[key] = list(ex.details[idx])
            if not notes:
                out.append((key, source, ("detail", ())))
        if not notes:
            continue
        best = max(n[0] for n in notes)
        checker = [n for n in notes if n[1] in ("accept", "reject")]
        if checker and all(n[1] == "backend" for n in notes if n[0] == best):
            # a lane's refusal says nothing of the checker: a weaker verdict
            # of the checker's (`resolve(…).unwrap_or_else(…)`) stands when
            # it is one
            top = max(n[0] for n in checker)
            if len({n[1] for n in checker if n[0] == top}) == 1:
                best = top
        strong = [n for n in notes if n[0] == best]
        kinds = {n[1] for n in strong}
        if "backend" in kinds and len(kinds) > 1:
            strong = [n for n in strong if n[1] != "backend"]
            kinds.discard("backend")
        if "output" in kinds and kinds <= {"output", "accept"}:
            strong = [n for n in strong if n[1] == "output"]
            kinds = {"output"}
        if kinds == {"parse-ok", "parse-err"} or kinds == {"accept", "reject"}:
            out.append((key, source, ("conflict", ())))
            continue
        kind = strong[0][1]
        codes = []
        for n in strong:
            for c in n[2]:
                if c not in codes:
                    codes.append(c)
        out.append((key, source, (kind, tuple(codes))))
    return out
