/*
 * cli.h — command-line front door: shared helpers for the command files.
 *
 * Exit statuses (TOOLCHAIN.md §1.1): 0 success, 1 diagnostics or failure,
 * 2 usage errors (reported before any work).
 */
#ifndef SPX_CLI_H
#define SPX_CLI_H

#include "../support/buf.h"
#include "../support/diag.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Largest source file accepted (I001 beyond it). */
#define CLI_MAX_SOURCE (64u << 20)

/* Prints "<msg>\nhint: run `semaprax help <cmd>` for usage" on stderr; returns 2. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Reads a whole source file.  On failure reports I001 into diags (path-only
 * location) and returns NULL.  The buffer is NUL-terminated; free() it.
 */
char *cli_read_source(const char *path, size_t *len, DiagSink *diags);

int cmd_check(int argc, char **argv);
int cmd_fmt(int argc, char **argv);
int cmd_parse(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_build(int argc, char **argv);

/* `run --native` (cmd_build.c): admit (route.c), emit, compile and run a
 * verified module on the route o (with o's arguments); returns the
 * program's exit status, or 1 after a diagnostic. */
struct Loaded;
struct InterpOptions;
int cli_native_run(struct Loaded *L, const struct InterpOptions *o);

#endif
