#!/bin/sh
# random-test.sh [--sanitize] BIN [N] [SEED] — random-program lane agreement (issue 11 §5).
#
# Generates N programs (default 300) with tools/progen.c for the seeds
# SEED, SEED+1, … (default 1), and for each one:
#   1. `semaprax check` must accept it (a rejection is a generator bug or a
#      checker bug);
#   2. runs it in the interpreter (`run`) and natively (`run --native`, the
#      generated C compiled by $CC with -Werror added, so a gcc warning in the
#      emitted code is a failure) and compares stdout, the failure line and
#      the exit status with the table tests/native-test.sh uses
#      (tests/lane-lib.sh);
#   3. compiles the C of `semaprax build --target c` with clang (when present
#      and $CC is not clang, whose `run --native` already did it, and not
#      under --sanitize or RANDOM_CLANG=0) under
#      -std=c11 -Wall -Wextra -Werror (-fsyntax-only: the warnings need no
#      object code).
#      on a contract failure, the native report's detail lines must equal
#      the interpreter's `run --json` failure detail (argument literals);
#   4. for the first $RANDOM_WASM_N programs (default 40) that agree, runs it
#      in the Wasm lane too (`run --wasm` under node, with the leak check
#      SEMAPRAX_CHECK_LEAKS=1): its stdout, stderr and exit status must be
#      byte-identical to the native lane's (both print the same failure
#      lines, tests/lane-lib.sh).  A W110 refusal is counted apart; without
#      `node` the Wasm lane is skipped with a note (tests/wasm-test.sh, also
#      in `make test`, fails loudly then).
# Programs the interpreter stops at its step budget or a limit, and programs
# the native lane refuses (B110), are counted as refused and not compared.
# Any other difference fails the script, printing the seed and a command that
# reproduces it.
#
# PROGEN_FLAGS is passed to the generator (e.g. PROGEN_FLAGS=--b102 for the
# string-builtins-on-literal-temporaries shape that used to be B102).
set -u
sanitize=0
if [ "${1:-}" = "--sanitize" ]; then
	# as tests/native-test.sh --sanitize: ASan+UBSan and the runtime's leak
	# check (exit 74) in the native lane; any report is a disagreement
	sanitize=1
	shift
fi
. "$(dirname "$0")/lib.sh"
t_begin random "${1:-}"
count=${2:-300}
seed0=${3:-1}
# the lanes' status table and comparison, shared with tests/native-test.sh
. "$(dirname "$0")/lane-lib.sh"
lane_need_cc random
[ "$sanitize" -eq 1 ] && lane_sanitize_env

# the generator: beside BIN (the Makefile builds it), else compiled here
gen=$(dirname "$bin")/progen
stale=0
[ -x "$gen" ] || stale=1
for src in tools/progen*.c tools/progen.h; do
	[ "$src" -nt "$gen" ] && stale=1
done
if [ "$stale" -eq 1 ]; then
	gen=$tmp/progen
	"${cc%% *}" -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -o "$gen" tools/progen*.c || exit 1
fi
clang_ok=0
if command -v clang >/dev/null 2>&1; then clang_ok=1; fi
# under CC=clang, `run --native` already compiled the same C with clang -std=c11
# -Wall -Wextra -Werror (src/emit_c/cc.c): step 3 would repeat it
case ${cc%% *} in clang | clang-* | */clang | */clang-*) clang_ok=0 ;; esac
# under --sanitize (the sanitizer lane) too: the C is the one `run --native`
# just compiled, and a clang lane compiles its own programs with -Werror
[ "$sanitize" -eq 1 ] && clang_ok=0
# RANDOM_CLANG=0 (the Makefile's): a clang lane of its own does it
[ "${RANDOM_CLANG:-1}" = 0 ] && clang_ok=0

agreed=0 refused=0
wasm_n=${RANDOM_WASM_N:-40}
wasm_agreed=0 wasm_refused=0
if ! command -v node >/dev/null 2>&1; then
	echo "random: Wasm lane skipped (no \`node\`)"
	wasm_n=0
fi

# contract_detail_agrees (tests/lane-lib.sh) runs the interpreter through this
lane() {
	NO_COLOR=1 "$bin" run "$3" "$f" > "$1" 2> "$2" < /dev/null
}

fail() { # fail WHY COMMAND: this seed's program fails; how to reproduce it
	bad "seed $seed: $1"
	echo "  reproduce: $gen $gflags $seed > /tmp/s$seed.spx && $bin $2 /tmp/s$seed.spx"
}

gflags=${PROGEN_FLAGS:-}
i=0
while [ "$i" -lt "$count" ]; do
	seed=$((seed0 + i))
	i=$((i + 1))
	f=$tmp/s$seed.spx
	# shellcheck disable=SC2086
	"$gen" $gflags "$seed" > "$f" || { fail "the generator failed" "check"; continue; }
	if ! "$bin" check "$f" > "$tmp/ck" 2>&1; then
		fail "check rejects the program: $(grep -m 1 '^error' "$tmp/ck")" "check"
		continue
	fi
	NO_COLOR=1 "$bin" run "$f" > "$tmp/io" 2> "$tmp/ie" < /dev/null
	ist=$?
	t_first "$tmp/ie"
	iline=$t_l
	case $iline in
	"single-file execution exhausted its step budget"|"single-file execution stopped at an interpreter limit: "*)
		refused=$((refused + 1))
		continue ;;
	esac
	# in $tmp (the program's working directory), without a subshell: a
	# process less per program ($f, $bin and $gen are absolute)
	cd "$tmp" || exit 1
	NO_COLOR=1 CC="$cc -Werror" "$bin" run --native "$f" > "$tmp/no" 2> "$tmp/ne" < /dev/null
	nst=$?
	cd "$lane_root" || exit 1
	t_first "$tmp/ne"
	nline=$t_l
	case $nline in
	"error[SPX-B110]"*)
		refused=$((refused + 1))
		continue ;;
	"error[SPX-B102]"*)
		fail "the generated C does not compile cleanly under $cc: $(grep -m 1 -e 'error:' -e 'warning:' "$tmp/ne" | grep -v SPX-B102 || echo "$nline")" "run --native"
		continue ;;
	esac
	if ! lane_compare "$ist" "$nst" "$tmp/io" "$tmp/ie" "$tmp/no" "$tmp/ne"; then
		fail "$lane_why" "$lane_cmd"
		continue
	fi
	# a contract failure: the native report's detail lines (arguments
	# rendered as literals: -0.0, inf, NaN, subnormals, char escapes) equal
	# the interpreter's `run --json` failure detail
	if [ "$lane_want_status" = 70 ] && ! contract_detail_agrees "$tmp/ne"; then
		fail "contract detail differs: native '$(sed -n 3p "$tmp/ne" | head -c 120)', interpreter '$(sed -n 2p "$tmp/want" | head -c 120)'" "run --json"
		continue
	fi
	agreed=$((agreed + 1))
	if [ "$clang_ok" -eq 1 ]; then
		rm -f "$tmp/s.c"
		if "$bin" build --target c -o "$tmp/s.c" "$f" > "$tmp/bo" 2>&1; then
			if ! clang -std=c11 -Wall -Wextra -Werror -fsyntax-only "$tmp/s.c" > "$tmp/co" 2>&1; then
				fail "clang warns on the generated C: $(grep -m 1 -e 'error:' "$tmp/co")" "build --target c"
			fi
		else
			fail "build --target c fails: $(head -n 1 "$tmp/bo")" "build --target c"
		fi
	fi
	if [ $((wasm_agreed + wasm_refused)) -lt "$wasm_n" ]; then
		cd "$tmp" || exit 1
		NO_COLOR=1 SEMAPRAX_CHECK_LEAKS=1 "$bin" run --wasm "$f" > "$tmp/wo" 2> "$tmp/we" < /dev/null
		wst=$?
		cd "$lane_root" || exit 1
		t_first "$tmp/we"
		case $t_l in
		"error[SPX-W110]"*)
			wasm_refused=$((wasm_refused + 1)) ;;
		*)
			if [ "$wst" -eq "$nst" ] && cmp -s "$tmp/wo" "$tmp/no" && cmp -s "$tmp/we" "$tmp/ne"; then
				wasm_agreed=$((wasm_agreed + 1))
			elif [ "$wst" -ne "$nst" ]; then
				fail "Wasm lane exit $wst, native exit $nst: $(head -n 1 "$tmp/we")" "run --wasm"
			elif ! cmp -s "$tmp/wo" "$tmp/no"; then
				fail "stdout differs: native '$(head -c 80 "$tmp/no")', wasm '$(head -c 80 "$tmp/wo")'" "run --wasm"
			else
				fail "stderr differs: native '$(head -c 80 "$tmp/ne")', wasm '$(head -c 80 "$tmp/we")'" "run --wasm"
			fi ;;
		esac
	fi
done

[ "$sanitize" -eq 1 ] && echo "random: native lane under ASan+UBSan and the leak check"
echo "random: $count programs from seed $seed0: $agreed agreed, $refused refused, $fail failed; Wasm lane (first $wasm_n): $wasm_agreed agreed, $wasm_refused refused (W110)"
[ "$fail" -eq 0 ]
