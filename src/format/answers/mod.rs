//! Answer files in both formats: read as results, and compared the one way every command judges by.

mod compare;
mod exact;
pub mod leetcode;
pub mod read;

pub use compare::*;

/// A reader of at most `.1` bytes a read, so that a test meets every cut of
/// the input between reads (and two sides' reads interleave every way).
#[cfg(test)]
pub(crate) struct Trickle<'a>(pub &'a [u8], pub usize);

#[cfg(test)]
impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let count = self.1.min(buf.len()).min(self.0.len());
        buf[..count].copy_from_slice(&self.0[..count]);
        self.0 = &self.0[count..];
        Ok(count)
    }
}
