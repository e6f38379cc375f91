#!/bin/sh
# seed.sh BIN DIR [PROGEN] — the seed corpus of `make fuzz-run`
# (tests/fuzz/fuzz_run.c): every fixture under tests/fixtures that `BIN check`
# verifies with zero errors (the target's later stages see only those), run/
# first; the minimized findings kept in tests/fuzz/corpus/ (each file a former
# crash); with PROGEN (build/progen), 40 random programs (tools/progen.c:
# checked programs using most of the language, 3-11 KB each, under -max_len).
set -eu
bin=$1
dir=$2
mkdir -p "$dir"
n=0
for f in $(find tests/fixtures/run -name '*.spx' | sort) $(find tests/fixtures -name '*.spx' ! -path 'tests/fixtures/run/*' | sort); do
	if "$bin" check "$f" >/dev/null 2>&1; then
		cp "$f" "$dir/seed-$(echo "$f" | tr / _)"
		n=$((n + 1))
	fi
done
for f in tests/fuzz/corpus/*; do
	[ -f "$f" ] || continue
	cp "$f" "$dir/"
	n=$((n + 1))
done
if [ $# -ge 3 ]; then
	for s in $(seq 1 40); do
		"$3" $((s * 7919)) > "$dir/seed-progen-$((s * 7919)).spx"
		n=$((n + 1))
	done
fi
echo "seed.sh: $n seeds in $dir"
