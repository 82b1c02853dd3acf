//! The Coding Ninjas batch format: T, then per case N, Q and Q moves `ROW COL PLAYER`.

pub mod read;
pub mod short_cases;
pub mod cut;
pub mod split;
pub mod strict;
