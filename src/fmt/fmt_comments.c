/*
 * fmt_comments.c — where each `//` comment goes in the canonical text
 * (LANGUAGE.md §2.3; the reference's "Canonical comments v1").
 *
 * Comments are placed by position, not attached to the tree.  The module is
 * viewed as nested sequences of items (uses and declarations at the top;
 * fields, cases, lifecycles and methods inside type bodies; statements and
 * the tail inside function, method, while, for and unsafe bodies).  Each
 * item has a source range and maybe a body (a sequence between an opening
 * and a closing offset).  A comment is
 *   - a header comment when it precedes the first token;
 *   - inside an item but outside its body (signature, contracts, a
 *     one-line statement or expression): leading, printed above the item;
 *   - between two items: trailing the previous one when it "sticks" (it
 *     shares the previous token's line, or sits on the very next line),
 *     otherwise leading the next;
 *   - after the last item of a body: trailing the last item when it sticks,
 *     else printed before the closing brace; after the last declaration:
 *     at the end of the file.
 * Every comment gets exactly one place and the writer (fmt.c) asks for the
 * comments of each place as it emits the item, so output order is free to
 * differ from source order (declarations are grouped by kind) without
 * losing or duplicating a comment.  Re-formatting reproduces the same
 * places, which makes the result idempotent.
 */
#include "fmt_priv.h"

#include <stdlib.h>
#include <string.h>

#include "../support/arena.h"

typedef struct Seq Seq;

typedef struct Item {
	uint32_t start, end;
	Seq *body;           /* NULL for a leaf */
} Item;

struct Seq {
	Item *items;         /* sorted by start, non-overlapping */
	int n;
	uint32_t open;       /* comments strictly inside (open, close) belong to the body */
	uint32_t close;
	bool top;            /* the file: no closing brace */
};

/* ==== source scanning ========================================================== */

static bool
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c >= 0x80;
}

/*
 * Offset of the first c in src[from, to) outside comments and string
 * literals, or `to` when there is none.
 */
uint32_t
fmt_find_char(const Fmt *F, uint32_t from, uint32_t to, char c)
{
	for (uint32_t i = from; i < to && i < F->len; i++) {
		char ch = F->src[i];
		if (ch == c)
			return i;
		if (ch == '/' && i + 1 < F->len && F->src[i + 1] == '/') {
			while (i < F->len && F->src[i] != '\n')
				i++;
		} else if (ch == '"') {
			for (i++; i < F->len && F->src[i] != '"'; i++)
				if (F->src[i] == '\\')
					i++;
		}
	}
	return to;
}

uint32_t
fmt_field_start(const FieldDecl *f)
{
	return f->id.present && f->id.span.start < f->span.start ? f->id.span.start : f->span.start;
}

uint32_t
fmt_case_start(const CaseDecl *c)
{
	return c->id.present && c->id.span.start < c->span.start ? c->id.span.start : c->span.start;
}

uint32_t
fmt_member_start(const ClassMember *m)
{
	return m->id.present && m->id.span.start < m->span.start ? m->id.span.start : m->span.start;
}

/* The `}` closing a record's fields (its invariants may follow it). */
uint32_t
fmt_record_close(const Fmt *F, const Decl *d)
{
	uint32_t end = d->span.end;
	if (!F->src)
		return 0;
	uint32_t from = fmt_find_char(F, d->u.record.name.span.end, end, '{') + 1;
	if (d->u.record.nfields)
		from = d->u.record.fields[d->u.record.nfields - 1].span.end;
	return fmt_find_char(F, from, end, '}');
}

/* The `}` closing a variant case's payload fields (the case's span ends there). */
uint32_t
fmt_case_close(const CaseDecl *c)
{
	return c->span.end ? c->span.end - 1 : 0;
}

/* The range of a resource's index-th `[@id] drop …;` line. */
void
fmt_drop_span(const Fmt *F, const Decl *d, int index, uint32_t *start, uint32_t *end)
{
	if (!F->src || index >= d->u.resource.ndrops) {
		*start = *end = 0;
		return;
	}
	const ResourceDrop *r = &d->u.resource.drops[index];
	*start = r->id.present ? r->id.span.start : r->span.start;
	*end = r->span.end;
}

/* ==== building the item tree ========================================================== */

typedef VEC(Item) ItemVec;

static Seq *
new_seq(Arena *a, ItemVec *v, uint32_t open, uint32_t close)
{
	Seq *s = ARENA_NEW(a, Seq);
	s->items = ARENA_ARRAY(a, Item, v->len ? v->len : 1);
	if (v->len)
		memcpy(s->items, v->items, sizeof(Item) * (size_t)v->len);
	s->n = v->len;
	s->open = open;
	s->close = close;
	VEC_FREE(*v);
	return s;
}

static Item
leaf(uint32_t start, uint32_t end)
{
	Item it = { start, end, NULL };
	return it;
}

static Seq *block_seq(Arena *a, const Block *b);

static Item
stmt_item(Arena *a, const Stmt *s)
{
	Item it = leaf(s->span.start, s->span.end);
	switch (s->kind) {
	case STMT_WHILE: it.body = block_seq(a, s->u.while_.body); break;
	case STMT_FOR: it.body = block_seq(a, s->u.for_.body); break;
	case STMT_UNSAFE: it.body = block_seq(a, s->u.unsafe.body); break;
	default: break;
	}
	return it;
}

static Seq *
block_seq(Arena *a, const Block *b)
{
	ItemVec v = {0};
	if (!b)
		return NULL;
	for (int i = 0; i < b->nstmts; i++)
		VEC_PUSH(v, stmt_item(a, b->stmts[i]));
	if (b->tail)
		VEC_PUSH(v, leaf(b->tail->span.start, b->tail->span.end));
	return new_seq(a, &v, b->span.start, b->span.end ? b->span.end - 1 : 0);
}

static Item
fn_item(Arena *a, uint32_t start, uint32_t end, const FnDecl *fn)
{
	Item it = leaf(start, end);
	it.body = block_seq(a, fn->body);
	return it;
}

static int
item_cmp(const void *x, const void *y)
{
	const Item *a = x, *b = y;
	return a->start < b->start ? -1 : a->start > b->start;
}

static Seq *
fields_seq(Arena *a, const FieldDecl *fs, int n, uint32_t open, uint32_t close)
{
	ItemVec v = {0};
	for (int i = 0; i < n; i++)
		VEC_PUSH(v, leaf(fmt_field_start(&fs[i]), fs[i].span.end));
	return new_seq(a, &v, open, close);
}

static Seq *
variant_seq(Arena *a, const Decl *d)
{
	ItemVec v = {0};
	for (int i = 0; i < d->u.variant.ncases; i++) {
		const CaseDecl *c = &d->u.variant.cases[i];
		Item it = leaf(fmt_case_start(c), c->span.end);
		if (c->nfields)
			it.body = fields_seq(a, c->fields, c->nfields, c->name.span.end, fmt_case_close(c));
		VEC_PUSH(v, it);
	}
	return new_seq(a, &v, d->u.variant.name.span.end, d->span.end - 1);
}

/* An empty class prints as `class C { }`, so its comments lead the class. */
static Seq *
class_seq(Arena *a, const Decl *d)
{
	ItemVec v = {0};
	if (d->u.class_.nmembers == 0)
		return NULL;
	for (int i = 0; i < d->u.class_.nmembers; i++) {
		const ClassMember *m = &d->u.class_.members[i];
		uint32_t start = fmt_member_start(m);
		VEC_PUSH(v, m->is_method ? fn_item(a, start, m->span.end, &m->method) : leaf(start, m->span.end));
	}
	return new_seq(a, &v, d->u.class_.name.span.end, d->span.end - 1);
}

/* The body sequence of a declaration, NULL for leaves (interfaces, protocols). */
static Seq *
decl_body(const Fmt *F, Arena *a, const Decl *d)
{
	ItemVec v = {0};
	uint32_t s, e;
	switch (d->kind) {
	case DECL_FN:
		return block_seq(a, d->u.fn.body);
	case DECL_RECORD:
		return fields_seq(a, d->u.record.fields, d->u.record.nfields, d->u.record.name.span.end,
		    fmt_record_close(F, d));
	case DECL_VARIANT:
		return variant_seq(a, d);
	case DECL_CLASS:
		return class_seq(a, d);
	case DECL_RESOURCE:
		if (d->u.resource.ndrops == 0)
			return NULL;   /* the legacy `resource R;` (O112) */
		for (int i = 0; i < d->u.resource.ndrops; i++) {
			fmt_drop_span(F, d, i, &s, &e);
			VEC_PUSH(v, leaf(s, e));
		}
		return new_seq(a, &v, d->u.resource.name.span.end, d->span.end - 1);
	default:
		return NULL;
	}
}

static Seq *
root_seq(const Fmt *F, Arena *a, const Module *m)
{
	ItemVec v = {0};
	for (int i = 0; i < m->nuses; i++)
		VEC_PUSH(v, leaf(m->uses[i].span.start, m->uses[i].span.end));
	if (m->permit.nnames > 0)
		VEC_PUSH(v, leaf(m->permit.span.start, m->permit.span.end));
	for (int i = 0; i < m->ndecls; i++) {
		const Decl *d = &m->decls[i];
		Item it = leaf(d->span.start, d->span.end);
		it.body = decl_body(F, a, d);
		VEC_PUSH(v, it);
	}
	Seq *s = new_seq(a, &v, 0, 0);
	qsort(s->items, (size_t)s->n, sizeof(Item), item_cmp);
	s->top = true;
	return s;
}

/* ==== placing ============================================================================ */

/*
 * Does comment i stick to what precedes it?  It does when it trails a token
 * on that token's line, when it sits on the line right after the previous
 * token, or (our addition, needed for idempotence) when it sits on the line
 * right after a comment that sticks: the comments fmt prints after an item
 * stay attached to it when the output is formatted again.  stick[0..i) are
 * already known.
 */
static bool
sticks(const Fmt *F, const bool *stick, int i)
{
	const Comment *c = &F->comments[i];
	if (!c->own_line)
		return true;
	uint32_t p = c->span.start;
	while (p > 0 && is_space((unsigned char)F->src[p - 1]))
		p--;
	int newlines = 0;
	for (uint32_t k = p; k < c->span.start; k++)
		newlines += F->src[k] == '\n';
	if (i > 0 && F->comments[i - 1].span.end >= p && F->comments[i - 1].span.start < p)
		return newlines == 1 && stick[i - 1];
	return p > 0 && newlines == 1;
}

/* Index of the first item of s that ends after offset o (s->n when none). */
static int
item_at(const Seq *s, uint32_t o)
{
	int lo = 0, hi = s->n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (s->items[mid].end <= o)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static Placed
place_one(const Fmt *F, const Seq *s, int ci, bool stick)
{
	uint32_t o = F->comments[ci].span.start;
	Placed p = { CP_LEADING, 0, ci };
	for (;;) {
		int i = item_at(s, o);
		if (i < s->n) {
			const Item *it = &s->items[i];
			if (o < it->start) {
				bool prev = i > 0 && stick;
				p.place = prev ? CP_TRAILING : CP_LEADING;
				p.key = prev ? s->items[i - 1].start : it->start;
				return p;
			}
			if (it->body && o > it->body->open && o < it->body->close) {
				s = it->body;
				continue;
			}
			p.key = it->start;
			return p;
		}
		if (s->top) {
			p.place = CP_FILE_END;
		} else if (s->n > 0 && stick) {
			p.place = CP_TRAILING;
			p.key = s->items[s->n - 1].start;
		} else {
			p.place = CP_CLOSING;
			p.key = s->close;
		}
		return p;
	}
}

static int
placed_cmp(const void *x, const void *y)
{
	const Placed *a = x, *b = y;
	if (a->place != b->place)
		return a->place < b->place ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

void
fmt_place_comments(Fmt *F, const Module *m)
{
	F->placed = NULL;
	F->nplaced = 0;
	F->comments = m->comments;
	if (!F->src || m->ncomments == 0)
		return;
	Arena a;
	arena_init(&a);
	Seq *root = root_seq(F, &a, m);
	F->placed = spx_xcalloc((size_t)m->ncomments, sizeof(Placed));
	bool *stick = spx_xcalloc((size_t)m->ncomments, sizeof(bool));
	for (int i = 0; i < m->ncomments; i++) {
		stick[i] = sticks(F, stick, i);
		if (m->comments[i].span.start < m->module_span.start) {
			Placed p = { CP_HEADER, 0, i };
			F->placed[i] = p;
		} else {
			F->placed[i] = place_one(F, root, i, stick[i]);
		}
	}
	free(stick);
	F->nplaced = m->ncomments;
	qsort(F->placed, (size_t)F->nplaced, sizeof(Placed), placed_cmp);
	arena_free(&a);
}

/* fmt_comments_at's lookup.  A place's keys are asked for in source order
 * nearly always: the entry where its previous lookup ended is tried before
 * a binary search. */
void
fmt_comments_place(Fmt *F, CommentPlace place, uint32_t key, int depth)
{
	if (F->nplaced == 0)
		return;
	Placed want = { (uint8_t)place, key, -1 };
	int lo = F->hint[place], hi = F->nplaced;
	if (lo > 0 && placed_cmp(&F->placed[lo - 1], &want) >= 0)
		lo = 0;   /* behind the hint: search from the start */
	if (lo < hi && placed_cmp(&F->placed[lo], &want) < 0) {
		lo++;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (placed_cmp(&F->placed[mid], &want) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	int i = lo;
	for (; i < F->nplaced && F->placed[i].place == place && F->placed[i].key == key; i++) {
		const Comment *c = &F->comments[F->placed[i].index];
		buf_indent(F->out, 4 * depth);
		buf_puts(F->out, "//");
		buf_put(F->out, c->text, c->len);
		buf_putc(F->out, '\n');
	}
	F->hint[place] = i;
}
