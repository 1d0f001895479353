//! QR codes for the printouts: inline SVG drawn by the `qrcode` crate, and
//! the absolute address they carry.

use actix_web::HttpRequest;

use super::error::AppError;
use super::AppState;

/// The address players reach the server at: `PUBLIC_URL` when set, else
/// the address an administrator saved (Users page), else the scheme and
/// host the request came in with.
pub async fn base_url(state: &AppState, req: &HttpRequest) -> Result<String, AppError> {
    if let Some(url) = &state.settings.public_url {
        return Ok(url.clone());
    }
    if let Some(url) = crate::services::users::public_url(&state.db).await? {
        return Ok(url);
    }
    let info = req.connection_info();
    Ok(format!("{}://{}", info.scheme(), info.host()))
}

/// This machine's addresses on its networks, as the addresses a phone could
/// open (`http://192.168.1.20:8080`), with the port and scheme the request
/// came in with: offered when the cards would print a loopback address.
pub fn network_addresses(req: &HttpRequest) -> Vec<String> {
    let info = req.connection_info();
    let port = info
        .host()
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse::<u16>().ok())
        .map(|p| format!(":{p}"))
        .unwrap_or_default();
    let scheme = info.scheme().to_string();
    let mut v4 = Vec::new();
    let mut v6 = Vec::new();
    for iface in if_addrs::get_if_addrs().unwrap_or_default() {
        if iface.is_loopback() {
            continue;
        }
        match iface.ip() {
            std::net::IpAddr::V4(ip) if !ip.is_link_local() => {
                v4.push(format!("{scheme}://{ip}{port}"))
            }
            // Link-local IPv6 addresses need a zone a phone does not know.
            std::net::IpAddr::V6(ip) if (ip.segments()[0] & 0xffc0) != 0xfe80 => {
                v6.push(format!("{scheme}://[{ip}]{port}"))
            }
            _ => {}
        }
    }
    v4.sort();
    v4.dedup();
    v6.sort();
    v6.dedup();
    v4.extend(v6);
    v4
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
