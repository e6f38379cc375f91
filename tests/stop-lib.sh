# stop-lib.sh — the concurrent-edit tests of agent writes, sourced by
# tests/patch-test.sh and tests/project-test.sh.  A write run with
# SEMAPRAX_TEST_STOP_BEFORE_COMMIT=1 stops itself (SIGSTOP) inside its commit
# step, once its new bytes are staged (src/cli/fmt_write.c):
#
#   stop_wait PID          waits until PID is stopped (or gone), at most 30 s
#   stop_resume PID        continues PID until it ends (a stop reached after a
#                          first SIGCONT too: never a hang; only a T state)
#   stop_staged DIR NAME   true when a staging file of NAME is in DIR

stop_wait() {
	s_i=0
	while [ $s_i -lt 3000 ] && [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" != T ]; do
		sleep 0.01
		s_i=$((s_i + 1))
	done
}

stop_resume() {
	# SIGCONT only while PID is stopped by a signal (T): once it runs on, a
	# stream of them would reach LeakSanitizer's exit-time tracer too, whose
	# ptrace stops (t) then never settled (qa40 saw a 28-minute spin)
	while [ -r "/proc/$1/stat" ]; do
		s_st=$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)
		[ "$s_st" = Z ] && break
		[ "$s_st" = T ] && kill -CONT "$1" 2> /dev/null
		sleep 0.01
	done
}

stop_staged() {
	for s_f in "$1/.$2.semaprax-stage-"*; do
		[ -e "$s_f" ] && return 0
	done
	return 1
}
