/*
 * review_int.h — what review.c and review_v4.c share: the dispositions and
 * sections of a `semaprax.semantic-review.v1` report (TOOLCHAIN.md §3.7).
 */
#ifndef SPX_PATCH_REVIEW_INT_H
#define SPX_PATCH_REVIEW_INT_H

#include "patch.h"

enum { D_CHANGE, D_NO_CHANGE, D_MIGRATION, D_UNKNOWN, D_NA };
enum { S_BEHAVIOR, S_API, S_SECURITY, S_MEMORY, S_TARGET, S_MIGRATION, S_UNSAFE, S_COUNT };

/* A v4 operation o (index i, facts f): its finding in section s (code,
 * disposition, statement into st). */
void patch_review_v4_row(const PatchOp *o, int i, const ReviewFact *f, int s, const char **code, int *disposition, char *st, size_t size);

#endif
