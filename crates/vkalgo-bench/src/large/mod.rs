//! Support of the large-count checks (`tests/large_*.rs`): each sorts, scans, copies,
//! multisplits, merges or looks up more than 2^31 elements (by default 2^31 + 5) through the
//! record layer or the host API and verifies the result EXACTLY against a CPU reference. The
//! checks are `#[ignore]`d tests: the GPU machine runs them with `--ignored`, CI at 2^16 + 5.
//!
//! The record-layer checks run on buffers they allocate themselves: one VkBuffer of more than
//! 8 GiB may exceed the device's maxMemoryAllocationSize, so each buffer gets a dedicated
//! `vkAllocateMemory` (with `VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT`) on a device-local memory
//! type ([`RawBuffer`]); where the device refuses, the row says so (refused, not failed). Data
//! moves in chunks through one modest staging buffer.
//!
//! Environment of the checks ([`Options::from_env`]):
//! - `VKALGO_LARGE_COUNT`: the element count, `2^N+E` or a number (default `2^31+5`; CI:
//!   `2^16+5`).
//! - `VKALGO_LARGE_HASH_LOG2` (default: N of the count): the hash map asks for 2^N + 2^(N-3)
//!   slots first, then smaller capacities until the device accepts one;
//!   `VKALGO_LARGE_HASH_LOAD` (default 0.5): keys inserted per slot.
//! - `VKALGO_LARGE_THREADS` (default: the machine's cores): CPU threads of the reference checks.
//!
//! Each check also has a self-test ([`self_test`], a normal test): the check at 2^16 + 5 with
//! one bit of every GPU result flipped before it is compared must report every row wrong.

use crate::harness::{Timer, STAGING_BYTES};
use ash::vk;
use std::sync::OnceLock;
use vkalgo::{Context, GpuBuffer, MemoryLocation, Result};

mod cpu;
mod gpu;
mod raw;
mod rows;
pub use cpu::*;
pub use gpu::*;
pub use raw::*;
pub use rows::*;

/// Bytes in front of every range of the record-layer checks: ranges start at a non-zero offset.
pub const OFFSET: u64 = 256;

/// What the checks run at (see the module docs).
pub struct Options {
    /// The count is 2^log2 + extra.
    pub log2: u32,
    pub extra: u64,
    pub hash_log2: u32,
    pub hash_load: f64,
    pub threads: usize,
    /// Flip one bit of every GPU result before it is checked (the self-test).
    pub corrupt: bool,
}

fn env_value<T: std::str::FromStr>(name: &str) -> Option<T> {
    let text = std::env::var(name).ok()?;
    Some(
        text.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text} is not a valid value")),
    )
}

/// Parses a count written `2^N+E`, `2^N` or as a number into (N, E).
pub fn parse_count(text: &str) -> Option<(u32, u64)> {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(rest) = text.strip_prefix("2^") {
        let (log2, extra) = rest.split_once('+').unwrap_or((rest, "0"));
        return Some((log2.parse().ok()?, extra.parse().ok()?));
    }
    let n: u64 = text.parse().ok()?;
    (n > 0).then(|| {
        let log2 = 63 - n.leading_zeros();
        (log2, n - (1u64 << log2))
    })
}

impl Options {
    /// The options of the environment (see the module docs).
    pub fn from_env() -> Options {
        let (log2, extra) = match std::env::var("VKALGO_LARGE_COUNT") {
            Ok(text) => parse_count(&text)
                .unwrap_or_else(|| panic!("VKALGO_LARGE_COUNT={text}: write 2^N+E or a number")),
            Err(_) => (31, 5),
        };
        let o = Options {
            log2,
            extra,
            hash_log2: env_value("VKALGO_LARGE_HASH_LOG2").unwrap_or(log2),
            hash_load: env_value("VKALGO_LARGE_HASH_LOAD").unwrap_or(0.5),
            threads: env_value::<usize>("VKALGO_LARGE_THREADS")
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(4, |n| n.get()))
                .max(1),
            corrupt: false,
        };
        assert!(
            (4..=33).contains(&o.log2),
            "the count must be 2^N + E with N in 4..=33"
        );
        assert!(
            (4..=33).contains(&o.hash_log2),
            "VKALGO_LARGE_HASH_LOG2 must be in 4..=33"
        );
        assert!(
            o.hash_load > 0.0 && o.hash_load <= 0.9,
            "VKALGO_LARGE_HASH_LOAD must be in (0, 0.9]"
        );
        o
    }

    /// The self-test's options: 2^16 + 5 elements, every result corrupted.
    pub fn self_test() -> Options {
        Options {
            log2: 16,
            extra: 5,
            hash_log2: 16,
            corrupt: true,
            ..Options::from_env()
        }
    }

    /// The element count, 2^log2 + extra.
    pub fn count(&self) -> u64 {
        (1u64 << self.log2) + self.extra
    }
}

/// The context every check of the process shares (the harness's yardstick belongs to it).
pub fn context() -> &'static Context {
    static CONTEXT: OnceLock<Context> = OnceLock::new();
    CONTEXT.get_or_init(|| Context::new().expect("a Vulkan device"))
}

/// A check: runs on the context with the options, adds its rows.
pub type Check<'a> = &'a dyn Fn(&Context, &Options, &mut Vec<Row>) -> Result<()>;

/// Runs `check` at the environment's count ([`Options::from_env`]), prints its table and
/// panics when a check ran and failed (a refused allocation is reported, not failed).
pub fn run(name: &str, check: Check) {
    let o = Options::from_env();
    let ctx = context();
    println!(
        "large-count check {name}: N = 2^{} + {} = {}; maxMemoryAllocationSize {} bytes; {} CPU threads",
        o.log2,
        o.extra,
        o.count(),
        ctx.profile().max_memory_allocation_size,
        o.threads
    );
    for (heap, size) in device_local_heaps(ctx) {
        println!(
            "device-local heap {heap}: {:.1} GiB",
            size as f64 / (1u64 << 30) as f64
        );
    }
    let mut rows = Vec::new();
    check(ctx, &o, &mut rows).expect("the check ran");
    print_rows(&rows);
    let failed: Vec<&str> = rows
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Wrong(_)))
        .map(|r| r.what.as_str())
        .collect();
    assert!(failed.is_empty(), "large-count check {name} FAILED: {failed:?}");
}

/// The self-test of `check`: at 2^16 + 5 with one bit of every GPU result flipped, every row
/// that ran must say wrong (and at least one must have run).
pub fn self_test(name: &str, check: Check) {
    let o = Options::self_test();
    let mut rows = Vec::new();
    check(context(), &o, &mut rows).expect("the check ran");
    print_rows(&rows);
    let exact: Vec<&str> = rows
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Exact))
        .map(|r| r.what.as_str())
        .collect();
    assert!(exact.is_empty(), "{name}: passed a corrupted result: {exact:?}");
    assert!(
        rows.iter().any(|r| matches!(r.verdict, Verdict::Wrong(_))),
        "{name}: no check ran"
    );
}

#[cfg(test)]
mod tests {
    use super::parse_count;

    #[test]
    fn counts_written_as_powers_or_numbers() {
        assert_eq!(parse_count("2^31+5"), Some((31, 5)));
        assert_eq!(parse_count("2^16 + 5"), Some((16, 5)));
        assert_eq!(parse_count("2^20"), Some((20, 0)));
        assert_eq!(parse_count("65541"), Some((16, 5)));
        assert_eq!(parse_count("0"), None);
        assert_eq!(parse_count("lots"), None);
    }
}
