#!/bin/sh
# interpret-test.sh BIN — `semaprax interpret` / `interpret-strings` beyond the
# fixture transcripts (tests/fixtures/graph/interpret_*.cmds): help, the
# envelope's digest and byte count recomputed independently, determinism
# across working directories, verification failures, an oversized envelope
# printing nothing, and the pure `run --json` envelope staying the same
# writer's.  Run from tests/cli-test.sh.
set -u
. "$(dirname "$0")/lib.sh"
t_begin interpret "${1:-}"

expect 0 "help interpret" -- "$bin" help interpret
has "$tmp/out" "semaprax interpret <file> --function <name|stable-id> [--arg <scalar literal>]... [--max-bytes N]" "help interpret grammar"
expect 0 "interpret --help" -- "$bin" interpret --help
has "$tmp/out" "semaprax.interpret.v1" "interpret --help names the envelope"
expect 0 "help interpret-strings" -- "$bin" help interpret-strings
has "$tmp/out" "semaprax.interpret.internal-strings.v1" "help interpret-strings names its envelope"
expect 2 "a misspelt interpret" -- "$bin" interpet x.spx
has "$tmp/err" 'did you mean `interpret`?' "interpret is suggested"
expect 2 "interpret without a file" -- "$bin" interpret
has "$tmp/err" "interpret requires a <file>" "missing file"

cat > "$tmp/calc.spx" <<'SPX'
module cli.calc;

@id("calc.scale")
fn scale(x: f64, k: i32) -> f64 {
    x * 2.0
}

@id("calc.pick")
fn pick(c: char) -> char {
    c
}

@id("app.main")
fn main() -> i64 {
    42
}
SPX
# The envelope: digest = sha256(domain NUL ‖ u64le(len) ‖ payload), bytes = len, one line.
for cmd in interpret interpret-strings; do
	expect 0 "$cmd scale" -- "$bin" "$cmd" "$tmp/calc.spx" --function calc.scale --arg 1.25 --arg 3i32
	empty "$tmp/err" "$cmd prints nothing on stderr"
	if $t_python - "$tmp/out" "$cmd" <<'PY'
import hashlib, json, struct, sys
raw = open(sys.argv[1], 'rb').read()
assert raw.endswith(b'\n') and raw.count(b'\n') == 1, 'one line'
env = json.loads(raw)
strings = sys.argv[2] == 'interpret-strings'
schema = 'semaprax.interpret.internal-strings.v1' if strings else 'semaprax.interpret.v1'
assert list(env) == ['schema', 'digest', 'bytes', 'payload'], list(env)
assert env['schema'] == schema
start = raw.index(b'"payload":') + len(b'"payload":')
payload = raw[start:-2]
assert len(payload) == env['bytes'], (len(payload), env['bytes'])
domain = (b'semaprax.interpret.internal-strings.payload.v1' if strings else b'semaprax.interpret.payload.v1') + b'\0'
digest = 'sha256:' + hashlib.sha256(domain + struct.pack('<Q', len(payload)) + payload).hexdigest()
assert env['digest'] == digest, (env['digest'], digest)
p = env['payload']
assert list(p) == ['schema', 'source', 'function', 'arguments', 'limits', 'fuel', 'outcome', 'nonclaims'], list(p)
assert p['schema'] == schema
assert list(p['source']) == ['path', 'revision', 'sha256']
assert p['function'] == {'stable_id': 'calc.scale', 'name': 'scale'}
assert p['arguments'] == [{'index': 0, 'name': 'x', 'type': 'f64', 'value': '3ff4000000000000'},
                          {'index': 1, 'name': 'k', 'type': 'i32', 'value': '3i32'}], p['arguments']
assert p['limits'] == {'max_bytes': 65536, 'max_steps': 1000000}
assert p['fuel']['budget'] == 1000000 and p['fuel']['exhausted'] is False
assert p['outcome'] == {'kind': 'returned', 'type': 'f64', 'value': '4004000000000000'}, p['outcome']
src = open(p['source']['path'], 'rb').read()
d = b'semaprax.interpret.source.v1\0'
assert p['source']['sha256'] == 'sha256:' + hashlib.sha256(d + struct.pack('<Q', len(src)) + src).hexdigest()
PY
	then ok; else bad "$cmd envelope digest, bytes or payload"; fi
done
# the same bytes again, and from another working directory given the same path text
"$bin" interpret "$tmp/calc.spx" --function pick --arg "'\\''" > "$tmp/a" 2>&1
"$bin" interpret "$tmp/calc.spx" --function pick --arg "'\\''" > "$tmp/b" 2>&1
if cmp -s "$tmp/a" "$tmp/b"; then ok; else bad "interpret is not deterministic"; fi
has "$tmp/a" '"value":"'"'"'\\'"'"''"'"'"' "a quote char renders escaped"
(cd / && "$bin" interpret "$tmp/calc.spx" --function pick --arg "'\\''") > "$tmp/c" 2>&1
if cmp -s "$tmp/a" "$tmp/c"; then ok; else bad "interpret depends on the working directory"; fi

# a literal of any length is read (one rounding), not refused for its length
zeros=$(printf '%0600d' 0)
expect 0 "a 600-digit fraction" -- "$bin" interpret "$tmp/calc.spx" --function scale --arg "1.$zeros" --arg 3i32
has "$tmp/out" '"value":"3ff0000000000000"' "the long literal is 1.0"
expect 1 "an argument of control bytes" -- "$bin" interpret "$tmp/calc.spx" --function scale --arg "$(printf '1\n\033')" --arg 3i32
has "$tmp/err" 'argument `1\x0a\x1b` is not a scalar literal' "the argument is shown with \\xNN"

# pure `run --json` writes the same envelope as `interpret --function main`
expect 0 "run --json" -- "$bin" run --json "$tmp/calc.spx"
cp "$tmp/out" "$tmp/run.json"
expect 0 "interpret main" -- "$bin" interpret "$tmp/calc.spx" --function main
if cmp -s "$tmp/out" "$tmp/run.json"; then ok; else bad "run --json and interpret --function main differ"; fi

# verification first: check's diagnostics, exit 1, nothing on stdout
printf 'module cli.bad;\n\n@id("app.main")\nfn main() -> i64 {\n    missing(1)\n}\n' > "$tmp/bad.spx"
expect 1 "interpret an unverified file" -- "$bin" interpret "$tmp/bad.spx" --function main
has "$tmp/err" "SPX-T203" "check's diagnostic"
empty "$tmp/out" "no envelope for an unverified file"
expect 1 "interpret a missing file" -- "$bin" interpret "$tmp/none.spx" --function main
has "$tmp/err" "SPX-I001" "missing file"
# an envelope over --max-bytes: F104, nothing on stdout
long="$tmp/a_rather_long_directory_name_that_makes_the_source_path_in_the_envelope_long"
mkdir -p "$long/and_then_some_more_of_it_so_that_the_envelope_crosses_one_kibibyte_with_room"
lp="$long/and_then_some_more_of_it_so_that_the_envelope_crosses_one_kibibyte_with_room/calc.spx"
cp "$tmp/calc.spx" "$lp"
expect 1 "interpret over --max-bytes" -- "$bin" interpret "$lp" --function scale --arg 1.25 --arg 3i32 --max-bytes 1024
has "$tmp/err" "SPX-F104" "F104"
empty "$tmp/out" "nothing printed past --max-bytes"
expect 0 "interpret within --max-bytes" -- "$bin" interpret "$lp" --function scale --arg 1.25 --arg 3i32 --max-bytes 2048

t_end
