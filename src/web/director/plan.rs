//! The plan of a tournament in words (RULES.md §13) and its level's
//! warnings (§15), for the settings page and the tournament's page.

use crate::i18n::tf;
use crate::movement::groups::GroupPlan;
use crate::tournament::settings::Settings;
use crate::web::context::PageCtx;

/// The plan in phases, in words: "Fase 1: 6 × Mitchell" …, the groups'
/// plan after the phase in groups.
pub fn plan_words(ctx: &PageCtx, s: &Settings) -> Vec<String> {
    s.phases()
        .iter()
        .enumerate()
        .map(|(i, (rounds, m))| {
            let phase = tf(
                ctx.lang,
                "settings.plan.phase",
                &[
                    ("n", &(i + 1)),
                    ("rounds", rounds),
                    ("movement", &ctx.t(m.label_key())),
                ],
            );
            match (&s.groups, m.in_groups()) {
                (Some(g), true) => format!("{phase} ({})", group_plan_words(ctx, &g.plan)),
                _ => phase,
            }
        })
        .collect()
}

/// How the groups are made, in words.
pub fn group_plan_words(ctx: &PageCtx, plan: &GroupPlan) -> String {
    match plan {
        GroupPlan::Count(g) => tf(ctx.lang, "settings.plan.groups_by_count", &[("count", g)]),
        GroupPlan::Tables(t) => tf(
            ctx.lang,
            "settings.plan.groups_by_tables",
            &[(
                "tables",
                &t.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
            )],
        ),
    }
}

/// The level's warnings, worded (they never refuse).
pub fn level_warnings(ctx: &PageCtx, s: &Settings) -> Vec<String> {
    s.level_warnings()
        .iter()
        .map(|w| w.message(ctx.lang))
        .collect()
}
