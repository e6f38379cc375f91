/*
 * help.c — the help system of TOOLCHAIN.md §1.1: the guided overview
 * (`semaprax`, `--help`, `-h`, `help`), `help all`, `help <command>`,
 * `help language [topics|all|<topic>]`, `help diagnostic codes|<SPX-code>`,
 * `version [--json]`, and the unknown-command reply.
 *
 * Sources, so nothing drifts:
 *   - grammar: the command table (main.c); `help all` prints every line of
 *     it that starts with `semaprax `, `help <command>` a row's whole text;
 *   - the overview: the guide table below names commands; one that is not
 *     in the command table is listed as "not yet available";
 *   - the language card: docs/language-card.md, embedded at build time; a
 *     `## <topic>` heading (outside fenced blocks) starts a topic, the text
 *     before the first one is the short guide (`help language`);
 *   - `help diagnostic`: the card's mistakes-index table (`| SPX-… | wrote
 *     | fix |` rows) and the diagnostic register (title, default fix).
 * Every help form writes stdout only and exits 0; bad operands write stderr
 * only and exit 2.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "../support/json.h"

static const char banner[] = "SEMAPRAX \xE2\x80\x94 Meaning in. Verified machine code out.\n";

/* ==== the guided overview ================================================================= */

typedef struct GuideEntry {
	const char *group;     /* starts a new group when it differs from the previous row's */
	const char *command;   /* the command-table name it needs */
	const char *shape;     /* an abbreviated shape (not grammar: `help <command>` is) */
	const char *purpose;
} GuideEntry;

static const GuideEntry guide_rows[] = {
	{ "Write, check, and run", "check", "check <file> [--json]", "verify; print the revision" },
	{ "Write, check, and run", "fix", "fix <file> [--dry-run]", "apply the diagnostics' fixes" },
	{ "Write, check, and run", "fmt", "fmt <file|dir> [--check]", "rewrite sources canonically" },
	{ "Write, check, and run", "parse", "parse <file> [--dump-ast]", "syntax only" },
	{ "Write, check, and run", "run", "run <file> [-- args]", "verify, run `main` (interpreter)" },
	{ "Write, check, and run", "test", "test [project]", "run declared tests" },
	{ "Write, check, and run", "build", "build <file> [-o exe]", "native executable (C11, $CC)" },
	{ "Write, check, and run", "interpret", "interpret <file>", "run one --function; also interpret-strings" },
	{ "Inspect meaning", "graph", "graph <file>", "the semantic graph (JSON)" },
	{ "Inspect meaning", "context", "context <file> <symbol>", "bounded context around a symbol" },
	{ "Inspect meaning", "doc", "doc <file> [--json|--html]", "declarations, contracts, comments" },
	{ "Inspect meaning", "query", "query <file> [--kind k]", "one line per declaration" },
	{ "Change by meaning", "patch", "patch <file> <p.spatch>", "apply a semantic patch" },
	{ "Change by meaning", "impact", "impact <file> <p.spatch>", "preview a patch's reach" },
	{ "Change by meaning", "review", "review <file> <p.spatch>", "review a patch" },
	{ "Change by meaning", "repairs", "repairs <file> <kind> <id>", "list a repair; `repair` previews it" },
	{ "Change by meaning", "verify", "verify", "re-check evidence" },
	{ "Agents", "serve", "serve <file|dir> [--mcp]", "semantic service (JSON-RPC, MCP)" },
	{ "Agents", "lsp", "lsp", "language server (LSP over stdio)" },
	{ "Agents", "agent", "agent inspect", "agent session facts" },
	{ "Start a project", "new", "new <dest>", "a project from a template" },
	{ "Start a project", "lock", "lock [project] [--write]", "the lock; --write saves it" },
	{ "Start a project", "registers", "registers <project>", "cited tokens against a register" },
	{ "Start a project", "project-scaffold", "project-scaffold --name n", "print a scaffold" },
	{ "Toolchain", "explain", "explain <SPX-CODE>", "a diagnostic's meaning and fix" },
	{ "Toolchain", "doctor", "doctor", "check the install" },
	{ "Toolchain", "version", "version [--json]", "toolchain version" },
	{ "Toolchain", "help", "help <command>|all", "one command's exact grammar, or all" },
	{ "Toolchain", "help", "help language [topic]", "the language card" },
	{ "Toolchain", "help", "help diagnostic codes", "common codes; `help diagnostic <code>`" },
	{ "Toolchain", "help", "help library [name]", "the bundled std library" },
};

/* Each group: its available entries, then one line naming those not yet available. */
void
cli_print_guide(void)
{
	Buf b = {0};
	buf_puts(&b, banner);
	buf_puts(&b, "\nUsage: semaprax <command> [arguments]\n");
	size_t n = countof(guide_rows);
	for (size_t i = 0; i < n;) {
		const char *group = guide_rows[i].group;
		size_t end = i;
		while (end < n && strcmp(guide_rows[end].group, group) == 0)
			end++;
		buf_printf(&b, "\n%s:\n", group);
		int missing = 0;
		for (size_t k = i; k < end; k++) {
			if (cli_find_command(guide_rows[k].command))
				buf_printf(&b, "  %-27s %s\n", guide_rows[k].shape, guide_rows[k].purpose);
			else
				missing++;
		}
		if (missing) {
			buf_puts(&b, "  not yet available:");
			bool first = true;
			for (size_t k = i; k < end; k++)
				if (!cli_find_command(guide_rows[k].command)) {
					buf_printf(&b, "%s %s", first ? "" : ",", guide_rows[k].command);
					first = false;
				}
			buf_putc(&b, '\n');
		}
		i = end;
	}
	buf_puts(&b, "\nStart with `semaprax check <file>`; add --json for one diagnostic object per line.\n");
	buf_puts(&b, "Exit status: 0 success, 1 diagnostics or failure, 2 usage errors.\n");
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
}

/* ==== suggestions ========================================================================== */

/* A unique command within distance 1 (names of ≤4 chars) or 2. */
static const char *
suggest_command(const char *name)
{
	const char *best = NULL;
	for (size_t i = 0; i < cli_ncommands; i++) {
		const char *c = cli_commands[i].name;
		int limit = strlen(c) <= 4 ? 1 : 2;
		if (spx_edit_distance(name, c, true) <= limit) {   /* OSA: a transposition is one edit */
			if (best)
				return NULL;
			best = c;
		}
	}
	return best;
}

int
cli_unknown_command(const char *name)
{
	const char *s = suggest_command(name);
	fputs("unknown command `", stderr);
	cli_put_visible(stderr, name);
	if (s)
		fprintf(stderr, "`; did you mean `%s`?\n\n", s);
	else
		fputs("`\n\n", stderr);
	cli_print_guide();
	return EXIT_USAGE;
}

void
cli_near_offer(CliNear *nr, const char *want, const char *cand, size_t len)
{
	char tmp[64];
	if (len >= sizeof tmp)
		return;
	memcpy(tmp, cand, len);
	tmp[len] = '\0';
	for (int i = 0; i < nr->n; i++)
		if (nr->len[i] == len && memcmp(nr->name[i], cand, len) == 0)
			return;   /* offered already */
	int d = spx_edit_distance(want, tmp, true);
	if (d > 2 && !(strlen(want) >= 3 && strncmp(want, tmp, strlen(want)) == 0))
		return;
	int at = nr->n;
	while (at > 0 && nr->dist[at - 1] > d)
		at--;
	if (at >= 3)
		return;
	for (int k = (nr->n < 3 ? nr->n : 2); k > at; k--) {
		nr->name[k] = nr->name[k - 1];
		nr->len[k] = nr->len[k - 1];
		nr->dist[k] = nr->dist[k - 1];
	}
	nr->name[at] = cand;
	nr->len[at] = len;
	nr->dist[at] = d;
	if (nr->n < 3)
		nr->n++;
}

void
cli_near_print(const CliNear *nr)
{
	for (int i = 0; i < nr->n; i++)
		fprintf(stderr, "%s`%.*s`", i ? ", " : "; nearest: ", (int)nr->len[i], nr->name[i]);
	fputc('\n', stderr);
}

/* ==== the language card ======================================================================= */

/* The line after the one starting at p (or the end). */
static const char *
next_line(const char *p)
{
	const char *nl = strchr(p, '\n');
	return nl ? nl + 1 : p + strlen(p);
}

static bool
is_topic_heading(const char *p)
{
	return p[0] == '#' && p[1] == '#' && p[2] == ' ';
}

/* Length of the topic name of a heading line `## name…`: up to a space or newline. */
static size_t
topic_len(const char *h)
{
	size_t n = 0;
	while (h[3 + n] && h[3 + n] != '\n' && h[3 + n] != ' ')
		n++;
	return n;
}

/* The first topic heading at or after line p outside fenced blocks (p starts outside one). */
static const char *
next_heading(const char *p)
{
	bool fenced = false;
	for (; *p; p = next_line(p)) {
		if (strncmp(p, "```", 3) == 0)
			fenced = !fenced;
		else if (!fenced && is_topic_heading(p))
			return p;
	}
	return p;
}

static const char *
first_topic(void)
{
	return next_heading(cli_language_card);
}

/* The heading of the topic after the one at h (or the end of the card). */
static const char *
topic_end(const char *h)
{
	return next_heading(next_line(h));
}

static const char *
find_topic(const char *name)
{
	size_t len = strlen(name);
	for (const char *h = first_topic(); *h; h = topic_end(h))
		if (topic_len(h) == len && memcmp(h + 3, name, len) == 0)
			return h;
	return NULL;
}

static void
topic_list(Buf *b)
{
	for (const char *h = first_topic(); *h; h = topic_end(h)) {
		buf_put(b, h + 3, topic_len(h));
		buf_putc(b, *topic_end(h) ? ' ' : '\n');
	}
}

static int
help_language(int argc, char **argv)
{
	if (argc > 3)
		return cli_usage("help", "help language takes at most one topic, got `%s`", argv[3]);
	Buf b = {0};
	if (argc == 2) {
		const char *t = first_topic();
		buf_put(&b, cli_language_card, (size_t)(t - cli_language_card));
		buf_puts(&b, "Topics: ");
		topic_list(&b);
		buf_puts(&b, "More: semaprax help language <topic> | all\n");
	} else if (strcmp(argv[2], "all") == 0) {
		buf_puts(&b, cli_language_card);
	} else if (strcmp(argv[2], "topics") == 0) {
		topic_list(&b);
	} else {
		const char *h = find_topic(argv[2]);
		if (!h) {
			CliNear nr = {0};
			for (const char *t = first_topic(); *t; t = topic_end(t))
				cli_near_offer(&nr, argv[2], t + 3, topic_len(t));
			fputs("unknown language topic `", stderr);
			cli_put_visible(stderr, argv[2]);
			fputs("`", stderr);
			cli_near_print(&nr);
			fputs("hint: `semaprax help language topics` lists them\n", stderr);
			return EXIT_USAGE;
		}
		buf_put(&b, h, (size_t)(topic_end(h) - h));
	}
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
	return EXIT_OK;
}

/* ==== diagnostics =============================================================================== */

/* A mistakes-index row: `| SPX-X000 | wrote | fix |`. */
typedef struct MistakeRow {
	const char *code, *wrote, *fix;
	size_t ncode, nwrote, nfix;
} MistakeRow;

/* The cell starting at p (after `| `): its text without the trailing ` `; returns the next cell. */
static const char *
cell(const char *p, const char **text, size_t *len)
{
	while (*p == ' ')
		p++;
	const char *e = p;
	while (*e && *e != '|' && *e != '\n')
		e++;
	*text = p;
	size_t n = (size_t)(e - p);
	while (n > 0 && p[n - 1] == ' ')
		n--;
	*len = n;
	return *e == '|' ? e + 1 : e;
}

/* The row at line p, if it is one; the table is the `mistakes-index` topic. */
static bool
mistake_row(const char *p, MistakeRow *r)
{
	if (strncmp(p, "| SPX-", 6) != 0)
		return false;
	p = cell(p + 1, &r->code, &r->ncode);
	p = cell(p, &r->wrote, &r->nwrote);
	cell(p, &r->fix, &r->nfix);
	return r->ncode > 0 && r->nwrote > 0 && r->nfix > 0;
}

#define COMMON_CODES 12

static int
help_codes(void)
{
	const char *h = find_topic("mistakes-index");
	const char *end = h ? topic_end(h) : NULL;
	MistakeRow seen[COMMON_CODES];
	int n = 0;
	Buf b = {0};
	buf_puts(&b, "Common diagnostic codes:\n");
	for (const char *p = h; p && p < end && n < COMMON_CODES; p = next_line(p)) {
		MistakeRow r;
		if (!mistake_row(p, &r))
			continue;
		bool dup = false;
		for (int i = 0; i < n; i++)
			dup |= seen[i].ncode == r.ncode && memcmp(seen[i].code, r.code, r.ncode) == 0;
		if (dup)
			continue;
		seen[n++] = r;
		buf_printf(&b, "%s%.*s", n > 1 ? " " : "", (int)r.ncode, r.code);
	}
	buf_puts(&b, "\nFix: semaprax help diagnostic <code>\n");
	buf_puts(&b, "All: semaprax help language mistakes-index\n");
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
	return EXIT_OK;
}

static const char *
sev_word(DiagSeverity s)
{
	switch (s) {
	case SEV_ERROR: return "error";
	case SEV_WARNING: return "warning";
	default: return "retired";
	}
}

static int
help_diagnostic(int argc, char **argv)
{
	if (argc < 3)
		return cli_usage("help", "help diagnostic needs `codes` or an SPX code");
	if (argc > 3)
		return cli_usage("help", "help diagnostic takes one operand, got `%s`", argv[3]);
	if (strcmp(argv[2], "codes") == 0)
		return help_codes();
	const char *code = argv[2];
	int id = diag_lookup(code);   /* as `explain`: `T225` is `SPX-T225` */
	if (id < 0) {
		/* suggestions ignore case (`spx-t208` finds `SPX-T208`); the lookup does not */
		char up[64];
		size_t n = strlen(code) < sizeof up - 1 ? strlen(code) : sizeof up - 1;
		for (size_t i = 0; i < n; i++)
			up[i] = code[i] >= 'a' && code[i] <= 'z' ? (char)(code[i] - 'a' + 'A') : code[i];
		up[n] = '\0';
		CliNear nr = {0};
		for (int i = 0; i < DIAG__COUNT; i++)
			cli_near_offer(&nr, up, diag_info[i].code, strlen(diag_info[i].code));
		fputs("unknown diagnostic code `", stderr);
		cli_put_visible(stderr, code);
		fputs("` (codes are exact, like `SPX-T208`)", stderr);
		cli_near_print(&nr);
		fputs("hint: `semaprax help diagnostic codes` lists common ones\n", stderr);
		return EXIT_USAGE;
	}
	const DiagInfo *d = &diag_info[id];
	code = d->code;
	Buf b = {0};
	buf_printf(&b, "%s (%s): %s\n", d->code, sev_word(d->sev), d->title);
	const char *h = find_topic("mistakes-index");
	const char *end = h ? topic_end(h) : NULL;
	int rows = 0;
	for (const char *p = h; p && p < end; p = next_line(p)) {
		MistakeRow r;
		if (!mistake_row(p, &r) || r.ncode != strlen(code) || memcmp(r.code, code, r.ncode) != 0)
			continue;
		buf_printf(&b, "%swrote: %.*s\nfix: %.*s\n", rows++ ? "\n" : "", (int)r.nwrote, r.wrote, (int)r.nfix, r.fix);
	}
	if (rows == 0)
		buf_printf(&b, "fix: %s\n", d->help);
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
	return EXIT_OK;
}

/* ==== help and version ============================================================================= */

/* `help all`: every grammar line of the command table, in table order. */
static void
help_all(void)
{
	Buf b = {0};
	buf_puts(&b, banner);
	buf_puts(&b, "\nUsage:\n");
	for (size_t i = 0; i < cli_ncommands; i++)
		for (const char *p = cli_commands[i].usage; *p; p = next_line(p))
			if (strncmp(p, "semaprax ", 9) == 0) {
				buf_puts(&b, "  ");
				buf_put(&b, p, (size_t)(next_line(p) - p));
			}
	buf_puts(&b, "\nDetails: semaprax help <command>\n");
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
}

int
cli_cmd_help(int argc, char **argv)
{
	if (argc <= 1) {
		cli_print_guide();
		return EXIT_OK;
	}
	if (strcmp(argv[1], "language") == 0)
		return help_language(argc, argv);
	if (strcmp(argv[1], "diagnostic") == 0)
		return help_diagnostic(argc, argv);
	if (strcmp(argv[1], "library") == 0)
		return cli_help_library(argc, argv);
	if (argc > 2)
		return cli_usage("help", "help accepts exactly one operand here, got `%s`", argv[2]);
	if (strcmp(argv[1], "all") == 0) {
		help_all();
		return EXIT_OK;
	}
	const CliCommand *c = cli_find_command(argv[1]);
	if (!c) {
		const char *s = suggest_command(argv[1]);
		fputs("unknown command `", stderr);
		cli_put_visible(stderr, argv[1]);
		if (s)
			fprintf(stderr, "`; did you mean `%s`?\n", s);
		else
			fputs("`\n", stderr);
		fputs("hint: `semaprax help all` lists every command\n", stderr);
		return EXIT_USAGE;
	}
	fputs(c->usage, stdout);
	return EXIT_OK;
}

int
cli_json_only(const char *cmd, int argc, char **argv, bool *json)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0 && !*json)
			*json = true;
		else if (argv[i][0] != '-')
			return cli_usage(cmd, "%s takes no operand, got `%s`", cmd, argv[i]);
		else
			return cli_option_error(cmd, argv[i], NULL, (const char *const[]){ "--json", NULL });
	}
	return EXIT_OK;
}

int
cli_cmd_version(int argc, char **argv)
{
	bool json = false;
	int st = cli_json_only("version", argc, argv, &json);
	if (st != EXIT_OK)
		return st;
	if (json)
		printf("{\"schema\":\"semaprax.version.v1\",\"version\":\"%s\",\"commit\":null,\"maturity\":\"alpha\",\"implementation\":\"semaprax-c\"}\n", SPX_VERSION);
	else
		printf("semaprax %s (C implementation)\n", SPX_VERSION);
	return EXIT_OK;
}
