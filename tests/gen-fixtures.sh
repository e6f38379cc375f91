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
