//! Multisplit benchmark: `vkalgo-bench multisplit` (options: `vkalgo-bench multisplit --help`;
//! a path the plan refuses for an m is skipped with a note; `--pass-times` adds each pass's GPU
//! time, the median of 5 recordings, under each row).
//!
//! u32 keys (and u32 -> u32 pairs) into m buckets by bucket = (k * m) >> 32: as GLSL
//! (`glsl`, compiled at run time), as the built-in BITS function for power-of-two m (`bits`:
//! the top log2(m) bits, the same buckets), as precomputed ids (`ids`), or as the m - 1
//! splitters ceil(j * 2^32 / m), j = 1..m - 1 (`splitters`: the same buckets). For power-of-two m
//! the table also has vkalgo's own radix sort of the keys on those top bits (`sort_topbits`:
//! the reduced-bit sort on Vulkan). Each repetition reads the same input (the split is
//! out of place); GPU timestamps bracket the multisplit alone. Every result is compared exactly
//! with a stable CPU counting sort (keys, values, offsets).
//!
//! Columns: G keys/s; effective GB/s counts each element read once and written once (keys 8
//! bytes, pairs 16), and "% copy" relates it to the compute-shader copy bandwidth measured on
//! the same buffers.

use vkalgo::split::reference;
use vkalgo::{
    BucketFn, Context, ElementCount, GpuBuffer, KeyType, MemoryLocation, Result, SortArgs, SortDesc,
    SplitArgs, SplitDesc, SplitPath, ValueType,
};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{
    axis, download, flag, measure, print_pass_times, random_u32, sized, upload, yardstick, Axis, Timer,
};

const GLSL: &str =
    "uint vkalgo_bucket(uint k) { return uint((uint64_t(k) * uint64_t(vkalgo_params.x)) >> 32); }";

const AXES: &[Axis] = &[
    sized("sizes", "24,26", "16,18", "log2 key counts"),
    axis("ms", "2,3,8,32,256,1024", "bucket counts"),
    axis("types", "keys,pairs", "keys, pairs (u32 -> u32)"),
    axis("fns", "glsl,bits", "bucket functions: glsl, bits, ids, splitters"),
    axis(
        "paths",
        "auto",
        "auto, direct, staged, substaged, global, small, onesweep",
    ),
    axis("tile-items", "0", "items per tile (0: the plan's choice)"),
    sized("reps", "20", "3", "timed repetitions (median)"),
    flag("pass-times", "also each pass's GPU time"),
];

const PATHS: &[(&str, SplitPath)] = &[
    ("auto", SplitPath::Auto),
    ("direct", SplitPath::TileDirect),
    ("staged", SplitPath::TileStaged),
    ("substaged", SplitPath::TileSubgroupStaged),
    ("global", SplitPath::GlobalCounters),
    ("small", SplitPath::Small),
    ("onesweep", SplitPath::Onesweep),
];

struct Options {
    sizes: Vec<u32>,
    ms: Vec<u32>,
    types: Vec<String>,
    fns: Vec<String>,
    paths: Vec<SplitPath>,
    tile_items: u32,
    reps: usize,
    pass_times: bool,
}

fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let o = vkalgo_bench::harness::Options::parse(ctx, "multisplit", AXES, args);
    Options {
        sizes: o.list("sizes"),
        ms: o.list("ms"),
        types: o.names("types"),
        fns: o.names("fns"),
        paths: o.choices("paths", PATHS),
        tile_items: o.get("tile-items", 0),
        reps: o.get("reps", 1usize).max(1),
        pass_times: o.flag("pass-times"),
    }
}

fn bucket_of(k: u32, m: u32) -> u32 {
    ((k as u64 * m as u64) >> 32) as u32
}

/// Runs the multisplit benchmark with the command-line arguments after `multisplit`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = parse_options(ctx, args);
    let timer = Timer::new(ctx)?;
    let yard = yardstick(ctx, &timer)?;
    let max_n = 1u64 << o.sizes.iter().copied().max().unwrap_or(16);
    let max_m = o.ms.iter().copied().max().unwrap_or(2) as u64;
    let bytes = max_n * 4;
    let gpu = |bytes: u64, name: &str| GpuBuffer::new(ctx, bytes.max(16), MemoryLocation::GpuOnly, name);
    // Every large buffer first, at the largest size (see the sort benchmark).
    let keys = gpu(bytes, "bench split keys")?;
    let values = gpu(bytes, "bench split values")?;
    let ids = gpu(bytes, "bench split ids")?;
    let keys_out = gpu(bytes, "bench split keys out")?;
    let values_out = gpu(bytes, "bench split values out")?;
    let sort_alt = gpu(bytes, "bench sort keys alt")?;
    let offsets = gpu((max_m + 1) * 4, "bench split offsets")?;
    let splitters = gpu(max_m * 4, "bench split splitters")?;
    let mut scratch_size = 16u64 << 20;
    for &m in &o.ms {
        for path in o
            .paths
            .iter()
            .copied()
            .chain([SplitPath::Auto, SplitPath::GlobalCounters])
        {
            // (IDS and GLSL plans: the tile paths' matrix, the Onesweep path's alternates.)
            for (bucket_fn, glsl) in [
                (BucketFn::Ids, None),
                (BucketFn::Glsl, Some(GLSL.to_string())),
                (BucketFn::Splitters, None),
            ] {
                let desc = SplitDesc {
                    path,
                    glsl,
                    tile_items: o.tile_items,
                    ..SplitDesc::new(KeyType::U32, ValueType::U32, m, bucket_fn, max_n)
                };
                if let Ok(plan) = ctx.split_plan(&desc) {
                    scratch_size = scratch_size.max(plan.memory_requirements().scratch.size);
                }
            }
        }
    }
    let scratch = gpu(scratch_size, "bench split scratch")?;
    let table = report::table(
        "multisplit (bucket = (k * m) >> 32; G keys/s; GB/s: each element read and written once)",
        &[
            "type",
            "fn",
            "path",
            "m",
            "N",
            "ms",
            "G keys/s",
            "eff. GB/s",
            "% copy",
            "verified",
        ],
    );
    let mut failed = false;
    for &log2 in &o.sizes {
        let n = 1usize << log2;
        let nb = n as u64 * 4;
        let input = random_u32(n, log2 as u64 * 31 + 7);
        let iota: Vec<u32> = (0..n as u32).collect();
        upload(ctx, &keys, &input)?;
        upload(ctx, &values, &iota)?;
        let (copy_ms, copy_gbs) = yard.check_buffers(
            ctx,
            &timer,
            "multisplit",
            n as u64,
            &keys.sub_range(0, nb),
            &keys_out.sub_range(0, nb),
        )?;
        report::result("copy_keys", "compute", n as u64, copy_ms, copy_gbs, "0");
        for &m in &o.ms {
            let buckets: Vec<u32> = input.iter().map(|&k| bucket_of(k, m)).collect();
            let mut want_keys = input.clone();
            let mut want_values = iota.clone();
            let want_offsets = reference::multisplit(&mut want_keys, Some(&mut want_values), &buckets, m);
            if o.fns.iter().any(|f| f == "ids") {
                upload(ctx, &ids, &buckets)?;
            }
            if o.fns.iter().any(|f| f == "splitters") && m > 1 {
                let cuts: Vec<u32> = (1..m as u64)
                    .map(|j| (j << 32).div_ceil(m as u64) as u32)
                    .collect();
                upload(ctx, &splitters, &cuts)?;
            }
            for type_name in &o.types {
                let pairs = type_name == "pairs";
                let value_type = if pairs { ValueType::U32 } else { ValueType::None };
                let elem_bytes = if pairs { 16.0 } else { 8.0 };
                for fn_name in &o.fns {
                    let (bucket_fn, glsl, bit_offset) = match fn_name.as_str() {
                        "glsl" => (BucketFn::Glsl, Some(GLSL.to_string()), 0),
                        "bits" if m.is_power_of_two() && m > 1 => {
                            (BucketFn::Bits, None, 32 - m.trailing_zeros())
                        }
                        "ids" => (BucketFn::Ids, None, 0),
                        "splitters" => (BucketFn::Splitters, None, 0),
                        _ => continue,
                    };
                    for &path in &o.paths {
                        let desc = SplitDesc {
                            glsl: glsl.clone(),
                            bit_offset,
                            path,
                            tile_items: o.tile_items,
                            ..SplitDesc::new(KeyType::U32, value_type, m, bucket_fn, n as u64)
                        };
                        let plan = match ctx.split_plan(&desc) {
                            Ok(p) => p,
                            Err(e) => {
                                table.line(&format!(
                                    "| {type_name} | {fn_name} | {path:?} | {m} | 2^{log2} | skipped: {e} |"
                                ));
                                continue;
                            }
                        };
                        let req = plan.memory_requirements();
                        let split_args = SplitArgs {
                            keys: keys.sub_range(0, nb),
                            values: pairs.then(|| values.sub_range(0, nb)),
                            keys_out: keys_out.sub_range(0, nb),
                            values_out: pairs.then(|| values_out.sub_range(0, nb)),
                            splitters: (bucket_fn == BucketFn::Splitters && m > 1)
                                .then(|| splitters.sub_range(0, (m as u64 - 1) * 4)),
                            bucket_ids: (bucket_fn == BucketFn::Ids).then(|| ids.sub_range(0, nb)),
                            offsets: offsets.sub_range(0, req.offsets.size),
                            scratch: scratch.sub_range(0, req.scratch.size),
                            count: ElementCount::Direct(n as u64),
                            params: [m, 0, 0, 0],
                        };
                        // Warm-up (clocks up), then the timed batch.
                        let warm = if ctx.is_cpu_device() { 1 } else { 8 };
                        // SAFETY: the buffers are live until the end of the run; the batches
                        // separate the repetitions with full barriers.
                        let ms = measure(
                            ctx,
                            &timer,
                            warm,
                            o.reps,
                            |_| Ok(()),
                            |cmd| unsafe { plan.record(cmd, &split_args) },
                        )?;
                        let got_keys: Vec<u32> = download(ctx, &keys_out, n)?;
                        let got_offsets: Vec<u32> = download(ctx, &offsets, m as usize + 1)?;
                        let mut ok = got_keys == want_keys
                            && got_offsets
                                .iter()
                                .map(|&x| x as u64)
                                .eq(want_offsets.iter().copied());
                        if pairs {
                            let got_values: Vec<u32> = download(ctx, &values_out, n)?;
                            ok &= got_values == want_values;
                        }
                        failed |= !ok;
                        let rate = rate(n as u64, ms);
                        let gbs = n as f64 * elem_bytes / (ms * 1e-3) / 1e9;
                        let path_name = match plan.path() {
                            _ if path == SplitPath::Auto && n as u64 <= plan.small_limit() => "small",
                            SplitPath::Small => "small",
                            SplitPath::TileDirect => "direct",
                            SplitPath::TileStaged => "staged",
                            SplitPath::TileSubgroupStaged => "substaged",
                            SplitPath::Onesweep => "onesweep",
                            _ => "global",
                        };
                        table.row(&[
                            type_name.clone(),
                            fn_name.clone(),
                            path_name.into(),
                            m.to_string(),
                            format!("2^{log2}"),
                            format!("{ms:.4}"),
                            format!("{rate:.2}"),
                            format!("{gbs:.0}"),
                            format!("{:.1}%", 100.0 * gbs / copy_gbs),
                            if ok { "yes" } else { "NO" }.into(),
                        ]);
                        let extra = req.scratch.size.to_string();
                        let algo = format!("multisplit_{type_name}_m{m}");
                        report::result(
                            &algo,
                            &format!("{fn_name}_{path_name}"),
                            n as u64,
                            ms,
                            rate,
                            &extra,
                        );
                        if o.pass_times {
                            print_pass_times(ctx, &timer, |cmd| unsafe { plan.record(cmd, &split_args) })?;
                        }
                    }
                }
                // The reduced-bit sort on Vulkan, keys only: vkalgo's radix sort on the top
                // log2(m) bits.
                if m.is_power_of_two() && m > 1 && !pairs {
                    let desc = SortDesc {
                        begin_bit: 32 - m.trailing_zeros(),
                        end_bit: 32,
                        ..SortDesc::new(KeyType::U32, value_type, n as u64)
                    };
                    let plan = ctx.sort_plan(&desc)?;
                    let req = plan.memory_requirements();
                    if req.scratch.size > scratch_size {
                        continue;
                    }
                    // Sorts in place on keys_out/values_out (restored from the input each time).
                    let sort_args = SortArgs {
                        keys: keys_out.sub_range(0, nb),
                        values: None,
                        keys_alt: sort_alt.sub_range(0, nb),
                        values_alt: None,
                        scratch: scratch.sub_range(0, req.scratch.size),
                        count: ElementCount::Direct(n as u64),
                    };
                    // SAFETY (here and below): live buffers, full barriers between repetitions.
                    let restore = |cmd| unsafe {
                        ctx.record_compute_copy(cmd, &keys.sub_range(0, nb), &keys_out.sub_range(0, nb))
                    };
                    let ms = measure(ctx, &timer, 2, o.reps, restore, |cmd| {
                        unsafe { plan.record(cmd, &sort_args) }.map(|_| ())
                    })?;
                    let rate = rate(n as u64, ms);
                    let gbs = n as f64 * elem_bytes / (ms * 1e-3) / 1e9;
                    table.row(&[
                        type_name.clone(),
                        "sort_topbits".into(),
                        format!("{:?}", plan.path()),
                        m.to_string(),
                        format!("2^{log2}"),
                        format!("{ms:.4}"),
                        format!("{rate:.2}"),
                        format!("{gbs:.0}"),
                        format!("{:.1}%", 100.0 * gbs / copy_gbs),
                        "-".into(),
                    ]);
                    let (algo, extra) = (
                        format!("multisplit_{type_name}_m{m}"),
                        req.scratch.size.to_string(),
                    );
                    report::result(&algo, "sort_topbits", n as u64, ms, rate, &extra);
                }
            }
        }
    }
    if failed {
        eprintln!("a multisplit produced wrong results");
        std::process::exit(1);
    }
    Ok(())
}
