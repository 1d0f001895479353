//! Tournaments made in one call through the services, as crates.io's tests
//! make crates with `CrateBuilder`: its kind, settings, entrants,
//! check-ins, rounds drawn, sheets saved and penalties, without a form
//! post or a line of SQL. The forms have tests of their own; every other
//! test starts from here.
//!
//! ```ignore
//! let t = app.tournament("Serata").pairs(8).played(2).build().await;
//! dora.get(&t.path).await;
//! ```

use burraco_td::auth::Role;
use burraco_td::i18n::Lang;
use burraco_td::ids::{PairId, TeamId, TournamentId, UserId};
use burraco_td::services::{self, Actor, Need};
use burraco_td::tournament::settings::SettingsForm;

use burraco_td::db::Db;

use crate::helpers::TestApp;

/// The settings form's defaults (a club evening: 4 rounds, 3 Mitchell, 3
/// hands, 20 € entry fee).
pub const SETTINGS: [(&str, &str); 18] = [
    ("date", "2026-11-20"),
    ("start_time", "21:00"),
    ("venue", "Circolo del Sole"),
    ("profile", "codice"),
    ("planned_rounds", "4"),
    ("hands_per_round", "3"),
    ("vp_scale", ""),
    ("minutes_per_round", "40"),
    ("mitchell_rounds", "3"),
    ("danish_form", "modified"),
    ("mitchell_advance", "1"),
    ("bye_vp", "14"),
    ("entry_fee", "20,00"),
    ("prize_share_percent", "70"),
    ("guaranteed_pool", "0"),
    ("payout", "1: 100\n8: 60 40\n12: 50 30 20"),
    ("suit_order", "HDCS"),
    ("name", ""),
];

/// An administrator acting for the tests (the services check the role,
/// not the account, for an administrator's reads).
pub fn admin() -> Actor {
    Actor {
        user_id: UserId(1),
        role: Role::Admin,
    }
}

/// The account named `username`, as the services see it.
pub async fn actor_of(db: &Db, username: &str) -> Actor {
    let users = services::accounts::list(db, admin())
        .await
        .expect("the accounts");
    let u = users
        .iter()
        .find(|u| u.username == username)
        .unwrap_or_else(|| panic!("no account {username}"));
    Actor {
        user_id: u.id,
        role: u.role,
    }
}

/// The rows `n` pairs are imported from (numbers 1..=n): pair i is Maria
/// Rossi{i} (card T{i}A, Circolo Sole) and Luca Bianchi{i} (card T{i}B).
pub fn pairs_csv(n: usize) -> String {
    let mut s = String::from("cognome1;nome1;tessera1;circolo1;cognome2;nome2;tessera2;circolo2\n");
    for i in 1..=n {
        s.push_str(&format!(
            "Rossi{i};Maria;T{i}A;Circolo Sole;Bianchi{i};Luca;T{i}B;\n"
        ));
    }
    s
}

/// One hand where NS closes with one clean burraco (both took the
/// pozzetto): NS = melded + 300, EW = melded − in hand.
pub fn closing_hand(h: usize, ns: i64, ew: i64, ew_in_hand: i64) -> Vec<(String, String)> {
    vec![
        (format!("h{h}_end"), "closure".into()),
        (format!("h{h}_closed"), "ns".into()),
        (format!("h{h}_ns_clean"), "1".into()),
        (format!("h{h}_ns_melded_points"), ns.to_string()),
        (format!("h{h}_ns_pozzetto"), "on".into()),
        (format!("h{h}_ew_melded_points"), ew.to_string()),
        (format!("h{h}_ew_hand_points"), ew_in_hand.to_string()),
        (format!("h{h}_ew_pozzetto"), "on".into()),
    ]
}

/// A whole 3-hand sheet (NS = 3 × (ns + 300), EW = 3 × (ew − 20)).
pub fn sheet(ns: i64, ew: i64) -> Vec<(String, String)> {
    (1..=3).flat_map(|h| closing_hand(h, ns, ew, 20)).collect()
}

/// A penalty to record: pair number, round, kind (`warning`, `vp`, `mp`),
/// amount.
#[derive(Debug, Clone)]
struct PenaltySpec {
    pair: i32,
    round: i32,
    kind: String,
    amount: String,
    reason: String,
}

impl TestApp {
    /// A tournament to build on this app's database.
    pub fn tournament(&self, name: &str) -> TournamentBuilder<'_> {
        TournamentBuilder::new(&self.handle, name)
    }
}

/// What to make.
pub struct TournamentBuilder<'a> {
    db: &'a Db,
    owner: String,
    fields: Vec<(String, String)>,
    pairs: usize,
    teams: usize,
    /// An individual tournament's players (issue 35).
    players: usize,
    check_in: bool,
    /// Only these pairs checked in (numbers), when not all are.
    check_in_only: Option<Vec<usize>>,
    rounds: u32,
    played: u32,
    sheet: (i64, i64),
    penalties: Vec<PenaltySpec>,
}

/// What was made: the ids and paths the tests need.
#[derive(Debug, Clone)]
pub struct Built {
    pub id: TournamentId,
    pub tid: i64,
    /// The director's page, `/director/t/{tid}`.
    pub path: String,
    pub owner: Actor,
    /// The pairs' ids by number (index 0 is pair 1); empty for teams.
    pub pairs: Vec<PairId>,
    /// The teams' ids by number (index 0 is team 1).
    pub teams: Vec<TeamId>,
}

impl Built {
    /// The id of pair `number`.
    pub fn pair(&self, number: usize) -> PairId {
        self.pairs[number - 1]
    }
}

impl<'a> TournamentBuilder<'a> {
    /// A pairs tournament named `name` with the usual settings, owned by
    /// the director `dora`.
    pub fn new(db: &'a Db, name: &str) -> TournamentBuilder<'a> {
        let mut fields: Vec<(String, String)> = SETTINGS
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        fields.retain(|(k, _)| k != "name");
        fields.push(("name".into(), name.into()));
        TournamentBuilder {
            db,
            owner: "dora".into(),
            fields,
            pairs: 0,
            teams: 0,
            players: 0,
            check_in: false,
            check_in_only: None,
            rounds: 0,
            played: 0,
            sheet: (120, 90),
            penalties: Vec::new(),
        }
    }

    /// Owned by the account `username` (a director or the administrator).
    pub fn owner(mut self, username: &str) -> Self {
        self.owner = username.into();
        self
    }

    /// One setting as the settings form names it (`entry_fee`, `kind`, …).
    pub fn set(mut self, field: &str, value: &str) -> Self {
        match self.fields.iter_mut().find(|(k, _)| k == field) {
            Some((_, v)) => *v = value.into(),
            None => self.fields.push((field.into(), value.into())),
        }
        self
    }

    /// Several settings (field, value).
    pub fn with(self, changes: &[(&str, &str)]) -> Self {
        changes.iter().fold(self, |b, (k, v)| b.set(k, v))
    }

    /// `n` pairs imported (see [`pairs_csv`]).
    pub fn pairs(mut self, n: usize) -> Self {
        self.pairs = n;
        self
    }

    /// A team tournament with `n` teams of four players ("T{i}a Anna",
    /// "T{i}b Bruno", …).
    pub fn teams(mut self, n: usize) -> Self {
        self.teams = n;
        self.set("kind", "teams")
    }

    /// An individual tournament with `n` players imported ("Giocatore{i}
    /// Nome{i}", club "Circolo Sole").
    pub fn players(mut self, n: usize) -> Self {
        self.players = n;
        self.set("kind", "individual")
    }

    /// Every entrant checked in.
    pub fn checked_in(mut self) -> Self {
        self.check_in = true;
        self
    }

    /// Only the pairs numbered `numbers` checked in.
    pub fn checked_in_pairs(mut self, numbers: &[usize]) -> Self {
        self.check_in_only = Some(numbers.to_vec());
        self
    }

    /// Round 1 drawn (every entrant checked in first).
    pub fn drawn(self) -> Self {
        self.rounds(1)
    }

    /// Rounds 1..=`n` drawn; the rounds before the last have every sheet.
    pub fn rounds(mut self, n: u32) -> Self {
        self.check_in = true;
        self.rounds = self.rounds.max(n);
        self
    }

    /// Rounds 1..=`n` drawn and every table's sheet saved at the desk.
    pub fn played(mut self, n: u32) -> Self {
        self.played = n;
        self.rounds(n)
    }

    /// The sheet saved on every played table: NS melds `ns` and EW `ew` in
    /// each of the 3 hands (NS = 3 × (ns + 300), EW = 3 × (ew − 20));
    /// 120–90 unless told.
    pub fn sheet(mut self, ns: i64, ew: i64) -> Self {
        self.sheet = (ns, ew);
        self
    }

    /// A penalty on pair `pair` (its number) in `round`: `kind` is
    /// `warning`, `vp` or `mp`, `amount` empty for a warning.
    pub fn penalty(mut self, pair: i32, round: i32, kind: &str, amount: &str) -> Self {
        self.penalties.push(PenaltySpec {
            pair,
            round,
            kind: kind.into(),
            amount: amount.into(),
            reason: "ritardo".into(),
        });
        self
    }

    pub async fn build(self) -> Built {
        let db = self.db;
        let owner = actor_of(db, &self.owner).await;
        assert!(
            self.teams == 0 || self.rounds <= 1,
            "a team tournament is built up to its start"
        );
        let form: SettingsForm = serde_json::from_value(serde_json::Value::Object(
            self.fields
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str())))
                .collect(),
        ))
        .expect("a settings form");
        let id = services::tournaments::create(db, owner, form, chrono_tz::Europe::Rome)
            .await
            .unwrap_or_else(|e| panic!("create the tournament: {e:?}"));
        let mut built = Built {
            id,
            tid: id.0,
            path: format!("/director/t/{}", id.0),
            owner,
            pairs: Vec::new(),
            teams: Vec::new(),
        };
        if self.pairs > 0 {
            let preview = burraco_td::tournament::csv_import::preview(&pairs_csv(self.pairs), &[])
                .expect("the pairs' rows");
            let entries = preview.pairs.iter().map(|(_, e)| e.clone()).collect();
            services::pairs::import(db, owner, id, entries)
                .await
                .unwrap_or_else(|e| panic!("import the pairs: {e:?}"));
        }
        for i in 1..=self.teams {
            services::teams::register(db, owner, id, team_form(i))
                .await
                .unwrap_or_else(|e| panic!("register team {i}: {e:?}"));
        }
        if self.players > 0 {
            let players = (1..=self.players)
                .map(|i| {
                    burraco_td::tournament::pairs::Player::from_stored(
                        &format!("Giocatore{i}"),
                        &format!("Nome{i}"),
                        "",
                        "Circolo Sole",
                    )
                })
                .collect();
            services::individual::import(db, owner, id, players)
                .await
                .unwrap_or_else(|e| panic!("import the players: {e:?}"));
            if self.check_in {
                services::individual::check_in(db, owner, id, Vec::new(), true)
                    .await
                    .unwrap_or_else(|e| panic!("check the players in: {e:?}"));
            }
        } else if self.teams > 0 {
            let t = services::teams::load(db, owner, id, Need::Direct)
                .await
                .expect("the teams");
            let mut teams: Vec<_> = t.teams.iter().map(|t| (t.number, t.id)).collect();
            teams.sort();
            built.teams = teams.into_iter().map(|(_, id)| id).collect();
            if self.check_in {
                for team in &built.teams {
                    services::teams::check_in(db, owner, id, *team, true)
                        .await
                        .unwrap_or_else(|e| panic!("check team {team:?} in: {e:?}"));
                }
            }
        } else if self.check_in || self.check_in_only.is_some() {
            let ids = match &self.check_in_only {
                Some(numbers) => Some(
                    pair_ids(db, owner, id)
                        .await
                        .into_iter()
                        .enumerate()
                        .filter(|(i, _)| numbers.contains(&(i + 1)))
                        .map(|(_, id)| id)
                        .collect(),
                ),
                None => None,
            };
            services::pairs::check_in_many(db, owner, id, ids)
                .await
                .unwrap_or_else(|e| panic!("check the pairs in: {e:?}"));
        }
        if self.rounds > 0 {
            services::rounds::draw(db, owner, id, services::rounds::DrawKind::Start, None)
                .await
                .unwrap_or_else(|e| panic!("draw round 1: {e:?}"));
        }
        for n in 1..=self.rounds as i32 {
            if n > 1 {
                services::rounds::next_round(
                    db,
                    owner,
                    id,
                    Some(n),
                    None,
                    None,
                    chrono_tz::Europe::Rome,
                )
                .await
                .unwrap_or_else(|e| panic!("draw round {n}: {e:?}"));
            }
            if n as u32 <= self.played || (n as u32) < self.rounds {
                save_round(db, owner, id, n, self.sheet).await;
            }
        }
        if self.teams == 0 {
            built.pairs = pair_ids(db, owner, id).await;
        }
        for p in &self.penalties {
            let form = services::scoring::PenaltyForm {
                pair: built.pair(p.pair as usize).0.to_string(),
                round: p.round.to_string(),
                kind: p.kind.clone(),
                amount: p.amount.clone(),
                reason_preset: String::new(),
                reason: p.reason.clone(),
            };
            services::scoring::add_penalty(db, owner, id, form, Lang::It)
                .await
                .unwrap_or_else(|e| panic!("penalty {p:?}: {e:?}"));
        }
        built
    }
}

/// The pairs' ids by number (index 0 is pair 1).
pub async fn pair_ids(db: &Db, actor: Actor, id: TournamentId) -> Vec<PairId> {
    let l = services::tournaments::load(db, actor, id, Need::Direct)
        .await
        .expect("the tournament");
    let mut pairs: Vec<_> = l.pairs.iter().map(|p| (p.number, p.id)).collect();
    pairs.sort();
    pairs.into_iter().map(|(_, id)| id).collect()
}

/// Team `i`'s form: "Squadra {i}" with players T{i}a Anna … T{i}d Dario.
fn team_form(i: usize) -> services::teams::TeamForm {
    let players = ["Anna", "Bruno", "Carla", "Dario"]
        .iter()
        .enumerate()
        .map(|(k, name)| burraco_td::tournament::pairs::PlayerForm {
            surname: format!("T{i}{}", (b'a' + k as u8) as char),
            name: name.to_string(),
            card: String::new(),
            club: String::new(),
        })
        .collect();
    services::teams::TeamForm {
        name: format!("Squadra {i}"),
        players,
    }
}

/// Saves every table of round `n` at the desk.
async fn save_round(
    db: &burraco_td::db::Db,
    owner: Actor,
    id: TournamentId,
    n: i32,
    (ns, ew): (i64, i64),
) {
    let (l, tables) = services::scoring::round_tables(db, owner, id, n)
        .await
        .unwrap_or_else(|e| panic!("round {n}: {e:?}"));
    let hands = l.settings.hands_per_round as usize;
    let fields = (1..=hands)
        .flat_map(|h| closing_hand(h, ns, ew, 20))
        .collect();
    let sheet = burraco_td::tournament::sheet_form::SheetForm::from_pairs(fields)
        .parse(hands, l.settings.profile)
        .expect("a sheet");
    for (s, _) in tables.iter().filter(|(s, _)| s.ew_pair.is_some()) {
        let input = services::scoring::SheetInput {
            sheet: sheet.clone(),
            accept_mismatch: false,
            accept_time_out: false,
            reason: String::new(),
            version: None,
        };
        services::scoring::save_sheet(db, owner, id, n, s.table_no, input)
            .await
            .unwrap_or_else(|e| panic!("sheet of round {n} table {}: {e:?}", s.table_no));
    }
}
