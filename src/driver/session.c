/*
 * session.c — the pipeline driver (session.h): read, parse, check, lower
 * and validate one program, every product owned by its Session.
 * Diagnostics collect in the session's sink; the caller emits them.
 */
#include "session.h"

#include "../support/mapfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void
driver_session_init(Session *s, const char *path)
{
	memset(s, 0, sizeof *s);
	diag_init(&s->diags, path, NULL, 0);
	arena_init(&s->arena);
}

static void
attach_source(Session *s)
{
	s->diags.src = s->src;
	s->diags.src_len = s->len;
}

/* A large regular file is mapped, not read (mapfile.h): driver_parse
 * gives its pages back once the tree is built.  O_NONBLOCK: a FIFO put
 * where a source stood must not block the open (a served project's module
 * file replaced between refreshes); it is no regular file, so it is not
 * mapped and driver_read_source refuses it. */
static bool
map_source(Session *s)
{
	struct stat st;
	int fd = open(s->diags.path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= MAPFILE_MIN &&
	    (uint64_t)st.st_size <= DRIVER_MAX_SOURCE) {
		s->src = mapfile_map(fd, (size_t)st.st_size, s->diags.path);
		s->len = (size_t)st.st_size;
	}
	close(fd);
	s->src_mapped = s->src != NULL;
	return s->src_mapped;
}

bool
driver_read(Session *s)
{
	if (map_source(s)) {
		attach_source(s);
		return true;
	}
	s->src = driver_read_source(s->diags.path, &s->len, &s->diags);
	if (!s->src)
		return false;
	attach_source(s);
	return true;
}

void
driver_set_source(Session *s, const char *src, size_t len)
{
	s->src = spx_xmalloc(len + 1);
	s->src_mapped = false;
	memcpy(s->src, src, len);
	s->src[len] = '\0';
	s->len = len;
	attach_source(s);
}

/* The parser's question for the missing-`->` fix (ParseBuiltinResult): the
 * result of builtins.def's signature when it holds for every call — no type
 * parameter, not a borrowed or owned view (`-> borrow str`). */
static const char *
builtin_result(const char *name)
{
	const Builtin *b = sema_builtin_find(name);
	if (!b || b->ntparams || !b->sig)
		return NULL;
	/* after the `)` closing the parameter list (a parameter may be `fn(…) -> …`) */
	int depth = 0;
	const char *r = b->sig;
	for (; *r; r++) {
		depth += *r == '(' ? 1 : *r == ')' ? -1 : 0;
		if (*r == ')' && depth == 0)
			break;
	}
	if (strncmp(r, ") -> ", 5) != 0)
		return NULL;
	r += 5;
	return strncmp(r, "borrow ", 7) == 0 || strncmp(r, "own ", 4) == 0 || strncmp(r, "shared ", 7) == 0 ? NULL : r;
}

bool
driver_parse(Session *s)
{
	if (!s->src || s->diags.errors)
		return false;
	s->m = parse_module_ex(s->src, s->len, &s->arena, &s->diags, s->src_mapped, builtin_result);
	/* The tree copies what it keeps (names interned, literals decoded):
	 * whatever reads the source later (a diagnostic, a name the checker
	 * copies) faults those pages in again from the page cache. */
	if (s->src_mapped)
		mapfile_drop(s->src, s->len);
	return s->diags.errors == 0;
}

bool
driver_check(Session *s)
{
	if (!s->m || s->diags.errors)
		return false;
	s->S = sema_check(s->m, s->src, s->len, &s->diags);
	if (s->diags.errors)
		s->revision[0] = '\0';   /* a revision names verified programs only */
	return s->diags.errors == 0;
}

bool
driver_check_linked(Session *s, const SemaLink *links, int nlinks)
{
	if (!s->m || s->diags.errors)
		return false;
	s->S = sema_check_linked(s->m, s->src, s->len, &s->diags, links, nlinks);
	return s->diags.errors == 0;
}

void
driver_revision(Session *s)
{
	if (s->m && !s->diags.errors)
		sema_revision(s->m, s->revision, &s->prelude);
}

bool
driver_lower(Session *s)
{
	if (!s->S || s->diags.errors)
		return false;
	s->H = hir_lower(s->S);
	if (!hir_validate(s->H, &s->diags)) {
		hir_free(s->H);
		s->H = NULL;
		return false;
	}
	return true;
}

bool
driver_mono(Session *s)
{
	if (!s->H)
		return false;
	if (s->H->mono)
		return true;
	if (!hir_mono(s->H, &s->diags))
		return false;
	if (!hir_validate_mono(s->H, &s->diags)) {
		s->H->mono = NULL;   /* (arena memory of the HIR) */
		return false;
	}
	return true;
}

bool
driver_load(Session *s, const char *path, SessionStage stage)
{
	driver_session_init(s, path);
	if (!driver_read(s))
		return false;
	if (!driver_parse(s) || stage == SESSION_PARSE)
		return s->diags.errors == 0;
	/* Before the check: the revision renders the whole module, and its
	 * transient text is freed before the checker's tables grow into that
	 * memory (a failed check clears it again). */
	if (stage == SESSION_CHECK || stage == SESSION_CHECK_HIR)
		driver_revision(s);
	if (!driver_check(s))
		return false;
	/* SESSION_CHECK stops here (cmd_check.c says when `check` lowers); every
	 * other stage lowers the verified program and validates the HIR. */
	if (stage == SESSION_CHECK)
		return true;
	return driver_lower(s);
}

void
driver_session_free(Session *s)
{
	hir_free(s->H);
	if (s->S)
		sema_free(s->S);
	arena_free(&s->arena);
	diag_free(&s->diags);
	if (s->src_mapped)
		mapfile_free(s->src, s->len);
	else
		free(s->src);
	memset(s, 0, sizeof *s);
}

char *
driver_read_source(const char *path, size_t *len, DiagSink *diags)
{
	struct stat st;
	const char *why = NULL;
	char *data = NULL;
	FILE *f = NULL;
	/* opened first and the descriptor stat'ed: a FIFO must not block the
	 * open (O_NONBLOCK), and what is read is what was stat'ed */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		why = strerror(errno);
	} else if (fstat(fd, &st) != 0) {
		why = strerror(errno);
	} else if (S_ISDIR(st.st_mode)) {
		why = "Is a directory (os error 21)";
	} else if (!S_ISREG(st.st_mode)) {
		why = "not a regular file";
	} else if ((uint64_t)st.st_size > DRIVER_MAX_SOURCE) {
		why = "file is larger than the 64 MiB source limit";
	} else if (!(f = fdopen(fd, "rb"))) {
		why = strerror(errno);
	} else {
		fd = -1;   /* f owns it */
		/* Room for the NUL and one byte more, so the read that finds EOF
		 * needs no reallocation when the size is as stat said. */
		size_t cap = (size_t)st.st_size + 2, n = 0;
		data = spx_xmalloc(cap);
		for (;;) {
			if (n + 1 >= cap) {
				if (cap > DRIVER_MAX_SOURCE) {
					why = "file is larger than the 64 MiB source limit";
					break;
				}
				cap *= 2;
				data = spx_xrealloc(data, cap);
			}
			size_t k = fread(data + n, 1, cap - n - 1, f);
			n += k;
			if (k == 0)
				break;
		}
		if (!why && ferror(f))
			why = strerror(errno);
		fclose(f);
		if (!why) {
			data[n] = '\0';
			*len = n;
			return data;
		}
		free(data);
	}
	if (fd >= 0)
		close(fd);
	/* a project's source is named as its manifest spells it (diags->shown) */
	const char *named = diags->path && strcmp(diags->path, path) == 0 ? diag_shown_path(diags) : path;
	Diag *d = diag_report(diags, DIAG_I001, NULL, "cannot read %s: %s", named, why);
	diag_set_help(d, "pass a readable UTF-8 .spx file");
	return NULL;
}

