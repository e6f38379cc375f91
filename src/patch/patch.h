/*
 * patch.h — semantic patches (TOOLCHAIN.md §1.4, docs/PATCH.md): the
 * `.spatch` text formats v1, v2, v3 and our v4, their selectors resolved
 * against one verified program, and the source edits they make.
 *
 * The layer is pure: it reads a patch text and a checked program (AST and
 * Sema, public headers only) and produces byte-range replacements of the
 * source; it never touches a file.  The command (src/cli/cmd_patch.c) loads
 * the program through the driver, applies the edits to a copy, re-verifies
 * the copy (patch_same_meaning compares the two checked programs) and
 * commits it atomically.
 *
 * Diagnostics about the patch (G101…G112, G404, R101, R102) go to a sink
 * whose path and text are the patch file's, with spans into that text.
 */
#ifndef SPX_PATCH_H
#define SPX_PATCH_H

#include "../hir/hir.h"
#include "../parse/ast.h"
#include "../sema/program.h"
#include "../support/diag.h"

typedef enum PatchOpKind {
	POP_RENAME,          /* rename <id> to <name> (functions, resources) */
	POP_RENAME_MEMBER,   /* v2: rename-member owner <record|case> member <field> to <name> */
	POP_RENAME_CASE,     /* v2: rename-case owner <variant> case <case> to <name> */
	POP_REPLACE_TARG,    /* v2: replace-call-type-argument … */
	POP_NO_NEW_EFFECTS,  /* require no-new-effects */
	POP_ASSIGN_ID,       /* v3: assign-function-id repair … to <persistent-id> */
	/* v4 (docs/PATCH.md): */
	POP_REPLACE_BODY,    /* replace-body function <fn-id> with <fragment> */
	POP_REPLACE_EXPR,    /* replace-expression expression <expr-id> with <fragment> */
	POP_ADD_CLAUSE,      /* add-clause function <fn-id> requires|ensures with <fragment> */
	POP_REMOVE_CLAUSE,   /* remove-clause function <fn-id> requires|ensures index <u32> */
	POP_ADD_FUNCTION,    /* add-function after <decl-id> with <fragment> */
	POP_DELETE_FUNCTION, /* delete-function function <fn-id> */
	POP_PARAM_TYPE,      /* change-parameter-type function <fn-id> parameter <u32> from <type> to <type> */
	POP_ADD_PARAM,       /* add-parameter function <fn-id> index <u32> with <name>: <type> [argument <fragment>] */
	POP_ADD_CASE,        /* add-case variant <variant-id> with <fragment> */
	POP_REMOVE_PARAM,    /* remove-parameter function <fn-id> index <u32> */
	POP_REMOVE_CASE,     /* remove-case variant <variant-id> case <case-id-or-name> */
} PatchOpKind;

/* One word of the patch text: an owned NUL-terminated copy and its span. */
typedef struct PatchWord {
	char *s;
	Span span;
	uint32_t lineno;     /* 1-based line of the patch text */
} PatchWord;

typedef struct PatchOp {
	PatchOpKind kind;
	Span line;           /* the instruction's line */
	uint32_t lineno;     /* its 1-based number */
	/* rename: w[0] id, to.  member/case: w[0] owner, w[1] member or case, to.
	 * replace-call-type-argument: w[0] expression, w[1] template,
	 * w[2] old-instance, w[3] index, w[4] from, to.  assign-function-id:
	 * w[0] repair id, w[1] diagnostic, w[2] target, w[3] name, to.
	 * v4: w[0] the function, expression or anchor selector; clauses: w[1]
	 * `requires`|`ensures`, w[2] the index (remove); parameter type: w[1]
	 * index, w[2] from, to.  add-parameter: w[1] the index, w[2] the
	 * parameter's name (text: `name: type`, arg: the argument or NULL).
	 * remove-parameter: w[1] the index.  remove-case: w[1] the case. */
	PatchWord w[5];
	PatchWord to;
	/* v4 fragments (`with …` to the end of the line, or a `<<<` … `>>>`
	 * block): the source text, owned, and its span in the patch */
	char *text;
	Span text_span;
	char *arg;           /* add-parameter's `argument` fragment, or NULL */
	Span arg_span;
} PatchOp;

typedef struct SPatch {
	int version;         /* 1, 2, 3 or 4 */
	PatchWord base;      /* base.s NULL until parsed */
	PatchOp *ops;
	int nops;
	bool no_new_effects;
} SPatch;

/* Parses a patch text; false (with diagnostics in d) when malformed. */
bool patch_parse(SPatch *p, const char *text, size_t len, DiagSink *d);
void patch_free(SPatch *p);
/* "semaprax.semantic-patch.v<N>". */
const char *patch_schema_name(const SPatch *p);

/* A replacement of src[start, end). */
typedef struct PatchEdit {
	uint32_t start, end;
	char *text;          /* owned */
	int op;              /* the operation's index */
	int change;          /* 1 + the index of the one change it serves (an override family's member: its list, its calls); 0: every change of op */
} PatchEdit;

/* What one operation changes (impact's `changes`); strings borrowed from
 * the Sema and the patch. */
typedef struct PatchChange {
	int op;                   /* the first contributing operation */
	const char *target;       /* the renamed declaration's stable id */
	const char *target_kind;  /* function, function_template, resource, field, case_field, variant_case */
	const char *before, *after;
	/* a call instance change (replace-call-type-argument; target NULL): */
	const char *expression;   /* the selector as written */
	const char *containing;   /* the function holding the call */
	const char *containing_kind;
	const char *template_id;
	const char *before_args[8], *after_args[8];
	int nargs;
	char *before_instance, *after_instance;   /* owned, whole (qa31: a 160-byte copy cut long ones) */
	int ops[8];               /* every contributing operation, ascending */
	int nops;
	/* v4 (target NULL): kind `function_body`, `expression`, `contract_clause`,
	 * `parameter_type`, `function_added`, `function_deleted`; `containing`
	 * the function changed (NULL for an added or deleted one, which seeds
	 * no reverse-call closure); before/after the source texts, detail the
	 * clause kind (`requires`/`ensures`) or the parameter's name */
	const char *v4kind;
	const char *function;     /* the selected, deleted or (after verification) added function */
	const char *detail;
	int index;                /* clause or parameter index, or -1 */
	char *before_text, *after_text;   /* owned */
	char *added_id;           /* owned: add-function's new function's (add-case's new case's, remove-case's removed case's) stable id, or NULL */
	/* add-parameter: where the parameter goes in the base source, and the
	 * calls that get the argument; add-case: the matches over the variant
	 * that other operations rewrite (sites); remove-parameter: the calls
	 * that lose the argument; remove-case: the match arms (or alternatives)
	 * removed with the case */
	uint32_t param_at;
	int sites;
} PatchChange;

typedef struct PatchPlan {
	VEC(PatchEdit) edits;   /* sorted by start, non-overlapping */
	VEC(PatchChange) changes;   /* in operation order */
} PatchPlan;

/*
 * Resolves every selector of p against the checked program (m, S and its
 * HIR H over src[0..len), whose revision is `revision`) and computes the
 * edits; a call selector names an expression by the graph's structural
 * identity `declaration:<len>:<function-id>:expression:<index>`; false
 * with diagnostics in d (the patch file's sink) otherwise.  The base is
 * checked first (G409).
 */
bool patch_plan(const SPatch *p, const Module *m, Sema *S, const HirModule *H, const char *src, size_t len,
    const char *revision, DiagSink *d, PatchPlan *out);
/* `semaprax.function-instance.v1:<len>:<template>:<n>:<len>:<arg>…` (the
 * reference's instance identity) into out. */
char *patch_instance_id(const char *template_id, const char *const *args, int nargs);   /* a new block: free it */
void patch_plan_free(PatchPlan *pl);
/* qsort order of PatchEdit: by start, then end, then op. */
int patch_edit_cmp(const void *a, const void *b);
/* The source with the plan's edits applied (malloc, NUL-terminated). */
char *patch_apply(const char *src, size_t len, const PatchPlan *pl, size_t *out_len);

/*
 * After the patched copy verified: true when it means what the original
 * meant but for what the patch selected — the same expressions (a rename
 * adds none), each call and function value resolving to the declaration
 * with the same stable id; G108 into d otherwise.  With `require
 * no-new-effects`, the effects used are a subset of the original's (G105).
 * With a v4 edit (pl's edits tell which functions it touches), every
 * function it does not touch is compared so, expression by expression.
 */
bool patch_same_meaning(const SPatch *p, PatchPlan *pl, Sema *before, Sema *after, DiagSink *d);
/* True when p has a v4 operation (it changes expressions on purpose). */
bool patch_has_v4_edit(const SPatch *p);

/* ---- v4 review facts (review.c) ---- */

/* What the re-verification observed about one v4 operation's function
 * (add-/remove-parameter: every function it edits, the family's members
 * and the holders of the calls it rewrote), before
 * and after: effects its body performs (its own builtin calls and
 * the declared effects of the functions it calls, closures included),
 * `unsafe` blocks, its callers in the base program. */
typedef struct ReviewFact {
	char *added_effects;        /* comma-separated, NULL or "" when none; heap (patch_review_facts_free) */
	char *removed_effects;
	int unsafe_before, unsafe_after;
	int callers;                /* call sites and function values naming it, other functions */
	const char *clause;         /* replace-expression inside a `requires`/`ensures` clause, else NULL */
	int sites;                  /* add-parameter: the calls given the argument; add-case: the matches other operations replace;
	                               remove-parameter: the calls that lose the argument; remove-case: the arms removed */
	char *family;               /* add-/remove-parameter of a method with overrides: every changed method's id, "a`, `b` and `c" (heap), else NULL */
	char *effects_in;           /* add-/remove-parameter editing more than one function (a family's members, the calls' holders):
	                               those whose effects changed, "`a`, `b`" (heap), else NULL */
	bool method;                /* add-/remove-parameter of a method: the index counts after `self` */
	bool has_fact;
} ReviewFact;

/* The facts of every operation of p (facts[nops]) from the two checked
 * programs and their HIR. */
void patch_review_facts(const SPatch *p, const PatchPlan *pl, Sema *before, const HirModule *hb, Sema *after,
    const HirModule *ha, ReviewFact *facts);
/* Frees facts[0..n) and the array. */
void patch_review_facts_free(ReviewFact *facts, int n);

/* ---- impact (TOOLCHAIN.md §3.6, impact.c) ---- */

typedef struct ImpactQuery {
	int depth;         /* 0..1024, default 1 */
	long max_bytes;    /* 1 KiB..16 MiB, default 64 KiB */
	int max_nodes;     /* 1..65536, default 256 */
} ImpactQuery;

/*
 * The `semaprax.semantic-impact.v1` report of a planned v1/v2 patch (one
 * line, no newline) into out; false with G109 in d when its mandatory part
 * cannot fit q->max_bytes.  Renames are source projections: their
 * consumers are listed, and they affect no function.  A call instance
 * change seeds the reverse-call closure `nodes` (the caller computes it
 * from the graph model; sorted by depth, then stable id), of which the
 * largest prefix within q's bounds is listed, the rest counted.  extra
 * (NULL: none): members (`,"key":value…`) that end the report, never
 * truncated (a project module's `cross_module_callers`).
 */
/* One callable of the reverse-call closure of the behavioural changes. */
typedef struct ImpactNode {
	const char *id;
	const char *kind;    /* function, function_template */
	int depth;           /* 0: holds a changed call */
	int *ops;            /* operations reaching it at that depth, ascending; heap, all of them */
	int nops, cap;
} ImpactNode;

bool patch_impact(Buf *out, const SPatch *p, const PatchPlan *pl, Sema *S, const char *patch_text, size_t patch_len,
    const char *base_revision, const char *candidate_revision, const ImpactQuery *q,
    const ImpactNode *nodes, int nnodes, const char *extra, DiagSink *d);

/* ---- review (TOOLCHAIN.md §3.7, review.c) ---- */

/* The review's hard bounds (the reference's); exceeding one is G120. */
#define REVIEW_MAX_SOURCE_BYTES 16777216
#define REVIEW_MAX_PATCH_BYTES 4194304
#define REVIEW_MAX_OPERATIONS 4096
#define REVIEW_MAX_DECLARATIONS 4096
#define REVIEW_MAX_CALLABLES 1024
#define REVIEW_MAX_CALL_SITES 65536
#define REVIEW_MAX_IMPACT_DEPTH 1024
#define REVIEW_MAX_IMPACT_NODES 1024
#define REVIEW_MAX_IMPACT_BYTES 16777216
#define REVIEW_MAX_OUTPUT_BYTES 33554432

/* What the reviewed program and its evidence used (the `budget`). */
typedef struct ReviewUsage {
	int declarations;    /* declarations and their members (fields, cases, case fields) */
	int callables;       /* authored functions and methods */
	int call_sites;      /* calls and function values naming a function */
	int impact_depth;    /* v1/v2: the deepest affected function; v3: 0 */
	int impact_nodes;    /* v1/v2: affected functions; v3: 0 */
	size_t impact_bytes; /* v1/v2: the embedded impact report's length; v3: 0 */
} ReviewUsage;

/*
 * The `semaprax.semantic-review.v1` report (one line, no newline) of a
 * verified patch p of src into out: seven sections, one finding per
 * operation, and the evidence object embedding `evidence` (v1/v2: the
 * complete impact report; v3: the identity-rebase object).  False with
 * G120 in d when a bound is exceeded.
 */
bool patch_review(Buf *out, const SPatch *p, const char *src, size_t src_len, const char *patch_text, size_t patch_len,
    const char *base_revision, const char *candidate_revision, const char *evidence, size_t evidence_len,
    const ReviewUsage *u, const ReviewFact *facts, DiagSink *d);

/* True when every declaration of the patched program (after) declares
 * the effects it declared before (v3: the rebased function under its new
 * id) — what the security_authority findings state; G121 into d otherwise. */
bool patch_review_same_security(const SPatch *p, Sema *before, Sema *after, DiagSink *d);

/* `"sha256:<hex>"` (quoted JSON) of data under the domain-separated
 * digest: the domain with its NUL, then data as a length-prefixed field. */
void patch_put_digest(Buf *b, const char *domain, const char *data, size_t len);

/* "sha256:<hex>" of the repair assigning a persistent id to the automatic
 * function `target` at `revision`. */
void patch_repair_id(const char *revision, const char *target, char out[72]);
/* NULL when id is a valid persistent id not used in S, else why not. */
const char *patch_persistent_id_problem(Sema *S, const char *id);
/* The function symbol with automatic id `target` eligible for the repair
 * (S103 reported, not `main`), or -1. */
SymId patch_repair_target(Sema *S, const char *target);
/* How many calls and function values in f (contracts and body) name fn. */
int patch_uses_in(Sema *S, const FnDecl *f, SymId fn);

#endif
