#!/bin/sh
# hugefn.sh BIN [DIR] — compile time of one huge generated function under
# each C compiler (the figures in docs/DECISIONS.md, "A huge function body
# is emitted in chunks"; not a test: nothing here fails on a slow compile).
#
# Writes into DIR (default: a fresh temporary directory) four programs whose
# `main` is one huge body — 100,000 `x = x + k;`, 5,000
# `s = string_concat(s, "k");`, 20,000 `let x<i>: i64 = x<i-1> + k;` (as
# many locals) and one `while` of 3 rounds whose body is 8,000
# `x = x + k;` (a nested block's chunks), one `let y = if c { … } else { 0 };`
# whose branch is 8,000 `x = x + k;` and then `x` (a valued block's chunks)
# and one `match` of 8,000 literal arms — emits each as C with BIN (`build --target c`), and for each
# of gcc and clang (those found) compiles it with the native lane's flags
# (src/emit_c/cc.c), prints the seconds, runs the executable and checks its
# output against the interpreter's (`run`).
# (The loop's `x` starts at 0 and the loop runs 3 rounds: emitted as one
# function, gcc's VRP proves every overflow check away, so a chunked loop is
# not comparable with one function here; DECISIONS, "A chunk keeps its scalar
# locals in C locals".)
# HUGEFN_ADDS, HUGEFN_CONCATS, HUGEFN_LETS, HUGEFN_LOOP, HUGEFN_VALUED and
# HUGEFN_ARMS change the sizes; HUGEFN_ONLY="loop lets" runs only those programs.
set -eu
bin=$1
dir=${2:-$(mktemp -d)}
mkdir -p "$dir"
adds=${HUGEFN_ADDS:-100000}
concats=${HUGEFN_CONCATS:-5000}
lets=${HUGEFN_LETS:-20000}
loop=${HUGEFN_LOOP:-8000}
valued=${HUGEFN_VALUED:-8000}
arms=${HUGEFN_ARMS:-8000}
only=${HUGEFN_ONLY:-adds concat lets loop valued arms}

{
	printf 'module bench.huge_adds;\n\n@id("bench.huge_adds.main")\nfn main() -> i64\n{\n    let mut x: i64 = 0;\n'
	awk -v n="$adds" 'BEGIN { for (i = 0; i < n; i++) printf "    x = x + %d;\n", i % 97 }'
	printf '    x %% 256\n}\n'
} > "$dir/adds.spx"
{
	printf 'module bench.huge_concat;\n\n@id("bench.huge_concat.main")\nfn main() -> i64\n{\n    let mut s: string = "";\n'
	awk -v n="$concats" 'BEGIN { for (i = 0; i < n; i++) printf "    s = string_concat(s, \"%d\");\n", i % 10 }'
	printf '    string_len(s) %% 256\n}\n'
} > "$dir/concat.spx"

{
	printf 'module bench.huge_lets;\n\n@id("bench.huge_lets.main")\nfn main() -> i64\n{\n    let x0: i64 = 1;\n'
	awk -v n="$lets" 'BEGIN { for (i = 1; i < n; i++) printf "    let x%d: i64 = x%d + %d;\n", i, i - 1, i % 97 }'
	printf '    x%d %% 256\n}\n' $((lets - 1))
} > "$dir/lets.spx"

{
	printf 'module bench.huge_loop;\n\n@id("bench.huge_loop.main")\nfn main() -> i64\n{\n    let mut x: i64 = 0;\n    let mut i: i64 = 0;\n    while i < 3 {\n'
	awk -v n="$loop" 'BEGIN { for (i = 0; i < n; i++) printf "        x = x + %d;\n", i % 97 }'
	printf '        i = i + 1;\n        i < 3\n    }\n    x %% 256\n}\n'
} > "$dir/loop.spx"

{
	printf 'module bench.huge_valued;\n\n@id("bench.huge_valued.main")\nfn main() -> i64\n{\n    let mut x: i64 = 0;\n    let c: i64 = string_len("abc");\n'
	printf '    let y: i64 = if c > 2 {\n'
	awk -v n="$valued" 'BEGIN { for (i = 0; i < n; i++) printf "        x = x + %d;\n", i % 97 }'
	printf '        x\n    } else {\n        0\n    };\n    y %% 256\n}\n'
} > "$dir/valued.spx"

{
	printf 'module bench.huge_arms;\n\n@id("bench.huge_arms.main")\nfn main() -> i64\n{\n    let c: i64 = string_len("abcdefg");\n'
	printf '    let y: i64 = match c {\n'
	awk -v n="$arms" 'BEGIN { for (i = 0; i < n; i++) printf "        %d => %d,\n", i, (i * 7) % 97 }'
	printf '        _ => 0,\n    };\n    y\n}\n'
} > "$dir/arms.spx"

for p in $only; do
	rm -f "$dir/$p.c"
	"$bin" build --target c "$dir/$p.spx" -o "$dir/$p.c" > /dev/null
	want=$("$bin" run "$dir/$p.spx")
	for cc in gcc clang; do
		command -v "$cc" > /dev/null 2>&1 || continue
		t0=$(date +%s.%N)
		# user seconds too where /usr/bin/time is (the figures in DECISIONS are user seconds)
		user=-
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f %U -o "$dir/$p.$cc.time" "$cc" -std=c11 -O2 -ffp-contract=off -Wall -Wextra \
				-Wno-misleading-indentation -Werror -o "$dir/$p.$cc" "$dir/$p.c" -lm
			user=$(tail -n 1 "$dir/$p.$cc.time")
		else
			"$cc" -std=c11 -O2 -ffp-contract=off -Wall -Wextra -Wno-misleading-indentation -Werror \
				-o "$dir/$p.$cc" "$dir/$p.c" -lm
		fi
		t1=$(date +%s.%N)
		got=$("$dir/$p.$cc")
		ok=ok
		[ "$got" = "$want" ] || ok="WRONG OUTPUT ($got, interpreter $want)"
		printf '%-7s %-6s %6.2f s wall %6s s user  %s\n' "$p" "$cc" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
			"$user" "$ok"
	done
done
