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
use vkalgo::{
    Context, ElementCount, GpuBuffer, HashEraseArgs, HashFindArgs, HashInsertArgs, HashKeyType, HashMap,
    HashMapDesc, HashTuning, HashValueType, MemoryLocation, Result,
};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{axis, download, flag, median, sized, upload, yardstick, Axis, Timer};

mod sweep;
use sweep::sweep;
mod churn;
use churn::churn;

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

fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let o = vkalgo_bench::harness::Options::parse(ctx, "hash", AXES, args);
    let mut tunings: Vec<Option<HashTuning>> = o
        .tunings("tuning")
        .into_iter()
        .map(|(workgroup_size, keys_per_invocation, _)| {
            Some(HashTuning {
                workgroup_size,
                keys_per_invocation,
            })
        })
        .collect();
    if o.text("tuning").is_empty() {
        tunings.push(None);
    }
    let mut buckets: Vec<Option<u32>> = o.list("buckets").into_iter().map(Some).collect();
    if o.text("buckets").is_empty() {
        buckets.push(None);
    }
    Options {
        log2n: o.get("log2n", 26),
        loads: o.list("loads"),
        reps: o.get("reps", 1u32).clamp(1, 20),
        tunings,
        buckets,
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

fn all_commands_barrier(ctx: &Context, cmd: vk::CommandBuffer) {
    let all = vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE;
    let stages = vk::PipelineStageFlags::ALL_COMMANDS;
    unsafe { ctx.memory_barrier(cmd, stages, all, stages, all) };
}

struct Row {
    op: &'static str,
    variant: String,
    n: u64,
    ms: f64,
    ok: bool,
}

impl Row {
    /// The row's cells.
    fn cells(&self) -> [String; 6] {
        [
            self.op.to_string(),
            self.variant.clone(),
            self.n.to_string(),
            format!("{:.3}", self.ms),
            format!("{:.2}", rate(self.n, self.ms)),
            if self.ok { "yes" } else { "NO" }.to_string(),
        ]
    }

    /// Prints the row (the summary table at the end keeps it for the page) and its record.
    fn print(&self, copy_gbs: f64) {
        println!("| {} |", self.cells().join(" | "));
        let algo = format!("hash_{}_u32", self.op);
        let extra = format!("{copy_gbs:.0}");
        report::result(
            &algo,
            &self.variant,
            self.n,
            self.ms,
            rate(self.n, self.ms),
            &extra,
        );
    }
}

/// Runs the hash-map benchmark with the command-line arguments after `hash`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = parse_options(ctx, args);
    let n = 1usize << o.log2n;
    let timer = Timer::new(ctx)?;

    // Inputs, generated once: N keys (hits), N other keys (misses), values never 0 (so a 0
    // output means "not found").
    let started = std::time::Instant::now();
    let keys = unique_keys(2 * n, 0x5bd1_e995);
    let values: Vec<u32> = keys[..n].iter().map(|&k| mix32(k ^ 0x2545_f491) | 1).collect();
    println!(
        "generated {} keys in {:.1} s",
        keys.len(),
        started.elapsed().as_secs_f64()
    );
    let key_buf = GpuBuffer::new(ctx, 8 * n as u64, MemoryLocation::GpuOnly, "bench keys")?;
    let value_buf = GpuBuffer::new(ctx, 4 * n as u64, MemoryLocation::GpuOnly, "bench values")?;
    let out_buf = GpuBuffer::new(ctx, 4 * n as u64, MemoryLocation::GpuOnly, "bench out")?;
    upload(ctx, &key_buf, &keys)?;
    upload(ctx, &value_buf, &values)?;
    let yard = yardstick(ctx, &timer)?;
    let copy_gbs = yard.gbs;
    // The copy on the benchmark's own key and output buffers beside the yardstick (the copy
    // goes from the output buffer into the miss keys' half of the key buffer, re-uploaded).
    yard.check_buffers(
        ctx,
        &timer,
        "hash",
        n as u64,
        &out_buf.sub_range(0, 4 * n as u64),
        &key_buf.sub_range(4 * n as u64, 4 * n as u64),
    )?;
    upload(ctx, &key_buf, &keys)?;

    let nn = n as u64;
    let hits = key_buf.sub_range(0, 4 * nn);
    let misses = key_buf.sub_range(4 * nn, 4 * nn);
    let vals = value_buf.sub_range(0, 4 * nn);
    let outs = out_buf.sub_range(0, 4 * nn);
    let insert_args = HashInsertArgs {
        keys: hits,
        values: vals,
        count: ElementCount::Direct(nn),
        max_count: nn,
        status: None,
        failed_count: None,
    };
    let find_args = |keys| HashFindArgs {
        keys,
        values: Some(outs),
        found: None,
        count: ElementCount::Direct(nn),
        max_count: nn,
    };
    let erase_args = HashEraseArgs {
        keys: hits,
        erased: None,
        count: ElementCount::Direct(nn),
        max_count: nn,
    };

    println!("\nhash map, u32 keys and values, N = 2^{} keys", o.log2n);
    println!("| op | variant | N | ms | G keys/s | verified |");
    println!("|---|---|---|---|---|---|");
    let mut rows = Vec::new();
    let mut variants: Vec<(Option<HashTuning>, Option<u32>, Option<bool>)> = Vec::new();
    for &bucket in &o.buckets {
        variants.extend(o.tunings.iter().map(|&t| (t, bucket, None)));
        if o.unpacked {
            variants.push((o.tunings[0], bucket, Some(false)));
        }
    }
    for &load in &o.loads {
        for &(tuning, bucket_bytes, packed) in &variants {
            let capacity = (n as f64 / load).round() as u64;
            let map = HashMap::new(
                ctx,
                &HashMapDesc {
                    packed_insert: packed,
                    bucket_bytes,
                    tuning,
                    ..HashMapDesc::new(HashKeyType::U32, HashValueType::U32, capacity)
                },
            )?;
            let t = map.tuning();
            let variant = format!(
                "load{load}_b{}_{}x{}{}",
                map.bucket_bytes(),
                t.workgroup_size,
                t.keys_per_invocation,
                if map.packed_insert() { "" } else { "_unpacked" }
            );
            let reps = o.reps;
            // insert: clear, then the timed insert (warm-up rep first, dropped).
            yard.warm(ctx, &timer)?;
            let times = timer.regions(|cmd, mark| {
                for _ in 0..=reps {
                    unsafe { map.record_clear(cmd) }?;
                    all_commands_barrier(ctx, cmd);
                    mark(cmd);
                    unsafe { map.record_insert(cmd, &insert_args) }?;
                    mark(cmd);
                    all_commands_barrier(ctx, cmd);
                }
                Ok(())
            })?;
            let ok = map.size()? == nn;
            rows.push(Row {
                op: "insert",
                variant: variant.clone(),
                n: nn,
                ms: median(times[1..].to_vec()),
                ok,
            });
            rows.last().unwrap().print(copy_gbs);
            // find, hits then misses.
            for (op, keys) in [("find_hit", hits), ("find_miss", misses)] {
                let args = find_args(keys);
                yard.warm(ctx, &timer)?;
                let times = timer.regions(|cmd, mark| {
                    for _ in 0..=reps {
                        mark(cmd);
                        unsafe { map.record_find(cmd, &args) }?;
                        mark(cmd);
                        all_commands_barrier(ctx, cmd);
                    }
                    Ok(())
                })?;
                let got: Vec<u32> = download(ctx, &out_buf, n)?;
                let ok = if op == "find_hit" {
                    got == values
                } else {
                    got.iter().all(|&v| v == 0)
                };
                rows.push(Row {
                    op,
                    variant: variant.clone(),
                    n: nn,
                    ms: median(times[1..].to_vec()),
                    ok,
                });
                rows.last().unwrap().print(copy_gbs);
            }
            // erase: refill (untimed), then the timed erase.
            yard.warm(ctx, &timer)?;
            let times = timer.regions(|cmd, mark| {
                for rep in 0..=reps {
                    if rep > 0 {
                        unsafe { map.record_clear(cmd) }?;
                        all_commands_barrier(ctx, cmd);
                        unsafe { map.record_insert(cmd, &insert_args) }?;
                        all_commands_barrier(ctx, cmd);
                    }
                    mark(cmd);
                    unsafe { map.record_erase(cmd, &erase_args) }?;
                    mark(cmd);
                    all_commands_barrier(ctx, cmd);
                }
                Ok(())
            })?;
            let stats = map.stats()?;
            rows.push(Row {
                op: "erase",
                variant: variant.clone(),
                n: nn,
                ms: median(times[1..].to_vec()),
                ok: stats.size == 0 && stats.tombstones <= nn,
            });
            rows.last().unwrap().print(copy_gbs);
        }
    }
    if o.sweep {
        sweep(ctx, &o, &timer, yard, &o.tunings[0], o.buckets[0])?;
    }
    if o.churn {
        for &load in &o.churn_loads {
            rows.push(churn(ctx, &o, &timer, yard, load)?);
        }
    }
    let table = report::table(
        &format!(
            "hash map, u32 keys and values (device {}, copy {copy_gbs:.0} GB/s)",
            ctx.device_name()
        ),
        &["op", "variant", "N", "ms", "G keys/s", "verified"],
    );
    for r in &rows {
        table.row(&r.cells());
    }
    if rows.iter().any(|r| !r.ok) {
        eprintln!("VERIFICATION FAILED");
        std::process::exit(1);
    }
    Ok(())
}
