//! The routes as the application registered them (actix-web keeps no
//! list a test could ask for).

/// Every route as the application registered it: (method, full path).
/// Each path goes through [`noted`] as it is handed to actix-web (which
/// keeps no list of its own), so a test asks the running server which
/// pages exist instead of reading the source.
static ROUTES: std::sync::Mutex<std::collections::BTreeSet<(&'static str, String)>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// Notes a route as it is registered (`scope` is its scope's prefix) and
/// gives its path back for actix-web.
pub fn noted(method: &'static str, scope: &str, path: &'static str) -> &'static str {
    noted_all(&[method], scope, path)
}

/// [`noted`] for a resource that takes several methods.
pub fn noted_all(methods: &[&'static str], scope: &str, path: &'static str) -> &'static str {
    let mut all = ROUTES.lock().unwrap_or_else(|p| p.into_inner());
    for m in methods {
        all.insert((m, format!("{scope}{path}")));
    }
    path
}

/// The routes registered so far (every route once the server runs).
pub fn registered_routes() -> Vec<(&'static str, String)> {
    ROUTES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .cloned()
        .collect()
}
