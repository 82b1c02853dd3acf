//! Opening inputs and the output: files, standard input and standard output.
//!
//! Standard streams are taken as plain files (a duplicate of the descriptor),
//! so that nothing buffers them twice: the readers and the writer do their own
//! buffering.

use crate::error::{Error, InputName};
use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// A standard stream as a file of its own (a duplicate of its descriptor or
/// handle), which the caller buffers as it likes.
#[cfg(unix)]
fn duplicate(stream: &impl std::os::fd::AsFd) -> io::Result<File> {
    Ok(File::from(stream.as_fd().try_clone_to_owned()?))
}

/// A standard stream as a file of its own (a duplicate of its handle).
/// A process started without the stream has a null handle, which the
/// standard library copies as if it were one, and every read or write
/// then fails: it gets the null device instead, as Rust on Unix reopens a
/// closed standard stream on `/dev/null`.
#[cfg(windows)]
fn duplicate(stream: &impl std::os::windows::io::AsHandle) -> io::Result<File> {
    use std::os::windows::io::AsRawHandle;
    let handle = stream.as_handle();
    let raw = handle.as_raw_handle();
    // INVALID_HANDLE_VALUE is -1.
    if raw.is_null() || raw as isize == -1 {
        return std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("NUL");
    }
    Ok(File::from(handle.try_clone_to_owned()?))
}

/// Which file a handle is open on (Windows): its volume and file index, as
/// a device and an inode say on Unix. `None` for a handle that is no
/// file's: a console, a device, none at all.
#[cfg(windows)]
fn identity(handle: impl winapi_util::AsHandleRef) -> Option<(u64, u64)> {
    // A pipe may answer with a volume and index of 0: only a disk file's
    // count, and one whose file system gives indexes (some network ones
    // give 0 to every file, which would make every file the same).
    if !winapi_util::file::typ(&handle).ok()?.is_disk() {
        return None;
    }
    let information = winapi_util::file::information(&handle).ok()?;
    let index = information.file_index();
    (index != 0).then(|| (information.volume_serial_number(), index))
}

/// The identity (see [`identity`]) of the file at `path`.
#[cfg(windows)]
fn identity_of(path: &Path) -> Option<(u64, u64)> {
    identity(open_to_ask(path).ok()?)
}

/// `path` opened only to ask what it is: with no access, which a file that
/// may not be read allows too (a folder opens as well).
#[cfg(windows)]
fn open_to_ask(path: &Path) -> io::Result<File> {
    use std::os::windows::fs::OpenOptionsExt;
    /// FILE_FLAG_BACKUP_SEMANTICS: a folder opens too.
    const BACKUP_SEMANTICS: u32 = 0x0200_0000;
    std::fs::OpenOptions::new()
        .access_mode(0)
        .custom_flags(BACKUP_SEMANTICS)
        .open(path)
}

/// What a folder named as an input or the output is told, on every
/// platform (Windows would say "Access denied").
fn is_a_directory() -> io::Error {
    io::Error::new(io::ErrorKind::IsADirectory, "is a directory")
}

/// A standard stream, read or written as a blocking one even if whoever
/// passed it left its descriptor non-blocking (a pipe shared with a
/// program that wanted that): a read or write that would block waits until
/// the stream is ready, where it would fail. Without this, a slow writer
/// made a read fail part way into a token, and the reader took that for
/// the input's end: a valid transcript was reported wrong.
pub struct Waiting(File);

impl Waiting {
    /// Retries `operation` while it would block, waiting until the stream
    /// is ready for it (`ready`: readable or writable).
    fn retry<T>(&mut self, ready: Ready, mut operation: impl FnMut(&mut File) -> io::Result<T>) -> io::Result<T> {
        loop {
            match operation(&mut self.0) {
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => wait_until(&self.0, ready)?,
                done => return done,
            }
        }
    }
}

/// What [`wait_until`] waits for.
#[derive(Clone, Copy)]
enum Ready {
    Read,
    Write,
}

/// Waits until `file` can be read or written.
#[cfg(unix)]
fn wait_until(file: &File, ready: Ready) -> io::Result<()> {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let events = match ready {
        Ready::Read => PollFlags::POLLIN,
        Ready::Write => PollFlags::POLLOUT,
    };
    let mut descriptors = [PollFd::new(file.as_fd(), events)];
    match poll(&mut descriptors, PollTimeout::NONE) {
        Ok(_) | Err(nix::errno::Errno::EINTR) => Ok(()),
        Err(errno) => Err(errno.into()),
    }
}

/// Windows' standard streams do not fail for want of data: nothing to wait for.
#[cfg(not(unix))]
fn wait_until(_: &File, _: Ready) -> io::Result<()> {
    Err(io::ErrorKind::WouldBlock.into())
}

impl Read for Waiting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.retry(Ready::Read, |file| file.read(buf))
    }
}

impl Write for Waiting {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.retry(Ready::Write, |file| file.write(bytes))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Opens an input for reading, with its name for messages.
///
/// A closed standard input reads as empty, so it ends in a data error like
/// any other empty input.
pub fn open(source: &InputSource) -> Result<(Box<dyn Read>, InputName), Error> {
    match source {
        InputSource::Stdin => {
            let reader: Box<dyn Read> = match duplicate(&io::stdin()) {
                // `tictactoe < folder`: the file it names cannot be read,
                // as a folder named on the command line cannot.
                Ok(file) if file.metadata().is_ok_and(|metadata| metadata.is_dir()) => {
                    return Err(Error::Open {
                        path: PathBuf::from("standard input"),
                        source: is_a_directory(),
                    });
                }
                Ok(file) => {
                    widen_pipe(&file);
                    Box::new(Waiting(file))
                }
                Err(_) => Box::new(io::empty()),
            };
            Ok((reader, InputName::Stdin))
        }
        InputSource::Path(path) => {
            let open_error = |source| Error::Open {
                path: path.clone(),
                source,
            };
            // Windows refuses to open a directory ("Access denied"): say
            // what it is, as on Unix.
            let file = File::open(path).map_err(|error| {
                open_error(if path.is_dir() { is_a_directory() } else { error })
            })?;
            // Opening a directory succeeds on Unix; reading it would not.
            // (A device may have no metadata: Windows' `NUL`. It is read.)
            if file.metadata().is_ok_and(|metadata| metadata.is_dir()) {
                return Err(open_error(is_a_directory()));
            }
            widen_pipe(&file);
            Ok((Box::new(file), InputName::Path(path.clone())))
        }
    }
}

/// Pipe capacity asked for: a default 64 KiB pipe makes the writer wait
/// for the solver at every few reads (docs/PERFORMANCE.md). 1 MiB is what an
/// unprivileged process may ask for by default.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const PIPE_CAPACITY: usize = 1 << 20;

/// Makes a pipe's buffer larger, so the writer runs ahead of the solver and
/// each read returns a full chunk. Anything but a pipe is left alone, and a
/// refusal only costs speed.
fn widen_pipe(file: &File) {
    #[cfg(not(target_os = "linux"))]
    let _ = file;
    #[cfg(target_os = "linux")]
    if file.metadata().is_ok_and(|meta| {
        use std::os::unix::fs::FileTypeExt;
        meta.file_type().is_fifo()
    }) {
        let capacity = PIPE_CAPACITY as nix::libc::c_int;
        let _ = nix::fcntl::fcntl(file, nix::fcntl::FcntlArg::F_SETPIPE_SZ(capacity));
    }
}

/// Where a command's output goes: standard output, or a file written whole
/// beside its destination and put in its place by [`Output::finish`].
///
/// Why: a run that fails part way, or a path that names one of the inputs,
/// must never cost the user the file that was there. Unbuffered: the
/// writers gather their own blocks.
pub struct Output {
    to: Destination,
}

enum Destination {
    /// Written where it is: standard output, a device, a pipe.
    Stream(Waiting),
    File {
        /// The file being written, in the destination's folder.
        temporary: Partial,
        /// Where it goes when the command succeeds.
        path: PathBuf,
    },
    /// A regular file reached through a link or by other names too: held
    /// back, then written into the file itself when the command succeeds,
    /// so that every name sees the new bytes and an error changes none.
    Into {
        /// The results so far.
        held: Held,
        /// The file, opened (not emptied) when the command started.
        file: File,
        /// Its name, for messages.
        path: PathBuf,
    },
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Result<Output, Error> {
        let file = duplicate(&io::stdout()).map_err(Error::Write)?;
        Ok(Output {
            to: Destination::Stream(Waiting(file)),
        })
    }

    /// The output `target` names, refused when it is one of `inputs` (the
    /// same file, however named).
    pub fn create(target: &OutputTarget, inputs: &[InputSource]) -> Result<Output, Error> {
        let path = match target {
            OutputTarget::Stdout => {
                refuse_stdout_on(inputs)?;
                return Output::stdout();
            }
            OutputTarget::Path(path) => path,
        };
        refuse_an_input(path, inputs)?;
        // A name ending in a separator names a folder, there or not: the
        // system's "Not a directory" of a missing one says it backwards.
        let names_a_folder = path
            .as_os_str()
            .as_encoded_bytes()
            .last()
            .is_some_and(|&last| std::path::is_separator(char::from(last)));
        let cannot_create = |source: io::Error| Error::CreateOutput {
            path: path.clone(),
            // Windows says "Access denied" of a folder: say what it is.
            source: if path.is_dir() { is_a_directory() } else { source },
        };
        if names_a_folder && !path.is_dir() {
            return Err(cannot_create(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the name ends in a separator, as a folder's does: give a file's name",
            )));
        }
        // `/dev/stdout`, or any name of the file standard output is open on:
        // written through standard output, so that a shell's `>>` appends.
        if is_stdout(path) {
            return Output::stdout();
        }
        // Only a plain regular file, or a new one, is replaced whole, and it
        // keeps its mode and owner; a link to such a file has the file it
        // names replaced, and stays a link. A regular file with other names
        // (hard links), owned by another user, or in a folder that takes no
        // new file, keeps its identity: the results are held back and written into it at the
        // end. Anything else is written where it is, as a plain create
        // would: a device (`/dev/null`), a pipe, a socket. A file that may
        // not be written is refused, as a plain create would refuse it.
        let linked = std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_symlink());
        let target = match std::fs::canonicalize(path) {
            Ok(target)
                if linked
                    && std::fs::metadata(&target).is_ok_and(|meta| replaced_whole(&target, &meta)) =>
            {
                target
            }
            _ => path.clone(),
        };
        let existing = std::fs::symlink_metadata(&target).ok();
        // Windows' devices (`NUL`, `CON`) have no metadata, but open: one
        // is written where it is, as `/dev/null` is.
        #[cfg(windows)]
        if existing.is_none()
            && let Ok(device) = std::fs::OpenOptions::new().write(true).open(path)
            && winapi_util::file::typ(&device).is_ok_and(|kind| !kind.is_disk())
        {
            return Ok(Output {
                to: Destination::Stream(Waiting(device)),
            });
        }
        let written_into = |file| Output {
            to: Destination::Into {
                held: Held::default(),
                file,
                path: path.clone(),
            },
        };
        match &existing {
            Some(meta) if !replaced_whole(&target, meta) && std::fs::metadata(path).is_ok_and(|meta| meta.is_file()) => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(cannot_create)?;
                return Ok(written_into(file));
            }
            Some(meta) if !replaced_whole(&target, meta) => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(cannot_create)?;
                return Ok(Output {
                    to: Destination::Stream(Waiting(file)),
                });
            }
            // Opened for writing, unchanged, only to refuse as a plain create would.
            Some(_) => drop(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(cannot_create)?,
            ),
            None => {}
        }
        let folder = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let temporary = match (Partial::new(folder), &existing) {
            (Ok(temporary), _) => temporary,
            // A file that may be written in a folder that takes no new one.
            (Err(_), Some(_)) => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .map_err(cannot_create)?;
                return Ok(written_into(file));
            }
            (Err(error), None) => return Err(cannot_create(error)),
        };
        if let Some(meta) = &existing {
            keep_identity(temporary.file(), meta);
        }
        Ok(Output {
            to: Destination::File {
                temporary,
                path: target,
            },
        })
    }

    /// Puts a written file in its place; for standard output, flushes.
    /// Dropping an output without finishing it leaves the destination as
    /// it was.
    pub fn finish(self) -> Result<(), Error> {
        match self.to {
            Destination::Stream(mut file) => file.flush().map_err(Error::Write),
            Destination::File { temporary, path } => temporary
                .persist(&path)
                .map_err(|source| Error::CreateOutput { path, source }),
            Destination::Into {
                mut held,
                mut file,
                path,
            } => {
                let cannot_write = |source| Error::CreateOutput {
                    path: path.clone(),
                    source,
                };
                // What could stop the write halfway is ruled out before the
                // old bytes go: the file size limit, and a full disk.
                let len = held.held_bytes().map_err(cannot_write)?;
                room_for(&file, len).map_err(cannot_write)?;
                // Written over, then cut to length: emptied first, the file
                // would give back its blocks and the reserved ones, for
                // another writer to take.
                held.release(&mut file).map_err(cannot_write)?;
                file.set_len(len).map_err(cannot_write)?;
                file.flush().map_err(cannot_write)
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &mut self.to {
            Destination::Stream(file) => file.write(bytes),
            Destination::File { temporary, .. } => temporary.file_mut().write(bytes),
            Destination::Into { held, .. } => held.write(bytes),
        }
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match &mut self.to {
            Destination::Stream(file) => file.write_all(bytes),
            Destination::File { temporary, .. } => temporary.file_mut().write_all(bytes),
            Destination::Into { held, .. } => held.write_all(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.to {
            Destination::Stream(file) => file.flush(),
            Destination::File { temporary, .. } => temporary.file_mut().flush(),
            Destination::Into { .. } => Ok(()),
        }
    }
}

/// Gives a replacement the old file's owner, group and mode. The owner
/// first: a change of owner clears the set-user-ID and set-group-ID bits.
/// A group that cannot be given stays the writer's (the owner is the
/// writer's, or the file would have been written into instead).
fn keep_identity(replacement: &File, old: &std::fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, fchown};
        if fchown(replacement, Some(old.uid()), Some(old.gid())).is_err() {
            let _ = fchown(replacement, None, Some(old.gid()));
        }
    }
    let _ = replacement.set_permissions(old.permissions());
}

/// Fails unless `len` bytes can be written into `file` from its start:
/// over the file size limit, or (on Linux) where the disk cannot reserve
/// them. A file system that cannot reserve space is not refused.
fn room_for(file: &File, len: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        use nix::sys::resource::{Resource, getrlimit};
        if let Ok((limit, _)) = getrlimit(Resource::RLIMIT_FSIZE)
            && len > limit
        {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!("{len} bytes are over the file size limit of {limit}"),
            ));
        }
    }
    #[cfg(target_os = "linux")]
    {
        use nix::fcntl::{FallocateFlags, fallocate};
        let reserved = i64::try_from(len).map_err(io::Error::other).and_then(|len| {
            fallocate(file, FallocateFlags::FALLOC_FL_KEEP_SIZE, 0, len).map_err(io::Error::from)
        });
        match reserved {
            Err(error) if error.kind() == io::ErrorKind::StorageFull => return Err(error),
            _ => {}
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, len);
    Ok(())
}

/// The file a replacement is written to, in its destination's folder. On
/// Linux it has no name until it is complete (`O_TMPFILE`), so that a run
/// stopped by a signal (Ctrl-C, a judge's kill) leaves
/// nothing behind; elsewhere, or where the file system cannot make one,
/// it is a hidden `.tictactoe-*.partial`, deleted on any error the command
/// itself sees.
enum Partial {
    Named(tempfile::NamedTempFile),
    #[cfg(target_os = "linux")]
    Unnamed { file: File, folder: PathBuf },
}

impl Partial {
    fn new(folder: &Path) -> io::Result<Partial> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::OpenOptionsExt;
            let unnamed = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .custom_flags(nix::fcntl::OFlag::O_TMPFILE.bits())
                .mode(0o666)
                .open(folder);
            if let Ok(file) = unnamed {
                return Ok(Partial::Unnamed {
                    file,
                    folder: folder.to_path_buf(),
                });
            }
        }
        partial_names().tempfile_in(folder).map(Partial::Named).map_err(without_temporary_name)
    }

    fn file(&self) -> &File {
        match self {
            Partial::Named(named) => named.as_file(),
            #[cfg(target_os = "linux")]
            Partial::Unnamed { file, .. } => file,
        }
    }

    fn file_mut(&mut self) -> &mut File {
        match self {
            Partial::Named(named) => named.as_file_mut(),
            #[cfg(target_os = "linux")]
            Partial::Unnamed { file, .. } => file,
        }
    }

    /// Puts the complete file at `path`, replacing what is there at once.
    // Elsewhere than Linux a partial file always has a name: one variant.
    #[cfg_attr(not(target_os = "linux"), allow(clippy::infallible_destructuring_match))]
    fn persist(self, path: &Path) -> io::Result<()> {
        let named = match self {
            Partial::Named(named) => named,
            #[cfg(target_os = "linux")]
            Partial::Unnamed { mut file, folder } => {
                use nix::fcntl::AT_FDCWD;
                use nix::fcntl::AtFlags;
                use nix::unistd::linkat;
                use std::os::fd::AsRawFd;
                // Given a name beside its destination, then renamed onto it.
                let by_descriptor = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
                let linked = partial_names().make_in(&folder, |name| {
                    linkat(AT_FDCWD, &by_descriptor, AT_FDCWD, name, AtFlags::AT_SYMLINK_FOLLOW)
                        .map_err(io::Error::from)
                });
                match linked {
                    Ok(linked) => {
                        return linked.persist(path).map(drop).map_err(|error| error.error);
                    }
                    // No `/proc` (some sandboxes): the bytes are copied to
                    // a named file instead.
                    Err(_) => {
                        let mut named = partial_names().tempfile_in(&folder)?;
                        keep_identity(named.as_file(), &file.metadata()?);
                        io::Seek::rewind(&mut file)?;
                        io::copy(&mut file, named.as_file_mut())?;
                        named
                    }
                }
            }
        };
        named.persist(path).map(drop).map_err(|error| error.error)
    }
}

/// The system's error without the temporary file's name, which the user
/// never gave and never sees: the message names the output instead.
fn without_temporary_name(error: io::Error) -> io::Error {
    // `tempfile` adds the name to the system's message as ` at path "..."`,
    // and keeps the system's error out of reach.
    let message = error.to_string();
    match message.rsplit_once(" at path \"") {
        Some((system, _)) => io::Error::new(error.kind(), system.to_owned()),
        None => error,
    }
}

/// How a replacement's temporary file is named while it has a name.
fn partial_names() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".tictactoe-").suffix(".partial");
    // As a plain create would make it: readable by all, less the umask.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder
}

/// Whether an existing output is replaced whole: a regular file with no
/// other name. A link, a hard-linked file, a device, a pipe or a socket is
/// not.
/// The replacement must also be able to keep the file's owner: a file
/// owned by another user (root aside) is written into instead, as a plain
/// create would, so that it keeps its owner and group, and a folder with
/// the sticky bit (`/tmp`) lets it be written.
fn replaced_whole(path: &Path, meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    let (other_names, owner_kept) = {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        let writer = nix::unistd::geteuid();
        (meta.nlink() > 1, writer.is_root() || writer.as_raw() == meta.uid())
    };
    // Windows keeps a file's links in its information, not its metadata.
    // Links that cannot be counted may be there: the file is written into.
    #[cfg(windows)]
    let (other_names, owner_kept) = (
        open_to_ask(path)
            .and_then(winapi_util::file::information)
            .map_or(true, |information| information.number_of_links() > 1),
        true,
    );
    meta.file_type().is_file() && !other_names && owner_kept
}

/// Whether `path` names the file standard output is open on.
fn is_stdout(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let stdout = duplicate(&io::stdout()).and_then(|file| file.metadata());
        match (stdout, std::fs::metadata(path)) {
            (Ok(stdout), Ok(named)) => stdout.dev() == named.dev() && stdout.ino() == named.ino(),
            _ => false,
        }
    }
    #[cfg(windows)]
    {
        identity(io::stdout()).is_some_and(|stdout| identity_of(path) == Some(stdout))
    }
}

/// Refuses `path` as an output when it is one of `inputs`, by any name: a
/// usage error, before anything is written.
pub fn refuse_an_input(path: &Path, inputs: &[InputSource]) -> Result<(), Error> {
    match inputs.iter().find(|input| same_file(input, path)) {
        Some(input) => Err(Error::Usage(format!(
            "the output {} is the input {}: writing it would destroy the input",
            path.display(),
            input_name(input)
        ))),
        None => Ok(()),
    }
}

/// Refuses a standard output open on one of `inputs` (`tictactoe in.txt >>
/// in.txt`): appending to a file while reading it would destroy it, or
/// never end.
pub fn refuse_stdout_on(inputs: &[InputSource]) -> Result<(), Error> {
    match inputs.iter().find(|input| stdout_is(input)) {
        Some(input) => Err(Error::Usage(format!(
            "standard output is the input {}: writing it would destroy the input",
            input_name(input)
        ))),
        None => Ok(()),
    }
}

/// An input as messages name it.
fn input_name(input: &InputSource) -> String {
    match input {
        InputSource::Stdin => "standard input".to_owned(),
        InputSource::Path(input) => input.display().to_string(),
    }
}

/// Whether standard output is open on `input`, a regular file (a terminal
/// or `/dev/null` may well be both).
fn stdout_is(input: &InputSource) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let stdout = duplicate(&io::stdout()).and_then(|file| file.metadata());
        let input = match input {
            InputSource::Path(input) => std::fs::metadata(input),
            InputSource::Stdin => duplicate(&io::stdin()).and_then(|file| file.metadata()),
        };
        match (stdout, input) {
            (Ok(stdout), Ok(input)) => {
                stdout.is_file() && stdout.dev() == input.dev() && stdout.ino() == input.ino()
            }
            _ => false,
        }
    }
    #[cfg(windows)]
    {
        identity(io::stdout()).is_some_and(|stdout| identity_of_input(input) == Some(stdout))
    }
}

/// The identity (see [`identity`]) of an input's file.
#[cfg(windows)]
fn identity_of_input(input: &InputSource) -> Option<(u64, u64)> {
    match input {
        InputSource::Path(input) => identity_of(input),
        InputSource::Stdin => identity(io::stdin()),
    }
}

/// Whether `input` is the file at `path`, by whatever name or link reached
/// it: the same device and inode on Unix, the same volume and file index
/// on Windows.
#[cfg(unix)]
pub fn same_file(input: &InputSource, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(output) = std::fs::metadata(path) else {
        // Nothing there yet: it cannot be an input.
        return false;
    };
    let input = match input {
        InputSource::Path(input) => std::fs::metadata(input),
        InputSource::Stdin => duplicate(&io::stdin()).and_then(|file| file.metadata()),
    };
    input.is_ok_and(|input| input.dev() == output.dev() && input.ino() == output.ino())
}

/// Whether `input` is the file at `path`, by whatever name or link reached
/// it: the same device and inode on Unix, the same volume and file index
/// on Windows (where metadata has no file index: both are opened).
#[cfg(windows)]
pub fn same_file(input: &InputSource, path: &Path) -> bool {
    // Nothing there yet (or no file's identity): it cannot be an input.
    identity_of(path).is_some_and(|output| identity_of_input(input) == Some(output))
}

/// Termination signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) held back from
/// this thread while it replaces a folder. A file is written anonymous and
/// named only when complete, but a folder has no anonymous form: one
/// interrupted midway would be left behind, hidden, beside its target. A
/// signal that came meanwhile is delivered when the guard drops, after the
/// work and its clean-up, and ends the process as it would have.
pub struct SignalsHeld {
    /// The mask to restore; `None` where it could not be changed.
    #[cfg(unix)]
    previous: Option<nix::sys::signal::SigSet>,
}

impl SignalsHeld {
    /// Holds the termination signals back until the guard drops. Call it
    /// with no other thread running: a signal sent to the process goes to
    /// any thread that does not hold it back.
    pub fn hold() -> SignalsHeld {
        #[cfg(unix)]
        {
            use nix::sys::signal::{SigSet, SigmaskHow, Signal};
            let mut held = SigSet::empty();
            for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP, Signal::SIGQUIT] {
                held.add(signal);
            }
            // Unheld, a signal interrupts as before: nothing worse.
            SignalsHeld {
                previous: held.thread_swap_mask(SigmaskHow::SIG_BLOCK).ok(),
            }
        }
        #[cfg(not(unix))]
        SignalsHeld {}
    }
}

impl Drop for SignalsHeld {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(previous) = self.previous.take() {
            let _ = previous.thread_set_mask();
        }
    }
}

/// Opens `path` for reading if it is a regular file, as the open handle
/// says, and `None` if it is anything else (a folder, a FIFO, a device).
/// A FIFO is opened without waiting for a writer, and what is checked is
/// what was opened: a file swapped for a FIFO or `/dev/zero` after a look
/// at its name can neither block the open nor feed an endless read.
pub fn open_regular_file(path: &Path) -> io::Result<Option<File>> {
    // Looked at before it is opened too: opening a device can act (a tape
    // rewinds, a terminal becomes the controlling one).
    if !std::fs::metadata(path)?.is_file() {
        return Ok(None);
    }
    #[cfg(unix)]
    let file = {
        use nix::fcntl::{FcntlArg, OFlag, fcntl};
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags((OFlag::O_NONBLOCK | OFlag::O_NOCTTY).bits())
            .open(path)?;
        if !file.metadata()?.is_file() {
            return Ok(None);
        }
        // Readers of the handle (a solution given it as standard input)
        // get an ordinary one.
        fcntl(&file, FcntlArg::F_SETFL(OFlag::empty())).map_err(io::Error::from)?;
        file
    };
    #[cfg(not(unix))]
    let file = File::open(path)?;
    Ok(file.metadata()?.is_file().then_some(file))
}

/// Whether something is at `path`: a file, a folder, or a device that has
/// no metadata but opens (Windows' `NUL`), which `Path::exists` misses.
pub fn exists(path: &Path) -> bool {
    path.exists() || File::open(path).is_ok()
}

/// Where an input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputSource {
    /// Standard input.
    Stdin,
    /// A file.
    Path(PathBuf),
}

impl InputSource {
    /// `-` means standard input, as is the custom.
    pub fn from_arg(path: PathBuf) -> InputSource {
        if path.as_os_str() == "-" {
            InputSource::Stdin
        } else {
            InputSource::Path(path)
        }
    }
}

/// Where results go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputTarget {
    /// Standard output.
    Stdout,
    /// A file, created or truncated.
    Path(PathBuf),
}

impl OutputTarget {
    /// `-o FILE`: `-` means standard output, as `-` for an input means
    /// standard input.
    pub fn from_arg(path: Option<PathBuf>) -> OutputTarget {
        match path {
            Some(path) if path.as_os_str() != "-" => OutputTarget::Path(path),
            _ => OutputTarget::Stdout,
        }
    }
}

/// Output held back until the command knows it may go: in memory up to
/// [`Held::IN_MEMORY`] bytes, past that in an anonymous temporary file, so
/// that holding back a case of ten million moves (or a whole file, whose
/// count must come first) costs no more memory than a small one.
#[derive(Default)]
pub struct Held {
    memory: Vec<u8>,
    file: Option<File>,
}

impl Held {
    /// Bytes held in memory before the rest goes to a temporary file.
    pub const IN_MEMORY: usize = 4 * 1024 * 1024;

    /// What is held, to read from its start.
    pub fn into_reader(mut self) -> io::Result<Box<dyn Read + Send>> {
        match self.file.take() {
            Some(mut file) => {
                file.write_all(&self.memory)?;
                file.rewind()?;
                Ok(Box::new(file))
            }
            None => Ok(Box::new(io::Cursor::new(self.memory))),
        }
    }

    /// How many bytes are held.
    pub fn held_bytes(&mut self) -> io::Result<u64> {
        let spilled = match &mut self.file {
            Some(file) => file.stream_position()?,
            None => 0,
        };
        Ok(spilled + self.memory.len() as u64)
    }

    /// Forgets what is held.
    pub fn clear(&mut self) -> io::Result<()> {
        self.memory.clear();
        if let Some(file) = &mut self.file {
            file.set_len(0)?;
            file.rewind()?;
        }
        Ok(())
    }

    /// Writes what is held to `out`, and forgets it.
    pub fn release(&mut self, out: &mut impl Write) -> io::Result<()> {
        if let Some(file) = &mut self.file {
            file.write_all(&self.memory)?;
            self.memory.clear();
            file.rewind()?;
            io::copy(file, out)?;
        } else {
            out.write_all(&self.memory)?;
        }
        self.clear()
    }
}

impl Write for Held {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let len = self.memory.len() + bytes.len();
        // Memory grows by doubling up to IN_MEMORY and no further, asked
        // for fallibly: under a sandbox's cap on memory, a buffer doubled
        // past it aborted the process where the file would have done.
        let room = len <= self.memory.capacity()
            || (len <= Self::IN_MEMORY && {
                let want = len.max(2 * self.memory.capacity()).min(Self::IN_MEMORY);
                self.memory.try_reserve_exact(want - self.memory.len()).is_ok()
            });
        if room {
            self.memory.extend_from_slice(bytes);
            return Ok(bytes.len());
        }
        let file = match &mut self.file {
            Some(file) => file,
            // Named in the error: the output is fine, the temporary folder is not.
            None => self.file.insert(tempfile::tempfile().map_err(|error| {
                let folder = std::env::temp_dir();
                io::Error::new(
                    error.kind(),
                    format!("no temporary file in {}: {error}", folder.display()),
                )
            })?),
        };
        file.write_all(&self.memory)?;
        self.memory.clear();
        file.write_all(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A file a command reads more than once, by a name it can open again: the
/// file itself when it is a regular file, or else (a pipe, a FIFO, a
/// terminal: bytes that can be read only once) a temporary copy of it,
/// read from it once and deleted when this is dropped.
pub struct Rereadable {
    /// The name the user gave.
    name: PathBuf,
    /// The file to open: that name, or the copy's.
    path: PathBuf,
    _copy: Option<tempfile::NamedTempFile>,
}

impl Rereadable {
    /// Makes `path` re-readable, copying it if it has to. A name that
    /// cannot be looked at is left as it is, for the first open to report.
    pub fn of(path: &Path) -> Result<Rereadable, Error> {
        let regular = std::fs::metadata(path).map_or(true, |metadata| metadata.is_file());
        if regular {
            return Ok(Rereadable {
                name: path.to_path_buf(),
                path: path.to_path_buf(),
                _copy: None,
            });
        }
        let (mut input, name) = open(&InputSource::Path(path.to_path_buf()))?;
        let copy_error = |source| Error::Read {
            input: name.clone(),
            source,
        };
        // No temporary file is this machine's fault, not the input's.
        let mut copy = tempfile::NamedTempFile::new().map_err(|source| Error::CreateOutput {
            path: std::env::temp_dir(),
            source,
        })?;
        io::copy(&mut input, copy.as_file_mut()).map_err(copy_error)?;
        Ok(Rereadable {
            name: path.to_path_buf(),
            path: copy.path().to_path_buf(),
            _copy: Some(copy),
        })
    }

    /// The name the user gave it, for messages.
    pub fn name(&self) -> &Path {
        &self.name
    }

    /// Opens it from its start, named in messages as the user named it.
    pub fn open(&self) -> Result<(Box<dyn Read>, InputName), Error> {
        let name = InputName::Path(self.name.clone());
        match open(&InputSource::Path(self.path.clone())) {
            Ok((reader, _)) => Ok((reader, name)),
            Err(Error::Open { source, .. }) => Err(Error::Open {
                path: self.name.clone(),
                source,
            }),
            Err(other) => Err(other),
        }
    }
}

/// An output whose reader may leave early (`| head -1`): once it has, what
/// is written is dropped, so that the command runs on to its end and its
/// exit status still tells whether it found a failure.
pub struct Unheard<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> Unheard<W> {
    /// Wraps an output.
    pub fn new(inner: W) -> Unheard<W> {
        Unheard {
            inner,
            closed: false,
        }
    }
}

impl<W: Write> Write for Unheard<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(bytes.len());
        }
        match self.inner.write(bytes) {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(bytes.len())
            }
            written => written,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.inner.flush() {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            _ if self.closed => Ok(()),
            flushed => flushed,
        }
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    /// A FIFO no one writes once made `test` wait forever on its open.
    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_is_opened_as_one_and_a_fifo_does_not_wait() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).expect("fifo");
        assert!(open_regular_file(&fifo).expect("opens").is_none());
        assert!(open_regular_file(dir.path()).expect("opens").is_none());
        assert!(open_regular_file(Path::new("/dev/zero")).expect("opens").is_none());
        let file = dir.path().join("file");
        std::fs::write(&file, "1\n").expect("file");
        let mut text = String::new();
        let mut opened = open_regular_file(&file).expect("opens").expect("a regular file");
        opened.read_to_string(&mut text).expect("read");
        assert_eq!(text, "1\n");
        assert!(open_regular_file(&dir.path().join("missing")).is_err());
    }

    #[test]
    fn held_output_keeps_at_most_its_memory_and_the_rest_in_a_file() {
        let mut held = Held::default();
        let mut written = Vec::new();
        // Writes of every size, a large one among them: 10 MiB in all.
        for (index, size) in (0..).zip([1, 3000, 700_000, 5 * 1024 * 1024, 17, 64 * 1024].iter().cycle()) {
            if written.len() >= 10 * 1024 * 1024 {
                break;
            }
            let bytes = vec![b'0' + (index % 10) as u8; *size];
            held.write_all(&bytes).expect("held");
            written.extend_from_slice(&bytes);
            assert!(held.memory.capacity() <= Held::IN_MEMORY, "{} bytes in memory", held.memory.capacity());
        }
        let mut back = Vec::new();
        held.into_reader().expect("reader").read_to_end(&mut back).expect("read back");
        assert!(back == written, "{} bytes back of {}", back.len(), written.len());
    }
}
