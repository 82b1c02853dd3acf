//! `--json`: one JSON document per run from `test`, `stress`, `check` and
//! `validate`, with the fields docs/JSON.md promises, and the same exit
//! statuses as without it.

mod common;

use common::tictactoe;
use serde_json::Value;
use std::fs;

/// Runs the tool and parses its standard output as one JSON document.
fn document(args: &[&str]) -> (Value, Option<i32>) {
    let output = tictactoe().args(args).output().expect("runs");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (value, output.status.code())
}

// `test` and `stress` supervise solutions on Unix only.
#[cfg(unix)]
#[test]
fn test_gives_each_tests_verdict_place_and_cost() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = "1\n3\n5\n0 0 1\n1 1 2\n0 1 1\n2 2 2\n0 2 1\n";
    fs::write(dir.path().join("01.in"), input).expect("input");
    fs::write(dir.path().join("01.ans"), "0 0 0 0 1\n").expect("answer");
    fs::write(dir.path().join("02.in"), input).expect("input");
    fs::write(dir.path().join("02.ans"), "0 0 0 0 2\n").expect("a wrong answer");
    let folder = dir.path().to_string_lossy().into_owned();
    let (json, status) = document(&["test", &folder, "--json", "--time-limit", "20"]);
    assert_eq!(status, Some(1));
    assert_eq!(json["schema"], 1);
    assert_eq!(json["command"], "test");
    assert_eq!(
        (json["passed"].clone(), json["failed"].clone()),
        (1.into(), 1.into())
    );
    let tests = json["tests"].as_array().expect("tests");
    assert_eq!(tests[0]["name"], "01");
    assert_eq!(tests[0]["verdict"], "AC");
    assert!(tests[0]["usage"]["wall_seconds"].is_f64());
    assert!(tests[0]["usage"]["peak_memory_kib"].as_u64() > Some(0));
    // The answer file is the truth, whoever is wrong; but where the
    // built-in solver disagrees with it, the details say so.
    assert_eq!(tests[1]["verdict"], "WA", "{json}");
    let note = tests[1]["details"][0].as_str().unwrap_or_default();
    assert!(
        note.starts_with("note: ") && note.contains("02.ans is not the built-in solver's answer"),
        "{json}"
    );
    assert_eq!(
        (tests[1]["case"].clone(), tests[1]["move"].clone()),
        (1.into(), 5.into())
    );
}

#[cfg(unix)]
#[test]
fn stress_gives_the_search_and_the_shrunk_failure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let save = dir.path().to_string_lossy().into_owned();
    let (json, status) = document(&[
        "stress",
        "--json",
        "--seed",
        "1",
        "-c",
        "python3 fixtures/solutions/forgets-anti-diagonal.py",
        "--save-dir",
        &save,
        "--time-limit",
        "20",
    ]);
    assert_eq!(status, Some(1));
    assert_eq!(json["command"], "stress");
    assert_eq!(json["seed"], 1);
    let found = &json["found"];
    assert_eq!(found["verdict"]["verdict"], "WA");
    assert_eq!(found["cases"], 1);
    assert!(found["moves"].as_u64() <= Some(8));
    assert!(json["runs"].as_u64() > json["inputs_tried"].as_u64().map(|n| n - 1));
    let saved = found["input_file"].as_str().expect("a path");
    assert!(fs::metadata(saved).is_ok(), "{saved}");
}

#[test]
fn check_and_validate_give_the_verdict_and_the_violations() {
    let dir = tempfile::tempdir().expect("temp dir");
    let expected = dir.path().join("expected");
    let output = dir.path().join("output");
    fs::write(&expected, "0 0 0 0 1\n").expect("expected");
    fs::write(&output, "0 0 0 0 2\n").expect("output");
    let (json, status) = document(&[
        "check",
        "--json",
        &expected.to_string_lossy(),
        &output.to_string_lossy(),
    ]);
    assert_eq!(status, Some(1));
    assert_eq!(json["verdict"], "WA");
    assert_eq!(
        (json["case"].clone(), json["move"].clone()),
        (1.into(), 5.into())
    );
    assert_eq!(json["status"], 1);

    let input = dir.path().join("bad.in");
    fs::write(&input, "1\n3\n5\n0 0 1\n0 0 2\n0 1 1\n2 2 2\n0 2 1\n").expect("input");
    let (json, status) = document(&["validate", "--json", &input.to_string_lossy()]);
    assert_eq!(status, Some(1));
    assert_eq!(json["valid"], false);
    let violation = &json["violations"][0];
    assert_eq!(
        (violation["line"].clone(), violation["column"].clone()),
        (5.into(), 1.into())
    );
    assert_eq!(
        (violation["case"].clone(), violation["move"].clone()),
        (1.into(), 2.into())
    );
    assert_eq!(json["summary"], Value::Null);
    let good = dir.path().join("good.in");
    fs::write(&good, "1\n3\n5\n0 0 1\n1 1 2\n0 1 1\n2 2 2\n0 2 1\n").expect("input");
    let good = good.to_string_lossy();
    let (json, status) = document(&["validate", "--json", "--protocol", "kattis", &good]);
    assert_eq!(status, Some(42), "{json}");
    assert_eq!(json["valid"], true);
    assert!(json["summary"]["cases"].as_u64() > Some(0));
    assert_eq!(json["summary"]["min_q"], 5);
    let empty = dir.path().join("empty.in");
    fs::write(&empty, "0\n").expect("input");
    let empty = empty.to_string_lossy();
    let (json, status) = document(&["validate", "--json", "--min-t", "0", &empty]);
    assert_eq!(status, Some(0), "{json}");
    assert_eq!(json["summary"]["cases"], 0);
    for bound in ["min_n", "max_n", "min_q", "max_q"] {
        assert_eq!(json["summary"][bound], Value::Null, "{bound} of no case");
    }
}
