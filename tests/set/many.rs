//! Many sets in one call: the many-way operation (every op, 1 to 9 operands, odd and even
//! counts, empty, dense, run and sparse operands, the same set twice) and the batch of pairs
//! (shared operands), against the CPU model; bad input through Rust and the C ABI (no sets,
//! NULL entries, dst among the operands, a dst twice, sets of different contexts) changes
//! nothing.

use super::*;

/// Operand value lists of every chunk kind: mixed sparse and clustered values, a dense range,
/// an empty set, the universe's edges.
fn operand_values(rng: &mut Rng) -> Vec<Vec<u32>> {
    let mut lists: Vec<Vec<u32>> = (0..6)
        .map(|i| mixed_values(rng, 3000, (i as u32) << 17))
        .collect();
    lists.insert(2, (60_000..200_000).collect());
    lists.insert(4, Vec::new());
    lists.push(vec![0, 1, 65_535, 65_536, u32::MAX]);
    lists
}

/// The values of `set` against `model` (the full [`check`] once per operation: it costs several
/// submissions).
fn same_values(set: &GpuSet, model: &BTreeSet<u32>, what: &str) {
    let want: Vec<u32> = model.iter().copied().collect();
    assert!(set.to_vec().unwrap() == want, "{what}: values differ");
}

const OPS: [SetOp; 4] = [SetOp::And, SetOp::Or, SetOp::AndNot, SetOp::Xor];

#[test]
fn op_many_against_the_model() {
    let ctx = context();
    let mut rng = Rng(0x3a_11_e5);
    let lists = operand_values(&mut rng);
    let mut sets: Vec<GpuSet> = lists
        .iter()
        .map(|v| GpuSet::from_values(&ctx, v).unwrap())
        .collect();
    // One operand with run chunks.
    sets[1].insert_range(300_000, 420_000).unwrap();
    sets[1].run_optimize().unwrap();
    let mut models: Vec<BTreeSet<u32>> = lists.iter().map(|v| model_of(v)).collect();
    models[1].extend(300_000..420_000);
    for count in [1usize, 2, 3, 5, 9] {
        for op in OPS {
            // A rotation, so that the empty set and the range sit at different places.
            let order: Vec<usize> = (0..count).map(|i| (i + count) % sets.len()).collect();
            let operands: Vec<&GpuSet> = order.iter().map(|&i| &sets[i]).collect();
            let want = match op {
                SetOp::AndNot => {
                    let union = order[1..].iter().fold(BTreeSet::new(), |u, &i| &u | &models[i]);
                    &models[order[0]] - &union
                }
                _ => order[1..].iter().fold(models[order[0]].clone(), |acc, &i| {
                    reference::op(&acc, &models[i], op)
                }),
            };
            let got = GpuSet::op_many(&operands, op).unwrap();
            let what = format!("op_many {op:?} of {count}");
            if count == 9 {
                check(&got, &want, &what);
            } else {
                same_values(&got, &want, &what);
            }
        }
    }
    // The same set more than once, and into a set that held values before.
    let twice = [&sets[0], &sets[0], &sets[3]];
    let mut dst = GpuSet::from_values(&ctx, &[5, 6, 7]).unwrap();
    dst.assign_many(&twice, SetOp::Xor).unwrap();
    check(&dst, &models[3], "XOR of a set with itself and another");
    dst.assign_many(&twice, SetOp::AndNot).unwrap();
    check(&dst, &BTreeSet::new(), "a set minus itself");
}

#[test]
fn op_batch_against_the_model() {
    let ctx = context();
    let mut rng = Rng(0xba_7c_40);
    let lists = operand_values(&mut rng);
    let sets: Vec<GpuSet> = lists
        .iter()
        .map(|v| GpuSet::from_values(&ctx, v).unwrap())
        .collect();
    let models: Vec<BTreeSet<u32>> = lists.iter().map(|v| model_of(v)).collect();
    // Successive pairs, as over a collection of bitmaps, and one set against all (shared).
    let pairs: Vec<(usize, usize)> = (1..5)
        .map(|i| (i, i + 1))
        .chain([(0, 0), (0, 2), (3, 0)])
        .collect();
    for op in OPS {
        let operands: Vec<(&GpuSet, &GpuSet)> = pairs.iter().map(|&(i, j)| (&sets[i], &sets[j])).collect();
        let results = GpuSet::op_batch(&operands, op).unwrap();
        assert_eq!(results.len(), pairs.len());
        for (k, (r, &(i, j))) in results.iter().zip(&pairs).enumerate() {
            let (want, what) = (
                reference::op(&models[i], &models[j], op),
                format!("op_batch {op:?} of {i}, {j}"),
            );
            if k == 1 {
                check(r, &want, &what);
            } else {
                same_values(r, &want, &what);
            }
        }
    }
    assert!(GpuSet::op_batch(&[], SetOp::And).unwrap().is_empty());
}

#[test]
fn many_sets_bad_input() {
    let ctx = context();
    let other_ctx = context();
    let a = GpuSet::from_values(&ctx, &[1, 2, 3]).unwrap();
    let foreign = GpuSet::from_values(&other_ctx, &[2, 3]).unwrap();
    let mut dst = GpuSet::from_values(&ctx, &[9]).unwrap();
    assert!(matches!(
        GpuSet::op_many(&[], SetOp::Or),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        dst.assign_many(&[], SetOp::Or),
        Err(Error::InvalidArgument(_))
    ));
    for op in OPS {
        assert!(matches!(
            dst.assign_many(&[&a, &foreign], op),
            Err(Error::InvalidArgument(_))
        ));
        assert!(matches!(
            GpuSet::op_batch(&[(&a, &a), (&a, &foreign)], op),
            Err(Error::InvalidArgument(_))
        ));
    }
    check(&dst, &model_of(&[9]), "dst after refused calls");
}

#[test]
fn many_sets_c_abi() {
    use std::ptr::{null, null_mut};
    use vkalgo_ffi::set::*;
    use vkalgo_ffi::set_many::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let ctx = context();
    let other_ctx = context();
    unsafe {
        let (cctx, cother) = (c_context_with_queue(&ctx), c_context_with_queue(&other_ctx));
        let new_set = |c: *mut VkalgoContext, values: &[u32]| {
            let mut s = null_mut();
            assert_eq!(vkalgo_set_create(c, &VkalgoSetDesc::default(), &mut s), OK);
            assert_eq!(vkalgo_set_insert_host(s, values.as_ptr(), values.len()), OK);
            s
        };
        let values = |s: *mut VkalgoSet| {
            let mut out = vec![0u32; 64];
            let mut n = 0usize;
            assert_eq!(
                vkalgo_set_to_array_host(s, out.as_mut_ptr(), out.len(), &mut n),
                OK
            );
            out.truncate(n);
            out
        };
        let (x, y, z) = (
            new_set(cctx, &[1, 2, 3, 70_000]),
            new_set(cctx, &[2, 3, 4]),
            new_set(cctx, &[3, 70_000]),
        );
        let f = new_set(cother, &[3]);
        let (d0, d1) = (new_set(cctx, &[11]), new_set(cctx, &[12]));
        let and = VKALGO_SET_AND;
        let or = VKALGO_SET_OR;
        let andnot = VKALGO_SET_ANDNOT;
        let three = [x as *const VkalgoSet, y, z];
        assert_eq!(vkalgo_set_op_many(d0, three.as_ptr(), 3, and), OK);
        assert_eq!(values(d0), [3]);
        assert_eq!(vkalgo_set_op_many(d0, three.as_ptr(), 3, or), OK);
        assert_eq!(values(d0), [1, 2, 3, 4, 70_000]);
        assert_eq!(vkalgo_set_op_many(d0, three.as_ptr(), 3, andnot), OK);
        assert_eq!(values(d0), [1]);
        // Refused: no sets, NULL list or entry, dst among the operands, another context, a bad op.
        let with_dst = [x as *const VkalgoSet, d0];
        let with_null = [x as *const VkalgoSet, null()];
        let foreign = [x as *const VkalgoSet, f];
        assert_eq!(vkalgo_set_op_many(d0, three.as_ptr(), 0, or), INVALID);
        assert_eq!(vkalgo_set_op_many(d0, null(), 2, or), INVALID);
        assert_eq!(vkalgo_set_op_many(null_mut(), three.as_ptr(), 3, or), INVALID);
        assert_eq!(vkalgo_set_op_many(d0, with_null.as_ptr(), 2, or), INVALID);
        assert_eq!(vkalgo_set_op_many(d0, with_dst.as_ptr(), 2, or), INVALID);
        assert_eq!(vkalgo_set_op_many(d0, foreign.as_ptr(), 2, or), INVALID);
        assert_eq!(vkalgo_set_op_many(d0, three.as_ptr(), 3, VkalgoSetOp(9)), INVALID);
        assert_eq!(values(d0), [1], "refused many-way calls changed nothing");
        // The batch: two pairs sharing x.
        let (dst, a, b) = ([d0, d1], [x as *const VkalgoSet, x], [y as *const VkalgoSet, z]);
        assert_eq!(
            vkalgo_set_op_batch(dst.as_ptr(), a.as_ptr(), b.as_ptr(), 2, and),
            OK
        );
        assert_eq!((values(d0), values(d1)), (vec![2, 3], vec![3, 70_000]));
        assert_eq!(
            vkalgo_set_op_batch(dst.as_ptr(), a.as_ptr(), b.as_ptr(), 0, or),
            OK
        );
        let twice = [d0, d0];
        let dst_operand = [x as *const VkalgoSet, d1];
        let foreign_b = [y as *const VkalgoSet, f];
        let null_dst = [d0, null_mut()];
        assert_eq!(
            vkalgo_set_op_batch(twice.as_ptr(), a.as_ptr(), b.as_ptr(), 2, or),
            INVALID
        );
        assert_eq!(
            vkalgo_set_op_batch(dst.as_ptr(), dst_operand.as_ptr(), b.as_ptr(), 2, or),
            INVALID
        );
        assert_eq!(
            vkalgo_set_op_batch(dst.as_ptr(), a.as_ptr(), foreign_b.as_ptr(), 2, or),
            INVALID
        );
        assert_eq!(
            vkalgo_set_op_batch(null_dst.as_ptr(), a.as_ptr(), b.as_ptr(), 2, or),
            INVALID
        );
        assert_eq!(
            vkalgo_set_op_batch(dst.as_ptr(), null(), b.as_ptr(), 2, or),
            INVALID
        );
        assert_eq!(
            (values(d0), values(d1)),
            (vec![2, 3], vec![3, 70_000]),
            "refused batches changed nothing"
        );
        for s in [x, y, z, f, d0, d1] {
            vkalgo_set_destroy(s);
        }
        vkalgo_context_destroy(cctx);
        vkalgo_context_destroy(cother);
    }
}
