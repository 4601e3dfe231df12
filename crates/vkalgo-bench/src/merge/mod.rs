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

use vkalgo::{Context, MergeTuning, Result, SetOp, SetOpPath};
use vkalgo_bench::harness::report::{self, Table};
use vkalgo_bench::harness::{axis, flag, mix32, sized, Axis, Bench, MAX_BATCH};

mod cases;
mod sorts;

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

/// The `--ops` names.
const OPS: &[(&str, SetOp)] = &[
    ("and", SetOp::And),
    ("or", SetOp::Or),
    ("andnot", SetOp::AndNot),
    ("xor", SetOp::Xor),
];

/// The `--set-paths` names.
const SET_PATHS: &[(&str, SetOpPath)] = &[
    ("auto", SetOpPath::Auto),
    ("lookback", SetOpPath::Lookback),
    ("csw", SetOpPath::CountScanWrite),
    ("count_scan_write", SetOpPath::CountScanWrite),
];

/// The parsed options of the run.
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

/// Parses the arguments after `merge` against [`AXES`].
fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let o = vkalgo_bench::harness::Options::parse(ctx, "merge", AXES, args);
    let tunings = o.tuning_choices("tuning", |workgroup_size, items_per_thread, _| {
        Some(MergeTuning {
            workgroup_size,
            items_per_thread,
            lookback_spins: 0,
        })
    });
    Options {
        sizes: o.list("sizes"),
        set_sizes: o.list("set-sizes"),
        sort_sizes: o.list("sort-sizes"),
        reps: o.get("reps", 1usize).max(1),
        types: o.names("types"),
        ops: o.choices("ops", OPS),
        set_paths: o.choices("set-paths", SET_PATHS),
        tunings,
        pass_times: o.flag("pass-times"),
    }
}

/// Sorted unique run `run` (0 or 1) of `n` u32 keys (see the module docs; the integer hash is
/// bench/cuda/merge_bench.cu's).
fn sorted_run(n: usize, run: u32, seed: u32) -> Vec<u32> {
    (0..n as u32)
        .map(|i| 2 * i + (mix32((i * 2 + run).wrapping_add(seed)) & 1))
        .collect()
}

/// The tuning a row reports (`default`: the plan's own).
fn tuning_text(t: &Option<MergeTuning>) -> String {
    t.map_or("default".into(), |t| {
        format!("{}x{}", t.workgroup_size, t.items_per_thread)
    })
}

/// What every case of the run shares: the session, the options and the buffers (A keys, A
/// values, B keys, B values, one run each, and the outputs of both runs, allocated once and
/// reused for every case).
struct Run<'a> {
    b: Bench<'a>,
    options: Options,
    reps: usize,
    in_buf: vkalgo::GpuBuffer,
    out_buf: vkalgo::GpuBuffer,
    table: Table,
}

/// Runs the merge benchmark with the command-line arguments after `merge`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let options = parse_options(ctx, args);
    let sizes = options
        .sizes
        .iter()
        .chain(&options.set_sizes)
        .chain(&options.sort_sizes);
    let max_run = 1u64 << sizes.copied().max().unwrap_or(16);
    // The yardstick first (it allocates its buffers before the algorithm's), then the merge's
    // buffers.
    let b = Bench::new(ctx)?;
    let run_bytes = max_run * 4;
    let in_buf = b.buffer(4 * run_bytes, "bench in")?;
    let out_buf = b.buffer(4 * run_bytes, "bench out")?;
    let (from, to) = (
        in_buf.sub_range(0, 2 * run_bytes),
        out_buf.sub_range(0, 2 * run_bytes),
    );
    b.check_buffers("merge", 2 * max_run, &from, &to)?;
    let table = report::table_of(
        "merge, set operations on sorted runs, merge sort (u32)",
        "algorithm | tuning | A + B | ms | G elements/s | GB/s | % of copy | verified",
    );
    let reps = options.reps.min(MAX_BATCH as usize);
    let r = Run {
        b,
        options,
        reps,
        in_buf,
        out_buf,
        table,
    };
    for &log2 in &r.options.sizes {
        r.merges(log2)?;
    }
    for &log2 in &r.options.set_sizes {
        r.set_ops(log2)?;
    }
    for &log2 in &r.options.sort_sizes {
        r.sorts(log2)?;
    }
    Ok(())
}
