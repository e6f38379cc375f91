# golden-lib.sh — the compare-and-bless step of the directory-per-case
# suites, sourced by tests/project-test.sh and tests/registers-test.sh.  A
# case directory DIR holds what one command must give:
#   status          the expected exit status (absent: 0);
#   stdout, stderr  exact snapshots (absent = empty);
#   after           semaprax.toml's bytes after the command;
#   after.d/        likewise for any file of the worked copy;
#   absent          paths (one a line) that must not exist after the command.
#
#   golden_blessing               true when SEMAPRAX_BLESS=1
#   golden_bless DIR GOT OUT ERR  writes DIR/status and the two snapshots: an
#                                 existing snapshot is rewritten (an empty one
#                                 states "nothing on this stream"), a new one
#                                 is written only for non-empty output
#   golden_check LABEL DIR WORK GOT OUT ERR
#                                 compares the run (exit status GOT, streams in
#                                 files OUT and ERR, worked copy WORK) with DIR;
#                                 prints "FAIL LABEL: …" lines on stderr and
#                                 returns 1 on any difference
golden_blessing() {
	[ "${SEMAPRAX_BLESS:-}" = 1 ]
}

golden_bless() {
	echo "$2" > "$1/status"
	[ -s "$3" ] || [ -f "$1/stdout" ] && cp "$3" "$1/stdout"
	[ -s "$4" ] || [ -f "$1/stderr" ] && cp "$4" "$1/stderr"
	return 0
}

golden_check() {
	g_label=$1 g_dir=$2 g_work=$3 g_got=$4
	g_ok=0
	g_want=0
	# (one line, read by the shell: t_first, tests/lib.sh)
	if [ -f "$g_dir/status" ]; then t_first "$g_dir/status"; g_want=$t_l; fi
	[ "$g_got" = "$g_want" ] || { echo "FAIL $g_label: exit $g_got, expected $g_want" >&2; g_ok=1; }
	for g_s in stdout stderr; do
		if [ $g_s = stdout ]; then g_f=$5; else g_f=$6; fi
		g_exp=/dev/null
		[ -f "$g_dir/$g_s" ] && g_exp="$g_dir/$g_s"
		if ! cmp -s "$g_exp" "$g_f"; then
			echo "FAIL $g_label: $g_s differs" >&2
			diff "$g_exp" "$g_f" | head -20 >&2
			g_ok=1
		fi
	done
	if [ -f "$g_dir/after" ] && ! cmp -s "$g_dir/after" "$g_work/semaprax.toml"; then
		echo "FAIL $g_label: semaprax.toml after the command differs from \`after\`" >&2
		g_ok=1
	fi
	if [ -f "$g_dir/absent" ]; then
		while read -r g_p; do
			if [ -e "$g_work/$g_p" ]; then
				echo "FAIL $g_label: $g_p exists after the command" >&2
				g_ok=1
			fi
		done < "$g_dir/absent"
	fi
	if [ -d "$g_dir/after.d" ]; then
		for g_p in $(cd "$g_dir/after.d" && find . -type f | sort); do
			if ! cmp -s "$g_dir/after.d/$g_p" "$g_work/$g_p"; then
				echo "FAIL $g_label: $g_p after the command differs from after.d/$g_p" >&2
				g_ok=1
			fi
		done
	fi
	return $g_ok
}
