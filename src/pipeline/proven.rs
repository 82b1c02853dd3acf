//! Parts cut where a case seems to start, worked on across cores, each cut
//! proven by the part before it: what both formats' solving and LeetCode's
//! validating share.
//!
//! The splitter ([`crate::format::cut`]) cuts the input before a line that
//! looks like a case's start. The parts go to whichever worker is free
//! (this thread too, while it waits for the oldest), and their results
//! are taken in input order. A part read whole without an error
//! ends between two cases, so the part after it starts where reading the
//! input as one stream would have gone on: each cut is proven by the part
//! before it, the first part starting the input. A part whose reading fails
//! proves nothing about where the error is (the cut before or after it may
//! have fallen inside a case, in an input laid out in some other way), so
//! its result is dropped and the input is worked through again from that
//! part's start, as the caller's stream says, with case numbers and
//! positions counted from the input's start: the output and the error are
//! the stream's exactly.
//!
//! Why not follow the format's counts to find where each case starts, as
//! the Coding Ninjas walking splitter does: that walk is the one part of
//! the work no other thread can share, and on short games it took this
//! thread longer than its share of the solving. Finding a cut from the look
//! of a few lines costs next to nothing.

use crate::error::Error;
use crate::format::bytes::Resume;
use crate::format::cut::{Cut, Next, Part, Splitter};
use crate::pipeline::parallel::{IN_FLIGHT_BYTES, Ordered, Split, address_space_is_tight, worker_lost};
use std::io::{self, Read};

/// Work on an input's cases that can be done a part at a time on several
/// threads: solving, validating.
pub(crate) trait PartWork: Sync {
    /// What a worker keeps from one part to the next.
    type Worker;
    /// What a part read whole gives, taken in input order.
    type Done: Send;
    /// A worker's state, made on its thread.
    fn worker(&self) -> Self::Worker;
    /// Works through the cases of `part` (the input's first part if it
    /// starts at offset 0). Gives what it gives, or `None` if the reading
    /// or the work failed (the part is then read again as one stream with
    /// all that follows it, where the failure is found again, or found not
    /// to be one); then the cases it read or began, and the part's buffer
    /// back. `spare` is a result taken earlier, given back for its memory.
    /// Positions in a part's messages are never shown: a part that fails is
    /// read again.
    fn part(&self, worker: &mut Self::Worker, part: Part, spare: Option<Self::Done>) -> (Option<Self::Done>, u64, Vec<u8>);
}

/// What [`InOrder::take`] made of a part's result.
pub(crate) enum Taken<D> {
    /// Kept; with a result whose memory a worker may reuse.
    Kept(Option<D>),
    /// Not kept: the part holds what the parts before it rule out (cases
    /// past the input's count, or too few at its end), and is read again
    /// as one stream with all that follows it.
    Refused,
}

/// The caller's side of a [`PartWork`]: the parts' results in input order,
/// and the cases read as one stream.
pub(crate) trait InOrder<D> {
    /// What the whole input gives.
    type Output;
    /// Takes the next part's result: the part read `cases` cases, and
    /// `last` says whether the input ends with it.
    fn take(&mut self, done: D, cases: u64, last: bool) -> Result<Taken<D>, Error>;
    /// Works through the cases `input` holds, to its end: the whole input
    /// (from [`Resume::START`], after 0 cases), or its rest after the
    /// parts taken, which start at `start` after `cases` cases. (One type
    /// of stream, whichever way it was put together: each way made the
    /// solving loops of both builds again, a few hundred KB of binary.)
    fn stream(&mut self, input: &mut dyn Read, start: Resume, cases: u64) -> Result<Self::Output, Error>;
    /// Works through an input that one part holds whole.
    fn whole(&mut self, part: Part) -> Result<Self::Output, Error> {
        let start = part.start;
        self.stream(&mut part.into_stream(), start, 0)
    }
    /// What the whole input gives once every part is taken, the last at the
    /// input's end, and `cases` cases read.
    fn end(&mut self, cases: u64) -> Result<Self::Output, Error>;
}

/// A part worked on: its buffer back, what it gave, and how many cases it
/// held.
struct Worked<D> {
    part: Part,
    done: Option<D>,
    cases: u64,
}

/// Works through an input with `work` and `in_order`, cut where `cut` says,
/// on several threads when it is long enough to split and `split` allows:
/// the same output and errors as [`InOrder::stream`] on the whole input.
pub(crate) fn across_cores<R: Read, C: Cut, P: PartWork, S: InOrder<P::Done>>(
    input: R,
    split: Split,
    cut: C,
    work: &P,
    in_order: &mut S,
) -> Result<S::Output, Error> {
    // Under a sandbox's tight cap on memory no thread is started: nothing is
    // cut, so no part is held besides the stream's own buffers.
    let mut input = input;
    if split.workers == 1 || address_space_is_tight() {
        return in_order.stream(&mut input, Resume::START, 0);
    }
    let mut splitter = Splitter::new(input, split.part_bytes, cut);
    let first = match splitter.next_part(Vec::new()) {
        // One part (most judges' files): worked on here, with no thread started.
        Next::Part(part) if part.last => return in_order.whole(part),
        Next::Rest(rest) => {
            let mut stream = rest.into_stream().chain(splitter.into_input());
            return in_order.stream(&mut stream, Resume::START, 0);
        }
        Next::Part(first) => first,
    };
    let workers = split.workers();
    if workers < 2 {
        let (buffered, input) = splitter.into_rest();
        let mut stream = first.into_stream().chain(buffered.into_stream()).chain(input);
        return in_order.stream(&mut stream, Resume::START, 0);
    }
    let worker = || {
        let mut state = work.worker();
        move |(part, spare): (Part, Option<P::Done>)| {
            let (start, len, last) = (part.start, part.len, part.last);
            let (done, cases, bytes) = work.part(&mut state, part, spare);
            Worked {
                cases,
                part: Part {
                    bytes,
                    len,
                    start,
                    last,
                },
                done,
            }
        }
    };
    // The rest of the input, to be worked through as one stream once the
    // workers have stopped and the parts' buffers are let go of: a stream
    // that starts threads of its own then holds no memory beside them.
    let rest = std::thread::scope(|scope| -> Result<Then<S::Output, R>, Error> {
        let Some(workers) = Ordered::start(scope, workers, &worker) else {
            // No thread could be started: the same output, read as one stream.
            let (buffered, input) = splitter.into_rest();
            let mut bytes = first.bytes;
            bytes.truncate(first.len);
            append(&mut bytes, buffered.contents())?;
            return Ok(Then::Stream(Rest {
                bytes,
                input,
                start: Resume::START,
                cases: 0,
            }));
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
                None => return in_order.end(parts.cases).map(Then::Done),
            },
            Stop::Rest(rest) => match parts.take_all(in_order)? {
                Some(failed) => (failed, None, Some(rest)),
                None => {
                    let (start, cases) = (rest.start, parts.cases);
                    let mut bytes = rest.bytes;
                    bytes.truncate(rest.len);
                    let input = splitter.into_input();
                    return Ok(Then::Stream(Rest {
                        bytes,
                        input,
                        start,
                        cases,
                    }));
                }
            },
        };
        // From the part that failed on, one stream: its bytes, those of the
        // parts after it (with the workers, then the one not handed out),
        // what the splitter holds, and the input's rest.
        let (start, cases) = (failed.start, parts.cases);
        let mut bytes = failed.bytes;
        bytes.truncate(failed.len);
        while parts.workers.pending() {
            let worked = parts.workers.receive().ok_or_else(worker_lost)?;
            append(&mut bytes, worked.part.contents())?;
        }
        if let Some(unsent) = unsent {
            append(&mut bytes, unsent.contents())?;
        }
        let input = match rest {
            Some(rest) => {
                append(&mut bytes, rest.contents())?;
                splitter.into_input()
            }
            None => {
                let (buffered, input) = splitter.into_rest();
                append(&mut bytes, buffered.contents())?;
                input
            }
        };
        Ok(Then::Stream(Rest {
            bytes,
            input,
            start,
            cases,
        }))
    })?;
    match rest {
        Then::Done(output) => Ok(output),
        Then::Stream(Rest {
            bytes,
            input,
            start,
            cases,
        }) => in_order.stream(&mut io::Cursor::new(bytes).chain(input), start, cases),
    }
}

/// How the parts' stage ended.
enum Then<O, R> {
    /// With the whole input's output.
    Done(O),
    /// With the rest of the input to work through as one stream.
    Stream(Rest<R>),
}

/// The rest of an input: bytes read already, then the input's own rest,
/// which start at `start` after `cases` cases.
struct Rest<R> {
    bytes: Vec<u8>,
    input: R,
    start: Resume,
    cases: u64,
}

/// Appends `more` to the bytes to read again, or fails for want of memory
/// (a sandbox's cap), as the other buffers of a split input do.
fn append(bytes: &mut Vec<u8>, more: &[u8]) -> Result<(), Error> {
    bytes
        .try_reserve(more.len())
        .map_err(|_| Error::Write(io::ErrorKind::OutOfMemory.into()))?;
    bytes.extend_from_slice(more);
    Ok(())
}

/// Why handing out parts stopped.
enum Stop {
    /// The last part is handed out.
    End,
    /// The splitter stopped: what it held, for the streaming reader.
    Rest(Part),
    /// A part's reading failed, or its result was refused: that part. The
    /// parts after it are still with the workers, but for one not yet
    /// handed out, if any.
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
struct Parts<'scope, D> {
    workers: Ordered<'scope, (Part, Option<D>), Worked<D>>,
    spare_bytes: Vec<Vec<u8>>,
    spare_done: Vec<D>,
    /// The bytes of the parts handed out and not yet taken.
    bytes_sent: usize,
    /// Cases taken.
    cases: u64,
}

impl<D: Send> Parts<'_, D> {
    /// Queues a part for the workers, first taking the oldest parts'
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
        let failed = |part| Stop::Failed {
            failed: Box::new(part),
            unsent: None,
        };
        let Some(done) = worked.done else {
            return Err(failed(worked.part));
        };
        match in_order.take(done, worked.cases, worked.part.last).map_err(Stop::Error)? {
            Taken::Kept(spare) => self.spare_done.extend(spare),
            Taken::Refused => return Err(failed(worked.part)),
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
