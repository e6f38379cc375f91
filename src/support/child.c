/*
 * child.c — children that interruptions reach (child.h).
 */
#include "child.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP };
#define NFORWARDED (sizeof forwarded / sizeof *forwarded)
static volatile sig_atomic_t got_signal;   /* the first forwarded signal caught */
static volatile pid_t child_pid;           /* > 0: the child at work */
static volatile sig_atomic_t child_group;  /* it leads its own process group */
static bool catching;
static struct sigaction saved[NFORWARDED];

static void
on_signal(int sig)
{
	int e = errno;
	if (!got_signal)
		got_signal = sig;
	pid_t p = child_pid;
	if (p > 0)
		kill(child_group ? -p : p, sig);
	errno = e;
}

void
child_catch(void)
{
	if (catching)
		return;
	catching = true;
	got_signal = 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFORWARDED; i++) {
		sigaction(forwarded[i], NULL, &saved[i]);
		if (saved[i].sa_handler != SIG_IGN)   /* ignored on entry (nohup, `&`): stays ignored */
			sigaction(forwarded[i], &sa, NULL);
	}
}

pid_t
child_start(bool own_group)
{
	fflush(NULL);
	sigset_t block, old;
	sigemptyset(&block);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaddset(&block, forwarded[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (got_signal) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -2;
	}
	pid_t pid = fork();
	if (pid == 0) {
		if (own_group)
			setpgid(0, 0);
		for (size_t i = 0; i < NFORWARDED; i++)
			sigaction(forwarded[i], &saved[i], NULL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	int e = errno;
	if (pid > 0) {
		if (own_group)
			setpgid(pid, pid);   /* also in the parent: no window before the child's own call */
		child_group = own_group;
		child_pid = pid;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);   /* a pending signal now reaches on_signal, which forwards it */
	errno = e;
	return pid;
}

int
child_wait(pid_t pid)
{
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	return st;
}

bool
child_interrupted(void)
{
	return got_signal != 0;
}

void
child_release(void)
{
	if (!catching)
		return;
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &saved[i], NULL);
	catching = false;
	int sig = got_signal;
	if (sig) {
		/* the conventional end: killed by the signal (its default action) */
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
}

bool
child_stack_limit(rlim_t want, struct rlimit *rl)
{
	if (getrlimit(RLIMIT_STACK, rl) != 0) {
		rl->rlim_cur = rl->rlim_max = 0;
		return false;
	}
	if (rl->rlim_max != RLIM_INFINITY && rl->rlim_max < want)
		want = rl->rlim_max;
	if (rl->rlim_cur == RLIM_INFINITY || rl->rlim_cur >= want)
		return false;
	rl->rlim_cur = want;
	return true;
}
