//! Static files, embedded in the binary (no CDN). Pages link them by a URL
//! that carries a hash of their content (`/static/style.3f2a9c0b1d4e.css`):
//! such a URL never changes content, so browsers and proxies may keep it for
//! a year without asking again (`immutable`). The plain name
//! (`/static/style.css`) and a hash of another build still answer, with the
//! current content, but must be revalidated (`no-cache` and an ETag).

use std::sync::OnceLock;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};

use crate::web::error::AppError;

struct Asset {
    name: &'static str,
    bytes: &'static [u8],
}

const ASSETS: &[Asset] = &[
    Asset {
        name: "style.css",
        bytes: include_bytes!("../../static/style.css"),
    },
    Asset {
        name: "app.js",
        bytes: include_bytes!("../../static/app.js"),
    },
    Asset {
        name: "phone.js",
        bytes: include_bytes!("../../static/phone.js"),
    },
    Asset {
        name: "players.js",
        bytes: include_bytes!("../../static/players.js"),
    },
    Asset {
        name: "live.js",
        bytes: include_bytes!("../../static/live.js"),
    },
    Asset {
        name: "favicon.svg",
        bytes: include_bytes!("../../static/favicon.svg"),
    },
];

/// What a year of caching is, in seconds.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The first 12 hex digits of the SHA-256 of an asset's bytes.
fn hash_of(name: &str) -> Option<&'static str> {
    static HASHES: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    let hashes = HASHES.get_or_init(|| {
        ASSETS
            .iter()
            .map(|a| (a.name, hex::encode(&Sha256::digest(a.bytes)[..6])))
            .collect()
    });
    hashes
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, h)| h.as_str())
}

/// `style.css` + hash → `style.HASH.css`.
fn hashed_name(name: &str, hash: &str) -> String {
    match name.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}.{hash}.{ext}"),
        None => format!("{name}.{hash}"),
    }
}

/// `/static/style.HASH.css` for templates.
pub fn url(name: &str) -> String {
    match hash_of(name) {
        Some(h) => format!("/static/{}", hashed_name(name, h)),
        None => format!("/static/{name}"),
    }
}

/// The asset a requested name means, and whether it named the current hash.
fn lookup(requested: &str) -> Option<(&'static Asset, bool)> {
    if let Some(a) = ASSETS.iter().find(|a| a.name == requested) {
        return Some((a, false));
    }
    // stem.HASH.ext
    let (rest, ext) = requested.rsplit_once('.')?;
    let (stem, hash) = rest.rsplit_once('.')?;
    let name = format!("{stem}.{ext}");
    let asset = ASSETS.iter().find(|a| a.name == name)?;
    let current = hash_of(asset.name) == Some(hash);
    let looks_like_hash = hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit());
    looks_like_hash.then_some((asset, current))
}

pub async fn serve(req: HttpRequest, name: web::Path<String>) -> Result<HttpResponse, AppError> {
    let (asset, current) = lookup(&name).ok_or(AppError::NotFound)?;
    let mime = mime_guess::from_path(asset.name).first_or_octet_stream();
    let etag = format!("\"{}\"", hash_of(asset.name).unwrap_or_default());
    let matches = req
        .headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim().trim_start_matches("W/") == etag || t.trim() == "*");
    let mut res = if matches {
        HttpResponse::NotModified().finish()
    } else {
        HttpResponse::Ok()
            .content_type(mime.essence_str())
            .body(asset.bytes)
    };
    let h = res.headers_mut();
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(if current { IMMUTABLE } else { "no-cache" }),
    );
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_carry_the_content_hash() {
        let u = url("style.css");
        let h = hex::encode(&Sha256::digest(ASSETS[0].bytes)[..6]);
        assert_eq!(u, format!("/static/style.{h}.css"));
        assert!(matches!(lookup(&format!("style.{h}.css")), Some((_, true))));
        assert!(matches!(lookup("style.000000000000.css"), Some((_, false))));
        assert!(matches!(lookup("style.css"), Some((_, false))));
        assert!(lookup("style.nothex.css").is_none());
        assert!(lookup("nope.css").is_none());
    }
}
