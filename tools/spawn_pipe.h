/*
 * spawn_pipe.h — shared by the benchmark drivers (tools/bench_*.c): start
 * a program with its stdout on a pipe.  Header-only, since each driver is
 * one translation unit linked with the library objects.
 */
#ifndef SPX_TOOLS_SPAWN_PIPE_H
#define SPX_TOOLS_SPAWN_PIPE_H

#include <errno.h>
#include <spawn.h>
#include <unistd.h>

extern char **environ;

/*
 * posix_spawnp(argv[0], argv) with the child's stdout on a fresh pipe whose
 * read end is stored in *out (the caller reads it to EOF, closes it and
 * waits for *pid).  Returns 0, or an error number with nothing left open.
 */
static int
spawn_piped(char *const argv[], pid_t *pid, int *out)
{
	int fds[2];
	if (pipe(fds) != 0)
		return errno;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	int rc = posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0)
		close(fds[0]);
	else
		*out = fds[0];
	return rc;
}

#endif
