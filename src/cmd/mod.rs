//! One module per subcommand, each with a `run` taking its config and output.

pub mod check;
pub mod generator;
pub mod solve;
pub mod stress;
pub mod test;
pub mod validate;
