//! The shape of the tree, checked (issue 23; ARCHITECTURE.md):
//! - no two files of `src/`, nor of the core's `crates/core/src/`, import
//!   each other, directly or around a circle;
//! - `web` holds the `Db` handle and nothing else of `db`;
//! - the command line does not reach into `web`;
//! - no file in `src/` over 600 lines (tests aside);
//! - the data layer and the services read the time only through the
//!   server's `Clock` (`src/db/clock.rs`), which tests can move.
//!
//! A file's references are the paths it names, in code and in attributes
//! alike (`#[utoipa::path(.., body = crate::web::api::ErrorBody)]`,
//! `#[openapi(paths(..), components(schemas(..)))]`): `crate::a::b`,
//! `super::…`, names brought in by its `use` lines (`use crate::services;`
//! makes `services::rounds::draw` a reference to `services/rounds.rs`) and
//! the names of its own child modules (`mod openapi;` makes
//! `openapi::serve` a reference to `openapi.rs`). Each path goes to the
//! file of its longest module prefix. A crate's root and the layers' roots
//! (`FACADES`) declare and route their children: their links down do not
//! count (issue 33, item 3: the router apart from the toolbox).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 600;

/// What the tree still does against these rules, while issue 23's work
/// goes on: each entry goes when it is fixed (the tests fail on anything
/// new, and on an entry that no longer happens).
///
/// Issue 33, item 3 (the router apart from the toolbox): `services::teams`
/// both declares its children and holds what they share (its children and
/// it name each other). The web's were broken: `web::api` routes
/// (`operations`, the document) apart from its toolbox (`reply`, `body`,
/// which reads the document's bounds from the app's data), `web::cache`'s
/// team key in a leaf (`team_page`). The core's `rules` and `movement`
/// roots are routers and toolboxes alike too.
const KNOWN_CIRCLES: &[&[&str]] = &[
    &[
        "services::teams",
        "services::teams::doc",
        "services::teams::entries",
        "services::teams::file",
        "services::teams::lineups",
        "services::teams::rounds",
    ],
    &[
        "burraco_core::rules",
        "burraco_core::rules::api",
        "burraco_core::rules::seat_draw",
    ],
];
/// Modules whose links to their own children do not count (a crate's root,
/// `web`, `db`, `services`).
const FACADES: &[&str] = &["", "web", "db", "services"];
const KNOWN_LONG: &[&str] = &[];
/// Web modules that still name `db` items besides `Db`.
const KNOWN_WEB_DB: &[&str] = &[];

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file (`src/web/director/pairs.rs` → `web::director::pairs`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_string();
    }
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts.join("::")
}

/// The text without comments, strings and `#[cfg(test)]` modules at the end
/// of a file (tests may reach anywhere).
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            if c == '\\' {
                chars.next();
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        if c == '/' && chars.peek() == Some(&'/') {
            for d in chars.by_ref() {
                if d == '\n' {
                    out.push('\n');
                    break;
                }
            }
            continue;
        }
        if c == '"' {
            in_str = true;
            continue;
        }
        out.push(c);
    }
    out
}

/// The module paths a file names (absolute, without `crate::`).
fn references(module: &str, code: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let parent = |m: &str| {
        m.rsplit_once("::")
            .map_or(String::new(), |(p, _)| p.to_string())
    };
    let join = |a: &str, b: &str| {
        if a.is_empty() {
            b.to_string()
        } else if b.is_empty() {
            a.to_string()
        } else {
            format!("{a}::{b}")
        }
    };
    // Aliases from `use` lines: the last segment of each path imported.
    let mut aliases: BTreeMap<String, String> = BTreeMap::new();
    let mut out = BTreeSet::new();
    // Every path-like token: segments joined by `::`.
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    let mut paths: Vec<String> = Vec::new();
    while i < bytes.len() {
        if ident(bytes[i]) && (i == 0 || !ident(bytes[i - 1])) {
            let start = i;
            while i < bytes.len()
                && (ident(bytes[i]) || (bytes[i] == ':' && bytes.get(i + 1) == Some(&':')))
            {
                if bytes[i] == ':' {
                    i += 2;
                } else {
                    i += 1;
                }
            }
            let p: String = bytes[start..i].iter().collect();
            if p.contains("::") {
                paths.push(p.trim_end_matches("::").to_string());
            }
        } else {
            i += 1;
        }
    }
    let absolute = |p: &str, aliases: &BTreeMap<String, String>| -> Option<String> {
        let mut segs: Vec<&str> = p.split("::").collect();
        let mut base = match segs.first().copied() {
            Some("crate") => {
                segs.remove(0);
                String::new()
            }
            Some("self") => {
                segs.remove(0);
                module.to_string()
            }
            Some("super") => {
                let mut b = parent(module);
                segs.remove(0);
                while segs.first() == Some(&"super") {
                    b = parent(&b);
                    segs.remove(0);
                }
                b
            }
            Some(first) => match aliases.get(first) {
                Some(full) => {
                    segs.remove(0);
                    full.clone()
                }
                None => return None,
            },
            None => return None,
        };
        for s in segs {
            base = join(&base, s);
        }
        Some(base)
    };
    // The file's own child modules are names in it, as `use` makes them.
    if !FACADES.contains(&module) {
        for item in code.split([';', '{', '}']) {
            let words: Vec<&str> = item.split_whitespace().collect();
            if let [.., m, name] = words.as_slice() {
                if *m == "mod" && name.chars().all(ident) {
                    aliases.insert(name.to_string(), join(module, name));
                }
            }
        }
    }
    // `use` lines first (they define the aliases), as the compiler reads them.
    for line in code.split(';') {
        let line = line.trim();
        let Some(rest) = line
            .strip_prefix("use ")
            .or_else(|| line.strip_prefix("pub use "))
            .or_else(|| line.strip_prefix("pub(crate) use "))
            .or_else(|| line.strip_prefix("pub(super) use "))
        else {
            continue;
        };
        let rest: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
        for (path, last) in expand_use(&rest) {
            if let Some(abs) = absolute(&path, &aliases) {
                if last != "*" {
                    aliases.insert(last, abs);
                }
            }
        }
    }
    for p in paths {
        if let Some(abs) = absolute(&p, &aliases) {
            // The longest known module prefix.
            let mut cand = abs.as_str();
            loop {
                if known.contains(cand) {
                    out.insert(cand.to_string());
                    break;
                }
                match cand.rsplit_once("::") {
                    Some((head, _)) => cand = head,
                    None => break,
                }
            }
        }
    }
    out.remove(module);
    out
}

/// `a::b::{self, c::{d, e as f}}` → (path, the name it binds).
fn expand_use(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    fn walk(prefix: &str, text: &str, out: &mut Vec<(String, String)>) {
        if let Some(open) = text.find('{') {
            let head = text[..open].trim_end_matches("::");
            let base = if prefix.is_empty() {
                head.to_string()
            } else if head.is_empty() {
                prefix.to_string()
            } else {
                format!("{prefix}::{head}")
            };
            let inner = &text[open + 1..text.rfind('}').unwrap_or(text.len())];
            let mut depth = 0;
            let mut start = 0;
            let chars: Vec<char> = inner.chars().collect();
            for (i, c) in chars.iter().enumerate() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let part: String = chars[start..i].iter().collect();
                        walk(&base, &part, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            let part: String = chars[start..].iter().collect();
            if !part.is_empty() {
                walk(&base, &part, out);
            }
        } else {
            let (path, alias) = match text.split_once("as") {
                Some((p, a))
                    if text.contains("as")
                        && !p.is_empty()
                        && p.ends_with(|c: char| c.is_alphanumeric() || c == '_')
                        && a.chars().all(|c| c.is_alphanumeric() || c == '_') =>
                {
                    (p, Some(a))
                }
                _ => (text, None),
            };
            let full = if path == "self" {
                prefix.to_string()
            } else if prefix.is_empty() {
                path.to_string()
            } else {
                format!("{prefix}::{path}")
            };
            let last = alias
                .map(str::to_string)
                .unwrap_or_else(|| full.rsplit("::").next().unwrap_or("").to_string());
            out.push((full, last));
        }
    }
    walk("", text, &mut out);
    out
}

struct Tree {
    /// module → file
    files: BTreeMap<String, PathBuf>,
    /// module → modules it references
    refs: BTreeMap<String, BTreeSet<String>>,
}

fn tree() -> Tree {
    tree_of("src")
}

/// The tree of the crate whose sources are in `dir` (from the workspace's root).
fn tree_of(dir: &str) -> Tree {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut all = Vec::new();
    files(&root, &mut all);
    let mut modules: BTreeMap<String, PathBuf> = BTreeMap::new();
    for f in &all {
        modules.insert(module_of(&root, f), f.clone());
    }
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    let mut refs = BTreeMap::new();
    for (m, f) in &modules {
        if m.ends_with("tests") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap_or_default();
        refs.insert(m.clone(), references(m, &code_of(&text), &known));
    }
    Tree {
        files: modules,
        refs,
    }
}

#[test]
fn no_two_files_import_each_other() {
    let mut cycles = circles(&tree());
    for c in circles(&tree_of("crates/core/src")) {
        cycles.push(c.iter().map(|m| format!("burraco_core::{m}")).collect());
    }
    let known: Vec<Vec<String>> = KNOWN_CIRCLES
        .iter()
        .map(|c| c.iter().map(|s| s.to_string()).collect())
        .collect();
    let new: Vec<&Vec<String>> = cycles.iter().filter(|c| !known.contains(c)).collect();
    let gone: Vec<&Vec<String>> = known.iter().filter(|k| !cycles.contains(k)).collect();
    assert!(new.is_empty(), "files that import each other: {new:#?}");
    assert!(
        gone.is_empty(),
        "fixed: take these out of KNOWN_CIRCLES: {gone:#?}"
    );
}

/// The circles of a tree: each a sorted list of modules.
fn circles(t: &Tree) -> Vec<Vec<String>> {
    // Strongly connected components (Tarjan, iterative enough for a tree).
    let nodes: Vec<&String> = t.refs.keys().collect();
    let index_of: BTreeMap<&String, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let n = nodes.len();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|m| {
            t.refs[*m]
                .iter()
                .filter_map(|r| index_of.get(r).copied())
                .collect()
        })
        .collect();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut cycles: Vec<Vec<String>> = Vec::new();
    #[allow(clippy::too_many_arguments)]
    fn strong(
        v: usize,
        adj: &[Vec<usize>],
        index: &mut [usize],
        low: &mut [usize],
        on: &mut [bool],
        stack: &mut Vec<usize>,
        next: &mut usize,
        cycles: &mut Vec<Vec<usize>>,
    ) {
        index[v] = *next;
        low[v] = *next;
        *next += 1;
        stack.push(v);
        on[v] = true;
        for &w in &adj[v] {
            if index[w] == usize::MAX {
                strong(w, adj, index, low, on, stack, next, cycles);
                low[v] = low[v].min(low[w]);
            } else if on[w] {
                low[v] = low[v].min(index[w]);
            }
        }
        if low[v] == index[v] {
            let mut comp = Vec::new();
            while let Some(w) = stack.pop() {
                on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                cycles.push(comp);
            }
        }
    }
    let mut raw = Vec::new();
    for v in 0..n {
        if index[v] == usize::MAX {
            strong(
                v, &adj, &mut index, &mut low, &mut on, &mut stack, &mut next, &mut raw,
            );
        }
    }
    for c in raw {
        let mut names: Vec<String> = c.iter().map(|i| nodes[*i].clone()).collect();
        names.sort();
        cycles.push(names);
    }
    cycles
}

#[test]
fn web_holds_only_the_db_handle_and_the_cli_stays_out_of_web() {
    let t = tree();
    let mut wrong = Vec::new();
    for (m, refs) in &t.refs {
        for r in refs {
            if m.starts_with("web") && r.starts_with("db") && r != "db" {
                wrong.push(format!("{m} → {r}"));
            }
            if m == "cli" && r.starts_with("web") {
                wrong.push(format!("{m} → {r}"));
            }
        }
        if m.starts_with("web") {
            let text = std::fs::read_to_string(&t.files[m]).unwrap_or_default();
            let code = code_of(&text);
            for (i, _) in code.match_indices("db::") {
                let rest: String = code[i + 4..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let before = &code[..i];
                let qualified = before.ends_with("crate::") || before.ends_with("super::");
                if qualified && rest != "Db" {
                    wrong.push(format!("{m}: db::{rest}"));
                }
            }
        }
    }
    let modules: BTreeSet<&str> = wrong
        .iter()
        .map(|w| {
            let end = w.find(" → ").or_else(|| w.find(": ")).unwrap_or(w.len());
            &w[..end]
        })
        .collect();
    let new: Vec<&String> = wrong
        .iter()
        .filter(|w| {
            !KNOWN_WEB_DB
                .iter()
                .any(|k| w.starts_with(&format!("{k} ")) || w.starts_with(&format!("{k}:")))
        })
        .collect();
    let gone: Vec<&&str> = KNOWN_WEB_DB
        .iter()
        .filter(|k| !modules.contains(**k))
        .collect();
    assert!(new.is_empty(), "layers crossed: {new:#?}");
    assert!(
        gone.is_empty(),
        "fixed: take these out of KNOWN_WEB_DB: {gone:#?}"
    );
}

#[test]
fn services_hold_no_sql() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/services");
    let mut paths = Vec::new();
    files(&root, &mut paths);
    let mut wrong = Vec::new();
    for f in &paths {
        let text = std::fs::read_to_string(f).unwrap();
        let code = code_of(&text);
        for sql in [
            "schema::",
            "diesel::insert_into",
            "diesel::update",
            "diesel::delete",
            "diesel::sql_query",
            "batch_execute",
            "::table.",
            "::table)",
        ] {
            if code.contains(sql) {
                wrong.push(format!("{}: {sql}", f.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "SQL belongs in db: {wrong:#?}");
}

#[test]
fn no_file_in_src_is_over_600_lines() {
    let t = tree();
    let mut long = Vec::new();
    for f in t.files.values() {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let code = match text.find("#[cfg(test)]\nmod tests") {
            Some(i) => &text[..i],
            None => &text,
        };
        let n = code.lines().count();
        let name = f.to_string_lossy().to_string();
        let rel = name
            .split("/src/")
            .last()
            .map(|r| format!("src/{r}"))
            .unwrap_or(name.clone());
        if n > MAX_LINES && !name.ends_with("_tests.rs") {
            long.push(rel);
        } else if KNOWN_LONG.contains(&rel.as_str()) {
            long.push(format!("{rel} is short now: take it out of KNOWN_LONG"));
        }
    }
    long.retain(|l| !KNOWN_LONG.contains(&l.as_str()));
    assert!(long.is_empty(), "files over {MAX_LINES} lines: {long:#?}");
}

#[test]
fn the_checker_sees_a_circle_and_a_use_alias() {
    let known: BTreeSet<String> = [
        "services",
        "services::rounds",
        "services::scoring",
        "db",
        "db::users",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let refs = references(
        "services::rounds",
        "use crate::services::{self, scoring};\nfn f() { services::scoring::x(); scoring::y(); crate::db::Db::new(); }",
        &known,
    );
    assert_eq!(
        refs.into_iter().collect::<Vec<_>>(),
        ["db", "services", "services::scoring"]
    );
    let refs = references("db::users", "use super::*;", &known);
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), ["db"]);
}

#[test]
fn the_checker_reads_attributes_and_child_modules() {
    let known: BTreeSet<String> = ["web", "web::api", "web::api::openapi", "web::public"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let code = code_of(
        "#[utoipa::path(get, path = \"/x\", responses((status = 404, body = crate::web::api::ErrorBody)))]\nfn f() {}",
    );
    let refs = references("web::public", &code, &known);
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), ["web::api"]);
    let code = "#[derive(OpenApi)]\n#[openapi(paths(crate::web::public::f), components(schemas(super::ErrorBody)))]\nstruct ApiDoc;";
    let refs = references("web::api::openapi", code, &known);
    assert_eq!(
        refs.into_iter().collect::<Vec<_>>(),
        ["web::api", "web::public"]
    );
    // A module's own children are links (`openapi::serve`), a facade's are not.
    let code = "pub mod openapi;\nfn r() { openapi::serve(); }";
    let refs = references("web::api", code, &known);
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), ["web::api::openapi"]);
    let code = "pub mod api;\nfn r() { api::routes(); }";
    assert!(references("web", code, &known).is_empty());
}

#[test]
fn the_readme_layout_names_only_paths_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme.find("## Layout\n").expect("a Layout section");
    let rest = &readme[start + 10..];
    let layout = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    let bases = [
        "",
        "crates/core/src/",
        "src/web/",
        "src/web/player/",
        "src/services/",
        "templates/",
    ];
    let mut missing = Vec::new();
    for (i, quoted) in layout.split('`').enumerate() {
        let path_like = quoted.contains('/') && !quoted.contains(['*', '{', ' ', '@']);
        if i % 2 == 0 || !path_like || quoted.starts_with('/') {
            continue;
        }
        if !bases
            .iter()
            .any(|b| root.join(format!("{b}{quoted}")).exists())
        {
            missing.push(quoted.to_string());
        }
    }
    assert!(missing.is_empty(), "README Layout names: {missing:#?}");
}

#[test]
fn db_and_services_read_the_time_only_through_the_clock() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    files(&root.join("db"), &mut paths);
    files(&root.join("services"), &mut paths);
    let mut wrong = Vec::new();
    for f in &paths {
        if f.ends_with("db/clock.rs") || f.to_string_lossy().ends_with("_tests.rs") {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        for read in ["Utc::now(", "Local::now(", "SystemTime::now(", "db::now("] {
            if code.contains(read) {
                wrong.push(format!("{}: {read}", f.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the time comes from the Db's clock (db.now(), db.clock()): {wrong:#?}"
    );
}
