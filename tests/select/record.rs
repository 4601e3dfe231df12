//! The record layer: both paths forced through the desc, the look-back's fallback forced by
//! the test tuning, offsets, indirect counts below the maximum, the count kept taken as the
//! next call's indirect count, a count of 0, poison around the outputs.

use super::*;

/// Where one recorded call's ranges lie in one buffer (bytes).
struct Places {
    keys_in: u64,
    values_in: u64,
    flags: u64,
    keys_out: u64,
    values_out: u64,
    kept: u64,
    count: u64,
    scratch: u64,
    end: u64,
}

fn places(n: u64, kb: u64, vb: u64, scratch: u64, offset: u64) -> Places {
    let keys_in = offset;
    // Inputs 16-byte aligned where the keys are (the kernels' vector loads), else only 8.
    let align = if offset % 16 == 0 { 16 } else { 8 };
    let values_in = (keys_in + n * kb + 8).next_multiple_of(align);
    let flags = (values_in + n * vb + 16).next_multiple_of(4);
    let keys_out = (flags + n + 8).next_multiple_of(8);
    let values_out = (keys_out + n * kb + 64).next_multiple_of(8);
    let kept = values_out + n * vb + 64;
    let count = kept + 64;
    let scratch_at = (count + 64).next_multiple_of(256);
    Places {
        keys_in,
        values_in,
        flags,
        keys_out,
        values_out,
        kept,
        count,
        scratch: scratch_at,
        end: scratch_at + scratch,
    }
}

/// Runs `plan` over `keys` (values `V::of(i)`, flags `flags`) through the record layer, the
/// count direct or `indirect` (a u32 in the buffer). Returns the kept keys, values and count,
/// whether the poison after the written outputs held, and the look-back's fallbacks (the u32
/// at byte 4 of its scratch).
fn record<K: TestKey, V: TestValue>(
    ctx: &Context,
    plan: &vkalgo::SelectPlan,
    keys: &[K],
    flags: Option<&[u8]>,
    indirect: Option<u32>,
    params: [u32; 4],
) -> (Vec<K>, Vec<V>, u32, bool, u32) {
    record_with_scratch(ctx, plan, keys, flags, indirect, params, None)
}

/// [`record`] with the scratch in `scratch` (whole) where given, else poisoned in the call's
/// buffer.
fn record_with_scratch<K: TestKey, V: TestValue>(
    ctx: &Context,
    plan: &vkalgo::SelectPlan,
    keys: &[K],
    flags: Option<&[u8]>,
    indirect: Option<u32>,
    params: [u32; 4],
    scratch: Option<&mut GpuBuffer>,
) -> (Vec<K>, Vec<V>, u32, bool, u32) {
    let (kb, vb) = (std::mem::size_of::<K>() as u64, std::mem::size_of::<V>() as u64);
    let with_values = plan.desc().value_type != ValueType::None;
    let n = keys.len() as u64;
    // Even counts at a 16-byte aligned offset (the vector loads), odd ones at an 8-byte one.
    let offset = if n % 2 == 0 { 48 } else { 40 };
    let own_scratch = if scratch.is_some() {
        0
    } else {
        plan.memory_requirements().scratch.size
    };
    let p = places(n, kb, vb, own_scratch, offset);
    let mut buf = GpuBuffer::new(ctx, p.end, MemoryLocation::CpuToGpu, "t").unwrap();
    let values: Vec<V> = (0..keys.len()).map(V::of).collect();
    {
        let m = buf.mapped().unwrap();
        m.fill(0xA5);
        let at = |x: u64| x as usize;
        m[at(p.keys_in)..at(p.keys_in + n * kb)].copy_from_slice(bytemuck::cast_slice(keys));
        m[at(p.values_in)..at(p.values_in + n * vb)].copy_from_slice(bytemuck::cast_slice(&values));
        if let Some(f) = flags {
            m[at(p.flags)..at(p.flags) + f.len()].copy_from_slice(f);
        }
        m[at(p.count)..at(p.count) + 4].copy_from_slice(&indirect.unwrap_or(0).to_le_bytes());
    }
    let args = SelectArgs {
        keys_in: buf.sub_range(p.keys_in, n * kb),
        values_in: with_values.then(|| buf.sub_range(p.values_in, n * vb)),
        flags: flags.map(|_| buf.sub_range(p.flags, n.next_multiple_of(4))),
        keys_out: buf.sub_range(p.keys_out, n * kb),
        values_out: with_values.then(|| buf.sub_range(p.values_out, n * vb)),
        selected_count: buf.sub_range(p.kept, 4),
        scratch: match &scratch {
            Some(s) => s.range(),
            None => buf.sub_range(p.scratch, p.end - p.scratch),
        },
        count: match indirect {
            Some(_) => ElementCount::Indirect(buf.sub_range(p.count, 4)),
            None => ElementCount::Direct(n),
        },
        params,
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        plan.record(cmd, &args)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let m = buf.mapped().unwrap();
    let kept = u32::from_le_bytes(m[p.kept as usize..p.kept as usize + 4].try_into().unwrap());
    let k = kept as u64;
    let got_keys: Vec<K> = m[p.keys_out as usize..(p.keys_out + k * kb) as usize]
        .chunks_exact(kb as usize)
        .map(bytemuck::pod_read_unaligned)
        .collect();
    let got_values: Vec<V> = if with_values {
        m[p.values_out as usize..(p.values_out + k * vb) as usize]
            .chunks_exact(vb as usize)
            .map(bytemuck::pod_read_unaligned)
            .collect()
    } else {
        Vec::new()
    };
    let poison = |from: u64, to: u64| m[from as usize..to as usize].iter().all(|&b| b == 0xA5);
    let held = poison(p.keys_out + k * kb, p.keys_out + n * kb + 64)
        && (!with_values || poison(p.values_out + k * vb, p.values_out + n * vb + 64))
        && poison(p.kept + 4, p.kept + 64);
    let state = match scratch {
        Some(s) => &s.mapped().unwrap()[..8],
        None => &m[p.scratch as usize..p.scratch as usize + 8],
    };
    let fallbacks = u32::from_le_bytes(state[4..8].try_into().unwrap());
    (got_keys, got_values, kept, held, fallbacks)
}

/// One call's input for `mode` (`n` keys with runs of equal keys, flags, the predicate's
/// params) and the kept keys and values of its first `used` elements.
struct Call<K, V> {
    keys: Vec<K>,
    flags: Vec<u8>,
    params: [u32; 4],
    want_keys: Vec<K>,
    want_values: Vec<V>,
}

fn call_for<K: TestKey, V: TestValue>(mode: &SelectMode, n: usize, used: usize, rng: &mut Rng) -> Call<K, V> {
    let (glsl, pred) = predicate::<K>();
    let keys: Vec<K> = unique_keys(n, rng);
    let flags = flags_for(n, 3, rng);
    let params = [2, 0, 0, 0];
    let selection = match mode {
        SelectMode::Flagged => Selection::Flagged(&flags),
        SelectMode::Unique => Selection::Unique,
        _ => Selection::If { glsl, params },
    };
    let (want_keys, want_values) = expected::<K, V>(&keys[..used], &selection, |k| pred(k, params));
    Call {
        keys,
        flags,
        params,
        want_keys,
        want_values,
    }
}

/// Both paths, the look-back's forced fallback, every mode, direct and indirect counts.
fn paths_and_counts<K: TestKey, V: TestValue>(ctx: &Context, value_type: ValueType) {
    let mut rng = Rng(21);
    let (glsl, _) = predicate::<K>();
    // Tiles of 1024 elements whatever the device's default, so that 9000 keys take 9 tiles.
    let fallback = SelectTuning {
        workgroup_size: 256,
        items_per_invocation: 4,
        lookback_spins: u32::MAX,
    };
    // Invocations load 3 and 6 elements a tile: one and two at a time.
    let odd = |workgroup_size, items_per_invocation| SelectTuning {
        workgroup_size,
        items_per_invocation,
        lookback_spins: 32,
    };
    for (path, tuning) in [
        (SelectPath::CountScan, None),
        (SelectPath::Lookback, None),
        (SelectPath::Lookback, Some(fallback)),
        (SelectPath::Lookback, Some(odd(64, 3))),
        (SelectPath::CountScan, Some(odd(128, 6))),
    ] {
        let max = 9000u64;
        for mode in [
            SelectMode::Flagged,
            SelectMode::Unique,
            SelectMode::If {
                glsl: glsl.to_string(),
            },
        ] {
            let mut desc = SelectDesc::new(K::KEY_TYPE, value_type, mode.clone(), max);
            desc.path = path;
            desc.tuning = tuning;
            let plan = ctx.select_plan(&desc).unwrap();
            assert_eq!(plan.path(), path);
            for (n, indirect) in [
                (0usize, None),
                (1, None),
                (1025, None),
                (9000, None),
                (9000, Some(4097u32)),
                (9000, Some(0)),
            ] {
                let used = indirect.map_or(n, |c| c as usize);
                let Call {
                    keys,
                    flags,
                    params,
                    want_keys,
                    want_values,
                } = call_for::<K, V>(&mode, n, used, &mut rng);
                let with_flags = matches!(mode, SelectMode::Flagged).then_some(&flags[..]);
                let (got_keys, got_values, kept, held, fallbacks) =
                    record::<K, V>(ctx, &plan, &keys, with_flags, indirect, params);
                let what = format!(
                    "{:?} {path:?} {tuning:?} {mode:?} n {n} {indirect:?}",
                    K::KEY_TYPE
                );
                assert_eq!(kept as usize, want_keys.len(), "{what}");
                assert_eq!(bits(&got_keys), bits(&want_keys), "{what}");
                if value_type != ValueType::None {
                    assert_eq!(got_values, want_values, "{what}");
                }
                assert!(held, "{what}: a write past the kept elements");
                if tuning == Some(fallback) && indirect.is_none() && n > 4096 {
                    assert!(fallbacks > 0, "{what}: the test tuning forces the fallback");
                }
            }
        }
    }
}

#[test]
fn both_paths_every_mode_direct_and_indirect() {
    let ctx = context();
    paths_and_counts::<u32, u32>(&ctx, ValueType::None);
    paths_and_counts::<f32, u32>(&ctx, ValueType::U32);
    paths_and_counts::<i64, u64>(&ctx, ValueType::U64);
    paths_and_counts::<f64, u32>(&ctx, ValueType::None);
}

/// The count kept of one select is the indirect count of the next (a u32 at the range's
/// start), recorded in one command buffer.
#[test]
fn count_kept_feeds_the_next_call() {
    let ctx = context();
    let n = 6000u64;
    let keys: Vec<u32> = (0..n as u32).map(|i| i / 2).collect();
    let plan = ctx
        .select_plan(&SelectDesc::new(
            KeyType::U32,
            ValueType::None,
            SelectMode::Unique,
            n,
        ))
        .unwrap();
    let scratch = plan.memory_requirements().scratch.size;
    let mut buf = GpuBuffer::new(
        &ctx,
        4 * n * 4 + 1024 + 2 * scratch,
        MemoryLocation::CpuToGpu,
        "t",
    )
    .unwrap();
    buf.mapped().unwrap()[..(n * 4) as usize].copy_from_slice(bytemuck::cast_slice(&keys));
    let (a, b, c) = (0, n * 4, 2 * n * 4);
    let (k1, k2) = (3 * n * 4, 3 * n * 4 + 256);
    let s1 = (3 * n * 4 + 512).next_multiple_of(256);
    let s2 = (s1 + scratch).next_multiple_of(256);
    let first = SelectArgs {
        keys_in: buf.sub_range(a, n * 4),
        values_in: None,
        flags: None,
        keys_out: buf.sub_range(b, n * 4),
        values_out: None,
        selected_count: buf.sub_range(k1, 4),
        scratch: buf.sub_range(s1, scratch),
        count: ElementCount::Direct(n),
        params: [0; 4],
    };
    let second = SelectArgs {
        keys_in: buf.sub_range(b, n * 4),
        keys_out: buf.sub_range(c, n * 4),
        selected_count: buf.sub_range(k2, 4),
        scratch: buf.sub_range(s2, scratch),
        count: ElementCount::Indirect(buf.sub_range(k1, 4)),
        ..first
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(&ctx, cmd);
        plan.record(cmd, &first)?;
        ctx.memory_barrier(
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_WRITE,
            vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
        );
        plan.record(cmd, &second)?;
        compute_to_host(&ctx, cmd);
        Ok(())
    })
    .unwrap();
    let m = buf.mapped().unwrap();
    let word = |at: u64| u32::from_le_bytes(m[at as usize..at as usize + 4].try_into().unwrap());
    assert_eq!(word(k1), 3000);
    assert_eq!(word(k2), 3000, "unique keys stay unique");
    assert!((0..3000u64).all(|i| word(c + i * 4) == i as u32));
}

#[test]
fn overlapping_ranges_and_missing_flags_are_refused() {
    let ctx = context();
    let n = 100u64;
    let plan = ctx
        .select_plan(&SelectDesc::new(
            KeyType::U32,
            ValueType::None,
            SelectMode::Flagged,
            n,
        ))
        .unwrap();
    let scratch = plan.memory_requirements().scratch.size;
    let buf = GpuBuffer::new(&ctx, 4096 + scratch, MemoryLocation::GpuOnly, "t").unwrap();
    let good = SelectArgs {
        keys_in: buf.sub_range(0, n * 4),
        values_in: None,
        flags: Some(buf.sub_range(512, n)),
        keys_out: buf.sub_range(1024, n * 4),
        values_out: None,
        selected_count: buf.sub_range(2048, 4),
        scratch: buf.sub_range(4096, scratch),
        count: ElementCount::Direct(n),
        params: [0; 4],
    };
    let bad = [
        SelectArgs {
            keys_out: buf.sub_range(200, n * 4),
            ..good
        },
        SelectArgs { flags: None, ..good },
        SelectArgs {
            selected_count: buf.sub_range(1024, 4),
            ..good
        },
        SelectArgs {
            count: ElementCount::Direct(n + 1),
            ..good
        },
        SelectArgs {
            values_in: Some(buf.sub_range(3000, n * 4)),
            ..good
        },
    ];
    ctx.submit_and_wait(|cmd| unsafe {
        for args in &bad {
            assert!(
                matches!(plan.record(cmd, args), Err(Error::InvalidArgument(_))),
                "{args:?}"
            );
        }
        plan.record(cmd, &good)
    })
    .unwrap();
}

/// A plan that keeps its scratch zeroed, on both paths, with the look-back's forced fallback and
/// in tiles of 32 (more tiles than its last workgroup clears: a clear after the dispatch): one
/// scratch zeroed once serves rounds of every mode's counts (direct and indirect, larger and
/// smaller than the round before), each exact, and after each the look-back's state is zero
/// again but for its fallback count.
#[test]
fn kept_zeroed_scratch_across_calls() {
    let ctx = context();
    let mut rng = Rng(27);
    let (glsl, _) = predicate::<u32>();
    let fallback = SelectTuning {
        workgroup_size: 256,
        items_per_invocation: 4,
        lookback_spins: u32::MAX,
    };
    let small_tiles = SelectTuning {
        workgroup_size: 32,
        items_per_invocation: 1,
        lookback_spins: 32,
    };
    for (path, tuning) in [
        (SelectPath::Lookback, None),
        (SelectPath::Lookback, Some(fallback)),
        (SelectPath::Lookback, Some(small_tiles)),
        (SelectPath::CountScan, None),
    ] {
        for mode in [
            SelectMode::Flagged,
            SelectMode::Unique,
            SelectMode::If {
                glsl: glsl.to_string(),
            },
        ] {
            let desc = SelectDesc {
                path,
                tuning,
                keep_scratch_zeroed: true,
                ..SelectDesc::new(KeyType::U32, ValueType::U32, mode.clone(), 9000)
            };
            let plan = ctx.select_plan(&desc).unwrap();
            let bytes = plan.memory_requirements().scratch.size;
            let mut scratch = GpuBuffer::new(&ctx, bytes, MemoryLocation::CpuToGpu, "scratch").unwrap();
            scratch.mapped().unwrap().fill(0);
            for (round, (n, indirect)) in [
                (9000usize, None),
                (5, None),
                (9000, Some(4097u32)),
                (0, None),
                (7777, None),
                (9000, Some(9000)),
            ]
            .into_iter()
            .enumerate()
            {
                let used = indirect.map_or(n, |c| c as usize);
                let Call {
                    keys,
                    flags,
                    params,
                    want_keys,
                    want_values,
                } = call_for::<u32, u32>(&mode, n, used, &mut rng);
                let with_flags = matches!(mode, SelectMode::Flagged).then_some(&flags[..]);
                let (got_keys, got_values, kept, held, _) = record_with_scratch::<u32, u32>(
                    &ctx,
                    &plan,
                    &keys,
                    with_flags,
                    indirect,
                    params,
                    Some(&mut scratch),
                );
                let what = format!("{path:?} {tuning:?} {mode:?} round {round} n {n} {indirect:?}");
                assert_eq!(kept as usize, want_keys.len(), "{what}");
                assert_eq!(got_keys, want_keys, "{what}");
                assert_eq!(got_values, want_values, "{what}");
                assert!(held, "{what}: a write past the kept elements");
                if path == SelectPath::Lookback {
                    let words: &[u32] = bytemuck::cast_slice(scratch.mapped().unwrap());
                    let dirty = words.iter().enumerate().find(|&(i, &w)| i != 1 && w != 0);
                    assert!(dirty.is_none(), "{what}: scratch word {dirty:?} left non-zero");
                }
            }
        }
    }
}
