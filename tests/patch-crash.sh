#!/bin/sh
# tests/patch-crash.sh BIN [N] — crash safety of `semaprax patch` (issue 14).
#
# N (default 240) applies of a rename and its inverse to one file, each
# SIGKILLed at some point: at each numbered step of the write
# (SEMAPRAX_TEST_KILL_AT=1..7, src/cli/fmt_write.c: before staging, staging
# file created, half written, written and synced, just before the rename,
# just after it, after the directory sync), or after a random delay, or not
# at all.  After every attempt the file must hold exactly the old or exactly
# the new bytes, with its mode; after every successful apply no staging or
# lock file may remain beside it.
set -u
bin=${1:-build/semaprax}
n=${2:-240}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/d" "$work/p"
f="$work/d/m.spx"
cp tests/fixtures/patch/rename.spx "$f"
chmod 640 "$f"
cp "$f" "$work/p/old"
rev_old=$("$bin" check "$f" 2>/dev/null | sed -n 's/^verified .* (\(sha256:[0-9a-f]*\))$/\1/p')
printf 'base %s\nrename math.add to sum\n' "$rev_old" > "$work/p/fwd.spatch"
cp "$f" "$work/p/tmp.spx"
rev_new=$("$bin" patch "$work/p/tmp.spx" "$work/p/fwd.spatch" | sed -n 's/^applied semantic patch; graph is now //p')
cp "$work/p/tmp.spx" "$work/p/new"
printf 'base %s\nrename math.add to add\n' "$rev_new" > "$work/p/rev.spatch"
if [ -z "$rev_old" ] || [ -z "$rev_new" ] || cmp -s "$work/p/old" "$work/p/new"; then
	echo "FAIL patch-crash: cannot set up the two revisions"
	exit 1
fi

fail=0
ok=0
killed=0
seed=$$
i=0
# (the shell's "Killed" notes go to a file; failures are printed on stdout)
{ while [ $i -lt "$n" ]; do
	i=$((i + 1))
	if cmp -s "$f" "$work/p/old"; then
		p="$work/p/fwd.spatch"
	elif cmp -s "$f" "$work/p/new"; then
		p="$work/p/rev.spatch"
	else
		echo "FAIL patch-crash: attempt $i: the file holds neither the old nor the new bytes"
		fail=1
		break
	fi
	seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
	r=$((seed / 65536 % 16))
	if [ $r -lt 13 ]; then
		# a numbered step (0 and above 7: no kill)
		SEMAPRAX_TEST_KILL_AT=$((r > 7 ? 0 : r)) "$bin" patch "$f" "$p" > /dev/null 2>&1
		st=$?
	else
		"$bin" patch "$f" "$p" > /dev/null 2>&1 &
		pid=$!
		sleep "0.00$((seed / 7 % 10))"
		kill -9 $pid 2> /dev/null
		wait $pid
		st=$?
	fi
	if [ "$(stat -c %a "$f")" != 640 ]; then
		echo "FAIL patch-crash: attempt $i: mode changed to $(stat -c %a "$f")"
		fail=1
	fi
	if ! cmp -s "$f" "$work/p/old" && ! cmp -s "$f" "$work/p/new"; then
		echo "FAIL patch-crash: attempt $i: the file holds neither the old nor the new bytes"
		fail=1
		break
	fi
	if [ $st -eq 0 ]; then
		ok=$((ok + 1))
		left=$(ls -A "$work/d" | grep -v '^m\.spx$' || true)
		if [ -n "$left" ]; then
			echo "FAIL patch-crash: attempt $i: left behind after a successful apply: $left"
			fail=1
		fi
	elif [ $st -ge 128 ]; then
		killed=$((killed + 1))
	else
		echo "FAIL patch-crash: attempt $i: patch failed with status $st"
		"$bin" patch "$f" "$p"
		fail=1
		break
	fi
done; } 2> "$work/stderr"
echo "patch-crash: $i applies, $ok completed, $killed killed"
[ $ok -gt 0 ] && [ $killed -gt 0 ] || { echo "FAIL patch-crash: every attempt should not end alike"; fail=1; }
exit $fail
