# lib.sh — the preamble the tests/*-test.sh suites share (POSIX sh), sourced
# first, before golden-lib.sh, lane-lib.sh or stop-lib.sh:
#
#   . "$(dirname "$0")/lib.sh"
#   t_begin NAME "$1"
#
#   t_begin NAME BIN   names the suite (its FAIL lines and its summary); $bin is
#                      BIN made absolute (a missing or non-executable BIN fails
#                      the suite at once, exit 1); $tmp is a fresh directory,
#                      removed when the suite exits; pass=0 fail=0
#   ok                 a check passed
#   bad TEXT           a check failed: prints "FAIL NAME: TEXT" on stdout
#   expect STATUS WHAT -- CMD…   runs CMD with NO_COLOR=1 and stdin /dev/null,
#                      stdout in $tmp/out, stderr in $tmp/err; one check: the
#                      exit status is STATUS
#   has FILE TEXT WHAT     one check: FILE holds the line fragment TEXT
#   lacks FILE TEXT WHAT   one check: FILE does not hold TEXT
#   empty FILE WHAT        one check: FILE is empty
#   t_py SCRIPT ARG…   one check: `$t_python SCRIPT $bin ARG…` exits 0 (the
#                      scripted clients of the service and LSP suites)
#   $t_python          python3 as the suites start it: the interpreter itself
#                      (sys.executable, $SPX_PYTHON when make resolved it) with
#                      -S.  A version manager's shim on PATH (pyenv: a shell
#                      and `pyenv exec`) cost ~0.4 s of CPU per start on the
#                      CI machines, and -S skips site-packages' .pth hooks
#                      (one imported certifi at every start); the scripts use
#                      the standard library only
#   t_need HINT TOOL…  fails the suite (exit 1) naming the first TOOL not on
#                      PATH, then "(HINT)": a missing tool fails, never skips
#   t_asan             true under the sanitizer lane (make test-sanitize sets
#                      ASAN_OPTIONS): what it cannot run there is left out
#   t_first FILE       $t_l is FILE's first line (empty when FILE is empty
#                      or missing), read by the shell itself: `$(head -n 1
#                      FILE)` costs two processes, ~8 ms of CPU each on a
#                      loaded CI machine (docs/DECISIONS.md "ci39")
#   t_same A B         true when files A and B hold the same bytes: both empty
#                      (the shell's `test -s`, the common case of a stderr), or
#                      `cmp -s`
#   t_end [TAIL]       prints "NAME: P checks passed, F failed[TAIL]"; true iff
#                      no check failed (a suite's last command: its status)

t_begin() {
	t_name=$1
	if [ -z "${2:-}" ]; then
		echo "FAIL $t_name: usage: sh $0 BIN (the semaprax binary)"
		exit 1
	fi
	case $2 in /*) bin=$2 ;; *) bin=$(pwd)/$2 ;; esac
	if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
		echo "FAIL $t_name: \`$2\` is not an executable (build it first: make all)"
		exit 1
	fi
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	pass=0
	fail=0
}

if [ -z "${SPX_PYTHON:-}" ]; then
	SPX_PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2> /dev/null) || SPX_PYTHON=
	[ -n "$SPX_PYTHON" ] || SPX_PYTHON=python3
	export SPX_PYTHON
fi
t_python="$SPX_PYTHON -S"

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $t_name: $*"; }

expect() {
	t_want=$1; t_what=$2; shift 3
	NO_COLOR=1 "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
	t_got=$?
	if [ "$t_got" -eq "$t_want" ]; then ok; else bad "$t_what: exit $t_got, wanted $t_want"; fi
}
has() { if grep -qF -- "$2" "$1"; then ok; else bad "$3: missing \`$2\`"; fi; }
lacks() { if grep -qF -- "$2" "$1"; then bad "$3: unexpected \`$2\`"; else ok; fi; }
empty() { if [ -s "$1" ]; then bad "$2: not empty: $(head -c 200 "$1")"; else ok; fi; }
t_py() {
	t_script=$1
	shift
	if $t_python "$t_script" "$bin" "$@"; then ok; else bad "${t_script##*/} $*"; fi
}

t_need() {
	t_hint=$1
	shift
	for t_tool in "$@"; do
		if ! command -v "$t_tool" > /dev/null 2>&1; then
			echo "FAIL $t_name: \`$t_tool\` not found ($t_hint)"
			exit 1
		fi
	done
}

t_asan() { [ -n "${ASAN_OPTIONS-}" ]; }

t_same() {
	if [ ! -s "$1" ] && [ ! -s "$2" ] && [ -f "$1" ] && [ -f "$2" ]; then
		return 0
	fi
	cmp -s "$1" "$2"
}

t_first() {
	t_l=
	{ IFS= read -r t_l || :; } 2> /dev/null < "$1"
}

# node reads the whole CA bundle NODE_EXTRA_CA_CERTS names at every start
# (~80 ms of its ~190 ms where the machine sets it); no suite speaks TLS, and
# the suites start node ~1,200 times per CI run (run --wasm, the web host)
unset NODE_EXTRA_CA_CERTS

t_end() {
	echo "$t_name: $pass checks passed, $fail failed${1:-}"
	[ "$fail" -eq 0 ]
}
