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
#     verify, are canonical and print what the README says they print;
#  6. docs/editors.md's client configurations run in their own language (lua5.4,
#     node, tomllib; tests/docs/nvim.lua, vscode.js) and the command line each
#     names answers an LSP round trip (tests/docs/lsp_roundtrip.py);
#  7. docs/PATCH.md's grammar lines parse, its v4 example applies as shown, its
#     transaction is reviewed;
#  8. docs/service.md's sessions are replayed against `semaprax serve`, and its
#     methods table's result outlines compared with the service's results;
#  9. every ```console block ($ semaprax … and its output) runs as shown;
# 10. the JSON and text outlines (GRAPH, doc-format, LOCK, REGISTERS, the card's
#     diagnostic line) against real outputs (tests/docs/keys.py, layout.py), and
#     the remaining fragments (manifests, use lines, README's grammar and layout,
#     ARCHITECTURE's pipeline) against the binary and the tree.
# A block added to README.md or docs/*.md should be one of these kinds.
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
	said_n=0
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
		# a comment saying it prints `X`: the first line printed is X (a revision read as sha256:…)
		said=$(printf '%s\n' "$line" | sed -n 's/.*# .*prints `\([^`]*\)`.*/\1/p')
		got=$(head -1 "$tmp/shout" | sed 's/sha256:[0-9a-f]\{64\}/sha256:…/g')
		if [ -n "$said" ] && [ "$said" != "$got" ]; then
			echo "FAIL $at: \`semaprax $cmd\` prints \`$got\`, not \`$said\` as the comment says"
			fail=1
		fi
		[ -n "$said" ] && said_n=$((said_n + 1))
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
	[ "$fail" -eq 0 ] && echo "docs: $ran shell lines of the card run as shown ($said_n print what their comment says; $skipped Wasm lines skipped for want of node or a Wasm runtime), the README's std example and docs/PROJECTS.md's manifest verify, examples/ verify and print as quoted"
fi
# 6. docs/editors.md: every client configuration parses in its own language and names a command
#    line that answers an LSP initialize/shutdown/exit round trip (tests/docs/lsp_roundtrip.py);
#    the grammar lines of editors.md and service.md are `help lsp`'s and `help serve`'s.
if [ -z "${CARD:-}" ]; then
	ed=$tmp/editors
	mkdir -p "$ed/bin"
	ln -s "$abs" "$ed/bin/semaprax"
	awk -v dir="$ed" '
		/^`package.json`:/ { want = "package.json" } /^`extension.js`:/ { want = "extension.js" }
		/^### / { want = "" } /^### Helix/ { want = "helix.toml" }
		/^```lua$/ { n++; on = 1; f = dir "/nvim" n ".lua"; printf "" > f; print f > (dir "/lua"); next }
		/^```(json|js|toml)$/ && want != "" { on = 1; f = dir "/" want; printf "" > f; next }
		on && /^```/ { on = 0; close(f); next }
		on { print >> f }
	' docs/editors.md
	configs=0
	edskipped=0
	: > "$ed/lines"
	if command -v lua5.4 > /dev/null 2>&1; then
		while IFS= read -r f; do
			if lua5.4 tests/docs/nvim.lua "$f" > "$f.out" 2>&1; then
				printf '%s\t%s\n' "Neovim ($(basename "$f"))" "$(sed -n 's/^cmd //p' "$f.out" | tr '\n' ' ' | sed 's/ $//')" >> "$ed/lines"
			else
				echo "FAIL docs/editors.md: Neovim configuration $(basename "$f") does not run:"
				head -5 "$f.out"
				fail=1
			fi
			configs=$((configs + 1))
		done < "$ed/lua"
	else
		edskipped=$((edskipped + $(wc -l < "$ed/lua")))
	fi
	if command -v node > /dev/null 2>&1; then
		if node tests/docs/vscode.js "$ed/package.json" "$ed/extension.js" > "$ed/vscode.out" 2>&1; then
			printf '%s\t%s\n' "VS Code" "$(sed -n 's/^cmd //p' "$ed/vscode.out" | tr '\n' ' ' | sed 's/ $//')" >> "$ed/lines"
		else
			echo "FAIL docs/editors.md: the VS Code extension does not load:"
			head -5 "$ed/vscode.out"
			fail=1
		fi
		configs=$((configs + 2))
	else
		edskipped=$((edskipped + 2))
	fi
	$t_python - "$ed/helix.toml" > "$ed/helix.out" 2>&1 <<-'EOF'
		import sys
		try:
		    import tomllib
		except ImportError:
		    sys.exit(3)
		c = tomllib.load(open(sys.argv[1], "rb"))
		lang = [l for l in c["language"] if "spx" in l["file-types"]]
		assert len(lang) == 1 and lang[0]["scope"] and lang[0]["roots"], "one [[language]] for spx, with scope and roots"
		names = lang[0]["language-servers"]
		assert len(names) == 1, "one language server"
		server = c["language-server"][names[0]]
		print(" ".join([server["command"]] + server.get("args", [])))
	EOF
	case $? in
	0) printf '%s\t%s\n' "Helix" "$(cat "$ed/helix.out")" >> "$ed/lines"; configs=$((configs + 1)) ;;
	3) edskipped=$((edskipped + 1)) ;;
	*) echo "FAIL docs/editors.md: the Helix languages.toml does not parse or names no server:"
	   tail -3 "$ed/helix.out"
	   fail=1
	   configs=$((configs + 1)) ;;
	esac
	PATH="$ed/bin:$PATH" $t_python tests/docs/lsp_roundtrip.py "$ed/lines" || fail=1
	if [ "$configs" -lt 5 ] && [ "$edskipped" -eq 0 ]; then
		echo "FAIL docs/editors.md: only $configs client configuration snippets found (2 Lua, package.json, extension.js, Helix)"
		fail=1
	fi
	for pair in "docs/editors.md:lsp" "docs/service.md:serve"; do
		doc=${pair%%:*}
		cmd=${pair#*:}
		shown=$(awk '/^```$/ { on = !on; next } on && /^semaprax / { print; exit }' "$doc")
		help=$("$bin" help "$cmd" | head -1)
		if [ "$shown" != "$help" ]; then
			echo "FAIL $doc: its grammar line \`$shown\` is not \`semaprax help $cmd\`'s: \`$help\`"
			fail=1
		fi
	done
	[ "$fail" -eq 0 ] && echo "docs: $configs editor configurations parse and their command lines answer initialize/shutdown ($edskipped skipped for want of lua5.4, node or tomllib); the lsp and serve grammar lines are help's"
fi
# 7. docs/PATCH.md: every line of the v2 and v4 grammars, placeholders filled, parses (any
#    refusal but the syntax error G101); the v4 example, applied to a copy of the file it names,
#    prints what it says and leaves the function as shown, the rest of the file byte for byte,
#    and the run stops on the new precondition; the transaction example, its two revisions
#    filled in, is reviewed in a new `calc` project.
if [ -z "${CARD:-}" ]; then
	pd=$tmp/patchmd
	mkdir "$pd"
	cp tests/fixtures/patch/v4.spx "$pd/v4.spx"
	rev=$("$bin" check "$pd/v4.spx" | sed -n 's/^verified .* (\(sha256:[0-9a-f]*\))$/\1/p')
	awk '/^```/ { n++; next } n % 2 == 1 && /^(rename|replace|require|add|remove|delete|change)/' docs/PATCH.md |
		sed 's/requires|ensures/requires/; s/<u32>/0/g; s/<type>/i64/g; s/<fragment>/x/; s/<[^>]*>/nosuch.id/g' > "$pd/grammar"
	glines=0
	while IFS= read -r line; do
		case $line in *" with <<<"* | *">>>"*) continue ;; esac
		printf 'schema semaprax.semantic-patch.v4\nbase %s\n%s\n' "$rev" "$line" > "$pd/g.spatch"
		if "$bin" patch "$pd/v4.spx" "$pd/g.spatch" --dry-run 2>&1 | grep -q 'SPX-G101'; then
			echo "FAIL docs/PATCH.md: the grammar line \`$line\` (placeholders filled) does not parse (G101)"
			fail=1
		fi
		glines=$((glines + 1))
	done < "$pd/grammar"
	if [ "$glines" -lt 12 ]; then
		echo "FAIL docs/PATCH.md: only $glines grammar lines found (5 of v2, 7 more of v4)"
		fail=1
	fi
	awk '/^schema semaprax.semantic-patch.v4$/ { on = 1 } on && /^```/ { exit } on' docs/PATCH.md |
		sed "s/^base sha256:…\$/base $rev/" > "$pd/example.spatch"
	awk '/^The patched file verifies/ { exit } /^```spx$/ { on = 1; next } on && /^```/ { on = 0; next } on' docs/PATCH.md > "$pd/shown"
	first=$(head -1 "$pd/shown")
	# the fixture with the shown function in place of the original one (its first line to its `}`)
	awk -v first="$first" -v shown="$pd/shown" '
		$0 == first { skip = 1; while ((getline l < shown) > 0) print l; next }
		skip && /^}$/ { skip = 0; next }
		!skip' "$pd/v4.spx" > "$pd/want.spx"
	out=$("$bin" patch "$pd/v4.spx" "$pd/example.spatch" 2>&1)
	if ! printf '%s\n' "$out" | grep -q '^applied semantic patch; graph is now sha256:[0-9a-f]*$'; then
		echo "FAIL docs/PATCH.md: the v4 example does not apply to tests/fixtures/patch/v4.spx as stated:"
		printf '%s\n' "$out" | head -5
		fail=1
	elif [ ! -s "$pd/shown" ] || ! cmp -s "$pd/want.spx" "$pd/v4.spx"; then
		echo "FAIL docs/PATCH.md: the v4 example's result is not the function shown (diff shown+rest vs patched):"
		diff "$pd/want.spx" "$pd/v4.spx" | head -10
		fail=1
	elif "$bin" run "$pd/v4.spx" > "$pd/run" 2>&1 || ! grep -qF 'a `requires` precondition was false' "$pd/run"; then
		echo "FAIL docs/PATCH.md: the patched file's run does not stop on the new precondition:"
		head -3 "$pd/run"
		fail=1
	fi
	(cd "$pd" && "$abs" new calc > /dev/null) || fail=1
	"$bin" check "$pd/calc" > "$pd/calc.check" || fail=1
	prev=$(sed -n '1s/^verified project calc (\(sha256:[0-9a-f]*\))$/\1/p' "$pd/calc.check")
	mrev=$(sed -n 's/^  module calc.core .* (\(sha256:[0-9a-f]*\))$/\1/p' "$pd/calc.check")
	awk '/^```json$/ { on = 1; next } on && /^```/ { exit } on' docs/PATCH.md |
		sed "s/\"expected_workspace_revision\":\"sha256:…\"/\"expected_workspace_revision\":\"$prev\"/; s/base sha256:…/base $mrev/" > "$pd/tx.json"
	if ! "$bin" review "$pd/calc" "$pd/tx.json" > "$pd/review" 2>&1 || ! grep -q '^{"schema":"semaprax.project-semantic-review.c1"' "$pd/review"; then
		echo "FAIL docs/PATCH.md: the transaction example is not reviewed in \`semaprax new calc\`'s project:"
		head -3 "$pd/review"
		fail=1
	fi
	[ "$fail" -eq 0 ] && echo "docs: docs/PATCH.md's $glines grammar lines parse, its v4 example applies as shown and its transaction is reviewed"
fi
# 8. docs/service.md's sessions: each block of `>` requests is sent to the `semaprax serve …`
#    command line the text above it names (from the repository's root); the replies, every
#    `sha256:<64 hex>` read as `sha256:…`, are its `<` lines, and the process ends with status 0.
if [ -z "${CARD:-}" ]; then
	sv=$tmp/service
	mkdir "$sv"
	awk -v dir="$sv" '
		/^`semaprax serve [^`]*`/ { c = $0; sub(/^`semaprax serve /, "", c); sub(/`.*/, "", c) }
		/^```$/ && !inb { inb = 1; first = 1; next }
		inb && /^```$/ { inb = 0; next }
		inb && first { first = 0; if ($0 !~ /^> /) { inb = 0; next }
			n++; print c > (dir "/s" n ".cmd"); close(dir "/s" n ".cmd")
			print FILENAME ":" FNR > (dir "/s" n ".at"); close(dir "/s" n ".at")
			printf "" > (dir "/s" n ".req"); printf "" > (dir "/s" n ".want") }
		inb && /^> / { sub(/^> /, ""); print >> (dir "/s" n ".req") }
		inb && /^< / { sub(/^< /, ""); print >> (dir "/s" n ".want") }
		END { print n + 0 > (dir "/count") }
	' docs/service.md
	nsess=$(cat "$sv/count")
	nreq=0
	i=1
	while [ "$i" -le "$nsess" ]; do
		s=$sv/s$i
		operand=$(cat "$s.cmd")
		# shellcheck disable=SC2086 # the operand and options as the doc shows them
		"$bin" serve $operand < "$s.req" > "$s.got" 2> "$s.err"
		st=$?
		sed 's/sha256:[0-9a-f]\{64\}/sha256:…/g' "$s.got" > "$s.got.n"
		if [ -z "$operand" ] || [ "$st" -ne 0 ] || ! cmp -s "$s.want" "$s.got.n"; then
			echo "FAIL $(cat "$s.at"): \`semaprax serve $operand\` exits $st or replies otherwise (- shown, + got):"
			diff "$s.want" "$s.got.n" | head -10
			fail=1
		fi
		nreq=$((nreq + $(wc -l < "$s.req")))
		i=$((i + 1))
	done
	if [ "$nsess" -lt 2 ]; then
		echo "FAIL docs/service.md: $nsess sessions found (JSON-RPC and MCP)"
		fail=1
	fi
	# the methods table's result outlines, each sent to a service on a scratch copy
	cp examples/inventory.spx "$sv/inventory.spx"
	$t_python tests/docs/service_shapes.py "$abs" "$sv/inventory.spx" "$w/calc" > "$sv/shapes" || fail=1
	grep FAIL -A5 "$sv/shapes"
	[ "$fail" -eq 0 ] && echo "docs: docs/service.md's $nsess sessions: $nreq messages answered as shown; $(sed -n 's/^docs: docs.service.md.s //p' "$sv/shapes")"
fi
# 9. every ```console block of README.md and docs/*.md: each `$ semaprax …` line runs (in a
#    scratch directory holding `semaprax new calc`'s calc, the card's app.spx, and links to the
#    repository's tests/ and examples/) and prints the lines below it, stdout then stderr, each
#    `sha256:<64 hex>` read as `sha256:…`; a last line `…` shows only the first lines; the exit
#    status is 0 unless a line `[exit N]` ends the output.
if [ -z "${CARD:-}" ]; then
	cw=$tmp/console
	mkdir "$cw"
	(cd "$cw" && "$abs" new calc > /dev/null) || fail=1
	cp "$w/app.spx" "$cw/app.spx"
	ln -s "$root/tests" "$cw/tests"
	ln -s "$root/examples" "$cw/examples"
	awk -v dir="$cw" '
		FNR == 1 { inb = 0 }
		/^```console$/ { inb = 1; next }
		inb && /^```/ { inb = 0; next }
		inb && /^\$ / { n++; f = dir "/c" n; print FILENAME ":" FNR > (f ".at"); close(f ".at")
			cmd = $0; sub(/^\$ /, "", cmd); print cmd > (f ".cmd"); close(f ".cmd"); printf "" > (f ".want"); next }
		inb && n { print >> (dir "/c" n ".want") }
		END { print n + 0 > (dir "/count") }
	' README.md docs/*.md
	ncons=$(cat "$cw/count")
	i=1
	while [ "$i" -le "$ncons" ]; do
		c=$cw/c$i
		at=$(cat "$c.at")
		cmd=$(cat "$c.cmd")
		wantst=0
		last=$(tail -1 "$c.want")
		case $last in
		"[exit "*"]") wantst=${last#\[exit }; wantst=${wantst%\]}; sed '$d' "$c.want" > "$c.w" && mv "$c.w" "$c.want" ;;
		esac
		case $cmd in
		"semaprax "*) ;;
		*) echo "FAIL $at: a console line that is not a semaprax command: \`$cmd\`"; fail=1; i=$((i + 1)); continue ;;
		esac
		# shellcheck disable=SC2086 # the shown words, split as a shell would
		(cd "$cw" && "$abs" ${cmd#semaprax } > "$c.out" 2> "$c.err")
		st=$?
		cat "$c.err" >> "$c.out"
		sed 's/sha256:[0-9a-f]\{64\}/sha256:…/g' "$c.out" > "$c.got"
		if [ "$(tail -1 "$c.want")" = "…" ]; then
			n=$(($(wc -l < "$c.want") - 1))
			sed '$d' "$c.want" > "$c.w" && mv "$c.w" "$c.want"
			head -n "$n" "$c.got" > "$c.g" && mv "$c.g" "$c.got"
		fi
		if [ "$st" -ne "$wantst" ] || ! cmp -s "$c.want" "$c.got"; then
			echo "FAIL $at: \`$cmd\` exits $st (shown: $wantst) and prints otherwise (- shown, + got):"
			diff "$c.want" "$c.got" | head -10
			fail=1
		fi
		i=$((i + 1))
	done
	if [ "$ncons" -lt 3 ]; then
		echo "FAIL docs: only $ncons console commands found"
		fail=1
	fi
	[ "$fail" -eq 0 ] && echo "docs: $ncons console commands print what the docs show"
fi
# 10. the documents' outlines and fragments against real outputs: GRAPH.md's four JSON outlines,
#    doc-format.md's and the card's diagnostic line (keys and their order, tests/docs/keys.py);
#    LOCK.md's line layout (the kinds in order, the field counts); REGISTERS.md's report (run)
#    and `[registers]` rows (canonical, and they run in `check`); the card's manifest is
#    `semaprax new calc`'s; the card's and PROJECTS.md's `use` lines verify in that project
#    (a `calc.range` record and std.text added); README.md's grammar names only commands and
#    its source layout names every src/ directory and only files that exist.
if [ -z "${CARD:-}" ]; then
	sh10=$tmp/shapes
	mkdir "$sh10"
	shapes=0
	block() {   # FILE N: the Nth fenced block of FILE
		awk -v n="$2" '/^```/ { k++; next } k == 2 * n - 1' "$1"
	}
	: > "$sh10/shapes"
	shape() {   # WHAT TEMPLATE-FILE REAL-FILE [ITEM-PATH]: compared below, in one python process
		printf '%s\t%s\t%s%s\n' "$1" "$2" "$3" "${4:+$tab$4}" >> "$sh10/shapes"
		shapes=$((shapes + 1))
	}
	(cd "$cw" && "$abs" graph app.spx) > "$sh10/graph" && (cd "$cw" && "$abs" graph calc) > "$sh10/pgraph" &&
	(cd "$cw" && "$abs" context app.spx card.hello.add) > "$sh10/ctx" &&
	(cd "$cw" && "$abs" context app.spx app.main --max-nodes 1) > "$sh10/ctx-cut" &&
	(cd "$cw" && "$abs" context calc calc.add) > "$sh10/pctx" &&
	(cd "$cw" && "$abs" context calc calc.app.main --max-nodes 1) > "$sh10/pctx-cut" &&
	(cd "$cw" && "$abs" doc app.spx --json) > "$sh10/doc" || { echo "FAIL docs: a graph/context/doc command of the outlines fails"; fail=1; }
	n=0
	for want in semaprax.graph.c1 semaprax.project-graph.c1 semaprax.context.c1 semaprax.project-agent-context.v1; do
		n=$((n + 1))
		block docs/GRAPH.md "$n" > "$sh10/t$n"
		if ! grep -q "^{\"schema\":\"$want\"" "$sh10/t$n"; then
			echo "FAIL docs/GRAPH.md: its block $n is not the $want outline"
			fail=1
		fi
	done
	shape "docs/GRAPH.md (graph.c1)" "$sh10/t1" "$sh10/graph"
	shape "docs/GRAPH.md (project-graph.c1)" "$sh10/t2" "$sh10/pgraph"
	shape "docs/GRAPH.md (context.c1)" "$sh10/t3" "$sh10/ctx"
	shape "docs/GRAPH.md (context.c1, cut)" "$sh10/t3" "$sh10/ctx-cut"
	shape "docs/GRAPH.md (project-agent-context.v1)" "$sh10/t4" "$sh10/pctx"
	shape "docs/GRAPH.md (project-agent-context.v1, cut)" "$sh10/t4" "$sh10/pctx-cut"
	awk '/^```text$/ { k++; next } /^```/ { if (on) exit; next } k == 2 { on = 1; print }' docs/doc-format.md > "$sh10/tdoc"
	shape "docs/doc-format.md (doc.c1)" "$sh10/tdoc" "$sh10/doc" declarations
	# doc-format.md's text layout: the doc fixtures' text snapshots and the examples' docs
	awk '/^## Text/ { on = 1 } on && /^```text$/ { f = 1; next } f && /^```/ { exit } f' docs/doc-format.md > "$sh10/ttext"
	for ex in examples/*.spx; do "$bin" doc "$ex"; done > "$sh10/examples-doc"
	if ! $t_python tests/docs/layout.py "$sh10/ttext" tests/fixtures/doc/*.doc.txt "$sh10/examples-doc" > "$sh10/layout-out"; then
		echo "FAIL docs/doc-format.md: lines of \`semaprax doc\` its text outline does not show:"
		head -5 "$sh10/layout-out"
		fail=1
	fi
	shapes=$((shapes + 1))
	# the card's diagnostic line; `fixes` (optional) follows `help`
	awk '/^## json/ { on = 1 } on && /^```json$/ { f = 1; next } f && /^```/ { exit } f' "$card" |
		sed 's/}$/,"fixes"?:[…]}/' > "$sh10/tdiag"
	"$bin" check --json tests/fixtures/syntax/codes/P106/let_missing_semi_line_end.spx | head -1 > "$sh10/diag-fixes"
	(cd "$cw" && "$abs" check --json calc/src/core.spx) | head -1 > "$sh10/diag"
	grep -q '"fixes"' "$sh10/diag-fixes" || { echo "FAIL docs: the P106 fixture's diagnostic has no fixes any more; pick another"; fail=1; }
	shape "$card (a diagnostic line)" "$sh10/tdiag" "$sh10/diag"
	shape "$card (a diagnostic line with fixes)" "$sh10/tdiag" "$sh10/diag-fixes"
	$t_python tests/docs/keys.py "$sh10/shapes" || fail=1
	# LOCK.md: the line kinds, in order, with their field counts (an export's header excepted)
	awk '/^```$/ { on = !on; if (!on) exit; next } on && /^[a-z]/ { sub(/ *#.*/, ""); gsub(/<[^>]*>/, "X"); print $1, NF }' docs/LOCK.md > "$sh10/lockt"
	(cd "$cw" && "$abs" new cmdp --template command > /dev/null && "$abs" lock calc && "$abs" lock cmdp) > "$sh10/locks" || fail=1
	if ! awk 'NR == FNR { rank[$1] = FNR; nf[$1] = $2; next }
		/^schema / { last = 0 }
		!($1 in rank) { print "a line kind the document does not show: " $1; bad = 1; next }
		rank[$1] < last { print "out of the documented order: " $1; bad = 1 }
		$1 != "export" && NF != nf[$1] { print $1 " has " NF " fields, the document shows " nf[$1]; bad = 1 }
		{ last = rank[$1]; seen[$1] = 1 }
		END { for (k in rank) if (!(k in seen)) { print "never printed by calc or cmdp: " k; bad = 1 } exit bad }' "$sh10/lockt" "$sh10/locks" > "$sh10/lockdiff"; then
		echo "FAIL docs/LOCK.md: the lock layout differs from \`semaprax lock\`'s:"
		head -5 "$sh10/lockdiff"
		fail=1
	fi
	shapes=$((shapes + 1))
	# REGISTERS.md: the report, run; the [registers] rows in tests/registers/base
	cp -R tests/registers/base "$sh10/reg"
	cp -R tests/registers/json-report/. "$sh10/reg/"
	(cd "$sh10/reg" && "$abs" registers . --register reg.json --pattern 'E-[0-9]+' --uncited --json) > "$sh10/report"
	st=$?
	awk '/^## The JSON report/ { on = 1 } on && /^```json$/ { f = 1; next } f && /^```/ { exit } f' docs/REGISTERS.md |
		sed 's/^ *//' | tr -d '\n' > "$sh10/shown"
	printf '\n' >> "$sh10/shown"
	if [ "$st" -ne 1 ] || ! cmp -s "$sh10/shown" "$sh10/report"; then
		echo "FAIL docs/REGISTERS.md: the json-report case exits $st (shown: 1) or prints another report:"
		diff "$sh10/shown" "$sh10/report" | head -4
		fail=1
	fi
	shapes=$((shapes + 1))
	cp -R tests/registers/base "$sh10/rows"
	mkdir "$sh10/rows/docs"
	printf '{ "tokens": ["SPX-T208"] }\n' > "$sh10/rows/docs/codes.json"
	printf '{ "tokens": ["REQ-1"] }\n' > "$sh10/rows/reqs.json"
	{ printf '\n'; awk '/^```toml$/ { on = 1; next } on && /^```/ { exit } on' docs/REGISTERS.md; } >> "$sh10/rows/semaprax.toml"
	if ! (cd "$sh10/rows" && "$abs" fmt --manifest semaprax.toml --check && "$abs" check .) > "$sh10/rowsout" 2>&1 ||
	    [ "$(grep -c '^register ' "$sh10/rowsout")" -ne 2 ]; then
		echo "FAIL docs/REGISTERS.md: its [registers] rows are not canonical or do not both run in \`check\`:"
		head -5 "$sh10/rowsout"
		fail=1
	fi
	shapes=$((shapes + 1))
	# the card's manifest is the one `semaprax new calc` writes
	awk '/^```toml$/ { on = 1; next } on && /^```/ { exit } on' "$card" > "$sh10/cardtoml"
	if ! cmp -s "$sh10/cardtoml" "$cw/calc/semaprax.toml"; then
		echo "FAIL $card: its manifest is not the one \`semaprax new calc\` writes:"
		diff "$sh10/cardtoml" "$cw/calc/semaprax.toml" | head -5
		fail=1
	fi
	shapes=$((shapes + 1))
	# the `use` lines of the card and PROJECTS.md, in a module of their own in calc
	cp -R "$cw/calc" "$sh10/uses"
	{ printf 'module calc.core;\n\n@id("calc.range")\nrecord Range {\n    @id("calc.range.lo")\n    lo: i64,\n    @id("calc.range.hi")\n    hi: i64,\n}\n'
	  tail -n +2 "$cw/calc/src/core.spx"; } > "$sh10/uses/src/core.spx"
	{ echo 'module calc.uses;'
	  awk '/^```text$/ { on = 1; next } on && /^```/ { on = 0 } on && /^use /' "$card" docs/PROJECTS.md | sort -u
	  printf '\n@id("calc.uses.one")\nfn one() -> i64\n{\n    1\n}\n'; } > "$sh10/uses/src/uses.spx"
	nuse=$(grep -c '^use ' "$sh10/uses/src/uses.spx")
	{ sed 's|"src/tests.spx"\]|"src/tests.spx", "src/uses.spx"]|' "$cw/calc/semaprax.toml"
	  printf '\n[dependencies]\nstd.text = "^0.1.0"\n'; } > "$sh10/uses/semaprax.toml"
	if [ "$nuse" -lt 3 ] || ! (cd "$sh10" && "$abs" check --json uses) > "$sh10/usesout" 2>&1 || grep -q '"code"' "$sh10/usesout"; then
		echo "FAIL docs: the \`use\` lines of $card and docs/PROJECTS.md ($nuse) do not verify cleanly in calc:"
		head -3 "$sh10/usesout"
		fail=1
	fi
	shapes=$((shapes + 1))
	# README.md: the grammar's commands; the source layout
	"$bin" help all | sed -n 's/^  semaprax \([a-z-]*\).*/\1/p' | sort -u > "$sh10/commands"
	block README.md 1 | sed -n 's/^semaprax \([a-z][a-z-]*\).*/\1/p' | sort -u > "$sh10/readme-commands"
	extra=$(comm -13 "$sh10/commands" "$sh10/readme-commands" | tr '\n' ' ')
	if [ ! -s "$sh10/readme-commands" ] || [ -n "$extra" ]; then
		echo "FAIL README.md: its grammar names commands \`help all\` does not have: ${extra:-(no grammar found)}"
		fail=1
	fi
	shapes=$((shapes + 1))
	awk '/^```/ { if (on) exit; first = 1; next } first { first = 0; on = /^src\// } on' README.md > "$sh10/layout"
	for d in $(sed -n 's|^\(src/[a-z_]*/\).*|\1|p' "$sh10/layout"); do
		[ -d "$d" ] || { echo "FAIL README.md: its source layout names $d, which does not exist"; fail=1; }
	done
	for d in src/*/; do
		grep -q "^$d " "$sh10/layout" || { echo "FAIL README.md: its source layout does not name $d"; fail=1; }
	done
	for top in $(sed -n 's|^\([a-z]*/\) .*|\1|p' "$sh10/layout" | grep -v '^src/$'); do
		[ -d "$top" ] || { echo "FAIL README.md: its layout names $top, which does not exist"; fail=1; }
	done
	awk '/^src\// { d = $1 } /^[a-z]/ && !/^src\// { d = "" } d { print d "\t" $0 }' "$sh10/layout" |
	while IFS=$tab read -r d line; do
		for f in $(printf '%s\n' "$line" | grep -o '[a-z_*]*\.[chd][ef]*\b' | grep -E '\.(c|h|def)$'); do
			found=0
			for g in $d$f $d*/$f; do   # a glob such as check_*.c
				[ -e "$g" ] && found=1
			done
			[ "$found" -eq 1 ] || echo "FAIL README.md: its source layout names $d$f, which does not exist"
		done
	done > "$sh10/files"
	if [ -s "$sh10/files" ]; then cat "$sh10/files"; fail=1; fi
	shapes=$((shapes + 1))
	# docs/ARCHITECTURE.md's pipeline: each snake_case name is a src/ directory or a function a header declares
	for word in $(awk '/^```$/ { on = !on; if (!on) exit; next } on' docs/ARCHITECTURE.md | grep -o '[a-z][a-z0-9]*_[a-z0-9_]*' | sort -u); do
		[ -d "src/$word" ] || grep -rq "[^a-z0-9_]$word(" src --include='*.h' ||
			{ echo "FAIL docs/ARCHITECTURE.md: its pipeline names $word, neither a src/ directory nor a declared function"; fail=1; }
	done
	shapes=$((shapes + 1))
	[ "$fail" -eq 0 ] && echo "docs: $shapes outlines and fragments (GRAPH, doc-format, the card's diagnostic line, LOCK, REGISTERS, the card's manifest, the use lines, README's grammar and layout, ARCHITECTURE's pipeline) agree with real outputs and sources"
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
