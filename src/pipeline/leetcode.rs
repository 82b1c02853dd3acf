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
use crate::game::{BoardSize, Rules, TicTacToe};
use crate::pipeline::parallel::{IN_FLIGHT_BYTES, Ordered, Split, worker_lost};
use std::io::{self, Read, Write};

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
    let work = SolveParts { rules: game.rules() };
    let mut in_order = SolveInOrder {
        game,
        writer: &mut writer,
    };
    let solved = across_cores(input, name, split, &work, &mut in_order);
    let finished = writer.finish().map_err(Error::Write);
    solved.and(finished)
}

/// Work on a transcript's test cases that can be done a part at a time on
/// several threads: solving, validating.
pub(crate) trait PartWork: Sync {
    /// What a worker keeps from one part to the next.
    type Worker;
    /// What a part read whole gives, taken in input order.
    type Done: Send;
    /// A worker's state, made on its thread.
    fn worker(&self) -> Self::Worker;
    /// Works through the test cases of the part `reader` reads: what it
    /// gives, or `None` if the reading or the work failed. The part is then
    /// read again as one stream with all that follows it, where the
    /// failure is found again, or found not to be one (the cut before the
    /// part may have fallen inside a test case). `spare` is a result taken
    /// earlier, given back for its memory.
    fn part<R: Read>(
        &self,
        worker: &mut Self::Worker,
        reader: &mut Reader<R>,
        spare: Option<Self::Done>,
    ) -> Option<Self::Done>;
}

/// The caller's side of a [`PartWork`]: the parts' results in input order,
/// and the test cases read as one stream.
pub(crate) trait InOrder<D> {
    /// What the whole transcript gives.
    type Output;
    /// Takes the next part's result; gives back one whose memory a worker
    /// may reuse.
    fn take(&mut self, done: D) -> Result<Option<D>, Error>;
    /// Works through the test cases `reader` reads, to the input's end:
    /// the whole transcript, or its rest after the parts taken.
    fn stream<R: Read>(&mut self, reader: &mut Reader<R>) -> Result<Self::Output, Error>;
    /// What the whole transcript gives once every part is taken, the
    /// last at the input's end, and `cases` test cases read.
    fn end(&mut self, cases: u64) -> Result<Self::Output, Error>;
}

/// A part worked on: its buffer back, what it gave, and how many test cases
/// it held.
struct Worked<D> {
    part: Part,
    done: Option<D>,
    cases: u64,
}

/// Works through a transcript with `work` and `in_order`, on several threads
/// when it is long enough to split and `split` allows: the same output and
/// errors as [`InOrder::stream`] on the whole input.
pub(crate) fn across_cores<R: Read, P: PartWork, S: InOrder<P::Done>>(
    input: R,
    name: InputName,
    split: Split,
    work: &P,
    in_order: &mut S,
) -> Result<S::Output, Error> {
    if split.workers == 1 {
        return in_order.stream(&mut Reader::new(input, name));
    }
    let mut splitter = Splitter::new(input, split.part_bytes);
    let first = match splitter.next_part(Vec::new()) {
        // One part (most judges' files): read here, with no thread started.
        Next::Part(part) if part.last => {
            let chunks = Chunks::of_bytes(part.bytes, part.len, part.start);
            return in_order.stream(&mut Reader::of_chunks(chunks, name, 0));
        }
        Next::Rest(rest) => {
            let stream = rest.into_stream().chain(splitter.into_input());
            return in_order.stream(&mut Reader::new(stream, name));
        }
        Next::Part(first) => first,
    };
    let workers = split.workers();
    if workers < 2 {
        return in_order.stream(&mut Reader::new(unsplit(first, splitter), name));
    }
    let worker = || {
        let mut state = work.worker();
        let name = &name;
        move |(part, spare): (Part, Option<P::Done>)| {
            let (start, len, last) = (part.start, part.len, part.last);
            let chunks = Chunks::of_bytes(part.bytes, len, start);
            let mut reader = Reader::of_chunks(chunks, name.clone(), 0);
            let done = work.part(&mut state, &mut reader, spare);
            Worked {
                cases: reader.cases(),
                part: Part {
                    bytes: reader.into_buffer(),
                    len,
                    start,
                    last,
                },
                done,
            }
        }
    };
    std::thread::scope(|scope| {
        let Some(workers) = Ordered::start(scope, workers, &worker) else {
            // No thread could be started: the same output, read as one stream.
            let stream = unsplit(first, splitter);
            return in_order.stream(&mut Reader::new(stream, name.clone()));
        };
        let mut parts = Parts {
            workers,
            spare_bytes: Vec::new(),
            spare_done: Vec::new(),
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
            if let Err(stop) = parts.hand_out(part, in_order) {
                break stop;
            }
            if last {
                break Stop::End;
            }
            next = splitter.next_part(parts.spare_bytes.pop().unwrap_or_default());
        };
        // The parts still in hand, taken in order up to one that failed.
        let (failed, unsent, rest) = match stop {
            Stop::Error(error) => return Err(error),
            Stop::Failed { failed, unsent } => (*failed, unsent, None),
            Stop::End => match parts.take_all(in_order)? {
                Some(failed) => (failed, None, None),
                None => return in_order.end(parts.cases),
            },
            Stop::Rest(rest) => match parts.take_all(in_order)? {
                Some(failed) => (failed, None, Some(rest)),
                None => {
                    let start = rest.start;
                    let stream = rest.into_stream().chain(splitter.into_input());
                    let chunks = Chunks::resume(stream, start);
                    let mut reader = Reader::of_chunks(chunks, name.clone(), parts.cases);
                    return in_order.stream(&mut reader);
                }
            },
        };
        // From the part that failed on, one stream: its bytes, those of the
        // parts after it (with the workers, then the one not handed out),
        // what the splitter holds, and the input's rest.
        let start = failed.start;
        let mut bytes = failed.contents().to_vec();
        while parts.workers.pending() {
            let worked = parts.workers.receive().ok_or_else(worker_lost)?;
            bytes.extend_from_slice(worked.part.contents());
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
        in_order.stream(&mut Reader::of_chunks(chunks, name.clone(), parts.cases))
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
    /// Taking a result failed, or a worker stopped.
    Error(Error),
}

/// The workers and the buffers that come back from them.
struct Parts<D> {
    workers: Ordered<(Part, Option<D>), Worked<D>>,
    spare_bytes: Vec<Vec<u8>>,
    spare_done: Vec<D>,
    /// The bytes of the parts handed out and not yet taken.
    bytes_sent: usize,
    /// Test cases taken.
    cases: u64,
}

impl<D: Send> Parts<D> {
    /// Hands a part to the next worker, first taking the oldest parts'
    /// results while the workers have as many as they may hold, or the
    /// parts in hand hold enough memory.
    fn hand_out<S: InOrder<D>>(&mut self, part: Part, in_order: &mut S) -> Result<(), Stop> {
        while !self.workers.has_room() || (self.workers.pending() && self.bytes_sent + part.len > IN_FLIGHT_BYTES) {
            let worked = self.workers.receive().ok_or_else(|| Stop::Error(worker_lost()))?;
            match self.take(worked, in_order) {
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
        if !self.workers.send((part, self.spare_done.pop())) {
            return Err(Stop::Error(worker_lost()));
        }
        Ok(())
    }

    /// Takes a part's result, or stops at a part that failed.
    fn take<S: InOrder<D>>(&mut self, worked: Worked<D>, in_order: &mut S) -> Result<(), Stop> {
        self.bytes_sent -= worked.part.len;
        let Some(done) = worked.done else {
            return Err(Stop::Failed {
                failed: Box::new(worked.part),
                unsent: None,
            });
        };
        if let Some(spare) = in_order.take(done).map_err(Stop::Error)? {
            self.spare_done.push(spare);
        }
        self.cases += worked.cases;
        self.spare_bytes.push(worked.part.bytes);
        Ok(())
    }

    /// Takes every part's result in hand in order, up to one that failed.
    fn take_all<S: InOrder<D>>(&mut self, in_order: &mut S) -> Result<Option<Part>, Error> {
        while self.workers.pending() {
            let worked = self.workers.receive().ok_or_else(worker_lost)?;
            match self.take(worked, in_order) {
                Ok(()) => {}
                Err(Stop::Failed { failed, .. }) => return Ok(Some(*failed)),
                Err(Stop::Error(error)) => return Err(error),
                Err(Stop::End | Stop::Rest(_)) => {}
            }
        }
        Ok(None)
    }
}

/// Solving: each worker writes its parts' lines into memory.
struct SolveParts {
    rules: Rules,
}

impl PartWork for SolveParts {
    type Worker = (TicTacToe, ResultWriter<Vec<u8>, true>);
    type Done = Vec<u8>;

    fn worker(&self) -> Self::Worker {
        let game = TicTacToe::with_rules(BoardSize::MIN, self.rules);
        (game, ResultWriter::leetcode(Vec::new()))
    }

    fn part<R: Read>(
        &self,
        (game, writer): &mut Self::Worker,
        reader: &mut Reader<R>,
        spare: Option<Vec<u8>>,
    ) -> Option<Vec<u8>> {
        let mut output = spare.unwrap_or_default();
        output.clear();
        *writer.get_mut() = output;
        let solved = solve_cases(reader, game, writer);
        // Writing to memory cannot fail.
        let _ = writer.finish();
        let output = std::mem::take(writer.get_mut());
        solved.is_ok().then_some(output)
    }
}

/// Solving, on the caller's thread: the parts' lines written in order, the
/// stream solved onto the same writer.
struct SolveInOrder<'a, W: Write> {
    game: &'a mut TicTacToe,
    writer: &'a mut ResultWriter<W, true>,
}

impl<W: Write> InOrder<Vec<u8>> for SolveInOrder<'_, W> {
    type Output = ();

    fn take(&mut self, lines: Vec<u8>) -> Result<Option<Vec<u8>>, Error> {
        self.writer.write_lines(&lines).map_err(Error::Write)?;
        Ok(Some(lines))
    }

    fn stream<R: Read>(&mut self, reader: &mut Reader<R>) -> Result<(), Error> {
        solve_cases(reader, self.game, self.writer)
    }

    fn end(&mut self, _: u64) -> Result<(), Error> {
        Ok(())
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
