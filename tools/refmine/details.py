"""Expectations beyond the verdict (LANGUAGE.md §0.2): what a test states
about a diagnostic's message and help text and its primary span's
line:column, and about the interpreter's outcome of a program's entry.

A diagnostic assertion is read only when the diagnostic it is about is
named by code: inside `.any(|d| d.code == CODE && d.message…)` (any
diagnostic of that code may satisfy it), or a binding the test tied to
one code (`let d = found.iter().find(|d| d.code == CODE)…`, or
`assert_eq!(d.code, CODE)` before; the first diagnostic of that code must
satisfy it). Read: `.message.contains(…)` / `.starts_with(…)` /
`.ends_with(…)`, `.message == …` and `assert_eq!(d.message, …)`, the same
of `.help` (through `as_deref`/`unwrap_or_default`/…, a `let` bound to it,
or a one-parameter helper returning it), `.help.is_none()`, and
`d.span.map(|s| (s.line, s.column))` against `Some((L, C))`. A whole
assertion negated (`assert!(!…)`) states that no diagnostic of the code
satisfies it; a `||` or an inner `!` is not read.

A run assertion is read over `interpreter::interpret(&path, ID, &[],
&options)` with default options and no arguments, after the test wrote the
program to `path`: `.envelope.contains(…)` (conjuncts of `&&` each read),
and `assert_eq!(envelope["payload"]["outcome"]["value"], …)` over the
parsed envelope. Our `run --json` prints the same interpret.v1 envelope;
the entry must be our run's (`main`, by stable id), else the expectation
is not comparable.
"""

import json
import re

from rustlex import match_close, split_top
from values import Taint, Seq, UNKNOWN, ExamplePath

# calls between a diagnostic's field and the comparison that keep its text
ACCESSORS = {"as_deref", "as_ref", "as_str", "clone", "unwrap", "unwrap_or_default",
             "to_string", "to_owned", "expect", "unwrap_or_else", "unwrap_or",
             "unwrap_or_default", "trim"}
FIELDS = ("message", "help", "span")


class DiagField(Taint):
    """`let help = d.help.unwrap_or_default();`: the text of one field of
    the diagnostic bound to `var`, tied to `code` (None: not tied)."""

    def __init__(self, progs, var, field, code, quant):
        Taint.__init__(self, progs)
        self.var = var
        self.field = field
        self.code = code
        self.quant = quant


class Envelope(Taint):
    """The interpreter's envelope for `entry`, or the JSON value at `path`
    of it once parsed (`("#returned",)`: the interpretation's `returned`
    flag)."""

    def __init__(self, progs, entry, path=(), args=(), profile=None, budget=None):
        Taint.__init__(self, progs)
        self.entry = entry
        self.path = path
        self.args = args      # the `--arg` literals, in order
        # None: `interpret`; "strings": `internal_strings::interpret`;
        # "fallback": the first, or the second where it refuses (`.or_else`)
        self.profile = profile
        # None: the default step budget; else a smaller one (Budget)
        self.budget = budget


class Refusal(Taint):
    """`interpret(…).unwrap_err()`: the interpreter's refusal of `entry`
    (its diagnostics), not the checker's."""

    def __init__(self, progs, entry, args=(), profile=None):
        Taint.__init__(self, progs)
        self.entry = entry
        self.args = args
        self.profile = profile


# the reference's `interpreter::DEFAULT_MAX_STEPS`, our `interpret`'s fixed
# budget (TOOLCHAIN.md: `interpret` takes no --max-steps)
DEFAULT_MAX_STEPS = 1000000


class Budget:
    """`InterpreterOptions::new(65536, N)` (or a default whose `max_steps`
    the test set) with N below the default budget: the run stops at N."""

    def __init__(self, steps):
        self.steps = steps


class DiagList(Taint):
    """`found.iter().map(|d| (d.code, d.message…)).collect()` or the same
    through `format!("{} {} | {}", d.code, d.message, d.help…)`: every
    diagnostic of one program, rendered by `template`."""

    def __init__(self, progs, template):
        Taint.__init__(self, progs)
        self.template = template


class OutcomeText(Taint):
    """An envelope's outcome rendered as the reference's tables state it:
    `ok|<value>` when it returned, else `<domain_id>|<code>`."""

    def __init__(self, progs, entry, args=(), profile=None, budget=None):
        Taint.__init__(self, progs)
        self.entry = entry
        self.args = args
        self.profile = profile
        self.budget = budget


def budget_readable(cond):
    """Under a smaller step budget only the outcome's kind, the fuel's
    `exhausted`, the `returned` flag and the one-line outcome are read: the
    rest of that envelope (steps used, limits) is not derivable from our
    run under the default budget (detailcheck.under_budget)."""
    return cond[0] in ("text", "returned") or cond[0] == "json" and cond[1] in (
        ("payload", "outcome", "kind"), ("payload", "fuel", "exhausted"))


def run_record(env, conds):
    """("run", entry, conds) for the entry run without arguments, else
    ("run", entry, conds, args), and ("run", entry, conds, args, profile)
    under the internal-String profile, ("run", entry, conds, args, profile,
    budget) under a step budget below the default: detailcheck.py runs the
    first through `run --json` when the entry is `main`, the rest through
    `interpret` (or `interpret-strings`). A Refusal's conditions are
    ("refused-count", n), ("refused-code", index, code),
    ("refused-message", index, op, text) and ("refused-any", code, text or
    None) (some refusal has the code, and the text in its message)."""
    budget = getattr(env, "budget", None)
    if budget:
        if not all(budget_readable(c) for c in conds):
            return None
        return ("run", env.entry, conds, env.args, env.profile, budget)
    if env.profile:
        return ("run", env.entry, conds, env.args, env.profile)
    if env.args:
        return ("run", env.entry, conds, env.args)
    return ("run", env.entry, conds)


class Canonical(Taint):
    """`format::canonical(&program)` of a program parsed from the case's
    source (level 1), or from such a canonical text parsed again (level 2):
    our `fmt --stdout` applied `level` times."""

    def __init__(self, progs, level):
        Taint.__init__(self, progs)
        self.level = level


class Reparsed(Taint):
    """`parse(&canonical)`: the program a Canonical text parses to."""

    def __init__(self, progs, level):
        Taint.__init__(self, progs)
        self.level = level


class Revision(Taint):
    """`graph::revision(&program)` of a case's program (level 0) or of a
    program parsed from its canonical text `level` times formatted."""

    def __init__(self, progs, level):
        Taint.__init__(self, progs)
        self.level = level


class GraphJson(Taint):
    """`graph::to_json(&program)` of a case's program at `level` (as
    Revision). Our graph is our own (`semaprax.graph.c1`): only fields of
    the same meaning are read (GRAPH_FIELDS), and equality of two graphs."""

    def __init__(self, progs, level):
        Taint.__init__(self, progs)
        self.level = level


# a reference graph field -> where our graph holds the same fact
# (DECISIONS "refmine: revisions and graphs"): the program's revision, its
# module name, its entry's stable id, and the prelude's schema and digest
GRAPH_FIELDS = {("revision",): ("revision",), ("module",): ("module",),
                ("entrypoint",): ("entrypoint",),
                ("prelude", "schema"): ("prelude", 0), ("prelude", "digest"): ("prelude", 1)}
GRAPH_FRAGMENT_RE = re.compile(r'^"(revision|module|entrypoint)":"([^"\\]*)"$')


def graph_fields(text):
    """The mapped fields a stated graph text gives: a whole snapshot (JSON)
    or one `"key":"value"` fragment of a top-level field. [(path, value)]."""
    m = GRAPH_FRAGMENT_RE.match(text)
    if m:
        # a fragment names its key only: read it where it is unique in the
        # reference's graph, the top level (the three keys above)
        return [((m.group(1),), m.group(2))]
    try:
        doc = json.loads(text)
    except ValueError:
        return []
    if not isinstance(doc, dict):
        return []
    out = []
    for path in GRAPH_FIELDS:
        v = doc
        for k in path:
            v = v.get(k) if isinstance(v, dict) else None
        if isinstance(v, str):
            out.append((path, v))
    return out


class DefaultOptions:
    """`InterpreterOptions::default()` not changed since."""


DEFAULT_OPTIONS = DefaultOptions()


def char_value(tok):
    """A Rust char literal's value, or None."""
    if tok[0] != "char":
        return None
    body = tok[1][1:-1]
    if len(body) == 1:
        return body
    return {"\\n": "\n", "\\t": "\t", "\\'": "'", "\\\\": "\\", "\\\"": "\""}.get(body)


class DetailReader:
    """Mixed into FileExtractor: `self.details` maps a program's index to
    its detail records (see extract())."""

    def text_value(self, toks, env):
        if len(toks) == 1 and toks[0][0] == "char":
            return char_value(toks[0])
        v = self.eval(toks, env)
        if isinstance(v, Seq) and len(v.items) == 1:
            v = v.items[0]
        return v if isinstance(v, str) else None

    def note_detail(self, progs, record):
        if record is None or len(progs) != 1 or progs & self.tampered:
            return
        (p,) = progs
        lst = self.details.setdefault(p, [])
        if record not in lst:
            lst.append(record)

    # ---- lets -----------------------------------------------------------
    def let_details(self, pat, rhs, env):
        """Bindings that tie a name to a diagnostic of one code, or to a
        field of such a diagnostic."""
        names = [t[1] for t in pat if t[0] == "ident" and t[1] != "mut"]
        if len(names) != 1:
            return
        name = names[0]
        outcome = self.outcome_text(rhs, env)
        if outcome is not None:
            env[name] = outcome
            return
        env.pop("#diag:" + name, None)
        env.pop("#diag:%s[0]" % name, None)
        env.pop("#filtered:" + name, None)
        words = [t[1] for t in rhs]
        lst = self.diag_list(rhs, env)
        if lst is not None:
            env[name] = lst
            return
        if any(w in words for w in ("filter", "find", "retain", "position", "skip", "rev")):
            env["#filtered:" + name] = True
        if any(w in words for w in ("find", "filter")) and "code" in words and "==" in words \
                and "||" not in words and "map" not in words:
            codes = self.codes_in(rhs, env)
            if len(codes) == 1 and "|" not in codes[0]:
                # `find(…)` is the diagnostic; `filter(…)…collect()` a list
                # whose [0] is the first of that code
                if "find" in words or "next" in words:
                    env["#diag:" + name] = codes[0]
                else:
                    env["#diag:%s[0]" % name] = codes[0]
            return
        code = self.helper_tie(rhs, env)
        if code is not None:
            env["#diag:" + name] = code
            return
        sub = self.subject(rhs, 0, env) if rhs else None
        end = sub[3] if sub else 0
        while sub and end + 2 < len(rhs) and rhs[end][1] == "." and \
                rhs[end + 1][1] in ACCESSORS and rhs[end + 2][1] == "(":
            end = match_close(rhs, end + 2) + 1
        if sub is not None and end == len(rhs) and sub[1] in ("message", "help"):
            var, field, progs, _ = sub
            code = env.get("#diag:" + var)
            env[name] = DiagField(progs, var, field, code, "first")

    def helper_tie(self, rhs, env):
        """`only(source, "SPX-…")`: a file helper that returns the
        diagnostic whose code equals one of its parameters."""
        if len(rhs) < 3 or rhs[0][0] != "ident" or rhs[1][1] != "(" or \
                match_close(rhs, 1) != len(rhs) - 1:
            return None
        h = self.helpers.get(rhs[0][1])
        if h is None:
            return None
        body = [t[1] for t in h.body]
        if "message" in body or "map" in body or not any(w in body for w in ("find", "filter")):
            return None
        for k in range(len(body) - 2):
            if body[k] == "code" and body[k + 1] == "==" and body[k + 2] in h.params:
                args = split_top(rhs[2:-1])
                i = h.params.index(body[k + 2])
                if i < len(args):
                    c = self.codes_in(args[i], env)
                    if len(c) == 1 and len(args[i]) <= 2 and "|" not in c[0]:
                        return c[0]
        return None

    def diag_list(self, toks, env):
        """A DiagList for `ID.iter().map(|d| …).collect…`, or None."""
        toks = [t for t in toks if t[1] != "&"] if toks[:1] and toks[0][1] == "&" else toks
        w = [t[1] for t in toks]
        if len(w) < 10 or toks[0][0] != "ident" or w[1:6] != [".", "iter", "(", ")", "."] or \
                w[6] != "map" or w[7] != "(":
            return None
        if env.get("#filtered:" + w[0]) or "#diag:" + w[0] in env:
            return None
        ce = match_close(toks, 7)
        if w[ce + 1:ce + 3] != [".", "collect"]:
            return None
        clo = toks[8:ce]
        if len(clo) < 4 or clo[0][1] != "|" or clo[2][1] != "|" or clo[1][0] != "ident":
            return None
        p = clo[1][1]
        body = clo[3:]
        if body and body[0][1] == "{" and match_close(body, 0) == len(body) - 1:
            body = body[1:-1]

        def field(part):
            pw = [t[1] for t in part]
            if len(pw) < 3 or pw[0] != p or pw[1] != ".":
                return None
            f = pw[2]
            rest = pw[3:]
            if f in ("code", "message") and rest in ([], [".", "as_str", "(", ")"],
                                                     [".", "clone", "(", ")"],
                                                     [".", "to_string", "(", ")"],
                                                     [".", "to_owned", "(", ")"]):
                return f
            if f == "help" and rest in ([".", "as_deref", "(", ")", ".", "unwrap_or", "(",
                                         '""', ")"],):
                return f
            return None
        bw = [t[1] for t in body]
        if body and body[0][1] == "(" and match_close(body, 0) == len(body) - 1:
            fields = [field(x) for x in split_top(body[1:-1])]
            template = ("tuple", None, tuple(fields))
        elif bw[:3] == ["format", "!", "("] and match_close(body, 2) == len(body) - 1:
            parts = split_top(body[3:-1])
            if not parts or parts[0][0][0] != "str" or len(parts[0]) != 1:
                return None
            fmt = parts[0][0][2]
            fields = [field(x) for x in parts[1:]]
            if fmt is None or fmt.count("{}") != len(fields) or \
                    fmt.replace("{}", "").count("{") or fmt.replace("{}", "").count("}"):
                return None
            template = ("format", fmt, tuple(fields))
        else:
            return None
        if None in template[2]:
            return None
        progs = self.var_progs(w[0], env)
        if not progs or len(progs) != 1:
            return None
        return DiagList(progs, template)

    def read_list(self, parts, env):
        """assert_eq! of a DiagList against a literal list."""
        for a, b in ((parts[0], parts[1]), (parts[1], parts[0])):
            lst = self.diag_list(a, env)
            if lst is None:
                v = self.eval(a, env) if a else None
                lst = v if isinstance(v, DiagList) else None
            if lst is None:
                continue
            want = self.eval(b, env)
            if not isinstance(want, Seq):
                return True
            items = []
            for it in want.items:
                if lst.template[0] == "tuple":
                    if not isinstance(it, Seq) or len(it.items) != len(lst.template[2]) or \
                            not all(isinstance(x, str) for x in it.items):
                        return True
                    items.append(tuple(it.items))
                else:
                    if not isinstance(it, str):
                        return True
                    items.append(it)
            self.note_detail(set(lst.progs), ("list", lst.template, tuple(items)))
            return True
        return False

    # ---- subjects ------------------------------------------------------
    def subject(self, toks, k, env):
        """(var, field, progs, end) when toks[k:] starts with a diagnostic's
        field: `d.message`, `d[0].help`, a DiagField binding, `help(&d)`."""
        if k > 0 and toks[k - 1][1] in (".", "::"):
            return None
        t = toks[k]
        if t[0] != "ident":
            return None
        v = env.get(t[1])
        if isinstance(v, DiagField):
            return v.var, v.field, v.progs, k + 1
        var, j = t[1], k + 1
        if j + 2 < len(toks) and toks[j][1] == "[" and toks[j + 1][0] == "num" and \
                toks[j + 2][1] == "]":
            var, j = "%s[%s]" % (t[1], toks[j + 1][1]), j + 3
        if j + 1 < len(toks) and toks[j][1] == "." and toks[j + 1][1] in FIELDS and \
                (j + 2 >= len(toks) or toks[j + 2][1] != "("):
            return var, toks[j + 1][1], self.var_progs(t[1], env), j + 2
        h = self.helpers.get(t[1])
        if h is not None and len(h.params) == 1 and j < len(toks) and toks[j][1] == "(":
            ce = match_close(toks, j)
            arg = [x for x in toks[j + 1:ce] if x[1] != "&"]
            body = {x[1] for x in h.body}
            fields = [f for f in ("message", "help") if f in body]
            if len(arg) == 1 and arg[0][0] == "ident" and len(fields) == 1 and \
                    "span" not in body and "code" not in body:
                return arg[0][1], fields[0], self.var_progs(arg[0][1], env), ce + 1
        return None

    def var_progs(self, name, env):
        if name in env and name not in getattr(self, "closure_params", ()):
            return frozenset(self.taint_of(env[name]))
        return None  # a closure's parameter: the assertion's programs

    def condition(self, toks, k, env, other):
        """The comparison following a subject's end k: (op, value) or None.
        `other` is the other side of an assert_eq! (the subject is a whole
        side then)."""
        # accessors keeping the text
        while k + 2 < len(toks) and toks[k][1] == "." and toks[k + 1][1] in ACCESSORS and \
                toks[k + 2][1] == "(":
            k = match_close(toks, k + 2) + 1
        if k >= len(toks):
            if other is None:
                return None
            return ("eq", other)
        if toks[k][1] == "." and k + 2 < len(toks) and toks[k + 2][1] == "(":
            name = toks[k + 1][1]
            ce = match_close(toks, k + 2)
            arg = toks[k + 3:ce]
            if name in ("contains", "starts_with", "ends_with"):
                v = self.text_value(arg, env)
                if v is None or ce + 1 != len(toks) and toks[ce + 1][1] not in ("&&", ")", "}"):
                    return None
                return ({"contains": "contains", "starts_with": "starts",
                         "ends_with": "ends"}[name], v)
            if name in ("is_none", "is_some") and not arg:
                return (name[3:], None)
            if name == "is_some_and" and len(arg) > 3 and arg[0][1] == "|" and \
                    arg[2][1] == "|" and (ce + 1 == len(toks) or
                                          toks[ce + 1][1] in ("&&", ")", "}")):
                inner = arg[3:]
                iw = [t[1] for t in inner]
                if len(iw) > 4 and iw[0] == arg[1][1] and iw[1:4] == [".", "contains", "("] and \
                        match_close(inner, 3) == len(inner) - 1:
                    v = self.text_value(inner[4:-1], env)
                    if v is not None:
                        return ("contains", v)
                return None
            if name == "map" and arg and arg[0][1] == "|":
                words = [x[1] for x in arg]
                if "line" in words and "column" in words and other is not None and \
                        ce + 1 == len(toks):
                    return ("eq", other)
            return None
        if toks[k][1] == "==":
            rest = []
            depth = 0
            for x in toks[k + 1:]:
                if x[1] in ("(", "[", "{"):
                    depth += 1
                elif x[1] in (")", "]", "}"):
                    depth -= 1
                if depth < 0 or depth == 0 and x[1] in ("&&", "||"):
                    break
                rest.append(x)
            v = self.text_value(rest, env)
            return ("eq", v) if v is not None else None
        return None

    # ---- assertions -----------------------------------------------------
    def read_interpreter(self, mac, parts, env):
        """Assertions over an interpretation's `returned` flag or over the
        interpreter's refusal (a Refusal): run records. True when the
        assertion was one of these (it then states no diagnostic detail
        and no verdict of the checker's)."""
        if not parts or not parts[0]:
            return False
        a = parts[0]
        if mac == "assert":
            neg = a[0][1] == "!"
            v = self.eval(a[1:] if neg else a, env)
            if isinstance(v, Envelope) and v.path == ("#returned",):
                self.note_detail(set(v.progs), run_record(v, (("returned", not neg),)))
                return True
        base = env.get(a[0][1]) if a[0][0] == "ident" else None
        if not isinstance(base, Refusal):
            return False
        w = [t[1] for t in a]
        cond = None
        if mac == "assert_eq" and len(parts) >= 2 and w[1:] == [".", "len", "(", ")"]:
            n = self.eval(parts[1], env)
            if isinstance(n, int) and not isinstance(n, bool):
                cond = ("refused-count", n)
        elif len(w) >= 6 and w[1] == "[" and a[2][0] == "num" and w[3:5] == ["]", "."]:
            idx = int(a[2][1])
            if mac == "assert_eq" and len(parts) >= 2 and w[5:] == ["code"]:
                c = self.codes_in(parts[1], env)
                if len(c) == 1 and len(parts[1]) == 1:
                    cond = ("refused-code", idx, c[0])
            elif mac == "assert" and w[5:8] == ["message", ".", "contains"] and \
                    len(w) > 9 and w[8] == "(" and match_close(a, 8) == len(a) - 1:
                text = self.text_value(a[9:-1], env)
                if text is not None:
                    cond = ("refused-message", idx, "contains", text)
        elif mac == "assert" and w[1:8] == [".", "iter", "(", ")", ".", "any", "("] and \
                match_close(a, 7) == len(a) - 1:
            cond = self.refused_any(a[8:-1], env)
        if cond is not None:
            self.note_detail(set(base.progs), run_record(base, (cond,)))
        return True

    def refused_any(self, toks, env):
        """`errors.iter().any(|item| item.code == "SPX-F103")`, optionally
        `&& item.message.contains(text)`: some refusal has that code (and
        that text in its message)."""
        w = [t[1] for t in toks]
        if len(w) < 8 or w[0] != "|" or w[2] != "|" or toks[1][0] != "ident":
            return None
        p = w[1]
        if w[3:7] != [p, ".", "code", "=="] or toks[7][0] != "str":
            return None
        c = self.codes_in(toks[7:8], env)
        if len(c) != 1:
            return None
        rest = toks[8:]
        rw = w[8:]
        if not rest:
            return ("refused-any", c[0], None)
        if rw[:6] == ["&&", p, ".", "message", ".", "contains"] and len(rw) > 7 and \
                rw[6] == "(" and match_close(rest, 6) == len(rest) - 1:
            text = self.text_value(rest[7:-1], env)
            if text is not None:
                return ("refused-any", c[0], text)
        return None

    def read_details(self, mac, parts, env):
        flat = [t for p in parts for t in p]
        # `|d|` names a closure's parameter even where a binding `d` exists
        self.closure_params = {flat[k][1] for k in range(1, len(flat) - 1)
                               if flat[k - 1][1] == "|" and flat[k + 1][1] == "|" and
                               flat[k][0] == "ident"}
        self.read_graph(mac, parts, env)
        if not flat or any(t[1] == "||" for t in flat):
            self.read_code_ties(mac, parts, env)
            return
        negated = mac == "assert_ne" or flat[0][1] == "!"
        inner_not = any(t[1] == "!" and k > 0 and flat[k - 1][0] != "ident"
                        for k, t in enumerate(flat))
        if inner_not:
            return
        if not negated:
            self.read_code_ties(mac, parts, env)
            self.read_run(mac, parts, env)
            if mac == "assert_eq" and len(parts) == 2 and self.read_list(parts, env):
                return
        sides = []
        if mac in ("assert_eq", "assert_ne") and len(parts) == 2:
            sides = [(parts[0], parts[1]), (parts[1], parts[0])]
        else:
            sides = [(flat, None)]
        conds = []
        subj = None
        for toks, other_t in sides:
            for k in range(len(toks)):
                sub = self.subject(toks, k, env)
                if sub is None:
                    continue
                if other_t is not None and k != 0:
                    continue
                other = None
                if other_t is not None:
                    ov = self.eval(other_t, env)
                    if isinstance(ov, Seq) and len(ov.items) == 1:
                        ov = ov.items[0]
                    if isinstance(ov, Seq) and len(ov.items) == 2 and \
                            all(isinstance(x, int) and not isinstance(x, bool) for x in ov.items):
                        ov = tuple(ov.items)
                    if len(other_t) == 1 and other_t[0][0] == "char":
                        ov = char_value(other_t[0])
                    other = ov if isinstance(ov, (str, tuple)) else None
                    if other is None:
                        continue
                c = self.condition(toks, sub[3], env, other)
                if c is None:
                    return  # a comparison we do not follow: nothing of it
                field = sub[1]
                if c[0] in ("none", "some") and field != "help":
                    return
                if c[0] == "eq" and isinstance(c[1], tuple) != (field == "span"):
                    return
                if subj is not None and subj[0] != sub[0]:
                    return  # two diagnostics in one assertion
                subj = sub
                conds.append(("loc" if field == "span" else field,) + c)
                if field == "span" and not isinstance(c[1], tuple):
                    return
        if not conds:
            return
        var, _field, progs, _end = subj
        v = env.get(var)
        if isinstance(v, DiagField):
            code, quant, var = v.code, v.quant, v.var
        else:
            code, quant = self.code_of(var, flat, env)
        if code is None:
            return
        if progs is None:  # a closure's parameter: what the assertion reads
            progs = set()
            for p in parts:
                progs |= self.taint_of(self.eval(p, env))
        if negated and mac == "assert_ne" and len(conds) == 1 and conds[0][1] == "eq":
            pass
        elif negated and mac == "assert_ne":
            return
        self.note_detail(set(progs), ("diag", quant, code, negated, tuple(conds)))

    def code_of(self, var, flat, env):
        """The code an assertion ties `var` to (`var.code == "SPX-…"` in the
        same closure: any diagnostic of it), or a binding's tie (first)."""
        base = var.split("[")[0]
        for k in range(len(flat) - 4):
            if flat[k][1] == base and flat[k + 1][1] == "." and flat[k + 2][1] == "code" \
                    and flat[k + 3][1] == "==" and "[" not in var:
                c = self.codes_in(flat[k + 4:k + 5], env)
                if len(c) == 1:
                    any_ = base not in env or base in getattr(self, "closure_params", ())
                    return c[0], "any" if any_ else "first"
        return env.get("#diag:" + var), "first"

    def read_code_ties(self, mac, parts, env):
        """`assert_eq!(d.code, "SPX-…")` ties `d` to that code."""
        if mac != "assert_eq" or len(parts) != 2:
            return
        for a, b in ((parts[0], parts[1]), (parts[1], parts[0])):
            w = [t[1] for t in a]
            var = None
            if len(w) == 3 and a[0][0] == "ident" and w[1:] == [".", "code"]:
                var = w[0]
            elif len(w) == 6 and a[0][0] == "ident" and w[1] == "[" and a[2][0] == "num" \
                    and w[3:] == ["]", ".", "code"]:
                var = "%s[%s]" % (w[0], w[2])
            if var is None:
                continue
            c = self.codes_in(b, env)
            if len(c) == 1 and len(b) == 1 and "|" not in c[0]:
                env["#diag:" + var] = c[0]
            return

    def outcome_text(self, rhs, env):
        """`if outcome["kind"] == "returned" { format!("ok|{}", outcome["value"]…) }
        else { …format!("{}|{}", outcome["status"]["domain_id"]…,
        outcome["status"]["code"]…) }` over an envelope's outcome: the
        reference's one-line rendering of it (OutcomeText), or None."""
        w = [t[1] for t in rhs]
        strs = [t[2] for t in rhs if t[0] == "str"]
        if len(rhs) < 8 or w[0] != "if":
            return None
        if rhs[1][0] == "ident" and w[2:5] == [".", "returned", "{"]:
            return self.outcome_text_returned(rhs, env)
        if not (rhs[1][0] == "ident" and w[2] == "[" and rhs[3][0] == "str" and
                rhs[3][2] == "kind" and w[4:6] == ["]", "=="] and rhs[6][0] == "str" and
                rhs[6][2] == "returned" and w[7] == "{"):
            return None
        if "ok|{}" not in strs or "{}|{}" not in strs or "value" not in strs or \
                "domain_id" not in strs or "code" not in strs or "else" not in w:
            return None
        out = env.get(rhs[1][1])
        if not isinstance(out, Envelope) or out.path != ("payload", "outcome"):
            return None
        return OutcomeText(out.progs, out.entry, out.args, out.profile, out.budget)

    def read_graph(self, mac, parts, env):
        """Revisions and graphs stated of a program: `assert_eq!` (or
        `assert_ne!`) of two revisions or graphs, of a revision and a text,
        of a graph and a snapshot text, and `assert!(graph.contains(…))` of
        a top-level field our graph shares (GRAPH_FIELDS). Records:
        ("rev", level, ("text", t) | ("fmt", level2) | ("other", source),
        equal) and ("graph", level, ("field", path, v) | ("fmt", level2) |
        ("other", source), equal)."""
        if mac == "assert" and len(parts) == 1 and parts[0] and parts[0][0][1] != "!":
            a = parts[0]
            ce = len(a) - 1
            for j in range(len(a) - 2):
                if a[j][1] == "." and a[j + 1][1] == "contains" and a[j + 2][1] == "(" and \
                        match_close(a, j + 2) == ce:
                    base = self.eval(a[:j], env)
                    arg = a[j + 3:ce]
                    if arg and arg[-1][1] == ",":
                        arg = arg[:-1]
                    text = self.text_value(arg, env)
                    if isinstance(base, GraphJson) and text is not None:
                        for path, v in graph_fields(text):
                            self.note_detail(set(base.progs),
                                             ("graph", base.level, ("field", path, v), True))
                    return
            return
        if mac not in ("assert_eq", "assert_ne") or len(parts) not in (2, 3):
            return
        equal = mac == "assert_eq"
        a, b = self.eval(parts[0], env), self.eval(parts[1], env)
        if not isinstance(a, (Revision, GraphJson)):
            a, b = b, a
        if not isinstance(a, (Revision, GraphJson)):
            return
        kind = "rev" if isinstance(a, Revision) else "graph"
        if type(b) is type(a):
            if b.progs == a.progs:
                if b.level == a.level:
                    return
                lo, hi = sorted((a.level, b.level))
                self.note_detail(set(a.progs), (kind, lo, ("fmt", hi), equal))
            else:
                (other,) = b.progs if len(b.progs) == 1 else (None,)
                if other is None or b.level != 0:
                    return
                self.note_detail(set(a.progs),
                                 (kind, a.level, ("other", self.programs[other][1]), equal))
        elif isinstance(b, str) and equal:
            if kind == "rev":
                self.note_detail(set(a.progs), ("rev", a.level, ("text", b), True))
            else:
                for path, v in graph_fields(b):
                    self.note_detail(set(a.progs), ("graph", a.level, ("field", path, v), True))

    def outcome_text_returned(self, rhs, env):
        """The same rendering selected by `if result.returned { … }` (the
        interpretation's flag) over `outcome = &envelope["payload"]["outcome"]`
        of that interpretation's envelope."""
        w = [t[1] for t in rhs]
        strs = [t[2] for t in rhs if t[0] == "str"]
        if "ok|{}" not in strs or "{}|{}" not in strs or "value" not in strs or \
                "domain_id" not in strs or "code" not in strs or "else" not in w:
            return None
        res = env.get(rhs[1][1])
        if not isinstance(res, Envelope) or res.path:
            return None
        names = {rhs[k][1] for k in range(len(rhs) - 2)
                 if rhs[k][0] == "ident" and w[k + 1] == "[" and rhs[k + 2][0] == "str"}
        for n in names:
            out = env.get(n)
            if not isinstance(out, Envelope) or out.path != ("payload", "outcome") or \
                    (out.progs, out.entry, out.args, out.profile, out.budget) != \
                    (res.progs, res.entry, res.args, res.profile, res.budget):
                return None
        if not names:
            return None
        return OutcomeText(res.progs, res.entry, res.args, res.profile, res.budget)

    def read_run(self, mac, parts, env):
        if mac == "assert" and len(parts) == 1:
            conds = []
            env_sel = None
            for conj in split_top(parts[0], "&&"):
                ce = len(conj) - 1
                if not conj or conj[ce][1] != ")":
                    continue
                # find `. contains (` whose paren closes at the end
                k = None
                for j in range(len(conj) - 2):
                    if conj[j][1] == "." and conj[j + 1][1] == "contains" and \
                            conj[j + 2][1] == "(" and match_close(conj, j + 2) == ce:
                        k = j
                if k is None:
                    continue
                base = self.eval(conj[:k], env)
                text = self.text_value(conj[k + 3:ce], env)
                if isinstance(base, Envelope) and not base.path and text is not None:
                    if env_sel is not None and (env_sel.progs != base.progs or
                                                env_sel.entry != base.entry or
                                                env_sel.args != base.args or
                                                env_sel.profile != base.profile):
                        return
                    env_sel = base
                    conds.append(("contains", text))
            if env_sel is not None and conds:
                self.note_detail(set(env_sel.progs), run_record(env_sel, tuple(conds)))
            return
        # (a third part is the failure message)
        if mac == "assert_eq" and len(parts) in (2, 3):
            a, b = self.eval(parts[0], env), self.eval(parts[1], env)
            if isinstance(b, Canonical):
                a, b = b, a
            if isinstance(a, Canonical):
                if isinstance(b, str):
                    self.note_detail(set(a.progs), ("fmt", a.level, b))
                elif isinstance(b, Canonical) and b.progs == a.progs and \
                        {a.level, b.level} == {1, 2}:
                    self.note_detail(set(a.progs), ("fmt-idem",))
                return
            if isinstance(b, Envelope):
                a, b = b, a
            if isinstance(a, Envelope) and a.path and isinstance(b, (str, bool, int)):
                self.note_detail(set(a.progs), run_record(a, (("json", a.path, b),)))
            if isinstance(b, OutcomeText):
                a, b = b, a
            if isinstance(a, OutcomeText) and isinstance(b, str):
                self.note_detail(set(a.progs), run_record(a, (("text", b),)))

    # ---- calls ----------------------------------------------------------
    def detail_call(self, path, argt, args, env):
        """Calls that carry a detail value, or None: the interpreter's
        envelope, a written file, parsed JSON, default options."""
        name = path[-1]
        if name == "canonical" and path[-2:-1] == ["format"] and len(args) == 1:
            a = args[0]
            if isinstance(a, Reparsed):
                return Canonical(a.progs, a.level + 1) if a.level == 1 else UNKNOWN
            if type(a) is Taint and len(a.progs) == 1 and not (a.progs & self.tampered):
                return Canonical(a.progs, 1)
            return None
        if name in ("revision", "to_json") and path[-2:-1] == ["graph"] and len(args) == 1:
            a = args[0]
            level = a.level if isinstance(a, Reparsed) else 0 if type(a) is Taint else None
            if level is None or len(a.progs) != 1 or a.progs & self.tampered:
                return None
            return (Revision if name == "revision" else GraphJson)(a.progs, level)
        if name in ("parse", "check") and args and isinstance(args[0], Canonical):
            return Reparsed(args[0].progs, args[0].level)
        if name == "default" and len(path) >= 2 and path[-2] in ("InterpreterOptions",
                                                                  "Default"):
            return DEFAULT_OPTIONS
        if name == "write" and path[-2:] == ["fs", "write"] and len(args) == 2:
            target = [t for t in argt[0] if t[1] != "&"]
            progs = self.taint_of(args[1])
            if len(target) == 1 and target[0][0] == "ident" and len(progs) == 1:
                env[target[0][1]] = Taint(progs)
            return None
        if name == "from_str" and path[:1] == ["serde_json"] and len(args) == 1 and \
                isinstance(args[0], Envelope):
            return args[0]
        # `InterpreterOptions::new(65536, DEFAULT_MAX_STEPS)`: the defaults;
        # a smaller step budget is a Budget (other byte bounds: not read)
        if name == "new" and path[-2:] == ["InterpreterOptions", "new"] and len(args) == 2 and \
                args[0] == 65536 and isinstance(args[1], int) and \
                not isinstance(args[1], bool):
            if args[1] == DEFAULT_MAX_STEPS:
                return DEFAULT_OPTIONS
            if 0 < args[1] < DEFAULT_MAX_STEPS:
                return Budget(args[1])
            return None
        options = args[3] if len(args) == 4 else None
        if options is not DEFAULT_OPTIONS and not isinstance(options, Budget) and \
                len(args) == 4 and [t[1] for t in argt[3]] in (
                    ["&", "Default", "::", "default", "(", ")"],
                    ["&", "InterpreterOptions", "::", "default", "(", ")"]):
            options = DEFAULT_OPTIONS
        if name == "interpret" and (len(path) > 1 or name not in self.helpers) and \
                len(args) == 4 and isinstance(args[1], str) and \
                isinstance(args[2], Seq) and all(isinstance(a, str) for a in args[2].items) and \
                (options is DEFAULT_OPTIONS or isinstance(options, Budget)) and \
                (len(path) == 1 or path[-2] in ("interpreter", "internal_strings")):
            # `interpret(Path::new("examples/x.spx"), …)`: that example
            progs = self.taint_of(args[0].source if isinstance(args[0], ExamplePath) else args[0])
            if len(progs) == 1:
                return Envelope(progs, args[1], (), tuple(args[2].items),
                                "strings" if path[-2:-1] == ["internal_strings"] else None,
                                options.steps if isinstance(options, Budget) else None)
        return None

    @staticmethod
    def envelope_method(v, name):
        if name in ("unwrap", "expect", "clone", "as_str", "to_string", "to_owned",
                    "unwrap_or_else"):
            return v
        # `interpret(…).unwrap_err()`: what the interpreter refused
        if name in ("unwrap_err", "expect_err") and not v.path and not v.budget and \
                v.profile in (None, "strings"):
            return Refusal(v.progs, v.entry, v.args, v.profile)
        return None

    @staticmethod
    def envelope_index(v, idx):
        if isinstance(idx, str):
            return Envelope(v.progs, v.entry, v.path + (idx,), v.args, v.profile, v.budget)
        return UNKNOWN

    @staticmethod
    def envelope_field(v, name):
        """`interpretation.returned`: whether the entry returned."""
        if name == "returned" and not v.path:
            return Envelope(v.progs, v.entry, ("#returned",), v.args, v.profile, v.budget)
        return v
