#!/usr/bin/env python3
"""fixsweep.py — sweep the diagnostics' machine-applicable fixes.

Takes every fixture that checks clean (tests/fixtures/run/, the accepted
ones under tests/fixtures/check/, examples/), applies small deterministic
mutations to it (a `;` deleted, `->`/`=>` swapped, a `mut` dropped, a
literal suffix made wrong, a name misspelled, a `: T` removed, a match arm
dropped, a pattern field dropped, a `-> T` moved behind the contract clauses, a `;` put after a
tail expression), runs `semaprax check --json` on each mutant, and applies
each diagnostic's fixes (all of one diagnostic's fixes together, as `fix`
takes them) to the mutant alone.  A fix is WRONG when, after it:

  - the diagnostic is still there (same code at the same place, the place
    carried through the edit), or
  - the file has an error the mutant did not have (a new code, or more
    errors of a code) — when the mutant's errors were all from the parse
    stage (SPX-L…/SPX-P…, which stop the checker), the fixed file is
    compared with the clean original instead: a parse fix that leaves the
    file parsing must not leave a checker error behind.

Usage:
  fixsweep.py --bin build/semaprax [--seed N] [--per-op N] [--sample N]
              [--files-from LIST] [--jobs N] [--verbose] [PATH…]

PATHs default to tests/fixtures/run tests/fixtures/check examples.  With
--sample N only N files (chosen by the seed from the sorted list) are swept.
Prints one `WRONG` block per wrong fix (and a `CRASH` block for a `check`
that exits other than 0 or 1: a crash or a sanitizer report), then the
counts; exits 1 when either was found.  Identical arguments give byte-identical output.
"""
import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

KEYWORDS = {
    "module", "fn", "let", "mut", "if", "else", "match", "return", "true",
    "false", "use", "from", "as", "type", "record", "variant", "class",
    "resource", "requires", "ensures", "invariant", "uses", "for", "in",
    "while", "loop", "break", "continue", "with", "self", "Self", "result",
    "test", "permits", "own", "ref", "pub", "extern", "function", "where",
    "i32", "i64", "u8", "usize", "f32", "f64", "bool", "char", "string",
    "unit", "Vec", "Map", "Set", "Box", "Option", "Result", "Iter", "Bytes",
    "Some", "None", "Ok", "Err", "value", "error", "main", "id", "assert",
    "inout", "borrow", "drop", "move", "const", "impl", "trait", "enum",
    "struct",
}


def code_mask(src):
    """A list of bools: True where byte i is code (not in a comment, a
    string or a char literal)."""
    n = len(src)
    mask = [True] * n
    i = 0
    while i < n:
        c = src[i]
        if c == "/" and i + 1 < n and src[i + 1] == "/":
            j = src.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
            i = j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
            for k in range(i, j):
                mask[k] = False
            i = j
        else:
            i += 1
    return mask


def in_code(mask, s, e):
    return all(mask[s:e])


def id_spans(src):
    """Spans of `@id("…")` annotations: never mutated."""
    return [(m.start(), m.end()) for m in re.finditer(r'@id\("[^"]*"\)', src)]


# ---- mutation operators: each returns a list of (label, new_text) ----

def op_del_semi(src, mask):
    out = []
    for m in re.finditer(r";", src):
        if mask[m.start()]:
            out.append(("delete `;` at %d" % m.start(), src[:m.start()] + src[m.end():]))
    return out


def op_swap_arrow(src, mask):
    out = []
    for m in re.finditer(r"->|=>", src):
        if in_code(mask, m.start(), m.end()):
            new = "=>" if m.group() == "->" else "->"
            out.append(("`%s` as `%s` at %d" % (m.group(), new, m.start()),
                        src[:m.start()] + new + src[m.end():]))
    return out


def op_drop_mut(src, mask):
    out = []
    for m in re.finditer(r"\bmut\s+", src):
        if mask[m.start()]:
            out.append(("drop `mut` at %d" % m.start(), src[:m.start()] + src[m.end():]))
    return out


SUFFIXES = ["i32", "u8", "usize", "i64", "f32", "f64"]


def op_wrong_suffix(src, mask):
    out = []
    for m in re.finditer(r"(?<![\w.])(\d+(?:\.\d+)?)(i32|u8|usize|i64|f32|f64)?(?![\w.])", src):
        if not in_code(mask, m.start(), m.end()):
            continue
        digits, suf = m.group(1), m.group(2)
        isfloat = "." in digits
        if suf:
            choices = [s for s in (["f32", "f64"] if isfloat else ["i32", "u8", "usize"]) if s != suf]
            choices.append("")
        else:
            choices = ["f32"] if isfloat else ["i32", "u8", "usize"]
        for s in choices:
            out.append(("literal `%s` as `%s%s` at %d" % (m.group(), digits, s, m.start()),
                        src[:m.start()] + digits + s + src[m.end():]))
    return out


def op_misspell(src, mask):
    out = []
    ids = id_spans(src)
    for m in re.finditer(r"\b[A-Za-z_][A-Za-z0-9_]{2,}\b", src):
        w = m.group()
        if w in KEYWORDS or not in_code(mask, m.start(), m.end()):
            continue
        if any(s <= m.start() < e for s, e in ids):
            continue
        if src[:m.start()].rstrip().endswith("module"):
            continue
        # drop the second letter: deterministic, usually within edit distance 1
        bad = w[0] + w[2:]
        out.append(("`%s` misspelled `%s` at %d" % (w, bad, m.start()), src[:m.start()] + bad + src[m.end():]))
    return out


def op_remove_annotation(src, mask):
    out = []
    for m in re.finditer(r"\blet\s+(?:mut\s+)?[A-Za-z_]\w*(\s*:\s*[^=;\n]+?)\s*=", src):
        if in_code(mask, m.start(), m.end()):
            s, e = m.span(1)
            out.append(("remove `%s` at %d" % (src[s:e].strip(), s), src[:s] + src[e:]))
    for m in re.finditer(r"\bfn\s+\w+\s*(?:<[^>]*>)?\s*\(([^)]*)\)", src):
        if not in_code(mask, m.start(), m.end()):
            continue
        base = m.start(1)
        for p in re.finditer(r"(\w+)(\s*:\s*[^,]+)", m.group(1)):
            if p.group(1) == "self":
                continue
            s, e = base + p.start(2), base + p.end(2)
            out.append(("remove parameter type `%s` at %d" % (src[s:e].strip(), s), src[:s] + src[e:]))
    return out


def match_arms(src, mask):
    """(arm start, arm end with its comma) lists for each `match`."""
    res = []
    for m in re.finditer(r"\bmatch\b", src):
        if not mask[m.start()]:
            continue
        i, depth, n = m.end(), 0, len(src)
        while i < n and not (src[i] == "{" and depth == 0 and mask[i]):
            if mask[i] and src[i] in "([":
                depth += 1
            elif mask[i] and src[i] in ")]":
                depth -= 1
            i += 1
        if i >= n:
            continue
        arms, start, depth, j = [], i + 1, 0, i + 1
        while j < n:
            c = src[j]
            if mask[j] and c in "([{":
                depth += 1
            elif mask[j] and c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif mask[j] and c == "," and depth == 0:
                arms.append((start, j + 1))
                start = j + 1
            j += 1
        if src[start:j].strip():
            arms.append((start, j))
        arms = [(s, e) for s, e in arms if "=>" in src[s:e]]
        if len(arms) >= 2:
            res.append(arms)
    return res


def op_drop_arm(src, mask):
    out = []
    for arms in match_arms(src, mask):
        for s, e in arms:
            out.append(("drop match arm `%s`" % " ".join(src[s:e].split())[:60], src[:s] + src[e:]))
    return out


def op_drop_pattern_field(src, mask):
    """A field dropped from a record or case pattern (`P { a, b } =>`)."""
    out = []
    for m in re.finditer(r"\b[A-Z]\w*(?:::\w+)?\s*\{([^{}=]*)\}\s*=>", src):
        if not in_code(mask, m.start(), m.end()):
            continue
        inner_start = m.start(1)
        fields = [f for f in re.finditer(r"[^,]+", m.group(1)) if f.group().strip()]
        for f in fields:
            s, e = inner_start + f.start(), inner_start + f.end()
            if e < len(src) and src[e] == ",":
                e += 1
            elif s > inner_start and src[s - 1] == ",":
                s -= 1
            out.append(("drop pattern field `%s` at %d" % (f.group().strip(), s), src[:s] + src[e:]))
    return out


def op_arrow_after_contract(src, mask):
    """`fn f(…) -> T requires … {` → `fn f(…) requires … -> T {`."""
    out = []
    for m in re.finditer(r"\)(\s*->\s*)([^\n{]+?)(\s*\n\s*(?:requires|ensures)\b[^{]*?)(\s*\{)", src):
        if not in_code(mask, m.start(), m.end()):
            continue
        arrow = m.group(1).strip() + " " + m.group(2).strip()
        new = src[:m.start()] + ")" + m.group(3) + " " + arrow + m.group(4) + src[m.end():]
        out.append(("`%s` moved after the contract at %d" % (arrow, m.start()), new))
    return out


def op_semi_after_tail(src, mask):
    """A `;` after a block's tail expression (the line before a lone `}`)."""
    out = []
    for m in re.finditer(r"([^\s;{},])([ \t]*)\n(\s*\})", src):
        if not mask[m.start()] or m.group(1) == "/":
            continue
        line_start = src.rfind("\n", 0, m.start()) + 1
        line = src[line_start:m.start() + 1].strip()
        if line.startswith(("requires", "ensures", "@", "//", "fn ", "|")) or "=>" in line:
            continue
        pos = m.start() + 1
        out.append(("`;` after the tail at %d" % pos, src[:pos] + ";" + src[pos:]))
    return out


OPS = [
    ("del-semi", op_del_semi),
    ("swap-arrow", op_swap_arrow),
    ("drop-mut", op_drop_mut),
    ("wrong-suffix", op_wrong_suffix),
    ("misspell", op_misspell),
    ("remove-type", op_remove_annotation),
    ("drop-arm", op_drop_arm),
    ("drop-field", op_drop_pattern_field),
    ("arrow-after-contract", op_arrow_after_contract),
    ("semi-after-tail", op_semi_after_tail),
]


# ---- checking and fixing ----

class Checker:
    def __init__(self, binary, tmpdir):
        self.bin = binary
        self.tmp = tmpdir
        self.crashes = []

    def check(self, text, slot):
        path = os.path.join(self.tmp, "m%d.spx" % slot)
        with open(path, "wb") as f:
            f.write(text.encode("utf-8"))
        p = subprocess.run([self.bin, "check", "--json", path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        if p.returncode not in (0, 1):
            # a crash, a sanitizer report or a usage error: never a diagnostic
            self.crashes.append((p.returncode, text, p.stderr.decode("utf-8", "replace")[:300]))
        diags = []
        for line in p.stdout.decode("utf-8", "replace").splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    diags.append(json.loads(line))
                except ValueError:
                    pass
        return p.returncode, diags


def errors(diags):
    return [d for d in diags if d.get("severity") == "error"]


def parse_stage(code):
    return code.startswith("SPX-L") or code.startswith("SPX-P")


def start_of(d):
    loc = d.get("location") or {}
    return loc.get("start", -1)


def apply_fixes(data, fixes):
    """data: bytes; fixes: [{start,end,replacement}] → (bytes, shift(pos)) or None."""
    fs = sorted(fixes, key=lambda f: (f["start"], f["end"]))
    out, pos = [], 0
    for f in fs:
        if f["start"] < pos or f["end"] < f["start"] or f["end"] > len(data):
            return None, None
        out.append(data[pos:f["start"]])
        out.append(f["replacement"].encode("utf-8"))
        pos = f["end"]
    out.append(data[pos:])

    def shift(p):
        d = 0
        for f in fs:
            if f["end"] <= p and not (f["start"] == f["end"] == p):
                d += len(f["replacement"].encode("utf-8")) - (f["end"] - f["start"])
        return p + d
    return b"".join(out), shift


def counts(diags):
    c = {}
    for d in errors(diags):
        c[d["code"]] = c.get(d["code"], 0) + 1
    return c


def new_errors(diags, after):
    """A reason when after has errors diags did not (see the module doc)."""
    before_err = errors(diags)
    base = counts(diags)
    if before_err and all(parse_stage(b["code"]) for b in before_err):
        # the checker did not run on the mutant: new checker errors count
        if not any(parse_stage(a["code"]) for a in errors(after)):
            if errors(after):
                return "the fixed file parses but has new checker errors"
            return None
    now = counts(after)
    for code in sorted(now):
        if now[code] > base.get(code, 0):
            return "new error %s" % code
    return None


def judge(chk, slot, mutant, diags, d):
    """None when d's fixes are right, else a reason.  A fix that leaves a
    new error is judged again with the fixes of every diagnostic of its code
    applied together (as `fix` applies them): one of two misspelled uses
    fixed alone can leave a cascade the other's fix removes."""
    data = mutant.encode("utf-8")
    fixed, shift = apply_fixes(data, d["fixes"])
    if fixed is None:
        return "fixes overlap or fall outside the file", None
    text = fixed.decode("utf-8", "replace")
    _, after = chk.check(text, slot)
    where = shift(start_of(d))
    # two errors of one code may start at one byte (T208 on `i + 1usize` and
    # on `i + 1usize < n`): the fixed one is gone when fewer remain there
    # than the mutant had (rev40)
    before = sum(1 for b in errors(diags) if b["code"] == d["code"] and start_of(b) == start_of(d))
    still = sum(1 for a in errors(after) if a["code"] == d["code"] and start_of(a) == where)
    if still >= max(before, 1):
        return "the diagnostic is still there", (text, after)
    why = new_errors(diags, after)
    if why is None:
        return None, None
    group = [f for g in diags if g["code"] == d["code"] for f in (g.get("fixes") or [])]
    gfixed, _ = apply_fixes(data, group)
    if gfixed is not None and len(group) > len(d["fixes"]):
        gtext = gfixed.decode("utf-8", "replace")
        _, gafter = chk.check(gtext, slot)
        if new_errors(diags, gafter) is None:
            return None, None
    return why, (text, after)


def collect(paths):
    files = []
    for p in paths:
        if os.path.isfile(p):
            files.append(p)
            continue
        for root, dirs, names in os.walk(p):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(".spx"):
                    files.append(os.path.join(root, n))
    return sorted(set(files))


def seeded(seed, rel):
    h = hashlib.sha256(("%d:%s" % (seed, rel)).encode()).hexdigest()
    return random.Random(int(h[:16], 16))


def sweep_file(chk, slot, path, args):
    """(report lines, nmutants, ndiags, nfixdiags, nwrong) or None when not clean."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        src = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "//~" in src:
        return None
    st, diags = chk.check(src, slot)
    if st != 0 or errors(diags):
        return None
    mask = code_mask(src)
    rng = seeded(args.seed, path)
    lines, nm, nd, nfx, nwrong = [], 0, 0, 0, 0
    for name, op in OPS:
        if args.ops and name not in args.ops:
            continue
        cands = op(src, mask)
        if not cands:
            continue
        pick = rng.sample(range(len(cands)), min(args.per_op, len(cands)))
        for k in sorted(pick):
            label, mutant = cands[k]
            if mutant == src:
                continue
            nm += 1
            _, md = chk.check(mutant, slot)
            for d in md:
                nd += 1
                if not d.get("fixes"):
                    continue
                nfx += 1
                why, res = judge(chk, slot, mutant, md, d)
                if why:
                    nwrong += 1
                    lines.append("WRONG %s [%s] %s: %s %s at %s: %s" % (
                        path, name, label, d["code"], json.dumps(d["fixes"]),
                        (d.get("location") or {}).get("line", "?"), why))
                    if args.verbose and res:
                        lines.append("  message: %s" % d.get("message"))
                        for a in errors(res[1])[:4]:
                            lines.append("  after: %s %s (line %s)" % (
                                a["code"], a["message"], (a.get("location") or {}).get("line", "?")))
    return lines, nm, nd, nfx, nwrong


SELFTEST_SRC = """module t;

@id("app.main")
fn main() -> i64
{
    let n = 41;
    n + 1
}
"""


def selftest(binary):
    """The judge must catch a wrong fix and pass a right one: a sweep whose
    judge passed everything could not fail."""
    with tempfile.TemporaryDirectory(prefix="fixsweep.") as tmp:
        chk = Checker(os.path.abspath(binary), tmp)
        st, d0 = chk.check(SELFTEST_SRC, 0)
        assert st == 0 and not errors(d0), "selftest: the clean program does not check"
        at = SELFTEST_SRC.index("41;") + 2
        mutant = SELFTEST_SRC[:at] + SELFTEST_SRC[at + 1:]
        _, md = chk.check(mutant, 0)
        p106 = [d for d in md if d["code"] == "SPX-P106" and d.get("fixes")]
        assert p106, "selftest: the `;` deleted gives no P106 with a fix"
        d = p106[0]
        why, _ = judge(chk, 0, mutant, md, d)
        assert why is None, "selftest: the right fix judged wrong: %s" % why
        # the same diagnostic with fixes that leave it, or add an error
        for bad in ([{"start": at, "end": at, "replacement": ""}],
                    [{"start": at, "end": at, "replacement": ";;"}],
                    [{"start": at, "end": at, "replacement": "; let n = true;"}]):
            why, _ = judge(chk, 0, mutant, md, dict(d, fixes=bad))
            assert why, "selftest: the wrong fix %s passed" % json.dumps(bad)
    print("fixsweep: selftest ok")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/semaprax")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-op", type=int, default=2)
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--ops", action="append", default=[])
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--selftest", action="store_true")
    args = ap.parse_args()
    if args.selftest:
        selftest(args.bin)
        return 0
    paths = args.paths or ["tests/fixtures/run", "tests/fixtures/check", "examples"]
    files = collect(paths)
    if args.sample:
        # a sample is drawn from the files without markers (the clean candidates)
        def unmarked(f):
            with open(f, "rb") as h:
                return b"//~" not in h.read()
        files = [f for f in files if unmarked(f)]
    if args.sample and args.sample < len(files):
        rng = random.Random(args.seed)
        files = sorted(rng.sample(files, args.sample))
    with tempfile.TemporaryDirectory(prefix="fixsweep.") as tmp:
        chk = Checker(os.path.abspath(args.bin), tmp)
        jobs = max(1, args.jobs)
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            results = list(ex.map(lambda ip: sweep_file(chk, ip[0], ip[1], args), enumerate(files)))
    for st, text, err in sorted(chk.crashes):
        print("CRASH check exited %d on:\n%s\n  stderr: %s" % (st, text, err))
    nfiles = nm = nd = nfx = nwrong = 0
    for r in results:
        if r is None:
            continue
        lines, a, b, c, w = r
        nfiles += 1
        nm += a
        nd += b
        nfx += c
        nwrong += w
        for line in lines:
            print(line)
    print("fixsweep: %d clean files, %d mutants, %d diagnostics, %d with a fix, %d wrong fixes, %d crashes (seed %d)"
          % (nfiles, nm, nd, nfx, nwrong, len(chk.crashes), args.seed))
    return 1 if nwrong or chk.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
