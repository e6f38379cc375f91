/*
 * cli.h — command-line front door: shared helpers for the command files.
 *
 * Exit statuses (TOOLCHAIN.md §1.1): 0 success, 1 diagnostics or failure,
 * 2 usage errors (reported before any work).
 */
#ifndef SPX_CLI_H
#define SPX_CLI_H

#include "../driver/program.h"
#include "../driver/session.h"
#include "../support/buf.h"
#include "../support/diag.h"
#include <stdio.h>

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };
/* A command's result (never an exit status) when a lane's program ended by
 * SIGPIPE, its output's reader gone: main() then ends semaprax by SIGPIPE
 * too, silently, as the interpreter and a built executable end (after the
 * command has removed its temporary files). */
enum { EXIT_BY_SIGPIPE = 256 + 13 };

/* Prints "<msg>\nhint: run `semaprax help <cmd>` for usage" on stderr; returns 2. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_option_error(const char *cmd, const char *a, const char *const *valued, const char *const *flags);
/* "unknown <cmd> option `a`; did you mean `--x`?" from the command's usage text; exit 2. */
int cli_unknown_option(const char *cmd, const char *a, const char *tail);
/* A refused `--allow-write=DIR` (cmd_run.c): the rule and, when plain, why
 * (DIR does not exist, or is a file); exit 2. */
int cli_write_root_refused(const char *cmd, const char *root);
void cli_put_visible(FILE *f, const char *text);
/* One location-less diagnostic code on path with msg and help (NULL: the
 * register's), printed as text on stderr (fmt_write.c); _shown prints shown
 * for the path when it is not NULL (a project's manifest as the user named it). */
void cli_report(DiagCode code, const char *path, const char *msg, const char *help);
void cli_report_shown(DiagCode code, const char *path, const char *shown, const char *msg, const char *help);
/* `--json` of the agent write commands (patch, impact, review, fix, repairs, repair;
 * docs/PATCH.md "Machine-readable refusals"): every diagnostic they print
 * (cli_report too) is a `check --json` line on stdout, and the human lines
 * around them are left out.  Set by the command before it prints anything;
 * one command runs per process. */
extern bool cli_diag_json;
/* diag_emit_all(s, cli_diag_json). */
void cli_emit_diags(const DiagSink *s);
/* While set, seen(ctx, sink, diagnostic) is called for each diagnostic
 * cli_report/cli_report_shown/cli_emit_diags print, before it is printed
 * (the service's in-process project reads, cmd_serve.c); (NULL, NULL)
 * clears it. */
typedef void (*CliDiagSeen)(void *ctx, const DiagSink *s, const Diag *d);
void cli_watch_diags(CliDiagSeen seen, void *ctx);

/*
 * Ends a command's one-module Program (driver/program.h).  Every command returns from
 * main right after: the system reclaims the tree, the checker's tables and
 * the HIR at once, so releasing them block by block would only cost time.
 * Under ASan (the leak-checked builds) everything is released, so each
 * owner is still checked.
 */
void cli_unload(Program *P);
/* `serve`: from now on cli_unload frees the program (a long-lived process). */
void cli_release_programs(bool on);

/* What a command's operands name, checked by main.c before the command runs
 * (a row's `operands`, 0 or these bits; every row states it):
 *   CLI_PATHS     a file, directory, project or patch: an empty operand, or an
 *                 empty value of a path-valued option of its grammar, is a
 *                 usage error (`new` refuses an empty <dir> itself);
 *   CLI_TOML      a project's manifest too: a `.toml` first operand other than
 *                 semaprax.toml is a usage error;
 *   CLI_ONE_FILE  one source file only: a project as first operand is a usage
 *                 error naming the project forms the other commands take. */
enum { CLI_PATHS = 1u << 0, CLI_TOML = 1u << 1, CLI_ONE_FILE = 1u << 2 };

/* The command table (main.c): sorted by name; see there for `usage`. */
typedef struct CliCommand {
	const char *name;
	int (*run)(int argc, char **argv);
	unsigned operands;
	const char *usage;
} CliCommand;
extern const CliCommand cli_commands[];
extern const size_t cli_ncommands;
const CliCommand *cli_find_command(const char *name);

/* help.c: the guided overview (stdout), `help …`, `version`, and the
 * unknown-command reply (exit 2), with suggestions by spx_edit_distance. */
void cli_print_guide(void);
int cli_cmd_help(int argc, char **argv);
int cli_cmd_version(int argc, char **argv);
/* The options of a command taking only `--json` (version, doctor): EXIT_OK,
 * or the usage error reported (an operand, another option; exit 2). */
int cli_json_only(const char *cmd, int argc, char **argv, bool *json);
/* cmd_doctor.c: `doctor`, whether each lane can run on this machine. */
int cli_cmd_doctor(int argc, char **argv);
int cli_unknown_command(const char *name);

/*
 * Up to 3 candidates nearest to `want` (distance ≤ 2 by spx_edit_distance,
 * or starting with want when it has 3 bytes or more), best first, ties in
 * offer order, each once; cli_near_print writes "; nearest: `a`, `b`" and a newline
 * on stderr (just the newline when none is near).
 */
typedef struct CliNear {
	const char *name[3];
	size_t len[3];
	int dist[3];
	int n;
} CliNear;
void cli_near_offer(CliNear *nr, const char *want, const char *cand, size_t len);
void cli_near_print(const CliNear *nr);
/* help_library.c: `help library [all|<module|name|stable-id>]`. */
int cli_help_library(int argc, char **argv);

/* docs/language-card.md, embedded at build time (tools/embed_text.sh). */
extern const char cli_language_card[];

int cli_cmd_check(int argc, char **argv);
int cli_cmd_doc(int argc, char **argv);
int cli_cmd_fmt(int argc, char **argv);
int cli_cmd_parse(int argc, char **argv);
int cli_cmd_explain(int argc, char **argv);
int cli_cmd_run(int argc, char **argv);
int cli_cmd_build(int argc, char **argv);
int cli_cmd_patch(int argc, char **argv);
int cli_cmd_repairs(int argc, char **argv);
int cli_cmd_repair(int argc, char **argv);
int cli_cmd_fix(int argc, char **argv);
int cli_cmd_impact(int argc, char **argv);
int cli_cmd_review(int argc, char **argv);
int cli_cmd_graph(int argc, char **argv);
int cli_cmd_context(int argc, char **argv);
int cli_cmd_query(int argc, char **argv);
int cli_cmd_test(int argc, char **argv);
int cli_cmd_new(int argc, char **argv);
int cli_cmd_lock(int argc, char **argv);
int cli_cmd_registers(int argc, char **argv);
/* cmd_registers.c, for `check` of a project: runs the manifest's
 * `[registers]` rows on a checked project; true when no check failed. */
struct Project;
bool cli_check_registers(const struct Project *pj, bool json);
int cli_cmd_serve(int argc, char **argv);
int cli_cmd_lsp(int argc, char **argv);

/* cmd_run.c, shared with `test`: an interpreter outcome as its JSON object
 * (TOOLCHAIN.md §3.3), the status object, and "sha256:" + hex SHA-256 of
 * domain (dlen bytes, NUL included) ‖ u64le(n) ‖ data. */
struct InterpResult;
void cli_outcome_json(Buf *b, const struct InterpResult *r);
void cli_status_json(Buf *b, const struct InterpResult *r);
void cli_domain_digest(char out[72], const char *domain, size_t dlen, const void *data, size_t n);
/* main.c, the numeric options' reader: a canonical decimal (no sign, no
 * leading zeros) 0..2^63-1; cli_parse_positive the same, 1..2^63-1;
 * cli_parse_within the same, lo..hi.  *out is written only on success. */
bool cli_parse_decimal(const char *s, uint64_t *out);
bool cli_parse_positive(const char *s, uint64_t *out);
bool cli_parse_within(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* A project's route and grants (cmd_run.c): those of the union of its
 * modules' permits, as a single file's come from its own; false after each
 * module's admission refusal (F121, T273, F102) into its diagnostics. */
struct Project;
bool cli_project_admit(struct Project *pj, HirGrants *g);
/* cmd_test.c, shared with `run`: where a run of a project failed, byte at
 * of the module whose checked program is S (none: nothing appended).
 * cli_project_at_line: `  at <path>:<line>:<col>: <that source line,
 * trimmed>` and a newline; cli_project_at_json: {"path":…,"line":…,
 * "column":…}.  The path is the manifest's spelling; a contract failure's
 * place is InterpFailure.where/.at. */
struct Sema;
void cli_project_at_line(Buf *b, const struct Project *pj, const struct Sema *S, uint32_t at);
void cli_project_at_json(Buf *b, const struct Project *pj, const struct Sema *S, uint32_t at);
/* `run --json` of a project (cmd_test.c): the `semaprax.project-execution.v1`
 * envelope with role "entry" on stdout; false (after F104) past max_bytes. */
/* cmd_project_lanes.c: a project's native lane.  The C unit of every module
 * with entry functions funcs of module entry (emit_c_project); compiled into
 * dir (B101/B102/I101 into the project's diagnostics); `run --native|--wasm`
 * of a project; one captured run of entry function k as an interpreter-style
 * result (*detail: a contract failure's two detail lines, or NULL; free it);
 * the Wasm lane's W110 refusal of a project. */
/* cmd_build.c: EmitOptions.chunk_every from the test hook SEMAPRAX_C_CHUNK=N
 * (N in 1..1,000,000; otherwise 0, the default chunking). */
int cli_c_chunk_every(void);
/* staged: output staged, capped and published after `main` (`run --native`,
 * `test`); false for `build`, whose executable writes directly (LANGUAGE.md §0.1). */
bool cli_project_emit_c(struct Project *pj, const HirGrants *host, ModuleId entry, const int *funcs, int nfuncs, bool report_status, bool staged,
    Buf *out);
bool cli_project_native_compile(struct Project *pj, const HirGrants *host, ModuleId entry, const int *funcs, int nfuncs, bool report_status,
    bool staged, char dir[4096]);
/* grant: the command line's `--allow-write[=DIR]` text, or NULL */
int cli_project_run_native(const char *manifest, bool wasm, const char *grant, bool have_args, char **args, int nargs);
/* `-- args` given to a program that is not a command-line program: the
 * message, then EXIT_USAGE (cmd_run.c). */
int cli_args_refused(void);
int cli_args_bounded(bool have_args, char **args, int nargs);  /* run: the argument bounds, once the route is known (exit 2, printed) */
bool cli_args_fit(char **args, int nargs);                     /* … the same test, silent */
/* cmd_build.c's output rules, shared with cmd_web.c: a location-less
 * diagnostic; I307/I301 before writing; a new file (O_EXCL, I307/I101);
 * `built <product> <path>` or its --json object. */
void cli_build_report(DiagSink *s, DiagCode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool cli_check_output(DiagSink *s, const char *out);
bool cli_write_new(DiagSink *s, const char *out, const Buf *data);
void cli_print_built(bool json, const char *target, const char *product, const char *out);
/* build --target web (cmd_web.c): the package of a file (path) or of a
 * project (manifest; path NULL) into the new directory out, exporting ids
 * (a project: its `[exports] web` when nids is 0), with the files below
 * files_dir (NULL: none) under out/files/. */
int cli_build_web(const char *path, const char *manifest, const char *out, char **ids, int nids, const char *files_dir, bool json);
/* Bytes as a JSON array of numbers (the hosted envelopes' stdout, stderr). */
void cli_bytes_json(Buf *b, const Buf *bytes);
void cli_project_native_case(const char *dir, const char *grant, int k, uint64_t timeout_ms, struct InterpResult *r, char **detail);
/* The Wasm lane: one module of every module whose `main` export runs
 * funcs[which] (diagnostics into `into`, or NULL: each module's session);
 * one captured run of it under node (captures in dir). */
bool cli_project_wasm_module(struct Project *pj, const HirGrants *host, ModuleId entry, const int *funcs, int nfuncs, int which, bool report_status,
    DiagSink *const *into, Buf *out);
/* The same with `main` and, exported for a web package, function funcs[k]
 * of module mods[k] (cmd_web.c). */
bool cli_project_wasm_web(struct Project *pj, const HirGrants *host, ModuleId entry, int mainf, const int *funcs, const int *mods, int n,
    Buf *out);
/* grant: the command line's `--allow-write[=DIR]` text for a module permitting fs.write, or NULL */
void cli_project_wasm_case(const char *dir, const Buf *mod, const char *grant, uint64_t timeout_ms, struct InterpResult *r, char **detail);
/* Removes the capture files a run left in dir. */
void cli_project_captures_clean(const char *dir);
/* The project-execution envelope of `run --json` (cmd_test.c): on a hosted
 * route with the staged stdout (and the command-line route's stderr). */
bool cli_project_run_envelope(const struct Project *pj, const HirFunc *entry, Route route, const struct InterpResult *r, uint64_t max_steps,
    uint64_t max_bytes);

/* cmd_build.c: a compiled program's argument vector (freed by the caller):
 * head (the executable; NULL for a Wasm module), then, when the module
 * permits fs.write, the grant (`--allow-write[=DIR]`) and `--`, then args
 * and a NULL; *argc (when not NULL) counts the entries before the NULL. */
char **cli_program_argv(char *head, const char *grant, bool fs_write, char **args, int nargs, int *argc);
/* cmd_build.c: a finished program's wait status st as the command's exit
 * status: its own, else EXIT_FAIL after "SEMAPRAX <who> terminated by signal
 * N" on stderr; cli_native_status, emit_native_exec's outcome: "cannot start
 * the native program: …" when err is set, else the native program's. */
int cli_child_status(int st, const char *who);
int cli_native_status(int err, int st);
/* `run --native` (cmd_build.c): admit (src/driver/route.c), emit, compile
 * and run a verified module on the route of host with the arguments;
 * returns the program's exit status, or 1 after a diagnostic. */
int cli_native_run(Session *L, const HirGrants *host, char **args, int nargs);
/* cmd_build.c: the generated C in *c (freed) compiled into dir; false after
 * reporting why into d (B101, B102, I101). */
bool cli_native_compile_c(Buf *c, DiagSink *d, char dir[4096]);
/* `run --wasm` (cmd_build.c): admit, emit the Wasm module and run it under
 * node; the same contract as cli_native_run. */
int cli_wasm_run(Session *L, const HirGrants *host, char **args, int nargs);

/* `interpret` and `interpret-strings` (cmd_interpret.c). */
int cli_cmd_interpret(int argc, char **argv);
/* cmd_run.c: the one writer of the interpret envelope (TOOLCHAIN.md §3.3),
 * for pure `run` and `interpret`: schema (outer and payload), the payload
 * digest domain, source, function, the `arguments` array as JSON (NULL:
 * `[]`), limits; then the fuel and outcome of r. */
typedef struct CliInterpretFacts {
	const char *schema;
	const char *payload_domain;   /* without its NUL */
	const char *path;
	const Module *m;
	const char *src;
	size_t src_len;
	const char *fn_id, *fn_name;
	const char *arguments_json;
	uint64_t max_bytes, max_steps;
} CliInterpretFacts;
void cli_interpret_envelope(Buf *out, const CliInterpretFacts *f, const struct InterpResult *r);
/* A scalar value's type name (`i64` … `char`, by its tag) and its envelope
 * rendering (`610i32`, `'a'`, float bits in hex). */
struct Value;
const char *cli_scalar_type(int tag);
void cli_scalar_value(Buf *b, const struct Value *v);
void cli_scalar_json(Buf *b, const struct Value *v);   /* the same as a JSON string */

#endif
