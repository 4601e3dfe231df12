//! The host layer: every key type, value type and operation over every run pattern, counts
//! around the CPU drivers' tile and a million.

use super::*;

/// Checks the host call of one combination against the reference.
fn check(ctx: &Context, key_type: KeyType, keys: &[u8], value_type: ValueType, op: ReduceOp, rng: &mut Rng) {
    let kb = key_type.bytes() as usize;
    let n = keys.len() / kb;
    let (value_bytes, wide) = values_for(n, value_type, rng);
    let values = (value_type != ValueType::None).then_some(&value_bytes[..]);
    let got = ctx
        .reduce_by_key_host_bytes(key_type, value_type, op, keys, values)
        .unwrap();
    let (want_keys, want_values) = expected(keys, kb, &wide, value_type, op);
    assert_eq!(
        got.runs as usize,
        want_keys.len() / kb,
        "{key_type:?} {value_type:?} {op:?} n {n}"
    );
    assert!(
        got.keys == want_keys,
        "{key_type:?} {value_type:?} {op:?} n {n}: keys differ"
    );
    assert!(
        got.values == want_values,
        "{key_type:?} {value_type:?} {op:?} n {n}: values differ"
    );
}

#[test]
fn every_type_operation_and_run_pattern() {
    let ctx = context();
    let mut rng = Rng(86);
    let patterns = [
        Runs::AllEqual,
        Runs::AllDistinct,
        Runs::Random(5000),
        Runs::Random(6),
        Runs::Fixed(512),
        Runs::Specials,
    ];
    for_each_key_type(|key_type, make| {
        for value_type in ValueType::ALL {
            let ops: &[ReduceOp] = if value_type == ValueType::None {
                &[ReduceOp::Sum]
            } else {
                &ReduceOp::ALL
            };
            for &op in ops {
                for (p, &pattern) in patterns.iter().enumerate() {
                    let counts: &[usize] = if p == 2 {
                        &[1, 513, 20_000]
                    } else {
                        &[0, 1, 511, 512, 513, 1025, 3000]
                    };
                    for &n in counts {
                        let keys = make(n, pattern, &mut rng);
                        check(&ctx, key_type, &keys, value_type, op, &mut rng);
                    }
                }
            }
        }
    });
}

#[test]
fn a_million_keys() {
    let ctx = context();
    let mut rng = Rng(1_000_000);
    for (key_type, value_type, runs) in [
        (KeyType::U32, ValueType::U32, Runs::Random(5000)),
        (KeyType::F64, ValueType::U64, Runs::Random(8)),
        (KeyType::I32, ValueType::None, Runs::AllEqual),
    ] {
        let keys = match key_type {
            KeyType::U32 => keys_bytes::<u32>(1_000_003, runs, &mut rng),
            KeyType::F64 => keys_bytes::<f64>(1_000_003, runs, &mut rng),
            _ => keys_bytes::<i32>(1_000_003, runs, &mut rng),
        };
        check(&ctx, key_type, &keys, value_type, ReduceOp::Sum, &mut rng);
    }
}

#[test]
fn typed_calls() {
    let ctx = context();
    let (k, v) = ctx
        .reduce_by_key(
            &[-0.0f32, 0.0, 0.0, f32::NAN, f32::NAN],
            &[1u32, 2, 3, 4, 5],
            ReduceOp::Max,
        )
        .unwrap();
    let bits: Vec<u32> = k.iter().map(|x| x.to_bits()).collect();
    assert_eq!(bits, vec![(-0.0f32).to_bits(), 0, f32::NAN.to_bits()]);
    assert_eq!(v, vec![1, 3, 5]);
    let (k, v) = ctx
        .reduce_by_key(&[9u64, 9], &[u64::MAX, 2], ReduceOp::Sum)
        .unwrap();
    assert_eq!((k, v), (vec![9], vec![1]));
    let (k, n) = ctx.run_length_encode(&[1u32, 1, 2, 1]).unwrap();
    assert_eq!((k, n), (vec![1, 2, 1], vec![2, 1, 1]));
    let (k, n) = ctx.run_length_encode::<i64>(&[]).unwrap();
    assert!(k.is_empty() && n.is_empty());
}
