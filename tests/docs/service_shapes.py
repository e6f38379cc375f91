"""tests/docs/service_shapes.py BIN FILE PROJECT — docs/service.md's methods
table against the service (tests/docs-test.sh): every row whose result column
opens with a JSON outline (`{…}`, `null`) is sent as a request to
`BIN serve FILE` (a scratch copy: nothing here writes it; `fix` runs with
`dry_run`), or to `BIN serve PROJECT` for `test` (projects only), and the
result's keys must be the outline's, in its order (tests/docs/keys.py). Every
method `protocol` lists must have a row. Prints one FAIL block per
difference; exit 1 when there is one."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import keys  # noqa: E402


def rows(doc):
    """(method, outline or None) per row of the methods table."""
    out = []
    on = False
    for line in open(doc, encoding="utf-8"):
        if line.startswith("| method | params | result |"):
            on = True
            continue
        if on and not line.startswith("|"):
            break
        if on and not line.startswith("|---"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            method = cells[0].strip("`")
            m = re.match(r"`(\{.*?\}|null)`", cells[2])
            out.append((method, m.group(1).replace("\\|", "|") if m else None))
    return out


def serve(binary, operand, requests):
    lines = "".join(json.dumps({"jsonrpc": "2.0", "id": i + 1, "method": m, "params": p}) + "\n"
                    for i, (m, p) in enumerate(requests))
    out = subprocess.run([binary, "serve", operand], input=lines.encode(), capture_output=True,
                         timeout=120).stdout
    return [json.loads(l) for l in out.decode().splitlines()]


def main():
    binary, file, project = sys.argv[1:4]
    doc = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "service.md")
    table = rows(doc)
    bad = []
    first = serve(binary, file, [("check", {})])[0]["result"]
    patch = "schema semaprax.semantic-patch.v4\nbase %s\nrequire no-new-effects\n" % first["revision"]
    params = {"context": {"symbol": "main"}, "patch/preview": {"patch": patch},
              "patch/impact": {"patch": patch}, "patch/review": {"patch": patch},
              "fix": {"dry_run": True}, "run": {"max_steps": 1000},
              # a refused repair answers the same object (exit 1)
              "repairs": {"target": "auto:main"}, "repair": {"repair": "sha256:" + "0" * 64, "persistent_id": "x.y"}}
    shown = [(m, o) for m, o in table if o is not None]
    on_file = [(m, o) for m, o in shown if m != "test"]
    replies = serve(binary, file, [(m, params.get(m, {})) for m, _ in on_file])
    replies += serve(binary, project, [("test", {})])
    checked = 0
    for (method, outline), reply in zip(on_file + [("test", dict(shown)["test"])], replies):
        what = "docs/service.md (`%s`)" % method
        if "result" not in reply:
            bad.append("FAIL %s: the request failed: %s" % (what, reply.get("error")))
        elif outline == "null":
            if reply["result"] is not None:
                bad.append("FAIL %s: the result is %r, the table says null" % (what, reply["result"]))
        else:
            bad += keys.check_row(what, outline, reply["result"])
        checked += 1
    listed = set(m for m, _ in table)
    protocol = serve(binary, file, [("protocol", {})])[0]["result"]
    missing = [m for m in protocol["methods"] if m not in listed]
    if missing:
        bad.append("FAIL docs/service.md: methods the table has no row for: %s" % ", ".join(missing))
    if len(shown) < 10:
        bad.append("FAIL docs/service.md: only %d result outlines found in the methods table" % len(shown))
    print("\n".join(bad) if bad else "docs: docs/service.md's %d result outlines are the service's (%d methods)"
          % (checked, len(table)))
    sys.exit(1 if bad else 0)


main()
