//! Hash-map benchmark: `vkalgo-bench hash` (options: `vkalgo-bench hash --help`). The sweep
//! and the churn use the first tuning and bucket size.
//!
//! u32 keys and values, as the cuCollections static_map benchmark: N unique random keys
//! (`--log2n`, default 2^26 on GPUs) inserted into an empty map of N / load slots, then N
//! lookups of those keys (hits), N lookups of other keys (misses), and N erases; each timed
//! alone with GPU timestamps (median of `--reps` after a warm-up; inserts and erases start
//! from a freshly cleared / filled map outside the timed region). Then the load sweep: a map of
//! 2^27 slots filled in batches of 2^22 keys up to load 0.95, each batch timed. Every result is
//! verified (size, every found value, misses not found, size 0 after the erase).
//!
//! Churn (erased slots reused): a map held at a live load of 0.8 / 0.9 with 2^churn_log2n live
//! keys; every round erases the oldest 10% of the live keys and inserts as many new ones (a
//! sliding window over a key array), each erase and insert timed; rounds reported in groups of
//! 10 (steady state: the last group), then verified (size, the live window found with its
//! values, the first erased keys absent).

use ash::vk;
use vkalgo::{Context, GpuBuffer, HashTuning, Result};
use vkalgo_bench::harness::report;
use vkalgo_bench::harness::{axis, flag, full_barrier, sized, upload, Axis, Bench, Timer};

mod churn;
mod map;
use map::Row;
mod sweep;

const AXES: &[Axis] = &[
    sized("log2n", "26", "18", "log2 of the keys inserted, found and erased"),
    axis("loads", "0.5,0.8", "loads (keys per slot)"),
    sized("reps", "10", "3", "timed repetitions (median, at most 20)"),
    axis(
        "tuning",
        "",
        "workgroup size x keys per invocation, e.g. 256x1,256x4",
    ),
    axis(
        "buckets",
        "",
        "bucket bytes, e.g. 32,64 (default: the map's choice)",
    ),
    flag("unpacked", "also the unpacked insert"),
    flag("no-sweep", "skip the load sweep"),
    sized("sweep-log2cap", "27", "20", "log2 slots of the sweep's map"),
    sized("sweep-log2batch", "22", "15", "log2 keys per sweep batch"),
    axis("sweep-to", "0.95", "the sweep's last load"),
    flag("no-churn", "skip the churn"),
    sized("churn-log2n", "24", "16", "log2 live keys of the churn"),
    axis("churn-loads", "0.8,0.9", "the churn's live loads"),
    sized("churn-rounds", "30", "10", "churn rounds (at most 100)"),
];

/// The parsed options of the run.
struct Options {
    log2n: u32,
    loads: Vec<f64>,
    reps: u32,
    tunings: Vec<Option<HashTuning>>,
    buckets: Vec<Option<u32>>,
    unpacked: bool,
    sweep: bool,
    sweep_log2cap: u32,
    sweep_log2batch: u32,
    sweep_to: f64,
    churn: bool,
    churn_log2n: u32,
    churn_loads: Vec<f64>,
    churn_rounds: u32,
}

/// Parses the arguments after `hash` against [`AXES`].
fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let o = vkalgo_bench::harness::Options::parse(ctx, "hash", AXES, args);
    let tunings = o.tuning_choices("tuning", |workgroup_size, keys_per_invocation, _| {
        Some(HashTuning {
            workgroup_size,
            keys_per_invocation,
        })
    });
    Options {
        log2n: o.get("log2n", 26),
        loads: o.list("loads"),
        reps: o.get("reps", 1u32).clamp(1, 20),
        tunings,
        buckets: o.optional("buckets"),
        unpacked: o.flag("unpacked"),
        sweep: !o.flag("no-sweep"),
        sweep_log2cap: o.get("sweep-log2cap", 27),
        sweep_log2batch: o.get("sweep-log2batch", 22),
        sweep_to: o.get("sweep-to", 0.95),
        churn: !o.flag("no-churn"),
        churn_log2n: o.get("churn-log2n", 24),
        churn_loads: o.list("churn-loads"),
        churn_rounds: o.get("churn-rounds", 30u32).clamp(1, 100),
    }
}

/// murmur3's fmix32: a bijection, so distinct indices give distinct keys.
fn mix32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

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

/// The hash benchmark's run: the session, the options, the N hit keys and N miss keys (in
/// their buffer) with the hits' values (on the host and in theirs), the output buffer and the
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

/// Runs the hash-map benchmark with the command-line arguments after `hash`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = parse_options(ctx, args);
    let n = 1usize << o.log2n;
    let timer = Timer::new(ctx)?;
    let (keys, values) = inputs(n);
    let nn = n as u64;
    let gpu = |bytes: u64, name: &str| GpuBuffer::new(ctx, bytes, vkalgo::MemoryLocation::GpuOnly, name);
    let (key_buf, value_buf) = (gpu(8 * nn, "bench keys")?, gpu(4 * nn, "bench values")?);
    let out_buf = gpu(4 * nn, "bench out")?;
    upload(ctx, &key_buf, &keys)?;
    upload(ctx, &value_buf, &values)?;
    let b = Bench::with_timer(ctx, timer)?;
    // The copy on the benchmark's own key and output buffers beside the yardstick (the copy
    // goes from the output buffer into the miss keys' half of the key buffer, re-uploaded).
    let (from, to) = (out_buf.sub_range(0, 4 * nn), key_buf.sub_range(4 * nn, 4 * nn));
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
