//! `completions`: scripts for bash, zsh, fish, PowerShell and Elvish that
//! know the subcommands; `man`: the manual page.

mod common;

use common::tictactoe;

use predicates::prelude::*;

#[test]
fn each_shell_gets_a_script_that_knows_the_subcommands_and_options() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef tictactoe"),
        ("fish", "complete -c tictactoe"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "set edit:completion:arg-completer[tictactoe]"),
    ] {
        tictactoe()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains(marker))
            .stdout(predicate::str::contains("convert"))
            .stdout(predicate::str::contains("after-win"))
            // The internal supervisor, hidden from --help, is not offered.
            .stdout(predicate::str::contains("supervise").not());
    }
}

/// The script for `shell`, written to a file in `dir`.
#[cfg(unix)]
fn script(shell: &str, dir: &std::path::Path) -> std::path::PathBuf {
    let output = tictactoe()
        .args(["completions", shell])
        .output()
        .expect("runs");
    assert!(output.status.success());
    let path = dir.join(format!("tictactoe.{shell}"));
    std::fs::write(&path, output.stdout).expect("script written");
    path
}

/// What the shell offers after `line` (words separated by single spaces;
/// the last one, maybe empty, is being completed), the first word of each.
#[cfg(unix)]
fn offered(shell: &str, script: &std::path::Path, line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split(' ').collect();
    let program = match shell {
        "bash" => format!(
            "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{line}'; \
             COMP_POINT=${{#COMP_LINE}}; _tictactoe tictactoe '{}' '{}'; \
             printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display(),
            words
                .iter()
                .map(|word| format!("'{word}'"))
                .collect::<Vec<_>>()
                .join(" "),
            words.len() - 1,
            words[words.len() - 1],
            words[words.len() - 2],
        ),
        _ => format!("source '{}'; complete -C '{line}'", script.display()),
    };
    let output = std::process::Command::new(shell)
        .args(["-c", &program])
        .current_dir(script.parent().expect("a folder"))
        .output()
        .unwrap_or_else(|error| panic!("{shell} runs (CI installs it): {error}"));
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split('\t').next())
        .map(str::to_owned)
        .collect()
}

/// Run in bash and fish themselves. fish's generated script once offered
/// files after a top-level option waiting for its value, and nothing for
/// `completions`' shells; zsh's took the first word for a top-level FILE
/// and never reached a subcommand.
#[cfg(unix)]
#[test]
fn bash_and_fish_offer_subcommands_their_options_and_the_options_values() {
    let dir = tempfile::tempdir().expect("temporary folder");
    for shell in ["bash", "fish"] {
        let script = script(shell, dir.path());
        let offers = |line: &str| offered(shell, &script, line);
        let has = |line: &str, wanted: &[&str]| {
            let found = offers(line);
            for word in wanted {
                assert!(
                    found.iter().any(|offer| offer == word),
                    "{shell}: {line:?} offers {found:?}, not {word}"
                );
            }
        };
        has("tictactoe ", &["validate", "check", "completions"]);
        has("tictactoe validate --m", &["--max-n", "--max-errors"]);
        has(
            "tictactoe check --protocol ",
            &["plain", "testlib", "kattis", "oj"],
        );
        has("tictactoe gen --format ", &["coding-ninjas", "leetcode"]);
        has("tictactoe --after-win ", &["error", "continue", "leetcode"]);
        has(
            "tictactoe completions ",
            &["bash", "zsh", "fish", "powershell", "elvish"],
        );
        assert!(
            !offers("tictactoe gen --format ")
                .iter()
                .any(|offer| offer == "auto"),
            "{shell}"
        );
    }
    // zsh: no top-level FILE before the subcommands.
    let zsh = std::fs::read_to_string(script("zsh", dir.path())).expect("script");
    let top = &zsh[..zsh.find(":: :_tictactoe_commands").expect("subcommands")];
    assert!(!top.contains("::files"), "{top}");
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    tictactoe()
        .args(["completions", "cmd.exe"])
        .assert()
        .code(2);
}

#[test]
fn the_manual_page_is_roff_naming_every_command() {
    let output = tictactoe().arg("man").output().expect("man runs");
    assert!(output.status.success());
    let page = String::from_utf8_lossy(&output.stdout);
    assert!(page.contains(".TH tictactoe 1"), "{page}");
    for command in ["validate", "check", "test", "stress", "package"] {
        assert!(page.contains(command), "{command} missing");
    }
    assert!(
        !page.contains("supervise"),
        "the internal command is listed"
    );
}

#[test]
fn every_page_the_manual_names_can_be_printed_and_no_other() {
    let output = tictactoe().arg("man").output().expect("man runs");
    let page = String::from_utf8_lossy(&output.stdout);
    let named: Vec<&str> = page
        .lines()
        .filter_map(|line| line.strip_prefix("tictactoe\\-")?.strip_suffix("(1)"))
        .collect();
    assert!(
        named.contains(&"solve") && named.contains(&"package"),
        "{named:?}"
    );
    for command in named {
        let own = tictactoe()
            .args(["man", command])
            .output()
            .expect("man runs");
        assert!(own.status.success(), "{command}");
        let own = String::from_utf8_lossy(&own.stdout);
        assert!(own.contains(&format!(".TH tictactoe-{command} 1")), "{own}");
        // The help's examples and exit statuses keep their lines: man(1)
        // would otherwise fill them into one paragraph. (`help` has none.)
        assert!(
            command == "help" || own.contains(".SH NOTES\n.nf\n"),
            "{own}"
        );
        assert!(!own.contains(".SH EXTRA"), "{own}");
        // No page names pages beneath it: there are none (clap's `help`
        // once listed tictactoe-help-solve(1) and the like).
        assert!(
            !own.contains(&format!("tictactoe\\-{command}\\-")),
            "{command}: {own}"
        );
    }
    let main = page
        .split(".SH NOTES\n.nf\n")
        .nth(1)
        .expect("notes kept as written");
    let notes = main.split("\n.fi\n").next().expect("notes end");
    assert!(
        notes.contains("their arguments\nOutput: one line per test case"),
        "{notes}"
    );
    for unknown in ["supervise", "bogus"] {
        tictactoe()
            .args(["man", unknown])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("the pages are for solve"));
    }
}
