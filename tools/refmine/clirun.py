"""Exit statuses a test states for our CLI (the "exit" detail figure).

A test that runs `Command::new(env!("CARGO_BIN_EXE_semaprax"))` builds the
command with `.arg(…)`, `.args([…])` and `.current_dir(…)` (in the test
or in a file helper such as `fn run(fixture, native, arguments)`), then
`.output()`; what it states of the status is read:
`assert!(output.status.success())` (negated: failure),
`assert_eq!(output.status.success(), BOOL)`, `assert_eq!(output.status.code(),
Some(N))`, and the same through a helper's returned tuple
(`(output.status.code().unwrap_or(-1), stdout, stderr)`, compared
position by position with a tuple of literals, or bound by `let (code, …)`).

The program is the one the command names: a `Fixture::new(SOURCE)` (its
`source`, or `source.spx` in its `root`, where `fixture.write(name,
bytes)` put the other files) or a path a helper wrote the program to.
An argument added under a condition the evaluator cannot decide (`if
native { command.arg("--native"); }` for a lane it does not know) is
optional: our binary is run both with and without it, and each run must
give the stated status. Record: ("exit", argv, files, (kind, value)) with
argv a tuple of strings and ("opt", s), SRC for the program's path, files
((name, bytes as latin-1 text), …), kind "code" or "success".
"""

from values import Taint, Seq

SRC = "\0src"  # the program's path in an argv


class Fixture(Taint):
    """`Fixture::new(SOURCE)`: a directory holding the program as
    source.spx and the files `write` put beside it."""

    def __init__(self, progs):
        Taint.__init__(self, progs)
        self.files = {}


class Cli(Taint):
    """A `Command` for our binary being built (mutable, as the builder is)."""

    def __init__(self, level):
        Taint.__init__(self, ())
        self.argv = []
        self.files = None    # the fixture's files when it runs there
        self.level = level   # undecided `if`s around its creation
        self.bad = False     # an argument the evaluator does not know


class CliOut(Taint):
    """`command.output()`: the run of a finished command."""

    def __init__(self, progs, argv, files, bad):
        Taint.__init__(self, progs)
        self.argv = argv
        self.files = files
        self.bad = bad


class ExitCode(CliOut):
    """`output.status.code()` (also through `.unwrap_or(…)`)."""


class ExitOk(CliOut):
    """`output.status.success()`."""


def file_bytes(v):
    """A written file's content as latin-1 text, or None."""
    if isinstance(v, str):
        return v.encode("utf-8").decode("latin-1")
    if isinstance(v, Seq) and all(isinstance(x, int) and not isinstance(x, bool) and
                                  0 <= x < 256 for x in v.items):
        return bytes(v.items).decode("latin-1")
    return None


class CliReader:
    """Mixed into FileExtractor (after DetailReader)."""

    cli_level = 0  # undecided `if` blocks being walked

    def cli_call(self, path, argt, args):
        """`Command::new(env!("CARGO_BIN_EXE_semaprax"))` and
        `Fixture::new(SOURCE)`, or None."""
        if path[-2:] == ["Command", "new"] and len(argt) == 1 and \
                any(t[0] == "str" and t[2] == "CARGO_BIN_EXE_semaprax" for t in argt[0]):
            return Cli(self.cli_level)
        if path[-2:] == ["Fixture", "new"] and len(args) == 1:
            progs = self.taint_of(args[0])
            if len(progs) == 1:
                return Fixture(progs)
        return None

    def cli_arg(self, cmd, v):
        """One argument's argv item: a text, the program's path, or None."""
        if isinstance(v, str):
            return v
        if isinstance(v, Fixture) or (type(v) is Taint and len(v.progs) == 1):
            if cmd.progs and cmd.progs != v.progs:
                return None
            cmd.progs = frozenset(v.progs)
            if isinstance(v, Fixture):
                cmd.files = v.files
            return SRC
        return None

    def cli_method(self, v, name, args):
        """A builder step, or None when `name` is no method read here."""
        if isinstance(v, Fixture) and name == "write" and len(args) == 2 and \
                isinstance(args[0], str):
            v.files[args[0]] = file_bytes(args[1])
            return v
        if isinstance(v, Cli):
            if name in ("arg", "args") and len(args) == 1:
                items = args[0].items if name == "args" and isinstance(args[0], Seq) else \
                    [args[0]] if name == "arg" else None
                if items is None:
                    v.bad = True
                    return v
                opt = self.cli_level > v.level
                for x in items:
                    a = self.cli_arg(v, x)
                    if a is None:
                        v.bad = True
                    else:
                        v.argv.append(("opt", a) if opt else a)
                return v
            if name == "current_dir" and len(args) == 1:
                if isinstance(args[0], Fixture) and (not v.progs or v.progs == args[0].progs):
                    v.progs = frozenset(args[0].progs)
                    v.files = args[0].files
                else:
                    v.bad = True
                return v
            if name == "output":
                files = v.files
                if files is not None and any(b is None for b in files.values()):
                    files = None
                return CliOut(v.progs, tuple(v.argv), tuple(sorted((files or {}).items())),
                              v.bad or (v.files is not None and files is None))
            return None
        if isinstance(v, CliOut) and type(v) is CliOut:
            if name in ("unwrap", "expect"):
                return v
            if name in ("code", "success"):
                return (ExitCode if name == "code" else ExitOk)(v.progs, v.argv, v.files, v.bad)
            return None
        if isinstance(v, ExitCode) and name in ("unwrap", "unwrap_or", "expect"):
            return v
        return None

    def cli_if(self, cond, env):
        """An `if` condition's truth where the evaluator knows it: a bool
        binding (a lane), its negation, `cfg!(windows)` (we run on Unix)."""
        w = [t[1] for t in cond]
        neg = False
        if w[:1] == ["!"]:
            neg, w, cond = True, w[1:], cond[1:]
        if w == ["cfg", "!", "(", "windows", ")"]:
            return neg
        if w == ["cfg", "!", "(", "unix", ")"]:
            return not neg
        if len(cond) == 1 and cond[0][0] == "ident" and isinstance(env.get(w[0]), bool):
            return env[w[0]] != neg
        return None

    def cli_if_let(self, cond, env, inner):
        """`if let Some((success, stdout, stderr)) = run_native(…)`: the
        run's values bound in the block (only a run's: `inner`)."""
        eq = next((k for k, t in enumerate(cond) if t[1] == "="), None)
        if eq is None or not any(t[0] == "ident" and t[1] in self.helpers and any(
                u[0] == "str" and u[2] == "CARGO_BIN_EXE_semaprax"
                for u in self.helpers[t[1]].body) for t in cond[eq + 1:]):
            return  # only a helper running our binary is called for its values
        pat = cond[:eq]
        if [t[1] for t in pat[:2]] == ["Some", "("] and pat[-1][1] == ")":
            pat = pat[2:-1]
        v = self.eval(cond[eq + 1:], env)
        if isinstance(v, CliOut) or isinstance(v, Seq) and \
                any(isinstance(x, CliOut) for x in v.items):
            self.bind(pat, v, inner)

    def cli_helper(self, h, env):
        """A helper that runs our binary: its body walked for the statuses
        it asserts (only the exit records are kept), then its tail's value."""
        body = h.body
        depth = 0
        tail = 0
        for k, t in enumerate(body):
            if t[1] in ("(", "[", "{"):
                depth += 1
            elif t[1] in (")", "]", "}"):
                depth -= 1
                if depth == 0 and t[1] == "}" and k + 1 < len(body) and \
                        body[k + 1][1] not in (".", "else", ")", ",", ";", "?"):
                    tail = k + 1
            elif t[1] == ";" and depth == 0:
                tail = k + 1
        saved = self.expect, dict(self.details)
        self.expect = {}
        try:
            self.block(body[:tail], env)
            v = self.eval(body[tail:], env) if tail < len(body) else None
        finally:
            exits = {p: [r for r in recs if r[0] == "exit"] for p, recs in self.details.items()}
            self.expect, self.details = saved
            for p, recs in exits.items():
                for r in recs:
                    lst = self.details.setdefault(p, [])
                    if r not in lst:
                        lst.append(r)
        return v

    def read_exit(self, mac, parts, env):
        """A stated status (module doc); True when the assertion was one."""
        if mac == "assert" and len(parts) == 1:
            toks = parts[0]
            neg = False
            while toks and toks[0][1] == "!":
                neg, toks = not neg, toks[1:]
            v = self.eval(toks, env)
            if isinstance(v, ExitOk):
                self.note_exit(v, ("success", not neg))
                return True
            return False
        if mac != "assert_eq" or len(parts) != 2:
            return False
        a, b = self.eval(parts[0], env), self.eval(parts[1], env)
        pairs = [(a, b)]
        if isinstance(a, Seq) and isinstance(b, Seq) and len(a.items) == len(b.items):
            pairs = list(zip(a.items, b.items))
        found = False
        for x, y in pairs:
            if isinstance(y, CliOut):
                x, y = y, x
            if isinstance(x, ExitCode) and isinstance(y, int) and not isinstance(y, bool):
                self.note_exit(x, ("code", y))
                found = True
            elif isinstance(x, ExitOk) and isinstance(y, bool):
                self.note_exit(x, ("success", y))
                found = True
        return found

    def note_exit(self, out, expect):
        if out.bad or not out.argv or not isinstance(out.argv[0], str) or out.argv[0] == SRC:
            return
        self.note_detail(set(out.progs), ("exit", out.argv, out.files, expect))
