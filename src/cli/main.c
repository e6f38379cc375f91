/*
 * main.c — the `semaprax` command dispatcher, help, version and the
 * unknown-command suggestion (TOOLCHAIN.md §1.1).
 */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/json.h"

static const char guide[] =
	"SEMAPRAX \xE2\x80\x94 Meaning in. Verified machine code out.\n"
	"\n"
	"Usage: semaprax <command> [arguments]\n"
	"\n"
	"Write, check, and run:\n"
	"  check <file> [--json]               verify a file; prints its graph revision\n"
	"  fmt <file|dir> [--check|--stdout]   rewrite sources in canonical form\n"
	"  parse <file> [--json] [--dump-ast]  lex and parse only (syntax diagnostics)\n"
	"  run <file> [--json] [-- args]       verify, then execute `main` in the interpreter\n"
	"  build <file> [-o <exe>]             compile natively (C11 via $CC) to an executable\n"
	"\n"
	"Toolchain:\n"
	"  explain <SPX-CODE> [--json]         what a diagnostic code means and how to fix it\n"
	"  version [--json]                    print the toolchain version\n"
	"  help [<command>]                    this overview, or one command's grammar\n"
	"\n"
	"Diagnostics go to stderr (human) or stdout (--json, one object per line).\n"
	"Exit status: 0 success, 1 diagnostics or failure, 2 usage errors.\n";

typedef struct Command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
} Command;

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const Command commands[] = {
	{ "build", cli_cmd_build, "semaprax build <file> [--target native|c] [-o|--output <path>] [--json]\n"
	  "  verifies one file, emits C11 and compiles it with $CC (default cc) into an executable\n"
	  "  (default: beside the source without `.spx`); `--target c` writes the C11 translation\n"
	  "  unit instead (default `<stem>.c`); an existing output is never overwritten.\n" },
	{ "check", cli_cmd_check, "semaprax check <file> [--json]\n"
	  "  verifies one file (types, effects, contracts, names, matches) and prints\n"
	  "  `verified <path> (sha256:<revision>)`; warnings do not fail, errors exit 1.\n" },
	{ "explain", cli_cmd_explain, "semaprax explain <SPX-CODE> [--json]\n" },
	{ "fmt", cli_cmd_fmt, "semaprax fmt <file|dir> [--check|--stdout]\n"
	  "  rewrites each .spx file canonically (atomically; a file that fails to parse is left\n"
	  "  untouched and nothing is written when any file fails); --check writes nothing and\n"
	  "  lists non-canonical files (exit 1); --stdout prints the canonical form of one file.\n" },
	{ "help", cmd_help, "semaprax help [<command>]\n" },
	{ "parse", cli_cmd_parse, "semaprax parse <file> [--json] [--dump-ast]\n"
	  "  lexes and parses one file and reports syntax diagnostics; --dump-ast prints the\n"
	  "  span-free syntax tree.\n" },
	{ "run", cli_cmd_run, "semaprax run <file> [--json] [--max-steps N] [--max-bytes N] [-- <arg>...]\n"
	  "  verifies one file, then executes `main` in the interpreter on the route its permits\n"
	  "  select: pure programs print main's value; programs permitting exactly\n"
	  "  `process.stdout.write` print their output, then the value; command-line programs\n"
	  "  (args, stderr, fs.read) publish stderr then stdout and exit with main's value.\n"
	  "  Failures print one status line on stderr and exit 1.  --max-steps bounds the\n"
	  "  evaluation steps (default 1000000); --max-bytes bounds the --json envelope.\n"
	  "  --native compiles the program with $CC instead and runs it (exit 70-73 on failure).\n" },
	{ "version", cmd_version, "semaprax version [--json]\n" },
};

int
cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nhint: run `semaprax help %s` for usage\n", cmd);
	return EXIT_USAGE;
}

void
cli_unload(Program *P)
{
#ifndef SPX_ASAN
	(void)P;
	return;
#endif
	driver_program_free(P);
}

static const Command *
find_command(const char *name)
{
	for (size_t i = 0; i < countof(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* A unique command within distance 1 (names of ≤4 chars) or 2. */
static const char *
suggest(const char *name)
{
	const char *best = NULL;
	for (size_t i = 0; i < countof(commands); i++) {
		const char *c = commands[i].name;
		int limit = strlen(c) <= 4 ? 1 : 2;
		if (spx_edit_distance(name, c, true) <= limit) {   /* OSA: transpositions count 1 */
			if (best)
				return NULL;
			best = c;
		}
	}
	return best;
}

static int
unknown_command(const char *name)
{
	const char *s = suggest(name);
	if (s)
		fprintf(stderr, "unknown command `%s`; did you mean `%s`?\n\n", name, s);
	else
		fprintf(stderr, "unknown command `%s`\n\n", name);
	fputs(guide, stdout);
	return EXIT_USAGE;
}

static int
cmd_help(int argc, char **argv)
{
	if (argc <= 1) {
		fputs(guide, stdout);
		return EXIT_OK;
	}
	if (argc > 2)
		return cli_usage("help", "help takes at most one command name");
	const Command *c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	fputs(c->usage, stdout);
	return EXIT_OK;
}

static int
cmd_version(int argc, char **argv)
{
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0 && !json)
			json = true;
		else
			return cli_usage("version", "unknown version option `%s`", argv[i]);
	}
	if (json)
		printf("{\"schema\":\"semaprax.version.v1\",\"version\":\"%s\",\"commit\":null,\"maturity\":\"alpha\",\"implementation\":\"semaprax-c\"}\n", SPX_VERSION);
	else
		printf("semaprax %s (C implementation)\n", SPX_VERSION);
	return EXIT_OK;
}

int
main(int argc, char **argv)
{
	spx_tune_allocator();
	if (argc < 2) {
		fputs(guide, stdout);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
		return cmd_help(1, argv + 1);
	if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
		return cmd_version(1, argv + 1);
	const Command *c = find_command(name);
	if (!c)
		return unknown_command(name);
	/* `<command> --help` as the sole operand prints that command's grammar. */
	if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
		fputs(c->usage, stdout);
		return EXIT_OK;
	}
	return c->run(argc - 1, argv + 1);
}
