"""mcp.py BIN — a scripted MCP host session against `semaprax serve --mcp FILE`:
initialize (version negotiation), the initialized notification, ping,
tools/list with input schemas, tools/call of each operation with the answer
as text content, tool errors as isError results, protocol errors for unknown
tools and methods."""
import json
import os
import sys

from client import Client, check, tempdir

BIN = sys.argv[1]
d = tempdir()
path = os.path.join(d, "m.spx")
SRC = """module demo.m;

@id("demo.half")
fn half(x: i64) -> i64 {
    x / 2
}

@id("demo.main")
fn main() -> i64 {
    half(84) - 42
}
"""
with open(path, "w") as f:
    f.write(SRC)

c = Client(BIN, path, "--mcp")
init = c.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "spx-test-host", "version": "1"}})
check(init["protocolVersion"] == "2025-06-18", "version echoed")
check("tools" in init["capabilities"], "tools capability")
check(init["serverInfo"]["name"] == "semaprax", "server info")
c.notify("notifications/initialized")
check(c.call("ping") == {}, "ping")

# an unknown protocol version: the server answers with the one it speaks
c2 = Client(BIN, path, "--mcp")
check(c2.call("initialize", {"protocolVersion": "1999-01-01", "capabilities": {}})["protocolVersion"] == "2025-06-18",
      "version negotiation")
c2.close()
# a version holding NUL is none we speak (never the one before the NUL)
c2 = Client(BIN, path, "--mcp")
check(c2.call("initialize", {"protocolVersion": "2024-11-05\u0000x", "capabilities": {}})["protocolVersion"] == "2025-06-18",
      "version with NUL")
c2.close()

tools = c.call("tools/list")["tools"]
names = [t["name"] for t in tools]
check(names == ["protocol", "status", "check", "refresh", "graph", "context", "query", "doc", "patch_preview",
                "patch_impact", "patch_review", "patch_apply", "repairs", "repair", "fix", "run", "test"], "tool names %r" % names)
for t in tools:
    s = t["inputSchema"]
    check(s["type"] == "object" and "properties" in s and t["description"], "schema of %s" % t["name"])
ctx = [t for t in tools if t["name"] == "context"][0]
check(ctx["inputSchema"]["required"] == ["symbol"], "context requires symbol")
# the schema states the bound the service enforces (qa19: run's max_steps
# said only minimum 1; 10^9 + 1 was then refused with -32602)
run = [t for t in tools if t["name"] == "run"][0]
check(run["inputSchema"]["properties"]["max_steps"].get("maximum") == 10**9, "run max_steps maximum %r" % run["inputSchema"])
# qa38: query's `kind` lists the kinds the service takes (it refuses any other)
qk = [t for t in tools if t["name"] == "query"][0]["inputSchema"]["properties"]["kind"]
check(qk["items"].get("enum") == ["function", "method", "record", "field", "variant", "case", "case_field", "class", "resource",
                                  "interface", "import"] and qk.get("minItems") == 1, "query kind schema %r" % qk)

# agent40: the patch tools' `patch` says how a .spatch is written (the schema
# said "string"); every operation of docs/PATCH.md's v4 grammar is named
pdesc = [t for t in tools if t["name"] == "patch_preview"][0]["inputSchema"]["properties"]["patch"].get("description", "")
doc = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "PATCH.md"), encoding="utf-8").read()
block = doc.split("## v4 grammar", 1)[1].split("```", 2)[1]
ops = sorted(set(l.split()[0] for l in block.splitlines() if l.strip()) | {"rename", "rename-member", "rename-case"})
check(len(ops) >= 14 and "schema semaprax.semantic-patch.v4" in pdesc and all("`%s " % o in pdesc for o in ops),
      "patch_preview's patch names every v4 operation: %r missing from %r" % ([o for o in ops if "`%s " % o not in pdesc], pdesc))
for t in tools:
    if t["name"].startswith("patch_"):
        check("description" in t["inputSchema"]["properties"]["patch"], "%s's patch is described" % t["name"])


def tool(name, args=None):
    params = {"name": name}
    if args is not None:
        params["arguments"] = args
    r = c.call("tools/call", params)
    check(len(r["content"]) == 1 and r["content"][0]["type"] == "text", "one text content")
    return r["isError"], r["content"][0]["text"]


err, text = tool("check", {"trace": True})
res = json.loads(text)
check(not err and res["ok"] and res["revision"].startswith("sha256:"), "check tool %r" % text)
check(set(res["trace"]["executed"]) == {"parse", "resolve", "body:fn:half", "body:fn:main", "revision"}, "trace")
err, text = tool("refresh", {"text": SRC.replace("x / 2", "x / 2 + 0"), "trace": True})
res = json.loads(text)
check(not err and set(res["trace"]["executed"]) == {"parse:decl:fn:half", "body:fn:half"} and "revision" not in res, "refresh tool")
err, text = tool("refresh", {"text": SRC.replace("x / 2", "x / 2 + 1"), "trace": True, "revision": True})
res = json.loads(text)
check(not err and set(res["trace"]["executed"]) == {"parse:decl:fn:half", "body:fn:half", "revision"}
      and res["revision"].startswith("sha256:"), "refresh tool, revision asked")
err, text = tool("refresh", {})
check(not err and json.loads(text)["ok"], "refresh from disk")
err, text = tool("query", {"id": "demo.h"})
check(not err and json.loads(text)["query"]["declarations"][0][1] == "demo.half", "query tool")
err, text = tool("context", {"symbol": "demo.main", "direction": "forward"})
check(not err and json.loads(text)["context"]["root"] == "demo.main", "context tool")
err, text = tool("graph")
check(not err and json.loads(text)["graph"]["schema"] == "semaprax.graph.c1", "graph tool")
err, text = tool("run")
check(not err and json.loads(text)["exit"] == 0, "run tool")
err, text = tool("doc", {"format": "json"})
check(not err and json.loads(text)["exit"] == 0, "doc tool")
err, text = tool("status")
check(not err and json.loads(text)["kind"] == "file", "status tool")
# the agent's review of a patch before applying it (qa20: only preview and apply were tools)
rev = json.loads(tool("check")[1])["revision"]
err, text = tool("patch_review", {"patch": "base %s\nrename demo.half to halve\n" % rev, "revision": rev})
res = json.loads(text)
check(not err and res["exit"] == 0 and json.loads(res["stdout"])["schema"] == "semaprax.semantic-review.v1", "patch_review tool %r" % text)
err, text = tool("fix", {"dry_run": True})
res = json.loads(text)
check(not err and res["exit"] == 0 and res["stdout"].startswith("no machine-applicable fixes in "), "fix tool on a file with nothing to fix %r" % text)
err, text = tool("patch_impact", {"patch": "base %s\nrename demo.half to halve\n" % rev})
res = json.loads(text)
check(not err and res["exit"] == 0 and json.loads(res["stdout"])["schema"] == "semaprax.semantic-impact.v1", "patch_impact tool %r" % text)

# a patch or fix the command refused (exit 1, nothing written) is isError,
# with the command's result as text (qa24: a stale patch_apply said
# isError false, and an agent reading the flag took the edit for made)
err, text = tool("patch_apply", {"patch": "base sha256:%s\nrename demo.half to halve\n" % ("0" * 64)})
res = json.loads(text)
check(err and res["exit"] == 1 and "SPX-G409" in res["stderr"], "refused patch_apply is isError %r" % text)
err, text = tool("patch_preview", {"patch": "garbage\n"})
check(err and json.loads(text)["exit"] == 1, "refused patch_preview is isError %r" % text)
# a tool's own failure is a result with isError, not a protocol error
err, text = tool("context", {"symbol": "nowhere"})
check(err and text.startswith("error -32005:"), "unknown symbol as isError: %r" % text)
err, text = tool("context", {"symbol": 7})
check(err and text.startswith("error -32602:"), "bad argument as isError")
err, text = tool("test")
check(err and text.startswith("error -32008:"), "test of a file")

# agent40: an automatically identified function, renamed through MCP alone.
# The rename is G104, whose help names `repairs`/`repair`: they are tools
# (they were CLI commands only, so an MCP agent could not follow the help),
# and the preview's v3 patch goes to patch_apply.
with open(path, "w") as f:
    f.write(SRC.replace('@id("demo.half")\n', ""))
check(not tool("refresh", {})[0], "refresh from disk (automatic half)")
rev = json.loads(tool("check")[1])["revision"]
err, text = tool("patch_apply", {"patch": "base %s\nrename auto:demo.m.half to halve\n" % rev})
check(err and "SPX-G104" in text and "repairs" in text, "rename of an automatic function: G104 names repairs %r" % text)
err, text = tool("repairs", {"target": "auto:demo.m.half"})
res = json.loads(text)
check(not err and res["exit"] == 0, "repairs tool %r" % text)
rid = json.loads(res["stdout"])["repair"]["id"]
err, text = tool("repairs", {"target": "auto:demo.m.nosuch"})
check(err and "SPX-R101" in json.loads(text)["stderr"], "repairs of no automatic function is isError %r" % text)
err, text = tool("repair", {"repair": rid})
check(err and text.startswith("error -32602:") and "persistent_id" in text, "repair without persistent_id %r" % text)
err, text = tool("repair", {"repair": rid, "persistent_id": "demo.half"})
res = json.loads(text)
check(not err and res["exit"] == 0, "repair tool %r" % text)
err, text = tool("patch_apply", {"patch": json.loads(res["stdout"])["patch"]["source"]})
check(not err and json.loads(text)["exit"] == 0, "the repair's patch applied %r" % text)
rev = json.loads(tool("check")[1])["revision"]
err, text = tool("patch_apply", {"patch": "base %s\nrename demo.half to halve\n" % rev, "revision": rev})
check(not err and json.loads(text)["exit"] == 0, "then the rename %r" % text)
with open(path) as f:
    now = f.read()
check('@id("demo.half")\nfn halve(' in now and "halve(84)" in now, "renamed with its new id: %r" % now)

# protocol errors: unknown tool, missing name, unknown method, JSON-RPC's shutdown is not MCP's
check(c.error("tools/call", {"name": "nosuch"}) == -32602, "unknown tool")
# a name with NUL is no tool (never the name before the NUL)
r = c.request("tools/call", {"name": "status\u0000x"})
check(r.get("error", {}).get("code") == -32602 and "NUL" in r["error"]["message"], "tool name with NUL: %r" % r)
check(c.error("tools/call", {}) == -32602, "tools/call without name")
# `arguments` that are not an object: a protocol error naming `arguments` (a user
# walk: it was a tool result saying "params must be an object")
for bad in ([], "x", 5):
    r = c.request("tools/call", {"name": "check", "arguments": bad})
    check(r.get("error", {}).get("code") == -32602 and "`arguments`" in r["error"]["message"], "arguments %r: %r" % (bad, r))
check(c.error("resources/list") == -32601, "unknown MCP method")
check(c.error("shutdown") == -32601, "no shutdown in MCP")
status, rest, _ = c.close()
check(status == 0 and rest == b"", "EOF ends the MCP service")
print("service mcp: ok")
