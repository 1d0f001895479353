//! Password hashing with argon2id (the crate's recommended parameters:
//! 19 MiB, 2 passes), under a memory bound.
//!
//! Each hash needs its 19 MiB of memory for as long as it runs. On the
//! server every hash goes through one [`Hasher`]: at most `concurrency`
//! hashes run at once (as many as there are cores: more would only share
//! them), each on a memory block of a small pool that is reused from one
//! hash to the next; up to `queue` more requests wait for their turn
//! holding nothing but the password; anything beyond is refused at once
//! ([`Busy`]: 503 with `Retry-After`), before any database work. When the
//! hasher goes idle the blocks are freed, and so that freeing them gives
//! the memory back to the system, [`tune_allocator`] has the C allocator
//! map blocks that large on their own (glibc otherwise raises its mmap
//! threshold after the first free and keeps later 19 MiB blocks in its
//! arenas: 300 logins left the process at 5.6 GiB).
//!
//! An unknown username is checked against a dummy hash with the same
//! parameters, through the same bound, so that it costs what a wrong
//! password costs.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

#[derive(Debug, thiserror::Error)]
#[error("password hashing failed: {0}")]
pub struct HashError(String);

/// Too many password checks at once: try again after `retry_after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many password checks at once")]
pub struct Busy {
    pub retry_after: Duration,
}

/// What a new hash costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HashCost {
    /// The crate's recommended parameters (19 MiB, 2 passes): every server
    /// and the command line.
    #[default]
    Standard,
    /// 8 KiB, 1 pass: for test servers only, so that a test spends its time
    /// on what it tests. Not reachable from the command line or the
    /// environment; the tests of the doors themselves keep `Standard`.
    TestsOnly,
}

impl HashCost {
    /// The argon2 parameters of this cost.
    pub fn params(self) -> Params {
        match self {
            HashCost::Standard => Params::default(),
            HashCost::TestsOnly => Params::new(Params::MIN_M_COST, 1, 1, None).unwrap_or_default(),
        }
    }
}

/// The parameters new hashes get (the crate's defaults).
fn params() -> Params {
    HashCost::Standard.params()
}

fn hash_with(password: &str, params: Params, memory: &mut [Block]) -> Result<String, HashError> {
    let err = |e: &dyn std::fmt::Display| HashError(e.to_string());
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_bytes = [0u8; 64];
    let raw_salt = salt.decode_b64(&mut salt_bytes).map_err(|e| err(&e))?;
    let len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut out = vec![0u8; len];
    argon
        .hash_password_into_with_memory(password.as_bytes(), raw_salt, &mut out, memory)
        .map_err(|e| err(&e))?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: argon2::password_hash::ParamsString::try_from(&params).map_err(|e| err(&e))?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| err(&e))?),
    };
    Ok(hash.to_string())
}

/// Checks `password` against `phc` on `memory`; a malformed hash, or one
/// that needs more memory than the block holds, never matches.
fn verify_with(password: &str, phc: &str, memory: &mut [Block]) -> bool {
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from).transpose() {
        Ok(v) => v.unwrap_or_default(),
        Err(_) => return false,
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    let mut salt_bytes = [0u8; 64];
    let Ok(raw_salt) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    let computed = Argon2::new(algorithm, version, params).hash_password_into_with_memory(
        password.as_bytes(),
        raw_salt,
        &mut out,
        memory,
    );
    // `Output`'s equality is constant-time.
    computed.is_ok() && Output::new(&out).is_ok_and(|o| o == expected)
}

fn blocks_needed() -> usize {
    params().block_count()
}

/// A PHC string (`$argon2id$v=19$…`) for a password, on memory of its own
/// (the command line; the server goes through [`Hasher::hash`]).
pub fn hash_password(password: &str) -> Result<String, HashError> {
    hash_with(
        password,
        params(),
        &mut vec![Block::default(); blocks_needed()],
    )
}

/// True when `password` matches `phc` (on memory of its own; the server
/// goes through [`Hasher::verify`]).
pub fn verify_password(password: &str, phc: &str) -> bool {
    let blocks = PasswordHash::new(phc)
        .ok()
        .and_then(|p| Params::try_from(&p).ok())
        .map_or(0, |p| p.block_count());
    verify_with(password, phc, &mut vec![Block::default(); blocks])
}

/// A hash to verify against when the username is unknown: the parameters
/// new hashes get, so that it costs the same; it matches no password.
pub fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| dummy_hash_of(&params()))
}

/// The dummy hash of parameters `p`.
fn dummy_hash_of(p: &Params) -> String {
    {
        let len = p.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
        let salt = SaltString::encode_b64(b"burraco-td dummy")
            .map(|s| s.as_str().to_string())
            .unwrap_or_else(|_| "YnVycmFjby10ZCBkdW1teQ".to_string());
        format!(
            "$argon2id$v=19$m={},t={},p={}${}${}",
            p.m_cost(),
            p.t_cost(),
            p.p_cost(),
            salt,
            // Zero bytes, base64 without padding: no password hashes to them.
            "A".repeat((len * 4).div_ceil(3))
        )
    }
}

/// Has the C allocator (glibc) map large blocks on their own, so that a
/// freed argon2 block goes back to the system; without this, glibc raises
/// its mmap threshold to the size of the first block freed and serves the
/// later ones from its arenas, which keep them. Called once at start.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        /// Blocks from 1 MiB are mapped: far below argon2's 19 MiB, far
        /// above what a request allocates otherwise.
        const MMAP_THRESHOLD: libc::c_int = 1 << 20;
        // SAFETY: mallopt only sets glibc's allocator parameters; it is
        // called once, at start, before the server's threads allocate.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        }
    }
}

/// Returns freed heap memory to the system after a burst (glibc keeps
/// freed small allocations of every thread's arena otherwise).
fn trim_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of glibc's heaps.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The bound on password hashing (see the module's documentation).
#[derive(Debug)]
pub struct Hasher {
    /// Hashes running at most at once.
    concurrency: usize,
    /// Requests admitted: running and waiting.
    admitted: AtomicUsize,
    /// Most requests admitted at once: `concurrency` + the queue.
    max_admitted: usize,
    turns: Arc<tokio::sync::Semaphore>,
    /// Memory blocks not in use (at most `concurrency`), freed when idle.
    pool: Mutex<Vec<Vec<Block>>>,
    /// What new hashes cost, and the dummy hash of that cost.
    params: Params,
    dummy: String,
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher::new(default_concurrency(), DEFAULT_QUEUE)
    }
}

/// As many hashes at once as the machine has cores.
pub fn default_concurrency() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// Requests that may wait for a turn (beyond those running): a club's
/// staff signing in at once from one desk (twenty logins) all get a place.
/// Waiting holds no hash memory.
pub const DEFAULT_QUEUE: usize = 32;

/// What a refused request is told to wait.
const RETRY_AFTER: Duration = Duration::from_secs(2);

/// A place among the admitted requests; waiting holds no hash memory.
pub struct Ticket {
    hasher: Arc<Hasher>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.hasher.admitted.fetch_sub(1, Ordering::AcqRel) == 1 {
            // The last one out: free the blocks, and the heap's free memory.
            let freed = std::mem::take(
                &mut *self
                    .hasher
                    .pool
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
            );
            if !freed.is_empty() {
                drop(freed);
                trim_heap();
            }
        }
    }
}

impl Hasher {
    /// At most `concurrency` hashes at once (at least one) and `queue`
    /// requests waiting.
    pub fn new(concurrency: usize, queue: usize) -> Hasher {
        Hasher::with_cost(concurrency, queue, HashCost::Standard)
    }

    /// A hasher whose new hashes cost `cost`.
    pub fn with_cost(concurrency: usize, queue: usize, cost: HashCost) -> Hasher {
        let concurrency = concurrency.max(1);
        let params = cost.params();
        Hasher {
            dummy: dummy_hash_of(&params),
            params,
            concurrency,
            admitted: AtomicUsize::new(0),
            max_admitted: concurrency + queue,
            turns: Arc::new(tokio::sync::Semaphore::new(concurrency)),
            pool: Mutex::new(Vec::new()),
        }
    }

    pub fn concurrency(&self) -> usize {
        self.concurrency
    }

    /// Requests admitted now (running and waiting).
    pub fn admitted(&self) -> usize {
        self.admitted.load(Ordering::Acquire)
    }

    /// A place for one hash, or [`Busy`] when every place is taken. Take it
    /// before any other work of the request (the database included).
    pub fn admit(self: &Arc<Self>) -> Result<Ticket, Busy> {
        let mut n = self.admitted.load(Ordering::Acquire);
        loop {
            if n >= self.max_admitted {
                return Err(Busy {
                    retry_after: RETRY_AFTER,
                });
            }
            match self
                .admitted
                .compare_exchange_weak(n, n + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => {
                    return Ok(Ticket {
                        hasher: self.clone(),
                    })
                }
                Err(now) => n = now,
            }
        }
    }

    /// A block of at least `needed` blocks of argon2 memory.
    fn block(&self, needed: usize) -> Vec<Block> {
        let reused = self
            .pool
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop();
        let mut block = reused.unwrap_or_default();
        if block.len() < needed {
            block = vec![Block::default(); needed];
        }
        block
    }

    fn give_back(&self, block: Vec<Block>) {
        self.pool
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(block);
    }
}

impl Ticket {
    /// Runs `f` on a pooled block when a turn is free, off the async
    /// workers. The turn and the ticket go with the work: a request that
    /// gives up (its client gone) does not free its turn before its hash
    /// is done.
    async fn run<T: Send + 'static>(
        self,
        needed: usize,
        f: impl FnOnce(&mut [Block]) -> T + Send + 'static,
    ) -> Result<T, HashError> {
        let turn = self
            .hasher
            .turns
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| HashError(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let hasher = self.hasher.clone();
            let mut block = hasher.block(needed);
            let out = f(&mut block);
            hasher.give_back(block);
            drop(turn);
            // The ticket last: when it is the last one, the blocks go.
            drop(self);
            out
        })
        .await
        .map_err(|e| HashError(e.to_string()))
    }

    /// Whether `password` matches `phc` (`None`: an unknown user, checked
    /// against [`dummy_hash`] at the same cost, never matching). A stored
    /// hash that needs more memory than new hashes get never matches.
    pub async fn verify(self, password: String, phc: Option<String>) -> Result<bool, HashError> {
        let known = phc.is_some();
        let dummy = self.hasher.dummy.clone();
        // The memory the stored hash asks for, never more than a standard
        // hash gets (a hash asking more never matches).
        let needed = phc
            .as_deref()
            .and_then(|p| PasswordHash::new(p).ok())
            .and_then(|p| Params::try_from(&p).ok())
            .map_or(self.hasher.params.block_count(), |p| p.block_count())
            .min(blocks_needed().max(self.hasher.params.block_count()));
        let matches = self
            .run(needed, move |memory| {
                let phc = phc.as_deref().unwrap_or(&dummy);
                verify_with(&password, phc, memory)
            })
            .await?;
        Ok(known && matches)
    }

    /// A new hash of `password`.
    pub async fn hash(self, password: String) -> Result<String, HashError> {
        let params = self.hasher.params.clone();
        self.run(params.block_count(), move |memory| {
            hash_with(&password, params, memory)
        })
        .await?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_then_verify() {
        let h = hash_password("correct horse battery").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify_password("correct horse battery", &h));
        assert!(!verify_password("wrong horse battery", &h));
        assert!(!verify_password("anything", "not a hash"));
        assert!(!verify_password("anything", dummy_hash()));
        // Hashes of the crate's own hasher read back, and the other way round.
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let salt = SaltString::generate(&mut OsRng);
        let theirs = Argon2::default()
            .hash_password(b"long enough 1", &salt)
            .unwrap()
            .to_string();
        assert!(verify_password("long enough 1", &theirs));
        let parsed = PasswordHash::new(&h).unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse battery", &parsed)
            .is_ok());
    }

    #[test]
    fn the_dummy_hash_costs_what_a_real_one_costs() {
        let dummy = PasswordHash::new(dummy_hash()).unwrap();
        let real = hash_password("some password 1").unwrap();
        let real = PasswordHash::new(&real).unwrap();
        assert_eq!(dummy.algorithm, real.algorithm);
        assert_eq!(dummy.params, real.params);
        assert_eq!(dummy.hash.unwrap().len(), real.hash.unwrap().len());
    }

    #[test]
    fn a_hash_needing_more_memory_than_the_block_never_matches() {
        let small = Params::new(64, 1, 1, None).unwrap();
        let salt = SaltString::generate(&mut OsRng);
        use argon2::password_hash::PasswordHasher;
        let phc = Argon2::new(Algorithm::Argon2id, Version::V0x13, small)
            .hash_password(b"pw pw pw pw", &salt)
            .unwrap()
            .to_string();
        assert!(verify_with(
            "pw pw pw pw",
            &phc,
            &mut vec![Block::default(); 64]
        ));
        assert!(!verify_with(
            "pw pw pw pw",
            &phc,
            &mut vec![Block::default(); 63]
        ));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_bound_admits_its_places_and_refuses_the_rest() {
        let h = Arc::new(Hasher::new(1, 2));
        let tickets: Vec<Ticket> = (0..3).map(|_| h.admit().unwrap()).collect();
        assert_eq!(h.admitted(), 3);
        assert_eq!(
            h.admit().err(),
            Some(Busy {
                retry_after: RETRY_AFTER
            })
        );
        let phc = hash_password("right password").unwrap();
        let mut checks = Vec::new();
        for (i, t) in tickets.into_iter().enumerate() {
            let pw = if i == 0 {
                "right password"
            } else {
                "wrong one"
            };
            checks.push(tokio::spawn(t.verify(pw.into(), Some(phc.clone()))));
        }
        let mut results = Vec::new();
        for c in checks {
            results.push(c.await.unwrap().unwrap());
        }
        assert_eq!(results, vec![true, false, false]);
        assert_eq!(h.admitted(), 0);
        assert!(h.pool.lock().unwrap().is_empty(), "idle: blocks freed");
        // An unknown user never matches, even with the dummy's password.
        let t = h.admit().unwrap();
        assert!(!t.verify("anything".into(), None).await.unwrap());
    }
}
