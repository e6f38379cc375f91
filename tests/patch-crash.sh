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
. "$(dirname "$0")/lib.sh"
t_begin patch-crash "${1:-build/semaprax}"
n=${2:-240}
mkdir "$tmp/d" "$tmp/p"
f="$tmp/d/m.spx"
cp tests/fixtures/patch/rename.spx "$f"
chmod 640 "$f"
cp "$f" "$tmp/p/old"
rev_old=$("$bin" check "$f" 2>/dev/null | sed -n 's/^verified .* (\(sha256:[0-9a-f]*\))$/\1/p')
printf 'base %s\nrename math.add to sum\n' "$rev_old" > "$tmp/p/fwd.spatch"
cp "$f" "$tmp/p/tmp.spx"
rev_new=$("$bin" patch "$tmp/p/tmp.spx" "$tmp/p/fwd.spatch" | sed -n 's/^applied semantic patch; graph is now //p')
cp "$tmp/p/tmp.spx" "$tmp/p/new"
printf 'base %s\nrename math.add to add\n' "$rev_new" > "$tmp/p/rev.spatch"
if [ -z "$rev_old" ] || [ -z "$rev_new" ] || cmp -s "$tmp/p/old" "$tmp/p/new"; then
	echo "FAIL patch-crash: cannot set up the two revisions"
	exit 1
fi

ok=0
killed=0
seed=$$
i=0
# (the shell's "Killed" notes go to a file; failures are printed on stdout)
{ while [ $i -lt "$n" ]; do
	i=$((i + 1))
	if cmp -s "$f" "$tmp/p/old"; then
		p="$tmp/p/fwd.spatch"
	elif cmp -s "$f" "$tmp/p/new"; then
		p="$tmp/p/rev.spatch"
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
	if ! cmp -s "$f" "$tmp/p/old" && ! cmp -s "$f" "$tmp/p/new"; then
		echo "FAIL patch-crash: attempt $i: the file holds neither the old nor the new bytes"
		fail=1
		break
	fi
	if [ $st -eq 0 ]; then
		ok=$((ok + 1))
		left=$(ls -A "$tmp/d" | grep -v '^m\.spx$' || true)
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
done; } 2> "$tmp/stderr"
echo "patch-crash: $i applies, $ok completed, $killed killed"
[ $ok -gt 0 ] && [ $killed -gt 0 ] || { echo "FAIL patch-crash: every attempt should not end alike"; fail=1; }
exit $fail
