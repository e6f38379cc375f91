"""refmine's detail figures: a test's stated diagnostic message, help
text and primary-span location (compared with our `check --json`), a
stated revision or graph fact (judge_meaning: our `check --json` revision,
our `graph` document's shared fields), and
the interpreter's outcome for the program's entry (compared with our `run
--json`, which prints the same semaprax.interpret.v1 envelope).

A run of the program's `main` without arguments is compared with our
`run --json`; a run of another entry, or one given arguments (`--arg`
literals, the reference's `interpret(&path, ID, &args, …)`), with our
`semaprax interpret <file> --function ID --arg …`, which prints the same
envelope (a refusal there, F102/F103, is a difference). A record is not
comparable when the diagnostic's code is a lane's (H/B/W, LI: the verdict
figure excludes those too), when we report no diagnostic of that code (the
verdict figure counts that difference), or when the program does not
verify. A stated `format::canonical` text is compared with our `fmt --stdout` (of
the case, or of that output for a reparsed program), idempotence with the
two. A run under a smaller step budget is compared on what our
default-budget run determines exactly (under_budget). decided.txt keys a
detail as `CASE@aspect` (aspect message, help, loc, run or fmt); a case excluded there as lifted or skew takes
its details along.
"""

import hashlib
import json
import os
import re
import subprocess

from clirun import SRC

ASPECTS = ("message", "help", "loc", "run", "fmt", "rev", "graph", "exit")
LANE = "HBWL"


def run_details(binary, case):
    """Our diagnostics (all of them, in order) and, when a run is stated
    and the program verifies, our `run --json` envelope."""
    path = case["file"]
    try:
        p = subprocess.run([binary, "check", "--json", path], capture_output=True, timeout=60)
        out = p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        out = ""
    diags = []
    for line in out.splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if isinstance(d, dict) and d.get("code"):
            diags.append(d)
    case["diags"] = diags
    if any(r[0] == "exit" for r in case["details"]):
        case["exits"] = exit_runs(binary, case)
    if any(r[0] in ("fmt", "fmt-idem") or r[0] in ("rev", "graph") and
           (r[1] or r[2][0] == "fmt") for r in case["details"]):
        case["fmt"] = fmt_levels(binary, path)
    if any(r[0] in ("rev", "graph") for r in case["details"]):
        case["meaning"] = meanings(binary, case)
    runs = [r for r in case["details"] if r[0] == "run"]
    if any(d.get("severity") == "error" for d in diags):
        path = rewritten(binary, case) if runs else None
        if path is None:
            return
    if any(not via_interpret(r) for r in runs):
        try:
            r = subprocess.run([binary, "run", "--json", path], capture_output=True, timeout=120)
            case["envelope"] = json.loads(r.stdout.decode("utf-8", "replace") or "null")
        except (subprocess.TimeoutExpired, ValueError):
            case["envelope"] = None
    case["interpreted"] = {}
    for rec in runs:
        if not via_interpret(rec):
            continue
        key = interpret_key(rec)
        if key in case["interpreted"]:
            continue
        entry, args, profile = key
        for cmd_name in {None: ["interpret"], "strings": ["interpret-strings"],
                         "fallback": ["interpret", "interpret-strings"]}[profile]:
            cmd = [binary, cmd_name, path, "--function", entry]
            for a in args:
                cmd += ["--arg", a]
            try:
                r = subprocess.run(cmd, capture_output=True, timeout=120)
                out = r.stdout.decode("utf-8", "replace")
                err = r.stderr.decode("utf-8", "replace").strip().splitlines()
                env = json.loads(out) if out.strip() else None
            except (subprocess.TimeoutExpired, ValueError):
                env, err = None, ["no answer"]
            if env is not None:
                break
        case["interpreted"][key] = (env, err[0] if err else "", refusals(err))


_commands = {}


def our_commands(binary):
    """The commands our `--help` lists (`  name …` lines)."""
    if binary not in _commands:
        out = subprocess.run([binary, "--help"], capture_output=True, timeout=60).stdout
        _commands[binary] = {m.group(1) for m in re.finditer(
            r"^  ([a-z][a-z-]*)\b", out.decode("utf-8", "replace"), re.M)}
    return _commands[binary]


def exit_variants(argv):
    """Every argv an exit record stands for: each optional argument
    (clirun: added under a condition not known) with and without it."""
    out = [[]]
    for a in argv:
        if isinstance(a, tuple):
            out = [v + extra for v in out for extra in ([], [a[1]])]
        else:
            out = [v + [a] for v in out]
    return out


def exit_runs(binary, case):
    """{(argv, files): [(argv run, status, first stderr line)]}: our binary
    run as each exit record states it, in a directory of its own holding
    the program as source.spx and the record's files."""
    out = {}
    root = os.path.join(os.path.dirname(os.path.dirname(case["file"])), "exit")
    binary = os.path.abspath(binary)
    for rec in case["details"]:
        if rec[0] != "exit" or (rec[1], rec[2]) in out:
            continue
        if rec[1][0] not in our_commands(binary):
            out[(rec[1], rec[2])] = None
            continue
        h = hashlib.sha256(repr((case["source"], rec[2])).encode()).hexdigest()[:12]
        d = os.path.join(root, h)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "source.spx"), "w", encoding="utf-8") as fh:
            fh.write(case["source"])
        for name, data in rec[2]:
            with open(os.path.join(d, name), "wb") as fh:
                fh.write(data.encode("latin-1"))
        runs = []
        for argv in exit_variants(rec[1]):
            argv = ["source.spx" if a == SRC else a for a in argv]
            try:
                r = subprocess.run([binary] + argv, cwd=d, capture_output=True, timeout=120)
                err = r.stderr.decode("utf-8", "replace").strip().splitlines()
                runs.append((argv, r.returncode, err[0] if err else ""))
            except subprocess.TimeoutExpired:
                runs.append((argv, None, "timeout"))
        out[(rec[1], rec[2])] = runs
    return out


def judge_exit(case, rec):
    runs = case.get("exits", {}).get((rec[1], rec[2]))
    if runs is None:
        return "n/c", "a command we do not have (`%s`)" % rec[1][0]
    ours = [d for d in case.get("diags", []) if d.get("severity") == "error"]
    if ours:
        return "n/c", "we refuse the program (%s)" % ours[0]["code"]
    kind, want = rec[3]
    for argv, status, err in runs:
        ok = status == want if kind == "code" else (status == 0) == want
        if not ok:
            return "differ", "`%s` exits %s%s" % (" ".join(argv), status,
                                                  ": %s" % err if err else "")
    return "agree", ""


def exit_key(rec):
    """An exit record's argv as decided.txt keys it (`CASE@exit:ARGV`)."""
    return " ".join("[%s]" % a[1] if isinstance(a, tuple) else "<src>" if a == SRC else a
                    for a in rec[1])


def rewritten(binary, case):
    """A program our check refuses, rewritten as decided.txt's `rewrite`
    lines for its runs say (each the change our own diagnostic's help line
    prescribes: DECISIONS "refmine: decided rewrites"), when our check then
    accepts it: its path (the runs use it), else None."""
    if not case.get("rewrites"):
        return None
    src = case["source"]
    for old, new in case["rewrites"]:
        if old and old not in src:
            case["rewrite_error"] = "%r does not occur" % old
            return None
        src = src.replace(old, new) if old else src + new
    path = case["file"] + ".rw.spx"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(src)
    p = subprocess.run([binary, "check", "--json", path], capture_output=True, timeout=60)
    errs = [d.get("code") for d in map(_json_or_none, p.stdout.decode("utf-8", "replace").splitlines())
            if isinstance(d, dict) and d.get("severity") == "error"]
    if errs or p.returncode != 0:
        case["rewrite_error"] = "our check still refuses it (%s)" % (errs[0] if errs else p.returncode)
        return None
    case["rewritten"] = path
    return path


def _json_or_none(line):
    try:
        return json.loads(line)
    except ValueError:
        return None


def revision_and_graph(binary, path):
    """(our revision, our graph as parsed JSON, first error) of one file:
    `check --json`'s revision (verified programs only) and `graph`'s
    document."""
    rev = graph = None
    err = ""
    try:
        p = subprocess.run([binary, "check", "--json", path], capture_output=True, timeout=60)
        for line in p.stdout.decode("utf-8", "replace").splitlines():
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if isinstance(d, dict) and d.get("severity") == "error" and not err:
                err = d.get("code") or "error"
            if isinstance(d, dict) and d.get("status") == "verified":
                rev = d.get("revision")
        if rev is not None:
            g = subprocess.run([binary, "graph", path], capture_output=True, timeout=60)
            if g.returncode == 0:
                graph = json.loads(g.stdout.decode("utf-8", "replace"))
    except (subprocess.TimeoutExpired, ValueError):
        err = err or "no answer"
    return rev, graph, err


def meanings(binary, case):
    """{level or ("other", source): (revision, graph, error)} for the
    programs the case's rev/graph records compare: the case (level 0), our
    fmt output of it (level 1, 2) and another program a test states."""
    out = {}
    levels = (case.get("fmt") or ([None, None], ""))[0]
    for rec in case["details"]:
        if rec[0] not in ("rev", "graph"):
            continue
        wanted = [rec[1]]
        if rec[2][0] == "fmt":
            wanted.append(rec[2][1])
        for lv in wanted:
            if lv in out:
                continue
            if lv == 0:
                out[lv] = revision_and_graph(binary, case["file"])
                continue
            text = levels[lv - 1] if lv <= len(levels) else None
            if text is None:
                out[lv] = (None, None, "our fmt refuses")
                continue
            tmp = "%s.L%d.spx" % (case["file"], lv)
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text)
            out[lv] = revision_and_graph(binary, tmp)
            os.remove(tmp)
        if rec[2][0] == "other" and ("other", rec[2][1]) not in out:
            tmp = case["file"] + ".other.spx"
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(rec[2][1])
            out[("other", rec[2][1])] = revision_and_graph(binary, tmp)
            os.remove(tmp)
    return out


def judge_meaning(case, rec):
    """A stated revision or graph fact (details.read_graph's records)."""
    kind, level, what, equal = rec
    got = case.get("meaning", {})
    rev, graph, err = got.get(level, (None, None, "not run"))
    if rev is None:
        return "n/c", "we refuse the program (%s)" % err
    mine = rev if kind == "rev" else graph
    if what[0] == "text":
        return ("agree", "") if rev == what[1] else ("differ", "ours: %s" % rev)
    if what[0] == "field":
        from details import GRAPH_FIELDS
        v = graph
        for k in GRAPH_FIELDS[what[1]]:
            v = v[k] if isinstance(v, dict) and isinstance(k, str) and k in v or \
                isinstance(v, list) and isinstance(k, int) and k < len(v) else None
        return ("agree", "") if v == what[2] else ("differ", "ours: %r" % (v,))
    other = got.get(what[1] if what[0] == "fmt" else ("other", what[1]), (None, None, "not run"))
    if other[0] is None:
        return "n/c", "we refuse the other program (%s)" % other[2]
    theirs = other[0] if kind == "rev" else other[1]
    same = mine == theirs
    if same == equal:
        return "agree", ""
    if kind == "rev":
        return "differ", "ours: %s and %s" % (mine, theirs)
    return "differ", "our graphs %s" % ("differ" if equal else "are equal")


def refusals(lines):
    """The diagnostics of an `interpret` refusal on stderr: [(code,
    message)] from its `error[CODE]: message` lines."""
    out = []
    for line in lines:
        m = REFUSAL_RE.match(line)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


REFUSAL_RE = re.compile(r"^error\[(SPX-[A-Z]+[0-9]+)\]: (.*)$")


def fmt_levels(binary, path):
    """[our `fmt --stdout` of the file, of that output] (None where fmt
    refuses), and the first refusal line."""
    out, text, err = [], None, ""
    src = path
    for level in (1, 2):
        try:
            r = subprocess.run([binary, "fmt", "--stdout", src], capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            r = None
        if r is None or r.returncode != 0:
            err = r.stderr.decode("utf-8", "replace").strip().split("\n")[0] if r else "timeout"
            out.append(None)
            break
        text = r.stdout.decode("utf-8", "replace")
        out.append(text)
        if level == 1:
            src = path + ".fmt.spx"
            with open(src, "w", encoding="utf-8") as fh:
                fh.write(text)
    if src != path:
        os.remove(src)
    while len(out) < 2:
        out.append(None)
    return out, err


def interpret_key(rec):
    """(entry, args, profile) of a run record our `interpret` answers (a
    record under a smaller step budget runs under the default one)."""
    return (rec[1], tuple(rec[3]) if len(rec) > 3 else (), rec[4] if len(rec) > 4 else None)


# what a run under a smaller step budget is compared on (judge())
BUDGET_CONDS = (("json", ("payload", "outcome", "kind")),
                ("json", ("payload", "fuel", "exhausted")))


def under_budget(env, budget):
    """Our envelope's outcome and fuel under `budget` steps, from our run
    under the default budget (`interpret` has no --max-steps): the step
    meter only grows and a run stops at the first charge past its budget,
    so the run stops by fuel under `budget` exactly when ours, whatever
    stopped it, had used more than `budget` steps (or exhausted the
    default); else it ends as ours did. None without a fuel meter."""
    fuel = env["payload"].get("fuel") or {}
    out = env["payload"].get("outcome") or {}
    used = fuel.get("steps_used")
    if not isinstance(used, int):
        return None
    if out.get("kind") == "fuel_exhausted" or used > budget:
        return {"kind": "fuel_exhausted"}, {"exhausted": True}
    return out, {"exhausted": False}


def via_interpret(rec):
    """A run record our `interpret` answers: an entry other than `main`
    (by name or as `app.main`/`*.main`), or any arguments."""
    main = rec[1] == "main" or rec[1].endswith(".main")
    return not main or len(rec) > 4 or (len(rec) > 3 and bool(rec[3]))


def judge_refusal(cond, env, refused):
    """A stated refusal of our `interpret` (the reference's
    `interpret(…).unwrap_err()`): its count, the code and message of one."""
    if isinstance(env, dict):
        return "differ", "our interpret runs it: %s" % json.dumps(
            env.get("payload", {}).get("outcome"), separators=(",", ":"))
    if cond[0] == "refused-any":
        ok = any(code == cond[1] and (cond[2] is None or cond[2] in message)
                 for code, message in refused)
        return ("agree", "") if ok else ("differ", "ours: %s" % (
            ", ".join(code for code, _ in refused) or "no diagnostics"))
    if cond[0] == "refused-count":
        ok = len(refused) == cond[1]
        return ("agree", "") if ok else ("differ", "ours: %d diagnostics" % len(refused))
    if cond[1] >= len(refused):
        return "differ", "ours: %d diagnostics" % len(refused)
    code, message = refused[cond[1]]
    if cond[0] == "refused-code":
        return ("agree", "") if code == cond[2] else ("differ", "ours: %s" % code)
    return ("agree", "") if cond[3] in message else ("differ", "ours: %r" % message)


def aspect_of(rec):
    if rec[0] in ("run", "exit"):
        return rec[0]
    if rec[0] in ("fmt", "fmt-idem"):
        return "fmt"
    if rec[0] == "list":
        return "message"
    if rec[0] in ("rev", "graph"):
        return rec[0]
    return rec[4][0][0]


def render(d, template):
    """One of our diagnostics as a test's list renders it."""
    kind, fmt, fields = template
    vals = [d.get(f) or "" for f in fields]
    if kind == "tuple":
        return tuple(vals)
    out = fmt
    for v in vals:
        out = out.replace("{}", v, 1)
    return out


def describe(rec):
    if rec[0] == "exit":
        kind, want = rec[3]
        return "`semaprax %s`%s %s" % (
            exit_key(rec), " (files %s)" % ", ".join(f[0] for f in rec[2]) if rec[2] else "",
            "exits %d" % want if kind == "code" else "succeeds" if want else "fails")
    if rec[0] == "list":
        return "every diagnostic, as %r" % (list(rec[2]),)
    if rec[0] == "fmt":
        return "fmt%s gives the stated text (%d bytes)" % (" twice" if rec[1] == 2 else "",
                                                           len(rec[2]))
    if rec[0] == "fmt-idem":
        return "fmt of the fmt output is unchanged"
    if rec[0] in ("rev", "graph"):
        kind, level, what, equal = rec
        subj = "%s of %s" % ("revision" if kind == "rev" else "graph",
                             "the program" if not level else "its fmt output x%d" % level)
        if what[0] == "text":
            return "%s is %s" % (subj, what[1])
        if what[0] == "field":
            return "%s has %s = %r" % (subj, "/".join(map(str, what[1])), what[2])
        other = "its fmt output x%d" % what[1] if what[0] == "fmt" else \
            "another program's (%d bytes)" % len(what[1])
        return "%s %s %s" % (subj, "equals" if equal else "differs from", other)
    if rec[0] == "run":
        return "%s%s%s%s: %s" % (
            rec[1], "(%s)" % ", ".join(rec[3]) if len(rec) > 3 else "",
            " [%s]" % rec[4] if len(rec) > 4 and rec[4] else "",
            " [%d steps]" % rec[5] if len(rec) > 5 else "", "; ".join(
                "contains %r" % c[1] if c[0] == "contains" else
                "outcome %r" % c[1] if c[0] == "text" else
                "returned == %r" % c[1] if c[0] == "returned" else
                "refused with %d diagnostics" % c[1] if c[0] == "refused-count" else
                "refusal #%d is %s" % (c[1], c[2]) if c[0] == "refused-code" else
                "some refusal is %s%s" % (c[1], "" if c[2] is None else
                                          " containing %r" % c[2])
                if c[0] == "refused-any" else
                "refusal #%d's message contains %r" % (c[1], c[3])
                if c[0] == "refused-message" else "%s == %r" % ("/".join(c[1]), c[2])
                for c in rec[2]))
    _, quant, code, negated, conds = rec
    text = " && ".join("%s %s %r" % (f, op, v) for f, op, v in conds)
    return "%s%s %s: %s" % ("no " if negated else "", quant, code, text)


def satisfies(d, cond):
    field, op, value = cond
    if field == "loc":
        loc = d.get("location") or {}
        return (loc.get("line"), loc.get("column")) == tuple(value)
    text = d.get(field)
    if op == "none":
        return not text
    if op == "some":
        return bool(text)
    if text is None:
        return False
    return {"contains": lambda: value in text, "eq": lambda: text == value,
            "starts": lambda: text.startswith(value),
            "ends": lambda: text.endswith(value)}[op]()


def judge(case, rec):
    """('agree'|'differ'|'n/c', cause)."""
    if rec[0] == "run":
        env = case.get("envelope")
        ours = [d for d in case.get("diags", []) if d.get("severity") == "error"]
        if ours and not case.get("rewritten"):
            return "n/c", "we refuse the program (%s)" % ours[0]["code"]
        if via_interpret(rec):
            env, err, refused = case["interpreted"][interpret_key(rec)]
            if rec[2] and rec[2][0][0].startswith("refused"):
                return judge_refusal(rec[2][0], env, refused)
            if not isinstance(env, dict) or "payload" not in env:
                return "differ", "our interpret refuses: %s" % err
            fn = env["payload"].get("function", {})
            if rec[1] not in (fn.get("stable_id"), fn.get("name")):
                return "differ", "our interpret selected %s" % fn.get("stable_id")
            budget = rec[5] if len(rec) > 5 else None
            if budget:
                derived = under_budget(env, budget)
                if derived is None:
                    return "n/c", "our envelope has no step meter"
                for c in rec[2]:
                    if c[0] not in ("returned", "text") and tuple(c[:2]) not in BUDGET_CONDS:
                        return "n/c", "a field of the envelope under a %d-step budget" % budget
                out, fuel = derived
                env = {"payload": {"outcome": out, "fuel": fuel}}
        elif not isinstance(env, dict) or "payload" not in env:
            return "differ", "no interpret.v1 envelope from our run --json"
        elif env["payload"].get("function", {}).get("stable_id") != rec[1]:
            return "n/c", "entry %s is not our run's main" % rec[1]
        text = json.dumps(env, separators=(",", ":"), ensure_ascii=False)
        for c in rec[2]:
            if c[0] == "text":
                out = env["payload"].get("outcome", {})
                if out.get("kind") == "returned":
                    ours = "ok|%s" % out.get("value")
                else:
                    st = out.get("status") or {}
                    ours = "%s|%s" % (st.get("domain_id"), st.get("code"))
                if ours != c[1]:
                    return "differ", "ours: %s" % ours
            elif c[0] == "returned":
                kind = env["payload"].get("outcome", {}).get("kind")
                if (kind == "returned") != c[1]:
                    return "differ", "our outcome: %s" % kind
            elif c[0] == "contains":
                if c[1] not in text:
                    return "differ", "our envelope's outcome: %s" % json.dumps(
                        env["payload"].get("outcome"), separators=(",", ":"))
            else:
                v = env
                for k in c[1]:
                    v = v.get(k) if isinstance(v, dict) else None
                if v != c[2] or isinstance(v, bool) != isinstance(c[2], bool):
                    return "differ", "ours at %s: %r" % ("/".join(c[1]), v)
        return "agree", ""
    if rec[0] in ("rev", "graph"):
        return judge_meaning(case, rec)
    if rec[0] == "exit":
        return judge_exit(case, rec)
    if rec[0] in ("fmt", "fmt-idem"):
        levels, err = case.get("fmt") or ([None, None], "not run")
        if rec[0] == "fmt-idem":
            if levels[0] is None or levels[1] is None:
                return "differ", "our fmt refuses: %s" % err
            return ("agree", "") if levels[0] == levels[1] else \
                ("differ", "fmt of our fmt output differs")
        got = levels[rec[1] - 1]
        if got is None:
            return "differ", "our fmt refuses: %s" % err
        if got == rec[2]:
            return "agree", ""
        a, b = got.splitlines(), rec[2].splitlines()
        k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        return "differ", "first difference at line %d: ours %r, expected %r" % (
            k + 1, a[k] if k < len(a) else "<end>", b[k] if k < len(b) else "<end>")
    if rec[0] == "list":
        ours = [render(d, rec[1]) for d in case.get("diags", [])]
        if tuple(ours) == rec[2]:
            return "agree", ""
        if not ours:
            return "n/c", "we report nothing"
        return "differ", "ours: %r" % (ours,)
    _, quant, code, negated, conds = rec
    if code[4] in LANE:
        return "n/c", "a lane's code"
    mine = [d for d in case.get("diags", []) if d["code"] == code]
    if not mine:
        if negated:
            return "agree", ""
        return "n/c", "we report no %s" % code
    cands = mine[:1] if quant == "first" else mine
    sat = any(all(satisfies(d, c) for c in conds) for d in cands)
    if sat != negated:
        return "agree", ""
    d = cands[0]
    field = conds[0][0]
    if field == "loc":
        loc = d.get("location") or {}
        ours = "%s:%s" % (loc.get("line"), loc.get("column"))
    else:
        ours = d.get(field)
    return "differ", "ours: %r" % (ours,)


def report_details(cases, decided):
    """Print the detail figures and their differences; return the
    decided.txt detail entries no record matched."""
    used = set()
    figures = {a: {"agree": 0, "differ": 0, "spec": 0, "n/c": 0, "excl": 0, "rw": 0}
               for a in ASPECTS}
    diffs = []
    for c in cases:
        base = decided.get(c["key"]) or next(
            (v for k, v in decided.items() if k.endswith("*") and "@" not in k and
             c["key"].startswith(k[:-1])), None)
        for rec in c.get("details", []):
            a = aspect_of(rec)
            f = figures[a]
            dkey = "%s@%s" % (c["key"], a)
            # a run record of one entry: KEY@run:ENTRY first
            ekey = "%s:%s" % (dkey, rec[1]) if a == "run" else \
                "%s:%s" % (dkey, exit_key(rec)) if a == "exit" else None
            d = decided.get(ekey) if ekey else None
            if d:
                used.add(ekey)
            else:
                d = decided.get(dkey)
            if d:
                used.add(dkey)
            else:
                for k, v in decided.items():
                    if k.endswith("*") and "@" in k and dkey.startswith(k[:-1]):
                        d = v
                        used.add(k)
                        break
            if base and base[0] in ("lifted", "skew") and not d:
                d = base
            status, cause = judge(c, rec)
            if d and d[0] in ("lifted", "skew"):
                f["excl"] += 1
                continue
            if status == "n/c":
                f["n/c"] += 1
                continue
            if a == "run" and c.get("rewritten"):
                f["rw"] += 1
            if status == "agree":
                f["agree"] += 1
                if d:
                    diffs.append(("stale", c, rec, "agrees now", d))
                continue
            if d:
                f["spec"] += 1
                diffs.append(("decided", c, rec, cause, d))
            else:
                f["differ"] += 1
                diffs.append(("UNDECIDED", c, rec, cause, None))
    print("detail figures (LANGUAGE.md §0.2; not comparable: a lane's code, a code we do not "
          "report, a program we refuse; runs of an entry other than main or with arguments "
          "through `interpret`):")
    for a in ASPECTS:
        f = figures[a]
        counted = f["agree"] + f["differ"] + f["spec"]
        print("  %-8s agreement: raw %d/%d = %.1f%%, over what our spec does not decide "
              "otherwise (%d decided): %d/%d = %.1f%% (%d not comparable, %d excluded%s)" % (
                  a, f["agree"], counted, 100.0 * f["agree"] / max(1, counted), f["spec"],
                  f["agree"], counted - f["spec"],
                  100.0 * f["agree"] / max(1, counted - f["spec"]), f["n/c"], f["excl"],
                  ", %d compared on a decided rewrite" % f["rw"] if f["rw"] else ""))
    for cls, c, rec, cause, d in diffs:
        print("  %-9s %s@%s  expected %s; %s%s  [%s]" % (
            cls, c["key"], aspect_of(rec), describe(rec), cause,
            " (%s)" % d[1] if d else "", c.get("file", "")))
    return [k for k in decided if "@" in k and k not in used]
