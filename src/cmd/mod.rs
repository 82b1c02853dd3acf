//! One module per subcommand, each with a `run` taking its config and output.

pub mod check;
pub mod solve;
pub mod validate;
