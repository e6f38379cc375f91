#!/bin/sh
# tests/project-test.sh BIN — the project fixtures (issue 15): each directory
# under tests/project/ is one project (semaprax.toml, src/*.spx) plus
#   args    the command line after BIN, run inside the directory
#           (default: `check .`);
#   status  the expected exit status;
#   stdout, stderr  exact snapshots (absent = empty);
#   after   semaprax.toml's bytes after the command; after.d/  likewise for
#           any file of the project (e.g. sources `fmt` rewrote);
#   absent  paths (one a line) that must not exist after the command;
#   stdin   the command's standard input (default /dev/null);
#   env     NAME=VALUE lines (no spaces) added to the command's environment;
#   lanes   present: the command (a `run`) is run again with `--native` (the
#           runtime's leak check, -DSPX_CHECK_LEAKS; ASan+UBSan too when
#           SEMAPRAX_PROJECT_SANITIZE=1) and with `--wasm` (SEMAPRAX_CHECK_LEAKS=1),
#           and each lane must give the same snapshots: the lanes agree.
# Each case's README line names the reference test it mirrors.  A case that
# writes (fmt --manifest) runs on a copy.  SEMAPRAX_BLESS=1 rewrites snapshots
# (the compare-and-bless step is tests/golden-lib.sh, shared with registers-test).
# Then every `new` template is created in a temp dir and must check, run,
# test (with named cases) and pass `fmt --check` and `fmt --manifest --check`.
set -u
. "$(dirname "$0")/lib.sh"
t_begin project "${1:-}"
root=$(cd "$(dirname "$0")" && pwd)/project
. "$(dirname "$0")/golden-lib.sh"
. "$(dirname "$0")/lane-lib.sh"
. "$(dirname "$0")/stop-lib.sh"
native_env="SEMAPRAX_NATIVE_CFLAGS=-DSPX_CHECK_LEAKS"
if [ "${SEMAPRAX_PROJECT_SANITIZE:-}" = 1 ]; then
	lane_sanitize_env
	native_env=
fi
for dir in "$root"/*/; do
	name=${dir%/}
	name=${name##*/}
	rm -rf "$tmp/case"
	cp -R "$dir" "$tmp/case"
	args="check ."
	# (args: one line, read by the shell; `$(cat …)` was two processes a case)
	if [ -f "$dir/args" ]; then t_first "$dir/args"; args=$t_l; fi
	input=/dev/null
	[ -f "$dir/stdin" ] && input="$dir/stdin"
	envs=
	[ -f "$dir/env" ] && envs=$(cat "$dir/env")
	# shellcheck disable=SC2086
	(cd "$tmp/case" && env $envs "$bin" $args < "$input" > "$tmp/out" 2> "$tmp/err")
	got=$?
	if golden_blessing; then
		golden_bless "$dir" "$got" "$tmp/out" "$tmp/err"
		continue
	fi
	ok=1
	golden_check "$name" "$dir" "$tmp/case" "$got" "$tmp/out" "$tmp/err" || ok=0
	if [ -f "$dir/lanes" ]; then
		for lane in native wasm; do
			lenv=SEMAPRAX_CHECK_LEAKS=1
			[ $lane = native ] && lenv=$native_env
			rm -rf "$tmp/case"
			cp -R "$dir" "$tmp/case"
			# shellcheck disable=SC2086
			# (CC: $lane_ccx, tests/cc-cache.sh under .ci/run, where the
			# sanitizer lane compiles the same C)
			(cd "$tmp/case" && CC=$lane_ccx env $envs $lenv "$bin" $args --$lane < "$input" > "$tmp/out" 2> "$tmp/err")
			golden_check "$name (--$lane)" "$dir" "$tmp/case" "$?" "$tmp/out" "$tmp/err" || ok=0
		done
	fi
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
# Every `new` template (issue 15 item 6), created in a temp dir under a
# hyphenated name: it must check, run, test green and be fmt-canonical.
for t in calculator library command; do
	rm -rf "$tmp/new"
	mkdir "$tmp/new"
	ok=1
	for step in "new my-$t --template $t" "check my-$t" "run my-$t" "test my-$t" "fmt my-$t --check" "fmt --manifest my-$t/semaprax.toml --check"; do
		# shellcheck disable=SC2086
		if ! (cd "$tmp/new" && "$bin" $step > "$tmp/out" 2> "$tmp/err"); then
			echo "FAIL template $t: \`semaprax $step\` failed" >&2
			head -20 "$tmp/out" "$tmp/err" >&2
			ok=0
			break
		fi
		case $step in test*) cp "$tmp/out" "$tmp/testout" ;; esac
	done
	if [ $ok = 1 ] && ! grep -q "^project tests passed ([1-9][0-9]* named cases)$" "$tmp/testout"; then
		echo "FAIL template $t: \`semaprax test\` ran no named cases" >&2
		ok=0
	fi
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
# The native lane of a project (issue 15): the built executable prints what
# `run` prints, and the C unit is byte-identical across builds.
rm -rf "$tmp/nat"
cp -R "$root/run-class" "$tmp/nat"
ok=1
(cd "$tmp/nat" && "$bin" build . -o a.out > /dev/null && "$bin" build . --target c -o one.c > /dev/null && "$bin" build . --target c -o two.c > /dev/null) || ok=0
if [ $ok = 1 ] && [ "$("$tmp/nat/a.out")" != "$(cat "$root/run-class/stdout")" ]; then
	echo "FAIL native build: the executable's output differs from \`run\`" >&2
	ok=0
fi
if [ $ok = 1 ] && ! cmp -s "$tmp/nat/one.c" "$tmp/nat/two.c"; then
	echo "FAIL native build: the C unit differs between two builds" >&2
	ok=0
fi
if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
# A project's built executable writes directly, as a file's does (LANGUAGE.md
# §0.1, qa30): output written before a failure stays, then the failure (exit
# 70); it was staged, capped and discarded as under `run --native`.
rm -rf "$tmp/nat"
cp -R "$root/build-native-direct" "$tmp/nat"
ok=1
(cd "$tmp/nat" && "$bin" build . -o a.out > /dev/null) || ok=0
if [ $ok = 1 ]; then
	"$tmp/nat/a.out" > "$tmp/nat/out" 2> "$tmp/nat/err"
	st=$?
	if [ $st != 70 ] || [ "$(cat "$tmp/nat/out")" != partial ] || ! grep -q '^SEMAPRAX contract failure: requires in checked: n >= 0$' "$tmp/nat/err"; then
		echo "FAIL native build: the executable did not write directly (status $st, stdout \`$(cat "$tmp/nat/out")\`)" >&2
		ok=0
	fi
fi
if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
# Revision safety of a project module's write (docs/DECISIONS.md, "patch of
# a project module"): `patch` and `fix` stop inside the write's commit step,
# once the new bytes are staged (a staging file must exist then) and just
# before the last checks (SEMAPRAX_TEST_STOP_BEFORE_COMMIT=1, SIGSTOP); the
# script edits one file of the project, and the continued write must refuse
# with I207, leave the module byte for byte as it was and no staging file;
# with no edit (the near miss) it writes.  conc_link=1 gives the module a
# second hard link first, so the write takes the in-place path (its staged
# file is the backup of the old bytes), where the same checks must hold.
conc_link=0
concurrent() {   # concurrent NAME CASE EDIT WANT ARGS...: EDIT a file of CASE while its write is stopped
	c_name=$1 c_case=$2 c_edit=$3 c_want=$4
	shift 4
	rm -rf "$tmp/conc"
	cp -R "$root/$c_case" "$tmp/conc"
	[ "$conc_link" = 1 ] && ln "$tmp/conc/src/core.spx" "$tmp/conc/core.link"
	(cd "$tmp/conc" && SEMAPRAX_TEST_STOP_BEFORE_COMMIT=1 NO_COLOR=1 exec "$bin" "$@" > "$tmp/out" 2> "$tmp/err") &
	c_pid=$!
	stop_wait $c_pid
	c_staged=0
	stop_staged "$tmp/conc/src" core.spx && c_staged=1
	case $c_edit in
	none) ;;
	*) printf '\n' >> "$tmp/conc/$c_edit" ;;
	esac
	cp "$tmp/conc/src/core.spx" "$tmp/core.before"   # the module as the write finds it
	stop_resume $c_pid
	wait $c_pid
	c_got=$?
	c_ok=1
	if [ "$c_want" = written ]; then
		[ $c_got = 0 ] && ! cmp -s "$tmp/core.before" "$tmp/conc/src/core.spx" || c_ok=0
	else
		[ $c_got = 1 ] && grep -q "^error\[SPX-I207\]: $c_want" "$tmp/err" && cmp -s "$tmp/core.before" "$tmp/conc/src/core.spx" || c_ok=0
	fi
	[ -e "$tmp/conc/src/.core.spx.semaprax-lock" ] && c_ok=0
	[ $c_staged = 1 ] || c_ok=0   # stopped after staging, inside the commit step
	stop_staged "$tmp/conc/src" core.spx && c_ok=0
	if [ "$conc_link" = 1 ] && ! cmp -s "$tmp/conc/core.link" "$tmp/conc/src/core.spx"; then
		c_ok=0   # the in-place path keeps the two names one file
	fi
	if [ $c_ok = 1 ]; then
		pass=$((pass + 1))
	else
		echo "FAIL concurrent $c_name: exit $c_got, expected ${c_want}" >&2
		cat "$tmp/out" "$tmp/err" >&2
		fail=$((fail + 1))
	fi
}
concurrent patch-manifest patch-module semaprax.toml "the project manifest semaprax.toml changed after the project was verified" patch src/core.spx rename.spatch
concurrent patch-importer patch-module src/lib.spx "project module src/lib.spx changed after the project was verified" patch src/core.spx rename.spatch
concurrent patch-module patch-module src/core.spx "semantic patch source changed" patch src/core.spx rename.spatch
concurrent patch-none patch-module none written patch src/core.spx rename.spatch
concurrent fix-manifest fix-module semaprax.toml "the project manifest semaprax.toml changed after the project was verified" fix src/core.spx
concurrent fix-none fix-module none written fix src/core.spx
conc_link=1
concurrent patch-importer-in-place patch-module src/lib.spx "project module src/lib.spx changed after the project was verified" patch src/core.spx rename.spatch
concurrent patch-module-in-place patch-module src/core.spx "semantic patch source changed" patch src/core.spx rename.spatch
concurrent patch-none-in-place patch-module none written patch src/core.spx rename.spatch
concurrent fix-manifest-in-place fix-module semaprax.toml "the project manifest semaprax.toml changed after the project was verified" fix src/core.spx
conc_link=0
# A real I/O error in the commit step is reported as one (I101), never as
# I207: SEMAPRAX_TEST_ESTALE_AT makes the staging fsync, the module's re-read
# or the manifest's re-read (the guard) fail with ESTALE, the error NFS gives
# for a stale file handle (fmt_write.c once used ESTALE as its own "changed"
# marker, so these read as I207).  Nothing is written, no staging file is left.
for c in "stage|cannot write src/core.spx: Stale file handle" \
    "recheck|cannot write src/core.spx: Stale file handle" \
    "guard|cannot read semaprax.toml: Stale file handle"; do
	e_at=${c%%|*} e_want=${c#*|}
	for e_link in 0 1; do
		rm -rf "$tmp/conc"
		cp -R "$root/patch-module" "$tmp/conc"
		[ $e_link = 1 ] && ln "$tmp/conc/src/core.spx" "$tmp/conc/core.link"
		(cd "$tmp/conc" && SEMAPRAX_TEST_ESTALE_AT=$e_at NO_COLOR=1 "$bin" patch src/core.spx rename.spatch > "$tmp/out" 2> "$tmp/err")
		e_got=$?
		if [ $e_got = 1 ] && grep -q "^error\[SPX-I101\]: $e_want" "$tmp/err" && ! grep -q "SPX-I207" "$tmp/err" &&
			cmp -s "$root/patch-module/src/core.spx" "$tmp/conc/src/core.spx" && ! stop_staged "$tmp/conc/src" core.spx &&
			[ ! -e "$tmp/conc/src/.core.spx.semaprax-lock" ]; then
			pass=$((pass + 1))
		else
			echo "FAIL ESTALE at $e_at (in place $e_link): exit $e_got, expected I101 '$e_want'" >&2
			cat "$tmp/out" "$tmp/err" >&2
			fail=$((fail + 1))
		fi
	done
done
# Operands are echoed with their control bytes as \xNN: the module reached
# through a directory link whose name holds an escape sequence and a newline
# is named so on the head lines of the refusals (cmd_patch_project.c,
# cmd_repair.c), and no line is forged.
e=$(printf 'e\033[2Jx\nforged')
for c in "patch-module-importers|patch|delete.spatch|semantic patch result does not verify; " \
    "fix-module-refused|fix||the fixes of 1 diagnostic leave project geom with errors; " \
    "fix-module-bad-manifest|fix||the nearest manifest semaprax.toml does not load, so "; do
	c_case=${c%%|*}; c_rest=${c#*|}
	c_cmd=${c_rest%%|*}; c_rest=${c_rest#*|}
	c_arg=${c_rest%%|*}; c_head=${c_rest#*|}
	rm -rf "$tmp/esc"
	cp -R "$root/$c_case" "$tmp/esc"
	ln -s src "$tmp/esc/$e"
	# shellcheck disable=SC2086
	(cd "$tmp/esc" && NO_COLOR=1 "$bin" $c_cmd "$e/core.spx" $c_arg > "$tmp/out" 2> "$tmp/err")
	if [ $? = 1 ] && ! grep -q '^forged' "$tmp/err" && grep -qF "${c_head}e\\x1b[2Jx\\x0aforged/core.spx" "$tmp/err" &&
	    cmp -s "$root/$c_case/src/core.spx" "$tmp/esc/src/core.spx"; then
		pass=$((pass + 1))
	else
		echo "FAIL escaped operand: $c_cmd in $c_case" >&2
		head -3 "$tmp/err" >&2
		fail=$((fail + 1))
	fi
done
t_end
