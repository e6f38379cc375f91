#!/bin/sh
# cc-cache.sh DIR CC… ARG… — the C compiler of the lane suites with a
# content-addressed cache of its silent successful compilations (.ci/run,
# docs/DECISIONS.md "ci32").  Runs as `$CC` for `run --native` and `build`
# when SPX_CC_CACHE names DIR (tests/lane-lib.sh): the key is the SHA-256 of
# the whole command line (the `-o` path and the `.c` operand as placeholders),
# the compiler's resolved path and the `.c` file's bytes; a hit copies the
# stored executable to the `-o` path (status 0, no output, as the compilation
# it stands for).  A compilation that fails or prints anything is never
# stored: it runs again and says so again.
#
# Only exact repetitions hit: the gcc lane's and the sanitizer lane's
# `make test` emit byte-identical C for the same fixtures (determinism) and
# compile it with the same `gcc -Werror` and flags.  The program still runs
# every time; only its compilation is shared.  DIR is one CI run's: .ci/run
# empties and creates it first (no directory: no cache).  Few processes per call (a hit: the hash and one cp).
set -u
dir=$1
shift
real=$(command -v "$1") || exec "$@"
out="" src="" prev=""
for a in "$@"; do
	[ "$prev" = "-o" ] && out=$a
	case $a in *.c) src=$a ;; esac
	prev=$a
done
[ -n "$out" ] && [ -n "$src" ] && [ -d "$dir" ] || exec "$@"
key=$({
	for a in "$@"; do
		if [ "$a" = "$out" ]; then a="<out>"; elif [ "$a" = "$src" ]; then a="<src>"; fi
		printf '%s\n' "$a"
	done
	printf '%s\n' "$real"
	cat "$src"
} | sha256sum)
key=$dir/${key%% *}
[ -f "$key" ] && exec cp "$key" "$out"
"$@" > "$dir/.$$.log" 2>&1
st=$?
if [ -s "$dir/.$$.log" ] || [ "$st" -ne 0 ]; then
	cat "$dir/.$$.log" >&2
else
	# renamed into place: a concurrent suite sees a whole entry or none
	cp "$out" "$dir/.$$.exe" && mv -f "$dir/.$$.exe" "$key"
fi
rm -f "$dir/.$$.log" "$dir/.$$.exe"
exit "$st"
