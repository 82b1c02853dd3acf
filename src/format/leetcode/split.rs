//! Where a LeetCode test case seems to start, for cutting a transcript into
//! parts that several threads can solve at once.
//!
//! A test case opens with its array of method names, `["TicTacToe"`, and
//! written the usual way each one starts a line. The transcript is cut
//! after the line feed before such a start ([`crate::format::cut`]), and
//! nothing else is read: whether a cut fell between two test cases is known
//! only once the part before it has been read whole without an error
//! (`pipeline::proven`).

use crate::format::cut::Cut;
use memchr::memmem::Finder;

/// What a cut is made before: a line that opens a test case.
const CASE_START: &[u8] = b"\n[\"TicTacToe\"";

/// Cuts before a line that opens a test case with `["TicTacToe"`.
pub struct CaseStart;

impl Cut for CaseStart {
    fn find(&self, bytes: &[u8], from: usize) -> Result<usize, usize> {
        // The line feed before a cut may be the byte before `from`.
        let lf_from = from.saturating_sub(1);
        let finder = Finder::new(CASE_START);
        match bytes.get(lf_from..).and_then(|bytes| finder.find(bytes)) {
            Some(found) => Ok(lf_from + found + 1),
            // A start cut off by the buffer's end is searched again.
            None => Err((bytes.len() + 2).saturating_sub(CASE_START.len()).max(from)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::coding_ninjas::split::MAX_PART_BYTES;
    use crate::format::cut::{parts_of, split_all};

    fn transcript(cases: usize) -> String {
        (0..cases)
            .map(|case| format!("[\"TicTacToe\",\"move\"]\r\n[[3],[{},0,1]]\r\n", case % 3))
            .collect()
    }

    #[test]
    fn parts_are_cut_where_a_test_case_starts_a_line_and_join_to_the_input() {
        let text = transcript(500);
        for part_bytes in [1, 10, 100, 4096, 1 << 20] {
            for part in parts_of(text.as_bytes(), part_bytes, CaseStart) {
                assert!(part.contents().starts_with(b"[\"TicTacToe\""), "parts of {part_bytes}");
            }
        }
    }

    #[test]
    fn a_case_start_cut_off_by_the_buffers_end_is_found_once_it_is_whole() {
        let text = transcript(2);
        let second = text.len() / 2;
        for end in second - 1..text.len() {
            let found = CaseStart.find(&text.as_bytes()[..end], 1);
            let again = match found {
                Ok(at) => {
                    assert_eq!(at, second);
                    continue;
                }
                Err(again) => again,
            };
            assert!(again <= second, "searched again from {again}, past the start at {second}");
            assert_eq!(CaseStart.find(text.as_bytes(), again), Ok(second));
        }
    }

    #[test]
    fn a_transcript_on_one_line_is_one_part() {
        let text = transcript(50).replace("\r\n", " ");
        let (parts, to_the_end) = split_all(text.as_bytes(), 10, CaseStart);
        assert!(to_the_end);
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].contents(), text.as_bytes());
    }

    #[test]
    fn a_run_without_a_case_start_longer_than_a_part_can_hold_is_left_to_the_stream() {
        let mut text = transcript(2);
        text.push_str(&" ".repeat(MAX_PART_BYTES + 10));
        text.push_str(&transcript(2));
        let (parts, to_the_end) = split_all(text.as_bytes(), 10, CaseStart);
        assert!(!to_the_end);
        let joined: Vec<u8> = parts.iter().flat_map(|part| part.contents().to_vec()).collect();
        assert!(text.as_bytes().starts_with(&joined));
        assert!(joined.len() >= MAX_PART_BYTES);
    }
}
