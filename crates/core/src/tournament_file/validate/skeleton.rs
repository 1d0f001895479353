//! The checks every kind of tournament file shares, written once: the
//! entrants' numbers, players and withdrawals; the rounds' numbering, the
//! seating (nobody unknown, seated twice, withdrawn or a no-show), table
//! numbers, scores and byes; the penalties' round, entrant and fields. What
//! differs between kinds (a pair's two players, a team's name and line-ups,
//! a round of tables or of matches, where a penalty's table must be) is each
//! kind's [`KindChecks`] part (`pairs.rs`, `teams.rs`).

use super::problem::{not_positive, required_text, too_long, At, FileProblem, ProblemCode};
use super::settings::{
    Settings, MAX_CARD_CHARS, MAX_CLUB_CHARS, MAX_MP_AMOUNT, MAX_PLAYER_NAME_CHARS, MAX_ROUNDS,
    MAX_VP_AMOUNT,
};
use crate::rules::vp::TOTAL_VP;
use crate::tournament::text::MAX_REASON_CHARS;
use crate::tournament_file::{
    Adjusted, Entrant, Penalty, PenaltyKind, Player, Round, SheetFile, Status, Tournament,
};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

/// The words and codes a kind's entrants are named with in problems.
pub(super) struct EntrantNames {
    /// The list in the document: `pairs`, `teams`.
    pub list: &'static str,
    /// The parameter (and a penalty's field) naming one: `pair`, `team`.
    pub one: &'static str,
    /// Most entrants in a file.
    pub max: usize,
    pub too_many: ProblemCode,
    pub number_duplicate: ProblemCode,
    pub unknown: ProblemCode,
    pub seated_twice: ProblemCode,
    pub withdrawn_seated: ProblemCode,
    pub no_show: ProblemCode,
    pub penalty_unknown: ProblemCode,
    /// A penalty's `table` is not the entrant's that round.
    pub penalty_table_mismatch: ProblemCode,
    /// An `mp` penalty to an entrant at no table that round.
    pub penalty_not_seated: ProblemCode,
}

/// A kind of tournament file as the shared checks see it: its settings,
/// entrants, rounds and penalties, and the checks that are its own.
pub(super) trait KindChecks: Tournament + Sized {
    /// Where an entrant is in a round (a table, a match, resting).
    type Seat: Copy;
    /// What the kind resolves of its own settings (teams: the scoring).
    type Own;
    /// What the kind carries from round to round while checking them.
    type RoundState<'f>
    where
        Self: 'f;

    const NAMES: EntrantNames;
    /// The seat of an entrant resting (a bye).
    const RESTS: Self::Seat;

    fn settings(&self) -> Settings<'_>;

    /// The kind's own settings, after the shared ones (`bye_vp` when usable).
    fn check_own_settings(
        &self,
        bye_vp: Option<u8>,
        out: &mut Vec<FileProblem>,
    ) -> Option<Self::Own>;
    /// An entrant's own fields, between its number and its players.
    fn check_entrant(at: &At<'_>, entrant: &Self::Entrant, out: &mut Vec<FileProblem>);
    /// An entrant's players (`{at}.players[j]…`); a kind whose entrant is
    /// one player (individual tournaments) checks it at its own place with
    /// [`check_player`].
    fn check_entrant_players(at: &At<'_>, entrant: &Self::Entrant, out: &mut Vec<FileProblem>) {
        check_players(at, entrant.players(), out);
    }
    fn round_state(&self) -> Self::RoundState<'_>;
    /// A round's tables (or matches): seat each entrant with
    /// [`RoundChecks::seat`], number and score each table.
    fn check_round<'f>(
        &'f self,
        checks: &mut RoundChecks<'_, Self>,
        state: &mut Self::RoundState<'f>,
        round: &'f Self::Round,
        out: &mut Vec<FileProblem>,
    );
    /// A penalty's place: its table, given the round and the entrant when
    /// both are known.
    fn check_penalty_place(
        &self,
        at: &At<'_>,
        penalty: &Self::Penalty,
        place: Option<(usize, usize)>,
        seats: &Seats<Self::Seat>,
        out: &mut Vec<FileProblem>,
    );
}

/// Entrants' numbers → their index in the list (the first, if repeated),
/// with every entrant checked.
pub(super) fn check_entrants<F: KindChecks>(
    file: &F,
    out: &mut Vec<FileProblem>,
) -> HashMap<u32, usize> {
    let names = &F::NAMES;
    let entrants = file.entrants();
    if entrants.len() > names.max {
        out.push(
            FileProblem::new(names.list, names.too_many)
                .with("count", entrants.len())
                .with("max", names.max),
        );
    }
    let mut index: HashMap<u32, usize> = HashMap::with_capacity(entrants.len());
    for (i, entrant) in entrants.iter().enumerate() {
        let at = At::root(names.list, i);
        let number = entrant.number();
        if number == 0 {
            out.push(not_positive(format!("{at}.number")));
        } else if let Entry::Vacant(slot) = index.entry(number) {
            slot.insert(i);
        } else {
            out.push(
                FileProblem::new(format!("{at}.number"), names.number_duplicate)
                    .with("number", number),
            );
        }
        F::check_entrant(&at, entrant, out);
        F::check_entrant_players(&at, entrant, out);
        if entrant.withdrawn_from_round() == Some(0) {
            out.push(not_positive(format!("{at}.withdrawn_from_round")));
        }
    }
    index
}

/// Per round and entrant index: where the entrant is (`None` when not
/// seated). Flat: `round_index * entrants + entrant_index`.
pub(super) struct Seats<S> {
    entrants: usize,
    cells: Vec<Option<S>>,
}

impl<S: Copy> Seats<S> {
    pub(super) fn get(&self, round: usize, entrant: usize) -> Option<S> {
        self.cells
            .get(round.saturating_mul(self.entrants).saturating_add(entrant))
            .copied()
            .flatten()
    }
}

/// One round being checked: what [`KindChecks::check_round`] seats,
/// numbers and scores its tables with.
pub(super) struct RoundChecks<'c, F: KindChecks> {
    file: &'c F,
    index: &'c HashMap<u32, usize>,
    seats: &'c mut Seats<F::Seat>,
    /// Table numbers already used this round.
    numbers: &'c mut HashSet<u32>,
    /// The round's index and number.
    round: usize,
    pub(super) number: u32,
    last: bool,
}

impl<F: KindChecks> RoundChecks<'_, F> {
    /// The round's index in `rounds`.
    pub(super) fn index(&self) -> usize {
        self.round
    }

    /// The index of an entrant number.
    pub(super) fn index_of(&self, number: u32) -> Option<usize> {
        self.index.get(&number).copied()
    }

    /// The entrant with this number.
    pub(super) fn entrant(&self, number: u32) -> Option<&F::Entrant> {
        self.index_of(number)
            .and_then(|i| self.file.entrants().get(i))
    }

    /// Seats entrant `number` at `place` (`at` names it): known, not
    /// already seated this round, not a no-show, not withdrawn.
    pub(super) fn seat(
        &mut self,
        at: At<'_>,
        number: u32,
        place: F::Seat,
        out: &mut Vec<FileProblem>,
    ) {
        let names = &F::NAMES;
        let path = || at.to_string();
        let Some(i) = self.index_of(number) else {
            out.push(FileProblem::new(path(), names.unknown).with(names.one, number));
            return;
        };
        let slot = self
            .round
            .saturating_mul(self.seats.entrants)
            .saturating_add(i);
        if let Some(cell) = self.seats.cells.get_mut(slot) {
            if cell.is_some() {
                out.push(
                    FileProblem::new(path(), names.seated_twice)
                        .with(names.one, number)
                        .with("round", self.number),
                );
                return;
            }
            *cell = Some(place);
        }
        let entrant = self.file.entrants().get(i);
        if entrant.is_some_and(|e| e.no_show()) {
            out.push(FileProblem::new(path(), names.no_show).with(names.one, number));
        }
        let from = entrant.and_then(|e| e.withdrawn_from_round());
        if let Some(from) = from.filter(|f| self.number >= *f && *f > 0) {
            out.push(
                FileProblem::new(path(), names.withdrawn_seated)
                    .with(names.one, number)
                    .with("from", from),
            );
        }
    }

    /// A table's number: positive and not used twice in the round.
    pub(super) fn table_number(&mut self, tat: &At<'_>, table: u32, out: &mut Vec<FileProblem>) {
        if table == 0 {
            out.push(not_positive(format!("{tat}.table")));
        } else if !self.numbers.insert(table) {
            out.push(
                FileProblem::new(format!("{tat}.table"), ProblemCode::TableNumberDuplicate)
                    .with("table", table),
            );
        }
    }

    /// A table's score (see [`check_table_score`]).
    pub(super) fn table_score(
        &self,
        tat: &At<'_>,
        sheet: Option<&SheetFile>,
        adjusted: Option<&Adjusted>,
        out: &mut Vec<FileProblem>,
    ) {
        let ctx = TableContext {
            last: self.last,
            status: self.file.status(),
            round: self.number,
        };
        check_table_score(tat, sheet, adjusted, ctx, out);
    }
}

/// Every round: numbered 1, 2, 3…; its tables (the kind's part), then its
/// byes. Returns where each entrant sits.
pub(super) fn check_rounds<F: KindChecks>(
    file: &F,
    index: &HashMap<u32, usize>,
    out: &mut Vec<FileProblem>,
) -> Seats<F::Seat> {
    let n = file.entrants().len();
    let rounds = file.rounds().len();
    if rounds > MAX_ROUNDS {
        out.push(
            FileProblem::new("rounds", ProblemCode::TooManyRounds)
                .with("count", rounds)
                .with("max", MAX_ROUNDS),
        );
    }
    // Bounded so that a file far too large does not allocate without limit
    // (it is refused anyway).
    let size = if n <= F::NAMES.max && rounds <= MAX_ROUNDS {
        n.saturating_mul(rounds)
    } else {
        0
    };
    let mut seats = Seats {
        entrants: n,
        cells: vec![None; size],
    };
    let mut numbers: HashSet<u32> = HashSet::new();
    let mut state = file.round_state();
    for (r, round) in file.rounds().iter().enumerate() {
        let at = At::root("rounds", r);
        let expected = u32::try_from(r.saturating_add(1)).unwrap_or(u32::MAX);
        if round.number() != expected {
            out.push(
                FileProblem::new(format!("{at}.number"), ProblemCode::RoundNumberOutOfOrder)
                    .with("number", round.number())
                    .with("expected", expected),
            );
        }
        numbers.clear();
        let mut checks = RoundChecks {
            file,
            index,
            seats: &mut seats,
            numbers: &mut numbers,
            round: r,
            number: expected,
            last: r.saturating_add(1) == rounds,
        };
        file.check_round(&mut checks, &mut state, round, out);
        let byes = round.byes();
        let several = byes.len() > 1;
        for (k, &entrant) in byes.iter().enumerate() {
            let place = if several {
                at.item("bye", k)
            } else {
                at.field("bye")
            };
            checks.seat(place, entrant, F::RESTS, out);
        }
    }
    seats
}

/// Every penalty: its round and entrant known, the entrant an entry, its
/// amount, reason and names; then its place (the kind's part).
pub(super) fn check_penalties<F: KindChecks>(
    file: &F,
    index: &HashMap<u32, usize>,
    seats: &Seats<F::Seat>,
    out: &mut Vec<FileProblem>,
) {
    let names = &F::NAMES;
    let rounds = file.rounds().len();
    for (i, p) in file.penalties().iter().enumerate() {
        let at = At::root("penalties", i);
        let round = p.round();
        let round_index = usize::try_from(round)
            .ok()
            .and_then(|r| r.checked_sub(1))
            .filter(|r| *r < rounds);
        if round_index.is_none() {
            out.push(
                FileProblem::new(format!("{at}.round"), ProblemCode::PenaltyRoundUnknown)
                    .with("round", round),
            );
        }
        let number = p.entrant();
        let entrant_index = index.get(&number).copied();
        let field = || format!("{at}.{}", names.one);
        if entrant_index.is_none() {
            out.push(FileProblem::new(field(), names.penalty_unknown).with(names.one, number));
        }
        let entry = entrant_index.and_then(|k| file.entrants().get(k));
        if entry.is_some_and(|e| !e.is_entry()) {
            out.push(FileProblem::new(field(), names.no_show).with(names.one, number));
        }
        check_penalty_fields(&at, p, out);
        let place = round_index.zip(entrant_index);
        file.check_penalty_place(&at, p, place, seats, out);
    }
}

/// The place of a penalty to an entrant seated at one table a round (a
/// pair, a player; its seat is the table, 0 when resting): its `table`,
/// when given, is the entrant's that round, and an `mp` penalty needs the
/// entrant at a table. `place` is (round index, entrant index) when both
/// are known.
pub(super) fn check_penalty_table<F: KindChecks<Seat = u32>>(
    at: &At<'_>,
    p: &F::Penalty,
    table: Option<u32>,
    place: Option<(usize, usize)>,
    seats: &Seats<u32>,
    out: &mut Vec<FileProblem>,
) {
    let Some((r, i)) = place else {
        return;
    };
    let names = &F::NAMES;
    let seated_at = seats.get(r, i).filter(|t| *t > 0);
    if let Some(table) = table {
        if seated_at != Some(table) {
            out.push(
                FileProblem::new(format!("{at}.table"), names.penalty_table_mismatch)
                    .with("table", table)
                    .with(names.one, p.entrant())
                    .with("round", p.round()),
            );
        }
    }
    if p.kind() == PenaltyKind::Mp && seated_at.is_none() {
        out.push(
            FileProblem::new(format!("{at}.{}", names.one), names.penalty_not_seated)
                .with(names.one, p.entrant())
                .with("round", p.round()),
        );
    }
}

/// Each player of a list (`{at}.players[j]…`), as [`check_player`].
fn check_players(at: &At<'_>, players: &[Player], out: &mut Vec<FileProblem>) {
    for (j, player) in players.iter().enumerate() {
        check_player(&at.item("players", j), player, out);
    }
}

/// One player's names, club and card (`{pat}.surname`…), as the forms check
/// them.
pub(super) fn check_player(pat: &At<'_>, player: &Player, out: &mut Vec<FileProblem>) {
    if player.surname.trim().is_empty() {
        out.push(FileProblem::new(
            format!("{pat}.surname"),
            ProblemCode::PlayerSurnameEmpty,
        ));
    }
    if player.name.trim().is_empty() {
        out.push(FileProblem::new(
            format!("{pat}.name"),
            ProblemCode::PlayerNameEmpty,
        ));
    }
    too_long(
        pat.field("surname"),
        &player.surname,
        MAX_PLAYER_NAME_CHARS,
        out,
    );
    too_long(pat.field("name"), &player.name, MAX_PLAYER_NAME_CHARS, out);
    if let Some(club) = &player.club {
        too_long(pat.field("club"), club, MAX_CLUB_CHARS, out);
    }
    if let Some(card) = &player.card {
        let allowed = card
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '/');
        if !allowed {
            out.push(FileProblem::new(
                format!("{pat}.card"),
                ProblemCode::CardInvalid,
            ));
        }
        too_long(pat.field("card"), card, MAX_CARD_CHARS, out);
    }
}
/// Where a table sits, for [`check_table_score`].
#[derive(Clone, Copy)]
struct TableContext {
    /// The table is in the last round.
    last: bool,
    status: Option<Status>,
    /// The round's number.
    round: u32,
}

/// A table's score: not both a sheet and an adjusted score; scored unless
/// the tournament may still have tables to play there; an adjusted score's
/// VP and MP differences in range.
fn check_table_score(
    tat: &At<'_>,
    sheet: Option<&SheetFile>,
    adjusted: Option<&Adjusted>,
    ctx: TableContext,
    out: &mut Vec<FileProblem>,
) {
    match (sheet, adjusted) {
        (Some(_), Some(_)) => {
            out.push(FileProblem::new(
                tat.to_string(),
                ProblemCode::SheetAndAdjusted,
            ));
        }
        // A running tournament may have tables still to score in
        // any round (Mitchell rounds do not wait for the scores);
        // a finished one may not (below); a file with no status
        // keeps the strict rule: only the last round is in play.
        (None, None) if !ctx.last && ctx.status != Some(Status::Running) => {
            out.push(
                FileProblem::new(tat.to_string(), ProblemCode::TableNotPlayed)
                    .with("round", ctx.round),
            );
        }
        (None, None) if ctx.status == Some(Status::Finished) => {
            out.push(FileProblem::new(
                tat.to_string(),
                ProblemCode::TableNotPlayedFinished,
            ));
        }
        _ => {}
    }
    if let Some(adj) = adjusted {
        for (field, vp) in [("ns_vp", adj.ns_vp), ("ew_vp", adj.ew_vp)] {
            if !(0..=i64::from(TOTAL_VP)).contains(&vp) {
                out.push(
                    FileProblem::new(
                        format!("{tat}.adjusted.{field}"),
                        ProblemCode::AdjustedVpOutOfRange,
                    )
                    .with("value", vp)
                    .with("max", TOTAL_VP),
                );
            }
        }
        for (field, diff) in [
            ("ns_mp_diff", adj.ns_mp_diff),
            ("ew_mp_diff", adj.ew_mp_diff),
        ] {
            if let Some(d) = diff.filter(|d| d.unsigned_abs() > MAX_MP_AMOUNT.unsigned_abs()) {
                out.push(
                    FileProblem::new(
                        format!("{tat}.adjusted.{field}"),
                        ProblemCode::ValueTooLarge,
                    )
                    .with("value", d)
                    .with("max", MAX_MP_AMOUNT),
                );
            }
        }
    }
}
/// A penalty's amount (required and in range for `mp` and `vp`, absent for
/// a warning), its reason and who gave or withdrew it.
fn check_penalty_fields(at: &At<'_>, p: &impl Penalty, out: &mut Vec<FileProblem>) {
    match (p.kind(), p.amount()) {
        (PenaltyKind::Warning, Some(_)) => {
            out.push(FileProblem::new(
                format!("{at}.amount"),
                ProblemCode::PenaltyAmountNotAllowed,
            ));
        }
        (PenaltyKind::Warning, None) => {}
        (kind, None) => {
            out.push(
                FileProblem::new(format!("{at}.amount"), ProblemCode::PenaltyAmountMissing)
                    .with("kind", kind),
            );
        }
        (kind, Some(a)) => {
            let max = if kind == PenaltyKind::Mp {
                MAX_MP_AMOUNT
            } else {
                MAX_VP_AMOUNT
            };
            if a <= 0 {
                out.push(
                    FileProblem::new(
                        format!("{at}.amount"),
                        ProblemCode::PenaltyAmountNotPositive,
                    )
                    .with("value", a),
                );
            } else if a > max {
                out.push(
                    FileProblem::new(format!("{at}.amount"), ProblemCode::ValueTooLarge)
                        .with("value", a)
                        .with("max", max),
                );
            }
        }
    }
    required_text(
        at.field("reason"),
        p.reason(),
        MAX_REASON_CHARS,
        ProblemCode::PenaltyReasonEmpty,
        out,
    );
    for (field, who) in [("by", p.by()), ("withdrawn_by", p.withdrawn_by())] {
        if let Some(who) = who {
            too_long(at.field(field), who, MAX_REASON_CHARS, out);
        }
    }
}
