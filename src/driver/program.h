/*
 * program.h — the Program layer: N modules, each a driver Session (path,
 * source, syntax tree, checked Sema, module revision, HIR), ordered by a
 * stable ModuleId, plus the program revision.  A single file is a
 * one-module Program (`check`, `run`, `build` load through it); a project
 * (issue 15, src/project/) adds its files and checks them linked
 * (driver_program_check_linked): `use function`/`use type @id(...) from m`
 * resolve through driver_program_lookup.  Nothing here is global.
 *
 * ModuleId: the module's index once loaded, in the order (module name, then
 * path) compared bytewise — independent of the order files were added.
 * ProgHandle names a symbol of any module: (ModuleId, that module's SymId).
 *
 * Program revision (docs/DECISIONS.md, "Program revision"): for one module,
 * its module revision (the single-file revision, unchanged); for several,
 * "sha256:" + hex SHA-256 of the domain "semaprax.program-revision.v1\0"
 * followed, for each module in ModuleId order, by two length-prefixed
 * fields (sha256_field): its dotted name and its revision text.  Computed
 * by the check stages (SESSION_CHECK, SESSION_CHECK_HIR) only.
 */
#ifndef SPX_DRIVER_PROGRAM_H
#define SPX_DRIVER_PROGRAM_H

#include "../sema/program.h"
#include "session.h"

typedef uint32_t ModuleId;
#define DRIVER_NO_MODULE ((ModuleId)UINT32_MAX)

typedef struct ProgHandle {
	ModuleId mod;
	SymId sym;
} ProgHandle;

typedef struct ProgModule {
	char *name;          /* dotted module name ("" until parsed); owned */
	Session s;           /* path (s.diags.path), source, AST, Sema, revision, HIR */
	char *spelled;       /* its path as a manifest spells it, or NULL; owned
	                      * (driver_program_spell: s.diags.shown points here) */
	/* Incremental re-checks (driver_program_recheck; docs/DECISIONS.md,
	 * "Semantic service"): where its diagnostics stand and its status. */
	int ndiag_parse;     /* s.diags.items after the parse */
	int ndiag_link;      /* … after its link and check; later ones are the project layer's */
	bool linked_ok;      /* checked, no error: importers may link against it */
	unsigned char iface[32]; /* driver_module_interface of s.S when linked_ok */
	bool carried;        /* parsed (and maybe checked) by an earlier program … */
	int carried_from;    /* … at this ModuleId there, */
	const char *carried_path; /* … under this path (driver_program_uncarry) */
	bool parsed_now;     /* this load parsed it */
	bool checked_now;    /* this load linked and checked it */
	bool iface_changed;  /* … and its status or interface digest differs from before */
	bool revision_pending; /* its body re-checked in place: s.revision not yet made */
	/* the caller's record of the file its bytes were read from (the
	 * project layer: project_recheck may trust an unchanged identity) */
	int src_index;       /* 1 + its index among the caller's sources (0: none) */
	struct {
		bool settled;        /* read from its path, which then had … */
		uint64_t dev, ino, size;
		int64_t mtime_ns, ctime_ns;
	} disk;
	/* one body re-checked in place (driver_program_recheck): the module's
	 * earlier checked session, its text, tree and Sema kept */
	struct ProgModule *edit_base; /* not carried, bytes changed: the earlier module (owned) */
	bool spliced_now;    /* this load spliced declaration spliced_decl into its tree */
	int spliced_decl;
	bool splice_in_body; /* … and only its body's bytes changed */
	char *splice_old_name; /* its name before (owned; the bodies naming it re-run) */
	int *rechecked;      /* the declarations whose bodies this load re-checked in a
	                      * reduced check, or NULL (the whole module, or none); owned */
	int nrechecked;
	bool resolve_now;    /* … with the declaration pass run again */
	uint32_t splice_at;  /* … the old bytes from here on moved by splice_delta */
	int64_t splice_delta;
	size_t spliced;      /* bytes spliced into the tree since its whole parse */
	uint32_t S_nexprs, S_ncalls; /* the tree's numbers the Sema's tables are sized for */
	char *prev_name;     /* not carried: the name of the earlier module of its path (owned) */
	bool prev_ok;        /* … and that module's status */
	unsigned char prev_iface[32];
} ProgModule;

typedef struct Program {
	ProgModule **mods;   /* owned; ModuleId order once loaded, else insertion order */
	int nmods, cap;
	bool loaded;
	bool linked;         /* driver_program_check_linked reached the link step */
	bool revision_pending; /* a recheck left module revisions to driver_program_revision */
	ModuleId *order;     /* driver_program_check_linked: dependency order; owned */
	char revision[72];   /* the program revision ("" unless checked without errors) */
	/* Optional: sets the help of d, the G172 of a `use … from <name>` naming
	 * no module of the program, and returns true (false = the default "list
	 * the file …"); the project layer points at `[dependencies]` for a
	 * bundled `std.*` module (src/project/std.c). */
	bool (*module_hint)(void *ctx, Diag *d, const char *name);
	void *hint_ctx;      /* its first argument (the project, set with it) */
} Program;

void driver_program_init(Program *p);
/* The path module pm is printed by (messages, diagnostics): as the caller
 * spelled it (driver_program_spell), else the one it is read from. */
const char *driver_module_path(const ProgModule *pm);
/* Gives pm the spelling spelled (copied): its diagnostics print it (a
 * project's source relative to its directory, as the manifest writes it). */
void driver_program_spell(ProgModule *pm, const char *spelled);
/* Adds a module read from path at load time, or (src != NULL) the bytes
 * src[0..len) under that path; returns its Session until loaded. */
Session *driver_program_add(Program *p, const char *path, const char *src, size_t len);
/* Reads and parses every module, orders them (ModuleId), then runs each on
 * to `stage` (as driver_load does) and computes the program revision when
 * the stage computes module revisions.  True when no module reported an error. */
bool driver_program_load(Program *p, SessionStage stage);
/* The single-file path (`parse`, `check`, `run`, `build`): a one-module
 * program of the file at path, loaded as driver_load would; *out is its
 * Session.  True when nothing reported an error. */
bool driver_program_load_file(Program *p, const char *path, Session **out, SessionStage stage);
/*
 * A project's modules (issue 15), checked as one program: reads and parses
 * every module, orders them (ModuleId), reports a repeated module name and
 * a cycle of `use` imports (G172 naming the cycle, at the `use` that closes
 * it) and an explicit stable id declared by two modules (G172 at the later
 * module's, naming the first), then checks the modules in dependency order (providers first, ties
 * by ModuleId), resolving each `use` through driver_program_lookup (G172:
 * missing or own module, unknown stable id, a target imported twice) and
 * handing the targets to the checker (sema_check_linked).  A module whose
 * provider has errors is not checked.  Then each module revision and the
 * program revision.  Check stage only (no HIR); true when nothing reported
 * an error.  p->order lists the ModuleIds in checking order.
 */
bool driver_program_check_linked(Program *p);
/*
 * Incremental re-check (the service's project product, issue 17).  After
 * driver_program_add of every module with its bytes (same paths, same
 * order as old's load), driver_program_carry moves each module of old
 * whose path and bytes are unchanged (or same[i] says so for p's module i,
 * added without bytes) into p (parse, check and diagnostics
 * kept; old's slot becomes NULL); old must have been linked.  Then
 * driver_program_recheck parses the others — an edit inside one
 * non-generic function's body of a clean module is spliced into the earlier
 * tree and that body alone re-checked in the earlier Sema (old loses that
 * module then) — and re-runs the link step of a
 * module only when it was not carried or a provider it imports was
 * re-checked with a different status or interface digest (transitively,
 * in dependency order).  Returns 1 (verified) or 0 (errors), with p
 * exactly as driver_program_check_linked would leave it, or -1 when it
 * cannot decide so cheaply (a module renamed, a parse or G170 error, a
 * cycle, a stable id two modules declare, a path not in old): then
 * discard p and check cold.
 */
void driver_program_carry(Program *p, Program *old, const bool *same);
/* After driver_program_recheck: the module revisions it left pending (a
 * body re-checked in place does not render its module), then the program
 * revision — what driver_program_check_linked computes at once.  A no-op
 * when nothing is pending. */
void driver_program_revision(Program *p);
/* After driver_program_recheck returned -1: the carried modules back into
 * old, which is again the linked program it was (its project-layer
 * diagnostics dropped: a base for another carry, not an answer). */
void driver_program_uncarry(Program *p, Program *old);
int driver_program_recheck(Program *p, Program *old);
/* The digest of everything an importer's link step reads from a checked
 * module (sema_link_imports, the program's use resolution): every
 * symbol's identity, kind, signature, fields, cases, methods and effects,
 * types structurally; spans and bodies excluded. */
void driver_module_interface(const Sema *S, unsigned char out[32]);
/* ModuleId of the module named name (dotted), or DRIVER_NO_MODULE. */
ModuleId driver_program_find(const Program *p, const char *name);
/* The symbol with stable id `id` in module `module`; false when absent. */
bool driver_program_lookup(const Program *p, const char *module, const char *id, ProgHandle *out);
/* The symbol a handle names (NULL when it does not resolve). */
const Sym *driver_program_sym(const Program *p, ProgHandle h);
void driver_program_free(Program *p);

#endif
