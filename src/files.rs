//! Opening inputs and the output: files, standard input and standard output.
//!
//! Standard streams are taken as plain files (a duplicate of the descriptor),
//! so that nothing buffers them twice: the readers and the writer do their own
//! buffering.

use crate::error::{Error, InputName};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::path::PathBuf;

/// Opens an input for reading, with its name for messages.
///
/// A closed standard input reads as empty, so it ends in a data error like
/// any other empty input.
pub fn open(source: &InputSource) -> Result<(Box<dyn Read>, InputName), Error> {
    match source {
        InputSource::Stdin => {
            let reader: Box<dyn Read> = match io::stdin().as_fd().try_clone_to_owned() {
                Ok(fd) => {
                    let file = File::from(fd);
                    widen_pipe(&file);
                    Box::new(file)
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
            let file = File::open(path).map_err(open_error)?;
            // Opening a directory succeeds on Unix; reading it would not.
            if file.metadata().map_err(open_error)?.is_dir() {
                return Err(open_error(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                )));
            }
            widen_pipe(&file);
            Ok((Box::new(file), InputName::Path(path.clone())))
        }
    }
}

/// Pipe capacity asked for: a default 64 KiB pipe makes the writer wait
/// for the solver at every few reads (docs/PERFORMANCE.md). 1 MiB is what an
/// unprivileged process may ask for by default.
const PIPE_CAPACITY: usize = 1 << 20;

/// Makes a pipe's buffer larger, so the writer runs ahead of the solver and
/// each read returns a full chunk. Anything but a pipe is left alone, and a
/// refusal only costs speed.
fn widen_pipe(file: &File) {
    #[cfg(target_os = "linux")]
    if file.metadata().is_ok_and(|meta| {
        use std::os::unix::fs::FileTypeExt;
        meta.file_type().is_fifo()
    }) {
        let _ = rustix::pipe::fcntl_setpipe_size(file, PIPE_CAPACITY);
    }
}

/// Opens the output, unbuffered: the writer gathers its own blocks.
pub fn create(target: &OutputTarget) -> Result<Box<dyn Write>, Error> {
    match target {
        OutputTarget::Stdout => {
            let fd = io::stdout()
                .as_fd()
                .try_clone_to_owned()
                .map_err(Error::Write)?;
            Ok(Box::new(File::from(fd)))
        }
        OutputTarget::Path(path) => {
            let file = File::create(path).map_err(|source| Error::CreateOutput {
                path: path.clone(),
                source,
            })?;
            Ok(Box::new(file))
        }
    }
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
