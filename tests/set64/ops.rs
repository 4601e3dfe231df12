//! Operations of two 64-bit sets against the model: AND / OR / ANDNOT / XOR into a new set,
//! their cardinalities both ways, equality and inclusion.

use super::*;

/// `a op b` for every op against the model: the result (everything observable), the
/// cardinalities of `a op b` and `b op a`, and the comparisons both ways.
fn check_pair(a: &GpuSet64, b: &GpuSet64, ma: &BTreeSet<u64>, mb: &BTreeSet<u64>, what: &str) {
    for op in SetOp::ALL {
        let want = reference::op(ma, mb, op);
        let got = GpuSet64::op(a, b, op).unwrap();
        check(&got, &want, &format!("{what}: {op:?}"));
        assert_eq!(
            GpuSet64::op_cardinality(a, b, op).unwrap(),
            want.len() as u64,
            "{what}: {op:?} cardinality"
        );
        assert_eq!(
            GpuSet64::op_cardinality(b, a, op).unwrap(),
            reference::op(mb, ma, op).len() as u64,
            "{what}: {op:?} cardinality, b op a"
        );
    }
    assert_eq!(a.equals(b).unwrap(), ma == mb, "{what}: equals");
    assert_eq!(b.equals(a).unwrap(), ma == mb, "{what}: equals, b a");
    assert_eq!(a.is_subset(b).unwrap(), ma.is_subset(mb), "{what}: a subset of b");
    assert_eq!(b.is_subset(a).unwrap(), mb.is_subset(ma), "{what}: b subset of a");
}

/// Pairs of sets that share some high keys and not others (each op keeps or drops the
/// one-sided keys), with edge values, dense and full chunks and runs; a set against a subset,
/// against itself, against an empty set, against a set of other keys only; results of
/// operations (flat, with free blocks) and packed ones as operands.
#[test]
fn operations_against_the_model() {
    let ctx = context();
    let mut rng = Rng(0x0b564);
    let va = mixed_values(&mut rng, 10);
    let mut vb = mixed_values(&mut rng, 10);
    // b: half of a's values too (shared keys), the rest its own.
    vb.extend(va.iter().step_by(2));
    let (ma, mb) = (model_of(&va), model_of(&vb));
    let a = GpuSet64::from_values(&ctx, &va).unwrap();
    let b = GpuSet64::from_values(&ctx, &vb).unwrap();
    check_pair(&a, &b, &ma, &mb, "a, b");
    let sub: Vec<u64> = va.iter().copied().step_by(3).collect();
    let s = GpuSet64::from_values(&ctx, &sub).unwrap();
    check_pair(&s, &a, &model_of(&sub), &ma, "subset, a");
    assert!(a.equals(&a).unwrap() && a.is_subset(&a).unwrap(), "a, a");
    let e = GpuSet64::new(&ctx).unwrap();
    check_pair(&a, &e, &ma, &BTreeSet::new(), "a, empty");
    assert!(e.equals(&GpuSet64::new(&ctx).unwrap()).unwrap() && e.is_subset(&a).unwrap());
    // No high key in common with a.
    let vo: Vec<u64> = (0..500u64).map(|i| ((1000 + i % 7) << 32) | (i * 131)).collect();
    let o = GpuSet64::from_values(&ctx, &vo).unwrap();
    check_pair(&a, &o, &ma, &model_of(&vo), "a, other keys");
    // Results of operations as operands (flat sets with free blocks), and packed again.
    let mut x = GpuSet64::op(&a, &b, SetOp::Xor).unwrap();
    let mx = reference::op(&ma, &mb, SetOp::Xor);
    let y = GpuSet64::op(&b, &s, SetOp::Or).unwrap();
    let my = reference::op(&mb, &model_of(&sub), SetOp::Or);
    x.pack().unwrap();
    check_pair(&x, &y, &mx, &my, "results, one packed");
}

/// Results that empty a high key drop its 32-bit set: an AND of disjoint values under shared
/// keys is empty (no key kept), XOR and ANDNOT of a set with itself are empty, and an AND that
/// empties some keys keeps only the others.
#[test]
fn emptied_keys_are_dropped() {
    let ctx = context();
    let va: Vec<u64> = (0..40u64)
        .map(|i| (i << 32) | (2 * i))
        .chain([u64::MAX, 1 << 63])
        .collect();
    let vb: Vec<u64> = (0..40u64).map(|i| i << 32 | (2 * i + 1)).collect();
    let (a, b) = (
        GpuSet64::from_values(&ctx, &va).unwrap(),
        GpuSet64::from_values(&ctx, &vb).unwrap(),
    );
    let none = BTreeSet::new();
    for (x, y, op) in [
        (&a, &b, SetOp::And),
        (&a, &a, SetOp::Xor),
        (&a, &a, SetOp::AndNot),
    ] {
        let r = GpuSet64::op(x, y, op).unwrap();
        assert!(r.is_empty(), "{op:?}: {:?}", r.high_keys());
        check(&r, &none, &format!("{op:?} empty"));
    }
    // Keys 0..20 share a value with c, keys 20..40 do not: AND keeps keys 0..20 only.
    let vc: Vec<u64> = (0..20u64).map(|i| (i << 32) | (2 * i)).collect();
    let c = GpuSet64::from_values(&ctx, &vc).unwrap();
    let r = GpuSet64::op(&a, &c, SetOp::And).unwrap();
    assert_eq!(r.high_keys(), (0..20).collect::<Vec<u32>>());
    check(&r, &model_of(&vc), "AND keeps the shared keys");
}

/// Many high keys on both sides, most with one value, half of them shared: every pair in one
/// batched submission, and the one-sided keys copied or dropped.
#[test]
fn many_keys_on_both_sides() {
    let ctx = context();
    let mut rng = Rng(0x3a264);
    let va: Vec<u64> = (0..200u64)
        .map(|i| ((3 * i) << 32) | (rng.next_u32() as u64 % 50))
        .collect();
    let vb: Vec<u64> = (0..200u64)
        .map(|i| ((2 * i) << 32) | (rng.next_u32() as u64 % 50))
        .collect();
    let (a, b) = (
        GpuSet64::from_values(&ctx, &va).unwrap(),
        GpuSet64::from_values(&ctx, &vb).unwrap(),
    );
    check_pair(&a, &b, &model_of(&va), &model_of(&vb), "many keys");
}

/// The 32-bit sets a one-sided key copies (buffer to buffer) are sets of their own: with their
/// sources dropped, the copies (of packed sets, and of flat results with free blocks) answer
/// every GPU read and serve as operands and as the old sets of inserts and removals.
#[test]
fn copies_outlive_their_sources() {
    let ctx = context();
    let mut rng = Rng(0xc0b1e5);
    let va = mixed_values(&mut rng, 6);
    let vb: Vec<u64> = va.iter().step_by(3).map(|v| v ^ 4).collect();
    let (ma, mb) = (model_of(&va), model_of(&vb));
    let empty = GpuSet64::new(&ctx).unwrap();
    let (copy_of_packed, copy_of_flat, mx) = {
        let a = GpuSet64::from_values(&ctx, &va).unwrap();
        let b = GpuSet64::from_values(&ctx, &vb).unwrap();
        let x = GpuSet64::op(&a, &b, SetOp::Xor).unwrap(); // flat results
        (
            GpuSet64::op(&a, &empty, SetOp::Or).unwrap(),
            GpuSet64::op(&empty, &x, SetOp::Xor).unwrap(),
            reference::op(&ma, &mb, SetOp::Xor),
        )
    }; // a, b and x are gone
    for (mut set, mut model, what) in [
        (copy_of_packed, ma, "copy of packed"),
        (copy_of_flat, mx, "copy of flat"),
    ] {
        check(&set, &model, what);
        let queries: Vec<u64> = model.iter().copied().step_by(11).chain(edge_values()).collect();
        let mut found = vec![false; queries.len()];
        set.contains(&queries, &mut found).unwrap();
        for (q, f) in queries.iter().zip(&found) {
            assert_eq!(*f, model.contains(q), "{what}: contains {q:#x}");
        }
        let other = GpuSet64::from_values(&ctx, &vb).unwrap();
        assert_eq!(
            GpuSet64::op_cardinality(&set, &other, SetOp::And).unwrap(),
            reference::op(&model, &mb, SetOp::And).len() as u64,
            "{what}: AND cardinality"
        );
        let more: Vec<u64> = (0..300u64).map(|i| (i % 3) << 32 | (i * 977)).collect();
        set.insert(&more).unwrap();
        model.extend(more.iter().copied());
        let gone: Vec<u64> = model.iter().copied().step_by(2).collect();
        set.remove(&gone).unwrap();
        for v in &gone {
            model.remove(v);
        }
        check(&set, &model, &format!("{what}, written"));
    }
}
