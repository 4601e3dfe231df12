//! The kernel paths: staged tiles, Onesweep, subgroup-staged tiles and their automatic rule,
//! the matrix scanned by look-back.

use super::*;

/// Splits `n` doubles (see [`mixed_f64`]) into 18 buckets by a GLSL function of their sign and
/// fraction, and checks them.
fn check_sign_fraction_glsl(ctx: &Context, rng: &mut Rng, n: usize, what: &str) {
    let src = "uint vkalgo_bucket(double k) { return k < 0.0 ? 0u : (k < 1.0 ? 1u : 17u); }";
    let keys: Vec<f64> = (0..n).map(|i| mixed_f64(i, rng.next_u64(), i)).collect();
    let cpu: Vec<u32> = keys.iter().map(|&k| sign_fraction_bucket(k, 17)).collect();
    let b = Bucketing::Glsl {
        bucket_count: 18,
        source: src,
        params: [0; 4],
    };
    check(ctx, &keys, &b, Some((&cpu, 18)), &format!("{what} glsl f64"));
}

/// One key type on the staged tile path (lavapipe, no look-back): BITS into 16 buckets (pairs
/// staged, keys alone direct) and 64 (both staged), with 4- and 8-byte values, and SPLITTERS
/// (the bucket-start search) into 8.
fn staged_key_type<K: TestKey>(ctx: &Context, words: &[u32], offset: u32, name: &str) {
    let n = words.len();
    let keys: Vec<K> = words
        .iter()
        .enumerate()
        .map(|(i, &x)| K::from_word(x, i))
        .collect();
    for m in [16u32, 64] {
        for value_type in [ValueType::U32, ValueType::U64] {
            let desc = SplitDesc::new(K::KEY_TYPE, value_type, m, BucketFn::Bits, n as u64);
            let plan = ctx.split_plan(&desc).expect("plan");
            assert_eq!(plan.path(), SplitPath::TileStaged, "{name} {value_type:?} m={m}");
        }
        let b = bits(m, offset);
        check(ctx, &keys, &b, None, &format!("staged {name} bits m={m}"));
        let (buckets, _) = cpu_buckets(&keys, &b);
        let mut want_keys = keys.clone();
        let mut want_values: Vec<u64> = (0..n as u64).map(|i| i << 33 | i).collect();
        let mut got_keys = keys.clone();
        let mut got_values = want_values.clone();
        let want_offsets = reference::multisplit(&mut want_keys, Some(&mut want_values), &buckets, m);
        let offsets = ctx
            .multisplit_pairs(&mut got_keys, &mut got_values, &b)
            .unwrap_or_else(|e| panic!("staged {name} u64 values m={m}: {e}"));
        assert_eq!(offsets, want_offsets, "staged {name} u64 values m={m}: offsets");
        assert!(
            got_values == want_values,
            "staged {name} u64 values m={m}: values"
        );
        assert!(
            same_bits(&got_keys, &want_keys),
            "staged {name} u64 values m={m}: keys"
        );
    }
    let picks: Vec<u32> = (0..7).map(|i| words[(i * 611) % n]).collect();
    check_splitters::<K>(ctx, words, &picks, true, None, &format!("staged {name}"));
}

/// The path `SplitPath::Auto` takes for a split of up to 2^20 elements (GLSL: key % m).
fn auto_path(
    ctx: &Context,
    key_type: KeyType,
    value_type: ValueType,
    m: u32,
    bucket_fn: BucketFn,
) -> SplitPath {
    let glsl = "uint vkalgo_bucket(uint k) { return k % vkalgo_params.x; }";
    let desc = SplitDesc {
        glsl: (bucket_fn == BucketFn::Glsl).then(|| glsl.to_string()),
        ..SplitDesc::new(key_type, value_type, m, bucket_fn, 1 << 20)
    };
    ctx.split_plan(&desc).expect("plan").path()
}

/// The staged tile path, whose scatter recomputes BITS and GLSL buckets from the staged keys
/// and searches the tile's bucket starts for SPLITTERS and IDS: every key type, adversarial
/// data, 4- and 8-byte values, above the small path's limit; and where `Auto` takes it.
#[test]
fn staged_tile_path() {
    // Auto on a device that runs the look-back: u32 -> u32 pairs into 4..=32 buckets by BITS
    // or GLSL are staged (BITS 3..=12 and GLSL 3..=7 subgroup-staged where m fits the
    // subgroup: see subgroup_staged_tile_path), by IDS from 4 (u32 values) and by SPLITTERS
    // from 5 (above the direct path's 4); keys alone, other bucket counts and 8-byte values
    // are not.
    let ctx = context_with_lookback(true);
    for (key_type, value_type, m, bucket_fn, staged) in [
        (KeyType::U32, ValueType::U32, 16u32, BucketFn::Bits, true),
        (KeyType::F32, ValueType::U32, 16, BucketFn::Bits, true),
        (KeyType::U32, ValueType::U32, 32, BucketFn::Bits, true),
        (KeyType::U32, ValueType::U32, 20, BucketFn::Glsl, true),
        (KeyType::U32, ValueType::U32, 8, BucketFn::Glsl, true),
        (KeyType::U32, ValueType::U32, 4, BucketFn::Ids, true),
        (KeyType::U32, ValueType::U32, 3, BucketFn::Ids, false),
        (KeyType::U32, ValueType::U64, 4, BucketFn::Ids, false),
        (KeyType::I32, ValueType::U32, 32, BucketFn::Glsl, true),
        (KeyType::U32, ValueType::U32, 2, BucketFn::Bits, false),
        (KeyType::U32, ValueType::U32, 64, BucketFn::Bits, false),
        (KeyType::U32, ValueType::U32, 33, BucketFn::Glsl, false),
        (KeyType::U32, ValueType::None, 8, BucketFn::Bits, false),
        (KeyType::U32, ValueType::U64, 8, BucketFn::Bits, false),
        (KeyType::U64, ValueType::U32, 8, BucketFn::Bits, false),
        (KeyType::U32, ValueType::U32, 8, BucketFn::Splitters, true),
        (KeyType::U32, ValueType::U32, 4, BucketFn::Splitters, false),
    ] {
        let path = auto_path(&ctx, key_type, value_type, m, bucket_fn);
        assert_eq!(
            path == SplitPath::TileStaged,
            staged,
            "{key_type:?} -> {value_type:?} m={m} {bucket_fn:?}: Auto took {path:?}"
        );
    }
    // Keys alone by IDS: direct up to 23 buckets, staged from 24 where m fits the subgroup
    // (per-subgroup starts), else direct up to 32.
    let lanes = ctx.profile().min_subgroup_size;
    for (m, staged) in [(23u32, false), (24, 24 <= lanes), (32, 32 <= lanes), (33, true)] {
        let path = auto_path(&ctx, KeyType::U32, ValueType::None, m, BucketFn::Ids);
        assert_eq!(
            path == SplitPath::TileStaged,
            staged,
            "keys by IDS m={m}: Auto took {path:?}"
        );
    }

    let ctx = context_with_lookback(false);
    let plan = ctx
        .split_plan(&SplitDesc::new(
            KeyType::U32,
            ValueType::U32,
            8,
            BucketFn::Bits,
            1 << 20,
        ))
        .expect("plan");
    let n = plan.small_limit() as usize + 2 * plan.column_length() as usize + 7;
    let mut rng = Rng(23);
    for (name, gen) in DISTRIBUTIONS[..6].iter().copied() {
        let raw: Vec<u32> = (0..n).map(|i| gen(&mut rng, i)).collect();
        staged_key_type::<u32>(&ctx, &raw, 26, &format!("u32 {name}"));
    }
    let raw = words_with_specials(&mut rng, n, &FLOAT_SPECIALS);
    staged_key_type::<i32>(&ctx, &raw, 26, "i32");
    staged_key_type::<f32>(&ctx, &raw, 26, "f32");
    staged_key_type::<u64>(&ctx, &raw, 58, "u64");
    staged_key_type::<i64>(&ctx, &raw, 58, "i64");
    staged_key_type::<f64>(&ctx, &raw, 58, "f64");
    // GLSL with parameters (u32) and on doubles (signs, fractions, NaNs); IDS.
    for m in [5u32, 8, 32, 64] {
        let keys = rng.vec_u32(n);
        check_scaled_glsl(&ctx, &keys, m, "staged");
        let ids: Vec<u32> = (0..n).map(|_| rng.next_u32() % m).collect();
        check_ids(&ctx, &keys, &ids, m, &format!("staged ids m={m}"));
    }
    check_sign_fraction_glsl(&ctx, &mut rng, n, "staged");
}

/// Splits the keys made from `words` by the splitters made from `picks` (sorted in the key
/// order, the first repeated: an empty bucket) on the explicit Onesweep path, keys alone and
/// with u32 values, through the record layer.
fn onesweep_splitters<K: TestKey>(ctx: &Context, words: &[u32], picks: &[u32], name: &str) {
    let (keys, splitters) = keys_and_splitters::<K>(words, picks, true);
    let buckets: Vec<u32> = keys
        .iter()
        .map(|&k| reference::splitters_bucket(k, &splitters))
        .collect();
    let m = picks.len() as u32 + 1;
    for value_type in [ValueType::None, ValueType::U32] {
        let desc = SplitDesc {
            path: SplitPath::Onesweep,
            ..SplitDesc::new(K::KEY_TYPE, value_type, m, BucketFn::Splitters, keys.len() as u64)
        };
        let what = format!("onesweep splitters {name} {value_type:?} m={m}");
        check_on_path(ctx, &desc, &keys, &buckets, &splitters, &what);
    }
}

#[test]
fn onesweep_path() {
    let ctx = context_with_lookback(true);
    let plan = ctx
        .split_plan(&SplitDesc::new(
            KeyType::U32,
            ValueType::U64,
            16,
            BucketFn::Bits,
            1 << 20,
        ))
        .expect("plan");
    assert_eq!(plan.path(), SplitPath::Onesweep, "Auto from 16 buckets");
    // SPLITTERS stay on a tile path wherever one fits.
    for (m, want_onesweep) in [(8, false), (256, false), (4096, true)] {
        let path = auto_path(&ctx, KeyType::U32, ValueType::None, m, BucketFn::Splitters);
        assert_eq!(
            path == SplitPath::Onesweep,
            want_onesweep,
            "SPLITTERS into {m}: {path:?}"
        );
    }
    let small = ctx.split_plan(&SplitDesc::new(
        KeyType::U32,
        ValueType::U32,
        15,
        BucketFn::Bits,
        1 << 20,
    ));
    assert!(small.is_err(), "15 buckets: BITS needs a power of two");
    let tile = ctx
        .sort_plan(&vkalgo::SortDesc::new(KeyType::U32, ValueType::U32, 1 << 20))
        .expect("sort plan")
        .tile_size() as usize;
    let n = plan.small_limit() as usize + 3 * tile + 7;
    let mut rng = Rng(11);
    for (name, gen) in DISTRIBUTIONS[..6].iter().copied() {
        let raw: Vec<u32> = (0..n).map(|i| gen(&mut rng, i)).collect();
        for (m, offset) in [(16u32, 28u32), (256, 0), (32, 30)] {
            check(
                &ctx,
                &raw,
                &bits(m, offset),
                None,
                &format!("onesweep u32 {name} m={m} offset={offset}"),
            );
        }
    }
    // Every key type: BITS and SPLITTERS (floats with -0.0, NaNs and infinities).
    let raw = words_with_specials(&mut rng, n, &FLOAT_SPECIALS);
    // 257 and 4096 buckets: two digit passes, the offsets searched in the output.
    for m in [17u32, 256, 257, 4096] {
        let picks: Vec<u32> = (0..m - 1).map(|i| raw[(i as usize * 37) % n]).collect();
        // BITS with the largest power of two below m, at an offset inside each key width.
        let bm = m.next_power_of_two() / 2;
        let what = |t: &str| format!("onesweep {t} m={m}");
        check_splitters::<u32>(&ctx, &raw, &picks, true, Some((bm, 24)), &what("u32"));
        check_splitters::<i32>(&ctx, &raw, &picks, true, Some((bm, 3)), &what("i32"));
        check_splitters::<f32>(&ctx, &raw, &picks, true, Some((bm, 27)), &what("f32"));
        check_splitters::<u64>(&ctx, &raw, &picks, true, Some((bm, 60)), &what("u64"));
        check_splitters::<i64>(&ctx, &raw, &picks, true, Some((bm, 30)), &what("i64"));
        check_splitters::<f64>(&ctx, &raw, &picks, true, Some((bm, 56)), &what("f64"));
    }
    // SPLITTERS on the explicit Onesweep path (Auto keeps them on the tile paths that fit):
    // the plain search (17 and 64 buckets) and the splitter index (65; 257: two digit passes).
    for m in [17u32, 64, 65, 257] {
        let words = words_with_specials(&mut rng, 3 * tile + 7, &FLOAT_SPECIALS);
        let picks: Vec<u32> = (0..m - 1)
            .map(|i| words[(i as usize * 53) % words.len()])
            .collect();
        onesweep_splitters::<u32>(&ctx, &words, &picks, "u32");
        onesweep_splitters::<f32>(&ctx, &words, &picks, "f32");
        onesweep_splitters::<i64>(&ctx, &words, &picks, "i64");
    }
    // GLSL with parameters.
    for m in [16u32, 100, 256, 300, 65536] {
        check_scaled_glsl(&ctx, &rng.vec_u32(n), m, "onesweep");
    }
    check_sign_fraction_glsl(&ctx, &mut rng, n, "onesweep");
    // A GLSL id >= m: refused, keys unchanged.
    let mut keys = rng.vec_u32(n);
    keys[n / 2] = u32::MAX;
    let before = keys.clone();
    let b = Bucketing::Glsl {
        bucket_count: 64,
        source: MOD_OR_BAD,
        params: [64, 0, 0, 0],
    };
    match ctx.multisplit(&mut keys, &b) {
        Err(Error::InvalidArgument(_)) => {}
        other => panic!("onesweep bad GLSL id: {other:?}"),
    }
    assert_eq!(keys, before, "onesweep bad GLSL id: keys changed");
    // The record layer on the explicit path, with the sort's default tuning and with the
    // look-back fallback forced for every tile.
    let forced = SortTuning {
        lookback_spins: u32::MAX,
        ..SortTuning::for_device(&ctx, KeyType::U32, ValueType::U32, 1 << 20)
    };
    for (m, tuning) in [
        (2u32, None),
        (3, Some(forced)),
        (256, None),
        (200, Some(forced)),
        (1000, None),
        (999, Some(forced)),
    ] {
        let max = 4 * tile + 5;
        let desc = SplitDesc {
            path: SplitPath::Onesweep,
            glsl: Some(MOD_OR_BAD.to_string()),
            onesweep_tuning: tuning,
            ..SplitDesc::new(KeyType::U32, ValueType::U32, m, BucketFn::Glsl, max as u64)
        };
        record_case(&ctx, &desc, max, false, false);
        record_case(&ctx, &desc, max - tile - 1, true, false);
        record_case(&ctx, &desc, 1, false, false);
        record_case(&ctx, &desc, 0, true, false);
        record_case(&ctx, &desc, 0, false, false);
        record_case(&ctx, &desc, max - 3, false, true);
        record_case(&ctx, &desc, tile + 1, true, true);
    }
    // Refused: IDS, one bucket.
    for (m, f) in [(16u32, BucketFn::Ids), (1, BucketFn::Bits)] {
        let desc = SplitDesc {
            path: SplitPath::Onesweep,
            ..SplitDesc::new(KeyType::U32, ValueType::None, m, f, 1000)
        };
        match ctx.split_plan(&desc) {
            Err(Error::InvalidArgument(_)) => {}
            other => panic!("onesweep m={m} {f:?}: {other:?}"),
        }
    }
}

/// Splits `keys` on `desc`'s path (its value type with the element indices as values) through
/// the record layer and compares keys, values and offsets exactly with the CPU counting sort
/// of `buckets` (uploaded as the ids for IDS; `splitters` for SPLITTERS; vkalgo_params.x = m
/// for GLSL).
fn check_on_path<K: TestKey>(
    ctx: &Context,
    desc: &SplitDesc,
    keys: &[K],
    buckets: &[u32],
    splitters: &[K],
    what: &str,
) {
    let (n, m) = (keys.len(), desc.bucket_count);
    let plan = ctx
        .split_plan(desc)
        .unwrap_or_else(|e| panic!("{what}: plan: {e}"));
    assert_eq!(plan.path(), desc.path, "{what}: path");
    let req = plan.memory_requirements();
    let value_size = desc.value_type.bytes() as usize;
    let value_of = |i: u64| (i << 33 | i).to_le_bytes()[..value_size].to_vec();
    let values: Vec<u8> = (0..n as u64).flat_map(value_of).collect();
    let key_bytes: &[u8] = bytemuck::cast_slice(keys);
    let aux: &[u8] = match desc.bucket_fn {
        BucketFn::Ids => bytemuck::cast_slice(buckets),
        BucketFn::Splitters => bytemuck::cast_slice(splitters),
        _ => &[],
    };
    let input = |data: &[u8], name: &str| {
        let mut b =
            GpuBuffer::new(ctx, data.len().max(4) as u64, MemoryLocation::CpuToGpu, name).expect("buffer");
        b.mapped().expect("mapped")[..data.len()].copy_from_slice(data);
        b
    };
    let output = |size: usize, name: &str| {
        GpuBuffer::new(ctx, size.max(4) as u64, MemoryLocation::GpuToCpu, name).expect("buffer")
    };
    let (keys_b, values_b, aux_b) = (
        input(key_bytes, "keys"),
        input(&values, "values"),
        input(aux, "aux"),
    );
    let (mut keys_out, mut values_out) = (
        output(key_bytes.len(), "keys_out"),
        output(values.len(), "values_out"),
    );
    let mut offsets = output(req.offsets.size as usize, "offsets");
    // Poisoned scratch: the split must clear whatever it reads zeroed.
    let scratch = input(&vec![0xA5; req.scratch.size as usize], "scratch");
    let with_values = value_size > 0;
    let args = SplitArgs {
        keys: keys_b.sub_range(0, key_bytes.len() as u64),
        values: with_values.then(|| values_b.sub_range(0, values.len() as u64)),
        keys_out: keys_out.sub_range(0, key_bytes.len() as u64),
        values_out: with_values.then(|| values_out.sub_range(0, values.len() as u64)),
        splitters: (desc.bucket_fn == BucketFn::Splitters).then(|| aux_b.sub_range(0, aux.len() as u64)),
        bucket_ids: (desc.bucket_fn == BucketFn::Ids).then(|| aux_b.sub_range(0, aux.len() as u64)),
        offsets: offsets.sub_range(0, req.offsets.size),
        scratch: scratch.sub_range(0, req.scratch.size),
        count: ElementCount::Direct(n as u64),
        params: [m, 0, 0, 0],
    };
    ctx.submit_and_wait(|cmd| unsafe {
        plan.record(cmd, &args)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut want_keys = keys.to_vec();
    let mut order: Vec<u64> = (0..n as u64).collect();
    let want_offsets = reference::multisplit(&mut want_keys, Some(&mut order), buckets, m);
    let got_offsets: Vec<u64> = read(&mut offsets)[..m as usize + 1]
        .iter()
        .map(|&x| x as u64)
        .collect();
    assert_eq!(got_offsets, want_offsets, "{what}: offsets");
    assert!(
        &keys_out.mapped().expect("mapped")[..key_bytes.len()] == bytemuck::cast_slice::<K, u8>(&want_keys),
        "{what}: keys differ"
    );
    let want_values: Vec<u8> = order.into_iter().flat_map(value_of).collect();
    assert!(
        values_out.mapped().expect("mapped")[..values.len()] == want_values[..],
        "{what}: values (stability) differ"
    );
}

/// The CPU form of a test's GLSL bucket function: (word, the double key is negative, m).
type GlslBucket = fn(u32, bool, u32) -> u32;

/// A GLSL bucket function of each key type, with `vkalgo_params.x = m`, and its CPU form
/// for keys made by [`TestKey::from_word`] from `word`: the word mod m (doubles: 1 below
/// zero, else 0, mod m).
fn glsl_word_mod(key_type: KeyType) -> (&'static str, GlslBucket) {
    let word_mod: GlslBucket = |word, _, m| word % m;
    match key_type {
        KeyType::U32 => (
            "uint vkalgo_bucket(uint k) { return k % vkalgo_params.x; }",
            word_mod,
        ),
        KeyType::I32 => (
            "uint vkalgo_bucket(int k) { return uint(k) % vkalgo_params.x; }",
            word_mod,
        ),
        KeyType::F32 => (
            "uint vkalgo_bucket(float k) { return floatBitsToUint(k) % vkalgo_params.x; }",
            word_mod,
        ),
        KeyType::U64 => (
            "uint vkalgo_bucket(uint64_t k) { return uint(k >> 32) % vkalgo_params.x; }",
            word_mod,
        ),
        KeyType::I64 => (
            "uint vkalgo_bucket(int64_t k) { return uint(uint64_t(k) >> 32) % vkalgo_params.x; }",
            word_mod,
        ),
        KeyType::F64 => (
            "uint vkalgo_bucket(double k) { return uint(k < 0.0) % vkalgo_params.x; }",
            |_, negative, m| negative as u32 % m,
        ),
        other => panic!("no GLSL bucket function for {other:?}"),
    }
}

/// One key type on the subgroup-staged tile path: keys alone, 4- and 8-byte values, BITS,
/// GLSL, SPLITTERS (repeated, so some buckets stay empty) and IDS, for m from 1 to the
/// smallest subgroup size.
fn subgroup_staged_key_type<K: TestKey>(
    ctx: &Context,
    words: &[u32],
    offset: u32,
    tile_items: u32,
    name: &str,
) {
    let n = words.len();
    let keys: Vec<K> = words
        .iter()
        .enumerate()
        .map(|(i, &x)| K::from_word(x, i))
        .collect();
    let (glsl, glsl_bucket) = glsl_word_mod(K::KEY_TYPE);
    let negative: Vec<bool> = words
        .iter()
        .enumerate()
        .map(|(i, &x)| f64::from_bits(u64::from_word(x, i)) < 0.0)
        .collect();
    let mut rng = Rng(n as u64 + offset as u64);
    for m in [1u32, 2, 3, ctx.profile().min_subgroup_size] {
        for bucket_fn in [BucketFn::Bits, BucketFn::Glsl, BucketFn::Splitters, BucketFn::Ids] {
            if (bucket_fn == BucketFn::Bits && !m.is_power_of_two())
                || (bucket_fn == BucketFn::Splitters && m < 2)
            {
                continue;
            }
            // Splitters: words of the input (the first one twice), in key order.
            let mut splitters: Vec<K> = (0..m as usize - 1)
                .map(|i| K::from_word(words[(i.max(1) * 611) % n], 0))
                .collect();
            splitters.sort_by_key(|k| k.ordered_bits());
            let buckets: Vec<u32> = match bucket_fn {
                BucketFn::Bits => keys
                    .iter()
                    .map(|&k| reference::bits_bucket(k, m, offset))
                    .collect(),
                BucketFn::Splitters => keys
                    .iter()
                    .map(|&k| reference::splitters_bucket(k, &splitters))
                    .collect(),
                BucketFn::Glsl => (0..n).map(|i| glsl_bucket(words[i], negative[i], m)).collect(),
                BucketFn::Ids => (0..n).map(|_| rng.next_u32() % m).collect(),
                other => panic!("no reference for {other:?}"),
            };
            for value_type in [ValueType::None, ValueType::U32, ValueType::U64] {
                let desc = SplitDesc {
                    path: SplitPath::TileSubgroupStaged,
                    tile_items,
                    bit_offset: if bucket_fn == BucketFn::Bits { offset } else { 0 },
                    glsl: (bucket_fn == BucketFn::Glsl).then(|| glsl.to_string()),
                    ..SplitDesc::new(K::KEY_TYPE, value_type, m, bucket_fn, n as u64)
                };
                let what = format!("subgroup-staged {name} {value_type:?} {bucket_fn:?} m={m} n={n}");
                check_on_path(ctx, &desc, &keys, &buckets, &splitters, &what);
            }
        }
    }
}

/// For u32 keys split into `m` buckets by `bucket_fn` (BITS from bit 0, GLSL as `glsl_bucket`):
/// m - 1 random sorted splitters and each key's bucket (random ids for IDS), drawn from `rng`.
fn random_u32_buckets(
    rng: &mut Rng,
    keys: &[u32],
    m: u32,
    bucket_fn: BucketFn,
    glsl_bucket: GlslBucket,
) -> (Vec<u32>, Vec<u32>) {
    let mut splitters: Vec<u32> = (0..m as usize - 1).map(|_| rng.next_u32()).collect();
    splitters.sort();
    let buckets = match bucket_fn {
        BucketFn::Bits => keys.iter().map(|&k| reference::bits_bucket(k, m, 0)).collect(),
        BucketFn::Splitters => keys
            .iter()
            .map(|&k| reference::splitters_bucket(k, &splitters))
            .collect(),
        BucketFn::Glsl => keys.iter().map(|&k| glsl_bucket(k, false, m)).collect(),
        BucketFn::Ids => keys.iter().map(|_| rng.next_u32() % m).collect(),
        other => panic!("no reference for {other:?}"),
    };
    (splitters, buckets)
}

/// The staged tile path with 7 elements a lane (what GPUs take for u32 -> u32 pairs by BITS,
/// GLSL or SPLITTERS into up to 16 buckets and by IDS into up to 32; CPU drivers take 4): tiles
/// that are not a power of two long, every bucket function, sizes around the tile, with and
/// without the look-back.
#[test]
fn staged_pairs_seven_items() {
    for lookback in [true, false] {
        let ctx = context_with_lookback(lookback);
        let mut rng = Rng(71 + lookback as u64);
        let (glsl, glsl_bucket) = glsl_word_mod(KeyType::U32);
        for (m, bucket_fn) in [
            (16u32, BucketFn::Bits),
            (4, BucketFn::Bits),
            (5, BucketFn::Glsl),
            (16, BucketFn::Glsl),
            (3, BucketFn::Ids),
            (32, BucketFn::Ids),
            (9, BucketFn::Splitters),
        ] {
            let desc = SplitDesc {
                path: SplitPath::TileStaged,
                tile_items: 7,
                glsl: (bucket_fn == BucketFn::Glsl).then(|| glsl.to_string()),
                ..SplitDesc::new(KeyType::U32, ValueType::U32, m, bucket_fn, 1 << 20)
            };
            let tile = ctx.split_plan(&desc).expect("plan").column_length() as usize;
            assert_eq!(tile % 7, 0, "m={m} {bucket_fn:?}: a tile of 7 elements a lane");
            for n in [tile - 1, tile, tile + 1, 3 * tile + 5] {
                let desc = SplitDesc {
                    max_count: n as u64,
                    ..desc.clone()
                };
                // Keys from few distinct words, so that buckets repeat within a subgroup.
                let keys: Vec<u32> = (0..n)
                    .map(|_| (rng.next_u32() % 4099).wrapping_mul(1_048_583))
                    .collect();
                let (splitters, buckets) = random_u32_buckets(&mut rng, &keys, m, bucket_fn, glsl_bucket);
                let what = format!("staged, 7 items, lookback {lookback}, {bucket_fn:?} m={m} n={n}");
                check_on_path(&ctx, &desc, &keys, &buckets, &splitters, &what);
            }
        }
    }
}

/// Where `Auto` takes the subgroup-staged tile path (each subgroup stages its own run in
/// bucket order), and that it is refused where `m` exceeds the subgroup.
#[test]
fn subgroup_staged_auto_rule() {
    // Auto on a device that runs the look-back: u32 -> u32 pairs into 3..=12 buckets by BITS
    // and 3..=7 by GLSL, and 4-byte keys alone into 11..=32 by BITS or GLSL, where m fits the
    // smallest subgroup.
    let ctx = context_with_lookback(true);
    let lanes = ctx.profile().min_subgroup_size;
    for (key_type, value_type, m, bucket_fn, taken) in [
        (KeyType::U32, ValueType::U32, 3u32, BucketFn::Glsl, true),
        (KeyType::U32, ValueType::U32, 4, BucketFn::Bits, true),
        (KeyType::F32, ValueType::U32, 8, BucketFn::Bits, true),
        (KeyType::I32, ValueType::U32, 7, BucketFn::Glsl, true),
        (KeyType::I32, ValueType::U32, 8, BucketFn::Glsl, false),
        (KeyType::U32, ValueType::U32, 2, BucketFn::Glsl, false),
        (KeyType::U32, ValueType::U32, 13, BucketFn::Glsl, false),
        (KeyType::U32, ValueType::U32, 16, BucketFn::Bits, false),
        (KeyType::U32, ValueType::None, 8, BucketFn::Bits, false),
        (KeyType::I32, ValueType::None, 10, BucketFn::Glsl, false),
        (KeyType::I32, ValueType::None, 11, BucketFn::Glsl, true),
        (KeyType::I32, ValueType::None, 12, BucketFn::Glsl, true),
        (KeyType::U32, ValueType::None, 7, BucketFn::Glsl, false),
        (KeyType::U32, ValueType::None, 13, BucketFn::Glsl, true),
        (KeyType::F32, ValueType::None, 32, BucketFn::Bits, true),
        (KeyType::U32, ValueType::None, 33, BucketFn::Glsl, false),
        (KeyType::U64, ValueType::None, 8, BucketFn::Bits, false),
        (KeyType::U32, ValueType::None, 8, BucketFn::Ids, false),
        (KeyType::U32, ValueType::U64, 8, BucketFn::Bits, false),
        (KeyType::U64, ValueType::U32, 8, BucketFn::Bits, false),
        (KeyType::U32, ValueType::U32, 8, BucketFn::Ids, false),
        (KeyType::U32, ValueType::U32, 8, BucketFn::Splitters, false),
    ] {
        let path = auto_path(&ctx, key_type, value_type, m, bucket_fn);
        assert_eq!(
            path == SplitPath::TileSubgroupStaged,
            taken && m <= lanes,
            "{key_type:?} -> {value_type:?} m={m} {bucket_fn:?}: Auto took {path:?}"
        );
    }
    // 4-byte keys alone into up to 10 buckets by BITS or GLSL stay on the direct path, where
    // the Onesweep split would take 8 and more; 8-byte keys take the Onesweep split (IDS, which
    // has no Onesweep form, the direct path anyway).
    for (key_type, m, bucket_fn, expected) in [
        (KeyType::U32, 8u32, BucketFn::Bits, SplitPath::TileDirect),
        (KeyType::F32, 8, BucketFn::Bits, SplitPath::TileDirect),
        (KeyType::U32, 9, BucketFn::Glsl, SplitPath::TileDirect),
        (KeyType::I32, 10, BucketFn::Glsl, SplitPath::TileDirect),
        (KeyType::U64, 8, BucketFn::Bits, SplitPath::Onesweep),
        (KeyType::U32, 8, BucketFn::Ids, SplitPath::TileDirect),
    ] {
        let path = auto_path(&ctx, key_type, ValueType::None, m, bucket_fn);
        assert_eq!(path, expected, "{key_type:?} m={m} {bucket_fn:?}");
    }
    let too_many = SplitDesc {
        path: SplitPath::TileSubgroupStaged,
        ..SplitDesc::new(KeyType::U32, ValueType::U32, lanes + 1, BucketFn::Ids, 1 << 20)
    };
    assert!(
        matches!(ctx.split_plan(&too_many), Err(Error::InvalidArgument(_))),
        "m = {} beyond the subgroup",
        lanes + 1
    );
}

/// The tile length of the subgroup-staged path for u32 -> u32 pairs into 2 buckets (the
/// largest tile of the key types' tests below).
fn subgroup_staged_tile(ctx: &Context) -> usize {
    let plan = ctx
        .split_plan(&SplitDesc {
            path: SplitPath::TileSubgroupStaged,
            ..SplitDesc::new(KeyType::U32, ValueType::U32, 2, BucketFn::Bits, 1 << 20)
        })
        .expect("plan");
    plan.column_length() as usize
}

/// The subgroup-staged tile path on u32 keys: every value width and bucket function,
/// adversarial data, sizes around the tile and across several tiles a workgroup, 8 items a
/// lane. (Split from the other key types' test so that the two run side by side.)
#[test]
fn subgroup_staged_tile_path() {
    let ctx = context_with_lookback(false);
    let tile = subgroup_staged_tile(&ctx);
    let mut rng = Rng(29);
    for (name, gen) in DISTRIBUTIONS[..6].iter().copied() {
        let n = 3 * tile + 1;
        let raw: Vec<u32> = (0..n).map(|i| gen(&mut rng, i)).collect();
        subgroup_staged_key_type::<u32>(&ctx, &raw, 26, 0, &format!("u32 {name}"));
    }
    // (9 * tile + 3: keys alone take several tiles a workgroup, the last group partly.)
    for n in [1, tile - 1, tile, 2 * tile + 5, 9 * tile + 3] {
        let raw = rng.vec_u32(n);
        subgroup_staged_key_type::<u32>(&ctx, &raw, 30, 0, "u32");
    }
    // 8 items per invocation (the tile kernels' other unrolling).
    let raw = rng.vec_u32(5 * tile / 2 + 3);
    subgroup_staged_key_type::<u32>(&ctx, &raw, 26, 8, "u32 8 items");
}

/// The subgroup-staged tile path on the five other key types, float specials among the keys.
#[test]
fn subgroup_staged_every_key_type() {
    let ctx = context_with_lookback(false);
    let tile = subgroup_staged_tile(&ctx);
    let mut rng = Rng(30);
    let raw = words_with_specials(&mut rng, 2 * tile + 3, &FLOAT_SPECIALS);
    subgroup_staged_key_type::<i32>(&ctx, &raw, 26, 0, "i32");
    subgroup_staged_key_type::<f32>(&ctx, &raw, 26, 0, "f32");
    subgroup_staged_key_type::<u64>(&ctx, &raw, 58, 0, "u64");
    subgroup_staged_key_type::<i64>(&ctx, &raw, 58, 0, "i64");
    subgroup_staged_key_type::<f64>(&ctx, &raw, 58, 0, "f64");
}

/// Where the device runs the look-back, the tile and column paths scan their count matrix out
/// of place in one look-back pass whose scratch the status word's clear zeroes: matrices past
/// the scan's one-workgroup limit, on poisoned scratch, on every path and bucket function; the
/// tile count both in registers (m <= 8, keys alone m <= 4) and in shared memory; keys alone
/// and with values.
#[test]
fn matrix_scanned_by_lookback() {
    let ctx = context_with_lookback(true);
    let lanes = ctx.profile().min_subgroup_size;
    let scan_small_limit = ctx
        .scan_plan(&ScanDesc::new(ScanOp::Exclusive, 1 << 22))
        .expect("scan plan")
        .small_limit();
    let mut rng = Rng(37);
    let (glsl, glsl_bucket) = glsl_word_mod(KeyType::U32);
    for (path, m, bucket_fn) in [
        (SplitPath::TileDirect, 2u32, BucketFn::Bits),
        (SplitPath::TileDirect, 8, BucketFn::Ids),
        (SplitPath::TileDirect, 9, BucketFn::Glsl),
        (SplitPath::TileSubgroupStaged, 3.min(lanes), BucketFn::Glsl),
        (SplitPath::TileStaged, 9, BucketFn::Splitters),
        (SplitPath::GlobalCounters, 5, BucketFn::Ids),
    ] {
        let desc = SplitDesc {
            path,
            glsl: (bucket_fn == BucketFn::Glsl).then(|| glsl.to_string()),
            ..SplitDesc::new(KeyType::U32, ValueType::U32, m, bucket_fn, 1 << 22)
        };
        let plan = ctx.split_plan(&desc).expect("plan");
        // Matrix entries past the scan's one-workgroup limit (and at least 4096, several
        // look-back tiles), then two columns and a few elements more.
        let columns = scan_small_limit.max(4096) as usize / m as usize + 2;
        let n = columns * plan.column_length() as usize + 5;
        let desc = SplitDesc {
            max_count: n as u64,
            ..desc
        };
        let keys = rng.vec_u32(n);
        let (splitters, buckets) = random_u32_buckets(&mut rng, &keys, m, bucket_fn, glsl_bucket);
        for value_type in [ValueType::None, ValueType::U32] {
            let desc = SplitDesc {
                value_type,
                ..desc.clone()
            };
            let what = format!("look-back scan {path:?} {bucket_fn:?} {value_type:?} m={m} n={n}");
            check_on_path(&ctx, &desc, &keys, &buckets, &splitters, &what);
        }
    }
}
