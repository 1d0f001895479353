//! A generated tournament for tests, benchmarks and HTTP tests (pairs:
//! [`sample_tournament`]; teams: [`sample_team_tournament`]).
//!
//! [`sample_tournament`] is deterministic for a given (pairs, rounds, seed):
//! Mitchell seating (fixed pairs 1…F at NS, the others moving one table a
//! round; with an odd number of pairs the phantom is the fixed pair of the
//! last table, so whoever meets it rests), score sheets that break no rule
//! (declared totals equal to the computed ones), a few adjusted scores and a
//! few penalties of every kind (one in eight withdrawn).

use super::{
    Adjusted, MovementKind, PairFile, PayoutTierFile, PenaltyFile, PenaltyKind, Player, RoundFile,
    SheetFile, Status, TableFile, TeamFile, TeamMovementKind, TeamPenaltyFile, TeamRoundFile,
    TeamTournamentFile, TournamentFile,
};
use crate::rules::profile::RuleProfile;
use crate::rules::score_sheet::{score_line, Hand, HandEnd, LineHand, PerLine};
use chrono::{DateTime, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::Decimal;

const SURNAMES: [&str; 24] = [
    "Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino",
    "Greco", "Bruno", "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano", "Rizzo",
    "Lombardi", "Moretti", "Barbieri", "Fontana", "Santoro", "Mariani",
];
const NAMES: [&str; 16] = [
    "Maria",
    "Luca",
    "Giulia",
    "Marco",
    "Anna",
    "Paolo",
    "Chiara",
    "Giorgio",
    "Francesca",
    "Andrea",
    "Sara",
    "Roberto",
    "Elena",
    "Stefano",
    "Laura",
    "Davide",
];

fn pick<'a>(rng: &mut ChaCha8Rng, list: &[&'a str]) -> &'a str {
    list.get(rng.gen_range(0..list.len().max(1)))
        .copied()
        .unwrap_or("X")
}

fn money(cents: i64) -> Decimal {
    Decimal::new(cents, 2)
}

fn player(rng: &mut ChaCha8Rng, club: bool) -> Player {
    Player {
        surname: pick(rng, &SURNAMES).to_string(),
        name: pick(rng, &NAMES).to_string(),
        card: Some(format!("FI{:05}", rng.gen_range(0..100_000u32))),
        club: club.then(|| "Circolo del Sole".to_string()),
    }
}

/// A line's hand with `clean`, `dirty` and `semi` burrachi and melded points
/// at least what they need.
fn line_hand(rng: &mut ChaCha8Rng, clean: i64, dirty: i64, semi: i64, extra: i64) -> LineHand {
    let minimum = clean * 35 + dirty * 50 + semi * 55;
    LineHand {
        clean,
        semi_clean: semi,
        dirty,
        super_: 0,
        royal: 0,
        melded_points: minimum + 5 * rng.gen_range(0..=extra),
        hand_points: 0,
        closed: false,
        took_pozzetto: false,
    }
}

/// One hand that breaks no rule: usually a closure, sometimes the stock
/// runs out.
fn hand(rng: &mut ChaCha8Rng) -> Hand {
    let closure = rng.gen_range(0..10) != 0;
    let closer_ns = rng.gen_bool(0.5);
    let (clean, dirty, semi) = (
        1 + rng.gen_range(0..2),
        rng.gen_range(0..2),
        rng.gen_range(0..2),
    );
    let mut a = line_hand(rng, clean, dirty, semi, 60);
    a.took_pozzetto = true;
    a.closed = closure;
    let (clean, dirty) = (rng.gen_range(0..2), rng.gen_range(0..2));
    let mut b = line_hand(rng, clean, dirty, 0, 50);
    b.took_pozzetto = rng.gen_range(0..10) < 7;
    b.hand_points = 5 * rng.gen_range(0..=30);
    if !closure {
        a.hand_points = 5 * rng.gen_range(0..=10);
    }
    let (ns, ew) = if closer_ns { (a, b) } else { (b, a) };
    Hand {
        end: if closure {
            HandEnd::Closure
        } else {
            HandEnd::StockExhausted
        },
        ns,
        ew,
    }
}

/// A valid sheet of `hands` hands with correct declared totals.
fn sheet(rng: &mut ChaCha8Rng, hands: usize, profile: &RuleProfile) -> SheetFile {
    let hands: Vec<Hand> = (0..hands).map(|_| hand(rng)).collect();
    let mut totals = PerLine { ns: 0i64, ew: 0i64 };
    for h in &hands {
        totals.ns += score_line(&h.ns, &h.ew, h.end, profile).total;
        totals.ew += score_line(&h.ew, &h.ns, h.end, profile).total;
    }
    SheetFile {
        hands,
        declared: Some(totals),
        ..SheetFile::default()
    }
}

/// Payout tiers: (least entries, percentages of each place).
fn payout(tiers: &[(u32, &[i64])]) -> Vec<PayoutTierFile> {
    tiers
        .iter()
        .map(|&(min_entries, scheme)| PayoutTierFile {
            min_entries,
            scheme: scheme.iter().map(|&p| Decimal::from(p)).collect(),
        })
        .collect()
}

/// A referee's adjusted score of a sample table.
fn adjusted_score(rng: &mut ChaCha8Rng) -> Adjusted {
    let ns_vp = rng.gen_range(6..=14);
    Adjusted {
        ns_vp,
        ew_vp: if rng.gen_bool(0.5) { 20 - ns_vp } else { 6 },
        ns_mp_diff: rng.gen_bool(0.5).then_some(0),
        ew_mp_diff: None,
    }
}

/// Who gave a sample penalty and when, and whether it was withdrawn (one
/// in eight), for a penalty of any kind.
struct Given {
    withdrawn: bool,
    at: DateTime<Utc>,
}

impl Given {
    fn draw(rng: &mut ChaCha8Rng, at: DateTime<Utc>) -> Given {
        Given {
            withdrawn: rng.gen_range(0..8) == 0,
            at,
        }
    }

    fn by(&self) -> Option<String> {
        Some("Arbitro Verdi".to_string())
    }

    fn withdrawn_by(&self) -> Option<String> {
        self.withdrawn.then(|| "Direttore Neri".to_string())
    }

    fn withdrawn_at(&self) -> Option<DateTime<Utc>> {
        self.withdrawn.then(|| self.at + Duration::minutes(10))
    }

    fn withdrawn_reason(&self) -> String {
        if self.withdrawn {
            "errore di trascrizione".to_string()
        } else {
            String::new()
        }
    }
}

/// A deterministic valid tournament: `pairs` pairs, `rounds` complete rounds
/// (3 hands each, codice profile), `seed` for everything random.
pub fn sample_tournament(pairs: usize, rounds: usize, seed: u64) -> TournamentFile {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let profile = RuleProfile::default_profile();
    let date = NaiveDate::from_ymd_opt(2026, 11, 20).unwrap_or_default();
    let mut file = TournamentFile::new(format!("Torneo di prova {seed}"), date);
    file.venue = Some("Circolo del Sole".to_string());
    file.start_time = NaiveTime::from_hms_opt(20, 30, 0);
    file.minutes_per_round = Some(40);
    file.entry_fee = money(2000);
    file.prize_share_percent = Decimal::from(70);
    file.guaranteed_pool = Decimal::ZERO;
    file.payout = payout(&[
        (1, &[100]),
        (4, &[60, 40]),
        (12, &[50, 30, 20]),
        (40, &[40, 25, 15, 12, 8]),
    ]);
    let round_count = u32::try_from(rounds).unwrap_or(u32::MAX);
    let tables = pairs.div_ceil(2);
    let fixed = pairs / 2;
    let moving = pairs - fixed;
    if rounds > 0 {
        file.planned_rounds = Some(round_count);
        file.movements = Some(vec![MovementKind::Mitchell; rounds]);
        file.mitchell_advance = Some(1);
        file.allow_repeats = Some(rounds > tables);
        file.status = Some(Status::Finished);
    }
    file.suit_order = Some("HDCS".to_string());
    file.draw_seed = Some(seed >> 1);

    for i in 0..pairs {
        let club = rng.gen_bool(0.5);
        file.pairs.push(PairFile {
            number: u32::try_from(i + 1).unwrap_or(u32::MAX),
            players: vec![player(&mut rng, club), player(&mut rng, club)],
            checked_in: Some(true),
            withdrawn_from_round: None,
            no_show: false,
        });
    }
    let number = |i: usize| u32::try_from(i + 1).unwrap_or(u32::MAX);
    let start = Utc.from_utc_datetime(&date.and_hms_opt(19, 30, 0).unwrap_or_default());

    for r in 0..rounds {
        let rn = u32::try_from(r + 1).unwrap_or(u32::MAX);
        // The table of each moving pair this round; who sits where.
        let mut at_table: Vec<Option<u32>> = vec![None; tables];
        for j in 0..moving {
            if let Some(slot) = at_table.get_mut((j + r) % tables.max(1)) {
                *slot = Some(number(fixed + j));
            }
        }
        let mut round = RoundFile {
            number: rn,
            movement: Some(MovementKind::Mitchell),
            tables: Vec::with_capacity(tables),
            byes: Vec::new(),
        };
        // Pair number → table number this round (0 = bye).
        let mut seat_of: Vec<u32> = vec![0; pairs];
        for (t, mover) in at_table.iter().enumerate() {
            let Some(ew) = *mover else { continue };
            if t >= fixed {
                round.byes.push(ew);
                continue;
            }
            let table = number(t);
            let ns = number(t);
            if let Some(s) = seat_of.get_mut(t) {
                *s = table;
            }
            if let Some(s) = seat_of.get_mut(usize::try_from(ew).unwrap_or(0).saturating_sub(1)) {
                *s = table;
            }
            let adjusted = rng.gen_range(0..60) == 0;
            round.tables.push(TableFile {
                group: None,
                table,
                ns,
                ew,
                sheet: (!adjusted).then(|| sheet(&mut rng, 3, profile)),
                adjusted: adjusted.then(|| adjusted_score(&mut rng)),
            });
        }
        file.rounds.push(round);

        // A few penalties: about one draw per 20 pairs.
        let at = start + Duration::minutes(45 * i64::try_from(r).unwrap_or(0));
        for _ in 0..(pairs / 20).max(1) {
            if pairs == 0 {
                break;
            }
            let who = rng.gen_range(0..pairs);
            let table = seat_of.get(who).copied().unwrap_or(0);
            let (kind, amount, reason) = match rng.gen_range(0..10) {
                0..=3 => (PenaltyKind::Warning, None, "ritardo di 4 minuti"),
                4 if table > 0 => (PenaltyKind::Mp, Some(100), "ritardo di 7 minuti"),
                5 => (PenaltyKind::Vp, Some(1), "uso del telefono"),
                _ => continue,
            };
            let given = Given::draw(&mut rng, at);
            file.penalties.push(PenaltyFile {
                round: rn,
                pair: number(who),
                kind,
                amount,
                reason: reason.to_string(),
                withdrawn: given.withdrawn,
                table: (table > 0).then_some(table),
                by: given.by(),
                at: Some(at),
                withdrawn_by: given.withdrawn_by(),
                withdrawn_at: given.withdrawn_at(),
                withdrawn_reason: given.withdrawn_reason(),
            });
        }
    }
    file
}

/// A registered pair `number` with two made-up players.
pub fn pair(number: u32) -> PairFile {
    let surname = |k: usize| {
        SURNAMES
            .get((number as usize).wrapping_mul(2).wrapping_add(k) % SURNAMES.len())
            .copied()
            .unwrap_or("Rossi")
            .to_string()
    };
    let name = |k: usize| {
        NAMES
            .get((number as usize).wrapping_mul(3).wrapping_add(k) % NAMES.len())
            .copied()
            .unwrap_or("Maria")
            .to_string()
    };
    PairFile {
        number,
        players: vec![
            Player {
                surname: surname(0),
                name: name(0),
                card: None,
                club: None,
            },
            Player {
                surname: surname(1),
                name: name(1),
                card: None,
                club: None,
            },
        ],
        checked_in: None,
        withdrawn_from_round: None,
        no_show: false,
    }
}

/// A sheet of `hands` hands that breaks no rule and totals `ns` and `ew`
/// MP (multiples of 5, at most ±1500 each): every hand ends with the stock
/// exhausted, both lines took their pozzetto, no burraco; a line's points
/// are spread over the hands as melded points (or, when negative, as points
/// left in hand). Declared totals are the right ones.
pub fn simple_sheet(ns: i64, ew: i64, hands: usize) -> SheetFile {
    let hands = hands.max(1);
    let count = i64::try_from(hands).unwrap_or(1);
    let part = |total: i64, k: usize| {
        let units = total / 5;
        let each = units / count;
        let first = units - each * (count - 1);
        5 * if k == 0 { first } else { each }
    };
    let line = |points: i64| LineHand {
        melded_points: points.max(0),
        hand_points: (-points).max(0),
        took_pozzetto: true,
        ..LineHand::default()
    };
    SheetFile {
        hands: (0..hands)
            .map(|k| Hand {
                end: HandEnd::StockExhausted,
                ns: line(part(ns, k)),
                ew: line(part(ew, k)),
            })
            .collect(),
        declared: Some(PerLine { ns, ew }),
        ..SheetFile::default()
    }
}

/// A deterministic valid team tournament: `teams` teams of 4 to 6 players,
/// `rounds` complete rounds (3 hands, codice profile, method `tables`),
/// `seed` for everything random. The first rounds are a round robin (circle
/// method over a drawn order); rounds beyond it are Danish, paired on the
/// standings so far. Line-ups change now and then; a few adjusted tables
/// and penalties of every kind (one in eight withdrawn).
pub fn sample_team_tournament(teams: usize, rounds: usize, seed: u64) -> TeamTournamentFile {
    use crate::movement::teams::{
        default_lineup, draw_order, round_robin, seat_match, team_danish_round,
        team_entries_from_history, LineUp, TeamRoundPlan,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let profile = RuleProfile::default_profile();
    let date = NaiveDate::from_ymd_opt(2026, 11, 21).unwrap_or_default();
    let mut file = TeamTournamentFile::new(format!("Campionato a squadre {seed}"), date);
    file.venue = Some("Circolo del Sole".to_string());
    file.start_time = NaiveTime::from_hms_opt(15, 0, 0);
    file.minutes_per_round = Some(40);
    file.entry_fee = money(8000);
    file.prize_share_percent = Decimal::from(70);
    file.payout = payout(&[(1, &[100]), (4, &[60, 40]), (10, &[50, 30, 20])]);
    file.suit_order = Some("HDCS".to_string());
    file.draw_seed = Some(seed >> 1);
    let number = |i: usize| u32::try_from(i + 1).unwrap_or(u32::MAX);
    for i in 0..teams {
        let size = 4 + rng.gen_range(0..=2usize);
        file.teams.push(TeamFile {
            number: number(i),
            name: format!("{} {}", pick(&mut rng, &SURNAMES), number(i)),
            players: (0..size).map(|_| player(&mut rng, true)).collect(),
            checked_in: Some(true),
            withdrawn_from_round: None,
            no_show: false,
        });
    }
    let numbers: Vec<u32> = (0..teams).map(number).collect();
    let order = draw_order(&numbers, seed);
    let robin = round_robin(&order, 1).unwrap_or_default();
    let planned: Vec<TeamMovementKind> = (0..rounds)
        .map(|r| {
            if r < robin.len() {
                TeamMovementKind::RoundRobin
            } else {
                TeamMovementKind::Danish
            }
        })
        .collect();
    if rounds > 0 {
        file.planned_rounds = Some(u32::try_from(rounds).unwrap_or(u32::MAX));
        file.movements = Some(planned.clone());
        file.status = Some(Status::Finished);
    }
    let start = Utc.from_utc_datetime(&date.and_hms_opt(15, 0, 0).unwrap_or_default());
    let mut history: Vec<TeamRoundPlan> = Vec::new();
    let mut last_lineup: Vec<Option<LineUp>> = vec![None; teams];
    for r in 0..rounds {
        let rn = u32::try_from(r + 1).unwrap_or(u32::MAX);
        let movement = planned.get(r).copied().unwrap_or(TeamMovementKind::Danish);
        let plan = if let Some(p) = robin.get(r) {
            p.clone()
        } else if teams >= 2 {
            let ranking: Vec<u32> =
                crate::standings::compute_teams_file(&file, crate::i18n::Lang::En)
                    .map(|s| s.rows.iter().map(|row| row.number).collect())
                    .unwrap_or_else(|_| numbers.clone());
            let entries = team_entries_from_history(&ranking, &history);
            match team_danish_round(rn, &entries) {
                Ok(d) => d.plan,
                Err(_) => break,
            }
        } else {
            TeamRoundPlan {
                round: rn,
                matches: Vec::new(),
                byes: numbers.clone(),
            }
        };
        let mut round = TeamRoundFile {
            number: rn,
            movement: Some(movement),
            matches: Vec::with_capacity(plan.matches.len()),
            byes: plan.byes.clone(),
        };
        for game in &plan.matches {
            let mut lineup = |team: u32| {
                let i = usize::try_from(team).unwrap_or(1).saturating_sub(1);
                let size = file.teams.get(i).map_or(4, |t| t.players.len());
                let previous = last_lineup.get(i).copied().flatten();
                let l = if previous.is_none() || rng.gen_range(0..3) == 0 {
                    let mut idx: Vec<u32> = (0..u32::try_from(size).unwrap_or(4)).collect();
                    idx.shuffle(&mut rng);
                    match idx.as_slice() {
                        [a, b, c, d, ..] => LineUp {
                            pairs: [[*a, *b], [*c, *d]],
                        },
                        _ => LineUp::FIRST_FOUR,
                    }
                } else {
                    default_lineup(previous.as_ref(), size)
                };
                if let Some(slot) = last_lineup.get_mut(i) {
                    *slot = Some(l);
                }
                l
            };
            let home = lineup(game.home);
            let away = lineup(game.away);
            let mut m = seat_match(game, &home, &away);
            for t in &mut m.tables {
                if rng.gen_range(0..60) == 0 {
                    t.adjusted = Some(adjusted_score(&mut rng));
                } else {
                    t.sheet = Some(sheet(&mut rng, 3, profile));
                }
            }
            round.matches.push(m);
        }
        // A few penalties: about one draw per 6 teams.
        let at = start + Duration::minutes(45 * i64::try_from(r).unwrap_or(0));
        for _ in 0..(teams / 6).max(1) {
            let Some(game) = round
                .matches
                .get(rng.gen_range(0..round.matches.len().max(1)))
            else {
                break;
            };
            let team = if rng.gen_bool(0.5) {
                game.home
            } else {
                game.away
            };
            let table = game
                .tables
                .get(rng.gen_range(0..game.tables.len().max(1)))
                .map(|t| t.table);
            let (kind, amount, reason) = match rng.gen_range(0..10) {
                0..=3 => (
                    PenaltyKind::Warning,
                    None,
                    "formazione consegnata in ritardo",
                ),
                4 => (PenaltyKind::Mp, Some(100), "ritardo di 7 minuti"),
                5 => (PenaltyKind::Vp, Some(1), "uso del telefono"),
                _ => continue,
            };
            let given = Given::draw(&mut rng, at);
            file.penalties.push(TeamPenaltyFile {
                round: rn,
                team,
                table: if kind == PenaltyKind::Mp || rng.gen_bool(0.5) {
                    table
                } else {
                    None
                },
                kind,
                amount,
                reason: reason.to_string(),
                withdrawn: given.withdrawn,
                by: given.by(),
                at: Some(at),
                withdrawn_by: given.withdrawn_by(),
                withdrawn_at: given.withdrawn_at(),
                withdrawn_reason: given.withdrawn_reason(),
            });
        }
        history.push(TeamRoundPlan::from_file(&round));
        file.rounds.push(round);
    }
    file
}

/// A registered team `number` of `players` made-up players.
pub fn team(number: u32, players: usize) -> TeamFile {
    let base = pair(number);
    let names = base.players.iter().cycle();
    TeamFile {
        number,
        name: format!("Squadra {number}"),
        players: names
            .enumerate()
            .take(players)
            .map(|(k, p)| Player {
                surname: p.surname.clone(),
                name: format!("{} {}", p.name, k + 1),
                card: None,
                club: None,
            })
            .collect(),
        checked_in: None,
        withdrawn_from_round: None,
        no_show: false,
    }
}

/// A season's finished stages for circuit tests and benchmarks: `stages`
/// tournaments of `players / 3` pairs (at least 4) and 4 rounds each, their
/// players drawn from one pool of `players` people (person i: a surname and
/// name of the lists, card `CP{i}`), deterministic for a seed.
pub fn sample_circuit_stages(stages: usize, players: usize, seed: u64) -> Vec<TournamentFile> {
    let players = players.max(8);
    let pool: Vec<Player> = (0..players)
        .map(|i| Player {
            surname: SURNAMES[i % SURNAMES.len()].to_string(),
            name: NAMES[(i / SURNAMES.len()) % NAMES.len()].to_string(),
            card: Some(format!("CP{i:05}")),
            club: None,
        })
        .collect();
    let pairs = (players / 3).max(4);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..stages)
        .map(|s| {
            let mut file =
                sample_tournament(pairs, 4, seed.wrapping_mul(1000).wrapping_add(s as u64));
            file.name = format!("Tappa {}", s + 1);
            file.status = Some(Status::Finished);
            let mut order: Vec<usize> = (0..players).collect();
            order.shuffle(&mut rng);
            for (k, pair) in file.pairs.iter_mut().enumerate() {
                pair.players = vec![pool[order[2 * k]].clone(), pool[order[2 * k + 1]].clone()];
            }
            file
        })
        .collect()
}
