//! Multisplit on the Vulkan device (lavapipe in CI), compared exactly with a stable CPU
//! counting sort: every bucket function, every key type, pairs with 4- and 8-byte values
//! (their values prove stability), bucket counts 1..65536, sizes around the column length,
//! adversarial data, GLSL with parameters and repeated sources, the record layer with offsets
//! and indirect counts, bad input (nothing changed), and GLSL bucket functions that are not
//! pure (no write outside the outputs, the status bit, nothing changed by the host calls).

mod common;

use common::{assert_no_validation_messages, compute_to_host, context, context_with_lookback, Rng};
use vkalgo::split::reference;
use vkalgo::{
    BucketFn, Bucketing, Context, ElementCount, Error, GpuBuffer, KeyType, MemoryLocation, ScanDesc, ScanOp,
    SortKey, SortTuning, SplitArgs, SplitDesc, SplitPath, ValueType,
};

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
    Bucketing::Bits {
        bucket_count,
        bit_offset,
    }
}

/// A key of each key type made from a random word (8-byte keys: the word on top, element
/// index bits below, so equal words still give a few distinct keys).
trait FromWord: SortKey + PartialEq + std::fmt::Debug {
    fn from_word(x: u32, i: usize) -> Self;
}

impl FromWord for u32 {
    fn from_word(x: u32, _: usize) -> Self {
        x
    }
}

impl FromWord for i32 {
    fn from_word(x: u32, _: usize) -> Self {
        x as i32
    }
}

impl FromWord for f32 {
    fn from_word(x: u32, _: usize) -> Self {
        f32::from_bits(x)
    }
}

impl FromWord for u64 {
    fn from_word(x: u32, i: usize) -> Self {
        ((x as u64) << 32) | (i as u64 & 3)
    }
}

impl FromWord for i64 {
    fn from_word(x: u32, i: usize) -> Self {
        u64::from_word(x, i) as i64
    }
}

impl FromWord for f64 {
    fn from_word(x: u32, i: usize) -> Self {
        f64::from_bits(u64::from_word(x, i))
    }
}

/// Float bit patterns the key-type tests mix in: -0.0, +0.0, +inf, -inf, a quiet NaN and a
/// negative NaN.
const FLOAT_SPECIALS: [u32; 6] = [0x8000_0000, 0, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0xFFC0_0001];

/// `n` random words with `specials` (float bit patterns) at every seventh place.
fn words_with_specials(rng: &mut Rng, n: usize, specials: &[u32]) -> Vec<u32> {
    (0..n)
        .map(|i| {
            if i % 7 == 0 {
                specials[i / 7 % specials.len()]
            } else {
                rng.next_u32()
            }
        })
        .collect()
}

/// The keys made from `words` and the splitters made from `picks`, sorted in the key order
/// (the first repeated where `repeat`: an empty bucket).
fn keys_and_splitters<K: FromWord>(words: &[u32], picks: &[u32], repeat: bool) -> (Vec<K>, Vec<K>) {
    let made = |xs: &[u32]| -> Vec<K> { xs.iter().enumerate().map(|(i, &x)| K::from_word(x, i)).collect() };
    let mut splitters = made(picks);
    splitters.sort_by_key(|k| k.ordered_bits());
    if repeat {
        splitters[1] = splitters[0];
    }
    (made(words), splitters)
}

/// Splits the keys made from `words` by the splitters made from `picks` (sorted in the key
/// order, the first repeated where `repeat`: an empty bucket) and, with `bits`, by BITS
/// (bucket count, bit offset) as well.
fn check_splitters<K: FromWord>(
    ctx: &Context,
    words: &[u32],
    picks: &[u32],
    repeat: bool,
    bits_too: Option<(u32, u32)>,
    what: &str,
) {
    let (keys, splitters) = keys_and_splitters::<K>(words, picks, repeat);
    let m = picks.len() + 1;
    check(
        ctx,
        &keys,
        &Bucketing::Splitters(&splitters),
        None,
        &format!("{what} splitters m={m}"),
    );
    if let Some((bucket_count, offset)) = bits_too {
        check(
            ctx,
            &keys,
            &bits(bucket_count, offset),
            None,
            &format!("{what} bits {bucket_count}"),
        );
    }
}

/// Doubles for the GLSL bucket functions on signs and fractions: element i is, by i % 4, the
/// double with bits `bits` (any value, NaNs and infinities too), a fraction in [0, 1) and a
/// negative whole number (both from `small`), or NaN.
fn mixed_f64(i: usize, bits: u64, small: usize) -> f64 {
    match i % 4 {
        0 => f64::from_bits(bits),
        1 => (small % 1000) as f64 / 1000.0,
        2 => -((small % 1000) as f64),
        _ => f64::NAN,
    }
}

/// The CPU bucket of those functions: 0 below zero, 1 in [0, 1), `high` otherwise (NaN too).
fn sign_fraction_bucket(k: f64, high: u32) -> u32 {
    if k < 0.0 {
        0
    } else if k < 1.0 {
        1
    } else {
        high
    }
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

/// [`check`] with the caller's bucket ids.
fn check_ids(ctx: &Context, keys: &[u32], ids: &[u32], m: u32, what: &str) {
    let bucketing = Bucketing::Ids { bucket_count: m, ids };
    check(ctx, keys, &bucketing, None, what);
}

/// The plan's column length for u32 keys and `m` buckets (sizes around it are the edges).
fn column_length(ctx: &Context, m: u32) -> usize {
    ctx.split_plan(&SplitDesc::new(
        KeyType::U32,
        ValueType::U32,
        m,
        BucketFn::Ids,
        1 << 16,
    ))
    .expect("plan")
    .column_length() as usize
}

/// Every bucket function at every bucket count of the issue's list and sizes around the
/// column length: IDS, BITS (powers of two: the key's top bits, then its low bits), SPLITTERS
/// (random, repeated from 4 buckets) and GLSL ((k * m) >> 32), u32 keys.
#[test]
fn every_bucket_fn_bucket_count_and_size() {
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
            check_ids(&ctx, &keys, &ids, m, &format!("ids m={m} n={n}"));
            if m.is_power_of_two() {
                let offset = if n % 2 == 0 && m > 1 {
                    32 - m.trailing_zeros()
                } else {
                    0
                };
                check(&ctx, &keys, &bits(m, offset), None, &format!("bits m={m} n={n}"));
            }
            let mut splitters: Vec<u32> = (1..m).map(|_| rng.next_u32()).collect();
            splitters.sort_unstable();
            if m > 3 {
                splitters[1] = splitters[0];
            }
            let what = format!("splitters m={m} n={n}");
            check(&ctx, &keys, &Bucketing::Splitters(&splitters), None, &what);
            check_scaled_glsl(&ctx, &keys, m, &format!("n={n}"));
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
            (
                "sorted",
                (0..n).map(|i| (i as u64 * m as u64 / n as u64) as u32).collect(),
            ),
            (
                "reversed",
                (0..n)
                    .map(|i| m - 1 - (i as u64 * m as u64 / n as u64) as u32)
                    .collect(),
            ),
            (
                "alternating",
                (0..n).map(|i| if i % 2 == 0 { 0 } else { m - 1 }).collect(),
            ),
            (
                "two buckets",
                (0..n)
                    .map(|_| if rng.next_u32() % 2 == 0 { 1 } else { m - 1 })
                    .collect(),
            ),
        ];
        for (name, ids) in patterns {
            let keys = rng.vec_u32(n);
            check_ids(&ctx, &keys, &ids, m, &format!("ids {name} m={m}"));
        }
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn bits_every_key_type() {
    let ctx = context();
    let mut rng = Rng(4);
    let n = 3001;
    for (d, (name, gen)) in distributions().into_iter().enumerate() {
        let raw: Vec<u32> = (0..n).map(|i| gen(&mut rng, i)).collect();
        // Every distribution with a few bucket counts; all five on uniform data.
        let all = [(1u32, 0u32), (2, 31), (8, 29), (256, 0), (4096, 20)];
        let cases = if d == 0 { &all[..] } else { &all[1..3] };
        for &(m, offset) in cases {
            let b = Bucketing::Bits {
                bucket_count: m,
                bit_offset: offset,
            };
            let what = format!("bits {name} m={m} offset={offset}");
            check(&ctx, &raw, &b, None, &format!("u32 {what}"));
            let i: Vec<i32> = raw.iter().map(|&x| x as i32).collect();
            check(
                &ctx,
                &i,
                &Bucketing::Bits {
                    bucket_count: m,
                    bit_offset: offset,
                },
                None,
                &format!("i32 {what}"),
            );
            let f: Vec<f32> = raw.iter().map(|&x| f32::from_bits(x)).collect();
            check(
                &ctx,
                &f,
                &Bucketing::Bits {
                    bucket_count: m,
                    bit_offset: offset,
                },
                None,
                &format!("f32 {what}"),
            );
            let wide = |x: u32, i: usize| ((x as u64) << 32) | (x.rotate_left(i as u32 % 32) as u64);
            let u: Vec<u64> = raw.iter().enumerate().map(|(i, &x)| wide(x, i)).collect();
            for off64 in [offset, offset + 32] {
                check(
                    &ctx,
                    &u,
                    &bits(m, off64),
                    None,
                    &format!("u64 {what} off64={off64}"),
                );
                let i: Vec<i64> = u.iter().map(|&x| x as i64).collect();
                check(
                    &ctx,
                    &i,
                    &bits(m, off64),
                    None,
                    &format!("i64 {what} off64={off64}"),
                );
                let f: Vec<f64> = u.iter().map(|&x| f64::from_bits(x)).collect();
                check(
                    &ctx,
                    &f,
                    &bits(m, off64),
                    None,
                    &format!("f64 {what} off64={off64}"),
                );
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
    let specials = [
        0x8000_0000u32,
        0,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFFC0_0001,
        1,
        0x8000_0001,
    ];
    let raw = words_with_specials(&mut rng, n, &specials);
    for m in [1u32, 2, 3, 33, 257, 4096] {
        let picks: Vec<u32> = (0..m.saturating_sub(1))
            .map(|i| raw[(i as usize * 37) % n])
            .collect();
        // Repeated splitters (from 4 buckets): an empty bucket.
        let repeat = m > 3;
        check_splitters::<u32>(&ctx, &raw, &picks, repeat, None, "u32");
        check_splitters::<i32>(&ctx, &raw, &picks, repeat, None, "i32");
        check_splitters::<f32>(&ctx, &raw, &picks, repeat, None, "f32");
        check_splitters::<u64>(&ctx, &raw, &picks, repeat, None, "u64");
        check_splitters::<i64>(&ctx, &raw, &picks, repeat, None, "i64");
        check_splitters::<f64>(&ctx, &raw, &picks, repeat, None, "f64");
    }
    assert_no_validation_messages(&ctx);
}

/// The splitter index (glsl/split/splitter_index.comp) against splitters that crowd its
/// slots: all equal, spanning the whole key range, a tight cluster with one far outlier, and
/// spans just below, at and above the table's 2^R slots (R = ceil(log2 m) + 1), with keys on
/// every splitter, one either side of it, and around the first one (m = 2: the plain search
/// of up to 64 buckets).
#[test]
fn splitter_index_slots() {
    let ctx = context();
    let mut rng = Rng(11);
    let mut designs: Vec<(String, Vec<u32>)> = Vec::new();
    for m in [2u32, 65, 129, 257] {
        designs.push((format!("all equal m={m}"), vec![0x1234_5678; m as usize - 1]));
        let mut whole: Vec<u32> = (0..m - 1).map(|_| rng.next_u32()).collect();
        whole[0] = 0;
        *whole.last_mut().unwrap() = u32::MAX;
        designs.push((format!("whole range m={m}"), whole));
        let table_slots = 1u32 << (32 - (m - 1).leading_zeros() + 1);
        for span in [table_slots - 1, table_slots, table_slots + 1, 2 * table_slots + 3] {
            let picks: Vec<u32> = (0..m - 1)
                .map(|j| 5000 + (span as u64 * j as u64 / (m as u64 - 2).max(1)) as u32)
                .collect();
            designs.push((format!("span {span} m={m}"), picks));
        }
    }
    let mut cluster: Vec<u32> = (0..200).map(|_| 1000 + rng.next_u32() % 100).collect();
    cluster.push(0xF000_0000);
    designs.push(("cluster and outlier m=202".into(), cluster));
    for (what, picks) in &designs {
        let mut words: Vec<u32> = (0..1500).map(|_| rng.next_u32()).collect();
        words.extend([0, 1, u32::MAX, u32::MAX - 1]);
        words.extend(4990..5400);
        for &p in picks {
            words.extend([p.wrapping_sub(1), p, p.wrapping_add(1)]);
        }
        check_splitters::<u32>(&ctx, &words, picks, false, None, &format!("u32 {what}"));
        check_splitters::<i32>(&ctx, &words, picks, false, None, &format!("i32 {what}"));
        check_splitters::<f32>(&ctx, &words, picks, false, None, &format!("f32 {what}"));
        check_splitters::<u64>(&ctx, &words, picks, false, None, &format!("u64 {what}"));
        check_splitters::<i64>(&ctx, &words, picks, false, None, &format!("i64 {what}"));
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
            .multisplit_pairs(
                &mut got_keys,
                &mut got_values,
                &Bucketing::Ids {
                    bucket_count: m,
                    ids: &ids,
                },
            )
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
    // Above the small path's limit on lavapipe (4096): the multi-pass kernels.
    let n = 5001;
    let raw: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
    // u32: (k * params.x) >> 32, as the benchmark's bucket function.
    let keys: Vec<u32> = raw.iter().map(|&x| x as u32).collect();
    for m in [2u32, 3, 8, 1024] {
        check_scaled_glsl(&ctx, &keys, m, "every type");
    }
    let src = "uint vkalgo_bucket(int k) { return uint(k) % vkalgo_params.x; }";
    let keys: Vec<i32> = raw.iter().map(|&x| x as i32).collect();
    let cpu: Vec<u32> = keys.iter().map(|&k| k as u32 % 33).collect();
    check(
        &ctx,
        &keys,
        &Bucketing::Glsl {
            bucket_count: 33,
            source: src,
            params: [33, 0, 0, 0],
        },
        Some((&cpu, 33)),
        "glsl i32",
    );
    let src = "uint vkalgo_bucket(float k) { return floatBitsToUint(k) >> 28; }";
    let keys: Vec<f32> = raw.iter().map(|&x| f32::from_bits(x as u32)).collect();
    let cpu: Vec<u32> = keys.iter().map(|&k| k.to_bits() >> 28).collect();
    check(
        &ctx,
        &keys,
        &Bucketing::Glsl {
            bucket_count: 16,
            source: src,
            params: [0; 4],
        },
        Some((&cpu, 16)),
        "glsl f32",
    );
    let src = "uint vkalgo_bucket(uint64_t k) { return uint(k % uint64_t(vkalgo_params.x)); }";
    let cpu: Vec<u32> = raw.iter().map(|&k| (k % 257) as u32).collect();
    check(
        &ctx,
        &raw,
        &Bucketing::Glsl {
            bucket_count: 257,
            source: src,
            params: [257, 0, 0, 0],
        },
        Some((&cpu, 257)),
        "glsl u64",
    );
    let src = "uint vkalgo_bucket(int64_t k) { return uint(uint64_t(k) >> 60); }";
    let keys: Vec<i64> = raw.iter().map(|&x| x as i64).collect();
    let cpu: Vec<u32> = raw.iter().map(|&k| (k >> 60) as u32).collect();
    check(
        &ctx,
        &keys,
        &Bucketing::Glsl {
            bucket_count: 16,
            source: src,
            params: [0; 4],
        },
        Some((&cpu, 16)),
        "glsl i64",
    );
    let src = "uint vkalgo_bucket(double k) { return k < 0.0 ? 0u : (k < 1.0 ? 1u : 2u); }";
    let keys: Vec<f64> = raw
        .iter()
        .enumerate()
        .map(|(i, &x)| mixed_f64(i, x, x as usize))
        .collect();
    let cpu: Vec<u32> = keys.iter().map(|&k| sign_fraction_bucket(k, 2)).collect();
    check(
        &ctx,
        &keys,
        &Bucketing::Glsl {
            bucket_count: 3,
            source: src,
            params: [0; 4],
        },
        Some((&cpu, 3)),
        "glsl f64",
    );
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
        let b = Bucketing::Glsl {
            bucket_count: m,
            source: src,
            params: [width, m - 1, 0, 0],
        };
        check(&ctx, &keys, &b, Some((&cpu, m)), &format!("glsl width {width}"));
        // The first round compiles (the passes of pairs and keys); later rounds compile nothing.
        let now = vkalgo::split::glsl_compilations(src);
        assert_eq!(
            *compiled.get_or_insert(now),
            now,
            "round {round}: a repeated source compiled again"
        );
    }
    // A second context reuses the compiled source too (its pipelines are its own).
    let other = context();
    let mut k = keys.clone();
    other
        .multisplit(
            &mut k,
            &Bucketing::Glsl {
                bucket_count: m,
                source: src,
                params: [7, m - 1, 0, 0],
            },
        )
        .expect("second context");
    assert_eq!(Some(vkalgo::split::glsl_compilations(src)), compiled);
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
        &Bucketing::Glsl {
            bucket_count: 1000,
            source: src,
            params: [1000, 0, 0, 0],
        },
        Some((&cpu, 1000)),
        "2^22 u32 keys, 1000 GLSL buckets",
    );
    assert_no_validation_messages(&ctx);
}

/// Every bad input of the Rust API: an InvalidArgument (CompileError for GLSL that does not
/// compile, with shaderc's message), the data unchanged, the context usable.
#[test]
fn bad_input_rust() {
    let ctx = context();
    let keys0: Vec<u32> = vec![9, 3, 7, 1, 5];
    let values0: Vec<u32> = vec![0, 1, 2, 3, 4];
    let invalid = |r: vkalgo::Result<Vec<u64>>, what: &str| match r {
        Err(Error::InvalidArgument(m)) => assert!(!m.is_empty(), "{what}"),
        other => panic!("{what}: {other:?}"),
    };
    let run = |b: &Bucketing<u32>, what: &str| {
        let mut k = keys0.clone();
        let mut v = values0.clone();
        invalid(ctx.multisplit_pairs(&mut k, &mut v, b), what);
        assert_eq!((k, v), (keys0.clone(), values0.clone()), "{what}: data changed");
    };
    run(&bits(0, 0), "m = 0");
    run(&bits(1 << 17, 0), "m beyond the maximum");
    run(
        &Bucketing::Ids {
            bucket_count: 65537,
            ids: &[0; 5],
        },
        "IDS m beyond the maximum",
    );
    run(&bits(3, 0), "BITS m not a power of two");
    run(&bits(2, 32), "BITS offset at the width");
    run(&Bucketing::Splitters(&[5, 3]), "unsorted splitters");
    run(
        &Bucketing::Ids {
            bucket_count: 4,
            ids: &[0, 1, 2],
        },
        "missing ids",
    );
    run(
        &Bucketing::Ids {
            bucket_count: 4,
            ids: &[0, 1, 4, 2, 3],
        },
        "an id >= m",
    );
    let src = "uint vkalgo_bucket(uint k) { return k % vkalgo_params.x; }";
    run(
        &Bucketing::Glsl {
            bucket_count: 4,
            source: src,
            params: [5, 0, 0, 0],
        },
        "GLSL bucket >= m",
    );
    run(
        &Bucketing::Glsl {
            bucket_count: 4,
            source: "\0",
            params: [0; 4],
        },
        "GLSL with NUL",
    );
    // 64-bit keys too: the GPU status word, not a host check, catches GLSL's bad buckets.
    let mut k64: Vec<u64> = (0..10_000).collect();
    let src64 = "uint vkalgo_bucket(uint64_t k) { return k == 9999ul ? 7u : 0u; }";
    invalid(
        ctx.multisplit(
            &mut k64,
            &Bucketing::Glsl {
                bucket_count: 7,
                source: src64,
                params: [0; 4],
            },
        ),
        "GLSL u64 bucket >= m in the last element",
    );
    assert!(
        k64.iter().enumerate().all(|(i, &k)| k == i as u64),
        "u64 keys changed"
    );
    // GLSL that does not compile: CompileError with shaderc's message.
    let mut k = keys0.clone();
    let bad = "uint vkalgo_bucket(uint k) { return undefined_thing_42; }";
    match ctx.multisplit(
        &mut k,
        &Bucketing::Glsl {
            bucket_count: 4,
            source: bad,
            params: [0; 4],
        },
    ) {
        Err(Error::CompileError(m)) => assert!(m.contains("undefined_thing_42"), "{m}"),
        other => panic!("compile error expected: {other:?}"),
    }
    let no_function = "uint other_name(uint k) { return 0u; }";
    match ctx.multisplit(
        &mut k,
        &Bucketing::Glsl {
            bucket_count: 4,
            source: no_function,
            params: [0; 4],
        },
    ) {
        Err(Error::CompileError(_)) => {}
        other => panic!("compile error expected without vkalgo_bucket: {other:?}"),
    }
    assert_eq!(k, keys0);
    // Mismatched lengths.
    let mut v = vec![0u32; 4];
    invalid(
        ctx.multisplit_pairs(&mut k, &mut v, &bits(2, 0)),
        "values shorter than keys",
    );
    // The context is still usable.
    let mut k = keys0.clone();
    let offsets = ctx.multisplit(&mut k, &bits(2, 0)).expect("usable");
    assert_eq!(offsets, vec![0, 0, 5]);
    assert_eq!(k, keys0);
    assert_no_validation_messages(&ctx);
}

const POISON: u32 = 0xA5A5_5A5A;

fn read(b: &mut GpuBuffer) -> Vec<u32> {
    let size = b.size() as usize;
    bytemuck::cast_slice(&b.mapped().expect("mapped")[..size]).to_vec()
}

/// u32 -> u32 pairs by IDS on `path` (the record-layer cases).
fn ids_desc(path: SplitPath, m: u32, max_count: usize) -> SplitDesc {
    SplitDesc {
        path,
        ..SplitDesc::new(KeyType::U32, ValueType::U32, m, BucketFn::Ids, max_count as u64)
    }
}

/// The GLSL bucket function of the record-layer cases: key % m, and m (a bad id) for the
/// key 0xFFFFFFFF.
const MOD_OR_BAD: &str =
    "uint vkalgo_bucket(uint k) { return k == 0xFFFFFFFFu ? vkalgo_params.x : k % vkalgo_params.x; }";

/// The record layer with every range mid-buffer, poisoned around, direct or indirect counts,
/// for u32 -> u32 pairs (`desc`: its path and m; IDS, or GLSL [`MOD_OR_BAD`]); `bad` makes
/// one id >= m: the status word reports it and no output is written.
fn record_case(ctx: &Context, desc: &SplitDesc, count: usize, indirect: bool, bad: bool) {
    record_case_via(ctx, desc, count, indirect, bad, false);
}

/// Records `args` through the C ABI (`vkalgo_multisplit_plan_create` on a C context over
/// `ctx`'s device, `vkalgo_multisplit_record`) for `desc` (u32 -> u32 pairs by IDS or GLSL
/// [`MOD_OR_BAD`], path Auto) and runs it.
fn record_through_c(ctx: &Context, desc: &SplitDesc, args: &SplitArgs) {
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::split::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let c_range = |r: Option<vkalgo::BufferRange>| {
        r.map_or(
            VkalgoBufferRange {
                buffer: VkBuffer(0),
                offset: 0,
                size: 0,
            },
            |r| VkalgoBufferRange {
                buffer: VkBuffer(r.buffer.as_raw()),
                offset: r.offset,
                size: r.size,
            },
        )
    };
    let glsl = std::ffi::CString::new(MOD_OR_BAD).unwrap();
    let m = desc.bucket_count;
    let cdesc = VkalgoMultisplitDesc {
        key_type: VKALGO_KEY_U32,
        value_type: VKALGO_VALUE_U32,
        bucket_count: m,
        bucket_fn: if desc.bucket_fn == BucketFn::Glsl {
            VKALGO_BUCKET_GLSL
        } else {
            VKALGO_BUCKET_IDS
        },
        bit_offset: 0,
        splitters: std::ptr::null(),
        bucket_ids: std::ptr::null(),
        glsl: if desc.bucket_fn == BucketFn::Glsl {
            glsl.as_ptr()
        } else {
            std::ptr::null()
        },
        params: args.params,
        max_count: desc.max_count,
        ..Default::default()
    };
    let (count, count_buffer) = match args.count {
        ElementCount::Direct(n) => (n, None),
        ElementCount::Indirect(r) => (0, Some(r)),
    };
    let cargs = VkalgoMultisplitArgs {
        keys: c_range(Some(args.keys)),
        values: c_range(args.values),
        keys_out: c_range(Some(args.keys_out)),
        values_out: c_range(args.values_out),
        splitters: c_range(args.splitters),
        bucket_ids: c_range(args.bucket_ids),
        offsets: c_range(Some(args.offsets)),
        scratch: c_range(Some(args.scratch)),
        count,
        count_buffer: c_range(count_buffer),
        params: args.params,
        ..Default::default()
    };
    unsafe {
        let cctx = common::c_context_over(ctx);
        let mut plan = std::ptr::null_mut();
        let r = vkalgo_multisplit_plan_create(cctx, &cdesc, &mut plan);
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        let mut req = VkalgoMemoryRequirements::default();
        vkalgo_multisplit_plan_memory_requirements(plan, &mut req);
        let rust_req = ctx.split_plan(desc).unwrap().memory_requirements();
        assert_eq!(
            (req.scratch.size, req.offsets.size),
            (rust_req.scratch.size, rust_req.offsets.size)
        );
        ctx.submit_and_wait(|cmd| {
            let c_cmd = VkCommandBuffer(cmd.as_raw() as *mut std::ffi::c_void);
            // An extension pointer (none is defined) is refused, and records nothing.
            let extended = VkalgoMultisplitArgs {
                next: &cargs as *const VkalgoMultisplitArgs as *const std::ffi::c_void,
                ..cargs
            };
            assert_eq!(
                vkalgo_multisplit_record(plan, c_cmd, &extended),
                VkalgoResult::VkalgoErrorInvalidArgument
            );
            assert_eq!(
                vkalgo_multisplit_record(plan, c_cmd, &cargs),
                VkalgoResult::VkalgoSuccess
            );
            compute_to_host(ctx, cmd);
            Ok(())
        })
        .expect("submit");
        vkalgo_multisplit_plan_destroy(plan);
        vkalgo_context_destroy(cctx);
    }
}

/// [`record_case`], recorded through the C ABI when `via_c` (path Auto only).
fn record_case_via(ctx: &Context, desc: &SplitDesc, count: usize, indirect: bool, bad: bool, via_c: bool) {
    let (path, m, max_count) = (desc.path, desc.bucket_count, desc.max_count as usize);
    let glsl = desc.bucket_fn == BucketFn::Glsl;
    let with_values = desc.value_type != ValueType::None;
    let plan = ctx.split_plan(desc).expect("plan");
    if path != SplitPath::Auto {
        assert_eq!(plan.path(), path);
    }
    let req = plan.memory_requirements();
    let bytes = max_count as u64 * 4;
    // Words before every range: 64 before the outputs, 65 before the inputs (keys, values and
    // ids only 4-byte aligned: the count's 16-byte loads must fall back to single words).
    let pad = 64usize;
    let in_pad = pad + 1;
    let total = (pad as u64 * 4) + bytes.max(req.offsets.size) + 256;
    let mut rng = Rng(count as u64 * 31 + m as u64);
    let mut keys: Vec<u32> = rng.vec_u32(max_count);
    let values: Vec<u32> = (0..max_count as u32).collect();
    let mut ids: Vec<u32> = if glsl {
        keys.iter().map(|&k| k % m).collect()
    } else {
        (0..max_count).map(|_| rng.next_u32() % m).collect()
    };
    if bad && count > 0 {
        ids[count - 1] = m;
        keys[count - 1] = u32::MAX;
    }
    let host = |data: &[u32], name: &str| {
        let mut words = vec![POISON; (total / 4) as usize];
        words[in_pad..in_pad + data.len()].copy_from_slice(data);
        let mut b = GpuBuffer::new(ctx, total, MemoryLocation::CpuToGpu, name).expect("buffer");
        b.mapped().unwrap()[..total as usize].copy_from_slice(bytemuck::cast_slice(&words));
        b
    };
    let keys_b = host(&keys, "keys");
    let values_b = host(&values, "values");
    let ids_b = host(&ids, "ids");
    let mut keys_out = host(&[], "keys_out");
    let mut values_out = host(&[], "values_out");
    let mut offsets_b = host(&[], "offsets");
    let mut scratch =
        GpuBuffer::new(ctx, req.scratch.size + 512, MemoryLocation::GpuToCpu, "scratch").unwrap();
    // Dirty scratch (a stale status word and matrix): no path may rely on what it holds.
    scratch.mapped().expect("mapped scratch").fill(0xA5);
    let count_b = host(&[count as u32], "count");
    let at = |b: &GpuBuffer, len: u64| b.sub_range(pad as u64 * 4, len);
    let input_at = |b: &GpuBuffer, len: u64| b.sub_range(in_pad as u64 * 4, len);
    let args = SplitArgs {
        keys: input_at(&keys_b, bytes),
        values: with_values.then(|| input_at(&values_b, bytes)),
        keys_out: at(&keys_out, bytes),
        values_out: with_values.then(|| at(&values_out, bytes)),
        splitters: None,
        bucket_ids: (!glsl).then(|| input_at(&ids_b, bytes)),
        offsets: at(&offsets_b, req.offsets.size),
        scratch: scratch.sub_range(256, req.scratch.size),
        count: if indirect {
            ElementCount::Indirect(input_at(&count_b, 4))
        } else {
            ElementCount::Direct(count as u64)
        },
        params: [m, 0, 0, 0],
    };
    if via_c {
        assert_eq!(path, SplitPath::Auto, "the C ABI plans path Auto");
        record_through_c(ctx, desc, &args);
    } else {
        ctx.submit_and_wait(|cmd| unsafe {
            plan.record(cmd, &args)?;
            compute_to_host(ctx, cmd);
            Ok(())
        })
        .expect("submit");
    }
    let what = format!(
        "{path:?} {:?} {:?} max {max_count} count {count} m {m} indirect {indirect} bad {bad} C {via_c}",
        desc.bucket_fn, desc.value_type
    );
    let status = read(&mut scratch)[64];
    let (ko, vo, oo) = (read(&mut keys_out), read(&mut values_out), read(&mut offsets_b));
    if bad && count > 0 {
        assert_eq!(status, vkalgo::split::STATUS_BAD_BUCKET, "{what}: status");
        for (name, data) in [("keys_out", &ko), ("values_out", &vo), ("offsets", &oo)] {
            assert!(
                data.iter().all(|&x| x == POISON),
                "{what}: {name} written despite a bad id"
            );
        }
        return;
    }
    assert_eq!(status, 0, "{what}: status");
    let mut want_keys = keys[..count].to_vec();
    let mut want_values = values[..count].to_vec();
    let want_offsets = reference::multisplit(&mut want_keys, Some(&mut want_values), &ids[..count], m);
    assert_eq!(&ko[pad..pad + count], &want_keys[..], "{what}: keys");
    if with_values {
        assert_eq!(&vo[pad..pad + count], &want_values[..], "{what}: values");
    } else {
        assert!(
            vo.iter().all(|&x| x == POISON),
            "{what}: values_out written by a keys-alone split"
        );
    }
    let got_offsets: Vec<u64> = oo[pad..pad + m as usize + 1].iter().map(|&x| x as u64).collect();
    assert_eq!(got_offsets, want_offsets, "{what}: offsets");
    for (name, data, len) in [
        ("keys_out", &ko, count),
        ("values_out", &vo, count),
        ("offsets", &oo, m as usize + 1),
    ] {
        assert!(
            data[..pad].iter().all(|&x| x == POISON),
            "{what}: {name} written before its range"
        );
        assert!(
            data[pad + len..].iter().all(|&x| x == POISON),
            "{what}: {name} written past its end"
        );
    }
}

/// The record layer's cases for `desc` at its largest count `max` (tiles of `col` elements):
/// direct and indirect counts from 0 to `max`, and bad ids.
fn record_cases(ctx: &Context, desc: &SplitDesc, max: usize, col: usize) {
    record_case(ctx, desc, max, false, false);
    record_case(ctx, desc, max - col - 1, true, false);
    record_case(ctx, desc, 1, true, false);
    record_case(ctx, desc, 0, true, false);
    record_case(ctx, desc, 0, false, false);
    record_case(ctx, desc, max - 3, false, true);
    record_case(ctx, desc, col + 1, true, true);
}

#[test]
fn record_layer_offsets_indirect_counts_and_status() {
    let ctx = context();
    for (m, path) in [
        (3u32, SplitPath::Small),
        (300, SplitPath::Small),
        (3u32, SplitPath::TileDirect),
        (33u32, SplitPath::TileDirect),
        (3u32, SplitPath::TileStaged),
        (300u32, SplitPath::TileStaged),
        (3u32, SplitPath::TileSubgroupStaged),
        (3, SplitPath::GlobalCounters),
        (64, SplitPath::GlobalCounters),
        (300, SplitPath::Auto),
    ] {
        let col = column_length(&ctx, m);
        let mut max = 4 * col + 5;
        if path == SplitPath::Small {
            let plan = ctx
                .split_plan(&SplitDesc::new(
                    KeyType::U32,
                    ValueType::U32,
                    m,
                    BucketFn::Ids,
                    1 << 16,
                ))
                .unwrap();
            max = max.min(plan.small_limit() as usize);
        }
        let desc = ids_desc(path, m, max);
        record_cases(&ctx, &desc, max, col);
    }
    // Keys alone on the subgroup-staged path: each workgroup of its scatter takes several tiles
    // (the last group partly, and tiles past an indirect count none).
    let keys_desc = |max: usize| SplitDesc {
        value_type: ValueType::None,
        ..ids_desc(SplitPath::TileSubgroupStaged, 3, max)
    };
    let col = ctx.split_plan(&keys_desc(1 << 20)).expect("plan").column_length() as usize;
    let max = 9 * col + 5;
    let keys_alone = keys_desc(max);
    record_cases(&ctx, &keys_alone, max, col);
    record_case(&ctx, &keys_alone, 5 * col, true, false);
    record_case(&ctx, &keys_alone, 4 * col - 1, false, false);
    // Through the C ABI: IDS and GLSL, direct and indirect counts, a bad id.
    for (m, f) in [(5u32, BucketFn::Ids), (300, BucketFn::Ids), (7, BucketFn::Glsl)] {
        let col = column_length(&ctx, m);
        let max = 2 * col + 3;
        let desc = SplitDesc {
            glsl: (f == BucketFn::Glsl).then(|| MOD_OR_BAD.to_string()),
            ..SplitDesc::new(KeyType::U32, ValueType::U32, m, f, max as u64)
        };
        record_case_via(&ctx, &desc, max, false, false, true);
        record_case_via(&ctx, &desc, col + 1, true, false, true);
        record_case_via(&ctx, &desc, max - 1, true, true, true);
    }
    // Record-layer argument checks: nothing recorded.
    let plan = ctx
        .split_plan(&SplitDesc::new(
            KeyType::U32,
            ValueType::None,
            4,
            BucketFn::Bits,
            100,
        ))
        .unwrap();
    let req = plan.memory_requirements();
    let b = GpuBuffer::new(&ctx, 4096 + req.scratch.size, MemoryLocation::GpuOnly, "b").unwrap();
    let good = SplitArgs {
        keys: b.sub_range(0, 400),
        values: None,
        keys_out: b.sub_range(512, 400),
        values_out: None,
        splitters: None,
        bucket_ids: None,
        offsets: b.sub_range(1024, req.offsets.size),
        scratch: b.sub_range(2048, req.scratch.size),
        count: ElementCount::Direct(100),
        params: [0; 4],
    };
    let cases = [
        (
            "count over max",
            SplitArgs {
                count: ElementCount::Direct(101),
                ..good
            },
        ),
        (
            "keys_out overlaps keys",
            SplitArgs {
                keys_out: b.sub_range(200, 400),
                ..good
            },
        ),
        (
            "offsets too small",
            SplitArgs {
                offsets: b.sub_range(1024, 8),
                ..good
            },
        ),
        (
            "values without a value type",
            SplitArgs {
                values: Some(b.sub_range(0, 400)),
                ..good
            },
        ),
        (
            "bucket ids for BITS",
            SplitArgs {
                bucket_ids: Some(b.sub_range(0, 400)),
                ..good
            },
        ),
        (
            "scratch overlaps offsets",
            SplitArgs {
                scratch: b.sub_range(1024, req.scratch.size),
                ..good
            },
        ),
    ];
    ctx.submit_and_wait(|cmd| {
        for (what, args) in &cases {
            // SAFETY: nothing is recorded: every case is refused by the argument checks.
            match unsafe { plan.record(cmd, args) } {
                Err(Error::InvalidArgument(_)) => {}
                other => panic!("{what}: {other:?}"),
            }
        }
        Ok(())
    })
    .unwrap();
    assert_no_validation_messages(&ctx);
}

/// The Onesweep path (the sort's one-pass Onesweep with the bucket as its digit; Auto takes
/// it from 16 buckets where the look-back runs): every key type with BITS (bucket bits
/// clipped at the key's top too) and SPLITTERS (repeated splitters, float specials), GLSL
/// with parameters, adversarial data (all keys in one bucket: the copy of a constant digit),
/// sizes around the tile, up to 256 buckets (one digit pass) and above (two passes, offsets
/// searched in the output); the record layer with m = 2..1000, indirect counts, a GLSL id >= m
/// (status set, nothing written), and the look-back fallback forced for every tile.
/// Splits `keys` into `m` buckets by the benchmark's GLSL function, (k * m) >> 32 with m in
/// `vkalgo_params.x`, and checks them.
fn check_scaled_glsl(ctx: &Context, keys: &[u32], m: u32, what: &str) {
    let src = "uint vkalgo_bucket(uint k) { return uint((uint64_t(k) * uint64_t(vkalgo_params.x)) >> 32); }";
    let cpu: Vec<u32> = keys
        .iter()
        .map(|&k| ((k as u64 * m as u64) >> 32) as u32)
        .collect();
    let b = Bucketing::Glsl {
        bucket_count: m,
        source: src,
        params: [m, 0, 0, 0],
    };
    check(ctx, keys, &b, Some((&cpu, m)), &format!("{what} glsl u32 m={m}"));
}

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
fn staged_key_type<K: FromWord>(ctx: &Context, words: &[u32], offset: u32, name: &str) {
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
    assert_no_validation_messages(&ctx);

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
    for (name, gen) in distributions() {
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
    assert_no_validation_messages(&ctx);
}

/// Splits the keys made from `words` by the splitters made from `picks` (sorted in the key
/// order, the first repeated: an empty bucket) on the explicit Onesweep path, keys alone and
/// with u32 values, through the record layer.
fn onesweep_splitters<K: FromWord>(ctx: &Context, words: &[u32], picks: &[u32], name: &str) {
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
    for (name, gen) in distributions() {
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
    assert_no_validation_messages(&ctx);
}

#[test]
fn c_abi_multisplit_host() {
    use vkalgo_ffi::split::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    assert_eq!(
        (
            VKALGO_BUCKET_BITS,
            VKALGO_BUCKET_SPLITTERS,
            VKALGO_BUCKET_IDS,
            VKALGO_BUCKET_GLSL
        ),
        (
            VkalgoBucketFn(0),
            VkalgoBucketFn(1),
            VkalgoBucketFn(2),
            VkalgoBucketFn(3)
        )
    );
    unsafe {
        let mut ctx = std::ptr::null_mut();
        assert_eq!(
            vkalgo_context_create_default(&mut ctx),
            VkalgoResult::VkalgoSuccess
        );
        let desc = |key_type, value_type, m, f| VkalgoMultisplitDesc {
            key_type,
            value_type,
            bucket_count: m,
            bucket_fn: f,
            bit_offset: 0,
            splitters: std::ptr::null(),
            bucket_ids: std::ptr::null(),
            glsl: std::ptr::null(),
            params: [0; 4],
            ..Default::default()
        };
        // f32 keys with u64 values by splitters.
        let mut rng = Rng(11);
        let mut keys: Vec<f32> = (0..3000).map(|_| f32::from_bits(rng.next_u32())).collect();
        let mut values: Vec<u64> = (0..3000).collect();
        let splitters = [-1.0f32, 0.0, 0.0, 2.5];
        let buckets: Vec<u32> = keys
            .iter()
            .map(|&k| reference::splitters_bucket(k, &splitters))
            .collect();
        let mut want = keys.clone();
        let mut want_values = values.clone();
        let want_offsets = reference::multisplit(&mut want, Some(&mut want_values), &buckets, 5);
        let mut d = desc(VKALGO_KEY_F32, VKALGO_VALUE_U64, 5, VKALGO_BUCKET_SPLITTERS);
        d.splitters = splitters.as_ptr().cast();
        let mut offsets = vec![0u64; 6];
        let r = vkalgo_multisplit_host(
            ctx,
            &d,
            keys.as_mut_ptr().cast(),
            values.as_mut_ptr().cast(),
            keys.len(),
            offsets.as_mut_ptr(),
        );
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        assert!(same_bits(&keys, &want));
        assert_eq!(values, want_values);
        assert_eq!(offsets, want_offsets);
        // GLSL with params, keys only, NULL offsets.
        let src = c"uint vkalgo_bucket(uint k) { return k % vkalgo_params.x; }";
        let mut k: Vec<u32> = (0..1000).rev().collect();
        let mut d = desc(VKALGO_KEY_U32, VKALGO_VALUE_NONE, 10, VKALGO_BUCKET_GLSL);
        d.glsl = src.as_ptr();
        d.params = [10, 0, 0, 0];
        let r = vkalgo_multisplit_host(
            ctx,
            &d,
            k.as_mut_ptr().cast(),
            std::ptr::null_mut(),
            k.len(),
            std::ptr::null_mut(),
        );
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        let ids: Vec<u32> = (0..1000u32).rev().map(|x| x % 10).collect();
        let mut want: Vec<u32> = (0..1000).rev().collect();
        reference::multisplit::<u32, u32>(&mut want, None, &ids, 10);
        assert_eq!(k, want);

        // Bad input: a negative result, a message, nothing changed.
        let mut k: Vec<u32> = vec![3, 2, 1];
        let mut v: Vec<u32> = vec![1, 2, 3];
        let mut off = [77u64; 4];
        let kp: *mut std::ffi::c_void = k.as_mut_ptr().cast();
        let vp: *mut std::ffi::c_void = v.as_mut_ptr().cast();
        let op = off.as_mut_ptr();
        let null = std::ptr::null_mut();
        let ids_bad = [0u32, 3, 1];
        let bad_src = c"uint vkalgo_bucket(uint k) { return nope; }";
        let over_src = c"uint vkalgo_bucket(uint k) { return 3u; }";
        let unsorted = [5u32, 1];
        let with = |f: &dyn Fn(&mut VkalgoMultisplitDesc)| {
            let mut d = desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 2, VKALGO_BUCKET_BITS);
            f(&mut d);
            d
        };
        let invalid = VkalgoResult::VkalgoErrorInvalidArgument;
        let expect = |what: &str, r: VkalgoResult, want: VkalgoResult| {
            assert_eq!(r, want, "{what}");
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message())
                .to_string_lossy()
                .into_owned();
            assert!(!message.is_empty(), "{what}: no message");
            if want == VkalgoResult::VkalgoErrorCompile {
                assert!(message.contains("nope"), "{what}: {message}");
            }
        };
        // Descriptions the call refuses, with the keys, values and offsets above.
        // A refused description: its name, its change to a valid one, the expected result.
        type BadDesc<'a> = (&'a str, &'a dyn Fn(&mut VkalgoMultisplitDesc), VkalgoResult);
        let bad_descs: [BadDesc; 15] = [
            ("m = 0", &|d| d.bucket_count = 0, invalid),
            ("m too large", &|d| d.bucket_count = 1 << 20, invalid),
            (
                // Refused before the 2^20 - 1 splitters the count implies are read.
                "SPLITTERS m too large",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_SPLITTERS;
                    d.bucket_count = 1 << 20;
                    d.splitters = unsorted.as_ptr().cast()
                },
                invalid,
            ),
            ("BITS m = 3", &|d| d.bucket_count = 3, invalid),
            ("BITS offset 32", &|d| d.bit_offset = 32, invalid),
            ("unknown key", &|d| d.key_type = VkalgoKeyType(6), invalid),
            ("unknown value", &|d| d.value_type = VkalgoValueType(3), invalid),
            ("unknown fn", &|d| d.bucket_fn = VkalgoBucketFn(4), invalid),
            (
                "missing splitters",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_SPLITTERS;
                    d.bucket_count = 3
                },
                invalid,
            ),
            (
                "unsorted splitters",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_SPLITTERS;
                    d.bucket_count = 3;
                    d.splitters = unsorted.as_ptr().cast()
                },
                invalid,
            ),
            ("missing ids", &|d| d.bucket_fn = VKALGO_BUCKET_IDS, invalid),
            (
                "id >= m",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_IDS;
                    d.bucket_count = 3;
                    d.bucket_ids = ids_bad.as_ptr()
                },
                invalid,
            ),
            ("missing GLSL", &|d| d.bucket_fn = VKALGO_BUCKET_GLSL, invalid),
            (
                "GLSL does not compile",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_GLSL;
                    d.glsl = bad_src.as_ptr()
                },
                VkalgoResult::VkalgoErrorCompile,
            ),
            (
                "GLSL bucket >= m",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_GLSL;
                    d.glsl = over_src.as_ptr()
                },
                invalid,
            ),
        ];
        for (what, change, want) in bad_descs {
            expect(
                what,
                vkalgo_multisplit_host(ctx, &with(change), kp, vp, 3, op),
                want,
            );
        }
        expect(
            "NULL keys",
            vkalgo_multisplit_host(ctx, &with(&|_| {}), null, vp, 3, op),
            invalid,
        );
        expect(
            "NULL values with a type",
            vkalgo_multisplit_host(ctx, &with(&|_| {}), kp, null, 3, op),
            invalid,
        );
        expect(
            "values without a type",
            vkalgo_multisplit_host(ctx, &with(&|d| d.value_type = VkalgoValueType(0)), kp, vp, 3, op),
            invalid,
        );
        expect(
            "NULL desc",
            vkalgo_multisplit_host(ctx, std::ptr::null(), kp, vp, 3, op),
            invalid,
        );
        // Refused before any byte of the (3-element) arrays is read or a size computed.
        expect(
            "count beyond the maximum",
            vkalgo_multisplit_host(ctx, &with(&|_| {}), kp, vp, usize::MAX, op),
            invalid,
        );
        expect(
            "NULL ctx",
            vkalgo_multisplit_host(null.cast(), &with(&|_| {}), kp, vp, 3, op),
            invalid,
        );
        assert_eq!(
            (k, v, off),
            (vec![3, 2, 1], vec![1, 2, 3], [77; 4]),
            "data changed"
        );
        // The context still works after every refusal.
        let mut k: Vec<u32> = vec![3, 2, 1];
        let mut v: Vec<u32> = vec![1, 2, 3];
        let good = with(&|_| {});
        let kp: *mut std::ffi::c_void = k.as_mut_ptr().cast();
        let vp: *mut std::ffi::c_void = v.as_mut_ptr().cast();
        let r = vkalgo_multisplit_host(ctx, &good, kp, vp, 3, off.as_mut_ptr());
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        assert_eq!((k, v, &off[..3]), (vec![2, 3, 1], vec![2, 1, 3], &[0, 1, 3][..]));
        assert_eq!(vkalgo_context_validation_message_count(ctx), 0);
        vkalgo_context_destroy(ctx);
    }
}

/// Splits `keys` on `desc`'s path (its value type with the element indices as values) through
/// the record layer and compares keys, values and offsets exactly with the CPU counting sort
/// of `buckets` (uploaded as the ids for IDS; `splitters` for SPLITTERS; vkalgo_params.x = m
/// for GLSL).
fn check_on_path<K: FromWord>(
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
/// for keys made by [`FromWord::from_word`] from `word`: the word mod m (doubles: 1 below
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
fn subgroup_staged_key_type<K: FromWord>(
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
        assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    for (name, gen) in distributions() {
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
}

/// Unsorted splitters through the record layer (the host calls refuse them): whatever
/// buckets they give must be below m (the status word says none was not), so the split is
/// still a stable split of the input: offsets from 0 to n, every input index once, in input order within each bucket, each key
/// with its index. The plain search (10 buckets), the splitter index (100, 300), on the tile
/// paths (Auto) and the Onesweep split.
#[test]
fn unsorted_splitters_stay_below_m() {
    for lookback in [false, true] {
        let ctx = context_with_lookback(lookback);
        let mut rng = Rng(31 + lookback as u64);
        for (m, first) in [
            (10u32, u32::MAX),
            (100, u32::MAX),
            (100, 0),
            (300, u32::MAX),
            (300, 0),
        ] {
            let n = 5000usize;
            let keys = rng.vec_u32(n);
            let mut splitters = rng.vec_u32(m as usize - 1);
            // The first above the last (a span of zero) or below every key but 0.
            splitters[0] = first;
            let path = if lookback {
                SplitPath::Onesweep
            } else {
                SplitPath::Auto
            };
            let desc = SplitDesc {
                path,
                ..SplitDesc::new(KeyType::U32, ValueType::U32, m, BucketFn::Splitters, n as u64)
            };
            let plan = ctx.split_plan(&desc).expect("plan");
            let req = plan.memory_requirements();
            let upload = |data: &[u32], name: &str| {
                let mut b = GpuBuffer::new(
                    &ctx,
                    (data.len() * 4).max(4) as u64,
                    MemoryLocation::CpuToGpu,
                    name,
                )
                .expect("buffer");
                b.mapped().expect("mapped")[..data.len() * 4].copy_from_slice(bytemuck::cast_slice(data));
                b
            };
            let download = |size: u64, name: &str| {
                GpuBuffer::new(&ctx, size.max(4), MemoryLocation::GpuToCpu, name).expect("buffer")
            };
            let indices: Vec<u32> = (0..n as u32).collect();
            let (keys_b, values_b, splitters_b) = (
                upload(&keys, "keys"),
                upload(&indices, "values"),
                upload(&splitters, "splitters"),
            );
            let bytes = n as u64 * 4;
            let (mut keys_out, mut values_out) = (download(bytes, "keys_out"), download(bytes, "values_out"));
            let mut offsets = download(req.offsets.size, "offsets");
            offsets.mapped().expect("mapped").fill(0xEE);
            let mut scratch = download(req.scratch.size, "scratch");
            let args = SplitArgs {
                keys: keys_b.sub_range(0, bytes),
                values: Some(values_b.sub_range(0, bytes)),
                keys_out: keys_out.sub_range(0, bytes),
                values_out: Some(values_out.sub_range(0, bytes)),
                splitters: Some(splitters_b.sub_range(0, (m as u64 - 1) * 4)),
                bucket_ids: None,
                offsets: offsets.sub_range(0, req.offsets.size),
                scratch: scratch.sub_range(0, req.scratch.size),
                count: ElementCount::Direct(n as u64),
                params: [0; 4],
            };
            let what = format!("unsorted splitters {:?} m={m} first={first}", plan.path());
            ctx.submit_and_wait(|cmd| unsafe {
                plan.record(cmd, &args)?;
                compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(
                read(&mut scratch)[0],
                0,
                "{what}: the status word reports a bucket >= m"
            );
            let offsets = read(&mut offsets);
            let (got_keys, got_values) = (read(&mut keys_out), read(&mut values_out));
            assert_eq!(
                (offsets[0], offsets[m as usize]),
                (0, n as u32),
                "{what}: offsets' ends"
            );
            let mut seen = vec![false; n];
            for b in 0..m as usize {
                assert!(offsets[b] <= offsets[b + 1], "{what}: offsets decrease at {b}");
                let run = &got_values[offsets[b] as usize..offsets[b + 1] as usize];
                assert!(
                    run.windows(2).all(|w| w[0] < w[1]),
                    "{what}: bucket {b} out of input order"
                );
            }
            for (i, &v) in got_values.iter().enumerate() {
                assert!(
                    !std::mem::replace(&mut seen[v as usize], true),
                    "{what}: index {v} twice"
                );
                assert_eq!(got_keys[i], keys[v as usize], "{what}: key of index {v}");
            }
        }
        assert_no_validation_messages(&ctx);
    }
}

/// The GLSL name of a key type (the parameter of `uint vkalgo_bucket(T key)`).
fn glsl_key_name(key_type: KeyType) -> &'static str {
    match key_type {
        KeyType::U32 => "uint",
        KeyType::I32 => "int",
        KeyType::F32 => "float",
        KeyType::U64 => "uint64_t",
        KeyType::I64 => "int64_t",
        KeyType::F64 => "double",
        other => panic!("no GLSL name for {other:?}"),
    }
}

/// A GLSL bucket function that is not pure: it counts its calls in a buffer (address in
/// `vkalgo_params.y` and `.z`), answers `call % m` (m = `vkalgo_params.x`) to the first
/// `vkalgo_params.w` calls (the counting pass's: one per element) and `m - 1` to every later
/// call, so the pass that places the elements (and the Onesweep ranking, its fallback, the
/// staged paths' second look) sees every element in the last bucket, for which about n / m
/// places were counted. Before the fix the scatter wrote past `keys_out`.
fn two_faced_glsl(key_type: KeyType) -> String {
    format!(
        "layout(buffer_reference, std430, buffer_reference_align = 4) buffer VkalgoTestCalls {{ uint calls; }};\n\
         uint vkalgo_bucket({} key) {{\n\
             VkalgoTestCalls counter = VkalgoTestCalls(uint64_t(vkalgo_params.y) | (uint64_t(vkalgo_params.z) << 32));\n\
             uint call = atomicAdd(counter.calls, 1u);\n\
             return call < vkalgo_params.w ? call % vkalgo_params.x : vkalgo_params.x - 1u;\n\
         }}\n",
        glsl_key_name(key_type)
    )
}

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

/// A GLSL bucket function with private global state (the review's example): the first call of
/// an invocation answers 0, every later one m - 1 (m = `vkalgo_params.x`). On the small path the
/// same invocations count and then place the elements, so the second walk sees every element in
/// the last bucket.
const PRIVATE_STATE_GLSL: &str = "uint vkalgo_test_calls = 0u;\n\
    uint vkalgo_bucket(uint key) { vkalgo_test_calls += 1u; return vkalgo_test_calls == 1u ? 0u : vkalgo_params.x - 1u; }";

/// Canary words before and after every range of [`two_faced_record`].
const CANARY_WORDS: usize = 64;

/// The record layer with [`two_faced_glsl`] on `desc` (its path, m, key and value types):
/// `count` elements (indirect: from a buffer), every output range (keys_out, values_out,
/// offsets) and the scratch range between canary words. Afterwards the status word holds
/// exactly [`vkalgo::split::STATUS_INCONSISTENT`], every canary is unchanged, nothing past
/// `count` elements of keys_out and values_out is written, and the inputs are unchanged.
fn two_faced_record(ctx: &Context, desc: &SplitDesc, count: usize, indirect: bool) {
    two_faced_record_x(ctx, desc, count, indirect, desc.bucket_count);
}

/// [`two_faced_record`] with `vkalgo_params.x` = `x`.
fn two_faced_record_x(ctx: &Context, desc: &SplitDesc, count: usize, indirect: bool, x: u32) {
    let plan = ctx
        .split_plan(desc)
        .unwrap_or_else(|e| panic!("{desc:?}: plan: {e}"));
    if desc.path != SplitPath::Auto {
        assert_eq!(plan.path(), desc.path, "{desc:?}");
    }
    let what = format!(
        "{:?} m={} {:?} -> {:?} count {count} of {} indirect {indirect}",
        plan.path(),
        desc.bucket_count,
        desc.key_type,
        desc.value_type,
        desc.max_count
    );
    let req = plan.memory_requirements();
    let max = desc.max_count as usize;
    let (key_size, value_size) = (desc.key_type.bytes() as usize, desc.value_type.bytes() as usize);
    let with_values = value_size > 0;
    let pad = CANARY_WORDS * 4;
    let mut rng = Rng(count as u64 * 7 + desc.bucket_count as u64);
    let mut bytes = |n: usize| -> Vec<u8> { (0..n).map(|_| rng.next_u32() as u8).collect() };
    let (keys, values) = (bytes(max * key_size), bytes(max * value_size));
    // A buffer of `len` bytes between canaries, holding `data`.
    let framed = |data: &[u8], len: usize, name: &str| {
        let total = pad + len.max(4) + pad;
        let mut words = vec![POISON; total / 4 + 1];
        bytemuck::cast_slice_mut::<u32, u8>(&mut words)[pad..pad + data.len()].copy_from_slice(data);
        let mut b =
            GpuBuffer::new(ctx, (words.len() * 4) as u64, MemoryLocation::CpuToGpu, name).expect("buffer");
        b.mapped().unwrap()[..words.len() * 4].copy_from_slice(bytemuck::cast_slice(&words));
        (b, words)
    };
    let (keys_b, keys_before) = framed(&keys, keys.len(), "keys");
    let (values_b, values_before) = framed(&values, values.len(), "values");
    let (mut keys_out, keys_out_before) = framed(&[], max * key_size, "keys_out");
    let (mut values_out, values_out_before) = framed(&[], max * value_size, "values_out");
    let (mut offsets, offsets_before) = framed(&[], req.offsets.size as usize, "offsets");
    let (mut scratch, scratch_before) = framed(&[], req.scratch.size as usize, "scratch");
    let (count_b, _) = framed(&(count as u32).to_le_bytes(), 4, "count");
    let mut calls = GpuBuffer::new(ctx, 16, MemoryLocation::CpuToGpu, "calls").expect("buffer");
    calls.mapped().unwrap()[..16].fill(0);
    let at = |b: &GpuBuffer, len: usize| b.sub_range(pad as u64, len as u64);
    let args = SplitArgs {
        keys: at(&keys_b, max * key_size),
        values: with_values.then(|| at(&values_b, max * value_size)),
        keys_out: at(&keys_out, max * key_size),
        values_out: with_values.then(|| at(&values_out, max * value_size)),
        splitters: None,
        bucket_ids: None,
        offsets: at(&offsets, req.offsets.size as usize),
        scratch: at(&scratch, req.scratch.size as usize),
        count: if indirect {
            ElementCount::Indirect(at(&count_b, 4))
        } else {
            ElementCount::Direct(count as u64)
        },
        params: [
            x,
            calls.address() as u32,
            (calls.address() >> 32) as u32,
            count as u32,
        ],
    };
    ctx.submit_and_wait(|cmd| unsafe {
        plan.record(cmd, &args)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    let made_calls = read(&mut calls)[0];
    assert!(
        made_calls > count as u32,
        "{what}: {made_calls} calls of the bucket function"
    );
    // (Words: a range's first word is CANARY_WORDS; byte lengths are multiples of 4.)
    let check_frame = |name: &str, got: &[u32], before: &[u32], written_bytes: usize| {
        let first = CANARY_WORDS;
        let end = first + written_bytes / 4;
        assert!(
            got[..first] == before[..first],
            "{what}: {name}: a canary before the range changed"
        );
        if let Some(i) = (end..got.len()).find(|&i| got[i] != before[i]) {
            panic!(
                "{what}: {name}: word {} past the {} written bytes changed ({:#x}; {} changed)",
                i - end,
                written_bytes,
                got[i],
                (end..got.len()).filter(|&i| got[i] != before[i]).count()
            );
        }
    };
    let scratch_words = read(&mut scratch);
    assert_eq!(
        scratch_words[CANARY_WORDS],
        vkalgo::split::STATUS_INCONSISTENT,
        "{what}: status word"
    );
    check_frame(
        "keys_out",
        &read(&mut keys_out),
        &keys_out_before,
        count * key_size,
    );
    check_frame(
        "values_out",
        &read(&mut values_out),
        &values_out_before,
        count * value_size,
    );
    check_frame(
        "offsets",
        &read(&mut offsets),
        &offsets_before,
        req.offsets.size as usize,
    );
    check_frame(
        "scratch",
        &scratch_words,
        &scratch_before,
        req.scratch.size as usize,
    );
    let (mut keys_b, mut values_b) = (keys_b, values_b);
    assert!(read(&mut keys_b) == keys_before, "{what}: keys changed");
    assert!(read(&mut values_b) == values_before, "{what}: values changed");
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
}

/// A C context (`vkalgo_context_create_external`) over `ctx`'s device and queue, for host
/// calls on buffers made with `ctx` (the tests submit from one thread: the queue lock does
/// nothing). Destroy it with `vkalgo_context_destroy`.
unsafe fn c_host_context_over(ctx: &Context) -> *mut vkalgo_ffi::VkalgoContext {
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    unsafe extern "C" fn no_lock(_: *mut std::ffi::c_void, _: u32) {}
    let entry = vkalgo::ash::Entry::load().expect("Vulkan loader");
    let gipa = entry.static_fn().get_instance_proc_addr;
    let queue = ctx.device().get_device_queue(ctx.queue_family_index(), 0);
    let desc = VkalgoExternalContextDesc {
        instance: VkInstance(ctx.instance().handle().as_raw() as *mut std::ffi::c_void),
        physical_device: VkPhysicalDevice(ctx.physical_device().as_raw() as *mut std::ffi::c_void),
        device: VkDevice(ctx.device().handle().as_raw() as *mut std::ffi::c_void),
        queue_family_index: ctx.queue_family_index(),
        queue: VkQueue(queue.as_raw() as *mut std::ffi::c_void),
        get_instance_proc_addr: Some(std::mem::transmute::<
            vkalgo::ash::vk::PFN_vkGetInstanceProcAddr,
            unsafe extern "system" fn(VkInstance, *const std::ffi::c_char) -> *const std::ffi::c_void,
        >(gipa)),
        flags: if ctx.profile().int64_atomics {
            VKALGO_CONTEXT_INT64_ATOMICS_ENABLED
        } else {
            0
        } | if ctx.profile().int16 {
            VKALGO_CONTEXT_INT16_ENABLED
        } else {
            0
        },
        queue_lock: Some(no_lock),
        ..Default::default()
    };
    let mut cctx = std::ptr::null_mut();
    assert_eq!(
        vkalgo_context_create_external(&desc, &mut cctx),
        VkalgoResult::VkalgoSuccess
    );
    cctx
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
        let cctx = c_host_context_over(&ctx);
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
    assert_no_validation_messages(&ctx);
}
