//! Solving the cases of one Coding Ninjas input on several threads.
//!
//! First the input is cut where a case seems to start, a line of N and a
//! line of Q before a line of three values ([`crate::format::coding_ninjas::cut`]),
//! and its parts are solved as [`crate::pipeline::proven`] says: each cut
//! proven by the part before it, lines written in input order, and the
//! count of cases held to T as the parts are taken. Finding such a cut
//! reads a few lines, so this thread is free to write while the workers
//! solve, however short the games.
//!
//! What that cannot follow (no such lines within a part's buffer: a long
//! case, or another layout; a part that fails) is solved from there on by
//! the splitter that follows the format's counts
//! ([`crate::format::coding_ninjas::split`]): it cuts the input into parts
//! of whole cases; a part goes to whichever worker is free (this thread
//! too, while it waits for the oldest part's output), and the parts' output
//! is written in input order, so the output is byte for byte the
//! single-threaded one. A part that fails ends the run with its completed
//! lines written and nothing after them: the same "only whole lines of
//! completed cases" as ever.
//!
//! Why: the reading and the game cost about the same per move, and both are
//! the same work for every case, so whole cases in parallel scale with the
//! cores where a pipeline of reader and engine would stop at two stages.
//!
//! A case too long for a part is cut into slices of its moves. Workers
//! read a slice's moves; this thread plays them in order on its own board
//! and writes the case's line. A slice whose reading stopped early, or
//! whose move the game refuses, is read again here the plain way, so the
//! error is the streaming reader's exactly.
//!
//! The pool that runs jobs on threads and hands results back in order
//! (`Ordered`) serves `validate` too.

use crate::error::{Error, InputName};
use crate::format::bytes::{CHUNK, Chunks, Resume, zeroed};
use crate::format::coding_ninjas::cut::HeaderLines;
use crate::format::coding_ninjas::read::{CaseHeader, MoveBatch, MoveFields, PartCases, Reader};
use crate::format::coding_ninjas::short_cases::CaseRun;
use crate::format::coding_ninjas::split::{Next, PART_BYTES, Part, Splitter};
use crate::format::cut;
use crate::game::Rules;
use crate::pipeline::proven::{InOrder, PartWork, Taken, across_cores};
use crate::format::lines::BATCH;
use crate::format::write::ResultWriter;
use crate::game::{BoardSize, MoveError, TicTacToe};
use crate::simd::{Cpu, Kernel, dispatch};
use std::io::{self, Read, Write};
use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// Parts in hand a worker, at most, counting those queued, being solved
/// and solved but not yet written: enough to keep every worker busy while
/// the oldest part's output is written.
const IN_FLIGHT: usize = 2;

/// The memory the parts sent and not yet written may hold, at most,
/// however many workers there are: a part its bytes, a slice of a long
/// case three times its bytes (its moves, 12 bytes each, beside them).
/// Two parts a worker, on eight workers, held 22 MiB on games of 10^5
/// moves and more, and 33 MiB on cases padded with runs of space to a
/// MiB. Two workers' parts of the usual size stay under it.
pub(crate) const IN_FLIGHT_BYTES: usize = 3 * 1024 * 1024;

/// The memory a part in flight holds, as counted against [`IN_FLIGHT_BYTES`].
fn in_flight_bytes(part: &Part) -> usize {
    match part.slice {
        Some(_) => 3 * part.len,
        None => part.len,
    }
}

/// A worker's stack. Workers keep their data on the heap and recurse
/// nowhere; a small stack keeps their address space small, for sandboxes
/// that cap it (the default is 2 MiB a thread).
pub(crate) const WORKER_STACK: usize = 256 * 1024;

/// A part to solve, with buffers for its output and a slice's moves.
struct Job {
    part: Part,
    output: Vec<u8>,
    moves: Vec<[u32; 3]>,
}

/// A solved part: its output (the lines of its completed cases), the part
/// (its buffer back for reuse), and how solving ended. For a slice: its
/// case's header if it starts with it, and the moves read, fewer than the
/// slice's where reading stopped.
struct Solved {
    part: Part,
    output: Vec<u8>,
    moves: Vec<[u32; 3]>,
    header: Option<CaseHeader>,
    result: Result<(), Error>,
}

/// How an input is split and solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// Threads to solve on: 1 reads the input as one stream, and 0 means
    /// [`Split::workers`] decides, only for an input of more than one part
    /// (counting the cores reads several files under /proc and /sys).
    pub workers: usize,
    /// A part is cut at the first case start past this many bytes.
    pub part_bytes: usize,
}

/// At most this many workers by default: memory grows with them.
const MOST_WORKERS: usize = 8;

/// At most this many workers even when asked for more.
pub const MOST_THREADS: usize = 64;

impl Split {
    /// The threads to solve on: as set, or one a core, at most 8; and no
    /// more than a cap on memory leaves room for ([`threads_that_fit`]).
    ///
    /// Why not more: each worker keeps a board and parts of the input, so
    /// memory grows with the workers, and on 2 cores 4 workers were no
    /// faster than 2 (docs/PERFORMANCE.md has the figures).
    pub fn workers(&self) -> usize {
        let asked = match self.workers {
            0 => std::thread::available_parallelism().map_or(1, |cores| cores.get().min(MOST_WORKERS)),
            workers => workers.min(MOST_THREADS),
        };
        match asked.min(threads_that_fit()) {
            // The pool is for two workers or more; with fewer the input is one stream.
            0 | 1 => 1,
            workers => workers,
        }
    }
}

/// The address space a thread is counted to need under a cap (a sandbox's
/// `RLIMIT_AS`). Why this much: glibc gives each thread that allocates an
/// arena of 64 MiB of address space, and while making it reserves twice
/// that, then gives half back; threads that start together reserve at
/// once. Under a cap that held the workers' arenas but not much else
/// (about 140 MiB with two workers), and rarely under one of 64 MiB a
/// thread plus 64 MiB, a run aborted where an allocation that cannot fail
/// failed, or stopped with "out of memory" on an input one thread solves
/// in 7 MiB.
#[cfg_attr(not(unix), allow(dead_code))]
const THREAD_ADDRESS_SPACE: u64 = 128 * 1024 * 1024;

/// The address space counted for everything but the threads: the program,
/// the input's buffers, the boards.
#[cfg_attr(not(unix), allow(dead_code))]
const REST_ADDRESS_SPACE: u64 = 64 * 1024 * 1024;

/// How many worker threads the cap on the address space leaves room for,
/// beside this thread: no limit without a cap.
pub fn threads_that_fit() -> usize {
    #[cfg(unix)]
    {
        match nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_AS) {
            Ok((soft, _)) if soft != nix::sys::resource::RLIM_INFINITY => {
                let threads = soft.saturating_sub(REST_ADDRESS_SPACE) / THREAD_ADDRESS_SPACE;
                usize::try_from(threads).unwrap_or(usize::MAX)
            }
            _ => usize::MAX,
        }
    }
    // Windows has no such limit on a process.
    #[cfg(not(unix))]
    {
        usize::MAX
    }
}

/// Whether the cap on the address space leaves no room for two workers,
/// so that no thread should be started.
pub fn address_space_is_tight() -> bool {
    threads_that_fit() < 2
}

impl Default for Split {
    /// Workers as [`Split::workers`] decides, and parts of [`PART_BYTES`].
    fn default() -> Split {
        Split {
            workers: 0,
            part_bytes: PART_BYTES,
        }
    }
}

/// Solves a Coding Ninjas input, on several threads when it is long enough
/// to split, writing every completed case: the same output and errors as
/// reading it as one stream.
pub fn solve<W: Write>(
    input: impl Read,
    name: InputName,
    game: &mut TicTacToe,
    output: &mut W,
    split: Split,
) -> Result<(), Error> {
    let mut writer = ResultWriter::new(output);
    let solved = solve_into(input, name, game, &mut writer, split);
    let finished = writer.finish().map_err(Error::Write);
    solved.and(finished)
}

/// [`solve`] onto a writer of result lines: the input cut where cases seem
/// to start and its parts solved across cores (`pipeline::proven`), and
/// what that cannot follow (long cases, other layouts, a part that fails)
/// solved from there on by [`solve_counted`].
fn solve_into<W: Write>(
    input: impl Read,
    name: InputName,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W>,
    split: Split,
) -> Result<(), Error> {
    if split.workers == 1 {
        return solve_cases(&mut Reader::new(input, name), game, writer);
    }
    let work = CutParts {
        rules: game.rules(),
        name: name.clone(),
    };
    let mut in_order = CutInOrder {
        game,
        writer,
        name,
        split,
        count: None,
        taken: 0,
    };
    across_cores(input, split, HeaderLines, &work, &mut in_order)
}

/// Solving a part cut where a case seems to start, on a worker: its lines,
/// and T if it read it.
struct CutParts {
    rules: Rules,
    name: InputName,
}

/// The lines of a part's cases, and T if the part read it (the first does).
struct CutLines {
    lines: Vec<u8>,
    count: Option<u64>,
}

impl PartWork for CutParts {
    type Worker = (TicTacToe, ResultWriter<Vec<u8>>);
    type Done = CutLines;

    fn worker(&self) -> Self::Worker {
        let game = TicTacToe::with_rules(BoardSize::MIN, self.rules);
        (game, ResultWriter::new(Vec::new()))
    }

    fn part(&self, (game, writer): &mut Self::Worker, part: cut::Part, spare: Option<CutLines>) -> (Option<CutLines>, u64, Vec<u8>) {
        let first = part.start.offset == 0;
        let chunks = Chunks::of_bytes(part.bytes, part.len, part.start);
        let mut reader = Reader::of_cut_part(chunks, self.name.clone(), first);
        let buffer = spare.map(|spare| spare.lines).unwrap_or_default();
        let room = output_room(part.len);
        let (lines, solved) = writer.lines_into(buffer, room, |writer| solve_cases(&mut reader, game, writer));
        let count = if first { reader.count() } else { None };
        let done = matches!(solved, Some(Ok(()))).then_some(CutLines { lines, count });
        (done, reader.cases_read(), reader.into_buffer())
    }
}

/// This thread's share of solving cut parts: their lines written in order
/// while their cases add up to no more than T, and the rest of the input
/// solved by [`solve_counted`].
struct CutInOrder<'a, W: Write> {
    game: &'a mut TicTacToe,
    writer: &'a mut ResultWriter<W>,
    name: InputName,
    split: Split,
    /// T, once the first part is taken.
    count: Option<u64>,
    /// The cases of the parts taken.
    taken: u64,
}

impl<W: Write> InOrder<CutLines> for CutInOrder<'_, W> {
    type Output = ();

    fn take(&mut self, done: CutLines, cases: u64, last: bool) -> Result<Taken<CutLines>, Error> {
        let count = *self.count.get_or_insert(done.count.unwrap_or(0));
        let taken = self.taken + cases;
        // More cases than T, or fewer at the input's end: the stream says
        // which case, and where.
        if taken > count || (last && taken < count) {
            return Ok(Taken::Refused);
        }
        self.writer.write_lines(&done.lines).map_err(Error::Write)?;
        self.taken = taken;
        Ok(Taken::Kept(Some(done)))
    }

    fn stream(&mut self, input: &mut dyn Read, start: Resume, cases: u64) -> Result<(), Error> {
        let from = PartCases {
            count: self.count,
            before: cases,
            last: None,
            within: None,
        };
        solve_counted(input, &self.name, self.game, self.writer, self.split, start, from)
    }

    fn whole(&mut self, part: cut::Part) -> Result<(), Error> {
        let chunks = Chunks::of_bytes(part.bytes, part.len, part.start);
        let all = PartCases::ALL;
        solve_cases(&mut Reader::of_part(chunks, self.name.clone(), all), self.game, self.writer)
    }

    fn end(&mut self, _: u64) -> Result<(), Error> {
        Ok(())
    }
}

/// Solves the cases of `input`, which starts at `start` with the case after
/// `from.before` (`from.count` giving T, unless `input` starts with it),
/// on several threads as the splitter that follows the format's counts
/// cuts it: parts of whole cases, and a long case's moves in slices.
fn solve_counted<W: Write>(
    input: impl Read,
    name: &InputName,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W>,
    split: Split,
    start: Resume,
    from: PartCases,
) -> Result<(), Error> {
    let read_error = |source| Error::Read {
        input: name.clone(),
        source,
    };
    let stream = |input| Reader::of_part(Chunks::resume(input, start), name.clone(), from);
    let slicing = true;
    let begun = begin(input, split, slicing, start, from).map_err(read_error)?;
    let (first, mut splitter, workers) = match begun {
        // One part: solved here, with no thread started.
        Begun::Whole(part) => {
            let chunks = Chunks::of_bytes(part.bytes, part.len, part.start);
            return solve_cases(&mut Reader::of_part(chunks, name.clone(), part.cases), game, writer);
        }
        Begun::Stream(input) => return solve_cases(&mut stream(input), game, writer),
        Begun::Parts {
            first,
            splitter,
            workers,
        } => (first, splitter, workers),
    };
    let split = Split {
        workers,
        part_bytes: split.part_bytes,
    };
    let mut sequencer = Sequencer { writer, game, name };
    let rest = match solve_parts(first, &mut splitter, split, &mut sequencer)? {
        Progress::All => return Ok(()),
        Progress::Before(rest) => rest,
        // No thread could be started (a sandbox's limit on processes): the
        // same output, read as one stream here.
        Progress::Unstarted(first) => {
            let mut reader = stream(unsplit(first, splitter));
            return solve_cases(&mut reader, game, writer);
        }
    };
    // What the splitter could not follow: the streaming reader goes on from
    // the last case start it found, or inside a long case from the last
    // slice's end, with the case's board and line as the slices left them.
    let (start, cases) = (rest.start, rest.cases);
    let chunks = Chunks::resume(part_bytes(rest).chain(splitter.into_input()), start);
    solve_cases(&mut Reader::of_part(chunks, name.clone(), cases), game, writer)
}

/// The most output a part of `len` bytes writes, in either format: half
/// its length, plus a line. A Coding Ninjas move takes at least 6 bytes and
/// writes 2, a case at least 4 and writes 1; a LeetCode move at least 8
/// (`,[R,C,P]`) and writes 2, a test case at least 20 and writes 7.
pub(crate) fn output_room(len: usize) -> usize {
    len / 2 + 2
}

/// A part's bytes, as a stream.
pub(crate) type Buffered = io::Take<io::Cursor<Vec<u8>>>;

/// The bytes of a part, as a stream.
pub(crate) fn part_bytes(part: Part) -> Buffered {
    io::Cursor::new(part.bytes).take(part.len as u64)
}

/// How a split input begins.
pub(crate) enum Begun<R> {
    /// The whole input is one part.
    Whole(Part),
    /// The input from its start (or where the splitter was asked to start),
    /// to be read as one stream: the splitter stopped within the first
    /// part, or there is only one core.
    Stream(Unsplit<R>),
    /// The first part, the splitter for the rest, and how many workers.
    Parts {
        /// The first part.
        first: Part,
        /// The splitter, after the first part.
        splitter: Splitter<R>,
        /// Threads to work on, at least 2.
        workers: usize,
    },
}

/// Splits off the first part of `input`, which starts at `start` with the
/// case after `from.before` (see [`Splitter::resume`]), and decides how to
/// go on: shared by `solve` and `validate`. `slicing`: long cases are cut
/// into slices of their moves (see [`Splitter::slicing`]).
pub(crate) fn begin<R: Read>(
    input: R,
    split: Split,
    slicing: bool,
    start: Resume,
    from: PartCases,
) -> io::Result<Begun<R>> {
    let mut splitter = Splitter::resume(input, split.part_bytes, start, from);
    if slicing {
        splitter = splitter.slicing();
    }
    let first = match splitter.next_part(Vec::new())? {
        Next::Part(part) if part.cases.last.is_none() && part.slice.is_none() => {
            return Ok(Begun::Whole(part));
        }
        Next::Rest(rest) => {
            let nothing = io::Cursor::new(Vec::new()).take(0);
            let stream = part_bytes(rest).chain(nothing).chain(splitter.into_input());
            return Ok(Begun::Stream(stream));
        }
        Next::Part(first) => first,
    };
    let workers = split.workers();
    if workers < 2 {
        return Ok(Begun::Stream(unsplit(first, splitter)));
    }
    Ok(Begun::Parts {
        first,
        splitter,
        workers,
    })
}

/// The input from its first part on, as one stream again: for one thread,
/// or when no other thread can be started.
pub(crate) fn unsplit<R: Read>(first: Part, splitter: Splitter<R>) -> Unsplit<R> {
    let (buffered, input) = splitter.into_rest();
    part_bytes(first).chain(part_bytes(buffered)).chain(input)
}

/// An input read as one stream after its first part was split off.
pub(crate) type Unsplit<R> = io::Chain<io::Chain<Buffered, Buffered>, R>;

/// How far the workers went.
enum Progress {
    /// The whole input is solved and written.
    All,
    /// The splitter stopped before the end: the rest, for the streaming reader.
    Before(Part),
    /// No worker thread could be started: nothing was solved.
    Unstarted(Part),
}

/// Solves `first` and the parts after it on `workers` threads, writing their
/// output in order.
fn solve_parts<R: Read, W: Write>(
    first: Part,
    splitter: &mut Splitter<R>,
    split: Split,
    output: &mut Sequencer<'_, W>,
) -> Result<Progress, Error> {
    let Split {
        workers,
        part_bytes,
    } = split;
    let (name, rules) = (output.name, output.game.rules());
    let worker = || {
        let mut game = TicTacToe::with_rules(BoardSize::MIN, rules);
        let mut writer = ResultWriter::new(Vec::new());
        move |job| solve_part(job, name, &mut game, &mut writer)
    };
    std::thread::scope(|scope| {
        let Some(workers) = Ordered::start(scope, workers, &worker) else {
            return Ok(Progress::Unstarted(first));
        };
        let mut pool = Pool {
            workers,
            spare_bytes: Vec::new(),
            spare_outputs: Vec::new(),
            spare_moves: Vec::new(),
            buffers_made: 0,
            bytes_sent: 0,
            output_room: (part_bytes + CHUNK) / 2 + 2,
            buffer_bytes: part_bytes + CHUNK,
        };
        let mut next = Next::Part(first);
        loop {
            let part = match next {
                Next::Part(part) => part,
                Next::Rest(rest) => {
                    pool.write_all(output)?;
                    return Ok(Progress::Before(rest));
                }
            };
            let last = part.cases.last.is_none();
            pool.send(part, output)?;
            if last {
                pool.write_all(output)?;
                return Ok(Progress::All);
            }
            let spare = pool.spare_buffer(output)?;
            next = match splitter.next_part(spare) {
                Ok(next) => next,
                Err(source) => {
                    // Cases before the failed read are solved and written,
                    // as the streaming reader would have.
                    pool.write_all(output)?;
                    return Err(Error::Read {
                        input: output.name.clone(),
                        source,
                    });
                }
            };
        }
        // Returning drops the senders: workers finish their jobs and stop.
    })
}

/// Jobs run on a fixed set of threads, with the results handed back in the
/// order the jobs were sent. The jobs wait in one queue, and whichever
/// worker is free takes the next, so a worker that shares its core with
/// this thread takes fewer than one that has a core to itself. This
/// thread, when it would wait for the oldest result, does the oldest job
/// still queued instead, if no idle worker is there to take it.
///
/// Why not a queue a worker: with job k sent to worker k mod W, the
/// scheduler kept one worker on this thread's core, where it waited for
/// its turn, while the other, alone on its core, finished its own jobs
/// and idled for its next: a third of that core's time, on the
/// statement's shape with two cores (docs/PERFORMANCE.md, round 17).
/// And a thread that waits leaves its core to the workers only if one is
/// ready to run there.
pub(crate) struct Ordered<'scope, J, D> {
    queue: Arc<JobQueue<J>>,
    /// This thread's own job function, for the jobs it takes from the
    /// queue while it would otherwise wait for a result.
    local: Box<dyn FnMut(J) -> D + 'scope>,
    /// Each result with its job's number; `None` from a job that panicked.
    results: Receiver<(usize, Option<D>)>,
    /// Results that came before an older one: job k's at k mod its length.
    early: Vec<Option<D>>,
    workers: usize,
    sent: usize,
    received: usize,
}

/// The jobs sent and not yet taken by a worker, numbered in the order sent.
struct JobQueue<J> {
    state: Mutex<QueuedJobs<J>>,
    /// Signalled when a job is queued or the queue is closed.
    ready: Condvar,
}

struct QueuedJobs<J> {
    jobs: VecDeque<(usize, J)>,
    /// Workers waiting for a job (or woken for one and not yet running).
    idle: usize,
    /// No job will come: the pool is dropped.
    closed: bool,
}

impl<J> JobQueue<J> {
    fn lock(&self) -> MutexGuard<'_, QueuedJobs<J>> {
        // A worker holds the lock only to take a job, never while working:
        // a poisoned lock still holds a sound queue.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next job, waiting for one; `None` once the queue is closed.
    fn take(&self) -> Option<(usize, J)> {
        let mut queued = self.lock();
        loop {
            if queued.closed {
                return None;
            }
            if let Some(job) = queued.jobs.pop_front() {
                return Some(job);
            }
            queued.idle += 1;
            queued = self.ready.wait(queued).unwrap_or_else(PoisonError::into_inner);
            queued.idle -= 1;
        }
    }
}

impl<'scope, J: Send, D: Send> Ordered<'scope, J, D> {
    /// Starts up to `workers` threads in `scope`, each running the job
    /// function `worker` makes for it (so each can keep its own state).
    /// Threads the system refuses (a sandbox's limit on processes, or on
    /// memory for their stacks) are done without: `None` if it refuses the
    /// first, and the caller does the work itself.
    pub(crate) fn start<F, W>(
        scope: &'scope std::thread::Scope<'scope, '_>,
        workers: usize,
        worker: &'scope F,
    ) -> Option<Ordered<'scope, J, D>>
    where
        F: Fn() -> W + Sync,
        W: FnMut(J) -> D + 'scope,
        J: 'scope,
        D: 'scope,
    {
        let queue = Arc::new(JobQueue {
            state: Mutex::new(QueuedJobs {
                jobs: VecDeque::new(),
                idle: 0,
                closed: false,
            }),
            ready: Condvar::new(),
        });
        // This thread's job state first, while the address space is
        // freest: under a cap, a worker's stack is then what the system
        // refuses (done without), not this state's memory, whose lack aborts.
        let local: Box<dyn FnMut(J) -> D + 'scope> = Box::new(worker());
        let (done_sender, results) = channel::<(usize, Option<D>)>();
        let mut started = 0;
        for _ in 0..workers.max(1) {
            let (queue, done_sender) = (Arc::clone(&queue), done_sender.clone());
            let spawned = std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    let mut work = worker();
                    while let Some((number, job)) = queue.take() {
                        match std::panic::catch_unwind(AssertUnwindSafe(|| work(job))) {
                            Ok(done) => {
                                if done_sender.send((number, Some(done))).is_err() {
                                    break;
                                }
                            }
                            Err(panic) => {
                                // The pool stops waiting for this job's
                                // result; the scope passes the panic on.
                                let _ = done_sender.send((number, None));
                                std::panic::resume_unwind(panic);
                            }
                        }
                    }
                });
            if spawned.is_err() {
                break;
            }
            started += 1;
        }
        (started > 0).then(|| Ordered {
            queue,
            local,
            results,
            early: std::iter::repeat_with(|| None).take(IN_FLIGHT * started).collect(),
            workers: started,
            sent: 0,
            received: 0,
        })
    }

    /// How many jobs may be in hand at once.
    pub(crate) fn capacity(&self) -> usize {
        IN_FLIGHT * self.workers
    }

    /// Whether a job may be sent before the oldest result is taken.
    pub(crate) fn has_room(&self) -> bool {
        self.sent - self.received < self.capacity()
    }

    /// Whether results are still to be taken.
    pub(crate) fn pending(&self) -> bool {
        self.received < self.sent
    }

    /// Queues a job for the next free worker. False once the pool is
    /// closed, which it is only when dropped: kept for the callers, which
    /// treat it as a lost worker.
    pub(crate) fn send(&mut self, job: J) -> bool {
        let mut queued = self.queue.lock();
        if queued.closed {
            return false;
        }
        queued.jobs.push_back((self.sent, job));
        drop(queued);
        self.queue.ready.notify_one();
        self.sent += 1;
        true
    }

    /// The oldest result not yet taken, doing queued jobs here while it is
    /// not in. `None` if none is pending, or a job panicked on a worker.
    pub(crate) fn receive(&mut self) -> Option<D> {
        if !self.pending() {
            return None;
        }
        let slots = self.early.len();
        let oldest = self.received % slots;
        while self.early[oldest].is_none() {
            let arrived = match self.results.try_recv() {
                Ok(arrived) => arrived,
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => {
                    // Rather than wait, this thread does the oldest job no
                    // worker has taken yet, unless an idle worker is there
                    // for it: its core is not left idle, and a worker woken
                    // for a job finds it.
                    let queued = {
                        let mut queued = self.queue.lock();
                        if queued.jobs.len() > queued.idle {
                            queued.jobs.pop_front()
                        } else {
                            None
                        }
                    };
                    if let Some((number, job)) = queued {
                        self.early[number % slots] = Some((self.local)(job));
                        continue;
                    }
                    // Every worker gone (all senders dropped) also ends the wait.
                    self.results.recv().ok()?
                }
            };
            let (number, done) = arrived;
            // A panicked job: its result will never come.
            self.early[number % slots] = Some(done?);
        }
        self.received += 1;
        self.early[oldest].take()
    }
}

impl<J, D> Drop for Ordered<'_, J, D> {
    /// Tells the workers to stop: no job comes after this, and those still
    /// queued are not wanted (the caller stopped early, at an error).
    fn drop(&mut self) {
        self.queue.lock().closed = true;
        self.queue.ready.notify_all();
    }
}

/// The solving workers and the buffers that come back from them.
struct Pool<'scope> {
    workers: Ordered<'scope, Job, Solved>,
    spare_bytes: Vec<Vec<u8>>,
    spare_outputs: Vec<Vec<u8>>,
    spare_moves: Vec<Vec<[u32; 3]>>,
    /// Input buffers handed to the splitter so far.
    buffers_made: usize,
    /// The memory the parts sent and not yet written hold ([`in_flight_bytes`]).
    bytes_sent: usize,
    /// The room every output buffer gets: half a usual part's buffer.
    output_room: usize,
    /// The size of a usual part's buffer.
    buffer_bytes: usize,
}

impl Pool<'_> {
    /// Queues a part for the workers, first writing the oldest part's
    /// output if the workers have enough in hand.
    fn send<W: Write>(&mut self, part: Part, output: &mut Sequencer<'_, W>) -> Result<(), Error> {
        let bytes = in_flight_bytes(&part);
        while !self.workers.has_room()
            || (self.workers.pending() && self.bytes_sent + bytes > IN_FLIGHT_BYTES)
        {
            self.write_next(output)?;
        }
        self.bytes_sent += bytes;
        let mut output_buffer = self.spare_outputs.pop().unwrap_or_default();
        output_buffer.clear();
        let mut moves = Vec::new();
        if part.slice.is_some() {
            // A slice writes no output: its moves are played here.
            moves = self.spare_moves.pop().unwrap_or_default();
        } else {
            // Room for it all up front means no buffer grows on a worker;
            // one size for every usual part means none is ever reallocated.
            output_buffer
                .try_reserve(output_room(part.len).max(self.output_room))
                .map_err(|_| Error::Write(io::ErrorKind::OutOfMemory.into()))?;
        }
        let job = Job {
            part,
            output: output_buffer,
            moves,
        };
        if !self.workers.send(job) {
            return Err(worker_lost());
        }
        Ok(())
    }

    /// A buffer for the splitter: a spare one, or a new one while fewer
    /// exist than can be in use at once, or else the oldest part's, once
    /// its output is written. So as many buffers are made for a 5 MB input
    /// as for a 500 MB one, whatever the timing, and peak memory is the same.
    fn spare_buffer<W: Write>(&mut self, output: &mut Sequencer<'_, W>) -> Result<Vec<u8>, Error> {
        if let Some(buffer) = self.spare_bytes.pop() {
            return Ok(buffer);
        }
        if self.buffers_made < self.workers.capacity()
            && let Ok(buffer) = zeroed(self.buffer_bytes)
        {
            self.buffers_made += 1;
            return Ok(buffer);
        }
        // Enough buffers, or no memory for another (a sandbox's cap): the
        // oldest part's, once its output is written.
        if !self.workers.pending() {
            return Err(Error::Write(io::ErrorKind::OutOfMemory.into()));
        }
        self.write_next(output)?;
        Ok(self.spare_bytes.pop().unwrap_or_default())
    }

    /// Writes the output of every part sent.
    fn write_all<W: Write>(&mut self, output: &mut Sequencer<'_, W>) -> Result<(), Error> {
        while self.workers.pending() {
            self.write_next(output)?;
        }
        Ok(())
    }

    /// Waits for the oldest unwritten part and writes its output: its
    /// completed lines even when it failed, and then its error. A slice's
    /// moves are played here.
    fn write_next<W: Write>(&mut self, output: &mut Sequencer<'_, W>) -> Result<(), Error> {
        let Some(mut solved) = self.workers.receive() else {
            return Err(worker_lost());
        };
        self.bytes_sent -= in_flight_bytes(&solved.part);
        if solved.part.slice.is_some() {
            output.play_slice(&mut solved)?;
        } else {
            output.writer.write_lines(&solved.output).map_err(Error::Write)?;
            solved.result?;
        }
        self.spare_bytes.push(solved.part.bytes);
        self.spare_outputs.push(solved.output);
        if solved.part.slice.is_some() {
            self.spare_moves.push(solved.moves);
        }
        Ok(())
    }
}

/// This thread's share of the work: the output in input order, and the
/// long cases' moves played on its board.
struct Sequencer<'a, W: Write> {
    writer: &'a mut ResultWriter<W>,
    game: &'a mut TicTacToe,
    name: &'a InputName,
}

impl<W: Write> Sequencer<'_, W> {
    /// Plays a slice's moves as read by a worker, and completes its case's
    /// line if it is the case's last. Where the worker's reading stopped
    /// early or the game refuses a move, the slice is read again here.
    fn play_slice(&mut self, solved: &mut Solved) -> Result<(), Error> {
        let part = &solved.part;
        let slice = part.slice.unwrap_or(0);
        let (declared, played) = match (part.cases.within, solved.header) {
            (Some(within), _) => (within.declared, within.played),
            (None, Some(header)) => {
                self.game.reset_for_moves(header.size, header.moves);
                self.writer.begin_case();
                (header.moves, 0)
            }
            // The header could not be read: the reader's error, again. (A
            // case's first slice never ends it: its cut is inside the moves.)
            (None, None) => return self.read_again(&mut solved.part, Stop::Header),
        };
        let mut outcomes = [0; BATCH];
        for (batch, moves) in solved.moves.chunks(BATCH).enumerate() {
            let outcomes = &mut outcomes[..moves.len()];
            if let Err((index, why)) = self.game.play_batch(moves, outcomes) {
                self.writer.push_numbers(&outcomes[..index]);
                let refused = Stop::Refused((batch * BATCH + index) as u64, why);
                return self.read_again(&mut solved.part, refused);
            }
            self.writer.push_numbers(outcomes);
        }
        let read = solved.moves.len() as u64;
        if read < slice {
            self.read_again(&mut solved.part, Stop::Read(read))?;
        }
        if played + slice == declared {
            self.writer.end_case().map_err(Error::Write)?;
        }
        Ok(())
    }

    /// Reads a slice again from its start the plain way, to where a
    /// worker's reading stopped (the moves before are played already) and
    /// goes on from there as the streaming reader would, or to the move the
    /// game refused, for the streaming reader's error exactly.
    #[cold]
    fn read_again(&mut self, part: &mut Part, stop: Stop) -> Result<(), Error> {
        let bytes = std::mem::take(&mut part.bytes);
        let chunks = Chunks::of_bytes(bytes, part.len, part.start);
        let mut reader = Reader::of_part(chunks, self.name.clone(), part.cases);
        let result = self.read_slice_again(&mut reader, part, stop);
        part.bytes = reader.into_buffer();
        result
    }

    /// [`Sequencer::read_again`] with the slice's reader made.
    fn read_slice_again(
        &mut self,
        reader: &mut Reader<io::Empty>,
        part: &Part,
        stop: Stop,
    ) -> Result<(), Error> {
        let slice = part.slice.unwrap_or(0);
        if part.cases.within.is_none() {
            let Some(header) = reader.next_case()? else {
                return Ok(());
            };
            if stop == Stop::Header {
                self.game.reset_for_moves(header.size, header.moves);
                self.writer.begin_case();
            }
        }
        let (skip, refused) = match stop {
            Stop::Header => (0, None),
            Stop::Read(read) => (read, None),
            Stop::Refused(index, why) => (index, Some(why)),
        };
        // Moves played already, from the worker's reading.
        for _ in 0..skip {
            reader.next_move()?;
        }
        match refused {
            Some(why) => {
                reader.next_move()?;
                Err(reader.reject(why))
            }
            None => play_moves(reader, self.game, self.writer, slice - skip),
        }
    }
}

/// Where a slice's moves stopped being played from a worker's reading.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    /// The worker could not read the case's header.
    Header,
    /// The worker read this many moves and stopped.
    Read(u64),
    /// The game refused the move at this index.
    Refused(u64, MoveError),
}

/// A worker stopped without an answer: it panicked, and the scope's join
/// passes the panic on; this error is never what the user sees.
pub(crate) fn worker_lost() -> Error {
    Error::Write(io::Error::other("a solver thread stopped"))
}

/// Solves one part into the job's output buffer, or reads a slice's moves.
fn solve_part(
    job: Job,
    name: &InputName,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<Vec<u8>>,
) -> Solved {
    let Job {
        part,
        mut output,
        mut moves,
    } = job;
    let Part {
        bytes,
        len,
        start,
        cases,
        slice,
    } = part;
    let chunks = Chunks::of_bytes(bytes, len, start);
    let mut reader = Reader::of_part(chunks, name.clone(), cases);
    let mut header = None;
    let result = match slice {
        None => {
            // Its room was made when the part was sent.
            let room = output.capacity();
            let result;
            (output, result) = writer.lines_into(output, room, |writer| solve_cases(&mut reader, game, writer));
            result.unwrap_or_else(|| Err(Error::Write(io::ErrorKind::OutOfMemory.into())))
        }
        Some(slice) => {
            moves.clear();
            // An error stops the reading; the slice is read again where its
            // moves are played, and the error made there.
            if cases.within.is_none() {
                header = reader.next_case().ok().flatten();
            }
            // Room for the slice's moves and no more (a vector grown by
            // doubling held up to twice), or none read if the memory is
            // not there: they are then read where they are played. Never
            // for more moves than the slice's bytes hold: a case's last
            // slice declares every move the case has left, and a
            // truncated case on a large board asked room for up to 10^18
            // (found by the `split` fuzz target, whose allocator refuses
            // such a size outright).
            let most = slice.min(most_moves_in(len));
            let room = usize::try_from(most).is_ok_and(|most| moves.try_reserve_exact(most).is_ok());
            if room && (cases.within.is_some() || header.is_some()) {
                read_moves(&mut reader, most, &mut moves);
            }
            Ok(())
        }
    };
    Solved {
        part: Part {
            bytes: reader.into_buffer(),
            len,
            start,
            cases,
            slice,
        },
        output,
        moves,
        header,
        result,
    }
}

/// The most moves `len` bytes of a slice hold: each takes at least 6, a
/// space before it and three one-digit tokens with a space between each
/// (5 for a first move with no space before it).
fn most_moves_in(len: usize) -> u64 {
    (len as u64 + 1) / 6
}

/// Reads up to `count` moves into `moves`, stopping early at anything
/// that is not a move of three values that fit a `u32`.
fn read_moves<R: Read>(reader: &mut Reader<R>, count: u64, moves: &mut Vec<[u32; 3]>) {
    struct ReadMoves<'a, R>(&'a mut Reader<R>, u64, &'a mut Vec<[u32; 3]>);
    impl<R: Read> Kernel for ReadMoves<'_, R> {
        type Output = ();
        #[inline(always)]
        fn run<C: Cpu>(self, cpu: C) {
            let ReadMoves(reader, count, moves) = self;
            let mut batch = MoveBatch::default();
            let mut left = count;
            while left > 0 {
                let read = reader.fill_batch(cpu, &mut batch, left);
                if read == 0 {
                    let Ok(MoveFields { row, col, player }) = reader.next_move() else {
                        return;
                    };
                    let fields = [row, col, player].map(u32::try_from);
                    let [Ok(row), Ok(col), Ok(player)] = fields else {
                        return;
                    };
                    moves.push([row, col, player]);
                    left -= 1;
                    continue;
                }
                moves.extend_from_slice(batch.moves());
                left -= read as u64;
            }
        }
    }
    dispatch(ReadMoves(reader, count, moves))
}

/// Solves every case `reader` reads, writing each completed case's line.
pub fn solve_cases<R: Read, W: Write>(
    reader: &mut Reader<R>,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W>,
) -> Result<(), Error> {
    struct Solve<'a, R, W: Write>(
        &'a mut Reader<R>,
        &'a mut TicTacToe,
        &'a mut ResultWriter<W>,
    );
    impl<R: Read, W: Write> Kernel for Solve<'_, R, W> {
        type Output = Result<(), Error>;
        #[inline(always)]
        fn run<C: Cpu>(self, cpu: C) -> Result<(), Error> {
            solve_cases_inline(cpu, self.0, self.1, self.2)
        }
    }
    dispatch(Solve(reader, game, writer))
}

/// [`solve_cases`], inlined into each build of [`dispatch`].
#[inline(always)]
fn solve_cases_inline<C: Cpu, R: Read, W: Write>(
    cpu: C,
    reader: &mut Reader<R>,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W>,
) -> Result<(), Error> {
    let mut batch = MoveBatch::default();
    let mut outcomes = [0; BATCH];
    if let Some(left) = reader.case_in_progress() {
        // A part that starts inside a case: its board and line are as the
        // case's earlier slices left them.
        play_moves_inline(cpu, reader, game, writer, left, &mut batch, &mut outcomes)?;
        writer.end_case().map_err(Error::Write)?;
    }
    let mut run = CaseRun::default();
    // Cases to read the general way before trying a run again, and how
    // many tries in a row read none: a file whose cases a run does not
    // take (long games, long tokens) tries once in up to 64 cases.
    let (mut skip, mut misses) = (0u32, 0u32);
    loop {
        // Whole short cases a block of tokens at a time, while they last.
        let count = if skip > 0 {
            skip -= 1;
            0
        } else {
            let count = reader.read_short_cases(cpu, &mut run);
            misses = if count == 0 { (misses + 1).min(6) } else { 0 };
            skip = (1 << misses) - 1;
            count
        };
        let mut played = 0;
        while played < count {
            let (size, moves) = run.case(played);
            game.reset_for_moves(size, moves.len() as u64);
            let outcomes = &mut outcomes[..moves.len()];
            if game.play_batch(moves, outcomes).is_err() {
                // The case is read again below, where its error is made.
                break;
            }
            writer.begin_case();
            writer.push_numbers(outcomes);
            writer.end_case().map_err(Error::Write)?;
            played += 1;
        }
        reader.pass_cases(&run, played);
        // The case the run stopped before, the general way.
        let Some(case) = reader.next_case()? else {
            return Ok(());
        };
        game.reset_for_moves(case.size, case.moves);
        writer.begin_case();
        play_moves_inline(cpu, reader, game, writer, case.moves, &mut batch, &mut outcomes)?;
        writer.end_case().map_err(Error::Write)?;
    }
}

/// Reads and plays the next `left` moves of the current case.
fn play_moves<R: Read, W: Write>(
    reader: &mut Reader<R>,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W>,
    left: u64,
) -> Result<(), Error> {
    struct Play<'a, R, W: Write>(
        &'a mut Reader<R>,
        &'a mut TicTacToe,
        &'a mut ResultWriter<W>,
        u64,
    );
    impl<R: Read, W: Write> Kernel for Play<'_, R, W> {
        type Output = Result<(), Error>;
        #[inline(always)]
        fn run<C: Cpu>(self, cpu: C) -> Result<(), Error> {
            let (mut batch, mut outcomes) = (MoveBatch::default(), [0; BATCH]);
            play_moves_inline(cpu, self.0, self.1, self.2, self.3, &mut batch, &mut outcomes)
        }
    }
    dispatch(Play(reader, game, writer, left))
}

/// [`play_moves`], inlined into each build of [`dispatch`].
#[inline(always)]
fn play_moves_inline<C: Cpu, R: Read, W: Write>(
    cpu: C,
    reader: &mut Reader<R>,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W>,
    mut left: u64,
    batch: &mut MoveBatch,
    outcomes: &mut [u8; BATCH],
) -> Result<(), Error> {
    while left > 0 {
        let read = reader.fill_batch(cpu, batch, left);
        if read == 0 {
            // Whatever the block scanner leaves: one move the general way.
            let played = reader.next_move()?;
            match game.play(played.row, played.col, played.player) {
                Ok(outcome) => writer.push(outcome),
                Err(why) => return Err(reader.reject(why)),
            }
            left -= 1;
            continue;
        }
        let outcomes = &mut outcomes[..read];
        if let Err((index, why)) = game.play_batch(batch.moves(), outcomes) {
            writer.push_numbers(&outcomes[..index]);
            return Err(reader.reject_in_batch(batch, index, why));
        }
        writer.push_numbers(outcomes);
        left -= read as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::coding_ninjas::read::CaseWithin;

    fn slice_of(text: &str, declared: u64) -> Job {
        let bytes = text.as_bytes().to_vec();
        Job {
            part: Part {
                len: bytes.len(),
                bytes,
                start: Resume::START,
                cases: PartCases {
                    count: Some(1),
                    before: 0,
                    last: Some(1),
                    within: Some(CaseWithin { declared, played: 1 }),
                },
                slice: Some(declared - 1),
            },
            output: Vec::new(),
            moves: Vec::new(),
        }
    }

    fn read_slice(job: Job) -> Solved {
        let mut game = TicTacToe::with_rules(BoardSize::MIN, Rules::default());
        let mut writer = ResultWriter::new(Vec::new());
        solve_part(job, &InputName::Stdin, &mut game, &mut writer)
    }

    #[test]
    fn a_truncated_slice_asks_room_for_the_moves_its_bytes_hold_not_the_moves_declared() {
        // A case of 10^15 moves declared on a board of 10^9, cut off after two.
        let solved = read_slice(slice_of("\n5 6 2\n7 8 1\n", 1_000_000_000_000_000));
        assert_eq!(solved.moves, [[5, 6, 2], [7, 8, 1]]);
        assert_eq!(solved.moves.capacity(), 2);
    }

    #[test]
    fn a_slice_of_the_shortest_moves_is_read_whole() {
        // Every move in its fewest bytes: the bound must not cut a real slice short.
        let text = "\n0 1 2".repeat(1000);
        for text in [&text[..], &text[1..]] {
            let solved = read_slice(slice_of(text, 1001));
            assert_eq!(solved.moves.len(), 1000);
            assert_eq!(solved.moves.capacity(), 1000);
        }
    }

    /// Runs `jobs` numbered jobs through a pool of `workers`, sending while
    /// there is room and taking the oldest result when there is none, as
    /// the solving pool does; returns the results in the order taken.
    fn through_pool(workers: usize, jobs: usize, work: impl Fn(usize) -> usize + Sync) -> Vec<usize> {
        let worker = || &work;
        std::thread::scope(|scope| {
            let mut pool = Ordered::start(scope, workers, &worker).expect("a thread starts");
            let mut taken = Vec::new();
            for job in 0..jobs {
                while !pool.has_room() {
                    taken.push(pool.receive().expect("a result"));
                }
                assert!(pool.send(job));
            }
            while pool.pending() {
                taken.push(pool.receive().expect("a result"));
            }
            taken
        })
    }

    #[test]
    fn results_come_back_in_the_order_sent_whoever_does_the_jobs() {
        for workers in 1..=4 {
            // Uneven jobs: later ones often finish first.
            let taken = through_pool(workers, 200, |job| {
                std::thread::sleep(std::time::Duration::from_micros((job as u64 * 7919) % 300));
                job * 3
            });
            assert_eq!(taken, (0..200).map(|job| job * 3).collect::<Vec<_>>(), "{workers} workers");
        }
    }

    #[test]
    fn the_thread_waiting_for_a_result_does_a_queued_job_itself() {
        // One worker, and job 0 waits for job 1 to have run: only this
        // thread, waiting for job 0's result, can run job 1 (whichever of
        // the two the worker took first).
        let job_one_ran = std::sync::atomic::AtomicBool::new(false);
        let taken = through_pool(1, 2, |job| {
            if job == 1 {
                job_one_ran.store(true, std::sync::atomic::Ordering::SeqCst);
                return 1;
            }
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
            while !job_one_ran.load(std::sync::atomic::Ordering::SeqCst) {
                if std::time::Instant::now() > deadline {
                    return usize::MAX;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            0
        });
        assert_eq!(taken, [0, 1], "job 0 gave up waiting for job 1");
    }

    #[test]
    fn a_job_that_panics_on_a_worker_ends_the_wait_and_the_panic_reaches_the_caller() {
        let outcome = std::panic::catch_unwind(|| {
            let work = |job: usize| {
                assert!(job != 5, "job 5 fails");
                job
            };
            let worker = || work;
            std::thread::scope(|scope| {
                let mut pool = Ordered::start(scope, 2, &worker).expect("a thread starts");
                let mut taken = Vec::new();
                for job in 0..20 {
                    while !pool.has_room() {
                        match pool.receive() {
                            Some(done) => taken.push(done),
                            None => return taken,
                        }
                    }
                    assert!(pool.send(job));
                }
                while let Some(done) = pool.receive() {
                    taken.push(done);
                }
                taken
            })
        });
        // On a worker, the pool stops at job 5 and the scope passes the
        // panic on; on this thread, the panic is this thread's own.
        assert!(outcome.is_err());
    }
}
