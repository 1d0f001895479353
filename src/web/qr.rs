//! QR codes for the printouts: inline SVG drawn by the `qrcode` crate, and
//! the absolute address they carry.

use actix_web::HttpRequest;

use super::AppState;

/// The address players reach the server at: `PUBLIC_URL` when set, else the
/// scheme and host the request came in with.
pub fn base_url(state: &AppState, req: &HttpRequest) -> String {
    match &state.settings.public_url {
        Some(url) => url.clone(),
        None => {
            let info = req.connection_info();
            format!("{}://{}", info.scheme(), info.host())
        }
    }
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
