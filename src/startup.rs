//! Building and running the server: `Application::build` binds a
//! `TcpListener` (port 0 in tests), prepares the database and the routes.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::{from_fn, Compress};
use actix_web::{web, App, HttpServer};
use anyhow::Context;

use crate::auth::csrf::CsrfKey;
use crate::config::Settings;
use crate::db::{self, DbUrl, Pool};
use crate::web::cache::PublicCache;
use crate::web::{doors, errors, limits, middleware, routes, AppState};

pub struct Application {
    listening: std::net::SocketAddr,
    port: u16,
    server: Server,
    pool: Pool,
    public: Arc<PublicCache>,
    db: db::Db,
}

/// Opens the database (creating the SQLite file if needed), runs every
/// migration and returns the pool.
pub fn prepare_database(url: &DbUrl, pool_size: u32) -> anyhow::Result<Pool> {
    if let DbUrl::Sqlite(path) = url {
        if let Some(dir) = std::path::Path::new(path).parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create folder {}", dir.display()))?;
            }
        }
    }
    let pool = db::build_pool(url, pool_size)
        .with_context(|| format!("cannot open the database {url:?}"))?;
    let mut conn = pool.get().context("no database connection")?;
    let applied = db::run_migrations(&mut conn)?;
    if applied > 0 {
        tracing::info!(applied, "database migrations applied");
    }
    // Registrations older than the directory's people get theirs (one
    // transaction; nothing to do on every later start).
    let linked = {
        use diesel::Connection;
        conn.transaction(|c| db::people::link_unlinked(c, db::Clock::default().now()))
            .context("cannot link the registrations to the player directory")?
    };
    if linked > 0 {
        tracing::info!(linked, "registrations linked to the player directory");
    }
    Ok(pool)
}

/// The application: every route and middleware, on shared state (the
/// server's workers, and `bench-render`, which calls it in-process).
pub fn app(
    state: web::Data<AppState>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let body_deadline = state.settings.body_deadline;
    App::new()
        .app_data(state)
        .app_data(body_deadline)
        .wrap(from_fn(doors::gate))
        .wrap(from_fn(middleware::session_layer))
        .wrap(from_fn(limits::bodies))
        .wrap(errors::handlers())
        .wrap(Compress::default())
        .wrap(from_fn(middleware::security_headers))
        .wrap(from_fn(middleware::head_as_get))
        .wrap(from_fn(middleware::request_span))
        .configure(routes)
}

impl Application {
    pub fn build(settings: Settings) -> anyhow::Result<Application> {
        let listener = crate::reach::listen(&settings.bind)?;
        Self::build_with_listener(settings, listener)
    }

    pub fn build_with_listener(
        mut settings: Settings,
        listener: TcpListener,
    ) -> anyhow::Result<Application> {
        settings.listening = Some(listener.local_addr()?);
        crate::auth::password::tune_allocator();
        let pool = prepare_database(&settings.database_url, settings.pool_size)?;
        let key = db::settings::csrf_key(&mut *pool.get()?).context("cannot read the CSRF key")?;
        let port = listener.local_addr()?.port();
        let listener_addr = listener.local_addr()?;
        let public = Arc::new(PublicCache::default());
        tracing::info!(
            address = %listener.local_addr()?,
            database = ?settings.database_url,
            "burraco-td listening on http://{} with {} database {}",
            listener.local_addr()?,
            settings.database_url.backend_name(),
            settings.database_url.redacted(),
        );
        let file_limit = doors::raise_file_limit();
        let cap = doors::connection_cap(settings.max_connections, file_limit);
        let per_address =
            (!settings.trust_forwarded_for).then_some(settings.max_connections_per_address);
        let conns = doors::Connections::new(cap, per_address);
        tracing::info!(
            open_files = file_limit,
            max_connections = cap,
            per_address = per_address,
            hash_concurrency = settings.hash_concurrency,
            "connection and hashing bounds"
        );
        let db = db::Db::new(pool.clone(), &settings.database_url)
            .with_rate_policy(settings.rate_limits);
        let handle = db.clone();
        let state = web::Data::new(AppState::new(
            db,
            CsrfKey::from_bytes(key),
            settings,
            public.clone(),
        ));
        crate::web::mail::spawn_sender(&state.settings, state.db.clone(), state.mail.clone());
        let server = HttpServer::new(move || app(state.clone()))
            // Phones poll the public pages: keep their connections open long
            // enough (as nginx does) that a reused connection is rarely one the
            // server is just closing.
            .keep_alive(std::time::Duration::from_secs(75))
            // A request's headers must arrive within this (its body within
            // `limits::BodyDeadline`).
            .client_request_timeout(std::time::Duration::from_secs(5))
            // Our own count shuts connections over the caps at once
            // (`doors::Connections`); actix-web's per-worker bound is only
            // a backstop above it.
            .max_connections(cap + doors::RESERVED_FILES as usize)
            .on_connect(move |conn, data| conns.on_connect(conn, data))
            .listen(listener)?
            .run();
        Ok(Application {
            listening: listener_addr,
            port,
            server,
            pool,
            public,
            db: handle,
        })
    }

    /// The database handle the services take (tests seed through it and
    /// move its clock).
    pub fn db(&self) -> db::Db {
        self.db.clone()
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The address the server listens on.
    pub fn listening(&self) -> std::net::SocketAddr {
        self.listening
    }

    pub fn pool(&self) -> Pool {
        self.pool.clone()
    }

    /// The public page cache (tests count its computations).
    pub fn public_cache(&self) -> Arc<PublicCache> {
        self.public.clone()
    }

    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}
