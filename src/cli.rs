//! The command line: `serve` (the default), `create-user`, and the engines'
//! scripting commands. `anyhow` lives here, at the edge.

use std::io::{self, BufRead, IsTerminal, Read};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

use crate::auth::{password, NewPassword, Role, Username};
use crate::config::{parse_timezone, Settings};
use crate::startup::{prepare_database, Application};

mod args;

pub use args::{Cli, Command, DbArgs, MovementCommand, RulesCommand, ServeArgs};

pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        None => serve(cli.serve),
        Some(Command::Serve(args)) => serve(args),
        Some(Command::CreateUser { role, name }) => create_user(&cli.serve.db, &role, &name),
        Some(Command::CreateToken { username, name }) => {
            create_token(&cli.serve.db, &username, &name)
        }
        Some(Command::Movement(cmd)) => Ok(movement(cmd)),
        Some(Command::SampleTournament {
            pairs,
            rounds,
            seed,
            running,
            teams,
        }) => match teams {
            Some(teams) => sample_team_tournament(teams, rounds, seed, running),
            None => sample_tournament(pairs, rounds, seed, running),
        },
        Some(Command::SampleCircuit {
            stages,
            players,
            seed,
        }) => sample_circuit(stages, players, seed),
        Some(Command::Standings { file, lang }) => {
            let lang = cli_lang(lang.as_deref());
            Ok(run_on_file(file, |input| {
                crate::standings::run_cli(input, lang)
            }))
        }
        Some(Command::NextRound { file, seed, lang }) => {
            let lang = cli_lang(lang.as_deref());
            Ok(run_on_file(Some(file), |input| {
                crate::next_round::run_cli(input, seed, lang)
            }))
        }
        Some(Command::Circuit {
            circuit,
            stages,
            lang,
        }) => Ok(circuit_standings(
            &circuit,
            &stages,
            cli_lang(lang.as_deref()),
        )),
        Some(Command::Export {
            tournament,
            timezone,
        }) => export(&cli.serve.db, tournament, &timezone),
        Some(Command::Import {
            file,
            owner,
            timezone,
        }) => import(&cli.serve.db, file, owner, &timezone),
        Some(Command::Backup { file }) => backup(&cli.serve.db, file),
        Some(Command::Members {
            command: args::MembersCommand::Import { file },
        }) => import_members(&cli.serve.db, &file),
        Some(Command::Rules { lang, command }) => Ok(rules(command, cli_lang(lang.as_deref()))),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn sample_tournament(
    pairs: usize,
    rounds: usize,
    seed: u64,
    running: bool,
) -> anyhow::Result<ExitCode> {
    let max = crate::tournament_file::MAX_PAIRS;
    if !(2..=max).contains(&pairs) {
        eprintln!(
            "sample-tournament: --pairs {pairs}: a tournament file holds 2 to {max} pairs (FORMAT.md); nothing written"
        );
        return Ok(ExitCode::from(2));
    }
    let mut file = crate::tournament_file::fixtures::sample_tournament(pairs, rounds, seed);
    if running {
        file.status = Some(crate::tournament_file::Status::Running);
    }
    println!("{}", serde_json::to_string(&file)?);
    Ok(ExitCode::SUCCESS)
}

fn sample_team_tournament(
    teams: usize,
    rounds: usize,
    seed: u64,
    running: bool,
) -> anyhow::Result<ExitCode> {
    let mut file = crate::tournament_file::fixtures::sample_team_tournament(teams, rounds, seed);
    if running {
        file.status = Some(crate::tournament_file::Status::Running);
    }
    println!("{}", serde_json::to_string(&file)?);
    Ok(ExitCode::SUCCESS)
}

fn sample_circuit(stages: usize, players: usize, seed: u64) -> anyhow::Result<ExitCode> {
    let spec = crate::circuit::parse(
        r#"{"format": "burraco-td/circuit@1", "name": "Circuito di prova", "season": "2026/27",
            "points": {"method": "placing"}, "best_of": 20, "min_attendances": 5,
            "finals": {"stage_top_percent": 10, "overall_top_percent": 20, "overall_min_attendances": 10}}"#,
    )
    .map_err(|p| anyhow::anyhow!("the sample circuit: {p:?}"))?;
    let files = crate::tournament_file::fixtures::sample_circuit_stages(stages, players, seed);
    let bundle = crate::circuit::CircuitBundle::new(spec, files);
    println!("{}", serde_json::to_string(&bundle)?);
    Ok(ExitCode::SUCCESS)
}

fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    crate::telemetry::init("info");
    let mut settings = Settings::for_database(&args.db.database_url);
    settings.bind = args.bind;
    settings.secure_cookies = args.secure_cookies;
    settings.session_idle = Duration::from_secs(args.session_idle_minutes.max(1) * 60);
    settings.session_max = Duration::from_secs(args.session_max_hours.clamp(1, 24 * 365) * 3600);
    settings.trust_forwarded_for = args.trust_forwarded_for;
    settings.public_url = args
        .public_url
        .map(|u| u.trim().trim_end_matches('/').to_string())
        .filter(|u| !u.is_empty());
    settings.smtp = crate::config::smtp_from_env();
    settings.timezone = parse_timezone(&args.timezone).map_err(anyhow::Error::msg)?;
    settings.max_connections = args.max_connections.max(1);
    settings.max_connections_per_address = args.max_connections_per_address.max(1);
    settings.body_deadline.base = Duration::from_secs(args.body_timeout_secs.max(1));
    if let Some(n) = args.hash_concurrency {
        settings.hash_concurrency = n.max(1);
    }
    settings.hash_queue = args.hash_queue;
    let lang = cli_lang(None);
    let argv: Vec<String> = std::env::args().collect();
    let port = settings
        .bind
        .parse::<std::net::SocketAddr>()
        .map_or(8080, |a| a.port());
    let restart = crate::reach::restart_command(&argv, port);
    settings.restart_command = Some(restart.clone());
    actix_web::rt::System::new().block_on(async move {
        let app = Application::build(settings)?;
        // On standard output whatever RUST_LOG says: where the desk and
        // the phones open it.
        println!("{}", crate::reach::banner(app.listening(), &restart, lang));
        app.run_until_stopped()
            .await
            .context("server stopped with an error")
    })?;
    Ok(ExitCode::SUCCESS)
}

fn read_password_twice() -> anyhow::Result<(String, String)> {
    if io::stdin().is_terminal() {
        let a = rpassword::prompt_password("Password: ")?;
        let b = rpassword::prompt_password("Repeat the password: ")?;
        Ok((a, b))
    } else {
        let mut line = String::new();
        io::stdin().lock().read_line(&mut line)?;
        // Drain the rest so a pipe does not break.
        let _ = io::stdin().read_to_string(&mut String::new());
        let p = line.trim_end_matches(['\r', '\n']).to_string();
        Ok((p.clone(), p))
    }
}

fn create_user(db: &DbArgs, role: &str, name: &str) -> anyhow::Result<ExitCode> {
    crate::telemetry::init("warn");
    let role = Role::parse(role)
        .ok_or_else(|| anyhow::anyhow!("--role must be admin, director or referee"))?;
    let username = Username::parse(name).map_err(|e| anyhow::anyhow!("{e}"))?;
    let (a, b) = read_password_twice()?;
    let password = NewPassword::parse(&a, &b).map_err(|e| anyhow::anyhow!("{e}"))?;
    let settings = Settings::for_database(&db.database_url);
    let pool = prepare_database(&settings.database_url, 1)?;
    let db = crate::db::Db::new(pool, &settings.database_url);
    let hash = password::hash_password(password.expose())?;
    let name = username.as_str().to_string();
    let id = match block_on(crate::services::users::create_from_command_line(
        &db, name, hash, role,
    )) {
        Ok(id) => id,
        Err(crate::services::ServiceError::Invalid(_)) => {
            anyhow::bail!("the username {:?} is taken", username.as_str())
        }
        Err(e) => return Err(e.into()),
    };
    println!("created {} {} (id {id})", role, username.as_str());
    Ok(ExitCode::SUCCESS)
}

fn create_token(db: &DbArgs, username: &str, label: &str) -> anyhow::Result<ExitCode> {
    crate::telemetry::init("warn");
    let label = crate::auth::tokens::TokenLabel::parse(label)
        .map_err(|e| anyhow::anyhow!("--name: {e}"))?;
    let settings = Settings::for_database(&db.database_url);
    let pool = prepare_database(&settings.database_url, 1)?;
    let db = crate::db::Db::new(pool, &settings.database_url);
    let created = match crate::services::tokens::create_for_username(&db, username, label) {
        Ok(t) => t,
        Err(crate::services::ServiceError::NotFound) => {
            anyhow::bail!("no account named {:?}", username.trim())
        }
        Err(crate::services::ServiceError::Conflict(c)) => {
            anyhow::bail!("{}", c.message(cli_lang(None)))
        }
        Err(e) => return Err(e.into()),
    };
    // The token on stdout alone (for scripts); what it is on stderr.
    eprintln!(
        "API token {} ({:?}) for {}: it is shown only now, copy it.",
        created.id,
        created.label,
        username.trim().to_ascii_lowercase()
    );
    println!("{}", created.token);
    Ok(ExitCode::SUCCESS)
}

/// Prints a JSON document on stdout.
fn print_json<T: serde::Serialize>(value: &T) -> ExitCode {
    match serde_json::to_string(value) {
        Ok(s) => {
            println!("{s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn movement(cmd: MovementCommand) -> ExitCode {
    match cmd {
        MovementCommand::Mitchell {
            pairs,
            rounds,
            advance,
            seed,
            allow_repeats,
        } => {
            let seed = match seed {
                Some(s) => s,
                None => match crate::movement::new_seed() {
                    Ok(s) => {
                        eprintln!("seed: {s}");
                        s
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(2);
                    }
                },
            };
            match crate::movement::mitchell_json(pairs, rounds, advance, seed, allow_repeats) {
                Ok(doc) => print_json(&doc),
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// The CLI's language: `--lang`, else the locale (`LANG`), else English.
fn cli_lang(flag: Option<&str>) -> crate::i18n::Lang {
    use crate::i18n::Lang;
    flag.and_then(Lang::parse)
        .or_else(|| {
            std::env::var("LC_ALL")
                .ok()
                .as_deref()
                .and_then(Lang::parse)
        })
        .or_else(|| std::env::var("LANG").ok().as_deref().and_then(Lang::parse))
        .unwrap_or(Lang::En)
}

fn read_stdin() -> Result<String, String> {
    let mut s = String::new();
    io::stdin()
        .read_to_string(&mut s)
        .map(|_| s)
        .map_err(|e| format!("cannot read standard input: {e}"))
}

/// Prints an engine answer: the JSON and the exit code it asks for, or the
/// input error on stderr with exit 2.
fn answer<T: serde::Serialize>(
    result: Result<T, crate::rules::InputError>,
    exit_code: impl Fn(&T) -> i32,
) -> ExitCode {
    match result {
        Ok(out) => {
            let printed = print_json(&out);
            if printed != ExitCode::SUCCESS {
                return printed;
            }
            ExitCode::from(u8::try_from(exit_code(&out)).unwrap_or(2))
        }
        Err(e) => {
            eprintln!("error ({}): {}", e.code, e.message);
            ExitCode::from(2)
        }
    }
}

fn rules(cmd: RulesCommand, lang: crate::i18n::Lang) -> ExitCode {
    use crate::rules::api;
    let stdin_then = |f: &dyn Fn(&str) -> ExitCode| match read_stdin() {
        Ok(s) => f(&s),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    };
    match cmd {
        RulesCommand::CheckSheet => {
            stdin_then(&|s| answer(api::check_sheet(s, lang), |o| o.exit_code()))
        }
        RulesCommand::Meld { profile, cards } => {
            answer(api::meld(&cards, &profile, lang), |o| o.exit_code())
        }
        RulesCommand::Vp {
            hands,
            scale,
            difference,
        } => answer(api::vp(hands, difference, scale, lang), |_| 0),
        RulesCommand::SeatDraw { suit_order, cards } => {
            answer(api::seat_draw(&cards, suit_order.as_deref(), lang), |_| 0)
        }
        RulesCommand::Prizes => stdin_then(&|s| answer(api::prizes_json(s, lang), |_| 0)),
    }
}

/// A file command on the text of `file` (standard input when absent):
/// `run` gives (exit code, stdout, stderr).
fn run_on_file(
    file: Option<std::path::PathBuf>,
    run: impl FnOnce(&str) -> (i32, String, String),
) -> ExitCode {
    let input = match &file {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display())),
        None => read_stdin(),
    };
    let input = match input {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (code, stdout, stderr) = run(&input);
    print!("{stdout}");
    eprint!("{stderr}");
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}

fn circuit_standings(
    circuit: &std::path::Path,
    stages: &[std::path::PathBuf],
    lang: crate::i18n::Lang,
) -> ExitCode {
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let circuit_text = match read(circuit) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut files = Vec::with_capacity(stages.len());
    for p in stages {
        match read(p) {
            Ok(t) => files.push((p.display().to_string(), t)),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let (code, stdout, stderr) =
        crate::circuit::run_cli(&circuit.display().to_string(), &circuit_text, &files, lang);
    print!("{stdout}");
    eprint!("{stderr}");
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}

fn read_input(file: &Option<std::path::PathBuf>) -> anyhow::Result<String> {
    match file {
        Some(path) => {
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
        }
        None => read_stdin().map_err(anyhow::Error::msg),
    }
}

fn export(db: &DbArgs, tournament: i64, timezone: &str) -> anyhow::Result<ExitCode> {
    crate::telemetry::init("warn");
    let tz = parse_timezone(timezone).map_err(anyhow::Error::msg)?;
    let db = cli_db(db)?;
    let file = block_on(async {
        let actor = command_line_actor(&db).await?;
        crate::services::files::export_any(&db, actor, crate::ids::TournamentId(tournament), tz)
            .await
            .map_err(|e| match e {
                crate::services::ServiceError::NotFound => {
                    anyhow::anyhow!("no tournament {tournament}")
                }
                other => other.into(),
            })
    })?;
    println!("{}", file.to_json()?);
    Ok(ExitCode::SUCCESS)
}

fn import(
    db: &DbArgs,
    file: Option<std::path::PathBuf>,
    owner: Option<String>,
    timezone: &str,
) -> anyhow::Result<ExitCode> {
    crate::telemetry::init("warn");
    let tz = parse_timezone(timezone).map_err(anyhow::Error::msg)?;
    let lang = cli_lang(None);
    let text = read_input(&file)?;
    if crate::services::circuits::is_bundle(&text) {
        // A circuit bundle: each stage a tournament, then the circuit (owned
        // by the administrator the command line acts as).
        let bundle = match crate::services::circuits::check_bundle(&text, lang) {
            Ok(b) => b,
            Err(problems) => return Ok(refused(problems)),
        };
        let db = cli_db(db)?;
        return block_on(async {
            let actor = command_line_actor(&db).await?;
            let result = crate::services::circuits::import(&db, actor, bundle, tz).await;
            imported(result, "circuit", lang)
        });
    }
    let parsed = match crate::services::files::check_any(&text, lang) {
        Ok(f) => f,
        Err(problems) => return Ok(refused(problems)),
    };
    let db = cli_db(db)?;
    block_on(async {
        let actor = command_line_actor(&db).await?;
        let result = crate::services::files::import_any(&db, actor, owner, parsed, tz).await;
        imported(result, "tournament", lang)
    })
}

/// A file refused before anything was written: each problem on stderr.
fn refused(problems: Vec<String>) -> ExitCode {
    for p in problems {
        eprintln!("{p}");
    }
    ExitCode::from(2)
}

/// What an import says: the id made, or the problems (exit 2).
fn imported<T: std::fmt::Display>(
    result: Result<T, crate::services::ServiceError>,
    what: &str,
    lang: crate::i18n::Lang,
) -> anyhow::Result<ExitCode> {
    match result {
        Ok(id) => {
            println!("imported as {what} {id}");
            Ok(ExitCode::SUCCESS)
        }
        Err(crate::services::ServiceError::Invalid(problems)) => {
            for p in problems {
                eprintln!("{}: {}", p.field, p.message(lang));
            }
            Ok(ExitCode::from(2))
        }
        Err(e) => Err(e.into()),
    }
}

fn backup(db: &DbArgs, file: std::path::PathBuf) -> anyhow::Result<ExitCode> {
    crate::telemetry::init("warn");
    let db = cli_db(db)?;
    match block_on(crate::services::files::backup(&db, file.clone())) {
        Ok(()) => {
            eprintln!("backup written to {}", file.display());
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

/// The database for a command (migrated), as the services take it.
fn cli_db(db: &DbArgs) -> anyhow::Result<crate::db::Db> {
    let settings = Settings::for_database(&db.database_url);
    let pool = prepare_database(&settings.database_url, 2)?;
    Ok(crate::db::Db::new(pool, &settings.database_url))
}

/// Runs a service call from the command line.
fn block_on<F: std::future::Future>(f: F) -> F::Output {
    match tokio::runtime::Builder::new_current_thread().build() {
        Ok(rt) => rt.block_on(f),
        Err(e) => panic!("cannot start the command line's runtime: {e}"),
    }
}

/// The first administrator, whom the command line acts as.
async fn command_line_actor(db: &crate::db::Db) -> anyhow::Result<crate::services::Actor> {
    crate::services::users::command_line_actor(db)
        .await
        .map_err(|_| {
            anyhow::anyhow!(
                "create an administrator first (burraco-td create-user --role admin NAME)"
            )
        })
}

/// `burraco-td members import FILE`: the member list from a CSV or Excel
/// file, as the administrator the command line acts as.
fn import_members(db: &DbArgs, file: &std::path::Path) -> anyhow::Result<ExitCode> {
    crate::telemetry::init("warn");
    let lang = cli_lang(None);
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let list = crate::tournament::spreadsheet::decode_upload(&bytes)
        .map_err(|e| vec![e])
        .and_then(|text| crate::tournament::members::parse_members(&text));
    let list = match list {
        Ok(l) => l,
        Err(problems) => return Ok(refused(problems.iter().map(|p| p.message(lang)).collect())),
    };
    let db = cli_db(db)?;
    block_on(async {
        let actor = command_line_actor(&db).await?;
        let n = crate::services::members::import_members(&db, actor, list).await?;
        println!("imported {n} members");
        Ok(ExitCode::SUCCESS)
    })
}
