/*
 * cmd_patch_tx.c — the commit of a project transaction (`semaprax patch
 * <project> <transaction.json>`, docs/PATCH.md): every module file the
 * transaction changes is written, or none is.
 *
 *   1. each file is prepared (cli_fmt_prepare: a writable regular file) and
 *      locked (cli_write_lock, I205 when another agent write holds it), in
 *      path order, so two transactions over the same files never wait on
 *      each other crosswise; a refusal writes nothing;
 *   2. under the locks, the manifest and every module must still hold the
 *      bytes the candidate project was verified with (I207 otherwise):
 *      nothing is written;
 *   3. the files are written one by one (cli_fmt_write: staged beside the
 *      file, synced, the file re-read against its base, renamed).  When one
 *      fails, the files written before it get their old bytes back, newest
 *      first (each such restore checks the file still holds what this
 *      transaction wrote), and the failure says so.
 *
 * Step 3 is atomic per file, not across files: a process killed between two
 * renames (SIGKILL, a power loss) leaves the first ones written.  The
 * documents say so (docs/PATCH.md, docs/DECISIONS.md).
 *
 * Test hook (tests/project-test.sh): SEMAPRAX_TEST_TX_FAIL_AT=<i> makes the
 * write of the transaction's i-th file (0-based, operation order) fail as an
 * I/O error (EIO) before it starts, so the restore of the earlier ones runs.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_write.h"
#include "patch_cli.h"

#include "../project/project.h"

/* The injected failure of write i (SEMAPRAX_TEST_TX_FAIL_AT). */
static bool
injected_failure(int i)
{
	const char *v = getenv("SEMAPRAX_TEST_TX_FAIL_AT");
	if (!v || !*v)
		return false;
	char *end;
	long at = strtol(v, &end, 10);
	return *end == '\0' && at == i;
}

typedef struct TxOrder {
	const char *path;
	int index;
} TxOrder;

static int
cmp_path(const void *a, const void *b)
{
	const TxOrder *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

bool
cli_patch_tx_commit(const Project *pj, const TxWrite *w, int n)
{
	FmtTarget *t = spx_xcalloc((size_t)n, sizeof *t);
	TxOrder *order = spx_xcalloc((size_t)n, sizeof *order);
	for (int i = 0; i < n; i++) {
		t[i].lock_fd = -1;
		order[i] = (TxOrder){ w[i].operand, i };
	}
	qsort(order, (size_t)n, sizeof *order, cmp_path);
	bool ok = true;
	for (int k = 0; k < n && ok; k++)
		ok = cli_fmt_prepare(&t[order[k].index], w[order[k].index].operand) && cli_write_lock(&t[order[k].index]);
	if (ok)
		ok = cli_patch_project_files_unchanged(pj);
	int done = 0;
	for (; ok && done < n; done++) {
		if (injected_failure(done)) {
			errno = EIO;
			Buf msg = {0};
			buf_printf(&msg, "cannot write %s: %s", w[done].operand, strerror(errno));
			cli_report(DIAG_I101, w[done].operand, msg.data, "check that the project's files are writable, then run the command again");
			buf_free(&msg);
			ok = false;
			break;
		}
		if (!cli_fmt_write(&t[done], w[done].old, w[done].old_len, w[done].data, w[done].len)) {
			ok = false;
			break;
		}
	}
	if (!ok && done > 0) {
		/* the files written before the failure get their old bytes back */
		int kept = 0;
		for (int j = done - 1; j >= 0; j--)
			if (!cli_fmt_write(&t[j], w[j].data, w[j].len, w[j].old, w[j].old_len)) {
				kept++;
				fprintf(stderr, "semantic transaction: %s keeps the transaction's change; restore it by hand\n", w[j].operand);
			}
		if (kept == 0)
			fprintf(stderr, "semantic transaction stopped at %s; the %d module file%s written before it %s restored: the project is unchanged\n",
			    w[done].operand, done, done == 1 ? "" : "s", done == 1 ? "was" : "were");
	}
	for (int i = 0; i < n; i++)
		cli_fmt_release(&t[i]);
	free(order);
	free(t);
	return ok;
}
