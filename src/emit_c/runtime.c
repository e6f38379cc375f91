/*
 * runtime.c — the C runtime embedded in every generated translation unit
 * (nothing is read from an install path).  It implements the native
 * failure lines and exit codes of TOOLCHAIN.md §1.3 item 8 and the
 * 256-frame call-depth bound.  The helpers have external linkage (the
 * program is one translation unit) so an unused one never warns under
 * -Wall -Wextra with gcc or clang.
 */
#include "emit_c.h"

const char emit_c_runtime[] =
	"#include <inttypes.h>\n"
	"#include <stdbool.h>\n"
	"#include <stdint.h>\n"
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"\n"
	"/* ---- SEMAPRAX native runtime (TOOLCHAIN.md §1.3 item 8) ---- */\n"
	"\n"
	"static int spx_depth;\n"
	"\n"
	"_Noreturn void spx_die(int status, const char *line);\n"
	"_Noreturn void spx_arith(int code);\n"
	"void spx_enter(void);\n"
	"void spx_leave(void);\n"
	"\n"
	"_Noreturn void spx_die(int status, const char *line)\n"
	"{\n"
	"\tfflush(stdout);\n"
	"\tfputs(line, stderr);\n"
	"\tfputc('\\n', stderr);\n"
	"\texit(status);\n"
	"}\n"
	"\n"
	"/* semaprax.arithmetic.v1 codes 1..8 (LANGUAGE.md §3.7) */\n"
	"_Noreturn void spx_arith(int code)\n"
	"{\n"
	"\tstatic const char *const what[] = {\n"
	"\t\t\"\", \"addition overflow\", \"subtraction overflow\", \"multiplication overflow\",\n"
	"\t\t\"invalid division\", \"invalid division\", \"invalid remainder\", \"invalid remainder\",\n"
	"\t\t\"negation overflow\",\n"
	"\t};\n"
	"\tfflush(stdout);\n"
	"\tfprintf(stderr, \"SEMAPRAX checked arithmetic failure: %s\\n\", what[code]);\n"
	"\texit(71);\n"
	"}\n"
	"\n"
	"void spx_enter(void)\n"
	"{\n"
	"\tif (spx_depth >= 256)\n"
	"\t\tspx_die(73, \"SEMAPRAX runtime failure: call depth exceeded (256 frames)\");\n"
	"\tspx_depth++;\n"
	"}\n"
	"\n"
	"void spx_leave(void)\n"
	"{\n"
	"\tspx_depth--;\n"
	"}\n";
