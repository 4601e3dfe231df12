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
            let operand_models: Vec<&BTreeSet<u32>> = order.iter().map(|&i| &models[i]).collect();
            let want = many_model(&operand_models, op);
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
            c_set(cctx, &[1, 2, 3, 70_000]),
            c_set(cctx, &[2, 3, 4]),
            c_set(cctx, &[3, 70_000]),
        );
        let f = c_set(cother, &[3]);
        let (d0, d1) = (c_set(cctx, &[11]), c_set(cctx, &[12]));
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

/// Parts of a CSR values array: empty, unsorted with duplicates, a dense chunk (a bitmap), a
/// full chunk, the universe's edges, sorted sparse values.
fn csr_parts(rng: &mut Rng) -> (Vec<u32>, Vec<u64>, Vec<BTreeSet<u32>>) {
    let parts: Vec<Vec<u32>> = vec![
        Vec::new(),
        mixed_values(rng, 500, 3 << 16),
        (0..9000).map(|i| (5 << 16) + (i * 7) % 65536).collect(),
        ((9u32 << 16)..(10u32 << 16)).collect(),
        vec![u32::MAX, 0, u32::MAX, 65_535],
        Vec::new(),
        (0..300).map(|i| i * 40_000).collect(),
    ];
    let mut values = Vec::new();
    let mut offsets = vec![0u64];
    for p in &parts {
        values.extend_from_slice(p);
        offsets.push(values.len() as u64);
    }
    let models = parts.iter().map(|p| model_of(p)).collect();
    (values, offsets, models)
}

#[test]
fn sets_in_bulk_against_the_model() {
    let ctx = context();
    let mut rng = Rng(0xb0_1c_55);
    let (values, offsets, models) = csr_parts(&mut rng);
    let sets = GpuSet::from_values_many(&ctx, &values, &offsets).unwrap();
    assert_eq!(sets.len(), models.len());
    check(&sets[2], &models[2], "from_values_many, a dense part");
    let refs: Vec<&GpuSet> = sets.iter().collect();
    let (arrays, array_offsets) = GpuSet::to_array_many(&refs).unwrap();
    let (bytes, byte_offsets) = GpuSet::serialize_many(&refs).unwrap();
    let cards = GpuSet::cardinalities(&refs).unwrap();
    for (i, m) in models.iter().enumerate() {
        let want: Vec<u32> = m.iter().copied().collect();
        let (a, b) = (array_offsets[i] as usize, array_offsets[i + 1] as usize);
        assert_eq!(arrays[a..b], want[..], "to_array_many, set {i}");
        let (a, b) = (byte_offsets[i] as usize, byte_offsets[i + 1] as usize);
        assert_eq!(
            bytes[a..b],
            reference::serialize(m)[..],
            "serialize_many, set {i}"
        );
        assert_eq!(cards[i], m.len() as u64, "cardinalities, set {i}");
    }
    let back = GpuSet::deserialize_many(&ctx, &bytes, &byte_offsets).unwrap();
    for (i, (s, m)) in back.iter().zip(&models).enumerate() {
        same_values(s, m, &format!("deserialize_many, set {i}"));
    }
    // Sets made in bulk take writes like any other.
    let mut first = GpuSet::deserialize_many(&ctx, &bytes, &byte_offsets)
        .unwrap()
        .swap_remove(1);
    first.insert(&[7, 8]).unwrap();
    let mut m = models[1].clone();
    m.extend([7, 8]);
    check(&first, &m, "a bulk-made set after an insert");
    // No sets.
    assert!(GpuSet::from_values_many(&ctx, &[], &[0]).unwrap().is_empty());
    assert_eq!(GpuSet::to_array_many(&[]).unwrap(), (vec![], vec![0]));
}

/// to_array_many over every chunk kind (arrays, bitmaps, runs, full chunks) in flat and packed
/// sets, empty sets among them.
#[test]
fn to_array_many_of_every_chunk_kind() {
    let ctx = context();
    let mut rng = Rng(0x70_a4_4a);
    let mut runs: Vec<u32> = (30_000..140_000).collect();
    runs.extend((0..900u32).flat_map(|k| 200_000 + 37 * k..200_000 + 37 * k + 11));
    runs.push(u32::MAX);
    let lists: Vec<Vec<u32>> = vec![
        runs.clone(),
        mixed_values(&mut rng, 3000, 7 << 16),
        Vec::new(),
        (0..150_000).filter(|v| v % 3 != 0).collect(),
        runs,
        vec![0, 65_535, 65_536, u32::MAX - 1],
    ];
    let mut sets: Vec<GpuSet> = lists
        .iter()
        .map(|v| GpuSet::from_values(&ctx, v).unwrap())
        .collect();
    sets[0].run_optimize().unwrap();
    sets[4].run_optimize().unwrap();
    sets[4].pack().unwrap();
    sets[1].pack().unwrap();
    let refs: Vec<&GpuSet> = sets.iter().collect();
    let (values, offsets) = GpuSet::to_array_many(&refs).unwrap();
    assert_eq!(offsets.len(), lists.len() + 1);
    for (i, l) in lists.iter().enumerate() {
        let want: Vec<u32> = model_of(l).into_iter().collect();
        let (a, b) = (offsets[i] as usize, offsets[i + 1] as usize);
        assert!(values[a..b] == want[..], "to_array_many, set {i}");
    }
}

/// Sets made by one call share allocations (about 31 flat directories each): results kept
/// after the others are dropped, from the first, a middle and the last allocation, keep their
/// values and take writes that grow their pools; to_array_many of them all.
#[test]
fn shared_allocations_outlive_their_neighbours() {
    let ctx = context();
    let mut rng = Rng(0x5a_4e_d0);
    let lists: Vec<Vec<u32>> = (0..71)
        .map(|i| mixed_values(&mut rng, 200, (i as u32) << 16))
        .collect();
    let mut values = Vec::new();
    let mut offsets = vec![0u64];
    for l in &lists {
        values.extend_from_slice(l);
        offsets.push(values.len() as u64);
    }
    let operands = GpuSet::from_values_many(&ctx, &values, &offsets).unwrap();
    let pairs: Vec<(&GpuSet, &GpuSet)> = operands.windows(2).map(|w| (&w[0], &w[1])).collect();
    let mut results = GpuSet::op_batch(&pairs, SetOp::Or).unwrap();
    drop(pairs);
    let refs: Vec<&GpuSet> = results.iter().collect();
    let (arrays, array_offsets) = GpuSet::to_array_many(&refs).unwrap();
    for i in 0..results.len() {
        let mut model = model_of(&lists[i]);
        model.extend(&lists[i + 1]);
        let want: Vec<u32> = model.into_iter().collect();
        let (a, b) = (array_offsets[i] as usize, array_offsets[i + 1] as usize);
        assert!(arrays[a..b] == want[..], "to_array_many, result {i}");
    }
    drop(operands);
    let keep = [0usize, 40, 69];
    let mut kept: Vec<(usize, GpuSet)> = Vec::new();
    for &i in keep.iter().rev() {
        kept.push((i, results.swap_remove(i)));
    }
    drop(results);
    for (i, set) in &mut kept {
        let mut model = model_of(&lists[*i]);
        model.extend(&lists[*i + 1]);
        same_values(
            set,
            &model,
            &format!("result {i} after its neighbours were dropped"),
        );
        // Enough values to grow both pools.
        let more: Vec<u32> = (0..20_000u32).map(|v| (200 << 16) + v * 3).collect();
        set.insert(&more).unwrap();
        model.extend(&more);
        check(set, &model, &format!("result {i} after a growing insert"));
    }
}

#[test]
fn sets_in_bulk_bad_input() {
    let ctx = context();
    let other_ctx = context();
    let values = [1u32, 2, 3, 4];
    for offsets in [&[][..], &[1, 4], &[0, 3], &[0, 3, 2, 4], &[0, 5]] {
        assert!(
            matches!(
                GpuSet::from_values_many(&ctx, &values, offsets),
                Err(Error::InvalidArgument(_))
            ),
            "offsets {offsets:?}"
        );
    }
    let a = GpuSet::from_values(&ctx, &[1, 2]).unwrap();
    let (bytes, offsets) = GpuSet::serialize_many(&[&a, &a]).unwrap();
    let mut damaged = bytes.clone();
    damaged[offsets[1] as usize] ^= 0xFF; // the second serialization's cookie
    let e = GpuSet::deserialize_many(&ctx, &damaged, &offsets).err().unwrap();
    assert!(
        matches!(&e, Error::InvalidArgument(m) if m.contains("set 1")),
        "{e}"
    );
    assert!(matches!(
        GpuSet::deserialize_many(&ctx, &bytes, &[0, 3, 2]),
        Err(Error::InvalidArgument(_))
    ));
    let foreign = GpuSet::from_values(&other_ctx, &[1]).unwrap();
    for r in [
        GpuSet::to_array_many(&[&a, &foreign]).map(|_| ()),
        GpuSet::serialize_many(&[&a, &foreign]).map(|_| ()),
        GpuSet::cardinalities(&[&a, &foreign]).map(|_| ()),
    ] {
        assert!(matches!(r, Err(Error::InvalidArgument(_))));
    }
}

#[test]
fn sets_in_bulk_c_abi() {
    use std::ptr::{null, null_mut};
    use vkalgo_ffi::set::*;
    use vkalgo_ffi::set_many::*;
    use vkalgo_ffi::*;
    let ctx = context();
    let mut rng = Rng(0xc5_b0_1c);
    let (values, offsets, models) = csr_parts(&mut rng);
    let n = models.len();
    unsafe {
        let cctx = c_context_with_queue(&ctx);
        let mut sets = vec![null_mut(); n];
        assert_eq!(
            vkalgo_set_from_values_many(cctx, values.as_ptr(), offsets.as_ptr(), n, sets.as_mut_ptr()),
            OK
        );
        let list: Vec<*const VkalgoSet> = sets.iter().map(|&s| s as *const VkalgoSet).collect();
        let mut cards = vec![0u64; n];
        assert_eq!(vkalgo_set_cardinalities(list.as_ptr(), n, cards.as_mut_ptr()), OK);
        let want: Vec<u64> = models.iter().map(|m| m.len() as u64).collect();
        assert_eq!(cards, want);
        // Size query, too small, then the values.
        let mut written = 0usize;
        let mut offs = vec![0u64; n + 1];
        assert_eq!(
            vkalgo_set_to_array_many(list.as_ptr(), n, null_mut(), 0, null_mut(), &mut written),
            OK
        );
        let total: usize = models.iter().map(|m| m.len()).sum();
        assert_eq!(written, total);
        let mut out = vec![7u32; total];
        assert_eq!(
            vkalgo_set_to_array_many(
                list.as_ptr(),
                n,
                out.as_mut_ptr(),
                total - 1,
                offs.as_mut_ptr(),
                &mut written
            ),
            INVALID
        );
        assert!(
            out.iter().all(|&v| v == 7) && offs.iter().all(|&o| o == 0),
            "too small: nothing written"
        );
        assert_eq!(
            vkalgo_set_to_array_many(
                list.as_ptr(),
                n,
                out.as_mut_ptr(),
                total,
                offs.as_mut_ptr(),
                &mut written
            ),
            OK
        );
        let flat: Vec<u32> = models.iter().flat_map(|m| m.iter().copied()).collect();
        assert_eq!(out, flat);
        assert_eq!(offs, {
            let mut o = vec![0u64];
            models
                .iter()
                .for_each(|m| o.push(o.last().unwrap() + m.len() as u64));
            o
        });
        // Serializations back to back, read back in bulk.
        assert_eq!(
            vkalgo_set_serialize_many(list.as_ptr(), n, null_mut(), 0, null_mut(), &mut written),
            OK
        );
        let mut bytes = vec![0u8; written];
        assert_eq!(
            vkalgo_set_serialize_many(
                list.as_ptr(),
                n,
                bytes.as_mut_ptr(),
                bytes.len(),
                offs.as_mut_ptr(),
                &mut written
            ),
            OK
        );
        let mut back = vec![null_mut(); n];
        assert_eq!(
            vkalgo_set_deserialize_many(cctx, bytes.as_ptr(), offs.as_ptr(), n, back.as_mut_ptr()),
            OK
        );
        let back_list: Vec<*const VkalgoSet> = back.iter().map(|&s| s as *const VkalgoSet).collect();
        let mut again = vec![0u32; total];
        assert_eq!(
            vkalgo_set_to_array_many(
                back_list.as_ptr(),
                n,
                again.as_mut_ptr(),
                total,
                offs.as_mut_ptr(),
                &mut written
            ),
            OK
        );
        assert_eq!(again, flat, "the sets read back in bulk");
        // Refused: bad offsets, NULL outputs; no set made.
        let mut none = vec![null_mut(); n];
        let bad = [0u64, 2, 1];
        assert_eq!(
            vkalgo_set_from_values_many(cctx, values.as_ptr(), bad.as_ptr(), 2, none.as_mut_ptr()),
            INVALID
        );
        assert_eq!(
            vkalgo_set_from_values_many(cctx, values.as_ptr(), offsets.as_ptr(), n, null_mut()),
            INVALID
        );
        assert_eq!(
            vkalgo_set_deserialize_many(cctx, bytes.as_ptr(), bad.as_ptr(), 2, none.as_mut_ptr()),
            INVALID
        );
        assert_eq!(vkalgo_set_cardinalities(null(), 2, cards.as_mut_ptr()), INVALID);
        assert!(none.iter().all(|p| p.is_null()), "refused calls made no set");
        for s in sets.into_iter().chain(back) {
            vkalgo_set_destroy(s);
        }
        vkalgo_context_destroy(cctx);
    }
}

/// A batch of operations as `assign_batch` records it (each pass once for every operation):
/// operands of every chunk kind, packed and flat in one batch (dispatches per directory form),
/// destinations that hold values before (their chunks freed or replaced, their pools too small
/// for some results: those operations run again after growing), in place on either side, every
/// op.
#[test]
fn assign_batch_of_every_kind() {
    let ctx = context();
    let mut rng = Rng(0x0b_a7_c4);
    let lists: Vec<Vec<u32>> = (0..6).map(|_| every_kind_values(&mut rng)).collect();
    let mut operands: Vec<GpuSet> = lists
        .iter()
        .map(|v| GpuSet::from_values(&ctx, v).unwrap())
        .collect();
    for (i, s) in operands.iter_mut().enumerate() {
        s.run_optimize().unwrap();
        if i % 2 == 1 {
            s.pack().unwrap();
        }
    }
    let models: Vec<BTreeSet<u32>> = lists.iter().map(|v| model_of(v)).collect();
    let dst_lists: Vec<Vec<u32>> = (0..8)
        .map(|i| match i % 4 {
            0 => Vec::new(),
            1 => every_kind_values(&mut rng),
            2 => mixed_values(&mut rng, 500, 40 << 16),
            _ => vec![7, 1 << 20, u32::MAX],
        })
        .collect();
    let mut dsts: Vec<GpuSet> = dst_lists
        .iter()
        .map(|v| GpuSet::from_values(&ctx, v).unwrap())
        .collect();
    let dst_models: Vec<BTreeSet<u32>> = dst_lists.iter().map(|v| model_of(v)).collect();
    let mut jobs: Vec<(&mut GpuSet, SetOperand, SetOperand, SetOp)> = Vec::new();
    let mut want = Vec::new();
    for (k, d) in dsts.iter_mut().enumerate() {
        let op = OPS[k % 4];
        let (i, j) = (k % 6, (k * 5 + 1) % 6);
        let (a, b, ma, mb) = match k % 3 {
            0 => (
                SetOperand::Set(&operands[i]),
                SetOperand::Set(&operands[j]),
                &models[i],
                &models[j],
            ),
            1 => (
                SetOperand::This,
                SetOperand::Set(&operands[j]),
                &dst_models[k],
                &models[j],
            ),
            _ => (
                SetOperand::Set(&operands[i]),
                SetOperand::This,
                &models[i],
                &dst_models[k],
            ),
        };
        want.push(reference::op(ma, mb, op));
        jobs.push((d, a, b, op));
    }
    GpuSet::assign_batch(&mut jobs).unwrap();
    drop(jobs);
    for (k, (d, m)) in dsts.iter().zip(&want).enumerate() {
        check(d, m, &format!("assign_batch job {k}"));
    }
    // The operands are unchanged.
    for (k, (s, m)) in operands.iter().zip(&models).enumerate() {
        same_values(s, m, &format!("operand {k} after the batch"));
    }
}

/// `record_op_batch`: every job of one op into fresh destinations (packed and flat operands,
/// shared ones), one of them without free blocks (its status says what it needs and it stays
/// empty, the others are written); bad batches are refused before anything is recorded.
#[test]
fn record_op_batch_against_the_model() {
    let ctx = context();
    let mut rng = Rng(0x0007_ec0b);
    let lists: Vec<Vec<u32>> = (0..4).map(|_| every_kind_values(&mut rng)).collect();
    let mut operands: Vec<GpuSet> = lists
        .iter()
        .map(|v| GpuSet::from_values(&ctx, v).unwrap())
        .collect();
    operands[1].run_optimize().unwrap();
    operands[1].pack().unwrap();
    let models: Vec<BTreeSet<u32>> = lists.iter().map(|v| model_of(v)).collect();
    let pairs = [(0usize, 1usize), (1, 2), (2, 3), (3, 3), (0, 2)];
    let mut refused = 0;
    for op in OPS {
        let mut dsts: Vec<GpuSet> = (0..pairs.len()).map(|_| GpuSet::new(&ctx).unwrap()).collect();
        // Every destination but the last holds the blocks its result may need.
        for (d, &(i, j)) in dsts.iter_mut().zip(&pairs).take(pairs.len() - 1) {
            d.reserve_for_op(SetOperand::Set(&operands[i]), SetOperand::Set(&operands[j]), op)
                .unwrap();
        }
        let jobs: Vec<(&GpuSet, &GpuSet, &GpuSet)> = dsts
            .iter()
            .zip(&pairs)
            .map(|(d, &(i, j))| (d, &operands[i], &operands[j]))
            .collect();
        let bytes = GpuSet::op_batch_scratch_bytes(&jobs, op).unwrap();
        let scratch = GpuBuffer::new(&ctx, bytes, MemoryLocation::GpuOnly, "scratch").unwrap();
        let status_bytes = SET_STATUS_BYTES * jobs.len() as u64;
        let mut statuses = GpuBuffer::new(&ctx, status_bytes, MemoryLocation::GpuToCpu, "statuses").unwrap();
        let args = GpuSetOpBatchArgs {
            jobs: &jobs,
            op,
            scratch: scratch.range(),
            statuses: statuses.range(),
        };
        // Refused: scratch a byte short, statuses too small or on the scratch, a destination
        // twice or among the operands.
        let short = GpuSetOpBatchArgs {
            scratch: scratch.sub_range(0, bytes - 16),
            ..args
        };
        let twice = [jobs[0], jobs[0]];
        let aliased = [jobs[0], (jobs[1].0, jobs[0].0, jobs[1].2)];
        ctx.submit_and_wait(|cmd| unsafe {
            for bad in [
                short,
                GpuSetOpBatchArgs {
                    statuses: statuses.sub_range(0, status_bytes - 4),
                    ..args
                },
                GpuSetOpBatchArgs {
                    statuses: scratch.sub_range(0, status_bytes),
                    ..args
                },
                GpuSetOpBatchArgs { jobs: &twice, ..args },
                GpuSetOpBatchArgs {
                    jobs: &aliased,
                    ..args
                },
            ] {
                assert!(matches!(
                    GpuSet::record_op_batch(cmd, &bad),
                    Err(Error::InvalidArgument(_))
                ));
            }
            GpuSet::record_op_batch(cmd, &args)?;
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        let words = read_words(&mut statuses, 8 * jobs.len());
        for (k, &(i, j)) in pairs.iter().enumerate() {
            let status = bytemuck_from(&words[8 * k..8 * k + 8]);
            let want = reference::op(&models[i], &models[j], op);
            let what = format!("record_op_batch {op:?} job {k}");
            if k + 1 < pairs.len() || status.ok == 1 {
                assert_eq!(status.ok, 1, "{what}: status {status:?}");
                check(&dsts[k], &want, &what);
            } else {
                // Without free blocks: nothing written (an empty result needs none).
                refused += 1;
                assert!(
                    status.need_bitmap_blocks > 0 || status.need_array_blocks > 0,
                    "{what}"
                );
                check(&dsts[k], &BTreeSet::new(), &what);
            }
        }
    }
    assert!(refused > 0, "no job lacked blocks");
}

/// `record_op_cardinality_batch` with one scratch of `SET_SCRATCH_BYTES`: pairs whose chunk
/// lists fit it run as batches, a pair whose lists alone need more (a set of every chunk) is
/// counted by itself; every cardinality exact, on the batched passes and on Auto.
#[test]
fn cardinality_batch_within_its_scratch() {
    let ctx = context();
    let mut rng = Rng(0x5c_7a_c4);
    let mut universe = GpuSet::new(&ctx).unwrap();
    universe.insert_range(0, 1 << 32).unwrap();
    let lists: Vec<Vec<u32>> = (0..3).map(|_| every_kind_values(&mut rng)).collect();
    let sets: Vec<GpuSet> = lists
        .iter()
        .map(|v| GpuSet::from_values(&ctx, v).unwrap())
        .collect();
    let models: Vec<BTreeSet<u32>> = lists.iter().map(|v| model_of(v)).collect();
    // (a, b) as indices into `sets`; None: the universe.
    let which = [(Some(0), 1), (None, 2), (Some(1), 2), (Some(2), 0)];
    let pairs: Vec<(&GpuSet, &GpuSet)> = which
        .iter()
        .map(|&(a, b)| (a.map_or(&universe, |i| &sets[i]), &sets[b]))
        .collect();
    let scratch = set_scratch(&ctx);
    let status_bytes = SET_STATUS_BYTES * pairs.len() as u64;
    let mut statuses = GpuBuffer::new(&ctx, status_bytes, MemoryLocation::GpuToCpu, "statuses").unwrap();
    for op in OPS {
        for path in [CardinalityPath::Auto, CardinalityPath::Passes] {
            let args = GpuSetCardinalityBatchArgs {
                path,
                ..GpuSetCardinalityBatchArgs::new(&pairs, op, scratch.range(), statuses.range())
            };
            ctx.submit_and_wait(|cmd| unsafe {
                GpuSet::record_op_cardinality_batch(cmd, &args)?;
                compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap();
            let words = read_words(&mut statuses, 8 * pairs.len());
            for (k, &(a, b)) in which.iter().enumerate() {
                let status = bytemuck_from(&words[8 * k..8 * k + 8]);
                let nb = models[b].len() as u64;
                let want = match (a, op) {
                    (Some(i), _) => reference::op(&models[i], &models[b], op).len() as u64,
                    (None, SetOp::And) => nb,
                    (None, SetOp::Or) => 1 << 32,
                    (None, _) => (1 << 32) - nb,
                };
                assert_eq!(status.ok, 1, "{op:?} {path:?} pair {k}: {status:?}");
                assert_eq!(status.cardinality(), want, "{op:?} {path:?} pair {k}");
            }
        }
    }
}
