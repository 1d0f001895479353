//! Every refusal a use case can give, named once: its stable snake_case
//! code (the JSON API's `error.code`), its HTTP status and the catalog key
//! of its message. The web maps a refusal by these three and nothing else;
//! no refusal is a string key typed at the place that refuses.
//!
//! Codes are the API's contract: several refusals share one (`started`,
//! `not_running`…), each with its own message.

macro_rules! refusals {
    ($( $(#[$doc:meta])* $name:ident => ($code:literal, $status:literal, $key:literal), )*) => {
        /// A refusal: what cannot happen now, or not for this caller.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Refusal {
            $( $(#[$doc])* $name, )*
        }

        impl Refusal {
            /// Every refusal (the OpenAPI document lists their codes).
            pub const ALL: &'static [Refusal] = &[$(Refusal::$name),*];

            /// The stable snake_case code.
            pub fn code(self) -> &'static str {
                match self { $(Refusal::$name => $code,)* }
            }

            /// The HTTP status of the refusal (409 unless named otherwise).
            pub fn status(self) -> u16 {
                match self { $(Refusal::$name => $status,)* }
            }

            /// The catalog key of its message.
            pub fn key(self) -> &'static str {
                match self { $(Refusal::$name => $key,)* }
            }
        }
    };
}

refusals! {
    // The tournament's state.
    /// A closed tournament does not change.
    Finished => ("finished", 409, "tournament.error.finished"),
    /// Results change only while the tournament runs.
    NotRunning => ("not_running", 409, "tournament.error.not_running"),
    /// Only a running tournament closes.
    CloseNotRunning => ("not_running", 409, "close.error.not_running"),
    /// Tables of the last round have no score (`round`, `tables`).
    CloseMissing => ("missing", 409, "close.error.missing"),
    /// Only a closed tournament reopens.
    ReopenNotFinished => ("not_finished", 409, "reopen.error.not_finished"),
    /// The page that asked for an irreversible action is older than the
    /// tournament's last change: nothing done, the page is shown again.
    Stale => ("page_stale", 409, "states.error.stale"),

    // Draws and rounds.
    DrawStarted => ("started", 409, "draw.error.started"),
    DrawTooLate => ("too_late", 409, "draw.error.too_late"),
    DrawScoresIn => ("scores_in", 409, "draw.error.scores_in"),
    RoundNotStarted => ("not_started", 409, "round.error.not_started"),
    RoundAllGenerated => ("all_generated", 409, "round.error.all_generated"),
    RoundAlreadyDrawn => ("already_drawn", 409, "round.error.already_drawn"),
    RoundLastUnplayed => ("last_round_unplayed", 409, "round.error.last_round_unplayed"),
    RoundStaleForm => ("stale_form", 409, "round.error.stale_form"),
    /// Sheets are missing in the round (`round`, `tables`).
    RoundMissingSheets => ("missing_sheets", 409, "round.error.missing_sheets"),
    /// Only the last round is undone (`round`).
    UndoNotLast => ("not_last", 409, "states.undo.error.not_last"),
    /// The round has results (`round`, …).
    UndoResults => ("results", 409, "states.undo.error.results"),

    // Entries, pairs, imports.
    EntriesStarted => ("started", 409, "entries.error.started"),
    EntriesIsNoShow => ("is_no_show", 409, "entries.error.is_no_show"),
    /// A pair is unchecked only before the draw (`pair`).
    CheckInStarted => ("checkin_started", 409, "pairs.error.checkin_started"),
    ReinstateAfterRounds => ("reinstate_after_rounds", 409, "pairs.error.reinstate_after_rounds"),
    ImportStarted => ("started", 409, "import.error.started"),
    PenaltyAlreadyWithdrawn => ("already_withdrawn", 409, "penalties.error.already_withdrawn"),
    PenaltyNotWithdrawn => ("not_withdrawn", 409, "penalties.error.not_withdrawn"),

    // Entries online (issue 36).
    /// Entries are off, past their closing time, or the tournament started.
    EntriesClosed => ("entries_closed", 409, "online.error.closed"),
    /// A player holds a live entry or a registration already (`player`).
    AlreadyEntered => ("already_entered", 409, "online.error.already_entered"),
    /// An entry is withdrawn only before the start.
    EntryWithdrawStarted => ("started", 409, "online.error.started"),
    /// The member check (RULES.md §15), naming the player (`player`).
    MembershipUnknown => ("membership", 422, "online.error.membership_unknown"),
    MembershipExpired => ("membership", 422, "online.error.membership_expired"),
    MembershipLevel => ("membership", 422, "online.error.membership_level"),
    /// Only a waiting entry is confirmed, refused or moved.
    EntryNotWaiting => ("not_waiting", 409, "online.error.not_waiting"),

    // Individual tournaments.
    IndividualStarted => ("started", 409, "individual.error.started"),
    IndividualWithdrawn => ("withdrawn", 409, "individual.error.withdrawn"),
    IndividualNotIndividual => ("not_individual", 409, "individual.error.not_individual"),
    /// An individual tournament registers players, not pairs.
    IndividualNoPairs => ("no_pairs", 409, "individual.error.no_pairs"),
    /// An individual tournament has no pairs file: its file is its own.
    IndividualPairsFile => ("pairs_file", 409, "individual.error.pairs_file"),
    /// An individual tournament is a stage only of a circuit ranking players.
    IndividualNotAStage => ("not_a_stage", 409, "individual.error.not_a_stage"),
    /// More players than the movement seats (`max`).
    IndividualTooMany => ("too_many", 409, "individual.error.too_many"),
    /// Fewer players present than one table (`min`).
    IndividualTooFew => ("too_few", 409, "individual.error.too_few"),
    /// The individual movement refuses (`reason`).
    IndividualMovement => ("movement", 409, "individual.error.movement"),
    /// Tables of the last round have no result (`round`, `tables`).
    IndividualTablesMissing => ("tables_missing", 409, "individual.error.tables_missing"),

    // Teams.
    TeamsStarted => ("started", 409, "teams.error.started"),
    TeamsWithdrawn => ("withdrawn", 409, "teams.error.withdrawn"),
    TeamsTooFew => ("too_few", 409, "teams.error.too_few"),
    TeamsStandings => ("standings", 409, "teams.error.standings"),
    TeamsLineupRound => ("lineup_round", 409, "teams.error.lineup_round"),
    TeamsLineupFinal => ("lineup_final", 409, "teams.error.lineup_final"),
    TeamsNoMatch => ("no_match", 409, "teams.error.no_match"),
    TeamsNoPairs => ("no_pairs", 409, "teams.error.no_pairs"),
    TeamsNotTeams => ("not_teams", 409, "teams.error.not_teams"),
    TeamsPairsOnly => ("pairs_only", 409, "teams.error.pairs_only"),
    TeamsPairsFile => ("pairs_file", 409, "teams.error.pairs_file"),
    TeamsNotAStage => ("not_a_stage", 409, "teams.error.not_a_stage"),
    /// The team movement's reason (`reason`).
    TeamsMovement => ("movement", 409, "teams.error.movement"),
    /// Tables of the match have no score (`round`, `tables`).
    TeamsTablesMissing => ("tables_missing", 409, "teams.error.tables_missing"),

    // Circuits.
    CircuitNotAStage => ("not_a_stage", 409, "circuit.error.not_a_stage"),
    CircuitStageAlready => ("stage_already", 409, "circuit.error.stage_already"),
    /// At most `max` stages.
    CircuitTooManyStages => ("too_many_stages", 409, "circuit.error.too_many_stages"),

    // People, accounts, tokens.
    PeopleMergedAlready => ("merged_already", 409, "people.error.merged_already"),
    PeopleSamePerson => ("same_person", 409, "people.error.same_person"),
    PeopleNotMerged => ("not_merged", 409, "people.error.not_merged"),
    SetupDone => ("setup_done", 409, "error.setup_done"),
    LastAdmin => ("last_admin", 409, "error.last_admin"),
    TokensInactive => ("inactive", 409, "tokens.error.inactive"),
    TokensTooMany => ("too_many", 409, "tokens.error.too_many"),

    // Sheets, at the desk and at the table.
    /// Somebody else changed the sheet since the editor opened it.
    SheetChanged => ("sheet_changed", 409, "sheet.conflict"),
    /// No table has this code.
    TableNotFound => ("table_not_found", 404, "table.error.not_found"),
    /// A code of neither pair at this table.
    PairCodeWrong => ("pair_code_wrong", 403, "table.error.pair_code_wrong"),
    /// The pair that entered the sheet cannot confirm it.
    SamePair => ("same_pair", 403, "table.error.same_pair"),
    /// The round is over (a later round is drawn, or the tournament closed).
    RoundClosed => ("round_closed", 409, "table.error.round_closed"),
    /// The director turned table-side entry off.
    TableEntryOff => ("table_entry_off", 409, "table.error.table_entry_off"),
    /// The table's sheet counts already.
    AlreadyConfirmed => ("already_confirmed", 409, "table.error.already_confirmed"),
    /// There is no entry to answer.
    NothingEntered => ("nothing_entered", 409, "table.error.nothing_entered"),
    /// The entry changed since it was read (confirm what you saw).
    EntryChanged => ("entry_changed", 409, "table.error.entry_changed"),
}

#[cfg(test)]
mod tests {
    use super::Refusal;

    #[test]
    fn every_refusal_has_a_snake_case_code_a_status_and_a_message() {
        for r in Refusal::ALL {
            let code = r.code();
            assert!(
                !code.is_empty()
                    && code
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{r:?}: {code}"
            );
            assert!([403, 404, 409, 422].contains(&r.status()), "{r:?}");
            for lang in crate::i18n::Lang::ALL {
                let catalog = crate::i18n::try_catalog(lang).unwrap();
                assert!(catalog.get(r.key()).is_some(), "{r:?} {lang:?}");
            }
        }
    }
}
