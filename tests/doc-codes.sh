#!/bin/sh
# tests/doc-codes.sh BIN — our documentation checked with our own register
# check (issue 16 item 7): every diagnostic code docs/*.md and README.md cite
# must be in the compiler's code register (`semaprax explain --register`;
# citing a retired code — a lifted reference restriction — is allowed, the
# documents record the lifts).
#
# The documents are not SEMAPRAX sources, so each line of them that
# mentions `SPX-` becomes the attached comment of one generated function
# `@id("docs.<file>.l<line>")` of a generated project, and
# `semaprax registers` checks that project's citations (pattern
# `SPX-[A-Z][0-9]{3}`) against the register.  A finding names the document
# and line through the declaration id.  Run from the repository root.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/p/src"
"$bin" explain --register > "$tmp/p/codes.json" || { echo "doc-codes: explain --register failed"; exit 1; }
# the register holds every code of the catalog, the retired ones marked so
held=$(grep -c '^"SPX-' "$tmp/p/codes.json")
retired=$(grep -c '^{"token":"SPX-[A-Z][0-9]*","retired":true}' "$tmp/p/codes.json")
want_held=$(grep -c '^| SPX-[A-Z][0-9]* | \(error\|warning\) |' docs/diagnostics.md)
want_retired=$(grep -c '^| SPX-[A-Z][0-9]* | retired |' docs/diagnostics.md)
if [ "$held" != "$want_held" ] || [ "$retired" != "$want_retired" ] || [ "$retired" = 0 ]; then
	echo "doc-codes: explain --register lists $held held and $retired retired codes; the catalog $want_held and $want_retired"
	exit 1
fi
cat > "$tmp/p/semaprax.toml" <<'EOF'
schema = "semaprax.manifest.v1"

[package]
name = "docs"
version = "0.1.0"

[modules]
entry = "docs.main"
sources = ["src/cited.spx", "src/main.spx", "src/tests.spx"]
tests = ["docs.tests"]

[exports]
web = ["docs.main.main"]
EOF
printf 'module docs.main;\n\n@id("docs.main.main")\nfn main() -> i64\n{\n    0\n}\n' > "$tmp/p/src/main.spx"
printf 'module docs.tests;\n\n@id("docs.tests.main")\nfn main() -> i64\n{\n    0\n}\n' > "$tmp/p/src/tests.spx"
{
	printf 'module docs.cited;\n'
	for f in README.md docs/*.md; do
		stem=$(basename "$f" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '_')
		awk -v stem="$stem" '/SPX-/ {
			gsub(/\r/, "")
			printf "\n// %s\n@id(\"docs.%s.l%d\")\nfn %s_l%d() -> i64\n{\n    0\n}\n", $0, stem, FNR, stem, FNR
		}' "$f"
	done
} > "$tmp/p/src/cited.spx"
"$bin" fmt "$tmp/p" > /dev/null 2>&1
"$bin" registers "$tmp/p" --register "$tmp/p/codes.json" --pattern 'SPX-[A-Z][0-9]{3}' --json > "$tmp/report" 2> "$tmp/err"
if ! grep -q '"totals":{' "$tmp/report"; then
	echo "doc-codes: the register check did not run:"
	cat "$tmp/report" "$tmp/err"
	exit 1
fi
cites=$(sed 's/.*"totals":{"declarations":[0-9]*,"citations":\([0-9]*\),.*/\1/' "$tmp/report")
if ! grep -q '"unknown":0,' "$tmp/report"; then
	"$bin" registers "$tmp/p" --register "$tmp/p/codes.json" --pattern 'SPX-[A-Z][0-9]{3}' 2>&1 | grep 'SPX-J150'
	exit 1
fi
echo "doc-codes: $cites citations of diagnostic codes in README.md and docs/*.md, all in the register ($held held, $retired retired codes)"
