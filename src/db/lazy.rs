//! Commits that do not wait for the disk (PostgreSQL), for the writes
//! that hold a hot row lock or whose loss costs nothing (see [`Lazy`]).

/// Whether the transaction running on this thread commits without waiting
/// for the disk (`db::commit_lazily`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lazy {
    No,
    /// The commit does not wait for the disk; nothing waits for it after
    /// (the limiter's counts: a crash of the database may forget the last
    /// few, which only gives a guesser those attempts back).
    Forgettable,
    /// The commit does not wait for the disk, but `Db::write` waits for
    /// it right after, before the writer hears back: a write that holds a
    /// hot row lock (a tournament's revision) releases it without holding
    /// it through the disk's flush, and is still durable when answered.
    FlushBeforeAnswer,
}

thread_local! {
    /// How the transaction running on this thread commits.
    static LAZY_COMMIT: std::cell::Cell<Lazy> = const { std::cell::Cell::new(Lazy::No) };
}

/// Notes how the transaction running on this thread commits (a flush
/// asked for once is kept).
pub(super) fn note(how: Lazy) {
    LAZY_COMMIT.with(|f| {
        if f.get() != Lazy::FlushBeforeAnswer {
            f.set(how);
        }
    });
}

/// How the transaction that just ran on this thread committed (and back to
/// [`Lazy::No`] for the next one).
pub(super) fn take() -> Lazy {
    LAZY_COMMIT.with(|f| f.replace(Lazy::No))
}
