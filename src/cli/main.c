/*
 * main.c — the `semaprax` command table and dispatcher (TOOLCHAIN.md §1.1);
 * help, version and the unknown-command suggestion are in help.c.
 */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/json.h"

/*
 * THE command table: dispatch, `help <command>`, `<command> --help` and
 * `help all` (help.c) read it; the guided overview lists a command as
 * available only when it is here.  Rows sorted by name; `operands` says what
 * the operands name (CLI_PATHS, CLI_TOML, CLI_ONE_FILE: cli.h), checked here
 * before the command runs; `usage` starts with the command's grammar lines
 * (each begins `semaprax `), then the prose.
 */
const CliCommand cli_commands[] = {
	{ "build", cli_cmd_build, CLI_PATHS | CLI_TOML, "semaprax build <file> [--target native|c|wasm] [-o|--output <path>] [--json]\n"
	  "semaprax build <file> --target web --export <stable-id>... [--files <dir>] [-o|--output <dir>] [--json]\n"
	  "semaprax build [<dir>|semaprax.toml|--manifest-path <p>] [--target native|c|wasm|web] [--export <stable-id>...] [--files <dir>] [-o|--output <path>] [--json]\n"
	  "  verifies one file, emits C11 and compiles it with $CC (default cc) into an executable\n"
	  "  (default: beside the source without `.spx`); `--target c` writes the C11 translation\n"
	  "  unit instead (default `<stem>.c`), `--target wasm` the WebAssembly module (default\n"
	  "  `<stem>.wasm`, run by the ES module host), `--target web` a package directory (default\n"
	  "  `<stem>.web`: program.wasm, host.mjs, index.mjs with bindings keyed by stable id,\n"
	  "  index.d.ts, package.json, index.html) exporting the named functions, which take and\n"
	  "  return scalars only (W115); `--files <dir>` bundles the regular files below dir under\n"
	  "  files/, which the exports read with fs.read (only those; I001 for a link in the tree).\n"
	  "  An existing output is never overwritten.  An executable\n"
	  "  whose module permits fs.write takes the write grant as its first argument,\n"
	  "  `--allow-write` or `--allow-write=DIR` (then optionally `--`), and refuses to start\n"
	  "  without it (exit 2).\n"
	  "  A project (<dir>|semaprax.toml|--manifest-path <p>; none given: ./semaprax.toml)\n"
	  "  builds every module into one executable, C unit, WebAssembly module or web package\n"
	  "  (default `<dir>/<name>`, `.c`, `.wasm`, `.web`); a package exports the manifest's\n"
	  "  `[exports] web` (or the --export ids among them).\n" },
	{ "check", cli_cmd_check, CLI_PATHS | CLI_TOML, "semaprax check <file> [--json] [--dump-hir]\n"
	  "semaprax check [<dir>|semaprax.toml|--manifest-path <p>] [--json]\n"
	  "  verifies one file (types, effects, contracts, names, matches) and prints\n"
	  "  `verified <path> (sha256:<revision>)`; warnings do not fail, errors exit 1.\n"
	  "  A project (a directory's semaprax.toml; none given: ./semaprax.toml) prints\n"
	  "  `verified project <name> (<revision>)` and `  module <name> <path> (<revision>)`\n"
	  "  (the path as the manifest spells it, as `query` prints it), after running the\n"
	  "  manifest's `[registers]` rows (see `help registers`).\n"
	  "  --dump-hir also prints the typed HIR of a verified file (a compiler self-check).\n" },
	{ "context", cli_cmd_context, CLI_PATHS | CLI_TOML, "semaprax context <file> <symbol|stable-id> [--direction forward|reverse|both] [--depth N] [--max-bytes N] [--max-nodes N] [--filters contracts,ownership,effects,types]\n"
	  "semaprax context <dir>|semaprax.toml|--manifest-path <p> <symbol|stable-id> [--direction d] [--depth N] [--max-bytes N] [--max-nodes N]\n"
	  "  the bounded agent context around one declaration (docs/GRAPH.md): facts breadth-first\n"
	  "  over call edges, a frontier with resume bytes; depth 1..1024 (1), bytes 2048..16777216\n"
	  "  (65536), nodes 1..65536 (256).\n"
	  "  A project (<dir>|semaprax.toml|--manifest-path <p> <symbol>) prints\n"
	  "  semaprax.project-agent-context.v1: node and edge rows across modules, each with its\n"
	  "  path; --filters is refused for a project.\n" },
	{ "doc", cli_cmd_doc, CLI_PATHS | CLI_TOML, "semaprax doc <file> [--json|--html]\n"
	  "semaprax doc [<dir>|semaprax.toml|--manifest-path <p>] [--json]\n"
	  "  verifies one file and prints its declarations in source order: canonical header,\n"
	  "  stable id, effects, contracts and attached `//` comments; --json prints the\n"
	  "  `semaprax.doc.c1` object (docs/doc-format.md), --html one self-contained page.\n"
	  "  A project prints every module so, in module-name order with its imports, under a\n"
	  "  `project` line (--json: `semaprax.project-doc.c1`); none given: ./semaprax.toml.\n"
	  "  A file that does not verify prints its diagnostics and exits 1.\n" },
	{ "doctor", cli_cmd_doctor, 0, "semaprax doctor [--json]\n"
	  "  whether each lane can run here: it runs a small probe program with `run` (the\n"
	  "  interpreter, built in), `run --native` (the C compiler `$CC`, default `cc`) and\n"
	  "  `run --wasm` (Node.js, `$SEMAPRAX_NODE`, default `node`), and prints per lane\n"
	  "  ready, missing (the tool cannot be started) or broken (the run failed or printed\n"
	  "  something else), the tool's version line and what to install; --json prints the\n"
	  "  `semaprax.doctor.v1` object.  Exits 0 when every lane is ready, else 1.\n" },
	{ "explain", cli_cmd_explain, 0, "semaprax explain <SPX-CODE> [--json]\n"
	  "semaprax explain --catalog|--register\n"
	  "  what a diagnostic code means and its default fix; `explain --catalog` prints the\n"
	  "  whole register as Markdown (docs/diagnostics.md); `explain --register` as a register\n"
	  "  for register checks (`{ \"tokens\": [...] }`, lifted reference codes retired).\n" },
	{ "fix", cli_cmd_fix, CLI_PATHS | CLI_TOML | CLI_ONE_FILE, "semaprax fix <file> [--code SPX-...] [--dry-run] [--json]\n"
	  "  applies the machine-applicable fixes the diagnostics carry (`check --json` lists\n"
	  "  them; --code keeps one code's), atomically, then verifies the result: prints\n"
	  "  `fixed N diagnostics; graph is now <revision>`, or the diagnostics that remain\n"
	  "  (exit 1).  A result no better than the file is not written.  --dry-run prints the\n"
	  "  unified diff and writes nothing.  A file the nearest semaprax.toml lists is fixed\n"
	  "  as that module of its project: written only when the whole project then verifies\n"
	  "  (else its diagnostics, exit 1), and the project's new revision is printed too.\n"
	  "  --json prints every diagnostic as a `check --json` line and the outcome as one\n"
	  "  `semaprax.fix-result.v1` object (docs/PATCH.md); exit statuses are unchanged.\n" },
	{ "fmt", cli_cmd_fmt, CLI_PATHS | CLI_TOML, "semaprax fmt [<file|dir|semaprax.toml>|--manifest-path <p>] [--check|--stdout] [--json]\n"
	  "semaprax fmt --manifest <semaprax.toml> [--check] [--json]\n"
	  "  rewrites each .spx file canonically (atomically; a file that fails to parse is left\n"
	  "  untouched and nothing is written when any file fails); --check writes nothing and\n"
	  "  lists non-canonical files (exit 1); --stdout prints the canonical form of one file.\n"
	  "  A directory holding semaprax.toml (or the manifest) formats the project's sources;\n"
	  "  no operand formats the project in the working directory (./semaprax.toml).\n"
	  "  --manifest rewrites a project manifest canonically (--check: SPX-J100 names the\n"
	  "  first differing line).  --json prints each diagnostic as one JSON object a line.\n" },
	{ "graph", cli_cmd_graph, CLI_PATHS | CLI_TOML, "semaprax graph <file>\n"
	  "semaprax graph [<dir>|semaprax.toml|--manifest-path <p>]\n"
	  "  the semantic graph of a verified file, schema semaprax.graph.c1 (docs/GRAPH.md).\n"
	  "  A project prints semaprax.project-graph.c1: the project revision, then per module\n"
	  "  (ModuleId order) its path, name, revision, imports and file graph.\n" },
	{ "help", cli_cmd_help, 0, "semaprax help\n"
	  "semaprax help all\n"
	  "semaprax help <command>\n"
	  "semaprax help language [topics|all|<topic>]\n"
	  "semaprax help diagnostic codes|<SPX-code>\n"
	  "semaprax help library [all|<module|name|stable-id>]\n"
	  "  the guided overview; every command's grammar; one command's grammar (also\n"
	  "  `semaprax <command> --help`); the language card (docs/language-card.md: `help\n"
	  "  language` its guide, `topics` its selectors, `all` the whole card); the common\n"
	  "  diagnostic codes, or one code's `wrote:`/`fix:` rows; the bundled standard\n"
	  "  library (std/): its modules, one module's functions, or one function's header,\n"
	  "  contracts, effects, doc and `use` line; a compiler-owned function's name (`vec_push`)\n"
	  "  gives its signature and effects (it needs no import).\n" },
	{ "impact", cli_cmd_impact, CLI_PATHS | CLI_TOML | CLI_ONE_FILE, "semaprax impact <file> <patch.spatch> [--depth N] [--max-bytes N] [--max-nodes N] [--json]\n"
	  "  previews a v1/v2/v4 semantic patch without writing: the `semaprax.semantic-impact.v1`\n"
	  "  report (base and candidate revisions, operations, changes with the declarations\n"
	  "  whose source they touch, affected functions by reverse call depth).  Bounds: depth\n"
	  "  0..1024 (1), bytes 1024..16777216 (65536), nodes 1..65536 (256).  A module of a\n"
	  "  project (a file the nearest semaprax.toml lists) is previewed within its project,\n"
	  "  and `cross_module_callers` lists the other modules' direct callers.  --json prints a\n"
	  "  refusal's diagnostics as `check --json` lines on stdout.\n" },
	{ "interpret", cli_cmd_interpret, CLI_PATHS, "semaprax interpret <file> --function <name|stable-id> [--arg <scalar literal>]... [--max-bytes N]\n"
	  "  verifies the file, then runs ONE function selected by name or stable id with one\n"
	  "  --arg per parameter (`7` is i64; `7i32`, `7u8`, `7usize`, `1.5` (f64), `1.5f32`,\n"
	  "  `true`, `'a'`; a `borrow str` takes a JSON string `\"text\"`, a `borrow Slice<u8>`\n"
	  "  a byte array `[1,2]`) and prints the `semaprax.interpret.v1` envelope: source,\n"
	  "  function, arguments, limits, fuel (1000000 steps) and the outcome (returned, failed\n"
	  "  with its status, fuel_exhausted, call_depth_exceeded).  The function must declare\n"
	  "  no `uses` and no type parameters, take scalars (or those views) and return a\n"
	  "  scalar; the functions it calls must not be generic nor return `string` (they\n"
	  "  may take it; SPX-F102 names the reason); argument mismatches are SPX-F103.  --max-bytes\n"
	  "  (1024..16777216, default 65536) bounds the envelope (SPX-F104 past it).\n"
	  "  Exit 0 when it returned, 1 otherwise, 2 on usage errors.\n" },
	{ "interpret-strings", cli_cmd_interpret, CLI_PATHS, "semaprax interpret-strings <file> --function <name|stable-id> [--arg <scalar literal>]... [--max-bytes N]\n"
	  "  `interpret` under the internal-String profile: the functions the selected one calls\n"
	  "  may also return `string` (the selected function still takes and returns\n"
	  "  scalars); prints the `semaprax.interpret.internal-strings.v1` envelope.\n" },
	{ "lock", cli_cmd_lock, CLI_PATHS | CLI_TOML, "semaprax lock [<dir>|semaprax.toml|--manifest-path <p>] [--write|--verify|--compare <base.lock>|--emit-interface|--compare-interface <json>]\n"
	  "  the project's deterministic lock (docs/LOCK.md): identity, per-module source digests\n"
	  "  and revisions, targets, capabilities (each module's permits), the exported\n"
	  "  declarations by stable id with their canonical headers, and the interface digest.\n"
	  "  No mode prints it; --write replaces `semaprax.lock` beside the manifest atomically;\n"
	  "  --verify exits 1 naming the first stale line (J130); --compare exits 1 naming each\n"
	  "  removed or changed exported declaration of the base lock (J131), 0 for additions;\n"
	  "  --emit-interface prints the exports and interface digest as JSON, which\n"
	  "  --compare-interface <json> compares as --compare does.\n" },
	{ "lsp", cli_cmd_lsp, 0, "semaprax lsp [--stdio] [--max-message-bytes N]\n"
	  "  the Language Server Protocol over stdio (Content-Length framing): diagnostics with\n"
	  "  fixes as code actions, hover, definition, references, rename (a semantic patch),\n"
	  "  formatting, document symbols, semantic tokens.  docs/editors.md shows the setup.\n" },
	{ "new", cli_cmd_new, 0, "semaprax new <dir> [--name <name>] [--template calculator|library|command]\n"
	  "  writes a new project into <dir> (which must not exist): semaprax.toml, an entry\n"
	  "  module, a core module and a test module that check, run and test green.  The name\n"
	  "  defaults to the directory's last component ([a-z][a-z0-9-]*, 1-64 bytes); the\n"
	  "  template to calculator; `command`'s entry is a command-line program that echoes\n"
	  "  its arguments (`semaprax run <dir> -- <arg>...`).  Nothing is ever overwritten.\n"
	  "  The project is written into a hidden sibling `.<dir>.semaprax-new-XXXXXX`, renamed\n"
	  "  into place at the end; one a killed `new` left is removed by the next `new` of\n"
	  "  that name when provably stale, else named (warning SPX-I102).\n" },
	{ "parse", cli_cmd_parse, CLI_PATHS | CLI_TOML | CLI_ONE_FILE, "semaprax parse <file> [--json] [--dump-ast]\n"
	  "  lexes and parses one file and reports syntax diagnostics; --dump-ast prints the\n"
	  "  span-free syntax tree.\n" },
	{ "patch", cli_cmd_patch, CLI_PATHS | CLI_TOML, "semaprax patch <file> <patch.spatch> [--dry-run] [--json]\n"
	  "semaprax patch <dir|semaprax.toml> <transaction.json> [--dry-run] [--json]\n"
	  "  applies a semantic patch (`.spatch`, docs/PATCH.md: `base <revision>`, `rename <id>\n"
	  "  to <name>`, v2 `rename-member`/`rename-case`, v3 `assign-function-id`, v4 body,\n"
	  "  expression, contract clause, function, parameter and case edits) to the verified file: the\n"
	  "  edits are re-verified, then committed atomically and `applied semantic patch; graph\n"
	  "  is now <revision>` printed.  A stale base (G409), a conflict (G106), a wrong kind\n"
	  "  (G107) or a result that does not verify changes nothing.  --dry-run prints the\n"
	  "  unified diff and the new revision and writes nothing.  A file the nearest\n"
	  "  semaprax.toml lists is patched as that module of its project: `base` is the\n"
	  "  module's revision, the whole patched project must verify, and the project's new\n"
	  "  revision is printed too.  Given a project, it applies a semantic transaction (the\n"
	  "  JSON `review <project>` takes: one patch per module): planned and verified as one\n"
	  "  project, then every module it changes is written or none is (a failed write\n"
	  "  restores the ones before it); --dry-run prints each module's diff.  --json prints every\n"
	  "  refusal (G1xx/G4xx/G5xx, the diagnostics of a program that does not verify, I/O) as\n"
	  "  `check --json` lines on stdout and a success as one `semaprax.patch-result.v1` object\n"
	  "  (revisions, modules, the diff of a dry run); exit statuses are unchanged.\n" },
	{ "query", cli_cmd_query, CLI_PATHS | CLI_TOML, "semaprax query <file> [--kind k[,k]] [--name text] [--id prefix] [--effect e] [--calls id] [--called-by id] [--json]\n"
	  "semaprax query [<dir>|semaprax.toml|--manifest-path <p>] [filters...] [--json]\n"
	  "  one line per matching declaration: kind, stable id, canonical header.  --name keeps\n"
	  "  names containing the text, --id stable ids starting with the prefix, --effect the\n"
	  "  functions whose `uses` names the effect exactly (e.g. process.stdout.write; none\n"
	  "  match an unknown one); --calls X lists the callers of X, --called-by X its callees.\n"
	  "  A project (<dir>|semaprax.toml|--manifest-path <p>) lists every module's declarations,\n"
	  "  each line prefixed by its source path, modules in ModuleId order; --calls/--called-by\n"
	  "  follow imported functions by stable id; --json: semaprax.project-query.c1.\n" },
	{ "registers", cli_cmd_registers, CLI_PATHS, "semaprax registers [<dir>|semaprax.toml|--manifest-path <p>] --register PATH --pattern REGEX [--severity error|warning] [--uncited] [--max-steps N] [--json]\n"
	  "semaprax registers [<dir>|semaprax.toml|--manifest-path <p>] [--max-steps N] [--json]\n"
	  "  checks the project, then the tokens its prose cites (attached `//` comments, contract\n"
	  "  clause source text, test case names: every whole match of the PCRE2 pattern)\n"
	  "  against a JSON register `{ \"tokens\": [\"REQ-1\", { \"token\": \"REQ-2\", \"retired\": true }] }`:\n"
	  "  a token the register does not list (J150) or retires (J151) and, with --uncited, a\n"
	  "  held token nobody cites (J152), with the given severity (default error).  Without\n"
	  "  --register, every `[registers]` row of the manifest (which `check` also runs).  Bad\n"
	  "  parameters are J140-J146 and produce no findings.  Prints one summary line per\n"
	  "  register (--json: the report object); exit 1 on an error finding (docs/REGISTERS.md).\n"
	  "  --max-steps N sets each check's pattern work budget, 1..1000000000 matching steps\n"
	  "  (default 20000000; past it, J143).\n" },
	{ "repair", cli_cmd_repair, CLI_PATHS | CLI_ONE_FILE, "semaprax repair <file> <repair-id> --persistent-id <id> [--json]\n"
	  "  previews one repair `repairs` listed: prints the `semaprax.diagnostic-repair-preview.v1`\n"
	  "  object with the v3 semantic patch that assigns the persistent id (for `patch`);\n"
	  "  writes nothing.  A bad or used id is R102, an unknown repair id R101.  A file the\n"
	  "  nearest semaprax.toml lists is that module of its project (the whole project verified).\n"
	  "  --json prints a refusal's diagnostics as `check --json` lines on stdout.\n" },
	{ "repairs", cli_cmd_repairs, CLI_PATHS | CLI_ONE_FILE, "semaprax repairs <file> assign-function-id <automatic-id> [--json]\n"
	  "  lists the repair of an SPX-S103 automatic function identity as a\n"
	  "  `semaprax.diagnostic-repair.v1` object (its repair id and the input it needs);\n"
	  "  writes nothing.  A file the nearest semaprax.toml lists is that module of its project.\n"
	  "  --json prints a refusal's diagnostics as `check --json` lines on stdout.\n" },
	{ "review", cli_cmd_review, CLI_PATHS | CLI_TOML, "semaprax review <file> <patch.spatch> [--json]\n"
	  "semaprax review <dir|semaprax.toml> <transaction.json> [--evidence] [--json]\n"
	  "  reviews a semantic patch without writing: the `semaprax.semantic-review.v1` report\n"
	  "  (sections behavior, api_identity, security_authority, memory_ownership,\n"
	  "  target_artifact, migration, unsafe, one finding per operation) with the complete\n"
	  "  impact report (v1/v2/v4) or identity rebase (v3) as evidence.  A bound exceeded is G120.\n"
	  "  A project reviews a `semaprax.semantic-transaction.c1` document (docs/PATCH.md): each\n"
	  "  module's patch against the one verified project, with other modules' direct callers.\n"
	  "  --json prints a refusal's diagnostics as `check --json` lines on stdout.\n" },
	{ "run", cli_cmd_run, CLI_PATHS | CLI_TOML, "semaprax run <file> [--json] [--max-steps N] [--max-bytes N] [--allow-write[=DIR]] [-- <arg>...]\n"
	  "semaprax run <file> --native [--allow-write[=DIR]] [-- <arg>...]\n"
	  "semaprax run <file> --wasm [--allow-write[=DIR]] [-- <arg>...]\n"
	  "semaprax run [<dir>|semaprax.toml|--manifest-path <p>] [--json] [--max-steps N] [--max-bytes N] [--native|--wasm] [--allow-write[=DIR]] [-- <arg>...]\n"
	  "  verifies one file, then executes `main` in the interpreter on the route its permits\n"
	  "  select: pure programs print main's value; programs permitting exactly\n"
	  "  `process.stdout.write` print their output, then the value; command-line programs\n"
	  "  (args, stdin, stderr, environment, clock, fs.read, fs.write) publish stderr then\n"
	  "  stdout and exit with main's value.  Files stay below the working directory; a\n"
	  "  module permitting fs.write runs only with --allow-write (writes anywhere below the\n"
	  "  working directory) or --allow-write=DIR (below DIR only), else SPX-F120; a\n"
	  "  network permit is SPX-F121.\n"
	  "  Failures print one status line on stderr and exit 1.  --max-steps bounds the\n"
	  "  evaluation steps (default 1000000); --max-bytes bounds the --json envelope.\n"
	  "  --native compiles the program with $CC instead and runs it (exit 70-73 on failure);\n"
	  "  --wasm emits a WebAssembly module and runs it under node ($SEMAPRAX_NODE) likewise.\n"
	  "  A project (a directory's semaprax.toml; none given: ./semaprax.toml) runs its entry\n"
	  "  module's `main` with every module linked by stable id, on the route of the union of\n"
	  "  the modules' permits, in any lane, with the arguments after `--`; its --json envelope\n"
	  "  carries a hosted route's stdout (and stderr) as byte arrays.\n" },
	{ "serve", cli_cmd_serve, CLI_PATHS | CLI_TOML, "semaprax serve [<file|dir|semaprax.toml>|--manifest-path <p>] [--mcp] [--max-message-bytes N]\n"
	  "  the semantic service over stdio: JSON-RPC 2.0 (or, with --mcp, the Model Context\n"
	  "  Protocol), one message per line, each at most N bytes (default 1048576) both ways.\n"
	  "  Methods: protocol, status, check, refresh, graph, context, query, doc, patch/preview,\n"
	  "  patch/impact, patch/review, patch/apply, repairs, repair, fix, run, test, ping,\n"
	  "  shutdown; `\"trace\": true` reports which products executed and which were reused.\n"
	  "  docs/service.md describes the protocol.\n" },
	{ "test", cli_cmd_test, CLI_PATHS | CLI_TOML, "semaprax test [<dir>|semaprax.toml|--manifest-path <p>] [--json] [--max-steps N] [--max-bytes N] [--lane interp|native|wasm|all] [--native-timeout-ms N] [--allow-write[=DIR]]\n"
	  "  checks the project, then runs its test module in the interpreter: `main` (passes\n"
	  "  iff it returns 0), then every case (`fn test_<name>() -> i64` with an explicit\n"
	  "  `@id`) ordered by stable id, each in a fresh interpreter with the whole step budget\n"
	  "  (default 1000000).  Prints `project tests passed (N named cases)`; a failure prints\n"
	  "  `failed <stable-id>: <outcome>` (a contract's clause and arguments below it), then\n"
	  "  `  at <path>:<line>:<col>: <source>` where it failed (the failed contract's clause,\n"
	  "  else the case's `fn`); then `project tests failed: F of T in <module>` and a\n"
	  "  `help:` line on stderr, exit 1.  --json prints the `semaprax.project-execution.v1`\n"
	  "  envelope (over --max-bytes, default 65536: SPX-F104); each run has `location` and a\n"
	  "  contract failure `failure_location` ({path, line, column}).\n"
	  "  --lane native|wasm runs each case as a fresh process of the compiled program or\n"
	  "  module (time budget --native-timeout-ms, default 10000); --lane all runs every lane\n"
	  "  and fails a run whose outcomes disagree (a Wasm W110 refusal is a note);\n"
	  "  --target is another spelling of --lane (`--target interpreter` of interp).\n"
	  "  A project permitting fs.write runs its cases only with --allow-write (below DIR\n"
	  "  with =DIR), as `run` does (SPX-F120 without).\n" },
	{ "version", cli_cmd_version, 0, "semaprax version [--json]\n"
	  "semaprax --version | -V\n"
	  "  the toolchain version; --json prints the `semaprax.version.v1` object.\n" },
};
const size_t cli_ncommands = countof(cli_commands);

int
cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = spx_vformat(fmt, ap);
	va_end(ap);
	/* the message quotes operands: their control bytes shown as \xNN */
	cli_put_visible(stderr, text);
	free(text);
	fprintf(stderr, "\nhint: run `semaprax help %s` for usage\n", cmd);
	return EXIT_USAGE;
}

/* The numeric options' one reader: a canonical decimal (no sign, no leading
 * zero, `0` itself) up to 2^63-1. */
bool
cli_parse_decimal(const char *s, uint64_t *out)
{
	if (!*s || (s[0] == '0' && s[1]))
		return false;
	uint64_t v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		uint64_t d = (uint64_t)(*p - '0');
		if (v > ((uint64_t)INT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

bool
cli_parse_positive(const char *s, uint64_t *out)
{
	return cli_parse_within(s, 1, (uint64_t)INT64_MAX, out);
}

bool
cli_parse_within(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v;
	if (!cli_parse_decimal(s, &v) || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* text on f with control bytes (a newline, an escape sequence) and bytes
 * that are not UTF-8 shown as \xNN: an operand echoed in a usage error
 * cannot forge a line or reach the terminal (diag_put_visible). */
void
cli_put_visible(FILE *f, const char *text)
{
	Buf b = {0};
	diag_put_visible(&b, text, strlen(text));
	if (b.len)
		fwrite(b.data, 1, b.len, f);
	buf_free(&b);
}

/* The usage error for an option the loop did not take: a known option that
 * takes a value and has none (`valued`, NULL-terminated), a known flag given
 * twice (`flags`), or an unknown option. */
int
cli_option_error(const char *cmd, const char *a, const char *const *valued, const char *const *flags)
{
	for (int i = 0; valued && valued[i]; i++)
		if (strcmp(a, valued[i]) == 0)
			return cli_usage(cmd, "%s option `%s` takes one value and may not be repeated", cmd, a);
	for (int i = 0; flags && flags[i]; i++)
		if (strcmp(a, flags[i]) == 0)
			return cli_usage(cmd, "%s option `%s` may not be repeated", cmd, a);
	return cli_unknown_option(cmd, a, NULL);
}

/* An option the command does not know: "unknown <cmd> option `a`", then the
 * nearest of the `--name` options its grammar (`help <cmd>`) spells, if one
 * is near (`--jsn` → `--json`), then `tail` (a grammar) when given. */
int
cli_unknown_option(const char *cmd, const char *a, const char *tail)
{
	CliNear nr = {0};
	const CliCommand *c = cli_find_command(cmd);
	/* the one option whose last word is a's (`--bytes` → `--max-bytes`) */
	const char *tailw = NULL;
	size_t tailn = 0;
	bool tail_many = false;
	size_t al = strlen(a);
	if (c && a[0] == '-' && a[1] == '-') {
		const char *u = c->usage;
		for (const char *p = strstr(u, "--"); p; p = strstr(p, "--")) {
			size_t n = 2;
			while (p[n] == '-' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9'))
				n++;
			if (n > 2 && (p == u || p[-1] != '-')) {
				cli_near_offer(&nr, a, p, n);
				if (al > 2 && n > al && p[n - al + 1] == '-' && memcmp(p + n - al + 2, a + 2, al - 2) == 0) {
					tail_many |= tailw && (tailn != n || memcmp(tailw, p, n) != 0);
					tailw = p;
					tailn = n;
				}
			}
			p += n;
		}
	}
	fprintf(stderr, "unknown %s option `", cmd);
	cli_put_visible(stderr, a);
	fputs("`", stderr);
	/* one edit for a short name (`--yaml` is not `--html`), two past 5 letters, or a prefix */
	bool near = nr.n > 0 && (nr.dist[0] <= (al - 2 <= 5 ? 1 : 2) ||
	    (nr.len[0] > al && strncmp(nr.name[0], a, al) == 0));
	if (near)
		fprintf(stderr, "; did you mean `%.*s`?", (int)nr.len[0], nr.name[0]);
	else if (tailw && !tail_many)
		fprintf(stderr, "; did you mean `%.*s`?", (int)tailn, tailw);
	if (tail)
		fprintf(stderr, "; %s", tail);
	fprintf(stderr, "\nhint: run `semaprax help %s` for usage\n", cmd);
	return EXIT_USAGE;
}

/* Set by `serve`: the process lives on, so each command frees its program. */
static bool release_programs;

void
cli_release_programs(bool on)
{
	release_programs = on;
}

void
cli_unload(Program *P)
{
#ifndef SPX_ASAN
	if (!release_programs)
		return;
#endif
	driver_program_free(P);
}

const CliCommand *
cli_find_command(const char *name)
{
	for (size_t i = 0; i < countof(cli_commands); i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return &cli_commands[i];
	return NULL;
}

/* A command that reads one source file (CLI_ONE_FILE), given a project (a directory
 * holding semaprax.toml, or the manifest) as its first operand: a usage
 * error naming the project's form, not "cannot read: Is a directory". */
static int
single_file_only(const char *cmd, const char *operand)
{
	if (operand[0] == '-')
		return -1;
	struct stat st;
	const char *base = strrchr(operand, '/');
	base = base ? base + 1 : operand;
	bool project = strcmp(base, "semaprax.toml") == 0;
	if (!project && stat(operand, &st) == 0 && S_ISDIR(st.st_mode)) {
		char *toml = spx_xmalloc(strlen(operand) + sizeof "/semaprax.toml");
		sprintf(toml, "%s/semaprax.toml", operand);
		project = stat(toml, &st) == 0;
		free(toml);
	}
	if (!project)
		return -1;
	if (strcmp(cmd, "impact") == 0)
		return cli_usage(cmd, "%s reads one source file, and `%s` is a project: pass the module file the patch changes "
		    "(`semaprax %s src/<module>.spx <p.spatch>`), which is patched within its project", cmd, operand, cmd);
	return cli_usage(cmd, "%s reads one source file, and `%s` is a project: check, run, test, build, fmt "
	    "and lock take projects; %s takes one of its sources that imports no other module", cmd, operand, cmd);
}

/* A `.toml` operand (CLI_TOML) other than semaprax.toml: not a source (it would fail as
 * SPX-P104 "expected `module`") and not a project these commands find by
 * name; a usage error saying how a manifest is named and passed. */
static int
foreign_toml(const char *cmd, const char *operand)
{
	size_t n = strlen(operand);
	if (operand[0] == '-' || n < 5 || strcmp(operand + n - 5, ".toml") != 0)
		return -1;
	const char *base = strrchr(operand, '/');
	base = base ? base + 1 : operand;
	if (strcmp(base, "semaprax.toml") == 0)
		return -1;
	return cli_usage(cmd, "`%s` is neither a `.spx` source nor a project manifest: a manifest is named "
	    "semaprax.toml (pass it or its directory), or is given as `--manifest-path %s` "
	    "to check, run, test, build, graph, query, context and lock", operand, operand);
}

/* A byte of an option's name in a grammar line. */
static bool
option_char(char c)
{
	return c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* A grammar's value placeholder naming a file or directory: `<p>`, `<path>`,
 * `<dir>`, `<json>` (a document's path) or a file name (`<base.lock>`). */
static bool
path_placeholder(const char *v)
{
	static const char *const names[] = { "<p>", "<path>", "<dir>", "<json>" };
	for (size_t i = 0; i < countof(names); i++)
		if (strncmp(v, names[i], strlen(names[i])) == 0)
			return true;
	const char *close = strchr(v, '>');
	return v[0] == '<' && close && memchr(v, '.', (size_t)(close - v)) && !memchr(v, ' ', (size_t)(close - v));
}

/* Whether option `opt` of a command takes the next word as its value, read
 * from the command's grammar lines (those starting `semaprax `), the one
 * spelling of its options: `--x <v>`, `--x N`, `--x a|b` take one;
 * `--x]`, `--x [`, `--x|--y` (alternatives) and `--x[=V]` do not; a short
 * alias (`-o|--output <path>`) is read as its long name.  2 valued with a
 * path (path_placeholder), 1 valued otherwise, 0 a flag, -1 not in the
 * grammar. */
static int
option_takes_value(const char *usage, const char *opt)
{
	size_t n = strlen(opt);
	for (const char *line = usage; strncmp(line, "semaprax ", 9) == 0; line = strchr(line, '\n') + 1) {
		const char *end = strchr(line, '\n');
		for (const char *p = strstr(line, opt); p && p < end; p = strstr(p + n, opt)) {
			const char *q = p + n;
			if (option_char(p[-1]) || option_char(*q))
				continue;
			if (opt[1] != '-' && q[0] == '|' && q[1] == '-')
				for (q++; option_char(*q);)
					q++;
			if (q[0] != ' ' || q[1] == '[' || q[1] == '-')
				return 0;
			return path_placeholder(q + 1) ? 2 : 1;
		}
	}
	return -1;
}

/* An empty operand where a command reads a file, a project or a patch: a usage
 * error naming it (as `new ''`), not SPX-I001 "cannot read : …" at an empty
 * path, nor an empty path as an option's value (`--manifest-path ''`).  The
 * word after an option that takes another value (option_takes_value) is that
 * value, even empty, and so is the word after an option the command does not
 * know (it reports that option); words after `--` are a program's arguments:
 * all left to the command. */
static int
empty_operand(const char *cmd, const char *usage, int argc, char **argv)
{
	int operand = 0;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			break;
		if (a[0] == '-' && a[1] != '\0') {
			int v = strchr(a, '=') ? 0 : option_takes_value(usage, a);
			if (v == 2 && i + 1 < argc && argv[i + 1][0] == '\0')
				return cli_usage(cmd, "%s option `%s` requires a non-empty path: its value is the empty string", cmd, a);
			i += v != 0;
			continue;
		}
		operand++;
		if (a[0] == '\0')
			return cli_usage(cmd, "%s requires a non-empty operand: operand %d is the empty string", cmd, operand);
	}
	return -1;
}

/*
 * Every command's standard output, settled: a write that failed (a full
 * disk, a closed or read-only descriptor) means the command did not print
 * what it says it did, so it is I101 on stderr and status 1 rather than a
 * silent success (a command that already failed keeps its status).  A
 * closed pipe still ends the process by SIGPIPE, as for any filter.
 */
static int
stdout_settle(int st)
{
	errno = 0;
	bool flushed = fflush(stdout) == 0;
	int e = errno;
	if (flushed && !ferror(stdout))
		return st;
	char msg[256];
	snprintf(msg, sizeof msg, "cannot write standard output: %s", e ? strerror(e) : "a write failed");
	cli_report(DIAG_I101, NULL, msg, "check the space and permissions where standard output goes; what was printed is incomplete");
	return st == EXIT_OK ? EXIT_FAIL : st;
}

static int
dispatch(int argc, char **argv)
{
	spx_tune_allocator();
	if (argc < 2) {
		cli_print_guide();
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
		return cli_cmd_help(argc - 1, argv + 1);
	if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
		return cli_cmd_version(argc - 1, argv + 1);
	const CliCommand *c = cli_find_command(name);
	if (!c)
		return cli_unknown_command(name);
	/* `<command> --help` as the sole operand prints that command's grammar. */
	if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
		fputs(c->usage, stdout);
		return EXIT_OK;
	}
	int st = -1;
	if (c->operands & CLI_PATHS)
		st = empty_operand(name, c->usage, argc, argv);
	if (st < 0 && argc >= 3 && (c->operands & CLI_TOML))
		st = foreign_toml(name, argv[2]);
	if (st < 0 && argc >= 3 && (c->operands & CLI_ONE_FILE))
		st = single_file_only(name, argv[2]);
	if (st >= 0)
		return st;
	return c->run(argc - 1, argv + 1);
}

#ifdef SPX_ASAN
/*
 * Under AddressSanitizer, LeakSanitizer takes its roots from the stacks,
 * registers and thread-local storage but not from the data segment
 * (use_globals=0): a block that only a global still points to at exit is
 * reported, and each exit costs ~1,000 fewer page faults (the scan read the
 * runtime's 4.4 MB stack depot page by page).  The standard streams get
 * static buffers, so no block of libc's is held by a global alone.
 * LSAN_OPTIONS still overrides.  docs/DECISIONS.md "ci42".
 */
const char *__lsan_default_options(void);
const char *
__lsan_default_options(void)
{
	return "use_globals=0";
}

static char stdout_buf[BUFSIZ], stdin_buf[BUFSIZ];
#endif

int
main(int argc, char **argv)
{
#ifdef SPX_ASAN
	setvbuf(stdout, stdout_buf, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, sizeof stdout_buf);
	setvbuf(stdin, stdin_buf, _IOFBF, sizeof stdin_buf);
#endif
	int st = stdout_settle(dispatch(argc, argv));
	if (st == EXIT_BY_SIGPIPE) {
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(SIGPIPE);
		st = 128 + SIGPIPE;   /* as a shell reports the signal, should it not end us */
	}
	return st;
}
