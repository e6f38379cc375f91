/*
 * plan_int.h — what the planners of plan.c (v1-v3) and plan_v4.c, and the
 * meaning comparison of plan_meaning.c, share: the planner state and the
 * syntax walk over the module.
 */
#ifndef SPX_PATCH_PLAN_INT_H
#define SPX_PATCH_PLAN_INT_H

#include "patch.h"

typedef struct Planner Planner;
struct Planner {
	const Module *m;
	Sema *S;
	const HirModule *H;
	const char *src;
	DiagSink *d;
	PatchPlan *out;
	int op;                  /* index of the operation being planned */
	const PatchOp *o;
	/* the target */
	SymId sym;               /* rename: fn/resource; member/case: record or variant */
	int ci;                  /* member of a case / rename-case: the case index (else -1) */
	const char *old, *new_;  /* member/case/resource names */
	/* walk state */
	const Name *tp;          /* type parameters in scope (declaration) */
	int ntp;
	const Name *tp2;         /* … and a method's own */
	int ntp2;
	SymId invariants_of;     /* walking the invariants of this record, else -1 */
	void (*on_expr)(Planner *, const Expr *);
	void (*on_pat)(Planner *, const Pattern *);
	void (*on_type)(Planner *, const Type *);
	void (*on_stmt)(Planner *, const Stmt *);
	/* replace-call-type-argument: the call found by its span */
	Span call_span;
	const Expr *call;
	/* v4 */
	void *user;              /* a walk's own state */
	const Expr *parent;      /* the expression holding the one visited (NULL at the top) */
	const Expr *found, *found_parent;
	const Decl *found_decl;
	uint32_t want_start, want_end;
};


/* Every expression, pattern and type annotation of the module, in source order. */
/* A bracketed, comma-separated list of the source (plan_add.c). */
typedef struct List {
	uint32_t open, close;    /* the `(` and `)` */
	uint32_t want_at;        /* the first byte of item `want` */
	uint32_t want_end;       /* the end of item `want`'s last token */
	uint32_t next_at;        /* the first byte of item `want + 1` */
	uint32_t prev_end;       /* the end of item `want - 1`'s last token */
	uint32_t last_at;        /* the first byte of the last item */
	int nitems;
	uint32_t last_end;       /* the end of the last item's last token */
	bool ok;
} List;

/* The list in src[from, to): the first `(` matched forward, or (backward)
 * the last token, a `)`, matched backward, read by its tokens; item `want`
 * and its neighbours are remembered whatever the list's length. */
List patch_list_in(const char *src, uint32_t from, uint32_t to, bool backward, uint32_t want);
/* The declaration a written type name denotes (the checker's lookup), or -1. */
SymId patch_type_sym(const Planner *P, const char *name);
/* Append the structural identity of the expression written at span s
 * (`declaration:<len>:<fn>:expression:<k>`); false when none has it. */
bool patch_expr_id_of(const HirModule *H, Span s, Buf *out);
/* The v4 change of operation op, or NULL. */
PatchChange *patch_v4_change_of(Planner *P, int op);

/* P zeroed, for S, with no target symbol, case or invariant walk (-1). */
void patch_planner_init(Planner *P, Sema *S);
void patch_walk_module(Planner *P);
/* The module walked for operation i of p (selecting sym) with cb on every
 * expression: the operation's count (ci) and first find reset first. */
void patch_walk_op(Planner *P, const SPatch *p, int i, SymId sym, void (*cb)(Planner *, const Expr *));
void patch_walk_fn(Planner *P, const FnDecl *f);
void patch_walk_expr(Planner *P, const Expr *e);
void patch_add_edit(Planner *P, Span at, const char *text);
/* Fragments stay in their place (plan_v4.c; G108): before the re-check,
 * by their tokens; after it, each is exactly one expression or declaration. */
bool patch_edits_in_place(const SPatch *p, const PatchPlan *pl, const char *src, size_t len, DiagSink *d);
bool patch_fragments_whole(const SPatch *p, const PatchPlan *pl, Sema *after, DiagSink *d);
const char *patch_kind_name(SymKind k);
/* A member (field, case, case field) with this stable id: its kind, and its owner. */
const char *patch_member_kind(Sema *S, const char *id, SymId *owner);
/* The symbol with stable id w, or -1: then *mk is the kind of the member
 * with that id (patch_member_kind, *owner its owner), or NULL after G404
 * "stable id does not exist" was reported. */
SymId patch_lookup_id(Planner *P, const PatchWord *w, const char **mk, SymId *owner);

/* `declaration:<len>:<id>:expression:<index>` → id (in buf) and index. */
bool patch_parse_expression_id(const char *s, char *id, size_t size, uint32_t *index);
/* The lowered function of H (may be NULL) with stable id fid, or NULL. */
const HirFunc *patch_hir_fn(const HirModule *H, const char *fid);
/* The expression of f numbered index (preorder within the function, as
 * `semaprax graph` numbers them; unique, hir/validate.c), or NULL. */
const HirExpr *patch_hir_expr(const HirFunc *f, uint32_t index);

/* v4 planners (plan_v4.c); false after diagnostics. */
bool patch_plan_v4(Planner *P);
/* What plan_v4.c and plan_add.c share: the blanks at the start of off's
 * line; a fragment re-indented (common blanks removed, indent[0..n) added
 * to every line but, unless first, the first); the function or method
 * (methods) with stable id w, else G404/G107; G112 with a help (or the
 * default one), or for an index past n ("what"s numbered from 0); a v4
 * change of the operation being planned. */
uint32_t patch_indent_len(const char *src, uint32_t off);
char *patch_reindent(const char *text, const char *indent, uint32_t n, bool first);
SymId patch_select_fn(Planner *P, const PatchWord *w, bool methods, const char *op);
bool patch_stale_help(Planner *P, const PatchWord *w, const char *why, const char *help);
bool patch_stale_index(Planner *P, const PatchWord *w, const char *why, const char *what, unsigned long n);
PatchChange *patch_v4_change(Planner *P, const char *kind, const Sym *fn, const char *detail, int index);
/* add-parameter and add-case (plan_add.c): the operation's own edits; after
 * every operation is planned, the arguments at the calls no other operation
 * replaces (patch_v4_add_arguments), and M101 for a match over a variant
 * that gains a case, has no catch-all arm and is not replaced
 * (patch_v4_check_cases).  False after diagnostics. */
/* A method's override family (docs/PATCH.md): the method at the top of
 * its class's ancestors that declares its name, and every method of that
 * name in a class below it, in symbol order; a function alone.  *out is
 * malloc'd; the count. */
int patch_override_family(Sema *S, SymId m, SymId **out);
int patch_family_selected_first(Sema *S, SymId m, SymId **out);   /* the same, m first */
/* add-parameter and remove-parameter's common start (plan.c): the function
 * or method the operation selects (G404/G107), its index in range (0..n
 * for add, 0..n-1 for remove, a method's n counting the parameters after
 * `self`; G112), no member of its family an earlier parameter operation's
 * (G106); *at the index in the written list (a method's + 1).  -1 after
 * diagnostics.  A member another module declares (an imported class's) is
 * that module's patch's to edit: the planners edit this module's members
 * and every call here. */
SymId patch_param_target(Planner *P, bool add, uint32_t *at);
/* Does the call e (EXPR_CALL, EXPR_METHOD, EXPR_SUPER) resolve to one of
 * fam[0..n)?  Its index there, or -1; *args and *nargs its arguments
 * (a method call's after the receiver). */
int patch_family_call(Sema *S, const Expr *e, const SymId *fam, int n, Expr *const **args, int *nargs);
/* Per member of fam[0..n): 1 + the index of operation op's change of
 * it, or (another module's member) of op's first change (malloc'd). */
int *patch_family_changes(Planner *P, int op, const SymId *fam, int n);
/* The walk over operation op's calls of function f (of any method of its
 * override family): fam, per member the calls cb counted in sites and
 * the change (patch_family_changes); a walk's state (P->user) holds it. */
typedef struct FamilyWalk {
	SymId *fam;
	int nf;
	int *sites;
	int *change;
} FamilyWalk;
/* Sets fw's members, walks op with cb (P->user = user, which holds fw) and
 * adds each member's sites to its change; patch_family_walk_free frees. */
void patch_family_walk(Planner *P, const SPatch *p, int op, SymId f, FamilyWalk *fw, void *user, void (*cb)(Planner *, const Expr *));
void patch_family_walk_free(FamilyWalk *fw);
bool patch_plan_add_param(Planner *P);
bool patch_plan_add_case(Planner *P);
bool patch_v4_add_arguments(Planner *P, const SPatch *p);
bool patch_v4_check_cases(Planner *P, const SPatch *p);
/* After the re-check: the added parameter is exactly one parameter, each
 * argument exactly one expression, a changed parameter type exactly one
 * type (the parameters otherwise the same), the added case exactly one new
 * case of its variant, whose stable id is recorded (added_id); G108
 * otherwise. */
bool patch_added_whole(const SPatch *p, PatchPlan *pl, Sema *before, Sema *after, DiagSink *d);
/* remove-parameter and remove-case (plan_remove.c): the operation's own
 * edit (the parameter, the case); after every operation is planned, the
 * uses that forbid it (G111) and the arguments and match arms that go with
 * it at the sites no other operation replaces (patch_v4_remove_sites);
 * after the re-check, exactly that parameter or case gone, the others
 * keeping their names and ids (patch_removed_whole, G108). */
bool patch_plan_remove_param(Planner *P);
bool patch_plan_remove_case(Planner *P);
bool patch_v4_remove_sites(Planner *P, const SPatch *p);
bool patch_removed_whole(const SPatch *p, Sema *before, Sema *after, DiagSink *d);
/* After every operation is planned: G111 for a deleted function that a use
 * no other operation replaces still calls.  P: a fresh planner. */
bool patch_v4_check_deletes(Planner *P, const SPatch *p);

#endif
