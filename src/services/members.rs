//! The member list (issue 36, RULES.md §15): its import, and the check of
//! an entry's cards against it (unknown, expired on the tournament's date,
//! or without the right to its level).

use super::{Actor, Loaded, Refusal, ServiceError};
use crate::db::{Db, DbConn};
use crate::tournament::members::{check_card, CardProblem};
use crate::tournament::pairs::Player;

/// The cards of `players` that the member list does not let in, each
/// with its holder's name (RULES.md §15): unknown, expired on the
/// tournament's date, or without the right to its level.
pub(super) fn problems(
    c: &mut DbConn,
    l: &Loaded,
    players: &[Player],
) -> Result<Vec<(String, CardProblem)>, ServiceError> {
    let date = l.settings.starts_at.date();
    let mut out = Vec::new();
    for p in players {
        let member = match p.card() {
            "" => None,
            card => crate::db::members::find(c, card)?,
        };
        if let Err(why) = check_card(member.as_ref(), date, l.settings.level) {
            out.push((p.full_name(), why));
        }
    }
    Ok(out)
}

/// Refuses an entry (the check on) whose card the member list does not
/// let in, naming the first such player.
pub(super) fn check_entry(
    c: &mut DbConn,
    l: &Loaded,
    players: &[Player],
) -> Result<(), ServiceError> {
    match problems(c, l, players)?.into_iter().next() {
        None => Ok(()),
        Some((player, why)) => {
            let r = match why {
                CardProblem::Unknown => Refusal::MembershipUnknown,
                CardProblem::Expired => Refusal::MembershipExpired,
                CardProblem::Level => Refusal::MembershipLevel,
            };
            Err(ServiceError::refused_with(r, vec![("player", player)]))
        }
    }
}

/// Whether entries are flagged on the director's page: the check is off
/// and a member list exists to flag them against.
pub(super) fn flags_entries(c: &mut DbConn, l: &Loaded) -> Result<bool, ServiceError> {
    Ok(!l.settings.online.member_check && crate::db::members::summary(c)?.0 > 0)
}

/// The member list as the import page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListSummary {
    pub members: i64,
    /// The last day any card is valid (`YYYY-MM-DD`).
    pub valid_until: Option<String>,
}

/// The member list's size (a director or an administrator).
pub async fn summary(db: &Db, actor: Actor) -> Result<ListSummary, ServiceError> {
    if !actor.role.allows(crate::auth::Role::Director) {
        return Err(ServiceError::Forbidden);
    }
    db.read(|c| {
        let (members, valid_until) = crate::db::members::summary(c)?;
        Ok(ListSummary {
            members,
            valid_until,
        })
    })
    .await
}

/// Imports the member list (an administrator or a director); how many.
pub async fn import_members(
    db: &Db,
    actor: Actor,
    list: Vec<crate::tournament::members::Member>,
) -> Result<usize, ServiceError> {
    if !actor.role.allows(crate::auth::Role::Director) {
        return Err(ServiceError::Forbidden);
    }
    let clock = db.clock().clone();
    db.write(move |c| Ok(crate::db::members::save(c, &list, clock.now())?))
        .await
}
