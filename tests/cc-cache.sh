#!/bin/sh
# cc-cache.sh DIR CC… ARG… — the C compiler of the lane suites with a
# content-addressed cache of its successful compilations (.ci/run, docs/
# DECISIONS.md "ci32").  Runs as `$CC` for `run --native`, `build` and
# `test --lane` when SPX_CC_CACHE names DIR (tests/lane-lib.sh): the key is
# the whole command line with the output path blanked and each `.c` operand
# replaced by the SHA-256 of its bytes, plus the compiler's resolved path,
# size and time; a hit copies the stored executable to the `-o` path and
# replays the compiler's stdout and stderr and its status 0.  A failed
# compilation is never stored (it runs again, and says so again).
#
# Only exact repetitions hit: the gcc lane's and the sanitizer lane's
# `make test` emit byte-identical C for the same fixtures (determinism) and
# compile it with the same `gcc -Werror` and flags, and cap-test.sh compiles
# each program for `run --native` and again for `build`.  The program still
# runs every time; only its compilation is shared.  DIR is one CI run's:
# .ci/run empties it first.
set -u
dir=$1
shift
real=$(command -v "$1") || exec "$@"
key=$(
	ls -lLn "$real" | awk '{ print $5, $6, $7, $8 }'
	printf '%s\n' "$real"
	skip=0
	for a in "$@"; do
		if [ "$skip" = 1 ]; then
			echo "-o <out>"
			skip=0
			continue
		fi
		case $a in
		-o) skip=1 ;;
		*.c) echo "c: $(sha256sum < "$a" | cut -c1-64)" ;;
		*) printf 'a: %s\n' "$a" ;;
		esac
	done
)
key=$(printf '%s' "$key" | sha256sum | cut -c1-64)
out=""
prev=""
for a in "$@"; do
	[ "$prev" = "-o" ] && out=$a
	prev=$a
done
entry=$dir/$key
if [ -n "$out" ] && [ -f "$entry.exe" ]; then
	cp "$entry.exe" "$out" || exit 1
	cat "$entry.out"
	cat "$entry.err" >&2
	exit 0
fi
mkdir -p "$dir" || exit 1
"$@" > "$dir/.$$.out" 2> "$dir/.$$.err"
st=$?
cat "$dir/.$$.out"
cat "$dir/.$$.err" >&2
if [ "$st" -eq 0 ] && [ -n "$out" ] && [ -f "$out" ]; then
	# each part renamed into place: a concurrent suite sees a whole entry or none
	cp "$out" "$dir/.$$.exe" &&
		mv "$dir/.$$.out" "$entry.out" && mv "$dir/.$$.err" "$entry.err" && mv "$dir/.$$.exe" "$entry.exe"
fi
rm -f "$dir/.$$.out" "$dir/.$$.err" "$dir/.$$.exe"
exit "$st"
