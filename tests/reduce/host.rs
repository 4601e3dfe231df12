//! The host layer: every key type and operation, every distribution, counts around the tiles.

use super::*;

fn every_count_and_distribution<K: TestKey>(ctx: &Context, seed: u64) {
    let mut rng = Rng(seed);
    for op in ReduceOp::ALL {
        for (d, dist) in DISTRIBUTIONS.iter().enumerate() {
            let counts: &[usize] = if d == 0 {
                &[
                    0,
                    1,
                    2,
                    255,
                    256,
                    1023,
                    1024,
                    1025,
                    4097,
                    65_536 * 3 + 7,
                    1_000_003,
                ]
            } else {
                &[1, 3000, 70_001]
            };
            for &n in counts {
                let keys: Vec<K> = keys_for(n, dist, op, &mut rng);
                let got = ctx.reduce(&keys, op).unwrap();
                let want = reference::reduce(&keys, op);
                assert_eq!(
                    bits(got),
                    bits(want),
                    "{:?} {op:?} {} n {n}: {got:?} != {want:?}",
                    K::KEY_TYPE,
                    dist.0
                );
            }
        }
    }
}

#[test]
fn every_key_type_operation_and_distribution() {
    let ctx = context();
    every_count_and_distribution::<u32>(&ctx, 1);
    every_count_and_distribution::<i32>(&ctx, 2);
    every_count_and_distribution::<f32>(&ctx, 3);
    every_count_and_distribution::<u64>(&ctx, 4);
    every_count_and_distribution::<i64>(&ctx, 5);
    every_count_and_distribution::<f64>(&ctx, 6);
}

/// No elements give the identity: 0, the largest key for minima, the smallest for maxima.
#[test]
fn empty_input_gives_the_identity() {
    let ctx = context();
    assert_eq!(ctx.reduce::<u32>(&[], ReduceOp::Min).unwrap(), u32::MAX);
    assert_eq!(ctx.reduce::<i32>(&[], ReduceOp::Max).unwrap(), i32::MIN);
    assert_eq!(
        ctx.reduce::<f32>(&[], ReduceOp::Min).unwrap().to_bits(),
        0x7FFF_FFFF
    );
    assert_eq!(
        ctx.reduce::<f32>(&[], ReduceOp::Max).unwrap().to_bits(),
        0xFFFF_FFFF
    );
    assert_eq!(
        ctx.reduce::<f64>(&[], ReduceOp::Min).unwrap().to_bits(),
        0x7FFF_FFFF_FFFF_FFFF
    );
    assert_eq!(ctx.reduce::<u64>(&[], ReduceOp::Sum).unwrap(), 0);
    assert_eq!(ctx.reduce::<i64>(&[], ReduceOp::Min).unwrap(), i64::MAX);
}

/// Floats in the sort's order: NaNs by their bits, -0 below +0; integer sums wrap.
#[test]
fn order_and_wrapping() {
    let ctx = context();
    let nan = f32::from_bits(0x7FC0_0001);
    let neg_nan = f32::from_bits(0xFFC0_0000);
    let keys = [1.0f32, nan, -0.0, 0.0, f32::INFINITY, neg_nan, -5.0];
    assert_eq!(ctx.reduce(&keys, ReduceOp::Max).unwrap().to_bits(), nan.to_bits());
    assert_eq!(
        ctx.reduce(&keys, ReduceOp::Min).unwrap().to_bits(),
        neg_nan.to_bits()
    );
    assert_eq!(
        ctx.reduce(&[0.0f32, -0.0], ReduceOp::Min).unwrap().to_bits(),
        (-0.0f32).to_bits()
    );
    assert_eq!(ctx.reduce(&[u32::MAX, 2, 5], ReduceOp::Sum).unwrap(), 6);
    assert_eq!(ctx.reduce(&[i64::MIN, -1], ReduceOp::Sum).unwrap(), i64::MAX);
}
