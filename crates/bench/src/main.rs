//! `burraco-bench render`: the first public pages after a change, rendered
//! in-process (see `render.rs`); not part of the server's binary. Run by
//! `.ci/bench-public`, or by hand:
//! `cargo run --release -p burraco-bench -- render --runs 3`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod render;

#[derive(Parser)]
#[command(name = "burraco-bench", about = "burraco-td's in-process benchmarks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The first public pages after a change, in-process: median/p95/max ms.
    Render {
        #[arg(long, default_value_t = 300)]
        pairs: usize,
        #[arg(long, default_value_t = 8)]
        rounds: usize,
        #[arg(long, default_value_t = 30)]
        runs: usize,
        /// A database to fill (e.g. an empty PostgreSQL one); default: a
        /// temporary SQLite file.
        #[arg(long)]
        bench_database: Option<String>,
        /// What the requests accept (a phone: gzip, deflate, br).
        #[arg(long, default_value = "gzip, deflate, br")]
        accept_encoding: String,
    },
}

fn main() -> anyhow::Result<ExitCode> {
    match Cli::parse().command {
        Command::Render {
            pairs,
            rounds,
            runs,
            bench_database,
            accept_encoding,
        } => {
            burraco_td::telemetry::init("warn");
            let o = render::Options {
                pairs,
                rounds,
                runs: runs.max(1),
                database_url: bench_database,
                accept_encoding,
            };
            let (report, backend) = actix_web::rt::System::new().block_on(render::run(&o))?;
            report.print(&o, backend);
            Ok(ExitCode::SUCCESS)
        }
    }
}
