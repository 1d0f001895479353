//! E-mail to the entries online (issue 36): with `SMTP_URL`
//! (`smtp://user:password@host:port`, STARTTLS when the server offers it)
//! and `SMTP_FROM`, each notice is handed to the mail server after the
//! commit, in the background, with retries. The message is queued in the
//! entry's own transaction (`services::mail`): a mail server that is
//! down, or a restart, loses no entry and no message, only delays it.

use std::time::Duration;

use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::Body;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::sync::Notify;

use crate::db::Db;
use crate::services::mail;
use crate::services::online::{Notice, NoticeKind};

fn transport(url: &str) -> Result<AsyncSmtpTransport<Tokio1Executor>, String> {
    let builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(url).map_err(|e| e.to_string())?;
    // STARTTLS when offered (a plain smtp:// URL).
    let host = url
        .split("://")
        .nth(1)
        .and_then(|r| r.rsplit('@').next())
        .and_then(|h| h.split([':', '/']).next())
        .unwrap_or("localhost")
        .to_string();
    let tls = TlsParameters::new(host).map_err(|e| e.to_string())?;
    let builder = if url.starts_with("smtp://") {
        builder.tls(Tls::Opportunistic(tls))
    } else {
        builder
    };
    Ok(builder.timeout(Some(Duration::from_secs(20))).build())
}

fn message(from: &str, base: &str, n: &Notice) -> Result<Message, String> {
    let link = format!("{base}/entry/{}", n.token);
    let (subject, body) = match n.kind {
        NoticeKind::Entered => (
            format!("Iscrizione ricevuta / Entry received: {}", n.tournament_name),
            format!("La tua iscrizione a {t} è registrata. Stato e ritiro:\n{link}\n\nYour entry to {t} is recorded. Its state, and to withdraw:\n{link}\n", t = n.tournament_name),
        ),
        NoticeKind::Confirmed => (
            format!("Iscrizione confermata / Entry confirmed: {}", n.tournament_name),
            format!("Si è liberato un posto: la tua iscrizione a {t} è confermata.\n{link}\n\nA place came free: your entry to {t} is confirmed.\n{link}\n", t = n.tournament_name),
        ),
        NoticeKind::Closed => (
            format!("Lista d'attesa chiusa / Waiting list closed: {}", n.tournament_name),
            format!("Il torneo {t} è iniziato: la lista d'attesa è chiusa.\n{link}\n\nThe tournament {t} has started: the waiting list is closed.\n{link}\n", t = n.tournament_name),
        ),
    };
    Message::builder()
        .from(from.parse().map_err(|e| format!("SMTP_FROM: {e}"))?)
        .to(n.email.parse().map_err(|e| format!("to: {e}"))?)
        .subject(subject)
        .header(ContentType::TEXT_PLAIN)
        .body(
            Body::new_with_encoding(body, ContentTransferEncoding::EightBit)
                .map_err(|_| "the message does not fit 8bit".to_string())?,
        )
        .map_err(|e| e.to_string())
}

/// The background sender: wakes when a service queued a message (the
/// web wakes it after the commit) or every second, takes the due messages
/// of the outbox one at a time and hands them to the mail server. Without
/// `SMTP_URL` there is no sender: the messages stay queued (and are given
/// up once too old when a mail server is set up later), and the entry page
/// says to keep the link. With an `SMTP_URL` that does not read, nothing
/// is sent and nothing dropped: the error is logged. Every instance on one
/// database needs the same mail settings.
pub fn spawn_sender(settings: &crate::config::Settings, db: Db, wake: Arc<Notify>) {
    let Some((url, from)) = settings.smtp.clone() else {
        return;
    };
    let public_url = settings.public_url.clone();
    let listening = settings.listening;
    tokio::spawn(async move {
        let mailer = match transport(&url) {
            Ok(m) => m,
            Err(e) => {
                tracing::error!(error = %e, "SMTP_URL does not read: no e-mail is sent (they stay queued)");
                return;
            }
        };
        loop {
            let mail = match mail::take_one(&db).await {
                Ok(mail) => mail,
                Err(e) => {
                    tracing::warn!(error = %e, "the outbox cannot be read");
                    None
                }
            };
            let Some(m) = mail else {
                let _ = tokio::time::timeout(POLL, wake.notified()).await;
                continue;
            };
            let base = link_base(&db, public_url.as_deref(), listening).await;
            if let Err(e) = send_one(&db, &mailer, &from, &base, &m).await {
                tracing::warn!(error = %e, "the outbox cannot be written");
            }
        }
    });
}

/// Where the private links point: `--public-url`, else the address an
/// administrator saved, else the first network address the server listens
/// on (as the table cards' QR codes).
async fn link_base(db: &Db, public_url: Option<&str>, listening: Option<SocketAddr>) -> String {
    let saved = match public_url {
        Some(url) => Some(url.to_string()),
        None => crate::services::users::public_url(db).await.ok().flatten(),
    };
    saved
        .or_else(|| listening.and_then(|a| crate::reach::hall_urls(a, "http").into_iter().next()))
        .unwrap_or_default()
        .trim_end_matches('/')
        .to_string()
}

/// How often the sender looks for due messages without being woken (a
/// retry that came due, another instance's message).
const POLL: Duration = Duration::from_secs(1);

async fn send_one(
    db: &Db,
    mailer: &AsyncSmtpTransport<Tokio1Executor>,
    from: &str,
    base: &str,
    m: &mail::Mail,
) -> Result<(), crate::services::ServiceError> {
    let msg = match message(from, base, &m.notice) {
        Ok(msg) => msg,
        Err(e) => {
            tracing::warn!(error = %e, "an entry's e-mail cannot be written");
            return mail::sent(db, m, format!("given up: {e}")).await;
        }
    };
    match tokio::time::timeout(mail::SEND_TIMEOUT, mailer.send(msg)).await {
        Ok(Ok(_)) => mail::sent(db, m, String::new()).await,
        Ok(Err(e)) => {
            tracing::info!(tries = m.tries + 1, permanent = e.is_permanent(), error = %e, "the mail server did not take an e-mail");
            mail::failed(db, m, e.to_string(), e.is_permanent()).await
        }
        Err(_) => {
            tracing::info!(
                tries = m.tries + 1,
                "the mail server did not answer in time"
            );
            mail::failed(db, m, "timed out".into(), false).await
        }
    }
}
