#!/bin/sh
# gen-fixtures.sh DIR — writes the fixtures too large or too odd to keep in
# the repository (a 10 MB line, 10,000-deep nesting, an empty file) into
# DIR/syntax/, with their markers and snapshots, for the fixture runner.
set -eu
out=$1/syntax/generated
mkdir -p "$out"

# A 10 MB single line inside a string literal: valid and canonical.
{
	printf 'module gen.longline;\n\n@id("app.main")\nfn main() -> i64\n{\n    let s = "'
	awk 'BEGIN { s = "abcdefghij"; for (i = 0; i < 20; i++) s = s s; printf "%s", substr(s, 1, 10485760) }'
	printf '";\n    0\n}\n'
} > "$out/long-line.spx"

# The same 10 MB line, unterminated: P004 at its start, no hang.
{
	printf 'module gen.longopen;\n\nfn main() -> i64\n{\n    let s = "'
	awk 'BEGIN { s = "abcdefghij"; for (i = 0; i < 20; i++) s = s s; printf "%s", substr(s, 1, 10485760) }'
	printf ' //~ error SPX-P004\n'
} > "$out/long-line-unterminated.spx"

# 10,000-deep parentheses: P207 at the first token beyond 128 (same line).
{
	printf 'module gen.deep;\n\nfn main() -> i64\n{\n'
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "("; printf "1"; for (i = 0; i < 10000; i++) printf ")" }'
	printf ' //~ error SPX-P207\n}\n'
} > "$out/deep-parens.spx"

# 10,000-deep blocks.
{
	printf 'module gen.deepblocks;\n\nfn main() -> i64\n{\n'
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "{ "; printf "1"; for (i = 0; i < 10000; i++) printf " }" }'
	printf ' //~ error SPX-P207\n}\n'
} > "$out/deep-blocks.spx"

# 10,000 unary minus signs.
{
	printf 'module gen.deepunary;\n\nfn main() -> i64\n{\n    '
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "-"; printf "1" }'
	printf ' //~ error SPX-P207\n}\n'
} > "$out/deep-unary.spx"

# A 129-term left-associative chain fails; 127 terms pass (the body is level 1).
{
	printf 'module gen.chain;\n\nfn main() -> i64\n{\n    0'
	awk 'BEGIN { for (i = 0; i < 129; i++) printf " + 1" }'
	printf ' //~ error SPX-P207\n}\n'
} > "$out/chain-129.spx"
{
	printf 'module gen.chainok;\n\n@id("app.main")\nfn main() -> i64\n{\n    0'
	awk 'BEGIN { for (i = 0; i < 127; i++) printf " + 1" }'
	printf '\n}\n'
} > "$out/chain-127.spx"

# An empty file: P104 `expected module` at 1:1; it cannot hold a marker, so
# the expectation is a sidecar plus a JSON snapshot.
: > "$out/empty.spx"
printf '1 error SPX-P104\n' > "$out/empty.expect"
printf '%s\n' '{"code":"SPX-P104","severity":"error","message":"expected `module`","path":"'"$out"'/empty.spx","location":{"line":1,"column":1,"start":0,"end":0},"help":"a file starts with `module dotted.name;`, then its `@id`-annotated declarations"}' > "$out/empty.json"

# ---- checker stress inputs (`semaprax check`): diagnostics, no crash, no
# blow-up.  Each is linear-size; see the comments for the expected outcome.
out=$1/check/generated
mkdir -p "$out"

# 100,000 small functions with @id, each calling the previous one: clean.
{
	printf 'module gen.manyfns;\n'
	awk 'BEGIN {
		printf "\n@id(\"gen.f0\")\nfn f0(x: i64) -> i64\n{\n    x + 1\n}\n"
		for (i = 1; i < 100000; i++)
			printf "\n@id(\"gen.f%d\")\nfn f%d(x: i64) -> i64\n{\n    f%d(x) + 1\n}\n", i, i, i - 1
	}'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    f99999(0) %% 100\n}\n'
} > "$out/many-functions.spx"

# A 10,000-arm scalar match with a catch-all: clean.
{
	printf 'module gen.scalarmatch;\n\n@id("gen.classify")\nfn classify(n: i64) -> i64\n{\n    match n { '
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "%d => %d, ", i, i % 7 }'
	printf '_ => -1, }\n}\n\n@id("app.main")\nfn main() -> i64\n{\n    classify(42)\n}\n'
} > "$out/match-scalar-10000.spx"

# A 10,000-case variant and an exhaustive 10,000-arm match over it: clean.
{
	printf 'module gen.variantmatch;\n\n@id("gen.big")\nvariant Big {\n'
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "    @id(\"gen.big.c%d\")\n    C%d,\n", i, i }'
	printf '}\n\n@id("gen.rank")\nfn rank(b: Big) -> i64\n{\n    match b { '
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "Big::C%d {} => %d, ", i, i }'
	printf '}\n}\n\n@id("app.main")\nfn main() -> i64\n{\n    rank(Big::C9999 {}) %% 100\n}\n'
} > "$out/match-variant-10000.spx"

# The same variant with one case left out of the match: one T209-class
# non-exhaustive diagnostic is not asserted here (its code belongs to the
# match fixtures); instead, 100-deep generic nesting in types: clean.
{
	printf 'module gen.deepoption;\n\n@id("gen.depth")\nfn depth(x: '
	awk 'BEGIN { for (i = 0; i < 100; i++) printf "Option<"; printf "i64"; for (i = 0; i < 100; i++) printf ">" }'
	printf ') -> i64\n{\n    match x { Option::Some { value } => 1, Option::None {} => 0, }\n}\n'
	printf '\n@id("gen.wrap")\nfn wrap(v: '
	awk 'BEGIN { for (i = 0; i < 100; i++) printf "Vec<"; printf "string"; for (i = 0; i < 100; i++) printf ">" }'
	printf ') -> '
	awk 'BEGIN { for (i = 0; i < 50; i++) printf "Result<Option<"; printf "i64"; for (i = 0; i < 50; i++) printf ">, string>" }'
	printf '\n{\n    '
	awk 'BEGIN { for (i = 0; i < 49; i++) printf "Result<Option<"; printf "i64"; for (i = 0; i < 49; i++) printf ">, string>" }'
	printf '\n}\n'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    0\n}\n'
} > "$out/deep-generics-100.spx"
