//! Multisplit on the Vulkan device (lavapipe in CI), compared exactly with a stable CPU
//! counting sort: every bucket function, every key type, pairs with 4- and 8-byte values
//! (their values prove stability), bucket counts 1..65536, sizes around the column length,
//! adversarial data, GLSL with parameters and repeated sources, the record layer with offsets
//! and indirect counts, and bad input (nothing changed).

mod common;

use common::{assert_no_validation_messages, context, Rng};
use vkalgo::split::reference;
use vkalgo::{BucketFn, Bucketing, Context, Error, KeyType, SortKey, SplitDesc, ValueType};

/// The CPU buckets of `keys` for a bucketing.
fn cpu_buckets<K: SortKey>(keys: &[K], bucketing: &Bucketing<K>) -> (Vec<u32>, u32) {
    match *bucketing {
        Bucketing::Bits {
            bucket_count,
            bit_offset,
        } => (
            keys.iter()
                .map(|&k| reference::bits_bucket(k, bucket_count, bit_offset))
                .collect(),
            bucket_count,
        ),
        Bucketing::Splitters(s) => (
            keys.iter().map(|&k| reference::splitters_bucket(k, s)).collect(),
            s.len() as u32 + 1,
        ),
        Bucketing::Ids { bucket_count, ids } => (ids.to_vec(), bucket_count),
        Bucketing::Glsl { .. } => panic!("GLSL buckets come from the caller"),
    }
}

/// Splits keys with their input indices as values (u32) on the GPU and compares keys,
/// values and offsets exactly with the CPU counting sort.
fn check<K: SortKey + PartialEq + std::fmt::Debug>(
    ctx: &Context,
    keys: &[K],
    bucketing: &Bucketing<K>,
    cpu: Option<(&[u32], u32)>,
    what: &str,
) {
    let (buckets, m) = match cpu {
        Some((b, m)) => (b.to_vec(), m),
        None => cpu_buckets(keys, bucketing),
    };
    let mut want_keys = keys.to_vec();
    let mut want_values: Vec<u32> = (0..keys.len() as u32).collect();
    let want_offsets = reference::multisplit(&mut want_keys, Some(&mut want_values), &buckets, m);
    let mut got_keys = keys.to_vec();
    let mut got_values: Vec<u32> = (0..keys.len() as u32).collect();
    let offsets = ctx
        .multisplit_pairs(&mut got_keys, &mut got_values, bucketing)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(offsets, want_offsets, "{what}: offsets");
    assert!(got_values == want_values, "{what}: values (stability) differ");
    assert!(same_bits(&got_keys, &want_keys), "{what}: keys differ");
    // Keys only.
    let mut only = keys.to_vec();
    let offsets = ctx
        .multisplit(&mut only, bucketing)
        .unwrap_or_else(|e| panic!("{what} keys only: {e}"));
    assert_eq!(offsets, want_offsets, "{what}: keys-only offsets");
    assert!(same_bits(&only, &want_keys), "{what}: keys-only keys differ");
}

/// Bitwise equality (NaN keys compare equal to themselves).
fn same_bits<K: SortKey>(a: &[K], b: &[K]) -> bool {
    bytemuck::cast_slice::<K, u8>(a) == bytemuck::cast_slice::<K, u8>(b)
}

#[test]
fn bits_u32_smoke() {
    let ctx = context();
    let mut rng = Rng(1);
    for n in [0usize, 1, 2, 31, 1000, 4097] {
        for m in [1u32, 2, 32, 256, 4096] {
            let keys = rng.vec_u32(n);
            check(
                &ctx,
                &keys,
                &Bucketing::Bits {
                    bucket_count: m,
                    bit_offset: 3,
                },
                None,
                &format!("bits n={n} m={m}"),
            );
        }
    }
    assert_no_validation_messages(&ctx);
}

/// A BITS bucketing for any key type.
fn bits<K>(bucket_count: u32, bit_offset: u32) -> Bucketing<'static, K> {
    Bucketing::Bits { bucket_count, bit_offset }
}

/// Adversarial u32 data sets (element index in, key out).
type Distribution = (&'static str, fn(&mut Rng, usize) -> u32);

fn distributions() -> Vec<Distribution> {
    vec![
        ("uniform", |r, _| r.next_u32()),
        ("all equal", |_, _| 0x1234_5678),
        ("sorted", |_, i| i as u32),
        ("reversed", |_, i| u32::MAX - i as u32),
        ("few distinct", |r, _| r.next_u32() % 5),
        ("low entropy", |r, _| r.next_u32() & r.next_u32() & r.next_u32()),
    ]
}

/// The plan's column length for u32 keys and `m` buckets (sizes around it are the edges).
fn column_length(ctx: &Context, m: u32) -> usize {
    ctx.split_plan(&SplitDesc::new(KeyType::U32, ValueType::U32, m, BucketFn::Ids, 1 << 16))
        .expect("plan")
        .column_length() as usize
}

#[test]
fn ids_every_bucket_count_and_size() {
    let ctx = context();
    let mut rng = Rng(2);
    for m in [1u32, 2, 3, 31, 32, 33, 256, 257, 4096, 65536] {
        let col = column_length(&ctx, m);
        let mut sizes = vec![0usize, 1, col - 1, col, col + 1, 3 * col + 7];
        if m <= 4096 {
            sizes.push(10_007);
        }
        for n in sizes {
            let keys = rng.vec_u32(n);
            let ids: Vec<u32> = (0..n).map(|_| rng.next_u32() % m).collect();
            check(
                &ctx,
                &keys,
                &Bucketing::Ids {
                    bucket_count: m,
                    ids: &ids,
                },
                None,
                &format!("ids m={m} n={n}"),
            );
        }
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn adversarial_buckets() {
    let ctx = context();
    let mut rng = Rng(3);
    let n = 5003;
    for m in [2u32, 3, 33, 257] {
        // One bucket holding everything (first, last, middle), sorted and reversed bucket ids,
        // alternating, and most buckets empty.
        let patterns: Vec<(&str, Vec<u32>)> = vec![
            ("all in 0", vec![0; n]),
            ("all in last", vec![m - 1; n]),
            ("all in middle", vec![m / 2; n]),
            ("sorted", (0..n).map(|i| (i as u64 * m as u64 / n as u64) as u32).collect()),
            ("reversed", (0..n).map(|i| m - 1 - (i as u64 * m as u64 / n as u64) as u32).collect()),
            ("alternating", (0..n).map(|i| if i % 2 == 0 { 0 } else { m - 1 }).collect()),
            ("two buckets", (0..n).map(|_| if rng.next_u32() % 2 == 0 { 1 } else { m - 1 }).collect()),
        ];
        for (name, ids) in patterns {
            let keys = rng.vec_u32(n);
            check(
                &ctx,
                &keys,
                &Bucketing::Ids {
                    bucket_count: m,
                    ids: &ids,
                },
                None,
                &format!("ids {name} m={m}"),
            );
        }
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn bits_every_key_type() {
    let ctx = context();
    let mut rng = Rng(4);
    let n = 3001;
    for (name, gen) in distributions() {
        let raw: Vec<u32> = (0..n).map(|i| gen(&mut rng, i)).collect();
        for (m, offset) in [(1u32, 0u32), (2, 31), (8, 29), (256, 0), (4096, 20)] {
            let b = Bucketing::Bits {
                bucket_count: m,
                bit_offset: offset,
            };
            let what = format!("bits {name} m={m} offset={offset}");
            check(&ctx, &raw, &b, None, &format!("u32 {what}"));
            let i: Vec<i32> = raw.iter().map(|&x| x as i32).collect();
            check(&ctx, &i, &Bucketing::Bits { bucket_count: m, bit_offset: offset }, None, &format!("i32 {what}"));
            let f: Vec<f32> = raw.iter().map(|&x| f32::from_bits(x)).collect();
            check(&ctx, &f, &Bucketing::Bits { bucket_count: m, bit_offset: offset }, None, &format!("f32 {what}"));
            let wide = |x: u32, i: usize| ((x as u64) << 32) | (x.rotate_left(i as u32 % 32) as u64);
            let u: Vec<u64> = raw.iter().enumerate().map(|(i, &x)| wide(x, i)).collect();
            for off64 in [offset, offset + 32] {
                check(&ctx, &u, &bits(m, off64), None, &format!("u64 {what} off64={off64}"));
                let i: Vec<i64> = u.iter().map(|&x| x as i64).collect();
                check(&ctx, &i, &bits(m, off64), None, &format!("i64 {what} off64={off64}"));
                let f: Vec<f64> = u.iter().map(|&x| f64::from_bits(x)).collect();
                check(&ctx, &f, &bits(m, off64), None, &format!("f64 {what} off64={off64}"));
            }
        }
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn splitters_every_key_type() {
    let ctx = context();
    let mut rng = Rng(5);
    let n = 4099;
    // Floats with -0.0, +0.0, NaNs and infinities among keys and splitters.
    let specials = [0x8000_0000u32, 0, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0xFFC0_0001, 1, 0x8000_0001];
    let raw: Vec<u32> = (0..n)
        .map(|i| if i % 7 == 0 { specials[i / 7 % specials.len()] } else { rng.next_u32() })
        .collect();
    for m in [1u32, 2, 3, 33, 257, 4096] {
        let mut picks: Vec<u32> = (0..m.saturating_sub(1)).map(|i| raw[(i as usize * 37) % n]).collect();
        if m > 3 {
            picks[1] = picks[0]; // repeated splitters: an empty bucket
        }
        macro_rules! run {
            ($t:ty, $conv:expr) => {{
                let keys: Vec<$t> = raw.iter().enumerate().map(|(i, &x)| $conv(x, i)).collect();
                let mut s: Vec<$t> = picks.iter().enumerate().map(|(i, &x)| $conv(x, i)).collect();
                s.sort_by_key(|k| k.ordered_bits());
                if m > 3 {
                    s[1] = s[0];
                }
                check(&ctx, &keys, &Bucketing::Splitters(&s), None, &format!("splitters {} m={m}", stringify!($t)));
            }};
        }
        run!(u32, |x: u32, _| x);
        run!(i32, |x: u32, _| x as i32);
        run!(f32, |x: u32, _| f32::from_bits(x));
        run!(u64, |x: u32, i: usize| ((x as u64) << 32) | (i as u64 & 3));
        run!(i64, |x: u32, i: usize| (((x as u64) << 32) | (i as u64 & 3)) as i64);
        run!(f64, |x: u32, i: usize| f64::from_bits(((x as u64) << 32) | (i as u64 & 3)));
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn eight_byte_values_keep_their_order() {
    let ctx = context();
    let mut rng = Rng(6);
    for (n, m) in [(1usize, 3u32), (777, 3), (9001, 256), (3000, 65536)] {
        let keys: Vec<u64> = (0..n).map(|_| rng.next_u64() % 1000).collect();
        let ids: Vec<u32> = keys.iter().map(|&k| (k % m as u64) as u32).collect();
        let values: Vec<u64> = (0..n as u64).map(|i| i << 33 | 5).collect();
        let mut want_keys = keys.clone();
        let mut want_values = values.clone();
        let want = reference::multisplit(&mut want_keys, Some(&mut want_values), &ids, m);
        let mut got_keys = keys.clone();
        let mut got_values = values.clone();
        let offsets = ctx
            .multisplit_pairs(&mut got_keys, &mut got_values, &Bucketing::Ids { bucket_count: m, ids: &ids })
            .expect("split");
        assert_eq!(offsets, want, "n={n} m={m}");
        assert_eq!(got_keys, want_keys, "n={n} m={m}");
        assert_eq!(got_values, want_values, "n={n} m={m}");
    }
    assert_no_validation_messages(&ctx);
}

/// GLSL bucket functions of every key type: (source, m, params, CPU bucket of a key as u64 bits).
#[test]
fn glsl_every_key_type_with_params() {
    let ctx = context();
    let mut rng = Rng(7);
    let n = 2049;
    let raw: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
    // u32: (k * params.x) >> 32, as the benchmark's bucket function.
    let src = "uint vkalgo_bucket(uint k) { return uint((uint64_t(k) * uint64_t(vkalgo_params.x)) >> 32); }";
    let keys: Vec<u32> = raw.iter().map(|&x| x as u32).collect();
    for m in [2u32, 3, 8, 1024] {
        let cpu: Vec<u32> = keys.iter().map(|&k| ((k as u64 * m as u64) >> 32) as u32).collect();
        let b = Bucketing::Glsl { bucket_count: m, source: src, params: [m, 0, 0, 0] };
        check(&ctx, &keys, &b, Some((&cpu, m)), &format!("glsl u32 m={m}"));
    }
    let src = "uint vkalgo_bucket(int k) { return uint(k) % vkalgo_params.x; }";
    let keys: Vec<i32> = raw.iter().map(|&x| x as i32).collect();
    let cpu: Vec<u32> = keys.iter().map(|&k| k as u32 % 33).collect();
    check(&ctx, &keys, &Bucketing::Glsl { bucket_count: 33, source: src, params: [33, 0, 0, 0] }, Some((&cpu, 33)), "glsl i32");
    let src = "uint vkalgo_bucket(float k) { return floatBitsToUint(k) >> 28; }";
    let keys: Vec<f32> = raw.iter().map(|&x| f32::from_bits(x as u32)).collect();
    let cpu: Vec<u32> = keys.iter().map(|&k| k.to_bits() >> 28).collect();
    check(&ctx, &keys, &Bucketing::Glsl { bucket_count: 16, source: src, params: [0; 4] }, Some((&cpu, 16)), "glsl f32");
    let src = "uint vkalgo_bucket(uint64_t k) { return uint(k % uint64_t(vkalgo_params.x)); }";
    let cpu: Vec<u32> = raw.iter().map(|&k| (k % 257) as u32).collect();
    check(&ctx, &raw, &Bucketing::Glsl { bucket_count: 257, source: src, params: [257, 0, 0, 0] }, Some((&cpu, 257)), "glsl u64");
    let src = "uint vkalgo_bucket(int64_t k) { return uint(uint64_t(k) >> 60); }";
    let keys: Vec<i64> = raw.iter().map(|&x| x as i64).collect();
    let cpu: Vec<u32> = raw.iter().map(|&k| (k >> 60) as u32).collect();
    check(&ctx, &keys, &Bucketing::Glsl { bucket_count: 16, source: src, params: [0; 4] }, Some((&cpu, 16)), "glsl i64");
    let src = "uint vkalgo_bucket(double k) { return k < 0.0 ? 0u : (k < 1.0 ? 1u : 2u); }";
    let keys: Vec<f64> = raw
        .iter()
        .enumerate()
        .map(|(i, &x)| match i % 4 {
            0 => f64::from_bits(x),
            1 => (x % 1000) as f64 / 1000.0,
            2 => -((x % 1000) as f64),
            _ => f64::NAN,
        })
        .collect();
    let cpu: Vec<u32> = keys
        .iter()
        .map(|&k| if k < 0.0 { 0 } else if k < 1.0 { 1 } else { 2 })
        .collect();
    check(&ctx, &keys, &Bucketing::Glsl { bucket_count: 3, source: src, params: [0; 4] }, Some((&cpu, 3)), "glsl f64");
    assert_no_validation_messages(&ctx);
}

#[test]
fn glsl_repeated_source_compiles_once() {
    let ctx = context();
    let mut rng = Rng(8);
    // A source no other test uses; delta-stepping's bucket: distance / width, width a parameter.
    let src = "uint vkalgo_bucket(uint d) {\n    return min(d / vkalgo_params.x, vkalgo_params.y);\n}\n";
    let keys: Vec<u32> = (0..3000).map(|_| rng.next_u32() % 100_000).collect();
    let m = 64u32;
    let mut compiled = None;
    for (round, width) in [1000u32, 1600, 50_000, 1000].into_iter().enumerate() {
        let cpu: Vec<u32> = keys.iter().map(|&d| (d / width).min(m - 1)).collect();
        let b = Bucketing::Glsl { bucket_count: m, source: src, params: [width, m - 1, 0, 0] };
        check(&ctx, &keys, &b, Some((&cpu, m)), &format!("glsl width {width}"));
        // The first round compiles (pairs and keys only); later rounds compile nothing.
        let now = vkalgo::split::glsl_compilations();
        assert_eq!(*compiled.get_or_insert(now), now, "round {round}: a repeated source compiled again");
    }
    // A second context reuses the compiled source too (its pipelines are its own).
    let other = context();
    let mut k = keys.clone();
    other
        .multisplit(&mut k, &Bucketing::Glsl { bucket_count: m, source: src, params: [7, m - 1, 0, 0] })
        .expect("second context");
    assert_eq!(Some(vkalgo::split::glsl_compilations()), compiled);
    assert_no_validation_messages(&ctx);
    assert_no_validation_messages(&other);
}

#[test]
fn large_split_once() {
    let ctx = context();
    let mut rng = Rng(9);
    let keys = rng.vec_u32(1 << 22);
    let src = "uint vkalgo_bucket(uint k) { return uint((uint64_t(k) * uint64_t(vkalgo_params.x)) >> 32); }";
    let cpu: Vec<u32> = keys.iter().map(|&k| ((k as u64 * 1000) >> 32) as u32).collect();
    check(
        &ctx,
        &keys,
        &Bucketing::Glsl { bucket_count: 1000, source: src, params: [1000, 0, 0, 0] },
        Some((&cpu, 1000)),
        "2^22 u32 keys, 1000 GLSL buckets",
    );
    assert_no_validation_messages(&ctx);
}
