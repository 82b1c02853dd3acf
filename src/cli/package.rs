//! `package`: a complete problem package for a judge in one command.

use crate::error::Error;
use crate::files::{Output, OutputTarget};
use crate::judging::package::{self, Judge, PackageFile, PackageSpec};
use super::parse_seconds;
use clap::{Args, ValueEnum};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub(super) const PACKAGE_HELP: &str = "\
Writes Design Tic-Tac-Toe as a problem package for a judge: its configuration,
a statement, sample and secret test data (built and generated from --seed, so
the same command rebuilds the same bytes; NOTES.md says how each file was made
and which mistakes it targets), an input validator and an output validator
that run this binary with the statement's bounds and format pinned, and
accepted and wrong-answer submissions (C++ and Python).

  kattis    the legacy Kattis format, a folder (problemtools' verifyproblem)
  icpc      the ICPC problem package format 2025-09, a folder (BAPCtools' bt)
  domjudge  a zip for DOMjudge's problem import, with domjudge-problem.ini

By default a copy of this binary ships inside each validator, with `build` and
`run` scripts that still work when an import flattens the folder and keeps the
run bit only on those two (DOMjudge does). Build the copy for the judge host:
a static x86-64 Linux binary (cargo judge-build) runs on any x86-64 judge; a
dynamically linked one, or one for another CPU, ships with a warning naming
what the host needs (the newest glibc it asks for); a build that is no Linux
program (Windows, macOS) refuses to ship itself. --use-path writes scripts
that call `tictactoe` on the judge's PATH instead.

problem.yaml names `the problem setter` as rights owner and credits, under
cc0, and a UUID made from the seed and the judge: edit them to yours, and use
another --seed for another problem from the same tool.

A setter's path:
  tictactoe package --judge kattis tictactoe    # make it
  verifyproblem tictactoe    # inspect it (problemtools)
  tictactoe package --judge domjudge tictactoe.zip    # for DOMjudge: Problems > Import

Exit status: 0 written, 2 usage error (a non-empty DIR without --force), 74 an
I/O error.";

#[derive(Debug, Args)]
pub(super) struct PackageArgs {
    /// Where the package goes: a folder (kattis, icpc; its name is the
    /// problem's short name) or a zip file (domjudge).
    dir: PathBuf,
    /// The judge the package is for.
    #[arg(long, value_enum)]
    judge: JudgeArg,
    /// The seed of the built and generated test data.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The time limit in seconds, where the format states one (icpc's
    /// problem.yaml, domjudge's ini; Kattis derives its own from the
    /// accepted submissions).
    #[arg(long, value_name = "SECS", default_value = "3", value_parser = parse_seconds)]
    time_limit: Duration,
    /// Validators call `tictactoe` on the judge's PATH; no binary is shipped.
    #[arg(long)]
    use_path: bool,
    /// Replace a non-empty DIR or an existing zip.
    #[arg(long)]
    force: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum JudgeArg {
    /// The legacy Kattis problem package format (problemtools).
    Kattis,
    /// The ICPC problem package format 2025-09 (BAPCtools).
    Icpc,
    /// A zip for DOMjudge's import.
    Domjudge,
}

/// Settings for `package`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageConfig {
    /// What decides the bytes.
    pub spec: PackageSpec,
    /// The folder or zip written.
    pub dir: PathBuf,
    /// Whether what is there may be replaced.
    pub force: bool,
}

/// Writes the package; says where on `output`, and on `warnings` what the
/// judge host needs to run the binary it ships.
pub fn run(
    config: &PackageConfig,
    mut output: impl Write,
    mut warnings: impl Write,
) -> Result<u8, Error> {
    let target = &config.dir;
    let folder = config.spec.judge != Judge::Domjudge;
    if folder {
        check_folder(target)?;
    }
    if !folder && target.is_dir() {
        return Err(Error::Usage(format!(
            "{} is a folder; a DOMjudge package is one zip file: name it, such as {}",
            target.display(),
            target.join("tictactoe.zip").display()
        )));
    }
    let occupied = match config.spec.judge {
        Judge::Domjudge => target.exists(),
        _ => fs::read_dir(target).is_ok_and(|mut entries| entries.next().is_some()),
    };
    if occupied && !config.force {
        return Err(Error::Usage(format!(
            "{} {}: choose another place, or --force to replace it",
            target.display(),
            if folder { "is not empty" } else { "exists" }
        )));
    }
    let binary = if config.spec.use_path {
        None
    } else {
        let exe = std::env::current_exe().map_err(|source| Error::Process {
            what: "find this binary to ship it",
            source,
        })?;
        let binary = fs::read(&exe).map_err(|source| Error::Open { path: exe, source })?;
        let Some(needs) = package::HostNeeds::of(&binary) else {
            return Err(Error::Usage(
                "this tictactoe is no Linux program, and judges run Linux: run \
                 `package` with a Linux build (cargo judge-build), or give --use-path \
                 to call the judge's own tictactoe"
                    .into(),
            ));
        };
        if let Some(warning) = needs.warning() {
            // A warning lost to a closed standard error changes nothing shipped.
            let _ = writeln!(warnings, "warning: {warning}");
        }
        Some(binary)
    };
    let files = package::files(&config.spec, binary.as_deref())?;
    match config.spec.judge {
        Judge::Domjudge => {
            if let Some(parent) = target.parent().filter(|parent| !parent.as_os_str().is_empty()) {
                fs::create_dir_all(parent).map_err(|source| Error::CreateOutput {
                    path: parent.to_path_buf(),
                    source,
                })?;
            }
            let mut zipped = std::io::Cursor::new(Vec::new());
            package::zip(&files, &mut zipped).map_err(Error::Write)?;
            let mut out = Output::create(&OutputTarget::Path(target.clone()), &[])?;
            out.write_all(zipped.get_ref()).map_err(Error::Write)?;
            out.finish()?;
        }
        Judge::Kattis | Judge::Icpc => write_folder(target, &files)?,
    }
    writeln!(
        output,
        "wrote {} ({} files)",
        target.display(),
        files.len()
    )
    .map_err(Error::Write)?;
    Ok(0)
}

/// Refuses a folder that cannot be the package: a file, a name the
/// formats refuse as a problem's short name, or the folder the command runs
/// in or one above it (replacing it would pull the ground from under the
/// new package).
fn check_folder(target: &Path) -> Result<(), Error> {
    if target.exists() && !target.is_dir() {
        return Err(Error::Usage(format!(
            "{} is a file; the package is a folder",
            target.display()
        )));
    }
    let absolute = std::path::absolute(target).map_err(|source| Error::CreateOutput {
        path: target.to_path_buf(),
        source,
    })?;
    // `a/./b/..` spelled out, so that `.` and `..` are seen for what they name.
    let mut plain = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                plain.pop();
            }
            part => plain.push(part),
        }
    }
    let here = std::env::current_dir().ok();
    if here.as_deref().is_some_and(|here| here.starts_with(&plain))
        || fs::canonicalize(target)
            .ok()
            .zip(here.and_then(|here| fs::canonicalize(here).ok()))
            .is_some_and(|(real, here)| here.starts_with(real))
    {
        return Err(Error::Usage(format!(
            "{} holds the current folder; write the package somewhere below it",
            target.display()
        )));
    }
    let name = plain
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
        return Err(Error::Usage(format!(
            "the folder's name {name:?} is the problem's short name, which the formats want \
             in lowercase letters and digits only (tictactoe, ttt348)"
        )));
    }
    Ok(())
}

/// Writes the files into a fresh folder beside `target`, then puts it in
/// `target`'s place: the old folder moves aside first and goes only once the
/// new one is in, so a failure leaves what was there.
fn write_folder(target: &Path, files: &[PackageFile]) -> Result<(), Error> {
    // Declared first, dropped last: an interruption waits until the
    // temporary folders are renamed or removed.
    let _held = crate::files::SignalsHeld::hold();
    let create = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::CreateOutput { path, source }
    };
    let parent = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(create(&parent))?;
    let fresh = tempfile::Builder::new()
        .prefix(".tictactoe-package")
        .tempdir_in(&parent)
        .map_err(create(&parent))?;
    for file in files {
        let path = fresh.path().join(&file.path);
        if let Some(folder) = path.parent() {
            fs::create_dir_all(folder).map_err(create(folder))?;
        }
        fs::write(&path, &file.bytes).map_err(create(&path))?;
        #[cfg(unix)]
        if file.executable {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).map_err(create(&path))?;
        }
    }
    swap_in(fresh, target, &parent, &mut |from, to| fs::rename(from, to))
}

/// Puts the finished package `fresh` at `target`, in `parent`, through
/// `rename`: what was there is moved aside first and removed last.
fn swap_in(
    fresh: tempfile::TempDir,
    target: &Path,
    parent: &Path,
    rename: &mut dyn FnMut(&Path, &Path) -> io::Result<()>,
) -> Result<(), Error> {
    let create = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::CreateOutput { path, source }
    };
    // Both folders stay temporary (removed when dropped) until the swap is
    // done, so that a failure leaves nothing behind but what was there.
    let aside = if target.exists() {
        let aside = tempfile::Builder::new()
            .prefix(".tictactoe-package-old")
            .tempdir_in(parent)
            .map_err(create(parent))?;
        rename(target, &aside.path().join("old")).map_err(create(target))?;
        Some(aside)
    } else {
        None
    };
    if let Err(source) = rename(fresh.path(), target) {
        if let Some(aside) = aside {
            // Put back what was there; if even that fails, it is kept
            // where it was moved, and the message says where.
            let old = aside.path().join("old");
            if let Err(again) = rename(&old, target) {
                let kept = aside.keep().join("old");
                return Err(Error::CreateOutput {
                    path: target.to_path_buf(),
                    source: io::Error::new(
                        source.kind(),
                        format!(
                            "{source}; what was there could not be put back ({again}) \
                             and is kept in {}",
                            kept.display()
                        ),
                    ),
                });
            }
        }
        return Err(Error::CreateOutput {
            path: target.to_path_buf(),
            source,
        });
    }
    // Renamed away: nothing left for its guard to remove.
    let _ = fresh.keep();
    if let Some(aside) = aside {
        let path = aside.path().to_path_buf();
        aside.close().map_err(create(&path))?;
    }
    Ok(())
}

/// `DIR/.` and `DIR/` named as `DIR` (renaming a path that ends in `.`
/// fails), but a link so named is the folder it points to, as `link/` is
/// in a shell: the package replaces that folder, not the link.
fn plain_folder(dir: PathBuf) -> PathBuf {
    let plain: PathBuf = dir.components().collect();
    let spelled_as_folder = plain.as_os_str() != dir.as_os_str();
    let link = fs::symlink_metadata(&plain).is_ok_and(|meta| meta.file_type().is_symlink());
    if spelled_as_folder
        && link
        && let Ok(real) = fs::canonicalize(&dir)
    {
        return real;
    }
    plain
}

impl PackageArgs {
    pub(super) fn into_config(self) -> Result<PackageConfig, Error> {
        if self.time_limit.is_zero() {
            return Err(Error::Usage("--time-limit must be more than 0".into()));
        }
        Ok(PackageConfig {
            spec: PackageSpec {
                judge: match self.judge {
                    JudgeArg::Kattis => Judge::Kattis,
                    JudgeArg::Icpc => Judge::Icpc,
                    JudgeArg::Domjudge => Judge::Domjudge,
                },
                seed: self.seed,
                time_limit: self.time_limit,
                use_path: self.use_path,
            },
            dir: plain_folder(self.dir),
            force: self.force,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A package folder with one file saying `text`, in `parent`.
    fn folder_saying(parent: &Path, text: &str) -> tempfile::TempDir {
        let folder = tempfile::Builder::new()
            .prefix(".tictactoe-package")
            .tempdir_in(parent)
            .expect("folder");
        fs::write(folder.path().join("NOTES.md"), text).expect("file");
        folder
    }

    /// A folder holding an old package at `tictactoe`, that path, and a new
    /// package beside it.
    fn an_old_package_and_a_new_one() -> (tempfile::TempDir, PathBuf, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("temp dir");
        let target = dir.path().join("tictactoe");
        fs::create_dir(&target).expect("folder");
        fs::write(target.join("NOTES.md"), "old").expect("file");
        let fresh = folder_saying(dir.path(), "new");
        (dir, target, fresh)
    }

    /// Renames, but the calls numbered in `failing` (from 1) fail.
    fn failing_renames(failing: &'static [usize]) -> impl FnMut(&Path, &Path) -> io::Result<()> {
        let mut calls = 0;
        move |from, to| {
            calls += 1;
            if failing.contains(&calls) {
                return Err(io::Error::other("refused for the test"));
            }
            fs::rename(from, to)
        }
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("folder")
            .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_failed_swap_puts_back_what_was_there_and_leaves_nothing_beside_it() {
        let (dir, target, fresh) = an_old_package_and_a_new_one();
        let swapped = swap_in(fresh, &target, dir.path(), &mut failing_renames(&[2]));
        assert!(swapped.is_err());
        assert_eq!(fs::read_to_string(target.join("NOTES.md")).expect("kept"), "old");
        assert_eq!(names_in(dir.path()), ["tictactoe"]);
    }

    /// Until this test's fix, the old package went with the temporary
    /// folder it had been moved into.
    #[test]
    fn what_cannot_be_put_back_is_kept_and_named() {
        let (dir, target, fresh) = an_old_package_and_a_new_one();
        let swapped = swap_in(fresh, &target, dir.path(), &mut failing_renames(&[2, 3]));
        let message = swapped.expect_err("the swap fails").to_string();
        let kept = message
            .rsplit_once("is kept in ")
            .map(|(_, kept)| PathBuf::from(kept))
            .expect("the message names where");
        assert_eq!(fs::read_to_string(kept.join("NOTES.md")).expect("kept"), "old");
        assert!(!target.exists());
    }

    #[test]
    fn a_swap_replaces_what_was_there_and_leaves_nothing_beside_it() {
        let (dir, target, fresh) = an_old_package_and_a_new_one();
        swap_in(fresh, &target, dir.path(), &mut failing_renames(&[])).expect("swapped");
        assert_eq!(fs::read_to_string(target.join("NOTES.md")).expect("new"), "new");
        assert_eq!(names_in(dir.path()), ["tictactoe"]);
    }
}
