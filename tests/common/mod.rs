//! Shared helpers of the integration tests, each written once: the test context (validation on,
//! checked when it drops), deterministic data, poisoned buffers and their readers
//! ([`buffers`]), the per-type traits ([`keys`]) and C ABI contexts ([`c_abi`]).
//!
//! Each algorithm's tests are one binary, `tests/<algo>/main.rs` (its shared checks) with a file
//! per layer, so that a test is named `<layer>::<what>`: `host` (the host calls), `record` (the
//! record layer: offsets, indirect counts, poison around the outputs), `c_abi` (through
//! `vkalgo-ffi`), `bad_input` (`refused_and_nothing_written`,
//! `counts_beyond_the_maximum_are_refused`), and the algorithm's own kernel paths.
#![allow(dead_code, unused_imports)]

pub mod buffers;
pub mod c_abi;
pub mod keys;
pub mod user_shader;

pub use buffers::*;
pub use c_abi::*;
pub use keys::*;
pub use user_shader::*;

use vkalgo::{Context, ContextOptions};

/// The options of every test context: Khronos validation + synchronization validation, unless
/// `VKALGO_TEST_NO_VALIDATION=1` (for machines without the layer, e.g. the GPU box).
pub fn test_options() -> ContextOptions {
    let mut options = ContextOptions::from_env();
    options.validation = std::env::var("VKALGO_TEST_NO_VALIDATION").map_or(true, |v| v != "1");
    options.timeout = std::time::Duration::from_secs(300);
    options
}

/// The test fixture: a [`Context`] (it derefs to one) whose drop fails the test if the
/// validation layer reported anything or a pipeline was created while recording. A test that
/// already panics reports its own message instead.
pub struct TestContext(Context, std::sync::atomic::AtomicBool);

impl TestContext {
    /// Wraps a context made with other options (see [`test_options`]).
    pub fn new(ctx: Context) -> Self {
        TestContext(ctx, std::sync::atomic::AtomicBool::new(false))
    }

    /// Drops only the check that no pipeline was created while recording, for the tests that
    /// never made it (the validation messages are still checked): their paths create a
    /// pipeline while recording.
    pub fn allow_pipelines_created_while_recording(&self) {
        self.1.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

impl std::ops::Deref for TestContext {
    type Target = Context;
    fn deref(&self) -> &Context {
        &self.0
    }
}

impl Drop for TestContext {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        if self.1.load(std::sync::atomic::Ordering::Relaxed) {
            let n = self.0.validation_message_count();
            assert_eq!(n, 0, "validation messages: {:#?}", self.0.validation_messages());
        } else {
            assert_no_validation_messages(&self.0);
        }
    }
}

/// The test context on whatever Vulkan device exists (lavapipe in CI).
pub fn context() -> TestContext {
    TestContext::new(
        Context::with_options(&test_options())
            .expect("a Vulkan device (lavapipe in CI) with the validation layer"),
    )
}

/// [`context`] with an explicit look-back policy.
pub fn context_with_lookback(lookback: bool) -> TestContext {
    let mut options = test_options();
    options.lookback = Some(lookback);
    TestContext::new(Context::with_options(&options).expect("a Vulkan device"))
}

/// A named input distribution: the word at index `i` from the generator.
pub type Distribution = (&'static str, fn(&mut Rng, usize) -> u32);

/// The key distributions of the sort and multisplit tests (the multisplit uses the first six).
pub const DISTRIBUTIONS: [Distribution; 8] = [
    ("uniform", |r, _| r.next_u32()),
    ("all equal", |_, _| 0x1234_5678),
    ("sorted", |_, i| i as u32),
    ("reversed", |_, i| u32::MAX - i as u32),
    ("few distinct", |r, _| r.next_u32() % 5),
    ("low entropy", |r, _| r.next_u32() & r.next_u32() & r.next_u32()),
    ("high bits only", |r, _| r.next_u32() & 0xFF00_0000),
    ("low bits only", |r, _| r.next_u32() & 0xFF),
];

/// Fails the test if the validation layer reported anything or a pipeline was created while
/// recording (the fixture's drop calls it).
pub fn assert_no_validation_messages(ctx: &Context) {
    let n = ctx.validation_message_count();
    assert_eq!(n, 0, "validation messages: {:#?}", ctx.validation_messages());
    // Plans and objects create their pipelines when they are made, never while recording.
    assert_eq!(
        ctx.pipelines_created_while_recording(),
        0,
        "pipelines created while recording"
    );
}

/// A small, fast, deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    pub fn vec_u32(&mut self, n: usize) -> Vec<u32> {
        (0..n).map(|_| self.next_u32()).collect()
    }
}

/// The Python that can import pyroaring (CRoaring's binding; `PYTHON`, default python3), for
/// the tests that compare with CRoaring; `None` when it cannot, which fails the caller's test
/// when `VKALGO_REQUIRE_PYROARING=1` (scripts/test.sh installs pyroaring and sets it).
pub fn python_with_pyroaring() -> Option<String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let have = std::process::Command::new(&python)
        .args(["-c", "import pyroaring"])
        .status()
        .is_ok_and(|s| s.success());
    if have {
        return Some(python);
    }
    assert!(
        std::env::var("VKALGO_REQUIRE_PYROARING").map_or(true, |v| v != "1"),
        "pyroaring is required (VKALGO_REQUIRE_PYROARING=1) but {python} cannot import it"
    );
    eprintln!("pyroaring not importable: the comparison with CRoaring did not run");
    None
}

/// CRC-32 (IEEE, as zlib's crc32) of `bytes`: how the tests compare long value lists with
/// what a Python script printed.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
