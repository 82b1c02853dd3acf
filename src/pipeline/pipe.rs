//! An in-process pipe, so a checker can compare against answers a solver thread is still writing.
//!
//! The expected answer recomputed from the input streams through a bounded
//! channel of blocks, so memory stays flat however large the file.

use std::io::{self, Read, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Blocks in flight before the writer waits for the reader.
const BLOCKS_IN_FLIGHT: usize = 4;

/// The writing end: each write sends a copy of its bytes as one block.
pub struct PipeWriter(SyncSender<Vec<u8>>);

/// The reading end: reads the blocks in order, then ends when the writer is dropped.
pub struct PipeReader {
    blocks: Receiver<Vec<u8>>,
    block: Vec<u8>,
    pos: usize,
}

/// A connected writer and reader.
pub fn pipe() -> (PipeWriter, PipeReader) {
    let (sender, receiver) = sync_channel(BLOCKS_IN_FLIGHT);
    (
        PipeWriter(sender),
        PipeReader {
            blocks: receiver,
            block: Vec::new(),
            pos: 0,
        },
    )
}

impl Write for PipeWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if bytes.is_empty() {
            return Ok(0);
        }
        self.0
            .send(bytes.to_vec())
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Read for PipeReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.block.len() {
            match self.blocks.recv() {
                Ok(block) => {
                    self.block = block;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let count = out.len().min(self.block.len() - self.pos);
        out[..count].copy_from_slice(&self.block[self.pos..self.pos + count]);
        self.pos += count;
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_arrive_in_order_and_the_end_follows_the_writer() {
        let (mut writer, mut reader) = pipe();
        let sender = std::thread::spawn(move || {
            for block in 0..100u8 {
                writer.write_all(&[block; 1000]).expect("reader is alive");
            }
        });
        let mut received = Vec::new();
        reader.read_to_end(&mut received).expect("in memory");
        sender.join().expect("writer finishes");
        assert_eq!(received.len(), 100_000);
        assert!(
            received
                .chunks(1000)
                .enumerate()
                .all(|(i, c)| c.iter().all(|&b| b == i as u8))
        );
    }

    #[test]
    fn a_dropped_reader_breaks_the_pipe() {
        let (mut writer, reader) = pipe();
        drop(reader);
        let error = writer.write(b"x").expect_err("nobody reads");
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
