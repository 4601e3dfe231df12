//! The host calls against the CPU reference.

use super::*;

/// Counts around the CPU drivers' tile (512) and small limit (256), and a few merge rounds.
const COUNTS: &[usize] = &[0, 1, 2, 255, 257, 511, 512, 513, 3001, 20_001];

/// Every layout and count, u32 keys alone and with u32 values.
#[test]
fn every_layout_and_count() {
    let ctx = context();
    let mut rng = Rng(1);
    let options = SegmentedSortOptions::default();
    for layout in LAYOUTS {
        for &n in COUNTS {
            let offsets = layout.1(&mut rng, n);
            let dist = &DISTRIBUTIONS[(n + offsets.len()) % DISTRIBUTIONS.len()];
            let keys: Vec<u32> = keys_with_specials(n, dist, &mut rng);
            let what = format!("{} n={n} {}", layout.0, dist.0);
            check_host::<u32, u32>(&ctx, &keys, n % 2 == 1, &offsets, &options, &what);
        }
    }
}

fn every_type_for<K: TestKey>(ctx: &Context, rng: &mut Rng, name: &str) {
    for (i, layout) in LAYOUTS.iter().enumerate() {
        let n = [3001, 1200, 20_001][i % 3];
        let offsets = layout.1(rng, n);
        for (d, dist) in [&DISTRIBUTIONS[0], &DISTRIBUTIONS[4]].into_iter().enumerate() {
            let keys: Vec<K> = keys_with_specials(n, dist, rng);
            for descending in [false, true] {
                let options = SegmentedSortOptions {
                    descending,
                    ..Default::default()
                };
                let what = format!("{name} {} n={n} {} desc={descending}", layout.0, dist.0);
                match (i + d) % 3 {
                    0 => check_host::<K, u32>(ctx, &keys, false, &offsets, &options, &what),
                    1 => check_host::<K, u32>(ctx, &keys, true, &offsets, &options, &what),
                    _ => check_host::<K, u64>(ctx, &keys, true, &offsets, &options, &what),
                }
            }
        }
    }
}

/// Every key type (special values included), every value type, both orders.
#[test]
fn every_key_and_value_type() {
    let ctx = context();
    let mut rng = Rng(2);
    every_type_for::<u32>(&ctx, &mut rng, "u32");
    every_type_for::<i32>(&ctx, &mut rng, "i32");
    every_type_for::<f32>(&ctx, &mut rng, "f32");
    every_type_for::<u64>(&ctx, &mut rng, "u64");
    every_type_for::<i64>(&ctx, &mut rng, "i64");
    every_type_for::<f64>(&ctx, &mut rng, "f64");
}

/// Bit ranges: equal keys within the range keep their order (stability shows).
#[test]
fn bit_ranges() {
    let ctx = context();
    let mut rng = Rng(3);
    let n = 5000;
    for (begin_bit, end_bit, descending) in [(0, 8, false), (4, 20, true), (24, 32, false), (31, 0, true)] {
        let offsets = LAYOUTS[4].1(&mut rng, n);
        let keys: Vec<u32> = keys_with_specials(n, &DISTRIBUTIONS[0], &mut rng);
        let options = SegmentedSortOptions {
            begin_bit,
            end_bit,
            descending,
            ..Default::default()
        };
        let what = format!("u32 bits {begin_bit}..{end_bit} desc={descending}");
        check_host::<u32, u32>(&ctx, &keys, true, &offsets, &options, &what);
    }
    for (begin_bit, end_bit) in [(0, 40), (33, 64), (60, 0)] {
        let offsets = LAYOUTS[2].1(&mut rng, n);
        let keys: Vec<f64> = keys_with_specials(n, &DISTRIBUTIONS[0], &mut rng);
        let options = SegmentedSortOptions {
            begin_bit,
            end_bit,
            ..Default::default()
        };
        let what = format!("f64 bits {begin_bit}..{end_bit}");
        check_host::<f64, u64>(&ctx, &keys, true, &offsets, &options, &what);
    }
}

/// Larger arrays: many merge rounds over few huge segments and power-law sizes, many tiny
/// segments.
#[test]
fn larger_arrays() {
    let ctx = context();
    let mut rng = Rng(4);
    let n = 1 << 17;
    for layout in [&LAYOUTS[0], &LAYOUTS[2], &LAYOUTS[3], &LAYOUTS[4]] {
        let offsets = layout.1(&mut rng, n);
        let keys: Vec<u32> = keys_with_specials(n, &DISTRIBUTIONS[5], &mut rng);
        let what = format!("{} n={n}", layout.0);
        check_host::<u32, u32>(
            &ctx,
            &keys,
            true,
            &offsets,
            &SegmentedSortOptions::default(),
            &what,
        );
    }
}

/// The host call records debug labels around its dispatches, as every algorithm does.
#[test]
fn debug_labels() {
    let ctx = context();
    let before = ctx.debug_labels_recorded();
    let mut keys: Vec<u32> = (0..3000u32).rev().collect();
    ctx.segmented_sort(&mut keys, &[0, 1000, 3000]).unwrap();
    assert!(keys[..1000].windows(2).all(|w| w[0] <= w[1]));
    if ctx.validation_enabled() {
        assert!(ctx.debug_labels_recorded() > before, "no debug label recorded");
    }
}
