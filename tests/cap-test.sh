#!/bin/sh
# cap-test.sh BIN [--sanitize] — capability-gated I/O (issue 15 item 4, LANGUAGE.md §0.1's
# lift) in both lanes: every tests/cap/NAME.spx runs in the interpreter
# (`run`), natively (`run --native`) and as an executable from `build`, each
# in a fresh copy of one root tree (the working directory), and
#   - the interpreter's stdout/stderr must equal NAME.stdout / NAME.stderr
#     (empty when absent) and its exit status the `// exit: N` line;
#   - `run --native` must agree with it (tests/lane-lib.sh's mapping of
#     failure lines to native statuses);
#   - the built executable, given the same grant as its first argument,
#     must exit as `run --native` does, with the same first stderr line;
#   - `run --wasm` (with node, under SEMAPRAX_CHECK_LEAKS) agrees with the
#     interpreter (file reads and writes, stdin, the environment, the clock)
#     and writes what it does, or gives the interpreter's F120/F121;
#   - `// cap-file: PATH=TEXT` lines name files that must hold TEXT (plus a
#     newline when TEXT does not end the data) after each run, and
#     `// cap-absent: PATH` files that must not exist.
# Header lines: `// cap-flags: …` (run flags, e.g. --allow-write=out; the
# executable takes them first), `// cap-stdin: TEXT` (stdin, else empty),
# `// cap-env: NAME=VALUE` (the environment is exactly that, plus PATH for
# the C compiler; else just PATH).
#
# The root tree (mkroot): sub/in.txt ("inside\n"); out/ and out/inner/;
# inlink -> sub/in.txt; subl -> sub; twisty -> subl/../sub/in.txt (links
# inside the root); outlink -> ../outside/s.txt, outdir -> ../outside,
# upin -> ../root/sub/in.txt (links leaving it); out/back -> ../sub (inside
# the root, outside out/); devlink -> /dev/null (a device, outside);
# fifo and out/pipe (FIFOs); out/hard, a hard link to ../outside/s.txt, which
# holds "secret\n".
#
# `BLESS=1 sh tests/cap-test.sh BIN` rewrites the .stdout/.stderr snapshots.
set -u
. "$(dirname "$0")/lib.sh"
t_begin cap "${1:-}"
cc=${CC:-cc}
. "$(dirname "$0")/lane-lib.sh"
native=1
command -v "${cc%% *}" >/dev/null 2>&1 || native=0

mkroot_tree() { # mkroot_tree BOX: makes the tree
	rm -rf "$1" && mkdir -p "$1/root/sub" "$1/root/out/inner" "$1/outside" || exit 2
	echo inside > "$1/root/sub/in.txt"
	echo secret > "$1/outside/s.txt"
	ln -s sub/in.txt "$1/root/inlink"
	ln -s sub "$1/root/subl"
	ln -s subl/../sub/in.txt "$1/root/twisty"
	ln -s ../outside/s.txt "$1/root/outlink"
	ln -s ../outside "$1/root/outdir"
	ln -s ../root/sub/in.txt "$1/root/upin"
	ln -s ../sub "$1/root/out/back"
	ln -s /dev/null "$1/root/devlink"
	mkfifo "$1/root/fifo" "$1/root/out/pipe"
	ln "$1/outside/s.txt" "$1/root/out/hard"
}
# mkroot BOX: a fresh copy of the tree, made once (`cp -a` keeps the symbolic
# links, the FIFOs and the hard link between outside/s.txt and out/hard): 2
# processes a box instead of 14
mkroot_tree "$tmp/.tree"
mkroot() {
	rm -rf "$1" && cp -a "$tmp/.tree" "$1" || exit 2
}

header() { # header FILE KEY: the values of `// KEY: …` lines
	sed -n "s|^// $2: ||p" "$1"
}
# headers FILE: header's values of every key a case reads, from one sed:
# $flags, $stdin, $envs and $want as `$(header FILE KEY)` gives them (a key's
# values joined by newlines, trailing newlines dropped), $h_file and
# $h_absent one value a line, each ended by a newline (check_files).  A
# `$(header …)` per key cost two processes a key, six keys a case.
nl='
'
headers() {
	_hv=$(sed -n 's%^// \(cap-flags\|cap-stdin\|cap-env\|exit\|cap-file\|cap-absent\): %\1 %p' "$1")
	flags= stdin= envs= want= h_file= h_absent=
	[ -n "$_hv" ] || return 0
	_hv=$_hv$nl
	while [ -n "$_hv" ]; do
		_hl=${_hv%%"$nl"*}
		_hv=${_hv#*"$nl"}
		_hk=${_hl%% *}
		_hl=${_hl#* }
		case $_hk in
		cap-flags) flags=$flags$_hl$nl ;;
		cap-stdin) stdin=$stdin$_hl$nl ;;
		cap-env) envs=$envs$_hl$nl ;;
		exit) want=$want$_hl$nl ;;
		cap-file) h_file=$h_file$_hl$nl ;;
		cap-absent) h_absent=$h_absent$_hl$nl ;;
		esac
	done
	while :; do case $flags in *"$nl") flags=${flags%"$nl"} ;; *) break ;; esac; done
	while :; do case $stdin in *"$nl") stdin=${stdin%"$nl"} ;; *) break ;; esac; done
	while :; do case $envs in *"$nl") envs=${envs%"$nl"} ;; *) break ;; esac; done
	while :; do case $want in *"$nl") want=${want%"$nl"} ;; *) break ;; esac; done
}

# --sanitize: the native programs under ASan+UBSan with the runtime's leak check
# (lane_sanitize_env); those settings pass through the otherwise empty environment.
[ "${2:-}" = "--sanitize" ] && lane_sanitize_env

# invoke OUT ERR CMD…: runs CMD in $tmp/box/root with the fixture's stdin and environment
invoke() {
	o=$1 e=$2
	shift 2
	if [ -n "$envs" ]; then
		(cd "$tmp/box/root" && printf '%s' "$stdin" | env -i PATH="$PATH" NO_COLOR=1 CC="$lane_ccx" \
			SEMAPRAX_NATIVE_CFLAGS="${SEMAPRAX_NATIVE_CFLAGS:-}" ASAN_OPTIONS="${ASAN_OPTIONS:-}" \
			UBSAN_OPTIONS="${UBSAN_OPTIONS:-}" ${SEMAPRAX_CHECK_LEAKS:+SEMAPRAX_CHECK_LEAKS=1} "$envs" "$@") > "$o" 2> "$e"
	else
		(cd "$tmp/box/root" && printf '%s' "$stdin" | env -i PATH="$PATH" NO_COLOR=1 CC="$lane_ccx" \
			SEMAPRAX_NATIVE_CFLAGS="${SEMAPRAX_NATIVE_CFLAGS:-}" ASAN_OPTIONS="${ASAN_OPTIONS:-}" \
			UBSAN_OPTIONS="${UBSAN_OPTIONS:-}" ${SEMAPRAX_CHECK_LEAKS:+SEMAPRAX_CHECK_LEAKS=1} "$@") > "$o" 2> "$e"
	fi
}

check_files() { # check_files LANE ($h_file and $h_absent: headers)
	_cf=
	_cr=$h_file
	while [ -n "$_cr" ]; do
		spec=${_cr%%"$nl"*}
		_cr=${_cr#*"$nl"}
		_cp=${spec%%=*} cwant=${spec#*=}
		if [ "$(cat "$tmp/box/root/$_cp" 2>/dev/null)" != "$cwant" ]; then
			_cf=$_cf"FAIL cap: $name ($1): $_cp does not hold '$cwant'"$nl
		fi
	done
	_cr=$h_absent
	while [ -n "$_cr" ]; do
		_cp=${_cr%%"$nl"*}
		_cr=${_cr#*"$nl"}
		if [ -e "$tmp/box/root/$_cp" ] || [ -L "$tmp/box/root/$_cp" ]; then
			_cf=$_cf"FAIL cap: $name ($1): $_cp was written"$nl
		fi
	done
	if [ -n "$_cf" ]; then printf '%s' "$_cf"; fail=$((fail + 1)); else ok; fi
}

for f in tests/cap/*.spx; do
	name=${f##*/}
	name=${name%.spx}
	headers "$f"
	want=${want:-0}
	# the interpreter
	mkroot "$tmp/box"
	cp "$f" "$tmp/box/$name.spx"
	# shellcheck disable=SC2086 # flags is a list of words
	invoke "$tmp/io" "$tmp/ie" "$bin" run $flags "../$name.spx"
	ist=$?
	if [ "${BLESS:-0}" = 1 ]; then
		for ch in stdout stderr; do
			src=$tmp/io
			[ $ch = stderr ] && src=$tmp/ie
			if [ -s "$src" ]; then cp "$src" "tests/cap/$name.$ch"; else rm -f "tests/cap/$name.$ch"; fi
		done
	fi
	if [ "$ist" -eq "$want" ]; then ok; else bad "$name: run exit $ist, wanted $want: $(head -n 1 "$tmp/ie")"; fi
	for ch in stdout stderr; do
		src=$tmp/io
		[ $ch = stderr ] && src=$tmp/ie
		if [ -f "tests/cap/$name.$ch" ]; then
			if cmp -s "$src" "tests/cap/$name.$ch"; then ok; else bad "$name: run $ch differs from tests/cap/$name.$ch: '$(head -c 200 "$src")'"; fi
		elif [ -s "$src" ]; then
			bad "$name: run wrote on $ch without a snapshot: '$(head -c 200 "$src")'"
		else
			ok
		fi
	done
	check_files run
	[ "$native" -eq 1 ] || continue
	# run --native
	mkroot "$tmp/box"
	cp "$f" "$tmp/box/$name.spx"
	# shellcheck disable=SC2086
	invoke "$tmp/no" "$tmp/ne" "$bin" run --native $flags "../$name.spx"
	nst=$?
	if lane_compare "$ist" "$nst" "$tmp/io" "$tmp/ie" "$tmp/no" "$tmp/ne"; then ok; else bad "$name: $lane_why"; fi
	check_files native
	# the built executable (a refusal before running builds nothing: F120 is
	# the executable's own start-up check, F121 the build's)
	mkroot "$tmp/box"
	cp "$f" "$tmp/box/$name.spx"
	(cd "$tmp/box" && CC="$lane_ccx" "$bin" build "$name.spx" -o exe > "$tmp/bo" 2> "$tmp/be")
	bst=$?
	t_first "$tmp/ie"
	case $t_l in
	"error[SPX-F121]"*)
		if [ "$bst" -eq 1 ] && grep -q "SPX-F121" "$tmp/be"; then ok; else bad "$name: build of a network module: exit $bst"; fi
		continue ;;
	esac
	if [ "$bst" -ne 0 ]; then
		bad "$name: build failed: $(head -n 1 "$tmp/be")"
		continue
	fi
	t_first "$tmp/ie"
	case $t_l in
	"error[SPX-F120]"*)
		invoke "$tmp/eo" "$tmp/ee" ../exe
		est=$?
		if [ "$est" -eq 2 ] && grep -q "SEMAPRAX capability refused: the program permits fs.write" "$tmp/ee"; then ok
		else bad "$name: the executable without a grant: exit $est '$(head -n 1 "$tmp/ee")'"; fi
		check_files executable
		continue ;;
	esac
	# shellcheck disable=SC2086
	invoke "$tmp/eo" "$tmp/ee" ../exe $flags
	est=$?
	if [ "$est" -eq "$nst" ] && [ "$(head -n 1 "$tmp/ee")" = "$(head -n 1 "$tmp/ne")" ]; then ok
	else bad "$name: executable exit $est '$(head -n 1 "$tmp/ee")', run --native exit $nst '$(head -n 1 "$tmp/ne")'"; fi
	check_files executable
done

# The Wasm lane reads and writes files (its host's walk mirrors src/rt/fs.c),
# reads stdin, the environment (the shared runtime's snapshot over the
# process's bytes) and the clock, or gives the interpreter's refusal (F120,
# F121); what it runs must agree with the interpreter as `run --native` does
# (owned values all released: SEMAPRAX_CHECK_LEAKS), with the same files
# written (cap-file, cap-absent) and nothing else in the root changed.
wasm_ran=0
snapshot() { # the root tree: each entry's type and link target, each regular file's checksum
	(cd "$tmp/box/root" && find . -printf '%p %y %l\n' | sort && find . -type f | sort | xargs cksum)
}
if command -v node >/dev/null 2>&1; then
	for f in tests/cap/*.spx; do
		name=${f##*/}
		name=${name%.spx}
		headers "$f"
		mkroot "$tmp/box"
		cp "$f" "$tmp/box/$name.spx"
		# shellcheck disable=SC2086
		invoke "$tmp/io" "$tmp/ie" "$bin" run $flags "../$name.spx"
		ist=$?
		snapshot > "$tmp/itree"
		mkroot "$tmp/box"
		cp "$f" "$tmp/box/$name.spx"
		# shellcheck disable=SC2086
		SEMAPRAX_CHECK_LEAKS=1 invoke "$tmp/wo" "$tmp/we" "$bin" run --wasm $flags "../$name.spx"
		wst=$?
		wline=$(head -n 1 "$tmp/we")
		case $wline in
		"error[SPX-F120]"* | "error[SPX-F121]"*)
			if [ "$wst" -eq 1 ] && [ ! -s "$tmp/wo" ]; then ok; else bad "$name: run --wasm refused with exit $wst"; fi ;;
		*)
			wasm_ran=$((wasm_ran + 1))
			if lane_compare "$ist" "$wst" "$tmp/io" "$tmp/ie" "$tmp/wo" "$tmp/we"; then ok; else bad "$name: run --wasm: $lane_why"; fi ;;
		esac
		check_files wasm
		# the root as the interpreter left it: the same entries, link targets and file bytes
		snapshot > "$tmp/wtree"
		if cmp -s "$tmp/itree" "$tmp/wtree"; then ok
		else bad "$name: run --wasm left the root unlike the interpreter: $(diff "$tmp/itree" "$tmp/wtree" | head -n 4 | tr '\n' ' ')"; fi
	done
fi

# stdin past 65,536 bytes is command-input.v1 code 4 in both lanes.
stdin=$(head -c 65537 /dev/zero | tr '\0' a) envs=""
mkroot "$tmp/box"
cp tests/cap/stdin_echo.spx "$tmp/box/s.spx"
invoke "$tmp/o" "$tmp/e" "$bin" run ../s.spx
st=$?
if [ "$st" -eq 1 ] && grep -q '"domain_id":"semaprax.command-input.v1","code":4' "$tmp/e" && [ ! -s "$tmp/o" ]; then ok
else bad "run: stdin over 65,536 bytes: exit $st '$(head -n 1 "$tmp/e")'"; fi
if [ "$native" -eq 1 ]; then
	invoke "$tmp/o" "$tmp/e" "$bin" run --native ../s.spx
	st=$?
	if [ "$st" -eq 73 ] && [ "$(head -n 1 "$tmp/e")" = "SEMAPRAX operation failure: semaprax.command-input.v1/4" ]; then ok
	else bad "run --native: stdin over 65,536 bytes: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi
if [ "$wasm_ran" -gt 0 ]; then
	invoke "$tmp/o" "$tmp/e" "$bin" run --wasm ../s.spx
	st=$?
	if [ "$st" -eq 73 ] && [ "$(cat "$tmp/e")" = "SEMAPRAX operation failure: semaprax.command-input.v1/4" ] && [ ! -s "$tmp/o" ]; then ok
	else bad "run --wasm: stdin over 65,536 bytes: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi
stdin=$(head -c 65536 /dev/zero | tr '\0' a)
invoke "$tmp/o" "$tmp/e" "$bin" run ../s.spx
# (all read and echoed: main returns 65,536, outside the exit status range)
if [ $? -eq 1 ] && grep -q "returned 65536, outside" "$tmp/e"; then ok; else bad "run: 65,536 bytes of stdin fit: $(head -n 1 "$tmp/e")"; fi
if [ "$wasm_ran" -gt 0 ]; then
	SEMAPRAX_CHECK_LEAKS=1 invoke "$tmp/o" "$tmp/e" "$bin" run --wasm ../s.spx
	st=$?
	if [ "$st" -eq 72 ] && grep -q "returned 65536, outside" "$tmp/e" && [ ! -s "$tmp/o" ]; then ok
	else bad "run --wasm: 65,536 bytes of stdin fit: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi

# stdin bytes that are not UTF-8 pass through unchanged (stdin is Bytes), and the
# environment's edges, in every lane: an entry that is not UTF-8 is
# environment-input.v1 code 2, more than 256 entries code 3 (the snapshot of
# src/rt/host.c, which the Wasm lane's runtime module shares).
lanes="run"
[ "$native" -eq 1 ] && lanes="$lanes run_--native"
[ "$wasm_ran" -gt 0 ] && lanes="$lanes run_--wasm"
stdin=$(printf 'a\377\376b') envs=""
for l in $lanes; do
	# shellcheck disable=SC2046
	invoke "$tmp/o" "$tmp/e" "$bin" $(echo "$l" | tr _ ' ') ../s.spx
	st=$?
	if [ "$st" -eq 4 ] && [ "$(od -An -tx1 "$tmp/o" | tr -d ' ')" = "61fffe62" ]; then ok
	else bad "$l: stdin that is not UTF-8: exit $st"; fi
done
cp tests/cap/env_read.spx "$tmp/box/e.spx"
stdin=""
for l in $lanes; do
	envs="SPX_BAD=$(printf 'x\377')"
	# shellcheck disable=SC2046
	invoke "$tmp/o" "$tmp/e" "$bin" $(echo "$l" | tr _ ' ') ../e.spx
	st=$?
	case $l in run) want_st=1 want="environment entry is not valid UTF-8 text" ;;
	*) want_st=73 want="SEMAPRAX operation failure: semaprax.environment-input.v1/2" ;; esac
	if [ "$st" -eq "$want_st" ] && grep -q "$want" "$tmp/e" && [ ! -s "$tmp/o" ]; then ok
	else bad "$l: an environment entry that is not UTF-8: exit $st '$(head -n 1 "$tmp/e")'"; fi
	envs=""
	# shellcheck disable=SC2046
	(i=0; while [ $i -lt 300 ]; do echo "SPX_V$i=v"; i=$((i + 1)); done) > "$tmp/manyenv"
	(cd "$tmp/box/root" && env -i PATH="$PATH" CC="$cc" $(cat "$tmp/manyenv") "$bin" $(echo "$l" | tr _ ' ') ../e.spx) > "$tmp/o" 2> "$tmp/e" < /dev/null
	st=$?
	case $l in run) want="environment capacity exceeded" ;; *) want="SEMAPRAX operation failure: semaprax.environment-input.v1/3" ;; esac
	if [ "$st" -eq "$want_st" ] && grep -q "$want" "$tmp/e" && [ ! -s "$tmp/o" ]; then ok
	else bad "$l: an environment of 300 entries: exit $st '$(head -n 1 "$tmp/e")'"; fi
done

# The stdin stream has no cumulative limit: 100,000 bytes (past stdin_read's
# 65,536) arrive as chunks of at most 4,096 bytes, all counted in every lane
# (100,000 mod 256 = 160; what is echoed depends on where reads split).
stdin=$(head -c 100000 /dev/zero | tr '\0' a)
mkroot "$tmp/box"
cp tests/cap/stdin_stream_count.spx "$tmp/box/s.spx"
invoke "$tmp/o" "$tmp/e" "$bin" run ../s.spx
st=$?
if [ "$st" -eq 160 ] && [ ! -s "$tmp/e" ]; then ok; else bad "run: a 100,000-byte stdin stream: exit $st '$(head -n 1 "$tmp/e")'"; fi
if [ "$native" -eq 1 ]; then
	invoke "$tmp/o" "$tmp/e" "$bin" run --native ../s.spx
	st=$?
	if [ "$st" -eq 160 ] && [ ! -s "$tmp/e" ]; then ok; else bad "run --native: a 100,000-byte stdin stream: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi
if [ "$wasm_ran" -gt 0 ]; then
	SEMAPRAX_CHECK_LEAKS=1 invoke "$tmp/o" "$tmp/e" "$bin" run --wasm ../s.spx
	st=$?
	if [ "$st" -eq 160 ] && [ ! -s "$tmp/e" ]; then ok; else bad "run --wasm: a 100,000-byte stdin stream: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi

# A stdin that cannot be read (a directory: EISDIR) fails stdin_stream_open with
# command-input.v1 code 3 in every lane, as stdin_read does.
(cd "$tmp/box/root" && NO_COLOR=1 "$bin" run ../s.spx < . > "$tmp/o" 2> "$tmp/e")
st=$?
if [ "$st" -eq 1 ] && grep -q '"domain_id":"semaprax.command-input.v1","code":3' "$tmp/e" && [ ! -s "$tmp/o" ]; then ok
else bad "run: an unreadable stdin stream: exit $st '$(head -n 1 "$tmp/e")'"; fi
if [ "$native" -eq 1 ]; then
	(cd "$tmp/box/root" && NO_COLOR=1 CC="$cc" "$bin" run --native ../s.spx < . > "$tmp/o" 2> "$tmp/e")
	st=$?
	if [ "$st" -eq 73 ] && [ "$(head -n 1 "$tmp/e")" = "SEMAPRAX operation failure: semaprax.command-input.v1/3" ]; then ok
	else bad "run --native: an unreadable stdin stream: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi
if [ "$wasm_ran" -gt 0 ]; then
	(cd "$tmp/box/root" && NO_COLOR=1 "$bin" run --wasm ../s.spx < . > "$tmp/o" 2> "$tmp/e")
	st=$?
	if [ "$st" -eq 73 ] && [ "$(cat "$tmp/e")" = "SEMAPRAX operation failure: semaprax.command-input.v1/3" ] && [ ! -s "$tmp/o" ]; then ok
	else bad "run --wasm: an unreadable stdin stream: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi

# A closed stdin (<&-) fails the same way in every lane: node would reopen it
# as /dev/null (an empty input), so the Wasm lane's launcher puts a directory
# there first (src/emit_wasm/node.c).
(cd "$tmp/box/root" && NO_COLOR=1 "$bin" run ../s.spx <&- > "$tmp/o" 2> "$tmp/e")
st=$?
if [ "$st" -eq 1 ] && grep -q '"domain_id":"semaprax.command-input.v1","code":3' "$tmp/e"; then ok
else bad "run: a closed stdin: exit $st '$(head -n 1 "$tmp/e")'"; fi
if [ "$native" -eq 1 ]; then
	(cd "$tmp/box/root" && NO_COLOR=1 CC="$cc" "$bin" run --native ../s.spx <&- > "$tmp/o" 2> "$tmp/e")
	st=$?
	if [ "$st" -eq 73 ] && [ "$(head -n 1 "$tmp/e")" = "SEMAPRAX operation failure: semaprax.command-input.v1/3" ]; then ok
	else bad "run --native: a closed stdin: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi
if [ "$wasm_ran" -gt 0 ]; then
	(cd "$tmp/box/root" && NO_COLOR=1 "$bin" run --wasm ../s.spx <&- > "$tmp/o" 2> "$tmp/e")
	st=$?
	if [ "$st" -eq 73 ] && [ "$(cat "$tmp/e")" = "SEMAPRAX operation failure: semaprax.command-input.v1/3" ] && [ ! -s "$tmp/o" ]; then ok
	else bad "run --wasm: a closed stdin: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi

# A copy of a reader (vec_clone_at) has a full-size buffer of its own: a short
# first chunk (5 bytes, then a pause) is copied, and the copy is refilled with
# full chunks of the 10,000 bytes that follow; a buffer too small would be
# overrun (the probe after it, or the run, fails).  10,005 mod 256 = 21.
mkroot "$tmp/box"
cp tests/cap/stdin_stream_clone.spx "$tmp/box/s.spx"
for l in $lanes; do
	# shellcheck disable=SC2046
	(cd "$tmp/box/root" && (printf abcde; sleep 0.3; head -c 10000 /dev/zero | tr '\0' a) |
		NO_COLOR=1 CC="$cc" SEMAPRAX_CHECK_LEAKS=1 "$bin" $(echo "$l" | tr _ ' ') ../s.spx > "$tmp/o" 2> "$tmp/e")
	st=$?
	if [ "$st" -eq 21 ] && [ ! -s "$tmp/e" ]; then ok; else bad "$l: a copied reader refilled after a short chunk: exit $st '$(head -n 1 "$tmp/e")'"; fi
done

# stream_text_command's failing half (reference stream_text_command.rs @8d84744): with an
# argument the first chunk's iteration cuts past the text, semaprax.text.v1 code 1, and
# nothing is published, in every lane.
stdin=x
mkroot "$tmp/box"
cp tests/cap/stdin_stream_text.spx "$tmp/box/s.spx"
invoke "$tmp/o" "$tmp/e" "$bin" run ../s.spx -- bad
st=$?
if [ "$st" -eq 1 ] && grep -q '"domain_id":"semaprax.text.v1","code":1' "$tmp/e" && [ ! -s "$tmp/o" ]; then ok
else bad "run: stdin_stream_text with an argument: exit $st '$(head -n 1 "$tmp/e")'"; fi
if [ "$native" -eq 1 ]; then
	invoke "$tmp/o" "$tmp/e" "$bin" run --native ../s.spx -- bad
	st=$?
	if [ "$st" -eq 73 ] && [ "$(head -n 1 "$tmp/e")" = "SEMAPRAX operation failure: semaprax.text.v1/1" ] && [ ! -s "$tmp/o" ]; then ok
	else bad "run --native: stdin_stream_text with an argument: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi
if [ "$wasm_ran" -gt 0 ]; then
	SEMAPRAX_CHECK_LEAKS=1 invoke "$tmp/o" "$tmp/e" "$bin" run --wasm ../s.spx -- bad
	st=$?
	if [ "$st" -eq 73 ] && [ "$(cat "$tmp/e")" = "SEMAPRAX operation failure: semaprax.text.v1/1" ] && [ ! -s "$tmp/o" ]; then ok
	else bad "run --wasm: stdin_stream_text with an argument: exit $st '$(head -n 1 "$tmp/e")'"; fi
fi

# The grant's own rules (both `run` and the executable): `--allow-write=DIR` names a
# directory below the working directory, reached without links; the flag is single-use.
mkroot "$tmp/box"
cp tests/cap/write_dir_granted.spx "$tmp/box/w.spx"
stdin="" envs=""
for dir in ../outside /tmp out/back nothere sub/in.txt ./out out/; do
	invoke "$tmp/o" "$tmp/e" "$bin" run --allow-write="$dir" ../w.spx
	st=$?
	if [ "$st" -eq 2 ] && grep -q "must name a directory below the working directory" "$tmp/e"; then ok
	else bad "run --allow-write=$dir: exit $st, wanted a usage error"; fi
done
# the refusal says why when it is plain: a missing directory, or a file (in
# every lane: `run --native` and `run --wasm` refuse as `run` does)
for case in "nothere|\`nothere\` does not exist; create it first" "out/none/deeper|\`out/none/deeper\` does not exist" "sub/in.txt|\`sub/in.txt\` is a file" "subl|without \`.\`, \`..\` or symbolic links"; do
	dir=${case%%|*} want=${case#*|}
	for cmd in run test run_--native run_--wasm; do
		# shellcheck disable=SC2046
		invoke "$tmp/o" "$tmp/e" "$bin" $(echo "$cmd" | tr _ ' ') --allow-write="$dir" ../w.spx
		st=$?
		if [ "$st" -eq 2 ] && grep -qF "$want" "$tmp/e"; then ok
		else bad "$cmd --allow-write=$dir: exit $st '$(head -n 1 "$tmp/e")', wanted '$want'"; fi
	done
done
invoke "$tmp/o" "$tmp/e" "$bin" run --allow-write --allow-write=out ../w.spx
if [ $? -eq 2 ] && grep -q "may not be repeated" "$tmp/e"; then ok; else bad "a repeated --allow-write is a usage error"; fi
if [ "$native" -eq 1 ] && (cd "$tmp/box" && "$bin" build w.spx -o wexe > /dev/null 2>&1); then
	for dir in ../outside out/back; do
		invoke "$tmp/o" "$tmp/e" ../wexe --allow-write="$dir"
		st=$?
		if [ "$st" -eq 2 ] && grep -q "must name a directory below the working directory" "$tmp/e"; then ok
		else bad "executable --allow-write=$dir: exit $st, wanted 2"; fi
	done
	# a refused DIR: the executable says why in `run`'s words (src/rt/fs.c's
	# rt_fs_root_refusal: missing, a file, else the rule; DIR shown visibly)
	for dir in nothere out/none/deeper sub/in.txt subl ../outside "$(printf 'a\nb')" "$(printf 'x\377y')"; do
		invoke "$tmp/o" "$tmp/e" "$bin" run --allow-write="$dir" ../w.spx
		want=$(head -n 1 "$tmp/e")
		invoke "$tmp/o" "$tmp/e" ../wexe --allow-write="$dir"
		st=$?
		if [ "$st" -eq 2 ] && [ "$(head -n 1 "$tmp/e")" = "$want" ]; then ok
		else bad "executable --allow-write=$dir: exit $st '$(head -n 1 "$tmp/e")', wanted run's '$want'"; fi
	done
	# the grant then `--`, then the program's arguments
	invoke "$tmp/o" "$tmp/e" ../wexe --allow-write=out --
	if [ $? -eq 2 ] && [ "$(cat "$tmp/box/root/out/inner/b.txt")" = ok ]; then ok; else bad "executable --allow-write=out --"; fi
fi

# A built Wasm module permitting fs.write takes the grant as its host's first
# argument, as the executable does (src/emit_wasm/host/run.mjs).
if [ "$wasm_ran" -gt 0 ]; then
	runmjs=$lane_root/src/emit_wasm/host/run.mjs
	mkroot "$tmp/box"
	cp tests/cap/write_dir_granted.spx "$tmp/box/w.spx"
	stdin="" envs=""
	if (cd "$tmp/box" && "$bin" build w.spx --target wasm -o w.wasm > /dev/null 2>&1); then
		invoke "$tmp/o" "$tmp/e" node "$runmjs" ../w.wasm
		if [ $? -eq 2 ] && grep -q "SEMAPRAX capability refused: the program permits fs.write" "$tmp/e" && [ ! -e "$tmp/box/root/out/inner/b.txt" ]; then ok
		else bad "a Wasm module without the write grant: '$(head -n 1 "$tmp/e")'"; fi
		# the host writes nothing beside itself (`run --wasm`'s started marker
		# once landed in the source tree)
		left=$(ls "$lane_root/src/emit_wasm/host" | grep -v '\.mjs$')
		if [ -z "$left" ]; then ok; else bad "run.mjs left files beside itself: $left"; fi
		# a refused DIR: the host says why in `run`'s words, as the executable does
		# (the line is the runtime module's rt_fs_root_line, the validity its
		# rt_fs_path_valid: the host restates neither)
		for dir in ../outside out/back nothere out/none/deeper sub/in.txt subl ./out "$(printf 'a\nb')" "$(printf 'x\377y')" "$(printf 'c\302\205d')" "$(printf 'n\001o/\342\202\254')"; do
			invoke "$tmp/o" "$tmp/e" "$bin" run --allow-write="$dir" ../w.spx
			want=$(head -n 1 "$tmp/e")
			invoke "$tmp/o" "$tmp/e" node "$runmjs" ../w.wasm --allow-write="$dir"
			st=$?
			if [ "$st" -eq 2 ] && [ "$(head -n 1 "$tmp/e")" = "$want" ] && grep -q "must name a directory below the working directory" "$tmp/e"; then ok
			else bad "a Wasm module with --allow-write=$dir: exit $st '$(head -n 1 "$tmp/e")', wanted run's '$want'"; fi
		done
		invoke "$tmp/o" "$tmp/e" node "$runmjs" ../w.wasm --allow-write=out --
		if [ $? -eq 2 ] && [ "$(cat "$tmp/box/root/out/inner/b.txt")" = ok ]; then ok; else bad "a Wasm module with --allow-write=out --"; fi
	else
		bad "build --target wasm of a writing module failed"
	fi
	# node replaces argument bytes that are not UTF-8 in process.argv; the host
	# reads them from /proc/self/cmdline and refuses as the executable does
	cp tests/fixtures/run/command_args_empty.spx "$tmp/box/a.spx"
	if (cd "$tmp/box" && "$bin" build a.spx --target wasm -o a.wasm > /dev/null 2>&1); then
		invoke "$tmp/o" "$tmp/e" node "$runmjs" ../a.wasm ok "$(printf 'a\377b')"
		if [ $? -eq 2 ] && [ "$(head -n 1 "$tmp/e")" = "argument 1 after \`--\` is not valid UTF-8" ]; then ok
		else bad "a Wasm module given an argument that is not UTF-8: '$(head -n 1 "$tmp/e")'"; fi
		invoke "$tmp/o" "$tmp/e" node "$runmjs" ../a.wasm "" "é"
		if [ $? -eq 7 ] && [ "$(cat "$tmp/o")" = "args: 2" ]; then ok
		else bad "a Wasm module given an empty and a UTF-8 argument: '$(head -n 1 "$tmp/o")'"; fi
	else
		bad "build --target wasm of a command-line module failed"
	fi
fi


# A link-free path past 4,096 bytes reached through short links (`deep` -> 16
# directories of 250 bytes, then `x` -> a 17th) is code 7 in every lane, read or
# written (src/rt/fs.c's bound; the Wasm host opened it by name: ENAMETOOLONG, 5).
a250=$(printf '%0250d' 0 | tr 0 a)
p8=""
i=0
while [ $i -lt 8 ]; do p8="$p8$a250/"; i=$((i + 1)); done
rm -rf "$tmp/long" && mkdir -p "$tmp/long/root" && (cd "$tmp/long/root" && mkdir -p "$p8$p8" && ln -s "$p8${p8%/}" deep &&
	cd "$p8" && mkdir "$p8$a250" && ln -s "$a250" "${p8}x" && echo inside > "$p8$a250/in.txt") || exit 2
for pair in "read_link_inside.spx|inlink|deep/x/in.txt" "write_dir_granted.spx|out/inner/b.txt|deep/x/b.txt"; do
	fx=${pair%%|*} rest=${pair#*|}
	from=${rest%%|*} to=${rest#*|}
	sed "s|\"$from\"|\"$to\"|; s|$(printf '%s' "$from" | wc -c)usize|$(printf '%s' "$to" | wc -c)usize|" "tests/cap/$fx" > "$tmp/long/l.spx"
	for l in $lanes; do
		# shellcheck disable=SC2046
		(cd "$tmp/long/root" && NO_COLOR=1 CC="$lane_ccx" "$bin" $(echo "$l" | tr _ ' ') --allow-write ../l.spx > "$tmp/o" 2> "$tmp/e")
		st=$?
		case $l in run) want_st=1 want='"domain_id":"semaprax.filesystem.v1","code":7' ;;
		*) want_st=73 want="SEMAPRAX operation failure: semaprax.filesystem.v1/7" ;; esac
		if [ "$st" -eq "$want_st" ] && grep -qF "$want" "$tmp/e" && [ -z "$(find "$tmp/long" -name b.txt)" ]; then ok
		else bad "$l: $to past 4,096 link-free bytes: exit $st '$(head -c 160 "$tmp/e")'"; fi
	done
done
rm -rf "$tmp/long"

# Check then use (sec35): a lane walks a path one directory at a time and then
# opens the file inside the directory it checked (held open), never by a path
# walked again.  A hook swaps `out/d` for a link leading out of the root (`out/e`
# -> ../../outside) the moment the lane names the file: a read still reads out/d's
# file (7 bytes, not outside's 9) and a write still lands in the directory checked,
# in the write root, with nothing written outside.  The hook: for the Wasm host a
# `node --import` preload (tests/cap/race-hook.mjs), for the native executable an
# LD_PRELOAD shim (tests/cap/race-shim.c; the interpreter is linked statically,
# and shares the executable's src/rt/fs.c).
racebox() {
	rm -rf "$tmp/race" && mkdir -p "$tmp/race/root/out/d" "$tmp/race/outside" || exit 2
	echo inside > "$tmp/race/root/out/d/in.txt"
	echo 'secret!!' > "$tmp/race/outside/in.txt"
	ln -s ../../outside "$tmp/race/root/out/e"
}
raced() { # raced LANE M ST: judges a run of M (rr, rw_new, rw_atomic) that exited ST
	if [ ! -L "$tmp/race/root/out/d" ]; then bad "race ($1): $2: the hook did not swap out/d"; return; fi
	case $2 in
	rr) if [ "$3" -eq 7 ] && [ ! -s "$tmp/e" ]; then ok; else bad "race ($1): a read through a swapped directory: exit $3 (9: outside's file)"; fi ;;
	*) if [ "$3" -eq 2 ] && [ "$(cat "$tmp/race/root/out/d.real/f" 2>/dev/null)" = ok ] && [ ! -e "$tmp/race/outside/f" ]; then ok
		else bad "race ($1): $2 through a swapped directory: exit $3, outside holds: $(ls "$tmp/race/outside" | tr '\n' ' ')"; fi ;;
	esac
}
sed 's|"inlink"|"out/d/in.txt"|' tests/cap/read_link_inside.spx > "$tmp/rr.spx"
for w in new atomic; do
	sed "s|\"out/inner/b.txt\"|\"out/d/f\"|; s|15usize|7usize|; s|file_write_new|file_write_$w|" tests/cap/write_dir_granted.spx > "$tmp/rw_$w.spx"
done
if [ "$wasm_ran" -gt 0 ] && node --import "$lane_root/tests/cap/race-hook.mjs" -e 0 > /dev/null 2>&1; then
	for m in rr rw_new rw_atomic; do
		if ! (cd "$tmp" && "$bin" build "$m.spx" --target wasm -o "$m.wasm" > /dev/null 2>&1); then bad "race: build --target wasm of $m failed"; continue; fi
		racebox
		(cd "$tmp/race/root" && node --import "$lane_root/tests/cap/race-hook.mjs" "$runmjs" "../../$m.wasm" --allow-write=out > "$tmp/o" 2> "$tmp/e")
		raced wasm "$m" $?
	done
fi
# (not under --sanitize: a dynamic ASan runtime must come first, before any preload)
if [ "$native" -eq 1 ] && [ "${2:-}" != "--sanitize" ] && ${cc%% *} -shared -fPIC -o "$tmp/race-shim.so" tests/cap/race-shim.c -ldl > /dev/null 2>&1; then
	for m in rr rw_new rw_atomic; do
		if ! (cd "$tmp" && CC="$lane_ccx" "$bin" build "$m.spx" -o "$m.exe" > /dev/null 2>&1); then bad "race: build of $m failed"; continue; fi
		racebox
		g=--allow-write=out
		[ $m = rr ] && g=
		# shellcheck disable=SC2086 # g is one word or none
		(cd "$tmp/race/root" && LD_PRELOAD="$tmp/race-shim.so" "../../$m.exe" $g > "$tmp/o" 2> "$tmp/e")
		raced native "$m" $?
	done
fi
rm -rf "$tmp/race"

t_end " ($wasm_ran programs ran in the Wasm lane)"
