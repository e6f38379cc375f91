#!/bin/sh
# bench_interp.sh — interpreter throughput next to Lua 5.4 (`make bench-interp`).
#
# Usage: tools/bench_interp.sh [-n RUNS] [-s SEMAPRAX] [-l LUA] [-d DIR] [NAME...]
#
# For every DIR/NAME.spx (default: all of bench/interp/*.spx) it runs
# `SEMAPRAX run --max-steps 100000000000 NAME.spx` and `LUA NAME.lua`
# RUNS times each (default 3), keeps the best wall-clock time of each, and
# prints one row per program (semaprax seconds, lua seconds, ratio) and the
# geometric mean of the ratios.  Both programs must print the same result:
# a mismatch, a failed run, or a missing .lua twin is an error (exit 1).
# When the Lua interpreter is absent the Lua columns are skipped with a
# message and only the semaprax times (and results) are reported.
#
# On a shared machine wall time swings with the load; for comparisons,
# repeat with a larger -n (or compare CPU time, e.g. `perf stat -e task-clock`).
#
# Wall time covers the whole process (for semaprax: reading, verifying and
# lowering the file, then running it); for these small files everything but
# the run itself is well under a millisecond.

set -u

RUNS=3
SPX=build/semaprax
LUA=${LUA:-lua5.4}
DIR=bench/interp
STEPS=100000000000

while [ $# -gt 0 ]; do
	case "$1" in
	-n) RUNS=$2; shift 2 ;;
	-s) SPX=$2; shift 2 ;;
	-l) LUA=$2; shift 2 ;;
	-d) DIR=$2; shift 2 ;;
	-h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) echo "bench_interp: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done

case "$RUNS" in
''|*[!0-9]*|0) echo "bench_interp: -n takes a positive count" >&2; exit 2 ;;
esac
if [ ! -x "$SPX" ]; then
	echo "bench_interp: $SPX is not built (run make first)" >&2
	exit 2
fi

# Nanosecond clock: GNU date, else perl, else python3.
now_ns() {
	date +%s%N
}
case "$(date +%s%N)" in
*N*|'')
	if command -v perl >/dev/null 2>&1; then
		now_ns() { perl -MTime::HiRes=time -e 'printf "%.0f\n", time * 1e9'; }
	elif command -v python3 >/dev/null 2>&1; then
		now_ns() { python3 -c 'import time; print(time.time_ns())'; }
	else
		echo "bench_interp: no nanosecond clock (GNU date, perl or python3)" >&2
		exit 2
	fi
	;;
esac

HAVE_LUA=1
if ! command -v "$LUA" >/dev/null 2>&1; then
	HAVE_LUA=0
	echo "bench_interp: $LUA not found: Lua columns skipped (Debian/Ubuntu: apt-get install lua5.4)"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench_interp.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM

if [ $# -eq 0 ]; then
	for f in "$DIR"/*.spx; do
		[ -e "$f" ] || { echo "bench_interp: no programs in $DIR" >&2; exit 2; }
		n=${f##*/}
		set -- "$@" "${n%.spx}"
	done
fi

# best_of CMD...: runs the command RUNS times; stdout of the last run goes to
# $TMP/out, the best time in nanoseconds to $TMP/best.  Returns the exit
# status of the first failing run (0 when all succeed).
best_of() {
	best=
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		t0=$(now_ns)
		"$@" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		t1=$(now_ns)
		if [ "$rc" -ne 0 ]; then
			return "$rc"
		fi
		dt=$((t1 - t0))
		if [ -z "$best" ] || [ "$dt" -lt "$best" ]; then
			best=$dt
		fi
		i=$((i + 1))
	done
	echo "$best" >"$TMP/best"
	return 0
}

secs() {
	awk -v ns="$1" 'BEGIN { printf "%.3f", ns / 1e9 }'
}

status=0
: >"$TMP/ratios"
echo "interpreter benchmarks: best of $RUNS, $SPX vs $( [ "$HAVE_LUA" -eq 1 ] && echo "$LUA" || echo "(no lua)")"
printf '%-10s %12s %12s %8s  %s\n' program semaprax_s lua_s ratio result
for name in "$@"; do
	spx_file=$DIR/$name.spx
	lua_file=$DIR/$name.lua
	if [ ! -f "$spx_file" ]; then
		echo "bench_interp: $spx_file: no such program" >&2
		status=1
		continue
	fi
	if ! best_of "$SPX" run --max-steps "$STEPS" "$spx_file"; then
		printf '%-10s %12s\n' "$name" FAILED
		sed 's/^/  | /' "$TMP/err" >&2
		status=1
		continue
	fi
	spx_ns=$(cat "$TMP/best")
	spx_out=$(cat "$TMP/out")
	if [ "$HAVE_LUA" -eq 0 ]; then
		printf '%-10s %12s %12s %8s  %s\n' "$name" "$(secs "$spx_ns")" - - "$spx_out"
		continue
	fi
	if [ ! -f "$lua_file" ]; then
		printf '%-10s %12s %12s\n' "$name" "$(secs "$spx_ns")" "NO .lua"
		echo "bench_interp: $lua_file is missing" >&2
		status=1
		continue
	fi
	if ! best_of "$LUA" "$lua_file"; then
		printf '%-10s %12s %12s\n' "$name" "$(secs "$spx_ns")" FAILED
		sed 's/^/  | /' "$TMP/err" >&2
		status=1
		continue
	fi
	lua_ns=$(cat "$TMP/best")
	lua_out=$(cat "$TMP/out")
	ratio=$(awk -v a="$spx_ns" -v b="$lua_ns" 'BEGIN { printf "%.2f", a / b }')
	if [ "$spx_out" != "$lua_out" ]; then
		printf '%-10s %12s %12s %8s  MISMATCH: semaprax %s, lua %s\n' "$name" \
			"$(secs "$spx_ns")" "$(secs "$lua_ns")" "$ratio" "$spx_out" "$lua_out"
		status=1
		continue
	fi
	printf '%-10s %12s %12s %8s  %s\n' "$name" "$(secs "$spx_ns")" "$(secs "$lua_ns")" "${ratio}x" "$spx_out"
	echo "$spx_ns $lua_ns" >>"$TMP/ratios"
done

if [ "$HAVE_LUA" -eq 1 ] && [ -s "$TMP/ratios" ]; then
	awk '{ s += log($1 / $2); n++ } END { printf "%-10s %12s %12s %8.2fx  (%d programs; target <= 1.00x, each <= 1.50x)\n", "geomean", "", "", exp(s / n), n }' "$TMP/ratios"
fi
if [ "$status" -ne 0 ]; then
	echo "bench_interp: FAILED (see above)" >&2
fi
exit "$status"
