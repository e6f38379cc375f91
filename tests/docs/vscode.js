// tests/docs/vscode.js PACKAGE.JSON EXTENSION.JS — runs docs/editors.md's VS Code
// extension (tests/docs-test.sh) under node with stand-ins for the `vscode` and
// `vscode-languageclient/node` modules: package.json must be JSON whose parts
// agree with each other and with extension.js (main, activation event, language
// id, the setting the extension reads and its default), and activate() must
// start a client; prints the server's command line (one word a line, as the
// client would spawn it) and the language id, so that the test starts exactly
// what the editor would.
"use strict";
const fs = require("fs");
const path = require("path");
const Module = require("module");
const fail = (msg) => { console.error("vscode.js: " + msg); process.exit(1); };
const [pkgPath, extPath] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync(pkgPath, "utf8"));
if (path.basename(pkg.main || "") !== path.basename(extPath)) fail(`main is ${pkg.main}, not ${path.basename(extPath)}`);
const langs = (pkg.contributes && pkg.contributes.languages) || [];
if (langs.length !== 1 || !langs[0].extensions.includes(".spx")) fail("contributes.languages: one language with .spx");
const lang = langs[0].id;
if (!(pkg.activationEvents || []).includes("onLanguage:" + lang)) fail(`no activation event onLanguage:${lang}`);
if (!pkg.dependencies || !pkg.dependencies["vscode-languageclient"]) fail("no vscode-languageclient dependency");
if (!pkg.engines || !pkg.engines.vscode) fail("no engines.vscode");
const props = (pkg.contributes.configuration && pkg.contributes.configuration.properties) || {};
let client = null;
let stopped = false;
const vscode = {
  workspace: {
    getConfiguration(section) {
      return { get(key) {
        const p = props[section + "." + key];
        if (!p) fail(`the extension reads the setting ${section}.${key}, which package.json does not declare`);
        return p.default;
      } };
    },
  },
};
class LanguageClient {
  constructor(id, name, server, options) {
    if (typeof id !== "string" || typeof name !== "string") fail("LanguageClient(id, name, …)");
    if (!server || typeof server.command !== "string") fail("server options without a command string");
    this.server = server;
    this.options = options;
    client = this;
  }
  start() { return Promise.resolve(); }
  stop() { stopped = true; return Promise.resolve(); }
}
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") return vscode;
  if (request === "vscode-languageclient/node") return { LanguageClient };
  return load.call(this, request, parent, isMain);
};
const ext = require(path.resolve(extPath));
if (typeof ext.activate !== "function" || typeof ext.deactivate !== "function") fail("no activate/deactivate export");
const started = ext.activate({ subscriptions: [] });
if (!client) fail("activate() made no LanguageClient");
if (!started || typeof started.then !== "function") fail("activate() does not return the client's start()");
const sel = (client.options && client.options.documentSelector) || [];
if (!sel.some((s) => s.language === lang)) fail(`documentSelector does not select the language ${lang}`);
ext.deactivate();
if (!stopped) fail("deactivate() does not stop the client");
for (const w of [client.server.command, ...(client.server.args || [])]) console.log("cmd " + w);
console.log("filetype " + lang);
