//! What every page knows about its request: the language, the signed-in
//! user, the CSRF token for its forms. Put in place by `middleware::session_layer`.

use std::collections::BTreeMap;
use std::future::{ready, Ready};
use std::sync::{Arc, OnceLock};

use actix_web::{dev::Payload, FromRequest, HttpMessage, HttpRequest};
use chrono::NaiveDateTime;

use crate::auth::csrf::CsrfKey;
use crate::auth::{session, Role};
use crate::i18n::{self, Lang};
use crate::web::error::AppError;

pub use crate::services::accounts::SessionUser;

/// Set by the session middleware for every request.
#[derive(Debug, Clone)]
pub struct RequestCtx {
    pub lang: Lang,
    pub user: Option<SessionUser>,
    pub csrf: CsrfToken,
    pub timezone: chrono_tz::Tz,
}

/// The CSRF token of a request's forms, computed when first asked for.
/// Writing it into a page (`{{ ctx.csrf }}`) is what gives a visitor
/// without a session the anonymous cookie it is bound to: pages without
/// forms (the public pages) set no cookie and stay cacheable, and cost no
/// random token and no HMAC.
#[derive(Clone, Default)]
pub struct CsrfToken(Arc<CsrfInner>);

#[derive(Default)]
struct CsrfInner {
    key: Option<CsrfKey>,
    /// The session token, or the anonymous cookie's; `None`: a new anonymous
    /// token is made on first use.
    binding: Option<String>,
    new_anon: OnceLock<String>,
    value: OnceLock<String>,
}

impl CsrfToken {
    pub fn lazy(key: CsrfKey, binding: Option<String>) -> CsrfToken {
        CsrfToken(Arc::new(CsrfInner {
            key: Some(key),
            binding,
            new_anon: OnceLock::new(),
            value: OnceLock::new(),
        }))
    }

    /// The token (computed now if needed).
    pub fn as_str(&self) -> &str {
        let inner = &*self.0;
        inner.value.get_or_init(|| {
            let Some(key) = &inner.key else {
                return String::new();
            };
            let binding = match &inner.binding {
                Some(b) => b.as_str(),
                None => inner.new_anon.get_or_init(session::new_token).as_str(),
            };
            key.token_for(binding)
        })
    }

    /// Whether a page or a handler asked for the token.
    pub fn was_used(&self) -> bool {
        self.0.value.get().is_some()
    }

    /// The anonymous token made for this request, if the token was used by
    /// a visitor without one (the session layer sets it as a cookie).
    pub fn new_anon(&self) -> Option<&str> {
        self.0.new_anon.get().map(String::as_str)
    }
}

impl std::fmt::Debug for CsrfToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CsrfToken(…)")
    }
}

impl std::fmt::Display for CsrfToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decimal however a template holds it (by value or behind references),
/// for the number formatters.
pub trait AsDecimal {
    fn as_decimal(&self) -> rust_decimal::Decimal;
}

impl AsDecimal for rust_decimal::Decimal {
    fn as_decimal(&self) -> rust_decimal::Decimal {
        *self
    }
}

impl<T: AsDecimal + ?Sized> AsDecimal for &T {
    fn as_decimal(&self) -> rust_decimal::Decimal {
        (**self).as_decimal()
    }
}

/// The page context handed to every template.
#[derive(Debug, Clone)]
pub struct PageCtx {
    pub lang: Lang,
    pub user: Option<SessionUser>,
    pub csrf: CsrfToken,
    /// The current path and query, for the language switch and `next`.
    pub here: String,
    /// A notice to show once (a catalog key from `?done=`).
    pub notice: Option<&'static str>,
    pub timezone: chrono_tz::Tz,
}

impl PageCtx {
    pub fn from_request(req: &HttpRequest) -> PageCtx {
        let rc = req
            .extensions()
            .get::<RequestCtx>()
            .cloned()
            .unwrap_or(RequestCtx {
                lang: Lang::default(),
                user: None,
                csrf: CsrfToken::default(),
                timezone: chrono_tz::Europe::Rome,
            });
        let here = match req.query_string() {
            "" => req.path().to_string(),
            q => format!("{}?{}", req.path(), q),
        };
        let notice = web_query_value(req.query_string(), "done").and_then(|k| notice_key(&k));
        PageCtx {
            lang: rc.lang,
            user: rc.user,
            csrf: rc.csrf,
            here,
            notice,
            timezone: rc.timezone,
        }
    }

    /// The same page as any visitor without a session sees it (what the
    /// public page cache renders): no user, no token, no notice, the path
    /// without its query.
    pub fn anonymous(&self) -> PageCtx {
        PageCtx {
            lang: self.lang,
            user: None,
            csrf: CsrfToken::default(),
            here: self.here.split('?').next().unwrap_or("/").to_string(),
            notice: None,
            timezone: self.timezone,
        }
    }

    /// Translated text for a catalog key.
    pub fn t(&self, key: &str) -> &'static str {
        i18n::t(self.lang, key)
    }

    /// A refusal that says how long to wait (`key` takes `{seconds}`).
    pub fn wait_message(&self, key: &str, retry_after: std::time::Duration) -> String {
        let seconds = crate::services::brakes::wait_seconds(retry_after);
        i18n::tf(self.lang, key, &[("seconds", &seconds)])
    }

    /// An amount of euros as this language writes it (`1.234,50 €`,
    /// `€1,234.50`): the one formatter of every page.
    pub fn money(&self, value: impl AsDecimal) -> String {
        i18n::format::money(self.lang, value.as_decimal())
    }

    /// An amount without the currency sign (a column headed `€`).
    pub fn amount(&self, value: impl AsDecimal) -> String {
        i18n::format::amount(self.lang, value.as_decimal())
    }

    /// A whole number (match points, totals) with this language's
    /// thousands separator (`7.265`, `7,265`).
    pub fn int(&self, value: impl AsInt) -> String {
        i18n::format::integer(self.lang, value.as_int())
    }

    /// A percentage or other decimal with this language's separators.
    pub fn decimal(&self, value: impl AsDecimal) -> String {
        i18n::format::decimal(self.lang, value.as_decimal())
    }

    /// A rule profile's name in this language (the glossary's
    /// `profile.NAME`): Italian presets are named in Italian.
    pub fn profile_name(&self, name: &str) -> String {
        i18n::tf(self.lang, &format!("profile.{name}"), &[])
    }

    /// The other language, for the switch.
    pub fn other_lang(&self) -> Lang {
        self.lang.other()
    }

    /// Link that switches language and comes back here.
    pub fn lang_switch_href(&self) -> String {
        format!(
            "/lang/{}?next={}",
            self.lang.other().code(),
            super::encode_query(&self.here)
        )
    }

    pub fn is_role(&self, role: &str) -> bool {
        match (&self.user, Role::parse(role)) {
            (Some(u), Some(r)) => u.role.allows(r),
            _ => false,
        }
    }

    /// A UTC timestamp in the tournament's local time.
    /// A place as the page's language writes it (`20°`, `20th`).
    pub fn ordinal(&self, n: impl AsPlace) -> String {
        crate::i18n::format::ordinal(self.lang, n.place())
    }

    /// "at 16:17" today, "on 24/11/2026 at 16:17" another day (local time),
    /// after a catalog phrase (`clock.time_out_called`).
    pub fn said_at(&self, key: &str, utc: &NaiveDateTime) -> String {
        let local = utc.and_utc().with_timezone(&self.timezone);
        let today = chrono::Utc::now()
            .with_timezone(&self.timezone)
            .date_naive();
        let time = local.format("%H:%M").to_string();
        if local.date_naive() == today {
            crate::i18n::tf(self.lang, &format!("{key}_at"), &[("time", &time)])
        } else {
            let date = local.format("%d/%m/%Y").to_string();
            crate::i18n::tf(
                self.lang,
                &format!("{key}_on"),
                &[("date", &date), ("time", &time)],
            )
        }
    }

    pub fn local_time(&self, utc: &NaiveDateTime) -> String {
        utc.and_utc()
            .with_timezone(&self.timezone)
            .format("%d/%m/%Y %H:%M")
            .to_string()
    }

    /// The signed-in user, or a redirect to the login page.
    pub fn require_user(&self) -> Result<&SessionUser, AppError> {
        self.user.as_ref().ok_or_else(|| AppError::LoginRequired {
            next: self.here.clone(),
        })
    }

    /// The signed-in user if her role allows `role`; else a login redirect or 403.
    /// The signed-in user as the services see them, if their role allows.
    pub fn actor(&self, role: Role) -> Result<crate::services::Actor, AppError> {
        let u = self.require(role)?;
        Ok(crate::services::Actor {
            user_id: u.id,
            role: u.role,
        })
    }

    pub fn require(&self, role: Role) -> Result<&SessionUser, AppError> {
        let user = self.require_user()?;
        if user.role.allows(role) {
            Ok(user)
        } else {
            Err(AppError::Forbidden)
        }
    }
}

impl FromRequest for PageCtx {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(PageCtx::from_request(req)))
    }
}

/// When the request reached its handler (UTC, the server's clock), read
/// before any other extractor of the handler runs (a token's look-up, the
/// body): `nextRound` without a round means the round after the last one
/// drawn before this moment. Only the handlers that need it take it.
#[derive(Debug, Clone, Copy)]
pub struct Arrived(pub NaiveDateTime);

impl FromRequest for Arrived {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let at = req
            .app_data::<actix_web::web::Data<super::AppState>>()
            .map(|s| s.db.now());
        ready(at.map(Arrived).ok_or_else(|| {
            actix_web::error::ErrorInternalServerError("the application state is missing")
        }))
    }
}

/// A place number as templates hand it over (by value or by reference).
pub trait AsPlace {
    fn place(&self) -> u32;
}

impl AsPlace for u32 {
    fn place(&self) -> u32 {
        *self
    }
}

impl AsPlace for usize {
    fn place(&self) -> u32 {
        u32::try_from(*self).unwrap_or(u32::MAX)
    }
}

impl<T: AsPlace> AsPlace for &T {
    fn place(&self) -> u32 {
        (**self).place()
    }
}

/// Where the entry fees go (RULES.md §10), shown beside every prize list:
/// what the entries brought in, the organiser's share (negative: what the
/// organiser adds to reach a guaranteed pool) and the prize pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoneyFacts {
    pub entries: u32,
    pub collected: rust_decimal::Decimal,
    pub organiser: rust_decimal::Decimal,
    pub pool: rust_decimal::Decimal,
    /// The tournament is closed: the pool is final.
    pub is_final: bool,
}

impl MoneyFacts {
    pub fn of(
        entries: u32,
        pool: rust_decimal::Decimal,
        organiser_fee: rust_decimal::Decimal,
        is_final: bool,
    ) -> MoneyFacts {
        MoneyFacts {
            entries,
            collected: pool + organiser_fee,
            organiser: organiser_fee,
            pool,
            is_final,
        }
    }

    /// The organiser adds to the entries (a guaranteed pool above them).
    pub fn organiser_adds(&self) -> bool {
        self.organiser < rust_decimal::Decimal::ZERO
    }

    /// The organiser's share, or what the organiser adds, as a positive amount.
    pub fn organiser_amount(&self) -> rust_decimal::Decimal {
        self.organiser.abs()
    }
}

/// Notices that a redirect may ask a page to show (`?done=user_created`).
const NOTICES: &[(&str, &str)] = &[
    ("pairs_checked_in", "notice.pairs_checked_in"),
    ("user_created", "notice.user_created"),
    ("user_disabled", "notice.user_disabled"),
    ("user_enabled", "notice.user_enabled"),
    ("password_reset", "notice.password_reset"),
    ("password_changed", "notice.password_changed"),
    ("token_revoked_admin", "notice.token_revoked_admin"),
    ("role_changed", "notice.role_changed"),
    ("setup_done", "notice.setup_done"),
    ("logged_out", "notice.logged_out"),
    ("tournament_created", "notice.tournament_created"),
    ("settings_saved", "notice.settings_saved"),
    ("staff_added", "notice.staff_added"),
    ("tournament_reopened", "notice.tournament_reopened"),
    ("staff_removed", "notice.staff_removed"),
    ("admin_setting_saved", "notice.settings_saved_admin"),
    ("pair_added", "notice.pair_added"),
    ("pair_saved", "notice.pair_saved"),
    ("pairs_imported", "notice.pairs_imported"),
    ("player_added", "individual.notice.player_added"),
    ("players_checked_in", "individual.notice.checked_in"),
    ("players_imported", "individual.notice.imported"),
    ("round_drawn", "notice.round_drawn"),
    ("round_generated", "notice.round_generated"),
    ("sheet_saved", "notice.sheet_saved"),
    ("all_entered", "deskentry.notice.all_entered"),
    ("penalty_added", "notice.penalty_added"),
    ("penalty_withdrawn", "notice.penalty_withdrawn"),
    ("penalty_reinstated", "notice.penalty_reinstated"),
    ("tournament_closed", "notice.tournament_closed"),
    ("tournament_imported", "notice.tournament_imported"),
    ("round_undone", "states.notice.round_undone"),
    ("start_undone", "states.notice.start_undone"),
    ("circuit_created", "circuit.notice.created"),
    ("circuit_saved", "circuit.notice.saved"),
    ("circuit_imported", "circuit.notice.imported"),
    ("circuit_deleted", "circuit.notice.deleted"),
    ("stage_added", "circuit.notice.stage_added"),
    ("stage_removed", "circuit.notice.stage_removed"),
    ("people_merged", "people.notice.merged"),
    ("people_split", "people.notice.split"),
];

fn notice_key(done: &str) -> Option<&'static str> {
    NOTICES
        .iter()
        .find(|(n, _)| *n == done)
        .map(|(_, key)| *key)
}

/// One value of a query string.
pub fn web_query_value(query: &str, name: &str) -> Option<String> {
    serde_urlencoded::from_str::<Vec<(String, String)>>(query)
        .ok()?
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// Messages next to form fields: field name → translated message.
#[derive(Debug, Default, Clone)]
pub struct FieldErrors(BTreeMap<&'static str, String>, Option<&'static str>);

impl FieldErrors {
    pub fn add(&mut self, field: &'static str, message: impl Into<String>) {
        self.1.get_or_insert(field);
        self.0.entry(field).or_insert_with(|| message.into());
    }

    /// Whether `field` is the first with a problem (in the order the form's
    /// parser reports them, which is the form's order): it gets `autofocus`,
    /// so the cursor is where the fixing starts.
    pub fn is_first(&self, field: &str) -> bool {
        self.1 == Some(field)
    }

    pub fn get(&self, field: &str) -> Option<&str> {
        self.0.get(field).map(String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Field names with errors (for a summary at the top of the form).
    pub fn messages(&self) -> impl Iterator<Item = &str> {
        self.0.values().map(String::as_str)
    }
}

impl PageCtx {
    /// The URL of an embedded static file.
    pub fn asset(&self, name: &str) -> String {
        super::assets::url(name)
    }
}

/// A whole number a page shows (by value or by reference, as templates
/// hand them over).
pub trait AsInt {
    fn as_int(&self) -> i64;
}

macro_rules! as_int {
    ($($t:ty),*) => {$(
        impl AsInt for $t {
            fn as_int(&self) -> i64 {
                i64::from(*self)
            }
        }
    )*};
}
as_int!(i64, i32, u32, u16, u8, i16);

impl<T: AsInt + ?Sized> AsInt for &T {
    fn as_int(&self) -> i64 {
        (**self).as_int()
    }
}
