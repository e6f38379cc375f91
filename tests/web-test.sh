#!/bin/sh
# web-test.sh BIN — `build --target web` (issue 13 item 3): builds the
# package of tests/fixtures/web/pkg.spx twice (byte-identical, program.wasm
# passes wasm-validate), imports its index.mjs under node and calls both
# exports by stable id (a broken `requires` surfaces as a SemapraxFailure
# with status 70), compares index.d.ts and package.json with their
# snapshots (tests/fixtures/web/pkg.index.d.ts, pkg.package.json), and
# checks the refusals: an unknown id and a non-scalar export (W115), an
# existing output (I307, untouched), --export without --target web.  The
# hostile-id fixture (hostile.spx) checks that its id reaches JS, HTML and
# JSON only escaped.  --files (tests/fixtures/web/files.spx over files.d/):
# the package bundles the tree under files/ (byte-identical across builds),
# and its exports read those files only, with the other lanes' statuses
# (files.calls: a bundled file, a path not bundled 2, a directory 7, text
# that is not UTF-8 text.v1/3); without --files every read is not found;
# a symbolic link in the tree is I001 and nothing is written; --files
# without --target web is a usage error.  A project's package
# (tests/project/build-web-files) exports its manifest's `[exports] web`
# from a non-entry module and reads its bundle.  No browser here (item 6 is
# a separate test).
set -u
. "$(dirname "$0")/lib.sh"
t_begin web "${1:-}"
t_need "install Debian nodejs and wabt" node wasm-validate
dir=tests/fixtures/web
build() {
	NO_COLOR=1 "$bin" build "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
}

mkdir "$tmp/1" "$tmp/2"
if build "$dir/pkg.spx" --target web --export web.pkg.add --export web.pkg.halve -o "$tmp/1/pkg" &&
   build "$dir/pkg.spx" --target web --export web.pkg.add --export web.pkg.halve -o "$tmp/2/pkg"; then
	[ "$(cat "$tmp/out")" = "built web package $tmp/2/pkg" ] && ok || bad "output line: $(cat "$tmp/out")"
	for f in program.wasm host.mjs index.mjs index.d.ts package.json index.html; do
		cmp -s "$tmp/1/pkg/$f" "$tmp/2/pkg/$f" && ok || bad "$f is not byte-identical across runs"
	done
	wasm-validate "$tmp/1/pkg/program.wasm" && ok || bad "program.wasm does not validate"
	cmp -s "$tmp/1/pkg/index.d.ts" "$dir/pkg.index.d.ts" && ok || bad "index.d.ts differs from $dir/pkg.index.d.ts: $(diff "$dir/pkg.index.d.ts" "$tmp/1/pkg/index.d.ts" | head -n 5)"
	# parameter names: source names, reserved words and repeats renamed
	if build "$dir/pkg.spx" --target web --export web.pkg.pick -o "$tmp/1/names"; then
		cmp -s "$tmp/1/names/index.d.ts" "$dir/pkg-names.index.d.ts" && ok ||
			bad "index.d.ts differs from $dir/pkg-names.index.d.ts: $(diff "$dir/pkg-names.index.d.ts" "$tmp/1/names/index.d.ts" | head -n 5)"
	else
		bad "pkg.spx --export web.pkg.pick: $(head -n 3 "$tmp/err")"
	fi
	cmp -s "$tmp/1/pkg/package.json" "$dir/pkg.package.json" && ok ||
		bad "package.json differs from $dir/pkg.package.json"
	cat > "$tmp/call.mjs" <<'JS'
const m = await import(process.argv[2]);
const b = m.default;
const lines = [];
lines.push(`keys ${Object.keys(b).join(' ')}`);
lines.push(`add ${await b['web.pkg.add'](40n, 2)}`);
lines.push(`halve ${await b['web.pkg.halve'](7, false)} ${await b['web.pkg.halve'](7, true)}`);
try {
	await b['web.pkg.halve'](-1, true);
	lines.push('halve(-1) returned');
} catch (e) {
	lines.push(`halve(-1) ${e instanceof m.SemapraxFailure} ${e.status} ${JSON.stringify(e.message)}`);
}
try {
	await b['web.pkg.add'](9223372036854775807n, 1n);
	lines.push('add overflow returned');
} catch (e) {
	lines.push(`add overflow ${e.status} ${JSON.stringify(e.message)}`);
}
try {
	await b['web.pkg.add'](1.5, 1n);
} catch (e) {
	lines.push(`add(1.5) ${e.name}`);
}
console.log(lines.join('\n'));
JS
	if node "$tmp/call.mjs" "$tmp/1/pkg/index.mjs" > "$tmp/calls" 2> "$tmp/nerr"; then
		cmp -s "$tmp/calls" "$dir/pkg.calls" && ok || bad "calls differ from $dir/pkg.calls: $(diff "$dir/pkg.calls" "$tmp/calls" | head -n 6)"
	else
		bad "node could not import index.mjs: $(head -n 3 "$tmp/nerr")"
	fi
	# a result that is not what the sig reads (the host called with a sig that does not
	# match the export: halve's i32 read as a char, a usize or a bool, add's i64 as a bool
	# or an i32) is a runtime failure (72), never a RangeError's or TypeError's text, a
	# lone surrogate or a wrong value in silence; an unknown type in the sig is a TypeError
	cat > "$tmp/ccall.mjs" <<'JS'
import { readFileSync } from 'node:fs';
const dir = process.argv[2];
const { loadModule } = await import(`${dir}/host.mjs`);
const m = await loadModule(readFileSync(`${dir}/program.wasm`));
const halve = 'x_web_2epkg_2ehalve', add = 'x_web_2epkg_2eadd';
for (const [n, sig, args] of [[halve, ['i32', 'bool', 'char'], [130, true]], [halve, ['i32', 'bool', 'char'], [0x110000 * 2, true]],
	[halve, ['i32', 'bool', 'char'], [0xd800 * 2, true]], [halve, ['i32', 'bool', 'usize'], [10, true]],
	[add, ['i64', 'i64', 'bool'], [0n, 0n]], [add, ['i64', 'i64', 'i32'], [1n, 2n]], [add, ['i64', 'i64', 'string'], [1n, 2n]],
	[add, ['i64', 'toString', 'i64'], [1n, 2n]]]) {
	try {
		console.log(JSON.stringify(await m.call(n, sig, args)));
	} catch (e) {
		console.log(`${e.name} ${e.status} ${e.message}`);
	}
}
JS
	node "$tmp/ccall.mjs" "$tmp/1/pkg" > "$tmp/cout" 2>&1 &&
		[ "$(cat "$tmp/cout")" = '"A"
SemapraxFailure 72 SEMAPRAX runtime failure: the module returned 1114112 as a char, which is not a Unicode scalar value
SemapraxFailure 72 SEMAPRAX runtime failure: the module returned 55296 as a char, which is not a Unicode scalar value
SemapraxFailure 72 SEMAPRAX runtime failure: the module returned 5 where the sig reads a usize: the sig does not match the export
SemapraxFailure 72 SEMAPRAX runtime failure: the module returned 0n where the sig reads a bool: the sig does not match the export
SemapraxFailure 72 SEMAPRAX runtime failure: the module returned 3n where the sig reads an i32: the sig does not match the export
TypeError undefined unknown type string in the sig
TypeError undefined unknown type toString in the sig' ] && ok ||
		bad "results the sig does not read: $(cat "$tmp/cout")"
	grep -q 'form data-id="web.pkg.halve"' "$tmp/1/pkg/index.html" && grep -q 'data-type="bool"' "$tmp/1/pkg/index.html" && ok ||
		bad "index.html lacks the halve form"
else
	bad "build --target web failed: $(head -n 3 "$tmp/err")"
fi

# refusals: nothing is written
refused() { # refused STATUS LINE BUILD-ARG…: the build exits STATUS, its first stderr line starting LINE
	want=$1 line=$2
	shift 2
	build "$@"
	st=$?
	case $(head -n 1 "$tmp/err") in
	"$line"*) [ "$st" -eq "$want" ] && ok || bad "$line: exit $st" ;;
	*) bad "wanted '$line…' (exit $want), got exit $st '$(head -n 1 "$tmp/err")'" ;;
	esac
}
refused 1 "error[SPX-W115]: web export identity \`web.pkg.nope\` does not name a function of the module" "$dir/pkg.spx" --target web --export web.pkg.nope -o "$tmp/c"
refused 1 "error[SPX-W115]: \`web.pkg.label\` (\`label\`) takes or returns a value that is not a scalar at $dir/pkg.spx:21:4" "$dir/pkg.spx" --target web --export web.pkg.label -o "$tmp/c"
[ -e "$tmp/c" ] && bad "a refused build left $tmp/c" || ok
mkdir "$tmp/exists" && echo keep > "$tmp/exists/keep"
refused 1 "error[SPX-I307]: output path \`$tmp/exists\` already exists" "$dir/pkg.spx" --target web --export web.pkg.add -o "$tmp/exists"
[ "$(ls "$tmp/exists")" = keep ] && ok || bad "an existing output was touched"
refused 2 "build option \`--export\` requires \`--target web\`" "$dir/pkg.spx" --target wasm --export web.pkg.add -o "$tmp/c"

# a hostile stable id: escaped in every file
if build "$dir/hostile.spx" --target web --export "$(cat "$dir/hostile.id")" -o "$tmp/h"; then
	grep -q -e '<b>' -e "&'" "$tmp/h/index.html" && bad "a raw <b> or & reached index.html" || ok
	for f in index.mjs index.d.ts; do
		grep -qF '"web.h\"</script><b>&'"'"'\\"' "$tmp/h/$f" && ok || bad "$f lacks the JSON-escaped id"
	done
	grep -qF '"x_web_2eh_22_3c_2fscript_3e_3cb_3e_26_27_5c"' "$tmp/h/index.mjs" && ok || bad "index.mjs lacks the escaped export name"
	wasm-validate "$tmp/h/program.wasm" && ok || bad "hostile program.wasm does not validate"
	cat > "$tmp/hcall.mjs" <<'JS'
import { readFileSync } from 'node:fs';
const b = (await import(process.argv[2])).default;
const id = readFileSync(process.argv[3], 'utf8').replace(/\n$/, '');
console.log(`${JSON.stringify(Object.keys(b))} ${await b[id](5n)}`);
JS
	node "$tmp/hcall.mjs" "$tmp/h/index.mjs" "$dir/hostile.id" > "$tmp/hout" 2>&1 &&
		cmp -s "$tmp/hout" "$dir/hostile.calls" && ok || bad "hostile call: $(head -n 2 "$tmp/hout")"
	grep -c 'data-id="' "$tmp/h/index.html" | grep -qx 1 && grep -q '&#34;' "$tmp/h/index.html" && ok || bad "hostile id not entity-escaped in index.html"
else
	bad "hostile build failed: $(head -n 3 "$tmp/err")"
fi

# `__proto__` and an id with U+2028, `<!--` and `-->` (proto.spx): own bindings, called
# by id, the prototype untouched; index.html holds both ids escaped
lsep=$(printf '\342\200\250')
if build "$dir/proto.spx" --target web --export __proto__ --export "web.p$lsep<!--x-->" -o "$tmp/p"; then
	cat > "$tmp/pcall.mjs" <<'JS'
const b = (await import(process.argv[2])).default;
const keys = Object.keys(b);
console.log(`${JSON.stringify(keys)} ${Object.getPrototypeOf(b) === Object.prototype}`);
for (const k of keys) console.log(`${await b[k](5n)}`);
JS
	node "$tmp/pcall.mjs" "$tmp/p/index.mjs" > "$tmp/pout" 2>&1 &&
		[ "$(cat "$tmp/pout")" = "[\"__proto__\",\"web.p$lsep<!--x-->\"] true
10
-5" ] && ok || bad "__proto__ binding: $(head -n 3 "$tmp/pout")"
	[ "$(grep -c 'data-id="' "$tmp/p/index.html")" = 2 ] && ! grep -q -e '<!--x' -e 'x-->' "$tmp/p/index.html" && ok ||
		bad "index.html: the ids are not both there, escaped"
	# a line separator or bidi control never reaches the package's text raw (sec35): index.mjs
	# and index.d.ts write it \u2028 (the same key), index.html's data-id `&#x2028;` (the same
	# value) and its shown id `\u{2028}` (doc --html's form)
	for f in index.mjs index.d.ts index.html; do
		if grep -q "$lsep" "$tmp/p/$f"; then bad "$f holds a raw U+2028"; else ok; fi
	done
	grep -qF '"web.p\u2028<!--x-->"' "$tmp/p/index.mjs" && grep -qF '"web.p\u2028<!--x-->"' "$tmp/p/index.d.ts" && ok ||
		bad "index.mjs/index.d.ts: the id's U+2028 is not written \\u2028"
	grep -qF 'data-id="web.p&#x2028;&#60;' "$tmp/p/index.html" && grep -qF '<code>web.p\u{2028}&#60;' "$tmp/p/index.html" && ok ||
		bad "index.html: the id's U+2028 is not &#x2028; in data-id and \\u{2028} where shown"
else
	bad "proto build failed: $(head -n 3 "$tmp/err")"
fi

# a char argument is one Unicode scalar value (kinds.spx): an astral one passes, a lone
# surrogate (a JS string, no scalar value) is a TypeError, never a char of the program
if build "$dir/kinds.spx" --target web --export web.kinds.echo -o "$tmp/k"; then
	cat > "$tmp/kcall.mjs" <<'JS'
const b = (await import(process.argv[2])).default;
for (const v of ['\u{1F600}', '\uD800', '\uDFFF', 'ab']) {
	try {
		console.log(`${JSON.stringify(await b['web.kinds.echo'](v))}`);
	} catch (e) {
		console.log(`${e.constructor.name} ${e.status}`);
	}
}
JS
	node "$tmp/kcall.mjs" "$tmp/k/index.mjs" > "$tmp/kout" 2>&1 &&
		[ "$(cat "$tmp/kout")" = '"😀"
TypeError undefined
TypeError undefined
TypeError undefined' ] && ok || bad "char arguments: $(head -n 4 "$tmp/kout")"
else
	bad "kinds build failed: $(head -n 3 "$tmp/err")"
fi

# --files: a bundle read through the host
files_call() {
	cat > "$tmp/fcall.mjs" <<'JS'
const b = (await import(process.argv[2])).default;
const lines = [`words ${await b['web.files.words']()}`];
for (const w of [0n, 1n, 2n, 3n]) {
	try {
		lines.push(`pick(${w}) ${await b['web.files.pick'](w)}`);
	} catch (e) {
		lines.push(`pick(${w}) ${e.status} ${JSON.stringify(e.message)}`);
	}
}
console.log(lines.join('\n'));
JS
	node "$tmp/fcall.mjs" "$1/index.mjs" 2>&1
}
mkdir "$tmp/f1" "$tmp/f2"
if build "$dir/files.spx" --target web --export web.files.words --export web.files.pick --files "$dir/files.d" -o "$tmp/f1/pkg" &&
   build "$dir/files.spx" --target web --export web.files.words --export web.files.pick --files "$dir/files.d" -o "$tmp/f2/pkg"; then
	diff -r "$tmp/f1/pkg" "$tmp/f2/pkg" > /dev/null && ok || bad "a --files package is not byte-identical across runs"
	for f in data/words.txt data/deep/one.txt bad.txt; do
		cmp -s "$dir/files.d/$f" "$tmp/f1/pkg/files/$f" && ok || bad "files/$f is not the bundled file"
	done
	[ "$(cd "$tmp/f1/pkg/files" && find . | sort | tr '\n' ' ')" = ". ./bad.txt ./data ./data/deep ./data/deep/one.txt ./data/words.txt " ] && ok ||
		bad "files/ holds more or less than the tree"
	grep -q '"files": \["files", "host.mjs"' "$tmp/f1/pkg/package.json" && ok || bad "package.json does not list files"
	files_call "$tmp/f1/pkg" > "$tmp/fout"
	cmp -s "$tmp/fout" "$dir/files.calls" && ok || bad "file calls differ from $dir/files.calls: $(diff "$dir/files.calls" "$tmp/fout" | head -n 6)"
	# the same program in the interpreter, from the tree (a command-line program: main's value is its status)
	(cd "$dir/files.d" && "$bin" run ../files.spx > "$tmp/iout" 2>&1)
	st=$?
	[ "$st" = 17 ] && [ ! -s "$tmp/iout" ] && ok || bad "the interpreter reads files.d/data/words.txt: exit $st $(head -n 1 "$tmp/iout")"
else
	bad "build --target web --files failed: $(head -n 3 "$tmp/err")"
fi
if build "$dir/files.spx" --target web --export web.files.pick -o "$tmp/nofiles"; then
	[ ! -e "$tmp/nofiles/files" ] && ok || bad "a package without --files has files/"
	cat > "$tmp/ncall.mjs" <<'JS'
const b = (await import(process.argv[2])).default;
try { await b['web.files.pick'](3n); console.log('returned'); } catch (e) { console.log(`${e.status} ${e.message}`); }
JS
	[ "$(node "$tmp/ncall.mjs" "$tmp/nofiles/index.mjs" 2>&1)" = "73 SEMAPRAX operation failure: semaprax.filesystem.v1/2" ] && ok ||
		bad "a package without --files: a read is not \"not found\""
else
	bad "build --target web without --files failed: $(head -n 3 "$tmp/err")"
fi
cp -R "$dir/files.d" "$tmp/linked"
ln -s ../../outside.txt "$tmp/linked/data/escape.txt"
refused 1 "error[SPX-I001]: \`$tmp/linked/data/escape.txt\` is a symbolic link" "$dir/files.spx" --target web --export web.files.words --files "$tmp/linked" -o "$tmp/lpkg"
[ -e "$tmp/lpkg" ] && bad "a refused --files build left $tmp/lpkg" || ok
grep -q "^  help: --files takes a readable directory of regular files" "$tmp/err" && ok ||
	bad "a --files refusal's help is about the tree, not I001's .spx file: $(sed -n 2p "$tmp/err")"
# a name that is not UTF-8: refused, the name's byte shown as \xNN (never sent raw to the terminal)
cp -R "$dir/files.d" "$tmp/badname"
: > "$tmp/badname/$(printf 'bad\377')"
refused 1 "error[SPX-I001]: \`$tmp/badname/bad\\xff\`: a bundled file's name is UTF-8 text" "$dir/files.spx" --target web --export web.files.words --files "$tmp/badname" -o "$tmp/bpkg"
[ -e "$tmp/bpkg" ] && bad "a refused --files build left $tmp/bpkg" || ok
refused 1 "error[SPX-I001]: cannot read the --files directory \`$tmp/none\`" "$dir/files.spx" --target web --export web.files.words --files "$tmp/none" -o "$tmp/npkg"
# a file whose bytes are not the size the walk saw (a /proc pseudo-file
# reports 0 and holds more; a file that grew while bundled) is I001, not read
# past the 16 MiB bound: the bytes read are bounded by the listed sizes
if [ -r /proc/self/net/dev ]; then
	refused 1 "error[SPX-I001]: \`/proc/self/net/" "$dir/files.spx" --target web --export web.files.words --files /proc/self/net -o "$tmp/ppkg"
	[ -e "$tmp/ppkg" ] && bad "a refused --files build left $tmp/ppkg" || ok
	grep -q "does not hold the 0 bytes its size reported" "$tmp/err" && ok || bad "/proc/self/net: $(head -n 1 "$tmp/err")"
fi
# an empty directory of the tree reads as a directory (7), as in the other
# lanes, not as a path not bundled (2); more than 4,096 directories is I001
cp -R "$dir/files.d" "$tmp/emptied"
rm "$tmp/emptied/data/deep/one.txt"
if build "$dir/files.spx" --target web --export web.files.words --export web.files.pick --files "$tmp/emptied" -o "$tmp/epkg"; then
	cat > "$tmp/ecall.mjs" <<'JS'
const b = (await import(process.argv[2])).default;
for (const w of [1n, 3n]) { try { console.log(await b['web.files.pick'](w)); } catch (e) { console.log(e.status, e.message); } }
JS
	[ "$(node "$tmp/ecall.mjs" "$tmp/epkg/index.mjs" 2>&1 | tr '\n' '|')" = "73 SEMAPRAX operation failure: semaprax.filesystem.v1/7|73 SEMAPRAX operation failure: semaprax.filesystem.v1/2|" ] && ok ||
		bad "an empty bundled directory: $(node "$tmp/ecall.mjs" "$tmp/epkg/index.mjs" 2>&1 | head -n 2)"
else
	bad "build --target web --files (an empty directory) failed: $(head -n 3 "$tmp/err")"
fi
mkdir "$tmp/manydirs"
(cd "$tmp/manydirs" && i=0 && while [ $i -le 4096 ]; do mkdir "d$i"; i=$((i + 1)); done)
refused 1 "error[SPX-I001]: the --files tree holds more than 4096 directories" "$dir/files.spx" --target web --export web.files.words --files "$tmp/manydirs" -o "$tmp/mpkg"
# a FIFO in the tree is refused at the walk (never opened, so nothing waits on it)
cp -R "$dir/files.d" "$tmp/fifo"
if mkfifo "$tmp/fifo/data/pipe" 2> /dev/null; then
	refused 1 "error[SPX-I001]: \`$tmp/fifo/data/pipe\` is not a regular file" "$dir/files.spx" --target web --export web.files.words --files "$tmp/fifo" -o "$tmp/fpkg"
fi
refused 2 "build option \`--files\` requires \`--target web\`" "$dir/files.spx" --target wasm --files "$dir/files.d" -o "$tmp/c"

# a project's package: the manifest's exports, its bundle
cp -R tests/project/build-web-files "$tmp/proj"
if (cd "$tmp/proj" && NO_COLOR=1 "$bin" build . --target web --files bundle -o pkg > "$tmp/out" 2> "$tmp/err"); then
	[ "$(cat "$tmp/out")" = "built project web package pkg" ] && ok || bad "project output line: $(cat "$tmp/out")"
	wasm-validate "$tmp/proj/pkg/program.wasm" && ok || bad "the project's program.wasm does not validate"
	cat > "$tmp/pcall.mjs" <<'JS'
const b = (await import(process.argv[2])).default;
console.log(`${Object.keys(b).join(' ')} ${await b['files.io.run']()}`);
JS
	[ "$(node "$tmp/pcall.mjs" "$tmp/proj/pkg/index.mjs" 2>&1)" = "files.io.run 7" ] && ok || bad "project call: $(node "$tmp/pcall.mjs" "$tmp/proj/pkg/index.mjs" 2>&1 | head -n 2)"
else
	bad "project build --target web failed: $(head -n 3 "$tmp/err")"
fi

t_end
