//! `gen`: reproducible test data, to standard output or as a folder of tests with answers.

use super::{AfterWinArg, AfterWinArgs, SpecArgs, ToArg};
use crate::error::{Error, InputName};
use crate::files::{Output, OutputTarget};
use crate::format::Format;
use crate::game::{AfterWin, Rules};
use crate::judging::generate::{Spec, write_all_games, write_file_as};
use crate::pipeline::run_stream_as;
use clap::Args;
use std::fs::{self, File};
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};

pub(super) const GEN_HELP: &str = "\
The same arguments give the same bytes on every machine. Without --seed the
seed is the 64-bit FNV-1a hash of the settings spelled canonically, for example
`cases=10 n=3..=10 max-moves=auto outcome=mixed limits=statement past-win=no`,
so a command line names its test. File K of a folder uses ChaCha8 stream K.

Examples:
  tictactoe gen --seed 1 --cases 3 --outcome win > win.in
  tictactoe gen --count 20 --out-dir data    # data/01.in, data/01.ans, ...
  tictactoe gen --all-games 3 | tictactoe > all.ans    # 255168 games
  tictactoe gen --limits relaxed --cases 50 --min-n 1000 --max-n 1000 > big.in

Exit status: 0 success, 2 usage error (including settings that cannot make a
file), 74 an I/O error.";

#[derive(Debug, Args)]
pub(super) struct GenArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Write every legal game of an N x N board (N <= 3), player 1 first,
    /// one case per game, each stopping at a win or a full board.
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..=3),
        conflicts_with_all = [
            "seed", "cases", "min_n", "max_n", "max_moves", "outcome", "limits",
            "play_past_win", "count", "out_dir",
        ],
    )]
    all_games: Option<u32>,
    /// Write K tests to --out-dir instead of one file to standard output
    /// (at most 100000: a folder is checked whole before a file is written).
    #[arg(
        long,
        value_name = "K",
        requires = "out_dir",
        value_parser = clap::value_parser!(u64).range(1..=MAX_TESTS)
    )]
    count: Option<u64>,
    /// Write DIR/01.in ... with matching .ans files computed by the solver.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Replace tests already in --out-dir, and write beside tests of
    /// another numbering (else gen refuses, but keeps a test that already
    /// holds the bytes it would write).
    #[arg(long, requires = "out_dir")]
    force: bool,
    /// What to do with moves after a game has been won, for the .ans files
    /// of --out-dir (a file on standard output has no answers to compute).
    #[arg(long, value_enum, default_value_t = AfterWinArg::Error, requires = "out_dir")]
    after_win: AfterWinArg,
    /// The format to write the inputs in.
    #[arg(long, value_enum, default_value_t = ToArg::CodingNinjas)]
    format: ToArg,
}

impl GenArgs {
    pub(super) fn into_config(self) -> GenConfig {
        GenConfig {
            spec: self.spec.into_spec(),
            all_games: self.all_games,
            out_dir: self.out_dir,
            count: self.count.unwrap_or(1),
            force: self.force,
            answer_rules: AfterWinArgs {
                after_win: self.after_win,
            }
            .into_rules(),
            format: self.format.into(),
        }
    }
}

/// Settings for `gen`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// What the random files hold.
    pub spec: Spec,
    /// Write every game of this board size instead of random ones.
    pub all_games: Option<u32>,
    /// Write a folder of tests here instead of one file to the output.
    pub out_dir: Option<PathBuf>,
    /// How many tests the folder gets.
    pub count: u64,
    /// Whether tests already in the folder may be replaced.
    pub force: bool,
    /// The rules the folder's `.ans` files are computed with.
    pub answer_rules: Rules,
    /// The format the inputs are written in.
    pub format: Format,
}

/// The most tests `--count` writes to a folder: every test's name and state
/// is known before anything is written, and no judge holds more.
const MAX_TESTS: u64 = 100_000;

/// Writes what the config asks for. A folder's tests are `01.in`, `02.in`
/// ... (wider numbers past 99), each with the solver's `.ans`.
pub fn run(config: &GenConfig, output: impl Write) -> Result<u8, Error> {
    if let Some(n) = config.all_games {
        write_all_games(n, config.format, output).map_err(Error::Write)?;
        return Ok(0);
    }
    config
        .spec
        .check()
        .map_err(|bad| Error::Usage(bad.to_string()))?;
    if config.out_dir.is_some()
        && config.spec.play_past_win
        && config.answer_rules.after_win == AfterWin::Error
    {
        return Err(Error::Usage(
            "--play-past-win makes inputs the solver rejects under --after-win error; \
             choose --after-win continue or leetcode for the .ans files"
                .into(),
        ));
    }
    match &config.out_dir {
        None => write_file_as(&config.spec, 0, config.format, output).map_err(Error::Write)?,
        Some(dir) => write_folder(config, dir)?,
    }
    Ok(0)
}

fn write_folder(config: &GenConfig, dir: &Path) -> Result<(), Error> {
    fs::create_dir_all(dir).map_err(|source| Error::CreateOutput {
        path: dir.to_path_buf(),
        source: match source.kind() {
            io::ErrorKind::AlreadyExists => io::Error::other("a file is there, not a folder"),
            _ => source,
        },
    })?;
    let width = config.count.to_string().len().max(2);
    let tests: Vec<(PathBuf, PathBuf)> = (1..=config.count)
        .map(|number| {
            let name = format!("{number:0width$}");
            (dir.join(format!("{name}.in")), dir.join(format!("{name}.ans")))
        })
        .collect();
    if !config.force
        && let Some(other) = other_numbering(dir, width, config.count)?
    {
        return Err(Error::Usage(format!(
            "{} is a test numbered for another --count (this command writes {} to {}): \
             gen does not mix numberings in a folder unless given --force",
            other.display(),
            tests[0].0.display(),
            tests[tests.len() - 1].0.display()
        )));
    }
    // Nothing is written if anything would be replaced unasked. A test
    // that already holds the bytes this command writes is kept as it is,
    // so that a run stopped halfway is finished by running it again.
    let mut to_write = Vec::with_capacity(tests.len());
    for (number, (input, answer)) in (1..).zip(&tests) {
        let written = if config.force {
            Written::Neither
        } else {
            already_written(config, number, input, answer)?
        };
        to_write.push((number, input, answer, written));
    }
    // A write that fails (a full disk) names the file it was writing.
    fn naming(path: &Path) -> impl Fn(Error) -> Error + '_ {
        move |error| match error {
            Error::Write(source) => Error::CreateOutput {
                path: path.to_path_buf(),
                source,
            },
            error => error,
        }
    }
    for (number, input, answer, written) in to_write {
        if written == Written::Neither {
            let mut output = Output::create(&OutputTarget::Path(input.clone()), &[])?;
            write_file_as(&config.spec, number, config.format, &mut output)
                .map_err(|source| Error::CreateOutput {
                    path: input.clone(),
                    source,
                })?;
            output.finish().map_err(naming(input))?;
        }
        if written != Written::Both {
            let mut solved = Output::create(&OutputTarget::Path(answer.clone()), &[])?;
            solve_test(config, input, &mut solved).map_err(naming(answer))?;
            solved.finish().map_err(naming(answer))?;
        }
    }
    Ok(())
}

/// A test in `dir` that `gen` could have written with another `--count`,
/// numbered as one of the `count` this command writes but at another width
/// (`01.in` where this one writes `001.in`): the folder would hold that
/// test twice. Other names (`2024.in` beside `001.in` to `100.in`) are a
/// setter's own.
fn other_numbering(dir: &Path, width: usize, count: u64) -> Result<Option<PathBuf>, Error> {
    let unreadable = |source| Error::Read {
        input: InputName::Path(dir.to_path_buf()),
        source,
    };
    for entry in fs::read_dir(dir).map_err(unreadable)? {
        let name = entry.map_err(unreadable)?.file_name();
        let Some((stem, extension)) = name.to_str().and_then(|name| name.rsplit_once('.')) else {
            continue;
        };
        let numbered = stem.len() >= 2
            && stem.len() != width
            && stem.bytes().all(|byte| byte.is_ascii_digit())
            && stem.parse::<u64>().is_ok_and(|number| (1..=count).contains(&number));
        if numbered && matches!(extension, "in" | "ans") {
            return Ok(Some(dir.join(name)));
        }
    }
    Ok(None)
}

/// What a folder already holds of a test, as this command would write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Written {
    Neither,
    Input,
    Both,
}

/// How much of test `number` is already in the folder, byte for byte;
/// a usage error if a file there holds anything else.
fn already_written(
    config: &GenConfig,
    number: u64,
    input: &Path,
    answer: &Path,
) -> Result<Written, Error> {
    let refuse = |path: &Path, why: &str| {
        Err(Error::Usage(format!(
            "{} exists and {why}: gen does not replace tests unless given --force",
            path.display()
        )))
    };
    // A link counts as there, whether or not it points anywhere; only a
    // plain file is read (a FIFO would wait for a writer).
    let there = |path: &Path| fs::symlink_metadata(path).is_ok();
    let plain_file = |path: &Path| fs::metadata(path).is_ok_and(|meta| meta.is_file());
    for path in [input, answer] {
        if there(path) && !plain_file(path) {
            return refuse(path, "is not a plain file");
        }
    }
    if !there(input) {
        return if there(answer) {
            refuse(answer, &format!("{} does not", input.display()))
        } else {
            Ok(Written::Neither)
        };
    }
    let refuse = |path: &Path| refuse(path, "is not what this command writes");
    let mut same = SameBytes::of(input)?;
    write_file_as(&config.spec, number, config.format, &mut same).map_err(|source| {
        Error::Read {
            input: InputName::Path(input.to_path_buf()),
            source,
        }
    })?;
    if !same.finish()? {
        return refuse(input);
    }
    if !there(answer) {
        return Ok(Written::Input);
    }
    let mut same = SameBytes::of(answer)?;
    match solve_test(config, input, &mut same) {
        Err(Error::Write(source)) => Err(Error::Read {
            input: InputName::Path(answer.to_path_buf()),
            source,
        }),
        solved => solved,
    }?;
    if !same.finish()? {
        return refuse(answer);
    }
    Ok(Written::Both)
}

/// Writes the answer to the test input at `input`.
fn solve_test(config: &GenConfig, input: &Path, output: impl Write) -> Result<(), Error> {
    let source = File::open(input).map_err(|source| Error::Open {
        path: input.to_path_buf(),
        source,
    })?;
    run_stream_as(
        BufReader::new(source),
        InputName::Path(input.to_path_buf()),
        Some(config.format),
        config.answer_rules,
        output,
    )
}

/// A writer that takes what is written and says whether a file holds
/// exactly those bytes, reading the file in step with the writes.
struct SameBytes {
    path: PathBuf,
    file: BufReader<File>,
    same: bool,
    scratch: Vec<u8>,
}

impl SameBytes {
    fn of(path: &Path) -> Result<SameBytes, Error> {
        let file = File::open(path).map_err(|source| Error::Open {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(SameBytes {
            path: path.to_path_buf(),
            file: BufReader::new(file),
            same: true,
            scratch: Vec::new(),
        })
    }

    /// Whether everything written was the file's bytes, and the file holds no more.
    fn finish(mut self) -> Result<bool, Error> {
        if self.same {
            self.scratch.clear();
            let read = (&mut self.file)
                .take(1)
                .read_to_end(&mut self.scratch)
                .map_err(|source| Error::Read {
                    input: InputName::Path(self.path.clone()),
                    source,
                })?;
            self.same = read == 0;
        }
        Ok(self.same)
    }
}

impl Write for SameBytes {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.same {
            self.scratch.clear();
            (&mut self.file)
                .take(bytes.len() as u64)
                .read_to_end(&mut self.scratch)?;
            self.same = self.scratch == bytes;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
