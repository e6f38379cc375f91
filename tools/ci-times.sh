#!/usr/bin/env bash
# Per-suite CPU and wall seconds of a CI run (docs/DECISIONS.md "ci39").
#
#   tools/ci-times.sh [LOG]       run .ci/run with every make recipe line
#                                 timed into LOG (default ci-times.log), then
#                                 print the table
#   tools/ci-times.sh --table LOG print the table of an earlier run's LOG
#
# .ci/run passes CI_TIMES_LOG on to its makes as SHELL=tools/ci-times.sh (with
# `--sh LANE TARGET -c` in .SHELLFLAGS); each recipe line then appends
# "lane target wall user sys" to the log.  Rows: one per lane and test goal
# (test-*), the rest of a lane (objects, links, tools) as "build".  CPU
# (user+sys) is the figure to compare: on a shared machine wall time varies
# with the load, and two suites run at a time.
set -u

if [ "${1:-}" = --sh ]; then
	# make's shell: --sh LANE TARGET -c LINE
	lane=$2 target=$3
	shift 3
	[ "$1" = -c ] && shift
	tf=$(mktemp) || exit 1
	/usr/bin/time -f "%e %U %S" -o "$tf" /bin/sh -c "$1"
	rc=$?
	# the recursive lines (test-sanitize, test-install's make install) hold
	# their sub-make's lines, which are logged themselves
	# (a line continued with a backslash keeps its newline: `\<newline>make`)
	case $1 in "make "*|*" make "*|*"/make "*|*$'\n'"make "*) target="($target)" ;; esac
	printf '%s %s %s\n' "$lane" "$target" "$(tail -n 1 "$tf")" >> "$CI_TIMES_LOG"
	rm -f "$tf"
	exit $rc
fi

table() {
	awk '
	$2 ~ /^\(/ { next }
	NF >= 5 {
		lane = $1; t = ($2 ~ /^test-/) ? $2 : "build"
		k = lane SUBSEP t
		if (!(k in cpu)) { order[++n] = k }
		wall[k] += $3; cpu[k] += $4 + $5; usr[k] += $4; sy[k] += $5
		lc[lane] += $4 + $5; lu[lane] += $4; ls[lane] += $5
		if (!(lane in seen)) { seen[lane] = 1; lanes[++m] = lane }
	}
	END {
		printf "| lane | suite | wall s | CPU s | user | sys |\n|---|---|---|---|---|---|\n"
		for (i = 1; i <= n; i++) {
			split(order[i], p, SUBSEP)
			printf "| %s | %s | %.1f | %.1f | %.1f | %.1f |\n", p[1], p[2], wall[order[i]], cpu[order[i]], usr[order[i]], sy[order[i]]
		}
		for (j = 1; j <= m; j++) {
			printf "| %s | **lane total** | | %.1f | %.1f | %.1f |\n", lanes[j], lc[lanes[j]], lu[lanes[j]], ls[lanes[j]]
			tc += lc[lanes[j]]; tu += lu[lanes[j]]; ts += ls[lanes[j]]
		}
		printf "| all | **total** | | %.1f | %.1f | %.1f |\n", tc, tu, ts
	}' "$1"
}

if [ "${1:-}" = --table ]; then
	table "$2"
	exit
fi

cd "$(dirname "$0")/.." || exit 1
log=$(realpath -m "${1:-ci-times.log}")
: > "$log"
start=$(date +%s)
CI_TIMES_LOG=$log bash .ci/run
rc=$?
echo "ci-times: .ci/run exit $rc, $(($(date +%s) - start)) s wall; log $log"
table "$log"
exit $rc
