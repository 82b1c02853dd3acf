//! One module per subcommand, each with a `run` taking its config and output.

pub mod solve;
pub mod validate;
