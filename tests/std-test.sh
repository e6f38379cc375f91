#!/bin/sh
# tests/std-test.sh BIN — the bundled standard library (std/, issue 15 item 7)
# in every lane: `semaprax test std/<pkg> --lane all` runs the test module's
# main and every `test_*` case (TOOLCHAIN.md §2.3) in the interpreter, the
# native lane and the Wasm lane (under node) and fails on any disagreement;
# every package must pass with all three lanes agreeing (a Wasm refusal,
# W110, adds a note to the report and fails here).  Then `run` of the
# package's examples module and `fmt --check`.
set -u
. "$(dirname "$0")/lib.sh"
t_begin std "${1:-}"
# $lane_ccx: the native lane's `CC`, through tests/cc-cache.sh under .ci/run
# (the sanitizer lane compiles the same packages' C with the same gcc)
. "$(dirname "$0")/lane-lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)/std
agree="note: the interpreter, native and Wasm lanes agree on every run"
for dir in "$root"/*/; do
	pkg=$(basename "$dir")
	if CC=$lane_ccx "$bin" test "$dir" --lane all > "$tmp/out" 2> "$tmp/err" && [ "$(tail -1 "$tmp/out")" = "$agree" ]; then
		ok
	else
		bad "test std/$pkg --lane all"
		cat "$tmp/out" "$tmp/err" >&2
	fi
	if "$bin" run "$dir" > "$tmp/out" 2> "$tmp/err"; then ok; else bad "run std/$pkg (examples)"; cat "$tmp/err" >&2; fi
	if ! "$bin" fmt "$dir" --check > "$tmp/out" 2>&1; then bad "fmt std/$pkg --check"; cat "$tmp/out" >&2; else ok; fi
done
t_end " (interpreter, native and Wasm lanes)"
