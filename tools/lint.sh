#!/bin/sh
# tools/lint.sh BUILD — the structural rules of docs/ARCHITECTURE.md, checked.
#
#   1. includes point down the layer order (or stay inside their directory),
#      and never reach another directory's private header (*_int.h,
#      *_priv.h, interp/node.h, interp/value.h);
#   2. no source file under src/ or tools/ is longer than 1,500 lines;
#   3. every external symbol defined by an object under BUILD/obj carries
#      its directory's prefix (STYLE.md item 2); names starting with `__`
#      belong to the compiler or a sanitizer (ASan's __odr_asan.*).
#
# Known debts (issue 10, the architecture step) are listed in
# tools/lint-debt.txt, one `include FILE TARGET` or `symbol NAME` a line; the
# list may only shrink: a debt that no longer occurs is itself an error, so a
# fixed debt must be deleted from the list in the same commit.
set -eu
build=${1:-build}
debt=tools/lint-debt.txt
fail=0
found=$(mktemp)
trap 'rm -f "$found"' EXIT

# Layer rank of a directory under src/: a file may include headers of its own
# directory and public headers of directories with a lower rank.
rank() {
	case $1 in
	rt) echo 0 ;; support) echo 1 ;; lex) echo 2 ;; parse) echo 3 ;; fmt) echo 4 ;;
	sema) echo 5 ;; hir) echo 6 ;; interp | emit_c | graph | emit_wasm | patch) echo 7 ;; driver) echo 8 ;;
	project) echo 9 ;; service) echo 10 ;; cli) echo 11 ;;
	*) echo 0 ;;
	esac
}

private_header() {
	case $1 in
	*_int.h | *_priv.h | interp/node.h | interp/value.h) return 0 ;;
	esac
	return 1
}

# 1. include direction
for f in src/*/*.c src/*/*.h; do
	dir=${f#src/}
	dir=${dir%%/*}
	grep -o '^#include "\.\./[a-z_]*/[a-z_0-9]*\.[a-z]*"' "$f" 2>/dev/null |
		sed 's/^#include "\.\.\///; s/"$//' | while read -r target; do
		tdir=${target%%/*}
		if [ "$(rank "$tdir")" -ge "$(rank "$dir")" ] || private_header "$target"; then
			echo "include $f $target"
		fi
	done
done >> "$found"

# 2. file size
for f in src/*/*.c src/*/*.h src/*/*.def src/*/*/*.h tools/*.c tests/runner/*.c; do
	[ -f "$f" ] || continue
	n=$(wc -l < "$f")
	if [ "$n" -gt 1500 ]; then
		echo "lint: $f has $n lines (limit 1,500): split it by concern" >&2
		fail=1
	fi
done

# 3. prefixes of external symbols
prefixes() {
	case $1 in
	support/arena.o) echo arena_ ;; support/buf.o) echo buf_ ;;
	support/diag.o) echo diag_ ;; support/utf8.o) echo utf8_ ;;
	support/sha256.o) echo sha256_ ;; support/json.o) echo json_ ;;
	support/util.o) echo spx_ ;; support/child.o) echo child_ ;;
	support/mapfile.o) echo mapfile_ ;;
	rt/*) echo rt_ ;; lex/*) echo lex_ ;; parse/*) echo "parse_ ast_" ;; fmt/*) echo fmt_ ;;
	sema/*) echo sema_ ;; hir/*) echo hir_ ;; interp/*) echo interp_ ;;
	emit_c/*) echo "emit_ emitc_" ;; graph/*) echo graph_ ;; emit_wasm/*) echo "emit_wasm emitw_ wasm_" ;; patch/*) echo patch_ ;; driver/*) echo driver_ ;; project/*) echo project_ ;; service/*) echo "svc_ lsp_" ;;
	cli/*) echo "cli_ main" ;;
	*) echo "" ;;
	esac
}
if [ -d "$build/obj" ]; then
	for o in $(cd "$build/obj" && find . -name '*.o' | sed 's|^\./||' | sort); do
		p=$(prefixes "$o")
		nm -g --defined-only "$build/obj/$o" | awk '$2 ~ /^[TDBR]$/ && $3 !~ /^__/ { print $3 }' |
			while read -r s; do
				ok=0
				for x in $p; do
					case $s in "$x"*) ok=1 ;; esac
					[ "$s" = "$x" ] && ok=1
				done
				[ $ok = 1 ] || echo "symbol $s"
			done
	done >> "$found"
else
	echo "lint: $build/obj is missing: build first" >&2
	fail=1
fi

sort -u "$found" -o "$found"
new=$(grep -vxF -f "$debt" "$found" || true)
gone=$(grep -v '^#' "$debt" | grep -vxF -f "$found" || true)
if [ -n "$new" ]; then
	echo "lint: new violations (see docs/ARCHITECTURE.md):" >&2
	echo "$new" | sed 's/^/  /' >&2
	fail=1
fi
if [ -n "$gone" ]; then
	echo "lint: debts paid off but still listed in $debt (delete these lines):" >&2
	echo "$gone" | sed 's/^/  /' >&2
	fail=1
fi
# every held diagnostic code is expected by some test (tools/codes_tested.sh)
sh tools/codes_tested.sh || fail=1
ndebt=$(grep -vc '^#' "$debt" || true)
if [ $fail = 0 ]; then
	echo "lint: ok ($ndebt known debts in $debt)"
fi
exit $fail
