//! The command line's arguments (clap).

use clap::{Args, Parser, Subcommand};

use crate::config::Settings;

#[derive(Debug, Parser)]
#[command(
    name = "burraco-td",
    version,
    about = "Burraco tournaments, pairs and teams: seating, score sheets, standings, prizes"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, Args, Clone)]
pub struct DbArgs {
    /// SQLite file path, or a postgres:// URL.
    #[arg(long, env = "DATABASE_URL", default_value = Settings::DEFAULT_DATABASE, global = true)]
    pub database_url: String,
}

#[derive(Debug, Args, Clone)]
pub struct ServeArgs {
    /// Address to listen on: every interface, IPv4 and IPv6, by default
    /// (phones in the hall open the table cards' QR codes); `127.0.0.1:8080`
    /// for this computer only.
    #[arg(long, env = "BIND", default_value = Settings::DEFAULT_BIND)]
    pub bind: String,
    /// Mark cookies Secure (set this when the server is reached over HTTPS).
    #[arg(long, env = "SECURE_COOKIES", default_value_t = false)]
    pub secure_cookies: bool,
    /// Minutes of inactivity after which a staff session ends.
    #[arg(long, env = "SESSION_IDLE_MINUTES", default_value_t = Settings::DEFAULT_IDLE_MINUTES)]
    pub session_idle_minutes: u64,
    /// Hours after login at which a staff session ends, however active.
    #[arg(long, env = "SESSION_MAX_HOURS", default_value_t = Settings::DEFAULT_SESSION_MAX_HOURS)]
    pub session_max_hours: u64,
    /// Take the client address of the brakes from X-Forwarded-For (only
    /// behind a reverse proxy that sets it; otherwise clients could pick it).
    #[arg(long, env = "TRUST_FORWARDED_FOR", default_value_t = false)]
    pub trust_forwarded_for: bool,
    /// Time zone for displayed times (storage is UTC).
    #[arg(long, env = "BURRACO_TIMEZONE", default_value = Settings::DEFAULT_TIMEZONE)]
    pub timezone: String,
    /// The address players reach the server at (for the QR codes on the
    /// table cards), e.g. `https://burraco.club.it`; default: the host the
    /// director's browser used.
    #[arg(long, env = "PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Open connections at most (kept below the open-file limit, whose
    /// soft value is raised to the hard one at start).
    #[arg(long, env = "MAX_CONNECTIONS", default_value_t = Settings::DEFAULT_MAX_CONNECTIONS)]
    pub max_connections: usize,
    /// Open connections at most from one client address (ignored with
    /// --trust-forwarded-for: the proxy's own limit applies).
    #[arg(long, env = "MAX_CONNECTIONS_PER_ADDRESS",
        default_value_t = Settings::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS)]
    pub max_connections_per_address: usize,
    /// Seconds a request body may take to arrive (plus one per 32 KiB
    /// received); past it: 408 and the connection closed.
    #[arg(long, env = "BODY_TIMEOUT_SECS", default_value_t = Settings::DEFAULT_BODY_TIMEOUT_SECS)]
    pub body_timeout_secs: u64,
    /// Password hashes at once (argon2, 19 MiB each); default: the cores.
    #[arg(long, env = "HASH_CONCURRENCY")]
    pub hash_concurrency: Option<usize>,
    /// Logins that may wait for a password hash; beyond them: 503.
    #[arg(long, env = "HASH_QUEUE", default_value_t = Settings::DEFAULT_HASH_QUEUE)]
    pub hash_queue: usize,
    #[command(flatten)]
    pub db: DbArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start the web server (the default). Its flags may come before or
    /// after `serve`.
    Serve(ServeArgs),
    /// Create a staff account; the password is read from standard input or a prompt.
    CreateUser {
        /// admin, director or referee.
        #[arg(long)]
        role: String,
        /// The username (3–32 letters, digits, dots, dashes, underscores).
        name: String,
    },
    /// Create a personal API token for an account and print it, once (only
    /// its hash is stored): send it as `Authorization: Bearer TOKEN`.
    CreateToken {
        /// The account's username.
        username: String,
        /// What the token is for (shown on the account page).
        #[arg(long, default_value = "CLI")]
        name: String,
    },
    /// Movements, as JSON (for scripting and checking).
    #[command(subcommand)]
    Movement(MovementCommand),
    /// Write a tournament of the database as a tournament file (FORMAT.md).
    Export {
        /// The tournament's id (as in /director/t/ID).
        tournament: i64,
        /// Time zone of the date and start time written.
        #[arg(long, env = "BURRACO_TIMEZONE", default_value = Settings::DEFAULT_TIMEZONE)]
        timezone: String,
    },
    /// Read a tournament file into the database as a new tournament, or a
    /// circuit bundle as a circuit with its stages (all or nothing).
    Import {
        /// The tournament file; standard input when absent.
        file: Option<std::path::PathBuf>,
        /// The director who owns the imported tournament (default: the
        /// first administrator, whom the command line acts as).
        #[arg(long)]
        owner: Option<String>,
        /// Time zone of the file's date and start time.
        #[arg(long, env = "BURRACO_TIMEZONE", default_value = Settings::DEFAULT_TIMEZONE)]
        timezone: String,
    },
    /// A consistent copy of the live SQLite database into FILE (a new
    /// file), while the server takes writes. Restore: stop the server and
    /// copy FILE over the database file. PostgreSQL: use pg_dump (README).
    Backup {
        /// Where the copy goes (must not exist).
        file: std::path::PathBuf,
    },
    /// Write a generated, valid tournament file (for benchmarks and demos):
    /// `pairs` pairs, `rounds` complete rounds, deterministic for a seed.
    SampleTournament {
        #[arg(long, default_value_t = 300)]
        pairs: usize,
        #[arg(long, default_value_t = 8)]
        rounds: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Leave it running (not finished), so that it still takes changes.
        #[arg(long, default_value_t = false)]
        running: bool,
        /// A team tournament of this many teams instead (`--pairs` is then
        /// not read).
        #[arg(long)]
        teams: Option<usize>,
    },
    /// Write a generated circuit with its finished stages as one JSON
    /// document (`burraco-td/circuit-bundle@1`, for benchmarks and demos):
    /// `stages` tournaments whose players come from a pool of `players`.
    SampleCircuit {
        #[arg(long, default_value_t = 30)]
        stages: usize,
        #[arg(long, default_value_t = 150)]
        players: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Standings, pool and prizes of a tournament file (FORMAT.md), as JSON.
    /// Exit 1 when a sheet breaks a rule, 2 when the file is unreadable.
    Standings {
        /// The tournament file; standard input when absent.
        file: Option<std::path::PathBuf>,
        /// Language of the messages (it or en; default from LANG, else en).
        #[arg(long)]
        lang: Option<String>,
    },
    /// The round the program would seat next for a tournament file
    /// (FORMAT.md "`burraco-td next-round`"), as JSON in the shape of a
    /// round of the file. Exit 1 with the reason when no round can be
    /// seated, 2 when the file is unreadable or invalid.
    NextRound {
        /// The tournament file (pairs or teams).
        file: std::path::PathBuf,
        /// The seed of the first draw (a file with no round).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Language of the messages (it or en; default from LANG, else en).
        #[arg(long)]
        lang: Option<String>,
    },
    /// A circuit's season standings and finalists (FORMAT.md "The circuit
    /// file"), as JSON: the circuit file, then its stages' tournament files
    /// in stage order (unfinished ones count nowhere). Exit 1 when a file is
    /// invalid (the problems named with their file), 2 when one cannot be
    /// read.
    Circuit {
        /// The circuit file (`burraco-td/circuit@1`).
        circuit: std::path::PathBuf,
        /// The stages' tournament files, in order.
        stages: Vec<std::path::PathBuf>,
        /// Language of the messages (it or en; default from LANG, else en).
        #[arg(long)]
        lang: Option<String>,
    },
    /// The member list (issue 36, RULES.md §15).
    Members {
        #[command(subcommand)]
        command: MembersCommand,
    },
    /// The rules engine, JSON on stdin/stdout. Exit 0: valid; 1: valid input
    /// that breaks a rule; 2: unreadable input.
    Rules {
        /// Language of the messages (it or en; default from LANG, else en).
        #[arg(long, global = true)]
        lang: Option<String>,
        #[command(subcommand)]
        command: RulesCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// Check one table's score sheet (JSON on stdin).
    CheckSheet,
    /// Read a meld: `rules meld 7H 8H 9H 10H JH QH KH`.
    Meld {
        /// Rule profile: codice (default) or classic.
        #[arg(long, default_value = "codice")]
        profile: String,
        /// The cards (10H, AS, 2C, JK …).
        #[arg(required = true)]
        cards: Vec<String>,
    },
    /// VP for an MP difference: `rules vp --hands 3 -- -560`.
    Vp {
        /// Hands per round (3 or 4 have preset scales).
        #[arg(long, default_value_t = 3)]
        hands: u32,
        /// A scale's ten upper bounds, comma-separated (for other hand counts).
        #[arg(long, value_delimiter = ',')]
        scale: Option<Vec<i64>>,
        /// The MP difference of the first side.
        #[arg(allow_negative_numbers = true)]
        difference: i64,
    },
    /// Seat draw from four cards: players 1 and 2 are one pair, 3 and 4 the other.
    SeatDraw {
        /// Suit order, highest first (default HDCS).
        #[arg(long)]
        suit_order: Option<String>,
        #[arg(required = true)]
        cards: Vec<String>,
    },
    /// Prize pool and each entry's prize (JSON on stdin).
    Prizes,
}

#[derive(Debug, Subcommand)]
pub enum MovementCommand {
    /// A random first-round draw followed by Mitchell rounds.
    Mitchell {
        /// Number of pairs (numbered 1..N).
        #[arg(long)]
        pairs: u32,
        /// Number of rounds.
        #[arg(long)]
        rounds: u32,
        /// Tables the moving line advances each round.
        #[arg(long, default_value_t = 1)]
        advance: u32,
        /// The draw's random seed (printed on stderr when chosen at random).
        #[arg(long)]
        seed: Option<u64>,
        /// Accept a plan where pairs meet twice.
        #[arg(long, default_value_t = false)]
        allow_repeats: bool,
    },
}

/// What to do with the member list.
#[derive(Debug, Subcommand)]
pub enum MembersCommand {
    /// Imports the members of a CSV or Excel FILE (card, surname, name,
    /// valid_until[, type] or tessera, cognome, nome, scadenza[, tipo]);
    /// a card already listed is replaced.
    Import { file: std::path::PathBuf },
}
