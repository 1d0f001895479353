//! E-mail to the entries online (issue 36): with `SMTP_URL`
//! (`smtp://user:password@host:port`, STARTTLS when the server offers it)
//! and `SMTP_FROM`, each notice is handed to the mail server after the
//! commit, in the background, with retries. The entry is already saved:
//! a mail server that is down loses no entry, only delays its message.

use std::time::Duration;

use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::Body;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::services::online::{Notice, NoticeKind};

/// How many times a message is tried, and the first wait between tries
/// (doubling).
const TRIES: u32 = 6;
const FIRST_WAIT: Duration = Duration::from_millis(500);

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

/// Sends the notices in the background (after the commit), each tried
/// again with a doubling wait until the mail server takes it.
pub fn send_later(smtp: Option<(String, String)>, base: String, notices: Vec<Notice>) {
    let Some((url, from)) = smtp else {
        return;
    };
    if notices.is_empty() {
        return;
    }
    tokio::spawn(async move {
        let mailer = match transport(&url) {
            Ok(m) => m,
            Err(e) => {
                tracing::error!(error = %e, "SMTP_URL does not read: no e-mail sent");
                return;
            }
        };
        for n in notices {
            let msg = match message(&from, &base, &n) {
                Ok(m) => m,
                Err(e) => {
                    tracing::warn!(error = %e, "an entry's e-mail cannot be written");
                    continue;
                }
            };
            let mut wait = FIRST_WAIT;
            for attempt in 1..=TRIES {
                match mailer.send(msg.clone()).await {
                    Ok(_) => break,
                    Err(e) if attempt < TRIES => {
                        tracing::info!(attempt, error = %e, "mail server refused; trying again");
                        tokio::time::sleep(wait).await;
                        wait *= 2;
                    }
                    Err(e) => tracing::error!(error = %e, "an entry's e-mail was not sent"),
                }
            }
        }
    });
}
