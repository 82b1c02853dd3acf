//! Opening inputs and the output: files, standard input and standard output.
//!
//! Standard streams are taken as plain files (a duplicate of the descriptor),
//! so that nothing buffers them twice: the readers and the writer do their own
//! buffering.

use crate::config::{InputSource, OutputTarget};
use crate::error::{Error, InputName};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;

/// Opens an input for reading, with its name for messages.
///
/// A closed standard input reads as empty, so it ends in a data error like
/// any other empty input.
pub fn open(source: &InputSource) -> Result<(Box<dyn Read>, InputName), Error> {
    match source {
        InputSource::Stdin => {
            let reader: Box<dyn Read> = match io::stdin().as_fd().try_clone_to_owned() {
                Ok(fd) => Box::new(File::from(fd)),
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
            Ok((Box::new(file), InputName::Path(path.clone())))
        }
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
