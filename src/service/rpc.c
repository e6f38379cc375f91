/*
 * rpc.c — JSON-RPC 2.0 and MCP over stdio (docs/service.md, "Protocol").
 *
 * Framing: one message per line (newline-delimited JSON, what MCP's stdio
 * transport specifies; our writer never emits a raw newline inside a
 * message).  A frame longer than the bound (--max-message-bytes, 1 MiB by
 * default) is skipped to its newline and answered with SVC_E_TOO_LARGE;
 * memory stays bounded by the bound.  Nesting deeper than SVC_MAX_DEPTH is
 * refused before the parser sees it; jansson parses the rest
 * (JSON_REJECT_DUPLICATES; invalid UTF-8 is a parse error; `\u0000` is
 * read, for source text, and refused in every other string parameter; a
 * method or tool name holding it is no method, never the name before it).  A message
 * without an id is a notification and gets no reply, whatever it says;
 * batches (arrays) are refused (MCP dropped them).
 */
#include "svc_int.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../support/json.h"
#include "../project/manifest.h"

/* ---- open and close ------------------------------------------------------------- */

Service *
svc_open(const SvcOptions *o)
{
	Service *v = spx_xcalloc(1, sizeof *v);
	v->o = *o;
	if (v->o.max_message < SVC_MIN_MAX_MESSAGE)
		v->o.max_message = SVC_DEFAULT_MAX_MESSAGE;
	const char *operand = o->manifest_path ? o->manifest_path : o->operand;
	v->operand = spx_xstrdup(operand);
	v->manifest = project_manifest_for(o->manifest_path ? NULL : o->operand, o->manifest_path);
	v->project = v->manifest != NULL;
	svc_file_init(&v->file, operand);
	return v;
}

void
svc_close(Service *v)
{
	if (!v)
		return;
	if (v->pj) {
		project_free(v->pj);
		free(v->pj);
	}
	for (int i = 0; i < v->nov; i++) {
		free((char *)v->ov[i].path);
		free((char *)v->ov[i].src);
	}
	free(v->ov);
	svc_file_free(&v->file);
	free(v->manifest);
	free(v->operand);
	free(v);
}

/* ---- replies -------------------------------------------------------------------- */

/* The id as written back: an integer, a string, or null (also the LSP server's). */
void
svc_put_id(Buf *out, json_t *id)
{
	if (id && json_is_integer(id))
		buf_printf(out, "%lld", (long long)json_integer_value(id));
	else if (id && json_is_string(id))
		json_str(out, json_string_value(id), json_string_length(id));
	else
		buf_puts(out, "null");
}

/* A message as a JSON string that is always UTF-8: a byte that starts no
 * well-formed sequence (a name cut by `%.100s` or by the message buffer's
 * bound, a path's raw bytes) is U+FFFD.  The shared writer does the
 * replacement (json_str), so this only names the intent at call sites. */
void
svc_json_text(Buf *out, const char *message)
{
	json_cstr(out, message);
}

/* An error's message with its `data` left out (null past the message
 * bound): a message ending SVC_DATA_HELD ends SVC_DATA_NULL instead. */
static const char *
message_data_null(const char *message, char *buf, size_t size)
{
	size_t n = strlen(message), h = strlen(SVC_DATA_HELD);
	if (n < h || strcmp(message + n - h, SVC_DATA_HELD) != 0)
		return message;
	snprintf(buf, size, "%.*s%s", (int)(n - h), message, SVC_DATA_NULL);
	return buf;
}

/* The error object; data (a JSON object: a project read's diagnostics) is
 * its `data` when the reply stays within max (0: no bound), else
 * {"diagnostics":null} (`check` lists them) and the message says so. */
static void
reply_error_data(Buf *out, json_t *id, int code, const char *message, const char *data, size_t max)
{
	out->len = 0;
	buf_puts(out, "{\"jsonrpc\":\"2.0\",\"id\":");
	svc_put_id(out, id);
	buf_printf(out, ",\"error\":{\"code\":%d,\"message\":", code);
	size_t mark = out->len;
	svc_json_text(out, message);
	if (data && (max == 0 || out->len + strlen(data) + 16 <= max)) {
		buf_puts(out, ",\"data\":");
		buf_puts(out, data);
	} else if (data) {
		char alt[sizeof ((SvcError *)0)->message + sizeof SVC_DATA_NULL];
		out->len = mark;
		svc_json_text(out, message_data_null(message, alt, sizeof alt));
		buf_puts(out, ",\"data\":{\"diagnostics\":null}");
	}
	buf_puts(out, "}}");
}

static void
reply_error(Buf *out, json_t *id, int code, const char *message)
{
	reply_error_data(out, id, code, message, NULL, 0);
}

static void
reply_result(Service *v, Buf *out, json_t *id, const Buf *result)
{
	out->len = 0;
	buf_puts(out, "{\"jsonrpc\":\"2.0\",\"id\":");
	svc_put_id(out, id);
	buf_puts(out, ",\"result\":");
	if (out->len + result->len + 1 > v->o.max_message) {
		char msg[128];
		snprintf(msg, sizeof msg, "the result (%zu bytes) exceeds the %zu-byte message bound", result->len, v->o.max_message);
		reply_error(out, id, SVC_E_RESPONSE_TOO_LARGE, msg);
		return;
	}
	buf_put(out, result->data ? result->data : "null", result->data ? result->len : 4);
	buf_putc(out, '}');
}

/* ---- MCP ------------------------------------------------------------------------ */

#define MCP_LATEST "2025-06-18"
static const char *const mcp_versions[] = { "2025-06-18", "2025-03-26", "2024-11-05" };

typedef struct McpTool {
	const char *name, *method, *description, *schema;
} McpTool;

#define NO_ARGS "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}"
/* The .spatch grammar an agent needs to write a patch (docs/PATCH.md; agent40:
 * the schema said only "string", and the refusals point to a file the MCP
 * client may not have).  tests/service/mcp.py checks that every operation
 * of docs/PATCH.md's v4 grammar is named. */
#define PATCH_GRAMMAR "\"the .spatch text (docs/PATCH.md), one instruction a line: `schema semaprax.semantic-patch.v4`, " \
	"`base <the revision check answers>`, then operations on stable ids (query lists them): `rename <fn-id> to <name>`; " \
	"`rename-member owner <record-or-case-id> member <field-id> to <name>`; `rename-case owner <variant-id> case <case-id> to <name>`; " \
	"`replace-body function <fn-id> with <fragment>`; `replace-expression expression declaration:<len>:<fn-id>:expression:<n> with " \
	"<fragment>` (<len>: the id's bytes; <n>: the expression's number in graph or context); `add-clause function <fn-id> " \
	"requires|ensures with <expr>`; `remove-clause function <fn-id> requires|ensures index <n>`; `add-function after <decl-id> with " \
	"<fragment>`; `delete-function function <fn-id>`; `change-parameter-type function <fn-id> parameter <n> from <type> to <type>`; " \
	"`add-parameter function <fn-id> index <n> with <name>: <type> [argument <expr>]`; `remove-parameter function <fn-id> index <n>`; " \
	"`add-case variant <variant-id> with <fragment>`; `remove-case variant <variant-id> case <case-id-or-name>`; " \
	"`require no-new-effects`. A fragment is the rest of the line, or the lines between a `<<<` ending the line and a line `>>>`; " \
	"`#` starts a comment line. A function without an explicit @id gets one first: repairs, repair, then patch_apply.\""
#define TRACE_ARG "\"trace\":{\"type\":\"boolean\",\"description\":\"report which products executed and which were reused\"}"

static const McpTool mcp_tools[] = {
	{ "protocol", "protocol", "The service protocol: version, framing, message bound, methods, operand.", NO_ARGS },
	{ "status", "status", "What the service holds now (operand, bytes, declarations, revision: computed if a refresh left it pending).", NO_ARGS },
	{ "check", "check", "Verify the program (incrementally): ok, revision and diagnostics (each with its code, span, help and fixes).",
	  "{\"type\":\"object\",\"properties\":{" TRACE_ARG "},\"additionalProperties\":false}" },
	{ "refresh", "refresh", "Replace the held source with `text` (unsaved bytes), or apply `edits` to it, or re-read it from disk when both are absent; then check (the revision only with `revision: true`).",
	  "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\",\"description\":\"the whole new source\"},"
	  "\"path\":{\"type\":\"string\",\"description\":\"a served project: the module file text or edits stand for (alone: its disk bytes again)\"},"
	  "\"edits\":{\"type\":\"array\",\"description\":\"byte-range replacements applied in order\",\"items\":{\"type\":\"object\","
	  "\"properties\":{\"start\":{\"type\":\"integer\",\"minimum\":0},\"end\":{\"type\":\"integer\",\"minimum\":0},"
	  "\"text\":{\"type\":\"string\"}},\"required\":[\"start\",\"end\",\"text\"],\"additionalProperties\":false}},"
	  "\"revision\":{\"type\":\"boolean\",\"description\":\"also answer the revision (computed only when asked)\"}," TRACE_ARG
	  "},\"additionalProperties\":false}" },
	{ "graph", "graph", "The semantic graph (semaprax.graph.c1) of the verified program.",
	  "{\"type\":\"object\",\"properties\":{" TRACE_ARG "},\"additionalProperties\":false}" },
	{ "context", "context", "Bounded agent context (semaprax.context.c1) around one declaration.",
	  "{\"type\":\"object\",\"properties\":{\"symbol\":{\"type\":\"string\",\"description\":\"stable id, name or Owner.name\"},"
	  "\"direction\":{\"enum\":[\"forward\",\"reverse\",\"both\"]},\"depth\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":1024},"
	  "\"max_bytes\":{\"type\":\"integer\",\"minimum\":2048,\"maximum\":16777216},\"max_nodes\":{\"type\":\"integer\",\"minimum\":1,"
	  "\"maximum\":65536},\"filters\":{\"type\":\"array\",\"minItems\":1,\"uniqueItems\":true,\"items\":{\"enum\":[\"contracts\",\"ownership\",\"effects\",\"types\"]}},"
	  TRACE_ARG "},\"required\":[\"symbol\"],\"additionalProperties\":false}" },
	{ "query", "query", "Declarations matching every filter given (semaprax query --json).",
	  "{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"array\",\"minItems\":1,\"uniqueItems\":true,\"items\":{\"enum\":[\"function\",\"method\","
	  "\"record\",\"field\",\"variant\",\"case\",\"case_field\",\"class\",\"resource\",\"interface\",\"import\"]}},\"name\":{\"type\":\"string\"},"
	  "\"id\":{\"type\":\"string\"},\"effect\":{\"type\":\"string\",\"minLength\":1},\"calls\":{\"type\":\"string\"},\"called_by\":{\"type\":\"string\"},"
	  TRACE_ARG "},\"additionalProperties\":false}" },
	{ "doc", "doc", "The program's documentation (semaprax doc) of the file on disk.",
	  "{\"type\":\"object\",\"properties\":{\"format\":{\"enum\":[\"text\",\"json\",\"html\"]}},\"additionalProperties\":false}" },
	{ "patch_preview", "patch/preview", "Apply a semantic patch (.spatch text) as a dry run: what it would change, nothing written.",
	  "{\"type\":\"object\",\"properties\":{\"patch\":{\"type\":\"string\",\"description\":" PATCH_GRAMMAR "},\"revision\":{\"type\":\"string\"}},"
	  "\"required\":[\"patch\"],\"additionalProperties\":false}" },
	{ "patch_impact", "patch/impact", "A semantic patch's reach (semaprax impact: semaprax.semantic-impact.v1): changes and the functions they affect; nothing written.",
	  "{\"type\":\"object\",\"properties\":{\"patch\":{\"type\":\"string\",\"description\":\"the .spatch text, as patch_preview's `patch` describes it\"},\"revision\":{\"type\":\"string\"},"
	  "\"depth\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":1024},\"max_bytes\":{\"type\":\"integer\",\"minimum\":1024,\"maximum\":16777216},"
	  "\"max_nodes\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":65536}},"
	  "\"required\":[\"patch\"],\"additionalProperties\":false}" },
	{ "patch_review", "patch/review", "A semantic patch's review (semaprax review: semaprax.semantic-review.v1): findings per section, with the impact as evidence; nothing written.",
	  "{\"type\":\"object\",\"properties\":{\"patch\":{\"type\":\"string\",\"description\":\"the .spatch text, as patch_preview's `patch` describes it\"},\"revision\":{\"type\":\"string\"}},"
	  "\"required\":[\"patch\"],\"additionalProperties\":false}" },
	{ "patch_apply", "patch/apply", "Apply a semantic patch to the file; with `revision`, refused when the program is no longer at it.",
	  "{\"type\":\"object\",\"properties\":{\"patch\":{\"type\":\"string\",\"description\":\"the .spatch text, as patch_preview's `patch` describes it\"},\"revision\":{\"type\":\"string\"}},"
	  "\"required\":[\"patch\"],\"additionalProperties\":false}" },
	{ "repairs", "repairs", "The SPX-S103 repair of an automatically identified function (semaprax repairs: semaprax.diagnostic-repair.v1): its "
	  "repair id, needed before a rename of the function or a patch_impact/patch_review that reaches it; nothing written.",
	  "{\"type\":\"object\",\"properties\":{\"target\":{\"type\":\"string\",\"minLength\":1,\"description\":"
	  "\"the automatic id query lists, e.g. auto:<module>.<name>\"}},\"required\":[\"target\"],\"additionalProperties\":false}" },
	{ "repair", "repair", "Preview one repair (semaprax repair: semaprax.diagnostic-repair-preview.v1): its `patch.source` is the v3 patch "
	  "that gives the function `persistent_id`, for patch_apply; nothing written.",
	  "{\"type\":\"object\",\"properties\":{\"repair\":{\"type\":\"string\",\"minLength\":1,\"description\":\"the repair.id repairs answers\"},"
	  "\"persistent_id\":{\"type\":\"string\",\"minLength\":1,\"description\":\"the explicit @id to give the function\"}},"
	  "\"required\":[\"repair\",\"persistent_id\"],\"additionalProperties\":false}" },
	{ "fix", "fix", "Apply the machine-applicable fixes the diagnostics carry to the file on disk (semaprax fix), then verify; `dry_run` shows the diff and writes nothing.",
	  "{\"type\":\"object\",\"properties\":{\"code\":{\"type\":\"string\",\"pattern\":\"^SPX-\",\"maxLength\":16,\"description\":\"only this diagnostic code's fixes (SPX-…)\"},"
	  "\"dry_run\":{\"type\":\"boolean\"}},\"additionalProperties\":false}" },
	{ "run", "run", "Run the program's `main` in the interpreter (the file on disk): the --json outcome.",
	  "{\"type\":\"object\",\"properties\":{\"args\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":256},"
	  "\"max_steps\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":1000000000}},\"additionalProperties\":false}" },
	{ "test", "test", "Run the project's test module (semaprax test --json).", NO_ARGS },
};
#define MCP_NTOOLS ((int)(sizeof mcp_tools / sizeof mcp_tools[0]))

static void
mcp_initialize(json_t *params, Buf *res)
{
	const char *want = NULL;
	json_t *pv = json_is_object(params) ? json_object_get(params, "protocolVersion") : NULL;
	if (pv && json_is_string(pv) && strlen(json_string_value(pv)) == json_string_length(pv))
		want = json_string_value(pv);   /* (a version holding NUL is none we speak) */
	const char *ver = MCP_LATEST;
	for (int i = 0; want && i < 3; i++)
		if (strcmp(want, mcp_versions[i]) == 0)
			ver = mcp_versions[i];
	buf_puts(res, "{\"protocolVersion\":");
	json_cstr(res, ver);
	buf_puts(res, ",\"capabilities\":{\"tools\":{\"listChanged\":false}},\"serverInfo\":{\"name\":\"semaprax\",\"version\":\""
	    SPX_VERSION "\"},\"instructions\":\"Semantic service of one SEMAPRAX program: call check (or refresh with new text) "
	    "first; graph, context and query answer from the verified program; patch_preview, patch_review and patch_apply change it "
	    "by meaning (patch_preview's `patch` gives the .spatch grammar).\"}");
}

static void
mcp_tools_list(Buf *res)
{
	buf_puts(res, "{\"tools\":[");
	for (int i = 0; i < MCP_NTOOLS; i++) {
		if (i)
			buf_putc(res, ',');
		buf_puts(res, "{\"name\":");
		json_cstr(res, mcp_tools[i].name);
		buf_puts(res, ",\"description\":");
		json_cstr(res, mcp_tools[i].description);
		buf_puts(res, ",\"inputSchema\":");
		buf_puts(res, mcp_tools[i].schema);
		buf_putc(res, '}');
	}
	buf_puts(res, "]}");
}

/* tools/call: the operation's result (or error) as one text content;
 * room: the bytes the reply's result may take (the message bound less the
 * envelope, 0: no bound). */
static bool
mcp_call(Service *v, json_t *params, Buf *res, SvcError *err, size_t room)
{
	json_t *name = json_is_object(params) ? json_object_get(params, "name") : NULL;
	json_t *args = json_is_object(params) ? json_object_get(params, "arguments") : NULL;
	if (!name || !json_is_string(name)) {
		err->code = SVC_E_PARAMS;
		snprintf(err->message, sizeof err->message, "tools/call needs `name`");
		return false;
	}
	const McpTool *tool = NULL;
	for (int i = 0; i < MCP_NTOOLS && !tool && strlen(json_string_value(name)) == json_string_length(name); i++)
		if (strcmp(mcp_tools[i].name, json_string_value(name)) == 0)
			tool = &mcp_tools[i];
	if (!tool) {
		err->code = SVC_E_PARAMS;
		if (strlen(json_string_value(name)) != json_string_length(name))
			snprintf(err->message, sizeof err->message, "unknown tool: the name contains NUL (\\u0000)");
		else
			snprintf(err->message, sizeof err->message, "unknown tool `%.100s`", json_string_value(name));
		return false;
	}
	if (args && json_is_null(args))
		args = NULL;
	if (args && !json_is_object(args)) {
		/* the tool's named arguments; the method's own refusal said
		 * "params", which the agent did not write */
		err->code = SVC_E_PARAMS;
		snprintf(err->message, sizeof err->message, "tools/call `arguments` must be an object of the tool's named arguments");
		return false;
	}
	Buf r = {0};
	SvcError e = { 0, "", NULL };
	bool ok = svc_call(v, tool->method, args, &r, &e);
	/* a patch, repair or fix tool whose command refused (`{"exit":N,…}`, N ≠ 0) wrote
	 * nothing: isError, so an agent that reads only the flag does not take
	 * the edit for made (the text is the same result) */
	bool refused = false;
	if (ok && (strncmp(tool->method, "patch/", 6) == 0 || strncmp(tool->method, "repair", 6) == 0 || strcmp(tool->method, "fix") == 0) && r.data &&
	    r.len > 8 && strncmp(r.data, "{\"exit\":", 8) == 0)
		refused = r.data[8] != '0';
	buf_puts(res, "{\"content\":[{\"type\":\"text\",\"text\":");
	if (ok) {
		json_str(res, r.data ? r.data : "", r.len);
	} else {
		/* the error's data (a project read's diagnostics) on a line of its
		 * own; beyond the bound `{"diagnostics":null}`, as a JSON-RPC error's
		 * (rev39: the whole answer became -32002, the error's code lost) */
		size_t mark = res->len;
		Buf text = {0};
		buf_printf(&text, "error %d: %s%s%s", e.code, e.message, e.data ? "\n" : "", e.data ? e.data : "");
		svc_json_text(res, text.data);
		if (e.data && room && res->len + 32 > room) {
			res->len = mark;
			text.len = 0;
			char alt[sizeof e.message + sizeof SVC_DATA_NULL];
			buf_printf(&text, "error %d: %s\n{\"diagnostics\":null}", e.code, message_data_null(e.message, alt, sizeof alt));
			svc_json_text(res, text.data);
		}
		buf_free(&text);
	}
	free(e.data);
	buf_printf(res, "}],\"isError\":%s}", ok && !refused ? "false" : "true");
	buf_free(&r);
	return true;
}

/* ---- one frame ------------------------------------------------------------------ */

/* The deepest nesting of [ and { outside strings, stopping past limit. */
static int
nesting(const char *s, size_t n, int limit)
{
	int depth = 0, max = 0;
	bool str = false;
	for (size_t i = 0; i < n && max <= limit; i++) {
		char c = s[i];
		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				str = false;
		} else if (c == '"') {
			str = true;
		} else if (c == '[' || c == '{') {
			if (++depth > max)
				max = depth;
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
	}
	return max;
}

json_t *
svc_decode(const char *s, size_t len, int *code, char *msg, size_t cap)
{
	if (nesting(s, len, SVC_MAX_DEPTH) > SVC_MAX_DEPTH) {
		*code = SVC_E_INVALID_REQUEST;
		snprintf(msg, cap, "the message nests deeper than 64 levels");
		return NULL;
	}
	json_error_t jerr;
	json_t *m = json_loadb(s, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
	if (!m) {
		/* where: the offending token (jansson's position is past the
		 * last byte it read) */
		size_t es, ee;
		json_error_span(s, len, true, jerr.position, jerr.text, &es, &ee);
		*code = SVC_E_PARSE;
		snprintf(msg, cap, "parse error at byte %zu: %.150s", es, jerr.text);
	}
	return m;
}

static bool
valid_id(json_t *id)
{
	return json_is_integer(id) || json_is_string(id) || json_is_null(id);
}

bool
svc_handle_frame(Service *v, const char *frame, size_t len, Buf *out)
{
	out->len = 0;
	if (len > v->o.max_message) {
		reply_error(out, NULL, SVC_E_TOO_LARGE, "the message exceeds the message bound");
		return true;
	}
	int code;
	char why[200];
	json_t *msg = svc_decode(frame, len, &code, why, sizeof why);
	if (!msg) {
		reply_error(out, NULL, code, why);
		return true;
	}
	bool replied = true;
	json_t *id = json_is_object(msg) ? json_object_get(msg, "id") : NULL;
	if (id && !valid_id(id))
		id = NULL;
	json_t *jv = json_is_object(msg) ? json_object_get(msg, "jsonrpc") : NULL;
	json_t *method = json_is_object(msg) ? json_object_get(msg, "method") : NULL;
	json_t *params = json_is_object(msg) ? json_object_get(msg, "params") : NULL;
	bool extra = false;
	if (json_is_object(msg)) {
		const char *key;
		json_t *val;
		json_object_foreach(msg, key, val)
			extra = extra || !(strcmp(key, "jsonrpc") == 0 || strcmp(key, "id") == 0 || strcmp(key, "method") == 0 ||
			    strcmp(key, "params") == 0);
	}
	bool notification = json_is_object(msg) && !json_object_get(msg, "id") && method && json_is_string(method);
	if (json_is_array(msg)) {
		reply_error(out, NULL, SVC_E_INVALID_REQUEST, "batches are not supported: send one request per line");
	} else if (!json_is_object(msg) || !jv || !json_is_string(jv) || json_string_length(jv) != 3 ||
	    strcmp(json_string_value(jv), "2.0") != 0 || !method || !json_is_string(method) || extra || (json_object_get(msg, "id") && !id) ||
	    (params && !json_is_object(params) && !json_is_array(params))) {
		if (notification && !extra)
			replied = false;   /* a notification is never answered */
		else
			reply_error(out, id, SVC_E_INVALID_REQUEST, "not a JSON-RPC 2.0 request (jsonrpc \"2.0\", method string, "
			    "id integer or string, params object)");
	} else {
		const char *name = json_string_value(method);
		/* a name with `\u0000` is no method (never the name before the NUL:
		 * `shutdown\u0000…` or `exit\u0000…` is not that method) */
		bool nul = strlen(name) != json_string_length(method);
		if (notification && nul) {
			replied = false;
		} else if (nul) {
			reply_error(out, id, SVC_E_METHOD, "no method: the method name contains NUL (\\u0000)");
		} else if (notification) {
			replied = false;
			if (strcmp(name, "exit") == 0)
				v->exiting = true;
		} else if (v->shut) {
			reply_error(out, id, SVC_E_SHUT_DOWN, "the service was shut down: no requests after `shutdown`");
		} else if (!v->o.mcp && strcmp(name, "shutdown") == 0) {
			v->shut = true;
			Buf r = {0};
			buf_puts(&r, "null");
			reply_result(v, out, id, &r);
			buf_free(&r);
		} else {
			Buf r = {0};
			SvcError e = { 0, "", NULL };
			bool ok;
			if (v->o.mcp && strcmp(name, "initialize") == 0) {
				mcp_initialize(params, &r);
				v->initialized = true;
				ok = true;
			} else if (v->o.mcp && strcmp(name, "ping") == 0) {
				buf_puts(&r, "{}");
				ok = true;
			} else if (v->o.mcp && strcmp(name, "tools/list") == 0) {
				mcp_tools_list(&r);
				ok = true;
			} else if (v->o.mcp && strcmp(name, "tools/call") == 0) {
				Buf h = {0};   /* the envelope: `{"jsonrpc":"2.0","id":…,"result":…}` */
				svc_put_id(&h, id);
				size_t env = h.len + 34;
				buf_free(&h);
				ok = mcp_call(v, params, &r, &e, v->o.max_message > env ? v->o.max_message - env : 1);
			} else if (v->o.mcp) {
				ok = false;
				e.code = SVC_E_METHOD;
				snprintf(e.message, sizeof e.message, "no MCP method `%.100s`", name);
			} else {
				ok = svc_call(v, name, params, &r, &e);
			}
			if (ok)
				reply_result(v, out, id, &r);
			else
				reply_error_data(out, id, e.code, e.message, e.data, v->o.max_message);
			free(e.data);
			buf_free(&r);
		}
	}
	json_decref(msg);
	return replied;
}

/* ---- the loop ------------------------------------------------------------------- */

int
svc_serve(Service *v, FILE *in, FILE *out)
{
	Buf frame = {0}, reply = {0};
	bool over = false;
	int c;
	for (;;) {
		c = getc(in);
		if (c != '\n' && c != EOF) {
			if (frame.len < v->o.max_message)
				buf_putc(&frame, (char)c);
			else
				over = true;
			continue;
		}
		size_t n = frame.len;
		if (n && frame.data[n - 1] == '\r')
			n--;
		/* blank: nothing but JSON's whitespace (an empty line, or spaces
		 * and tabs an editor or a shell left) */
		size_t ws = 0;
		while (ws < n && (frame.data[ws] == ' ' || frame.data[ws] == '\t' || frame.data[ws] == '\r'))
			ws++;
		bool blank = !over && ws == n;
		if (over) {
			reply.len = 0;
			reply_error(&reply, NULL, SVC_E_TOO_LARGE, "the message exceeds the message bound (--max-message-bytes)");
		}
		if (!blank && (over ? true : svc_handle_frame(v, frame.data, n, &reply))) {
			fwrite(reply.data, 1, reply.len, out);
			fputc('\n', out);
			fflush(out);
		}
		frame.len = 0;
		over = false;
		if (c == EOF || v->exiting)
			break;
	}
	buf_free(&frame);
	buf_free(&reply);
	return 0;
}
