//! Data the HTTP tests and the browser tests share: the typical round the
//! browser scenario plays, as the sheet form's fields; a file's player.

use burraco_td::tournament_file::Player;

/// A player of a tournament file (no club).
pub fn player(surname: &str, name: &str, card: Option<&str>) -> Player {
    Player {
        surname: surname.into(),
        name: name.into(),
        card: card.map(str::to_string),
        club: None,
    }
}

/// The typical round, box by box (NS 745, EW 335; EW took no pozzetto in
/// hand 1, which the form says with `h1_ew_no_pozzetto`).
pub const TYPICAL_FULL: [(&str, &str); 16] = [
    ("h1_end", "closure_ns"),
    ("h1_ns_melded_points", "245"),
    ("h1_ns_clean", "1"),
    ("h1_ew_melded_points", "40"),
    ("h1_ew_hand_points", "75"),
    ("h2_end", "closure_ew"),
    ("h2_ns_melded_points", "150"),
    ("h2_ns_hand_points", "30"),
    ("h2_ew_melded_points", "210"),
    ("h2_ew_dirty", "1"),
    ("h3_end", "stock_exhausted"),
    ("h3_ns_melded_points", "60"),
    ("h3_ns_hand_points", "80"),
    ("h3_ns_dirty", "1"),
    ("h3_ew_melded_points", "85"),
    ("h3_ew_hand_points", "25"),
];
