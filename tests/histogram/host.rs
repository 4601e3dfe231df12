//! The host layer: every bucket function and key type, bucket counts from 1 to the largest,
//! skewed data, counts around the tiles and the grid, out-of-range ids.

use super::*;

/// BITS at several bit ranges, SPLITTERS and IDS over `m` buckets for keys of type `K`.
fn every_bucket_fn<K: TestKey>(ctx: &Context, seed: u64) {
    let mut rng = Rng(seed);
    let bits = K::KEY_TYPE.bits();
    for (d, dist) in DISTRIBUTIONS.iter().enumerate().take(6) {
        let n = if d == 0 { 5001 } else { 1500 };
        let keys: Vec<K> = keys_with_specials(n, dist, &mut rng);
        for m in [1u32, 2, 32, 256, 1024, MAX_BUCKETS] {
            let width = m.trailing_zeros();
            for offset in [0, 7, bits.saturating_sub(width).min(bits - 1)] {
                let b = Bucketing::Bits {
                    bucket_count: m,
                    bit_offset: offset,
                };
                check(ctx, &keys, &b, &format!("{} BITS m {m} offset {offset}", dist.0));
            }
        }
        // Up to 4096 buckets the kernel searches a tree of the splitters in shared memory,
        // above it the splitters as given.
        for m in [1u32, 2, 3, 32, 256, 1024, 4096, 4097] {
            let splitters = splitters_for(&keys, m, &mut rng);
            check(
                ctx,
                &keys,
                &Bucketing::Splitters(&splitters),
                &format!("{} SPLITTERS m {m}", dist.0),
            );
        }
        for m in [1u32, 2, 3, 32, 256, 1024, MAX_BUCKETS] {
            let ids: Vec<u32> = (0..n).map(|_| rng.next_u32() % m).collect();
            let b = Bucketing::Ids {
                bucket_count: m,
                ids: &ids,
            };
            check(ctx, &keys, &b, &format!("{} IDS m {m}", dist.0));
        }
    }
}

#[test]
fn every_key_type_and_bucket_fn() {
    let ctx = context();
    every_bucket_fn::<u32>(&ctx, 1);
    every_bucket_fn::<i32>(&ctx, 2);
    every_bucket_fn::<f32>(&ctx, 3);
    every_bucket_fn::<u64>(&ctx, 4);
    every_bucket_fn::<i64>(&ctx, 5);
    every_bucket_fn::<f64>(&ctx, 6);
}

/// The largest splitter count: 65535 splitters, searched as given.
#[test]
fn most_splitters() {
    let ctx = context();
    let mut rng = Rng(9);
    let keys: Vec<u64> = keys_with_specials(20_000, &DISTRIBUTIONS[0], &mut rng);
    let splitters = splitters_for(&keys, MAX_BUCKETS, &mut rng);
    check(&ctx, &keys, &Bucketing::Splitters(&splitters), "most splitters");
}

/// Counts around the CPU tile (256 x 4) and the grid (64 tiles), and about a million.
#[test]
fn counts_around_tiles_and_grid() {
    let ctx = context();
    let mut rng = Rng(21);
    for n in [0usize, 1, 2, 1023, 1024, 1025, 65_535, 65_536, 65_537, 1_000_003] {
        let keys: Vec<u32> = keys_with_specials(n, &DISTRIBUTIONS[0], &mut rng);
        for m in [1u32, 256, MAX_BUCKETS] {
            let b = Bucketing::Bits {
                bucket_count: m,
                bit_offset: 3,
            };
            check(&ctx, &keys, &b, &format!("n {n} m {m}"));
        }
        let splitters = splitters_for(&keys, 3, &mut rng);
        check(
            &ctx,
            &keys,
            &Bucketing::Splitters(&splitters),
            &format!("n {n} splitters"),
        );
    }
}

/// All keys in one bucket (the atomics' worst case), shared and global counts.
#[test]
fn skewed_data() {
    let ctx = context();
    let keys = vec![0xABCD_1234u32; 1_000_003];
    for m in [1u32, 2, 256, 4096, MAX_BUCKETS] {
        let b = Bucketing::Bits {
            bucket_count: m,
            bit_offset: 0,
        };
        check(&ctx, &keys, &b, &format!("one bucket of {m}"));
    }
    let ids = vec![2u32; 300_001];
    let small = &keys[..ids.len()];
    check(
        &ctx,
        small,
        &Bucketing::Ids {
            bucket_count: 3,
            ids: &ids,
        },
        "one id",
    );
    // Half the keys in one bucket, the rest spread.
    let mut rng = Rng(5);
    let keys: Vec<u32> = (0..200_000)
        .map(|i| if i % 2 == 0 { 77 } else { rng.next_u32() })
        .collect();
    let b = Bucketing::Bits {
        bucket_count: 1024,
        bit_offset: 0,
    };
    check(&ctx, &keys, &b, "half in one bucket");
}

/// GLSL bucket functions of every key type, with parameters.
#[test]
fn glsl_bucket_functions() {
    let ctx = context();
    let mut rng = Rng(31);
    let raw: Vec<u64> = (0..70_001).map(|_| rng.next_u64()).collect();
    let keys: Vec<u32> = raw.iter().map(|&x| x as u32).collect();
    let src = "uint vkalgo_bucket(uint k) { return k % vkalgo_params.x; }";
    for m in [1u32, 3, 1024, MAX_BUCKETS] {
        let got = ctx
            .histogram(
                &keys,
                &Bucketing::Glsl {
                    bucket_count: m,
                    source: src,
                    params: [m, 0, 0, 0],
                },
            )
            .unwrap();
        let ids: Vec<u32> = keys.iter().map(|k| k % m).collect();
        assert_eq!(got, reference::count(&ids, m).unwrap(), "glsl u32 m {m}");
    }
    macro_rules! typed {
        ($t:ty, $src:expr, $conv:expr, $cpu:expr, $m:expr) => {{
            let keys: Vec<$t> = raw.iter().map($conv).collect();
            let got = ctx
                .histogram(
                    &keys,
                    &Bucketing::Glsl {
                        bucket_count: $m,
                        source: $src,
                        params: [0; 4],
                    },
                )
                .unwrap();
            let ids: Vec<u32> = keys.iter().map($cpu).collect();
            assert_eq!(
                got,
                reference::count(&ids, $m).unwrap(),
                "glsl {}",
                stringify!($t)
            );
        }};
    }
    typed!(
        i32,
        "uint vkalgo_bucket(int k) { return uint(k) % 33u; }",
        |&x| x as i32,
        |&k: &i32| k as u32 % 33,
        33
    );
    typed!(
        f32,
        "uint vkalgo_bucket(float k) { return floatBitsToUint(k) >> 28; }",
        |&x| f32::from_bits(x as u32),
        |&k: &f32| k.to_bits() >> 28,
        16
    );
    typed!(
        u64,
        "uint vkalgo_bucket(uint64_t k) { return uint(k >> 54); }",
        |&x| x,
        |&k: &u64| (k >> 54) as u32,
        1024
    );
    typed!(
        i64,
        "uint vkalgo_bucket(int64_t k) { return uint(uint64_t(k) % 7ul); }",
        |&x| x as i64,
        |&k: &i64| (k as u64 % 7) as u32,
        7
    );
    // f64 keys need shaderFloat64 (lavapipe has it; elsewhere Unsupported is the answer).
    let keys: Vec<f64> = raw.iter().map(|&x| f64::from_bits(x)).collect();
    let src = "uint vkalgo_bucket(double k) { return k < 0.0 ? 0u : 1u; }";
    let b = Bucketing::Glsl {
        bucket_count: 2,
        source: src,
        params: [0; 4],
    };
    match ctx.histogram(&keys, &b) {
        Ok(got) => {
            let ids: Vec<u32> = keys.iter().map(|&k| u32::from(k >= 0.0 || k.is_nan())).collect();
            assert_eq!(got, reference::count(&ids, 2).unwrap(), "glsl f64");
        }
        Err(Error::Unsupported(_)) => {}
        Err(e) => panic!("glsl f64: {e}"),
    }
}

/// An id >= m (IDS or GLSL) is an error; nothing is returned.
#[test]
fn out_of_range_ids_are_refused() {
    let ctx = context();
    let keys: Vec<u32> = (0..10_000).collect();
    let mut ids: Vec<u32> = (0..10_000).map(|i| i % 5).collect();
    ids[9_876] = 5;
    let e = ctx
        .histogram(
            &keys,
            &Bucketing::Ids {
                bucket_count: 5,
                ids: &ids,
            },
        )
        .unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
    let e = ctx
        .histogram(
            &keys,
            &Bucketing::Glsl {
                bucket_count: 100,
                source: "uint vkalgo_bucket(uint k) { return k == 4321u ? 100u : k % 100u; }",
                params: [0; 4],
            },
        )
        .unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
    // The same context counts again afterwards.
    check(
        &ctx,
        &keys,
        &Bucketing::Bits {
            bucket_count: 8,
            bit_offset: 1,
        },
        "after a refusal",
    );
}

/// Warm-up makes the histogram's pipelines; its dispatches are labelled where
/// VK_EXT_debug_utils is on (as it is with validation).
#[test]
fn warm_up_and_debug_labels() {
    let ctx = context();
    ctx.warm_up(&[vkalgo::Algorithm::Histogram]).unwrap();
    let labels = ctx.debug_labels_recorded();
    let keys: Vec<u32> = (0..3000).collect();
    let b = Bucketing::Bits {
        bucket_count: 256,
        bit_offset: 2,
    };
    check(&ctx, &keys, &b, "after warm-up");
    if ctx.validation_enabled() {
        assert!(
            ctx.debug_labels_recorded() > labels,
            "the histogram's dispatches were labelled"
        );
    }
}
