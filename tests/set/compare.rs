//! Set comparisons (equals, is_subset) against the CPU model, through Rust and the C ABI:
//! equal sets built differently, proper subsets and supersets, one value apart at the
//! universe's edges, empty sets, disjoint sets, sets of different contexts refused.

use super::*;

/// Pairs of value lists and what the model says of them.
fn cases(rng: &mut Rng) -> Vec<(&'static str, Vec<u32>, Vec<u32>)> {
    let base = mixed_values(rng, 4000, 5 << 16);
    let mut shuffled = base.clone();
    shuffled.reverse();
    let mut fewer = base.clone();
    fewer.retain(|&v| v % 3 != 0);
    let mut one_more = base.clone();
    one_more.push(u32::MAX);
    one_more.push(0);
    let mut other_edge = base.clone();
    other_edge.retain(|&v| v != u32::MAX);
    other_edge.push(u32::MAX - 2);
    vec![
        ("equal, inserted in another order", base.clone(), shuffled),
        ("a proper subset", fewer.clone(), base.clone()),
        ("a proper superset", base.clone(), fewer),
        ("one value more at the edges", base.clone(), one_more),
        ("the same size, one value differs", base.clone(), other_edge),
        ("both empty", Vec::new(), Vec::new()),
        ("empty against a set", Vec::new(), base.clone()),
        ("a set against empty", base.clone(), Vec::new()),
        ("disjoint", vec![1, 2, 3, 70_000], vec![4, 5, 6, 1 << 31]),
        (
            "a dense range and its half",
            (0..200_000).collect(),
            (0..100_000).collect(),
        ),
    ]
}

#[test]
fn equals_and_subset_against_the_model() {
    let ctx = context();
    let mut rng = Rng(0xc0_3a_4e);
    for (what, va, vb) in cases(&mut rng) {
        let (ma, mb) = (model_of(&va), model_of(&vb));
        let a = GpuSet::from_values(&ctx, &va).unwrap();
        let b = GpuSet::from_values(&ctx, &vb).unwrap();
        assert_eq!(a.equals(&b).unwrap(), ma == mb, "{what}: equals");
        assert_eq!(b.equals(&a).unwrap(), ma == mb, "{what}: equals, swapped");
        assert_eq!(
            a.is_subset(&b).unwrap(),
            ma.is_subset(&mb),
            "{what}: a subset of b"
        );
        assert_eq!(
            b.is_subset(&a).unwrap(),
            mb.is_subset(&ma),
            "{what}: b subset of a"
        );
        assert!(
            a.equals(&a).unwrap() && a.is_subset(&a).unwrap(),
            "{what}: a set and itself"
        );
        // With both cardinalities known (counted) the answers stay the same.
        a.cardinality().unwrap();
        b.cardinality().unwrap();
        assert_eq!(
            a.equals(&b).unwrap(),
            ma == mb,
            "{what}: equals, cardinalities known"
        );
        assert_eq!(
            a.is_subset(&b).unwrap(),
            ma.is_subset(&mb),
            "{what}: subset, known"
        );
    }
}

#[test]
fn c_abi_and_sets_of_two_contexts() {
    use std::ptr::{null, null_mut};
    use vkalgo_ffi::set::*;
    use vkalgo_ffi::*;
    let ctx = context();
    let other_ctx = context();
    let a = GpuSet::from_values(&ctx, &[1, 5, 9]).unwrap();
    let foreign = GpuSet::from_values(&other_ctx, &[1, 5, 9]).unwrap();
    assert!(matches!(a.equals(&foreign), Err(Error::InvalidArgument(_))));
    assert!(matches!(a.is_subset(&foreign), Err(Error::InvalidArgument(_))));
    unsafe {
        let (cctx, cother) = (c_context_with_queue(&ctx), c_context_with_queue(&other_ctx));
        let (ca, cb, cf) = (
            c_set(cctx, &[1, 5, 9]),
            c_set(cctx, &[1, 5, 9, 12]),
            c_set(cother, &[1, 5, 9]),
        );
        let mut out = 7u8;
        assert_eq!(vkalgo_set_equals(ca, cb, &mut out), OK);
        assert_eq!(out, 0);
        assert_eq!(vkalgo_set_is_subset(ca, cb, &mut out), OK);
        assert_eq!(out, 1);
        assert_eq!(vkalgo_set_is_subset(cb, ca, &mut out), OK);
        assert_eq!(out, 0);
        assert_eq!(vkalgo_set_equals(ca, ca, &mut out), OK);
        assert_eq!(out, 1);
        out = 7;
        assert_eq!(vkalgo_set_equals(ca, cf, &mut out), INVALID);
        assert_eq!(vkalgo_set_is_subset(ca, cf, &mut out), INVALID);
        assert_eq!(vkalgo_set_equals(null(), cb, &mut out), INVALID);
        assert_eq!(vkalgo_set_is_subset(ca, cb, null_mut()), INVALID);
        assert_eq!(out, 7, "refused calls wrote nothing");
        for s in [ca, cb, cf] {
            vkalgo_set_destroy(s);
        }
        vkalgo_context_destroy(cctx);
        vkalgo_context_destroy(cother);
    }
}
