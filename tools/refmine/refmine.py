#!/usr/bin/env python3
"""refmine: our agreement with the reference implementation's own tests.

    python3 tools/refmine/refmine.py --ref DIR [--ref DIR2 ...] [options]

--ref names a checkout of the reference (github.com/wavect/semaprax), or a
git directory (a bare repository or a `.git`; `--rev` picks the commit,
HEAD by default), or a directory of loose `.rs` test files (for instance
newer files saved one by one). Several --ref arguments are merged; a later
one's file replaces an earlier one's at the same path. Read: every
tests/**/*.rs (or *.rs anywhere in a loose directory) and the examples'
top-level *.spx files (each expected to verify).

Each extracted case (program + expected outcome, see extract.py) is
written to build/refmine/cases/ and checked with our binary: `check --json`
for accepted/rejected expectations, `parse` for parse-only ones. A case
agrees when an expected acceptance meets no error, and an expected
rejection meets every code the reference names (any code when it names
none). tools/refmine/decided.txt lists known differences by case key with
the reason our spec gives (a key ending in `*` covers every case it
prefixes); the report separates those from the undecided.

After the verdicts, four detail figures (LANGUAGE.md §0.2; details.py
reads them, detailcheck.py compares): the stated message and help text
and primary-span line:column of a diagnostic tied to one code, against
our `check --json`, and the interpreter envelope of the program's `main`,
against our `run --json`, or of another entry or with `--arg` literals
(a table of `(token, arguments, expected)` rows under the default
options; a table's one-line outcome `ok|<value>` / `<domain>|<code>`),
against our `semaprax interpret` (`interpret-strings` for the reference's
internal-String profile; both in turn for its `.or_else(…)` fallback; a
row's profile chosen by `if *id == …`; a smaller step budget derived from
our default-budget run), and a fifth, fmt: `format::canonical(&program)`
stated equal to a text or idempotent, against our `fmt --stdout`; a sixth and seventh, rev and graph:
`graph::revision` of a program stated equal to its fmt output's, to
another program's or to a digest (ours: `check --json`'s revision), and
`graph::to_json` equalities and the fields our graph shares (revision,
module, entrypoint, prelude; a snapshot's through include_str!); an
eighth, exit: the status a test states for a `CARGO_BIN_EXE_semaprax`
command (clirun.py), against our binary run with the same arguments.
decided.txt keys a detail `CASE@aspect` (message, help, loc, run, fmt,
rev, graph, exit; `CASE@run:ENTRY` one entry's run, `CASE@exit:ARGV` one
command's status), and `CASE@run` rewrite
lines: the runs of a program our check refuses compare on it rewritten as
our help lines prescribe. Figures as of session 21 (v0.2.0 plus 82 newest
tests/language files): verdicts raw 798/821 = 97.2%, 798/798 over what our
spec does not decide otherwise (23 decided); message 91/91; help 64/68
raw, 64/64 (4 decided); location 2/2; run 323/327 raw, 323/323 (4
decided, 30 on a decided rewrite, 0 not comparable); fmt 118/119 raw,
118/118 (1 decided); rev 51/51 (1 not comparable); graph 41/42 raw,
41/41 (1 decided, 1 not comparable). Session 23: verdicts 799/822 (799/799,
23 decided), exit 38/41 raw, 38/38 (3 decided), the rest as session 21. Session 20: run 277/277 with 30 not
comparable, no rev or graph figure. compat30 (v0.2.0 plus 91 newest
tests/language files, 208 files, 975 cases): verdicts 849/873 raw,
849/849 (24 decided); message 91/91; help 63/68 (5 decided); loc 2/2;
run 368/372 (4 decided); fmt 119/120 (1 decided); rev 52/52; graph
41/42 (1 decided); exit 38/41 (3 decided).

Nothing of the reference is stored in our repository: it is read from the
directory given, and the cases land under build/ (git-ignored).
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import extract, normpath  # noqa: E402
from detailcheck import run_details, report_details  # noqa: E402

# files whose programs serve other tools (patches, workspaces, hosts,
# agents): their codes are not verdicts on the program
EXCLUDE = re.compile(r"(^|/)(semantic_|workspace|agent_|economic_|cleanup_|"
                     r"native_(rust|callable)|public_native|project_|android_|"
                     r"ios_|desktop_|component_runtime|callable_|rust_host|"
                     r"diagnostic_repair|quality_routing|documentation|patch)"
                     r"|_ci_contract")


def git_files(gitdir, rev):
    names = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "--name-only", rev],
                           check=True, capture_output=True, text=True).stdout.split("\n")
    out = {}
    for n in names:
        if wanted(n):
            out[n] = subprocess.run(["git", "--git-dir", gitdir, "show", "%s:%s" % (rev, n)],
                                    check=True, capture_output=True).stdout.decode("utf-8", "replace")
    return out


def wanted(rel):
    """Test sources, and every .spx of tests/ and examples/: the top-level
    examples are cases of their own, the rest are read through include_str!."""
    if rel.startswith("tests/") and rel.endswith((".rs", ".spx")):
        return True
    if rel.startswith("tests/snapshots/") and rel.endswith(".graph.json"):
        return True  # graph snapshots, read through include_str! for their shared fields
    return rel.startswith("examples/") and rel.endswith(".spx")


def dir_files(root):
    out = {}
    loose = not os.path.isdir(os.path.join(root, "tests"))
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "target"))
        for f in sorted(files):
            full = os.path.join(base, f)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            if loose and f.endswith((".rs", ".spx")):
                rel = rel if rel.startswith("tests/") else "tests/" + rel
            elif not wanted(rel):
                continue
            with open(full, encoding="utf-8", errors="replace") as fh:
                out[rel] = fh.read()
    return out


def load_sources(refs, rev):
    files = {}
    for ref in refs:
        if os.path.isdir(os.path.join(ref, "objects")) and os.path.exists(os.path.join(ref, "HEAD")):
            files.update(git_files(ref, rev))
        elif os.path.isdir(ref):
            files.update(dir_files(ref))
        else:
            sys.exit("refmine: %s is neither a directory nor a git directory" % ref)
    return files


aliases = set()  # keys of programs met again under another key

SUBMODULE_RE = re.compile(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:pub\s+)?mod\s+\w+\s*;')


def submodule_parents(files):
    """{child path: parent path} for `#[path = "dir/x.rs"] mod x;` in a test
    file whose child begins with `use super::*;` (the child sees the
    parent's consts and helpers), or such a child `dir/x.rs` beside `dir.rs`."""
    out = {}
    for rel in sorted(files):
        if not rel.endswith(".rs"):
            continue
        base = rel.rsplit("/", 1)[0]
        for m in SUBMODULE_RE.finditer(files[rel]):
            child = normpath(base + "/" + m.group(1))
            if child in files and re.search(r"^\s*(//[^\n]*\n\s*)*use\s+super::\*;",
                                            files[child]):
                out[child] = rel
    # a child no parent we hold declares (an older parent): `dir/x.rs` in
    # the directory named after `dir.rs`, beginning `use super::*;`
    for rel in sorted(files):
        parent = rel.rsplit("/", 1)[0] + ".rs"
        if rel.endswith(".rs") and rel not in out and parent in files and \
                re.search(r"^\s*(//[^\n]*\n\s*)*use\s+super::\*;", files[rel]):
            out[rel] = parent
    return out



def mine(files):
    cases = []
    seen = {}
    details = {}  # key -> detail records (extract.py, details.py)
    parents = submodule_parents(files)
    for rel in sorted(files):
        text = files[rel]
        if rel.endswith(".json") or rel.endswith(".spx") and not (
                rel.startswith("examples/") and rel.count("/") == 1):
            continue  # read through include_str! only
        if rel.endswith(".spx"):
            found = [(rel, text, ("accept", ()))]
        elif EXCLUDE.search(parents.get(rel, rel)):
            continue  # a submodule goes with its parent file
        else:
            parent = (parents[rel], files[parents[rel]]) if rel in parents else None
            try:
                found = extract(rel, text, files, details, parent)
            except Exception as err:  # a file we cannot read is reported, not fatal
                print("refmine: %s: not mined (%s)" % (rel, err), file=sys.stderr)
                continue
        for key, source, exp in found:
            if exp[0] == "conflict":
                continue
            prev = seen.get(source)
            if prev is not None:
                aliases.add(key)
                # the same program under an earlier key: its details join
                # the earlier case's, once each
                for r in details.get(key, []):
                    if r not in prev["details"]:
                        prev["details"].append(r)
                if prev["kind"] == "detail" and exp[0] != "detail":
                    prev["kind"], prev["codes"] = exp[0], list(exp[1])
                continue
            case = {"key": key, "source": source, "kind": exp[0], "codes": list(exp[1]),
                    "details": list(details.get(key, []))}
            seen[source] = case
            cases.append(case)
    return cases


def run_case(binary, casedir, case):
    h = hashlib.sha256(case["source"].encode()).hexdigest()[:12]
    path = os.path.join(casedir, h + ".spx")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(case["source"])
    case["file"] = path
    if case["details"]:
        run_details(binary, case)
    if case["kind"].startswith("parse"):
        p = subprocess.run([binary, "parse", path], capture_output=True, timeout=60)
        codes = re.findall(rb"\[(SPX-[A-Z]+[0-9]+)\]", p.stderr)
        case["ours"] = [c.decode() for c in codes] if p.returncode else []
        case["status"] = p.returncode
        return case
    try:
        p = subprocess.run([binary, "check", "--json", path], capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        case["ours"] = ["timeout"]
        case["status"] = -1
        return case
    errs = []
    warns = []
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("code"):
            (errs if d.get("severity") == "error" else warns).append(d["code"])
    case["warnings"] = warns
    if p.returncode not in (0, 1):
        errs.append("crash:%d" % p.returncode)
    case["ours"] = errs
    case["status"] = p.returncode
    if case["kind"] == "output" and not errs:
        try:
            r = subprocess.run([binary, "run", path], capture_output=True, timeout=120)
            case["stdout"] = r.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            case["stdout"] = "<timeout>"
    return case


def verdict(case):
    ours = case["ours"]
    kind = case["kind"]
    if kind in ("backend", "detail"):
        return True, kind
    if kind == "output":
        if ours:
            return False, "expected output; we report %s" % ours[0]
        if case.get("stdout", "").strip() == case["codes"][0].strip():
            return True, "output"
        return False, "expected output %r; we print %r" % (case["codes"][0][:40],
                                                          case.get("stdout", "")[:40])
    if kind in ("accept", "parse-ok"):
        if not ours and case["status"] == 0:
            return True, "accept"
        return False, "expected accepted; we report %s" % (ours[0] if ours else "failure")
    # the reference's verify() lists warnings too (S103): a named code
    # agrees at either severity
    seen = ours + case.get("warnings", [])
    missing = [c for c in case["codes"] if not any(a in seen for a in c.split("|"))]
    if not missing and (ours or case["codes"]):
        return True, "reject"
    if not ours:
        want = "/".join(case["codes"]) or "any code"
        return False, "expected %s; we accept" % want
    if missing:
        return False, "expected %s; we report %s" % ("/".join(missing), ours[0])
    return True, "reject"


# KEY@run -> [(from, to)]: decided.txt's `rewrite` lines
rewrites = {}


def unescape(s):
    return s.replace("\\n", "\n").replace("\\t", "\t")


def load_decided(path):
    decided = {}
    if not os.path.exists(path):
        return decided
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) == 5 and parts[1] == "rewrite" and parts[0].endswith("@run"):
                # KEY@run, rewrite, FROM, TO, reason: the runs of a program
                # our check refuses compare on it rewritten as our help says
                # (FROM empty: TO is appended)
                rewrites.setdefault(parts[0], []).append((unescape(parts[2]), unescape(parts[3])))
                continue
            if len(parts) < 3 or parts[1] not in ("spec", "lifted", "skew"):
                sys.exit("refmine: %s:%d: want KEY<TAB>spec|lifted|skew<TAB>reason" % (path, n))
            decided[parts[0]] = (parts[1], parts[2])
    return decided


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", action="append", required=True)
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--bin", default="build/semaprax")
    ap.add_argument("--out", default="build/refmine")
    ap.add_argument("--decided", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "decided.txt"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--only", help="regex over case keys")
    ap.add_argument("--list", action="store_true", help="list the cases, run nothing")
    a = ap.parse_args()

    files = load_sources(a.ref, a.rev)
    cases = mine(files)
    if a.only:
        cases = [c for c in cases if re.search(a.only, c["key"])]
    if a.list:
        for c in cases:
            print("%s\t%s %s" % (c["key"], c["kind"], " ".join(c["codes"])))
        return 0
    casedir = os.path.join(a.out, "cases")
    os.makedirs(casedir, exist_ok=True)
    decided = load_decided(a.decided)
    for c in cases:
        c["rewrites"] = rewrites.get(c["key"] + "@run", [])
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j)) as pool:
        cases = list(pool.map(lambda c: run_case(a.bin, casedir, c), cases))

    causes = {}
    agree = counted = spec = 0
    undecided = []
    # an entry whose file was read but whose case is gone
    stale = [k for k in decided if not k.endswith("*") and "@" not in k
             and k not in {c["key"] for c in cases}
             and k.split("::")[0] in files and k not in aliases and not a.only]
    for c in cases:
        ok, cause = verdict(c)
        d = decided.get(c["key"]) or next(
            (v for k, v in decided.items() if k.endswith("*") and c["key"].startswith(k[:-1])),
            None)
        c["agree"] = ok
        if c["kind"] == "detail":
            continue  # details only: counted in the detail figures
        if c["kind"] == "backend":
            causes.setdefault(("excl. lane", "a lane's profile code (H/B/W, LI), not a check verdict"),
                              []).append(c)
            continue
        if d and d[0] in ("lifted", "skew"):
            causes.setdefault(("excl. " + d[0], cause), []).append(c)
            continue
        counted += 1
        if ok:
            agree += 1
            if d:
                stale.append(c["key"] + " (agrees now)")
            causes.setdefault(("agree", c["kind"]), []).append(c)
            continue
        if d:
            spec += 1
            causes.setdefault(("decided", cause), []).append(c)
        else:
            undecided.append(c)
            causes.setdefault(("UNDECIDED", cause), []).append(c)

    kinds = {}
    for c in cases:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    cases_v = [c for c in cases if c["kind"] != "detail"]
    print("refmine: %d files, %d cases (%s)" % (
        len(files), len(cases), ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    print("%-13s %5s  %s" % ("class", "cases", "cause"))
    for (cls, cause), cs in sorted(causes.items(), key=lambda kv: (kv[0][0] != "agree", kv[0][0], -len(kv[1]), kv[0][1])):
        print("%-13s %5d  %s" % (cls, len(cs), cause))
    excluded = len(cases_v) - counted
    print("raw agreement: %d/%d = %.1f%% (%d excluded: backend stage, lifted profile, version skew)" % (
        agree, counted, 100.0 * agree / max(1, counted), excluded))
    print("over expectations our spec does not decide otherwise (%d decided): %d/%d = %.1f%%" % (
        spec, agree, counted - spec, 100.0 * agree / max(1, counted - spec)))
    print("undecided differences: %d" % len(undecided))
    for c in undecided:
        print("  %s  %s  [%s]" % (c["key"], verdict(c)[1], c["file"]))
    stale_details = report_details(cases, decided)
    for k in stale:
        print("refmine: decided.txt entry not matched: %s" % k)
    for k in stale_details:
        print("refmine: decided.txt entry not matched: %s" % k)
    keys = {c["key"] for c in cases}
    for k in sorted(rewrites):
        if k[:-len("@run")] not in keys and not a.only:
            print("refmine: decided.txt rewrite not matched: %s" % k)
    for c in cases:
        if c.get("rewrite_error"):
            print("refmine: decided.txt rewrite of %s: %s" % (c["key"], c["rewrite_error"]))
    with open(os.path.join(a.out, "results.json"), "w", encoding="utf-8") as fh:
        json.dump([{k: c[k] for k in ("key", "kind", "codes", "ours", "agree", "file")}
                   for c in cases], fh, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
