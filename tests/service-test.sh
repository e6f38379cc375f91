#!/bin/sh
# tests/service-test.sh BIN — the semantic service (issue 17, docs/service.md):
# scripted clients over stdio (tests/service/*.py, python3):
#   session.py  JSON-RPC: every method, the incremental traces of body,
#               signature and comment edits, diagnostics equal to check --json
#   mcp.py      MCP: initialize, tools/list with schemas, tools/call
#   schema.py   each tool's inputSchema against what the tool refuses
#               (probes on both sides of every bound, list and enum)
#   project.py  a project operand
#   project_incr.py  per-module products of a project: executed/reused sets
#               per edit, answers equal to a cold check (SPX_SERVICE_VERIFY_PROJECT)
#   lsp.py      `semaprax lsp`: an LSP client session (Content-Length framing)
#   corpus.py   every fixture of SERVICE_CORPUS (tests/fixtures; every 16th under
#               ASan) refreshed and edited in one service: diagnostics equal to
#               check --json
#   project_corpus.py  every project of tests/project edited through buffers
#               (digits, G170), each incremental refresh verified against a
#               cold check (SPX_SERVICE_VERIFY_PROJECT)
#   hostile.py  SERVICE_HOSTILE_N (100,000) malformed or hostile messages
#   hostile_project.py  a seeded storm against a served project (hostile
#               paths, FIFOs, edits, disk changes, every method; 3,000 steps,
#               300 under ASan), twice: the second with every incremental
#               refresh verified against a cold check (SPX_SERVICE_VERIFY_PROJECT)
#   edit_bounds.py  one frame of incremental edits is bounded work (serve: -32602;
#               lsp: the rest dropped, window/showMessage), the LSP's open
#               documents are bounded bytes in all (didOpen refused, said),
#               and so are its projects: at most 256 (10,000 project
#               directories opened), each counting its sources in the bytes
#   tmpdir.py   the in-process commands' temporary files under a long TMPDIR
#   fuzz.py     SERVICE_FUZZ_N (1,500) requests of every method (and MCP tool)
#               with parameters of every JSON type and edge: each answered;
#               again as MCP, and against a served project (--project)
#   leak.py     SERVICE_LEAK_N (10,000) refreshes; under ASan/LSan (make
#               test-sanitize) no leak report, in every build no growth
set -u
export PYTHONDONTWRITEBYTECODE=1
. "$(dirname "$0")/lib.sh"
t_begin service "${1:-}"
dir=$(cd "$(dirname "$0")" && pwd)/service
# the scripts' temporary directories go below this run's own $tmp, so a
# concurrent run (another build's `make test`) is never touched
TMPDIR=$tmp
export TMPDIR
for t in session mcp schema project project_incr lsp edit_bounds tmpdir; do
	t_py "$dir/$t.py"
done
# under the sanitizers every 16th fixture: each step is a sanitized refresh
# (check --json, the oracle, runs in $PLAIN_BIN there: tests/service/client.py)
every=1
t_asan && every=16
t_py "$dir/corpus.py" "${SERVICE_CORPUS:-$dir/../fixtures}" "${SERVICE_CORPUS_EVERY:-$every}"
t_py "$dir/project_corpus.py" "$dir/../project" "${SERVICE_CORPUS_EVERY:-$every}"
t_py "$dir/hostile.py" "${SERVICE_HOSTILE_N:-100000}"
t_py "$dir/hostile_project.py"
SPX_SERVICE_VERIFY_PROJECT=1 t_py "$dir/hostile_project.py"
t_py "$dir/fuzz.py" "${SERVICE_FUZZ_N:-1500}" 21
t_py "$dir/fuzz.py" "${SERVICE_FUZZ_N:-1500}" 21 --mcp
t_py "$dir/fuzz.py" "${SERVICE_FUZZ_N:-1500}" 23 --project
t_py "$dir/leak.py" "${SERVICE_LEAK_N:-10000}"
t_end
