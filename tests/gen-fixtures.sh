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

# Postfix chains (field access, method call, `?`, `with`) count like binary
# chains: 10,000 of each is P207 at the 128th operation (no later walk can
# recurse deeply), 127 pass and 128 fail (the body is level 1).
postfix_chain() { # NAME COUNT OP MARK
	{
		printf 'module gen.postfix;\n\n@id("app.main")\nfn main() -> i64\n{\n    r'
		awk -v n="$2" -v op="$3" 'BEGIN { for (i = 0; i < n; i++) printf "%s", op }'
		if [ "$4" = err ]; then printf ' //~ error SPX-P207\n}\n'; else printf '\n}\n'; fi
	} > "$out/$1.spx"
}
for form in 'field:.a' 'method:.m()' 'try:?' 'with: with { a: 1 }'; do
	name=${form%%:*}
	op=${form#*:}
	postfix_chain "postfix-$name-10000" 10000 "$op" err
	postfix_chain "postfix-$name-128" 128 "$op" err
	postfix_chain "postfix-$name-127" 127 "$op" ok
done

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

# Generic types nested 100 deep (parameters, a result, a constructor's type
# arguments): clean, and no deep recursion trouble.
{
	printf 'module gen.deepgenerics;\n\n@id("gen.depth")\nfn depth(x: '
	awk 'BEGIN { for (i = 0; i < 100; i++) printf "Option<"; printf "i64"; for (i = 0; i < 100; i++) printf ">" }'
	printf ') -> i64\n{\n    match x { Option::Some { value } => 1, Option::None {} => 0, }\n}\n'
	printf '\n@id("gen.wrap")\nfn wrap(v: own '
	awk 'BEGIN { for (i = 0; i < 100; i++) printf "Vec<"; printf "string"; for (i = 0; i < 100; i++) printf ">" }'
	printf ') -> '
	awk 'BEGIN { for (i = 0; i < 50; i++) printf "Result<Option<"; printf "i64"; for (i = 0; i < 50; i++) printf ">, string>" }'
	printf '\n{\n    '
	awk 'BEGIN { printf "Result<"; for (i = 0; i < 49; i++) printf "Option<Result<"; printf "Option<i64>"; for (i = 0; i < 49; i++) printf ", string>>"; printf ", string>::Err { error: \"deep\" }" }'
	printf '\n}\n'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    0\n}\n'
} > "$out/deep-generics-100.spx"

# 900 unknown types in fields, parameters and local annotations: one T001
# each, all on record (below the sink's 1,000-diagnostic cap).
{
	printf 'module gen.unknowntypes;\n'
	awk 'BEGIN { for (i = 0; i < 300; i++)
		printf "\n@id(\"gen.r%d\")\nrecord R%d {\n    @id(\"gen.r%d.a\")\n    a: Gone%d, //~ error SPX-T001\n}\n", i, i, i, i
	for (i = 0; i < 300; i++)
		printf "\n@id(\"gen.u%d\")\nfn u%d(x: Missing%d) -> i64 //~ error SPX-T001\n{\n    let z: Absent%d = 3; //~ error SPX-T001\n    0\n}\n", i, i, i, i }'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    0\n}\n'
} > "$out/unknown-types-900.spx"

# 5,000 unknown parameter types: the sink records the first 1,000 (in
# source order) and counts the rest, so only the first 1,000 carry markers.
{
	printf 'module gen.unknowncap;\n'
	awk 'BEGIN { for (i = 0; i < 5000; i++)
		printf "\n@id(\"gen.u%d\")\nfn u%d(x: Missing%d) -> i64%s\n{\n    1\n}\n", i, i, i, i < 1000 ? " //~ error SPX-T001" : "" }'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    0\n}\n'
} > "$out/unknown-types-5000-capped.spx"

# Recursive records: a 1,000-record by-value cycle R0 -> R1 -> … -> R999 ->
# R0 (one T217, at the first record's span, which starts at its `@id`: the
# reference reports only the first),
# then the same chain through Box (an indirection): clean.
{
	printf 'module gen.recrecords;\n'
	awk 'BEGIN { for (i = 0; i < 1000; i++)
		printf "\n@id(\"gen.r%d\")%s\nrecord R%d {\n    @id(\"gen.r%d.next\")\n    next: R%d,\n}\n", i, i == 0 ? " //~ error SPX-T217" : "", i, i, (i + 1) % 1000 }'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    0\n}\n'
} > "$out/recursive-records-1000.spx"
{
	printf 'module gen.boxedrecords;\n'
	awk 'BEGIN { for (i = 0; i < 1000; i++)
		printf "\n@id(\"gen.r%d\")\nrecord R%d {\n    @id(\"gen.r%d.next\")\n    next: Option<Box<R%d>>,\n}\n", i, i, i, (i + 1) % 1000 }'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    0\n}\n'
} > "$out/boxed-records-1000.spx"

# A 1,000-class inheritance cycle C0 : C999, C1 : C0, …: one T228, at the
# first class (its link is then dropped, so the others are not reported);
# what remains is a 1,000-class chain, so C129 is T227 (more than 128
# ancestors).
{
	printf 'module gen.cycle;\n'
	awk 'BEGIN { for (i = 0; i < 1000; i++)
		printf "\n@id(\"gen.c%d\")\nclass C%d : C%d {%s\n    @id(\"gen.c%d.v\")\n    v%d: i64,\n}\n", i, i, (i + 999) % 1000, i == 0 ? " //~ error SPX-T228" : i == 129 ? " //~ error SPX-T227" : "", i, i }'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    0\n}\n'
} > "$out/inheritance-cycle-1000.spx"

# A 100,000-class inheritance chain C0, C1 : C0, …: one T227 at C129, the
# first class with more than 128 ancestors (its link is dropped; the classes
# below it are cut again silently every 128 levels).  The cycle search and the
# effective fields are linear: this took minutes (a walk per class) and a
# 4,000-class chain of one field each took 570 MB.
{
	printf 'module gen.chain;\n'
	awk 'BEGIN { for (i = 0; i < 100000; i++)
		printf "\n@id(\"gen.c%d\")\nclass C%d%s {%s\n}\n", i, i, i ? sprintf(" : C%d", i - 1) : "", i == 129 ? " //~ error SPX-T227" : "" }'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    0\n}\n'
} > "$out/inheritance-chain-100000.spx"

# The near miss: a 129-class chain (C128 has 128 ancestors) with a field each
# checks clean, and C128 reads its root's field.
{
	printf 'module gen.chainok;\n'
	awk 'BEGIN { for (i = 0; i < 129; i++)
		printf "\n@id(\"gen.c%d\")\nclass C%d%s {\n    @id(\"gen.c%d.v\")\n    v%d: i64,\n}\n", i, i, i ? sprintf(" : C%d", i - 1) : "", i, i }'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    let c = C128 {'
	awk 'BEGIN { for (i = 0; i < 129; i++) printf "%s v%d: %d", i ? "," : "", i, i }'
	printf ' };\n    c.v0 + c.v128\n}\n'
} > "$out/inheritance-chain-128.spx"

# The inherited-field budget: a 12-class chain of 3,500 fields each (its
# classes inherit 3,500 x (0 + 1 + ... + 11) = 231,000 fields), then 2,000
# classes under its last one, each of which would copy 42,000 more: the
# module's classes inherit at most 262,144 fields in all, so the first of them
# is T227 and the others, over the same bound, are not reported again.
{
	printf 'module gen.fan;\n'
	awk 'BEGIN { for (i = 0; i < 12; i++) {
		printf "\n@id(\"gen.c%d\")\nclass C%d%s {\n", i, i, i ? sprintf(" : C%d", i - 1) : ""
		for (j = 0; j < 3500; j++) printf "    @id(\"gen.c%d.f%d\")\n    c%df%d: i64,\n", i, j, i, j
		printf "}\n" } }'
	awk 'BEGIN { for (i = 0; i < 2000; i++) printf "\n@id(\"gen.l%d\")\nclass L%d : C11 {%s\n}\n", i, i, i == 0 ? " //~ error SPX-T227" : "" }'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    0\n}\n'
} > "$out/inheritance-fields-fan.spx"

# Polymorphic recursion at its most expensive: two type parameters (64
# scalar roots), both growing, and a 400-statement body.  The instance
# closure would never end; the checker stops at its work bound (2^20
# expression checks) with one T235 at the recursive call, well under 0.5 s.
{
	printf 'module gen.polyrec;\n\n@id("gen.f")\nfn f<A, B>(n: i64) -> i64\n{\n'
	awk 'BEGIN { for (i = 0; i < 400; i++) printf "    let a%d = n + %d;\n", i, i }'
	printf '    let d = f<Vec<B>, Option<A>>(n - 1); //~ error SPX-T235\n    d + a399\n}\n'
	printf '\n@id("app.main")\nfn main() -> i64\n{\n    f<i64, bool>(2)\n}\n'
} > "$out/polymorphic-recursion-wide.spx"

# T265's correlated conditions (prec21): one function with 1,000 distinct
# conditions, three kinds in turn — a `let` comparison read as `if c` then
# `if !c`, a comparison then its complement, a `match` arm then a later
# match's `_` — each deciding that the read of the old view under the other
# value does not follow the owner's renewal: clean.  Past 64 conditions
# every episode was T265 (the correlation stopped); 10,000 episodes check
# in ~0.15 s, 100,000 in ~1.9 s (linear).
{
	printf 'module gen.conds;\n\n@id("gen.rd")\nfn rd(w: borrow str) -> i64\n{\n    string_len(string_from_str(w))\n}\n\n'
	printf '@id("gen.f")\nfn f(k: i64) -> i64\n{\n    let mut s = string_concat("ab", "cd");\n    let mut w = string_as_str(s);\n    let mut t = 0;\n'
	awk 'BEGIN { for (i = 0; i < 1000; i++) {
		if (i % 3 == 0)
			printf "    let c%d = k > %d;\n    if c%d { s = string_concat(s, \"x\"); }\n    if !c%d { t = t + rd(w); }\n", i, i, i, i
		else if (i % 3 == 1)
			printf "    if k == %d { s = string_concat(s, \"y\"); }\n    if k != %d { t = t + rd(w); }\n", i, i
		else
			printf "    let m%d = match k { %d => { s = string_concat(s, \"z\"); 1 }, _ => 0, };\n    let r%d = match k { %d => m%d, _ => rd(w), };\n    t = t + r%d;\n", i, i, i, i, i, i
		printf "    w = string_as_str(s);\n"
	} }'
	printf '    t + rd(w)\n}\n\n@id("app.main")\nfn main() -> i64\n{\n    f(500) %% 1000\n}\n'
} > "$out/correlated-conditions-1000.spx"

# Statement-if discard names skip every `_if<n>` the file spells, wherever
# it stands (LANGUAGE.md §0.3): here `_if1` (a field of the first record)
# stands ~112,000 tokens (2.2 MB of them) before the statement `if`, so the
# parser has handed that part of the token array back to the system by then
# (lex_release_before): the names are gathered before the parse.  The `if`
# is `_if2` (it was `_if1` when they were gathered at the first `if`).
out=$1/graph/generated
mkdir -p "$out"
{
	printf 'module gen.ifnames;\n\n@id("gen.a")\nrecord A {\n    @id("gen.a.x")\n    _if1: i64,\n}\n\n@id("gen.big")\nrecord Big {\n'
	awk 'BEGIN { for (i = 0; i < 14000; i++) printf "    @id(\"gen.big.f%d\")\n    f%d: i64,\n", i, i }'
	printf '}\n\n@id("app.main")\nfn main() -> i64\n{\n    let mut n = 0;\n    if n == 0 { n = 1; } else { n = 2; }\n    n\n}\n'
} > "$out/if-names-far.spx"
printf 'parse --dump-ast\n' > "$out/if-names-far.cmds"
{
	printf '$ parse --dump-ast\n(module gen.ifnames)\n(permit)\n(record "gen.a" A (tparams) (fields (field "gen.a.x" _if1 i64)) (invariants))\n(record "gen.big" Big (tparams) (fields'
	awk 'BEGIN { for (i = 0; i < 14000; i++) printf " (field \"gen.big.f%d\" f%d i64)", i, i }'
	printf ') (invariants))\n(fn "app.main" main (tparams) (params) i64 (uses) (requires) (ensures) (block (let-mut n - (int 0 none)) (if-stmt _if2 (if (bin == (name n) (int 0 none)) (block (assign n - (int 1 none)) (tail)) (block (assign n - (int 2 none)) (tail)))) (tail (name n))))\nexit 0\n'
} > "$out/if-names-far.out"
