#!/bin/sh
# tests/lsp-test.sh BIN — the LSP server `semaprax lsp` (issue 17 item 4,
# docs/editors.md): scripted clients over stdio (tests/lsp/*.py, python3):
#   session.py  every method: lifecycle, diagnostics and code actions (the
#               missing-`->` fix typed by the tail, none when unknown), hover,
#               definition, references, rename (and a stale rename refused),
#               formatting, document symbols, semantic tokens; UTF-16 positions
#   project.py  open files of a project: the project check's diagnostics (an
#               importer broken by a provider edit, cleared by the repair),
#               definition, hover, references and rename across modules, a
#               file the manifest does not list checked alone; the per-module
#               executed/reused sets of body, comment and signature edits;
#               run twice, the second time with SPX_SERVICE_VERIFY_PROJECT=1
#               (every incremental re-check compared with a cold one)
#   project_edge.py  a manifest that does not read claims its files (its
#               diagnostics shown), one that stops listing an open file has it
#               checked alone, an unreadable source shown in every open file,
#               nested manifests, a save by rename, only file: URIs of
#               absolute paths join a project
#   line_ends.py  LSP's line ends `\n`, `\r\n` and a lone `\r`: definition,
#               symbols, semantic tokens, a clamped position, 400 random
#               ranged edits of line ends against a model of the text
#   rename_local.py  rename of a local by scope (tests/lsp/locals.spx): the
#               binding and its uses only, sibling scopes apart, `{ x }`
#               shorthands kept, captures and clashes refused
#   qa38.py     a project rename whose candidate fails: the error's place,
#               and a transaction named when it lies in another module; the
#               hover of a generic record's field of type T (qa38)
#   prepare_rename.py  prepareRename: the name's range and text where rename
#               would succeed (a local, a function, a field, a case), null on a
#               keyword, a literal, a builtin, a compiler-owned name or `main`; a
#               project's alias; a sweep agreeing with rename at random positions
#   walk.py     find references through every expression, pattern and type
#               shape (src/service/lsp_walk.c), by stable identity
#   hostile.py  LSP_HOSTILE_N (20,000) malformed or hostile messages
#   fuzz.py     LSP_FUZZ_N (3,000) rounds of random edits of run fixtures and
#               every feature at random positions; again over copies of the
#               tests/project projects (--project): every request answered
# They share lspclient.py: the client, its publishDiagnostics wait, and the
# position helpers (pos, pos_at, rng, whole, apply; UTF-16 columns).
# Under make test-sanitize both run on the ASan/LSan build: they assert an
# empty stderr and status 0, so a leak report fails them.
set -u
. "$(dirname "$0")/lib.sh"
t_begin lsp "${1:-}"
dir=$(cd "$(dirname "$0")" && pwd)/lsp
t_py "$dir/session.py"
t_py "$dir/project.py"
SPX_SERVICE_VERIFY_PROJECT=1 t_py "$dir/project.py"
t_py "$dir/project_edge.py"
t_py "$dir/line_ends.py"
t_py "$dir/rename_local.py"
t_py "$dir/qa38.py"
t_py "$dir/prepare_rename.py"
t_py "$dir/walk.py"
t_py "$dir/hostile.py" "${LSP_HOSTILE_N:-20000}"
t_py "$dir/fuzz.py" "${LSP_FUZZ_N:-3000}" 21
t_py "$dir/fuzz.py" "${LSP_FUZZ_N:-3000}" 22 --project
t_end
