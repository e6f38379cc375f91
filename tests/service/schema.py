"""schema.py BIN — every MCP tool's inputSchema against what the tool takes
(agent40): for each property the schema constrains, probes on both sides of
the constraint — an integer's minimum - 1 and maximum + 1 (refused) and the
bounds themselves (taken), an array's empty and repeated lists (refused
exactly when `minItems` / `uniqueItems` say so), a string's empty value
(refused only when `minLength` or a `pattern` says so; a
value the `pattern` does not match and one past `maxLength`, refused), a word outside an `enum` (refused).
"Refused" is the tool's `error -32602` (an argument of the wrong shape);
"taken" is anything else (the operation may still fail for its own
reasons, a command's exit status or an unknown symbol).  An agent that
builds its arguments from the schema is then never refused for their shape."""
import json
import os
import re
import sys

from client import Client, check, tempdir

BIN = sys.argv[1]
d = tempdir()
path = os.path.join(d, "s.spx")
with open(path, "w") as f:
    f.write("""module demo.s;

@id("demo.half")
fn half(x: i64) -> i64 {
    x / 2
}

@id("demo.main")
fn main() -> i64 {
    half(84) - 42
}
""")

c = Client(BIN, path, "--mcp")
c.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}})
tools = c.call("tools/list")["tools"]
# the required arguments each probe carries (a patch the command refuses:
# nothing is written)
BASE = {"context": {"symbol": "demo.main"}, "patch_preview": {"patch": "x\n"}, "patch_impact": {"patch": "x\n"},
        "patch_review": {"patch": "x\n"}, "patch_apply": {"patch": "x\n"}}


def shape_refused(name, args):
    r = c.call("tools/call", {"name": name, "arguments": args})
    text = r["content"][0]["text"]
    return r["isError"] and text.startswith("error -32602:"), text


probes = 0
# refresh last: its probes replace the held text (each followed by a refresh
# from disk)
for t in sorted(tools, key=lambda t: t["name"] == "refresh"):
    name, props = t["name"], t["inputSchema"]["properties"]
    for key, s in props.items():
        cases = []   # (value, refused?)
        if s.get("type") == "integer":
            if "minimum" in s:
                cases += [(s["minimum"] - 1, True), (s["minimum"], False)]
            if "maximum" in s:
                cases += [(s["maximum"] + 1, True)]
                if key != "max_steps":   # 10^9 interpreter steps: the run is short, but no need
                    cases += [(s["maximum"], False)]
        if s.get("type") == "array":
            item = s.get("items", {})
            words = item.get("enum")
            cases += [([], s.get("minItems", 0) >= 1)]
            if words:
                cases += [([words[0]], False), ([words[0], words[0]], bool(s.get("uniqueItems"))),
                          (["no-such-word"], True)]
        if s.get("type") == "string" and key not in BASE.get(name, {}):
            if name == "refresh" and key == "path":
                continue   # a served project's module: any `path` of a file operand is -32602 (docs/service.md)
            cases += [("", s.get("minLength", 0) >= 1 or ("pattern" in s and not re.search(s["pattern"], "")))]
            if "pattern" in s:
                cases += [("x" * max(1, s.get("minLength", 1)), True)]
            if "maxLength" in s:
                cases += [("SPX-" + "Z" * (s["maxLength"] - 3), True)]
        if "enum" in s:
            cases += [(s["enum"][0], False), ("no-such-word", True)]
        for value, refused in cases:
            args = dict(BASE.get(name, {}))
            args[key] = value
            got, text = shape_refused(name, args)
            check(got == refused, "%s %s=%r: the schema %s it, the tool %s it (%s; schema %s)"
                  % (name, key, value, "refuses" if refused else "admits", "refused" if got else "took",
                     text[:200], json.dumps(s)))
            probes += 1
            if name == "refresh":
                c.call("tools/call", {"name": "refresh", "arguments": {}})
status, _, _ = c.close()
check(status == 0, "EOF ends the service")
print("service schema: ok (%d probes)" % probes)
