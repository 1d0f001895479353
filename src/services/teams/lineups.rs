//! Line-ups: named at the desk, or by the captain with the team code
//! (braked like the pair codes); final once a table of the match has a
//! result.

use super::{ensure_teams, load_teams, Team, TeamsLoaded};
use crate::db::{teams as teamdb, Db, DbConn};
use crate::ids::{PairId, TeamId, TournamentId};
use crate::movement::teams::{check_lineup, LineUp};
use crate::services::audit::{Action, Entry};
use crate::services::Refusal;
use crate::services::{audit, load_rows, lock_rows, read_rows, Actor, Need, Rows, ServiceError};
use crate::tournament::FieldProblem;
use serde_json::Value;

// ---- line-ups ----

/// Who names a line-up: the staff, or the team's captain with its code.
#[derive(Debug, Clone)]
pub enum LineUpBy {
    Staff(Actor),
    Captain { code: String },
}

/// One table of a team's match, from the team's side.
#[derive(Debug, Clone, Copy)]
pub struct MatchSeat {
    pub seating: crate::ids::SeatingId,
    pub table: i32,
    /// The team sits NS there.
    pub ns: bool,
    /// The team's two players there (positions).
    pub players: [u32; 2],
    pub opponents: [u32; 2],
}

/// A team's match in a round: its two seatings (first and second table)
/// and whether the team sits NS at each.
#[derive(Debug, Clone)]
pub struct TeamMatchSeats {
    pub round: i32,
    pub opponent: Option<u32>,
    /// Its two tables, in table order.
    pub tables: Vec<MatchSeat>,
    /// A sheet, table entry or adjusted score is in at one of its tables:
    /// the line-up is final.
    pub started: bool,
}

fn match_seats(
    c: &mut DbConn,
    t: &TeamsLoaded,
    team: &Team,
    round: i32,
) -> Result<Option<TeamMatchSeats>, ServiceError> {
    let Some(r) = t.l.round(round) else {
        return Ok(None);
    };
    let mut tables = Vec::new();
    let mut opponent = None;
    let mut seating_ids = Vec::new();
    for s in t.seatings.iter().filter(|s| s.round_id == r.id) {
        let side = |p: Option<PairId>| p.and_then(|p| t.pair_team.get(&p)).copied();
        let (Some((ns_team, ns_players)), Some((ew_team, ew_players))) =
            (side(s.ns_pair), side(s.ew_pair))
        else {
            continue;
        };
        let other = |id: TeamId| t.team(id).map(Team::team_no);
        if ns_team == team.id {
            opponent = other(ew_team);
            tables.push(MatchSeat {
                seating: s.id,
                table: s.table_no,
                ns: true,
                players: ns_players,
                opponents: ew_players,
            });
            seating_ids.push(s.id);
        } else if ew_team == team.id {
            opponent = other(ns_team);
            tables.push(MatchSeat {
                seating: s.id,
                table: s.table_no,
                ns: false,
                players: ew_players,
                opponents: ns_players,
            });
            seating_ids.push(s.id);
        }
    }
    if tables.is_empty() {
        return Ok(None);
    }
    tables.sort_by_key(|x| x.table);
    let started = crate::db::teams::any_result(c, &seating_ids)?;
    Ok(Some(TeamMatchSeats {
        round,
        opponent,
        tables,
        started,
    }))
}

/// The line-up form: the two players of the first pair, then the second.
#[derive(Debug, Clone, Default, serde::Deserialize, serde::Serialize)]
#[serde(default)]
pub struct LineUpForm {
    pub round: String,
    pub a1: String,
    pub a2: String,
    pub b1: String,
    pub b2: String,
    /// The captain's team code (table-side only).
    pub code: String,
}

impl LineUpForm {
    /// The value of field `name` as typed.
    pub fn value(&self, name: &str) -> &str {
        match name {
            "a1" => &self.a1,
            "a2" => &self.a2,
            "b1" => &self.b1,
            "b2" => &self.b2,
            _ => "",
        }
    }
}

impl LineUpForm {
    /// The form showing a match's line-up as seated (1-based positions as
    /// the page lists the players), or blank without a match.
    pub fn of(seats: Option<&TeamMatchSeats>) -> LineUpForm {
        let p = |i: usize, j: usize| {
            seats
                .and_then(|s| s.tables.get(i))
                .map(|x| (x.players[j] + 1).to_string())
                .unwrap_or_default()
        };
        LineUpForm {
            round: seats.map(|s| s.round.to_string()).unwrap_or_default(),
            a1: p(0, 0),
            a2: p(0, 1),
            b1: p(1, 0),
            b2: p(1, 1),
            code: String::new(),
        }
    }
}

impl TeamMatchSeats {
    /// Each table of the match with the form fields of the team's pair
    /// there: (table, the team sits NS, the two fields).
    pub fn fields(&self) -> Vec<(i32, bool, [&'static str; 2])> {
        self.tables
            .iter()
            .zip([["a1", "a2"], ["b1", "b2"]])
            .map(|(t, names)| (t.table, t.ns, names))
            .collect()
    }
}

/// Parses a line-up form: 1-based positions as the page lists the players.
pub fn parse_lineup(f: &LineUpForm, size: usize) -> Result<LineUp, Vec<FieldProblem>> {
    let mut problems = Vec::new();
    let mut pos = |field: &'static str, s: &str| match s.trim().parse::<u32>() {
        Ok(n) if n >= 1 && usize::try_from(n).is_ok_and(|n| n <= size) => n - 1,
        _ => {
            problems.push(FieldProblem::new(field, "teams.error.lineup_player"));
            0
        }
    };
    let l = LineUp {
        pairs: [
            [pos("a1", &f.a1), pos("a2", &f.a2)],
            [pos("b1", &f.b1), pos("b2", &f.b2)],
        ],
    };
    if problems.is_empty() && check_lineup(&l, size).is_err() {
        problems.push(FieldProblem::new("a1", "teams.error.lineup_twice"));
    }
    if problems.is_empty() {
        Ok(l)
    } else {
        Err(problems)
    }
}

/// A team tournament and one of its teams, by number.
fn team_of(
    c: &mut DbConn,
    rows: Rows,
    team_number: i32,
) -> Result<(TeamsLoaded, Team), ServiceError> {
    let t = load_teams(c, rows)?;
    ensure_teams(&t)?;
    let team = t
        .team_by_number(team_number)
        .cloned()
        .ok_or(ServiceError::NotFound)?;
    Ok((t, team))
}

/// Names team `team`'s line-up for round `round` (its match there): the
/// two pairs take their seats at the match's tables. Refused once a sheet,
/// entry or adjusted score is in at either table (never during a match),
/// for a round that is not the last one, and for a closed tournament.
pub async fn set_lineup(
    db: &Db,
    by: LineUpBy,
    tid: TournamentId,
    team_number: i32,
    round: i32,
    form: LineUpForm,
) -> Result<(), ServiceError> {
    db.write_at(move |c, now| {
        let (rows, actor) = match &by {
            LineUpBy::Staff(actor) => (lock_rows(c, actor, tid, Need::Referee)?, Some(*actor)),
            LineUpBy::Captain { .. } => {
                let row = crate::services::bump(c, tid)?;
                (load_rows(c, row)?, None)
            }
        };
        let (t, team) = team_of(c, rows, team_number)?;
        if let LineUpBy::Captain { code } = &by {
            let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
            if code.is_empty() || team.code.as_deref() != Some(code.as_str()) {
                return Err(ServiceError::Invalid(vec![FieldProblem::new(
                    "code",
                    "teams.error.code_wrong",
                )]));
            }
        }
        t.l.ensure_running()?;
        if t.l.rounds.last().map(|r| r.number) != Some(round) {
            return Err(ServiceError::refused(Refusal::TeamsLineupRound));
        }
        let seats = match_seats(c, &t, &team, round)?
            .ok_or_else(|| ServiceError::refused(Refusal::TeamsNoMatch))?;
        if seats.started {
            return Err(ServiceError::refused(Refusal::TeamsLineupFinal));
        }
        let lineup = parse_lineup(&form, team.players.len()).map_err(ServiceError::Invalid)?;
        let row = teamdb::list_teams(c, tid)?
            .into_iter()
            .find(|r| r.id == team.id)
            .ok_or(ServiceError::NotFound)?;
        let before = LineUp {
            pairs: [
                seats.tables.first().map_or([0, 1], |x| x.players),
                seats.tables.get(1).map_or([2, 3], |x| x.players),
            ],
        };
        for (i, seat) in seats.tables.iter().enumerate() {
            let p = lineup.pairs.get(i).copied().unwrap_or([0, 1]);
            let pair = teamdb::pair_of(
                c,
                tid,
                &row,
                i32::try_from(p[0]).unwrap_or(0),
                i32::try_from(p[1]).unwrap_or(0),
                now,
            )?;
            teamdb::set_seat(c, seat.seating, seat.ns, pair)?;
        }
        let show = |l: &LineUp| {
            Value::from(format!(
                "{}+{} / {}+{}",
                l.pairs[0][0] + 1,
                l.pairs[0][1] + 1,
                l.pairs[1][0] + 1,
                l.pairs[1][1] + 1
            ))
        };
        let who = match &by {
            LineUpBy::Staff(_) => "staff",
            LineUpBy::Captain { .. } => "captain",
        };
        let entry = Entry::new(Action::LineUpSet)
            .round(round)
            .before(audit::values([("lineup", show(&before))]))
            .after(audit::values([
                ("team", Value::from(team.number)),
                ("lineup", show(&lineup)),
                ("by", Value::from(who)),
            ]));
        match &actor {
            Some(a) => audit::record(c, tid, a, entry, now)?,
            None => audit::record_anonymous(c, tid, entry, now)?,
        }
        Ok(())
    })
    .await
}

/// A team's match in a round as its line-up page shows it.
pub async fn lineup_page(
    db: &Db,
    tid: TournamentId,
    team_number: i32,
    staff: Option<Actor>,
) -> Result<(TeamsLoaded, Team, Option<TeamMatchSeats>), ServiceError> {
    db.read(move |c| {
        // The desk's page is its directors'; the captain's page is public.
        let rows = match staff {
            Some(actor) => read_rows(c, &actor, tid, Need::Direct)?,
            None => {
                let row = crate::db::tournaments::find(c, tid)?.ok_or(ServiceError::NotFound)?;
                load_rows(c, row)?
            }
        };
        let (t, team) = team_of(c, rows, team_number)?;
        let seats = match t.l.rounds.last() {
            Some(r) => match_seats(c, &t, &team, r.number)?,
            None => None,
        };
        Ok((t, team, seats))
    })
    .await
}

/// A captain names the team's line-up from a phone with the team code.
/// Every code typed counts against the team from the address before it is
/// checked (the pair codes' brake); a right code gives its attempt back.
/// Too many wrong codes for this team from this address:
/// [`ServiceError::Throttled`].
pub async fn captain_lineup(
    db: &Db,
    tid: TournamentId,
    team_number: i32,
    form: LineUpForm,
    client: Option<std::net::IpAddr>,
) -> Result<(), ServiceError> {
    use crate::db::rate_limits::{Action as Brake, Key, Verdict};
    let address = client.map_or_else(|| "unknown".to_string(), |a| a.to_string());
    let key = Key::new(
        Brake::PairCode,
        &[&format!("team:{tid}:{team_number}"), &address],
    );
    if let Verdict::Refused { retry_after } = db.take_attempts(vec![key.clone()]).await? {
        return Err(ServiceError::Throttled {
            wait_seconds: crate::services::brakes::wait_seconds(retry_after),
        });
    }
    let round = form.round.trim().parse().unwrap_or(0);
    let code = form.code.clone();
    let done = set_lineup(
        db,
        LineUpBy::Captain { code },
        tid,
        team_number,
        round,
        form,
    )
    .await;
    let wrong_code = matches!(&done, Err(ServiceError::Invalid(p)) if p.iter().any(|p| p.field == "code"))
        || matches!(&done, Err(ServiceError::NotFound));
    if !wrong_code {
        db.give_back_attempt(key).await?;
    }
    done
}
