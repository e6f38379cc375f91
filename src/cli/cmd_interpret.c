/*
 * cmd_interpret.c — `semaprax interpret <file> --function <name|stable-id>
 * [--arg <scalar literal>]… [--max-bytes N]` and `interpret-strings …`
 * (TOOLCHAIN.md §1.2, §3.3): one explicitly selected effect-free scalar
 * function of one verified file, run in the interpreter (src/interp) with
 * the given arguments, reported as one envelope on stdout.
 *
 * Steps, each failing closed before the next:
 *   1. options (exit 2): `--function` exactly once, `--arg` once per
 *      parameter, `--max-bytes` at most once, a canonical integer in
 *      1,024..16,777,216 (default 65,536; outside: SPX-F101);
 *   2. verify the file as `check` does (its diagnostics, exit 1);
 *   3. select the first function (declaration order) whose stable id or
 *      name is the token; none: SPX-F102 `selection `x` does not name a
 *      function in this program`, help naming the nearest functions;
 *   4. admit its signature: no type parameters (generic_function), no
 *      `uses` (declared_effects), plain parameters, or `borrow` for a `str`
 *      or `Slice<u8>` view (unsupported_parameter_mode), scalar or view
 *      parameter types and a scalar result (unsupported_parameter_type,
 *      unsupported_result_type) — SPX-F102 `interpreter admission failed
 *      (<reason>): function `f``;
 *   5. bind the arguments: their count (SPX-F103 `function `f` takes N
 *      argument(s), M were provided`), each literal's grammar, and the type
 *      it denotes against its parameter's (SPX-F103) — a bare decimal is
 *      i64, narrower integers carry their suffix (`7i32`, `200u8`,
 *      `4usize`), floats need a fraction (`1.5`, `0.25f32`), chars are
 *      quoted in the language's escapes, a `str` is a canonical JSON string
 *      (`"h\u0000é"`) and a `Slice<u8>` a canonical JSON byte array
 *      (`[1,2,255]`), each borrowed by the run and echoed as written;
 *   6. admit every function it reaches (calls, function values, closure
 *      bodies): none may have type parameters or `uses`, and none may
 *      return `string` — else SPX-F102 (unsupported_callee) at the call;
 *      records, variants, collections, views and `string` parameters pass.
 *      `interpret-strings` (`semaprax.interpret.internal-strings.v1`)
 *      widens exactly this: a callee may also return `string`;
 *   7. run with the default step budget (1,000,000) and print the envelope
 *      (cli_interpret_envelope, cmd_run.c) and a newline; longer than
 *      --max-bytes: SPX-F104, nothing printed.  Exit 0 when it returned, 1
 *      on a failure status, fuel exhaustion or the call-depth ceiling.
 * Function bodies are not restricted by shape (records, matches, loops,
 * strings, collections run as in `run`; docs/DECISIONS.md), nor is an
 * automatic identity refused.
 */
#include "cli.h"

#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../hir/hir.h"
#include "../interp/interp.h"
#include "../sema/sema.h"
#include "../support/json.h"
#include "../support/utf8.h"

#define MAX_BYTES_MIN 1024
#define MAX_BYTES_MAX (16u * 1024 * 1024)
#define DEFAULT_STEPS 1000000

/* One location-less diagnostic (cli_report) of a formatted message. */
static void reportf(DiagCode code, const char *path, const char *help, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
reportf(DiagCode code, const char *path, const char *help, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = spx_vformat(fmt, ap);
	va_end(ap);
	cli_report(code, path, msg, help);
	free(msg);
}

typedef struct InterpretOptions {
	const char *cmd;          /* "interpret" or "interpret-strings" */
	bool strings;             /* the internal-String profile */
	const char *path;
	const char *function;
	const char **args;
	int nargs;
	uint64_t max_bytes;
} InterpretOptions;

static int
parse_options(int argc, char **argv, InterpretOptions *o)
{
	bool have_bytes = false;
	o->args = spx_xcalloc((size_t)argc, sizeof *o->args);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--function") == 0 || strcmp(a, "--arg") == 0 || strcmp(a, "--max-bytes") == 0) {
			if ((a[2] == 'f' && o->function) || (a[2] == 'm' && have_bytes))
				return cli_usage(o->cmd, "%s option `%s` may not be repeated", o->cmd, a);
			if (i + 1 >= argc)
				return cli_usage(o->cmd, "%s option `%s` requires a value", o->cmd, a);
			const char *v = argv[++i];
			if (a[2] == 'f') {
				if (!*v)
					return cli_usage(o->cmd, "%s option `--function` requires a function name or stable id", o->cmd);
				o->function = v;
			} else if (a[2] == 'a') {
				if (!*v)
					return cli_usage(o->cmd, "%s option `--arg` requires a scalar literal", o->cmd);
				o->args[o->nargs++] = v;
			} else {
				have_bytes = true;
				uint64_t n;
				if (!cli_parse_decimal(v, &n))
					return cli_usage(o->cmd, "%s option `--max-bytes` takes a canonical decimal %d..%u, not `%s`", o->cmd,
					    MAX_BYTES_MIN, MAX_BYTES_MAX, v);
				if (n < MAX_BYTES_MIN || n > MAX_BYTES_MAX) {   /* the reference's range check: F101 */
					reportf(DIAG_F101, NULL, "pass `--max-bytes` between 1024 and 16777216 (default 65536)",
						"interpret max_bytes must be between %d and %u", MAX_BYTES_MIN, MAX_BYTES_MAX);
					return EXIT_USAGE;
				}
				o->max_bytes = n;
			}
		} else if (a[0] == '-' && a[1] != '\0') {
			return cli_unknown_option(o->cmd, a, NULL);
		} else if (!o->path) {
			o->path = a;
		} else {
			return cli_usage(o->cmd, "%s takes one <file>; `%s` is a second operand (arguments go in `--arg <literal>`)",
					 o->cmd, a);
		}
	}
	if (!o->path)
		return cli_usage(o->cmd, "%s requires a <file>", o->cmd);
	if (!o->function)
		return cli_usage(o->cmd, "%s requires --function <name|stable-id>", o->cmd);
	return EXIT_OK;
}

/* ---- the profile ---- */

static bool
scalar_type(Sema *S, TypeId t)
{
	return sema_type_is_scalar(&S->types, t);
}

/* In the profile as a parameter or result type: a scalar, or for the
 * internal-String profile's callees also `string`. */
static bool
profile_type(Sema *S, TypeId t, bool strings)
{
	return scalar_type(S, t) || (strings && sema_type_info(&S->types, t)->kind == TY_STRING);
}

/* `str` or `Slice<u8>`: a parameter taking one borrows it (`borrow str`). */
static bool
view_type(Sema *S, TypeId t)
{
	TyKind k = sema_type_info(&S->types, t)->kind;
	return k == TY_STR || k == TY_SLICE;
}

/* The reason the signature of function symbol `sym` is outside the
 * profile (strings: a callee of interpret-strings), or NULL. */
static const char *
refusal(Sema *S, const Sym *f, bool strings)
{
	if (f->ntparams > 0)
		return "generic_function";
	if (f->neffects > 0)
		return "declared_effects";
	for (int i = 0; i < f->nparams; i++)
		if (f->params[i].mode != (view_type(S, f->params[i].type) ? MODE_BORROW : MODE_NONE))
			return "unsupported_parameter_mode";
	for (int i = 0; i < f->nparams; i++)
		if (!view_type(S, f->params[i].type) && !profile_type(S, f->params[i].type, strings))
			return "unsupported_parameter_type";
	if (!profile_type(S, f->result, strings))
		return "unsupported_result_type";
	return NULL;
}

/* The reason a function the selected one reaches is outside the profile,
 * or NULL: a type parameter, `uses`, and — for `interpret`, not for
 * `interpret-strings` — a `string` result (the reference's plain
 * interpreter takes `fn f(text: string) -> i64`, owned_string_loops_v1, and
 * refuses `fn read(…) -> string`, map_collections_v2).  Anything else our
 * interpreter runs is admitted (records, variants, collections, views). */
static const char *
callee_refusal(Sema *S, const Sym *f, bool strings)
{
	if (f->ntparams > 0)
		return "generic_function";
	if (f->neffects > 0)
		return "declared_effects";
	if (strings)
		return NULL;
	if (sema_type_info(&S->types, f->result)->kind == TY_STRING)
		return "unsupported_result_type";
	return NULL;
}

/* ---- selection ---- */

static int
select_function(HirModule *H, const char *token)
{
	for (int i = 0; i < H->nfuncs; i++) {
		const HirFunc *f = &H->funcs[i];
		if (f->kind != HIR_FUNC_DECL || H->S->syms.items[f->sym].kind != SK_FN)
			continue;
		if (strcmp(f->id, token) == 0 || strcmp(f->name, token) == 0)
			return i;
	}
	return -1;
}

static void
report_unknown(const InterpretOptions *o, HirModule *H)
{
	CliNear nr = {0};
	Buf all = {0};
	int listed = 0;
	for (int i = 0; i < H->nfuncs; i++) {
		const HirFunc *f = &H->funcs[i];
		if (f->kind != HIR_FUNC_DECL || H->S->syms.items[f->sym].kind != SK_FN)
			continue;
		cli_near_offer(&nr, o->function, f->name, strlen(f->name));
		cli_near_offer(&nr, o->function, f->id, strlen(f->id));
		if (listed < 8)
			buf_printf(&all, "%s`%s`", listed ? ", " : "", f->name);
		else if (listed == 8)
			buf_puts(&all, ", …");
		listed++;
	}
	Buf help = {0};
	if (nr.n > 0) {
		buf_puts(&help, "nearest: ");
		for (int i = 0; i < nr.n; i++)
			buf_printf(&help, "%s`%.*s`", i ? ", " : "", (int)nr.len[i], nr.name[i]);
	} else if (listed) {
		buf_printf(&help, "the module's functions: %.*s", (int)all.len, all.data);
	} else {
		buf_puts(&help, "the module declares no function");
	}
	buf_puts(&help, "; `semaprax query <file> --kind function` lists names and stable ids");
	DiagSink s;
	diag_init(&s, o->path, NULL, 0);
	Diag *d = diag_report(&s, DIAG_F102, NULL, "selection `%s` does not name a function in this program", o->function);
	if (d)
		diag_set_help(d, "%s", help.data);
	diag_emit_all(&s, false);
	diag_free(&s);
	buf_free(&help);
	buf_free(&all);
}

static const char admission_help[] =
	"interpret runs one function with no type parameters and no `uses`, whose parameters are plain "
	"scalars (i64, i32, u8, usize, f32, f64, bool, char) or `borrow str`/`borrow Slice<u8>` views and "
	"whose result is a scalar; `run` executes a whole program";

/* ---- arguments ---- */

typedef struct Arg {
	Value v;
	const char *type;         /* the type the literal denotes */
	uint8_t *view;            /* str / Slice<u8>: the bytes v borrows (heap; the caller frees) */
} Arg;

static bool
arg_error(const InterpretOptions *o, const char *fmt, const char *text, const char *detail)
{
	Buf msg = {0};
	buf_printf(&msg, fmt, text, detail);
	cli_report(DIAG_F103, o->path, msg.data,
		   "a literal denotes one type: `7` is i64, `7i32`, `7u8`, `7usize`, `1.5` f64, `1.5f32`, "
		   "`true`, `'a'`; give one per parameter, in order");
	buf_free(&msg);
	return false;
}

static bool
parse_char(const InterpretOptions *o, const char *text, Arg *out)
{
	const unsigned char *p = (const unsigned char *)text + 1;
	uint32_t cp;
	if (*p == '\\') {
		p++;
		switch (*p++) {
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case '0': cp = 0; break;
		case '\'': cp = '\''; break;
		case '\\': cp = '\\'; break;
		case 'u': {
			if (*p++ != '{')
				goto bad;
			int n = 0;
			cp = 0;
			for (; *p && *p != '}'; p++, n++) {
				int h = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
					*p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
				if (h < 0 || n >= 6)
					goto bad;
				cp = cp * 16 + (uint32_t)h;
			}
			if (*p++ != '}' || n == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
				goto bad;
			break;
		}
		default:
			goto bad;
		}
	} else {
		int n = utf8_decode(p, strlen((const char *)p), &cp);
		if (n == 0 || cp == '\'')
			goto bad;
		p += n;
	}
	if (p[0] != '\'' || p[1] != '\0')
		goto bad;
	out->v = v_int(V_CHAR, 0);
	out->v.u = cp;
	out->type = "char";
	return true;
bad:
	return arg_error(o, "argument `%s` is not a char literal%s", text, "");
}

/* The float form: digits (already read), a required fraction, an optional
 * exponent, an optional f32/f64 suffix; finite only. */
static bool
parse_float(const InterpretOptions *o, const char *text, const char *frac, Arg *out)
{
	const char *p = frac;
	size_t nf = strspn(p, "0123456789");
	if (nf == 0)
		return arg_error(o, "argument `%s` is not a float literal (%s)", text, "fraction requires at least one digit");
	p += nf;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		size_t ne = strspn(p, "0123456789");
		if (ne == 0)
			return arg_error(o, "argument `%s` is not a float literal (%s)", text, "exponent requires at least one digit");
		p += ne;
	}
	bool wide;
	if (*p == '\0' || strcmp(p, "f64") == 0)
		wide = true;
	else if (strcmp(p, "f32") == 0)
		wide = false;
	else
		return arg_error(o, "argument `%s` is not a float literal (%s)", text, "only `f32` and `f64` suffixes are admitted");
	size_t n = (size_t)(p - text);
	char *body = spx_xmalloc(n + 1);
	memcpy(body, text, n);
	body[n] = '\0';
	bool finite;
	if (wide) {
		double d = strtod(body, NULL);
		finite = d == d && d <= 1.7976931348623157e308 && d >= -1.7976931348623157e308;
		out->v = v_int(V_F64, 0);
		out->v.f = d;
		out->type = "f64";
	} else {
		float f = strtof(body, NULL);
		finite = f == f && f <= 3.40282347e38f && f >= -3.40282347e38f;
		out->v = v_int(V_F32, 0);
		out->v.f32 = f;
		out->type = "f32";
	}
	free(body);
	if (!finite)
		return arg_error(o, "argument `%s` is not a float literal (%s)", text, "literal is outside the declared float range");
	return true;
}

/* `"…"` as a canonical JSON string (serde's escapes: \" \\ \n \r \t \b \f,
 * other controls as \u00xx): a borrowed `str` literal. */
static bool
canonical_json_string(const char *t)
{
	const unsigned char *p = (const unsigned char *)t + 1;
	for (;;) {
		if (*p == '"')
			return p[1] == '\0';
		if (*p == '\0' || *p < 0x20)
			return false;
		if (*p == '\\') {
			p++;
			if (strchr("\"\\nrtbf", *p) && *p) {
				p++;
				continue;
			}
			if (p[0] != 'u' || p[1] != '0' || p[2] != '0' || !strchr("01", p[3]) || !p[3] || !strchr("0123456789abcdef", p[4]) || !p[4])
				return false;
			unsigned c = (unsigned)((p[3] - '0') * 16 + (p[4] <= '9' ? p[4] - '0' : p[4] - 'a' + 10));
			if (strchr("\n\r\t\b\f", (int)c) && c)
				return false;
			p += 5;
			continue;
		}
		uint32_t cp;
		int n = utf8_decode(p, strlen((const char *)p), &cp);
		if (n == 0)
			return false;
		p += n;
	}
}

/* `[1,2,3]`: canonical decimals 0..255, no spaces: a borrowed Slice<u8>. */
static bool
canonical_byte_array(const char *t)
{
	const char *p = t + 1;
	if (*p == ']')
		return p[1] == '\0';
	for (;;) {
		size_t n = strspn(p, "0123456789");
		if (n == 0 || n > 3 || (n > 1 && *p == '0') || atoi(p) > 255)
			return false;
		p += n;
		if (*p == ']')
			return p[1] == '\0';
		if (*p++ != ',')
			return false;
	}
}

/* The bytes of a canonical `"…"` (canonical_json_string) or `[…]`
 * (canonical_byte_array) literal, as a borrowed view. */
static void
view_of(const char *t, Arg *out)
{
	size_t n = 0;
	uint8_t *b = spx_xmalloc(strlen(t) + 1);
	if (t[0] == '[') {
		for (const char *p = t + 1; *p && *p != ']'; p++) {
			b[n++] = (uint8_t)atoi(p);
			p += strspn(p, "0123456789");
			if (*p == ']')
				break;
		}
	} else {
		for (const unsigned char *p = (const unsigned char *)t + 1; *p != '"'; p++) {
			if (*p != '\\') {
				b[n++] = *p;
				continue;
			}
			p++;
			switch (*p) {
			case 'n': b[n++] = '\n'; break;
			case 'r': b[n++] = '\r'; break;
			case 't': b[n++] = '\t'; break;
			case 'b': b[n++] = '\b'; break;
			case 'f': b[n++] = '\f'; break;
			case 'u':   /* \u00xx, a control character */
				b[n++] = (uint8_t)((p[3] - '0') * 16 + (p[4] <= '9' ? p[4] - '0' : p[4] - 'a' + 10));
				p += 4;
				break;
			default: b[n++] = *p; break;   /* \" and \\ */
			}
		}
	}
	out->view = b;
	out->v = v_int(V_VIEW, 0);
	out->v.bytes = b;
	out->v.n = (uint32_t)n;
}

static bool
parse_argument(const InterpretOptions *o, const char *text, Arg *out)
{
	memset(out, 0, sizeof *out);
	if (text[0] == '[') {
		if (!canonical_byte_array(text))
			return arg_error(o, "argument `%s` is not a canonical byte array literal%s", text, "");
		out->type = "Slice<u8>";
		view_of(text, out);
		return true;
	}
	if (text[0] == '"') {
		if (!canonical_json_string(text))
			return arg_error(o, "argument `%s` is not a canonical UTF-8 string literal%s", text, "");
		out->type = "str";
		view_of(text, out);
		return true;
	}
	if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
		out->v = v_bool(text[0] == 't');
		out->type = "bool";
		return true;
	}
	if (text[0] == '\'')
		return parse_char(o, text, out);
	bool neg = text[0] == '-';
	const char *digits = text + neg;
	size_t nd = strspn(digits, "0123456789");
	if (nd == 0 || (nd > 1 && digits[0] == '0'))
		return arg_error(o, "argument `%s` is not a scalar literal%s", text, "");
	const char *tail = digits + nd;
	if (*tail == '.')
		return parse_float(o, text, tail + 1, out);
	/* the magnitude, saturating past u64 */
	uint64_t mag = 0;
	bool big = false;
	for (size_t i = 0; i < nd; i++) {
		uint64_t d = (uint64_t)(digits[i] - '0');
		if (mag > (UINT64_MAX - d) / 10)
			big = true;
		else
			mag = mag * 10 + d;
	}
	if (*tail == '\0') {
		if (big || mag > (uint64_t)INT64_MAX + neg)
			return arg_error(o, "argument `%s` does not fit i64%s", text, "");
		out->v = v_int(V_I64, neg ? (int64_t)(0 - mag) : (int64_t)mag);
		out->type = "i64";
	} else if (strcmp(tail, "i32") == 0) {
		if (big || mag > (uint64_t)INT32_MAX + neg)
			return arg_error(o, "argument `%s` is outside the i32 range%s", text, "");
		out->v = v_int(V_I32, neg ? -(int64_t)mag : (int64_t)mag);
		out->type = "i32";
	} else if (strcmp(tail, "u8") == 0 || strcmp(tail, "usize") == 0) {
		bool u8 = tail[1] == '8';
		if (neg || big || (u8 && mag > 255))
			return arg_error(o, u8 ? "argument `%s` is outside the u8 range%s" : "argument `%s` is outside the usize range%s",
					 text, "");
		out->v = v_int(u8 ? V_U8 : V_USIZE, 0);
		out->v.u = mag;
		out->type = u8 ? "u8" : "usize";
	} else {
		return arg_error(o, "argument `%s` is not a scalar literal%s", text, "");
	}
	return true;
}

/* Binds o->args to f's parameters (SPX-F103 on a count, literal or type
 * mismatch); the arguments' JSON into json. */
static bool
bind_arguments(const InterpretOptions *o, Sema *S, const HirFunc *f, Value *vals, uint8_t **views, Buf *json)
{
	if (o->nargs != f->nparams) {
		reportf(DIAG_F103, o->path, "pass one `--arg <literal>` per parameter, in declaration order",
			"function `%s` takes %d argument(s), %d were provided", f->name, f->nparams, o->nargs);
		return false;
	}
	buf_putc(json, '[');
	for (int i = 0; i < o->nargs; i++) {
		Arg a;
		if (!parse_argument(o, o->args[i], &a))
			return false;
		views[i] = a.view;
		const char *want = sema_type_name(S, f->locals[i].type);
		if (strcmp(want, a.type) != 0) {
			Buf msg = {0};
			buf_printf(&msg, "parameter `%s` of function `%s` expects %s, but argument `%s` is %s",
				   f->locals[i].name, f->name, want, o->args[i], a.type);
			cli_report(DIAG_F103, o->path, msg.data,
				   "a literal denotes one type: `7` is i64, `7i32`, `7u8`, `7usize`, `1.5` f64, `1.5f32`, "
				   "`true`, `'a'`; give one per parameter, in order");
			buf_free(&msg);
			return false;
		}
		vals[i] = a.v;
		buf_printf(json, "%s{\"index\":%d,\"name\":", i ? "," : "", i);
		json_cstr(json, f->locals[i].name);
		buf_puts(json, ",\"type\":");
		json_cstr(json, a.type);
		buf_puts(json, ",\"value\":");
		if (a.view)   /* the canonical literal, as the reference renders a borrowed argument */
			json_cstr(json, o->args[i]);
		else
			cli_scalar_json(json, &a.v);
		buf_putc(json, '}');
	}
	buf_putc(json, ']');
	return true;
}

/* ---- the functions it reaches ---- */

typedef struct Reach {
	HirModule *H;
	int32_t *of_sym;          /* SymId → HIR function index, or -1 */
	bool *seen;
	int *work;
	int nwork;
	bool strings;
	int caller;               /* the function being walked */
	const HirExpr *refused;   /* the first call (or function value) out of the profile */
	SymId refused_sym;
	const char *reason;
} Reach;

static void
reach_push(Reach *R, int fi)
{
	if (fi >= 0 && !R->seen[fi]) {
		R->seen[fi] = true;
		R->work[R->nwork++] = fi;
	}
}

static void
reach_pre(void *ctx, const HirExpr *e)
{
	Reach *R = ctx;
	if (R->refused)
		return;
	if (e->kind == HIR_CLOSURE) {
		reach_push(R, e->u.closure.func);
		return;
	}
	if (!(e->kind == HIR_FUNC || (e->kind == HIR_CALL && e->u.call.kind == CALL_FN)))
		return;
	SymId sym = e->u.call.fn;
	Sema *S = R->H->S;
	const Sym *f = &S->syms.items[sym];
	const char *why = f->origin ? "import_call" : callee_refusal(S, f, R->strings);
	if (!why && e->kind == HIR_CALL && e->u.call.ntargs > 0)
		why = "generic_call";
	if (why) {
		R->refused = e;
		R->refused_sym = sym;
		R->reason = why;
		return;
	}
	reach_push(R, R->of_sym[sym]);
}

/* Walks everything `entry` reaches; false after SPX-F102 at the first call
 * outside the profile. */
static bool
admit_reach(const InterpretOptions *o, const Session *L, int entry)
{
	HirModule *H = L->H;
	Reach R = { .H = H, .strings = o->strings };
	R.of_sym = spx_xmalloc(sizeof *R.of_sym * (size_t)(H->S->syms.len ? H->S->syms.len : 1));
	for (int i = 0; i < H->S->syms.len; i++)
		R.of_sym[i] = -1;
	for (int i = 0; i < H->nfuncs; i++)
		if (H->funcs[i].sym >= 0)
			R.of_sym[H->funcs[i].sym] = i;
	R.seen = spx_xcalloc((size_t)H->nfuncs, sizeof *R.seen);
	R.work = spx_xmalloc(sizeof *R.work * (size_t)H->nfuncs);
	reach_push(&R, entry);
	HirVisitor v = { .pre = reach_pre, .ctx = &R };
	while (R.nwork > 0 && !R.refused) {
		R.caller = R.work[--R.nwork];
		hir_visit(&H->funcs[R.caller], &v);
	}
	bool ok = !R.refused;
	if (!ok) {
		const Sym *callee = &H->S->syms.items[R.refused_sym];
		const HirFunc *caller = &H->funcs[R.caller];
		DiagSink s;
		diag_init(&s, o->path, L->src, L->len);
		Diag *d = diag_report(&s, DIAG_F102, &R.refused->span,
				      "interpreter admission failed (unsupported_callee): `%s` %s `%s`, which is outside the interpreter profile (%s)",
				      caller->name, R.refused->kind == HIR_FUNC ? "uses" : "calls", callee->name, R.reason);
		bool strings_only = !o->strings && !callee_refusal(H->S, callee, true) && !callee->origin;
		if (d)
			diag_set_help(d, "%s%s", admission_help,
				      strings_only ? "; `semaprax interpret-strings` also admits helpers returning `string`" : "");
		diag_emit_all(&s, false);
		diag_free(&s);
	}
	free(R.of_sym);
	free(R.seen);
	free(R.work);
	return ok;
}

/* ---- the command ---- */

static int
interpret(const InterpretOptions *o, Session *L)
{
	HirModule *H = L->H;
	int fi = select_function(H, o->function);
	if (fi < 0) {
		report_unknown(o, H);
		return EXIT_FAIL;
	}
	const HirFunc *f = &H->funcs[fi];
	const char *why = refusal(H->S, &H->S->syms.items[f->sym], false);
	if (why) {
		reportf(DIAG_F102, o->path, admission_help, "interpreter admission failed (%s): function `%s`", why, f->name);
		return EXIT_FAIL;
	}
	if (f->nparams > INTERP_MAX_ENTRY_ARGS) {
		reportf(DIAG_F102, o->path, admission_help,
			"interpreter admission failed (unsupported_parameter_type): function `%s` takes more than %d parameters",
			f->name, INTERP_MAX_ENTRY_ARGS);
		return EXIT_FAIL;
	}
	Value vals[INTERP_MAX_ENTRY_ARGS];
	uint8_t *views[INTERP_MAX_ENTRY_ARGS] = {0};
	Buf args = {0};
	int status = EXIT_FAIL;
	Buf env = {0};
	InterpResult r;
	memset(&r, 0, sizeof r);
	if (!bind_arguments(o, H->S, f, vals, views, &args) || !admit_reach(o, L, fi))
		goto out;
	InterpOptions io = {0};
	io.max_steps = DEFAULT_STEPS;
	io.entry_args = vals;
	io.nentry_args = f->nparams;
	interp_run_image_func(&H, 1, 0, fi, &io, &r);
	if (r.stop == STOP_LIMIT) {
		fprintf(stderr, "interpretation stopped at an interpreter limit: %s\n", r.message);
		goto out;
	}
	CliInterpretFacts facts = {
		.schema = o->strings ? "semaprax.interpret.internal-strings.v1" : "semaprax.interpret.v1",
		.payload_domain = o->strings ? "semaprax.interpret.internal-strings.payload.v1" : "semaprax.interpret.payload.v1",
		.path = o->path, .m = L->m, .src = L->src, .src_len = L->len,
		.fn_id = f->id, .fn_name = f->name, .arguments_json = args.data,
		.max_bytes = o->max_bytes, .max_steps = DEFAULT_STEPS,
	};
	cli_interpret_envelope(&env, &facts, &r);
	if (env.len > o->max_bytes) {
		reportf(DIAG_F104, o->path, "raise `--max-bytes` (at most 16777216)",
			"interpret output exceeds the max-bytes budget; refusing to truncate (%zu bytes, budget %" PRIu64 ")",
			env.len, o->max_bytes);
		goto out;
	}
	fwrite(env.data, 1, env.len, stdout);
	putchar('\n');
	status = r.stop == STOP_NONE ? EXIT_OK : EXIT_FAIL;
out:
	buf_free(&env);
	buf_free(&args);
	interp_result_free(&r);
	for (int i = 0; i < o->nargs && i < INTERP_MAX_ENTRY_ARGS; i++)
		free(views[i]);
	return status;
}

int
cli_cmd_interpret(int argc, char **argv)
{
	InterpretOptions o;
	memset(&o, 0, sizeof o);
	o.cmd = argv[0];
	o.strings = strcmp(argv[0], "interpret-strings") == 0;
	o.max_bytes = 65536;
	int st = parse_options(argc, argv, &o);
	if (st != EXIT_OK) {
		free(o.args);
		return st;
	}
	Program P;
	Session *L;
	driver_program_load_file(&P, o.path, &L, SESSION_VERIFY);
	diag_emit_all(&L->diags, false);
	st = L->H ? interpret(&o, L) : EXIT_FAIL;
	cli_unload(&P);
	free(o.args);
	fflush(stdout);
	return st;
}
