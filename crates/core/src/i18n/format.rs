//! Numbers and money as each language writes them: the one place that says
//! how an amount looks on a page or in a CSV file.
//!
//! Italian: `1.234,50 €` (thousands `.`, decimals `,`, the sign after a
//! space); English: `€1,234.50`. Negative amounts keep their sign in front
//! (`-1.234,50 €`, `-€1,234.50`).

use rust_decimal::{Decimal, RoundingStrategy};

use super::Lang;

/// The separators of a language: (thousands, decimals).
fn separators(lang: Lang) -> (char, char) {
    match lang {
        Lang::It => ('.', ','),
        Lang::En => (',', '.'),
    }
}

/// A number with exactly `decimals` decimals (rounded half away from zero)
/// and grouped thousands: `1.234,50` / `1,234.50`.
pub fn number(lang: Lang, value: Decimal, decimals: u32) -> String {
    let rounded = value.round_dp_with_strategy(decimals, RoundingStrategy::MidpointAwayFromZero);
    let negative = rounded.is_sign_negative() && !rounded.is_zero();
    let text = format!("{:.*}", decimals as usize, rounded.abs());
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text.as_str(), None),
    };
    let (thousands, decimal) = separators(lang);
    let mut out = String::with_capacity(text.len() + text.len() / 3 + 2);
    if negative {
        out.push('-');
    }
    let digits = int.len();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (digits - i) % 3 == 0 {
            out.push(thousands);
        }
        out.push(c);
    }
    if let Some(f) = frac {
        out.push(decimal);
        out.push_str(f);
    }
    out
}

/// A whole number with grouped thousands: `12.345` / `12,345`.
pub fn integer(lang: Lang, value: i64) -> String {
    number(lang, Decimal::from(value), 0)
}

/// A decimal shown with as many decimals as it has (none for a whole
/// number): percentages, `70,5` / `70.5`.
pub fn decimal(lang: Lang, value: Decimal) -> String {
    let v = value.normalize();
    number(lang, v, v.scale())
}

/// An amount of euros, always with cents: `1.234,50 €` / `€1,234.50`.
pub fn money(lang: Lang, value: Decimal) -> String {
    let n = number(lang, value, 2);
    match lang {
        // A no-break space keeps the sign with its amount on a narrow phone.
        Lang::It => format!("{n}\u{a0}€"),
        Lang::En => match n.strip_prefix('-') {
            Some(abs) => format!("-€{abs}"),
            None => format!("€{n}"),
        },
    }
}

/// An amount of euros without the sign (a table column headed `€`).
pub fn amount(lang: Lang, value: Decimal) -> String {
    number(lang, value, 2)
}

/// An amount as a person types it in a form field: two decimals with the
/// language's decimal mark and no thousands separator (`1234,50` /
/// `1234.50`). Documents people read (pages, printouts, CSV files) use
/// [`amount`] or [`money`], grouped.
pub fn spreadsheet_amount(lang: Lang, value: Decimal) -> String {
    let (thousands, _) = separators(lang);
    amount(lang, value).replace(thousands, "")
}

/// A place as the language writes it: `20°` in Italian, `20th` in English
/// (1st, 2nd, 3rd, 11th, 12th, 13th, 21st…).
pub fn ordinal(lang: Lang, n: u32) -> String {
    match lang {
        Lang::It => format!("{n}°"),
        Lang::En => {
            let suffix = match (n % 10, n % 100) {
                (_, 11..=13) => "th",
                (1, _) => "st",
                (2, _) => "nd",
                (3, _) => "rd",
                _ => "th",
            };
            format!("{n}{suffix}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn money_in_italian() {
        assert_eq!(money(Lang::It, d("1234.5")), "1.234,50\u{a0}€");
        assert_eq!(money(Lang::It, d("14")), "14,00\u{a0}€");
        assert_eq!(money(Lang::It, d("0")), "0,00\u{a0}€");
        assert_eq!(money(Lang::It, d("0.05")), "0,05\u{a0}€");
        assert_eq!(money(Lang::It, d("1000000")), "1.000.000,00\u{a0}€");
        assert_eq!(money(Lang::It, d("-1234.56")), "-1.234,56\u{a0}€");
        assert_eq!(money(Lang::It, d("-0.5")), "-0,50\u{a0}€");
    }

    #[test]
    fn money_in_english() {
        assert_eq!(money(Lang::En, d("1234.5")), "€1,234.50");
        assert_eq!(money(Lang::En, d("14")), "€14.00");
        assert_eq!(money(Lang::En, d("999.99")), "€999.99");
        assert_eq!(money(Lang::En, d("-1234.56")), "-€1,234.56");
        assert_eq!(money(Lang::En, d("123456789.01")), "€123,456,789.01");
    }

    #[test]
    fn cents_are_rounded_half_away_from_zero() {
        assert_eq!(amount(Lang::It, d("16.665")), "16,67");
        assert_eq!(amount(Lang::En, d("-16.665")), "-16.67");
        assert_eq!(amount(Lang::It, d("16.664")), "16,66");
        // A negative that rounds to zero shows no sign.
        assert_eq!(amount(Lang::It, d("-0.001")), "0,00");
    }

    #[test]
    fn spreadsheet_amounts_have_no_thousands_separator() {
        assert_eq!(spreadsheet_amount(Lang::It, d("1234.5")), "1234,50");
        assert_eq!(spreadsheet_amount(Lang::En, d("-1234.5")), "-1234.50");
    }

    #[test]
    fn numbers_and_percentages() {
        assert_eq!(integer(Lang::It, 12345), "12.345");
        assert_eq!(integer(Lang::En, -12345), "-12,345");
        assert_eq!(integer(Lang::It, 999), "999");
        assert_eq!(integer(Lang::It, 1000), "1.000");
        assert_eq!(decimal(Lang::It, d("70.50")), "70,5");
        assert_eq!(decimal(Lang::En, d("70.50")), "70.5");
        assert_eq!(decimal(Lang::It, d("100")), "100");
        assert_eq!(decimal(Lang::It, d("33.333333")), "33,333333");
    }

    #[test]
    fn places_as_each_language_writes_them() {
        assert_eq!(ordinal(Lang::It, 20), "20°");
        let en: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 20, 21, 22, 23, 101, 111, 112]
            .iter()
            .map(|n| ordinal(Lang::En, *n))
            .collect();
        assert_eq!(
            en,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "20th", "21st", "22nd", "23rd",
                "101st", "111th", "112th"
            ]
        );
    }
}
