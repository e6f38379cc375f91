#!/bin/sh
# native-inject.sh BIN — source text cannot inject C (issue 11, item 1).
#
# Generates programs whose stable identities, names, string literals and
# module names are hostile to a C translation unit: `*/`, `/*`, `\`, a
# backslash before a newline (`\\\n`), `??/` and the other trigraphs, `"`,
# `%s`, raw control bytes, UTF-8; names that are C keywords, libc macros or
# the generated code's own spellings (`spx_d`, `t0`, `l_x_0`, `fn_main`,
# `i0_fn_f`), and pairs that an unprefixed scheme would merge (class `A_b`
# method `c` beside class `A` method `b_c`).  For each: `build --target c`,
# compile with -std=c11 -Wall -Wextra -Werror (trigraphs are on in C11),
# run it, and compare stdout and status with the interpreter's `run`; the
# generated C must not contain any injected payload raw.
#
# The hostile pieces are combined by awk's generator from a seed
# (SPX_INJECT_SEED, default 11; SPX_INJECT_COUNT programs, default 4), so a
# wider search is `SPX_INJECT_SEED=$RANDOM SPX_INJECT_COUNT=50 sh …`.
set -u
. "$(dirname "$0")/lib.sh"
t_begin native-inject "${1:-}"
seed=${SPX_INJECT_SEED:-11}
count=${SPX_INJECT_COUNT:-4}
. "$(dirname "$0")/lane-lib.sh"
lane_need_cc native-inject

# gen SEED > program.spx; writes the raw payloads, one a line, to $tmp/payloads
gen() {
	awk -v seed="$1" -v payloads="$tmp/payloads" 'BEGIN {
		srand(seed)
		# text fragments as source spellings (inside a string literal) and
		# the raw payload each must never produce in the C
		n = 0
		frag[++n] = "*/ int spx_pwned = 1; /*";        raw[n] = "*/ int spx_pwned = 1; /*"
		frag[++n] = "*/ __attribute__((constructor)) static void spx_f(void) { } /*"
		raw[n] = "*/ __attribute__((constructor))"
		frag[++n] = "/*";                              raw[n] = ""
		frag[++n] = "*/";                              raw[n] = ""
		frag[++n] = "a\\\\\\nint spx_spliced;";       raw[n] = ""   # see the line-end check
		frag[++n] = "??/";                             raw[n] = "??/"
		frag[++n] = "??= ??( ??) ??< ??> ??! ??- ??'\''"; raw[n] = "??="
		frag[++n] = "\\\"); int spx_quote; (\\\"";     raw[n] = "\"); int spx_quote; (\""
		frag[++n] = "%s%n%d";                          raw[n] = ""
		frag[++n] = "\\\\";                            raw[n] = ""
		frag[++n] = "tab\\there";                      raw[n] = ""
		frag[++n] = "cr\\rlf";                         raw[n] = ""
		frag[++n] = sprintf("ctl%c%c%c%c", 1, 8, 27, 127); raw[n] = sprintf("ctl%c", 1)
		frag[++n] = "\303\251\342\230\203 \360\237\230\200"; raw[n] = "\342\230\203"
		frag[++n] = "#define spx_die exit";           raw[n] = ""
		nfrag = n
		# identifiers hostile to C or to the generated spellings
		m = split("int static return0 main printf exit spx_d spx_result spx_out spx_self t0 t1 tmp1 " \
			  "arr2 l_x_0 fn_main i0_fn_f a__0 NULL EOF errno stdout INT64_MAX inline restrict " \
			  "_Bool __LINE__ __func__ auto register volatile goto sizeof typedef union " \
			  "switch case default char long short unsigned signed double float void const " \
			  "extern spx_fn spx_str spx_view spx_cap free malloc", pool, " ")
		for (i = m; i > 1; i--) {
			j = int(rand() * i) + 1
			x = pool[i]; pool[i] = pool[j]; pool[j] = x
		}
		# the two function names may not be `main` (the entry point)
		if (pool[15] == "main") { pool[15] = pool[m]; pool[m] = "main" }
		if (pool[17] == "main") { pool[17] = pool[m]; pool[m] = "main" }
		np = 0
		printf "" > payloads
		for (i = 1; i <= nfrag; i++)
			if (raw[i] != "")
				print raw[i] >> payloads
		printf "module %s.%s.%s;\n\n", pool[1], pool[2], pool[3]
		printf "permit { process.stdout.write }\n\n"
		# a record with an invariant (its comment and check), hostile field names
		printf "@id(\"%s\")\nrecord R_%s {\n", id(), pool[4]
		printf "    @id(\"%s\")\n    %s: i64,\n", id(), pool[5]
		printf "    @id(\"%s\")\n    %s: i64,\n}\n    requires %s <= %s\n\n", id(), pool[6], pool[5], pool[6]
		# a variant with hostile case and field names
		printf "@id(\"%s\")\nvariant V_%s {\n", id(), pool[7]
		printf "    @id(\"%s\")\n    %s,\n", id(), pool[8]
		printf "    @id(\"%s\")\n    %s { %s: i64, },\n}\n\n", id(), pool[9], pool[10]
		# two classes an unprefixed method spelling would merge
		printf "@id(\"%s\")\nclass A_b {\n    @id(\"%s\")\n    %s: i64,\n\n", id(), id(), pool[11]
		printf "    @id(\"%s\")\n    fn c(self: A_b, %s: i64) -> i64\n{\n        self.%s + %s\n    }\n}\n\n", id(), pool[12], pool[11], pool[12]
		printf "@id(\"%s\")\nclass A {\n    @id(\"%s\")\n    %s: i64,\n\n", id(), id(), pool[13]
		printf "    @id(\"%s\")\n    fn b_c(self: A, %s: i64) -> i64\n{\n        self.%s * %s\n    }\n}\n\n", id(), pool[14], pool[13], pool[14]
		# a contract-carrying function and a generic one with hostile names
		printf "@id(\"%s\")\nfn %s(%s: i64) -> i64\n    requires %s >= 0\n    ensures result > %s\n{\n    %s + 1\n}\n\n", \
			id(), pool[15], pool[16], pool[16], pool[16], pool[16]
		printf "@id(\"%s\")\nfn %s<T>(%s: T) -> T\n{\n    %s\n}\n\n", id(), pool[17], pool[18], pool[18]
		printf "@id(\"%s\")\nfn main() -> i64\n    uses { process.stdout.write }\n{\n", id()
		k = 0
		for (i = 0; i < 6; i++) {
			s = text()
			printf "    let %s = \"%s\\n\";\n", pool[19 + 2 * i], s
			printf "    let %s = stdout_write(str_as_bytes(string_as_str(%s)));\n", pool[20 + 2 * i], pool[19 + 2 * i]
		}
		# a string_format template: its literal pieces are C string literals too
		printf "    let %s = string_format(\"%s{} %s{}\\n\", 5, true);\n", pool[37], tmpl(), tmpl()
		printf "    let %s = stdout_write(str_as_bytes(string_as_str(%s)));\n", pool[38], pool[37]
		printf "    let %s = R_%s { %s: 1, %s: 2 };\n", pool[31], pool[4], pool[5], pool[6]
		printf "    let %s = V_%s::%s { %s: 5 };\n", pool[32], pool[7], pool[9], pool[10]
		printf "    let %s = match %s {\n        V_%s::%s => 0,\n        V_%s::%s { %s: %s } => %s,\n    };\n", \
			pool[33], pool[32], pool[7], pool[8], pool[7], pool[9], pool[10], pool[34], pool[34]
		printf "    let %s = A_b { %s: 3 };\n    let %s = A { %s: 4 };\n", pool[35], pool[11], pool[36], pool[13]
		printf "    %s.%s + %s(%s.%s) + %s<i64>(%s) + %s.c(1) + %s.b_c(2) + string_len(\"%s\")\n}\n", \
			pool[31], pool[6], pool[15], pool[31], pool[5], pool[17], pool[33], pool[35], pool[36], text()
	}
	function text(   s, i, k) {
		s = ""
		k = 1 + int(rand() * 3)
		for (i = 0; i < k; i++)
			s = s frag[1 + int(rand() * nfrag)] " "
		return s
	}
	# text() for a string_format template: its braces doubled (the
	# `{{`/`}}` escapes), so a fragment holding `{ }` is literal text
	function tmpl(   s) {
		s = text()
		gsub(/[{]/, "{{", s)
		gsub(/[}]/, "}}", s)
		return s
	}
	function id() {
		return "inj." (++np) " " text()
	}'
}

i=0
while [ "$i" -lt "$count" ]; do
	i=$((i + 1))
	s=$((seed * 1000 + i))
	p=$tmp/p$i.spx
	gen "$s" > "$p"
	[ -n "${SPX_INJECT_KEEP:-}" ] && cp "$p" "$SPX_INJECT_KEEP/"   # a directory to keep the programs in
	if ! "$bin" check "$p" > "$tmp/check" 2>&1; then
		bad "seed $s: the generated program does not verify: $(head -n 3 "$tmp/check")"
		continue
	fi
	NO_COLOR=1 "$bin" run "$p" > "$tmp/io" 2> "$tmp/ie" < /dev/null
	ist=$?
	if ! "$bin" build --target c -o "$tmp/p$i.c" "$p" > /dev/null 2> "$tmp/be"; then
		bad "seed $s: build --target c failed: $(head -n 1 "$tmp/be")"
		continue
	fi
	while IFS= read -r payload; do
		if grep -F -q -e "$payload" "$tmp/p$i.c"; then
			bad "seed $s: the generated C contains the raw payload '$payload'"
		fi
	done < "$tmp/payloads"
	if grep -q '\\$' "$tmp/p$i.c"; then
		bad "seed $s: a line of the generated C ends in a backslash (a line splice)"
	fi
	if ! $cc -std=c11 -O0 -ffp-contract=off -Wall -Wextra -Werror -o "$tmp/p$i" "$tmp/p$i.c" -lm 2> "$tmp/ce"; then
		bad "seed $s: the generated C does not compile warning-free: $(grep -m 1 'error' "$tmp/ce")"
		continue
	fi
	"$tmp/p$i" > "$tmp/no" 2> "$tmp/ne" < /dev/null
	nst=$?
	if [ "$ist" -ne 0 ] || [ "$nst" -ne 0 ]; then
		bad "seed $s: exit statuses interpreter $ist, native $nst: $(head -n 1 "$tmp/ie") $(head -n 1 "$tmp/ne")"
	elif ! cmp -s "$tmp/io" "$tmp/no"; then
		bad "seed $s: stdout differs between the interpreter and the executable"
	fi
done
# A project (tests/native-inject/project): the same payloads as stable ids
# of a provider's record, variant, case field, class, method and functions
# that the entry module imports by id and uses as values, closures and
# calls; the unit spells those types and function types by structural key
# (emit_prog.c).  Its C must hold no payload raw, compile warning-free, run
# as the interpreter does, and be byte-identical when built twice.
proj=$(dirname "$0")/native-inject/project
gen 1 > /dev/null   # the payload list
if ! "$bin" build "$proj" --target c -o "$tmp/proj.c" > /dev/null 2> "$tmp/be"; then
	bad "project: build --target c failed: $(head -n 1 "$tmp/be")"
else
	"$bin" build "$proj" --target c -o "$tmp/proj2.c" > /dev/null 2>&1
	cmp -s "$tmp/proj.c" "$tmp/proj2.c" || bad "project: two builds of the C unit differ"
	while IFS= read -r payload; do
		if grep -F -q -e "$payload" "$tmp/proj.c"; then
			bad "project: the generated C contains the raw payload '$payload'"
		fi
	done < "$tmp/payloads"
	grep -q '\\$' "$tmp/proj.c" && bad "project: a line of the generated C ends in a backslash (a line splice)"
	if ! $cc -std=c11 -O0 -ffp-contract=off -Wall -Wextra -Werror -o "$tmp/proj" "$tmp/proj.c" -lm 2> "$tmp/ce"; then
		bad "project: the generated C does not compile warning-free: $(grep -m 1 'error' "$tmp/ce")"
	else
		NO_COLOR=1 "$bin" run "$proj" > "$tmp/io" 2> "$tmp/ie" < /dev/null
		ist=$?
		"$tmp/proj" > "$tmp/no" 2> "$tmp/ne" < /dev/null
		nst=$?
		if [ "$ist" -ne 0 ] || [ "$nst" -ne 0 ] || ! cmp -s "$tmp/io" "$tmp/no" || [ "$(cat "$tmp/no")" != 45 ]; then
			bad "project: interpreter $ist '$(head -c 80 "$tmp/io")', native $nst '$(head -c 80 "$tmp/no")' (want 45)"
		fi
	fi
fi

echo "native-inject: $count programs and a project, $fail failures"
[ "$fail" -eq 0 ]
