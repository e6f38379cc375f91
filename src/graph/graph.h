/*
 * graph.h — the agent read side (issue 12): the semantic model of a
 * verified program and what is rendered from it — the semantic graph
 * (`semaprax graph`, schema semaprax.graph.c1, docs/GRAPH.md), the bounded
 * agent context (`semaprax context`) and declaration queries (`semaprax
 * query`).
 *
 * Input: a Sema that checked without errors and its validated HIR (the
 * driver's Session, SESSION_CHECK_HIR).  Read through the public headers
 * only (sema/program.h, hir/hir.h); nothing here reports into the program's
 * diagnostics or changes it.  Every list is in a fixed order (source order,
 * or by stable id where no source order exists) and nothing is rendered by
 * iterating a hash table: identical input gives byte-identical output.
 */
#ifndef SPX_GRAPH_H
#define SPX_GRAPH_H

#include "../hir/hir.h"

/* Declaration kinds, in the order of graph_kind_names. */
typedef enum GraphKind {
	GK_FUNCTION, GK_METHOD, GK_RECORD, GK_FIELD, GK_VARIANT, GK_CASE, GK_CASE_FIELD,
	GK_CLASS, GK_RESOURCE, GK_INTERFACE, GK_IMPORT,
	GK__COUNT
} GraphKind;

/* "function", "method", "record", "field", "variant", "case", "case_field",
 * "class", "resource", "interface", "import" */
extern const char *const graph_kind_names[GK__COUNT];

typedef struct GraphParam {
	const char *name;
	TypeId type;
	const char *mode;     /* effective ownership: "value" (Copy), "own", "borrow", "shared" */
} GraphParam;

typedef struct GraphDecl {
	GraphKind kind;
	const char *id;       /* stable identity (automatic ones start with `auto:`) */
	bool explicit_id;
	const char *name;
	int owner;            /* members (field, case, case field, method, import): the owner's index; else -1 */
	SymId sym;            /* functions, methods and types: their symbol; members -1 */
	int func;             /* functions and methods: the HirFunc; records with invariants: theirs; else -1 */
	TypeId type;          /* fields, case fields: their type; functions, methods: the result; else -1 */
	GraphParam *params;   /* functions and methods */
	int nparams;
	const char **tparams; /* generic declarations: type parameter names */
	int ntparams;
	const char **effects; /* functions, methods: `uses`; interfaces: permits (source order) */
	int neffects;
	char **requires;      /* clause texts as contract failures report them (hir_clause_text); */
	int nrequires;        /* records: their invariants */
	char **ensures;
	int nensures;
	int *calls;           /* declarations called (or taken as a function value), first occurrence order */
	int ncalls;
	int *called_by;       /* the reverse edges, by stable id */
	int ncalled_by;
	const char **builtins;/* compiler-owned operations called (stable ids), first occurrence order */
	int nbuiltins;
	Span span;
	const char *origin;   /* imported by `use function`/`use type` (and its members): the
	                       * declaring module; NULL for this module's own declarations.
	                       * Query lists only NULL ones; calls to imported ones are edges. */
} GraphDecl;

typedef struct GraphModel {
	Sema *S;
	HirModule *H;
	const Module *m;
	Arena arena;          /* everything below */
	GraphDecl *decls;     /* symbol (source) order, each declaration followed by its members */
	int ndecls;
	int *by_id;           /* decl indices sorted by stable id */
	int *of_sym;          /* SymId → decl index, or -1 */
} GraphModel;

/* Builds the model of a verified program (S checked without errors, H validated). */
GraphModel *graph_model_build(Sema *S, HirModule *H);
void graph_model_free(GraphModel *g);
/* The declaration with stable id `id`, or -1. */
int graph_find_id(const GraphModel *g, const char *id);
/* Orders decl indices by stable id (for sorting lists of indices). */
int graph_cmp_id(const GraphModel *g, int a, int b);
void graph_sort_by_id(const GraphModel *g, int *items, int n);
/* A declaration's qualified name: `name`, or `Owner.name` for members. Arena. */
const char *graph_qualified_name(GraphModel *g, int d);
/* The canonical one-line header of a declaration (query's third column). Heap. */
char *graph_header(GraphModel *g, int d);

/* ---- the graph (write.c) ---- */

typedef struct GraphMeta {
	const char *revision;     /* the revision `check` prints */
	const char *prelude_schema;
	const char *prelude_digest;
} GraphMeta;

/*
 * The whole semaprax.graph.c1 document, one line, no newline, into out;
 * when flush is set it is called (with ctx) whenever out holds
 * GRAPH_FLUSH_BYTES or more, to write out's bytes away and empty it.
 */
typedef void (*GraphFlush)(Buf *out, void *ctx);
#define GRAPH_FLUSH_BYTES 65536
void graph_write(Buf *out, GraphModel *g, const GraphMeta *meta, GraphFlush flush, void *ctx);
/*
 * The graph's writer, for other renderings (context.c): it keeps one type
 * table (types numbered in order of first use) across what it writes.
 */
typedef struct GraphWriter GraphWriter;
GraphWriter *graph_writer_new(GraphModel *g);
void graph_writer_free(GraphWriter *w);
/* Writes t's index in the writer's table (adding it). */
void graph_writer_type(GraphWriter *w, Buf *out, TypeId t);
/* Writes the body block of function or method d; false (nothing written) without one. */
bool graph_writer_body(GraphWriter *w, Buf *out, int d);
int graph_writer_ntypes(const GraphWriter *w);
/* The table's rows `["i64","copy"],…` (nothing when empty). */
void graph_writer_types(GraphWriter *w, Buf *out);

/* ---- context (context.c) ---- */

enum { CTX_FORWARD = 1, CTX_REVERSE = 2, CTX_BOTH = 3 };
enum { CTX_F_CONTRACTS = 1, CTX_F_OWNERSHIP = 2, CTX_F_EFFECTS = 4, CTX_F_TYPES = 8 };

#define GRAPH_CTX_MAX_DEPTH 1024
#define GRAPH_CTX_MIN_BYTES 2048
#define GRAPH_CTX_MAX_BYTES (16u << 20)
#define GRAPH_CTX_MAX_NODES 65536

typedef struct ContextQuery {
	int root;                 /* decl index */
	const char *symbol;       /* as the user wrote it (resume entries repeat it) */
	int direction;            /* CTX_*; 0 = not given (forward, v1 envelope keys) */
	int depth;
	long max_bytes;
	int max_nodes;
	int filters;              /* CTX_F_* */
} ContextQuery;

/*
 * Renders the context document into out (no newline) and returns true, or
 * returns false when not even the root fits in max_bytes (*need: the
 * smallest max_bytes that would fit it) — never partial JSON.
 */
bool graph_context(Buf *out, GraphModel *g, const GraphMeta *meta, const ContextQuery *q, long *need);

/* Resolves a symbol (stable id, `name` or `Owner.name`) to a decl index; -1
 * when none, -2 when the name is ambiguous. */
int graph_resolve(GraphModel *g, const char *symbol);
/* The help of a symbol graph_resolve did not resolve (G001 in the CLI, the
 * service's -32005): ambiguous, the stable ids it names; unknown, the three
 * nearest ids (`did you mean`), each pointing at `semaprax query <file>`. */
void graph_symbol_help(Buf *help, GraphModel *g, const char *symbol, bool ambiguous);

/* ---- query (query.c) ---- */

typedef struct GraphQuery {
	unsigned kinds;           /* bit per GraphKind; 0 = all */
	const char *name;         /* substring of the name */
	const char *id_prefix;
	const char *effect;
	int calls;                /* decl index: only declarations calling it (-1 = any) */
	int called_by;            /* decl index: only declarations it calls (-1 = any) */
	bool json;
} GraphQuery;

/* One line per matching declaration (or one JSON document); returns the count. */
int graph_query(Buf *out, GraphModel *g, const GraphMeta *meta, const GraphQuery *q);
/* Just the matching rows (project query): text lines, or JSON rows
 * `[kind,id,header]` each preceded by `,` when *n is nonzero; *n counts them.
 * With path, each row starts with it (`path  ` / `[path,…`); with only, a
 * declaration is kept only where only[decl] is nonzero (cross-module
 * --calls/--called-by, computed by the caller). */
void graph_query_rows(Buf *out, GraphModel *g, const GraphQuery *q, const unsigned char *only, const char *path, int *n);

#endif
