//! Solving a LeetCode transcript, as one stream or across cores.
//!
//! Across cores, the splitter ([`crate::format::leetcode::split`]) cuts the
//! transcript where a test case starts a line. Part k goes to worker k mod
//! W, and the parts' lines are written in input order, as
//! [`crate::pipeline::parallel`] does with Coding Ninjas files. A part's reading
//! that fails proves nothing about where the error is (the cut before or
//! after it may have fallen inside a test case), so its output is dropped
//! and the input is read again from the part's start as one stream, with
//! case numbers and positions counted from the input's start: the output
//! and the error are the streaming reader's exactly. Parts read whole
//! prove their cuts: each starts where the part before it ended at the top
//! level of the transcript, as the streaming reader would have gone on.

use crate::error::{Error, InputName};
use crate::format::bytes::Chunks;
use crate::format::leetcode::read::{MoveBatch, Reader};
use crate::format::leetcode::split::{Next, Part, Splitter};
use crate::format::lines::BATCH;
use crate::format::write::ResultWriter;
use crate::game::{BoardSize, TicTacToe};
use crate::pipeline::parallel::{IN_FLIGHT_BYTES, Ordered, Split, worker_lost};
use std::io::{self, Read, Write};

/// A part solved: its output, its buffer back, and how many test cases it
/// held, or `None` if its reading failed.
struct Solved {
    part: Part,
    output: Vec<u8>,
    cases: Option<u64>,
}

/// Solves a LeetCode transcript, on several threads when it is long enough
/// to split, writing one line per completed test case: the same output and
/// errors as reading it as one stream.
pub fn solve<W: Write>(
    input: impl Read,
    name: InputName,
    game: &mut TicTacToe,
    output: &mut W,
    split: Split,
) -> Result<(), Error> {
    let mut writer = ResultWriter::leetcode(output);
    let solved = solve_into(input, name, game, &mut writer, split);
    let finished = writer.finish().map_err(Error::Write);
    solved.and(finished)
}

/// [`solve`] onto a writer of result lines.
fn solve_into<R: Read, W: Write>(
    input: R,
    name: InputName,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W, true>,
    split: Split,
) -> Result<(), Error> {
    if split.workers == 1 {
        return solve_cases(&mut Reader::new(input, name), game, writer);
    }
    let mut splitter = Splitter::new(input, split.part_bytes);
    let first = match splitter.next_part(Vec::new()) {
        // One part (most judges' files): solved here, with no thread started.
        Next::Part(part) if part.last => {
            let start = part.start;
            let chunks = Chunks::of_bytes(part.bytes, part.len, start);
            return solve_cases(&mut Reader::of_chunks(chunks, name, 0), game, writer);
        }
        Next::Rest(rest) => {
            let stream = rest.into_stream().chain(splitter.into_input());
            return solve_cases(&mut Reader::new(stream, name), game, writer);
        }
        Next::Part(first) => first,
    };
    let workers = split.workers();
    if workers < 2 {
        return solve_cases(&mut Reader::new(unsplit(first, splitter), name), game, writer);
    }
    let rules = game.rules();
    let worker = || {
        let mut game = TicTacToe::with_rules(BoardSize::MIN, rules);
        let mut writer = ResultWriter::leetcode(Vec::new());
        let name = &name;
        move |(part, output): (Part, Vec<u8>)| solve_part(part, output, name, &mut game, &mut writer)
    };
    std::thread::scope(|scope| {
        let Some(workers) = Ordered::start(scope, workers, &worker) else {
            // No thread could be started: the same output, read as one stream.
            let stream = unsplit(first, splitter);
            return solve_cases(&mut Reader::new(stream, name.clone()), game, writer);
        };
        let mut parts = Parts {
            workers,
            spare_bytes: Vec::new(),
            spare_outputs: Vec::new(),
            bytes_sent: 0,
            cases: 0,
        };
        let mut next = Next::Part(first);
        let stop = loop {
            let part = match next {
                Next::Part(part) => part,
                Next::Rest(rest) => break Stop::Rest(rest),
            };
            let last = part.last;
            if let Err(stop) = parts.hand_out(part, writer) {
                break stop;
            }
            if last {
                break Stop::End;
            }
            next = splitter.next_part(parts.spare_bytes.pop().unwrap_or_default());
        };
        // The parts still in hand, written in order up to one that failed.
        let (failed, unsent, rest) = match stop {
            Stop::Error(error) => return Err(error),
            Stop::End => match parts.write_all(writer)? {
                None => return Ok(()),
                Some(failed) => (failed, None, None),
            },
            Stop::Rest(rest) => match parts.write_all(writer)? {
                None => {
                    let start = rest.start;
                    let stream = rest.into_stream().chain(splitter.into_input());
                    let chunks = Chunks::resume(stream, start);
                    let mut reader = Reader::of_chunks(chunks, name.clone(), parts.cases);
                    return solve_cases(&mut reader, game, writer);
                }
                Some(failed) => (failed, None, Some(rest)),
            },
            Stop::Failed { failed, unsent } => (*failed, unsent, None),
        };
        // From the part that failed on, one stream: its bytes, those of the
        // parts after it (with the workers, then the one not handed out),
        // what the splitter holds, and the input's rest.
        let start = failed.start;
        let mut bytes = failed.contents().to_vec();
        while parts.workers.pending() {
            let solved = parts.workers.receive().ok_or_else(worker_lost)?;
            bytes.extend_from_slice(solved.part.contents());
        }
        if let Some(unsent) = unsent {
            bytes.extend_from_slice(unsent.contents());
        }
        let input = match rest {
            Some(rest) => {
                bytes.extend_from_slice(rest.contents());
                splitter.into_input()
            }
            None => {
                let (buffered, input) = splitter.into_rest();
                bytes.extend_from_slice(buffered.contents());
                input
            }
        };
        let chunks = Chunks::resume(io::Cursor::new(bytes).chain(input), start);
        solve_cases(&mut Reader::of_chunks(chunks, name.clone(), parts.cases), game, writer)
    })
}

/// The input from its first part on, as one stream again.
fn unsplit<R: Read>(first: Part, splitter: Splitter<R>) -> impl Read {
    let (buffered, input) = splitter.into_rest();
    first.into_stream().chain(buffered.into_stream()).chain(input)
}

/// Why handing out parts stopped.
enum Stop {
    /// The last part is handed out.
    End,
    /// The splitter stopped: what it held, for the streaming reader.
    Rest(Part),
    /// A part's reading failed: that part. The parts after it are still
    /// with the workers, but for one not yet handed out, if any.
    Failed {
        /// The part that failed.
        failed: Box<Part>,
        /// The part that was being handed out when the failure was found.
        unsent: Option<Box<Part>>,
    },
    /// Writing failed, or a worker stopped.
    Error(Error),
}

/// The workers and the buffers that come back from them.
struct Parts {
    workers: Ordered<(Part, Vec<u8>), Solved>,
    spare_bytes: Vec<Vec<u8>>,
    spare_outputs: Vec<Vec<u8>>,
    /// The bytes of the parts handed out and not yet written.
    bytes_sent: usize,
    /// Test cases written.
    cases: u64,
}

impl Parts {
    /// Hands a part to the next worker, first writing the oldest parts'
    /// lines while the workers have as many as they may hold, or the parts
    /// in hand hold enough memory.
    fn hand_out<W: Write>(&mut self, part: Part, writer: &mut ResultWriter<W, true>) -> Result<(), Stop> {
        while !self.workers.has_room() || (self.workers.pending() && self.bytes_sent + part.len > IN_FLIGHT_BYTES) {
            let solved = self.workers.receive().ok_or_else(|| Stop::Error(worker_lost()))?;
            match self.write(solved, writer) {
                Ok(()) => {}
                // The part in hand follows the failed one and those with the workers.
                Err(Stop::Failed { failed, .. }) => {
                    return Err(Stop::Failed {
                        failed,
                        unsent: Some(Box::new(part)),
                    });
                }
                Err(stop) => return Err(stop),
            }
        }
        self.bytes_sent += part.len;
        let output = self.spare_outputs.pop().unwrap_or_default();
        if !self.workers.send((part, output)) {
            return Err(Stop::Error(worker_lost()));
        }
        Ok(())
    }

    /// Writes a solved part's lines, or stops at a part that failed.
    fn write<W: Write>(&mut self, solved: Solved, writer: &mut ResultWriter<W, true>) -> Result<(), Stop> {
        self.bytes_sent -= solved.part.len;
        let Some(cases) = solved.cases else {
            return Err(Stop::Failed {
                failed: Box::new(solved.part),
                unsent: None,
            });
        };
        writer.write_lines(&solved.output).map_err(|error| Stop::Error(Error::Write(error)))?;
        self.cases += cases;
        self.spare_bytes.push(solved.part.bytes);
        self.spare_outputs.push(solved.output);
        Ok(())
    }

    /// Writes every part in hand in order, up to one that failed.
    fn write_all<W: Write>(&mut self, writer: &mut ResultWriter<W, true>) -> Result<Option<Part>, Error> {
        while self.workers.pending() {
            let solved = self.workers.receive().ok_or_else(worker_lost)?;
            match self.write(solved, writer) {
                Ok(()) => {}
                Err(Stop::Failed { failed, .. }) => return Ok(Some(*failed)),
                Err(Stop::Error(error)) => return Err(error),
                Err(Stop::End | Stop::Rest(_)) => {}
            }
        }
        Ok(None)
    }
}

/// Solves one part into `output`: its lines, and how many test cases it
/// held, or `None` cases if its reading failed (the error is made again
/// where the input is read as one stream).
fn solve_part(
    part: Part,
    mut output: Vec<u8>,
    name: &InputName,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<Vec<u8>, true>,
) -> Solved {
    output.clear();
    *writer.get_mut() = output;
    let start = part.start;
    let (len, last) = (part.len, part.last);
    let chunks = Chunks::of_bytes(part.bytes, len, start);
    let mut reader = Reader::of_chunks(chunks, name.clone(), 0);
    let solved = solve_cases(&mut reader, game, writer);
    // Writing to memory cannot fail.
    let _ = writer.finish();
    let cases = solved.is_ok().then(|| reader.cases());
    Solved {
        part: Part {
            bytes: reader.into_buffer(),
            len,
            start,
            last,
        },
        output: std::mem::take(writer.get_mut()),
        cases,
    }
}

/// Solves every test case `reader` reads, writing one line per completed
/// case, streamed as its moves are read and written only once the case
/// completes, so an error leaves no partial line.
pub fn solve_cases<R: Read, W: Write>(
    reader: &mut Reader<R>,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W, true>,
) -> Result<(), Error> {
    let mut batch = MoveBatch::default();
    let mut outcomes = [0; BATCH];
    while let Some(case) = reader.next_case()? {
        game.reset_for_moves(case.size, case.moves);
        writer.begin_case();
        let mut left = case.moves;
        while left > 0 {
            let read = reader.fill_batch(&mut batch);
            if read == 0 {
                // Whatever the batch reader leaves: one move the general way.
                let played = reader.next_move()?;
                let outcome = game
                    .play(played.row, played.col, played.player)
                    .map_err(|why| reader.reject(&played, why))?;
                writer.push(outcome);
                left -= 1;
                continue;
            }
            let outcomes = &mut outcomes[..read];
            if let Err((index, why)) = game.play_batch(batch.moves(), outcomes) {
                writer.push_numbers(&outcomes[..index]);
                return Err(reader.reject_in_batch(&batch, index, why));
            }
            writer.push_numbers(outcomes);
            left -= read as u64;
        }
        writer.end_case().map_err(Error::Write)?;
    }
    Ok(())
}
