//! 64-bit sets through the C ABI (`vkalgo_set64_*`), every result against the model; refused
//! calls (NULL pointers, unknown ops, sets of two contexts, room too small, malformed
//! serializations) change and write nothing.

use super::*;
use std::ptr::{null, null_mut};
use vkalgo_ffi::set64::*;
use vkalgo_ffi::types::*;
use vkalgo_ffi::*;

const POISON: u64 = 0xDEAD_BEEF_DEAD_BEEF;

/// A set of the C context `cctx` holding `values`.
unsafe fn c_set(cctx: *mut VkalgoContext, values: &[u64]) -> *mut VkalgoSet64 {
    let mut s = null_mut();
    assert_eq!(vkalgo_set64_create(cctx, &mut s), OK);
    assert_eq!(vkalgo_set64_insert(s, values.as_ptr(), values.len()), OK);
    s
}

/// Everything the C calls observe of `s`, against `model`.
unsafe fn check_c(s: *const VkalgoSet64, model: &BTreeSet<u64>, what: &str) {
    let want: Vec<u64> = model.iter().copied().collect();
    let mut card = POISON;
    assert_eq!(vkalgo_set64_cardinality(s, &mut card), OK, "{what}");
    assert_eq!(card, want.len() as u64, "{what}: cardinality");
    let mut out = vec![POISON; want.len() + 1];
    let mut written = usize::MAX;
    assert_eq!(
        vkalgo_set64_to_array(s, out.as_mut_ptr(), out.len(), &mut written),
        OK
    );
    assert_eq!(written, want.len(), "{what}: written");
    assert!(out[..written] == want[..], "{what}: values");
    assert_eq!(out[written], POISON, "{what}: nothing past the values");
    let (mut lo, mut hi) = (POISON, POISON);
    let expected = if want.is_empty() { INVALID } else { OK };
    assert_eq!(vkalgo_set64_minimum(s, &mut lo), expected, "{what}: minimum");
    assert_eq!(vkalgo_set64_maximum(s, &mut hi), expected, "{what}: maximum");
    assert_eq!(lo, want.first().copied().unwrap_or(POISON), "{what}: minimum");
    assert_eq!(hi, want.last().copied().unwrap_or(POISON), "{what}: maximum");
    let mut size = 0usize;
    assert_eq!(vkalgo_set64_serialized_size(s, &mut size), OK);
    let mut bytes = vec![0u8; size];
    let mut n = 0usize;
    assert_eq!(vkalgo_set64_serialize(s, bytes.as_mut_ptr(), size, &mut n), OK);
    assert_eq!(n, size);
    assert!(bytes == reference::serialize(model), "{what}: serialization");
}

/// The host calls against the model: build, insert, remove, contains, to_array, minimum and
/// maximum, the four operations into a new set and into an operand, their cardinalities,
/// comparisons, serialization round trips (size query, room too small) and pack.
#[test]
fn host_calls() {
    let ctx = context();
    let mut rng = Rng(0xc64);
    unsafe {
        let cctx = c_context_with_queue(&ctx);
        let va = mixed_values(&mut rng, 12);
        let vb: Vec<u64> = va.iter().step_by(2).map(|v| v ^ 1).chain(edge_values()).collect();
        let (a, b) = (c_set(cctx, &va), c_set(cctx, &vb));
        let (mut ma, mb) = (model_of(&va), model_of(&vb));
        check_c(a, &ma, "a");
        check_c(b, &mb, "b");
        // Contains: every value, neighbours, random values.
        let mut q: Vec<u64> = va.iter().step_by(5).copied().collect();
        q.extend(va.iter().step_by(7).map(|v| v.wrapping_add(1)));
        q.extend((0..1000).map(|_| rng.next_u64()));
        let mut found = vec![9u8; q.len()];
        assert_eq!(
            vkalgo_set64_contains(a, q.as_ptr(), q.len(), found.as_mut_ptr()),
            OK
        );
        for (v, f) in q.iter().zip(&found) {
            assert_eq!(*f, u8::from(ma.contains(v)), "contains {v:#x}");
        }
        // Operations into a new set, their cardinalities, and the comparisons.
        for (code, op) in [
            (VKALGO_SET_AND, SetOp::And),
            (VKALGO_SET_OR, SetOp::Or),
            (VKALGO_SET_ANDNOT, SetOp::AndNot),
            (VKALGO_SET_XOR, SetOp::Xor),
        ] {
            let code = code.0;
            let d = c_set(cctx, &[5]);
            assert_eq!(vkalgo_set64_op(d, a, b, code), OK);
            let want = reference::op(&ma, &mb, op);
            check_c(d, &want, &format!("{op:?}"));
            let mut card = POISON;
            assert_eq!(vkalgo_set64_op_cardinality(a, b, code, &mut card), OK);
            assert_eq!(card, want.len() as u64, "{op:?} cardinality");
            let (mut eq, mut sub) = (9u8, 9u8);
            assert_eq!(vkalgo_set64_equals(d, a, &mut eq), OK);
            assert_eq!(vkalgo_set64_is_subset(d, a, &mut sub), OK);
            assert_eq!(
                (eq, sub),
                (u8::from(want == ma), u8::from(want.is_subset(&ma))),
                "{op:?}"
            );
            vkalgo_set64_destroy(d);
        }
        // Into an operand: a = a OR b, then b = a ANDNOT b.
        assert_eq!(vkalgo_set64_op(a, a, b, VKALGO_SET_OR.0), OK);
        ma = reference::op(&ma, &mb, SetOp::Or);
        check_c(a, &ma, "a = a OR b");
        assert_eq!(vkalgo_set64_op(b, a, b, VKALGO_SET_ANDNOT.0), OK);
        let mb = reference::op(&ma, &mb, SetOp::AndNot);
        check_c(b, &mb, "b = a ANDNOT b");
        // Removals that empty a high key.
        let gone: Vec<u64> = ma.iter().copied().filter(|v| v >> 32 == 1).collect();
        assert_eq!(vkalgo_set64_remove(a, gone.as_ptr(), gone.len()), OK);
        for v in &gone {
            ma.remove(v);
        }
        check_c(a, &ma, "key 1 removed");
        let (mut before, mut after) = (0u64, 0u64);
        assert_eq!(vkalgo_set64_memory_bytes(a, &mut before), OK);
        assert_eq!(vkalgo_set64_pack(a), OK);
        assert_eq!(vkalgo_set64_memory_bytes(a, &mut after), OK);
        assert!(after <= before, "pack: {before} -> {after}");
        check_c(a, &ma, "packed");
        // Serialization round trips: the size query, then room too small, then the bytes.
        let mut size = 0usize;
        assert_eq!(vkalgo_set64_serialize(a, null_mut(), 0, &mut size), OK);
        let mut bytes = vec![0xAAu8; size];
        let mut n = 0usize;
        assert_eq!(
            vkalgo_set64_serialize(a, bytes.as_mut_ptr(), size - 1, &mut n),
            INVALID
        );
        assert_eq!(n, size, "the size needed");
        assert!(bytes.iter().all(|&x| x == 0xAA), "nothing written");
        assert_eq!(vkalgo_set64_serialize(a, bytes.as_mut_ptr(), size, &mut n), OK);
        let mut r = null_mut();
        assert_eq!(
            vkalgo_set64_deserialize(cctx, bytes.as_ptr(), bytes.len(), &mut r),
            OK
        );
        check_c(r, &ma, "read back");
        let mut eq = 9u8;
        assert_eq!(vkalgo_set64_equals(r, a, &mut eq), OK);
        assert_eq!(eq, 1);
        bytes.extend_from_slice(&[1, 2, 3]);
        let (mut p, mut read) = (null_mut(), 0usize);
        assert_eq!(
            vkalgo_set64_deserialize_prefix(cctx, bytes.as_ptr(), bytes.len(), &mut read, &mut p),
            OK
        );
        assert_eq!(read, size);
        check_c(p, &ma, "prefix");
        let empty = c_set(cctx, &[]);
        check_c(empty, &BTreeSet::new(), "empty");
        for s in [a, b, r, p, empty] {
            vkalgo_set64_destroy(s);
        }
        vkalgo_context_destroy(cctx);
    }
}

/// Refused calls: NULL handles and arrays, an unknown op, sets of two contexts, room too
/// small, malformed serializations. Each returns INVALID_ARGUMENT with a message and changes
/// nothing: outputs keep their poison, sets their values, `*out` handles stay NULL.
#[test]
fn refused_calls_change_nothing() {
    let ctx = context();
    unsafe {
        let (cctx, cother) = (c_context_with_queue(&ctx), c_context_with_queue(&ctx));
        let values = [1u64, 1 << 40, u64::MAX];
        let model = model_of(&values);
        let (a, f) = (c_set(cctx, &values), c_set(cother, &values));
        let mut out = POISON;
        let mut flag = 7u8;
        let mut size = 12345usize;
        assert_eq!(vkalgo_set64_create(null_mut(), &mut null_mut()), INVALID);
        assert_eq!(vkalgo_set64_create(cctx, null_mut()), INVALID);
        assert_eq!(vkalgo_set64_insert(null_mut(), values.as_ptr(), 3), INVALID);
        assert_eq!(vkalgo_set64_insert(a, null(), 3), INVALID);
        assert_eq!(vkalgo_set64_remove(a, null(), 1), INVALID);
        assert_eq!(vkalgo_set64_insert(a, null(), 0), OK, "no values");
        assert_eq!(vkalgo_set64_contains(a, values.as_ptr(), 3, null_mut()), INVALID);
        assert_eq!(
            vkalgo_set64_contains(null(), values.as_ptr(), 3, &mut flag),
            INVALID
        );
        assert_eq!(vkalgo_set64_cardinality(a, null_mut()), INVALID);
        assert_eq!(vkalgo_set64_cardinality(null(), &mut out), INVALID);
        assert_eq!(vkalgo_set64_minimum(a, null_mut()), INVALID);
        assert_eq!(vkalgo_set64_maximum(null(), &mut out), INVALID);
        let mut small = [POISON; 2];
        assert_eq!(
            vkalgo_set64_to_array(a, small.as_mut_ptr(), 2, &mut size),
            INVALID
        );
        assert_eq!(
            (small, size),
            ([POISON; 2], 3),
            "nothing written, the count reported"
        );
        assert_eq!(vkalgo_set64_to_array(a, null_mut(), 3, &mut size), INVALID);
        assert_eq!(
            vkalgo_set64_to_array(a, small.as_mut_ptr(), 2, null_mut()),
            INVALID
        );
        // Unknown op, NULL operands, sets of two contexts.
        assert_eq!(vkalgo_set64_op(a, a, a, 4), INVALID);
        assert_eq!(vkalgo_set64_op(a, a, a, u32::MAX), INVALID);
        assert_eq!(vkalgo_set64_op(a, null(), a, 0), INVALID);
        assert_eq!(vkalgo_set64_op(null_mut(), a, a, 0), INVALID);
        assert_eq!(
            vkalgo_set64_op(a, f, f, VKALGO_SET_OR.0),
            INVALID,
            "dst of another context"
        );
        assert_eq!(
            vkalgo_set64_op(a, a, f, VKALGO_SET_OR.0),
            INVALID,
            "operands of two contexts"
        );
        assert_eq!(vkalgo_set64_op_cardinality(a, f, 0, &mut out), INVALID);
        assert_eq!(vkalgo_set64_op_cardinality(a, a, 9, &mut out), INVALID);
        assert_eq!(vkalgo_set64_op_cardinality(a, a, 0, null_mut()), INVALID);
        assert_eq!(vkalgo_set64_equals(a, f, &mut flag), INVALID);
        assert_eq!(vkalgo_set64_is_subset(f, a, &mut flag), INVALID);
        assert_eq!(vkalgo_set64_equals(a, null(), &mut flag), INVALID);
        assert_eq!(vkalgo_set64_is_subset(a, a, null_mut()), INVALID);
        assert_eq!(vkalgo_set64_serialized_size(a, null_mut()), INVALID);
        assert_eq!(vkalgo_set64_serialize(a, null_mut(), 0, null_mut()), INVALID);
        assert_eq!(vkalgo_set64_memory_bytes(a, null_mut()), INVALID);
        assert_eq!(vkalgo_set64_pack(null_mut()), INVALID);
        assert_eq!((out, flag), (POISON, 7), "refused calls wrote nothing");
        check_c(a, &model, "a unchanged");
        // An empty set has no minimum or maximum.
        let e = c_set(cctx, &[]);
        assert_eq!(vkalgo_set64_minimum(e, &mut out), INVALID);
        assert_eq!(vkalgo_set64_maximum(e, &mut out), INVALID);
        assert_eq!(out, POISON);
        // Malformed serializations: no set made.
        let good = reference::serialize(&model);
        let mut trailing = good.clone();
        trailing.push(0);
        let mut count = good.clone();
        count[..8].copy_from_slice(&(1u64 << 40).to_le_bytes());
        for (what, bytes) in [
            ("truncated", &good[..good.len() - 1]),
            ("trailing byte", &trailing[..]),
            ("count too large", &count[..]),
            ("empty", &good[..0]),
        ] {
            let mut s = null_mut();
            assert_eq!(
                vkalgo_set64_deserialize(cctx, bytes.as_ptr(), bytes.len(), &mut s),
                INVALID,
                "{what}"
            );
            assert!(s.is_null(), "{what}: no set");
        }
        let mut s = null_mut();
        let mut read = 77usize;
        assert_eq!(vkalgo_set64_deserialize(cctx, null(), 8, &mut s), INVALID);
        assert_eq!(
            vkalgo_set64_deserialize(null_mut(), good.as_ptr(), good.len(), &mut s),
            INVALID
        );
        assert_eq!(
            vkalgo_set64_deserialize(cctx, good.as_ptr(), good.len(), null_mut()),
            INVALID
        );
        assert_eq!(
            vkalgo_set64_deserialize_prefix(cctx, good.as_ptr(), good.len() - 1, &mut read, &mut s),
            INVALID
        );
        assert_eq!(
            vkalgo_set64_deserialize_prefix(cctx, good.as_ptr(), good.len(), null_mut(), &mut s),
            INVALID
        );
        assert!(s.is_null() && read == 77, "refused reads made nothing");
        vkalgo_set64_destroy(null_mut());
        for s in [a, f, e] {
            vkalgo_set64_destroy(s);
        }
        vkalgo_context_destroy(cctx);
        vkalgo_context_destroy(cother);
    }
}
