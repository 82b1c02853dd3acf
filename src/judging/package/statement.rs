//! The problem statement in this project's own words, written once and
//! rendered as LaTeX (the Kattis and ICPC formats) or HTML (DOMjudge).

use crate::game::Limits;

/// The statement's parts: a title, then sections of paragraphs. Math is
/// between `$` signs, in the few TeX commands [`html_math`] knows.
struct Statement {
    title: &'static str,
    sections: Vec<(Option<&'static str>, Vec<String>)>,
}

fn statement(limits: &Limits) -> Statement {
    Statement {
        title: "Design Tic-Tac-Toe",
        sections: vec![
            (
                None,
                vec![
                    "Two players, player 1 (X) and player 2 (O), take turns putting their \
                     marks on empty cells of an $N \\times N$ board. A player wins by \
                     filling a whole row, a whole column, or one of the two diagonals \
                     with marks of their own."
                        .into(),
                    "For every move, report the number of the player who made it if that \
                     move wins the game, and $0$ otherwise. Once a game is won, no more \
                     moves are made in it. A game may also end without a winner, with the \
                     board full (a draw) or not."
                        .into(),
                ],
            ),
            (
                Some("Input"),
                vec![
                    format!(
                        "The first line holds the number of test cases $T$ \
                         (${} \\le T \\le {}$). Each test case starts with a line holding \
                         the board size $N$ (${} \\le N \\le {}$) and a line holding the \
                         number of moves $Q$ (${} \\le Q \\le N^2$). Then come $Q$ lines, \
                         one move each: three integers $r$, $c$ and $p$, the row and the \
                         column of the cell ($0 \\le r, c < N$) and the player ($p$ is $1$ \
                         or $2$).",
                        limits.min_t,
                        limits.max_t,
                        // 5 <= Q <= N x N leaves no smaller board.
                        limits.smallest_playable_n().max(limits.min_n),
                        limits.max_n,
                        limits.min_q
                    ),
                    "Every move is to an empty cell, the players alternate (either may move \
                     first), and no move follows a win."
                        .into(),
                ],
            ),
            (
                Some("Output"),
                vec![
                    "For each test case, print one line with $Q$ integers separated by \
                     single spaces: for each move in order, the number of the player who \
                     made it if the move wins the game, and $0$ if it does not."
                        .into(),
                ],
            ),
        ],
    }
}

/// The statement as a Kattis / ICPC `problem.en.tex`.
pub fn latex(limits: &Limits) -> String {
    let statement = statement(limits);
    let mut text = format!("\\problemname{{{}}}\n\n", statement.title);
    for (heading, paragraphs) in &statement.sections {
        if let Some(heading) = heading {
            text.push_str(&format!("\\section*{{{heading}}}\n\n"));
        }
        for paragraph in paragraphs {
            text.push_str(paragraph);
            text.push_str("\n\n");
        }
    }
    text
}

/// The statement as a page of HTML, DOMjudge's `problem.html`, with the
/// samples shown.
pub fn html(limits: &Limits, samples: &[(String, String)]) -> String {
    let statement = statement(limits);
    let mut text = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\">\
         <title>{0}</title></head>\n<body>\n<h1>{0}</h1>\n",
        statement.title
    );
    for (heading, paragraphs) in &statement.sections {
        if let Some(heading) = heading {
            text.push_str(&format!("<h2>{heading}</h2>\n"));
        }
        for paragraph in paragraphs {
            text.push_str(&format!("<p>{}</p>\n", html_math(paragraph)));
        }
    }
    for (number, (input, answer)) in samples.iter().enumerate() {
        text.push_str(&format!(
            "<h2>Sample {}</h2>\n<h3>Input</h3>\n<pre>{}</pre>\n<h3>Output</h3>\n<pre>{}</pre>\n",
            number + 1,
            escape_html(input),
            escape_html(answer)
        ));
    }
    text.push_str("</body>\n</html>\n");
    text
}

/// A paragraph's TeX math as HTML: the `$` signs dropped, the commands
/// written as characters.
fn html_math(paragraph: &str) -> String {
    let text = escape_html(paragraph);
    let mut html = String::new();
    for (index, piece) in text.split('$').enumerate() {
        if index % 2 == 1 {
            let math = piece
                .replace("\\times", "×")
                .replace("\\le", "≤")
                .replace("N^2", "N²");
            html.push_str(&format!("<i>{math}</i>"));
        } else {
            html.push_str(piece);
        }
    }
    html
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_renderings_state_the_bounds_and_the_rule_after_a_win() {
        let limits = Limits::STATEMENT;
        let tex = latex(&limits);
        assert!(tex.starts_with("\\problemname{Design Tic-Tac-Toe}"));
        assert!(tex.contains("$1 \\le T \\le 100$") && tex.contains("no move follows a win"));
        let page = html(&limits, &[("1\n".into(), "0\n".into())]);
        assert!(page.contains("<i>1 ≤ T ≤ 100</i>") && page.contains("<i>0 ≤ r, c &lt; N</i>"));
        assert!(!page.contains('$') && !page.contains("\\le"));
    }
}
