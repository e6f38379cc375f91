/*
 * domains.h — enums over rt/domains.def: RT_DOM_<NAME> (a domain's index),
 * RT_<DOMAIN>_<NAME> (a code of a domain), RT_EXIT_<NAME> (a native exit
 * status) and RT_LIMIT_<NAME>.  Embedded into generated programs too
 * (embed_rt.sh inlines domains.def), where RT_EMBEDDED adds rt_domain_ids.
 */
#ifndef SPX_RT_DOMAINS_H
#define SPX_RT_DOMAINS_H

enum rt_domain {
#define RT_DOMAIN(name, ident, cls) RT_DOM_##name,
#include "domains.def"
	RT_DOM_COUNT
};

enum rt_code {
#define RT_CODE(dom, name, number, meaning) RT_##dom##_##name = number,
#include "domains.def"
};

enum rt_exit {
#define RT_EXIT(name, status) RT_EXIT_##name = status,
#include "domains.def"
};

enum rt_limit {
#define RT_LIMIT(name, value) RT_LIMIT_##name = value,
#include "domains.def"
};

/* What follows a literal run of a string_format template (rt_format_scan). */
enum rt_format_kind { RT_FORMAT_END, RT_FORMAT_HOLE, RT_FORMAT_BRACE };

#ifdef RT_EMBEDDED
static const char *const rt_domain_ids[] = {
#define RT_DOMAIN(name, ident, cls) ident,
#include "domains.def"
};
#endif

#endif
