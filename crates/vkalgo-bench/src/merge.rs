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
use vkalgo_bench::harness::{
    axis, download, flag, median, print_pass_times, random_u32, sized, upload, yardstick, Axis, Timer,
    MAX_BATCH,
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
    // buffers: A keys, A values, B keys, B values (one run each) and the outputs of both runs,
    // allocated once and reused for every case.
    let yard = yardstick(ctx, &timer)?;
    let copy_gbs = yard.gbs;
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
    let table = report::table(
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
    let row =
        |algo: &str, tuning: &Option<MergeTuning>, n: u64, label: &str, ms: f64, bytes: f64, ok: bool| {
            let gbs = bytes / (ms * 1e-3) / 1e9;
            table.row(&[
                algo.to_string(),
                tuning_text(tuning),
                label.to_string(),
                format!("{ms:.4}"),
                format!("{:.1}", rate(n, ms)),
                format!("{gbs:.0}"),
                format!("{:.0}%", 100.0 * gbs / copy_gbs),
                if ok { "yes" } else { "NO" }.to_string(),
            ]);
            let suffix = tuning.map_or(String::new(), |_| format!("_{}", tuning_text(tuning)));
            report::result(
                algo,
                &format!("vkalgo{suffix}"),
                n,
                ms,
                rate(n, ms),
                &format!("{bytes:.0}"),
            );
            if !ok {
                eprintln!("MISMATCH: {algo} {label}");
                std::process::exit(1);
            }
        };
    let reps = options.reps.min(MAX_BATCH as usize) as u32;

    for &log2 in &options.sizes {
        let n = 1usize << log2;
        let a = sorted_run(n, 0, log2);
        let b = sorted_run(n, 1, log2);
        let av: Vec<u32> = (0..n as u32).collect();
        let bv: Vec<u32> = (0..n as u32).map(|j| j | 1 << 31).collect();
        let nb = n as u64 * 4;
        upload(
            ctx,
            &in_buf,
            &[a.clone(), av.clone(), b.clone(), bv.clone()].concat(),
        )?;
        let (want_keys, want_values) = reference::merge(&a, Some(&av), &b, Some(&bv), false);
        let want_values = want_values.unwrap();
        for ty in &options.types {
            let pairs = match ty.as_str() {
                "keys" => false,
                "pairs" => true,
                other => {
                    eprintln!("unknown type {other} (keys, pairs)");
                    continue;
                }
            };
            let algo = if pairs {
                "merge_pairs_u32_u32"
            } else {
                "merge_keys_u32"
            };
            for tuning in &options.tunings {
                let desc = MergeDesc {
                    tuning: *tuning,
                    ..MergeDesc::new(
                        KeyType::U32,
                        if pairs { ValueType::U32 } else { ValueType::None },
                        n as u64,
                        n as u64,
                    )
                };
                let plan = match ctx.merge_plan(&desc) {
                    Ok(p) => p,
                    Err(e) => {
                        table.line(&format!("| {algo} | {} | skipped: {e} |", tuning_text(tuning)));
                        continue;
                    }
                };
                let scratch = GpuBuffer::new(
                    ctx,
                    plan.memory_requirements().scratch.size,
                    MemoryLocation::GpuOnly,
                    "bench scratch",
                )?;
                let args = MergeArgs {
                    a_keys: in_buf.sub_range(0, nb),
                    a_values: pairs.then(|| in_buf.sub_range(nb, nb)),
                    b_keys: in_buf.sub_range(2 * nb, nb),
                    b_values: pairs.then(|| in_buf.sub_range(3 * nb, nb)),
                    out_keys: out_buf.sub_range(0, 2 * nb),
                    out_values: pairs.then(|| out_buf.sub_range(2 * nb, 2 * nb)),
                    scratch: scratch.range(),
                    a_count: ElementCount::Direct(n as u64),
                    b_count: ElementCount::Direct(n as u64),
                };
                timer.time_batch(3, |cmd, _| unsafe { plan.record(cmd, &args) })?;
                yard.warm(ctx, &timer)?;
                let ms = median(timer.time_batch(reps, |cmd, _| unsafe { plan.record(cmd, &args) })?);
                let got: Vec<u32> = download(ctx, &out_buf, 2 * n)?;
                let mut ok = got == want_keys;
                if pairs {
                    let all: Vec<u32> = download(ctx, &out_buf, 4 * n)?;
                    ok &= all[2 * n..] == want_values[..];
                }
                let bytes = (2 * n) as f64 * if pairs { 16.0 } else { 8.0 };
                row(
                    algo,
                    tuning,
                    2 * n as u64,
                    &format!("2^{log2} + 2^{log2}"),
                    ms,
                    bytes,
                    ok,
                );
                if options.pass_times {
                    print_pass_times(ctx, &timer, |cmd| unsafe { plan.record(cmd, &args) })?;
                }
            }
        }
    }

    for &log2 in &options.set_sizes {
        let n = 1usize << log2;
        let a = sorted_run(n, 0, log2);
        let b = sorted_run(n, 1, log2);
        let nb = n as u64 * 4;
        upload(ctx, &in_buf, &[a.clone(), b.clone()].concat())?;
        for &op in &options.ops {
            let algo = format!("set_{}_u32", format!("{op:?}").to_lowercase());
            let want = reference::set_op(op, &a, &b);
            for (tuning, &path) in options
                .tunings
                .iter()
                .flat_map(|t| options.set_paths.iter().map(move |p| (t, p)))
            {
                let plan = ctx.set_op_plan(&SetOpDesc {
                    key_type: KeyType::U32,
                    op,
                    max_a: n as u64,
                    max_b: n as u64,
                    path,
                    tuning: *tuning,
                })?;
                let algo = match plan.path() {
                    SetOpPath::Lookback => algo.clone(),
                    _ => format!("{algo}_csw"),
                };
                let scratch = GpuBuffer::new(
                    ctx,
                    plan.memory_requirements().scratch.size,
                    MemoryLocation::GpuOnly,
                    "bench scratch",
                )?;
                let args = SetOpArgs {
                    a: in_buf.sub_range(0, nb),
                    b: in_buf.sub_range(nb, nb),
                    out_count: out_buf.sub_range(0, 4),
                    out: out_buf.sub_range(16, 2 * nb),
                    scratch: scratch.range(),
                    a_count: ElementCount::Direct(n as u64),
                    b_count: ElementCount::Direct(n as u64),
                };
                timer.time_batch(3, |cmd, _| unsafe { plan.record(cmd, &args) })?;
                yard.warm(ctx, &timer)?;
                let ms = median(timer.time_batch(reps, |cmd, _| unsafe { plan.record(cmd, &args) })?);
                let got: Vec<u32> = download(ctx, &out_buf, 4 + want.len())?;
                let ok = got[0] as usize == want.len() && got[4..] == want[..];
                let bytes = (2 * n + want.len()) as f64 * 4.0;
                row(
                    &algo,
                    tuning,
                    2 * n as u64,
                    &format!("2^{log2} + 2^{log2}"),
                    ms,
                    bytes,
                    ok,
                );
                if options.pass_times {
                    print_pass_times(ctx, &timer, |cmd| unsafe { plan.record(cmd, &args) })?;
                }
            }
        }
    }

    for &log2 in &options.sort_sizes {
        let n = 1usize << log2;
        let keys = random_u32(n, log2 as u64 + 77);
        let nb = n as u64 * 4;
        upload(ctx, &in_buf, &keys)?;
        let mut want = keys.clone();
        want.sort_unstable();
        let input = in_buf.sub_range(0, nb);
        let work = out_buf.sub_range(0, nb);
        let alt = out_buf.sub_range(nb, nb);
        for tuning in &options.tunings {
            let plan = ctx.merge_sort_plan(&MergeSortDesc {
                tuning: *tuning,
                ..MergeSortDesc::new(KeyType::U32, ValueType::None, n as u64)
            })?;
            let scratch = GpuBuffer::new(
                ctx,
                plan.memory_requirements().scratch.size,
                MemoryLocation::GpuOnly,
                "bench scratch",
            )?;
            let args = MergeSortArgs {
                keys: work,
                values: None,
                keys_alt: alt,
                values_alt: None,
                scratch: scratch.range(),
                count: n as u64,
            };
            let mut location = vkalgo::SortResult::InPlace;
            yard.warm(ctx, &timer)?;
            let times = timer.time_each(
                reps,
                |cmd, _| unsafe { ctx.record_compute_copy(cmd, &input, &work) },
                |cmd, _| unsafe {
                    location = plan.record(cmd, &args)?;
                    Ok(())
                },
            )?;
            let ms = median(times);
            let offset = if location == vkalgo::SortResult::Alternate {
                n
            } else {
                0
            };
            let got: Vec<u32> = download(ctx, &out_buf, offset + n)?;
            let ok = got[offset..] == want[..];
            let passes = 1 + plan.rounds(n as u64);
            row(
                "merge_sort_u32",
                tuning,
                n as u64,
                &format!("2^{log2} ({passes} passes)"),
                ms,
                n as f64 * 8.0 * passes as f64,
                ok,
            );
        }
        // The radix sort of the same keys (default tuning and path).
        let plan = ctx.sort_plan(&SortDesc::new(KeyType::U32, ValueType::None, n as u64))?;
        let scratch = GpuBuffer::new(
            ctx,
            plan.memory_requirements().scratch.size.max(16),
            MemoryLocation::GpuOnly,
            "bench scratch",
        )?;
        let args = SortArgs {
            keys: work,
            values: None,
            keys_alt: alt,
            values_alt: None,
            scratch: scratch.range(),
            count: ElementCount::Direct(n as u64),
        };
        let mut location = vkalgo::SortResult::InPlace;
        yard.warm(ctx, &timer)?;
        let times = timer.time_each(
            reps,
            |cmd, _| unsafe { ctx.record_compute_copy(cmd, &input, &work) },
            |cmd, _| unsafe {
                location = plan.record(cmd, &args)?;
                Ok(())
            },
        )?;
        let ms = median(times);
        let offset = if location == vkalgo::SortResult::Alternate {
            n
        } else {
            0
        };
        let got: Vec<u32> = download(ctx, &out_buf, offset + n)?;
        row(
            "radix_sort_u32",
            &None,
            n as u64,
            &format!("2^{log2} ({} passes)", plan.pass_count()),
            ms,
            n as f64 * 8.0 * plan.pass_count() as f64,
            got[offset..] == want[..],
        );
    }

    Ok(())
}
