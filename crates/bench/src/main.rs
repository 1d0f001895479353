//! `burraco-bench render`: the first public pages after a change, rendered
//! in-process (see `render.rs`); not part of the server's binary. Run by
//! `.ci/bench-public`, or by hand:
//! `cargo run --release -p burraco-bench -- render --runs 3`.
//! `burraco-bench hall`: a hall of tables entering and confirming their
//! sheets at once against a running server (see `hall.rs`); run by
//! `.ci/bench-hall`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod hall;
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
    /// Every table of round 1 entering its sheet at once, then every
    /// confirmation at once, against a running server: per wave count,
    /// p50/p99/max ms, errors.
    Hall {
        /// The server, e.g. http://127.0.0.1:18473.
        #[arg(long)]
        url: String,
        /// A tournament imported with its pairs checked in, not started.
        #[arg(long)]
        tournament: i64,
        /// An admin's API token (`burraco-td create-token`).
        #[arg(long, env = "BENCH_TOKEN")]
        token: String,
        #[arg(long)]
        username: String,
        #[arg(long, env = "BENCH_PASSWORD")]
        password: String,
        /// The database's name in the figures.
        #[arg(long, default_value = "sqlite")]
        label: String,
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
        Command::Hall {
            url,
            tournament,
            token,
            username,
            password,
            label,
        } => {
            let o = hall::Options {
                url: url.trim_end_matches('/').to_string(),
                token,
                username,
                password,
                tournament,
                label,
            };
            tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?
                .block_on(hall::run(&o))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
