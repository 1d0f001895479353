//! What players look for on their phones and on the hall screen, read from
//! the public snapshot of one revision (`services::public`): where a pair
//! sits now, how far the tournament has got (honest labels), each round's
//! table results, the seating of the round in play, and the search by
//! surname or pair number. No database access and no rule here: the
//! numbers come from the one standings computation, and only what counts
//! is shown (a table's result once its sheet counts — confirmed at the
//! table or entered at the desk —, penalties that count, with their public
//! reason).

use super::public::{shows_in_public, Snapshot};
use crate::rules::Line;
use crate::standings::{CardRound, Outcome};
use crate::tournament_file::{MovementKind, PenaltyKind, RoundFile, TableFile, TournamentFile};

/// How far the tournament has got, for the labels of every public page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Not a single table result counts yet (a draft, or round 1 just drawn).
    NoResults,
    /// Round `round` is being played; the rounds before it are complete.
    InPlay { round: u32 },
    /// Every table of round `round` counts; the next round is not drawn yet.
    After { round: u32 },
    /// The director closed the tournament after `round` rounds.
    Final { round: u32 },
}

impl Stage {
    /// The stage of a snapshot.
    pub fn of(s: &Snapshot) -> Stage {
        let Some(file) = s.file.as_ref() else {
            return Stage::NoResults;
        };
        let last = file.rounds.last().map_or(0, |r| r.number);
        if s.finished() {
            return Stage::Final { round: last };
        }
        let any = file.rounds.iter().any(|r| r.tables.iter().any(counts));
        match file.rounds.last() {
            _ if !any => Stage::NoResults,
            Some(r) if r.tables.iter().all(counts) => Stage::After { round: r.number },
            Some(r) => Stage::InPlay { round: r.number },
            None => Stage::NoResults,
        }
    }

    /// The round whose seating players need now (none once it is over).
    pub fn round_in_play(self) -> Option<u32> {
        match self {
            Stage::InPlay { round } => Some(round),
            _ => None,
        }
    }

    /// The label in words: "no results yet", "after round 2 · round 3 in
    /// play", "after round 3", "final standings after round 4".
    pub fn label(self, lang: crate::i18n::Lang) -> String {
        use crate::i18n::tf;
        match self {
            Stage::NoResults => tf(lang, "players.stage.none", &[]),
            Stage::InPlay { round } if round <= 1 => {
                tf(lang, "players.stage.first_in_play", &[("round", &round)])
            }
            Stage::InPlay { round } => tf(
                lang,
                "players.stage.in_play",
                &[("prev", &(round - 1)), ("round", &round)],
            ),
            Stage::After { round } => tf(lang, "players.stage.after", &[("round", &round)]),
            Stage::Final { round } => tf(lang, "players.stage.final", &[("round", &round)]),
        }
    }
}

/// A table's result counts: its sheet is in (only a sheet confirmed by the
/// other pair, or saved at the desk, is stored as the table's sheet), or
/// the referee set an adjusted score.
fn counts(t: &TableFile) -> bool {
    t.sheet.is_some() || t.adjusted.is_some()
}

/// Whether every table of a round counts.
pub fn round_complete(r: &RoundFile) -> bool {
    r.tables.iter().all(counts)
}

/// The pair's line at its table, as players call it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatLine {
    /// NS; in a Mitchell round the fixed line.
    Ns { fixed: bool },
    /// EW; in a Mitchell round the moving line.
    Ew { moving: bool },
}

/// Where a pair is in the round in play (or the last round drawn).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub round: u32,
    /// `None`: the pair rests this round (bye).
    pub table: Option<u32>,
    pub line: Option<SeatLine>,
    pub opponent: Option<u32>,
}

fn is_mitchell(r: &RoundFile) -> bool {
    r.movement.is_none_or(|m| m == MovementKind::Mitchell)
}

fn seat_line(line: Line, mitchell: bool) -> SeatLine {
    match line {
        Line::Ns => SeatLine::Ns { fixed: mitchell },
        Line::Ew => SeatLine::Ew { moving: mitchell },
    }
}

/// Where `pair` sits in the last round drawn, while the tournament runs;
/// `None` once it is over, before the first draw, or when the pair is not
/// seated (withdrawn).
pub fn current_seat(s: &Snapshot, pair: u32) -> Option<Seat> {
    if s.finished() {
        return None;
    }
    let file = s.file.as_ref()?;
    let round = file.rounds.last()?;
    let card = s.standings.as_ref()?.card(pair)?;
    let cr = card.rounds.iter().find(|c| c.round == round.number)?;
    match cr.outcome {
        Outcome::Bye => Some(Seat {
            round: round.number,
            table: None,
            line: None,
            opponent: None,
        }),
        Outcome::Absent => None,
        _ => Some(Seat {
            round: round.number,
            table: cr.table,
            line: cr.line.map(|l| seat_line(l, is_mitchell(round))),
            opponent: cr.opponent,
        }),
    }
}

/// A penalty as a results page shows it: whose, what, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownPenalty {
    pub pair: u32,
    pub kind: PenaltyKind,
    pub amount: Option<i64>,
    pub reason: String,
}

/// One table of a round, as the public sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableResult {
    pub table: u32,
    pub ns: u32,
    pub ew: u32,
    pub result: Option<Score>,
    /// Penalties that count, of both pairs, this round.
    pub penalties: Vec<ShownPenalty>,
}

/// A table's result (after the MP penalties that count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    /// MP of each line (sheets only; `None` for an adjusted score).
    pub mp: Option<(i64, i64)>,
    /// MP taken by penalties from each line.
    pub mp_penalty: (i64, i64),
    pub vp: (i64, i64),
    pub adjusted: bool,
}

/// A pair resting in a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rest {
    pub pair: u32,
    pub vp: i64,
    pub penalties: Vec<ShownPenalty>,
}

/// Every table of one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundResults {
    pub round: u32,
    /// Every table counts.
    pub complete: bool,
    pub tables: Vec<TableResult>,
    pub byes: Vec<Rest>,
    /// How many tables count so far.
    pub counted: usize,
}

fn card_round(s: &Snapshot, pair: u32, round: u32) -> Option<&CardRound> {
    s.standings
        .as_ref()?
        .card(pair)?
        .rounds
        .iter()
        .find(|c| c.round == round)
}

fn public_penalties(s: &Snapshot, pair: u32, round: u32) -> Vec<ShownPenalty> {
    card_round(s, pair, round)
        .map(|c| {
            c.penalties
                .iter()
                .filter(|p| shows_in_public(p))
                .map(|p| ShownPenalty {
                    pair,
                    kind: p.kind,
                    amount: p.amount,
                    reason: p.reason.clone(),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The results of round `n`: every table, with its result only when it
/// counts. `None` when the round is not drawn.
pub fn round_results(s: &Snapshot, n: u32) -> Option<RoundResults> {
    let file = s.file.as_ref()?;
    let round = file.rounds.iter().find(|r| r.number == n)?;
    let mut tables = Vec::with_capacity(round.tables.len());
    for t in &round.tables {
        let result = if counts(t) {
            let (a, b) = (card_round(s, t.ns, n), card_round(s, t.ew, n));
            match (a, b) {
                (Some(a), Some(b)) if matches!(a.outcome, Outcome::Played | Outcome::Adjusted) => {
                    Some(Score {
                        mp: a.mp_for.zip(b.mp_for),
                        mp_penalty: (a.mp_penalty, b.mp_penalty),
                        vp: (a.vp.unwrap_or(0), b.vp.unwrap_or(0)),
                        adjusted: a.adjusted,
                    })
                }
                _ => None,
            }
        } else {
            None
        };
        let mut penalties = public_penalties(s, t.ns, n);
        penalties.extend(public_penalties(s, t.ew, n));
        tables.push(TableResult {
            table: t.table,
            ns: t.ns,
            ew: t.ew,
            result,
            penalties,
        });
    }
    tables.sort_by_key(|t| t.table);
    let byes = round
        .byes
        .iter()
        .map(|&pair| Rest {
            pair,
            vp: card_round(s, pair, n).and_then(|c| c.vp).unwrap_or(0),
            penalties: public_penalties(s, pair, n),
        })
        .collect();
    Some(RoundResults {
        round: n,
        complete: round_complete(round),
        counted: tables.iter().filter(|t| t.result.is_some()).count(),
        tables,
        byes,
    })
}

/// One pair's place in a round's seating (the hall screen lists them by
/// pair number: players know their number).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    pub pair: u32,
    pub table: Option<u32>,
    pub line: Option<SeatLine>,
}

/// The seating of the round in play, by pair number; `None` when no round
/// is in play.
pub fn seating_in_play(s: &Snapshot) -> Option<(u32, Vec<SeatRow>)> {
    let n = Stage::of(s).round_in_play().or_else(|| {
        // Round 1 drawn, nothing scored yet: players need its seating too.
        let file = s.file.as_ref()?;
        let last = file.rounds.last()?;
        (!s.finished() && !round_complete(last)).then_some(last.number)
    })?;
    let file = s.file.as_ref()?;
    let round = file.rounds.iter().find(|r| r.number == n)?;
    let mitchell = is_mitchell(round);
    let mut rows: Vec<SeatRow> = Vec::new();
    for t in &round.tables {
        rows.push(SeatRow {
            pair: t.ns,
            table: Some(t.table),
            line: Some(seat_line(Line::Ns, mitchell)),
        });
        rows.push(SeatRow {
            pair: t.ew,
            table: Some(t.table),
            line: Some(seat_line(Line::Ew, mitchell)),
        });
    }
    rows.extend(round.byes.iter().map(|&pair| SeatRow {
        pair,
        table: None,
        line: None,
    }));
    rows.sort_by_key(|r| r.pair);
    Some((n, rows))
}

/// The longest search text looked at (a surname and a name fit easily).
pub const MAX_QUERY_CHARS: usize = 80;

/// Lower case, accents dropped (`Nicolò` → `nicolo`), everything that is
/// not a letter or a digit a word break.
fn words(text: &str) -> Vec<String> {
    let folded: String = text
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ä' | 'ã' | 'å' => 'a',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ò' | 'ó' | 'ô' | 'ö' | 'õ' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            c if c.is_alphanumeric() => c,
            _ => ' ',
        })
        .collect();
    folded.split_whitespace().map(str::to_string).collect()
}

/// The pairs a search names: a pair number (`12`, `#12`), or surnames and
/// names — every word typed must begin a word of the pair's players (`ross`
/// finds Rossi, `de luca` finds De Luca, `rossi maria` only Maria Rossi's
/// pair). Best first: by pair number.
pub fn find_pairs(file: &TournamentFile, query: &str) -> Vec<u32> {
    let query: String = query.chars().take(MAX_QUERY_CHARS).collect();
    let q = words(&query);
    if q.is_empty() {
        return Vec::new();
    }
    let digits = query.trim().trim_start_matches('#').trim();
    if let Ok(n) = digits.parse::<u32>() {
        return file
            .pairs
            .iter()
            .filter(|p| p.number == n)
            .map(|p| p.number)
            .collect();
    }
    let mut found: Vec<u32> = file
        .pairs
        .iter()
        .filter(|p| {
            let mine: Vec<String> = p
                .players
                .iter()
                .flat_map(|pl| words(&pl.surname).into_iter().chain(words(&pl.name)))
                .collect();
            q.iter()
                .all(|w| mine.iter().any(|m| m.starts_with(w.as_str())))
        })
        .map(|p| p.number)
        .collect();
    found.sort_unstable();
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament_file::{PairFile, Player};

    fn file() -> TournamentFile {
        let pair = |number: u32, a: (&str, &str), b: (&str, &str)| PairFile {
            number,
            players: vec![
                Player {
                    surname: a.0.into(),
                    name: a.1.into(),
                    card: None,
                    club: None,
                },
                Player {
                    surname: b.0.into(),
                    name: b.1.into(),
                    card: None,
                    club: None,
                },
            ],
            checked_in: Some(true),
            withdrawn_from_round: None,
            no_show: false,
        };
        let mut f =
            TournamentFile::new("t", chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap());
        f.pairs = vec![
            pair(1, ("Rossi", "Maria"), ("Bianchi", "Luca")),
            pair(2, ("Rossini", "Paolo"), ("Verdi", "Anna")),
            pair(3, ("De Luca", "Nicolò"), ("D'Angelo", "Sara")),
            pair(12, ("Neri", "Maria"), ("Gialli", "Ugo")),
        ];
        f
    }

    #[test]
    fn search_by_number_surname_and_name() {
        let f = file();
        assert_eq!(find_pairs(&f, "12"), vec![12]);
        assert_eq!(find_pairs(&f, " #3 "), vec![3]);
        assert_eq!(find_pairs(&f, "99"), Vec::<u32>::new());
        assert_eq!(find_pairs(&f, "rossi"), vec![1, 2]);
        assert_eq!(find_pairs(&f, "ROSSI maria"), vec![1]);
        assert_eq!(find_pairs(&f, "de luca"), vec![3]);
        assert_eq!(find_pairs(&f, "nicolo"), vec![3]);
        assert_eq!(find_pairs(&f, "Nicolò"), vec![3]);
        assert_eq!(find_pairs(&f, "d'angelo"), vec![3]);
        assert_eq!(find_pairs(&f, "maria"), vec![1, 12]);
        assert!(find_pairs(&f, "").is_empty());
        assert!(find_pairs(&f, "  -- ").is_empty());
        assert!(find_pairs(&f, "zorro").is_empty());
        assert!(find_pairs(&f, &"r".repeat(10_000)).is_empty());
    }
}
