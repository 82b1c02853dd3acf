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
