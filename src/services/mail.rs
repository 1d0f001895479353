//! The entries' e-mails (issue 36), as use cases over the outbox: the
//! services that tell someone queue the message in their own transaction
//! ([`queue`]); the background sender takes the due ones ([`take_due`]),
//! and marks each [`sent`] or [`failed`] (tried again later, with a wait
//! that doubles up to a quarter of an hour, for about a day).

use std::time::Duration;

use chrono::NaiveDateTime;

use super::ServiceError;
use crate::db::outbox::{self, MailRow, NewMail};
use crate::db::{Db, DbConn};
use crate::ids::TournamentId;

/// Someone to tell by e-mail, after the commit: the entry's address and
/// private token, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub tournament: TournamentId,
    pub email: String,
    pub token: String,
    pub kind: NoticeKind,
    pub tournament_name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    /// The entry was taken (confirmed or waiting).
    Entered,
    /// Confirmed from the waiting list.
    Confirmed,
    /// Still waiting at the start: the list is closed.
    Closed,
}

impl NoticeKind {
    const ALL: [NoticeKind; 3] = [
        NoticeKind::Entered,
        NoticeKind::Confirmed,
        NoticeKind::Closed,
    ];

    /// The stored code.
    pub fn code(self) -> &'static str {
        match self {
            NoticeKind::Entered => "entered",
            NoticeKind::Confirmed => "confirmed",
            NoticeKind::Closed => "closed",
        }
    }

    pub fn parse(code: &str) -> Option<NoticeKind> {
        Self::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// How many tries before a message is given up.
pub const TRIES: i32 = 100;
/// The wait after the first failed try; it doubles after each.
const FIRST_WAIT: Duration = Duration::from_secs(1);
/// The longest wait between two tries.
const LONGEST_WAIT: Duration = Duration::from_secs(15 * 60);
/// How long a taken message is the taker's before another sender may try
/// it (a sender that died while sending).
const LEASE: Duration = Duration::from_secs(5 * 60);

/// A message to hand to the mail server.
#[derive(Debug, Clone)]
pub struct Mail {
    pub id: i64,
    pub tries: i32,
    pub notice: Notice,
}

/// Queues `notices` in the caller's transaction; gives them back.
pub fn queue(
    c: &mut DbConn,
    notices: Vec<Notice>,
    now: NaiveDateTime,
) -> Result<Vec<Notice>, ServiceError> {
    let mails: Vec<NewMail<'_>> = notices
        .iter()
        .map(|n| NewMail {
            tid: n.tournament,
            email: &n.email,
            token: &n.token,
            kind: n.kind.code(),
            tournament_name: &n.tournament_name,
        })
        .collect();
    outbox::queue(c, &mails, now)?;
    Ok(notices)
}

fn after(now: NaiveDateTime, wait: Duration) -> NaiveDateTime {
    now + chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::MAX)
}

/// The wait after `tries` failed tries.
pub fn wait_after(tries: i32) -> Duration {
    let doublings = u32::try_from(tries.saturating_sub(1)).unwrap_or(0).min(20);
    FIRST_WAIT.saturating_mul(1 << doublings).min(LONGEST_WAIT)
}

fn mail_of(row: MailRow) -> Result<Mail, ServiceError> {
    let kind = NoticeKind::parse(&row.kind)
        .ok_or_else(|| ServiceError::corrupt(format!("mail {}: kind", row.id)))?;
    Ok(Mail {
        id: row.id,
        tries: row.tries,
        notice: Notice {
            tournament: row.tournament_id,
            email: row.email,
            token: row.token,
            kind,
            tournament_name: row.tournament_name,
        },
    })
}

/// Takes up to `limit` due messages for sending (each leased to this
/// sender for a while).
pub async fn take_due(db: &Db, limit: i64) -> Result<Vec<Mail>, ServiceError> {
    let clock = db.clock().clone();
    let now = clock.now();
    let rows = db
        .read(move |c| Ok::<_, ServiceError>(outbox::due(c, now, limit)?))
        .await?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    db.write(move |c| {
        let now = clock.now();
        let mut taken = Vec::new();
        for row in rows {
            if outbox::claim(c, &row, after(now, LEASE))? {
                taken.push(mail_of(row)?);
            }
        }
        Ok(taken)
    })
    .await
}

/// A message handed to the mail server (or dropped, saying why).
pub async fn sent(db: &Db, id: i64, why: &'static str) -> Result<(), ServiceError> {
    db.write_at(move |c, now| Ok(outbox::done(c, id, why, now)?))
        .await
}

/// A try that failed: the message is tried again later, or given up after
/// [`TRIES`].
pub async fn failed(db: &Db, mail: &Mail, error: String) -> Result<(), ServiceError> {
    let (id, tries) = (mail.id, mail.tries + 1);
    db.write_at(move |c, now| {
        if tries >= TRIES {
            let why = format!("given up: {error}");
            return Ok(outbox::done(c, id, &why, now)?);
        }
        Ok(outbox::failed(
            c,
            id,
            tries,
            after(now, wait_after(tries)),
            &error,
        )?)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_up_to_a_quarter_of_an_hour() {
        assert_eq!(wait_after(1), Duration::from_secs(1));
        assert_eq!(wait_after(2), Duration::from_secs(2));
        assert_eq!(wait_after(5), Duration::from_secs(16));
        assert_eq!(wait_after(11), Duration::from_secs(15 * 60));
        assert_eq!(wait_after(TRIES), Duration::from_secs(15 * 60));
    }
}
