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
#     src/sema/builtins.def;
#  5. the commands a newcomer copies run as shown: every `semaprax …` line of
#     the card's ```sh blocks (comments and `[optional]` parts dropped) in a
#     scratch directory holding app.spx (the module topic's program) and calc
#     (`semaprax new calc`), exit 0; the README's standard-library manifest
#     rows and `use` lines verify in a new project, docs/PROJECTS.md's example
#     manifest is canonical and verifies; every `--option` the user documents
#     name is in some command's grammar (`help all`); the card's run-time
#     limits are src/rt/domains.def's RT_LIMIT values; the examples/ programs
#     verify, are canonical and print what the README says they print.
set -u
. "$(dirname "$0")/lib.sh"
t_begin docs "${1:-}"
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
# 5. the shown commands and examples run as shown (the real card and README only).
if [ -z "${CARD:-}" ]; then
	abs=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
	root=$(pwd)
	w=$tmp/walk
	mkdir "$w"
	awk '/^## module/ { on = 1 } on && /^```spx$/ { f = 1; next } f && /^```/ { exit } f' "$card" > "$w/app.spx"
	(cd "$w" && "$abs" new calc > /dev/null) || { echo "FAIL docs: \`semaprax new calc\` fails"; fail=1; }
	awk '/^```sh$/ { on = 1; next } on && /^```/ { on = 0; next } on && /^semaprax / { print FILENAME ":" FNR "\t" $0 }' "$card" > "$tmp/shlines"
	ran=0
	skipped=0
	tab=$(printf '\t')
	while IFS=$tab read -r at line; do
		cmd=$(printf '%s\n' "${line%%#*}" | sed 's/\[[^]]*\]//g; s/^semaprax //; s/ *$//')
		# shellcheck disable=SC2086 # the shown words, split as a shell would
		(cd "$w" && "$abs" $cmd) > "$tmp/shout" 2>&1
		st=$?
		if [ "$st" -ne 0 ] && grep -q 'SPX-W10[12]' "$tmp/shout"; then
			skipped=$((skipped + 1))   # no node, or built without clang/lld: the Wasm lane is absent
		elif [ "$st" -ne 0 ]; then
			echo "FAIL $at: \`semaprax $cmd\` exits $st:"
			head -5 "$tmp/shout"
			fail=1
		fi
		ran=$((ran + 1))
	done < "$tmp/shlines"
	if [ "$ran" -lt 10 ]; then
		echo "FAIL docs: only $ran shell lines found in $card's sh blocks"
		fail=1
	fi
	# README: the [dependencies] rows and `use` lines of the standard library
	awk '/^```toml$/ { on = 1; next } on && /^```/ { exit } on' README.md > "$tmp/deps"
	awk '/^```toml$/ { t = 1; next } t && /^```$/ { n++; if (n == 3) exit; next } n == 2 && /^use /' README.md > "$tmp/uses"
	(cd "$w" && "$abs" new std-user > /dev/null) || fail=1
	if [ -s "$tmp/deps" ] && [ -s "$tmp/uses" ]; then
		printf '\n' >> "$w/std-user/semaprax.toml"
		cat "$tmp/deps" >> "$w/std-user/semaprax.toml"
		{ head -1 "$w/std-user/src/app.spx"; cat "$tmp/uses"; tail -n +2 "$w/std-user/src/app.spx"; } > "$tmp/app"
		cp "$tmp/app" "$w/std-user/src/app.spx"
		if ! (cd "$w" && "$abs" check std-user > "$tmp/shout" 2>&1); then
			echo "FAIL README.md: the standard-library manifest rows and use lines do not verify:"
			head -5 "$tmp/shout"
			fail=1
		fi
	else
		echo "FAIL README.md: no \`\`\`toml block of [dependencies] followed by a block of use lines"
		fail=1
	fi
	# docs/PROJECTS.md: its example manifest is canonical and verifies with the calc template
	awk '/^```toml$/ { on = 1; next } on && /^```/ { exit } on' docs/PROJECTS.md > "$tmp/manifest"
	(cd "$w" && "$abs" new projects-md --name calc > /dev/null) || fail=1
	cp "$tmp/manifest" "$w/projects-md/semaprax.toml"
	if ! (cd "$w" && "$abs" fmt --manifest projects-md/semaprax.toml --check && "$abs" check projects-md) > "$tmp/shout" 2>&1; then
		echo "FAIL docs/PROJECTS.md: the example manifest is not canonical or does not verify:"
		head -5 "$tmp/shout"
		fail=1
	fi
	# examples/: verified, canonical, and the value the README quotes
	for ex in examples/*.spx; do
		if ! "$bin" check "$ex" > /dev/null 2>&1 || ! "$bin" fmt --check "$ex" > /dev/null 2>&1; then
			echo "FAIL $ex does not verify or is not canonical"
			fail=1
		fi
	done
	want=$(sed -n 's/.*`semaprax run examples\/inventory.spx` prints \([0-9]*\).*/\1/p' README.md)
	got=$("$bin" run examples/inventory.spx 2>&1)
	if [ -z "$want" ] || [ "$got" != "$want" ]; then
		echo "FAIL README.md says \`semaprax run examples/inventory.spx\` prints ${want:-(nothing found)}; it prints $got"
		fail=1
	fi
	# the card's limits are src/rt/domains.def's (RT_LIMIT rows), with thousands separators
	tr '\n' ' ' < "$card" | sed 's/  */ /g' > "$tmp/cardline"
	for pair in "VEC_CAPACITY:at most %s elements" "MAP_CAPACITY:at most %s entries" \
	    "ARGS:%s arguments of" "ARG_BYTES:arguments of %s bytes in all" "OUTPUT:%s bytes of output" \
	    "FILE_MAX:%s bytes of output, of one file read" "STDIN_CHUNK:%s-byte chunks" \
	    "FS_BUDGET:%s bytes read" "FS_WRITE_BUDGET:and %s written per run" "ENV_ENTRIES:%s environment variables"; do
		name=${pair%%:*}
		n=$(sed -n "s/^RT_LIMIT($name, *\([0-9]*\)).*/\1/p" src/rt/domains.def)
		text=$(printf '%s\n' "$n" | awk '{ s = $0; r = ""; while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) } print s r }')
		want=$(printf "${pair#*:}" "$text")
		if [ -z "$n" ] || ! grep -qF "$want" "$tmp/cardline"; then
			echo "FAIL $card: wanted \`$want\` (RT_LIMIT($name) is ${n:-missing} in src/rt/domains.def)"
			fail=1
		fi
	done
	# the card's recursion bound is the interpreter's (the lanes share it: src/emit_c/rt/core.h)
	n=$(sed -n 's/^#define INTERP_MAX_DEPTH *\([0-9]*\).*/\1/p' src/interp/interp.h)
	if [ -z "$n" ] || ! grep -qF "deeper than $n frames" "$tmp/cardline"; then
		echo "FAIL $card: wanted \`deeper than $n frames\` (INTERP_MAX_DEPTH in src/interp/interp.h)"
		fail=1
	fi
	# every option the user documents name is in `help all` (the command table), so a renamed
	# or removed option cannot linger in them (`--help` is every command's)
	"$bin" help all > "$tmp/helpall"
	for f in $(grep -oh -- '--[a-z][a-z0-9-]*' README.md docs/language-card.md docs/PROJECTS.md docs/LOCK.md \
	    docs/REGISTERS.md docs/GRAPH.md docs/PATCH.md docs/doc-format.md docs/editors.md | sort -u); do
		[ "$f" = --help ] && continue
		if ! grep -q -- "$f\([^a-z0-9-]\|\$\)" "$tmp/helpall"; then
			echo "FAIL docs: \`$f\` is documented but no command's grammar (\`semaprax help all\`) has it"
			fail=1
		fi
	done
	cd "$root" || exit 1
	[ "$fail" -eq 0 ] && echo "docs: $ran shell lines of the card run as shown ($skipped Wasm lines skipped for want of node or a Wasm runtime), the README's std example and docs/PROJECTS.md's manifest verify, examples/ verify and print as quoted"
fi
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
