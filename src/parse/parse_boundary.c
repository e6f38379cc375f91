/*
 * parse_boundary.c — the declarations of a program's host boundary
 * (LANGUAGE.md §2.1): `resource` with its drop lifecycle, `interface` with
 * its `import fn` finalizers, and `session protocol` with its states,
 * terminals and transitions.  parse.c's parse_item dispatches here.
 */
#include "parse_int.h"

#include <string.h>

/*
 * resource  = "resource" , IDENT , [ type_params ] , ( ";" | "{" , { lifecycle } , "}" ) ;
 * lifecycle = [ id_attr ] , "drop" , ( "trivial" | "import" , STRING ) , ";" ;
 * The grammar takes any number of lifecycles, as the reference's does; the
 * checker requires exactly one (O112 none, O113 more).
 */
void
parse_resource(Parser *p, Decl *d)
{
	parse_advance(p);
	d->u.resource.name = parse_name(p, "resource name");
	d->u.resource.tparams = parse_type_params(p, &d->u.resource.ntparams);
	if (parse_accept(p, TOK_SEMI))
		return;
	parse_expect(p, TOK_LBRACE, "`{` before resource lifecycle");
	VEC(ResourceDrop) drops = {0};
	do {
		ResourceDrop r;
		memset(&r, 0, sizeof r);
		if (parse_at(p, TOK_AT))
			r.id = parse_id_attr(p);
		Span start = parse_peek(p)->span;
		parse_expect_word(p, "drop");
		if (parse_accept_word(p, "trivial")) {
			r.trivial = true;
		} else if (parse_accept_word(p, "import")) {
			r.import = parse_strlit(p, "the finalizer's import id string");
		} else if (!p->panic) {
			/* the reference's P106 for an unknown strategy word (`drop maybe;`) */
			char buf[64];
			parse_error_at(p, parse_peek(p), DIAG_P106, "expected `trivial` or `import`, found %s", parse_tok_desc(p, parse_peek(p), buf, sizeof buf));
		}
		parse_expect(p, TOK_SEMI, "`;` after drop strategy");
		r.span = parse_span_from(p, start);
		VEC_PUSH(drops, r);
	} while (!p->panic && !parse_at(p, TOK_RBRACE) && !parse_at(p, TOK_EOF));
	parse_expect(p, TOK_RBRACE, "`}` after resource lifecycle");
	d->u.resource.drops = ARENA_COPY(p, ResourceDrop, drops);
	d->u.resource.ndrops = drops.len;
	VEC_FREE(drops);
}

/*
 * The `consumes` clause a (non-Rust) import needs: P104 "expected
 * `consumes`" (the reference's line, no help there) with a help that spells
 * the clause over the import's `own` parameter.
 */
static bool
expect_consumes(Parser *p, const ImportFn *f)
{
	if (parse_accept_word(p, "consumes"))
		return true;
	const char *own = "value";
	int len = 5;
	for (int i = 0; i < f->nparams; i++)
		if (f->params[i].mode == MODE_OWN && f->params[i].name.s) {
			own = f->params[i].name.s;
			len = (int)ast_name_len(f->params[i].name);
			break;
		}
	Diag *d = parse_error_at(p, parse_peek(p), DIAG_P104, "expected `consumes`");
	diag_set_help(d, "an interface import is a resource's finalizer: it takes the resource `own` and ends `consumes %.*s always;`", len, own);
	parse_decorate_expected(p, d);
	return false;
}
/*
 * import_fn = [ id_attr ] , "import" , [ "rust" ] , "fn" , IDENT , "(" , params , ")" ,
 *             "->" , ( "unit" | "i64" | "bool" ) , "effects" , effect_set ,
 *             "failure" , ( "infallible" | "status" , STRING ) ,
 *             [ "consumes" , IDENT , "always" ] , ";" ;     (required unless "rust")
 */
static ImportFn
parse_import_fn(Parser *p)
{
	ImportFn f;
	memset(&f, 0, sizeof f);
	Span start = parse_peek(p)->span;
	if (parse_at(p, TOK_AT))
		f.id = parse_id_attr(p);
	parse_expect_word(p, "import");
	if (parse_accept_word(p, "rust"))
		f.rust = true;
	parse_expect_word(p, "fn");
	f.name = parse_name(p, "import name");
	f.params = parse_params(p, &f.nparams);
	parse_expect(p, TOK_ARROW, "`->` before import result type");
	if (!p->panic && (parse_at_word(p, "unit") || parse_at_word(p, "i64") || parse_at_word(p, "bool"))) {
		f.result = parse_name_of(p, parse_advance(p));
	} else if (!p->panic) {
		char buf[64];
		parse_error_at(p, parse_peek(p), DIAG_P105, "expected an import result type (`unit`, `i64` or `bool`), found %s",
		    parse_tok_desc(p, parse_peek(p), buf, sizeof buf));
	}
	parse_expect_word(p, "effects");
	if (!p->panic)
		f.effects = parse_effect_set(p);
	parse_expect_word(p, "failure");
	if (parse_accept_word(p, "status")) {
		f.fallible = true;
		f.status = parse_strlit(p, "status domain string");
	} else {
		parse_expect_word(p, "infallible");
	}
	/* a (non-Rust) import is a finalizer and must consume its parameter: the
	 * reference's parser wants the clause (P104 without it) */
	if (f.rust ? parse_accept_word(p, "consumes") : (!p->panic && expect_consumes(p, &f))) {
		f.has_consumes = true;
		f.consumes = parse_name(p, "consumed parameter name");
		parse_expect_word(p, "always");
	}
	parse_expect(p, TOK_SEMI, "`;` after import declaration");
	f.span = parse_span_from(p, start);
	return f;
}

/* interface = "interface" , IDENT , "permits" , effect_set , "{" , { import_fn } , "}" ; */
void
parse_interface(Parser *p, Decl *d)
{
	parse_advance(p);
	d->u.interface.name = parse_name(p, "interface name");
	parse_expect_word(p, "permits");
	if (!p->panic)
		d->u.interface.permits = parse_effect_set(p);
	parse_expect(p, TOK_LBRACE, "`{` before interface imports");
	VEC(ImportFn) imports = {0};
	while (!p->panic && !parse_at(p, TOK_RBRACE) && !parse_at(p, TOK_EOF))
		VEC_PUSH(imports, parse_import_fn(p));
	parse_expect(p, TOK_RBRACE, "`}` after interface imports");
	d->u.interface.imports = ARENA_COPY(p, ImportFn, imports);
	d->u.interface.nimports = imports.len;
	VEC_FREE(imports);
}

static Name *
parse_name_list(Parser *p, int *n, const char *what, bool allow_empty)
{
	VEC(Name) names = {0};
	parse_expect(p, TOK_LBRACE, "`{` before names");
	if (!(allow_empty && parse_at(p, TOK_RBRACE))) {
		do {
			VEC_PUSH(names, parse_name(p, what));
		} while (!p->panic && parse_accept(p, TOK_COMMA));
	}
	parse_expect(p, TOK_RBRACE, "`}` after names");
	Name *out = ARENA_COPY(p, Name, names);
	*n = names.len;
	VEC_FREE(names);
	return out;
}

static const char *const transition_words[] = {
	"send", "receive", "call", "return", "cancel", "timeout", "fail",
};

/*
 * on , IDENT , IDENT , ":" , kind , IDENT , [ "requires" , "capability" , qname ] ,
 * [ "consumes" , "resource" ] , [ "via" , STRING ] , "->" ,
 * ( IDENT | "choice" , "{" , IDENT , ":" , IDENT , { "," , IDENT , ":" , IDENT } , "}" ) , ";"
 */
static Transition
parse_transition(Parser *p)
{
	Transition t;
	memset(&t, 0, sizeof t);
	Span start = parse_advance(p)->span;  /* on */
	t.from = parse_name(p, "state name");
	t.label = parse_name(p, "transition label");
	parse_expect(p, TOK_COLON, "`:` after transition label");
	bool found = false;
	for (size_t i = 0; i < countof(transition_words) && !p->panic; i++) {
		if (parse_accept_word(p, transition_words[i])) {
			t.kind = (TransitionKind)i;
			found = true;
			break;
		}
	}
	if (!found && !p->panic) {
		char buf[64];
		parse_error_at(p, parse_peek(p), DIAG_P104, "expected a transition kind (send, receive, call, return, cancel, timeout, fail), found %s",
		    parse_tok_desc(p, parse_peek(p), buf, sizeof buf));
	}
	t.message = parse_name(p, "message name");
	if (!p->panic && parse_accept_word(p, "requires")) {
		parse_expect_word(p, "capability");
		t.has_capability = true;
		t.capability = parse_qname(p, "capability name");
	}
	if (!p->panic && parse_accept_word(p, "consumes")) {
		parse_expect_word(p, "resource");
		t.consumes_resource = true;
	}
	if (!p->panic && parse_accept_word(p, "via")) {
		t.has_via = true;
		t.via = parse_strlit(p, "via target string");
	}
	parse_expect(p, TOK_ARROW, "`->` before target state");
	if (!p->panic && parse_at_word(p, "choice") && parse_peek_at(p, 1)->kind == TOK_LBRACE) {
		parse_advance(p);
		parse_advance(p);
		t.is_choice = true;
		VEC(ChoiceArm) arms = {0};
		do {
			ChoiceArm a;
			a.label = parse_name(p, "choice label");
			parse_expect(p, TOK_COLON, "`:` after choice label");
			a.state = parse_name(p, "state name");
			VEC_PUSH(arms, a);
		} while (!p->panic && parse_accept(p, TOK_COMMA));
		parse_expect(p, TOK_RBRACE, "`}` after choice");
		t.choices = ARENA_COPY(p, ChoiceArm, arms);
		t.nchoices = arms.len;
		VEC_FREE(arms);
	} else {
		t.to = parse_name(p, "target state name");
	}
	parse_expect(p, TOK_SEMI, "`;` after transition");
	t.span = parse_span_from(p, start);
	return t;
}

/* session_protocol = "session" , "protocol" , STRING , "{" , states , initial , terminals , transitions , "}" ; */
void
parse_session(Parser *p, Decl *d)
{
	parse_advance(p);
	parse_expect_word(p, "protocol");
	d->u.session.name = parse_strlit(p, "protocol name string");
	parse_expect(p, TOK_LBRACE, "`{` before protocol body");
	parse_expect_word(p, "states");
	if (!p->panic)
		d->u.session.states = parse_name_list(p, &d->u.session.nstates, "a state name", false);
	parse_expect_word(p, "initial");
	d->u.session.initial = parse_name(p, "initial state name");
	parse_expect(p, TOK_SEMI, "`;` after initial state");
	VEC(Terminal) terms = {0};
	while (!p->panic && parse_at_word(p, "terminal")) {
		Terminal t;
		Span start = parse_advance(p)->span;
		t.state = parse_name(p, "terminal state name");
		parse_expect_word(p, "cleanup");
		t.cleanup = NULL;
		t.ncleanup = 0;
		if (!p->panic)
			t.cleanup = parse_name_list(p, &t.ncleanup, "a cleanup name", true);
		t.span = parse_span_from(p, start);
		VEC_PUSH(terms, t);
	}
	VEC(Transition) trans = {0};
	while (!p->panic && parse_at_word(p, "on"))
		VEC_PUSH(trans, parse_transition(p));
	parse_expect(p, TOK_RBRACE, "`}` after protocol body");
	d->u.session.terminals = ARENA_COPY(p, Terminal, terms);
	d->u.session.nterminals = terms.len;
	d->u.session.transitions = ARENA_COPY(p, Transition, trans);
	d->u.session.ntransitions = trans.len;
	VEC_FREE(terms);
	VEC_FREE(trans);
}
