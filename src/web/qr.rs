//! QR codes for the printouts: inline SVG drawn by the `qrcode` crate, and
//! the absolute address they carry.

use actix_web::HttpRequest;

use super::error::AppError;
use super::AppState;

/// The address players reach the server at: `--public-url` when set, else
/// the address an administrator saved (Users page), else the scheme and
/// host the director's browser used when they are not this computer's
/// loopback, else the first network address the server listens on (a
/// director at the server's own screen prints cards phones can open). Only
/// a server listening on this computer alone prints a loopback address.
pub async fn base_url(state: &AppState, req: &HttpRequest) -> Result<String, AppError> {
    if let Some(url) = &state.settings.public_url {
        return Ok(url.clone());
    }
    if let Some(url) = crate::services::users::public_url(&state.db).await? {
        return Ok(url);
    }
    let info = req.connection_info();
    let seen = format!("{}://{}", info.scheme(), info.host());
    if !crate::tournament::text::is_loopback_url(&seen) {
        return Ok(seen);
    }
    let hall = network_addresses(state, req);
    Ok(hall.into_iter().next().unwrap_or(seen))
}

/// The addresses a phone in the hall can open this server at
/// (`http://192.168.1.20:8080`), with the scheme the request came in with:
/// the network addresses the server listens on, IPv4 first.
pub fn network_addresses(state: &AppState, req: &HttpRequest) -> Vec<String> {
    let Some(listen) = state.settings.listening else {
        return Vec::new();
    };
    crate::reach::hall_urls(listen, req.connection_info().scheme())
}

/// The command that makes a server listening on this computer only serve
/// the hall (its own command line, `--bind [::]:PORT`).
pub fn restart_command(state: &AppState) -> String {
    state.settings.restart_command.clone().unwrap_or_else(|| {
        let port = state.settings.listening.map_or(8080, |a| a.port());
        format!("burraco-td --bind [::]:{port}")
    })
}

/// A QR code of `text` as an inline `<svg>` element (no XML declaration),
/// black on white with its quiet zone, sized for print.
pub fn svg(text: &str) -> Result<String, qrcode::types::QrError> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M)?;
    let image = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(180, 180)
        .dark_color(qrcode::render::svg::Color("#000000"))
        .light_color(qrcode::render::svg::Color("#ffffff"))
        .quiet_zone(true)
        .build();
    Ok(match image.find("<svg") {
        Some(i) => image[i..].to_string(),
        None => image,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_svg_is_an_inline_element() {
        let s = super::svg("http://127.0.0.1:8080/s/ACDEFH").unwrap();
        assert!(s.starts_with("<svg"), "{s}");
        assert!(s.contains("</svg>"));
    }
}
