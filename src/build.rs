//! Rebuilds the binary when a migration changes: `embed_migrations!` reads
//! the migration folders at compile time, and cargo does not see them.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
