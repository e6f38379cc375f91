/*
 * child.h — a child process that an interruption must not orphan (the
 * native lane's compiler and program, the Wasm lane's node).  Between
 * child_catch and child_release, SIGINT, SIGTERM and SIGHUP are caught and
 * forwarded to the child at work, which the caller then waits for;
 * child_release restores the dispositions semaprax started with and, when
 * such a signal arrived, re-raises it with its default action after the
 * caller has cleaned up — so the process ends with the conventional status
 * and neither a child nor a temporary file survives.  (Signal handlers need
 * process-wide state: the one mutable static state of the compiler, kept
 * here and nowhere else.)
 */
#ifndef SPX_CHILD_H
#define SPX_CHILD_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

/* Starts catching (idempotent until child_release). */
void child_catch(void);
/* Forks with the forwarded signals blocked: the child restores the original
 * dispositions before unblocking; the parent records the child before
 * unblocking, so a signal that arrived meanwhile is forwarded to it.  With
 * own_group the child leads a process group (signals go to the group).
 * 0 in the child, the pid, -1 (errno), or -2 when already interrupted. */
pid_t child_start(bool own_group);
/* Waits for the child (through EINTR); its wait status. */
int child_wait(pid_t pid);
/* A forwarded signal has arrived since child_catch. */
bool child_interrupted(void);
/* Restores the dispositions; re-raises a caught signal (then does not return). */
void child_release(void);
/* The stack a lane's child runs with (256 frames of wide values outgrow a
 * default 8 MiB): *rl is RLIMIT_STACK with its soft limit raised toward
 * want, within the hard limit; true when that grows it (the child sets it
 * before exec, so the new image lays out room for it), false when it is
 * left (*rl then the limit as it is, or unreadable: rlim_cur 0). */
bool child_stack_limit(rlim_t want, struct rlimit *rl);

#endif
