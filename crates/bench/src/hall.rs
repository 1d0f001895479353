//! `burraco-bench hall`: a hall of tables entering their sheets from
//! phones at the same moment (issue 34), against a running server. Not a
//! test: it prints figures.
//!
//! The tournament is imported by the caller (`burraco-td import` of a
//! `sample-tournament` of N pairs, no rounds) and started here through the
//! server's API (an admin's token): round 1 drawn. The codes are read where the players get them,
//! the printed table cards and movement cards (a director's session). Then
//! the table-side API is called the way a phone does: one wave of every
//! table's NS pair entering its sheet (`submitTableSheet`) at once, then
//! one wave of every EW pair confirming the version it was shown
//! (`confirmTableSheet`) at once. Per wave: count, p50, p99, max (ms, each
//! request from its send to its whole answer) and errors (any status but
//! 200, or no answer). Then a third wave, the floor: the same phones send
//! the same bodies at once to a path no route takes (404 expected), what
//! 300 requests at once cost on this machine before any use case runs.

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde_json::{json, Value};

/// What to measure.
#[derive(Debug, Clone)]
pub struct Options {
    /// The server, e.g. `http://127.0.0.1:18473`.
    pub url: String,
    /// An admin's API token (`burraco-td create-token`).
    pub token: String,
    /// The same admin's username and password (the printed cards are
    /// pages of a signed-in director).
    pub username: String,
    pub password: String,
    /// A tournament imported with its pairs checked in, not started.
    pub tournament: i64,
    pub label: String,
}

/// One wave's answers: milliseconds and statuses.
struct Wave {
    ms: Vec<f64>,
    errors: Vec<String>,
}

impl Wave {
    fn percentile(&self, p: f64) -> f64 {
        let mut v = self.ms.clone();
        if v.is_empty() {
            return f64::NAN;
        }
        v.sort_by(f64::total_cmp);
        let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
        v[rank.clamp(1, v.len()) - 1]
    }
}

/// Every value of `attr="…"` in a page, in order.
fn attr_values(html: &str, attr: &str) -> Vec<String> {
    let marker = format!(" {attr}=\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&marker) {
        rest = &rest[i + marker.len()..];
        let end = rest.find('"').unwrap_or(0);
        out.push(rest[..end].to_string());
    }
    out
}

/// The `csrf_token` hidden field of a form page.
fn csrf(html: &str) -> anyhow::Result<String> {
    let marker = "name=\"csrf_token\" value=\"";
    let i = html.find(marker).context("no csrf_token on the page")? + marker.len();
    let end = html[i..].find('"').context("csrf_token")?;
    Ok(html[i..i + end].to_string())
}

/// A sheet of `hands` hands that the rules take (NS closes every hand).
fn sheet(hands: u64, mark: i64) -> Value {
    let hand = json!({
        "end": "closure",
        "ns": {"clean": 1, "melded_points": mark, "closed": true, "took_pozzetto": true},
        "ew": {"melded_points": 90, "hand_points": 20, "took_pozzetto": true},
    });
    json!({ "hands": vec![hand; hands as usize] })
}

async fn api(
    c: &reqwest::Client,
    o: &Options,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> anyhow::Result<Value> {
    let mut req = c
        .request(method.clone(), format!("{}{path}", o.url))
        .bearer_auth(&o.token);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let res = req
        .send()
        .await
        .with_context(|| format!("{method} {path}"))?;
    let status = res.status();
    let text = res.text().await?;
    if !status.is_success() {
        bail!("{method} {path}: {status}: {text}");
    }
    Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Starts the tournament imported by the caller (its pairs checked in):
/// round 1 is drawn, through the API.
async fn start(c: &reqwest::Client, o: &Options, tid: i64) -> anyhow::Result<()> {
    api(
        c,
        o,
        reqwest::Method::POST,
        &format!("/api/v1/tournaments/{tid}/start"),
        Some(json!({})),
    )
    .await?;
    Ok(())
}

/// A signed-in session (the director's printed pages).
async fn session(o: &Options) -> anyhow::Result<reqwest::Client> {
    let s = reqwest::Client::builder().cookie_store(true).build()?;
    let page = s
        .get(format!("{}/login", o.url))
        .send()
        .await?
        .text()
        .await?;
    let token = csrf(&page)?;
    let res = s
        .post(format!("{}/login", o.url))
        .form(&[
            ("csrf_token", token.as_str()),
            ("username", o.username.as_str()),
            ("password", o.password.as_str()),
        ])
        .send()
        .await?;
    if !res.status().is_success() {
        bail!("login: {}", res.status());
    }
    Ok(s)
}

/// One table as the phones see it: its code and its two pairs' codes.
#[derive(Debug, Clone)]
struct Table {
    code: String,
    ns: String,
    ew: String,
}

async fn tables(o: &Options, tid: i64) -> anyhow::Result<Vec<Table>> {
    let s = session(o).await?;
    let get = |path: String| {
        let s = s.clone();
        let url = format!("{}{path}", o.url);
        async move {
            let res = s.get(&url).send().await?;
            if !res.status().is_success() {
                bail!("{url}: {}", res.status());
            }
            Ok::<_, anyhow::Error>(res.text().await?)
        }
    };
    let cards = get(format!("/director/t/{tid}/rounds/1/cards")).await?;
    let table_nos = attr_values(&cards, "data-table");
    let table_codes = attr_values(&cards, "data-table-code");
    let movement = get(format!("/director/t/{tid}/movement-cards")).await?;
    let pair_nos = attr_values(&movement, "data-pair");
    let pair_codes = attr_values(&movement, "data-pair-code");
    if table_nos.len() != table_codes.len() || pair_nos.len() != pair_codes.len() {
        bail!("cards without codes");
    }
    let code_of = |n: i64| -> anyhow::Result<String> {
        let i = pair_nos
            .iter()
            .position(|p| p.parse::<i64>().ok() == Some(n))
            .with_context(|| format!("pair {n} on the movement cards"))?;
        Ok(pair_codes[i].clone())
    };
    let round = api(
        &s,
        o,
        reqwest::Method::GET,
        &format!("/api/v1/tournaments/{tid}/rounds/1"),
        None,
    )
    .await?;
    let mut out = Vec::new();
    for t in round["tables"].as_array().context("round 1's tables")? {
        let (Some(no), Some(ns), Some(ew)) = (
            t["table"].as_i64(),
            t["ns_pair"].as_i64(),
            t["ew_pair"].as_i64(),
        ) else {
            continue;
        };
        let i = table_nos
            .iter()
            .position(|n| n.parse::<i64>().ok() == Some(no))
            .with_context(|| format!("table {no} on the table cards"))?;
        out.push(Table {
            code: table_codes[i].clone(),
            ns: code_of(ns)?,
            ew: code_of(ew)?,
        });
    }
    Ok(out)
}

/// Sends every request of a wave at once; each answer timed from its send.
/// An answer counts as an error unless its status is `ok_status`.
async fn wave(
    c: &reqwest::Client,
    requests: Vec<(String, Value)>,
    ok_status: u16,
) -> (Wave, Vec<Option<Value>>) {
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(requests.len()));
    let mut tasks = Vec::new();
    for (url, body) in requests {
        let (c, start) = (c.clone(), start.clone());
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            let t0 = Instant::now();
            let res = c.post(&url).json(&body).send().await;
            let out = match res {
                Ok(r) => {
                    let status = r.status().as_u16();
                    let v: Value = r.json().await.unwrap_or(Value::Null);
                    (status, v)
                }
                Err(e) => (0, Value::String(e.to_string())),
            };
            (t0.elapsed(), out)
        }));
    }
    let mut w = Wave {
        ms: Vec::new(),
        errors: Vec::new(),
    };
    let mut answers = Vec::new();
    for t in tasks {
        match t.await {
            Ok((d, (status, v))) => {
                w.ms.push(d.as_secs_f64() * 1e3);
                if status == ok_status {
                    answers.push(Some(v));
                } else {
                    w.errors.push(format!("{status} {v}"));
                    answers.push(None);
                }
            }
            Err(e) => {
                w.errors.push(e.to_string());
                answers.push(None);
            }
        }
    }
    (w, answers)
}

pub async fn run(o: &Options) -> anyhow::Result<()> {
    let admin = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()?;
    let tid = o.tournament;
    start(&admin, o, tid).await?;
    let tables = tables(o, tid).await?;
    eprintln!("tournament {tid}: {} tables in round 1", tables.len());
    let first: Value = admin
        .get(format!("{}/api/v1/score/{}", o.url, tables[0].code))
        .send()
        .await?
        .json()
        .await?;
    let hands = first["hands_per_round"]
        .as_u64()
        .context("hands_per_round")?;

    // The phones: one client each (its own connection), opened beforehand
    // as a phone that has the table's page shown.
    let phone = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .pool_max_idle_per_host(tables.len())
        .build()?;
    let url = |code: &str, what: &str| format!("{}/api/v1/score/{code}/{what}", o.url);
    let entries: Vec<(String, Value)> = tables
        .iter()
        .enumerate()
        .map(|(k, t)| {
            (
                url(&t.code, "sheet"),
                json!({"pair_code": t.ns, "round": 1, "sheet": sheet(hands, 100 + 10 * (k as i64 % 20))}),
            )
        })
        .collect();
    let (entered, answers) = wave(&phone, entries, 200).await;
    let confirmations: Vec<(String, Value)> = tables
        .iter()
        .zip(&answers)
        .map(|(t, a)| {
            let version = a
                .as_ref()
                .and_then(|a| a["entry_version"].as_i64())
                .unwrap_or(1);
            (
                url(&t.code, "confirm"),
                json!({"pair_code": t.ew, "agree": true, "entry_version": version}),
            )
        })
        .collect();
    let (confirmed, _) = wave(&phone, confirmations, 200).await;
    // The floor: the same phones send the same bodies at the same moment
    // to a path no route takes (404 from the API, through every layer of
    // the server but no handler and no database): what the client, the
    // HTTP and the machine cost before a use case does anything.
    let nothing: Vec<(String, Value)> = tables
        .iter()
        .map(|t| {
            (
                format!("{}/api/v1/no-such-path", o.url),
                json!({"pair_code": t.ew, "agree": true, "entry_version": 1}),
            )
        })
        .collect();
    let (floor, _) = wave(&phone, nothing, 404).await;

    // Every confirmed sheet counts.
    let round = api(
        &admin,
        o,
        reqwest::Method::GET,
        &format!("/api/v1/tournaments/{tid}/rounds/1"),
        None,
    )
    .await?;
    let scored = round["tables"]
        .as_array()
        .map(|ts| ts.iter().filter(|t| t["scored"] == json!(true)).count())
        .unwrap_or(0);

    println!(
        "{:<10} {:<13} {:>6} {:>9} {:>9} {:>9} {:>7}",
        "database", "wave", "count", "p50_ms", "p99_ms", "max_ms", "errors"
    );
    for (name, w) in [
        ("entries", &entered),
        ("confirms", &confirmed),
        ("floor (404)", &floor),
    ] {
        println!(
            "{:<10} {:<13} {:>6} {:>9.1} {:>9.1} {:>9.1} {:>7}",
            o.label,
            name,
            w.ms.len(),
            w.percentile(50.0),
            w.percentile(99.0),
            w.percentile(100.0),
            w.errors.len()
        );
    }
    println!(
        "tables scored after the confirmations: {scored} of {}",
        tables.len()
    );
    for (name, w) in [("entries", &entered), ("confirms", &confirmed)] {
        for e in w.errors.iter().take(5) {
            println!(
                "  {name} error: {}",
                e.chars().take(300).collect::<String>()
            );
        }
    }
    Ok(())
}
