//! `check`: judge a solution's output against the expected answer, in a judge's own protocol.
//!
//! With the input at hand the expected answer is recomputed from it, so a
//! wrong answer file is caught and reported as a judge failure rather than
//! blamed on the solution, and a wrong result is explained with the move
//! and a picture of the board around it.

use super::{FormatArg, RulesArgs, ThreadsArgs, usage_error};
use crate::error::{Error, InputName};
use crate::files::InputSource;
use crate::judging::check::{CheckFiles, judge};
use crate::format::answers::{Mode, Reading};
use crate::game::Rules;
use crate::judging::{Protocol, Verdict, VerdictKind};
use clap::builder::{OsStringValueParser, TypedValueParser};
use clap::{Args, ValueEnum};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub(super) const CHECK_HELP: &str = "\
Arguments by protocol:
  plain    EXPECTED [OUTPUT]          OUTPUT defaults to standard input
  testlib  [--testset T] [--group G] IN OUT ANS [RESULT [-appes|-APPES]]
           the message goes to RESULT if given (testlib's XML with -appes)
  kattis   IN ANS FEEDBACK_DIR [FLAG...]  output on standard input; of the
           judge's FLAGs space_change_sensitive and case_sensitive are read,
           other words ignored, and an option (`--...`) there refused (2).
           Standard input opened on ANS itself (BAPCtools' and problemtools'
           check of the answers) judges the answer by IN: 43 if wrong, and
           under space_change_sensitive anything but the solver's exact
           bytes, whatever --compare says
  oj       IN OUTPUT [EXPECTED]       as `oj test --judge-command` calls it

Results are compared one line per case (--compare lines: the plain protocol's
default), or in order with any whitespace between them (--compare tokens: the
default of testlib, kattis and oj, as judges' default validators compare), or
as the expected answer's bytes, whitespace included (--compare exact: the
kattis default when the judge passes space_change_sensitive and the command
line names no --compare, as Kattis's default validator compares, letters'
case aside unless case_sensitive). Whenever
the input is known (--input, or IN) the expected answer is recomputed from it:
an answer file that disagrees is a judge failure, and a wrong result is shown
with its move and the board around it.

Examples (they work in any folder):
  tictactoe gen --seed 1 > in.txt && tictactoe in.txt > ans.txt
  tictactoe in.txt | tictactoe check --input in.txt ans.txt    # ok: 10 cases, 272 results
  tictactoe in.txt | tr 1 0 | tictactoe check --input in.txt ans.txt; test $? = 1
      # wrong answer: case 5, move 24: expected 1, found 0, and the board

Exit status:
  plain    0 same, 1 different, 3 judge failure
  testlib  0 ok, 1 wrong answer, 2 wrong output format, 3 judge failure (FAIL)
  kattis   42 accepted, 43 wrong answer, 3 judge failure (to Kattis, any status
           but 42 and 43 is a judge error)
  oj       0 accepted, 1 not, 3 judge failure
  2 usage error, but for testlib, whose checkers fail (3) on a command line
  they refuse; an input that cannot be solved (missing, unreadable,
  malformed) is a judge failure (3); an answer or output that cannot be
  opened 66, a memory limit too small for the board 71, a read or write
  error 74. testlib has FAIL (3) for all of these but the output: one that
  is missing or cannot be read is its wrong output format (2)";

#[derive(Debug, Args)]
pub(super) struct CheckArgs {
    /// The files, in the protocol's order (see below). testlib's `-appes`
    /// after its result file is taken here too.
    // Taken as OS strings: an empty argument (testlib's `--group ""` among
    // the files, an empty result file name) is the judge's to give.
    #[arg(
        value_name = "FILE",
        required = true,
        allow_hyphen_values = true,
        value_parser = OsStringValueParser::new().map(PathBuf::from)
    )]
    files: Vec<PathBuf>,
    /// testlib's test set name (accepted, as testlib checkers accept it).
    #[arg(long, value_name = "T")]
    testset: Vec<String>,
    /// testlib's test group name (accepted, as testlib checkers accept it).
    #[arg(long, value_name = "G")]
    group: Vec<String>,
    /// Whose calling convention to follow.
    #[arg(long, value_enum, default_value_t = ProtocolArg::Plain)]
    protocol: ProtocolArg,
    /// The input the answers are for (plain protocol; the others name it themselves).
    #[arg(long, value_name = "IN")]
    input: Option<PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    threads: ThreadsArgs,
    /// The input's format (the answers are read in the same one).
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    /// How the output must be laid out [default: lines for plain, tokens
    /// for testlib, kattis and oj; exact when a Kattis judge passes
    /// `space_change_sensitive`].
    #[arg(long, value_enum, value_name = "MODE")]
    compare: Option<CompareArg>,
    /// Print the verdict as one JSON document on standard output (instead
    /// of the text, for plain and oj; besides the protocol's own messages
    /// for testlib and kattis) (docs/JSON.md).
    #[arg(long)]
    json: bool,
}

/// `--compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum CompareArg {
    /// One line per case, the results separated by spaces, tabs or CRs.
    Lines,
    /// The results in order, separated by any whitespace.
    Tokens,
    /// The expected answer's bytes, whitespace included.
    Exact,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum ProtocolArg {
    /// EXPECTED [OUTPUT]: exit 0 same, 1 different.
    Plain,
    /// testlib checkers: IN OUT ANS; exit 0 ok, 1 wrong answer, 2 presentation error, 3 fail.
    Testlib,
    /// Kattis / DOMjudge output validators: IN ANS FEEDBACK_DIR < OUTPUT; exit 42 or 43.
    Kattis,
    /// online-judge-tools' --judge-command: IN OUTPUT [EXPECTED]; exit 0 accepted.
    Oj,
}

impl CheckArgs {
    pub(super) fn into_config(mut self) -> Result<CheckConfig, Error> {
        if self.protocol == ProtocolArg::Testlib {
            // testlib takes `--testset T` and `--group G` anywhere on the
            // line; after the first file they arrive among the files.
            let mut files = Vec::new();
            let mut given = std::mem::take(&mut self.files).into_iter();
            while let Some(file) = given.next() {
                if file == Path::new("--testset") || file == Path::new("--group") {
                    let Some(value) = given.next() else {
                        let message = format!("{} needs a value: {TESTLIB_ORDER}", file.display());
                        return Ok(CheckConfig::failing(Protocol::Testlib, message));
                    };
                    if file == Path::new("--testset") {
                        self.testset.push(value.to_string_lossy().into_owned());
                    }
                    continue;
                }
                files.push(file);
            }
            self.files = files;
            // testlib: "Expected non-empty testset after --testset"; an
            // empty group is fine.
            if self.testset.iter().any(String::is_empty) {
                let message = format!("--testset needs a non-empty value: {TESTLIB_ORDER}");
                return Ok(CheckConfig::failing(Protocol::Testlib, message));
            }
        }
        // The files take anything, `-appes` and a judge's flags included:
        // an option of ours among them was put after the files.
        if let Some(option) = self.files.iter().filter_map(|file| file.to_str()).find(|file| {
            file.starts_with("--")
        }) {
            let message = if self.protocol == ProtocolArg::Kattis
                && self.files.iter().skip(3).any(|flag| flag.as_os_str() == option)
            {
                // Kattis's default validator refuses a flag it does not
                // know; ignored, this would be an option that did nothing.
                format!(
                    "{option} came among the judge's flags after FEEDBACK_DIR, which take \
                     Kattis's words (space_change_sensitive, case_sensitive); an option of \
                     tictactoe's must come before the files (in the validator's run script)"
                )
            } else {
                let mut known = <CheckArgs as Args>::augment_args(clap::Command::new("check"));
                // Built, it has --help too.
                known.build();
                let name = option.split_once('=').map_or(option, |(name, _)| name);
                let mut longs = known.get_arguments().filter_map(clap::Arg::get_long);
                if longs.any(|long| name == format!("--{long}")) {
                    format!("{option} must come before the files")
                } else {
                    // Taken for a file by clap, since the files take
                    // anything: say what it is, not where it goes.
                    let close = known
                        .get_arguments()
                        .filter_map(clap::Arg::get_long)
                        .find(|long| {
                            let typed = name.trim_start_matches('-');
                            !typed.is_empty() && long.starts_with(typed)
                        });
                    let hint = close
                        .map(|long| format!("; did you mean --{long}?"))
                        .unwrap_or_default();
                    format!("{option} is no option of check{hint} (tictactoe check --help)")
                }
            };
            // `check --bogus --protocol testlib ...`: the protocol came
            // among the files, but it is testlib's command line.
            let testlib_meant = self.protocol == ProtocolArg::Testlib
                || self.files.windows(2).any(|pair| {
                    pair[0] == Path::new("--protocol") && pair[1] == Path::new("testlib")
                })
                || self.files.iter().any(|file| file == Path::new("--protocol=testlib"));
            if testlib_meant {
                return Ok(CheckConfig::failing(Protocol::Testlib, message));
            }
            return Err(usage_error(&message));
        }
        // Only testlib gives empty names a meaning (no result file); to the
        // others an empty name is a mistake, not the current folder.
        let named = match self.protocol {
            ProtocolArg::Testlib => 0,
            ProtocolArg::Kattis => 3,
            ProtocolArg::Plain | ProtocolArg::Oj => self.files.len(),
        };
        if self.files.iter().take(named).any(|file| file.as_os_str().is_empty()) {
            return Err(usage_error("a file name is empty"));
        }
        let count = self.files.len();
        let (low, high, order) = match self.protocol {
            ProtocolArg::Plain => (1, 2, "EXPECTED [OUTPUT]"),
            ProtocolArg::Testlib => (3, 5, TESTLIB_ORDER),
            ProtocolArg::Kattis => (3, usize::MAX, "IN ANS FEEDBACK_DIR"),
            ProtocolArg::Oj => (2, 3, "IN OUTPUT [EXPECTED]"),
        };
        if (!self.testset.is_empty() || !self.group.is_empty()) && self.protocol != ProtocolArg::Testlib {
            return Err(usage_error("--testset and --group are testlib's"));
        }
        let appes = match self.files.get(4).and_then(|flag| flag.to_str()) {
            _ if count < 5 || self.protocol != ProtocolArg::Testlib => false,
            Some("-appes" | "-APPES") => true,
            _ => {
                // testlib: anything else in that place is a failure to run.
                let message = format!("the fifth argument must be -appes or -APPES: {order}");
                return Ok(CheckConfig::failing(Protocol::Testlib, message));
            }
        };
        if !(low..=high).contains(&count) {
            let message = format!("this protocol takes the arguments {order}, but {count} were given");
            if self.protocol == ProtocolArg::Testlib {
                // testlib fails (3) on a wrong command line: 2 would read as
                // a presentation error, blaming the solution.
                return Ok(CheckConfig::failing(Protocol::Testlib, message));
            }
            return Err(usage_error(&message));
        }
        if appes {
            self.files.truncate(4);
        }
        if self.input.is_some() && self.protocol != ProtocolArg::Plain {
            return Err(usage_error(
                "--input is for the plain protocol; the others name the input themselves",
            ));
        }
        // What a Kattis or BAPCtools judge passes after the feedback folder.
        let judge_flags = self.files.iter().skip(3).filter_map(|flag| flag.to_str());
        let space_change_sensitive =
            self.protocol == ProtocolArg::Kattis && judge_flags.clone().any(|flag| flag == "space_change_sensitive");
        let mode = match (self.compare, self.protocol) {
            (Some(CompareArg::Lines), _) => Mode::Lines,
            (Some(CompareArg::Tokens), _) => Mode::Tokens,
            (Some(CompareArg::Exact), _) => Mode::Exact,
            (None, ProtocolArg::Plain) => Mode::Lines,
            // As the judge's default validator would compare.
            (None, ProtocolArg::Kattis) if space_change_sensitive => Mode::Exact,
            (None, _) => Mode::Tokens,
        };
        // Tokens are read as Kattis's and DOMjudge's default validators
        // read them: letters' case ignored unless told `case_sensitive`
        // (BAPCtools checks that an output validator takes an answer with
        // its case swapped), and C's whitespace.
        let reading = if self.protocol == ProtocolArg::Kattis {
            Reading::kattis(judge_flags.clone().any(|flag| flag == "case_sensitive"))
        } else {
            Reading::default()
        };
        let mut files = self.files.into_iter();
        let mut next = || files.next();
        let mut config = CheckConfig {
            protocol: Protocol::Plain,
            files: CheckFiles {
                input: None,
                expected: None,
                output: InputSource::Stdin,
                rules: self.rules.into_rules(),
                threads: self.threads.count(),
                format: self.format.into_format(),
                mode,
                reading,
            },
            feedback_dir: None,
            report: None,
            appes,
            refusal: None,
            validating_answer: None,
            json: self.json,
        };
        match self.protocol {
            ProtocolArg::Plain => {
                config.files.input = self.input;
                config.files.expected = next();
                config.files.output = next().map_or(InputSource::Stdin, InputSource::from_arg);
            }
            ProtocolArg::Testlib => {
                config.protocol = Protocol::Testlib;
                config.files.input = next();
                config.files.output = next().map_or(InputSource::Stdin, InputSource::Path);
                config.files.expected = next();
                // testlib writes no result file for an empty name.
                config.report = next().filter(|report| !report.as_os_str().is_empty());
            }
            ProtocolArg::Kattis => {
                config.protocol = Protocol::Kattis;
                config.files.input = next();
                config.files.expected = next();
                config.feedback_dir = next();
                // The answer file as the output (BAPCtools' and problemtools'
                // check of the answers, `data/invalid_answer`): it is the
                // answer that is judged, by the input, and a wrong one is
                // rejected (43), not a failure of the judge's data. Held
                // to the solver's exact bytes when the judge asks to be
                // strict, as BAPCtools does for answers.
                if let Some(answer) = config.files.expected.take_if(|answer| {
                    // A regular file: `/dev/null` as both is no answer file.
                    std::fs::metadata(&*answer).is_ok_and(|metadata| metadata.is_file())
                        && crate::files::same_file(&InputSource::Stdin, answer)
                }) {
                    config.validating_answer = Some(answer);
                    if space_change_sensitive {
                        config.files.mode = Mode::Exact;
                    }
                }
            }
            ProtocolArg::Oj => {
                config.protocol = Protocol::Oj;
                config.files.input = next();
                config.files.output = next().map_or(InputSource::Stdin, InputSource::Path);
                config.files.expected = next();
            }
        }
        // What the check writes must not be what it reads: testlib would
        // overwrite its answer file with the message, and one argument too
        // many or too few (`-x` taken for a file) shifts ANS into RESULT.
        let written = match (&config.report, &config.feedback_dir) {
            (Some(report), _) => Some(report.clone()),
            (None, Some(directory)) => Some(directory.join("judgemessage.txt")),
            (None, None) => None,
        };
        if let Some(written) = written
            && let Some(role) = config.files.read_by_name(&written)
        {
            let what = match config.protocol {
                Protocol::Testlib => "result file",
                _ => "feedback file",
            };
            let message = format!(
                "the {what} {} is the {role}: writing it would destroy it",
                written.display()
            );
            if config.protocol == Protocol::Testlib {
                return Ok(CheckConfig::failing(Protocol::Testlib, message));
            }
            return Err(usage_error(&message));
        }
        Ok(config)
    }
}

/// Settings for `check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckConfig {
    /// The convention for arguments, statuses and messages.
    pub protocol: Protocol,
    /// The input, the expected answer and the output, and the rules.
    pub files: CheckFiles,
    /// Kattis's feedback directory.
    pub feedback_dir: Option<PathBuf>,
    /// testlib's optional result file, which takes the message instead of
    /// standard error.
    pub report: Option<PathBuf>,
    /// testlib's `-appes`: the result file holds testlib's XML.
    pub appes: bool,
    /// The answer file, when it is also the output: the answer itself is
    /// judged, by the input.
    pub validating_answer: Option<PathBuf>,
    /// A command line the protocol refuses with its own failure status
    /// (testlib's FAIL, 3), not with a usage error's 2.
    pub refusal: Option<String>,
    /// The verdict as JSON on standard output.
    pub json: bool,
}

/// testlib's checker command line.
const TESTLIB_ORDER: &str = "[--testset T] [--group G] IN OUT ANS [RESULT [-appes|-APPES]]";

impl CheckConfig {
    /// A check that fails at once, the protocol's way.
    fn failing(protocol: Protocol, message: String) -> CheckConfig {
        CheckConfig {
            protocol,
            files: CheckFiles {
                input: None,
                expected: None,
                output: InputSource::Stdin,
                rules: Rules::default(),
                threads: 0,
                format: None,
                mode: Mode::Lines,
                reading: Reading::default(),
            },
            feedback_dir: None,
            report: None,
            appes: false,
            refusal: Some(message),
            validating_answer: None,
            json: false,
        }
    }
}

/// Checks the output and reports the verdict the protocol's way. Returns
/// the protocol's exit status for it.
pub fn run(config: &CheckConfig, stdout: impl Write, stderr: impl Write) -> Result<u8, Error> {
    let judged = match (&config.refusal, &config.files.output) {
        (Some(message), _) => Ok(Verdict::new(VerdictKind::JudgeFailure, message.clone())),
        // testlib: a solution that wrote no output file presented nothing.
        (None, InputSource::Path(output))
            if config.protocol == Protocol::Testlib && !crate::files::exists(output) =>
        {
            let message = format!("Output file not found: \"{}\"", output.display());
            Ok(Verdict::new(VerdictKind::PresentationError, message))
        }
        (None, _) => judge(&config.files).map(|mut verdict| {
            if let Some(answer) = &config.validating_answer
                && verdict.kind != VerdictKind::Accepted
                && verdict.kind != VerdictKind::JudgeFailure
            {
                verdict.message = format!(
                    "the answer file {} is not the answer to the input: {}",
                    answer.display(),
                    verdict.message
                );
            }
            verdict
        }),
    };
    let verdict = match judged {
        Ok(verdict) => verdict,
        // testlib: an output file that cannot be opened or read (one a
        // solution made a folder, or unreadable) is the solution's: its
        // reads end at once, a wrong output format.
        Err(Error::Open { path, source }) if output_is(config, &path) => {
            let message = format!("cannot read the output {}: {source}", path.display());
            Verdict::new(VerdictKind::PresentationError, message)
        }
        Err(Error::Read {
            input: InputName::Path(path),
            source,
        }) if output_is(config, &path) => {
            let message = format!("cannot read the output {}: {source}", path.display());
            Verdict::new(VerdictKind::PresentationError, message)
        }
        // testlib has a status for a checker that cannot do its work.
        Err(error) if config.protocol == Protocol::Testlib => {
            Verdict::new(VerdictKind::JudgeFailure, error.to_string())
        }
        Err(error) => return Err(error),
    };
    let kind = match deliver(config, &verdict, stdout, stderr) {
        // A reader that stopped listening must not change the verdict's status.
        Err(Error::Write(error)) if error.kind() == io::ErrorKind::BrokenPipe => verdict.kind,
        Err(error) => return Err(error),
        Ok(overridden) => overridden.unwrap_or(verdict.kind),
    };
    Ok(config.protocol.check_status(kind))
}

/// Whether `path` is testlib's output file, the one the solution wrote.
fn output_is(config: &CheckConfig, path: &Path) -> bool {
    config.protocol == Protocol::Testlib
        && matches!(&config.files.output, InputSource::Path(output) if output == path)
        && config.files.input.as_deref() != Some(path)
        && config.files.expected.as_deref() != Some(path)
}

/// Writes the verdict where the protocol wants it. A verdict that cannot
/// be delivered the protocol's way becomes the one returned (testlib's FAIL
/// for a result file it cannot write).
fn deliver(
    config: &CheckConfig,
    verdict: &Verdict,
    stdout: impl Write,
    stderr: impl Write,
) -> Result<Option<VerdictKind>, Error> {
    let label = verdict.kind.label();
    let with_colon = format!("{label}: {}\n{}", verdict.message, verdict.details);
    let mut stdout = stdout;
    if config.json {
        let mut document = serde_json::json!({
            "schema": 1,
            "command": "check",
            "protocol": protocol_name(config.protocol),
            "compare": match config.files.mode {
                Mode::Lines => "lines",
                Mode::Tokens => "tokens",
                Mode::Exact => "exact",
            },
            "status": config.protocol.check_status(verdict.kind),
        });
        if let (Some(fields), serde_json::Value::Object(verdict)) =
            (document.as_object_mut(), verdict.to_json())
        {
            fields.extend(verdict);
        }
        let text = serde_json::to_string_pretty(&document).unwrap_or_default() + "\n";
        write_all(&mut stdout, &text)?;
    }
    match config.protocol {
        Protocol::Plain | Protocol::Oj if config.json => Ok(None),
        Protocol::Plain | Protocol::Oj => write_all(stdout, &with_colon).map(|()| None),
        Protocol::Testlib => {
            // What testlib's quit writes: without a result file, the
            // verdict word and the message on standard error; with one,
            // the message alone there (or testlib's XML, with -appes), and
            // a pointer to it on standard error. The move's explanation
            // has no place in either.
            let message = testlib_message(&verdict.message);
            // testlib writes its standard error with fprintf and never
            // looks at the result: the exit status is the verdict, even
            // when standard error is full or closed.
            let write_stderr = |text: &str| {
                let _ = write_all(stderr, text);
            };
            match &config.report {
                Some(path) => {
                    let text = if config.appes {
                        format!(
                            "<?xml version=\"1.0\" encoding=\"windows-1251\"?>\
                             <result outcome = \"{}\">{}</result>\n",
                            testlib_outcome(verdict.kind),
                            xml_safe(&message)
                        )
                    } else {
                        message
                    };
                    if write_file(path, &text).is_err() {
                        // testlib: "Can not write to the result file" is FAIL.
                        write_stderr(&format!(
                            "FAIL Can not write to the result file {}\n",
                            path.display()
                        ));
                        return Ok(Some(VerdictKind::JudgeFailure));
                    }
                    write_stderr("\nSee file to check exit message\n");
                    Ok(None)
                }
                None => {
                    write_stderr(&format!("{label} {message}\n"));
                    Ok(None)
                }
            }
        }
        Protocol::Kattis => {
            let directory = config
                .feedback_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from("."));
            write_file(&directory.join("judgemessage.txt"), &with_colon)?;
            if verdict.kind == VerdictKind::JudgeFailure {
                write_all(stderr, &with_colon)?;
            }
            Ok(None)
        }
    }
}

/// The protocol's name as `--protocol` spells it.
fn protocol_name(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::Plain => "plain",
        Protocol::Testlib => "testlib",
        Protocol::Kattis => "kattis",
        Protocol::Oj => "oj",
    }
}

/// A message as testlib's quit leaves it: trimmed of spaces, tabs, CRs
/// and LFs at both ends.
fn testlib_message(message: &str) -> String {
    message
        .trim_matches(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
        .to_owned()
}

/// testlib's name for an outcome in its XML result.
fn testlib_outcome(kind: VerdictKind) -> &'static str {
    match kind {
        VerdictKind::Accepted => "accepted",
        VerdictKind::WrongAnswer => "wrong-answer",
        VerdictKind::PresentationError => "presentation-error",
        VerdictKind::RuntimeError
        | VerdictKind::TimeLimit
        | VerdictKind::MemoryLimit
        | VerdictKind::OutputLimit
        | VerdictKind::JudgeFailure => "fail",
    }
}

/// Text for testlib's XML: `& < > "` escaped, control bytes as `.`, as
/// testlib's xmlSafeWrite writes them.
fn xml_safe(text: &str) -> String {
    let mut safe = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => safe.push_str("&amp;"),
            '<' => safe.push_str("&lt;"),
            '>' => safe.push_str("&gt;"),
            '"' => safe.push_str("&quot;"),
            c if u32::from(c) < 32 => safe.push('.'),
            c => safe.push(c),
        }
    }
    safe
}

fn write_all(mut out: impl Write, text: &str) -> Result<(), Error> {
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Error::Write)
}

fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    let file = File::create(path).map_err(|source| Error::CreateOutput {
        path: path.to_path_buf(),
        source,
    })?;
    write_all(file, text)
}
