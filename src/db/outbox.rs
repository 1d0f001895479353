//! The entries' e-mails waiting for the mail server (issue 36): queued in
//! the transaction of what they tell, taken by the background sender with
//! a lease (so two instances never send one message at the same time),
//! then marked sent or put back with a later try.

use super::schema::mail_outbox;
use super::DbConn;
use crate::ids::TournamentId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A message to queue.
pub struct NewMail<'a> {
    pub tid: TournamentId,
    pub email: &'a str,
    pub token: &'a str,
    pub kind: &'a str,
    pub tournament_name: &'a str,
}

/// A queued message.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = mail_outbox)]
pub struct MailRow {
    pub id: i64,
    pub tournament_id: TournamentId,
    pub email: String,
    pub token: String,
    pub kind: String,
    pub tournament_name: String,
    pub tries: i32,
    pub next_try_at: NaiveDateTime,
    pub created_at: NaiveDateTime,
}

/// Queues messages, due now.
pub fn queue(conn: &mut DbConn, mails: &[NewMail<'_>], now: NaiveDateTime) -> QueryResult<()> {
    for m in mails {
        diesel::insert_into(mail_outbox::table)
            .values((
                mail_outbox::tournament_id.eq(m.tid),
                mail_outbox::email.eq(m.email),
                mail_outbox::token.eq(m.token),
                mail_outbox::kind.eq(m.kind),
                mail_outbox::tournament_name.eq(m.tournament_name),
                mail_outbox::tries.eq(0),
                mail_outbox::next_try_at.eq(now),
                mail_outbox::last_error.eq(""),
                mail_outbox::created_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// The messages not sent whose try is due, oldest first.
pub fn due(conn: &mut DbConn, now: NaiveDateTime, limit: i64) -> QueryResult<Vec<MailRow>> {
    mail_outbox::table
        .filter(mail_outbox::sent_at.is_null())
        .filter(mail_outbox::next_try_at.le(now))
        .order(mail_outbox::id)
        .limit(limit)
        .select(MailRow::as_select())
        .load(conn)
}

/// Takes a message for sending until `lease`: false when another sender
/// took it first (its `next_try_at` moved since it was read).
pub fn claim(conn: &mut DbConn, row: &MailRow, lease: NaiveDateTime) -> QueryResult<bool> {
    let n = diesel::update(
        mail_outbox::table
            .find(row.id)
            .filter(mail_outbox::sent_at.is_null())
            .filter(mail_outbox::next_try_at.eq(row.next_try_at)),
    )
    .set(mail_outbox::next_try_at.eq(lease))
    .execute(conn)?;
    Ok(n == 1)
}

/// A message handed over (or dropped, with why) by the sender holding its
/// `lease`: its token is cleared. False when the lease was lost (another
/// sender took the message after it ran out).
pub fn done(
    conn: &mut DbConn,
    id: i64,
    lease: NaiveDateTime,
    why: &str,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let n = diesel::update(held(id, lease))
        .set((
            mail_outbox::sent_at.eq(Some(now)),
            mail_outbox::token.eq(""),
            mail_outbox::last_error.eq(why),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

/// A try that failed, by the sender holding its `lease`: the next one at
/// `next`. False when the lease was lost.
pub fn failed(
    conn: &mut DbConn,
    id: i64,
    lease: NaiveDateTime,
    tries: i32,
    next: NaiveDateTime,
    error: &str,
) -> QueryResult<bool> {
    let n = diesel::update(held(id, lease))
        .set((
            mail_outbox::tries.eq(tries),
            mail_outbox::next_try_at.eq(next),
            mail_outbox::last_error.eq(error),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

/// A message not sent whose lease is still the one given (nobody took it
/// since).
type Held = diesel::dsl::Filter<
    diesel::dsl::Filter<
        diesel::dsl::Find<mail_outbox::table, i64>,
        diesel::dsl::IsNull<mail_outbox::sent_at>,
    >,
    diesel::dsl::Eq<mail_outbox::next_try_at, NaiveDateTime>,
>;

/// [`Held`]: message `id` under `lease`.
fn held(id: i64, lease: NaiveDateTime) -> Held {
    mail_outbox::table
        .find(id)
        .filter(mail_outbox::sent_at.is_null())
        .filter(mail_outbox::next_try_at.eq(lease))
}
