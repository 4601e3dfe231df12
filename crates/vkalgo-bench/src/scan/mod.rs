//! Prefix-scan benchmark: `vkalgo-bench scan` (options: `vkalgo-bench scan --help`). Paths with
//! `+z` (e.g. `auto+z`): the plan keeps its scratch zeroed, so no clear is recorded. The u32
//! sums first, then the typed rows of `--types` ([`typed`]: other key types and operations,
//! beside bench/cuda/scan_typed_bench.cu).
//!
//! Each timed repetition scans fresh random input that a compute shader wrote just before it
//! (outside the timed region), as bench/cuda/cub_bench.cu does for CUB, so both start with the
//! input in the same cache state. `--fixed-input` scans one uploaded input again and again
//! instead (from 2^23 the input is then no longer in L2 when a repetition starts, while CUB's
//! freshly written input partly is).

use vkalgo::{Context, Result, ScanDesc, ScanPath, ScanPlan, ScanTuning};
use vkalgo_bench::harness::report;
use vkalgo_bench::harness::{
    axis, flag, pairs, sized, Axis, Bench, FreshInput, Options, RandomFill, MAX_BATCH, STREAM_COLUMNS,
};

mod case;
mod typed;
use case::Scan;

const AXES: &[Axis] = &[
    sized("sizes", "16,20,24,28", "16,20,22", "log2 element counts"),
    sized("reps", "20", "5", "timed repetitions (median)"),
    axis(
        "tuning",
        "",
        "workgroup size x vectors per invocation, e.g. 256x8,512x8",
    ),
    axis("spins", "0", "look-back spin limits (0: the default)"),
    axis(
        "paths",
        "lookback,rts",
        "lookback, rts, small, auto; +z: scratch kept zeroed",
    ),
    flag(
        "fixed-input",
        "scan one uploaded input every repetition instead of fresh input",
    ),
    axis(
        "types",
        "sum_u64,sum_f32,max_i32,min_u64",
        "typed rows: sum_u64, sum_f32, max_i32, min_u64 (`none`: the u32 sums only)",
    ),
];

const PATHS: &[(&str, ScanPath)] = &[
    ("lookback", ScanPath::Lookback),
    ("rts", ScanPath::ReduceThenScan),
    ("reduce_then_scan", ScanPath::ReduceThenScan),
    ("small", ScanPath::Small),
    ("auto", ScanPath::Auto),
];

/// The tunings of the run: each `--tuning` entry with each spin limit.
fn tunings(o: &Options) -> Vec<Option<ScanTuning>> {
    let mut given = o.tuning_choices("tuning", |workgroup_size, vecs_per_thread, _| {
        Some(ScanTuning {
            workgroup_size,
            vecs_per_thread,
            lookback_spins: 0,
        })
    });
    if given.is_empty() {
        given.push(None);
    }
    let spins: Vec<u32> = o.list("spins");
    pairs(&given, &spins)
        .map(|(t, spins)| match (t, spins) {
            (t, 0) => t,
            (Some(t), spins) => Some(ScanTuning {
                lookback_spins: spins,
                ..t
            }),
            (None, spins) => Some(ScanTuning {
                workgroup_size: 256,
                vecs_per_thread: 4,
                lookback_spins: spins,
            }),
        })
        .collect()
}

/// The `--paths` entries: each path, and whether its plan keeps its scratch zeroed (`+z`).
fn paths(o: &Options) -> Vec<(ScanPath, bool)> {
    o.names("paths")
        .iter()
        .filter_map(|p| {
            let (name, kept) = p.strip_suffix("+z").map_or((p.as_str(), false), |n| (n, true));
            PATHS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|&(_, path)| (path, kept))
        })
        .collect()
}

/// The variant a row reports: the path the plan took (`_kept_zeroed`: `+z`).
fn variant(desc: &ScanDesc, plan: &ScanPlan) -> String {
    let variant = match desc.path {
        ScanPath::Auto => "auto",
        ScanPath::Small => "small",
        _ if plan.path() == ScanPath::Lookback => "lookback",
        _ => "reduce_then_scan",
    };
    format!(
        "{variant}{}",
        if desc.keep_scratch_zeroed {
            "_kept_zeroed"
        } else {
            ""
        }
    )
}

/// The tuning a row reports (`default`: the plan's own).
fn tuning_text(tuning: Option<ScanTuning>) -> String {
    tuning.map_or("default".to_string(), |t| {
        if t.lookback_spins == 0 {
            format!("{}x{}", t.workgroup_size, t.vecs_per_thread)
        } else {
            format!("{}x{}s{}", t.workgroup_size, t.vecs_per_thread, t.lookback_spins)
        }
    })
}

/// Runs the scan benchmark with the command-line arguments after `scan`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "scan", AXES, args);
    let sizes: Vec<u32> = o.list("sizes");
    let fixed = o.flag("fixed-input");
    let (paths, tunings) = (paths(&o), tunings(&o));
    let input_text = if fixed {
        "one upload, scanned every repetition"
    } else {
        "fresh random values written before each repetition"
    };
    let b = Bench::new(ctx)?;
    let buffer_bytes = ((1u64 << sizes.iter().copied().max().unwrap_or(20)) * 4).max(16);
    let mut scan = Scan {
        reps: o.get("reps", 1usize).clamp(1, MAX_BATCH as usize) as u32,
        fixed,
        in_buf: b.buffer(buffer_bytes, "bench in")?,
        out_buf: b.buffer(buffer_bytes, "bench out")?,
        fill: RandomFill::new(ctx)?,
        batch_seed: 0,
        table: report::table_of(
            &format!("scan_exclusive_u32 (bytes moved per element: 8; input: {input_text})"),
            "path | tuning | N | ms | G elements/s | GB/s | % of copy | scratch bytes | verified",
        ),
        b,
    };
    for &log2 in &sizes {
        scan.size(log2, &paths, &tunings)?;
    }
    let cases: Vec<_> = o
        .names("types")
        .iter()
        .filter_map(|c| typed::CASES.iter().find(|(n, _, _)| n == c).copied())
        .collect();
    if cases.is_empty() {
        return Ok(());
    }
    let reps = scan.reps;
    let b = scan.b;
    let largest = 1u64 << sizes.iter().copied().max().unwrap_or(20);
    let mut typed = typed::Typed {
        input: FreshInput::new(&b, largest * 8, reps)?,
        out_buf: b.buffer(largest * 8, "bench out")?,
        reps,
        table: report::table_of(
            "scan_exclusive typed (input: fresh full-range random values written before each repetition; \
             sum_f32: one upload of multiples of 0.5; GB/s: bytes read + written)",
            STREAM_COLUMNS,
        ),
        b,
    };
    for &log2 in &sizes {
        for &case in &cases {
            for &(path, _) in &paths {
                for &tuning in &tunings {
                    typed.case(case, log2, path, tuning)?;
                }
            }
        }
    }
    Ok(())
}
