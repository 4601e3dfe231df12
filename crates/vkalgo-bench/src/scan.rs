//! Prefix-scan benchmark: `vkalgo-bench scan` (options: `vkalgo-bench scan --help`). Paths with
//! `+z` (e.g. `auto+z`): the plan keeps its scratch zeroed, so no clear is recorded.
//!
//! Each timed repetition scans fresh random input that a compute shader wrote just before it
//! (outside the timed region), as bench/cuda/cub_bench.cu does for CUB, so both start with the
//! input in the same cache state. `--fixed-input` scans one uploaded input again and again
//! instead (from 2^23 the input is then no longer in L2 when a repetition starts, while CUB's
//! freshly written input partly is).

use std::time::Instant;
use vkalgo::ash::vk;
use vkalgo::scan::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, MemoryLocation, Result, ScanArgs, ScanDesc, ScanOp, ScanPath,
    ScanTuning,
};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{
    axis, download, flag, median, random_u32, random_values, sized, upload, yardstick, Axis, Options,
    RandomFill, Timer, MAX_BATCH,
};

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
    let mut given: Vec<Option<ScanTuning>> = o
        .tunings("tuning")
        .into_iter()
        .map(|(workgroup_size, vecs_per_thread, _)| {
            Some(ScanTuning {
                workgroup_size,
                vecs_per_thread,
                lookback_spins: 0,
            })
        })
        .collect();
    if given.is_empty() {
        given.push(None);
    }
    let spins: Vec<u32> = o.list("spins");
    given
        .iter()
        .flat_map(|t| {
            spins.iter().map(move |&spins| match (t, spins) {
                (t, 0) => *t,
                (Some(t), spins) => Some(ScanTuning {
                    lookback_spins: spins,
                    ..*t
                }),
                (None, spins) => Some(ScanTuning {
                    workgroup_size: 256,
                    vecs_per_thread: 4,
                    lookback_spins: spins,
                }),
            })
        })
        .collect()
}

/// Runs the scan benchmark with the command-line arguments after `scan`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "scan", AXES, args);
    let sizes: Vec<u32> = o.list("sizes");
    let reps = o.get("reps", 1usize).clamp(1, MAX_BATCH as usize) as u32;
    let fixed = o.flag("fixed-input");
    let paths: Vec<(ScanPath, bool)> = o
        .names("paths")
        .iter()
        .filter_map(|p| {
            let (name, kept) = p.strip_suffix("+z").map_or((p.as_str(), false), |n| (n, true));
            PATHS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|&(_, path)| (path, kept))
        })
        .collect();
    let timer = Timer::new(ctx)?;
    let yard = yardstick(ctx, &timer)?;
    // The scan's buffers are allocated once and reused for every size (as an engine would).
    let buffer_bytes = ((1u64 << sizes.iter().copied().max().unwrap_or(20)) * 4).max(16);
    let in_buf = GpuBuffer::new(ctx, buffer_bytes, MemoryLocation::GpuOnly, "bench in")?;
    let out_buf = GpuBuffer::new(ctx, buffer_bytes, MemoryLocation::GpuOnly, "bench out")?;
    let fill = RandomFill::new(ctx)?;
    let mut batch_seed = 0u32;
    let input_text = if fixed {
        "one upload, scanned every repetition"
    } else {
        "fresh random values written before each repetition"
    };
    let table = report::table(
        &format!("scan_exclusive_u32 (bytes moved per element: 8; input: {input_text})"),
        &[
            "path",
            "tuning",
            "N",
            "ms",
            "G elements/s",
            "GB/s",
            "% of copy",
            "scratch bytes",
            "verified",
        ],
    );
    for &log2 in &sizes {
        let n = 1usize << log2;
        let input = random_u32(n, log2 as u64 * 1000 + 1);
        let fixed_expected = reference::scan_u32(&input, ScanOp::Exclusive);
        let (scan_in, scan_out) = (
            in_buf.sub_range(0, n as u64 * 4),
            out_buf.sub_range(0, n as u64 * 4),
        );
        upload(ctx, &in_buf, &input)?;
        yard.check_buffers(ctx, &timer, "scan", n as u64, &scan_in, &scan_out)?;
        for &(path, kept) in &paths {
            for tuning in tunings(&o) {
                let desc = ScanDesc {
                    op: ScanOp::Exclusive,
                    path,
                    max_count: n as u64,
                    tuning,
                    keep_scratch_zeroed: kept,
                };
                let plan = match ctx.scan_plan(&desc) {
                    Ok(plan) => plan,
                    Err(e) => {
                        table.line(&format!("| {path:?} | - | 2^{log2} | skipped: {e} |"));
                        continue;
                    }
                };
                let scratch_bytes = plan.memory_requirements().scratch.size;
                let scratch = GpuBuffer::new(ctx, scratch_bytes, MemoryLocation::GpuOnly, "bench scratch")?;
                if kept {
                    // Zeroed once; every scan of the plan leaves it zeroed.
                    ctx.submit_and_wait(|cmd| unsafe {
                        ctx.device()
                            .cmd_fill_buffer(cmd, scratch.buffer(), 0, vk::WHOLE_SIZE, 0);
                        Ok(())
                    })?;
                }
                let args = ScanArgs {
                    input: scan_in,
                    output: scan_out,
                    scratch: scratch.range(),
                    count: ElementCount::Direct(n as u64),
                };
                let wall = Instant::now();
                if fixed {
                    // The fresh-input runs overwrite the uploaded input.
                    upload(ctx, &in_buf, &input)?;
                }
                let refill = |cmd: vk::CommandBuffer, seed: u32| {
                    if !fixed {
                        unsafe { fill.record(cmd, in_buf.address(), n as u64, seed) };
                    }
                    Ok(())
                };
                // The yardstick's warm-up, 3 repetitions, then the timed ones.
                yard.warm(ctx, &timer)?;
                for (count, timed) in [(3, false), (reps, true)] {
                    batch_seed += 1;
                    let seed = batch_seed;
                    let times = timer.time_each(
                        count,
                        |cmd, rep| refill(cmd, RandomFill::seed(seed, rep)),
                        |cmd, _| unsafe { plan.record(cmd, &args) },
                    )?;
                    if !timed {
                        continue;
                    }
                    let got: Vec<u32> = download(ctx, &out_buf, n)?;
                    let verified = if fixed {
                        got == fixed_expected
                    } else {
                        let last = random_values(n, RandomFill::seed(seed, reps - 1));
                        got == reference::scan_u32(&last, ScanOp::Exclusive)
                    };
                    let ms = median(times);
                    let gbs = 8.0 * n as f64 / (ms * 1e-3) / 1e9;
                    let variant = match path {
                        ScanPath::Auto => "auto",
                        ScanPath::Small => "small",
                        _ if plan.path() == ScanPath::Lookback => "lookback",
                        _ => "reduce_then_scan",
                    };
                    let variant = format!("{variant}{}", if kept { "_kept_zeroed" } else { "" });
                    let tuning_text = desc.tuning.map_or("default".to_string(), |t| {
                        if t.lookback_spins == 0 {
                            format!("{}x{}", t.workgroup_size, t.vecs_per_thread)
                        } else {
                            format!("{}x{}s{}", t.workgroup_size, t.vecs_per_thread, t.lookback_spins)
                        }
                    });
                    table.row(&[
                        variant.clone(),
                        tuning_text.clone(),
                        format!("2^{log2}"),
                        format!("{ms:.4}"),
                        format!("{:.1}", rate(n as u64, ms)),
                        format!("{gbs:.0}"),
                        format!("{:.0}%", 100.0 * gbs / yard.gbs),
                        scratch_bytes.to_string(),
                        if verified { "yes" } else { "NO" }.to_string(),
                    ]);
                    let suffix = desc.tuning.map_or(String::new(), |_| format!("_{tuning_text}"));
                    let extra = scratch_bytes.to_string();
                    report::result(
                        "scan_exclusive_u32",
                        &format!("{variant}{suffix}"),
                        n as u64,
                        ms,
                        rate(n as u64, ms),
                        &extra,
                    );
                    if !verified {
                        eprintln!(
                            "MISMATCH: {variant} {tuning_text} n={n} (wall {:?})",
                            wall.elapsed()
                        );
                        std::process::exit(1);
                    }
                }
            }
        }
    }
    Ok(())
}
