//! Circuits and season rankings on the server (issue 24; RULES.md §11).
//!
//! The ranking itself is the core's ([`crate::circuit::compute`]): this
//! module reads each stage's tournament (its file and standings, as the
//! public pages do), keys every seat by its person in the directory (after
//! merges), and hands the stages over. Writes are one transaction each: the
//! circuit's row is locked (its revision goes up) and re-read, its owner
//! checked, then the change is made. A stage's tournament is locked too
//! (its revision goes up), so its public page names the circuit at once.

use crate::ids::CircuitId;
use crate::ids::PersonId;
use crate::ids::TournamentId;
use crate::ids::UserId;
use crate::services::Refusal;
use std::collections::HashMap;

use chrono::NaiveDateTime;

use crate::auth::Role;
use crate::circuit::{
    compute, stage_of_file_by_seat, to_json, validate, CircuitBundle, CircuitSpec,
    CircuitStandings, Stage,
};
use crate::db::circuits::{self as cdb, CircuitRow};
use crate::db::people as pdb;
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::{Db, DbConn};
use crate::i18n::Lang;
use crate::services::{check_access, lock, Actor, Need, ServiceError};
use crate::tournament::Status;

/// At most this many stages per circuit (a season of weekly evenings is
/// about 40).
pub const MAX_STAGES: usize = 60;

/// A circuit as stored, its settings read by the core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Circuit {
    pub id: CircuitId,
    pub owner_id: Option<UserId>,
    pub spec: CircuitSpec,
    pub revision: i64,
    pub updated_at: NaiveDateTime,
}

impl Circuit {
    /// A stored circuit whose document does not read is an error naming
    /// it, never a circuit quietly missing.
    fn of(row: CircuitRow) -> Result<Circuit, ServiceError> {
        let spec = crate::circuit::parse(&row.spec).map_err(|problems| {
            ServiceError::corrupt(format!(
                "circuit {}: {}",
                row.id,
                problems
                    .iter()
                    .map(|p| p.line(Lang::En))
                    .collect::<Vec<_>>()
                    .join("; ")
            ))
        })?;
        Ok(Circuit {
            id: row.id,
            owner_id: row.owner_id,
            spec,
            revision: row.revision,
            updated_at: row.updated_at,
        })
    }
}

/// A stage as the pages show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageInfo {
    /// 1-based, in the circuit's order.
    pub number: u32,
    pub tournament_id: TournamentId,
    pub name: String,
    pub starts_at: NaiveDateTime,
    pub status: Status,
}

impl StageInfo {
    /// Counts in the ranking (finished); otherwise provisional.
    pub fn counts(&self) -> bool {
        self.status == Status::Finished
    }
}

/// Everything a circuit's public pages show, computed once per revision.
#[derive(Debug, Clone)]
pub struct CircuitView {
    pub circuit: Circuit,
    pub stages: Vec<StageInfo>,
    /// Keyed by person (the directory's id, after merges).
    pub standings: CircuitStandings<PersonId>,
}

/// A person's season card: their lines in the ranking (one when ranking
/// players; one per pair played in when ranking pairs).
#[derive(Debug, Clone)]
pub struct SeasonCard<'a> {
    pub person: PersonId,
    pub surname: String,
    pub name: String,
    pub rows: Vec<&'a crate::circuit::CircuitRow<PersonId>>,
}

impl CircuitView {
    pub fn season_card(&self, person: PersonId) -> Option<SeasonCard<'_>> {
        let rows: Vec<_> = self
            .standings
            .rows
            .iter()
            .filter(|r| r.entrant.contains(&person))
            .collect();
        let me = rows
            .iter()
            .flat_map(|r| r.players.iter())
            .find(|p| p.key == person)?;
        Some(SeasonCard {
            person,
            surname: me.surname.clone(),
            name: me.name.clone(),
            rows,
        })
    }

    pub fn stage(&self, number: u32) -> Option<&StageInfo> {
        self.stages.iter().find(|s| s.number == number)
    }
}

/// A circuit in a director's list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub id: CircuitId,
    pub name: String,
    pub season: Option<String>,
    pub stages: usize,
}

/// The circuit's page for its director: the settings, the stages, and the
/// tournaments they may add.
#[derive(Debug, Clone)]
pub struct Editing {
    pub circuit: Circuit,
    pub stages: Vec<StageInfo>,
    /// Tournaments the actor directs that are not stages yet, newest first.
    pub candidates: Vec<(TournamentId, String, NaiveDateTime, Status)>,
}

fn problems_of(spec: &CircuitSpec) -> Result<(), ServiceError> {
    let problems = validate(spec);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(ServiceError::Invalid(
            problems.iter().map(crate::circuit::field_problem).collect(),
        ))
    }
}

fn document(spec: &CircuitSpec) -> Result<String, ServiceError> {
    to_json(spec).map_err(|e| ServiceError::corrupt(format!("circuit document: {e}")))
}

/// Whether the actor may change the circuit: its owner (a director) or an
/// admin. Others' circuits do not exist for them (404).
fn check_owner(actor: &Actor, c: &Circuit) -> Result<(), ServiceError> {
    let owner = c.owner_id == Some(actor.user_id) && actor.role.allows(Role::Director);
    if actor.role == Role::Admin || owner {
        Ok(())
    } else {
        Err(ServiceError::NotFound)
    }
}

/// Locks the circuit (its revision up by `by`) and checks the owner.
fn lock_circuit(
    conn: &mut DbConn,
    actor: &Actor,
    id: CircuitId,
    by: i64,
    now: NaiveDateTime,
) -> Result<Circuit, ServiceError> {
    let row = cdb::lock(conn, id, by, now)?.ok_or(ServiceError::NotFound)?;
    let c = Circuit::of(row)?;
    check_owner(actor, &c)?;
    Ok(c)
}

/// Creates a circuit owned by the actor.
pub async fn create(db: &Db, actor: Actor, spec: CircuitSpec) -> Result<CircuitId, ServiceError> {
    if !actor.role.allows(Role::Director) {
        return Err(ServiceError::Forbidden);
    }
    problems_of(&spec)?;
    let doc = document(&spec)?;
    let clock = db.clock().clone();
    db.write(move |c| Ok(cdb::insert(c, actor.user_id, &doc, clock.now())?))
        .await
}

/// The stages' pages name the circuit: a new revision of each.
fn bump_stage_pages(c: &mut DbConn, id: CircuitId) -> Result<(), ServiceError> {
    for s in cdb::stages(c, id)? {
        super::bump(c, s.tournament_id)?;
    }
    Ok(())
}

/// Saves a circuit's settings.
pub async fn update(
    db: &Db,
    actor: Actor,
    id: CircuitId,
    spec: CircuitSpec,
) -> Result<(), ServiceError> {
    problems_of(&spec)?;
    let doc = document(&spec)?;
    db.write_at(move |c, now| {
        lock_circuit(c, &actor, id, 1, now)?;
        cdb::set_spec(c, id, &doc)?;
        bump_stage_pages(c, id)
    })
    .await
}

/// Deletes a circuit (its owner or an admin): the tournaments stay, and
/// their pages stop naming it (a new revision of each).
pub async fn delete(db: &Db, actor: Actor, id: CircuitId) -> Result<(), ServiceError> {
    db.write_at(move |c, now| {
        lock_circuit(c, &actor, id, 1, now)?;
        bump_stage_pages(c, id)?;
        cdb::delete(c, id)?;
        Ok(())
    })
    .await
}

/// Appends a tournament the actor directs as the circuit's last stage.
pub async fn add_stage(
    db: &Db,
    actor: Actor,
    id: CircuitId,
    tid: TournamentId,
) -> Result<(), ServiceError> {
    db.write_at(move |c, now| {
        let circuit = lock_circuit(c, &actor, id, 1, now)?;
        if cdb::stages(c, id)?.len() >= MAX_STAGES {
            return Err(ServiceError::refused_with(
                Refusal::CircuitTooManyStages,
                vec![("max", MAX_STAGES.to_string())],
            ));
        }
        // The tournament's page names its circuits: a new revision of it.
        let l = lock(c, &actor, tid, Need::Direct)?;
        // A season ranks pairs and players (RULES.md §11): a team
        // tournament is not a stage; an individual one is a stage of a
        // circuit ranking players (its players' own places).
        if l.t.is_teams() {
            return Err(ServiceError::refused(Refusal::TeamsNotAStage));
        }
        if l.t.is_individual() && circuit.spec.rank != crate::circuit::RankBy::Player {
            return Err(ServiceError::refused(Refusal::IndividualNotAStage));
        }
        if !cdb::add_stage(c, id, tid)? {
            return Err(ServiceError::refused(Refusal::CircuitStageAlready));
        }
        Ok(())
    })
    .await
}

/// Removes a stage (the circuit's owner may, whoever runs the tournament).
/// Locks in the order every circuit write does: the circuit, then the
/// tournament (whose page stops naming the circuit).
pub async fn remove_stage(
    db: &Db,
    actor: Actor,
    id: CircuitId,
    tid: TournamentId,
) -> Result<(), ServiceError> {
    db.write_at(move |c, now| {
        lock_circuit(c, &actor, id, 1, now)?;
        let t = super::bump(c, tid)?;
        if !cdb::remove_stage(c, id, tid)? {
            return Err(ServiceError::refused(Refusal::CircuitNotAStage));
        }
        // The stage's term leaves the circuit's revision: the circuit's
        // own goes up by more than it (see `db::circuits`).
        cdb::lock(c, id, t.revision.saturating_add(1), now)?;
        Ok(())
    })
    .await
}

/// The circuits the actor may change (all for an admin), newest first.
pub async fn list(db: &Db, actor: Actor) -> Result<Vec<Summary>, ServiceError> {
    if !actor.role.allows(Role::Director) {
        return Err(ServiceError::Forbidden);
    }
    db.read(move |c| {
        let owner = (actor.role != Role::Admin).then_some(actor.user_id);
        let mut out = Vec::new();
        for row in cdb::list(c, owner)? {
            let id = row.id;
            let circuit = Circuit::of(row)?;
            out.push(Summary {
                id,
                name: circuit.spec.name,
                season: circuit.spec.season,
                stages: cdb::stages(c, id)?.len(),
            });
        }
        Ok(out)
    })
    .await
}

/// The tournaments of a circuit's stages, in order.
fn stage_rows(conn: &mut DbConn, id: CircuitId) -> Result<Vec<TournamentRow>, ServiceError> {
    cdb::stages(conn, id)?
        .into_iter()
        .map(|s| tdb::find(conn, s.tournament_id)?.ok_or(ServiceError::NotFound))
        .collect()
}

fn stage_info(index: usize, t: &TournamentRow) -> StageInfo {
    StageInfo {
        number: u32::try_from(index + 1).unwrap_or(u32::MAX),
        tournament_id: t.id,
        name: t.name.clone(),
        starts_at: t.starts_at,
        status: t.status,
    }
}

fn stage_infos(conn: &mut DbConn, id: CircuitId) -> Result<Vec<StageInfo>, ServiceError> {
    Ok(stage_rows(conn, id)?
        .iter()
        .enumerate()
        .map(|(i, t)| stage_info(i, t))
        .collect())
}

/// The circuit for its director's page.
pub async fn editing(db: &Db, actor: Actor, id: CircuitId) -> Result<Editing, ServiceError> {
    db.read(move |c| {
        let circuit = Circuit::of(cdb::find(c, id)?.ok_or(ServiceError::NotFound)?)?;
        check_owner(&actor, &circuit)?;
        let stages = stage_infos(c, id)?;
        let mut candidates = Vec::new();
        for t in tdb::list(c)? {
            let individual_here = t.kind == crate::tournament_file::FileKind::Individual
                && circuit.spec.rank == crate::circuit::RankBy::Player;
            if stages.iter().any(|s| s.tournament_id == t.id)
                || (t.kind != crate::tournament_file::FileKind::Pairs && !individual_here)
            {
                continue;
            }
            match check_access(c, &actor, &t, Need::Direct) {
                Ok(()) => candidates.push((t.id, t.name.clone(), t.starts_at, t.status)),
                Err(ServiceError::NotFound) => {}
                Err(e) => return Err(e),
            }
        }
        // Offered in date order (then by name), as a season runs.
        candidates.sort_by(|a, b| (a.2, &a.1, a.0).cmp(&(b.2, &b.1, b.0)));
        Ok(Editing {
            circuit,
            stages,
            candidates,
        })
    })
    .await
}

/// The revision a circuit's public pages are cached by; `None`: no such
/// circuit.
pub async fn revision(db: &Db, id: CircuitId) -> Result<Option<i64>, ServiceError> {
    Ok(db.circuit_revision(id).await?)
}

/// The circuits a tournament is a stage of: (id, name), on `conn`.
pub fn names_of_tournament(
    conn: &mut DbConn,
    tid: TournamentId,
) -> Result<Vec<(i64, String)>, ServiceError> {
    cdb::of_tournament(conn, tid)?
        .into_iter()
        .map(|(id, doc): (i64, String)| {
            crate::circuit::parse(&doc)
                .map(|spec| (id, spec.name))
                .map_err(|_| ServiceError::corrupt(format!("circuit {id}: unreadable document")))
        })
        .collect()
}

/// One stage's tournament as the circuit needs it, every seat keyed by its
/// person (after merges).
fn stage_of(
    conn: &mut DbConn,
    t: TournamentRow,
    people: &HashMap<PersonId, PersonId>,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<Stage<PersonId>, ServiceError> {
    let tid = t.id;
    if t.status == Status::Draft {
        // Provisional: it counts nowhere, so it needs no entries.
        return Ok(Stage {
            title: t.name,
            finished: false,
            entries: 0,
            results: Vec::new(),
        });
    }
    if t.kind == crate::tournament_file::FileKind::Individual {
        return super::individual::standings::circuit_stage(conn, t, people, tz, lang);
    }
    let rows = super::load_rows(conn, t)?;
    let file = crate::db::export::load_file_of(conn, None, &rows.t, &rows.pairs, &rows.rounds, tz)?;
    let seats: HashMap<u32, [Option<PersonId>; 2]> = rows
        .pairs
        .iter()
        .map(|p| (p.pair_no(), [p.p1_person_id, p.p2_person_id]))
        .collect();
    let mut unlinked = None;
    let stage = stage_of_file_by_seat(
        &file,
        |pair, seat, _| match seats.get(&pair).and_then(|s| s[seat]) {
            Some(id) => pdb::canonical(people, id),
            None => {
                unlinked = Some(pair);
                PersonId(0)
            }
        },
        lang,
    )
    .map_err(|e| ServiceError::corrupt(format!("tournament {tid}: {}", e.message(lang))))?;
    if let Some(pair) = unlinked {
        return Err(ServiceError::corrupt(format!(
            "tournament {tid}: pair {pair} has no person in the directory"
        )));
    }
    Ok(stage)
}

/// A circuit's ranking, computed from its stages as they are now.
pub async fn view(
    db: &Db,
    id: CircuitId,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<CircuitView, ServiceError> {
    db.read(move |c| {
        let circuit = Circuit::of(cdb::find(c, id)?.ok_or(ServiceError::NotFound)?)?;
        let rows = stage_rows(c, id)?;
        let stages = rows
            .iter()
            .enumerate()
            .map(|(i, t)| stage_info(i, t))
            .collect();
        let people = pdb::canonical_map(c)?;
        let mut computed = Vec::with_capacity(rows.len());
        for t in rows {
            computed.push(stage_of(c, t, &people, tz, lang)?);
        }
        let standings = compute(&circuit.spec, &computed);
        Ok(CircuitView {
            circuit,
            stages,
            standings,
        })
    })
    .await
}

/// The circuit and its stages' tournament files (its owner, an admin).
pub async fn export(
    db: &Db,
    actor: Actor,
    id: CircuitId,
    tz: chrono_tz::Tz,
) -> Result<CircuitBundle, ServiceError> {
    db.read(move |c| {
        let circuit = Circuit::of(cdb::find(c, id)?.ok_or(ServiceError::NotFound)?)?;
        check_owner(&actor, &circuit)?;
        let mut files = Vec::new();
        for s in cdb::stages(c, id)? {
            files.push(super::files::file_of(c, s.tournament_id, tz)?);
        }
        Ok(CircuitBundle::new(circuit.spec, files))
    })
    .await
}

/// Whether a text is a circuit bundle (by its `format`), not a tournament
/// file.
pub fn is_bundle(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v.get("format").and_then(|f| f.as_str()).map(str::to_string))
        .is_some_and(|f| f == crate::circuit::BUNDLE_FORMAT)
}

/// Reads a bundle and checks each stage as strictly as an imported
/// tournament file (its sheets through the rules engine); every problem
/// with its place.
pub fn check_bundle(text: &str, lang: Lang) -> Result<CircuitBundle, Vec<String>> {
    let bundle = crate::circuit::parse_bundle(text, lang)?;
    let mut problems = Vec::new();
    for (i, f) in bundle.stages.iter().enumerate() {
        if let Err(e) = crate::standings::compute_file(f, lang) {
            match e {
                crate::standings::StandingsError::Invalid(ps) => {
                    problems.extend(ps.iter().map(|p| format!("stages[{i}].{}", p.line(lang))))
                }
                other => problems.push(format!("stages[{i}]: {}", other.message(lang))),
            }
        }
    }
    if problems.is_empty() {
        Ok(bundle)
    } else {
        Err(problems)
    }
}

/// Imports a bundle, all or nothing: each stage as a new tournament (as a
/// tournament file is imported: admins only), then the circuit owned by
/// the actor with those stages in order. The stage files must have been
/// checked (`services::files::check_text`).
pub async fn import(
    db: &Db,
    actor: Actor,
    bundle: CircuitBundle,
    tz: chrono_tz::Tz,
) -> Result<CircuitId, ServiceError> {
    if actor.role != Role::Admin {
        return Err(ServiceError::Forbidden);
    }
    problems_of(&bundle.circuit)?;
    if bundle.stages.len() > MAX_STAGES {
        return Err(ServiceError::refused_with(
            Refusal::CircuitTooManyStages,
            vec![("max", MAX_STAGES.to_string())],
        ));
    }
    let doc = document(&bundle.circuit)?;
    db.write_at(move |c, now| {
        let id = cdb::insert(c, actor.user_id, &doc, now)?;
        for file in &bundle.stages {
            let tid = super::files::import_on(c, &actor, actor.user_id, file, tz, now)?;
            cdb::add_stage(c, id, tid)?;
        }
        Ok(id)
    })
    .await
}
