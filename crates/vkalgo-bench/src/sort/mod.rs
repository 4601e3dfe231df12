//! Radix-sort benchmark: `vkalgo-bench sort` (options: `vkalgo-bench sort --help`; end bits
//! other than 0 sort fewer digits: the cost of each pass; key bits other than 0 draw keys below
//! 2^bits, so the digits above are the same in every key: the cost of a pass whose digit is
//! constant).
//!
//! Each repetition restores the unsorted input with a compute copy (not timed: GPU timestamps
//! bracket the sort alone), so every sort sees fresh random data. Verification: the output is
//! sorted and a permutation of the input (pairs: every value, an input index, points at an
//! equal key, in stable order; keys only: exact comparison with a CPU sort up to 2^24, above
//! that sortedness plus multiset fingerprints).

use ash::vk;
use vkalgo::sort::reference::rank_key;
use vkalgo::sort::ONESWEEP_STATS_OFFSET;
use vkalgo::{
    Context, ElementCount, GpuBuffer, KeyType, MemoryLocation, Result, SortArgs, SortDesc, SortPath,
    SortResult, SortTuning, ValueType,
};
use vkalgo_bench::harness::report;
use vkalgo_bench::harness::{
    axis, download, median, random_u32, sized, upload, yardstick, Axis, Timer, MAX_BATCH,
};

mod check;
use check::{check_output, onesweep_stats, phase_times, random_keys};

const AXES: &[Axis] = &[
    sized("sizes", "16,20,24,26,28", "12,16,18", "log2 key counts"),
    sized("reps", "20", "3", "timed repetitions (median)"),
    axis(
        "types",
        "u32,pairs,u64,f32",
        "u32, pairs, u64, f32, pairs64, i32, i64, f64",
    ),
    axis("paths", "auto", "auto, onesweep, safe, small"),
    axis(
        "tuning",
        "",
        "workgroup size x keys per invocation[/stage split], e.g. 512x8,512x20/2",
    ),
    axis("end-bits", "0", "end bits (0: all; fewer sort fewer digits)"),
    axis(
        "key-bits",
        "0",
        "keys below 2^bits (0: full range): the cost of a constant digit",
    ),
];

const PATHS: &[(&str, SortPath)] = &[
    ("auto", SortPath::Auto),
    ("onesweep", SortPath::Onesweep),
    ("safe", SortPath::Safe),
    ("small", SortPath::Small),
];

struct Options {
    sizes: Vec<u32>,
    reps: usize,
    types: Vec<String>,
    paths: Vec<SortPath>,
    tunings: Vec<Option<SortTuning>>,
    end_bits: Vec<u32>,
    key_bits: u32,
}

fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let o = vkalgo_bench::harness::Options::parse(ctx, "sort", AXES, args);
    let mut tunings: Vec<Option<SortTuning>> = o
        .tunings("tuning")
        .into_iter()
        .filter_map(|(workgroup_size, keys_per_thread, split)| {
            Some(Some(SortTuning {
                workgroup_size,
                keys_per_thread,
                lookback_spins: 0,
                stage_split: if split.is_empty() { 1 } else { split.parse().ok()? },
            }))
        })
        .collect();
    if o.text("tuning").is_empty() {
        tunings.push(None);
    }
    Options {
        sizes: o.list("sizes"),
        reps: o.get("reps", 1usize).max(1),
        types: o.names("types"),
        paths: o.choices("paths", PATHS),
        tunings,
        end_bits: o.list("end-bits"),
        key_bits: o.get("key-bits", 0),
    }
}

/// Scratch allocated once for every plan of the run (Onesweep needs about 2 MiB).
const SCRATCH_BYTES: u64 = 8 << 20;

/// One benchmarked key type: name in RESULT lines, key type, payload.
fn case(name: &str) -> Option<(&'static str, KeyType, ValueType)> {
    Some(match name {
        "u32" => ("sort_u32", KeyType::U32, ValueType::None),
        "pairs" => ("sort_pairs_u32_u32", KeyType::U32, ValueType::U32),
        "u64" => ("sort_u64", KeyType::U64, ValueType::None),
        "pairs64" => ("sort_pairs_u64_u32", KeyType::U64, ValueType::U32),
        "f32" => ("sort_f32", KeyType::F32, ValueType::None),
        "i32" => ("sort_i32", KeyType::I32, ValueType::None),
        "i64" => ("sort_i64", KeyType::I64, ValueType::None),
        "f64" => ("sort_f64", KeyType::F64, ValueType::None),
        _ => return None,
    })
}

/// Runs the sort benchmark with the command-line arguments after `sort`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let options = parse_options(ctx, args);
    let table = report::table(
        "radix sort (G keys/s; scratch = bytes beyond the keys, values and their alternates)",
        &[
            "keys",
            "path",
            "tuning",
            "N",
            "ms",
            "G keys/s",
            "scratch bytes",
            "alternates bytes",
            "verified",
        ],
    );
    let timer = Timer::new(ctx)?;
    let yard = yardstick(ctx, &timer)?;
    let mut failed = false;
    // Every large buffer is allocated once at the largest size any case needs (as an engine
    // would).
    let mut cases = Vec::new();
    for type_name in &options.types {
        let Some(case) = case(type_name) else {
            eprintln!("unknown key type {type_name} (u32, pairs, u64, f32)");
            std::process::exit(2);
        };
        cases.push((type_name.clone(), case));
    }
    let max_n = 1u64 << options.sizes.iter().copied().max().unwrap_or(16);
    let max_key_bytes = max_n * cases.iter().map(|(_, c)| c.1.bytes()).max().unwrap_or(4);
    let max_value_bytes = max_n * cases.iter().map(|(_, c)| c.2.bytes()).max().unwrap_or(0);
    let gpu = |bytes: u64, name: &str| GpuBuffer::new(ctx, bytes.max(16), MemoryLocation::GpuOnly, name);
    let pristine_keys = gpu(max_key_bytes, "bench pristine keys")?;
    let keys = gpu(max_key_bytes, "bench keys")?;
    let keys_alt = gpu(max_key_bytes, "bench keys alt")?;
    let all_values = if max_value_bytes > 0 {
        Some((
            gpu(max_value_bytes, "bench pristine values")?,
            gpu(max_value_bytes, "bench values")?,
            gpu(max_value_bytes, "bench values alt")?,
        ))
    } else {
        None
    };
    let scratch = gpu(SCRATCH_BYTES, "bench sort scratch")?;
    // Sizes in the outer loop: a small case never follows the seconds of CPU-side verification
    // of a large one, after which the H200's clocks were often still low.
    for &log2 in &options.sizes {
        for (type_name, (algo, key_type, value_type)) in &cases {
            let (algo, key_type, value_type) = (*algo, *key_type, *value_type);
            let n = 1usize << log2;
            let key_bytes = n as u64 * key_type.bytes();
            let value_bytes = n as u64 * value_type.bytes();
            let value_buffers = all_values.as_ref().filter(|_| value_bytes > 0);
            for &path in &options.paths {
                for (&tuning, &end_bit) in options
                    .tunings
                    .iter()
                    .flat_map(|t| options.end_bits.iter().map(move |e| (t, e)))
                {
                    let desc = SortDesc {
                        path,
                        tuning,
                        end_bit,
                        ..SortDesc::new(key_type, value_type, n as u64)
                    };
                    let plan = match ctx.sort_plan(&desc) {
                        Ok(plan) => plan,
                        Err(e) => {
                            table.line(&format!(
                                "| {type_name} | {path:?} | - | 2^{log2} | skipped: {e} |"
                            ));
                            continue;
                        }
                    };
                    let requirements = plan.memory_requirements();
                    if requirements.scratch.size > SCRATCH_BYTES {
                        table.line(&format!(
                            "| {type_name} | {path:?} | - | 2^{log2} | skipped: scratch over {SCRATCH_BYTES} |"
                        ));
                        continue;
                    }
                    let words = random_keys(key_type, n, log2 as u64 * 7919 + 13, options.key_bits);
                    upload(ctx, &pristine_keys, &words)?;
                    if let Some((pristine_values, _, _)) = &value_buffers {
                        let iota: Vec<u32> = (0..n as u32).collect();
                        upload(ctx, pristine_values, &iota)?;
                    }
                    let sort_args = SortArgs {
                        keys: keys.sub_range(0, key_bytes),
                        values: value_buffers
                            .as_ref()
                            .map(|(_, v, _)| v.sub_range(0, value_bytes)),
                        keys_alt: keys_alt.sub_range(0, key_bytes),
                        values_alt: value_buffers
                            .as_ref()
                            .map(|(_, _, a)| a.sub_range(0, value_bytes)),
                        scratch: scratch.range(),
                        count: ElementCount::Direct(n as u64),
                    };
                    let restore = |cmd| {
                        unsafe {
                            ctx.record_compute_copy(
                                cmd,
                                &pristine_keys.sub_range(0, key_bytes),
                                &keys.sub_range(0, key_bytes),
                            )
                        }?;
                        if let Some((pristine_values, values, _)) = &value_buffers {
                            unsafe {
                                ctx.record_compute_copy(
                                    cmd,
                                    &pristine_values.sub_range(0, value_bytes),
                                    &values.sub_range(0, value_bytes),
                                )
                            }?;
                        }
                        Ok(())
                    };
                    // A plain copy on these very buffers beside the yardstick's (tells placement
                    // effects apart from the sort's own cost), then the warm-up.
                    let (_, copy_gbs) = yard.check_buffers(
                        ctx,
                        &timer,
                        &format!("sort_{type_name}"),
                        n as u64,
                        &pristine_keys.sub_range(0, key_bytes),
                        &keys.sub_range(0, key_bytes),
                    )?;
                    yard.warm(ctx, &timer)?;
                    timer.time_each(
                        3,
                        |cmd, _| restore(cmd),
                        |cmd, _| unsafe { plan.record(cmd, &sort_args) }.map(|_| ()),
                    )?;
                    let times = timer.time_each(
                        options.reps.min(MAX_BATCH as usize) as u32,
                        |cmd, _| restore(cmd),
                        |cmd, _| unsafe { plan.record(cmd, &sort_args) }.map(|_| ()),
                    )?;
                    let phases = phase_times(ctx, &timer, &plan, &sort_args, restore)?;
                    let (result_keys, result_values) = match plan.result_location() {
                        SortResult::InPlace => (&keys, value_buffers.as_ref().map(|v| &v.1)),
                        SortResult::Alternate => (&keys_alt, value_buffers.as_ref().map(|v| &v.2)),
                    };
                    let out_words: Vec<u32> = download(ctx, result_keys, words.len())?;
                    let out_values: Option<Vec<u32>> = match result_values {
                        Some(b) => Some(download(ctx, b, n)?),
                        None => None,
                    };
                    let verdict = check_output(
                        key_type,
                        value_type,
                        end_bit,
                        &words,
                        &out_words,
                        out_values.as_deref(),
                    );
                    let stats = if plan.path() == SortPath::Onesweep && n as u64 > plan.small_limit() {
                        onesweep_stats(ctx, &scratch, &plan, n as u64)?
                    } else {
                        String::new()
                    };
                    let ms = median(times);
                    let rate = n as f64 / (ms * 1e-3) / 1e9;
                    let path_name = format!("{:?}", plan.path()).to_lowercase();
                    // The single-workgroup path: "resident" where the shared-memory-resident
                    // kernel sorts the count, else "small" (the tiled kernel).
                    let single = plan.path() == SortPath::Small
                        || (path == SortPath::Auto && n as u64 <= plan.auto_small_limit());
                    let variant = if single && n as u64 <= plan.resident_limit() {
                        "resident".to_string()
                    } else if single {
                        "small".to_string()
                    } else {
                        path_name
                    };
                    let mut tuning_text = tuning.map_or("default".to_string(), |t| match t.stage_split {
                        1 => format!("{}x{}", t.workgroup_size, t.keys_per_thread),
                        s => format!("{}x{}/{s}", t.workgroup_size, t.keys_per_thread),
                    });
                    if end_bit != 0 {
                        tuning_text += &format!("_bits{end_bit}");
                    }
                    if options.key_bits != 0 {
                        tuning_text += &format!("_keybits{}", options.key_bits);
                    }
                    table.row(&[
                        type_name.clone(),
                        variant.clone(),
                        tuning_text.clone(),
                        format!("2^{log2}"),
                        format!("{ms:.4}"),
                        format!("{rate:.2}"),
                        requirements.scratch.size.to_string(),
                        (requirements.keys_alt.size + requirements.values_alt.size).to_string(),
                        match &verdict {
                            Ok(()) => "yes".to_string(),
                            Err(e) => format!("NO: {e}"),
                        },
                    ]);
                    let suffix = if tuning_text == "default" {
                        String::new()
                    } else {
                        format!("_{tuning_text}")
                    };
                    let extra = requirements.scratch.size.to_string();
                    report::result(algo, &format!("{variant}{suffix}"), n as u64, ms, rate, &extra);
                    let t = plan.tuning();
                    println!(
                        "stats: {type_name} 2^{log2} {tuning_text}: tuning {}x{}/{}; resident limit {}; key-buffer copy {copy_gbs:.0} GB/s; {stats}",
                        t.workgroup_size, t.keys_per_thread, t.stage_split, plan.resident_limit()
                    );
                    println!("phases (ms, one dispatch each): {phases}");
                    failed |= verdict.is_err();
                }
            }
        }
    }
    if failed {
        eprintln!("a sort produced wrong results");
        std::process::exit(1);
    }
    Ok(())
}
