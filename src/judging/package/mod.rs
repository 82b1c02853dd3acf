//! A complete problem package for a judge: its configuration, a statement,
//! test data from recorded seeds, validators that run this binary with the
//! package's bounds and format pinned, and submissions that prove the data.
//!
//! Everything is made in memory, as a list of files, so that the same
//! settings give the same bytes; the command writes them out as a folder,
//! or as a zip for DOMjudge.

pub mod data;
pub mod statement;

use crate::error::{Error, InputName};
use crate::format::Format;
use crate::game::{Limits, Rules};
use crate::judging::generate::CaseWriter;
use crate::pipeline::run_stream_as;
use data::TestFile;
use std::io::{self, Write};

/// The judge a package is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// The legacy Kattis problem package format, as problemtools checks it.
    Kattis,
    /// The ICPC problem package format 2025-09, as BAPCtools checks it.
    Icpc,
    /// A zip in the legacy format with `domjudge-problem.ini`, as DOMjudge imports it.
    Domjudge,
}

/// What decides a package's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageSpec {
    /// The judge.
    pub judge: Judge,
    /// The seed of the built and generated tests.
    pub seed: u64,
    /// The time limit, where the format states one.
    pub time_limit: std::time::Duration,
    /// Validators call `tictactoe` on the judge's PATH rather than a copy
    /// shipped inside them.
    pub use_path: bool,
}

/// One file of a package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageFile {
    /// Its path in the package, with `/` between folders.
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Whether it must be executable.
    pub executable: bool,
}

impl PackageFile {
    fn text(path: impl Into<String>, text: impl Into<String>) -> PackageFile {
        PackageFile {
            path: path.into(),
            bytes: text.into().into_bytes(),
            executable: false,
        }
    }

    fn script(path: impl Into<String>, text: impl Into<String>) -> PackageFile {
        PackageFile {
            executable: true,
            ..PackageFile::text(path, text)
        }
    }
}

/// The submissions: file, folder (the verdict they must get), source.
const SUBMISSIONS: [(&str, &str, &str); 9] = [
    ("counters.cpp", "accepted", include_str!("submissions/counters.cpp")),
    ("counters.py", "accepted", include_str!("submissions/counters.py")),
    (
        "no_anti_diagonal.cpp",
        "wrong_answer",
        include_str!("submissions/no_anti_diagonal.cpp"),
    ),
    ("no_diagonal.py", "wrong_answer", include_str!("submissions/no_diagonal.py")),
    (
        "anti_diagonal_off_by_one.py",
        "wrong_answer",
        include_str!("submissions/anti_diagonal_off_by_one.py"),
    ),
    ("counts_marks.py", "wrong_answer", include_str!("submissions/counts_marks.py")),
    (
        "state_not_reset.py",
        "wrong_answer",
        include_str!("submissions/state_not_reset.py"),
    ),
    ("one_line.py", "wrong_answer", include_str!("submissions/one_line.py")),
    (
        "full_board_is_a_draw.py",
        "wrong_answer",
        include_str!("submissions/full_board_is_a_draw.py"),
    ),
];

/// The input validator's pinned command: the statement's bounds, the
/// Coding Ninjas format, the Kattis protocol.
fn validate_command(limits: &Limits) -> String {
    format!(
        "validate --protocol kattis --format coding-ninjas --min-t {} --max-t {} \
         --min-n {} --max-n {} --min-q {}",
        limits.min_t, limits.max_t, limits.min_n, limits.max_n, limits.min_q
    )
}

/// The output validator's pinned command: a case's results on its own line,
/// as the statement asks (a solution printing them all on one line is
/// wrong); the configuration says `space_change_sensitive` to the judge
/// tools besides, so that they do not expect reflowed answers accepted.
const CHECK_COMMAND: &str = "check --protocol kattis --format coding-ninjas --compare lines";

/// A validator's folder: `build` and `run`, and the binary unless the
/// judge's PATH has it. `build` makes the shipped binary runnable, since
/// an import (DOMjudge's) may keep the run bit on `build` and `run` only,
/// and flatten the folder; `run` finds the binary beside itself.
fn validator(folder: &str, command: &str, binary: Option<&[u8]>) -> Vec<PackageFile> {
    let mut files = Vec::new();
    match binary {
        Some(bytes) => {
            files.push(PackageFile::script(
                format!("{folder}/build"),
                "#!/bin/sh\n\
                 # The validator is the tictactoe binary shipped beside this script; an\n\
                 # import may have dropped its run bit. Only then is it changed: a\n\
                 # judge may build on files it cannot change (BAPCtools links them).\n\
                 # DOMjudge builds as its run user in a folder anyone may write, on\n\
                 # files another user owns: there a runnable copy takes the file's place.\n\
                 # 755 whatever the umask: other users run it (DOMjudge gives the\n\
                 # files back to its own user, and judgedaemons share them).\n\
                 cd \"$(dirname \"$0\")\" || exit 1\n\
                 if [ ! -x tictactoe ]; then\n\
                 \x20   chmod 755 tictactoe 2>/dev/null ||\n\
                 \x20       { rm -f .tictactoe.new; cp tictactoe .tictactoe.new &&\n\
                 \x20         chmod 755 .tictactoe.new && mv -f .tictactoe.new tictactoe; } ||\n\
                 \x20       { rm -f .tictactoe.new; exit 1; }\n\
                 fi\n\
                 ./tictactoe --version >/dev/null\n",
            ));
            files.push(PackageFile::script(
                format!("{folder}/run"),
                // `${0%/*}`, not `$(dirname "$0")`: a sandbox that allows one
                // process leaves the shell no fork for a command substitution.
                format!(
                    "#!/bin/sh\n\
                     case $0 in */*) here=${{0%/*}} ;; *) here=. ;; esac\n\
                     exec \"$here/tictactoe\" {command} \"$@\"\n"
                ),
            ));
            files.push(PackageFile {
                path: format!("{folder}/tictactoe"),
                bytes: bytes.to_vec(),
                executable: true,
            });
        }
        None => {
            files.push(PackageFile::script(
                format!("{folder}/build"),
                "#!/bin/sh\n\
                 # The validator is tictactoe on the judge's PATH; nothing to build.\n\
                 command -v tictactoe >/dev/null || { echo \"tictactoe is not on PATH\" >&2; exit 1; }\n",
            ));
            files.push(PackageFile::script(
                format!("{folder}/run"),
                format!("#!/bin/sh\nexec tictactoe {command} \"$@\"\n"),
            ));
        }
    }
    files
}

/// A UUID made from the seed and the judge, so that a package rebuilds
/// byte for byte, and two settings give two problems.
fn uuid(spec: &PackageSpec) -> String {
    use rand::{RngExt, SeedableRng};
    let salt = match spec.judge {
        Judge::Kattis => 1,
        Judge::Icpc => 2,
        Judge::Domjudge => 3,
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(spec.seed ^ (salt << 56));
    let (high, low): (u64, u64) = (rng.random(), rng.random());
    // Version 4, variant 1: the layout of a random UUID.
    let high = (high & !0xf000) | 0x4000;
    let low = (low & !(0xc << 60)) | (0x8 << 60);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0xffff,
        low >> 48,
        low & 0xffff_ffff_ffff
    )
}

/// The problem's configuration for the judge.
fn configuration(spec: &PackageSpec) -> Vec<PackageFile> {
    let uuid = uuid(spec);
    match spec.judge {
        Judge::Kattis | Judge::Domjudge => {
            let mut files = vec![PackageFile::text(
                "problem.yaml",
                format!(
                    "problem_format_version: legacy\n\
                     name: Design Tic-Tac-Toe\n\
                     source: tictactoe package\n\
                     license: cc0\n\
                     rights_owner: the problem setter\n\
                     uuid: {uuid}\n\
                     # The output validator (output_validators/tictactoe) runs\n\
                     # `tictactoe {CHECK_COMMAND}`.\n\
                     validation: custom\n\
                     validator_flags: space_change_sensitive\n\
                     limits:\n\
                     \x20 # The time limit is the slowest accepted submission's time, times this.\n\
                     \x20 time_multiplier: 5\n\
                     \x20 time_safety_margin: 2\n"
                ),
            )];
            if spec.judge == Judge::Domjudge {
                files.push(PackageFile::text(
                    "domjudge-problem.ini",
                    format!(
                        "name = \"Design Tic-Tac-Toe\"\ntimelimit = {}\n",
                        spec.time_limit.as_secs_f64()
                    ),
                ));
            }
            files
        }
        Judge::Icpc => vec![
            PackageFile::text(
                "data/test_group.yaml",
                "# Each case's results on a line of their own: the output validator\n\
                 # (output_validator/) compares lines.\n\
                 output_validator_args: [space_change_sensitive]\n",
            ),
            PackageFile::text(
            "problem.yaml",
            format!(
                "problem_format_version: 2025-09\n\
                 type: pass-fail\n\
                 name:\n\
                 \x20 en: Design Tic-Tac-Toe\n\
                 uuid: {uuid}\n\
                 credits: the problem setter\n\
                 license: cc0\n\
                 rights_owner: the problem setter\n\
                 limits:\n\
                 \x20 time_limit: {}\n",
                spec.time_limit.as_secs_f64()
            ),
            ),
        ],
    }
}

/// A test file's input bytes and the reference's answer.
fn input_and_answer(file: &TestFile) -> Result<(Vec<u8>, Vec<u8>), Error> {
    let mut input = Vec::new();
    let mut writer = CaseWriter::new(&mut input, Format::CodingNinjas);
    let written: io::Result<()> = (|| {
        writer.header(file.cases.len() as u64)?;
        for case in &file.cases {
            writer.case(case.n, &case.moves)?;
        }
        writer.finish()
    })();
    written.map_err(Error::Write)?;
    let mut answer = Vec::new();
    run_stream_as(
        &input[..],
        InputName::Stdin,
        Some(Format::CodingNinjas),
        Rules::default(),
        &mut answer,
    )?;
    Ok((input, answer))
}

/// Where a test file goes, without its extension: secret files in their
/// group's folder, but flat for DOMjudge, whose import reads `data/secret`
/// without folders.
fn stem(spec: &PackageSpec, test: &TestFile) -> String {
    match (spec.judge, test.subgroup) {
        (Judge::Kattis | Judge::Icpc, Some(subgroup)) => {
            format!("data/{}/{subgroup}/{}", test.group, test.name)
        }
        _ => format!("data/{}/{}", test.group, test.name),
    }
}

/// The notes: how each test file was made, and which mistakes it targets.
fn notes(spec: &PackageSpec, tests: &[TestFile]) -> String {
    let mut text = format!(
        "# Design Tic-Tac-Toe: notes for the setter\n\n\
         Made by `tictactoe package` {} (seed {}); the same command rebuilds these\n\
         files byte for byte. The answers are the reference solver's.\n\n\
         The validators run tictactoe: the input validator as\n`tictactoe {}`,\n\
         the output validator as `tictactoe {CHECK_COMMAND}` (a case's results\n\
         on a line of their own; spaces and line ends as the checker allows).\n\n\
         problem.yaml names `the problem setter` (rights owner, credits) under cc0 and a\n\
         UUID made from the seed and the judge: edit them to yours.\n\n\
         ## Test data\n\n| file | made | targets |\n| --- | --- | --- |\n",
        env!("CARGO_PKG_VERSION"),
        spec.seed,
        validate_command(&Limits::STATEMENT)
    );
    for test in tests {
        text.push_str(&format!(
            "| {}.in | {} | {} |\n",
            stem(spec, test),
            test.made,
            test.targets
        ));
    }
    text.push_str(
        "\n## Submissions\n\n\
         - accepted: the counter solution (a signed sum a row, column and diagonal), in C++ and Python.\n\
         - wrong_answer: each makes one of the mistakes above: no anti-diagonal, no diagonal,\n\
         \x20 the anti-diagonal off by one, marks counted whoever made them, sums kept between\n\
         \x20 cases, every result on one line, a full board taken for a draw.\n",
    );
    text
}

/// Every file of the package. `binary` is the validators' copy of this
/// tool, or `None` when they call `tictactoe` on the judge's PATH.
pub fn files(spec: &PackageSpec, binary: Option<&[u8]>) -> Result<Vec<PackageFile>, Error> {
    let limits = Limits::STATEMENT;
    let mut files = configuration(spec);
    let tests = data::test_files(spec.seed);
    let mut samples = Vec::new();
    for test in &tests {
        let (input, answer) = input_and_answer(test)?;
        if test.group == "sample" {
            samples.push((
                String::from_utf8_lossy(&input).into_owned(),
                String::from_utf8_lossy(&answer).into_owned(),
            ));
        }
        let stem = stem(spec, test);
        files.push(PackageFile {
            path: format!("{stem}.in"),
            bytes: input,
            executable: false,
        });
        files.push(PackageFile {
            path: format!("{stem}.ans"),
            bytes: answer,
            executable: false,
        });
    }
    let (statement_folder, output_validator) = match spec.judge {
        Judge::Kattis | Judge::Domjudge => ("problem_statement", "output_validators/tictactoe"),
        Judge::Icpc => ("statement", "output_validator"),
    };
    files.push(PackageFile::text(
        format!("{statement_folder}/problem.en.tex"),
        statement::latex(&limits),
    ));
    if spec.judge == Judge::Domjudge {
        files.push(PackageFile::text("problem.html", statement::html(&limits, &samples)));
    }
    // DOMjudge runs no input validator: its zip stays lighter without one.
    if spec.judge != Judge::Domjudge {
        files.extend(validator(
            "input_validators/tictactoe",
            &validate_command(&limits),
            binary,
        ));
    }
    files.extend(validator(output_validator, CHECK_COMMAND, binary));
    for (name, verdict, source) in SUBMISSIONS {
        files.push(PackageFile::text(format!("submissions/{verdict}/{name}"), source));
    }
    files.push(PackageFile::text("NOTES.md", notes(spec, &tests)));
    Ok(files)
}

/// What a judge host needs to run a Linux (ELF) binary that a package
/// ships: read from the binary's header, so that `package` can say so
/// before the judge finds out at its first test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostNeeds {
    /// The ELF machine number (`e_machine`): 62 for x86-64.
    pub machine: u16,
    /// Whether it is a 64-bit ELF (an x86-64 machine in a 32-bit ELF is
    /// x32, which few kernels run).
    pub wide: bool,
    /// The program interpreter (`PT_INTERP`) of a dynamically linked
    /// binary, which runs only where that loader and its libraries are.
    pub interpreter: Option<String>,
    /// The newest `GLIBC_` symbol version a dynamically linked binary
    /// asks for, as (major, minor): a host with an older C library
    /// refuses to start it.
    pub glibc: Option<(u32, u32)>,
}

/// ELF's machine number for x86-64, what judge hosts run.
const ELF_X86_64: u16 = 62;

impl HostNeeds {
    /// The needs of `binary`, or `None` when it is no program a Linux
    /// judge could start: not an ELF (a Windows or macOS build of this
    /// tool, which would be shipped as `tictactoe` and fail at the judge's
    /// first test), an ELF for another system, or no executable.
    pub fn of(binary: &[u8]) -> Option<HostNeeds> {
        let header = binary.get(..64)?;
        if !header.starts_with(b"\x7fELF") {
            return None;
        }
        let wide = match header[4] {
            1 => false,
            2 => true,
            _ => return None,
        };
        let little = match header[5] {
            1 => true,
            2 => false,
            _ => return None,
        };
        // System V or Linux (GNU): the ones Linux starts.
        if !matches!(header[7], 0 | 3) {
            return None;
        }
        let number = |at: u64, size: u64| -> Option<u64> {
            let start = usize::try_from(at).ok()?;
            let end = usize::try_from(at.checked_add(size)?).ok()?;
            let bytes = binary.get(start..end)?;
            let fold = |value: u64, &byte: &u8| value << 8 | u64::from(byte);
            Some(if little {
                bytes.iter().rev().fold(0, fold)
            } else {
                bytes.iter().fold(0, fold)
            })
        };
        // ET_EXEC, or ET_DYN (a position-independent executable).
        if !matches!(number(16, 2)?, 2 | 3) {
            return None;
        }
        let machine = u16::try_from(number(18, 2)?).ok()?;
        let (table, entry_size, entries) = if wide {
            (number(32, 8)?, number(54, 2)?, number(56, 2)?)
        } else {
            (number(28, 4)?, number(42, 2)?, number(44, 2)?)
        };
        // Where a program header keeps its type, and its segment's offset
        // and size in the file.
        let (offset_at, size_at, word) = if wide { (8, 32, 8) } else { (4, 16, 4) };
        const PT_INTERP: u64 = 3;
        // A header cut short reads as no interpreter: the kernel would
        // refuse such a file anyway.
        let interpreter = (0..entries).find_map(|index| {
            let at = table.checked_add(index * entry_size)?;
            if number(at, 4)? != PT_INTERP {
                return None;
            }
            let start = usize::try_from(number(at + offset_at, word)?).ok()?;
            let size = usize::try_from(number(at + size_at, word)?).ok()?;
            let path = binary.get(start..start.checked_add(size)?)?;
            let path = path.split(|&byte| byte == 0).next().unwrap_or_default();
            Some(String::from_utf8_lossy(path).into_owned())
        });
        let glibc = interpreter.as_ref().and_then(|_| newest_glibc(binary));
        Some(HostNeeds {
            machine,
            wide,
            interpreter,
            glibc,
        })
    }

    /// What a setter should know before uploading the package, on one
    /// line: `None` for a static x86-64 build, which any x86-64 Linux
    /// judge host runs.
    pub fn warning(&self) -> Option<String> {
        let (machine, cpu) = match (self.machine, self.wide) {
            (ELF_X86_64, true) => ("x86-64".to_owned(), None),
            (ELF_X86_64, false) => ("x32".to_owned(), Some("a kernel built to run x32 programs".to_owned())),
            (3, _) => ("32-bit x86".to_owned(), Some("support for 32-bit x86 programs".to_owned())),
            (40, _) => ("32-bit ARM".to_owned(), Some("an ARM CPU".to_owned())),
            (183, _) => ("aarch64".to_owned(), Some("an aarch64 CPU".to_owned())),
            (243, _) => ("RISC-V".to_owned(), Some("a RISC-V CPU".to_owned())),
            (other, _) => (
                format!("ELF machine {other}"),
                Some(format!("a CPU of ELF machine {other}")),
            ),
        };
        let mut needs: Vec<String> = cpu.into_iter().collect();
        if let Some(interpreter) = &self.interpreter {
            needs.push(match self.glibc {
                Some((major, minor)) => format!("glibc {major}.{minor} or newer"),
                None => format!("the C library its loader {interpreter} belongs to"),
            });
        }
        if needs.is_empty() {
            return None;
        }
        let linked = if self.interpreter.is_some() {
            "dynamically linked"
        } else {
            "static"
        };
        Some(format!(
            "this tictactoe is a {linked} {machine} program: the judge host needs {} to run \
             the package's validators, which ship it (without, every test fails); for any \
             x86-64 Linux host, run `package` with the static build (cargo judge-build), or \
             give --use-path to call the judge's own tictactoe",
            needs.join(" and ")
        ))
    }
}

/// The newest `GLIBC_major.minor` version named in `binary`: a
/// dynamically linked binary lists each version it needs among its
/// dynamic strings, each a string of its own (after a NUL).
fn newest_glibc(binary: &[u8]) -> Option<(u32, u32)> {
    const PREFIX: &[u8] = b"\0GLIBC_";
    memchr::memmem::find_iter(binary, PREFIX)
        .filter_map(|at| {
            let rest = binary.get(at + PREFIX.len()..)?;
            let end = rest.iter().position(|&byte| byte == 0)?;
            let version = std::str::from_utf8(&rest[..end]).ok()?;
            let mut parts = version.split('.').map(str::parse::<u32>);
            let (Some(Ok(major)), Some(Ok(minor))) = (parts.next(), parts.next()) else {
                return None;
            };
            parts.all(|part| part.is_ok()).then_some((major, minor))
        })
        .max()
}

/// The files as a zip, byte for byte the same for the same files on every
/// host: fixed times, files in the order given, run bits kept.
pub fn zip(files: &[PackageFile], out: impl Write + io::Seek) -> io::Result<()> {
    use zip::write::SimpleFileOptions;
    let mut archive = zip::ZipWriter::new(out);
    for file in files {
        let options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .last_modified_time(zip::DateTime::default())
            .unix_permissions(if file.executable { 0o755 } else { 0o644 })
            // Made by Unix wherever it is made: on Windows the crate marks
            // entries made by DOS, whose unpackers drop the run bits the
            // judge needs, and the bytes would differ by host.
            .system(zip::System::Unix);
        archive.start_file(file.path.as_str(), options).map_err(io::Error::other)?;
        archive.write_all(&file.bytes)?;
    }
    archive.finish().map_err(io::Error::other)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(judge: Judge) -> PackageSpec {
        PackageSpec {
            judge,
            seed: 1,
            time_limit: std::time::Duration::from_secs(3),
            use_path: false,
        }
    }

    #[test]
    fn the_same_settings_make_the_same_bytes_and_a_uuid_of_the_right_shape() {
        let kattis = spec(Judge::Kattis);
        assert_eq!(uuid(&kattis), uuid(&kattis));
        assert_ne!(uuid(&kattis), uuid(&spec(Judge::Icpc)));
        let id = uuid(&kattis);
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        let mut first = std::io::Cursor::new(Vec::new());
        let mut second = std::io::Cursor::new(Vec::new());
        let files = files(&spec(Judge::Domjudge), Some(b"binary")).expect("files");
        zip(&files, &mut first).expect("zip");
        zip(&files, &mut second).expect("zip");
        assert_eq!(first.into_inner(), second.into_inner());
    }

    /// A 64-bit little-endian executable ELF for `machine` with one
    /// program header of `program_type` (an interpreter's names
    /// `/lib64/ld-linux-x86-64.so.2`), then `strings`.
    fn elf(machine: u16, program_type: u32, strings: &[u8]) -> Vec<u8> {
        let mut binary = vec![0u8; 64 + 56];
        binary[..7].copy_from_slice(b"\x7fELF\x02\x01\x01");
        binary[16..18].copy_from_slice(&3u16.to_le_bytes());
        binary[18..20].copy_from_slice(&machine.to_le_bytes());
        binary[32..40].copy_from_slice(&64u64.to_le_bytes());
        binary[54..56].copy_from_slice(&56u16.to_le_bytes());
        binary[56..58].copy_from_slice(&1u16.to_le_bytes());
        binary[64..68].copy_from_slice(&program_type.to_le_bytes());
        let loader = b"/lib64/ld-linux-x86-64.so.2\0";
        let loader_at = binary.len() as u64;
        binary[72..80].copy_from_slice(&loader_at.to_le_bytes());
        binary[96..104].copy_from_slice(&(loader.len() as u64).to_le_bytes());
        binary.extend_from_slice(loader);
        binary.extend_from_slice(strings);
        binary
    }

    const LOAD: u32 = 1;
    const INTERP: u32 = 3;
    const VERSIONS: &[u8] =
        b"\0GLIBC_2.2.5\0GLIBC_2.34\0GLIBC_2.9\0GLIBC_PRIVATE\0GLIBC_2.\0see GLIBC_9.99\0";

    #[test]
    fn only_a_linux_program_is_one_judges_run() {
        assert!(HostNeeds::of(&elf(ELF_X86_64, LOAD, b"")).is_some());
        assert_eq!(HostNeeds::of(b"\x7fELF\x02\x01\x01"), None, "a header cut short");
        assert_eq!(HostNeeds::of(b"MZ\x90\x00"), None);
        assert_eq!(HostNeeds::of(&[0xcf, 0xfa, 0xed, 0xfe]), None);
        assert_eq!(HostNeeds::of(b""), None);
        let mut freebsd = elf(ELF_X86_64, LOAD, b"");
        freebsd[7] = 9;
        assert_eq!(HostNeeds::of(&freebsd), None, "another system's");
        let mut object = elf(ELF_X86_64, LOAD, b"");
        object[16] = 1;
        assert_eq!(HostNeeds::of(&object), None, "no executable");
    }

    #[test]
    fn a_static_x86_64_build_needs_nothing_said() {
        let needs = HostNeeds::of(&elf(ELF_X86_64, LOAD, VERSIONS)).expect("an ELF");
        assert_eq!(needs.interpreter, None);
        assert_eq!(needs.glibc, None, "a static build's own strings are not needs");
        assert_eq!(needs.warning(), None);
    }

    #[test]
    fn a_dynamic_build_is_told_the_newest_glibc_it_needs() {
        let needs = HostNeeds::of(&elf(ELF_X86_64, INTERP, VERSIONS)).expect("an ELF");
        assert_eq!(needs.interpreter.as_deref(), Some("/lib64/ld-linux-x86-64.so.2"));
        assert_eq!(needs.glibc, Some((2, 34)), "a version inside other text is none");
        let warning = needs.warning().expect("a warning");
        assert!(warning.starts_with("this tictactoe is a dynamically linked x86-64 program"));
        assert!(warning.contains("needs glibc 2.34 or newer to run"), "{warning}");
        assert!(warning.contains("cargo judge-build"), "{warning}");
        let other_library = HostNeeds::of(&elf(ELF_X86_64, INTERP, b"")).expect("an ELF");
        let warning = other_library.warning().expect("a warning");
        assert!(
            warning.contains("the C library its loader /lib64/ld-linux-x86-64.so.2 belongs to"),
            "{warning}"
        );
    }

    #[test]
    fn another_machines_build_is_named_with_what_it_needs() {
        let needs = HostNeeds::of(&elf(183, LOAD, b"")).expect("an ELF");
        let warning = needs.warning().expect("a warning");
        assert!(warning.starts_with("this tictactoe is a static aarch64 program"));
        assert!(warning.contains("needs an aarch64 CPU to run"), "{warning}");
        let needs = HostNeeds::of(&elf(183, INTERP, VERSIONS)).expect("an ELF");
        let warning = needs.warning().expect("a warning");
        assert!(warning.contains("needs an aarch64 CPU and glibc 2.34 or newer"), "{warning}");
        let x32 = HostNeeds {
            wide: false,
            ..HostNeeds::of(&elf(ELF_X86_64, LOAD, b"")).expect("an ELF")
        };
        let warning = x32.warning().expect("a warning");
        assert!(warning.starts_with("this tictactoe is a static x32 program"), "{warning}");
    }

    /// The binary these tests run in, read as `package` reads itself.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn this_test_binary_is_read_as_dynamically_linked_against_glibc() {
        let exe = std::env::current_exe().expect("this test binary");
        let needs = HostNeeds::of(&std::fs::read(exe).expect("read")).expect("an ELF");
        assert!(needs.interpreter.is_some());
        assert!(needs.glibc.is_some_and(|version| version >= (2, 2)), "{needs:?}");
    }

    /// On every host: a zip made on Windows once came out with entries
    /// made by DOS, and unpacked without their run bits.
    #[test]
    fn the_zips_entries_are_unix_ones_with_their_run_bits() {
        let files = files(&spec(Judge::Domjudge), Some(b"binary")).expect("files");
        assert!(files.iter().any(|file| file.executable));
        let mut zipped = std::io::Cursor::new(Vec::new());
        zip(&files, &mut zipped).expect("zip");
        let mut archive = zip::ZipArchive::new(zipped).expect("a zip");
        for file in &files {
            let entry = archive.by_name(file.path.as_str()).expect("entry");
            assert_eq!(entry.system(), zip::System::Unix, "{}", file.path);
            let mode = entry.unix_mode().expect("a Unix mode") & 0o777;
            assert_eq!(mode, if file.executable { 0o755 } else { 0o644 }, "{}", file.path);
        }
    }
}
