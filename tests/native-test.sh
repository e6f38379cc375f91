#!/bin/sh
# native-test.sh BIN — the two-lane differential test (issue 5, item 4).
#
# Every tests/fixtures/run/*.spx, run/sandbox/*.spx and native/*.spx runs in
# the interpreter (`run`) and natively (`run --native`), each lane with the
# fixture's NAME.stdin (else empty stdin) and, for run/sandbox/ (fixtures
# whose file operations write: none while `run` grants no writes), in a
# fresh empty directory of its own; both must agree on stdout and on the
# outcome.  (Run fixtures get no `--allow-write`; the write grants, the
# escapes and the other capabilities in both lanes are tests/cap-test.sh.)  The generated C is compiled with -Werror added to $CC, so a
# warning in the emitted code is a disagreement (B102).
#
# The documented form differences between the lanes' failure lines
# (TOOLCHAIN.md §1.3 items 6 and 8), one explicit table — interpreter stderr
# line (exit 1; the status written `semaprax.status.v1/<domain>/<code>` on the
# pure route, as status JSON on the transcript and command routes) ↔ native
# stderr line and exit status:
#
#   semaprax.arithmetic.v1 code 1                  ↔ SEMAPRAX checked arithmetic failure: addition overflow         71
#   semaprax.arithmetic.v1 code 2                  ↔ …: subtraction overflow                                        71
#   semaprax.arithmetic.v1 code 3                  ↔ …: multiplication overflow                                     71
#   semaprax.arithmetic.v1 codes 4 and 5           ↔ …: invalid division                                            71
#   semaprax.arithmetic.v1 codes 6 and 7           ↔ …: invalid remainder                                           71
#   semaprax.arithmetic.v1 code 8                  ↔ …: negation overflow                                           71
#   semaprax.contract.v1 code 1 (requires, record invariants)
#                                                  ↔ SEMAPRAX contract failure: requires in <function>: <expr>      70
#   semaprax.contract.v1 code 2                    ↔ SEMAPRAX contract failure: ensures in <function>: <expr>       70
#     (a contract failure's next two lines must equal the failure detail of
#     the interpreter's `run --json`: `  contract: <phase> <clause> in <id>`
#     and `  arguments: <name> = <value>, …`, LANGUAGE.md §4.7 and §0.8)
#   any other <domain> code <n>                    ↔ SEMAPRAX operation failure: <domain>/<n>                       73
#   single-file execution exceeded the 256-frame call-depth limit
#                                                  ↔ SEMAPRAX runtime failure: call depth exceeded (256 frames)     73
#   error[SPX-F116]: command-line program `main` returned <v>, outside …
#                                                  ↔ SEMAPRAX runtime failure: `main` returned <v>, outside …       72
#
# A step-budget exhaustion has no native counterpart (native code has no
# fuel), nor has a stop at an interpreter limit (its heap limit): such
# fixtures count as refused and are not run natively.  A B110
# refusal ("construct not yet supported by the native lane") counts as
# refused; anything else that differs is a disagreement and fails the test.
#
# --sanitize compiles the generated C with AddressSanitizer and
# UndefinedBehaviorSanitizer (any report aborts the program) and with the
# runtime's own leak check (SPX_CHECK_LEAKS: every owned value must be
# released when main returns; lane_sanitize_env); only the native fixtures
# and the agreeing run fixtures are compared, as above.  The table and the
# comparison live in tests/lane-lib.sh, shared with random-test.sh.
set -u
sanitize=0
if [ "${1:-}" = "--sanitize" ]; then
	sanitize=1
	shift
fi
. "$(dirname "$0")/lib.sh"
t_begin native "${1:-}"
. "$(dirname "$0")/lane-lib.sh"
lane_need_cc native
[ "$sanitize" -eq 1 ] && lane_sanitize_env
agreed=0 refused=0

# lane OUT ERR [--native]: runs $f in one lane (lane_fixture), the C
# compiled with -Werror.  Not through tests/cc-cache.sh: no other suite of
# any lane compiles these programs with these flags (the sanitizer lane runs
# them with --sanitize, the clang lane with clang), so its entries were
# written and never read.
lane_cc="$cc -Werror"
lane() {
	lane_fixture "$@"
}

for f in tests/fixtures/run/*.spx tests/fixtures/run/sandbox/*.spx tests/fixtures/native/*.spx; do
	[ -f "$f" ] || continue
	lane_interp native
	case $? in
	1) refused=$((refused + 1)); continue ;;
	2) continue ;;
	esac
	lane "$tmp/no" "$tmp/ne" --native
	nst=$?
	t_first "$tmp/ne"
	nline=$t_l
	case $nline in
	"error[SPX-B110]"*)
		# The native fixtures are written inside the supported subset: a
		# refusal there is a regression, not an unsupported construct.
		case $f in
		tests/fixtures/native/*) disagree "$f" "refused by the native lane: $nline"; continue ;;
		esac
		refused=$((refused + 1))
		continue ;;
	esac
	# the same status and both channels (a command-line program's exit
	# status, stderr output), or the mapped failure (tests/lane-lib.sh)
	if ! lane_compare "$ist" "$nst" "$tmp/io" "$tmp/ie" "$tmp/no" "$tmp/ne"; then
		disagree "$f" "$lane_why"
	elif [ "$lane_want_status" = 70 ] && ! contract_detail_agrees "$tmp/ne"; then
		disagree "$f" "contract detail differs: interpreter '$(cat "$tmp/want" | tr '\n' '|')', native '$(sed 1d "$tmp/ne" | tr '\n' '|')'"
	else
		agreed=$((agreed + 1))
	fi
done

# A built executable raises its own stack limit as `run --native` does for its
# child (rt/core.h spx_stack_room: RLIMIT_STACK toward 256 MiB within the hard
# limit, then one exec of itself): 250 frames of wide values under an 8 MiB
# soft limit print the interpreter's answer (they died by SIGSEGV), and under
# a 16 MiB hard limit the executable and `run --native` end alike, once.
stack_case() {   # stack_case WHAT SOFT HARD
	# (the inner shell waits for the executable: its SIGSEGV is a status, not a shell message)
	est=$(ulimit -Hs "$3" && ulimit -Ss "$2" && sh -c 'timeout 120 "$1" > "$2" < /dev/null; echo $?' _ "$tmp/wide" "$tmp/eo" 2> /dev/null)
	(ulimit -Hs "$3" && ulimit -Ss "$2" && CC="$cc -Werror" exec timeout 120 "$bin" run --native "$wide") \
		> "$tmp/no" 2> "$tmp/ne" < /dev/null
	nst=$?
	if [ "$est" = 0 ] && [ "$(cat "$tmp/eo")" = "$(cat "${wide%.spx}.stdout")" ] && [ "$nst" = 0 ] && cmp -s "$tmp/eo" "$tmp/no"; then
		agreed=$((agreed + 1))
	elif [ "$2" != "$3" ] && [ "$3" = unlimited ]; then
		disagree "$1" "executable exit $est '$(head -c 80 "$tmp/eo")', run --native exit $nst"
	elif [ "$est" = 139 ] && [ "$nst" = 1 ] && grep -qF "terminated by signal 11" "$tmp/ne"; then
		agreed=$((agreed + 1))
	elif [ "$sanitize" -eq 1 ] && [ "$est" != 0 ] && [ "$est" = "$nst" ] && grep -qF "AddressSanitizer:DEADLYSIGNAL" "$tmp/ne"; then
		# under ASan the overflow is its report and exit status, in both alike
		agreed=$((agreed + 1))
	else
		disagree "$1" "executable exit $est, run --native exit $nst '$(head -n 1 "$tmp/ne")'"
	fi
}
wide=tests/fixtures/run/wide_values_deep_frames.spx
hard=$(ulimit -Hs)
if [ "$hard" != unlimited ]; then
	echo "native: stack limit cases skipped (hard stack limit $hard KiB)"
elif ! "$bin" build "$wide" -o "$tmp/wide" > /dev/null 2>&1; then
	disagree "$wide" "build failed"
else
	stack_case "built executable, soft stack limit 8 MiB" 8192 unlimited
	stack_case "built executable, hard stack limit 16 MiB" 8192 16384
fi
# the line count of the longest C function of a generated file (`{` to `}` at column 0)
longest_fn() {
	awk '/^\{$/ { s = NR } /^\}$/ && s { if (NR - s > m) m = NR - s; s = 0 } END { print m + 0 }' "$1"
}
# a frame of more than 256 members is nested in anonymous structs of 256 (emit.c,
# frame_members), and the function calling chunks is SPX_FRAMED (rt/core.h): gcc walked
# the frame's fields once per chunk call, quadratic in the locals
groups=tests/fixtures/run/huge_function_frame_groups.spx
if ! "$bin" build --target c "$groups" -o "$tmp/groups.c" > /dev/null 2>&1; then
	disagree "$groups" "build --target c failed"
elif [ "$(grep -c '^	struct {$' "$tmp/groups.c")" != 3 ]; then
	disagree "$groups" "a frame of 700-odd members not in 3 groups of 256"
elif [ "$(grep -c '^SPX_FRAMED static int64_t fn_main(int spx_d)$' "$tmp/groups.c")" != 1 ]; then
	disagree "$groups" "the function calling chunks is not SPX_FRAMED (no devirtualization under gcc)"
else
	agreed=$((agreed + 1))
fi
# a huge block nested in a small body (a `while` body, a `while` in it, an `if` branch) is
# emitted in chunks too (emit.c, emitc_chunk_enter): no C function of thousands of lines
# (gcc's Early VRP over one loop body was quadratic), and a `?` in a chunk called by a
# chunk returns 1 from both
nested=tests/fixtures/run/huge_nested_block_chunks.spx
if ! "$bin" build --target c "$nested" -o "$tmp/nested.c" > /dev/null 2>&1; then
	disagree "$nested" "build --target c failed"
elif [ "$(longest_fn "$tmp/nested.c")" -gt 600 ]; then
	disagree "$nested" "a C function of more than 600 lines (a nested block not in chunks)"
elif [ "$(grep -c '^SPX_CHUNK int chunk[0-9]*_fn_walk(' "$tmp/nested.c")" -lt 20 ] ||
	! grep -A1 '^		*if (chunk[0-9]*_fn_walk(F, spx_d))$' "$tmp/nested.c" | grep -q '^			*return 1;$'; then
	disagree "$nested" "the nested blocks are not chunks called from chunks"
else
	agreed=$((agreed + 1))
fi
# a huge block whose value is used (a valued `if` branch, a `match` arm's block, a block
# expression) is emitted in chunks too, its value through a frame member (emit_expr.c,
# emit_block_to): the target may be a C local of the caller
valued=tests/fixtures/run/huge_valued_block_chunks.spx
if ! "$bin" build --target c "$valued" -o "$tmp/valued.c" > /dev/null 2>&1; then
	disagree "$valued" "build --target c failed"
elif [ "$(longest_fn "$tmp/valued.c")" -gt 600 ]; then
	disagree "$valued" "a C function of more than 600 lines (a valued block not in chunks)"
elif [ "$(grep -c '^		*t[0-9]* = F->spx_bv[0-9]*;$' "$tmp/valued.c")" != 4 ]; then
	disagree "$valued" "the four valued blocks' values do not come through frame members"
else
	agreed=$((agreed + 1))
fi
# a `match` jumps out of the arm taken to a label defined before its arms (emit_expr.c,
# emit_match): no `taken` flag tested by every arm, no forward goto (both cost gcc time
# quadratic in the arms); a run of literal arms over an integer or char scrutinee is one C
# switch, the bool match's arms stay `if`s (emit_switch: gcc's own if-to-switch conversion was
# super-linear in the arms)
arms=tests/fixtures/run/match_literals.spx
if ! "$bin" build --target c "$arms" -o "$tmp/arms.c" > /dev/null 2>&1; then
	disagree "$arms" "build --target c failed"
elif ! grep -q '^		if (0) {$' "$tmp/arms.c" || grep -q '^	*if (!t[0-9]* && ' "$tmp/arms.c"; then
	disagree "$arms" "a match is not \`if (0) { label:; } else { arms }\`"
elif [ "$(grep -c '^			switch (t0) {$' "$tmp/arms.c")" != 2 ] || ! grep -q '^			case INT64_C(3):$' "$tmp/arms.c" ||
	! grep -q '^			case UINT32_C(99):$' "$tmp/arms.c"; then
	disagree "$arms" "the literal arms of an integer and a char match are not two C switches"
else
	agreed=$((agreed + 1))
fi
# the C main calls the program's entry through spx_entry, never inlined (rt/core.h
# SPX_ENTRY): inlined into main beside the start-up checks, a hot loop lost registers
# (bench/native/records 1.12-1.15x its C twin under gcc 12)
entry=tests/fixtures/run/match_literals.spx
if ! "$bin" build --target c "$entry" -o "$tmp/entry.c" > /dev/null 2>&1; then
	disagree "$entry" "build --target c failed"
elif ! grep -A1 '^SPX_ENTRY int64_t$' "$tmp/entry.c" | grep -q '^spx_entry(void)$' ||
	[ "$(grep -c '^	int64_t r = spx_entry();$' "$tmp/entry.c")" != 1 ]; then
	disagree "$entry" "the C main does not call the entry through SPX_ENTRY spx_entry"
else
	agreed=$((agreed + 1))
fi
# the exec passes the arguments and the environment through byte for byte
cat > "$tmp/echo.spx" <<'SPX'
module native.stack_echo;

permit { process.args.read, process.environment.read, process.stdout.write }

@id("native.stack_echo.find")
fn find(name: borrow str, i: usize, n: usize) -> i64
    uses { process.environment.read, process.stdout.write }
{
    if i >= n {
        0
    } else {
        if string_compare(string_from_str(env_name_utf8(i)), string_from_str(name)) == 0 {
            let w = stdout_write(str_as_bytes(env_value_utf8(i)));
            1
        } else {
            find(name, i + 1usize, n)
        }
    }
}

@id("app.main")
fn main() -> i64
    uses { process.args.read, process.environment.read, process.stdout.write }
{
    let a = stdout_write(str_as_bytes(arg_utf8(0usize)));
    let b = stdout_write(str_as_bytes(arg_utf8(1usize)));
    let name = "SPX_STACK_ECHO";
    find(string_as_str(name), 0usize, env_len()) + i64_from_usize(args_len())
}
SPX
if "$bin" build "$tmp/echo.spx" -o "$tmp/echo" > /dev/null 2>&1; then
	arg1=$(printf ' a\tb\303\251 ')
	val=$(printf 'x=y \342\202\254 z')
	(ulimit -Ss 4096 2> /dev/null; SPX_STACK_ECHO=$val exec "$tmp/echo" "$arg1" "--") > "$tmp/eo" 2>&1 < /dev/null
	est=$?
	if [ "$est" = 3 ] && [ "$(cat "$tmp/eo")" = "$arg1--$val" ]; then agreed=$((agreed + 1)); else
		disagree "built executable's arguments and environment" "exit $est, stdout '$(cat "$tmp/eo")'"
	fi
else
	disagree "$tmp/echo.spx" "build failed"
fi

echo "native: $agreed agreed, $refused refused (unsupported), $fail disagreed"
[ "$fail" -eq 0 ]
