#!/bin/sh
# docs-test.sh BIN — the generated and checked documents:
#  1. docs/diagnostics.md is current relative to the diagnostics register
#     (src/support/diag_codes.def); fix with `make docs`;
#  2. every ```spx block of the language card (docs/language-card.md, which
#     `semaprax help language` prints): a block without a marker verifies
#     with no diagnostic at all and is canonical (`fmt --check`); a block
#     opened as ```spx error=SPX-XXXX fails `check` with exactly that error
#     code (every error it reports has that code, and there is at least one);
#     (```spx warning=SPX-XXXX: verifies, and every warning has that code);
#  3. every code the card's mistakes-index names is in the register and
#     has a marked block showing it;
#  4. the builtins topic's table names exactly the builtins of
#     src/sema/builtins.def.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$bin" explain --catalog > "$tmp/catalog"
if cmp -s "$tmp/catalog" docs/diagnostics.md; then
	echo "docs: docs/diagnostics.md is current"
else
	echo "FAIL docs/diagnostics.md is stale; run \`make docs\`"
	diff -u docs/diagnostics.md "$tmp/catalog" | head -20
	fail=1
fi

card=${CARD:-docs/language-card.md}
# Split the card's spx blocks into $tmp/b<N>.spx with $tmp/b<N>.want (the marker, or "ok").
awk -v dir="$tmp" '
	/^```spx/ { n++; inb = 1; f = dir "/b" n ".spx"; printf "" > f
		m = $0; sub(/^```spx[ ]*/, "", m); if (m == "") m = "ok"; print m > (dir "/b" n ".want")
		print FILENAME ":" FNR > (dir "/b" n ".at"); next }
	inb && /^```/ { inb = 0; close(f); next }
	inb { print >> f }
	END { print n + 0 > (dir "/count") }
' "$card"
blocks=$(cat "$tmp/count")
checked=0
i=1
while [ "$i" -le "$blocks" ]; do
	b=$tmp/b$i.spx
	want=$(cat "$tmp/b$i.want")
	at=$(cat "$tmp/b$i.at")
	"$bin" check --json "$b" > "$tmp/out" 2> "$tmp/err"
	status=$?
	case $want in
	ok)
		if [ "$status" -ne 0 ] || grep -q '"code"' "$tmp/out"; then
			echo "FAIL card block at $at does not verify cleanly:"
			cat "$tmp/out" | head -5
			fail=1
		elif ! "$bin" fmt --check "$b" 2> "$tmp/err"; then
			echo "FAIL card block at $at is not canonical; \`semaprax fmt --stdout\` gives:"
			"$bin" fmt --stdout "$b" | diff "$b" - | head -10
			fail=1
		fi ;;
	error=SPX-* | warning=SPX-*)
		sev=${want%%=*}
		code=${want#*=}
		codes=$(grep "\"severity\":\"$sev\"" "$tmp/out" | sed 's/^{"code":"\([^"]*\)".*/\1/' | sort -u | tr '\n' ' ')
		wantst=1
		if [ "$sev" = warning ]; then
			wantst=0
			if grep -q '"severity":"error"' "$tmp/out"; then codes="(and errors) $codes"; fi
		fi
		if [ "$status" -ne "$wantst" ] || [ "$codes" != "$code " ]; then
			echo "FAIL card block at $at: wanted exactly $sev $code, got exit $status and ${sev}s: ${codes:-none}"
			fail=1
		fi ;;
	*)
		echo "FAIL card block at $at: unknown marker \`$want\` (use error=SPX-XXXX or warning=SPX-XXXX)"
		fail=1 ;;
	esac
	checked=$((checked + 1))
	i=$((i + 1))
done
if [ "$checked" -eq 0 ]; then
	echo "FAIL no spx block found in $card"
	fail=1
fi
for code in $(grep '^| SPX-' "$card" | sed 's/^| \(SPX-[A-Z0-9]*\) .*/\1/' | sort -u); do
	if ! grep -q "^DIAG(${code#SPX-}," src/support/diag_codes.def; then
		echo "FAIL $card: mistakes-index names $code, which is not in the register"
		fail=1
	fi
	if ! grep -q "^\`\`\`spx [a-z]*=$code\$" "$card"; then
		echo "FAIL $card: mistakes-index names $code, but no block is marked with it"
		fail=1
	fi
done
# 4. the builtins topic names every compiler-owned function (src/sema/builtins.def) and no other.
if [ -z "${CARD:-}" ]; then
	sed -n 's/^BUILTIN(\([a-z0-9_]*\),.*/\1/p' src/sema/builtins.def | sort > "$tmp/builtins"
	awk '/^## builtins/ { on = 1; next } /^## / { on = 0 } on && /^\| [a-z]/' "$card" |
		grep -o '`[^`]*`' | tr -d '`' | tr ' ' '\n' | grep '_' | sort -u > "$tmp/listed"
	missing=$(comm -23 "$tmp/builtins" "$tmp/listed" | tr '\n' ' ')
	extra=$(comm -13 "$tmp/builtins" "$tmp/listed" | tr '\n' ' ')
	if [ -n "$missing$extra" ]; then
		echo "FAIL $card builtins topic: missing: ${missing:-none}; not builtins: ${extra:-none}"
		fail=1
	fi
fi
[ "$fail" -eq 0 ] && echo "docs: $checked language-card blocks checked; the builtins topic lists src/sema/builtins.def"
# The checker itself: a card with one defect of each kind fails with each message.
if [ -z "${CARD:-}" ]; then
	CARD=tests/docs/bad-card.md sh "$0" "$bin" > "$tmp/self" 2>&1
	st=$?
	for want in "bad-card.md:7 is not canonical" "bad-card.md:15 does not verify cleanly" \
	    "bad-card.md:27: wanted exactly error SPX-T208, got exit 1 and errors: SPX-T103" \
	    "bad-card.md:39: wanted exactly error SPX-T103, got exit 0" \
	    "names SPX-Z999, which is not in the register" "names SPX-T250, but no block is marked"; do
		if [ "$st" -ne 1 ] || ! grep -qF "$want" "$tmp/self"; then
			echo "FAIL docs-test's card checker missed: $want"
			fail=1
		fi
	done
	[ "$fail" -eq 0 ] && echo "docs: the card checker refuses tests/docs/bad-card.md's 6 defects"
fi
exit "$fail"
