use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    burraco_td::cli::run(burraco_td::cli::Cli::parse())
}
