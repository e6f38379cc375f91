#!/bin/sh
# codes_tested.sh — every diagnostic code the register holds (error or
# warning, src/support/diag_codes.def) must be expected by some test: an
# inline marker `//~ … SPX-X` of a fixture, or a mention in any other file
# under tests/ (snapshots .stderr/.json/.out/.golden, .expect files, the
# suites' scripts, the unit tests' DIAG_X).  Prints each code no test
# expects and exits 1 when there is one.  Run from the repository root
# (tools/lint.sh runs it).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n 's/^DIAG(\([A-Z][0-9]*\), \(ERROR\|WARNING\),.*/\1/p' src/support/diag_codes.def | sort -u > "$tmp/held"
{
	grep -rah '//~.*SPX-' tests --include='*.spx' | grep -aoE 'SPX-[A-Z][0-9]{3}'
	grep -rahoE 'SPX-[A-Z][0-9]{3}|DIAG_[A-Z][0-9]{3}' tests --exclude='*.spx'
} | sed 's/^SPX-//; s/^DIAG_//' | sort -u > "$tmp/expected"
untested=$(comm -23 "$tmp/held" "$tmp/expected")
[ "$(wc -l < "$tmp/held")" -gt 0 ] || { echo "codes_tested: no codes read from src/support/diag_codes.def" >&2; exit 1; }
if [ -n "$untested" ]; then
	echo "codes_tested: diagnostic codes no test expects (add a fixture):" >&2
	echo "$untested" | sed 's/^/  SPX-/' >&2
	exit 1
fi
exit 0
