//! Nothing silently lost, CSV as Italian clubs have it: the pairs import
//! from real files (Windows-1252, UTF-8 with a BOM, `;`, Italian headers),
//! control characters refused on both databases, formula neutralisation in
//! the CSV exports, bounded money settings.

use crate::helpers::{csrf_in, location, spawn_app_with, Browser, TestApp, TestDb};
use crate::tournaments::{new_through_the_form, with_director};

/// Windows-1252 bytes of a text (the accented letters Italian names use).
fn cp1252(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            'à' => 0xE0,
            'è' => 0xE8,
            'é' => 0xE9,
            'ì' => 0xEC,
            'ò' => 0xF2,
            'ù' => 0xF9,
            c if c.is_ascii() => c as u8,
            c => panic!("no Windows-1252 byte for {c}"),
        })
        .collect()
}

/// Uploads a file to the import page as a browser does (multipart, the CSRF
/// token in the action's query string).
async fn upload(b: &Browser, t: &str, bytes: Vec<u8>, confirm: bool) -> reqwest::Response {
    upload_file(
        b,
        &format!("{t}/import"),
        ("coppie.csv", "text/csv"),
        bytes,
        confirm,
    )
    .await
}

/// Uploads a file of a given name and type to an import page.
async fn upload_file(
    b: &Browser,
    page: &str,
    (file_name, mime): (&str, &str),
    bytes: Vec<u8>,
    confirm: bool,
) -> reqwest::Response {
    let token = csrf_in(&b.get_html(page).await);
    let part = reqwest::multipart::Part::bytes(bytes)
        .file_name(file_name.to_string())
        .mime_str(mime)
        .unwrap();
    let mut form = reqwest::multipart::Form::new()
        .part("file", part)
        .text("csv", "");
    if confirm {
        form = form.text("confirm", "yes");
    }
    b.client
        .post(b.url(&format!("{page}?csrf_token={token}")))
        .multipart(form)
        .send()
        .await
        .expect("POST")
}

/// The text the preview's confirm form sends back (its hidden textarea).
fn confirm_text(html: &str) -> String {
    let start = html
        .find("<textarea name=\"csv\" hidden>")
        .expect("confirm form")
        + "<textarea name=\"csv\" hidden>".len();
    let end = html[start..].find("</textarea>").unwrap() + start;
    html[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// (surname, name, card, club) of every player stored for a tournament.
fn stored_players(app: &TestApp, t: &str) -> Vec<(String, String, String, String)> {
    let tid: i64 = t.rsplit('/').next().unwrap().parse().unwrap();
    let mut c = app.pool.get().unwrap();
    burraco_td::db::pairs::list_pairs(&mut c, burraco_td::ids::TournamentId(tid))
        .unwrap()
        .iter()
        .flat_map(|p| {
            let e = p.entry();
            e.players
                .iter()
                .map(|pl| {
                    (
                        pl.surname().to_string(),
                        pl.name().to_string(),
                        pl.card().to_string(),
                        pl.club().to_string(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[tokio::test]
async fn a_windows_1252_file_from_excel_imports_with_its_accents() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Import Excel").build().await.path;
    let text = "Cognome giocatore 1;Nome giocatore 1;N. tessera 1;Circolo 1;Cognome giocatore 2;Nome giocatore 2;N. tessera 2;Circolo 2\r\n\
        Rossi;Niccolò;AB1;Società Bocciofila;Bianchi;Luca;;\r\n\
        D'Angelò;Maria;;\"Circolo; Sole\";Esposito;Chiara;;\r\n";
    let bytes = cp1252(text);
    assert!(std::str::from_utf8(&bytes).is_err(), "really Windows-1252");

    let res = upload(&dora, &t, bytes.clone(), false).await;
    assert_eq!(res.status().as_u16(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("Rossi Niccolò"), "{html}");
    assert!(
        html.contains("Società Bocciofila"),
        "the preview shows the club"
    );
    assert!(!html.contains('\u{FFFD}'), "no replacement characters");
    assert!(
        stored_players(&app, &t).is_empty(),
        "a preview saves nothing"
    );

    // The preview's confirm form sends the decoded text back.
    let text_back = confirm_text(&html);
    let import = format!("{t}/import");
    let res = dora
        .submit(&import, &import, &[("csv", &text_back), ("confirm", "yes")])
        .await;
    assert_eq!(res.status().as_u16(), 303);
    let players = stored_players(&app, &t);
    assert!(players.contains(&(
        "Rossi".into(),
        "Niccolò".into(),
        "AB1".into(),
        "Società Bocciofila".into()
    )));
    assert!(players.contains(&(
        "D'Angelò".into(),
        "Maria".into(),
        String::new(),
        "Circolo; Sole".into()
    )));
}

#[tokio::test]
async fn utf8_with_a_bom_commas_and_english_headers_import_directly() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Import UTF-8").build().await.path;
    let text =
        "\u{feff}Surname 1,First name 1,Card 1,Club 1,Surname 2,First name 2,Card 2,Club 2\n\
        Niccolò,Anna,,\"Club \"\"Il Fante\"\"\",Bianchi,Luca,,\n";
    let res = upload(&dora, &t, text.as_bytes().to_vec(), true).await;
    assert_eq!(res.status().as_u16(), 303, "{}", res.text().await.unwrap());
    assert!(location(&res).contains("pairs_imported"));
    let players = stored_players(&app, &t);
    assert_eq!(players[0].0, "Niccolò", "no BOM in the first surname");
    assert_eq!(players[0].3, "Club \"Il Fante\"");
}

#[tokio::test]
async fn a_file_that_is_no_text_is_refused_and_nothing_is_saved() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Import rotto").build().await.path;
    let not_text = "non è né UTF-8 né Windows-1252";
    for (bytes, why) in [
        // UTF-16 (Excel's "Unicode text").
        (b"\xFF\xFEc\0o\0g\0n\0o\0m\0e\x001\0".to_vec(), not_text),
        // A damaged spreadsheet (a zip cut short).
        (
            b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00\xb4\xe7".to_vec(),
            "Il foglio di calcolo non si può leggere",
        ),
        // NUL bytes in a line.
        (
            b"cognome1;nome1;cognome2;nome2\nRos\0si;Maria;Bianchi;Luca\n".to_vec(),
            not_text,
        ),
    ] {
        for confirm in [false, true] {
            let res = upload(&dora, &t, bytes.clone(), confirm).await;
            assert_eq!(res.status().as_u16(), 422);
            let html = res.text().await.unwrap();
            assert!(html.contains(why), "the message says why: {html}");
        }
    }
    assert!(stored_players(&app, &t).is_empty(), "nothing saved");
    // Too large: refused before it is read whole.
    let big = vec![b'a'; 2 * 1024 * 1024 + 1];
    let res = upload(&dora, &t, big, true).await;
    assert_eq!(res.status().as_u16(), 422);
    assert!(res.text().await.unwrap().contains("supera 2 MiB"));
    assert!(stored_players(&app, &t).is_empty());
}

#[tokio::test]
async fn the_import_page_works_without_javascript() {
    let (app, dora) = with_director().await;
    let t = app.tournament("Senza JS").build().await.path;
    let html = dora.get_html(&format!("{t}/import")).await;
    assert!(html.contains("enctype=\"multipart/form-data\""));
    assert!(html.contains("type=\"file\" id=\"csv-file\" name=\"file\""));
    assert!(html.contains("name=\"csv\""), "the paste box stays");
    let js = dora.get_html("/static/app.js").await;
    assert!(
        !js.contains("FileReader"),
        "no reading the file as text in the browser"
    );
}

/// An app with a director on a given database.
async fn director_on(db: TestDb) -> (TestApp, Browser) {
    crate::tournaments::director_with(db, |_| {}).await
}

/// SQLite always; PostgreSQL too when TEST_DATABASE_URL is set.
fn both_databases() -> Vec<TestDb> {
    let mut dbs = vec![TestDb::sqlite()];
    if std::env::var("TEST_DATABASE_URL").is_ok_and(|u| !u.is_empty()) {
        dbs.push(TestDb::new());
    }
    dbs
}

#[tokio::test]
async fn a_nul_byte_in_a_name_is_refused_next_to_the_field_on_both_databases() {
    for db in both_databases() {
        let kind = if db.is_postgres() {
            "PostgreSQL"
        } else {
            "SQLite"
        };
        let (app, dora) = director_on(db).await;
        let t = app.tournament("Torneo").build().await.path;
        let res = dora
            .add_pair(
                &t,
                &crate::helpers::pair_form("Ros\0si", "Maria", "Bianchi", "Luca"),
            )
            .await;
        assert_eq!(res.status().as_u16(), 422, "{kind}");
        let html = res.text().await.unwrap();
        assert!(
            html.contains("carattere di controllo invisibile (U+0000)"),
            "{kind}: {html}"
        );
        let at = html.find("U+0000").unwrap();
        let field = html[..at]
            .rfind("name=\"p1_surname\"")
            .or_else(|| html[..at].rfind("p1_surname"));
        assert!(
            field.is_some(),
            "{kind}: the message is next to the surname field"
        );
        assert!(stored_players(&app, &t).is_empty(), "{kind}: nothing saved");

        // The settings' name and the pasted CSV refuse it too.
        let res = new_through_the_form(&dora, "Torneo\0", &[]).await;
        assert_eq!(res.status().as_u16(), 422, "{kind}");
        assert!(res.text().await.unwrap().contains("U+0000"));
        let import = format!("{t}/import");
        let csv = "cognome1;nome1;cognome2;nome2\nRossi;Ma\0ria;Bianchi;Luca\n";
        let res = dora
            .submit(&import, &import, &[("csv", csv), ("confirm", "yes")])
            .await;
        assert_eq!(res.status().as_u16(), 422, "{kind}");
        let html = res.text().await.unwrap();
        assert!(
            html.contains("nome1: Contiene un carattere di controllo"),
            "{kind}: {html}"
        );
        assert!(stored_players(&app, &t).is_empty(), "{kind}: nothing saved");
        let mut c = app.pool.get().unwrap();
        assert_eq!(
            burraco_td::db::tournaments::list(&mut c).unwrap().len(),
            1,
            "{kind}"
        );
    }
}

#[tokio::test]
async fn a_huge_fee_gets_a_message_not_a_panic() {
    let (app, dora) = with_director().await;
    for (field, value) in [
        ("entry_fee", "79228162514264337593543950335"),
        ("entry_fee", "1000,01"),
        ("guaranteed_pool", "79228162514264337593543950335"),
        ("guaranteed_pool", "1.000.000,01"),
    ] {
        let res = new_through_the_form(&dora, "Torneo ricco", &[(field, value)]).await;
        assert_eq!(res.status().as_u16(), 422, "{field} {value}");
        let html = res.text().await.unwrap();
        assert!(html.contains("Un importo in euro da 0 a"), "{html}");
    }
    let mut c = app.pool.get().unwrap();
    assert!(burraco_td::db::tournaments::list(&mut c)
        .unwrap()
        .is_empty());
    drop(c);
    // The largest amounts are accepted, with Italian decimal commas.
    let most = [("entry_fee", "1.000,00"), ("guaranteed_pool", "1000000,00")];
    let res = new_through_the_form(&dora, "Torneo massimo", &most).await;
    assert_eq!(res.status().as_u16(), 303);
}

/// Names a player may have (nothing forbids them) that a spreadsheet would
/// run as formulas. TAB and CR are refused in names now; the core's tests
/// cover their neutralisation.
const EVIL: [&str; 4] = ["=HYPERLINK(\"http://x\",\"y\")", "+1", "@SUM(A1)", "-2"];

/// An admin-imported finished tournament whose first pairs have such names.
async fn tournament_with_evil_names(app: &TestApp) -> String {
    app.setup_admin().await;
    let mut file = burraco_td::tournament_file::fixtures::sample_tournament(8, 3, 7);
    for (pair, name) in file.pairs.iter_mut().zip(EVIL) {
        pair.players[0].surname = name.to_string();
    }
    let json = burraco_td::tournament_file::to_json(&file).unwrap();
    let res = app.import_file(&json).await;
    assert_eq!(res.status().as_u16(), 303);
    location(&res).split('?').next().unwrap().to_string()
}

/// A download as sent (with its BOM: `text()` would drop it).
async fn raw(b: &Browser, path: &str) -> String {
    let res = b.get(path).await;
    assert_eq!(res.status().as_u16(), 200, "{path}");
    String::from_utf8(res.bytes().await.unwrap().to_vec()).unwrap()
}

fn records(body: &str) -> Vec<Vec<String>> {
    let body = body.strip_prefix('\u{feff}').expect("a BOM first");
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b';')
        .has_headers(false)
        .from_reader(body.as_bytes());
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

#[tokio::test]
async fn both_csv_exports_neutralise_formulas_and_keep_numbers() {
    let app = spawn_app_with(TestDb::new(), |_| {}).await;
    let t = tournament_with_evil_names(&app).await;
    let standings = raw(&app, &format!("{t}/standings.csv")).await;
    let rows = records(&standings);
    assert_eq!(rows[0][4], "PV", "Italian headers");
    let names: Vec<&str> = rows[1..]
        .iter()
        .flat_map(|r| [&r[2], &r[3]])
        .map(String::as_str)
        .collect();
    for evil in EVIL {
        assert!(
            names.iter().any(|n| n.starts_with(&format!("'{evil} "))),
            "{evil:?} neutralised in {names:?}"
        );
    }
    for r in &rows[1..] {
        for cell in r {
            assert!(
                !cell.starts_with(['=', '+', '@', '\t', '\r']),
                "{cell:?} would run as a formula"
            );
        }
        // VP, MP difference (may be negative) and MP stay numbers
        // (thousands grouped as Italians write them).
        for n in [&r[4], &r[5], &r[6]] {
            assert!(n.replace('.', "").parse::<i64>().is_ok(), "{n:?}");
        }
    }
    assert!(
        rows[1..].iter().any(|r| r[5].starts_with('-')),
        "negative numbers stay numbers"
    );

    let sheets = raw(&app, &format!("{t}/sheets.csv")).await;
    let rows = records(&sheets);
    assert_eq!(rows[0][0], "Turno", "Italian headers");
    for r in &rows[1..] {
        assert_eq!(r.len(), rows[0].len());
        for cell in r {
            assert!(!cell.starts_with(['=', '+', '@', '\t', '\r']), "{cell:?}");
        }
        if !r[16].is_empty() {
            assert!(
                r[16].replace('.', "").parse::<i64>().is_ok(),
                "a hand total is a number (grouped as Italians write it): {r:?}"
            );
        }
    }
    assert!(
        rows[1..].iter().any(|r| r[16].starts_with('-')),
        "negative totals stay numbers"
    );
}

/// A club's list saved by Excel: Italian headers, a title row above them,
/// a card typed as a number.
fn club_list_xlsx() -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "Iscritti al torneo").unwrap();
    let rows: [[&str; 7]; 3] = [
        [
            "Cognome 1",
            "Nome 1",
            "Tessera 1",
            "Cognome 2",
            "Nome 2",
            "Tessera 2",
            "Circolo",
        ],
        [
            "Rossi",
            "Niccolò",
            "",
            "Bianchi",
            "Luca",
            "FB2",
            "Società Aurora",
        ],
        [
            "Verdi",
            "Anna",
            "FB3",
            "Neri",
            "Paolo",
            "",
            "Società Aurora",
        ],
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                sheet.write_string(r as u32 + 1, c as u16, *v).unwrap();
            }
        }
    }
    sheet.write_number(2, 2, 100037.0).unwrap();
    book.save_to_buffer().unwrap()
}

#[tokio::test]
async fn an_excel_file_imports_through_the_same_preview_on_both_databases() {
    for db in both_databases() {
        let (app, dora) = director_on(db).await;
        let t = app.tournament("Import xlsx").build().await.path;
        let xlsx = (
            "iscritti.xlsx",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        );
        let page = format!("{t}/import");
        let res = upload_file(&dora, &page, xlsx, club_list_xlsx(), false).await;
        assert_eq!(res.status().as_u16(), 200);
        let html = res.text().await.unwrap();
        assert!(html.contains("Rossi Niccolò"), "{html}");
        assert!(html.contains("(100037)"), "the card as typed, no decimals");
        assert!(
            stored_players(&app, &t).is_empty(),
            "a preview saves nothing"
        );
        // The preview's confirm sends back the sheet as text, without the
        // title row above the header.
        let text_back = confirm_text(&html);
        assert!(!text_back.contains("Iscritti al torneo"), "{text_back}");
        let res = dora
            .submit(&page, &page, &[("csv", &text_back), ("confirm", "yes")])
            .await;
        assert_eq!(res.status().as_u16(), 303);
        let players = stored_players(&app, &t);
        assert_eq!(players.len(), 4);
        assert_eq!(
            players[0],
            (
                "Rossi".into(),
                "Niccolò".into(),
                "100037".into(),
                "Società Aurora".into()
            )
        );
        assert_eq!(players[3].2, "", "no card for Neri");

        // A bad row is named by its row in the sheet, and nothing is saved.
        let t2 = app.tournament("Import xlsx rotto").build().await.path;
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        for (c, h) in ["cognome1", "nome1", "cognome2", "nome2"]
            .iter()
            .enumerate()
        {
            sheet.write_string(0, c as u16, *h).unwrap();
        }
        for (c, v) in ["Rossi", "Maria", "", "Luca"].iter().enumerate() {
            sheet.write_string(4, c as u16, *v).unwrap();
        }
        let res = upload_file(
            &dora,
            &format!("{t2}/import"),
            xlsx,
            book.save_to_buffer().unwrap(),
            true,
        )
        .await;
        assert_eq!(res.status().as_u16(), 422);
        let html = res.text().await.unwrap();
        assert!(html.contains("Riga 5"), "row 5 of the sheet: {html}");
        assert!(stored_players(&app, &t2).is_empty());
    }
}
