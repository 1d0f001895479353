//! `burraco-bench render`: what the first visitor after a change waits
//! for (issue 12's "first render < 5 ms"), measured in-process, without the
//! network: a generated tournament is imported into a fresh database, then
//! each run makes a change (a write that bumps the revision, as every desk
//! action does) and asks the whole application — middleware, cache, pages —
//! for the standings page or a pair card, and times it. Not a test: it
//! prints figures.

use std::time::{Duration, Instant};

use actix_web::http::header;
use actix_web::test;
use actix_web::web::Data;
use anyhow::Context;

use burraco_td::auth::Role;
use burraco_td::config::Settings;
use burraco_td::db::{users, Db};
use burraco_td::i18n::Lang;
use burraco_td::services::{self, Actor, Need};
use burraco_td::startup::{app, prepare_database};
use burraco_td::web::AppState;

/// What to measure.
#[derive(Debug, Clone)]
pub struct Options {
    pub pairs: usize,
    pub rounds: usize,
    pub runs: usize,
    /// A database to use (created when missing); default: a temporary SQLite file.
    pub database_url: Option<String>,
    /// `Accept-Encoding` of the requests (what a phone sends by default).
    pub accept_encoding: String,
}

/// Milliseconds of each run of one measurement.
#[derive(Debug, Default, Clone)]
pub struct Series(pub Vec<f64>);

impl Series {
    fn push(&mut self, d: Duration) {
        self.0.push(d.as_secs_f64() * 1e3);
    }

    /// The `p`-th percentile (nearest rank), in ms.
    pub fn percentile(&self, p: f64) -> f64 {
        let mut v = self.0.clone();
        if v.is_empty() {
            return f64::NAN;
        }
        v.sort_by(f64::total_cmp);
        let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
        v[rank.clamp(1, v.len()) - 1]
    }

    pub fn median(&self) -> f64 {
        self.percentile(50.0)
    }
}

/// The figures of one run of the benchmark.
#[derive(Debug, Default)]
pub struct Report {
    pub first_page: Series,
    pub first_card: Series,
    pub first_json: Series,
    pub cached_page: Series,
    pub load: Series,
    pub compute: Series,
    pub page_bytes: usize,
}

impl Report {
    pub fn print(&self, o: &Options, backend: &str) {
        println!(
            "first render after a change: {} pairs × {} rounds, {backend}, {} runs, Accept-Encoding: {}",
            o.pairs, o.rounds, o.runs, o.accept_encoding
        );
        println!(
            "{:<40} {:>9} {:>9} {:>9}",
            "", "median_ms", "p95_ms", "max_ms"
        );
        let line = |name: &str, s: &Series| {
            println!(
                "{name:<40} {:>9.2} {:>9.2} {:>9.2}",
                s.median(),
                s.percentile(95.0),
                s.percentile(100.0)
            );
        };
        line("standings page /t/ID (first)", &self.first_page);
        line("pair card /t/ID/pairs/N (first)", &self.first_card);
        line("standings JSON (first)", &self.first_json);
        line("standings page (from the cache)", &self.cached_page);
        line("  parts: snapshot load from the db", &self.load);
        line("  parts: standings compute", &self.compute);
        println!("page: {} bytes as sent", self.page_bytes);
    }
}

/// Runs the benchmark (on the current actix runtime).
pub async fn run(o: &Options) -> anyhow::Result<(Report, &'static str)> {
    let tmp = std::env::temp_dir().join(format!("bench-render-{}", std::process::id()));
    let url = match &o.database_url {
        Some(u) => u.clone(),
        None => {
            std::fs::create_dir_all(&tmp)?;
            tmp.join("bench.db").display().to_string()
        }
    };
    let result = measure(o, &url).await;
    if o.database_url.is_none() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

async fn measure(o: &Options, url: &str) -> anyhow::Result<(Report, &'static str)> {
    let settings = Settings::for_database(url);
    let backend = settings.database_url.backend_name();
    let pool = prepare_database(&settings.database_url, settings.pool_size)?;
    let (actor, tid) = {
        let mut conn = pool.get()?;
        // No server here: the system's time, through a clock of its own.
        let now = burraco_td::db::Clock::default().now();
        let name = format!("bench{}", std::process::id());
        let hash = burraco_td::auth::password::hash_password(&format!("{name}-never-used"))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let uid = users::create(&mut conn, &name, &hash, Role::Admin, now)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut file =
            burraco_td::tournament_file::fixtures::sample_tournament(o.pairs, o.rounds, 1);
        file.status = Some(burraco_td::tournament_file::Status::Running);
        let tid =
            burraco_td::db::import::import_file(&mut conn, &file, settings.timezone, uid, now)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        (
            Actor {
                user_id: uid,
                role: Role::Admin,
            },
            tid,
        )
    };
    let key = burraco_td::db::settings::csrf_key(&mut *pool.get()?).context("the CSRF key")?;
    let tz = settings.timezone;
    let state = Data::new(AppState::new(
        Db::new(pool.clone(), &settings.database_url),
        burraco_td::auth::csrf::CsrfKey::from_bytes(key),
        settings,
        std::sync::Arc::default(),
    ));
    let service = test::init_service(app(state.clone())).await;
    let change = || async {
        state
            .db
            .write(move |c| services::lock(c, &actor, tid, Need::Referee).map(|_| ()))
            .await
            .map_err(|e: services::ServiceError| anyhow::anyhow!("the change: {e}"))
    };
    let get = |path: String| {
        let req = test::TestRequest::get()
            .uri(&path)
            .insert_header((header::ACCEPT_ENCODING, o.accept_encoding.as_str()))
            .insert_header((header::ACCEPT_LANGUAGE, "it-IT,it;q=0.9"))
            .to_request();
        let service = &service;
        async move {
            let t0 = Instant::now();
            let res = test::call_service(service, req).await;
            let status = res.status();
            let body = test::read_body(res).await;
            let took = t0.elapsed();
            anyhow::ensure!(status.is_success(), "GET {path}: {status}");
            Ok::<_, anyhow::Error>((took, body.len()))
        }
    };
    let mut r = Report::default();
    let n = o.pairs.max(1);
    for i in 0..o.runs {
        change().await?;
        let (d, bytes) = get(format!("/t/{tid}")).await?;
        r.first_page.push(d);
        r.page_bytes = bytes;
        r.cached_page.push(get(format!("/t/{tid}")).await?.0);
        change().await?;
        r.first_card
            .push(get(format!("/t/{tid}/pairs/{}", i % n + 1)).await?.0);
        change().await?;
        r.first_json
            .push(get(format!("/api/v1/tournaments/{tid}/standings")).await?.0);
        // The parts of a snapshot, timed on their own, read as the public
        // pages read it (the sheets whose version is known are not read).
        let versions = state.db.sheet_versions();
        let (load, compute) = state
            .db
            .read(move |c| {
                let t0 = Instant::now();
                let t = burraco_td::db::tournaments::find(c, tid)?
                    .ok_or(services::ServiceError::NotFound)?;
                let rows = services::load_rows(c, t)?;
                let file = burraco_td::db::export::load_file_of(
                    c,
                    Some(&versions),
                    &rows.t,
                    &rows.pairs,
                    &rows.rounds,
                    tz,
                )?;
                let t1 = Instant::now();
                services::files::standings_of_file(tid, &file, Lang::It)?;
                Ok::<_, services::ServiceError>((t1 - t0, t1.elapsed()))
            })
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        r.load.push(load);
        r.compute.push(compute);
    }
    Ok((r, backend))
}
