//! The merge benchmark's cases: merges, set operations on sorted runs, sorts.

use super::*;

/// The merges of two runs of 2^log2 keys (and pairs), each tuning.
pub(super) fn merges(r: &Run, log2: u32) -> Result<()> {
    let (ctx, timer, yard, options) = (r.ctx, &r.timer, r.yard, &r.options);
    let (in_buf, out_buf, reps) = (&r.in_buf, &r.out_buf, r.reps);
    let n = 1usize << log2;
    let a = sorted_run(n, 0, log2);
    let b = sorted_run(n, 1, log2);
    let av: Vec<u32> = (0..n as u32).collect();
    let bv: Vec<u32> = (0..n as u32).map(|j| j | 1 << 31).collect();
    let nb = n as u64 * 4;
    upload(
        ctx,
        in_buf,
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
                    report::line(&format!("| {algo} | {} | skipped: {e} |", tuning_text(tuning)));
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
            yard.warm(ctx, timer)?;
            let ms = median(timer.time_batch(reps, |cmd, _| unsafe { plan.record(cmd, &args) })?);
            let got: Vec<u32> = download(ctx, out_buf, 2 * n)?;
            let mut ok = got == want_keys;
            if pairs {
                let all: Vec<u32> = download(ctx, out_buf, 4 * n)?;
                ok &= all[2 * n..] == want_values[..];
            }
            let bytes = (2 * n) as f64 * if pairs { 16.0 } else { 8.0 };
            r.row(
                algo,
                tuning,
                2 * n as u64,
                &format!("2^{log2} + 2^{log2}"),
                ms,
                bytes,
                ok,
            );
            if options.pass_times {
                print_pass_times(ctx, timer, |cmd| unsafe { plan.record(cmd, &args) })?;
            }
        }
    }
    Ok(())
}

/// The set operations on two runs of 2^log2 unique keys, each tuning and path.
pub(super) fn set_ops(r: &Run, log2: u32) -> Result<()> {
    let (ctx, timer, yard, options) = (r.ctx, &r.timer, r.yard, &r.options);
    let (in_buf, out_buf, reps) = (&r.in_buf, &r.out_buf, r.reps);
    let n = 1usize << log2;
    let a = sorted_run(n, 0, log2);
    let b = sorted_run(n, 1, log2);
    let nb = n as u64 * 4;
    upload(ctx, in_buf, &[a.clone(), b.clone()].concat())?;
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
            yard.warm(ctx, timer)?;
            let ms = median(timer.time_batch(reps, |cmd, _| unsafe { plan.record(cmd, &args) })?);
            let got: Vec<u32> = download(ctx, out_buf, 4 + want.len())?;
            let ok = got[0] as usize == want.len() && got[4..] == want[..];
            let bytes = (2 * n + want.len()) as f64 * 4.0;
            r.row(
                &algo,
                tuning,
                2 * n as u64,
                &format!("2^{log2} + 2^{log2}"),
                ms,
                bytes,
                ok,
            );
            if options.pass_times {
                print_pass_times(ctx, timer, |cmd| unsafe { plan.record(cmd, &args) })?;
            }
        }
    }
    Ok(())
}

/// The merge sort of 2^log2 random keys, each tuning, and the radix sort of the same keys.
pub(super) fn sorts(r: &Run, log2: u32) -> Result<()> {
    let (ctx, timer, yard, options) = (r.ctx, &r.timer, r.yard, &r.options);
    let (in_buf, out_buf, reps) = (&r.in_buf, &r.out_buf, r.reps);
    let n = 1usize << log2;
    let keys = random_u32(n, log2 as u64 + 77);
    let nb = n as u64 * 4;
    upload(ctx, in_buf, &keys)?;
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
        yard.warm(ctx, timer)?;
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
        let got: Vec<u32> = download(ctx, out_buf, offset + n)?;
        let ok = got[offset..] == want[..];
        let passes = 1 + plan.rounds(n as u64);
        r.row(
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
    yard.warm(ctx, timer)?;
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
    let got: Vec<u32> = download(ctx, out_buf, offset + n)?;
    r.row(
        "radix_sort_u32",
        &None,
        n as u64,
        &format!("2^{log2} ({} passes)", plan.pass_count()),
        ms,
        n as f64 * 8.0 * plan.pass_count() as f64,
        got[offset..] == want[..],
    );
    Ok(())
}
