//! One module per subcommand, each with a `run` taking its config and output.

pub mod completions;
pub mod convert;
pub mod solve;
pub mod trace;
