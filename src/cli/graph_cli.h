/*
 * graph_cli.h — the read commands over a project (cmd_graph.c): a checked
 * project with each module's graph model, shared by `graph`, `query` and
 * `context` of a project (cmd_context_project.c).
 */
#ifndef SPX_CLI_GRAPH_CLI_H
#define SPX_CLI_GRAPH_CLI_H

#include "../graph/graph.h"
#include "../project/project.h"

/* A checked project with every module's model, in the Program's module order. */
typedef struct ProjLoaded {
	Project pj;
	GraphModel **gs;
	const char **paths;   /* each module's source path as the manifest lists it */
	int n;
} ProjLoaded;

/* The unsaved buffers the project forms of graph, context, query and doc
 * read instead of the disk (the service's held buffers, cmd_serve.c);
 * (NULL, 0): the disk.  Not owned. */
void cli_proj_set_overlay(const ProjectOverlay *ov, int nov);
const ProjectOverlay *cli_proj_overlay(int *nov);
/* Checks and lowers the project and builds each module's model; false
 * (its diagnostics printed as `check` prints them, nothing to free) when it
 * does not verify. */
bool cli_proj_load(ProjLoaded *x, const char *manifest);
void cli_proj_unload(ProjLoaded *x);
/* A symbol among the modules' own declarations: 0 and (*mod, *dec), -1
 * none, -2 several (in one module or across modules). */
int cli_proj_resolve(ProjLoaded *x, const char *symbol, int *mod, int *dec);
/* The G001 of a symbol cli_proj_resolve answered `why` (-1, -2) for. */
void cli_proj_unknown(ProjLoaded *x, const char *symbol, int why);
/* `context` of a project (cmd_context_project.c): the parsed options. */
int cli_context_project(const char *manifest, const char *symbol, int direction, int depth, long max_bytes, int max_nodes);

#endif
