//! The README as a user meets it: every shell example runs and prints what
//! the README says, and every page of Markdown renders with its headings.

// Unix only: the README's examples are bash command lines.
#![cfg(unix)]

mod common;

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Parser, Tag, TagEnd};
use snapbox::IntoData;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One fenced code block: its info string, its text and the line its fence
/// opens on.
struct CodeBlock {
    info: String,
    text: String,
    line: usize,
    closed: bool,
}

fn line_of(markdown: &str, offset: usize) -> usize {
    markdown[..offset].matches('\n').count() + 1
}

fn code_blocks(markdown: &str) -> Vec<CodeBlock> {
    let mut blocks = Vec::new();
    let mut current: Option<CodeBlock> = None;
    for (event, range) in Parser::new(markdown).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => "(indented)".to_string(),
                };
                // A fence that is never closed runs to the end of the page,
                // swallowing everything after it.
                let source = markdown[range.clone()].trim_end();
                let closed = source.lines().count() >= 2
                    && (source.ends_with("```") || source.ends_with("~~~"));
                current = Some(CodeBlock {
                    info,
                    text: String::new(),
                    line: line_of(markdown, range.start),
                    closed,
                });
            }
            Event::Text(text) => {
                if let Some(block) = current.as_mut() {
                    block.text.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(current.take()),
            _ => {}
        }
    }
    blocks
}

/// A command of a `console` block and the output the README shows for it.
struct Example {
    line: usize,
    command: String,
    expected: String,
}

/// Splits a `console` block into its commands: a line starting with `$ `
/// (continued on the next line after a trailing `\`), then its output.
fn examples(block: &CodeBlock) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut continued = false;
    for (index, text) in block.text.lines().enumerate() {
        let line = block.line + 1 + index;
        if continued {
            let example = found.last_mut().expect("a command is continued");
            example.command.push('\n');
            example.command.push_str(text);
            continued = text.ends_with('\\');
        } else if let Some(command) = text.strip_prefix("$ ") {
            found.push(Example {
                line,
                command: command.to_string(),
                expected: String::new(),
            });
            continued = command.ends_with('\\');
        } else {
            let example = found
                .last_mut()
                .unwrap_or_else(|| panic!("README.md line {line}: output before any `$ ` command"));
            example.expected.push_str(text);
            example.expected.push('\n');
        }
    }
    found
}

/// The program a command line runs: its first word after any leading
/// `NAME=value` assignments (a value may be a double-quoted string).
fn program(command: &str) -> &str {
    let mut rest = command.trim_start();
    loop {
        let name_length = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if name_length == 0 || !rest[name_length..].starts_with('=') {
            break;
        }
        let value = &rest[name_length + 1..];
        let value_length = match value.strip_prefix('"') {
            Some(quoted) => quoted.find('"').map_or(value.len(), |end| end + 2),
            None => value.find(char::is_whitespace).unwrap_or(value.len()),
        };
        rest = value[value_length..].trim_start();
    }
    rest.split_whitespace().next().unwrap_or("")
}

/// Runs `command` with bash in `dir`, as a user at a terminal sees it:
/// standard output and standard error in one stream, and whether it
/// succeeded.
fn run_in(dir: &Path, home: &Path, command: &str) -> (String, bool) {
    let binaries = common::binary()
        .parent()
        .expect("binary's folder")
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(binaries).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH joins");
    let (reader, writer) = std::io::pipe().expect("pipe");
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", home)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .stdin(Stdio::null())
        .stdout(writer.try_clone().expect("pipe clones"))
        .stderr(writer)
        .spawn()
        .expect("bash starts");
    let mut output = String::new();
    std::io::Read::read_to_string(&mut { reader }, &mut output).expect("output is text");
    let status = child.wait().expect("bash ends");
    (output, status.success())
}

#[test]
fn every_shell_example_in_the_readme_prints_what_the_readme_shows() {
    let readme = fs::read_to_string(repository().join("README.md")).expect("README.md");
    let ci = fs::read_to_string(repository().join(".ci/run")).expect(".ci/run");
    let work = tempfile::tempdir().expect("temporary folder");
    let home = work.path().join("home");
    let dir = work.path().join("clone");
    fs::create_dir_all(&home).expect("home");
    fs::create_dir_all(&dir).expect("folder");
    // The examples run in a clone of the repository: the files they name are
    // under fixtures/.
    std::os::unix::fs::symlink(repository().join("fixtures"), dir.join("fixtures"))
        .expect("fixtures link");

    let mut ran = 0;
    let mut failures = Vec::new();
    for block in code_blocks(&readme) {
        match block.info.as_str() {
            "console" => {}
            "text" | "rust" => continue,
            other => panic!(
                "README.md line {}: a code block marked {other:?}: shell examples are `console` \
                 blocks (run by this test), anything else `text` or `rust`",
                block.line
            ),
        }
        for example in examples(&block) {
            if program(&example.command) == "cargo" {
                // Building and installing cannot run inside `cargo test`
                // (the build folder is locked): CI runs these lines as
                // written.
                assert!(
                    ci.lines().any(|line| line.trim() == example.command),
                    "README.md line {}: `{}` is not run by .ci/run",
                    example.line,
                    example.command
                );
                continue;
            }
            let (actual, _) = run_in(&dir, &home, &example.command);
            ran += 1;
            let name = format!("README.md line {}: $ {}", example.line, example.command);
            if let Err(difference) = snapbox::Assert::new().try_eq(
                Some(&name),
                actual.into_data(),
                example.expected.clone().into_data(),
            ) {
                failures.push(format!("{name}\n{difference}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 30, "only {ran} examples found in README.md");
}

/// Every Markdown page of the repository.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![repository().join("README.md")];
    for dir in ["docs", "fixtures/judges"] {
        for entry in fs::read_dir(repository().join(dir)).expect("folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|extension| extension == "md") {
                pages.push(path);
            }
        }
    }
    pages
}

#[test]
fn every_page_of_markdown_renders_with_its_headings_intact() {
    for page in pages() {
        let markdown = fs::read_to_string(&page).expect("page");
        let name = page
            .strip_prefix(repository())
            .unwrap_or(&page)
            .display()
            .to_string();
        for block in code_blocks(&markdown) {
            assert!(
                block.closed,
                "{name} line {}: a code block that is never closed swallows the rest of the page",
                block.line
            );
        }
        let mut rendered = Vec::new();
        for (event, range) in Parser::new(&markdown).into_offset_iter() {
            if let Event::Start(Tag::Heading { level, .. }) = event
                && level <= HeadingLevel::H4
            {
                rendered.push(line_of(&markdown, range.start));
            }
        }
        // The headings as written: `#` lines outside fences, pairing each
        // fence with the next as a writer reads them. A fence left open, or
        // closed by an opening fence (one with an info string, which in
        // Markdown opens nothing but shows as text), makes the two differ.
        let mut in_fence = false;
        let mut written = Vec::new();
        for (index, line) in markdown.lines().enumerate() {
            if line.starts_with("```") {
                in_fence = !in_fence;
                continue;
            }
            let hashes = line.len() - line.trim_start_matches('#').len();
            if !in_fence && (1..=4).contains(&hashes) && line[hashes..].starts_with(' ') {
                written.push(index + 1);
            }
        }
        assert_eq!(
            rendered, written,
            "{name}: the lines that render as headings differ from the lines written as headings"
        );
    }
}

/// The examples at the end of a command's `--help`: the lines indented by
/// two spaces after a line that introduces them.
fn help_examples(help: &str) -> Vec<String> {
    let mut examples = Vec::new();
    let mut in_examples = false;
    for line in help.lines() {
        if line.starts_with("Example") || line.starts_with("A setter's path") {
            in_examples = true;
        } else if line.trim().is_empty() {
            in_examples = false;
        } else if in_examples && line.starts_with("  ") && !line.starts_with("   ") {
            examples.push(line.trim().to_string());
        }
    }
    examples
}

#[test]
fn every_help_example_works_in_an_empty_folder() {
    let work = tempfile::tempdir().expect("temporary folder");
    let home = work.path().join("home");
    // What the completions' help says must exist.
    for dir in [
        ".local/share/bash-completion/completions",
        ".zfunc",
        ".config/fish/completions",
        ".config/elvish/lib",
        ".local/share/man/man1",
    ] {
        fs::create_dir_all(home.join(dir)).expect("home folder");
    }
    let mut ran = 0;
    for command in [
        "solve",
        "validate",
        "check",
        "convert",
        "trace",
        "gen",
        "test",
        "stress",
        "package",
        "completions",
        "man",
    ] {
        let help = common::tictactoe()
            .args([command, "--help"])
            .output()
            .expect("help");
        let help = String::from_utf8(help.stdout).expect("help is text");
        let examples = help_examples(&help);
        assert!(!examples.is_empty(), "`{command} --help` has no examples");
        let dir = work.path().join(command);
        fs::create_dir_all(&dir).expect("folder");
        // `sol.py` stands for the user's solution: a correct one.
        fs::copy(
            repository().join("src/judging/package/submissions/counters.py"),
            dir.join("sol.py"),
        )
        .expect("solution");
        for example in examples {
            // The judges' tools and man(1) are tried elsewhere
            // (tests/package.rs) or not at all.
            if example.starts_with("verifyproblem") || example.contains("man -l") {
                continue;
            }
            let (output, succeeded) = run_in(
                &dir,
                &home,
                &format!("PROFILE=\"$HOME/profile.ps1\"; set -o pipefail; {example}"),
            );
            assert!(
                succeeded && !output.contains("error"),
                "`{command} --help`: `{example}` fails in an empty folder:\n{output}"
            );
            ran += 1;
        }
    }
    assert!(ran >= 20, "only {ran} help examples ran");
}
