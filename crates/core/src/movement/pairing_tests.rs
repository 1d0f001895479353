//! The Danish toolkit, case by case (against exhaustive search: in
//! `proptests.rs`).

use super::pairing::*;

#[test]
fn the_bye_goes_to_the_lowest_placed_of_those_that_rested_least() {
    assert_eq!(bye_order(&[0, 0, 0]), vec![2, 1, 0]);
    assert_eq!(bye_order(&[1, 0, 2, 0, 1]), vec![3, 1, 4, 0, 2]);
    assert!(bye_order(&[]).is_empty());
    // Pure Danish: 1st v 2nd, 3rd v 4th; the last rests.
    let p = danish_pairing(&[0; 5], Avoid::Nobody).unwrap();
    assert_eq!(p.rest, Some(4));
    assert_eq!(p.games, vec![(0, 1), (2, 3)]);
}

#[test]
fn previous_opponents_are_a_matching_of_positions() {
    let ranking = [30, 10, 20, 40];
    assert_eq!(positions(&ranking)[&20], 2);
    let prev = previous_positions(&ranking, [Some(10), Some(30), None, Some(99)]);
    assert_eq!(prev, vec![Some(1), Some(0), None, None], "99 has withdrawn");
    assert_eq!(check_matching(&prev), Ok(()));
    assert_eq!(check_matching(&[Some(1), Some(2), Some(1)]), Err((0, 1)));
    assert_eq!(check_matching(&[Some(0)]), Err((0, 0)));
    // 1st and 2nd just met: 1st takes 3rd, 2nd the 4th.
    let p = danish_pairing(&[0; 4], Avoid::PreviousOpponent(&prev)).unwrap();
    assert_eq!(p.games, vec![(0, 2), (1, 3)]);
    // Two who just met cannot be paired.
    assert_eq!(
        danish_pairing(&[0; 2], Avoid::PreviousOpponent(&[Some(1), Some(0)])),
        None
    );
}

#[test]
fn any_relation_is_searched_exactly() {
    // 0 may only meet 3; 1 and 2 anyone: 0-3, 1-2.
    let allowed = |a: usize, b: usize| a.min(b) != 0 || a.max(b) == 3;
    let p = danish_pairing(&[0; 4], Avoid::Allowed(&allowed)).unwrap();
    assert_eq!(p.games, vec![(0, 3), (1, 2)]);
    assert_eq!(danish_pairing(&[0; 4], Avoid::Allowed(&|_, _| false)), None);
}

#[test]
fn games_take_consecutive_tables() {
    assert_eq!(game_tables::<1>(1, 0), [1]);
    assert_eq!(game_tables::<1>(9, 2), [11]);
    assert_eq!(game_tables::<2>(1, 0), [1, 2]);
    assert_eq!(game_tables::<2>(1, 3), [7, 8]);
    assert_eq!(game_tables::<2>(5, 1), [7, 8]);
    assert_eq!(game_tables::<2>(1, usize::MAX), [u32::MAX, u32::MAX]);
}
