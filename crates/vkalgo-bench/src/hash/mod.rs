//! Hash-map benchmark: `vkalgo-bench hash` (options: `vkalgo-bench hash --help`). The
//! insert-or-apply, multimap, sweep and churn cases use the first tuning and bucket size.
//!
//! u32 keys and values, as the cuCollections static_map benchmark: N unique random keys
//! (`--log2n`, default 2^26 on GPUs) inserted into an empty map of N / load slots, then N
//! lookups of those keys (hits), N lookups of other keys (misses), and N erases; each timed
//! alone with GPU timestamps (median of `--reps` after a warm-up; inserts and erases start
//! from a freshly cleared / filled map outside the timed region). With `--log2cap C`
//! (capacity mode: bench/cuda/cuco_bench.cu's `map C L` workload) each load L instead gets
//! N = L * 2^C keys in a map asked for 2^C slots. Every result is verified (size, every found
//! value, misses not found, size 0 after the erase).
//!
//! Insert-or-apply (group-by, cuco_bench's `apply`): 2^log2n keys drawn from 2^d distinct ones
//! (`--apply-distinct`), summed into an empty map of 2^log2cap slots (else twice the keys),
//! verified against the CPU's sums. Multimap (cuco_bench's `multimap`, `--multimap MULT`):
//! 2^multimap_log2n pairs, MULT values per key, inserted; then the values of as many queries as
//! there are distinct keys (every other one absent) counted, and retrieved (the exclusive scan
//! of the counts and the retrieve at those offsets), verified per query (docs of
//! [`multimap`]).
//!
//! Then the load sweep: a map of 2^27 slots filled in batches of 2^22 keys up to load 0.95,
//! each batch timed, every key then found with its value.
//!
//! Churn (erased slots reused): a map held at a live load of 0.8 / 0.9 with 2^churn_log2n live
//! keys; every round erases the oldest 10% of the live keys and inserts as many new ones (a
//! sliding window over a key array), each erase and insert timed; rounds reported in groups of
//! 10 (steady state: the last group), then verified (size, the live window found with its
//! values, the first erased keys absent).

use ash::vk;
use vkalgo::{Context, GpuBuffer, Result};
use vkalgo_bench::harness::report;
use vkalgo_bench::harness::{full_barrier, upload, Bench, Timer};

mod apply;
mod churn;
mod map;
use map::Row;
mod multimap;
mod multimap_data;
mod options;
use options::{parse_options, Options};
mod sweep;

// murmur3's fmix32: a bijection, so distinct indices give distinct keys.
use vkalgo::hash::reference::fmix32 as mix32;

/// `n` distinct storable keys: key i = mix32(i ^ salt), skipping the two reserved values.
fn unique_keys(n: usize, salt: u32) -> Vec<u32> {
    (0u32..)
        .map(|i| mix32(i ^ salt))
        .filter(|&k| k < u32::MAX - 1)
        .take(n)
        .collect()
}

/// A full barrier: everything before it completes and is visible before what follows.
fn all_commands_barrier(ctx: &Context, cmd: vk::CommandBuffer) {
    unsafe { full_barrier(ctx, cmd) };
}

/// The hash benchmark's run: the session, the options, the keys of the fixed-load maps (in
/// their buffer: `2 * n_max` keys, a case of N keys has its hits first and its misses next)
/// with the first `n_max` keys' values (on the host and in theirs), the output buffer and the
/// rows so far.
struct Hash<'a> {
    b: Bench<'a>,
    o: Options,
    values: Vec<u32>,
    key_buf: GpuBuffer,
    value_buf: GpuBuffer,
    out_buf: GpuBuffer,
    rows: Vec<Row>,
}

/// Generates the inputs once: N keys (hits), N other keys (misses), values never 0 (so a 0
/// output means "not found").
fn inputs(n: usize) -> (Vec<u32>, Vec<u32>) {
    let started = std::time::Instant::now();
    let keys = unique_keys(2 * n, 0x5bd1_e995);
    let values: Vec<u32> = keys[..n].iter().map(|&k| mix32(k ^ 0x2545_f491) | 1).collect();
    println!(
        "generated {} keys in {:.1} s",
        keys.len(),
        started.elapsed().as_secs_f64()
    );
    (keys, values)
}

impl Options {
    /// Keys of the fixed-load maps at `load`: 2^log2n, or in capacity mode load * 2^log2cap
    /// (rounded down, as cuco_bench does).
    fn keys_at(&self, load: f64) -> u64 {
        match self.log2cap {
            Some(c) => (load * (1u64 << c) as f64) as u64,
            None => 1u64 << self.log2n,
        }
    }

    /// The most keys of any fixed-load map.
    fn max_keys(&self) -> u64 {
        let most = self.loads.iter().map(|&l| self.keys_at(l)).max();
        most.unwrap_or(1u64 << self.log2n).max(1)
    }
}

/// Runs the hash-map benchmark with the command-line arguments after `hash`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = parse_options(ctx, args);
    let n = o.max_keys() as usize;
    let timer = Timer::new(ctx)?;
    let (keys, values) = inputs(n);
    let nn = n as u64;
    let gpu = |bytes: u64, name: &str| GpuBuffer::new(ctx, bytes, vkalgo::MemoryLocation::GpuOnly, name);
    // Room for the copy check's 16-byte aligned target past the hits (below).
    let (key_buf, value_buf) = (gpu(8 * nn + 16, "bench keys")?, gpu(4 * nn, "bench values")?);
    let out_buf = gpu(4 * nn, "bench out")?;
    upload(ctx, &key_buf, &keys)?;
    upload(ctx, &value_buf, &values)?;
    let b = Bench::with_timer(ctx, timer)?;
    // The copy on the benchmark's own key and output buffers beside the yardstick (the copy
    // goes from the output buffer into the miss keys' half of the key buffer, re-uploaded).
    let (at, bytes) = (4 * nn.next_multiple_of(4), 4 * nn);
    let (from, to) = (out_buf.sub_range(0, bytes), key_buf.sub_range(at, bytes));
    b.check_buffers("hash", nn, &from, &to)?;
    upload(ctx, &key_buf, &keys)?;
    let mut h = Hash {
        b,
        o,
        values,
        key_buf,
        value_buf,
        out_buf,
        rows: Vec::new(),
    };
    h.maps()?;
    for log2d in h.o.apply_distinct.clone() {
        h.apply(log2d)?;
    }
    if let Some(mult) = h.o.multimap {
        h.multimap(mult)?;
    }
    if h.o.sweep {
        h.sweep()?;
    }
    if h.o.churn {
        for load in h.o.churn_loads.clone() {
            let row = h.churn(load)?;
            h.rows.push(row);
        }
    }
    let table = report::table_of(
        &format!(
            "hash map, u32 keys and values (device {}, copy {:.0} GB/s)",
            ctx.device_name(),
            h.b.yard.gbs
        ),
        "op | variant | N | ms | G keys/s | verified",
    );
    for r in &h.rows {
        table.row(&r.cells());
    }
    if h.rows.iter().any(|r| !r.ok) {
        eprintln!("VERIFICATION FAILED");
        std::process::exit(1);
    }
    Ok(())
}
