/*
 * review.c — the read-only review of a semantic patch,
 * `semaprax.semantic-review.v1` (TOOLCHAIN.md §3.7; patch.h).
 *
 * Key orders, section keys, finding codes, dispositions, assessments and
 * the twelve nonclaims are the reference's (compatibility surface); the
 * statements are our own wording.  Every section holds one finding per
 * authored operation, in operation order, each citing the single
 * evidence object `evidence:0` (the top-level `evidence`): for a v1/v2 patch the complete impact
 * report (computed by the caller with the fixed options), for v3 the
 * identity-rebase object `repair` previews.  A section's assessment
 * follows from the set of its dispositions.  `used_output_bytes` is the
 * report's own length (a fixed point).  Any bound exceeded is G120: the
 * review never truncates.
 */
#include "review_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/json.h"
#include "../support/sha256.h"

static const char *const dispositions[] = { "change", "bounded_no_change", "migration_required", "unknown", "not_applicable" };

static const char *const sections[] = {
	"behavior", "api_identity", "security_authority", "memory_ownership", "target_artifact", "migration", "unsafe",
};

/* The operation families the closed finding table is keyed on. */
enum { F_RENAME, F_CALL_INSTANCE, F_REQUIREMENT, F_REBASE };

typedef struct Row {
	const char *code;
	int disposition;
	const char *statement;   /* printf format: %d the operation index, %s its subject */
} Row;

/* [family][section]; the statements are ours, codes and dispositions the reference's. */
static const Row table[4][S_COUNT] = {
	[F_RENAME] = {
		{ "SRV-B101", D_NO_CHANGE, "Operation %d renames %s in the source only; the patched program re-verified with the same expressions, each call and function value resolving to the same stable identity." },
		{ "SRV-A101", D_CHANGE, "Operation %d renames %s; the declaration keeps its stable identity." },
		{ "SRV-S101", D_NO_CHANGE, "Operation %d leaves the effects every declaration uses unchanged, as checked on the patched program." },
		{ "SRV-M101", D_NO_CHANGE, "Operation %d leaves the checked ownership and cleanup of every value unchanged." },
		{ "SRV-T101", D_UNKNOWN, "Operation %d needs a rebuild; whether target artifacts keep their bytes is not established." },
		{ "SRV-G101", D_UNKNOWN, "Operation %d may break consumers that refer to the old name outside this file, which are not reviewed." },
		{ "SRV-U101", D_UNKNOWN, "Operation %d adds no unsafe source construct; generated, native and external code is not analyzed." },
	},
	[F_CALL_INSTANCE] = {
		{ "SRV-B102", D_CHANGE, "Operation %d selects another instance of the generic function for %s." },
		{ "SRV-A102", D_NO_CHANGE, "Operation %d leaves every declaration's stable identity and declared name unchanged." },
		{ "SRV-S102", D_NO_CHANGE, "Operation %d leaves the effects every declaration uses unchanged, as checked on the patched program." },
		{ "SRV-M102", D_NO_CHANGE, "Operation %d replaces only a scalar copy type argument; ownership, cleanup and effects stay as the re-verification checked them." },
		{ "SRV-T102", D_CHANGE, "Operation %d changes which function instance is compiled, and so its backend symbol and artifact." },
		{ "SRV-G102", D_UNKNOWN, "Operation %d may invalidate external caches or tests, which are not run." },
		{ "SRV-U102", D_UNKNOWN, "Operation %d adds no unsafe source construct; generated, native and external code is not analyzed." },
	},
	[F_REQUIREMENT] = {
		{ "SRV-P103", D_NA, "Operation %d is a policy requirement (%s) and changes nothing this section covers." },
		{ "SRV-P103", D_NA, "Operation %d is a policy requirement (%s) and changes nothing this section covers." },
		{ "SRV-S103", D_NO_CHANGE, "Operation %d requires %s; the patched program was checked to use no effect the original did not, and the operation edits no source." },
		{ "SRV-P103", D_NA, "Operation %d is a policy requirement (%s) and changes nothing this section covers." },
		{ "SRV-P103", D_NA, "Operation %d is a policy requirement (%s) and changes nothing this section covers." },
		{ "SRV-P103", D_NA, "Operation %d is a policy requirement (%s) and changes nothing this section covers." },
		{ "SRV-U103", D_UNKNOWN, "Operation %d says nothing about generated, native or external unsafe code." },
	},
	[F_REBASE] = {
		{ "SRV-B104", D_NO_CHANGE, "Operation %d keeps runtime behaviour: only the identity of %s changes, and the patched program re-verified with every call resolving to it." },
		{ "SRV-A104", D_CHANGE, "Operation %d replaces the automatic identity of %s by the persistent one supplied." },
		{ "SRV-S104", D_NO_CHANGE, "Operation %d leaves the effects every declaration uses unchanged, as checked on the patched program." },
		{ "SRV-M104", D_CHANGE, "Operation %d rebases the graph facts that carry the function's identity (callee references, derived ids, cleanup facts); runtime execution is unchanged." },
		{ "SRV-T104", D_CHANGE, "Operation %d changes the function's backend symbol and artifact identity; artifact bytes are not compared." },
		{ "SRV-G104", D_MIGRATION, "Operation %d requires every consumer of the automatic identity to move to the persistent one." },
		{ "SRV-U104", D_UNKNOWN, "Operation %d adds no unsafe source construct; generated, native and external code is not analyzed." },
	},
};

static const char *const nonclaims[] = {
	"not_proof_carrying_patch",
	"no_authenticated_provenance_or_signature",
	"no_human_approval_ui_or_policy",
	"no_public_verify_api_or_proof_artifact",
	"no_lock_stage_apply_or_commit_authority",
	"no_repository_or_multi_file_analysis",
	"no_agent_context_generation_or_embedding",
	"no_test_or_target_execution",
	"no_general_capability_security_unsafe_or_abi_analysis",
	"no_semantic_impact_v3",
	"no_persistence_or_incrementality",
	"no_external_consumer_compatibility",
};

/* The bytes of operation o's words and fragments. */
static size_t
op_bytes(const PatchOp *o)
{
	size_t n = 0;
	for (int k = 0; k < 5; k++)
		n += o->w[k].s ? strlen(o->w[k].s) : 0;
	n += o->to.s ? strlen(o->to.s) : 0;
	n += o->text ? strlen(o->text) : 0;
	n += o->arg ? strlen(o->arg) : 0;
	return n;
}

/* The bytes of a fact's texts a statement may quote (effects, clause). */
static size_t
fact_bytes(const ReviewFact *f)
{
	return (f->added_effects ? strlen(f->added_effects) : 0) + (f->removed_effects ? strlen(f->removed_effects) : 0) +
	    (f->clause ? strlen(f->clause) : 0) + (f->family ? strlen(f->family) : 0) + (f->effects_in ? strlen(f->effects_in) : 0);
}

/* The family of operation o and its subject (quoted selectors) into sub. */
static int
family(const PatchOp *o, char *sub, size_t size)
{
	switch (o->kind) {
	case POP_RENAME: snprintf(sub, size, "`%s` to `%s`", o->w[0].s, o->to.s); return F_RENAME;
	case POP_RENAME_MEMBER: snprintf(sub, size, "member `%s` of `%s` to `%s`", o->w[1].s, o->w[0].s, o->to.s); return F_RENAME;
	case POP_RENAME_CASE: snprintf(sub, size, "case `%s` of `%s` to `%s`", o->w[1].s, o->w[0].s, o->to.s); return F_RENAME;
	case POP_REPLACE_TARG: snprintf(sub, size, "call `%s`", o->w[0].s); return F_CALL_INSTANCE;
	case POP_NO_NEW_EFFECTS: snprintf(sub, size, "`no-new-effects`"); return F_REQUIREMENT;
	case POP_ASSIGN_ID: snprintf(sub, size, "`%s` as `%s`", o->w[2].s, o->to.s); return F_REBASE;
	default: break;
	}
	sub[0] = '\0';
	return F_REQUIREMENT;
}

void
patch_put_digest(Buf *b, const char *domain, const char *data, size_t len)
{
	Sha256 h;
	sha256_init(&h);
	sha256_update(&h, domain, strlen(domain) + 1);
	sha256_field(&h, data, len);
	unsigned char dg[32];
	sha256_final(&h, dg);
	char hex[65];
	sha256_hex(dg, hex);
	buf_printf(b, "\"sha256:%s\"", hex);
}

static bool
over(DiagSink *d, const char *what, size_t used, size_t limit)
{
	if (used <= limit)
		return false;
	Diag *g = diag_report(d, DIAG_G120, NULL, "semantic review bound exceeded: %s %zu, at most %zu", what, used, limit);
	diag_set_help(g, "split the patch or the module; the review never truncates");
	return true;
}

static bool
same_effects(const Sym *x, const Sym *y)
{
	if (x->neffects != y->neffects)
		return false;
	for (int i = 0; i < x->neffects; i++) {
		int k = 0;
		while (k < y->neffects && strcmp(x->effects[i], y->effects[k]) != 0)
			k++;
		if (k == y->neffects)
			return false;
	}
	return true;
}

bool
patch_review_same_security(const SPatch *p, Sema *before, Sema *after, DiagSink *d)
{
	const char *from = p->version == 3 ? p->ops[0].w[2].s : NULL, *to = p->version == 3 ? p->ops[0].to.s : NULL;
	int nb = 0, na = 0;
	/* v4: a function added or deleted brings or takes its own effects */
	bool v4 = patch_has_v4_edit(p);
	for (SymId j = 0; j < after->syms.len; j++)
		na += !sema_sym(after, j)->prelude && sema_sym(after, j)->neffects > 0 &&
		    (!v4 || sema_strmap_get(&before->ids, sema_sym(after, j)->id) >= 0);
	for (SymId i = 0; i < before->syms.len; i++) {
		const Sym *x = sema_sym(before, i);
		if (x->prelude || x->neffects == 0 || (v4 && sema_strmap_get(&after->ids, x->id) < 0))
			continue;
		nb++;
		const char *id = from && strcmp(x->id, from) == 0 ? to : x->id;
		SymId j = 0;
		while (j < after->syms.len && (sema_sym(after, j)->prelude || strcmp(sema_sym(after, j)->id, id) != 0))
			j++;
		if (j == after->syms.len || !same_effects(x, sema_sym(after, j))) {
			diag_report(d, DIAG_G121, NULL, "semantic review: the effects of `%s` changed beyond what the patch admits", x->id);
			return false;
		}
	}
	if (nb != na) {
		diag_report(d, DIAG_G121, NULL, "semantic review: a declaration gained effects beyond what the patch admits");
		return false;
	}
	return true;
}

bool
patch_review(Buf *out, const SPatch *p, const char *src, size_t src_len, const char *patch_text, size_t patch_len,
    const char *base_revision, const char *candidate_revision, const char *evidence, size_t evidence_len,
    const ReviewUsage *u, const ReviewFact *facts, DiagSink *d)
{
	if (over(d, "source bytes", src_len, REVIEW_MAX_SOURCE_BYTES) || over(d, "patch bytes", patch_len, REVIEW_MAX_PATCH_BYTES) ||
	    over(d, "operations", (size_t)p->nops, REVIEW_MAX_OPERATIONS) ||
	    over(d, "declarations", (size_t)u->declarations, REVIEW_MAX_DECLARATIONS) ||
	    over(d, "callables", (size_t)u->callables, REVIEW_MAX_CALLABLES) ||
	    over(d, "call sites", (size_t)u->call_sites, REVIEW_MAX_CALL_SITES) ||
	    over(d, "impact depth", (size_t)u->impact_depth, REVIEW_MAX_IMPACT_DEPTH) ||
	    over(d, "impact nodes", (size_t)u->impact_nodes, REVIEW_MAX_IMPACT_NODES) ||
	    over(d, "impact bytes", u->impact_bytes, REVIEW_MAX_IMPACT_BYTES))
		return false;
	Buf head = {0}, tail = {0};
	buf_puts(&head, "{\"schema\":\"semaprax.semantic-review.v1\",\"source_graph_schema\":\"semaprax.graph.c1\",\"base_revision\":");
	json_cstr(&head, base_revision);
	buf_puts(&head, ",\"candidate_revision\":");
	json_cstr(&head, candidate_revision);
	buf_puts(&head, ",\"source\":{\"digest\":");
	patch_put_digest(&head, "semaprax.semantic-review.source-digest.v1", src, src_len);
	buf_printf(&head, "},\"patch\":{\"schema\":\"%s\",\"digest\":", patch_schema_name(p));
	patch_put_digest(&head, "semaprax.semantic-review.patch-digest.v1", patch_text, patch_len);
	buf_printf(&head,
	    "},\"limits\":{\"max_source_bytes\":%d,\"max_patch_bytes\":%d,\"max_operations\":%d,\"max_declarations\":%d,"
	    "\"max_callables\":%d,\"max_call_sites\":%d,\"max_impact_depth\":%d,\"max_impact_nodes\":%d,\"max_impact_bytes\":%d,"
	    "\"max_output_bytes\":%d},",
	    REVIEW_MAX_SOURCE_BYTES, REVIEW_MAX_PATCH_BYTES, REVIEW_MAX_OPERATIONS, REVIEW_MAX_DECLARATIONS, REVIEW_MAX_CALLABLES,
	    REVIEW_MAX_CALL_SITES, REVIEW_MAX_IMPACT_DEPTH, REVIEW_MAX_IMPACT_NODES, REVIEW_MAX_IMPACT_BYTES, REVIEW_MAX_OUTPUT_BYTES);
	buf_printf(&head,
	    "\"budget\":{\"used_source_bytes\":%zu,\"used_patch_bytes\":%zu,\"used_operations\":%d,\"used_declarations\":%d,"
	    "\"used_callables\":%d,\"used_call_sites\":%d,\"used_impact_depth\":%d,\"used_impact_nodes\":%d,\"used_impact_bytes\":%zu,"
	    "\"used_output_bytes\":",
	    src_len, patch_len, p->nops, u->declarations, u->callables, u->call_sites, u->impact_depth, u->impact_nodes, u->impact_bytes);
	/* the sections, each finding citing the one evidence object */
	buf_puts(&tail, "},\"sections\":{");
	for (int s = 0; s < S_COUNT; s++) {
		unsigned seen = 0;
		Buf f = {0};
		for (int i = 0; i < p->nops; i++) {
			/* room for every word and fragment of the operation, each
			 * quoted up to twice, and the fixed text: never cut */
			size_t size = 2048 + 2 * op_bytes(&p->ops[i]) + (facts ? 2 * fact_bytes(&facts[i]) : 0);
			char *sub = spx_xmalloc(size);
			char *statement = spx_xmalloc(size);
			const char *code;
			int disposition;
			if (p->ops[i].kind >= POP_REPLACE_BODY) {
				static const ReviewFact none;
				patch_review_v4_row(&p->ops[i], i, facts ? &facts[i] : &none, s, &code, &disposition, statement, size);
			} else {
				const Row *r = &table[family(&p->ops[i], sub, size)][s];
				code = r->code;
				disposition = r->disposition;
				snprintf(statement, size, r->statement, i, sub);
			}
			seen |= 1u << disposition;
			buf_printf(&f, "%s{\"code\":\"%s\",\"disposition\":\"%s\",\"statement\":", i ? "," : "", code, dispositions[disposition]);
			json_cstr(&f, statement);
			buf_printf(&f, ",\"operation_indices\":[%d],\"evidence_ids\":[\"evidence:0\"]}", i);
			free(sub);
			free(statement);
		}
		const char *assessment = "mixed";
		if (seen == 0 || seen == 1u << D_NA)
			assessment = "not_applicable";
		else if (seen == 1u << D_CHANGE || seen == 1u << D_MIGRATION)
			assessment = "change_proven";
		else if (seen == 1u << D_NO_CHANGE)
			assessment = "unchanged_within_admitted_domain";
		else if (seen == 1u << D_UNKNOWN)
			assessment = "unknown";
		buf_printf(&tail, "%s\"%s\":{\"kind\":\"%s\",\"assessment\":\"%s\",\"findings\":[", s ? "," : "", sections[s], sections[s], assessment);
		if (f.len)
			buf_put(&tail, f.data, f.len);
		buf_puts(&tail, "]}");
		buf_free(&f);
	}
	bool v3 = p->version == 3;
	buf_printf(&tail, "},\"evidence\":{\"id\":\"evidence:0\",\"kind\":\"%s\",\"schema\":\"%s\",\"digest\":",
	    v3 ? "identity_rebase_v1" : "semantic_impact_v1", v3 ? "semaprax.identity-rebase.v1" : "semaprax.semantic-impact.v1");
	patch_put_digest(&tail, v3 ? "semaprax.semantic-review.identity-rebase-digest.v1" : "semaprax.semantic-review.impact-digest.v1", evidence,
	    evidence_len);
	buf_puts(&tail, v3 ? ",\"identity_rebase\":" : ",\"report\":");
	buf_put(&tail, evidence, evidence_len);
	buf_puts(&tail, "},\"nonclaims\":[");
	for (size_t i = 0; i < sizeof nonclaims / sizeof *nonclaims; i++)
		buf_printf(&tail, "%s\"%s\"", i ? "," : "", nonclaims[i]);
	buf_puts(&tail, "]}");
	/* used_output_bytes is the report's own length */
	size_t n = head.len + tail.len + 1;
	for (int i = 0; i < 4; i++) {
		char num[32];
		n = head.len + tail.len + (size_t)snprintf(num, sizeof num, "%zu", n);
	}
	bool ok = !over(d, "output bytes", n, REVIEW_MAX_OUTPUT_BYTES);
	if (ok) {
		buf_put(out, head.data, head.len);
		buf_printf(out, "%zu", n);
		buf_put(out, tail.data, tail.len);
	}
	buf_free(&head);
	buf_free(&tail);
	return ok;
}
