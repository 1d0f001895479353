//! Static files, embedded in the binary (no CDN). URLs carry a content hash
//! (`/static/style.css?v=…`) so browsers may cache them for a long time.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{web, HttpResponse};
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
        name: "favicon.svg",
        bytes: include_bytes!("../../static/favicon.svg"),
    },
];

fn find(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

/// `/static/NAME?v=HASH` for templates.
pub fn url(name: &str) -> String {
    static HASHES: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    let hashes = HASHES.get_or_init(|| {
        ASSETS
            .iter()
            .map(|a| (a.name, hex::encode(&Sha256::digest(a.bytes)[..6])))
            .collect()
    });
    match hashes.iter().find(|(n, _)| *n == name) {
        Some((_, h)) => format!("/static/{name}?v={h}"),
        None => format!("/static/{name}"),
    }
}

pub async fn serve(name: web::Path<String>) -> Result<HttpResponse, AppError> {
    let asset = find(&name).ok_or(AppError::NotFound)?;
    let mime = mime_guess::from_path(asset.name).first_or_octet_stream();
    Ok(HttpResponse::Ok()
        .content_type(mime.essence_str())
        .insert_header((header::CACHE_CONTROL, "public, max-age=31536000, immutable"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(asset.bytes))
}
