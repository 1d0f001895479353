//! The entries file as the import page sends it: a real file upload
//! (`multipart/form-data`, the raw bytes: a spreadsheet, `.xlsx`/`.ods`,
//! becomes CSV text through the core, and a Windows-1252 file is
//! decoded by the core and not mangled by a browser) or the pasted text
//! (`application/x-www-form-urlencoded`, also the preview's confirm form).
//! Bounded: at most [`MAX_FILE_BYTES`] of CSV, and the body is read only up
//! to that (plus the form's few small fields).

use actix_multipart::Multipart;
use actix_web::dev::Payload;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest};
use futures_util::future::LocalBoxFuture;
use futures_util::StreamExt;

use crate::i18n::Lang;
use crate::tournament::csv_import::MAX_FILE_BYTES;
use crate::tournament::spreadsheet::decode_upload;
use crate::tournament::FieldProblem;

/// Room for the small fields besides the file (confirm, CSRF token, part
/// headers).
const FORM_OVERHEAD: usize = 64 * 1024;
/// Pasted text is percent-encoded: up to three bytes per byte of text.
const URLENCODED_FACTOR: usize = 3;

/// What the import form sent.
pub struct ImportUpload {
    /// The CSV text: the uploaded file decoded (UTF-8 or Windows-1252),
    /// else the pasted text; a problem for the `file` field otherwise.
    pub text: Result<String, FieldProblem>,
    /// The preview's "import these pairs" (`confirm=yes`).
    pub confirm: bool,
}

/// An import page shown again: the preview (if the text could be read),
/// the problem to show, the status.
pub struct ShownAgain<P> {
    pub preview: Option<P>,
    pub error: Option<String>,
    pub status: StatusCode,
}

impl ImportUpload {
    /// The text sent (empty when the file could not be read) and what to
    /// save: `read`'s preview of it when `clean` and confirmed, else the
    /// page again (422 for a file that cannot be read or a preview with
    /// problems, 200 for a clean one not yet confirmed).
    pub fn preview<P>(
        self,
        lang: Lang,
        read: impl FnOnce(&str) -> Result<P, FieldProblem>,
        clean: fn(&P) -> bool,
    ) -> (String, Result<P, ShownAgain<P>>) {
        let (text, read) = match self.text {
            Ok(text) => {
                let read = read(&text);
                (text, read)
            }
            Err(problem) => (String::new(), Err(problem)),
        };
        let step = match read {
            Err(problem) => Err(ShownAgain {
                preview: None,
                error: Some(problem.message(lang)),
                status: StatusCode::UNPROCESSABLE_ENTITY,
            }),
            Ok(p) if self.confirm && clean(&p) => Ok(p),
            Ok(p) => Err(ShownAgain {
                status: if clean(&p) {
                    StatusCode::OK
                } else {
                    StatusCode::UNPROCESSABLE_ENTITY
                },
                preview: Some(p),
                error: None,
            }),
        };
        (text, step)
    }
}

fn too_big() -> FieldProblem {
    FieldProblem::new("file", "import.error.too_big").with("max", MAX_FILE_BYTES / (1024 * 1024))
}

impl FromRequest for ImportUpload {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<ImportUpload, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let content_type = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        if content_type.starts_with("multipart/form-data") {
            let multipart = Multipart::new(req.headers(), payload.take());
            Box::pin(read_multipart(multipart))
        } else {
            let mut stream = payload.take();
            Box::pin(async move {
                let mut body: Vec<u8> = Vec::new();
                while let Some(chunk) = stream.next().await {
                    let chunk = chunk?;
                    if body.len().saturating_add(chunk.len())
                        > MAX_FILE_BYTES * URLENCODED_FACTOR + FORM_OVERHEAD
                    {
                        // Stop reading: the rest of the body is never buffered.
                        return Ok(ImportUpload {
                            text: Err(too_big()),
                            confirm: false,
                        });
                    }
                    body.extend_from_slice(&chunk);
                }
                let fields: Vec<(String, String)> =
                    serde_urlencoded::from_bytes(&body).unwrap_or_default();
                let get = |name: &str| {
                    fields
                        .iter()
                        .find(|(k, _)| k == name)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default()
                };
                let csv = get("csv");
                let text = if csv.len() > MAX_FILE_BYTES {
                    Err(too_big())
                } else {
                    Ok(csv)
                };
                Ok(ImportUpload {
                    text,
                    confirm: get("confirm") == "yes",
                })
            })
        }
    }
}

/// Reads the parts: `file` (bytes), `csv` (pasted text), `confirm`.
async fn read_multipart(mut multipart: Multipart) -> Result<ImportUpload, actix_web::Error> {
    let mut file: Vec<u8> = Vec::new();
    let mut pasted: Vec<u8> = Vec::new();
    let mut confirm: Vec<u8> = Vec::new();
    let mut total = 0usize;
    while let Some(field) = multipart.next().await {
        let mut field = field?;
        let name = field.name().unwrap_or_default().to_string();
        while let Some(chunk) = field.next().await {
            let chunk = chunk?;
            total = total.saturating_add(chunk.len());
            if total > MAX_FILE_BYTES + FORM_OVERHEAD {
                // Stop reading: the rest of the body is never buffered.
                return Ok(ImportUpload {
                    text: Err(too_big()),
                    confirm: false,
                });
            }
            let target = match name.as_str() {
                "file" => &mut file,
                "csv" => &mut pasted,
                "confirm" => &mut confirm,
                _ => continue,
            };
            target.extend_from_slice(&chunk);
        }
    }
    let text = if !file.is_empty() {
        // Unpacking a spreadsheet is CPU work: off the server's threads.
        actix_web::web::block(move || decode_upload(&file))
            .await
            .unwrap_or_else(|_| Err(FieldProblem::new("file", "import.error.spreadsheet")))
    } else if pasted.len() > MAX_FILE_BYTES {
        Err(too_big())
    } else {
        // A browser sends form text as UTF-8.
        String::from_utf8(pasted).map_err(|_| FieldProblem::new("file", "import.error.encoding"))
    };
    Ok(ImportUpload {
        text,
        confirm: confirm == b"yes",
    })
}
