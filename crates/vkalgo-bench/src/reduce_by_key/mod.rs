//! Reduce-by-key benchmark: `vkalgo-bench reduce_by_key` (options: `vkalgo-bench reduce_by_key
//! --help`), the rows of bench/cuda/reduce_by_key_bench.cu (CUB's DeviceReduce::ReduceByKey and
//! DeviceRunLengthEncode::Encode) under the same names: `reduce_by_key_u32_u32_sum` and
//! `run_length_encode_u32`, variants `run1`, `run8`, `run64` (the average run length).
//!
//! The input is sorted u32 keys in runs of lengths 1..=2L-1 (mean L), with u32 values, made by
//! the same integer hash as the CUB side and uploaded once; the last repetition's runs are
//! checked against the CPU reference.

use vkalgo::reduce_by_key::{reference, REDUCE_BY_KEY_FALLBACKS_OFFSET};
use vkalgo::{
    Context, ElementCount, GpuBuffer, KeyType, ReduceByKeyArgs, ReduceByKeyDesc, ReduceByKeyPath,
    ReduceByKeyTuning, ReduceOp, Result, ValueType,
};
use vkalgo_bench::harness::report::{self, Table};
use vkalgo_bench::harness::{
    axis, download, flag, median, print_pass_times, sized, upload, Axis, Bench, Options, StreamRow, Timing,
    MAX_BATCH, STREAM_COLUMNS,
};

const AXES: &[Axis] = &[
    sized("sizes", "16,20,24,28", "16,20", "log2 element counts"),
    sized("reps", "20", "5", "timed repetitions (median)"),
    axis("runs", "1,8,64", "average run lengths"),
    axis(
        "cases",
        "rbk,rle",
        "rbk: u32 keys, u32 values, sum; rle: run-length encoding of u32 keys",
    ),
    axis(
        "tuning",
        "",
        "workgroup size x items per invocation, with /spins before the look-back's fallback, e.g. 256x8 or 256x8/4096 (the plan's own: none given)",
    ),
    axis(
        "paths",
        "auto",
        "auto|lookback|reduce_then_scan: the plan's path (auto: the device profile's choice)",
    ),
    axis(
        "scratch",
        "cleared",
        "cleared (a clear before each call) | kept (the plan's scratch kept zeroed)",
    ),
    flag("pass-times", "also each dispatch's GPU time under its row"),
];

/// The paths of the `paths` option by name.
const PATHS: &[(&str, ReduceByKeyPath)] = &[
    ("auto", ReduceByKeyPath::Auto),
    ("lookback", ReduceByKeyPath::Lookback),
    ("reduce_then_scan", ReduceByKeyPath::ReduceThenScan),
];

/// The integer hash both sides make their data with (bench/cuda/reduce_by_key_bench.cu).
fn hash(x: u32) -> u32 {
    let mut h = x.wrapping_mul(0x9E37_79B1);
    h ^= h >> 16;
    h = h.wrapping_mul(0x85EB_CA6B);
    h ^ (h >> 13)
}

/// `n` sorted keys in runs of mean length `mean`, and `n` values.
fn data(n: usize, mean: u32) -> (Vec<u32>, Vec<u32>) {
    let mut keys = Vec::with_capacity(n);
    let (mut key, mut run) = (0u32, 0u32);
    while keys.len() < n {
        let len = 1 + hash(run) % (2 * mean - 1);
        key = key.wrapping_add(1 + hash(run ^ 0xA5A5_A5A5) % 7);
        for _ in 0..(len as usize).min(n - keys.len()) {
            keys.push(key);
        }
        run += 1;
    }
    let values = (0..n as u32).map(|i| hash(i ^ 0x5BD1_E995)).collect();
    (keys, values)
}

/// The benchmark's buffers, allocated once at the largest size.
struct Buffers {
    keys: GpuBuffer,
    values: GpuBuffer,
    keys_out: GpuBuffer,
    values_out: GpuBuffer,
    run_count: GpuBuffer,
}

/// How every case runs: timed repetitions, and whether each dispatch's time follows its row.
#[derive(Clone, Copy)]
struct Runs {
    reps: u32,
    pass_times: bool,
}

/// One case at one size and run length: plan, warm-ups, timed repetitions, the check, the row
/// and the `RESULT` record (exits on a wrong result).
#[allow(clippy::too_many_arguments)]
fn case(
    b: &Bench,
    bufs: &Buffers,
    table: &mut Table,
    rle: bool,
    log2: u32,
    mean: u32,
    runs: Runs,
    tuning: Option<ReduceByKeyTuning>,
    path: ReduceByKeyPath,
    kept: bool,
) -> Result<()> {
    let (ctx, n) = (b.ctx, 1u64 << log2);
    let value_type = if rle { ValueType::None } else { ValueType::U32 };
    let desc = ReduceByKeyDesc {
        tuning,
        path,
        keep_scratch_zeroed: kept,
        ..ReduceByKeyDesc::new(KeyType::U32, value_type, ReduceOp::Sum, n)
    };
    let name = if rle {
        "run_length_encode_u32"
    } else {
        "reduce_by_key_u32_u32_sum"
    };
    let cells = [name.to_string(), "-".into(), format!("2^{log2}")];
    let Some(plan) = table.or_skip(ctx.reduce_by_key_plan(&desc), &cells) else {
        return Ok(());
    };
    let (keys, values) = data(n as usize, mean);
    upload(ctx, &bufs.keys, &keys)?;
    upload(ctx, &bufs.values, &values)?;
    // Kept: zeroed once; every call of the plan leaves it zeroed.
    let scratch_bytes = plan.memory_requirements().scratch.size;
    let scratch = if kept {
        b.zeroed_buffer(scratch_bytes, "bench scratch")?
    } else {
        b.buffer(scratch_bytes, "bench scratch")?
    };
    let args = ReduceByKeyArgs {
        keys_in: bufs.keys.sub_range(0, n * 4),
        values_in: (!rle).then(|| bufs.values.sub_range(0, n * 4)),
        keys_out: bufs.keys_out.sub_range(0, n * 4),
        values_out: bufs.values_out.sub_range(0, n * 4),
        run_count: bufs.run_count.sub_range(0, 4),
        scratch: scratch.range(),
        count: ElementCount::Direct(n),
    };
    let timing = Timing::warm_then_warmup(3, runs.reps as usize);
    let ms = median(b.time(
        timing,
        |_, _, _| Ok(()),
        |cmd, _| unsafe { plan.record(cmd, &args) },
    )?);
    let (want_keys, want_values) = if rle {
        reference::run_length_encode(&keys)
    } else {
        reference::reduce_by_key(&keys, &values, ReduceOp::Sum)
    };
    let run_count: Vec<u32> = download(ctx, &bufs.run_count, 1)?;
    // The look-back's fallbacks of the last call (the other path leaves the word zero): a
    // silent predecessor's pair recomputed from its input.
    let header: Vec<u32> = download(ctx, &scratch, 4)?;
    let fallbacks = header[REDUCE_BY_KEY_FALLBACKS_OFFSET as usize / 4];
    if fallbacks > 0 {
        println!("note: {name} run{mean} 2^{log2}: {fallbacks} look-back fallbacks in the last call");
    }
    let got_keys: Vec<u32> = download(ctx, &bufs.keys_out, want_keys.len())?;
    let got_values: Vec<u32> = download(ctx, &bufs.values_out, want_values.len())?;
    let ok = run_count[0] as usize == want_keys.len() && got_keys == want_keys && got_values == want_values;
    let t = plan.tuning();
    let bytes = (n * if rle { 4 } else { 8 } + run_count[0] as u64 * 8) as f64;
    let kept_name = if kept { "_kept_zeroed" } else { "" };
    let (case, variant) = (format!("{name} run{mean}"), format!("run{mean}{kept_name}"));
    StreamRow {
        algo: name.to_string(),
        case: &case,
        variant: &variant,
        tuning: match path {
            ReduceByKeyPath::Auto => format!(
                "{}x{}/{}",
                t.workgroup_size, t.items_per_invocation, t.lookback_spins
            ),
            _ => format!(
                "{}x{}/{} {path:?}",
                t.workgroup_size, t.items_per_invocation, t.lookback_spins
            ),
        } + if kept { " kept" } else { "" },
        tuned: tuning.is_some() || path != ReduceByKeyPath::Auto,
        log2,
        bytes,
        ms,
        scratch_bytes: plan.memory_requirements().scratch.size,
        ok,
    }
    .report(table, b);
    if runs.pass_times {
        print_pass_times(ctx, &b.timer, |cmd| unsafe { plan.record(cmd, &args) })?;
    }
    Ok(())
}

/// Runs the reduce-by-key benchmark with the command-line arguments after `reduce_by_key`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "reduce_by_key", AXES, args);
    let sizes: Vec<u32> = o.list("sizes");
    let means: Vec<u32> = o.list("runs");
    let cases = o.names("cases");
    // `256x8/4096`: 4096 look-back spins before the fallback (none given: the device's).
    let tunings = o.tuning_choices("tuning", |workgroup_size, items_per_invocation, spins| {
        Some(ReduceByKeyTuning {
            workgroup_size,
            items_per_invocation,
            lookback_spins: if spins.is_empty() {
                0 // the device's default
            } else {
                spins.parse().ok()?
            },
        })
    });
    let paths = o.choices("paths", PATHS);
    let scratch_modes: Vec<bool> = o.names("scratch").iter().map(|m| m == "kept").collect();
    let b = Bench::new(ctx)?;
    let largest = 4u64 << sizes.iter().copied().max().unwrap_or(20);
    let bufs = Buffers {
        keys: b.buffer(largest, "bench keys")?,
        values: b.buffer(largest, "bench values")?,
        keys_out: b.buffer(largest, "bench keys out")?,
        values_out: b.buffer(largest, "bench values out")?,
        run_count: b.buffer(16, "bench run count")?,
    };
    let mut table = report::table_of(
        "reduce-by-key (input: sorted u32 keys in runs of mean length L, uploaded once; GB/s: bytes read and written)",
        STREAM_COLUMNS,
    );
    let runs = Runs {
        reps: o.get("reps", 1usize).clamp(1, MAX_BATCH as usize) as u32,
        pass_times: o.flag("pass-times"),
    };
    for &log2 in &sizes {
        for case_name in &cases {
            for &mean in means.iter().filter(|&&m| m >= 1) {
                for &tuning in &tunings {
                    for &path in &paths {
                        for &kept in &scratch_modes {
                            case(
                                &b,
                                &bufs,
                                &mut table,
                                case_name == "rle",
                                log2,
                                mean,
                                runs,
                                tuning,
                                path,
                                kept,
                            )?;
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
