//! `test`: runs a solution over a folder of tests and gives a verdict per test, like `oj test`.

use super::{AfterWinArgs, CommandLine, LimitArgs, parse_command_line};
use crate::error::{Error, InputName};
use crate::game::Rules;
use crate::judging::process;
use crate::judging::{Verdict, VerdictKind};
use crate::pipeline::run_stream_as;
use clap::Args;
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

pub(super) const TEST_HELP: &str = "\
NAME.in pairs with NAME.ans or NAME.out; a test with neither is judged against
the built-in solver. Verdicts: AC, WA (case, move, expected, found), RE (exit
status and the first lines of stderr), TLE (killed at the limit), FAIL (the
test itself has no answer). The last line is `N passed, M failed`.

Example:
  tictactoe test tests/ -c 'python3 sol.py' --time-limit 1 --jobs 2

Exit status: 0 all passed, 1 some failed, 2 usage error, 66 the folder cannot
be read.";

#[derive(Debug, Args)]
pub(super) struct TestArgs {
    /// The folder of tests: NAME.in with NAME.ans or NAME.out.
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
}

/// One test of the folder: `NAME.in` and its answer file, if it has one.
#[derive(Debug)]
struct Test {
    name: String,
    input: PathBuf,
    answer: Option<PathBuf>,
}

/// Runs every test, writes a line per test in name order and the summary
/// `N passed, M failed`. The status is 0 when every test passed, 1 otherwise.
pub fn run(config: &TestConfig, output: impl Write) -> Result<u8, Error> {
    // A reader that leaves early must not turn "failed" into success.
    let output = crate::files::Unheard::new(output);
    let tests = discover(&config.dir)?;
    if tests.is_empty() {
        return Err(Error::Usage(format!(
            "no NAME.in tests in {}",
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
    let (mut passed, mut failed) = (0usize, 0usize);
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
    writeln!(out, "{passed} passed, {failed} failed").map_err(Error::Write)?;
    out.flush().map_err(Error::Write)?;
    Ok(u8::from(failed > 0))
}

fn after_win_name(config: &TestConfig) -> &'static str {
    match config.rules.after_win {
        crate::game::AfterWin::Error => "error",
        crate::game::AfterWin::Continue => "continue",
        crate::game::AfterWin::Leetcode => "leetcode",
    }
}

/// The folder's `NAME.in` files in name order, each paired with `NAME.ans` or `NAME.out`.
fn discover(dir: &Path) -> Result<Vec<Test>, Error> {
    let entries = fs::read_dir(dir).map_err(|source| Error::Open {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut tests = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|source| Error::Read {
                input: InputName::Path(dir.to_path_buf()),
                source,
            })?
            .path();
        if path.extension().is_none_or(|ext| ext != "in") || !path.is_file() {
            continue;
        }
        let name = path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        let answer = ["ans", "out"]
            .into_iter()
            .map(|ext| path.with_extension(ext))
            .find(|candidate| candidate.is_file());
        tests.push(Test {
            name,
            input: path,
            answer,
        });
    }
    tests.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tests)
}

fn judge_test(test: &Test, command: &[String], config: &TestConfig) -> process::Judged {
    let expected = match expected_answer(test, config) {
        Ok(expected) => expected,
        Err(why) => {
            return process::Judged {
                verdict: Verdict::new(VerdictKind::JudgeFailure, why),
                usage: process::Usage::default(),
            };
        }
    };
    process::judge(command, &test.input, &expected, config.limits)
}

/// The answer file's bytes, or the built-in solver's answer when there is none.
fn expected_answer(test: &Test, config: &TestConfig) -> Result<Vec<u8>, String> {
    if let Some(answer) = &test.answer {
        return fs::read(answer).map_err(|e| format!("cannot read {}: {e}", answer.display()));
    }
    let input = File::open(&test.input)
        .map_err(|e| format!("cannot open {}: {e}", test.input.display()))?;
    let mut answer = Vec::new();
    run_stream_as(
        BufReader::new(input),
        InputName::Path(test.input.clone()),
        None,
        config.rules,
        &mut answer,
    )
    .map_err(|e| format!("no answer file, and the built-in solver rejects the input: {e}"))?;
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
        }
    }
}
