//! `stress`: hunts for an input where a solution and the reference disagree, then shrinks it.
//!
//! Inputs come from the generator, iteration K (from 0) from ChaCha8 stream
//! K of the seed, so a run can be repeated exactly. Like QuickCheck, the search starts
//! with one case on the smallest board and grows towards the options' full
//! range. A failure is then cut down greedily: fewest cases, then fewest
//! moves, then smallest N. Every candidate must be accepted by the reference
//! under the chosen policy, must keep players alternating if the failing
//! input did (a solution may rightly rely on it), and must fail the same way
//! (WA stays WA, RE stays RE, TLE stays TLE).

use super::SpecArgs;
use super::{AfterWinArgs, CommandLine, LimitArgs, ToArg, parse_command_line, parse_seconds};
use crate::error::{Error, InputName};
use crate::files::{Output, OutputTarget};
use crate::format::Format;
use crate::format::bytes::QUOTED;
use crate::format::answers::{Comparison, Difference, Mode, compare};
use crate::format::board::{self, View};
use crate::game::{AfterWin, BoardSize, Line, Lines, Outcome, Rules, TicTacToe, alternate};
use crate::judging::generate::{Case, CaseWriter, Generator, Move, Spec};
use crate::judging::process;
use crate::judging::Verdict;
use crate::pipeline::run_stream_as;
use clap::Args;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub(super) const STRESS_HELP: &str = "\
Generates inputs (the options of `gen`; input K uses ChaCha8 stream K - 1 of
the seed, as its line says), runs CMD and the reference on each, and stops
at the first difference, crash or timeout. Inputs grow, as QuickCheck's do:
input K holds min(--cases, 1 + (K - 1) / 4) cases on boards up to --min-n +
2^((K - 1) / 4) - 1, so a failure only the full --cases or --max-n show
comes after about 4 x --cases inputs, or 4 x log2(--max-n - --min-n) (give
--iterations or --time room for it). It then shrinks the input (fewest cases, then
fewest moves, then smallest N), keeping every step an input the reference
accepts, writes failing.in and failing.ans to --save-dir and prints a trace
(of a case over 30 moves, the 10 up to the difference and 3 boards).

Examples (sol.py stands for your solution):
  tictactoe stress -c 'python3 sol.py' --iterations 50
  tictactoe stress -c 'python3 sol.py' --after-win continue --play-past-win --time 5

Exit status: 0 nothing found within the budget, 1 a failing input was found,
2 usage error, 74 an I/O error.";

#[derive(Debug, Args)]
pub(super) struct StressArgs {
    /// The solution's command line, split into words like a shell would.
    #[arg(short = 'c', long = "command", value_name = "CMD", value_parser = parse_command_line)]
    command: CommandLine,
    #[command(flatten)]
    spec: SpecArgs,
    #[command(flatten)]
    after_win: AfterWinArgs,
    /// The most inputs to try [default: 1000, or no bound when --time is given].
    #[arg(long, value_name = "K")]
    iterations: Option<u64>,
    /// The most seconds to search.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    time: Option<Duration>,
    /// The most seconds to shrink a failing input; then the smallest found so far is kept.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_seconds)]
    shrink_time: Duration,
    #[command(flatten)]
    limits: LimitArgs,
    /// Where failing.in and failing.ans are written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    save_dir: PathBuf,
    /// The format the solution reads and writes.
    #[arg(long, value_enum, default_value_t = ToArg::CodingNinjas)]
    format: ToArg,
    /// Print one JSON document for the run instead of text (docs/JSON.md).
    #[arg(long)]
    json: bool,
}

/// Settings for `stress`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StressConfig {
    /// What the random inputs hold; iteration K (from 0) uses ChaCha8 stream K of its seed.
    pub spec: Spec,
    /// The solution under test.
    pub command: Vec<String>,
    /// The reference's rules.
    pub rules: Rules,
    /// The most inputs to try; `u64::MAX` leaves the bound to `time`.
    pub iterations: u64,
    /// The most time to search, if bounded.
    pub time: Option<Duration>,
    /// The most time to shrink.
    pub shrink_time: Duration,
    /// The limits each run of the solution has.
    pub limits: process::Limits,
    /// Where `failing.in` and `failing.ans` go.
    pub save_dir: PathBuf,
    /// The format of the inputs and answers.
    pub format: Format,
    /// One JSON document rather than text.
    pub json: bool,
}

/// How many times the shrunk input is run again, to tell a solution that
/// fails only now and then.
const RERUNS: u32 = 2;

/// Searches, shrinks and reports. The status is 1 when a failing input was
/// found, 0 when the budget ran out first.
pub fn run(config: &StressConfig, output: impl Write) -> Result<u8, Error> {
    // A reader that leaves early must not turn "failed" into success.
    let output = crate::files::Unheard::new(output);
    config
        .spec
        .check()
        .map_err(|bad| Error::Usage(bad.to_string()))?;
    if config.spec.play_past_win && config.rules.after_win == AfterWin::Error {
        return Err(Error::Usage(
            "--play-past-win makes inputs the reference rejects under --after-win error; \
             choose --after-win continue or leetcode"
                .into(),
        ));
    }
    usable_folder(&config.save_dir)?;
    // A file with no name: nothing of it is left, however the run ends,
    // and a solution cannot reach it by a path to swap it for another.
    let scratch = tempfile::tempfile().map_err(|source| Error::CreateOutput {
        path: std::env::temp_dir(),
        source,
    })?;
    let mut out = std::io::BufWriter::new(output);
    let mut trial = Trial {
        config,
        input: scratch,
        runs: 0,
        alternating: true,
        heaviest: process::Usage::default(),
        heartbeat: Heartbeat::new(),
        shrink_until: None,
    };
    let seed = config.spec.seed();
    let started = Instant::now();
    let bounded = config.iterations != u64::MAX;
    let bar = process::progress_bar(bounded.then_some(config.iterations), "inputs");
    let mut heartbeat = Heartbeat::new();
    let mut found = None;
    let mut tried = 0;
    for iteration in 0..config.iterations {
        if config
            .time
            .is_some_and(|budget| started.elapsed() >= budget)
        {
            break;
        }
        tried += 1;
        bar.inc(1);
        heartbeat.beat(|| format!("{tried} inputs tried, no difference yet"));
        let spec = grown(&config.spec, iteration);
        let mut generator = Generator::new(&spec, iteration);
        let cases: Vec<Case> = (0..spec.cases).map(|_| generator.next_case()).collect();
        if let Some(failure) = trial.fails(&cases)? {
            trial.alternating = cases.iter().all(alternates);
            found = Some((iteration, cases, failure));
            break;
        }
    }
    bar.finish_and_clear();
    let document = |trial: &Trial, found: serde_json::Value| {
        serde_json::json!({
            "schema": 1,
            "command": "stress",
            "seed": seed,
            "spec": config.spec.canonical(),
            "format": match config.format {
                Format::CodingNinjas => "coding-ninjas",
                Format::Leetcode => "leetcode",
            },
            "solution": config.command,
            "limits": config.limits.to_json(),
            "inputs_tried": tried,
            "runs": trial.runs,
            "seconds": started.elapsed().as_secs_f64(),
            "heaviest_run": trial.heaviest.to_json(),
            "found": found,
        })
    };
    let Some((iteration, cases, failure)) = found else {
        if config.json {
            write_json(&mut out, &document(&trial, serde_json::Value::Null))?;
        } else {
            writeln!(
                out,
                "no difference in {tried} inputs (seed {seed}, {:.1}s)\n{}",
                started.elapsed().as_secs_f64(),
                trial.summary()
            )
            .map_err(Error::Write)?;
        }
        out.flush().map_err(Error::Write)?;
        return Ok(0);
    };
    // Saved before shrinking too, and before it is said: a run stopped while
    // it shrinks (Ctrl-C, a CI timeout) keeps the input found. A failure
    // here is met again, and reported, at the end.
    let _ = save(config, &cases, &failure.expected);
    if !config.json {
        writeln!(
            out,
            "input {} (seed {seed}, stream {iteration}): {}",
            iteration + 1,
            failure.verdict
        )
        .and_then(|()| out.flush())
        .map_err(Error::Write)?;
    }
    let first = failure.verdict.clone();
    let runs_before = trial.runs;
    trial.shrink_until = Some(Instant::now() + config.shrink_time);
    let (cases, failure) = trial.shrink(cases, failure)?;
    let shrink_runs = trial.runs - runs_before;
    let shrink_complete = !trial.out_of_shrink_time();
    let moves: usize = cases.iter().map(|case| case.moves.len()).sum();
    let sizes: Vec<u32> = cases.iter().map(|case| case.n).collect();
    let saved = save(config, &cases, &failure.expected);
    // A solution that fails only now and then (time, randomness, memory
    // left unset) makes a shrunk input that may not fail again: said, so
    // that the setter does not chase a bug the file will not show. Run
    // after the save, so that nothing here can cost the shrunk input; a
    // rerun that could not run tells nothing.
    let mut reruns_passed = 0;
    for _ in 0..RERUNS {
        match trial.fails(&cases) {
            Ok(Some(again)) if again.verdict.kind == failure.verdict.kind => {}
            Ok(_) => reruns_passed += 1,
            Err(_) => {}
        }
    }
    if config.json {
        let (files, unsaved) = match saved {
            Ok(paths) => (Some(paths), None),
            Err(error) => (None, Some(error)),
        };
        let path = |pick: fn(&(PathBuf, PathBuf)) -> &PathBuf| {
            files.as_ref().map(|paths| pick(paths).to_string_lossy().into_owned())
        };
        let found = serde_json::json!({
            "input_number": iteration + 1,
            "stream": iteration,
            "first_verdict": first.to_json(),
            "shrink_runs": shrink_runs,
            "shrink_complete": shrink_complete,
            "reruns": RERUNS,
            "reruns_passed": reruns_passed,
            "cases": cases.len(),
            "moves": moves,
            "sizes": sizes,
            "verdict": failure.verdict.to_json(),
            "input_file": path(|paths| &paths.0),
            "answer_file": path(|paths| &paths.1),
            // A save that failed costs the file, not the search.
            "not_saved": unsaved.as_ref().map(ToString::to_string),
            "input": unsaved.as_ref().map(|_| {
                String::from_utf8_lossy(&render(&cases, config.format)).into_owned()
            }),
        });
        write_json(&mut out, &document(&trial, found))?;
        out.flush().map_err(Error::Write)?;
        return match unsaved {
            Some(error) => Err(error),
            None => Ok(1),
        };
    }
    let sizes: Vec<String> = sizes.iter().map(u32::to_string).collect();
    writeln!(
        out,
        "shrunk in {shrink_runs} run{} to {} case{}, {moves} move{}, N = {}{}",
        if shrink_runs == 1 { "" } else { "s" },
        cases.len(),
        if cases.len() == 1 { "" } else { "s" },
        if moves == 1 { "" } else { "s" },
        sizes.join(", "),
        if shrink_complete {
            String::new()
        } else {
            format!(
                " (stopped by --shrink-time {}s: the smallest found so far)",
                config.shrink_time.as_secs_f64()
            )
        }
    )
    .map_err(Error::Write)?;
    if reruns_passed > 0 {
        writeln!(
            out,
            "note: run again {RERUNS} times, the solution did not fail this input the same \
             way {reruns_passed} time{}: it fails only now and then (time, randomness, \
             memory left unset?)",
            if reruns_passed == 1 { "" } else { "s" }
        )
        .map_err(Error::Write)?;
    }
    // A folder that fails at the end (a full disk) costs the file, not the
    // search: the input is shown here instead, and the error comes last.
    let mut saved_input = None;
    let unsaved = match saved {
        Ok((input_path, answer_path)) => {
            writeln!(
                out,
                "wrote {} and {}",
                input_path.display(),
                answer_path.display()
            )
            .map_err(Error::Write)?;
            saved_input = Some(input_path);
            None
        }
        Err(error) => {
            let input = render(&cases, config.format);
            writeln!(out, "not saved ({error}); the failing input:").map_err(Error::Write)?;
            out.write_all(&input).map_err(Error::Write)?;
            Some(error)
        }
    };
    writeln!(out, "\n{}", failure.verdict).map_err(Error::Write)?;
    write!(out, "{}", trace(config, &cases, &failure, saved_input.as_deref()))
        .map_err(Error::Write)?;
    writeln!(
        out,
        "\n{tried} inputs tried (seed {seed}, {:.1}s); {}",
        started.elapsed().as_secs_f64(),
        trial.summary()
    )
    .map_err(Error::Write)?;
    out.flush().map_err(Error::Write)?;
    match unsaved {
        Some(error) => Err(error),
        None => Ok(1),
    }
}

/// Writes one JSON document and a newline.
fn write_json(out: &mut impl Write, document: &serde_json::Value) -> Result<(), Error> {
    serde_json::to_writer_pretty(&mut *out, document).map_err(|e| Error::Write(e.into()))?;
    writeln!(out).map_err(Error::Write)
}

/// Progress for a standard error that is no terminal (a CI log, a file):
/// a line every [`Heartbeat::EVERY`], so that a long search is seen to live.
/// On a terminal, the bar says it.
struct Heartbeat {
    next: Option<Instant>,
}

impl Heartbeat {
    /// How often a line comes.
    const EVERY: Duration = Duration::from_secs(5);

    fn new() -> Heartbeat {
        use std::io::IsTerminal;
        let silent = std::io::stderr().is_terminal();
        Heartbeat {
            next: (!silent).then(|| Instant::now() + Heartbeat::EVERY),
        }
    }

    /// Writes `line()` to standard error if a line is due.
    fn beat(&mut self, line: impl FnOnce() -> String) {
        if let Some(next) = self.next
            && Instant::now() >= next
        {
            self.next = Some(Instant::now() + Heartbeat::EVERY);
            // Progress is a courtesy: a closed standard error costs nothing.
            let _ = writeln!(std::io::stderr(), "stress: {}", line());
        }
    }
}

/// How a solution failed on an input.
struct Failure {
    verdict: Verdict,
    /// The reference's answer.
    expected: Vec<u8>,
    /// The solution's output.
    found: Vec<u8>,
    /// The first differing result, for a wrong answer.
    difference: Option<Difference>,
}

/// Runs the solution on candidate inputs.
struct Trial<'a> {
    config: &'a StressConfig,
    /// The scratch file the solution reads, with no name.
    input: fs::File,
    /// How many times the solution has run.
    runs: u64,
    /// Candidates must keep players alternating, as the failing input did.
    alternating: bool,
    /// The most any run took and used.
    heaviest: process::Usage,
    /// Progress lines while shrinking, when no bar is drawn.
    heartbeat: Heartbeat,
    /// When shrinking stops, once it has begun.
    shrink_until: Option<Instant>,
}

impl Trial<'_> {
    /// How the solution fails on `cases`, or `None` when it passes or the
    /// reference rejects the input.
    fn fails(&mut self, cases: &[Case]) -> Result<Option<Failure>, Error> {
        let bytes = render(cases, self.config.format);
        let mut expected = Vec::new();
        if run_stream_as(
            &bytes[..],
            InputName::Stdin,
            Some(self.config.format),
            self.config.rules,
            &mut expected,
        )
        .is_err()
        {
            return Ok(None);
        }
        let scratch = |source| Error::CreateOutput {
            path: std::env::temp_dir(),
            source,
        };
        self.input.set_len(0).map_err(scratch)?;
        (&self.input).rewind().map_err(scratch)?;
        (&self.input).write_all(&bytes).map_err(scratch)?;
        self.runs += 1;
        let (verdict, found) =
            match process::run(
                &self.config.command,
                &self.input,
                self.config.limits,
                process::output_cap(&expected),
            ) {
                Ok(run) => {
                    self.heaviest = self.heaviest.max(run.usage);
                    (process::verdict_of(&run, &expected), run.stdout)
                }
                // This tool's failure, not the solution's (see `process::run`):
                // no input is found failing by it.
                Err(source) => {
                    return Err(Error::Process {
                        what: "run the solution",
                        source,
                    });
                }
            };
        if verdict.is_accepted() {
            return Ok(None);
        }
        let difference = match compare(&expected[..], &found[..], Mode::Lines) {
            Ok(Comparison::Differs(difference)) => Some(difference),
            _ => None,
        };
        Ok(Some(Failure {
            verdict,
            expected,
            found,
            difference,
        }))
    }

    /// The runs so far in one line: how many, and the most any took.
    fn summary(&self) -> String {
        format!(
            "{} run{} of the solution, the longest {:.2}s (cpu {:.2}s), the largest {:.1} MiB",
            self.runs,
            if self.runs == 1 { "" } else { "s" },
            self.heaviest.wall.as_secs_f64(),
            self.heaviest.cpu.as_secs_f64(),
            self.heaviest.peak_kib as f64 / 1024.0
        )
    }

    /// Whether the time to shrink is over: every step then keeps what it has.
    fn out_of_shrink_time(&self) -> bool {
        self.shrink_until.is_some_and(|until| Instant::now() >= until)
    }

    /// `cases` if the solution still fails on them the way it failed before.
    ///
    /// Candidates are first mended where that is cheap: when players must
    /// alternate, a case where one moves twice is re-interleaved (see
    /// [`interleaved`]); under the error policy, moves after a win are dropped.
    fn still_fails(
        &mut self,
        cases: &mut [Case],
        like: &Failure,
    ) -> Result<Option<Failure>, Error> {
        // Before the mending, which costs the moves: past the time, a long
        // game's thousands of candidates once took minutes to turn down.
        if self.out_of_shrink_time() {
            return Ok(None);
        }
        for case in cases.iter_mut() {
            if self.alternating && !alternates(case) {
                match interleaved(case) {
                    Some(fixed) => *case = fixed,
                    None => return Ok(None),
                }
            }
            if self.config.rules.after_win == AfterWin::Error {
                stop_at_the_win(case);
            }
        }
        // The user's bounds and the statement's (unless relaxed) hold for
        // every step: an input the solution never has to handle proves nothing.
        if !self.config.spec.admits(cases) {
            return Ok(None);
        }
        let runs = self.runs;
        self.heartbeat
            .beat(|| format!("shrinking: {runs} runs of the solution so far"));
        Ok(self
            .fails(cases)?
            .filter(|failure| failure.verdict.kind == like.verdict.kind))
    }

    /// Cuts a failing input down, greedily, to a fixed point, or as far as
    /// the time to shrink allows.
    fn shrink(
        &mut self,
        mut cases: Vec<Case>,
        mut failure: Failure,
    ) -> Result<(Vec<Case>, Failure), Error> {
        loop {
            if self.out_of_shrink_time() {
                return Ok((cases, failure));
            }
            let mut changed = false;
            // Fewest cases: the failing case alone first, then any single case,
            // then dropping cases one at a time.
            if cases.len() > 1 {
                let mut order: Vec<usize> = (0..cases.len()).collect();
                if let Some(case) = failure.difference.as_ref().and_then(Difference::case) {
                    order.retain(|&i| i as u64 != case - 1);
                    order.insert(0, (case - 1) as usize);
                }
                for i in order {
                    let mut alone = vec![cases[i].clone()];
                    if let Some(found) = self.still_fails(&mut alone, &failure)? {
                        (cases, failure, changed) = (alone, found, true);
                        break;
                    }
                }
                let mut i = cases.len();
                while i > 0 && cases.len() > 1 && !self.out_of_shrink_time() {
                    i -= 1;
                    let mut fewer = cases.clone();
                    fewer.remove(i);
                    if let Some(found) = self.still_fails(&mut fewer, &failure)? {
                        (cases, failure, changed) = (fewer, found, true);
                    }
                }
            }
            // Fewest moves: a wrong answer needs nothing after its first wrong result.
            if let Some((case, r#move)) = failure
                .difference
                .as_ref()
                .and_then(Difference::case_and_move)
                .map(|(case, number)| ((case - 1) as usize, number as usize))
                && cases[case].moves.len() > r#move
            {
                let mut shorter = cases.clone();
                shorter[case].moves.truncate(r#move);
                if let Some(found) = self.still_fails(&mut shorter, &failure)? {
                    (cases, failure, changed) = (shorter, found, true);
                }
            }
            for c in 0..cases.len() {
                let mut chunk = (cases[c].moves.len() / 2).max(1);
                loop {
                    let mut start = 0;
                    while start < cases[c].moves.len() && !self.out_of_shrink_time() {
                        let mut fewer = cases.clone();
                        let end = (start + chunk).min(fewer[c].moves.len());
                        fewer[c].moves.drain(start..end);
                        if let Some(found) = self.still_fails(&mut fewer, &failure)? {
                            (cases, failure, changed) = (fewer, found, true);
                        } else {
                            start += chunk;
                        }
                    }
                    if chunk == 1 || self.out_of_shrink_time() {
                        break;
                    }
                    chunk /= 2;
                }
            }
            // Smallest N: drop a row and a column, chosen so that rows, columns
            // and one diagonal keep their cells, with the moves in them.
            for c in 0..cases.len() {
                if let Some((smaller, found)) = self.smaller_board(&cases, c, &failure)? {
                    (cases, failure, changed) = (smaller, found, true);
                }
            }
            if !changed {
                return Ok((cases, failure));
            }
        }
    }
}

impl Trial<'_> {
    /// Case `c` on a smaller board, if some way of shrinking it still fails.
    ///
    /// First the rows and columns that hold no move, a row with the column
    /// of its index: all of them, then half, a quarter, and so on, so that a
    /// failure on any board (a wrong result) goes from N = 10^9 to a board
    /// the size of the game in one step, and one only on large boards (a
    /// solution out of memory) in a few halvings. Then one row with one
    /// column: removing row i with column i keeps the main diagonal, with
    /// column N - 1 - i the anti-diagonal, ways that lose fewer moves first
    /// ([`one_line_fewer`]). What a step costs depends on the moves, never
    /// on N: the 2N ways, each a copy of the case, once took 64 GB on
    /// N = 10^9.
    fn smaller_board(
        &mut self,
        cases: &[Case],
        c: usize,
        failure: &Failure,
    ) -> Result<Option<(Vec<Case>, Failure)>, Error> {
        let case = &cases[c];
        if case.n <= 1 {
            return Ok(None);
        }
        let used = indices_in_use(case);
        let empty = case.n.saturating_sub(used.len().max(1) as u32);
        let fewer_empty = std::iter::successors(Some(empty), |&count| Some(count / 2))
            .take_while(|&count| count > 1)
            .map(|count| without_empty_lines(case, &used, count));
        let one_fewer = one_line_fewer(case)
            .into_iter()
            .map(|(row, col)| without_row_and_column(case, row, col));
        for candidate in fewer_empty.chain(one_fewer) {
            // Each candidate is a copy of the input: at most one past the time.
            if self.out_of_shrink_time() {
                return Ok(None);
            }
            let mut smaller = cases.to_vec();
            smaller[c] = candidate;
            if let Some(found) = self.still_fails(&mut smaller, failure)? {
                return Ok(Some((smaller, found)));
            }
        }
        Ok(None)
    }
}

/// The indices whose row or column holds a move of the case, in order.
fn indices_in_use(case: &Case) -> Vec<u32> {
    let mut used: Vec<u32> = case.moves.iter().flat_map(|m| [m.row, m.col]).collect();
    used.sort_unstable();
    used.dedup();
    used
}

/// The case without the `count` lowest of its board's indices whose row and
/// column hold no move (`used` are the others, in order): each row goes
/// with the column of its index, so the moves keep their rows, columns and
/// main diagonal.
fn without_empty_lines(case: &Case, used: &[u32], count: u32) -> Case {
    let shifted = |index: u32| {
        let empty_below = index - used.partition_point(|&below| below < index) as u32;
        index - empty_below.min(count)
    };
    let moves = case
        .moves
        .iter()
        .map(|m| Move {
            row: shifted(m.row),
            col: shifted(m.col),
            player: m.player,
        })
        .collect();
    Case {
        n: case.n - count,
        moves,
    }
}

/// The ways to take a row and a column off the case's board, fewest moves
/// lost first: row i with column i, or with column N - 1 - i, for each i
/// whose row or column holds a move, and for the first i of each kind whose
/// do not. Any other i loses nothing either, as that first one does: at
/// most twice two ways a move, however large the board.
fn one_line_fewer(case: &Case) -> Vec<(u32, u32)> {
    let n = case.n;
    let mut ways = Vec::new();
    for anti in [false, true] {
        let column_of = |i: u32| if anti { n.saturating_sub(1).saturating_sub(i) } else { i };
        let mut holding: Vec<u32> = case
            .moves
            .iter()
            .flat_map(|m| [m.row, column_of(m.col)])
            .collect();
        holding.sort_unstable();
        holding.dedup();
        // Found within `holding.len() + 1` tries.
        let empty = (0..n).find(|i| holding.binary_search(i).is_err());
        ways.extend(holding.into_iter().chain(empty).map(|i| (i, column_of(i))));
    }
    ways.sort_unstable();
    ways.dedup();
    let mut in_row = HashMap::new();
    let mut in_column = HashMap::new();
    let cells: HashSet<(u32, u32)> = case.moves.iter().map(|m| (m.row, m.col)).collect();
    for m in &case.moves {
        *in_row.entry(m.row).or_insert(0) += 1;
        *in_column.entry(m.col).or_insert(0) += 1;
    }
    let count = |counts: &HashMap<u32, usize>, index| counts.get(&index).copied().unwrap_or(0);
    ways.sort_by_cached_key(|&(row, col)| {
        count(&in_row, row) + count(&in_column, col) - usize::from(cells.contains(&(row, col)))
    });
    ways
}

/// The case on a board without `row` and `col`: moves there are dropped,
/// moves past them shift in by one.
fn without_row_and_column(case: &Case, row: u32, col: u32) -> Case {
    let moves = case
        .moves
        .iter()
        .filter(|m| m.row != row && m.col != col)
        .map(|m| Move {
            row: m.row - u32::from(m.row > row),
            col: m.col - u32::from(m.col > col),
            player: m.player,
        })
        .collect();
    Case {
        n: case.n - 1,
        moves,
    }
}

/// Drops the moves after the case's first win, which the error policy refuses.
fn stop_at_the_win(case: &mut Case) {
    let size = BoardSize::new(i64::from(case.n)).unwrap_or(BoardSize::MIN);
    let mut game = TicTacToe::with_rules(size, Rules::default());
    let won = case.moves.iter().position(|m| {
        let played = game.play(i64::from(m.row), i64::from(m.col), i64::from(m.player));
        matches!(played, Ok(Outcome::Win(_)))
    });
    if let Some(win) = won {
        case.moves.truncate(win + 1);
    }
}

/// The case with each player's moves kept in their order but merged
/// alternately, the last move staying last where the counts allow; `None`
/// when one player has two moves more than the other.
fn interleaved(case: &Case) -> Option<Case> {
    let (ones, twos): (Vec<Move>, Vec<Move>) = case.moves.iter().partition(|m| m.player == 1);
    let last = case.moves.last()?.player;
    let first = match ones.len().cmp(&twos.len()) {
        std::cmp::Ordering::Equal => 3 - last,
        std::cmp::Ordering::Greater if ones.len() == twos.len() + 1 => 1,
        std::cmp::Ordering::Less if twos.len() == ones.len() + 1 => 2,
        _ => return None,
    };
    let (leading, mut following) = if first == 1 {
        (ones.into_iter(), twos.into_iter())
    } else {
        (twos.into_iter(), ones.into_iter())
    };
    let mut moves = Vec::with_capacity(case.moves.len());
    for m in leading {
        moves.push(m);
        moves.extend(following.next());
    }
    Some(Case { n: case.n, moves })
}

/// Whether no player moves twice in a row.
fn alternates(case: &Case) -> bool {
    alternate(case.moves.iter().map(|m| u32::from(m.player)))
}

/// The spec for search iteration `k`: small boards and few cases first,
/// growing to the full range, so that failures are found small. The seed
/// stays the one the options name.
fn grown(spec: &Spec, k: u64) -> Spec {
    let span = (1u64 << (k / 4).min(40)) - 1;
    let max_n = u64::from(spec.min_n) + span;
    let grown = Spec {
        seed: Some(spec.seed()),
        cases: spec.cases.min(1 + k / 4),
        max_n: max_n.min(u64::from(spec.max_n)) as u32,
        ..spec.clone()
    };
    if grown.check().is_ok() {
        grown
    } else {
        Spec {
            seed: Some(spec.seed()),
            ..spec.clone()
        }
    }
}

/// The cases as an input file in `format`.
fn render(cases: &[Case], format: Format) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut writer = CaseWriter::new(&mut bytes, format);
    // Writing to memory cannot fail.
    let _ = writer.header(cases.len() as u64);
    for case in cases {
        let _ = writer.case(case.n, &case.moves);
    }
    let _ = writer.finish();
    bytes
}

/// Refuses, before the search, a save folder that could not be written:
/// a file in its place, or a folder (or the nearest folder above it that
/// exists, where it would be made) this user cannot write to. Found only
/// at the end, it cost the whole search. Nothing is made here.
fn usable_folder(dir: &Path) -> Result<(), Error> {
    let refuse = |source| Error::CreateOutput {
        path: dir.to_path_buf(),
        source,
    };
    let mut existing = dir;
    while fs::symlink_metadata(existing).is_err() {
        match existing.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => existing = parent,
            _ => {
                existing = Path::new(".");
                break;
            }
        }
    }
    if !fs::metadata(existing).is_ok_and(|meta| meta.is_dir()) {
        return Err(refuse(io::Error::other(format!(
            "{} is not a folder",
            existing.display()
        ))));
    }
    tempfile::tempfile_in(existing).map(drop).map_err(refuse)
}

/// Writes `failing.in` and `failing.ans` to the save folder.
fn save(config: &StressConfig, cases: &[Case], answer: &[u8]) -> Result<(PathBuf, PathBuf), Error> {
    let dir = &config.save_dir;
    fs::create_dir_all(dir).map_err(|source| Error::CreateOutput {
        path: dir.to_path_buf(),
        source,
    })?;
    let input = dir.join("failing.in");
    let answer_path = dir.join("failing.ans");
    for (path, bytes) in [(&input, &render(cases, config.format)[..]), (&answer_path, answer)] {
        // Written whole, then put in place: a failure leaves the last ones.
        let mut output = Output::create(&OutputTarget::Path(path.clone()), &[])?;
        output.write_all(bytes).map_err(Error::Write)?;
        output.finish()?;
    }
    Ok((input, answer_path))
}

/// A token of the solution's output as the trace shows it: a result as it
/// is, anything else cut at [`QUOTED`] bytes and quoted with its control
/// characters escaped, so that its bytes cannot drive the terminal.
fn shown(token: &str) -> String {
    if matches!(token, "0" | "1" | "2") {
        return token.to_owned();
    }
    let goes_on = token.len() > QUOTED;
    let cut = crate::error::quote_token(&token.as_bytes()[..token.len().min(QUOTED)], goes_on);
    format!("{cut:?}")
}

/// Moves of a failing case the trace shows all of, each with its board.
const TRACED_IN_FULL: usize = 30;
/// Of a longer case, the moves shown up to the one that differs (or the
/// last), and of those the boards drawn: a game of 46,785 moves once
/// printed 28 MB of boards.
const TRACED_MOVES: usize = 10;
const TRACED_BOARDS: usize = 3;

/// The board after every move of the failing case, with both answers per
/// move; of a long case, the moves up to the one that differs.
fn trace(
    config: &StressConfig,
    cases: &[Case],
    failure: &Failure,
    saved_input: Option<&std::path::Path>,
) -> String {
    let difference = failure.difference.as_ref();
    let index = difference
        .and_then(Difference::case)
        .map_or(0, |case| (case - 1) as usize);
    let differing = difference
        .and_then(Difference::case_and_move)
        .map(|(_, number)| number as usize);
    let Some(case) = cases.get(index) else {
        return String::new();
    };
    let line_of = |text: &[u8]| -> Vec<String> {
        let text = String::from_utf8_lossy(text);
        let line = text.lines().nth(index).unwrap_or("");
        match line.trim().strip_prefix("[null") {
            // LeetCode's `[null,0,1]`: the results follow the constructor's null.
            Some(rest) => rest
                .trim_end_matches(']')
                .split(',')
                .skip(1)
                .map(|result| result.trim().to_owned())
                .collect(),
            None => line.split_whitespace().map(str::to_owned).collect(),
        }
    };
    let expected = line_of(&failure.expected);
    let found = line_of(&failure.found);
    let size = BoardSize::new(i64::from(case.n)).unwrap_or(BoardSize::MIN);
    let mut game = TicTacToe::with_rules(size, config.rules);
    let mut text = format!("\ncase {}, N = {}:\n", index + 1, case.n);
    let total = case.moves.len();
    // 0-based: the moves shown, and those of them with a board.
    let (shown_moves, drawn) = if total <= TRACED_IN_FULL {
        (0..total, 0..total)
    } else {
        let focus = differing.unwrap_or(total).clamp(1, total);
        (
            focus.saturating_sub(TRACED_MOVES)..focus,
            focus.saturating_sub(TRACED_BOARDS)..focus,
        )
    };
    if shown_moves.start > 0 {
        let policy = match config.rules.after_win {
            AfterWin::Error => "error",
            AfterWin::Continue => "continue",
            AfterWin::Leetcode => "leetcode",
        };
        let file = saved_input.map_or_else(
            || "FILE".to_owned(),
            |path| shell_words::quote(&path.to_string_lossy()).into_owned(),
        );
        text.push_str(&format!(
            "moves 1 to {} not shown (`tictactoe trace --case {} --after-win {policy} {file}` \
             shows them all)\n",
            shown_moves.start,
            index + 1
        ));
    }
    for (number, m) in case.moves.iter().enumerate() {
        let outcome = game.play(i64::from(m.row), i64::from(m.col), i64::from(m.player));
        if !shown_moves.contains(&number) {
            continue;
        }
        let highlight: Vec<Line> = match outcome {
            Ok(Outcome::Win(_)) => game.full_lines_through(m.row, m.col).collect(),
            _ => Vec::new(),
        };
        let completes = match highlight.is_empty() {
            true => String::new(),
            false => format!(" ({})", Lines(&highlight)),
        };
        let mark = if m.player == 1 { 'X' } else { 'O' };
        let want = expected.get(number).map_or("-", String::as_str);
        let got = found.get(number).map_or_else(|| "-".to_owned(), |token| shown(token));
        let flag = if differing == Some(number + 1) {
            "   <- differs"
        } else {
            ""
        };
        text.push_str(&format!(
            "move {}: player {} ({mark}) at ({}, {}) -> expected {want}{completes}, found {got}{flag}\n",
            number + 1,
            m.player,
            m.row,
            m.col
        ));
        if drawn.contains(&number) {
            let view = View::around(case.n, m.row, m.col, board::MAX_SIDE);
            text.push_str(&board::draw(&game, &view, &highlight, false));
        }
    }
    if shown_moves.end < total {
        let left = total - shown_moves.end;
        text.push_str(&format!(
            "moves {} to {total} not shown ({left} after it)\n",
            shown_moves.end + 1
        ));
    }
    text
}

impl StressArgs {
    pub(super) fn into_config(self) -> StressConfig {
        StressConfig {
            spec: self.spec.into_spec(),
            command: self.command.0,
            rules: self.after_win.into_rules(),
            iterations: self.iterations.unwrap_or(match self.time {
                Some(_) => u64::MAX,
                None => 1000,
            }),
            time: self.time,
            shrink_time: self.shrink_time,
            limits: self.limits.into_limits(),
            save_dir: self.save_dir,
            format: self.format.into(),
            json: self.json,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(n: u32, moves: &[(u32, u32, u8)]) -> Case {
        Case {
            n,
            moves: moves
                .iter()
                .map(|&(row, col, player)| Move { row, col, player })
                .collect(),
        }
    }

    #[test]
    fn a_huge_boards_ways_to_shrink_are_as_many_as_its_moves_allow() {
        let game = case(1_000_000_000, &[(5, 7, 1), (999_999_999, 0, 2), (7, 5, 1)]);
        let ways = one_line_fewer(&game);
        // Per kind: the indices of 3 rows and 3 columns, and one empty.
        assert!(ways.len() <= 2 * (2 * 3 + 1), "{ways:?}");
        let (row, col) = ways[0];
        assert!(
            game.moves.iter().all(|m| m.row != row && m.col != col),
            "a way that loses no move first: {ways:?}"
        );
        assert!(ways.contains(&(5, 5)) && ways.contains(&(5, 999_999_994)));
        let used = indices_in_use(&game);
        assert_eq!(used, [0, 5, 7, 999_999_999]);
        // All the empty rows and columns gone: the board of the moves'.
        assert_eq!(
            without_empty_lines(&game, &used, 1_000_000_000 - 4),
            case(4, &[(1, 2, 1), (3, 0, 2), (2, 1, 1)])
        );
        // Half of them, the lowest first.
        let half = without_empty_lines(&game, &used, 499_999_998);
        assert_eq!(half.n, 500_000_002);
        assert_eq!(half.moves[0], Move { row: 1, col: 2, player: 1 });
        assert_eq!(half.moves[1], Move { row: 500_000_001, col: 0, player: 2 });
    }

    #[test]
    fn dropping_a_row_and_its_mirror_column_keeps_the_anti_diagonal() {
        let game = case(3, &[(0, 2, 1), (0, 0, 2), (1, 1, 1), (2, 1, 2), (2, 0, 1)]);
        let smaller = without_row_and_column(&game, 1, 1);
        assert_eq!(smaller, case(2, &[(0, 1, 1), (0, 0, 2), (1, 0, 1)]));
    }

    #[test]
    fn interleaving_keeps_each_players_order_and_the_last_move_last() {
        let broken = case(3, &[(0, 0, 1), (0, 1, 1), (1, 1, 2), (2, 2, 1), (2, 0, 2)]);
        assert_eq!(
            interleaved(&broken),
            Some(case(
                3,
                &[(0, 0, 1), (1, 1, 2), (0, 1, 1), (2, 0, 2), (2, 2, 1)]
            ))
        );
        let lopsided = case(3, &[(0, 0, 1), (0, 1, 1), (0, 2, 1)]);
        assert_eq!(interleaved(&lopsided), None);
    }

    #[test]
    fn the_error_policy_never_sees_a_move_after_the_win() {
        let mut past = case(2, &[(0, 0, 1), (1, 1, 2), (0, 1, 1), (1, 0, 2)]);
        stop_at_the_win(&mut past);
        assert_eq!(past, case(2, &[(0, 0, 1), (1, 1, 2), (0, 1, 1)]));
    }

    #[test]
    fn the_search_starts_small_and_grows_to_the_full_range() {
        let spec = Spec {
            cases: 10,
            min_n: 3,
            max_n: 100,
            ..Spec::default()
        };
        let first = grown(&spec, 0);
        assert_eq!((first.cases, first.max_n), (1, 3));
        assert_eq!(first.seed, Some(spec.seed()));
        let later = grown(&spec, 1000);
        assert_eq!((later.cases, later.max_n), (10, 100));
    }
}
