#!/usr/bin/env python3
"""refmine's own check: the extractor over a synthetic Rust test file written
for this purpose (no reference text), covering each idiom extract.py reads.
Run by `make compat` before the reference is mined; no network, no binary."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import extract  # noqa: E402
from clirun import SRC  # noqa: E402
from detailcheck import exit_variants  # noqa: E402

SYNTHETIC = r'''
use std::path::Path;

const BASE: &str = r#"
module demo.base;
@id("app.main")
fn main() -> i64 { 40 + 2 }
"#;

fn codes(source: &str) -> Vec<&'static str> {
    let program = parse(source, Path::new("x.spx")).unwrap();
    verify::verify(&program).into_iter().map(|d| d.code).collect()
}

fn checked(source: &str) -> Program {
    hir::resolve(&parse(source, Path::new("y.spx")).unwrap()).unwrap()
}

#[test]
fn base_verifies() {
    assert!(codes(BASE).is_empty());
    let broken = BASE.replace("40 + 2", "missing");
    assert_eq!(codes(&broken), vec!["SPX-T202"]);
    let bad = BASE.replacen("40", "true", 1);
    assert!(!codes(&bad).is_empty());
}

#[test]
fn table_of_programs() {
    let program = |body: &str| format!("module demo.t;\n@id(\"app.main\") fn main() -> i64 {{ {body} }}\n");
    for (body, code) in [("1 +", "SPX-P101"), ("x", "SPX-T202")] {
        let source = program(body);
        assert_eq!(codes(&source)[0], code, "{body}");
    }
    for body in ["1", "2"] {
        checked(&program(body));
    }
}

#[test]
fn forged_trees_and_lanes_are_not_verdicts() {
    let mut tree = parse(BASE, Path::new("z.spx")).unwrap();
    tree.functions.clear();
    assert_eq!(verify::verify(&tree)[0].code, "SPX-T105");
    let lane = format!("{}\n@id(\"extra\") fn extra() -> i64 {{ 1 }}\n", BASE);
    assert_eq!(wasm::emit_module(&parse(&lane, Path::new("w")).unwrap()).unwrap_err().code, "SPX-W111");
    let report = verify::verify(&parse(INCLUDED, Path::new("i.spx")).unwrap());
    let found = report.iter().find(|item| item.code == "SPX-T103").expect("T103");
}

#[test]
fn compiled_program_prints() {
    let ast = parse(&BASE.replace("40 + 2", "6 * 7"), "p.spx").unwrap();
    std::fs::write(&c_path, codegen::emit_c(&ast).unwrap()).unwrap();
    let output = Command::new(binary).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "42");
}

#[test]
fn a_lane_code_does_not_hide_an_output() {
    let ast = parse(&BASE.replace("40 + 2", "5 * 5"), "q.spx").unwrap();
    assert!(verify::verify(&ast).is_empty());
    assert_eq!(wasm::emit_module(&ast).unwrap_err().code, "SPX-W120");
    std::fs::write(&c_path, codegen::emit_c(&ast).unwrap()).unwrap();
    let output = Command::new(binary).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "25");
}

fn run(source: &str) -> String {
    let path = write(source);
    let output = Command::new(env!("CARGO_BIN_EXE_semaprax")).arg("run").arg(&path).output().unwrap();
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

const SEVEN: i64 = 3 + 4;

#[test]
fn cli_run_prints_and_closure_parameters_are_not_captures() {
    let diagnostic = parse("module demo.c;\nfn main() -> i64 { 1 + }\n", "c.spx").unwrap_err();
    assert_eq!(diagnostic.code, "SPX-P101");
    let program = parse("module demo.d;\nfn main() -> i64 { if 1 { 1 } else { 2 } }\n", "d.spx").unwrap();
    let diagnostics = verify::verify(&program);
    assert!(diagnostics.iter().any(|diagnostic| diagnostic.code == "SPX-T210"));
    assert_eq!(run(&BASE.replace("40 + 2", "3 + 4")), SEVEN.to_string());
    let either = BASE.replace("40 + 2", "40 + true");
    assert!(codes(&either).iter().any(|c| matches!(*c, "SPX-T208" | "SPX-T205")));
}

fn first_code(prefix: &str, body: &str) -> (String, String) {
    let source = format!("module demo.frag;\n{prefix}@id(\"app.main\")\nfn main() -> i64 {{ {body} }}\n");
    let found = codes(&source);
    let first = found.first().unwrap_or_else(|| panic!("none"));
    (first.to_string(), String::new())
}

#[test]
fn helpers_build_programs_from_fragments() {
    assert_eq!(first_code("fn helper(x: i64) -> i64 { x }\n", "helper(true)").0, "SPX-T205");
    assert_eq!(first_code("", "missing").0, "SPX-T202");
}

#[test]
fn unknown_format_arguments_yield_no_program() {
    let items = (0..3).map(|i| format!("@id(\"f{i}\") fn f{i}() -> i64 {{ {i} }}")).collect::<Vec<_>>().join("\n");
    let source = format!("module demo.w;\n{items}\n@id(\"app.main\") fn main() -> i64 {{ 0 }}\n");
    assert!(codes(&source).is_empty());
}

#[test]
fn tree_fields_are_not_diagnostics() {
    let resolved = hir::resolve(&parse(&BASE.replace("40 + 2", "41 + 1"), Path::new("t.spx")).unwrap()).unwrap();
    assert!(!resolved.functions.is_empty());
}

fn run_wasm(source: &str) -> String {
    let bytes = wasm::emit_module(&parse(source, Path::new("w.spx")).unwrap()).unwrap();
    let output = Command::new("node").arg(write(bytes)).output().unwrap();
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

#[test]
fn a_node_driver_prints_its_own_words() {
    let source = BASE.replace("40 + 2", "1 / 0");
    assert!(codes(&source).is_empty());
    if let Some(stdout) = Some(run_wasm(&source)) {
        assert_eq!(stdout, "trapped");
    }
}

fn native_probe(source: &str) {
    let probe = "int main(void) { return 0; }";
    let output = compile(source, probe);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(stdout, "probe|ok");
}

#[test]
fn a_helper_driver_asserts_its_own_output() {
    let source = BASE.replace("40 + 2", "2 + 2");
    native_probe(&source);
}

#[test]
fn a_code_that_must_not_appear_is_no_verdict() {
    let source = BASE.replace("40 + 2", "nope");
    let found = codes(&source);
    assert!(found.iter().any(|c| *c == "SPX-T202"));
    assert!(found.iter().all(|c| *c != "SPX-T252"), "{found:?}");
}

#[test]
fn a_proof_export_code_is_a_lane() {
    let source = BASE.replace("40 + 2", "43 - 1");
    let program = parse(&source, Path::new("p.spx")).unwrap();
    assert_eq!(list_induction::prove(&program).unwrap_err().code, "SPX-LI001");
}

#[test]
fn a_skipped_table_row_is_no_case() {
    for (body, code) in [("1 +", "SPX-P101"), ("2 *", "SPX-P999")] {
        if body.contains("2") {
            continue;
        }
        let source = format!("module demo.skip;\n@id(\"app.main\") fn main() -> i64 {{ {body} 0 }}\n");
        assert_eq!(codes(&source)[0], code);
    }
}


fn rejection(source: &str) -> Diagnostic {
    parse(source, Path::new("r.spx")).expect_err("rejected")
}

fn help(diagnostic: &Diagnostic) -> &str {
    diagnostic.help.as_deref().unwrap_or_else(|| panic!("no help"))
}

fn only(source: &str, code: &str) -> Diagnostic {
    let found = codes_full(source);
    let first = found.iter().filter(|d| d.code == code).next().unwrap().clone();
    first
}

#[test]
fn diagnostic_texts_are_details() {
    let diagnostic = rejection("module demo.m;\n@id(\"app.main\") fn main() -> i64 { 1 + }\n");
    assert_eq!(diagnostic.code, "SPX-P101");
    assert_eq!(diagnostic.message, "expected an expression");
    assert!(help(&diagnostic).contains("operand"), "{diagnostic}");
    assert_eq!(diagnostic.span.map(|span| (span.line, span.column)), Some((2, 39)));
    let found = verify::verify(&parse(&BASE.replace("40 + 2", "40 + 'a'"), "m.spx").unwrap());
    assert!(found.iter().any(|item| item.code == "SPX-T208" && item.message.contains('+')));
    assert!(!found.iter().any(|item| { item.code == "SPX-O101" && item.message.contains("moved") }));
    let typed = only(&BASE.replace("40 + 2", "nope(1)"), "SPX-T203");
    assert_eq!(help(&typed), "did you mean `main`?");
    let hint = typed.help.unwrap_or_default();
    assert!(hint.contains("main") && hint.contains("did"));
    assert!(typed.help.as_deref().is_some_and(|h| h.contains("mean")));
    assert!(typed.help.is_none() || typed.code == "SPX-T203");
    let item = rejection("module demo.shadow;\n@id(\"app.main\") fn main() -> i64 { 2 * }\n");
    assert!(found.iter().any(|item| item.code == "SPX-T208" && item.message.contains("operands")));
}

#[test]
fn lists_and_filtered_firsts_are_details() {
    let report = verify::verify(&parse(&BASE.replace("40 + 2", "x + y"), "l.spx").unwrap());
    assert_eq!(report.iter().map(|d| (d.code, d.message.as_str())).collect::<Vec<_>>(), vec![
        ("SPX-T202", "unknown value `x`"),
        ("SPX-T202", "unknown value `y`"),
    ], "would invalidate nothing");
    let refused = report.iter().filter(|d| d.code == "SPX-T202").collect::<Vec<_>>();
    assert_eq!(refused[0].message, "unknown value `x`");
    let rendered = report.iter().map(|d| format!("{} {}", d.code, d.message)).collect::<Vec<_>>();
    assert_eq!(rendered, ["SPX-T202 unknown value `x`", "SPX-T202 unknown value `y`"]);
}

fn outcome(source: &str) -> serde_json::Value {
    let path = temp_path();
    std::fs::write(&path, source).unwrap();
    let envelope = interpreter::interpret(&path, "app.main", &[], &InterpreterOptions::default())
        .expect("interprets")
        .envelope;
    let parsed: serde_json::Value = serde_json::from_str(&envelope).unwrap();
    parsed["payload"]["outcome"].clone()
}

#[test]
fn interpreter_envelopes_are_run_details() {
    let path = temp_path();
    std::fs::write(&path, BASE.replace("40 + 2", "50 + 2")).unwrap();
    let options = InterpreterOptions::default();
    let result = interpreter::interpret(&path, "app.main", &[], &options).unwrap();
    assert!(result.envelope.contains("\"kind\":\"returned\"") && result.envelope.contains("\"value\":\"52\""));
    let out = outcome(&BASE.replace("40 + 2", "60 + 2"));
    assert_eq!(out["value"], "62");
    let mut limited = InterpreterOptions::default();
    limited.max_steps = 1;
    std::fs::write(&path, BASE.replace("40 + 2", "70 + 2")).unwrap();
    let failed = interpreter::interpret(&path, "app.main", &[], &limited).unwrap();
    assert!(failed.envelope.contains("fuel"));
}

const ENTRIES: &str = "module demo.entries;\n@id(\"demo.twice\") fn twice(n: i64) -> i64 { n * 2 }\n@id(\"demo.pick\") fn pick(b: bool, n: i32) -> i32 { n }\n@id(\"demo.zero\") fn zero() -> i64 { 0 }\n";

#[test]
fn interpreter_argument_tables_are_run_details() {
    let path = temp_path();
    std::fs::write(&path, ENTRIES).unwrap();
    for (token, arguments, expected) in [
        ("demo.twice", vec!["21"], "42"),
        ("demo.pick", vec!["true", "7i32"], "7i32"),
    ] {
        let owned: Vec<String> = arguments.iter().map(|argument| argument.to_string()).collect();
        let options = InterpreterOptions::new(65536, DEFAULT_MAX_STEPS).unwrap();
        let envelope = interpreter::interpret(&path, token, &owned, &options)
            .expect("interpretation")
            .envelope;
        let parsed: serde_json::Value = serde_json::from_str(&envelope).unwrap();
        assert_eq!(parsed["payload"]["outcome"]["value"], expected, "{token}: {envelope}");
    }
    for (id, expected) in [("demo.zero", "ok|0")] {
        let result = interpreter::interpret(&path, id, &[], &InterpreterOptions::default())
            .unwrap_or_else(|errors| panic!("{id}: {errors:?}"));
        let envelope: Value = serde_json::from_str(&result.envelope).unwrap();
        let outcome = &envelope["payload"]["outcome"];
        let observed = if outcome["kind"] == "returned" {
            format!("ok|{}", outcome["value"].as_str().unwrap())
        } else {
            format!("{}|{}", outcome["status"]["domain_id"].as_str().unwrap(), outcome["status"]["code"].as_u64().unwrap())
        };
        assert_eq!(&observed, expected, "{id}");
    }
    // the same rendering selected by the interpretation's `returned` flag
    for (id, expected) in [("demo.twice", "ok|0")] {
        let result = interpreter::interpret(&path, id, &[], &interpreter::InterpreterOptions::default())
            .unwrap();
        let envelope: serde_json::Value = serde_json::from_str(&result.envelope).unwrap();
        let outcome = &envelope["payload"]["outcome"];
        let actual = if result.returned {
            format!("ok|{}", outcome["value"].as_str().unwrap())
        } else {
            format!("{}|{}", outcome["status"]["domain_id"].as_str().unwrap(), outcome["status"]["code"])
        };
        assert_eq!(actual, *expected, "{id}: {}", result.envelope);
    }
    let defaults = InterpreterOptions::default();
    let fallback = interpreter::interpret(&path, "demo.zero", &[], &defaults)
        .or_else(|_| interpreter::internal_strings::interpret(&path, "demo.zero", &[], &defaults))
        .unwrap();
    assert!(fallback.envelope.contains("\"value\":\"0\""));
    let limited = InterpreterOptions::new(65536, 16).unwrap();
    let fuel = interpreter::interpret(&path, "demo.twice", &["1".to_owned()], &limited).unwrap();
    assert!(fuel.envelope.contains("fuel_exhausted"));
}

const BUDGETED: &str = "module demo.fuel;\n@id(\"demo.spin\") fn spin(n: i64) -> i64 { n }\n@id(\"demo.text\") fn text() -> i64 { 1 }\n@id(\"demo.plain\") fn plain() -> i64 { 2 }\n";

fn envelope_for(path: &Path, token: &str, arguments: &[&str], max_steps: usize) -> String {
    let owned: Vec<String> = arguments.iter().map(|argument| (*argument).to_owned()).collect();
    let options = InterpreterOptions::new(65536, max_steps).unwrap();
    interpreter::interpret(path, token, &owned, &options).expect("interpretation").envelope
}

const ROWS: &[(&str, &str)] = &[("demo.text", "ok|1"), ("demo.plain", "ok|2")];

#[test]
fn budgets_and_row_profiles_are_run_details() {
    let path = temp_path();
    std::fs::write(&path, BUDGETED).unwrap();
    let limited = InterpreterOptions::new(65_536, 16).unwrap();
    let interpretation = interpreter::interpret(&path, "demo.spin", &["9".to_owned()], &limited).unwrap();
    let parsed: serde_json::Value = serde_json::from_str(&interpretation.envelope).unwrap();
    assert_eq!(parsed["payload"]["outcome"]["kind"], "fuel_exhausted");
    assert_eq!(parsed["payload"]["fuel"]["steps_used"], 16);
    assert!(!interpretation.returned, "exhausted runs return nothing");
    let mut tight = InterpreterOptions::default();
    tight.max_steps = 4;
    let small = interpreter::interpret(&path, "demo.spin", &["8".to_owned()], &tight).unwrap();
    assert!(small.returned);
    let full = envelope_for(&path, "demo.spin", &["3"], DEFAULT_MAX_STEPS);
    let parsed: serde_json::Value = serde_json::from_str(&full).unwrap();
    assert_eq!(parsed["payload"]["outcome"]["value"], "3");
    let wide = InterpreterOptions::new(65_536, semaprax::interpreter::DEFAULT_MAX_STEPS).unwrap();
    let plain = interpreter::interpret(&path, "demo.plain", &[], &wide).unwrap();
    assert!(plain.envelope.contains("\"value\":\"2\""));
    for (id, expected) in ROWS {
        let options = InterpreterOptions::default();
        let result = if *id == "demo.text" {
            let errors = interpreter::interpret(&path, id, &[], &options).unwrap_err();
            assert_eq!(errors.len(), 1, "{id}: {errors:?}");
            assert_eq!(errors[0].code, "SPX-F102", "{id}");
            assert!(errors[0].message.contains("unsupported_callee"));
            let result = interpreter::internal_strings::interpret(&path, id, &[], &options).unwrap();
            result
        } else {
            interpreter::interpret(&path, id, &[], &options).unwrap()
        };
        let envelope: Value = serde_json::from_str(&result.envelope).unwrap();
        let outcome = &envelope["payload"]["outcome"];
        let observed = if outcome["kind"] == "returned" {
            format!("ok|{}", outcome["value"].as_str().unwrap())
        } else {
            format!("{}|{}", outcome["status"]["domain_id"].as_str().unwrap(), outcome["status"]["code"].as_u64().unwrap())
        };
        assert_eq!(&observed, expected, "{id}");
    }
}

const SUGAR: &str = "module demo.sugar;\n@id(\"app.main\") fn main() -> i64 {   7 }\n";
const TIDY: &str = "module demo.sugar;\n@id(\"app.main\")\nfn main() -> i64 {\n    7\n}\n";

#[test]
fn formatter_texts_are_fmt_details() {
    let program = parse(SUGAR, Path::new("s.spx")).unwrap();
    assert_eq!(format::canonical(&program), TIDY, "sugar is formatted");
    let canonical = format::canonical(&program);
    let reparsed = parse(&canonical, Path::new("c.spx")).unwrap();
    assert_eq!(format::canonical(&reparsed), canonical);
    let tidy = parse(TIDY, Path::new("t.spx")).unwrap();
    assert_eq!(TIDY, semaprax::format::canonical(&tidy));
}

#[test]
fn an_example_path_given_to_the_interpreter_is_that_example() {
    let path = Path::new("examples/demo.spx");
    let interpretation = interpreter::interpret(path, "demo.main", &[], &InterpreterOptions::default()).unwrap();
    assert!(interpretation.envelope.contains("\"value\":\"1\""));
    let unknown = Path::new("examples/absent.spx");
    assert!(interpreter::interpret(unknown, "demo.main", &[], &InterpreterOptions::default()).unwrap().envelope.contains("\"value\":\"2\""));
}

#[test]
fn revisions_and_graphs_are_details() {
    let program = parse(SUGAR, Path::new("s.spx")).unwrap();
    let canonical = format::canonical(&program);
    let reparsed = parse(&canonical, Path::new("c.spx")).unwrap();
    assert_eq!(graph::revision(&program), graph::revision(&reparsed));
    assert_eq!(graph::to_json(&program).unwrap(), graph::to_json(&reparsed).unwrap());
    let tidy = parse(TIDY, Path::new("t.spx")).unwrap();
    assert_eq!(graph::revision(&program), graph::revision(&tidy));
    assert_ne!(graph::revision(&program), graph::revision(&parse(BASE, "b").unwrap()));
    assert_eq!(graph::revision(&tidy), "sha256:00");
    let json = graph::to_json(&tidy).unwrap();
    assert!(json.contains("\"entrypoint\":\"app.main\"",));
    assert!(json.contains("\"schema\":\"semaprax.graph.v10\""));
    assert!(!json.contains("\"module\":\"demo.other\""));
    assert_eq!(format!("{json}\n"), include_str!("snapshots/tidy.graph.json"));
}

fn module_of(body: &str) -> String {
    format!("module demo.inline;\n@id(\"app.main\") fn main() -> i64 {{ {body} }}\n")
}

fn inline_rejection(body: &str) -> Diagnostic {
    parse(&module_of(body), Path::new("i.spx")).expect_err("rejected")
}

#[test]
fn a_helper_building_its_program_inline_owns_it() {
    let diagnostic = inline_rejection("1 +");
    assert_eq!(diagnostic.code, "SPX-P101");
    assert!(wasm::emit_module(&parse(&BASE.replace("40 + 2", "80 + 2"), "w").unwrap()).is_err());
}

const INCLUDED: &str = include_str!("selftest/inc.spx");

const TOOL: &str = "module demo.tool;\n@id(\"app.main\") fn main() -> i64 { 3 }\n";

fn launch(fx: &Fixture, native: bool, extra: &[&str]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_semaprax"));
    cmd.current_dir(&fx.root).arg("run").arg("source.spx");
    if native {
        cmd.arg("--native");
    }
    let out = cmd.args(extra).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

fn launch_native(source: &str, tag: &str) -> Option<(bool, String)> {
    if !command_available("cc") {
        return None;
    }
    let path = place(if tag.is_empty() { "a" } else { "b" }, source);
    let out = Command::new(env!("CARGO_BIN_EXE_semaprax")).arg("run").arg(&path).arg("--native").output().unwrap();
    assert!(out.status.success(), "{tag}");
    Some((out.status.success(), String::new()))
}

#[test]
fn cli_exit_statuses_are_exit_details() {
    let mut fx = Fixture::new(TOOL);
    fx.write("data.bin", [0x41u8, b'\n']);
    if cfg!(windows) {
        assert_eq!(launch(&fx, false, &["--", "x"]).0, 9);
        return;
    }
    for native in [false, true] {
        assert_eq!(launch(&fx, native, &["--", "data.bin"][..]), (3, "3\n".to_owned()));
    }
    let lanes: &[bool] = if command_available("cc") { &[false, true] } else { &[false] };
    for &native in lanes {
        let (code, _) = launch(&fx, native, &["-q"]);
        assert_eq!(code, 2);
    }
    let failing = TOOL.replace("{ 3 }", "{ 1 / 0 }");
    if let Some((ok, _)) = launch_native(&failing, "") {
        assert!(!ok);
    }
}

// `stdout["schema"]`: a field of another command's JSON report, not the
// program's output (base_verifies#1 stays an accept)
#[test]
fn a_json_field_named_stdout_is_no_output() {
    let out = Command::new(env!("CARGO_BIN_EXE_semaprax")).args(["report", "x.spx"]).output().unwrap();
    let stdout: Value = serde_json::from_str(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert!(codes(BASE).is_empty());
    assert_eq!(stdout["schema"], "demo.report.v1");
}

// arguments through a helper returning strings (`owned_args(&["255"])`),
// an envelope through `.map(|run| run.envelope)`, and a refusal stated as
// `errors.iter().any(|item| item.code == …)`: run details, no verdict
const WIDE: &str = "module demo.wide;\n@id(\"demo.echo\") fn echo(v: u8) -> u8 { v }\n";

fn owned_args(arguments: &[&str]) -> Vec<String> {
    arguments.iter().map(|argument| (*argument).to_owned()).collect()
}

fn widened(path: &Path, token: &str, arguments: &[&str]) -> Result<String, Vec<Diagnostic>> {
    let owned: Vec<String> = arguments.iter().map(|argument| (*argument).to_owned()).collect();
    interpreter::interpret(path, token, &owned, &InterpreterOptions::default())
        .map(|interpretation| interpretation.envelope)
}

#[test]
fn interpreter_refusals_of_arguments_are_run_details() {
    let path = temp_path();
    std::fs::write(&path, WIDE).unwrap();
    let errors = interpreter::interpret(&path, "demo.echo", &owned_args(&["255"]),
        &InterpreterOptions::default()).expect_err("i64 for u8");
    assert!(errors.iter().any(|item| item.code == "SPX-F103"), "{errors:?}");
    let errors = interpreter::interpret(&path, "demo.echo", &[], &InterpreterOptions::default())
        .unwrap_err();
    assert!(errors.iter().any(|item| item.code == "SPX-F103" && item.message.contains("expects 1")));
    let envelope = widened(&path, "demo.echo", &["7u8"]).expect("envelope");
    assert!(envelope.contains("\"value\":\"7\""));
    // a closure over `path`, called with plain strings
    let expects_reason = |token: &str, reason: &str| {
        let errors = interpreter::interpret(&path, token, &[], &InterpreterOptions::default())
            .expect_err(reason);
        assert!(errors.iter().any(|item| item.code == "SPX-F102" && item.message.contains(reason)));
    };
    expects_reason("demo.echo", "unsupported_parameter_type");
}

// a helper running the program's Wasm module under the JavaScript probe it
// is given: the probe's value of `semaprax_main()` or its failure status
// (a domain given through `{domain:?}`) is a run detail of that main
fn probe(source: &str, expectation: &str) {
    let program = parse(source, Path::new("probe.spx")).unwrap();
    let script = format!("import {{x}} from './semaprax.js';\nfor(let i=0;i<4;i++){{ {expectation} }}");
    std::fs::write("probe.mjs", script).unwrap();
    let output = Command::new("node").arg("probe.mjs").output().unwrap();
    assert!(output.status.success());
}

// a projection's budget code (abi-report A203, ui-schema U102: not the
// mutation family) and a tampered envelope failing `verify_envelope` judge
// that tool, not the program
const INTEROP: &str = "module demo.interop;\n@id(\"demo.pick\") fn pick(v: i32) -> i32 { v }\n";

#[test]
fn interop_projection_codes_are_no_checker_verdict() {
    let path = write_temp(INTEROP);
    let program = parse(INTEROP, Path::new("interop.spx")).unwrap();
    assert!(verify::verify(&program).is_empty());
    let errors = abi_report::generate(&path, &tiny).expect_err("tiny budgets fail closed");
    assert!(errors.iter().any(|item| item.code == "SPX-A203"));
    let envelope = abi_report::generate(&path, &options).expect("envelope");
    let tampered = envelope.replace("i32", "i33");
    assert!(abi_report::verify_envelope(&tampered).is_err());
    let errors = ui_schema::generate(&path, &tiny).expect_err("tiny budgets fail closed");
    assert!(errors.iter().any(|item| item.code == "SPX-U102"));
}

// a lane's refusal (W115) beside a weaker verdict of the checker's
// (`hir::resolve(…).unwrap_or_else(…)`): the program is accepted
#[test]
fn a_lane_refusal_leaves_the_checker_verdict() {
    let source = "module demo.lane;\n@id(\"x.f\") fn f(value: usize) -> usize { value }\n";
    let program = parse(source, Path::new("lane.spx")).unwrap_or_else(|e| panic!("{e:?}"));
    let program = hir::resolve(&program).unwrap_or_else(|e| panic!("{e:?}"));
    let error = wasm::emit_resolved_module_with_scalar_exports(&program, &ids).expect_err("closed");
    assert!(matches!(error.code, "SPX-W115" | "SPX-W116"), "{}", error.code);
}

// a probe the test writes itself into the directory one program's Wasm
// package was built into (a probe in another package's directory is that
// package's)
#[test]
fn a_probe_written_beside_a_package_is_a_run_detail() {
    let failing = "module demo.pkg_fail;\n@id(\"app.main\") fn main() -> i64 { 1 / 0 }\n";
    let passing = "module demo.pkg_ok;\n@id(\"app.main\") fn main() -> i64 { 3 }\n";
    let program = parse(failing, Path::new("f.spx")).unwrap();
    let fixture = Fixture::new(failing);
    let other = parse(passing, Path::new("p.spx")).unwrap();
    let web = fixture.root.join("web");
    wasm::build_web(&other, &web).unwrap();
    std::fs::write(web.join("probe.mjs"), "if(instance.exports.semaprax_main()!==3n) throw Error('x');").unwrap();
}

#[test]
fn wasm_probe_expectations_are_run_details() {
    probe("module demo.probe;\n@id(\"demo.main\") fn main() -> i64 { 6 + 1 }\n",
        "if(instance.exports.semaprax_main()!==7n)throw Error('value');");
    for (body, domain, code) in [("1 / 0", "semaprax.arithmetic.v1", 4)] {
        let source = format!("module demo.probe_fail;\n@id(\"demo.main\") fn main() -> i64 {{ {body} }}\n");
        probe(&source, &format!("let failed=false;try{{instance.exports.semaprax_main();}}catch(error){{const status=semanticStatus(error);if(status===null||status.domain_id!=={domain:?}||status.code!=={code})throw error;failed=true;}}if(!failed)throw Error('missing');"));
    }
}
'''

INCLUDED = 'module demo.inc;\n@id("app.main") fn main() -> i64 { true }\n'
EXAMPLE = 'module demo.example;\n@id("demo.main")\nfn main() -> i64 { 1 }\n'
SNAPSHOT = '{"schema":"semaprax.graph.v10","revision":"sha256:00","module":"demo.sugar",' \
    '"prelude":{"schema":"semaprax.prelude.v1","digest":"sha256:11"},"nodes":[]}\n'


TIDY_TEXT = "module demo.sugar;\n@id(\"app.main\")\nfn main() -> i64 {\n    7\n}\n"
BASE_TEXT = "\nmodule demo.base;\n@id(\"app.main\")\nfn main() -> i64 { 40 + 2 }\n"


def main():
    files = {"tests/selftest/inc.spx": INCLUDED, "tests/snapshots/tidy.graph.json": SNAPSHOT,
             "examples/demo.spx": EXAMPLE}
    details = {}
    got = {key: exp for key, _src, exp in extract("tests/synthetic.rs", SYNTHETIC, files, details)}
    want = {
        "tests/synthetic.rs::base_verifies#1": ("accept", ()),
        "tests/synthetic.rs::base_verifies#2": ("reject", ("SPX-T202",)),
        "tests/synthetic.rs::base_verifies#3": ("reject", ()),
        "tests/synthetic.rs::table_of_programs#1": ("reject", ("SPX-P101",)),
        "tests/synthetic.rs::table_of_programs#2": ("reject", ("SPX-T202",)),
        "tests/synthetic.rs::table_of_programs#3": ("accept", ()),
        "tests/synthetic.rs::table_of_programs#4": ("accept", ()),
        "tests/synthetic.rs::forged_trees_and_lanes_are_not_verdicts#1": ("backend", ("SPX-W111",)),
        "tests/synthetic.rs::forged_trees_and_lanes_are_not_verdicts#2": ("reject", ("SPX-T103",)),
        "tests/synthetic.rs::helpers_build_programs_from_fragments#2": ("reject", ("SPX-T205",)),
        "tests/synthetic.rs::helpers_build_programs_from_fragments#3": ("reject", ("SPX-T202",)),
        "tests/synthetic.rs::compiled_program_prints#1": ("output", ("42",)),
        # a lane's code (W) beside an accept and an output: the output
        "tests/synthetic.rs::a_lane_code_does_not_hide_an_output#1": ("output", ("25",)),
        "tests/synthetic.rs::cli_run_prints_and_closure_parameters_are_not_captures#1": ("reject", ("SPX-P101",)),
        "tests/synthetic.rs::cli_run_prints_and_closure_parameters_are_not_captures#2": ("reject", ("SPX-T210",)),
        "tests/synthetic.rs::cli_run_prints_and_closure_parameters_are_not_captures#3": ("output", ("7",)),
        "tests/synthetic.rs::cli_run_prints_and_closure_parameters_are_not_captures#4": ("reject", ("SPX-T208|SPX-T205",)),
        "tests/synthetic.rs::tree_fields_are_not_diagnostics#1": ("accept", ()),
        "tests/synthetic.rs::a_node_driver_prints_its_own_words#1": ("accept", ()),
        "tests/synthetic.rs::a_code_that_must_not_appear_is_no_verdict#1": ("reject", ("SPX-T202",)),
        "tests/synthetic.rs::a_proof_export_code_is_a_lane#1": ("backend", ("SPX-LI001",)),
        "tests/synthetic.rs::a_skipped_table_row_is_no_case#1": ("reject", ("SPX-P101",)),
        "tests/synthetic.rs::diagnostic_texts_are_details#1": ("reject", ("SPX-P101",)),
        "tests/synthetic.rs::diagnostic_texts_are_details#2": ("reject", ("SPX-T208",)),
        "tests/synthetic.rs::diagnostic_texts_are_details#3": ("reject", ("SPX-T203",)),
        "tests/synthetic.rs::diagnostic_texts_are_details#4": ("parse-err", ()),
        "tests/synthetic.rs::lists_and_filtered_firsts_are_details#1": ("reject", ("SPX-T202",)),
        "tests/synthetic.rs::interpreter_envelopes_are_run_details#1": ("detail", ()),
        "tests/synthetic.rs::interpreter_envelopes_are_run_details#2": ("detail", ()),
        "tests/synthetic.rs::interpreter_argument_tables_are_run_details#1": ("detail", ()),
        "tests/synthetic.rs::a_helper_building_its_program_inline_owns_it#1": ("reject", ("SPX-P101",)),
        # a lane refusing (`wasm::emit_module(…).is_err()`) is no check verdict
        "tests/synthetic.rs::a_helper_building_its_program_inline_owns_it#2": None,
    }
    # the stated texts, locations and runs (details.py); a limited run
    # (options changed) and `typed.help.is_none() || …` are not read
    want_details = {
        "tests/synthetic.rs::diagnostic_texts_are_details#1": [
            ("diag", "first", "SPX-P101", False, (("message", "eq", "expected an expression"),)),
            ("diag", "first", "SPX-P101", False, (("help", "contains", "operand"),)),
            ("diag", "first", "SPX-P101", False, (("loc", "eq", (2, 39)),)),
        ],
        "tests/synthetic.rs::diagnostic_texts_are_details#2": [
            ("diag", "any", "SPX-T208", False, (("message", "contains", "+"),)),
            ("diag", "any", "SPX-O101", True, (("message", "contains", "moved"),)),
            # `|item|` is the closure's parameter, not the binding `item`
            ("diag", "any", "SPX-T208", False, (("message", "contains", "operands"),)),
        ],
        "tests/synthetic.rs::diagnostic_texts_are_details#3": [
            ("diag", "first", "SPX-T203", False, (("help", "eq", "did you mean `main`?"),)),
            ("diag", "first", "SPX-T203", False, (("help", "contains", "main"),
                                                  ("help", "contains", "did"))),
            ("diag", "first", "SPX-T203", False, (("help", "contains", "mean"),)),
        ],
        "tests/synthetic.rs::lists_and_filtered_firsts_are_details#1": [
            ("list", ("tuple", None, ("code", "message")),
             (("SPX-T202", "unknown value `x`"), ("SPX-T202", "unknown value `y`"))),
            ("diag", "first", "SPX-T202", False, (("message", "eq", "unknown value `x`"),)),
            ("list", ("format", "{} {}", ("code", "message")),
             ("SPX-T202 unknown value `x`", "SPX-T202 unknown value `y`")),
        ],
        "tests/synthetic.rs::interpreter_envelopes_are_run_details#1": [
            ("run", "app.main", (("contains", '"kind":"returned"'), ("contains", '"value":"52"'))),
        ],
        "tests/synthetic.rs::interpreter_envelopes_are_run_details#2": [
            ("run", "app.main", (("json", ("payload", "outcome", "value"), "62"),)),
        ],
        # a table of entries and `--arg` literals under the default options
        # (`new(65536, DEFAULT_MAX_STEPS)`), a message after assert_eq's
        # operands; changed options (max_steps 16) are not read
        "tests/synthetic.rs::interpreter_argument_tables_are_run_details#1": [
            ("run", "demo.twice", (("json", ("payload", "outcome", "value"), "42"),), ("21",)),
            ("run", "demo.pick", (("json", ("payload", "outcome", "value"), "7i32"),),
             ("true", "7i32")),
            # the reference's one-line outcome (`ok|<value>` or `<domain>|<code>`)
            ("run", "demo.zero", (("text", "ok|0"),)),
            # `if result.returned { … }` over that interpretation's outcome
            ("run", "demo.twice", (("text", "ok|0"),)),
            # `interpret(…).or_else(|_| internal_strings::interpret(…))`
            ("run", "demo.zero", (("contains", '"value":"0"'),), (), "fallback"),
        ],
    }
    # a smaller step budget (`new(65_536, 16)`, `max_steps = 4`): the
    # outcome's kind, `fuel.exhausted` and `returned` only (steps_used is
    # not read); DEFAULT_MAX_STEPS through a helper's parameter or a path
    # is the default; a row's profile chosen by `if *id == …` reads the
    # chosen block: the plain interpreter's refusal, then the profile's run
    want["tests/synthetic.rs::budgets_and_row_profiles_are_run_details#1"] = ("detail", ())
    want_details["tests/synthetic.rs::budgets_and_row_profiles_are_run_details#1"] = [
        ("run", "demo.spin", (("json", ("payload", "outcome", "kind"), "fuel_exhausted"),),
         ("9",), None, 16),
        ("run", "demo.spin", (("returned", False),), ("9",), None, 16),
        ("run", "demo.spin", (("returned", True),), ("8",), None, 4),
        ("run", "demo.spin", (("json", ("payload", "outcome", "value"), "3"),), ("3",)),
        ("run", "demo.plain", (("contains", '"value":"2"'),)),
        ("run", "demo.text", (("refused-count", 1),)),
        ("run", "demo.text", (("refused-code", 0, "SPX-F102"),)),
        ("run", "demo.text", (("refused-message", 0, "contains", "unsupported_callee"),)),
        ("run", "demo.text", (("text", "ok|1"),), (), "strings"),
        ("run", "demo.plain", (("text", "ok|2"),)),
    ]
    # `format::canonical(&program)` against a text (our `fmt --stdout`
    # must print it), and of the canonical text parsed again against the
    # first (fmt is idempotent on it)
    tidy = "module demo.sugar;\n@id(\"app.main\")\nfn main() -> i64 {\n    7\n}\n"
    want["tests/synthetic.rs::formatter_texts_are_fmt_details#1"] = ("parse-ok", ())
    want["tests/synthetic.rs::formatter_texts_are_fmt_details#2"] = ("parse-ok", ())
    want_details["tests/synthetic.rs::formatter_texts_are_fmt_details#1"] = [
        ("fmt", 1, tidy), ("fmt-idem",)]
    want_details["tests/synthetic.rs::formatter_texts_are_fmt_details#2"] = [("fmt", 1, tidy)]
    # revisions and graphs: of the program and of its fmt output, of two
    # programs (equal, or differing under assert_ne!), a pinned revision,
    # a shared top-level field of a graph (not the schema, not a negated
    # contains), and a snapshot's shared fields
    base = "tests/synthetic.rs::base_verifies#1"
    rg = "tests/synthetic.rs::formatter_texts_are_fmt_details#1"
    want_details[rg] += [
        ("rev", 0, ("fmt", 1), True), ("graph", 0, ("fmt", 1), True),
        ("rev", 0, ("other", TIDY_TEXT), True),
        ("rev", 0, ("other", BASE_TEXT), False)]
    want_details["tests/synthetic.rs::formatter_texts_are_fmt_details#2"] += [
        ("rev", 0, ("text", "sha256:00"), True),
        ("graph", 0, ("field", ("entrypoint",), "app.main"), True),
        ("graph", 0, ("field", ("revision",), "sha256:00"), True),
        ("graph", 0, ("field", ("module",), "demo.sugar"), True),
        ("graph", 0, ("field", ("prelude", "schema"), "semaprax.prelude.v1"), True),
        ("graph", 0, ("field", ("prelude", "digest"), "sha256:11"), True)]
    assert base in want
    # `interpret(Path::new("examples/x.spx"), …)`: the example's program (a
    # path not among the files read is nothing)
    want_details["tests/synthetic.rs::an_example_path_given_to_the_interpreter_is_that_example#1"] = [
        ("run", "demo.main", (("contains", '"value":"1"'),))]
    want["tests/synthetic.rs::an_example_path_given_to_the_interpreter_is_that_example#1"] = (
        "detail", ())
    # CLI exit statuses (clirun.py): a fixture's files, a lane decided by
    # the loop, an undecided one (optional `--native`), `cfg!(windows)`'s
    # branch skipped, `if let Some((ok, …)) = helper(…)`, a helper's own
    # `assert!(…success())` (read for each program it is given: both
    # statuses stand for #2) and an `if` inside a call's argument list
    files_b = (("data.bin", "A\n"),)
    want_details["tests/synthetic.rs::cli_exit_statuses_are_exit_details#1"] = [
        ("exit", ("run", "source.spx", "--", "data.bin"), files_b, ("code", 3)),
        ("exit", ("run", "source.spx", "--native", "--", "data.bin"), files_b, ("code", 3)),
        ("exit", ("run", "source.spx", ("opt", "--native"), "-q"), files_b, ("code", 2))]
    want_details["tests/synthetic.rs::cli_exit_statuses_are_exit_details#2"] = [
        ("exit", ("run", SRC, "--native"), (), ("success", True)),
        ("exit", ("run", SRC, "--native"), (), ("success", False))]
    want["tests/synthetic.rs::cli_exit_statuses_are_exit_details#1"] = ("detail", ())
    want["tests/synthetic.rs::cli_exit_statuses_are_exit_details#2"] = ("detail", ())
    if exit_variants(("run", ("opt", "--native"), "-q")) != [["run", "-q"], ["run", "--native", "-q"]]:
        print("refmine selftest: exit_variants")
        got["#exit_variants"] = True
    # `graph::to_json(&tidy).unwrap()` verifies it: a weaker "accepted"
    want["tests/synthetic.rs::formatter_texts_are_fmt_details#2"] = ("accept", ())
    # a submodule (`#[path = "…"] mod …;` beginning `use super::*;`) sees
    # its parent's consts and helpers
    parent = ("tests/parent.rs", 'const CHILD_PROGRAM: &str = "module demo.child;\\n@id(\\"app.main\\") '
              'fn main() -> i64 { 5 }\\n";\nfn codes(s: &str) -> Vec<&str> { verify::verify(&parse(s, "p").unwrap()) }\n')
    child = 'use super::*;\n#[test]\nfn uses_the_parent() { assert!(codes(CHILD_PROGRAM).is_empty()); }\n'
    sub_got = {k: e for k, _s, e in extract("tests/parent/child.rs", child, files, {}, parent)}
    want_sub = {"tests/parent/child.rs::uses_the_parent#1": ("accept", ())}
    if sub_got != want_sub:
        print("refmine selftest: submodule: want %s, got %s" % (want_sub, sub_got))
        got["#submodule"] = sub_got
    want["tests/synthetic.rs::interpreter_refusals_of_arguments_are_run_details#1"] = ("detail", ())
    want_details["tests/synthetic.rs::interpreter_refusals_of_arguments_are_run_details#1"] = [
        ("run", "demo.echo", (("refused-any", "SPX-F103", None),), ("255",)),
        ("run", "demo.echo", (("refused-any", "SPX-F103", "expects 1"),)),
        ("run", "demo.echo", (("contains", '"value":"7"'),), ("7u8",)),
        ("run", "demo.echo", (("refused-any", "SPX-F102", "unsupported_parameter_type"),))]
    want["tests/synthetic.rs::interop_projection_codes_are_no_checker_verdict#1"] = ("accept", ())
    want["tests/synthetic.rs::a_lane_refusal_leaves_the_checker_verdict#1"] = ("accept", ())
    want["tests/synthetic.rs::a_probe_written_beside_a_package_is_a_run_detail#1"] = ("parse-ok", ())
    want["tests/synthetic.rs::a_probe_written_beside_a_package_is_a_run_detail#2"] = ("parse-ok", ())
    want_details["tests/synthetic.rs::a_probe_written_beside_a_package_is_a_run_detail#2"] = [
        ("run", "app.main", (("json", ("payload", "outcome", "value"), "3"),))]
    for n in (1, 2):
        want["tests/synthetic.rs::wasm_probe_expectations_are_run_details#%d" % n] = ("parse-ok", ())
    want_details["tests/synthetic.rs::wasm_probe_expectations_are_run_details#1"] = [
        ("run", "demo.main", (("json", ("payload", "outcome", "value"), "7"),))]
    want_details["tests/synthetic.rs::wasm_probe_expectations_are_run_details#2"] = [
        ("run", "demo.main", (("json", ("payload", "outcome", "kind"), "failed"),
                              ("json", ("payload", "outcome", "status", "domain_id"),
                               "semaprax.arithmetic.v1"),
                              ("json", ("payload", "outcome", "status", "code"), 4)))]
    bad = 0
    for key in sorted(set(want) | set(got)):
        if want.get(key) != got.get(key):
            print("refmine selftest: %s: want %s, got %s" % (key, want.get(key), got.get(key)))
            bad += 1
    for key in sorted(set(want_details) | set(details)):
        if want_details.get(key) != details.get(key):
            print("refmine selftest: %s details: want %s, got %s" % (
                key, want_details.get(key), details.get(key)))
            bad += 1
    total = len(want) + len(want_details)
    print("refmine selftest: %d passed, %d failed" % (total - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
