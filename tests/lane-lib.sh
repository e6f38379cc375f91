# lane-lib.sh — what the lane differentials share, sourced after tests/lib.sh
# by tests/native-test.sh, tests/random-test.sh, tests/native-inject.sh,
# tests/patch-test.sh, tests/std-test.sh,
# tests/cap-test.sh, tests/project-test.sh and tests/wasm-test.sh:
#
#   $cc                   the C compiler, $CC or cc
#   $lane_ccx             $cc through tests/cc-cache.sh when SPX_CC_CACHE names a
#                         cache directory (.ci/run), else $cc: the `CC` the
#                         suites give `run --native` and `build` where the gcc
#                         and sanitizer lanes compile the same C (cap-test,
#                         patch-test, std-test, project-test)
#   lane_need_cc NAME     exits 0 with "NAME: skipped (no C compiler …)" when $cc is absent
#   lane_fixture OUT ERR ARG…  one run of a fixture in one lane (native-test, wasm-test)
#   lane_interp OWN       the interpreter's run of a fixture, classified (native-test, wasm-test;
#                         $PLAIN_BIN, when set, runs a run/ fixture's interpreter side)
#   lane_sanitize_env     ASan+UBSan and the runtime's leak check for the native lane
#   expected_native LINE  the one mapping table from the interpreter's status
#                         lines to the native exit status and first stderr line
#                         (TOOLCHAIN.md §1.3)
#   lane_compare IST NST IO IE NO NE   the verdict on one program's two runs
#   disagree WHAT WHY     a failed check of a lane differential (tests/lib.sh's bad)

cc=${CC:-cc}
lane_root=$(pwd)
lane_ccx=$cc
# (an absolute cache path; a blank in it or in the checkout's path turns it off:
# semaprax splits `CC` on blanks)
case ${SPX_CC_CACHE:-}@$lane_root in
*" "* | *"	"*) ;;
/*@*) lane_ccx="sh $lane_root/tests/cc-cache.sh $SPX_CC_CACHE $cc" ;;
esac

disagree() { bad "$1: $2"; }

# expected_native INTERP_STDERR_FIRST_LINE → prints "STATUS|LINE-PREFIX" (empty: unmapped)
expected_native() {
	case $1 in
	"single-file execution exceeded the 256-frame call-depth limit")
		echo "73|SEMAPRAX runtime failure: call depth exceeded (256 frames)"
		return ;;
	"error[SPX-F116]: command-line program \`main\` returned "*)
		v=${1#*returned }
		echo "72|SEMAPRAX runtime failure: \`main\` returned ${v%%,*}, outside the exit status range 0..=255"
		return ;;
	"single-file execution failed with language status "*) ;;
	*) echo ""; return ;;
	esac
	# the status as "<domain> <code>", from either rendering
	dc=$(printf '%s\n' "$1" | sed -n \
		-e 's/.*language status semaprax\.status\.v1\/\([^/]*\)\/\([0-9]*\) .*/\1 \2/p' \
		-e 's/.*"domain_id":"\([^"]*\)","code":\([0-9]*\),.*/\1 \2/p')
	case $dc in
	"semaprax.arithmetic.v1 1") echo "71|SEMAPRAX checked arithmetic failure: addition overflow" ;;
	"semaprax.arithmetic.v1 2") echo "71|SEMAPRAX checked arithmetic failure: subtraction overflow" ;;
	"semaprax.arithmetic.v1 3") echo "71|SEMAPRAX checked arithmetic failure: multiplication overflow" ;;
	"semaprax.arithmetic.v1 4" | "semaprax.arithmetic.v1 5") echo "71|SEMAPRAX checked arithmetic failure: invalid division" ;;
	"semaprax.arithmetic.v1 6" | "semaprax.arithmetic.v1 7") echo "71|SEMAPRAX checked arithmetic failure: invalid remainder" ;;
	"semaprax.arithmetic.v1 8") echo "71|SEMAPRAX checked arithmetic failure: negation overflow" ;;
	"semaprax.contract.v1 1") echo "70|SEMAPRAX contract failure: requires in " ;;
	"semaprax.contract.v1 2") echo "70|SEMAPRAX contract failure: ensures in " ;;
	"") echo "" ;;
	*) echo "73|SEMAPRAX operation failure: ${dc% *}/${dc#* }" ;;
	esac
}

# lane_need_cc NAME: the differential cannot run without $cc.
lane_need_cc() {
	if ! command -v "${cc%% *}" >/dev/null 2>&1; then
		echo "$1: skipped (no C compiler \`$cc\`)"
		exit 0
	fi
}

# lane_steps FILE: $lane_steps_args is `--max-steps N` for a run fixture
# whose leading comment lines hold `// max-steps: N` (the interpreter lane's
# step budget, as tests/runner/runner.c), else empty.  Read by the shell
# itself (a `$(sed …)` per fixture cost two processes).
lane_steps() {
	lane_steps_args=
	while IFS= read -r _ls || [ -n "$_ls" ]; do
		case $_ls in
		"// max-steps: "*)
			_lsn=${_ls#// max-steps: }
			case $_lsn in
			"" | *[!0-9]*) ;;
			*) lane_steps_args="$lane_steps_args --max-steps $_lsn" ;;
			esac ;;
		//*) ;;
		*) break ;;
		esac
	done < "$1"
}

# lane_fixture OUT ERR ARG…: `$bin run ARG… $f` with the fixture's stdin
# (NAME.stdin, else empty), stdout to OUT and stderr to ERR; a run/sandbox/
# fixture runs in a fresh empty directory ($tmp/box), so its file operations
# start alike in every lane.  With $lane_cc set, the run has CC=$lane_cc (the
# native lane's compiler).  Uses $f, $bin, $tmp (tests/lib.sh) and $lane_root,
# the working directory the suite started in.
lane_fixture() {
	lb=${lane_bin:-$bin}
	o=$1 e=$2
	shift 2
	input=/dev/null
	[ -f "${f%.spx}.stdin" ] && input=${f%.spx}.stdin
	# (CC and NO_COLOR as assignments before the command: `env` was one
	# more program started per run)
	case $f in
	tests/fixtures/run/sandbox/*)
		rm -rf "$tmp/box" && mkdir "$tmp/box" || return 125
		if [ -n "${lane_cc:-}" ]; then
			(cd "$tmp/box" && CC=$lane_cc NO_COLOR=1 exec "$lb" run "$@" "$lane_root/$f")
		else
			(cd "$tmp/box" && NO_COLOR=1 exec "$lb" run "$@" "$lane_root/$f")
		fi > "$o" 2> "$e" < "$input" ;;
	*)
		if [ -n "${lane_cc:-}" ]; then
			CC=$lane_cc NO_COLOR=1 "$lb" run "$@" "$f"
		else
			NO_COLOR=1 "$lb" run "$@" "$f"
		fi > "$o" 2> "$e" < "$input" ;;
	esac
}

# lane_interp_run OUT ERR ARG…: the caller's `lane` for the interpreter's side
# of fixture $f, run by $PLAIN_BIN for a tests/fixtures/run/ fixture when it is
# set, else by $bin ($lane_bin, which lane_fixture reads).  The sanitizer lane sets it to the plain
# build: its fixture suite runs every run/ fixture in the interpreter under
# ASan already (tests/runner/runner.c, same stdin, same step budget), so the
# differential spends its sanitized processes on the lane it tests.
lane_interp_run() {
	lane_bin=
	case $f in
	tests/fixtures/run/*) lane_bin=${PLAIN_BIN:-} ;;
	esac
	lane "$@"
	_lst=$?
	lane_bin=
	return $_lst
}

# lane_interp OWN: the interpreter's run of fixture $f (lane_fixture, with its
# step budget): status $ist, streams $tmp/io and $tmp/ie, first stderr line
# $iline.  Returns 1 when the run stopped at an interpreter limit (nothing to
# compare), 2 when a fixture of tests/fixtures/OWN/ no longer verifies (a
# disagreement: it would test nothing, both lanes printing the same
# diagnostics); 0 to compare (a run/ fixture may expect a diagnostic: a
# refused route, T273).
lane_interp() {
	lane_steps "$f"
	# shellcheck disable=SC2086 # empty, or `--max-steps N`
	lane_interp_run "$tmp/io" "$tmp/ie" $lane_steps_args
	ist=$?
	t_first "$tmp/ie"
	iline=$t_l
	case $iline in
	"single-file execution exhausted its step budget"|"single-file execution stopped at an interpreter limit: "*)
		return 1 ;;
	"error[SPX-"*)
		case $f in
		tests/fixtures/$1/*) disagree "$f" "does not verify: $iline"; return 2 ;;
		esac ;;
	esac
	return 0
}

# lane_sanitize_env: the native lane's programs under AddressSanitizer and
# UndefinedBehaviorSanitizer (any report aborts) with the runtime's own leak
# check (SPX_CHECK_LEAKS: every owned value released when main returns).
# No -g: it does not change the code gcc or clang generate (only adds debug
# sections), so the checks are the same; it cost 28% of each compile.  UBSan's
# reports carry their file:line without it, ASan's stacks name the functions.
# Allocation stacks are $SAN_STACK frames deep (2 unless set; the Makefile's
# SAN_STACK says why); $SAN_UB is added to the flags (make test-sanitize sets
# it to the Makefile's: UBSan traps, a SIGILL instead of a report; 17% less
# compile and link per program).
lane_sanitize_env() {
	SEMAPRAX_NATIVE_CFLAGS="-O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DSPX_CHECK_LEAKS${SAN_UB:+ $SAN_UB}"
	ASAN_OPTIONS=abort_on_error=0:detect_leaks=1:exitcode=99:malloc_context_size=${SAN_STACK:-2}
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	export SEMAPRAX_NATIVE_CFLAGS ASAN_OPTIONS UBSAN_OPTIONS
	# these compilations happen once per run: nothing for tests/cc-cache.sh to share
	lane_ccx=$cc
}

# lane_compare IST NST IO IE NO NE: the interpreter's exit status and
# stdout/stderr files against the native lane's.  They agree when status and
# both channels are equal, or when the interpreter's failure line maps
# (expected_native) to the native status and first line with no native
# stdout.  Returns 0 on agreement; else 1 with the reason in $lane_why and
# the command that shows it in $lane_cmd (`run` or `run --native`).  Sets
# $lane_want_status (the mapped native status, or empty).
lane_compare() {
	lane_why="" lane_cmd="run --native" lane_want_status=""
	if [ "$1" -eq "$2" ] && t_same "$3" "$5" && t_same "$4" "$6"; then
		return 0
	fi
	t_first "$6"
	_nline=$t_l
	if [ "$1" -eq 0 ]; then
		if [ "$2" -ne 0 ]; then
			lane_why="interpreter exit 0, native exit $2: $_nline"
		elif ! cmp -s "$3" "$5"; then
			lane_why="stdout differs: interpreter '$(head -c 80 "$3")', native '$(head -c 80 "$5")'"
		else
			lane_why="stderr differs: interpreter '$(head -c 80 "$4")', native '$(head -c 80 "$6")'"
		fi
		return 1
	fi
	t_first "$4"
	_iline=$t_l
	_want=$(expected_native "$_iline")
	if [ -z "$_want" ]; then
		lane_why="interpreter failure without a native mapping: $_iline (native exit $2: $_nline)"
		lane_cmd="run"
		return 1
	fi
	lane_want_status=${_want%%|*}
	_wline=${_want#*|}
	case $_nline in
	"$_wline"*) ;;
	*) lane_why="interpreter '$_iline' expects native exit $lane_want_status '$_wline…', got exit $2 '$_nline'"; return 1 ;;
	esac
	if [ "$2" -ne "$lane_want_status" ] || [ -s "$5" ]; then
		lane_why="interpreter '$_iline' expects native exit $lane_want_status '$_wline…', got exit $2 '$_nline'"
		return 1
	fi
	return 0
}

# contract_detail_agrees ERR: a compiled lane's report detail lines (ERR's
# lines after the first) equal the failure detail of the interpreter's `run --json` outcome
# (function, phase, clause, arguments), rendered as LANGUAGE.md §4.7 shows
# them: `  contract: <phase> <clause> in <function>`, `  arguments: …`.
contract_detail_agrees() {
	# needs the caller's `lane` function and $tmp
	lane_interp_run "$tmp/jo" "$tmp/je" --json
	awk '{
		i = index($0, "\"failure\":{")
		if (!i)
			exit 1
		s = substr($0, i + 11)
		L = length(s)
		n = 0
		for (p = 1; p <= L; p++) {
			ch = substr(s, p, 1)
			if (ch == "]")
				break
			if (ch != "\"")
				continue
			str = ""
			for (p++; p <= L; p++) {
				ch = substr(s, p, 1)
				if (ch == "\\") {
					nx = substr(s, ++p, 1)
					if (nx == "u") {
						# \u00NN: a control byte, which the compiled
						# lanes show as \xNN (C0, DEL) or \u{NN} (C1)
						v = 0
						for (q = 1; q <= 4; q++)
							v = v * 16 + index("0123456789abcdef", tolower(substr(s, p + q, 1))) - 1
						p += 4
						str = str (v < 32 || v == 127 ? sprintf("\\x%02x", v) : v >= 128 && v < 160 ? sprintf("\\u{%x}", v) : sprintf("%c", v))
						continue
					}
					# \n, \t, \r: control bytes too, shown as \xNN (sec33)
					str = str (nx == "n" ? "\\x0a" : nx == "t" ? "\\x09" : nx == "r" ? "\\x0d" : nx)
					continue
				}
				if (ch == "\"")
					break
				str = str ch
			}
			tok[++n] = str
		}
		printf "  contract: %s %s in %s\n  arguments: ", tok[4], tok[6], tok[2]
		if (n <= 7)
			printf "none"
		for (k = 8; k + 5 <= n; k += 6)
			printf "%s%s = %s", (k > 8 ? ", " : ""), tok[k + 1], tok[k + 5]
		printf "\n"
	}' "$tmp/jo" > "$tmp/want" || return 1
	sed 1d "$1" | cmp -s - "$tmp/want"
}
