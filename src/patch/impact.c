/*
 * impact.c — the read-only preview of a semantic patch,
 * `semaprax.semantic-impact.v1` (TOOLCHAIN.md §3.6; patch.h).
 *
 * Key orders follow the reference's report.  Each operation is listed as
 * written; each change (one per rename) carries its source consumers: the
 * innermost declaration holding each planned edit (function or method, resource,
 * record, field, variant, case, case field, interface, import), with the
 * role `declaration` when the edit is that declaration's own name and
 * `reference` otherwise, and the number of sites.  A rename is a source
 * projection: it changes no behaviour, so it seeds no reverse-call closure
 * (as the reference's).  A `replace-call-type-argument` change is
 * behavioural: the function holding the call and its callers, by reverse
 * call depth, are `affected_functions` (the closure comes from the
 * caller, patch.h), cut to the query's depth, node and byte bounds with a
 * frontier at the first omitted depth.
 */
#include "patch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/json.h"
#include "../support/sha256.h"

/* The closed consumer kind order. */
static const char *const kinds[] = {
	"function", "function_template", "resource", "record", "field", "variant", "variant_case", "case_field", "interface", "import",
};
enum { K_FN, K_FN_TEMPLATE, K_RESOURCE, K_RECORD, K_FIELD, K_VARIANT, K_CASE, K_CASE_FIELD, K_INTERFACE, K_IMPORT };

typedef struct Container {
	uint32_t start, end;          /* the declaration */
	uint32_t name_start, name_end;
	int kind;
	const char *id;
	bool explicit_id;
} Container;

typedef VEC(Container) ContainerVec;

typedef struct Consumer {
	int kind;
	const char *id;
	bool explicit_id;
	bool declaration, reference;
	int sites;
} Consumer;

static void
add(ContainerVec *v, Span span, Span name, int kind, const char *id, bool explicit_id)
{
	Container c = { span.start, span.end, name.start, name.end, kind, id, explicit_id };
	VEC_PUSH(*v, c);
}

/* Every declaration that can hold an edit, from the symbols and their syntax. */
static void
containers(Sema *S, ContainerVec *v)
{
	for (SymId i = 0; i < S->syms.len; i++) {
		Sym *y = sema_sym(S, i);
		if (y->prelude || !y->decl)
			continue;
		const Decl *d = y->decl;
		switch (y->kind) {
		case SK_FN:
			add(v, d->span, y->name_span, y->ntparams ? K_FN_TEMPLATE : K_FN, y->id, y->explicit_id);
			break;
		case SK_METHOD:
			/* a method is a callable (as the closure's nodes say): from its `fn` to its body's end */
			add(v, y->span, y->name_span, y->ntparams ? K_FN_TEMPLATE : K_FN, y->id, y->explicit_id);
			break;
		case SK_RESOURCE: add(v, d->span, y->name_span, K_RESOURCE, y->id, y->explicit_id); break;
		case SK_RECORD:
			add(v, d->span, y->name_span, K_RECORD, y->id, y->explicit_id);
			if (d->kind == DECL_RECORD)
				for (int f = 0; f < d->u.record.nfields && f < y->nom->nfields; f++)
					add(v, d->u.record.fields[f].span, d->u.record.fields[f].name.span, K_FIELD, y->nom->fields[f].id, y->nom->fields[f].explicit_id);
			break;
		case SK_VARIANT:
			add(v, d->span, y->name_span, K_VARIANT, y->id, y->explicit_id);
			if (d->kind == DECL_VARIANT)
				for (int c = 0; c < d->u.variant.ncases && c < y->nom->ncases; c++) {
					const CaseDecl *cd = &d->u.variant.cases[c];
					add(v, cd->span, cd->name.span, K_CASE, y->nom->cases[c].id, y->nom->cases[c].explicit_id);
					for (int f = 0; f < cd->nfields && f < y->nom->cases[c].nfields; f++)
						add(v, cd->fields[f].span, cd->fields[f].name.span, K_CASE_FIELD, y->nom->cases[c].fields[f].id,
						    y->nom->cases[c].fields[f].explicit_id);
				}
			break;
		case SK_INTERFACE: add(v, d->span, y->name_span, K_INTERFACE, y->id, y->explicit_id); break;
		default: break;
		}
	}
}

static int
consumer_cmp(const void *a, const void *b)
{
	const Consumer *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return strcmp(x->id, y->id);
}

static bool
has_op(const PatchChange *c, int op)
{
	for (int i = 0; i < c->nops; i++)
		if (c->ops[i] == op)
			return true;
	return false;
}

/* The consumers of change c's edits (sorted), into list. */
static int
consumers_of(const PatchPlan *pl, const PatchChange *ch, const Container *cs, int ncs, Consumer **list)
{
	int n = 0;
	*list = NULL;
	for (int i = 0; i < pl->edits.len; i++) {
		const PatchEdit *e = &pl->edits.items[i];
		if (!has_op(ch, e->op) || (e->change > 0 && &pl->changes.items[e->change - 1] != ch))
			continue;
		const Container *best = NULL;
		for (int k = 0; k < ncs; k++) {
			const Container *c = &cs[k];
			if (c->start <= e->start && e->end <= c->end && (!best || c->end - c->start < best->end - best->start))
				best = c;
		}
		if (!best)
			continue;
		bool decl = best->name_start == e->start && best->name_end == e->end;
		int j = 0;
		while (j < n && !((*list)[j].kind == best->kind && strcmp((*list)[j].id, best->id) == 0))
			j++;
		if (j == n) {
			*list = spx_xrealloc(*list, sizeof **list * (size_t)(n + 1));
			Consumer z = { best->kind, best->id, best->explicit_id, false, false, 0 };
			(*list)[n++] = z;
		}
		(*list)[j].sites++;
		if (decl)
			(*list)[j].declaration = true;
		else
			(*list)[j].reference = true;
	}
	if (n > 1)
		qsort(*list, (size_t)n, sizeof **list, consumer_cmp);
	return n;
}

/* The v4 operations but change-parameter-type, after `"kind":`. */
static void
put_v4_operation(Buf *b, const PatchOp *o)
{
	static const char *const names[] = { "replace_body", "replace_expression", "add_clause", "remove_clause", "add_function", "delete_function" };
	static const char *const selector[] = { "function", "expression", "function", "function", "after", "function" };
	int k = (int)o->kind - (int)POP_REPLACE_BODY;
	buf_printf(b, "\"%s\",\"%s\":", names[k], selector[k]);
	json_cstr(b, o->w[0].s);
	if (o->kind == POP_ADD_CLAUSE || o->kind == POP_REMOVE_CLAUSE)
		buf_printf(b, ",\"clause\":\"%s\"", o->w[1].s);
	if (o->kind == POP_REMOVE_CLAUSE)
		buf_printf(b, ",\"clause_index\":%s", o->w[2].s);
	if (o->text) {
		buf_puts(b, ",\"fragment\":");
		json_cstr(b, o->text);
	}
	buf_putc(b, '}');
}

/* A v4 change object's fields after `{"kind":…`. */
static void
put_v4_change(Buf *b, const PatchChange *c)
{
	const char *cls = "behavioral_body";
	if (strcmp(c->v4kind, "expression") == 0)
		cls = "behavioral_expression";
	else if (strcmp(c->v4kind, "contract_clause") == 0)
		cls = strcmp(c->detail, "requires") == 0 ? "contract_precondition" : "contract_postcondition";
	else if (strcmp(c->v4kind, "parameter_type") == 0)
		cls = "signature";
	else if (strcmp(c->v4kind, "parameter_added") == 0 || strcmp(c->v4kind, "parameter_removed") == 0)
		cls = "signature";
	else if (strcmp(c->v4kind, "function_added") == 0 || strcmp(c->v4kind, "case_added") == 0)
		cls = "declaration_added";
	else if (strcmp(c->v4kind, "function_deleted") == 0 || strcmp(c->v4kind, "case_removed") == 0)
		cls = "declaration_removed";
	buf_printf(b, "{\"kind\":\"%s\"", c->v4kind);
	if (c->expression) {
		buf_puts(b, ",\"expression\":");
		json_cstr(b, c->expression);
		buf_printf(b, ",\"region\":\"%s\"", c->detail ? c->detail : "body");
	}
	if (strcmp(c->v4kind, "case_added") == 0 || strcmp(c->v4kind, "case_removed") == 0) {
		/* the variant, and the new case's id (after verification), or the removed one's */
		buf_puts(b, ",\"variant\":");
		json_cstr(b, c->detail);
		buf_puts(b, ",\"case\":");
		if (c->added_id && c->added_id[0])
			json_cstr(b, c->added_id);
		else
			buf_puts(b, "null");
	} else {
		const char *fn = strcmp(c->v4kind, "function_added") == 0 ? (c->added_id && c->added_id[0] ? c->added_id : NULL) : c->function;
		buf_puts(b, ",\"function\":");
		if (fn)
			json_cstr(b, fn);
		else
			buf_puts(b, "null");
	}
	if (strcmp(c->v4kind, "parameter_added") == 0 || strcmp(c->v4kind, "parameter_removed") == 0) {
		buf_puts(b, ",\"parameter\":");
		json_cstr(b, c->detail);
		buf_printf(b, ",\"parameter_index\":%d,\"call_sites\":%d", c->index, c->sites);
	} else if (strcmp(c->v4kind, "case_removed") == 0) {
		buf_printf(b, ",\"arms_removed\":%d", c->sites);
	} else if (strcmp(c->v4kind, "function_added") == 0) {
		buf_puts(b, ",\"anchor\":");
		json_cstr(b, c->detail);
	} else if (strcmp(c->v4kind, "contract_clause") == 0) {
		buf_printf(b, ",\"clause\":\"%s\",\"clause_index\":%d", c->detail, c->index);
	} else if (strcmp(c->v4kind, "parameter_type") == 0) {
		buf_puts(b, ",\"parameter\":");
		json_cstr(b, c->detail);
		buf_printf(b, ",\"parameter_index\":%d", c->index);
	}
	buf_puts(b, ",\"before_text\":");
	if (c->before_text)
		json_cstr(b, c->before_text);
	else
		buf_puts(b, "null");
	buf_puts(b, ",\"after_text\":");
	if (c->after_text)
		json_cstr(b, c->after_text);
	else
		buf_puts(b, "null");
	buf_printf(b, ",\"classification\":\"%s\"", cls);
}

static void
put_operation(Buf *b, const PatchOp *o, int i)
{
	buf_printf(b, "{\"index\":%d,\"kind\":", i);
	switch (o->kind) {
	case POP_RENAME:
		buf_puts(b, "\"rename\",\"target\":");
		json_cstr(b, o->w[0].s);
		break;
	case POP_RENAME_MEMBER:
		buf_puts(b, "\"rename_member\",\"owner\":");
		json_cstr(b, o->w[0].s);
		buf_puts(b, ",\"member\":");
		json_cstr(b, o->w[1].s);
		break;
	case POP_RENAME_CASE:
		buf_puts(b, "\"rename_case\",\"owner\":");
		json_cstr(b, o->w[0].s);
		buf_puts(b, ",\"case\":");
		json_cstr(b, o->w[1].s);
		break;
	case POP_REPLACE_TARG:
		buf_puts(b, "\"replace_call_type_argument\",\"expression\":");
		json_cstr(b, o->w[0].s);
		buf_puts(b, ",\"template\":");
		json_cstr(b, o->w[1].s);
		buf_puts(b, ",\"old_instance\":");
		json_cstr(b, o->w[2].s);
		buf_printf(b, ",\"argument_index\":%s,\"from\":", o->w[3].s);
		json_cstr(b, o->w[4].s);
		break;
	case POP_NO_NEW_EFFECTS:
		buf_puts(b, "\"require_no_new_effects\"}");
		return;
	case POP_ASSIGN_ID:
		buf_puts(b, "\"assign_function_id\"}");
		return;
	case POP_REPLACE_BODY:
	case POP_REPLACE_EXPR:
	case POP_ADD_CLAUSE:
	case POP_REMOVE_CLAUSE:
	case POP_ADD_FUNCTION:
	case POP_DELETE_FUNCTION:
		put_v4_operation(b, o);
		return;
	case POP_ADD_PARAM:
		buf_puts(b, "\"add_parameter\",\"function\":");
		json_cstr(b, o->w[0].s);
		buf_printf(b, ",\"parameter_index\":%s,\"fragment\":", o->w[1].s);
		json_cstr(b, o->text);
		buf_puts(b, ",\"argument\":");
		if (o->arg)
			json_cstr(b, o->arg);
		else
			buf_puts(b, "null");
		buf_putc(b, '}');
		return;
	case POP_ADD_CASE:
		buf_puts(b, "\"add_case\",\"variant\":");
		json_cstr(b, o->w[0].s);
		buf_puts(b, ",\"fragment\":");
		json_cstr(b, o->text);
		buf_putc(b, '}');
		return;
	case POP_REMOVE_PARAM:
		buf_puts(b, "\"remove_parameter\",\"function\":");
		json_cstr(b, o->w[0].s);
		buf_printf(b, ",\"parameter_index\":%s}", o->w[1].s);
		return;
	case POP_REMOVE_CASE:
		buf_puts(b, "\"remove_case\",\"variant\":");
		json_cstr(b, o->w[0].s);
		buf_puts(b, ",\"case\":");
		json_cstr(b, o->w[1].s);
		buf_putc(b, '}');
		return;
	case POP_PARAM_TYPE:
		buf_puts(b, "\"change_parameter_type\",\"function\":");
		json_cstr(b, o->w[0].s);
		buf_printf(b, ",\"parameter_index\":%s,\"from\":", o->w[1].s);
		json_cstr(b, o->w[2].s);
		break;
	}
	buf_puts(b, ",\"to\":");
	json_cstr(b, o->to.s);
	buf_putc(b, '}');
}

bool
patch_impact(Buf *out, const SPatch *p, const PatchPlan *pl, Sema *S, const char *patch_text, size_t patch_len,
    const char *base_revision, const char *candidate_revision, const ImpactQuery *q,
    const ImpactNode *nodes, int nnodes, const char *extra, DiagSink *d)
{
	ContainerVec cs = {0};
	containers(S, &cs);
	Buf head = {0}, tail = {0};
	buf_puts(&head, "{\"schema\":\"semaprax.semantic-impact.v1\",\"source_graph_schema\":\"semaprax.graph.c1\",\"base_revision\":");
	json_cstr(&head, base_revision);
	buf_puts(&head, ",\"candidate_revision\":");
	json_cstr(&head, candidate_revision);
	/* the patch digest binds the exact bytes read */
	static const char domain[] = "semaprax.semantic-impact.patch-digest.v1";
	Sha256 h;
	sha256_init(&h);
	sha256_update(&h, domain, sizeof domain);
	sha256_field(&h, patch_text, patch_len);
	unsigned char dg[32];
	char hex[65];
	sha256_final(&h, dg);
	sha256_hex(dg, hex);
	buf_printf(&head, ",\"patch\":{\"schema\":\"%s\",\"digest\":\"sha256:%s\"},\"operations\":[", patch_schema_name(p), hex);
	for (int i = 0; i < p->nops; i++) {
		if (i)
			buf_putc(&head, ',');
		put_operation(&head, &p->ops[i], i);
	}
	buf_puts(&head, "],\"changes\":[");
	for (int i = 0; i < pl->changes.len; i++) {
		const PatchChange *c = &pl->changes.items[i];
		if (i)
			buf_putc(&head, ',');
		if (c->v4kind) {
			put_v4_change(&head, c);
		} else if (c->target) {
			buf_puts(&head, "{\"kind\":\"rename\",\"target\":");
			json_cstr(&head, c->target);
			buf_printf(&head, ",\"target_kind\":\"%s\",\"before\":", c->target_kind);
			json_cstr(&head, c->before);
			buf_puts(&head, ",\"after\":");
			json_cstr(&head, c->after);
			buf_puts(&head, ",\"classification\":\"source_projection\"");
		} else {
			buf_puts(&head, "{\"kind\":\"call_instance\",\"expression\":");
			json_cstr(&head, c->expression);
			buf_puts(&head, ",\"containing_function\":");
			json_cstr(&head, c->containing);
			buf_printf(&head, ",\"containing_kind\":\"%s\",\"template\":", c->containing_kind);
			json_cstr(&head, c->template_id);
			for (int pass = 0; pass < 2; pass++) {
				buf_puts(&head, pass ? ",\"after_type_arguments\":[" : ",\"before_type_arguments\":[");
				for (int k = 0; k < c->nargs; k++) {
					if (k)
						buf_putc(&head, ',');
					json_cstr(&head, pass ? c->after_args[k] : c->before_args[k]);
				}
				buf_putc(&head, ']');
			}
			buf_puts(&head, ",\"before_instance\":");
			json_cstr(&head, c->before_instance);
			buf_puts(&head, ",\"after_instance\":");
			json_cstr(&head, c->after_instance);
			buf_puts(&head, ",\"classification\":\"behavioral_call_instance\"");
		}
		buf_puts(&head, ",\"operation_indices\":[");
		for (int k = 0; k < c->nops; k++)
			buf_printf(&head, k ? ",%d" : "%d", c->ops[k]);
		buf_puts(&head, "],\"source_consumers\":[");
		Consumer *list = NULL;
		/* an added function is no consumer of its anchor */
		int n = c->v4kind && strcmp(c->v4kind, "function_added") == 0 ? 0 : consumers_of(pl, c, cs.items, cs.len, &list);
		for (int k = 0; k < n; k++) {
			buf_puts(&head, k ? ",{\"id\":" : "{\"id\":");
			json_cstr(&head, list[k].id);
			buf_printf(&head, ",\"kind\":\"%s\",\"identity_origin\":\"%s\",\"roles\":[%s%s%s],\"site_count\":%d}", kinds[list[k].kind],
			    list[k].explicit_id ? "explicit" : "automatic", list[k].declaration ? "\"declaration\"" : "",
			    list[k].declaration && list[k].reference ? "," : "", list[k].reference ? "\"reference\"" : "", list[k].sites);
		}
		free(list);
		buf_puts(&head, "]}");
	}
	buf_printf(&head, "],\"query\":{\"direction\":\"reverse\",\"depth\":%d,\"max_bytes\":%ld,\"max_nodes\":%d},\"budget\":{\"used_bytes\":",
	    q->depth, q->max_bytes, q->max_nodes);
	/* the largest prefix of the closure within the bounds */
	int within = 0;
	while (within < nnodes && nodes[within].depth <= q->depth)
		within++;
	int k = within < q->max_nodes ? within : q->max_nodes;
	bool ok = false;
	size_t total = 0;
	for (; k >= 0; k--) {
		buf_free(&tail);
		int max_depth = k > 0 ? nodes[k - 1].depth : 0;
		buf_printf(&tail, ",\"used_nodes\":%d,\"max_depth_used\":%d},\"truncation\":{\"truncated\":%s,\"reasons\":[", k, max_depth,
		    k < nnodes ? "true" : "false");
		/* why the closure was cut after k nodes */
		const char *reasons[3];
		int nr = 0;
		if (k < nnodes) {
			if (nodes[k].depth > q->depth)
				reasons[nr++] = "depth";
			else if (k == q->max_nodes && k == (within < q->max_nodes ? within : q->max_nodes))
				reasons[nr++] = "max_nodes";
			else
				reasons[nr++] = "max_bytes";
		}
		for (int r = 0; r < nr; r++)
			buf_printf(&tail, r ? ",\"%s\"" : "\"%s\"", reasons[r]);
		int fend = k;
		while (fend < nnodes && nodes[fend].depth == nodes[k < nnodes ? k : 0].depth)
			fend++;
		buf_printf(&tail, "],\"omitted_known_nodes\":%d,\"deferred_known_nodes\":%d},\"frontier\":[", nnodes - k, nnodes - fend);
		for (int j = k; j < fend; j++) {
			buf_puts(&tail, j > k ? ",{\"id\":" : "{\"id\":");
			json_cstr(&tail, nodes[j].id);
			buf_printf(&tail, ",\"kind\":\"%s\",\"depth\":%d,\"reasons\":[", nodes[j].kind, nodes[j].depth);
			for (int r = 0; r < nr; r++)
				buf_printf(&tail, r ? ",\"%s\"" : "\"%s\"", reasons[r]);
			buf_puts(&tail, "],\"operation_indices\":[");
			for (int o = 0; o < nodes[j].nops; o++)
				buf_printf(&tail, o ? ",%d" : "%d", nodes[j].ops[o]);
			buf_puts(&tail, "]}");
		}
		buf_puts(&tail, "],\"affected_functions\":[");
		for (int j = 0; j < k; j++) {
			buf_puts(&tail, j ? ",{\"id\":" : "{\"id\":");
			json_cstr(&tail, nodes[j].id);
			buf_printf(&tail, ",\"kind\":\"%s\",\"depth\":%d,\"operation_indices\":[", nodes[j].kind, nodes[j].depth);
			for (int o = 0; o < nodes[j].nops; o++)
				buf_printf(&tail, o ? ",%d" : "%d", nodes[j].ops[o]);
			buf_puts(&tail, "]}");
		}
		buf_putc(&tail, ']');
		if (extra)
			buf_puts(&tail, extra);
		buf_putc(&tail, '}');
		/* used_bytes is the report's own length: a fixed point */
		size_t n = head.len + tail.len + 1;
		for (int i = 0; i < 4; i++) {
			char num[32];
			n = head.len + tail.len + (size_t)snprintf(num, sizeof num, "%zu", n);
		}
		total = n;
		if (n <= (size_t)q->max_bytes) {
			buf_put(out, head.data, head.len);
			buf_printf(out, "%zu", n);
			buf_put(out, tail.data, tail.len);
			ok = true;
			break;
		}
	}
	if (!ok) {
		/* the bound's two spellings: the CLI's flag and the service's
		 * parameter (agent40: an MCP agent was told of a flag it has not) */
		Diag *g = diag_report(d, DIAG_G109, NULL, "the impact report needs %zu bytes, more than the byte bound %ld", total, q->max_bytes);
		diag_set_help(g, "raise the bound to at least %zu: `--max-bytes %zu`, or `\"max_bytes\": %zu` in a service request (operations, changes and their consumers are never truncated)",
		    total, total, total);
	}
	buf_free(&head);
	buf_free(&tail);
	VEC_FREE(cs);
	return ok;
}
