//! Prefix-scan benchmark: `vkalgo-bench scan [--sizes 20,24,28] [--reps 20] [--tuning 256x8,512x8]
//! [--spins N,..] [--paths lookback,rts,small,auto]` (a `+z` path, e.g. `auto+z`: the plan keeps
//! its scratch zeroed, so no clear is recorded) [--fixed-input].
//!
//! Each timed repetition scans fresh random input that a compute shader wrote just before it
//! (outside the timed region), as bench/cuda/cub_bench.cu does for CUB, so both start with the
//! input in the same cache state. `--fixed-input` scans one uploaded input again and again
//! instead (what this benchmark did before 2026-11-23: from 2^23 the input is then no longer
//! in L2 when a repetition starts, while CUB's freshly written input partly is).

use std::time::Instant;
use vkalgo::ash::vk;
use vkalgo::scan::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, MemoryLocation, Result, ScanArgs, ScanDesc, ScanOp, ScanPath,
    ScanTuning,
};
use vkalgo_bench::harness::{
    download, median, parse_tunings, random_u32, upload, yardstick, Timer, MAX_BATCH,
};
use vkalgo_bench::harness::{random_values, RandomFill};

struct Options {
    sizes: Vec<u32>,
    reps: usize,
    tunings: Vec<Option<ScanTuning>>,
    /// Paths, each with "the plan keeps its scratch zeroed" (`+z` on the command line).
    paths: Vec<(ScanPath, bool)>,
    spins: Vec<u32>,
    /// Scan one uploaded input every repetition instead of fresh input.
    fixed_input: bool,
}

fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let gpu = !ctx.is_cpu_device();
    let mut options = Options {
        sizes: if gpu {
            vec![16, 20, 24, 28]
        } else {
            vec![16, 20, 22]
        },
        reps: if gpu { 20 } else { 5 },
        tunings: vec![None],
        paths: vec![(ScanPath::Lookback, false), (ScanPath::ReduceThenScan, false)],
        spins: vec![0],
        fixed_input: false,
    };
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        if args[i] == "--fixed-input" {
            options.fixed_input = true;
            i += 1;
            continue;
        }
        match args[i].as_str() {
            "--sizes" => options.sizes = value.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
            "--reps" => options.reps = value.parse().unwrap_or(options.reps).max(1),
            "--tuning" => {
                options.tunings = parse_tunings(&value)
                    .into_iter()
                    .map(|(workgroup_size, vecs_per_thread)| {
                        Some(ScanTuning {
                            workgroup_size,
                            vecs_per_thread,
                            lookback_spins: 0,
                        })
                    })
                    .collect()
            }
            "--spins" => options.spins = value.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
            "--paths" => {
                options.paths = value
                    .split(',')
                    .filter_map(|p| {
                        let (name, kept) = p.strip_suffix("+z").map_or((p, false), |n| (n, true));
                        let path = match name {
                            "lookback" => ScanPath::Lookback,
                            "rts" | "reduce_then_scan" => ScanPath::ReduceThenScan,
                            "small" => ScanPath::Small,
                            "auto" => ScanPath::Auto,
                            _ => return None,
                        };
                        Some((path, kept))
                    })
                    .collect()
            }
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    options
}

/// Runs the scan benchmark with the command-line arguments after `scan`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let options = parse_options(ctx, args);
    let p = ctx.profile();
    let timer = Timer::new(ctx)?;
    let yard = yardstick(ctx, &timer)?;
    let copy_gbs = yard.gbs;
    // The scan's buffers are allocated once and reused for every size (as an engine would).
    let max_n = 1u64 << options.sizes.iter().copied().max().unwrap_or(20);
    let buffer_bytes = (max_n * 4).max(16);
    let in_buf = GpuBuffer::new(ctx, buffer_bytes, MemoryLocation::GpuOnly, "bench in")?;
    let out_buf = GpuBuffer::new(ctx, buffer_bytes, MemoryLocation::GpuOnly, "bench out")?;
    let fill = RandomFill::new(ctx)?;
    let mut batch_seed = 0u32;

    println!(
        "\nscan_exclusive_u32 (bytes moved per element: 8; input: {})",
        if options.fixed_input {
            "one upload, scanned every repetition"
        } else {
            "fresh random values written before each repetition"
        }
    );
    println!("| path | tuning | N | ms | G elements/s | GB/s | % of copy | scratch bytes | verified |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut rows = Vec::new();
    for &log2 in &options.sizes {
        let n = 1usize << log2;
        let input = random_u32(n, log2 as u64 * 1000 + 1);
        let fixed_expected = reference::scan_u32(&input, ScanOp::Exclusive);
        let (scan_in, scan_out) = (
            in_buf.sub_range(0, n as u64 * 4),
            out_buf.sub_range(0, n as u64 * 4),
        );
        upload(ctx, &in_buf, &input)?;
        yard.check_buffers(ctx, &timer, "scan", n as u64, &scan_in, &scan_out)?;
        let tunings: Vec<Option<ScanTuning>> = options
            .tunings
            .iter()
            .flat_map(|t| {
                options.spins.iter().map(move |&spins| match (t, spins) {
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
            .collect();
        for &(path, kept) in &options.paths {
            for &tuning in &tunings {
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
                        println!("| {path:?} | - | 2^{log2} | skipped: {e} |");
                        continue;
                    }
                };
                let scratch = GpuBuffer::new(
                    ctx,
                    plan.memory_requirements().scratch.size,
                    MemoryLocation::GpuOnly,
                    "bench scratch",
                )?;
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
                let reps = options.reps.min(MAX_BATCH as usize) as u32;
                let fixed = options.fixed_input;
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
                yard.warm(ctx, &timer)?;
                batch_seed += 1;
                let warm_seed = batch_seed;
                timer.time_each(
                    3,
                    |cmd, rep| refill(cmd, RandomFill::seed(warm_seed, rep)),
                    |cmd, _| unsafe { plan.record(cmd, &args) },
                )?;
                batch_seed += 1;
                let seed = batch_seed;
                let times = timer.time_each(
                    reps,
                    |cmd, rep| refill(cmd, RandomFill::seed(seed, rep)),
                    |cmd, _| unsafe { plan.record(cmd, &args) },
                )?;
                let got: Vec<u32> = download(ctx, &out_buf, n)?;
                let verified = if fixed {
                    got == fixed_expected
                } else {
                    let last = random_values(n, RandomFill::seed(seed, reps - 1));
                    got == reference::scan_u32(&last, ScanOp::Exclusive)
                };
                let ms = median(times);
                let gelems = n as f64 / (ms * 1e-3) / 1e9;
                let gbs = 8.0 * n as f64 / (ms * 1e-3) / 1e9;
                let variant = match path {
                    ScanPath::Auto => "auto",
                    ScanPath::Small => "small",
                    _ if plan.path() == ScanPath::Lookback => "lookback",
                    _ => "reduce_then_scan",
                };
                let variant = if kept {
                    format!("{variant}_kept_zeroed")
                } else {
                    variant.to_string()
                };
                let tuning_text = desc.tuning.map_or("default".to_string(), |t| {
                    if t.lookback_spins == 0 {
                        format!("{}x{}", t.workgroup_size, t.vecs_per_thread)
                    } else {
                        format!("{}x{}s{}", t.workgroup_size, t.vecs_per_thread, t.lookback_spins)
                    }
                });
                rows.push(format!(
                    "| {variant} | {tuning_text} | 2^{log2} | {ms:.4} | {gelems:.1} | {gbs:.0} | {:.0}% | {} | {} |",
                    100.0 * gbs / copy_gbs,
                    plan.memory_requirements().scratch.size,
                    if verified { "yes" } else { "NO" }
                ));
                println!("{}", rows.last().unwrap());
                println!(
                    "RESULT\tvkalgo\tscan_exclusive_u32\t{variant}{}\t{n}\t{ms:.6}\t{gelems:.2}\t{}",
                    desc.tuning.map_or(String::new(), |_| format!("_{tuning_text}")),
                    plan.memory_requirements().scratch.size
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
    println!("\nsummary: device {}, copy {copy_gbs:.0} GB/s", p.device_name);
    println!("| path | tuning | N | ms | G elements/s | GB/s | % of copy | scratch bytes | verified |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        println!("{r}");
    }
    Ok(())
}
