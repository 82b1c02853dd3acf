//! `test`: runs a solution over a folder of tests and gives a verdict per test, like `oj test`.

use super::{AfterWinArgs, CommandLine, LimitArgs, parse_command_line};
use crate::error::{Error, InputName};
use crate::format::answers::{Comparison, Mode, compare};
use crate::game::Rules;
use crate::judging::process;
use crate::judging::{Verdict, VerdictKind};
use crate::pipeline::run_stream_as;
use clap::Args;
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufReader, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

pub(super) const TEST_HELP: &str = "\
Tests are found in DIR and its subfolders (data/sample, data/secret/group1):
NAME.in pairs with NAME.ans or NAME.out, and testlib/Polygon's numbered files
(01) with 01.a; a test with no answer is judged against the built-in solver.

Each run is supervised: at the time limit the solution's whole process tree is
killed (setsid and double forks included), a solution that stops or kills its
supervisor is ended at most 1 s later, and nothing it started outlives the run.
Its standard output may be twice the answer and 1 MiB; its standard error is
kept to 64 KiB. What a verdict quotes of the solution is escaped: a token of
its output up to 32 bytes, its standard error's lines up to 200 characters
each: up to 4 lines, or the first 2, how many were left out and the last.

One line per test, in natural name order: NAME, the verdict, wall time, CPU
time and peak memory (of the tree's largest process), and why. Verdicts: AC,
WA (case, move, expected, found), PE (not in the required form), RE (exit
status and the first lines of stderr), TLE, MLE (failed for want of memory
under --memory-limit), OLE (too much output), FAIL (the judge's fault, not the
solution's: the test's input or answer cannot be read, it has no answer file
and the built-in solver rejects its input, or the solution cannot be run for
want of a temporary file or a process; a process limit held by another
job's solution is waited out first). A WA or PE against an answer file that
is not the built-in solver's answer to the input gets a `note:` line.
The last line is `N passed, M failed`, with `(K FAIL: the judge's own
failure)` after it when some tests could not be judged.

Examples (sol.py stands for your solution):
  tictactoe gen --count 5 --out-dir data && tictactoe test data    # 5 passed
  tictactoe test data -c 'python3 sol.py' --time-limit 3 --memory-limit 256

Exit status: 0 all passed, 1 some failed, 3 some could not be judged (FAIL:
an unreadable test, no process to be had), 2 usage error (no tests, a command
that cannot start), 66 the folder cannot be read, 74 the verdicts cannot be
written.";

#[derive(Debug, Args)]
pub(super) struct TestArgs {
    /// The folder of tests: NAME.in with NAME.ans or NAME.out, or 01 with
    /// 01.a, in it or in its subfolders.
    dir: PathBuf,
    /// The solution's command line, split into words like a shell would
    /// [default: the built-in solver].
    #[arg(short = 'c', long = "command", value_name = "CMD", value_parser = parse_command_line)]
    command: Option<CommandLine>,
    #[command(flatten)]
    limits: LimitArgs,
    /// How many tests run at once; lines still come out in name order.
    #[arg(short = 'j', long, value_name = "J", default_value_t = 1)]
    jobs: usize,
    #[command(flatten)]
    after_win: AfterWinArgs,
    /// Print one JSON document for the run instead of lines (docs/JSON.md).
    #[arg(long)]
    json: bool,
}

/// Settings for `test`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestConfig {
    /// The folder of `NAME.in` files with `NAME.ans` or `NAME.out`.
    pub dir: PathBuf,
    /// The solution; `None` is the built-in solver.
    pub command: Option<Vec<String>>,
    /// The limits each test runs under.
    pub limits: process::Limits,
    /// How many tests run at once.
    pub jobs: usize,
    /// The rules for tests without an answer file (and for the built-in solver).
    pub rules: Rules,
    /// One JSON document rather than lines.
    pub json: bool,
}

/// One test of the folder: `NAME.in` and its answer file, if it has one.
#[derive(Debug)]
struct Test {
    name: String,
    input: PathBuf,
    answer: Option<PathBuf>,
    /// Why it cannot be judged, known when it was found: a subfolder that
    /// cannot be read stands for the tests it may hold.
    unreadable: Option<String>,
}

/// Runs every test, writes a line per test in name order and the summary
/// `N passed, M failed`. The status is 0 when every test passed, 3 when a
/// test could not be judged, 1 otherwise.
pub fn run(config: &TestConfig, output: impl Write) -> Result<u8, Error> {
    // A reader that leaves early must not turn "failed" into success.
    let output = crate::files::Unheard::new(output);
    let tests = discover(&config.dir)?;
    if tests.is_empty() {
        return Err(Error::Usage(format!(
            "no tests (NAME.in, or numbered files as Polygon's) in {} or its subfolders",
            config.dir.display()
        )));
    }
    let command = match &config.command {
        Some(command) => command.clone(),
        None => process::builtin_solver(after_win_name(config))
            .map_err(|e| Error::Usage(format!("cannot find the built-in solver: {e}")))?,
    };
    let mut out = std::io::BufWriter::new(output);
    let bar = process::progress_bar(Some(tests.len() as u64), "tests");
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let jobs = config.jobs.clamp(1, tests.len());
    let (mut passed, mut failed, mut judges) = (0usize, 0usize, 0usize);
    let mut records = Vec::new();
    let work = |sender: mpsc::Sender<_>| loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        let Some(test) = tests.get(index) else { break };
        let result = judge_test(test, &command, config);
        if sender.send((index, result)).is_err() {
            break;
        }
    };
    let written = thread::scope(|scope| -> Result<(), Error> {
        let mut started = 0;
        for _ in 0..jobs {
            let sender = sender.clone();
            let work = &work;
            let spawned = thread::Builder::new().spawn_scoped(scope, move || work(sender));
            started += usize::from(spawned.is_ok());
        }
        if started == 0 {
            // No thread to be had (a process limit): the tests run here,
            // one after another, before their lines are written.
            work(sender.clone());
        }
        drop(sender);
        // Results come in any order; lines go out in name order as soon as they can.
        let mut pending = BTreeMap::new();
        let mut printed = 0;
        for (index, result) in receiver {
            bar.inc(1);
            pending.insert(index, result);
            while let Some(judged) = pending.remove(&printed) {
                let process::Judged { verdict, usage } = judged;
                if verdict.is_accepted() {
                    passed += 1;
                } else {
                    failed += 1;
                }
                judges += usize::from(verdict.kind == VerdictKind::JudgeFailure);
                if config.json {
                    records.push(test_json(&tests[printed], &verdict, &usage));
                    printed += 1;
                    continue;
                }
                let line = format!(
                    "{} {} {}{}",
                    tests[printed].name,
                    verdict.kind.code(),
                    usage.describe(),
                    verdict.explanation()
                );
                bar.suspend(|| writeln!(out, "{line}").and_then(|()| out.flush()))
                    .map_err(Error::Write)?;
                printed += 1;
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    written?;
    if config.json {
        let document = serde_json::json!({
            "schema": 1,
            "command": "test",
            "folder": config.dir.to_string_lossy(),
            "solution": config.command,
            "limits": config.limits.to_json(),
            "passed": passed,
            "failed": failed,
            "judge_failures": judges,
            "tests": records,
        });
        serde_json::to_writer_pretty(&mut out, &document).map_err(|e| Error::Write(e.into()))?;
        writeln!(out).map_err(Error::Write)?;
    } else {
        write!(out, "{passed} passed, {failed} failed").map_err(Error::Write)?;
        if judges > 0 {
            write!(out, " ({judges} FAIL: the judge's own failure)").map_err(Error::Write)?;
        }
        writeln!(out).map_err(Error::Write)?;
    }
    out.flush().map_err(Error::Write)?;
    // A failure of the judge's own says nothing of the solution: a status
    // of its own (testlib's FAIL), so that a script does not blame it.
    Ok(match (judges, failed) {
        (1.., _) => JUDGE_FAILURE,
        (_, 1..) => 1,
        _ => 0,
    })
}

/// The status when a test could not be judged (FAIL), as testlib's.
const JUDGE_FAILURE: u8 = 3;

/// One test's entry in the JSON document: its name and files, the
/// verdict's fields and what the run cost.
fn test_json(test: &Test, verdict: &Verdict, usage: &process::Usage) -> serde_json::Value {
    let mut record = serde_json::json!({
        "name": test.name,
        "input": test.input.to_string_lossy(),
        "answer": test.answer.as_ref().map(|path| path.to_string_lossy()),
        "usage": usage.to_json(),
    });
    if let (Some(record), serde_json::Value::Object(fields)) =
        (record.as_object_mut(), verdict.to_json())
    {
        record.extend(fields);
    }
    record
}

fn after_win_name(config: &TestConfig) -> &'static str {
    match config.rules.after_win {
        crate::game::AfterWin::Error => "error",
        crate::game::AfterWin::Continue => "continue",
        crate::game::AfterWin::Leetcode => "leetcode",
    }
}

/// The tests under `dir`, its subfolders included (`data/secret/group1/`),
/// in natural name order (`2` before `10`): each `NAME.in` with `NAME.ans`
/// or `NAME.out`, and testlib/Polygon's numbered files (`01`) with `01.a`.
/// A test is named by its path below `dir`, without the extension (with
/// it, where two would share a name). A subfolder that cannot be read is
/// an entry of its own, that fails: the tests in it are not left out
/// without a word, and the others still run.
fn discover(dir: &Path) -> Result<Vec<Test>, Error> {
    let mut tests = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        // A link back up the tree is followed once only.
        if let Ok(real) = fs::canonicalize(&folder)
            && !seen.insert(real)
        {
            continue;
        }
        let entries = match fs::read_dir(&folder).and_then(Iterator::collect::<Result<Vec<_>, _>>) {
            Ok(entries) => entries,
            Err(source) if folder == dir => {
                return Err(Error::Open {
                    path: folder.clone(),
                    source,
                });
            }
            Err(source) => {
                let below = folder.strip_prefix(dir).unwrap_or(&folder);
                tests.push(Test {
                    name: shown_name(below) + "/",
                    unreadable: Some(format!("cannot read the folder {}: {source}", folder.display())),
                    input: folder,
                    answer: None,
                });
                continue;
            }
        };
        for entry in entries {
            let path = entry.path();
            let file_name = entry.file_name().to_string_lossy().into_owned();
            if file_name.starts_with('.') {
                continue;
            }
            // The entry's own type first: a path too long to look up is
            // still a folder, which then fails to be read.
            let is_folder = match entry.file_type() {
                Ok(kind) if kind.is_symlink() => path.is_dir(),
                Ok(kind) => kind.is_dir(),
                Err(_) => path.is_dir(),
            };
            if is_folder {
                folders.push(path);
                continue;
            }
            let answers: &[&str] = match path.extension() {
                Some(ext) if ext == "in" => &["ans", "out"],
                None if file_name.bytes().all(|b| b.is_ascii_digit()) => &["a"],
                _ => continue,
            };
            // Whatever stands under an answer's name is the answer: one
            // that is no file fails the test, rather than give way to the
            // built-in solver's.
            let answer = answers
                .iter()
                .map(|ext| path.with_extension(ext))
                .find(|candidate| fs::symlink_metadata(candidate).is_ok());
            let below = path.strip_prefix(dir).unwrap_or(&path).with_extension("");
            tests.push(Test {
                name: shown_name(&below),
                input: path,
                answer,
                unreadable: None,
            });
        }
    }
    // `01` (Polygon) beside `01.in`: each is named by its whole file name;
    // again, until no two share one (`01.in.in` beside those).
    loop {
        let mut seen = std::collections::HashMap::new();
        for test in &tests {
            *seen.entry(test.name.clone()).or_insert(0) += 1;
        }
        let mut renamed = false;
        for test in &mut tests {
            if seen.get(&test.name).is_some_and(|&count| count > 1) {
                let below = test.input.strip_prefix(dir).unwrap_or(&test.input);
                let whole = shown_name(below);
                renamed |= whole != test.name;
                test.name = whole;
            }
        }
        if !renamed {
            break;
        }
    }
    tests.sort_by(|a, b| natural_order(&a.name, &b.name));
    Ok(tests)
}

/// A test's input or answer, opened if it is a regular file. Anything else
/// (a folder, a FIFO no one writes, a device such as `/dev/zero`) cannot
/// be judged with; it is decided on the open file, so that a solution that
/// swaps one in for a later test cannot make the runner wait forever.
fn open_test_file(path: &Path) -> Result<File, String> {
    match crate::files::open_regular_file(path) {
        Ok(Some(file)) => Ok(file),
        Ok(None) => Err(format!("{} is not a regular file", path.display())),
        Err(error) => Err(format!("cannot open {}: {error}", path.display())),
    }
}

/// A test's name as lines show it: control characters escaped, so that a
/// file's name cannot drive the terminal, and backslashes and bytes that
/// are not UTF-8 too (`\x{ff}`), so that no two names look alike (`a\\nb`
/// is a backslash, `a\nb` a line feed).
fn shown_name(path: &Path) -> String {
    let mut shown = String::new();
    for chunk in path.as_os_str().as_encoded_bytes().utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() || c == '\\' {
                shown.extend(c.escape_debug());
            } else {
                shown.push(c);
            }
        }
        for byte in chunk.invalid() {
            shown.push_str(&format!("\\x{{{byte:02x}}}"));
        }
    }
    shown
}

/// Names compared with their runs of digits as numbers: `2` before `10`,
/// `group2/1` before `group10/1`.
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn pieces(name: &str) -> Vec<(bool, &str)> {
        name.as_bytes()
            .chunk_by(|x, y| x.is_ascii_digit() == y.is_ascii_digit())
            .map(|run| {
                // Runs split at ASCII digits, so each is whole UTF-8.
                let text = std::str::from_utf8(run).unwrap_or_default();
                (run[0].is_ascii_digit(), text)
            })
            .collect()
    }
    let key = |(digits, text): (bool, &str)| {
        let trimmed = text.trim_start_matches('0');
        if digits {
            (trimmed.len(), trimmed.to_owned())
        } else {
            (0, text.to_owned())
        }
    };
    let (a, b) = (pieces(a), pieces(b));
    for (x, y) in a.iter().zip(&b) {
        let order = match (x.0, y.0) {
            (true, true) => key(*x).cmp(&key(*y)).then(x.1.len().cmp(&y.1.len())),
            _ => x.1.cmp(y.1),
        };
        if order.is_ne() {
            return order;
        }
    }
    a.len().cmp(&b.len())
}

fn judge_test(test: &Test, command: &[String], config: &TestConfig) -> process::Judged {
    let (input, expected) = match files_of(test, config) {
        Ok(files) => files,
        Err(why) => {
            return process::Judged {
                verdict: Verdict::new(VerdictKind::JudgeFailure, why),
                usage: process::Usage::default(),
            };
        }
    };
    let mut judged = process::judge(command, &input, &expected, config.limits);
    let about_results = matches!(
        judged.verdict.kind,
        VerdictKind::WrongAnswer | VerdictKind::PresentationError
    );
    if let (true, Some(answer)) = (about_results, &test.answer) {
        // The answer file is the truth (an official answer, another
        // policy's), but a failure against one the solver disagrees with
        // says so: it may be the answer that is wrong.
        let doubt = match solved_answer(&input, test, config) {
            Err(why) => Some(why.to_string()),
            Ok(solved) => match compare(&solved[..], &expected[..], Mode::Lines) {
                Ok(Comparison::Differs(difference)) => Some(format!(
                    "{} is not the built-in solver's answer to the input: {difference}",
                    answer.display()
                )),
                _ => None,
            },
        };
        if let Some(doubt) = doubt {
            let details = &mut judged.verdict.details;
            if !details.is_empty() && !details.ends_with('\n') {
                details.push('\n');
            }
            details.push_str(&format!(
                "note: {doubt} (under --after-win {})",
                after_win_name(config)
            ));
        }
    }
    judged
}

/// The test's input, opened, and the expected answer's bytes: the answer
/// file's, or the built-in solver's answer when there is none.
fn files_of(test: &Test, config: &TestConfig) -> Result<(File, Vec<u8>), String> {
    if let Some(why) = &test.unreadable {
        return Err(why.clone());
    }
    let input = open_test_file(&test.input)?;
    let expected = match &test.answer {
        Some(answer) => {
            let mut bytes = Vec::new();
            open_test_file(answer)?
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read {}: {e}", answer.display()))?;
            bytes
        }
        None => solved_answer(&input, test, config).map_err(|why| match why {
            Unsolved::Unreadable(_) => why.to_string(),
            Unsolved::Rejected(_) => format!("no answer file, and {why}"),
        })?,
    };
    Ok((input, expected))
}

/// Why the built-in solver has no answer to a test's input.
enum Unsolved {
    /// The input cannot be opened: the test set is broken, whatever it holds.
    Unreadable(String),
    /// The solver refuses the input; the message says where and why.
    Rejected(String),
}

impl std::fmt::Display for Unsolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsolved::Unreadable(why) => f.write_str(why),
            Unsolved::Rejected(why) => write!(f, "the built-in solver rejects the input: {why}"),
        }
    }
}

/// The built-in solver's answer to the test's input, under the policy.
fn solved_answer(input: &File, test: &Test, config: &TestConfig) -> Result<Vec<u8>, Unsolved> {
    let unreadable =
        |e: io::Error| Unsolved::Unreadable(format!("cannot read {}: {e}", test.input.display()));
    let mut input = input.try_clone().map_err(unreadable)?;
    input.rewind().map_err(unreadable)?;
    let mut answer = Vec::new();
    run_stream_as(
        BufReader::new(input),
        InputName::Path(test.input.clone()),
        None,
        config.rules,
        &mut answer,
    )
    .map_err(|e| Unsolved::Rejected(e.to_string()))?;
    Ok(answer)
}

impl TestArgs {
    pub(super) fn into_config(self) -> TestConfig {
        TestConfig {
            dir: self.dir,
            command: self.command.map(|line| line.0),
            limits: self.limits.into_limits(),
            jobs: self.jobs,
            rules: self.after_win.into_rules(),
            json: self.json,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::natural_order;

    #[test]
    fn numbers_in_names_sort_as_numbers() {
        let mut names = ["10", "2", "01", "1", "b2", "b10", "a", "g10/1", "g2/3"];
        names.sort_by(|a, b| natural_order(a, b));
        assert_eq!(names, ["1", "01", "2", "10", "a", "b2", "b10", "g2/3", "g10/1"]);
    }
}
