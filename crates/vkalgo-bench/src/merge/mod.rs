//! Merge benchmark: `vkalgo-bench merge` (options: `vkalgo-bench merge --help`).
//!
//! Sizes are log2 of EACH run: `--sizes 26` merges 2^26 + 2^26 u32 keys (or u32 -> u32 pairs).
//! Runs hold the same data as bench/cuda/merge_bench.cu: run r (0: A, 1: B) element i is
//! `2 * i + (mix32(i * 2 + r + seed) & 1)`, so both runs are sorted, unique and interleave
//! closely (about a quarter of the values are in both). Set operations take the same unique
//! runs. `--sort-sizes` also times the stable merge sort of random u32 keys (and the radix sort
//! of the same keys, for the choice the merge module documents); default none.
//!
//! `--pass-times` adds each merge's and set operation's passes under its row: their GPU times,
//! the median of 5 recordings.
//!
//! Set operations on the count-scan-write path are reported as `set_<op>_u32_csw` (the
//! look-back path, the default on GPUs, as `set_<op>_u32`).
//!
//! Every result is verified against the CPU reference. Rates are input elements per second
//! (m + n); GB/s counts the bytes read and written (a set operation writes its output only);
//! "% of copy" compares that with the compute-shader copy.

use vkalgo::merge::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, KeyType, MemoryLocation, MergeArgs, MergeDesc, MergeSortArgs,
    MergeSortDesc, MergeTuning, Result, SetOp, SetOpArgs, SetOpDesc, SetOpPath, SortArgs, SortDesc,
    ValueType,
};
use vkalgo_bench::harness::report::{self, rate};
mod cases;
use cases::{merges, set_ops, sorts};
use vkalgo_bench::harness::{
    axis, download, flag, median, print_pass_times, random_u32, sized, upload, yardstick, Axis, Timer,
    Yardstick, MAX_BATCH,
};

const AXES: &[Axis] = &[
    sized("sizes", "23,26", "16,18", "log2 of EACH run merged"),
    sized("set-sizes", "24", "16", "log2 of each run of the set operations"),
    axis(
        "sort-sizes",
        "",
        "log2 key counts of the merge sort (and the radix sort beside it)",
    ),
    sized("reps", "20", "3", "timed repetitions (median)"),
    axis("types", "keys,pairs", "keys, pairs (u32 -> u32)"),
    axis("ops", "and,or,andnot,xor", "set operations"),
    axis("set-paths", "auto", "auto, lookback, csw (count-scan-write)"),
    axis(
        "tuning",
        "",
        "workgroup size x items per invocation, e.g. 256x11,128x15",
    ),
    flag("pass-times", "also each pass's GPU time"),
];

struct Options {
    sizes: Vec<u32>,
    set_sizes: Vec<u32>,
    sort_sizes: Vec<u32>,
    reps: usize,
    types: Vec<String>,
    ops: Vec<SetOp>,
    set_paths: Vec<SetOpPath>,
    tunings: Vec<Option<MergeTuning>>,
    /// Also print each pass's GPU time (`--pass-times`).
    pass_times: bool,
}

fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let o = vkalgo_bench::harness::Options::parse(ctx, "merge", AXES, args);
    let ops = [
        ("and", SetOp::And),
        ("or", SetOp::Or),
        ("andnot", SetOp::AndNot),
        ("xor", SetOp::Xor),
    ];
    let set_paths = [
        ("auto", SetOpPath::Auto),
        ("lookback", SetOpPath::Lookback),
        ("csw", SetOpPath::CountScanWrite),
        ("count_scan_write", SetOpPath::CountScanWrite),
    ];
    let mut tunings: Vec<Option<MergeTuning>> = o
        .tunings("tuning")
        .into_iter()
        .map(|(workgroup_size, items_per_thread, _)| {
            Some(MergeTuning {
                workgroup_size,
                items_per_thread,
                lookback_spins: 0,
            })
        })
        .collect();
    if o.text("tuning").is_empty() {
        tunings.push(None);
    }
    Options {
        sizes: o.list("sizes"),
        set_sizes: o.list("set-sizes"),
        sort_sizes: o.list("sort-sizes"),
        reps: o.get("reps", 1usize).max(1),
        types: o.names("types"),
        ops: o.choices("ops", &ops),
        set_paths: o.choices("set-paths", &set_paths),
        tunings,
        pass_times: o.flag("pass-times"),
    }
}

/// The integer hash of bench/cuda/merge_bench.cu (a bijection on u32).
fn mix32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// Sorted unique run `run` (0 or 1) of `n` u32 keys (see the module docs).
fn sorted_run(n: usize, run: u32, seed: u32) -> Vec<u32> {
    (0..n as u32)
        .map(|i| 2 * i + (mix32((i * 2 + run).wrapping_add(seed)) & 1))
        .collect()
}

fn tuning_text(t: &Option<MergeTuning>) -> String {
    t.map_or("default".into(), |t| {
        format!("{}x{}", t.workgroup_size, t.items_per_thread)
    })
}

/// What every case of the run shares: the context, the timer, the yardstick, the options and
/// the buffers (A keys, A values, B keys, B values, one run each, and the outputs of both runs,
/// allocated once and reused for every case).
struct Run<'a> {
    ctx: &'a Context,
    timer: Timer<'a>,
    yard: &'static Yardstick,
    options: Options,
    reps: u32,
    in_buf: GpuBuffer,
    out_buf: GpuBuffer,
}

impl Run<'_> {
    /// A row of the table and its record; exits on a wrong result.
    #[allow(clippy::too_many_arguments)]
    fn row(
        &self,
        algo: &str,
        tuning: &Option<MergeTuning>,
        n: u64,
        label: &str,
        ms: f64,
        bytes: f64,
        ok: bool,
    ) {
        let gbs = bytes / (ms * 1e-3) / 1e9;
        report::line(&format!(
            "| {algo} | {} | {label} | {ms:.4} | {:.1} | {gbs:.0} | {:.0}% | {} |",
            tuning_text(tuning),
            rate(n, ms),
            100.0 * gbs / self.yard.gbs,
            if ok { "yes" } else { "NO" }
        ));
        let suffix = tuning.map_or(String::new(), |_| format!("_{}", tuning_text(tuning)));
        let extra = format!("{bytes:.0}");
        report::result(algo, &format!("vkalgo{suffix}"), n, ms, rate(n, ms), &extra);
        if !ok {
            eprintln!("MISMATCH: {algo} {label}");
            std::process::exit(1);
        }
    }
}

/// Runs the merge benchmark with the command-line arguments after `merge`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let options = parse_options(ctx, args);
    let timer = Timer::new(ctx)?;
    let max_run = 1u64
        << options
            .sizes
            .iter()
            .chain(&options.set_sizes)
            .chain(&options.sort_sizes)
            .copied()
            .max()
            .unwrap_or(16);
    // The yardstick first (it allocates its buffers before the algorithm's), then the merge's
    // buffers.
    let yard = yardstick(ctx, &timer)?;
    let run_bytes = max_run * 4;
    let in_buf = GpuBuffer::new(ctx, 4 * run_bytes, MemoryLocation::GpuOnly, "bench in")?;
    let out_buf = GpuBuffer::new(ctx, 4 * run_bytes, MemoryLocation::GpuOnly, "bench out")?;
    yard.check_buffers(
        ctx,
        &timer,
        "merge",
        2 * max_run,
        &in_buf.sub_range(0, 2 * run_bytes),
        &out_buf.sub_range(0, 2 * run_bytes),
    )?;
    report::table(
        "merge, set operations on sorted runs, merge sort (u32)",
        &[
            "algorithm",
            "tuning",
            "A + B",
            "ms",
            "G elements/s",
            "GB/s",
            "% of copy",
            "verified",
        ],
    );
    let reps = options.reps.min(MAX_BATCH as usize) as u32;
    let r = Run {
        ctx,
        timer,
        yard,
        options,
        reps,
        in_buf,
        out_buf,
    };
    for &log2 in &r.options.sizes {
        merges(&r, log2)?;
    }
    for &log2 in &r.options.set_sizes {
        set_ops(&r, log2)?;
    }
    for &log2 in &r.options.sort_sizes {
        sorts(&r, log2)?;
    }
    Ok(())
}
