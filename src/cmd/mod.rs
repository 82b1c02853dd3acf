//! One module per subcommand, each with a `run` taking its config and output.

pub mod check;
pub mod completions;
pub mod convert;
pub mod generator;
pub mod solve;
pub mod stress;
pub mod test;
pub mod trace;
pub mod validate;
