#!/bin/sh
# tests/service-test.sh BIN — the semantic service (issue 17, docs/service.md):
# scripted clients over stdio (tests/service/*.py, python3):
#   session.py  JSON-RPC: every method, the incremental traces of body,
#               signature and comment edits, diagnostics equal to check --json
#   mcp.py      MCP: initialize, tools/list with schemas, tools/call
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
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(cd "$(dirname "$0")" && pwd)/service
# the scripts' temporary directories go below one of this run's own, so a
# concurrent run (another build's `make test`) is never touched
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/spx-service-test.XXXXXX") || exit 2
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
fail=0
for t in session mcp project project_incr lsp edit_bounds tmpdir; do
	python3 "$dir/$t.py" "$bin" || fail=1
done
# under the sanitizers (make test-sanitize sets ASAN_OPTIONS) every 16th fixture: the
# sanitized `check` per step is what costs
every=1
[ -n "${ASAN_OPTIONS:-}" ] && every=16
python3 "$dir/corpus.py" "$bin" "${SERVICE_CORPUS:-$dir/../fixtures}" "${SERVICE_CORPUS_EVERY:-$every}" || fail=1
python3 "$dir/project_corpus.py" "$bin" "$dir/../project" "${SERVICE_CORPUS_EVERY:-$every}" || fail=1
python3 "$dir/hostile.py" "$bin" "${SERVICE_HOSTILE_N:-100000}" || fail=1
python3 "$dir/hostile_project.py" "$bin" || fail=1
SPX_SERVICE_VERIFY_PROJECT=1 python3 "$dir/hostile_project.py" "$bin" || fail=1
python3 "$dir/fuzz.py" "$bin" "${SERVICE_FUZZ_N:-1500}" 21 || fail=1
python3 "$dir/fuzz.py" "$bin" "${SERVICE_FUZZ_N:-1500}" 21 --mcp || fail=1
python3 "$dir/fuzz.py" "$bin" "${SERVICE_FUZZ_N:-1500}" 23 --project || fail=1
python3 "$dir/leak.py" "$bin" "${SERVICE_LEAK_N:-10000}" || fail=1
if [ "$fail" -ne 0 ]; then
	echo "service-test: FAILED" >&2
	exit 1
fi
echo "service-test: ok"
