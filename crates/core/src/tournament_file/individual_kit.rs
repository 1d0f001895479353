//! Building individual tournament files in tests (the file's, the
//! standings' and the movement's): players, tables of four, penalties.

use super::fixtures::{pair, simple_sheet};
use super::{
    Adjusted, IndividualMovementKind, IndividualPenaltyFile, IndividualPlayerFile,
    IndividualRoundFile, IndividualTableFile, IndividualTournamentFile, PenaltyKind,
};

/// Player `number`, named as the first player of pair `number`.
pub fn player(number: u32) -> IndividualPlayerFile {
    let mut p = pair(number);
    IndividualPlayerFile {
        number,
        player: p.players.swap_remove(0),
        checked_in: None,
        withdrawn_from_round: None,
        no_show: false,
    }
}

/// `n` players, 3 hands, fee 20.00, 70 % share, 60/40 from 1 entry.
pub fn individual(n: u32) -> IndividualTournamentFile {
    let mut f = IndividualTournamentFile::new(
        "Individuale",
        chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap_or_default(),
    );
    (f.entry_fee, f.prize_share_percent, f.payout) = crate::standings::test_kit::sixty_forty(2000);
    f.players = (1..=n).map(player).collect();
    f
}

/// A table of an individual round.
pub enum T4 {
    /// (table, NS players, EW players, NS MP, EW MP)
    Sheet(u32, [u32; 2], [u32; 2], i64, i64),
    /// (table, NS, EW, adjusted)
    Adj(u32, [u32; 2], [u32; 2], Adjusted),
    /// (table, NS, EW) not played yet
    Open(u32, [u32; 2], [u32; 2]),
}

/// Adds the next round: its tables and resting players.
pub fn add_round4(f: &mut IndividualTournamentFile, tables: Vec<T4>, byes: &[u32]) {
    let hands = usize::try_from(f.hands_per_round).unwrap_or(3);
    let number = u32::try_from(f.rounds.len() + 1).unwrap_or(u32::MAX);
    let table = |table, ns, ew, sheet, adjusted| IndividualTableFile {
        table,
        ns,
        ew,
        sheet,
        adjusted,
    };
    let tables = tables
        .into_iter()
        .map(|t| match t {
            T4::Sheet(t, ns, ew, a, b) => table(t, ns, ew, Some(simple_sheet(a, b, hands)), None),
            T4::Adj(t, ns, ew, adj) => table(t, ns, ew, None, Some(adj)),
            T4::Open(t, ns, ew) => table(t, ns, ew, None, None),
        })
        .collect();
    let movement = if number == 1 {
        IndividualMovementKind::Draw
    } else {
        IndividualMovementKind::Danish
    };
    f.rounds.push(IndividualRoundFile {
        number,
        movement: Some(movement),
        tables,
        byes: byes.to_vec(),
    });
}

/// 8 players, one round: 1+2 beat 3+4 by 400 MP (14–6), 5+6 and 7+8 draw.
pub fn one_round() -> IndividualTournamentFile {
    let mut f = individual(8);
    add_round4(
        &mut f,
        vec![
            T4::Sheet(1, [1, 2], [3, 4], 600, 200),
            T4::Sheet(2, [5, 6], [7, 8], 300, 300),
        ],
        &[],
    );
    f
}

/// Adds a penalty to `player` in `round`.
pub fn penalty4(
    f: &mut IndividualTournamentFile,
    round: u32,
    player: u32,
    kind: PenaltyKind,
    amount: Option<i64>,
) {
    f.penalties.push(IndividualPenaltyFile {
        round,
        player,
        kind,
        amount,
        reason: format!("{kind} for {player}"),
        withdrawn: false,
        table: None,
        by: None,
        at: None,
        withdrawn_by: None,
        withdrawn_at: None,
        withdrawn_reason: String::new(),
    });
}
