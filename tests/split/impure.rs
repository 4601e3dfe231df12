//! GLSL bucket functions that are not pure: no write outside the outputs, the status bit,
//! nothing changed by the host calls.

use super::*;

/// A GLSL bucket function that answers consistently in the count and in the ranking but not in
/// a second look at the same key in the pass that places the elements (where the staged tile
/// paths and the Onesweep split compute a staged key's bucket again): it counts its calls in a
/// buffer (as [`two_faced_glsl`]); the first `vkalgo_params.w` calls (the count's) and each
/// invocation's first `vkalgo_params.x >> 24` later calls (its items' ranking) answer the key's
/// bits mod m (m = `vkalgo_params.x & 0xFFFF`), every later call m - 1. 4- and 8-byte integer
/// keys.
fn second_look_glsl(key_type: KeyType) -> String {
    let bits = match key_type {
        KeyType::U32 | KeyType::I32 => "uint(key) % m",
        KeyType::U64 | KeyType::I64 => "uint(uint64_t(key) % uint64_t(m))",
        other => panic!("no second-look function for {other:?}"),
    };
    format!(
        "layout(buffer_reference, std430, buffer_reference_align = 4) buffer VkalgoTestCalls {{ uint calls; }};\n\
         uint vkalgo_test_later_calls = 0u;\n\
         uint vkalgo_bucket({} key) {{\n\
             uint m = vkalgo_params.x & 0xFFFFu;\n\
             VkalgoTestCalls counter = VkalgoTestCalls(uint64_t(vkalgo_params.y) | (uint64_t(vkalgo_params.z) << 32));\n\
             if (atomicAdd(counter.calls, 1u) < vkalgo_params.w) {{\n\
                 return {bits};\n\
             }}\n\
             vkalgo_test_later_calls += 1u;\n\
             return vkalgo_test_later_calls <= (vkalgo_params.x >> 24) ? {bits} : m - 1u;\n\
         }}\n",
        glsl_key_name(key_type)
    )
}

/// A bucket function that answers differently in the pass that counts the buckets and the pass
/// that places the elements ([`two_faced_glsl`]) on every path, every key type and every value
/// type (spread over the paths): no write outside the output ranges (canary words before and
/// after keys_out, values_out, offsets and scratch; nothing past the count), the inputs
/// unchanged, and the status word's [`vkalgo::split::STATUS_INCONSISTENT`] set.
#[test]
fn inconsistent_bucket_fn_record_layer() {
    use KeyType::*;
    use SplitPath::*;
    let case = |ctx: &Context, path, m: u32, key_type, value_type, counts: &[(usize, bool)], max: usize| {
        let desc = SplitDesc {
            path,
            glsl: Some(two_faced_glsl(key_type)),
            ..SplitDesc::new(key_type, value_type, m, BucketFn::Glsl, max as u64)
        };
        for &(count, indirect) in counts {
            two_faced_record(ctx, &desc, count, indirect);
        }
    };
    let ctx = context();
    let col = column_length(&ctx, 5);
    let (n, max) = (3 * col + 5, 3 * col + 12);
    let both = [(n, false), (col + 1, true)];
    let direct = [(n, false)];
    let small_limit = |m| {
        ctx.split_plan(&SplitDesc::new(U32, ValueType::U32, m, BucketFn::Ids, 1 << 16))
            .unwrap()
            .small_limit() as usize
    };
    let small_max = small_limit(5).min(3000);
    case(
        &ctx,
        Small,
        3,
        U32,
        ValueType::None,
        &[(small_max - 3, false), (100, true)],
        small_max,
    );
    case(
        &ctx,
        Small,
        5,
        F64,
        ValueType::U64,
        &[(small_max - 1, false)],
        small_max,
    );
    case(&ctx, GlobalCounters, 3, U32, ValueType::U32, &both, max);
    case(&ctx, GlobalCounters, 40, I64, ValueType::None, &direct, max);
    // Register counters with subgroup positions (keys alone; pairs two tiles a workgroup),
    // register counters whose rows become positions (8-byte values), shared counters.
    case(&ctx, TileDirect, 3, U32, ValueType::None, &both, max);
    case(&ctx, TileDirect, 3, U32, ValueType::U32, &both, max);
    case(&ctx, TileDirect, 3, U64, ValueType::U64, &direct, max);
    case(&ctx, TileDirect, 20, F32, ValueType::U32, &direct, max);
    // Per-subgroup starts with the table of lane masks (u32 -> u32), register rows (8-byte
    // keys), shared rows; the staged tile's buckets are computed again from the keys.
    case(&ctx, TileStaged, 3, U32, ValueType::U32, &both, max);
    case(&ctx, TileStaged, 3, I64, ValueType::None, &direct, max);
    case(&ctx, TileStaged, 40, I32, ValueType::U64, &direct, max);
    // Keys alone (per-subgroup starts, several tiles a workgroup), pairs (rows to positions).
    case(&ctx, TileSubgroupStaged, 3, U32, ValueType::None, &both, 9 * col);
    case(&ctx, TileSubgroupStaged, 3, F32, ValueType::U32, &direct, max);
    case(&ctx, TileSubgroupStaged, 3, U64, ValueType::U64, &direct, max);
    // A second look at a staged key answering otherwise than the ranking: the staged paths'
    // runs of the staged tile (per-subgroup starts, rows to positions), the subgroup-staged
    // path's runs of each subgroup (keys alone several tiles a workgroup; pairs).
    let second_look = |ctx: &Context, path, m: u32, key_type, value_type, count: usize, max: usize| {
        let items = 4;
        let desc = SplitDesc {
            path,
            glsl: Some(second_look_glsl(key_type)),
            tile_items: items,
            ..SplitDesc::new(key_type, value_type, m, BucketFn::Glsl, max as u64)
        };
        two_faced_record_x(ctx, &desc, count, false, m | (items << 24));
    };
    second_look(&ctx, TileStaged, 3, U32, ValueType::U32, n, max);
    second_look(&ctx, TileStaged, 3, I64, ValueType::None, n, max);
    second_look(&ctx, TileStaged, 40, U32, ValueType::U64, n, max);
    second_look(&ctx, TileSubgroupStaged, 3, U32, ValueType::None, n, 9 * col);
    second_look(&ctx, TileSubgroupStaged, 3, I32, ValueType::U32, n, max);
    // One tile a workgroup (8-byte values; keys alone in one partial tile): the second look
    // alone answers otherwise.
    second_look(&ctx, TileSubgroupStaged, 3, U32, ValueType::U64, n, max);
    let one_tile = ctx
        .split_plan(&SplitDesc {
            path: TileSubgroupStaged,
            tile_items: 4,
            ..SplitDesc::new(U32, ValueType::None, 3, BucketFn::Ids, 9 * col as u64)
        })
        .unwrap()
        .column_length() as usize;
    second_look(
        &ctx,
        TileSubgroupStaged,
        3,
        U32,
        ValueType::None,
        one_tile - 5,
        9 * col,
    );
    let ctx = context_with_lookback(true);
    if !ctx.profile().int64_atomics {
        eprintln!("no 64-bit atomics: the Onesweep split is not tested");
        return;
    }
    let tile = ctx
        .sort_plan(&vkalgo::SortDesc::new(U32, ValueType::U32, 1 << 20))
        .expect("sort plan")
        .tile_size() as usize;
    let (n, max) = (3 * tile + 5, 3 * tile + 12);
    let both = [(n, false), (tile + 1, true)];
    let forced = |key_type, value_type| SortTuning {
        lookback_spins: u32::MAX,
        ..SortTuning::for_device(&ctx, key_type, value_type, 1 << 20)
    };
    for (m, key_type, value_type, forced_fallback) in [
        (5u32, U32, ValueType::U32, false),
        (7, F64, ValueType::None, false),
        (100, I32, ValueType::U64, true),
        (300, U32, ValueType::None, false),
        (257, I64, ValueType::U32, true),
    ] {
        let desc = SplitDesc {
            path: Onesweep,
            glsl: Some(two_faced_glsl(key_type)),
            onesweep_tuning: forced_fallback.then(|| forced(key_type, value_type)),
            ..SplitDesc::new(key_type, value_type, m, BucketFn::Glsl, max as u64)
        };
        for &(count, indirect) in &both {
            two_faced_record(&ctx, &desc, count, indirect);
        }
    }
    // A second look at a staged key (the Onesweep scatter computes its digit again).
    for (m, key_type, value_type) in [(5u32, U32, ValueType::U32), (300, U64, ValueType::None)] {
        let tuning = SortTuning::for_device(&ctx, key_type, value_type, max as u64);
        let desc = SplitDesc {
            path: Onesweep,
            glsl: Some(second_look_glsl(key_type)),
            onesweep_tuning: Some(tuning),
            ..SplitDesc::new(key_type, value_type, m, BucketFn::Glsl, max as u64)
        };
        two_faced_record_x(&ctx, &desc, n, false, m | (tuning.keys_per_thread << 24));
    }
}

/// The host calls, Rust (`multisplit`, `multisplit_pairs`) and C (`vkalgo_multisplit_host`),
/// with bucket functions that are not pure: [`two_faced_glsl`] on the small path and the tile
/// paths `Auto` takes above it (keys alone and pairs, 4- and 8-byte keys), and
/// [`PRIVATE_STATE_GLSL`] on the small path: `Error::InvalidArgument`
/// (`VKALGO_ERROR_INVALID_ARGUMENT`) with a message naming the impure function, and the
/// caller's keys, values and offsets unchanged.
#[test]
fn inconsistent_bucket_fn_host() {
    use vkalgo_ffi::split::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    assert_eq!(
        (
            VKALGO_MULTISPLIT_STATUS_BAD_BUCKET,
            VKALGO_MULTISPLIT_STATUS_INCONSISTENT
        ),
        (
            vkalgo::split::STATUS_BAD_BUCKET,
            vkalgo::split::STATUS_INCONSISTENT
        )
    );
    let ctx = context();
    let mut rng = Rng(77);
    let mut calls = GpuBuffer::new(&ctx, 16, MemoryLocation::CpuToGpu, "calls").expect("buffer");
    let address = calls.address();
    let small = ctx
        .split_plan(&SplitDesc::new(
            KeyType::U32,
            ValueType::U32,
            4,
            BucketFn::Ids,
            1 << 16,
        ))
        .unwrap()
        .small_limit() as usize;
    let refused = |what: &str, result: vkalgo::Result<Vec<u64>>| match result {
        Err(Error::InvalidArgument(message)) => {
            assert!(message.contains("not pure"), "{what}: {message}")
        }
        other => panic!("{what}: {other:?}"),
    };
    let u32_src = two_faced_glsl(KeyType::U32);
    let f64_src = two_faced_glsl(KeyType::F64);
    for n in [small - 1, 3 * small + 5] {
        let m = 4u32;
        let params = [m, address as u32, (address >> 32) as u32, n as u32];
        let what = format!("Rust n={n}");
        // u32 keys alone, then u32 -> u64 pairs; f64 keys alone.
        calls.mapped().unwrap()[..4].fill(0);
        let keys0 = rng.vec_u32(n);
        let mut keys = keys0.clone();
        let b = Bucketing::Glsl {
            bucket_count: m,
            source: &u32_src,
            params,
        };
        refused(&format!("{what} keys"), ctx.multisplit(&mut keys, &b));
        assert_eq!(keys, keys0, "{what}: keys changed");
        calls.mapped().unwrap()[..4].fill(0);
        let values0: Vec<u64> = (0..n as u64).map(|i| i << 40 | i).collect();
        let mut values = values0.clone();
        refused(
            &format!("{what} pairs"),
            ctx.multisplit_pairs(&mut keys, &mut values, &b),
        );
        assert_eq!((&keys, &values), (&keys0, &values0), "{what}: pairs changed");
        calls.mapped().unwrap()[..4].fill(0);
        let doubles0: Vec<f64> = keys0.iter().map(|&k| k as f64 - 1e9).collect();
        let mut doubles = doubles0.clone();
        let b = Bucketing::Glsl {
            bucket_count: m,
            source: &f64_src,
            params,
        };
        refused(&format!("{what} f64"), ctx.multisplit(&mut doubles, &b));
        assert!(same_bits(&doubles, &doubles0), "{what}: f64 keys changed");
    }
    // Private state on the small path (Rust).
    let keys0 = rng.vec_u32(small - 3);
    let mut keys = keys0.clone();
    let b = Bucketing::Glsl {
        bucket_count: 5,
        source: PRIVATE_STATE_GLSL,
        params: [5, 0, 0, 0],
    };
    refused("Rust private state", ctx.multisplit(&mut keys, &b));
    assert_eq!(keys, keys0, "Rust private state: keys changed");
    // C: the counting function above and below the small limit, the private state.
    unsafe {
        let cctx = c_context_with_queue(&ctx);
        let two_faced = std::ffi::CString::new(u32_src.as_str()).unwrap();
        let private = std::ffi::CString::new(PRIVATE_STATE_GLSL).unwrap();
        for (n, src, params) in [
            (
                small - 1,
                &two_faced,
                [4, address as u32, (address >> 32) as u32, (small - 1) as u32],
            ),
            (
                3 * small + 5,
                &two_faced,
                [4, address as u32, (address >> 32) as u32, (3 * small + 5) as u32],
            ),
            (small - 3, &private, [4, 0, 0, 0]),
        ] {
            calls.mapped().unwrap()[..4].fill(0);
            let keys0 = rng.vec_u32(n);
            let values0: Vec<u32> = (0..n as u32).collect();
            let (mut keys, mut values) = (keys0.clone(), values0.clone());
            let mut offsets = vec![77u64; 5];
            let desc = VkalgoMultisplitDesc {
                key_type: VKALGO_KEY_U32,
                value_type: VKALGO_VALUE_U32,
                bucket_count: 4,
                bucket_fn: VKALGO_BUCKET_GLSL,
                glsl: src.as_ptr(),
                params,
                ..Default::default()
            };
            let r = vkalgo_multisplit_host(
                cctx,
                &desc,
                keys.as_mut_ptr().cast(),
                values.as_mut_ptr().cast(),
                n,
                offsets.as_mut_ptr(),
            );
            let what = format!("C n={n}");
            assert_eq!(r, VkalgoResult::VkalgoErrorInvalidArgument, "{what}");
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message())
                .to_string_lossy()
                .into_owned();
            assert!(message.contains("not pure"), "{what}: {message}");
            assert_eq!((&keys, &values), (&keys0, &values0), "{what}: changed");
            assert_eq!(offsets, vec![77u64; 5], "{what}: offsets written");
        }
        vkalgo_context_destroy(cctx);
    }
}
