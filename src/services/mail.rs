//! The entries' e-mails (issue 36), as use cases over the outbox: the
//! services that tell someone queue the message in their own transaction
//! ([`queue`]); the background sender takes the due ones one at a time ([`take_one`]),
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
pub const LEASE: Duration = Duration::from_secs(5 * 60);
/// The longest one message may take to hand over (well under [`LEASE`]).
pub const SEND_TIMEOUT: Duration = Duration::from_secs(60);
/// A message not sent this long after it was queued is given up.
pub const MAX_AGE: Duration = Duration::from_secs(2 * 24 * 3600);

/// A message taken for sending: it is this sender's until `lease`.
#[derive(Debug, Clone)]
pub struct Mail {
    pub id: i64,
    pub tries: i32,
    pub lease: NaiveDateTime,
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

fn mail_of(row: MailRow, lease: NaiveDateTime) -> Result<Mail, ServiceError> {
    let kind = NoticeKind::parse(&row.kind)
        .ok_or_else(|| ServiceError::corrupt(format!("mail {}: kind", row.id)))?;
    Ok(Mail {
        id: row.id,
        tries: row.tries,
        lease,
        notice: Notice {
            tournament: row.tournament_id,
            email: row.email,
            token: row.token,
            kind,
            tournament_name: row.tournament_name,
        },
    })
}

/// Takes the oldest due message for sending: it is this sender's until its
/// lease runs out ([`LEASE`], well over the longest send: [`SEND_TIMEOUT`]),
/// so two senders never hold one message at the same time. A message older
/// than [`MAX_AGE`] (queued while no mail server was set up) is given up
/// instead of sent late.
pub async fn take_one(db: &Db) -> Result<Option<Mail>, ServiceError> {
    let clock = db.clock().clone();
    let now = clock.now();
    let rows = db
        .read(move |c| Ok::<_, ServiceError>(outbox::due(c, now, 8)?))
        .await?;
    if rows.is_empty() {
        return Ok(None);
    }
    db.write(move |c| {
        let now = clock.now();
        for row in rows {
            let lease = after(now, LEASE);
            if !outbox::claim(c, &row, lease)? {
                continue;
            }
            if now - row.created_at > chrono::Duration::from_std(MAX_AGE).unwrap_or_default() {
                outbox::done(c, row.id, lease, "given up: too old", now)?;
                continue;
            }
            return Ok(Some(mail_of(row, lease)?));
        }
        Ok(None)
    })
    .await
}

/// A message handed to the mail server (or given up, saying why).
pub async fn sent(db: &Db, mail: &Mail, why: String) -> Result<(), ServiceError> {
    let (id, lease) = (mail.id, mail.lease);
    db.write_at(move |c, now| {
        if !outbox::done(c, id, lease, &why, now)? {
            tracing::warn!(mail = id, "an e-mail's lease ran out while it was sent");
        }
        Ok(())
    })
    .await
}

/// A try that failed: the message is tried again later, or given up after
/// [`TRIES`] (or at once when the mail server said it never will take it).
pub async fn failed(
    db: &Db,
    mail: &Mail,
    error: String,
    permanent: bool,
) -> Result<(), ServiceError> {
    let (id, lease, tries) = (mail.id, mail.lease, mail.tries + 1);
    db.write_at(move |c, now| {
        let kept = if tries >= TRIES || permanent {
            outbox::done(c, id, lease, &format!("given up: {error}"), now)?
        } else {
            let next = after(now, wait_after(tries));
            outbox::failed(c, id, lease, tries, next, &error)?
        };
        if !kept {
            tracing::warn!(mail = id, "an e-mail's lease ran out while it was tried");
        }
        Ok(())
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
