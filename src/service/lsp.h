/*
 * lsp.h — the LSP server of the semantic service (`semaprax lsp`,
 * docs/editors.md; prefix svc_ like the rest of the layer).
 */
#ifndef SPX_SERVICE_LSP_H
#define SPX_SERVICE_LSP_H

#include <stdio.h>

/* Serves the Language Server Protocol (Content-Length framing) from in to
 * out until `exit` or end of input; each message at most max_message bytes.
 * Returns the exit status: 0 after shutdown, 1 on `exit` without it. */
int svc_lsp_serve(FILE *in, FILE *out, size_t max_message);

#endif
