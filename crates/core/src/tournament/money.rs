//! Money and percentages as the director types them, parsed into bounded
//! domain types: an amount always has at most two decimals and lies within
//! its field's limits, so every computation on it (cents for the database,
//! the prize pool of RULES.md §10) stays far from `Decimal`'s limits.
//!
//! The limits live here, once: the settings form and the tournament-file
//! validation both use them.

use std::str::FromStr;

use rust_decimal::Decimal;

use super::FieldProblem;
use crate::rules::prize_pool::{MONEY_DECIMALS, PERCENT_DECIMALS};

/// The largest entry fee per pair: 1 000,00 €.
pub const MAX_ENTRY_FEE: Decimal = Decimal::from_parts(100_000, 0, 0, false, MONEY_DECIMALS);
/// The largest guaranteed pool: 1 000 000,00 €.
pub const MAX_GUARANTEED_POOL: Decimal =
    Decimal::from_parts(100_000_000, 0, 0, false, MONEY_DECIMALS);
/// Percentages (prize share, each place of a payout scheme) are 0 to 100.
pub const MAX_PERCENT: Decimal = Decimal::ONE_HUNDRED;
/// Longest text accepted in a money or percent field (no number needs more;
/// it keeps absurd inputs away from the decimal parser).
const MAX_NUMBER_CHARS: usize = 32;

/// The limits of one money field: the field's name and its largest amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoneyField {
    pub field: &'static str,
    pub max: Decimal,
}

pub const ENTRY_FEE: MoneyField = MoneyField {
    field: "entry_fee",
    max: MAX_ENTRY_FEE,
};
pub const GUARANTEED_POOL: MoneyField = MoneyField {
    field: "guaranteed_pool",
    max: MAX_GUARANTEED_POOL,
};

/// A sum of euros: not negative, at most two decimals, within its field's
/// limit. Built only by [`Money::parse`], [`Money::from_cents`] or
/// [`Money::new`], which check all three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(Decimal);

/// Why an amount is refused (before it gets a field and a message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoneyError {
    NotANumber,
    Negative,
    TooPrecise,
    TooLarge,
}

impl Money {
    pub const ZERO: Money = Money(Decimal::ZERO);

    /// An amount checked against a field's limit.
    pub fn new(value: Decimal, limit: MoneyField) -> Result<Money, MoneyError> {
        if value.is_sign_negative() && !value.is_zero() {
            return Err(MoneyError::Negative);
        }
        if value.normalize().scale() > MONEY_DECIMALS {
            return Err(MoneyError::TooPrecise);
        }
        if value > limit.max {
            return Err(MoneyError::TooLarge);
        }
        let mut v = value.normalize();
        v.rescale(MONEY_DECIMALS);
        Ok(Money(v))
    }

    /// As people type it: `20`, `20.50`, `20,50`, `€ 20`, `1.000,50`,
    /// `1,000.50`. The problem names the field and its limit.
    pub fn parse(text: &str, limit: MoneyField) -> Result<Money, FieldProblem> {
        let problem = |_| {
            FieldProblem::new(limit.field, "settings.error.money")
                .with("max", whole_euros(limit.max))
        };
        let value = decimal_as_typed(text.trim().trim_start_matches('€').trim_end_matches('€'))
            .ok_or(MoneyError::NotANumber)
            .map_err(problem)?;
        Money::new(value, limit).map_err(problem)
    }

    /// From integer cents (the database), checked like a typed amount.
    pub fn from_cents(cents: i64, limit: MoneyField) -> Result<Money, MoneyError> {
        Money::new(Decimal::new(cents, MONEY_DECIMALS), limit)
    }

    pub fn amount(self) -> Decimal {
        self.0
    }

    /// Integer cents. Exact: the amount has two decimals and is at most
    /// [`MAX_GUARANTEED_POOL`], so it always fits.
    pub fn cents(self) -> i64 {
        i64::try_from(self.0.mantissa()).unwrap_or(i64::MAX)
    }
}

impl std::fmt::Display for Money {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.2}", self.0)
    }
}

/// A percentage from 0 to 100 with at most [`PERCENT_DECIMALS`] decimals:
/// `70`, `70.5`, `70,5`, `70%`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Percent(Decimal);

impl Percent {
    pub fn new(value: Decimal) -> Option<Percent> {
        let ok = value >= Decimal::ZERO
            && value <= MAX_PERCENT
            && value.normalize().scale() <= PERCENT_DECIMALS;
        ok.then(|| Percent(value.normalize()))
    }

    pub fn parse(text: &str) -> Option<Percent> {
        let t = text.trim().trim_end_matches('%');
        Percent::new(decimal_as_typed(t)?)
    }

    pub fn value(self) -> Decimal {
        self.0
    }
}

/// The prize share typed as an amount of each entry fee (`15` of 20 €):
/// the percentage it is, rounded to [`PERCENT_DECIMALS`] decimals; `Err`
/// names the catalog key of the problem (no fee, not an amount, more than
/// the fee).
pub fn share_of_amount(text: &str, fee: Option<Decimal>) -> Result<Percent, &'static str> {
    let typed = text.trim().trim_end_matches('€').trim();
    let amount = decimal_as_typed(typed).ok_or("settings.error.share_amount")?;
    let fee = fee.ok_or("settings.error.share_amount")?;
    if fee <= Decimal::ZERO {
        return Err("settings.error.share_amount_no_fee");
    }
    if amount < Decimal::ZERO || amount > fee || amount.normalize().scale() > MONEY_DECIMALS {
        return Err("settings.error.share_amount");
    }
    let percent = (amount * Decimal::ONE_HUNDRED / fee).round_dp(PERCENT_DECIMALS);
    Percent::new(percent).ok_or("settings.error.share_amount")
}

/// The amount per entry a percentage of `fee` is, when the percentage reads
/// worse than the amount: more than two decimals, and the amount a whole
/// number of cents that gives the same percentage back.
pub fn amount_of_share(percent: Decimal, fee: Decimal) -> Option<Decimal> {
    if fee <= Decimal::ZERO || percent.normalize().scale() <= 2 {
        return None;
    }
    let amount = (fee * percent / Decimal::ONE_HUNDRED).round_dp(MONEY_DECIMALS);
    let back = (amount * Decimal::ONE_HUNDRED / fee).round_dp(PERCENT_DECIMALS);
    (back == percent.normalize()).then_some(amount)
}

/// `1000` as "1000", `1000.50` as "1000.50": the limit as the message shows it.
fn whole_euros(d: Decimal) -> String {
    if d.fract().is_zero() {
        d.trunc().normalize().to_string()
    } else {
        format!("{d:.2}")
    }
}

/// A decimal number typed with a comma or a dot for decimals, and maybe the
/// other as a thousands separator (`1.000,50`, `1,000.50`). Spaces inside
/// are ignored. `None` for anything else, or text far too long to be money.
pub fn decimal_as_typed(text: &str) -> Option<Decimal> {
    if text.chars().count() > MAX_NUMBER_CHARS {
        return None;
    }
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (comma, dot) = (t.rfind(','), t.rfind('.'));
    let normal = match (comma, dot) {
        (Some(c), Some(d)) if c > d => thousands(&t, '.', ',')?,
        (Some(_), Some(_)) => thousands(&t, ',', '.')?,
        (Some(_), None) => t.replace(',', "."),
        _ => t,
    };
    if normal.matches('.').count() > 1
        || !normal
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
    {
        return None;
    }
    Decimal::from_str(&normal).ok()
}

/// `1.000,50` (thousands `.`, decimals `,`) → `1000.50`; the thousands
/// separator must come in groups of three.
fn thousands(t: &str, sep: char, decimal: char) -> Option<String> {
    let (int, frac) = t.rsplit_once(decimal)?;
    let mut groups = int.split(sep);
    let first = groups.next()?;
    if first.is_empty() || first.trim_start_matches('-').len() > 3 {
        return None;
    }
    let mut out = first.to_string();
    for g in groups {
        if g.len() != 3 {
            return None;
        }
        out.push_str(g);
    }
    Some(format!("{out}.{frac}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn amounts_as_italians_and_others_type_them() {
        for (text, cents) in [
            ("20", 2000),
            ("20,50", 2050),
            ("20.5", 2050),
            ("€ 15", 1500),
            ("15 €", 1500),
            ("1.000,00", 100_000),
            ("1,000.00", 100_000),
            ("1 000,00", 100_000),
            ("0", 0),
            ("1000", 100_000),
        ] {
            let m = Money::parse(text, ENTRY_FEE).unwrap();
            assert_eq!(m.cents(), cents, "{text}");
            assert_eq!(m.amount().scale(), 2);
        }
        for bad in [
            "",
            "venti",
            "-1",
            "1.234",
            "20,555",
            "1.00.0",
            "1,0,0",
            "12.34,5,6",
            "1e3",
            "+-1",
        ] {
            assert!(Money::parse(bad, ENTRY_FEE).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_field_has_its_limit_and_says_so() {
        assert_eq!(
            Money::parse("1000,00", ENTRY_FEE).unwrap().amount(),
            MAX_ENTRY_FEE
        );
        let e = Money::parse("1000,01", ENTRY_FEE).unwrap_err();
        assert_eq!(
            (e.field, e.key.as_str()),
            ("entry_fee", "settings.error.money")
        );
        assert!(
            e.message(Lang::It).contains("1000"),
            "{}",
            e.message(Lang::It)
        );
        assert!(e.message(Lang::En).contains("1000"));
        let max = Money::parse("1.000.000,00", GUARANTEED_POOL).unwrap();
        assert_eq!(max.cents(), 100_000_000);
        assert!(Money::parse("1000000,01", GUARANTEED_POOL).is_err());
        // Absurd inputs are refused, never a panic.
        for absurd in [
            "79228162514264337593543950335",
            "79228162514264337593543950336",
            "99999999999999999999999999999999999999999",
            "0.0000000000000000000000000001",
            &"9".repeat(10_000),
        ] {
            assert!(Money::parse(absurd, GUARANTEED_POOL).is_err());
        }
        assert_eq!(Money::from_cents(-1, ENTRY_FEE), Err(MoneyError::Negative));
        assert_eq!(
            Money::from_cents(i64::MAX, ENTRY_FEE),
            Err(MoneyError::TooLarge)
        );
        assert_eq!(
            Money::from_cents(2050, ENTRY_FEE).unwrap().to_string(),
            "20.50"
        );
        assert_eq!(Money::new(d("20.500"), ENTRY_FEE).unwrap().cents(), 2050);
    }

    #[test]
    fn percentages_from_0_to_100() {
        assert_eq!(Percent::parse("70,5%").unwrap().value(), d("70.5"));
        assert_eq!(Percent::parse("100").unwrap().value(), d("100"));
        assert_eq!(Percent::parse("33.333333").unwrap().value(), d("33.333333"));
        for bad in ["101", "-1", "33.3333333", "x", "1e2", &"1".repeat(100)] {
            assert!(Percent::parse(bad).is_none(), "{bad}");
        }
    }
}

#[cfg(test)]
mod share_tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    #[test]
    fn a_share_typed_per_entry_is_its_percentage() {
        assert_eq!(
            share_of_amount("15", Some(d("20"))).map(Percent::value),
            Ok(d("75"))
        );
        assert_eq!(
            share_of_amount("10,00 €", Some(d("15"))).map(Percent::value),
            Ok(d("66.666667"))
        );
        assert_eq!(
            share_of_amount("21", Some(d("20"))).map(Percent::value),
            Err("settings.error.share_amount")
        );
        assert_eq!(
            share_of_amount("5", Some(d("0"))).map(Percent::value),
            Err("settings.error.share_amount_no_fee")
        );
        assert_eq!(amount_of_share(d("66.666667"), d("15")), Some(d("10.00")));
        assert_eq!(amount_of_share(d("75"), d("20")), None, "75 % reads well");
        // The pool of 30 entries at 15 € with 10 € each to the pool: 300 €.
        let pool = (d("30") * d("15") * d("66.666667") / d("100")).round_dp(2);
        assert_eq!(pool, d("300.00"));
    }
}
