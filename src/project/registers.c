/*
 * registers.c — register checks (registers.h, docs/REGISTERS.md).
 *
 * The parameters are checked first, each on its own (severity; the
 * register: readable, JSON of the admitted shape, no token twice; the
 * pattern: compiles in UTF mode, cannot match the empty string; then every
 * register token is a whole match of it).  Any problem is a parameter
 * diagnostic and nothing else happens.  Then the prose of every declaration
 * of every module (ModuleId order) is read in a fixed order — attached
 * comments (what the formatter places above or right after the item), the
 * source text of its contract clauses (string and char literals and
 * comments blanked out), and a test case's name — and every non-empty
 * match of the pattern is a citation.  Findings follow from the citations
 * and the register; nothing iterates a hash table.
 */
/* realpath is XSI in glibc's headers. */
#define _XOPEN_SOURCE 700
#define PCRE2_CODE_UNIT_WIDTH 8
#include "registers.h"

#include <errno.h>
#include <jansson.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../fmt/fmt.h"
#include "../sema/program.h"
#include "../support/json.h"

#define REGISTER_MAX_BYTES (16u << 20)
/* Bounds on the pattern's work (docs/REGISTERS.md "Limits").  PCRE2's match
 * limit applies per start position and its possessive scans are not
 * counted, so the run's total is bounded by counting work ourselves: the
 * pattern is compiled with auto callouts (one callout before each pattern
 * item, at every start position and after every backtrack) and without
 * auto-possessification (a repeat then gives back characters one callout
 * at a time), and the callouts of every pcre2_match call of one check —
 * the empty-string probe, the register tokens, all prose — share
 * REGISTER_WORK_BUDGET (or `registers --max-steps`).  Counting steps, not time, keeps the result the
 * same on every machine. */
#define REGISTER_MATCH_LIMIT 1000000u
#define REGISTER_DEPTH_LIMIT 100000u
#define REGISTER_HEAP_LIMIT_KIB 65536u

typedef struct RegToken {
	char *s;
	bool retired;
	int cites;
	int index;               /* register order */
} RegToken;

typedef struct PDecl {
	const char *kind;
	const char *id;
	int mod;
} PDecl;

typedef struct Cite {
	int decl;
	const char *id;          /* the declaration's stable id */
	char *token;             /* heap */
	const char *text;        /* "comment" | "requires" | "ensures" | "name" */
	uint32_t start, end;     /* in the module's source */
	int seq;                 /* collection order */
} Cite;

typedef struct Priv {
	RegToken *toks;          /* register order */
	int ntoks;
	RegToken **sorted;       /* the tokens by bytes, then register order */
	pcre2_code *code;
	pcre2_match_data *md;
	pcre2_match_context *mc;
	VEC(PDecl) decls;
	VEC(Cite) cites;
	uint64_t work;           /* callouts so far, all calls */
	uint64_t budget;         /* … at most */
	bool limit_hit;          /* a per-call limit or the budget */
	bool budget_hit;         /* the budget */
	const char *limit_decl;
	char *pattern_label, *file_label, *severity_label;
} Priv;

/* ---- parameters ------------------------------------------------------------------- */

static char *
label(const RegisterParams *p, const char *flag, const char *key, const char *value)
{
	Buf b = {0};
	if (p->what)
		buf_printf(&b, "`[registers] %s` %s `%s`", p->what, key, value);
	else
		buf_printf(&b, "`%s %s`", flag, value);
	return buf_take(&b);
}

/* Register tokens by bytes, then register order. */
static int
tok_cmp(const void *a, const void *b)
{
	const RegToken *x = *(const RegToken *const *)a, *y = *(const RegToken *const *)b;
	int c = strcmp(x->s, y->s);
	return c ? c : x->index - y->index;
}

static int
pair_cmp(const void *a, const void *b)
{
	return ((const int *)a)[0] - ((const int *)b)[0];
}

static int
find_token(const Priv *pv, const char *s)
{
	int lo = 0, hi = pv->ntoks;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		int c = strcmp(pv->sorted[mid]->s, s);
		if (c == 0)
			return pv->sorted[mid]->index;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Does a manifest row's register (open_path: the project directory joined
 * with its relative file) resolve outside the project directory?  The
 * manifest reader admits only relative paths without `..`, so only a
 * symbolic link can lead out; a project's manifest never makes `check` read
 * (and quote in J141/J145) a file elsewhere. */
static bool
outside_project(const RegisterParams *p)
{
	size_t ol = strlen(p->open_path), fl = strlen(p->file);
	if (ol < fl)
		return true;
	char *dir = spx_xstrndup(p->open_path, ol - fl);
	char *root = realpath(*dir ? dir : ".", NULL);
	char *real = realpath(p->open_path, NULL);
	size_t rl = root ? strlen(root) : 0;
	bool out = !root || !real || !(strncmp(real, root, rl) == 0 && (real[rl] == '/' || rl == 1));
	free(dir);
	free(root);
	free(real);
	return out;
}

/* Reads the register into pv->toks; false after a diagnostic. */
static bool
read_register(RegisterReport *r, Priv *pv)
{
	const RegisterParams *p = &r->params;
	const char *L = pv->file_label;
	struct stat st;
	if (stat(p->open_path, &st) != 0) {
		diag_report(&r->diags, DIAG_J140, NULL, "%s cannot be read: %s", L, strerror(errno));
		return false;
	}
	if (p->manifest && outside_project(p)) {
		Diag *d = diag_report(&r->diags, DIAG_J140, NULL, "%s lies outside the project directory (a symbolic link of its path leads out)", L);
		diag_set_help(d, "keep the register inside the project and name it by its path there");
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		diag_report(&r->diags, DIAG_J140, NULL, "%s is not a regular file", L);
		return false;
	}
	if ((uint64_t)st.st_size > REGISTER_MAX_BYTES) {
		diag_report(&r->diags, DIAG_J140, NULL, "%s holds %llu bytes; the limit is 16 MiB", L, (unsigned long long)st.st_size);
		return false;
	}
	FILE *f = fopen(p->open_path, "rb");
	if (!f) {
		diag_report(&r->diags, DIAG_J140, NULL, "%s cannot be read: %s", L, strerror(errno));
		return false;
	}
	size_t cap = (size_t)st.st_size + 1, len = 0;
	char *buf = spx_xmalloc(cap);
	size_t k;
	while (len < cap && (k = fread(buf + len, 1, cap - len, f)) > 0)
		len += k;
	bool err = ferror(f) != 0;
	fclose(f);
	if (err || len > REGISTER_MAX_BYTES) {
		free(buf);
		diag_report(&r->diags, DIAG_J140, NULL, "%s cannot be read", L);
		return false;
	}
	json_error_t je;
	json_t *root = json_loadb(buf, len, 0, &je);
	if (!root) {
		/* the offending token's line and column (jansson's are past the
		 * last byte it read) */
		size_t es, ee;
		json_error_span(buf, len, false, je.position, je.text, &es, &ee);
		uint32_t line = 1, col = 1;
		for (size_t i = 0; i < es; i++) {
			if (buf[i] == '\n')
				line++, col = 1;
			else if (((unsigned char)buf[i] & 0xC0) != 0x80)
				col++;
		}
		free(buf);
		diag_report(&r->diags, DIAG_J141, NULL, "%s is not JSON: %s (line %u, column %u)", L, je.text, line, col);
		return false;
	}
	free(buf);
	json_t *tokens = json_is_object(root) ? json_object_get(root, "tokens") : NULL;
	bool ok = true;
	if (!json_is_object(root)) {
		diag_report(&r->diags, DIAG_J141, NULL, "%s is not a JSON object `{ \"tokens\": [ … ] }`", L);
		ok = false;
	} else if (!json_is_array(tokens)) {
		diag_report(&r->diags, DIAG_J141, NULL, "%s has no `tokens` array", L);
		ok = false;
	}
	size_t n = ok ? json_array_size(tokens) : 0;
	pv->toks = spx_xcalloc(n + 1, sizeof *pv->toks);
	for (size_t i = 0; ok && i < n; i++) {
		json_t *e = json_array_get(tokens, i);
		json_t *s = e;
		bool retired = false;
		if (json_is_object(e)) {
			s = json_object_get(e, "token");
			json_t *rt = json_object_get(e, "retired");
			if (rt && !json_is_boolean(rt)) {
				diag_report(&r->diags, DIAG_J141, NULL, "%s: token entry %zu has a `retired` that is not true or false", L, i + 1);
				ok = false;
				break;
			}
			retired = rt && json_is_true(rt);
		}
		if (!json_is_string(s) || json_string_length(s) == 0 || strlen(json_string_value(s)) != json_string_length(s)) {
			diag_report(&r->diags, DIAG_J141, NULL, "%s: token entry %zu is not a non-empty string or `{ \"token\": \"…\", \"retired\": true|false }`", L, i + 1);
			ok = false;
			break;
		}
		RegToken *t = &pv->toks[pv->ntoks++];
		t->s = spx_xstrdup(json_string_value(s));
		t->retired = retired;
		t->index = (int)i;
	}
	json_decref(root);
	if (!ok)
		return false;
	pv->sorted = spx_xcalloc((size_t)pv->ntoks + 1, sizeof *pv->sorted);
	for (int i = 0; i < pv->ntoks; i++)
		pv->sorted[i] = &pv->toks[i];
	if (pv->ntoks)
		qsort(pv->sorted, (size_t)pv->ntoks, sizeof *pv->sorted, tok_cmp);
	/* each duplicated token once, in register order of its first entry:
	 * (first, second) entry pairs of each run of equal tokens */
	int *pairs = spx_xcalloc((size_t)pv->ntoks * 2 + 2, sizeof *pairs);
	int npairs = 0;
	for (int i = 0; i + 1 < pv->ntoks; i++) {
		if (strcmp(pv->sorted[i]->s, pv->sorted[i + 1]->s) != 0 || (i > 0 && strcmp(pv->sorted[i - 1]->s, pv->sorted[i]->s) == 0))
			continue;
		pairs[2 * npairs] = pv->sorted[i]->index;
		pairs[2 * npairs + 1] = pv->sorted[i + 1]->index;
		npairs++;
	}
	if (npairs)
		qsort(pairs, (size_t)npairs, 2 * sizeof *pairs, pair_cmp);
	for (int q = 0; q < npairs; q++) {
		const char *t = pv->toks[pairs[2 * q]].s;
		Diag *d = diag_report(&r->diags, DIAG_J142, NULL, "%s lists token `%s` twice (entries %d and %d)", L, t, pairs[2 * q] + 1, pairs[2 * q + 1] + 1);
		diag_set_help(d, "keep one entry for `%s` (mark it `\"retired\": true` if it is withdrawn)", t);
		ok = false;
	}
	free(pairs);
	return ok;
}

/* J143 for a pattern that exhausts a per-call limit or the run's budget
 * while matching `what` `name`; a manifest row's pattern is located by its
 * line in the manifest. */
static void
limit_diag(RegisterReport *r, const Priv *pv, const char *what, const char *name)
{
	Buf where = {0};
	if (r->params.manifest && r->params.line > 0)
		buf_printf(&where, " (%s line %d)", r->params.manifest, r->params.line);
	Diag *d;
	if (pv->budget_hit)
		d = diag_report(&r->diags, DIAG_J143, NULL, "%s%s exceeds the work budget of %llu matching steps for the whole check (reached on the %s `%s`)",
		    pv->pattern_label, where.data ? where.data : "", (unsigned long long)pv->budget, what, name);
	else
		d = diag_report(&r->diags, DIAG_J143, NULL, "%s%s exceeds the match limit on the %s `%s`", pv->pattern_label, where.data ? where.data : "", what,
		    name);
	if (pv->budget_hit && pv->budget < REGISTER_MAX_WORK_BUDGET)
		diag_set_help(d, "simplify the pattern: avoid nested or alternative repetition such as `(a+)+` or `(a|aa)*`, and a repeat that can retry a long run "
		    "from every start; or raise the budget with `semaprax registers --max-steps N` (N up to %u)", REGISTER_MAX_WORK_BUDGET);
	else
		diag_set_help(d, "simplify the pattern: avoid nested or alternative repetition such as `(a+)+` or `(a|aa)*`, and a repeat that can retry a long run from every start");
	buf_free(&where);
}

/* Counts one step of work; past the budget the match is abandoned. */
static int
count_work(pcre2_callout_block *cb, void *data)
{
	(void)cb;
	Priv *pv = data;
	if (++pv->work > pv->budget) {
		pv->budget_hit = true;
		return PCRE2_ERROR_CALLOUT;
	}
	return 0;
}

/* pcre2_match under the budget: a negative result other than no-match
 * sets limit_hit (the callers report it). */
static int
match(Priv *pv, const char *s, size_t n, size_t off, uint32_t opts)
{
	if (pv->budget_hit)
		return PCRE2_ERROR_CALLOUT;
	int rc = pcre2_match(pv->code, (PCRE2_SPTR)s, n, off, opts, pv->md, pv->mc);
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH && !(rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21))
		pv->limit_hit = true;
	return rc;
}

static bool
compile_pattern(RegisterReport *r, Priv *pv)
{
	int errcode;
	PCRE2_SIZE erroff;
	pv->code = pcre2_compile((PCRE2_SPTR)r->params.pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_AUTO_CALLOUT | PCRE2_NO_AUTO_POSSESS, &errcode, &erroff, NULL);
	if (!pv->code) {
		PCRE2_UCHAR msg[256];
		if (pcre2_get_error_message(errcode, msg, sizeof msg) < 0)
			snprintf((char *)msg, sizeof msg, "error %d", errcode);
		diag_report(&r->diags, DIAG_J143, NULL, "%s does not compile: %s (at offset %zu)", pv->pattern_label, (const char *)msg, (size_t)erroff);
		return false;
	}
	uint32_t minlen = 0;
	pcre2_pattern_info(pv->code, PCRE2_INFO_MINLENGTH, &minlen);
	pv->md = pcre2_match_data_create_from_pattern(pv->code, NULL);
	pv->mc = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(pv->mc, REGISTER_MATCH_LIMIT);
	pcre2_set_depth_limit(pv->mc, REGISTER_DEPTH_LIMIT);
	pcre2_set_heap_limit(pv->mc, REGISTER_HEAP_LIMIT_KIB);
	pcre2_set_callout(pv->mc, count_work, pv);
	int rc = match(pv, "", 0, 0, 0);
	if (minlen == 0 || rc >= 0) {
		diag_report(&r->diags, DIAG_J144, NULL, "%s can match the empty string", pv->pattern_label);
		return false;
	}
	return true;
}

/* Every register token is a whole match of the pattern. */
static bool
tokens_match(RegisterReport *r, Priv *pv)
{
	bool ok = true;
	for (int i = 0; i < pv->ntoks; i++) {
		const char *s = pv->toks[i].s;
		int rc = match(pv, s, strlen(s), 0, PCRE2_ANCHORED | PCRE2_ENDANCHORED);
		if (pv->limit_hit || pv->budget_hit) {
			limit_diag(r, pv, "register token", s);
			return false;
		}
		if (rc < 0) {
			diag_report(&r->diags, DIAG_J145, NULL, "%s does not match register token `%s` (entry %d) as a whole", pv->pattern_label, s,
			    pv->toks[i].index + 1);
			ok = false;
		}
	}
	return ok;
}

/* ---- prose ------------------------------------------------------------------------ */

static void
scan(Priv *pv, int decl, const char *text_kind, const char *s, size_t n, uint32_t base)
{
	PCRE2_SIZE off = 0;
	while (off < n && !pv->limit_hit) {
		int rc = match(pv, s, n, off, PCRE2_NOTEMPTY);
		if (pv->limit_hit || pv->budget_hit) {
			pv->limit_hit = true;
			pv->limit_decl = pv->decls.items[decl].id;
			return;
		}
		if (rc < 0)
			return;   /* no match; a UTF-8 error cannot happen: sources are UTF-8 and blanking keeps them so */
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(pv->md);
		if (ov[1] <= ov[0] || ov[1] > n)
			return;
		Cite c = { decl, pv->decls.items[decl].id, spx_xstrndup(s + ov[0], (size_t)(ov[1] - ov[0])), text_kind, base + (uint32_t)ov[0], base + (uint32_t)ov[1],
			pv->cites.len };
		VEC_PUSH(pv->cites, c);
		off = ov[1];
	}
}

static int
add_decl(Priv *pv, const char *kind, const char *id, int mod)
{
	PDecl d = { kind, id, mod };
	VEC_PUSH(pv->decls, d);
	return pv->decls.len - 1;
}

/* A module's attached comments by item start: (key, comment index) pairs
 * sorted by key, then index (source order). */
typedef struct CKey {
	uint32_t key;
	int index;
} CKey;

static int
ckey_cmp(const void *a, const void *b)
{
	const CKey *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index - y->index;
}

/* The comments attached to the item starting at start, in source order. */
static void
scan_comments(Priv *pv, int decl, const Module *m, const CKey *keys, uint32_t start)
{
	int lo = 0, hi = m->ncomments;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (keys[mid].key < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo; i < m->ncomments && keys[i].key == start; i++) {
		const Comment *c = &m->comments[keys[i].index];
		scan(pv, decl, "comment", c->text, c->len, c->span.start + 2);
	}
}

/* A clause's source after its keyword, with string and char literals and
 * comments blanked (newlines kept, so offsets stay those of the source). */
static void
scan_clauses(Priv *pv, int decl, const char *src, size_t len, const Clause *cl, int n)
{
	for (int i = 0; i < n; i++) {
		const char *kw = cl[i].kind == CLAUSE_REQUIRES ? "requires" : "ensures";
		uint32_t a = cl[i].span.start + (uint32_t)strlen(kw), b = cl[i].span.end;
		if (b > len || a >= b)
			continue;
		char *t = spx_xstrndup(src + a, b - a);
		size_t tn = b - a;
		for (size_t k = 0; k < tn; k++) {
			size_t e = k;
			if (t[k] == '"' || t[k] == '\'') {
				char q = t[k];
				for (e = k + 1; e < tn && t[e] != q; e++)
					if (t[e] == '\\')
						e++;
			} else if (t[k] == '/' && k + 1 < tn && t[k + 1] == '/') {
				while (e + 1 < tn && t[e + 1] != '\n')
					e++;
			} else {
				continue;
			}
			for (size_t j = k; j <= e && j < tn; j++)
				if (t[j] != '\n')
					t[j] = ' ';
			k = e;
		}
		scan(pv, decl, kw, t, tn, a);
		free(t);
	}
}

static void
scan_fields(Priv *pv, int mod, const Module *m, const CKey *key, const FieldDecl *fd, int nfd, const FieldSym *fs, int nfs)
{
	for (int i = 0; i < nfd && i < nfs; i++) {
		int d = add_decl(pv, "field", fs[i].id, mod);
		scan_comments(pv, d, m, key, fmt_field_start(&fd[i]));
	}
}

/* A test case of the test module (cmd_test.c's rule). */
static bool
test_case(const Sym *y, bool test_module)
{
	return test_module && y->kind == SK_FN && strncmp(y->name, "test_", 5) == 0 && y->nparams == 0 && y->ntparams == 0 && y->result == T_I64 &&
	       y->explicit_id;
}

static void
collect_module(Priv *pv, const Project *pj, int mod)
{
	const ProgModule *pm = pj->P.mods[mod];
	const Session *s = &pm->s;
	const Module *m = s->m;
	const Sema *S = s->S;
	if (!m || !S)
		return;
	bool test_module = pj->man.test_module && strcmp(pm->name, pj->man.test_module) == 0;
	uint32_t *items = spx_xcalloc((size_t)m->ncomments + 1, sizeof *items);
	fmt_comment_items(m, s->src, s->len, items);
	CKey *key = spx_xcalloc((size_t)m->ncomments + 1, sizeof *key);
	for (int i = 0; i < m->ncomments; i++)
		key[i] = (CKey){ items[i], i };
	if (m->ncomments)
		qsort(key, (size_t)m->ncomments, sizeof *key, ckey_cmp);
	free(items);
	const Sym **by_decl = spx_xcalloc((size_t)m->ndecls + 1, sizeof *by_decl);
	for (int i = 0; i < S->syms.len; i++) {
		const Sym *y = &S->syms.items[i];
		if (y->decl && y->decl >= m->decls && y->decl < m->decls + m->ndecls && !y->origin && !by_decl[y->decl - m->decls])
			by_decl[y->decl - m->decls] = y;
	}
	/* `use` imports: the imported declaration's stable id, the comments on the `use` */
	for (int i = 0; i < m->nuses; i++) {
		const UseDecl *u = &m->uses[i];
		int d = add_decl(pv, "import", u->id.s, mod);
		scan_comments(pv, d, m, key, u->span.start);
	}
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *dc = &m->decls[i];
		const Sym *y = by_decl[i];
		if (!y || dc->kind == DECL_SESSION)
			continue;
		SymId self = (SymId)(y - S->syms.items);
		static const char *const kinds[] = {
			[DECL_FN] = "function", [DECL_RECORD] = "record", [DECL_VARIANT] = "variant", [DECL_CLASS] = "class",
			[DECL_RESOURCE] = "resource", [DECL_INTERFACE] = "interface", [DECL_SESSION] = "session",
		};
		bool tc = dc->kind == DECL_FN && test_case(y, test_module);
		int d = add_decl(pv, tc ? "test" : kinds[dc->kind], y->id, mod);
		scan_comments(pv, d, m, key, dc->span.start);
		switch (dc->kind) {
		case DECL_FN:
			scan_clauses(pv, d, s->src, s->len, dc->u.fn.clauses, dc->u.fn.nclauses);
			if (tc)
				scan(pv, d, "name", s->src + dc->u.fn.name.span.start, dc->u.fn.name.span.end - dc->u.fn.name.span.start,
				    dc->u.fn.name.span.start);
			break;
		case DECL_RECORD:
			scan_clauses(pv, d, s->src, s->len, dc->u.record.invariants, dc->u.record.ninvariants);
			scan_fields(pv, mod, m, key, dc->u.record.fields, dc->u.record.nfields, y->nom->fields, y->nom->nfields);
			break;
		case DECL_VARIANT:
			for (int c = 0; c < dc->u.variant.ncases && c < y->nom->ncases; c++) {
				const CaseDecl *cd = &dc->u.variant.cases[c];
				int cdi = add_decl(pv, "case", y->nom->cases[c].id, mod);
				scan_comments(pv, cdi, m, key, fmt_case_start(cd));
				scan_fields(pv, mod, m, key, cd->fields, cd->nfields, y->nom->cases[c].fields, y->nom->cases[c].nfields);
			}
			break;
		case DECL_CLASS: {
			int f = 0, k = 0;
			for (int j = 0; j < dc->u.class_.nmembers; j++) {
				const ClassMember *cm = &dc->u.class_.members[j];
				if (cm->is_method) {
					if (k >= y->nom->nmethods)
						continue;
					const Sym *ms = &S->syms.items[y->nom->methods[k++]];
					int md = add_decl(pv, "method", ms->id, mod);
					scan_comments(pv, md, m, key, fmt_member_start(cm));
					scan_clauses(pv, md, s->src, s->len, cm->method.clauses, cm->method.nclauses);
					continue;
				}
				while (f < y->nom->nfields && y->nom->fields[f].declared_in != self)
					f++;
				if (f >= y->nom->nfields)
					continue;
				int fdi = add_decl(pv, "field", y->nom->fields[f++].id, mod);
				scan_comments(pv, fdi, m, key, fmt_member_start(cm));
			}
			break;
		}
		case DECL_INTERFACE:
			for (int j = 0; j < dc->u.interface.nimports; j++) {
				const ImportFn *im = &dc->u.interface.imports[j];
				if (!im->id.present)
					continue;
				const char *kept = NULL;
				for (int q = 0; q < S->syms.len && !kept; q++)
					if (S->syms.items[q].kind == SK_IMPORT && S->syms.items[q].import == im)
						kept = S->syms.items[q].id;
				if (kept)
					add_decl(pv, "import", kept, mod);
			}
			break;
		default:
			break;
		}
	}
	free(by_decl);
	free(key);
}

/* ---- findings --------------------------------------------------------------------- */

static int
cite_by_decl(const void *a, const void *b)
{
	const Cite *x = a, *y = b;
	int c = strcmp(x->id, y->id);
	if (c == 0)
		c = strcmp(x->token, y->token);
	if (c == 0)
		c = x->decl - y->decl;
	if (c == 0)
		c = x->seq - y->seq;
	return c;
}

static int
cite_by_token(const void *a, const void *b)
{
	const Cite *x = a, *y = b;
	int c = strcmp(x->token, y->token);
	if (c == 0)
		c = strcmp(x->id, y->id);
	if (c == 0)
		c = x->seq - y->seq;
	return c;
}

static void
position(const char *src, uint32_t off, uint32_t *line, uint32_t *col)
{
	uint32_t l = 1, c = 1;
	for (uint32_t i = 0; i < off; i++) {
		if (src[i] == '\n')
			l++, c = 1;
		else if (((unsigned char)src[i] & 0xC0) != 0x80)
			c++;
	}
	*line = l;
	*col = c;
}

static void
make_findings(RegisterReport *r, Priv *pv, const Project *pj)
{
	VEC(RegisterFinding) out = {0};
	/* tokens: each distinct cited token, byte order */
	if (pv->cites.len)
		qsort(pv->cites.items, (size_t)pv->cites.len, sizeof(Cite), cite_by_token);
	VEC(RegisterCitedToken) toks = {0};
	for (int i = 0; i < pv->cites.len;) {
		int j = i;
		while (j < pv->cites.len && strcmp(pv->cites.items[j].token, pv->cites.items[i].token) == 0)
			j++;
		RegisterCitedToken t = {0};
		t.token = spx_xstrdup(pv->cites.items[i].token);
		int ri = find_token(pv, t.token);
		t.held = ri >= 0 && !pv->toks[ri].retired;
		t.retired = ri >= 0 && pv->toks[ri].retired;
		if (ri >= 0)
			pv->toks[ri].cites += j - i;
		t.citations = j - i;
		t.decls = spx_xcalloc((size_t)(j - i), sizeof *t.decls);
		for (int k = i; k < j; k++) {
			const char *id = pv->decls.items[pv->cites.items[k].decl].id;
			if (t.ndecls == 0 || strcmp(t.decls[t.ndecls - 1], id) != 0)
				t.decls[t.ndecls++] = id;
		}
		VEC_PUSH(toks, t);
		i = j;
	}
	r->tokens = toks.items;
	r->ntokens = toks.len;
	/* unknown and retired: one per (declaration, token), at its first citing text */
	if (pv->cites.len)
		qsort(pv->cites.items, (size_t)pv->cites.len, sizeof(Cite), cite_by_decl);
	for (int i = 0; i < pv->cites.len;) {
		const Cite *c = &pv->cites.items[i];
		int j = i;
		while (j < pv->cites.len && pv->cites.items[j].decl == c->decl && strcmp(pv->cites.items[j].token, c->token) == 0)
			j++;
		int ri = find_token(pv, c->token);
		if (ri < 0 || pv->toks[ri].retired) {
			const PDecl *d = &pv->decls.items[c->decl];
			const Session *s = &pj->P.mods[d->mod]->s;
			RegisterFinding f = {0};
			f.kind = ri < 0 ? REG_UNKNOWN : REG_RETIRED;
			f.token = spx_xstrdup(c->token);
			f.decl_kind = d->kind;
			f.decl_id = d->id;
			f.path = driver_module_path(pj->P.mods[d->mod]);   /* the manifest's spelling */
			f.text_kind = c->text;
			f.start = c->start;
			f.end = c->end;
			position(s->src, c->start, &f.line, &f.col);
			Buf b = {0};
			buf_printf(&b, "%s `%s` cites `%s`, which the register %s", d->kind, d->id, c->token, ri < 0 ? "does not list" : "retires");
			f.message = buf_take(&b);
			if (ri < 0)
				r->unknown++;
			else
				r->retired++;
			VEC_PUSH(out, f);
		}
		i = j;
	}
	if (r->params.uncited)
		for (int i = 0; i < pv->ntoks; i++) {
			if (pv->toks[i].retired || pv->toks[i].cites > 0)
				continue;
			RegisterFinding f = {0};
			f.kind = REG_UNCITED;
			f.token = spx_xstrdup(pv->toks[i].s);
			f.path = r->params.file;
			Buf b = {0};
			buf_printf(&b, "`%s` is held by the register and no declaration cites it", f.token);
			f.message = buf_take(&b);
			r->uncited++;
			VEC_PUSH(out, f);
		}
	r->findings = out.items;
	r->nfindings = out.len;
}

/* ---- the check -------------------------------------------------------------------- */

bool
project_register_check(const Project *pj, const RegisterParams *p, RegisterReport *r)
{
	memset(r, 0, sizeof *r);
	r->params = *p;
	diag_init(&r->diags, NULL, NULL, 0);
	Priv *pv = spx_xcalloc(1, sizeof *pv);
	r->priv = pv;
	pv->budget = p->max_steps ? p->max_steps : REGISTER_WORK_BUDGET;
	pv->file_label = label(p, "--register", "file", p->file);
	pv->pattern_label = label(p, "--pattern", "pattern", p->pattern);
	pv->severity_label = label(p, "--severity", "severity", p->severity);
	bool ok = true;
	if (strcmp(p->severity, "error") == 0)
		r->warning = false;
	else if (strcmp(p->severity, "warning") == 0)
		r->warning = true;
	else {
		diag_report(&r->diags, DIAG_J146, NULL, "%s is neither `error` nor `warning`", pv->severity_label);
		ok = false;
	}
	bool reg = read_register(r, pv);
	bool pat = compile_pattern(r, pv);
	if (reg && pat)
		ok &= tokens_match(r, pv);
	ok &= reg && pat;
	if (!ok)
		return false;
	for (int i = 0; i < pj->P.nmods; i++)
		collect_module(pv, pj, i);
	if (pv->limit_hit) {
		limit_diag(r, pv, "prose of", pv->limit_decl);
		return false;
	}
	r->declarations = pv->decls.len;
	r->citations = pv->cites.len;
	make_findings(r, pv, pj);
	return r->warning || r->nfindings == 0;
}

void
project_register_free(RegisterReport *r)
{
	Priv *pv = r->priv;
	if (pv) {
		for (int i = 0; i < pv->ntoks; i++)
			free(pv->toks[i].s);
		free(pv->toks);
		free(pv->sorted);
		for (int i = 0; i < pv->cites.len; i++)
			free(pv->cites.items[i].token);
		VEC_FREE(pv->cites);
		VEC_FREE(pv->decls);
		pcre2_match_data_free(pv->md);
		pcre2_match_context_free(pv->mc);
		pcre2_code_free(pv->code);
		free(pv->file_label);
		free(pv->pattern_label);
		free(pv->severity_label);
		free(pv);
	}
	for (int i = 0; i < r->ntokens; i++) {
		free(r->tokens[i].token);
		free(r->tokens[i].decls);
	}
	free(r->tokens);
	for (int i = 0; i < r->nfindings; i++) {
		free(r->findings[i].message);
		free(r->findings[i].token);
	}
	free(r->findings);
	diag_free(&r->diags);
	memset(r, 0, sizeof *r);
}

/* ---- output ----------------------------------------------------------------------- */

static const DiagCode finding_code[] = { [REG_UNKNOWN] = DIAG_J150, [REG_RETIRED] = DIAG_J151, [REG_UNCITED] = DIAG_J152 };
static const char *const finding_kind[] = { [REG_UNKNOWN] = "unknown", [REG_RETIRED] = "retired", [REG_UNCITED] = "uncited" };

static char *
finding_help(const RegisterReport *r, const RegisterFinding *f)
{
	Buf b = {0};
	switch (f->kind) {
	case REG_UNKNOWN:
		buf_printf(&b, "add `%s` to the register %s, or correct the citation", f->token, r->params.file);
		break;
	case REG_RETIRED:
		buf_printf(&b, "cite the token that replaces `%s`, or remove the citation", f->token);
		break;
	default:
		buf_printf(&b, "cite `%s` where the project meets it, or retire it in %s", f->token, r->params.file);
		break;
	}
	return buf_take(&b);
}

void
project_register_emit(const RegisterReport *r, bool json)
{
	diag_emit_all(&r->diags, json);
	Buf b = {0};
	const char *sev = r->warning ? "warning" : "error";
	for (int i = 0; i < r->nfindings; i++) {
		const RegisterFinding *f = &r->findings[i];
		const char *code = diag_info[finding_code[f->kind]].code;
		char *help = finding_help(r, f);
		bool located = f->kind != REG_UNCITED;
		if (json) {
			buf_puts(&b, "{\"code\":");
			json_cstr(&b, code);
			buf_puts(&b, ",\"severity\":");
			json_cstr(&b, sev);
			buf_puts(&b, ",\"message\":");
			json_cstr(&b, f->message);
			buf_puts(&b, ",\"path\":");
			json_cstr(&b, f->path);
			buf_puts(&b, ",\"location\":");
			if (located)
				buf_printf(&b, "{\"line\":%u,\"column\":%u,\"start\":%u,\"end\":%u}", f->line, f->col, f->start, f->end);
			else
				buf_puts(&b, "null");
			buf_puts(&b, ",\"help\":");
			json_cstr(&b, help);
			buf_puts(&b, "}\n");
		} else {
			buf_printf(&b, "%s[%s]: %s at %s", sev, code, f->message, f->path);
			if (located)
				buf_printf(&b, ":%u:%u (%s)", f->line, f->col, f->text_kind);
			buf_printf(&b, "\n  help: %s\n", help);
		}
		free(help);
	}
	if (b.len)
		fwrite(b.data, 1, b.len, json ? stdout : stderr);
	buf_free(&b);
}

void
project_register_json(const RegisterReport *r, Buf *o)
{
	const char *sev = r->warning ? "warning" : "error";
	buf_puts(o, "{\"input\":{\"pattern\":");
	json_cstr(o, r->params.pattern);
	buf_puts(o, ",\"severity\":");
	json_cstr(o, sev);
	buf_printf(o, ",\"uncited\":%s},\"totals\":{\"declarations\":%d,\"citations\":%d,\"tokens\":%d,\"unknown\":%d,\"retired\":%d,\"uncited\":%d},\"tokens\":[",
	    r->params.uncited ? "true" : "false", r->declarations, r->citations, r->ntokens, r->unknown, r->retired, r->uncited);
	for (int i = 0; i < r->ntokens; i++) {
		const RegisterCitedToken *t = &r->tokens[i];
		buf_puts(o, i ? ",{\"token\":" : "{\"token\":");
		json_cstr(o, t->token);
		buf_printf(o, ",\"held\":%s,\"retired\":%s,\"citations\":%d,\"citing_declarations\":[", t->held ? "true" : "false",
		    t->retired ? "true" : "false", t->citations);
		for (int k = 0; k < t->ndecls; k++) {
			if (k)
				buf_putc(o, ',');
			json_cstr(o, t->decls[k]);
		}
		buf_puts(o, "]}");
	}
	buf_puts(o, "],\"findings\":[");
	for (int i = 0; i < r->nfindings; i++) {
		const RegisterFinding *f = &r->findings[i];
		buf_puts(o, i ? ",{\"code\":" : "{\"code\":");
		json_cstr(o, diag_info[finding_code[f->kind]].code);
		buf_puts(o, ",\"severity\":");
		json_cstr(o, sev);
		buf_puts(o, ",\"kind\":");
		json_cstr(o, finding_kind[f->kind]);
		buf_puts(o, ",\"token\":");
		json_cstr(o, f->token);
		buf_puts(o, ",\"message\":");
		json_cstr(o, f->message);
		if (f->kind != REG_UNCITED) {
			buf_puts(o, ",\"declaration\":");
			json_cstr(o, f->decl_id);
			buf_puts(o, ",\"declaration_kind\":");
			json_cstr(o, f->decl_kind);
			buf_puts(o, ",\"file\":");
			json_cstr(o, f->path);
			buf_puts(o, ",\"text\":");
			json_cstr(o, f->text_kind);
			buf_printf(o, ",\"line\":%u", f->line);
		}
		buf_putc(o, '}');
	}
	buf_puts(o, "]}\n");
}

void
project_register_summary(const RegisterReport *r, Buf *o)
{
	buf_printf(o, "register %s: %d declarations, %d citations of %d tokens; %d unknown, %d retired, %d uncited\n", r->params.file, r->declarations,
	    r->citations, r->ntokens, r->unknown, r->retired, r->uncited);
}

/* ---- the manifest's rows ---------------------------------------------------------- */

RegisterParams *
project_register_rows(const Project *pj, int *n)
{
	*n = pj->man.nregisters;
	RegisterParams *v = spx_xcalloc((size_t)*n + 1, sizeof *v);
	const char *slash = strrchr(pj->manifest_path, '/');
	for (int i = 0; i < *n; i++) {
		const ProjectRegisterRow *row = &pj->man.registers[i];
		RegisterParams *p = &v[i];
		p->file = row->file;
		p->pattern = row->pattern;
		p->severity = row->severity;
		p->uncited = row->uncited;
		p->what = row->name;
		p->manifest = slash ? slash + 1 : pj->manifest_path;
		p->line = row->line;
		if (slash && row->file[0] != '/') {
			Buf b = {0};
			buf_printf(&b, "%.*s/%s", (int)(slash - pj->manifest_path), pj->manifest_path, row->file);
			p->open_path = buf_take(&b);
		} else {
			p->open_path = spx_xstrdup(row->file);
		}
	}
	return v;
}

void
project_register_rows_free(RegisterParams *rows, int n)
{
	for (int i = 0; i < n; i++)
		free((char *)rows[i].open_path);
	free(rows);
}
