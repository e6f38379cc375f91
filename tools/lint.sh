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

# 1. include direction: a file may include headers of its own directory and
# public headers of directories with a lower layer rank (one awk over every
# include line: a shell loop with a subshell per include took seconds).
grep -o '^#include "\.\./[a-z_]*/[a-z_0-9]*\.[a-z]*"' src/*/*.c src/*/*.h 2>/dev/null |
	awk -F: '
	function rank(d) {
		if (d == "rt") return 0; if (d == "support") return 1; if (d == "lex") return 2
		if (d == "parse") return 3; if (d == "fmt") return 4; if (d == "sema") return 5
		if (d == "hir") return 6
		if (d == "interp" || d == "emit_c" || d == "graph" || d == "emit_wasm" || d == "patch") return 7
		if (d == "driver") return 8; if (d == "project") return 9; if (d == "service") return 10
		if (d == "cli") return 11
		return 0
	}
	function private_header(t) {
		return t ~ /_int\.h$/ || t ~ /_priv\.h$/ || t == "interp/node.h" || t == "interp/value.h"
	}
	{
		f = $1; t = $2
		sub(/^#include "\.\.\//, "", t); sub(/"$/, "", t)
		d = f; sub(/^src\//, "", d); sub(/\/.*/, "", d)
		td = t; sub(/\/.*/, "", td)
		if (rank(td) >= rank(d) || private_header(t)) print "include " f " " t
	}' >> "$found"

# 2. file size
for f in src/*/*.c src/*/*.h src/*/*.def src/*/*/*.h tools/*.c tests/runner/*.c; do
	[ -f "$f" ] || continue
	n=$(wc -l < "$f")
	if [ "$n" -gt 1500 ]; then
		echo "lint: $f has $n lines (limit 1,500): split it by concern" >&2
		fail=1
	fi
done

# 3. prefixes of external symbols (one nm over every object, file names
# first: -A)
if [ -d "$build/obj" ]; then
	objs=$(cd "$build/obj" && find . -name '*.o' | sed 's|^\./||' | sort)
	if [ -n "$objs" ]; then
		(cd "$build/obj" && nm -A -g --defined-only $objs) | awk '
		function prefixes(o) {
			if (o == "support/arena.o") return "arena_"; if (o == "support/buf.o") return "buf_"
			if (o == "support/diag.o") return "diag_"; if (o == "support/utf8.o") return "utf8_"
			if (o == "support/sha256.o") return "sha256_"; if (o == "support/json.o") return "json_"
			if (o == "support/util.o") return "spx_"; if (o == "support/child.o") return "child_"
			if (o == "support/mapfile.o") return "mapfile_"
			split(o, part, "/"); d = part[1]
			if (d == "rt") return "rt_"; if (d == "lex") return "lex_"; if (d == "parse") return "parse_ ast_"
			if (d == "fmt") return "fmt_"; if (d == "sema") return "sema_"; if (d == "hir") return "hir_"
			if (d == "interp") return "interp_"; if (d == "emit_c") return "emit_ emitc_"
			if (d == "graph") return "graph_"; if (d == "emit_wasm") return "emit_wasm emitw_ wasm_"
			if (d == "patch") return "patch_"; if (d == "driver") return "driver_"
			if (d == "project") return "project_"; if (d == "service") return "svc_ lsp_"
			if (d == "cli") return "cli_ main"
			return ""
		}
		{
			# "path.o:address T name" (a symbol has no address column when undefined: not listed)
			o = $1; sub(/:.*/, "", o)
			if (NF < 3 || $2 !~ /^[TDBR]$/ || $3 ~ /^__/) next
			n = split(prefixes(o), p, " "); ok = 0
			for (i = 1; i <= n; i++)
				if (index($3, p[i]) == 1) ok = 1
			if (!ok) print "symbol " $3
		}' >> "$found"
	fi
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
