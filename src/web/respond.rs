//! What handlers answer with: a rendered page, a redirect after a POST,
//! `no-store` for pages with codes, the desk's live totals as JSON, and the
//! check of a `next` target before redirecting to it.

use actix_web::http::{header, StatusCode};
use actix_web::HttpResponse;
use askama::Template;

use crate::rules::SheetReport;
use crate::web::error::AppError;

/// Renders a template as an HTML page.
pub fn render<T: Template>(page: &T) -> Result<HttpResponse, AppError> {
    render_status(page, StatusCode::OK)
}

/// Renders a template with a status (422 for a form sent back with errors).
pub fn render_status<T: Template>(page: &T, status: StatusCode) -> Result<HttpResponse, AppError> {
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(page.render()?))
}

/// The live totals of a sheet form as the engine reads it (the desk's sheet
/// page calls this while the form is typed; the phone's has its own, with
/// the submission's verdict: `web::player::live`).
pub fn preview_response(report: Option<&SheetReport>) -> HttpResponse {
    let body = match report {
        Some(r) => serde_json::json!({
            "ok": true,
            // A hand that breaks a rule has no total to show (null).
            "hands": r.hands.iter().enumerate().map(|(i, h)| {
                if r.violations.iter().any(|v| v.hand == Some(i + 1)) {
                    serde_json::Value::Null
                } else {
                    serde_json::json!({"ns": h.ns.total, "ew": h.ew.total})
                }
            }).collect::<Vec<_>>(),
            "totals": {"ns": r.totals.ns, "ew": r.totals.ew},
            "vp": {"ns": r.vp.ns, "ew": r.vp.ew},
        }),
        None => serde_json::json!({"ok": false}),
    };
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(body)
}

/// `Cache-Control: no-store` (pages with a form a pair types codes into).
pub fn no_store(res: &mut HttpResponse) {
    res.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
}

/// A 303 redirect (after a successful POST).
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location.to_string()))
        .finish()
}

/// A redirect target from a form or query: only local paths are followed.
pub fn safe_next(next: Option<&str>) -> Option<String> {
    let n = next?.trim();
    // A local path only: browsers drop tabs and newlines and read `\` as
    // `/`, so `/<tab>/evil.example` would leave the site.
    let local = n.starts_with('/')
        && !n.starts_with("//")
        && !n
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
        && !n.contains("://");
    local.then(|| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::safe_next;
    use crate::web::error::encode_query;

    #[test]
    fn only_local_redirects() {
        assert_eq!(safe_next(Some("/admin/users")), Some("/admin/users".into()));
        assert_eq!(safe_next(Some("//evil.example")), None);
        assert_eq!(safe_next(Some("https://evil.example")), None);
        assert_eq!(safe_next(Some("/\\evil")), None);
        assert_eq!(safe_next(Some("/\t/evil.example")), None);
        assert_eq!(safe_next(Some("/\n/evil.example")), None);
        assert_eq!(safe_next(Some("/\t/evil.example")), None);
        assert_eq!(safe_next(Some("/\n/evil.example")), None);
        assert_eq!(safe_next(None), None);
    }

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(encode_query("/a b?x=1&y"), "%2Fa+b%3Fx%3D1%26y");
    }
}
