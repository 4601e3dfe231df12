//! Multisplit benchmark: `vkalgo-bench multisplit [--sizes 24,26] [--ms 2,3,8,32,256,1024]
//! [--types keys,pairs] [--fns glsl,bits,ids,splitters]
//! [--paths auto,direct,staged,substaged,onesweep,global,small] [--tile-items 16] [--reps 20]
//! [--pass-times]` (a path the plan refuses for an m is skipped with a note; `--tile-items` sets
//! the tile paths' elements per invocation, 0 the default; `--pass-times` adds each pass's GPU
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
use vkalgo_bench::harness::{
    download, median, print_pass_times, random_u32, upload, yardstick, Timer, MAX_BATCH,
};

const GLSL: &str =
    "uint vkalgo_bucket(uint k) { return uint((uint64_t(k) * uint64_t(vkalgo_params.x)) >> 32); }";

struct Options {
    sizes: Vec<u32>,
    ms: Vec<u32>,
    types: Vec<String>,
    fns: Vec<String>,
    paths: Vec<SplitPath>,
    tile_items: u32,
    reps: usize,
    /// Also print each pass's GPU time (`--pass-times`).
    pass_times: bool,
}

fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let gpu = !ctx.is_cpu_device();
    let mut o = Options {
        sizes: if gpu { vec![24, 26] } else { vec![16, 18] },
        ms: vec![2, 3, 8, 32, 256, 1024],
        types: vec!["keys".into(), "pairs".into()],
        fns: vec!["glsl".into(), "bits".into()],
        paths: vec![SplitPath::Auto],
        tile_items: 0,
        reps: if gpu { 20 } else { 3 },
        pass_times: false,
    };
    let list = |v: &str| -> Vec<String> { v.split(',').map(|s| s.trim().to_string()).collect() };
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--pass-times" {
            o.pass_times = true;
            i += 1;
            continue;
        }
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--sizes" => o.sizes = list(&value).iter().filter_map(|s| s.parse().ok()).collect(),
            "--ms" => o.ms = list(&value).iter().filter_map(|s| s.parse().ok()).collect(),
            "--types" => o.types = list(&value),
            "--fns" => o.fns = list(&value),
            "--reps" => o.reps = value.parse().unwrap_or(o.reps).max(1),
            "--tile-items" => o.tile_items = value.parse().unwrap_or(0),
            "--paths" => {
                o.paths = list(&value)
                    .iter()
                    .filter_map(|p| match p.as_str() {
                        "auto" => Some(SplitPath::Auto),
                        "direct" => Some(SplitPath::TileDirect),
                        "staged" => Some(SplitPath::TileStaged),
                        "substaged" => Some(SplitPath::TileSubgroupStaged),
                        "global" => Some(SplitPath::GlobalCounters),
                        "small" => Some(SplitPath::Small),
                        "onesweep" => Some(SplitPath::Onesweep),
                        _ => None,
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
    o
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
    println!("\nmultisplit (bucket = (k * m) >> 32; G keys/s; GB/s: each element read and written once)");
    println!("| type | fn | path | m | N | ms | G keys/s | eff. GB/s | % copy | verified |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
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
        println!("RESULT\tvkalgo\tcopy_keys\tcompute\t{n}\t{copy_ms:.6}\t{copy_gbs:.4}\t0");
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
                                println!(
                                    "| {type_name} | {fn_name} | {path:?} | {m} | 2^{log2} | skipped: {e} |"
                                );
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
                        timer.time_batch(warm, |cmd, _| unsafe { plan.record(cmd, &split_args) })?;
                        yard.warm(ctx, &timer)?;
                        let times = timer
                            .time_batch(o.reps.min(MAX_BATCH as usize) as u32, |cmd, _| unsafe {
                                plan.record(cmd, &split_args)
                            })?;
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
                        let ms = median(times);
                        let rate = n as f64 / (ms * 1e-3) / 1e9;
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
                        println!(
                            "| {type_name} | {fn_name} | {path_name} | {m} | 2^{log2} | {ms:.4} | {rate:.2} | {gbs:.0} | {:.1}% | {} |",
                            100.0 * gbs / copy_gbs,
                            if ok { "yes" } else { "NO" }
                        );
                        println!(
                            "RESULT\tvkalgo\tmultisplit_{type_name}_m{m}\t{fn_name}_{path_name}\t{n}\t{ms:.6}\t{rate:.4}\t{}",
                            req.scratch.size
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
                    timer.time_each(
                        2,
                        |cmd, _| restore(cmd),
                        |cmd, _| unsafe { plan.record(cmd, &sort_args) }.map(|_| ()),
                    )?;
                    yard.warm(ctx, &timer)?;
                    let times = timer.time_each(
                        o.reps.min(MAX_BATCH as usize) as u32,
                        |cmd, _| restore(cmd),
                        |cmd, _| unsafe { plan.record(cmd, &sort_args) }.map(|_| ()),
                    )?;
                    let ms = median(times);
                    let rate = n as f64 / (ms * 1e-3) / 1e9;
                    let gbs = n as f64 * elem_bytes / (ms * 1e-3) / 1e9;
                    println!(
                        "| {type_name} | sort_topbits | {:?} | {m} | 2^{log2} | {ms:.4} | {rate:.2} | {gbs:.0} | {:.1}% | - |",
                        plan.path(),
                        100.0 * gbs / copy_gbs
                    );
                    println!(
                        "RESULT\tvkalgo\tmultisplit_{type_name}_m{m}\tsort_topbits\t{n}\t{ms:.6}\t{rate:.4}\t{}",
                        req.scratch.size
                    );
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
