//! Hostile solutions under `test` and `stress`: each script in
//! `fixtures/hostile/` gets its verdict, within its time limit and the
//! documented grace, in bounded memory, and leaves no process behind.
//!
//! Every run carries a mark in its environment, which every process the
//! solution starts inherits; after the tool exits, no process with the mark
//! may be left.

mod common;

use common::{binary, children_peak_kib, tictactoe};
use std::fs;
use std::path::Path;
use std::process::Output;
use std::thread;
use std::time::{Duration, Instant};

/// The time limit the hostile runs get.
const LIMIT: f64 = 1.0;

/// How long a run may take past its limit: the runner's grace (1 s) and room
/// for a loaded machine.
const SLACK: Duration = Duration::from_secs(4);

/// Each hostile script, the options it runs with and the verdict `test` gives it.
const CASES: [(&str, &[&str], &str); 13] = [
    ("endless-stdout", &[], "OLE"),
    ("stderr-flood", &[], "TLE"),
    ("escaped-sleeper", &[], "AC"),
    ("escaped-sleeper-holding-stdout", &[], "AC"),
    ("double-fork", &[], "AC"),
    ("forks-children", &[], "TLE"),
    ("ignores-sigterm", &[], "TLE"),
    ("stops-itself", &[], "TLE"),
    ("stops-its-parent", &[], "TLE"),
    ("kills-its-parent", &[], "RE"),
    ("closes-stdout-early", &[], "TLE"),
    ("binary-garbage", &[], "PE"),
    ("swallows-memory", &["--memory-limit", "256"], "MLE"),
];

/// A folder with one small test and its answer.
fn one_test() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = tictactoe()
        .args(["gen", "--seed", "5", "--cases", "3", "--max-n", "5"])
        .output()
        .expect("gen runs");
    fs::write(dir.path().join("01.in"), &input.stdout).expect("input");
    let answer = tictactoe()
        .arg(dir.path().join("01.in"))
        .output()
        .expect("solve runs");
    fs::write(dir.path().join("01.ans"), answer.stdout).expect("answer");
    dir
}

/// The processes whose environment holds `mark`.
fn marked_processes(mark: &str) -> Vec<String> {
    let needle = format!("TICTACTOE_HOSTILE_MARK={mark}\0");
    let mut found = Vec::new();
    for process in fs::read_dir("/proc").expect("/proc").flatten() {
        let name = process.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(environ) = fs::read(process.path().join("environ")) else {
            continue;
        };
        if String::from_utf8_lossy(&environ).contains(&needle) {
            let command = fs::read(process.path().join("cmdline")).unwrap_or_default();
            found.push(format!(
                "{name}: {}",
                String::from_utf8_lossy(&command).replace('\0', " ")
            ));
        }
    }
    found
}

/// Runs the tool with `args` as the hostile run `mark`, under a 1 GiB
/// address-space cap; what it printed and how long it took.
fn run_marked(mark: &str, args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let output = std::process::Command::new("prlimit")
        .arg(format!("--as={}", 1u64 << 30))
        .arg(binary())
        .args(args)
        .env("TICTACTOE", binary())
        .env("TICTACTOE_HOSTILE_MARK", mark)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("prlimit runs");
    (output, started.elapsed())
}

/// What went wrong with one hostile script under `test`, if anything.
fn judge_under_test(name: &str, options: &[&str], expected: &str, dir: &Path) -> Option<String> {
    let script = format!("fixtures/hostile/{name}.sh");
    let folder = dir.to_string_lossy().into_owned();
    let limit = LIMIT.to_string();
    let mut args = vec!["test", &folder, "-c", &script, "--time-limit", &limit];
    args.extend_from_slice(options);
    let mark = format!("{name}-{}", std::process::id());
    let (output, took) = run_marked(&mark, &args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let verdict = stdout
        .lines()
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .unwrap_or("none");
    let mut wrong = Vec::new();
    if verdict != expected {
        wrong.push(format!("verdict {verdict}, expected {expected}"));
    }
    let status = if expected == "AC" { 0 } else { 1 };
    if output.status.code() != Some(status) {
        wrong.push(format!("exit status {:?}", output.status.code()));
    }
    if took > Duration::from_secs_f64(LIMIT) + SLACK {
        wrong.push(format!("took {took:?}"));
    }
    if stdout.contains('\u{1b}') || stdout.contains('\0') {
        wrong.push("raw control bytes in the report".to_owned());
    }
    let left = marked_processes(&mark);
    if !left.is_empty() {
        wrong.push(format!("left behind: {}", left.join("; ")));
    }
    (!wrong.is_empty()).then(|| {
        format!(
            "{name}: {}\n{stdout}{}",
            wrong.join(", "),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// What went wrong with one hostile script under `stress`, if anything:
/// a run that is not accepted is a failing input (exit 1), an accepted one
/// is none (exit 0).
fn judge_under_stress(name: &str, accepted: bool) -> Option<String> {
    let save = tempfile::tempdir().expect("temp dir");
    let script = format!("fixtures/hostile/{name}.sh");
    let save_dir = save.path().to_string_lossy().into_owned();
    let limit = LIMIT.to_string();
    let args = [
        "stress",
        "-c",
        &script,
        "--iterations",
        "2",
        "--seed",
        "3",
        "--time-limit",
        &limit,
        "--save-dir",
        &save_dir,
    ];
    let mark = format!("stress-{name}-{}", std::process::id());
    let (output, took) = run_marked(&mark, &args);
    let mut wrong = Vec::new();
    let status = if accepted { 0 } else { 1 };
    if output.status.code() != Some(status) {
        wrong.push(format!("exit status {:?}", output.status.code()));
    }
    // Shrinking reruns a failing solution: a few runs, each within its limit.
    if took > 8 * (Duration::from_secs_f64(LIMIT) + SLACK) {
        wrong.push(format!("took {took:?}"));
    }
    let left = marked_processes(&mark);
    if !left.is_empty() {
        wrong.push(format!("left behind: {}", left.join("; ")));
    }
    (!wrong.is_empty()).then(|| {
        format!(
            "stress {name}: {}\n{}{}",
            wrong.join(", "),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn hostile_solutions_get_their_verdicts_in_time_in_bounded_memory_and_leave_nothing() {
    let dir = one_test();
    let mut problems: Vec<String> = thread::scope(|scope| {
        let runs: Vec<_> = CASES
            .iter()
            .map(|&(name, options, expected)| {
                let dir = dir.path();
                scope.spawn(move || judge_under_test(name, options, expected, dir))
            })
            .collect();
        runs.into_iter()
            .filter_map(|run| run.join().expect("no panic"))
            .collect()
    });
    for (name, accepted) in [
        ("escaped-sleeper-holding-stdout", true),
        ("double-fork", true),
        ("kills-its-parent", false),
        ("stops-its-parent", false),
        ("endless-stdout", false),
    ] {
        problems.extend(judge_under_stress(name, accepted));
    }
    // The largest process this test waited for, the tool included; the
    // solutions' own memory is small but for swallows-memory's, refused.
    let peak = children_peak_kib();
    if peak > 64 * 1024 {
        problems.push(format!("a process peaked at {peak} KiB"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
