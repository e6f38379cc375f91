#!/bin/sh
# tests/registers-test.sh BIN — register checks (issue 16, docs/REGISTERS.md).
#
# Each directory under tests/registers/ other than base/ is one case: a copy
# of tests/registers/base/ (a three-module project) with the case's files
# copied over it (a register, a replaced source or manifest), plus
#   args    the command line after BIN, ONE ARGUMENT PER LINE (so patterns
#           need no quoting), run inside the project (default: `check .`);
#   status  the expected exit status;
#   stdout, stderr  exact snapshots (absent = empty);
#   after   semaprax.toml's bytes after the command (fmt --manifest cases);
#   README  what the case shows.
# Every case runs twice and must give byte-identical output (determinism).
# Then our own documentation is checked: every `SPX-…` code docs/*.md and
# README.md cite must be in the compiler's register (`explain --register`),
# through a register check over a generated project (tests/doc-codes.sh).
# SEMAPRAX_BLESS=1 rewrites the snapshots (the compare-and-bless step is
# tests/golden-lib.sh, shared with project-test).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
t_begin registers "${1:-}"
root=$here/registers
. "$here/golden-lib.sh"

run_case() {   # dir out err → status in $got
	set --
	if [ -f "$dir/args" ]; then
		while IFS= read -r line || [ -n "$line" ]; do set -- "$@" "$line"; done < "$dir/args"
	else
		set -- check .
	fi
	(cd "$tmp/case" && NO_COLOR=1 "$bin" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null)
	got=$?
}

for dir in "$root"/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	[ "$name" = base ] && continue
	rm -rf "$tmp/case"
	cp -R "$root/base" "$tmp/case"
	(cd "$dir" && find . -type f ! -name args ! -name status ! -name stdout ! -name stderr ! -name README ! -name after |
		while read -r f; do mkdir -p "$tmp/case/$(dirname "$f")"; cp "$f" "$tmp/case/$f"; done)
	[ -f "$dir/remove" ] && (cd "$tmp/case" && xargs rm -rf < "$dir/remove")
	run_case
	if golden_blessing; then
		golden_bless "$dir" "$got" "$tmp/out" "$tmp/err"
		continue
	fi
	ok=1
	golden_check "registers/$name" "$dir" "$tmp/case" "$got" "$tmp/out" "$tmp/err" || ok=0
	cp "$tmp/out" "$tmp/out1"
	cp "$tmp/err" "$tmp/err1"
	run_case
	if ! cmp -s "$tmp/out" "$tmp/out1" || ! cmp -s "$tmp/err" "$tmp/err1"; then
		echo "FAIL registers/$name: a second run printed different bytes" >&2
		ok=0
	fi
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done

# Our documentation against our own code register (issue 16 item 7).
if (cd "$here/.." && sh tests/doc-codes.sh "$bin") > "$tmp/doc" 2>&1; then
	pass=$((pass + 1))
else
	echo "FAIL registers: a document cites a code the register does not hold:" >&2
	cat "$tmp/doc" >&2
	fail=$((fail + 1))
fi

t_end
