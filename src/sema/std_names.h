/*
 * std_names.h — the bundled standard library's functions by name
 * (generated from std/<pkg>/src/<pkg>.spx by tools/embed_std_names.sh), so a
 * call of an unknown function that one package defines can name the
 * dependency route (T203's help), below the project layer.
 */
#ifndef SEMAPRAX_SEMA_STD_NAMES_H
#define SEMAPRAX_SEMA_STD_NAMES_H

#include <stddef.h>

typedef struct SemaStdName {
	const char *name;     /* `abs` */
	const char *module;   /* `std.num` */
	const char *id;       /* `std.num.abs` */
} SemaStdName;

extern const SemaStdName sema_std_names[];   /* sorted by name, then module */
extern const size_t sema_std_nnames;

#endif
