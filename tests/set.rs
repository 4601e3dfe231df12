//! GPU sets of u32 on a real Vulkan device (lavapipe in CI), checked against a CPU model
//! (`BTreeSet<u32>`): random sequences of every operation, sparse sets over the whole universe,
//! dense ranges, full chunks, the values 0 and 2^32 - 1, ranges ending at 2^32, pool growth,
//! in-place operations, the record layer, the Roaring serialization (round trips and malformed
//! input) and bad arguments.

mod common;
use common::*;
use std::collections::BTreeSet;
use vkalgo::set::{
    reference, CardinalityPath, FilterPath, OpPath, PACK_MAX_CHUNKS, SET_SCRATCH_BYTES, SET_STATUS_BYTES,
};
use vkalgo::{
    BufferRange, ElementCount, Error, GpuBuffer, GpuSet, GpuSetCardinalityArgs, GpuSetCardinalityBatchArgs,
    GpuSetContainsArgs, GpuSetFilterArgs, GpuSetInsertArgs, GpuSetInsertRangeArgs, GpuSetInsertSortedArgs,
    GpuSetOpArgs, GpuSetRangeCardinalityArgs, GpuSetRunOptimizeArgs, GpuSetToArrayArgs, MemoryLocation,
    SetOp, SetOpStatus, SetOperand,
};

fn model_of(values: &[u32]) -> BTreeSet<u32> {
    values.iter().copied().collect()
}

/// Compares everything observable of `set` with `model`, and checks that every block of its
/// pools is held once or free once.
fn check(set: &GpuSet, model: &BTreeSet<u32>, what: &str) {
    let got = set.to_vec().unwrap();
    let want: Vec<u32> = model.iter().copied().collect();
    assert_eq!(got.len(), want.len(), "{what}: cardinality");
    assert!(
        got == want,
        "{what}: values differ (first difference at {:?})",
        got.iter().zip(&want).position(|(a, b)| a != b)
    );
    assert_eq!(
        set.cardinality().unwrap(),
        want.len() as u64,
        "{what}: cardinality()"
    );
    assert_eq!(
        set.counted_cardinality().unwrap(),
        want.len() as u64,
        "{what}: cardinality counted on the GPU"
    );
    let bytes = set.serialize().unwrap();
    assert_eq!(bytes, reference::serialize(model), "{what}: serialization");
    if let Err(e) = set.verify_pools() {
        panic!("{what}: {e}");
    }
}

/// Two sets built from `va` and `vb`, and their models.
fn operands(ctx: &vkalgo::Context, va: &[u32], vb: &[u32]) -> (GpuSet, GpuSet, BTreeSet<u32>, BTreeSet<u32>) {
    let a = GpuSet::from_values(ctx, va).unwrap();
    let b = GpuSet::from_values(ctx, vb).unwrap();
    (a, b, model_of(va), model_of(vb))
}

/// `a op b` against the models: the result set, and the cardinalities of `a op b` and of
/// `b op a` without materializing them. Returns the model's result.
fn check_op(a: &GpuSet, b: &GpuSet, ma: &BTreeSet<u32>, mb: &BTreeSet<u32>, op: SetOp) -> BTreeSet<u32> {
    let want = reference::op(ma, mb, op);
    check(&GpuSet::op(a, b, op).unwrap(), &want, &format!("{op:?}"));
    assert_eq!(
        GpuSet::op_cardinality(a, b, op).unwrap(),
        want.len() as u64,
        "{op:?} cardinality"
    );
    assert_eq!(
        GpuSet::op_cardinality(b, a, op).unwrap(),
        reference::op(mb, ma, op).len() as u64,
        "{op:?} cardinality, b op a"
    );
    want
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

/// A scratch buffer for the record-layer set operations.
fn set_scratch(ctx: &vkalgo::Context) -> GpuBuffer {
    GpuBuffer::new(
        ctx,
        vkalgo::set::SET_SCRATCH_BYTES,
        MemoryLocation::GpuOnly,
        "scratch",
    )
    .unwrap()
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
    for (b, e) in [
        (0u64, 1u64 << 32),
        (5 << 16, (5 << 16) + 12345),
        (1, 65536 * 7 + 3),
        ((1 << 32) - 1, 1 << 32),
        (10, 10),
    ] {
        assert_eq!(
            set.range_cardinality(b, e).unwrap(),
            reference::range_cardinality(&model, b, e),
            "range [{b}, {e})"
        );
    }
    assert_no_validation_messages(&ctx);
}

/// Range cardinalities whose chunks span the 256-chunk blocks of the counting workgroups:
/// partial first and last chunks at and beside block edges, ranges of 255 to 513 chunks, the
/// whole universe less its ends; on the flat set and packed.
#[test]
fn range_cardinality_blocks() {
    let ctx = context();
    let mut rng = Rng(91);
    let mut values: Vec<u32> = (0..20_000).map(|_| rng.next_u32()).collect();
    values.extend([0, 1, u32::MAX, u32::MAX - 1]);
    values.extend((0..30_000u32).map(|i| (300 << 16) + 3 * i));
    let mut set = GpuSet::from_values(&ctx, &values).unwrap();
    let mut model = model_of(&values);
    for c in [255u64, 256, 511, 512, 65535] {
        set.insert_range(c << 16, (c + 1) << 16).unwrap();
        model.extend(((c << 16) as u32)..=(((c + 1) << 16) - 1) as u32);
    }
    let mut ranges = vec![
        (0u64, 1u64 << 32),
        (1, (1 << 32) - 1),
        (65536, (1 << 32) - 65536),
        (7, 7),
    ];
    for first in [0u64, 255, 256, 257, 511, 65279, 65280] {
        for start in [0u64, 1, 40_000] {
            for chunks in [1u64, 255, 256, 257, 511, 512, 513] {
                for end in [0u64, 1, 30_000] {
                    let b = (first << 16) + start;
                    let e = (((first + chunks) << 16) + end).min(1 << 32);
                    ranges.push((b, e.max(b)));
                }
            }
        }
    }
    for packed in [false, true] {
        if packed {
            set.pack().unwrap();
            assert!(set.is_packed());
        }
        for &(b, e) in &ranges {
            assert_eq!(
                set.range_cardinality(b, e).unwrap(),
                reference::range_cardinality(&model, b, e),
                "range [{b}, {e}), packed {packed}"
            );
        }
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn ops_against_model() {
    let ctx = context();
    let mut rng = Rng(2);
    let va = mixed_values(&mut rng, 6000, 9 << 16);
    let vb = mixed_values(&mut rng, 6000, (9 << 16) + 10_000);
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
        check_op(&a, &b, &ma, &mb, op);
    }
    // One query set against many, in one call.
    let others: Vec<GpuSet> = (0..3u32)
        .map(|i| GpuSet::from_values(&ctx, &va[(i as usize * 1000)..(i as usize * 1000 + 3000)]).unwrap())
        .collect();
    let pairs: Vec<(&GpuSet, &GpuSet)> = others.iter().map(|o| (&b, o)).collect();
    for op in SetOp::ALL {
        let got = GpuSet::op_cardinality_batch(&pairs, op).unwrap();
        for (i, g) in got.iter().enumerate() {
            let mo = model_of(&va[(i * 1000)..(i * 1000 + 3000)]);
            assert_eq!(*g, reference::op(&mb, &mo, op).len() as u64, "batch {op:?} {i}");
        }
    }
    assert_no_validation_messages(&ctx);
}

/// Random sequences of every operation on three sets (aliasing included, `run_optimize` among
/// them, so that run chunks from it and from ranges meet every operation), against BTreeSets.
#[test]
fn model_random_sequences() {
    let ctx = context();
    let mut rng = Rng(3);
    let mut sets: Vec<GpuSet> = (0..3).map(|_| GpuSet::new(&ctx).unwrap()).collect();
    let mut models: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); 3];
    // Values concentrated in a few chunks (so chunks cross the array/bitmap threshold both
    // ways), plus sparse ones over the universe and the edges.
    let base = [0u32, 7 << 16, 0xFFFF_0000];
    let value = |rng: &mut Rng| -> u32 {
        match rng.next_u32() % 8 {
            0 => rng.next_u32(),
            1 => [0, 1, u32::MAX, u32::MAX - 1][rng.next_u32() as usize % 4],
            k => base[(k % 3) as usize] + (rng.next_u32() % (1 << 16)) / (1 + (k / 3) * 7),
        }
    };
    for step in 0..36 {
        let i = (rng.next_u32() % 3) as usize;
        let what = rng.next_u32() % 7;
        match what {
            6 => sets[i].run_optimize().unwrap(),
            0 | 1 => {
                let n = [10usize, 500, 3000, 6000][rng.next_u32() as usize % 4];
                let vals: Vec<u32> = (0..n).map(|_| value(&mut rng)).collect();
                if what == 0 {
                    sets[i].insert(&vals).unwrap();
                    models[i].extend(&vals);
                } else {
                    // Remove mostly present values.
                    let present: Vec<u32> = models[i].iter().copied().step_by(3).collect();
                    let mut vals = vals;
                    vals.extend(present);
                    sets[i].remove(&vals).unwrap();
                    for v in &vals {
                        models[i].remove(v);
                    }
                }
            }
            2 => {
                let b = (base[rng.next_u32() as usize % 3] as u64 + (rng.next_u32() % 70_000) as u64)
                    .min(1 << 32);
                let e = (b + (rng.next_u32() % 140_000) as u64).min(1 << 32);
                sets[i].insert_range(b, e).unwrap();
                models[i].extend((b..e).map(|x| x as u32));
            }
            _ => {
                let op = SetOp::ALL[rng.next_u32() as usize % 4];
                let j = (rng.next_u32() % 3) as usize;
                let k = (rng.next_u32() % 3) as usize;
                let want = reference::op(&models[j], &models[k], op);
                let (a_op, b_op, dst) = (j, k, i);
                // Split borrows: operands equal to dst are `This`.
                let (d, others) = split(&mut sets, dst);
                let a = if a_op == dst {
                    SetOperand::This
                } else {
                    SetOperand::Set(others[a_op])
                };
                let b = if b_op == dst {
                    SetOperand::This
                } else {
                    SetOperand::Set(others[b_op])
                };
                d.assign(a, b, op).unwrap();
                models[i] = want;
            }
        }
        if step % 6 == 5 {
            for (s, m) in sets.iter().zip(&models) {
                check(s, m, &format!("step {step}"));
            }
        } else {
            assert_eq!(
                sets[i].cardinality().unwrap(),
                models[i].len() as u64,
                "step {step} ({what})"
            );
        }
    }
    // Lookups against the final sets.
    let queries: Vec<u32> = (0..4000).map(|_| value(&mut rng)).collect();
    for (s, m) in sets.iter().zip(&models) {
        let mut found = vec![false; queries.len()];
        s.contains(&queries, &mut found).unwrap();
        for (q, f) in queries.iter().zip(&found) {
            assert_eq!(*f, m.contains(q), "contains {q}");
        }
        let want: Vec<u32> = queries.iter().copied().filter(|q| m.contains(q)).collect();
        assert_eq!(s.filter(&queries).unwrap(), want);
        for _ in 0..4 {
            let b = value(&mut rng) as u64;
            let e = (b + rng.next_u32() as u64 % 300_000).min(1 << 32);
            assert_eq!(
                s.range_cardinality(b, e).unwrap(),
                reference::range_cardinality(m, b, e)
            );
        }
    }
    assert_no_validation_messages(&ctx);
}

/// Results written over the destination's old blocks (small and medium array pairs, chunk
/// copies, bitmap pairs): repeated operations into one set whose chunks' results grow,
/// shrink, vanish, replace bitmaps or arrays and come back, in place too; every block of the
/// pools stays held once or free once.
#[test]
fn results_over_destination_blocks() {
    let ctx = context();
    let mut rng = Rng(31);
    const CHUNKS_USED: u32 = 32;
    // Per chunk up to `max` random values (0 for some chunks), so that a pair stays small.
    let sparse = |rng: &mut Rng, max: u32| -> Vec<u32> {
        let mut v = Vec::new();
        for c in 0..CHUNKS_USED {
            let n = match rng.next_u32() % 5 {
                0 => 0,
                1 => 1 + rng.next_u32() % 8,
                _ => rng.next_u32() % max,
            };
            v.extend((0..n).map(|_| (c << 16) | (rng.next_u32() & 0xFFFF)));
        }
        v
    };
    // The destination starts with bitmap chunks (5000 values each) and arrays.
    let mut start: Vec<u32> = (0..CHUNKS_USED / 2)
        .flat_map(|c| (0..5000u32).map(move |i| (c << 16) | (i * 13)))
        .collect();
    start.extend(sparse(&mut rng, 600));
    let mut d = GpuSet::from_values(&ctx, &start).unwrap();
    let mut md = model_of(&start);
    d.verify_pools().unwrap();
    // (values per chunk at most, operation): small pairs (up to 640 values), medium ones (up
    // to 2048), bitmaps (8000), each kind over results of the others and of its own.
    let rounds = [
        (320u32, SetOp::And),
        (40, SetOp::Or),
        (1000, SetOp::AndNot),
        (5, SetOp::Xor),
        (8000, SetOp::Or),
        (8000, SetOp::Xor),
        (8000, SetOp::AndNot),
        (1000, SetOp::Or),
        (1000, SetOp::And),
        (8000, SetOp::Or),
        (320, SetOp::AndNot),
        (300, SetOp::Xor),
        (160, SetOp::Or),
        (8000, SetOp::And),
        (8000, SetOp::Or),
    ];
    for (round, &(max, op)) in rounds.iter().enumerate() {
        let va = sparse(&mut rng, max);
        let vb = sparse(&mut rng, max);
        let (a, b, ma, mb) = operands(&ctx, &va, &vb);
        if round % 3 == 2 {
            // In place: d = d op b.
            d.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
            md = reference::op(&md, &mb, op);
        } else {
            d.assign(SetOperand::Set(&a), SetOperand::Set(&b), op).unwrap();
            md = reference::op(&ma, &mb, op);
        }
        check(&d, &md, &format!("round {round} ({op:?})"));
    }
    assert_no_validation_messages(&ctx);
}

/// `dst` mutably and every set (dst's own slot included, never used) shared.
fn split(sets: &mut [GpuSet], dst: usize) -> (&mut GpuSet, Vec<&GpuSet>) {
    let ptr = sets.as_mut_ptr();
    // SAFETY: the shared reference to sets[dst] is never dereferenced (callers pass `This`).
    unsafe {
        let d = &mut *ptr.add(dst);
        let all = (0..sets.len()).map(|i| &*ptr.add(i)).collect();
        (d, all)
    }
}

/// The whole universe, full chunks, 0 and 2^32 - 1, ranges ending at 2^32.
#[test]
fn full_universe_and_edges() {
    let ctx = context();
    let mut s = GpuSet::new(&ctx).unwrap();
    s.insert(&[0, u32::MAX]).unwrap();
    let mut found = [false; 4];
    s.contains(&[0, u32::MAX, 1, u32::MAX - 1], &mut found).unwrap();
    assert_eq!(found, [true, true, false, false]);
    assert_eq!(s.to_vec().unwrap(), vec![0, u32::MAX]);
    s.insert_range((1 << 32) - 70_000, 1 << 32).unwrap();
    assert_eq!(s.cardinality().unwrap(), 70_001);
    assert_eq!(s.range_cardinality((1 << 32) - 1, 1 << 32).unwrap(), 1);
    s.shrink_to_fit().unwrap();
    assert_eq!(
        s.pool_blocks(),
        (0, 1),
        "the partial last-but-one chunk is one run, in its entry (chunk 0 an array)"
    );
    s.insert_range(0, 1 << 32).unwrap();
    assert_eq!(s.cardinality().unwrap(), 1 << 32);
    assert_eq!(s.range_cardinality(5, (1 << 32) - 5).unwrap(), (1 << 32) - 10);
    let mut found = [false; 3];
    s.contains(&[0, 123_456_789, u32::MAX], &mut found).unwrap();
    assert_eq!(found, [true; 3]);
    // Full minus a few values: complement chunks through XOR and ANDNOT.
    let holes = GpuSet::from_values(&ctx, &[0, 65_536, 1 << 31, u32::MAX]).unwrap();
    let x = GpuSet::op(&s, &holes, SetOp::Xor).unwrap();
    assert_eq!(x.cardinality().unwrap(), (1 << 32) - 4);
    let d = GpuSet::op(&s, &holes, SetOp::AndNot).unwrap();
    assert_eq!(d.cardinality().unwrap(), (1 << 32) - 4);
    assert_eq!(GpuSet::op_cardinality(&holes, &d, SetOp::Or).unwrap(), 1 << 32);
    assert_eq!(GpuSet::op_cardinality(&holes, &d, SetOp::And).unwrap(), 0);
    let mut found = [true; 5];
    d.contains(&[0, 1, 65_536, 65_537, u32::MAX], &mut found).unwrap();
    assert_eq!(found, [false, true, false, true, false]);
    let back = GpuSet::op(&x, &d, SetOp::Xor).unwrap();
    assert_eq!(back.cardinality().unwrap(), 0);
    assert_eq!(back.memory_bytes(), GpuSet::new(&ctx).unwrap().memory_bytes());
    // Removing everything but a range.
    s.remove(&[5, 6, 7]).unwrap();
    assert_eq!(s.cardinality().unwrap(), (1 << 32) - 3);
    let mut keep = GpuSet::new(&ctx).unwrap();
    keep.insert_range(3, 200_000).unwrap();
    s.assign(SetOperand::This, SetOperand::Set(&keep), SetOp::And)
        .unwrap();
    let mut want: BTreeSet<u32> = (3..200_000).collect();
    for v in [5, 6, 7] {
        want.remove(&v);
    }
    check(&s, &want, "full AND range");
    assert_no_validation_messages(&ctx);
}

/// Chunks across the array/bitmap threshold both ways; pools grow and blocks are reused.
#[test]
fn thresholds_and_pool_growth() {
    let ctx = context();
    let mut s = GpuSet::new(&ctx).unwrap();
    assert_eq!(s.pool_blocks(), (0, 0));
    let chunk = 11u32 << 16;
    let evens: Vec<u32> = (0..4096).map(|i| chunk + 2 * i).collect();
    s.insert(&evens).unwrap();
    let mut m: BTreeSet<u32> = evens.iter().copied().collect();
    check(&s, &m, "4096: array");
    assert_eq!(s.pool_blocks().0, 0);
    s.insert(&[chunk + 1]).unwrap();
    m.insert(chunk + 1);
    check(&s, &m, "4097: bitmap");
    assert_eq!(s.pool_blocks().0, 1);
    s.remove(&[chunk + 1]).unwrap();
    m.remove(&(chunk + 1));
    check(&s, &m, "back to an array");
    // Many chunks at once: the pools grow while the operation reruns.
    let mut rng = Rng(5);
    let many: Vec<u32> = (0..3000)
        .map(|_| ((rng.next_u32() % 300) << 16) | (rng.next_u32() % 65536))
        .collect();
    let dense: Vec<u32> = (0..20_000).map(|i| (400 << 16) + i * 3).collect();
    s.insert(&many).unwrap();
    s.insert(&dense).unwrap();
    m.extend(&many);
    m.extend(&dense);
    check(&s, &m, "grown");
    let (bm, ar) = s.pool_blocks();
    // Removing and inserting the same amount again reuses freed blocks: no growth.
    s.remove(&many).unwrap();
    s.insert(&many).unwrap();
    check(&s, &m, "reinserted");
    assert_eq!(s.pool_blocks(), (bm, ar));
    // Explicit reserve keeps the content.
    s.reserve(3, 100).unwrap();
    assert_eq!(s.pool_blocks(), (bm + 3, ar + 100));
    check(&s, &m, "reserved");
    assert_no_validation_messages(&ctx);
}

/// `shrink_to_fit` after growth, removals and a reserve: bitmap and array blocks in use above
/// the new pool sizes move into freed ids below them (array chunks of several blocks, whose
/// header lists their other blocks, included); the pools then hold exactly the blocks in use,
/// the content and serialization are unchanged, the memory equals that of the same set read
/// from its serialization, and later operations (which take blocks again) stay exact.
#[test]
fn shrink_to_fit_moves_blocks() {
    let ctx = context();
    let mut s = GpuSet::new(&ctx).unwrap();
    s.shrink_to_fit().unwrap();
    assert_eq!(s.pool_blocks(), (0, 0), "empty: no-op");
    let mut model = BTreeSet::new();
    let mut rng = Rng(77);
    // Chunks 0..8 dense (bitmaps), 8..40 arrays of 1..4096 values (1..44 blocks), in two
    // inserts each so the pools grow with headroom.
    let dense = |c: u32| -> Vec<u32> { (0..9000).map(|i| (c << 16) + i * 7).collect() };
    let sparse = |c: u32, n: u32| -> Vec<u32> { (0..n).map(|i| (c << 16) + i * 13).collect() };
    for c in 0..8 {
        let v = dense(c);
        s.insert(&v).unwrap();
        model.extend(&v);
    }
    for c in 8..40 {
        let n = 1 + rng.next_u32() % 4096;
        let v = sparse(c, n);
        s.insert(&v).unwrap();
        model.extend(&v);
    }
    // Free the low ids: chunks 0..4 back to arrays, the first array chunks removed.
    for c in 0..4 {
        let v: Vec<u32> = dense(c).into_iter().skip(100).collect();
        s.remove(&v).unwrap();
        v.iter().for_each(|x| {
            model.remove(x);
        });
    }
    for c in 8..20 {
        let v = sparse(c, 4096);
        s.remove(&v).unwrap();
        v.iter().for_each(|x| {
            model.remove(x);
        });
    }
    s.reserve(5, 300).unwrap();
    let before = s.pool_blocks();
    check(&s, &model, "before shrinking");
    s.shrink_to_fit().unwrap();
    let exact = exact_blocks(&model);
    assert!(before.0 > exact.0 && before.1 > exact.1, "{before:?} {exact:?}");
    assert_eq!(s.pool_blocks(), exact, "pools hold exactly the blocks in use");
    check(&s, &model, "shrunk");
    let read_back = GpuSet::deserialize(&ctx, &s.serialize().unwrap()).unwrap();
    assert_eq!(s.memory_bytes(), read_back.memory_bytes());
    s.shrink_to_fit().unwrap();
    assert_eq!(s.pool_blocks(), exact, "second shrink: no-op");
    // Operations after the shrink grow the pools again and stay exact.
    let extra = mixed_values(&mut rng, 30_000, 20 << 16);
    s.insert(&extra).unwrap();
    model.extend(&extra);
    check(&s, &model, "inserted after shrinking");
    let other = GpuSet::from_values(&ctx, &mixed_values(&mut rng, 20_000, 30 << 16)).unwrap();
    let other_model: BTreeSet<u32> = other.to_vec().unwrap().into_iter().collect();
    s.assign(SetOperand::This, SetOperand::Set(&other), SetOp::Xor)
        .unwrap();
    model = model.symmetric_difference(&other_model).copied().collect();
    check(&s, &model, "xor after shrinking");
    s.shrink_to_fit().unwrap();
    assert_eq!(s.pool_blocks(), exact_blocks(&model));
    check(&s, &model, "shrunk again");
    assert_no_validation_messages(&ctx);
}

/// Chunks present in one operand only, which OR, XOR, ANDNOT (and AND against a full chunk)
/// copy into another set block by block: arrays around the block boundaries (1-2, 95-97, 4095,
/// 4096 values), bitmaps, a full chunk; into a fresh set and into a set whose own chunks there
/// are given back (the pools then hold exactly the result's blocks).
#[test]
fn one_sided_chunks_copied() {
    let ctx = context();
    let sizes = [
        1u32, 2, 95, 96, 97, 1000, 4095, 4096, 4097, 30_000, 65_535, 65_536,
    ];
    let chunk = |c: u32, n: u32| -> Vec<u32> {
        let step = (65_536 / n).max(1);
        (0..n).map(|i| (c << 16) + i * step).collect()
    };
    let (mut va, mut vb, mut vd) = (Vec::new(), Vec::new(), Vec::new());
    for (i, &n) in sizes.iter().enumerate() {
        let i = i as u32;
        va.extend(chunk(i, n)); // a only
        vb.extend(chunk(100 + i, n)); // b only
        va.extend(chunk(200 + i, n)); // a, and b full
        vb.extend(chunk(200 + i, 65_536));
        // The destination's own content where the copies land.
        vd.extend(chunk(i, sizes[sizes.len() - 1 - i as usize]));
        vd.extend(chunk(100 + i, 3000));
    }
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    for op in SetOp::ALL {
        let want = reference::op(&ma, &mb, op);
        let fresh = GpuSet::op(&a, &b, op).unwrap();
        check(&fresh, &want, &format!("fresh {op:?}"));
        let mut d = GpuSet::from_values(&ctx, &vd).unwrap();
        d.assign(SetOperand::Set(&a), SetOperand::Set(&b), op).unwrap();
        check(&d, &want, &format!("into a filled set {op:?}"));
        d.shrink_to_fit().unwrap();
        assert_eq!(d.pool_blocks(), exact_blocks(&want), "{op:?}: blocks in use");
        check(&d, &want, &format!("shrunk {op:?}"));
    }
    assert_no_validation_messages(&ctx);
}

/// Array chunk pairs around the limits of the array-pair kernels' classes (640 and 2048
/// values together; chunk_update.comp above), one pair per chunk, every operation, with values
/// common to both lists and values in one only; then runs of inserted and removed values (with
/// duplicates) around the same limits.
#[test]
fn array_pairs_around_the_limits() {
    let ctx = context();
    let mut rng = Rng(12);
    let sizes = [
        (0usize, 1usize),
        (1, 0),
        (1, 1),
        (2, 3),
        (256, 256),
        (320, 320),
        (320, 321),
        (640, 0),
        (0, 640),
        (639, 1),
        (640, 1),
        (1000, 24),
        (1024, 1024),
        (2047, 1),
        (2048, 0),
        (2048, 1),
        (1025, 1024),
        (2000, 100),
        (4096, 4096),
    ];
    // Chunk i holds pair i: values drawn from a window 1.5x the larger list, so the lists
    // share about half their values.
    let mut va = Vec::new();
    let mut vb = Vec::new();
    for (i, &(na, nb)) in sizes.iter().enumerate() {
        let base = (i as u32 * 7 + 3) << 16;
        let window = (na.max(nb) as u32 * 3 / 2).clamp(1, 65536);
        for (n, v) in [(na, &mut va), (nb, &mut vb)] {
            let mut chosen = BTreeSet::new();
            while chosen.len() < n {
                chosen.insert(base + rng.next_u32() % window.max(n as u32));
            }
            v.extend(chosen);
        }
    }
    // Pairs whose lists do not interleave (all of a below all of b; the swapped operations
    // give the reverse): a co-rank at the far end of its search interval, which is as long as
    // the shorter list (the search's steps must reach it).
    for (k, &(na, nb)) in [(320usize, 320usize), (300, 340), (1024, 1024)]
        .iter()
        .enumerate()
    {
        let base = ((sizes.len() + k) as u32 * 7 + 3) << 16;
        va.extend((0..na as u32).map(|x| base + 2 * x));
        vb.extend((0..nb as u32).map(|x| base + 2 * na as u32 + 1 + 3 * x));
    }
    let a = GpuSet::from_values(&ctx, &va).unwrap();
    let b = GpuSet::from_values(&ctx, &vb).unwrap();
    let (ma, mb) = (model_of(&va), model_of(&vb));
    check(&a, &ma, "a");
    check(&b, &mb, "b");
    for op in SetOp::ALL {
        check_op(&a, &b, &ma, &mb, op);
        check(
            &GpuSet::op(&b, &a, op).unwrap(),
            &reference::op(&mb, &ma, op),
            &format!("{op:?} swapped"),
        );
    }
    // Runs: insert b's values three times over (duplicates in each chunk's run), then remove a
    // run of a's values with duplicates.
    let mut s = GpuSet::from_values(&ctx, &va).unwrap();
    let mut tripled: Vec<u32> = vb.iter().flat_map(|&x| [x, x, x]).collect();
    tripled.reverse();
    s.insert(&tripled).unwrap();
    let mut m = ma.clone();
    m.extend(&mb);
    check(&s, &m, "insert runs");
    let removed: Vec<u32> = va.iter().step_by(2).flat_map(|&x| [x, x]).collect();
    s.remove(&removed).unwrap();
    for x in &removed {
        m.remove(x);
    }
    check(&s, &m, "remove runs");
    assert_no_validation_messages(&ctx);
}

/// In-place operations: dst = dst op b, dst = a op dst, dst = dst op dst.
#[test]
fn in_place_operations() {
    let ctx = context();
    let mut rng = Rng(6);
    let va = mixed_values(&mut rng, 3000, 20 << 16);
    let vb = mixed_values(&mut rng, 3000, (20 << 16) + 30_000);
    let (ma, mb) = (model_of(&va), model_of(&vb));
    let b = GpuSet::from_values(&ctx, &vb).unwrap();
    for op in SetOp::ALL {
        let mut a = GpuSet::from_values(&ctx, &va).unwrap();
        a.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
        check(&a, &reference::op(&ma, &mb, op), &format!("a = a {op:?} b"));
        let mut a = GpuSet::from_values(&ctx, &va).unwrap();
        a.assign(SetOperand::Set(&b), SetOperand::This, op).unwrap();
        check(&a, &reference::op(&mb, &ma, op), &format!("a = b {op:?} a"));
        let mut a = GpuSet::from_values(&ctx, &va).unwrap();
        a.assign(SetOperand::This, SetOperand::This, op).unwrap();
        check(&a, &reference::op(&ma, &ma, op), &format!("a = a {op:?} a"));
    }
    assert_no_validation_messages(&ctx);
}

/// Checks `d` against `want`, then that after `shrink_to_fit` it holds exactly the result's
/// blocks (none lost, none given back twice).
/// The cardinality the host keeps: known after a build from a Roaring file, a count, `pack`
/// and `unpack`; forgotten by every host write and counted again right; never kept once a
/// write was recorded through the record layer (the host cannot tell when it runs).
#[test]
fn cardinality_known_on_the_host() {
    let ctx = context();
    let mut rng = Rng(0x5eed_ca4d);
    let values = mixed_values(&mut rng, 30_000, 0x1234_0000);
    let mut model = model_of(&values);
    let mut s = GpuSet::from_values(&ctx, &values).unwrap();
    let known_right = |s: &GpuSet, model: &BTreeSet<u32>, what: &str| {
        let want = model.len() as u64;
        assert_eq!(s.cardinality().unwrap(), want, "{what}: cardinality()");
        assert!(s.knows_cardinality(), "{what}: known after a count");
        for (got, how) in [
            (s.cardinality(), "known cardinality"),
            (s.range_cardinality(0, 1 << 32), "range of the whole universe"),
            (s.counted_cardinality(), "counted"),
        ] {
            assert_eq!(got.unwrap(), want, "{what}: {how}");
        }
    };
    known_right(&s, &model, "from_values");

    let more = mixed_values(&mut rng, 8_000, 0x8000_0000);
    s.insert(&more).unwrap();
    model.extend(&more);
    assert!(!s.knows_cardinality(), "insert forgets");
    known_right(&s, &model, "insert");

    let gone: Vec<u32> = model.iter().copied().step_by(3).collect();
    s.remove(&gone).unwrap();
    for v in &gone {
        model.remove(v);
    }
    assert!(!s.knows_cardinality(), "remove forgets");
    known_right(&s, &model, "remove");

    s.insert_range(0x4000_0000 - 100, 0x4000_0000 + 3 * 65536 + 7)
        .unwrap();
    model.extend(0x4000_0000u32 - 100..0x4000_0000 + 3 * 65536 + 7);
    assert!(!s.knows_cardinality(), "insert_range forgets");
    known_right(&s, &model, "insert_range");

    let other_values = mixed_values(&mut rng, 20_000, 0x1234_8000);
    let other = GpuSet::from_values(&ctx, &other_values).unwrap();
    let other_model = model_of(&other_values);
    known_right(&other, &other_model, "operand");
    for op in SetOp::ALL {
        let mut d = GpuSet::from_values(&ctx, &values).unwrap();
        known_right(&d, &model_of(&values), "destination");
        d.assign(SetOperand::This, SetOperand::Set(&other), op).unwrap();
        assert!(!d.knows_cardinality(), "{op:?}: assign forgets");
        known_right(
            &d,
            &reference::op(&model_of(&values), &other_model, op),
            &format!("{op:?}"),
        );
        known_right(
            &other,
            &other_model,
            &format!("{op:?}: the operand keeps its count"),
        );
    }
    let mut d = GpuSet::new(&ctx).unwrap();
    known_right(&d, &BTreeSet::new(), "empty");
    GpuSet::assign_batch(&mut [(&mut d, SetOperand::Set(&s), SetOperand::Set(&other), SetOp::Xor)]).unwrap();
    assert!(!d.knows_cardinality(), "assign_batch forgets");
    known_right(
        &d,
        &reference::op(&model, &other_model, SetOp::Xor),
        "assign_batch",
    );

    s.run_optimize().unwrap();
    assert!(!s.knows_cardinality(), "run_optimize forgets");
    known_right(&s, &model, "run_optimize");
    s.shrink_to_fit().unwrap();
    known_right(&s, &model, "shrink_to_fit");
    s.pack().unwrap();
    assert!(s.knows_cardinality(), "pack builds from the downloaded chunks");
    known_right(&s, &model, "pack");
    s.unpack().unwrap();
    assert!(s.knows_cardinality(), "unpack builds from the downloaded chunks");
    known_right(&s, &model, "unpack");

    let mut t = GpuSet::deserialize(&ctx, &s.serialize().unwrap()).unwrap();
    assert!(t.knows_cardinality(), "deserialize sums the containers' counts");
    known_right(&t, &model, "deserialize");

    // A recorded write: the host forgets the count at once and never keeps one again.
    t.reserve(2, 2).unwrap(); // recorded writes cannot grow the pools
    let (scratch, mut status) = scratch_and_status(&ctx);
    let range = status.sub_range(0, 32);
    let (begin, end) = (0x9000_0000u64 + 5, 0x9000_0000u64 + 65536 + 9);
    let recorded = recorded_status(&ctx, &mut status, |cmd| unsafe {
        t.record_insert_range(
            cmd,
            &GpuSetInsertRangeArgs {
                begin,
                end,
                scratch: scratch.range(),
                status: range,
            },
        )
    });
    assert_eq!(recorded.ok, 1, "recorded insert_range");
    model.extend(begin as u32..end as u32);
    for round in 0..2 {
        assert!(!t.knows_cardinality(), "after a recorded write, round {round}");
        assert_eq!(
            t.cardinality().unwrap(),
            model.len() as u64,
            "after a recorded write, round {round}"
        );
    }
    t.insert(&[7]).unwrap();
    model.insert(7);
    assert_eq!(
        t.cardinality().unwrap(),
        model.len() as u64,
        "host write after a recorded one"
    );
    assert!(
        !t.knows_cardinality(),
        "a host write does not bring the count back"
    );
    check(&t, &model, "after the recorded write");
    assert_no_validation_messages(&ctx);
}

fn check_blocks_exact(d: &mut GpuSet, want: &BTreeSet<u32>, what: &str) {
    check(d, want, what);
    d.shrink_to_fit().unwrap();
    assert_eq!(d.pool_blocks(), exact_blocks(want), "{what}: blocks in use");
}

/// `d = a op b` on the one-pass path: the free blocks it needs reserved first.
fn assign_reserved(d: &mut GpuSet, a: SetOperand, b: SetOperand, op: SetOp) {
    d.reserve_for_op(a, b, op).unwrap();
    d.assign(a, b, op).unwrap();
}

/// More small array pairs than the small-pair kernel's workgroups (4096), so that each
/// workgroup takes several pairs, its loads of a pair in flight while it works on the pair
/// before (50 + 50 random values a chunk in its first 4096: AND results of one block or none
/// against bounds of one a pair). On the one-pass path, into a fresh set (every operation),
/// into a filled one whose old blocks go back, and in place (AND, XOR): the right result, and
/// no block lost or given back twice (shrink_to_fit leaves exactly the result's blocks).
#[test]
fn small_pairs_many_per_workgroup() {
    let ctx = context();
    let mut rng = Rng(31);
    let (mut va, mut vb, mut vd) = (Vec::new(), Vec::new(), Vec::new());
    for c in 0..4700u32 {
        for _ in 0..50 {
            va.push((c << 16) | (rng.next_u32() % 4096));
            vb.push((c << 16) | (rng.next_u32() % 4096));
        }
        for _ in 0..(c % 3) * 60 {
            vd.push((c << 16) | (rng.next_u32() & 0xFFFF));
        }
    }
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    for op in SetOp::ALL {
        let want = reference::op(&ma, &mb, op);
        let mut d = GpuSet::new(&ctx).unwrap();
        assign_reserved(&mut d, SetOperand::Set(&a), SetOperand::Set(&b), op);
        check_blocks_exact(&mut d, &want, &format!("{op:?} into a fresh set"));
        if op != SetOp::And && op != SetOp::Xor {
            continue;
        }
        let mut d = GpuSet::from_values(&ctx, &vd).unwrap();
        assign_reserved(&mut d, SetOperand::Set(&a), SetOperand::Set(&b), op);
        check_blocks_exact(&mut d, &want, &format!("{op:?} into a filled set"));
        let mut d = GpuSet::from_values(&ctx, &va).unwrap();
        assign_reserved(&mut d, SetOperand::This, SetOperand::Set(&b), op);
        check_blocks_exact(&mut d, &want, &format!("{op:?} in place"));
    }
    assert_no_validation_messages(&ctx);
}

/// More chunks to copy unchanged than the small-pair kernel's workgroups (4096), which copy
/// them after their pairs, so that a workgroup copies several, the next one's directory
/// entries in flight while it copies: arrays of 1 to 1500 values (one block to 17) and bitmaps
/// only in a (3000 chunks) or only in b (1500), and 20 chunks of a whose b chunk is full (AND
/// keeps them). Every operation into a fresh set on the counting path and on the one-pass
/// path; OR and ANDNOT into a filled set whose old blocks go back, and OR in place: the right
/// result, and no block lost or given back twice.
#[test]
fn copies_many_per_workgroup() {
    let ctx = context();
    let mut rng = Rng(47);
    let sizes = [1u32, 95, 96, 200, 1500];
    let mut chunk = |c: u32, i: u32| -> Vec<u32> {
        let n = if i % 64 == 63 {
            5000
        } else {
            sizes[i as usize % sizes.len()]
        };
        let mut v: Vec<u32> = (0..n).map(|_| (c << 16) | (rng.next_u32() & 0xFFFF)).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let (mut va, mut vb, mut vd) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..3000u32 {
        va.extend(chunk(i, i));
        if i % 3 == 0 {
            vd.extend(chunk(i, i + 1));
        }
    }
    for i in 0..1500u32 {
        vb.extend(chunk(3000 + i, i));
        if i % 4 == 0 {
            vd.extend(chunk(3000 + i, i + 2));
        }
    }
    for i in 0..20u32 {
        va.extend(chunk(5000 + i, i));
    }
    vd.sort_unstable();
    vd.dedup();
    let (a, mut b, ma, mut mb) = operands(&ctx, &va, &vb);
    b.insert_range(5000 << 16, 5020 << 16).unwrap(); // full chunks under 20 of a's
    mb.extend((5000u32 << 16)..(5020u32 << 16));
    for op in SetOp::ALL {
        let want = reference::op(&ma, &mb, op);
        let mut d = GpuSet::op(&a, &b, op).unwrap();
        check_blocks_exact(&mut d, &want, &format!("{op:?} into a fresh set"));
        let mut d = GpuSet::new(&ctx).unwrap();
        assign_reserved(&mut d, SetOperand::Set(&a), SetOperand::Set(&b), op);
        check_blocks_exact(&mut d, &want, &format!("{op:?} into a fresh set, reserved"));
        if op != SetOp::Or && op != SetOp::AndNot {
            continue;
        }
        let mut d = GpuSet::from_values(&ctx, &vd).unwrap();
        assign_reserved(&mut d, SetOperand::Set(&a), SetOperand::Set(&b), op);
        check_blocks_exact(&mut d, &want, &format!("{op:?} into a filled set"));
    }
    let mut d = GpuSet::from_values(&ctx, &va).unwrap();
    d.assign(SetOperand::This, SetOperand::Set(&b), SetOp::Or)
        .unwrap();
    check_blocks_exact(&mut d, &reference::op(&ma, &mb, SetOp::Or), "Or in place");
    assert_no_validation_messages(&ctx);
}

fn roaring_header(cookie: u32, count: u32) -> Vec<u8> {
    let mut v = cookie.to_le_bytes().to_vec();
    v.extend_from_slice(&count.to_le_bytes());
    v
}

/// Malformed serializations are refused; hand-written run containers are read.
#[test]
fn roaring_malformed_and_runs() {
    let ctx = context();
    let mut m: BTreeSet<u32> = [1u32, 5, 70_000].into_iter().collect();
    // A bitmap chunk with no run to spare (every other value): the layout of cookie 12346.
    m.extend(((3 << 16)..((3 << 16) + 10_000)).step_by(2));
    let good = reference::serialize(&m);
    assert_eq!(good[..4], 12346u32.to_le_bytes());
    let s = GpuSet::deserialize(&ctx, &good).unwrap();
    check(&s, &m, "round trip");
    let bad = |bytes: &[u8], what: &str| {
        assert!(
            matches!(GpuSet::deserialize(&ctx, bytes), Err(Error::InvalidArgument(_))),
            "{what} accepted"
        );
        assert!(reference::deserialize(bytes).is_err());
    };
    for len in 0..good.len() {
        bad(&good[..len], &format!("truncated to {len}"));
    }
    let mut t = good.clone();
    t.push(0);
    bad(&t, "trailing byte");
    let mut t = good.clone();
    t[0] = 0x3B; // 12347 without its run bitset
    t[1] = 0x30;
    t[2] = 0xFF;
    t[3] = 0xFF;
    bad(&t, "run cookie with 65536 containers");
    let mut t = good.clone();
    t[0] ^= 1;
    bad(&t, "wrong cookie");
    bad(&roaring_header(12346, 65537), "65537 containers");
    bad(&roaring_header(12346, u32::MAX), "2^32 - 1 containers");
    let mut t = good.clone();
    t[8 + 3 * 4 - 2] = 0; // key of container 3 (= 3) below container 2's (1)
    t[8 + 3 * 4 - 1] = 0;
    bad(&t, "unsorted keys");
    let offsets = 8 + 3 * 4;
    let mut t = good.clone();
    t[offsets] += 2;
    bad(&t, "offset off by two");
    let mut t = good.clone();
    t[offsets + 4 * 2 + 3] = 0x7F;
    bad(&t, "offset out of range");
    let data = offsets + 3 * 4;
    let mut t = good.clone();
    t.swap(data, data + 2); // array values 1, 5 -> 5, 1
    t.swap(data + 1, data + 3);
    bad(&t, "unsorted array");
    let mut t = good.clone();
    t[8 + 2] = 2; // container 0 claims 3 values: its array then overlaps the next container
    bad(&t, "cardinality mismatch");
    // Bitmap container whose popcount disagrees with the header.
    let mut t = good.clone();
    let bitmap_at = data + 2 * 2 + 2;
    t[bitmap_at + 8191] ^= 0x80;
    bad(&t, "bitmap popcount mismatch");
    // Run containers (cookie 12347, fewer than 4 containers: no offsets).
    let mut r = (12347u32 | (1 << 16)).to_le_bytes().to_vec(); // 2 containers
    r.push(0b11); // both are run containers
    r.extend_from_slice(&[0, 0, 9, 0]); // key 0, 10 values
    r.extend_from_slice(&[2, 0, 0xFF, 0xFF]); // key 2, 65536 values
    r.extend_from_slice(&[2, 0, 3, 0, 4, 0, 100, 0, 4, 0]); // runs [3, 8) and [100, 105)
    r.extend_from_slice(&[1, 0, 0, 0, 0xFF, 0xFF]); // one run [0, 65536)
    let s = GpuSet::deserialize(&ctx, &r).unwrap();
    let mut want: BTreeSet<u32> = (3..8).chain(100..105).collect();
    want.extend((2 << 16)..(3 << 16));
    check(&s, &want, "runs");
    let mut t = r.clone();
    t[17] = 2; // second run starts at 2, inside the first
    bad(&t, "overlapping runs");
    let mut t = r.clone();
    t[12] = 10; // header says 11 values
    bad(&t, "run cardinality mismatch");
    let mut t = r.clone();
    t[25] = 1; // run [256, 65792) leaves the chunk
    bad(&t, "run past the chunk");
    assert_no_validation_messages(&ctx);
}

/// Sets from different contexts and bad arguments: clear errors, nothing changed.
#[test]
fn bad_arguments() {
    let ctx = context();
    let other = context();
    let mut a = GpuSet::from_values(&ctx, &[1, 2, 3]).unwrap();
    let b = GpuSet::from_values(&other, &[3]).unwrap();
    assert!(matches!(
        GpuSet::op(&a, &b, SetOp::And),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        GpuSet::op_cardinality(&a, &b, SetOp::Or),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        a.assign(SetOperand::This, SetOperand::Set(&b), SetOp::Or),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(a.insert_range(5, 4), Err(Error::InvalidArgument(_))));
    assert!(matches!(
        a.insert_range(0, (1 << 32) + 1),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        a.range_cardinality(0, (1 << 32) + 1),
        Err(Error::InvalidArgument(_))
    ));
    let mut small = [0u32; 2];
    assert!(matches!(a.to_array(&mut small), Err(Error::InvalidArgument(_))));
    assert_eq!(small, [0, 0]);
    assert_eq!(a.to_vec().unwrap(), vec![1, 2, 3]);
    assert_no_validation_messages(&ctx);
    assert_no_validation_messages(&other);
}

/// The record layer on caller buffers: contains with an indirect count, filter, to_array,
/// an operation with its status, a pre-sorted insert.
#[test]
fn record_layer() {
    let ctx = context();
    let mut a = GpuSet::from_values(&ctx, &[10, 20, 30, 1 << 20, u32::MAX]).unwrap();
    let b = GpuSet::from_values(&ctx, &[20, 40]).unwrap();
    let up = |data: &[u32]| {
        let mut buf = GpuBuffer::new(&ctx, 4096, MemoryLocation::CpuToGpu, "test").unwrap();
        buf.mapped().unwrap()[..data.len() * 4].copy_from_slice(bytemuck_cast(data));
        buf
    };
    let queries = up(&[0, 0, 0, 0, 10, 11, 20, u32::MAX, 1 << 20, 7]); // values at offset 16
    let count = up(&[5]);
    let mut flags = GpuBuffer::new(&ctx, 4096, MemoryLocation::GpuToCpu, "flags").unwrap();
    let mut out = GpuBuffer::new(&ctx, 4096, MemoryLocation::GpuToCpu, "out").unwrap();
    let mut misc = GpuBuffer::new(&ctx, 4096, MemoryLocation::GpuToCpu, "misc").unwrap();
    let scratch = set_scratch(&ctx);
    let sorted = up(&[5, 5, 6, 1 << 20, 1 << 21]);
    a.reserve(0, 8).unwrap(); // recorded operations cannot grow the pools
    ctx.submit_and_wait(|cmd| unsafe {
        let q = BufferRange::new(queries.buffer(), 16, 24);
        a.record_contains(
            cmd,
            &GpuSetContainsArgs {
                values: q,
                count: ElementCount::Indirect(count.sub_range(0, 4)),
                max_count: 6,
                flags: flags.sub_range(8, 24),
            },
        )?;
        a.record_filter(
            cmd,
            &GpuSetFilterArgs::new(
                q,
                ElementCount::Direct(6),
                6,
                out.sub_range(0, 24),
                misc.sub_range(0, 4),
                scratch.range(),
            ),
        )?;
        a.record_barrier(cmd);
        a.record_op(
            cmd,
            &GpuSetOpArgs::new(
                SetOperand::This,
                SetOperand::Set(&b),
                SetOp::Or,
                scratch.range(),
                misc.sub_range(64, 32),
            ),
        )?;
        a.record_barrier(cmd);
        a.record_insert_sorted(
            cmd,
            &GpuSetInsertSortedArgs {
                sorted: sorted.sub_range(0, 20),
                count: ElementCount::Direct(5),
                max_count: 5,
                remove: false,
                scratch: scratch.range(),
                status: misc.sub_range(128, 32),
            },
        )?;
        a.record_barrier(cmd);
        a.record_to_array(
            cmd,
            &GpuSetToArrayArgs {
                out: out.sub_range(256, 4 * 8),
                capacity: 8,
                count_out: misc.sub_range(32, 8),
                scratch: scratch.range(),
            },
        )?;
        a.record_range_cardinality(
            cmd,
            &GpuSetRangeCardinalityArgs {
                begin: 11,
                end: 1 << 32,
                out: misc.sub_range(40, 8),
            },
        )?;
        compute_to_host(&ctx, cmd);
        Ok(())
    })
    .unwrap();
    let words = |buf: &mut GpuBuffer, at: usize, n: usize| -> Vec<u32> {
        buf.mapped().unwrap()[at..at + 4 * n]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    assert_eq!(
        words(&mut flags, 8, 6)[..5],
        [1, 0, 1, 1, 1],
        "contains, indirect count 5"
    );
    assert_eq!(words(&mut misc, 0, 1), [4], "filter count");
    let kept = words(&mut out, 0, 4);
    assert_eq!(kept, [10, 20, u32::MAX, 1 << 20], "filter keeps input order");
    let status: SetOpStatus = *bytemuck_from(&words(&mut misc, 64, 8));
    assert_eq!(status.ok, 1, "the pool had room: {status:?}");
    assert_eq!(bytemuck_from(&words(&mut misc, 128, 8)).ok, 1);
    assert_eq!(words(&mut misc, 32, 2), [9, 0], "cardinality of the result");
    assert_eq!(words(&mut out, 256, 8), [5, 6, 10, 20, 30, 40, 1 << 20, 1 << 21]);
    assert_eq!(words(&mut misc, 40, 2), [6, 0], "range [11, 2^32)");
    assert_eq!(
        a.to_vec().unwrap(),
        vec![5, 6, 10, 20, 30, 40, 1 << 20, 1 << 21, u32::MAX]
    );
    // Unsorted values with duplicates through the record layer's own sort, indirect count.
    let plan = GpuSet::insert_plan(&ctx, 8).unwrap();
    let req = plan.memory_requirements();
    let unsorted = up(&[9, 3, 1 << 22, 3, 9, 7, 999, 999]);
    let count6 = up(&[6]);
    let alt = GpuBuffer::new(&ctx, req.keys_alt.size.max(64), MemoryLocation::GpuOnly, "alt").unwrap();
    let sort_scratch = GpuBuffer::new(
        &ctx,
        req.scratch.size.max(64),
        MemoryLocation::GpuOnly,
        "sort scratch",
    )
    .unwrap();
    let mut b2 = GpuSet::new(&ctx).unwrap();
    b2.reserve(0, 4).unwrap();
    ctx.submit_and_wait(|cmd| unsafe {
        b2.record_insert(
            cmd,
            &GpuSetInsertArgs {
                plan: &plan,
                values: unsorted.sub_range(0, 32),
                values_alt: alt.range(),
                sort_scratch: sort_scratch.range(),
                count: ElementCount::Indirect(count6.sub_range(0, 4)),
                remove: false,
                scratch: scratch.range(),
                status: misc.sub_range(128, 32),
            },
        )
    })
    .unwrap();
    assert_eq!(
        b2.to_vec().unwrap(),
        vec![3, 7, 9, 1 << 22],
        "record_insert, first 6 values"
    );
    // A range through the record layer: three values of chunk 0, all of chunk 1 (a full
    // chunk, no block), five of chunk 2. First with pools too small for it (nothing written),
    // then with room.
    let (begin, end) = ((1u64 << 16) - 3, (1u64 << 17) + 5);
    let range_args = |begin: u64, end: u64, status: BufferRange| GpuSetInsertRangeArgs {
        begin,
        end,
        scratch: scratch.range(),
        status,
    };
    let record_range = |set: &GpuSet, misc: &GpuBuffer| {
        ctx.submit_and_wait(|cmd| unsafe {
            set.record_insert_range(cmd, &range_args(begin, end, misc.sub_range(192, 32)))?;
            set.record_insert_range(cmd, &range_args(7, 7, misc.sub_range(224, 32)))?;
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
    };
    let before = b2.to_vec().unwrap();
    let mut exact = GpuSet::from_values(&ctx, &before).unwrap();
    exact.shrink_to_fit().unwrap();
    record_range(&exact, &misc);
    let status: SetOpStatus = *bytemuck_from(&words(&mut misc, 192, 8));
    assert_eq!(status.ok, 0, "exact-fit pools: {status:?}");
    assert_eq!(exact.to_vec().unwrap(), before, "nothing written");
    b2.reserve(0, 4).unwrap();
    record_range(&b2, &misc);
    let status: SetOpStatus = *bytemuck_from(&words(&mut misc, 192, 8));
    assert_eq!(status.ok, 1, "{status:?}");
    let mut expected: BTreeSet<u32> = before.into_iter().collect();
    expected.extend((begin..end).map(|v| v as u32));
    assert_eq!(
        b2.to_vec().unwrap(),
        expected.into_iter().collect::<Vec<_>>(),
        "record_insert_range"
    );
    let bad = ctx.submit_and_wait(|cmd| unsafe {
        b2.record_insert_range(cmd, &range_args(9, 8, misc.sub_range(192, 32)))
    });
    assert!(matches!(bad, Err(Error::InvalidArgument(_))), "{bad:?}");
    let bad = ctx.submit_and_wait(|cmd| unsafe {
        b2.record_insert_range(cmd, &range_args(0, (1 << 32) + 1, misc.sub_range(192, 32)))
    });
    assert!(matches!(bad, Err(Error::InvalidArgument(_))), "{bad:?}");
    assert_no_validation_messages(&ctx);
}

fn bytemuck_cast(data: &[u32]) -> &[u8] {
    unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, data.len() * 4) }
}

fn bytemuck_from(words: &[u32]) -> &SetOpStatus {
    assert!(words.len() >= 8);
    unsafe { &*(words.as_ptr() as *const SetOpStatus) }
}

/// Files both ways with CRoaring through pyroaring (tests/roaring_interchange.py). Runs when
/// `python3 -c "import pyroaring"` works; `VKALGO_REQUIRE_PYROARING=1` (scripts/test.sh, which
/// installs it) makes its absence a failure.
#[test]
fn roaring_interchange_with_croaring() {
    let Some(python) = python_with_pyroaring() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("vkalgo-roaring-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The script next to this file when built here, else relative to the working directory
    // (a test binary copied to another machine runs from the repository root).
    let built_here = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/roaring_interchange.py");
    let script = if std::path::Path::new(built_here).exists() {
        built_here
    } else {
        "tests/roaring_interchange.py"
    };
    let run = |verb: &str| {
        let out = std::process::Command::new(&python)
            .args([script, verb, dir.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{verb}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run("make");
    let ctx = context();
    let read_u32 = |path: &std::path::Path| -> Vec<u32> {
        std::fs::read(path)
            .unwrap()
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let mut cases = 0;
    let mut runs_files = 0;
    for name in ["sparse", "dense", "runs", "empty", "edges"] {
        let bytes = std::fs::read(dir.join(format!("p_{name}.bin"))).unwrap();
        let values = read_u32(&dir.join(format!("p_{name}.u32")));
        // CRoaring -> vkalgo.
        let set = GpuSet::deserialize(&ctx, &bytes).unwrap();
        let model = model_of(&values);
        check(&set, &model, &format!("pyroaring {name}"));
        // pyroaring's sets are run-optimized (its constructor's default; p_runs explicitly):
        // vkalgo picks each chunk's container by the same rule and writes the same bytes.
        assert_eq!(set.serialize().unwrap(), bytes, "{name}: same bytes as CRoaring");
        let cookie = u16::from_le_bytes([bytes[0], bytes[1]]);
        runs_files += usize::from(cookie == 12347);
        // vkalgo -> CRoaring: a set built on the GPU from the values, then modified.
        let mut built = GpuSet::from_values(&ctx, &values).unwrap();
        built.insert(&[42, 1 << 31]).unwrap();
        let mut m2 = model.clone();
        m2.extend([42, 1 << 31]);
        std::fs::write(dir.join(format!("g_{name}.bin")), built.serialize().unwrap()).unwrap();
        let flat: Vec<u8> = m2.iter().flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(dir.join(format!("g_{name}.u32")), flat).unwrap();
        cases += 1;
    }
    assert_eq!(cases, 5);
    assert!(
        runs_files >= 2,
        "CRoaring's dense and runs files hold run containers"
    );
    run("check");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_no_validation_messages(&ctx);
}

/// A recorded operation whose destination lacks free blocks writes nothing and says so; after
/// `reserve` the same recording succeeds.
#[test]
fn recorded_exhaustion_writes_nothing() {
    let ctx = context();
    let va: Vec<u32> = (0..3000u32).map(|i| i * 7919).collect();
    let vb: Vec<u32> = (0..3000u32).map(|i| i * 7919 + 3).collect();
    let mut a = GpuSet::deserialize(&ctx, &reference::serialize(&model_of(&va))).unwrap();
    let b = GpuSet::from_values(&ctx, &vb).unwrap();
    let (scratch, mut status) = scratch_and_status(&ctx);
    let record = |a: &GpuSet, status: &GpuBuffer| {
        ctx.submit_and_wait(|cmd| unsafe {
            a.record_op(
                cmd,
                &GpuSetOpArgs::new(
                    SetOperand::This,
                    SetOperand::Set(&b),
                    SetOp::Or,
                    scratch.range(),
                    status.sub_range(0, 32),
                ),
            )?;
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
    };
    record(&a, &status);
    let s: SetOpStatus = *bytemuck_from(&read_words(&mut status, 8));
    assert_eq!(s.ok, 0, "exact-fit pools have no free block: {s:?}");
    assert!(s.need_array_blocks > s.free_array_blocks);
    assert_eq!(a.to_vec().unwrap(), va, "nothing written");
    a.reserve(s.need_bitmap_blocks, s.need_array_blocks).unwrap();
    record(&a, &status);
    let s: SetOpStatus = *bytemuck_from(&read_words(&mut status, 8));
    assert_eq!(s.ok, 1, "{s:?}");
    check(
        &a,
        &reference::op(&model_of(&va), &model_of(&vb), SetOp::Or),
        "after reserve",
    );
    assert_no_validation_messages(&ctx);
}

/// Blocks (bitmap, array) a chunk of `n` values holds (the layout in the set module's docs).
fn chunk_blocks(n: usize) -> (u32, u32) {
    match n {
        0 | 65536 => (0, 0),
        n if n > 4096 => (1, 0),
        n => (0, 1.max((n.div_ceil(2) as u32 - 1).div_ceil(47))),
    }
}

/// The blocks a set of these values holds.
fn exact_blocks(model: &BTreeSet<u32>) -> (u32, u32) {
    let mut cards = std::collections::BTreeMap::<u32, usize>::new();
    for v in model {
        *cards.entry(v >> 16).or_default() += 1;
    }
    cards.values().fold((0, 0), |t, &n| {
        let b = chunk_blocks(n);
        (t.0 + b.0, t.1 + b.1)
    })
}

/// The one-pass path: with free blocks for the bound `reserve_for_op` computes from the
/// operands' cardinalities, a recorded operation skips its counting pass and reports that bound
/// as its need; with free blocks for the exact result only, it counts and reports the exact
/// need. Both write the right result, into a fresh set and in place; so does the three-pass
/// record of the one-pass path (`record_op` with `reserved`), which writes nothing without the
/// bound.
#[test]
fn one_pass_and_counting_paths() {
    let ctx = context();
    let mut rng = Rng(23);
    // Sparse values over the universe (array pairs, where the intersection's bound is far above
    // its result), dense chunks (bitmaps), a full chunk in a only, and chunks empty in either.
    let mut va = mixed_values(&mut rng, 6000, 40 << 16);
    va.extend((9u32 << 16)..(10u32 << 16));
    va.extend((3u32 << 16)..(3u32 << 16) + 5000);
    let mut vb = mixed_values(&mut rng, 6000, 40 << 16);
    vb.extend((3u32 << 16) + 2500..(3u32 << 16) + 9000);
    vb.extend((9u32 << 16) + 100..(9u32 << 16) + 200);
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    let (scratch, mut status) = scratch_and_status(&ctx);
    let mut record = |d: &GpuSet, a: SetOperand, op: SetOp, reserved: bool| -> SetOpStatus {
        ctx.submit_and_wait(|cmd| unsafe {
            let args = GpuSetOpArgs::new(
                a,
                SetOperand::Set(&b),
                op,
                scratch.range(),
                status.sub_range(0, 32),
            );
            d.record_op(cmd, &GpuSetOpArgs { reserved, ..args })?;
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        *bytemuck_from(&read_words(&mut status, 8))
    };
    for op in SetOp::ALL {
        let want = reference::op(&ma, &mb, op);
        let exact = exact_blocks(&want);
        // One pass: a fresh set's pools hold exactly the bound after reserve_for_op.
        let mut d = GpuSet::new(&ctx).unwrap();
        d.reserve_for_op(SetOperand::Set(&a), SetOperand::Set(&b), op)
            .unwrap();
        let bound = d.pool_blocks();
        assert!(
            bound.0 >= exact.0 && bound.1 >= exact.1,
            "{op:?}: bound {bound:?} below {exact:?}"
        );
        let s = record(&d, SetOperand::Set(&a), op, false);
        assert_eq!(s.ok, 1, "{op:?} one pass: {s:?}");
        let need = |s: &SetOpStatus| (s.need_bitmap_blocks, s.need_array_blocks);
        assert_eq!(need(&s), bound, "{op:?}: the bound is the need");
        check(&d, &want, &format!("{op:?} one pass"));
        // Pairs take blocks by their bound on this path and give back what their result does
        // not need: none may be lost or given back twice.
        d.shrink_to_fit().unwrap();
        assert_eq!(d.pool_blocks(), exact, "{op:?} one pass: blocks in use");
        // The three-pass record of the one-pass path.
        let mut d = GpuSet::new(&ctx).unwrap();
        d.reserve_for_op(SetOperand::Set(&a), SetOperand::Set(&b), op)
            .unwrap();
        let s = record(&d, SetOperand::Set(&a), op, true);
        assert_eq!(s.ok, 1, "{op:?} reserved: {s:?}");
        assert_eq!(need(&s), bound, "{op:?} reserved: the bound is the need");
        check(&d, &want, &format!("{op:?} reserved"));
        d.shrink_to_fit().unwrap();
        assert_eq!(d.pool_blocks(), exact, "{op:?} reserved: blocks in use");
        // Counting: free blocks for the exact result only (the bound is higher for AND).
        let mut d = GpuSet::new(&ctx).unwrap();
        d.reserve(exact.0, exact.1).unwrap();
        if bound != exact {
            // The three-pass record needs the bound: it writes nothing and says so.
            let s = record(&d, SetOperand::Set(&a), op, true);
            assert_eq!(s.ok, 0, "{op:?} reserved without the bound: {s:?}");
            assert_eq!(need(&s), bound, "{op:?} reserved without the bound");
            check(&d, &BTreeSet::new(), &format!("{op:?} reserved, nothing written"));
        }
        let s = record(&d, SetOperand::Set(&a), op, false);
        assert_eq!(s.ok, 1, "{op:?} counting: {s:?}");
        if bound != exact {
            assert_eq!(need(&s), exact, "{op:?}: counted need");
        }
        check(&d, &want, &format!("{op:?} counting"));
        if op == SetOp::And {
            assert!(
                bound.1 > exact.1,
                "the intersection's bound should exceed its result"
            );
        }
        // In place, one pass: d = a first, then d = d op b; then again in three passes.
        let mut d = GpuSet::from_values(&ctx, &va).unwrap();
        d.reserve_for_op(SetOperand::This, SetOperand::Set(&b), op)
            .unwrap();
        let s = record(&d, SetOperand::This, op, false);
        assert_eq!(s.ok, 1, "{op:?} in place: {s:?}");
        check(&d, &want, &format!("{op:?} in place"));
        d.reserve_for_op(SetOperand::This, SetOperand::Set(&b), op)
            .unwrap();
        let s = record(&d, SetOperand::This, op, true);
        assert_eq!(s.ok, 1, "{op:?} reserved in place: {s:?}");
        let twice = reference::op(&want, &mb, op);
        check(&d, &twice, &format!("{op:?} reserved in place"));
        // The old chunks went back to the pools: none lost or given back twice.
        d.shrink_to_fit().unwrap();
        assert_eq!(
            d.pool_blocks(),
            exact_blocks(&twice),
            "{op:?} in place: blocks in use"
        );
    }
    // Recorded cardinalities add straight into the status (no check pass): it must come out
    // whole whatever it held before.
    for op in SetOp::ALL {
        let want = reference::op(&ma, &mb, op).len() as u64;
        status.mapped().unwrap()[..32].fill(0xA5);
        ctx.submit_and_wait(|cmd| unsafe {
            GpuSet::record_op_cardinality(
                cmd,
                &GpuSetCardinalityArgs::new(&a, &b, op, scratch.range(), status.sub_range(0, 32)),
            )?;
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        let s: SetOpStatus = *bytemuck_from(&read_words(&mut status, 8));
        assert_eq!(s.ok, 1, "{op:?} cardinality: {s:?}");
        assert_eq!(s.cardinality(), want, "{op:?} cardinality: {s:?}");
        assert!(s.work_chunks > 0, "{op:?} cardinality: {s:?}");
        let blocks = (
            s.need_bitmap_blocks,
            s.need_array_blocks,
            s.free_bitmap_blocks,
            s.free_array_blocks,
        );
        assert_eq!(blocks, (0, 0, 0, 0), "{op:?} cardinality: {s:?}");
    }
    assert_no_validation_messages(&ctx);
}

/// Pairs of bitmap chunks (both operands above the array limit) whose results are empty, full,
/// small arrays or bitmaps, for every operation: into a new set, in place, and counted only.
#[test]
fn bitmap_pairs_every_result_kind() {
    let ctx = context();
    let c = |chunk: u32, v: u32| (chunk << 16) | v;
    let mut va = Vec::new();
    let mut vb = Vec::new();
    // Chunk 0: evens against odds (AND empty, OR and XOR full).
    va.extend((0..32768).map(|i| c(0, 2 * i)));
    vb.extend((0..32768).map(|i| c(0, 2 * i + 1)));
    // Chunk 1: overlapping ranges (AND a 10-value array, the rest bitmaps).
    va.extend((0..5000).map(|v| c(1, v)));
    vb.extend((4990..10000).map(|v| c(1, v)));
    // Chunk 2: equal bitmaps but for a few values (ANDNOT a small array or empty, XOR small).
    va.extend((0..6000).map(|v| c(2, v)));
    vb.extend((0..6000).filter(|v| v % 1000 != 7).map(|v| c(2, v)));
    // Chunk 3: nearly full chunks (AND a bitmap, OR full).
    va.extend((0..65536).filter(|v| v % 700 != 1).map(|v| c(3, v)));
    vb.extend(
        (0..65536)
            .filter(|v| v % 700 == 1 || v % 900 != 2)
            .map(|v| c(3, v)),
    );
    // Chunk 65535: bitmaps at the top of the universe.
    va.extend((0..65536).step_by(3).map(|v| c(65535, v)));
    vb.extend((0..65536).step_by(5).map(|v| c(65535, v)));
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    for op in SetOp::ALL {
        let want = check_op(&a, &b, &ma, &mb, op);
        let mut x = GpuSet::from_values(&ctx, &va).unwrap();
        x.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
        check(&x, &want, &format!("{op:?} in place"));
        // Again in place on the result (bitmaps, arrays and full chunks as operand a).
        x.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
        check(
            &x,
            &reference::op(&want, &mb, op),
            &format!("{op:?} twice in place"),
        );
    }
    assert_no_validation_messages(&ctx);
}

/// Recorded inserts and removals of sorted values take the one-pass path too: the bound of an
/// insert is the chunk's values plus the run's (duplicates included), of a removal the chunk's.
#[test]
fn one_pass_inserts_and_removals() {
    let ctx = context();
    let base: Vec<u32> = (0..300).collect();
    // Values already present (duplicates of each other too) and new ones in another chunk.
    let mut sorted: Vec<u32> = (0..300).flat_map(|v| [v, v]).collect();
    sorted.extend((5u32 << 16)..(5u32 << 16) + 40);
    let mut buf = GpuBuffer::new(&ctx, 4096, MemoryLocation::CpuToGpu, "values").unwrap();
    buf.mapped().unwrap()[..sorted.len() * 4].copy_from_slice(bytemuck_cast(&sorted));
    let (scratch, mut status) = scratch_and_status(&ctx);
    let mut record = |d: &GpuSet, remove: bool| -> SetOpStatus {
        ctx.submit_and_wait(|cmd| unsafe {
            d.record_insert_sorted(
                cmd,
                &GpuSetInsertSortedArgs {
                    sorted: buf.sub_range(0, sorted.len() as u64 * 4),
                    count: ElementCount::Direct(sorted.len() as u64),
                    max_count: sorted.len() as u64,
                    remove,
                    scratch: scratch.range(),
                    status: status.sub_range(0, 32),
                },
            )?;
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        *bytemuck_from(&read_words(&mut status, 8))
    };
    let inserted = model_of(&[base.clone(), sorted.clone()].concat());
    // Bound: chunk 0 at most 300 + 600 values (10 array blocks), chunk 5 at most 40 (1); the
    // result holds 300 (4 blocks) and 40 (1).
    let (bound, exact) = ((0, chunk_blocks(900).1 + 1), (0, chunk_blocks(300).1 + 1));
    assert!(bound.1 > exact.1);
    for (free, want_need) in [(bound, bound), (exact, exact)] {
        let mut d = GpuSet::from_values(&ctx, &base).unwrap();
        d.reserve(free.0, free.1).unwrap();
        let s = record(&d, false);
        assert_eq!(s.ok, 1, "insert with {free:?} free: {s:?}");
        assert_eq!(
            (s.need_bitmap_blocks, s.need_array_blocks),
            want_need,
            "insert: {s:?}"
        );
        check(&d, &inserted, "insert");
        // Removing them all leaves nothing (a removal's bound is the chunks' own blocks, which
        // the insert's free blocks cover).
        let s = record(&d, true);
        assert_eq!(s.ok, 1, "remove: {s:?}");
        check(&d, &BTreeSet::new(), "remove");
    }
    assert_no_validation_messages(&ctx);
}

/// The scratch of a recorded set operation and a host-readable status buffer.
fn scratch_and_status(ctx: &vkalgo::Context) -> (GpuBuffer, GpuBuffer) {
    let scratch = set_scratch(ctx);
    let status = GpuBuffer::new(ctx, 64, MemoryLocation::GpuToCpu, "status").unwrap();
    (scratch, status)
}

fn read_words(buf: &mut GpuBuffer, n: usize) -> Vec<u32> {
    buf.mapped().unwrap()[..4 * n]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Many operations in one call, later ones reading earlier results; pools grow midway.
#[test]
fn batched_operations() {
    let ctx = context();
    let mut rng = Rng(11);
    let vq = mixed_values(&mut rng, 2000, 30 << 16);
    let q = GpuSet::from_values(&ctx, &vq).unwrap();
    let mq = model_of(&vq);
    let vals: Vec<Vec<u32>> = (0..3)
        .map(|i| mixed_values(&mut rng, 1500, (30 + i) << 16))
        .collect();
    let mut sets: Vec<GpuSet> = vals
        .iter()
        .map(|v| GpuSet::from_values(&ctx, v).unwrap())
        .collect();
    let mut models: Vec<BTreeSet<u32>> = vals.iter().map(|v| model_of(v)).collect();
    let mut acc = GpuSet::new(&ctx).unwrap();
    let mut macc = BTreeSet::new();
    {
        let (s0, rest) = sets.split_at_mut(1);
        let (s1, s2) = rest.split_at_mut(1);
        let mut jobs: Vec<(&mut GpuSet, SetOperand, SetOperand, SetOp)> = vec![
            (&mut s0[0], SetOperand::This, SetOperand::Set(&q), SetOp::Or),
            (&mut s1[0], SetOperand::Set(&q), SetOperand::This, SetOp::AndNot),
            (&mut s2[0], SetOperand::This, SetOperand::Set(&q), SetOp::Xor),
            (&mut acc, SetOperand::Set(&q), SetOperand::Set(&q), SetOp::Or),
        ];
        GpuSet::assign_batch(&mut jobs).unwrap();
    }
    models[0] = reference::op(&models[0], &mq, SetOp::Or);
    models[1] = reference::op(&mq, &models[1], SetOp::AndNot);
    models[2] = reference::op(&models[2], &mq, SetOp::Xor);
    macc.extend(mq.iter().copied());
    for (s, m) in sets.iter().zip(&models) {
        check(s, m, "batch");
    }
    check(&acc, &macc, "batch acc");
    assert_no_validation_messages(&ctx);
}

/// Chunk bitmaps as (key, words) slices, for reference::serialize_bitmaps.
fn as_slices(chunks: &[(u16, Vec<u64>)]) -> impl Iterator<Item = (u16, &[u64])> {
    chunks.iter().map(|(key, words)| (*key, words.as_slice()))
}

/// More pairs of bitmap chunks than the bitmap kernel has workgroups (2100 pairs: two or three
/// for each of lavapipe's 1024 workgroups), so that workgroups walk their part of the list with
/// the next pair's entries loaded ahead, and results of every kind side by side (bitmaps,
/// arrays, empty and full chunks), into a new set and in place. Compared byte for byte with
/// the CPU's serialization of the word-by-word result.
#[test]
fn bitmap_pairs_more_than_the_grid() {
    let ctx = context();
    let mut rng = Rng(0x5eed_b175);
    // About 8192 values a chunk.
    let sparse = |rng: &mut Rng| -> Vec<u64> {
        (0..1024)
            .map(|_| rng.next_u64() & rng.next_u64() & rng.next_u64())
            .collect()
    };
    let (mut ca, mut cb) = (Vec::new(), Vec::new());
    for k in 0..2100u32 {
        let a = sparse(&mut rng);
        let b: Vec<u64> = match k % 5 {
            // AND an array, the other results bitmaps.
            0 => sparse(&mut rng),
            // AND empty, OR and XOR full.
            1 => a.iter().map(|w| !w).collect(),
            // ANDNOT and XOR arrays of about 100 values, AND and OR bitmaps.
            2 => a
                .iter()
                .enumerate()
                .map(|(i, &w)| if i % 10 == 3 { w & w.wrapping_sub(1) } else { w })
                .collect(),
            // ANDNOT and XOR empty.
            3 => a.clone(),
            // Disjoint: AND empty, ANDNOT a itself.
            _ => a
                .iter()
                .map(|&w| !w & (rng.next_u64() & rng.next_u64()))
                .collect(),
        };
        let key = (k * 31) as u16;
        ca.push((key, a));
        cb.push((key, b));
    }
    let bytes_a = reference::serialize_bitmaps(as_slices(&ca));
    let a = GpuSet::deserialize(&ctx, &bytes_a).unwrap();
    let b = GpuSet::deserialize(&ctx, &reference::serialize_bitmaps(as_slices(&cb))).unwrap();
    for op in SetOp::ALL {
        let want: Vec<(u16, Vec<u64>)> = ca
            .iter()
            .zip(&cb)
            .map(|((key, x), (_, y))| (*key, reference::op_bits(x, y, op)))
            .collect();
        let card: u64 = want
            .iter()
            .flat_map(|(_, w)| w)
            .map(|w| w.count_ones() as u64)
            .sum();
        let want = reference::serialize_bitmaps(as_slices(&want));
        let d = GpuSet::op(&a, &b, op).unwrap();
        assert!(d.serialize().unwrap() == want, "{op:?}: serialization");
        assert_eq!(d.cardinality().unwrap(), card, "{op:?}: cardinality");
        assert_eq!(
            GpuSet::op_cardinality(&a, &b, op).unwrap(),
            card,
            "{op:?}: op cardinality"
        );
        let mut x = GpuSet::deserialize(&ctx, &bytes_a).unwrap();
        x.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
        assert!(x.serialize().unwrap() == want, "{op:?} in place: serialization");
    }
    assert_no_validation_messages(&ctx);
}

/// The small-pair kernel's 16-bit lists are used exactly where the device has shaderInt16 and
/// `VKALGO_SHADER_INT16` does not say off (scripts/test.sh runs this file both ways, so both
/// permutations meet every test here).
#[test]
fn int16_lists_follow_the_device_and_environment() {
    let ctx = context();
    let features = unsafe { ctx.instance().get_physical_device_features(ctx.physical_device()) };
    let off = std::env::var("VKALGO_SHADER_INT16")
        .is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "off" | "0" | "false" | "no"));
    assert_eq!(ctx.profile().int16, features.shader_int16 != 0 && !off);
    // The 16-bit and 32-bit lists give the same sets (a sparse AND / OR over a few chunks).
    let va: Vec<u32> = (0..3000u32)
        .map(|i| i.wrapping_mul(2_654_435_761) % (8 << 16))
        .collect();
    let vb: Vec<u32> = (0..3000u32).map(|i| i.wrapping_mul(40_503) % (8 << 16)).collect();
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    for op in SetOp::ALL {
        check_op(&a, &b, &ma, &mb, op);
    }
    assert_no_validation_messages(&ctx);
}

/// Small pairs whose values agree in their low 13 bits without being equal (what a filter or
/// hash of the low bits would confuse): in each chunk, a's values are b's moved by a multiple
/// of 8192, a fifth of them not moved; some chunks of a are empty or alone. Every operation's
/// cardinality (both orders) and result against the model.
#[test]
fn small_pairs_values_equal_mod_8192() {
    let ctx = context();
    let mut rng = Rng(61);
    let (mut va, mut vb) = (Vec::new(), Vec::new());
    for c in 0..300u32 {
        let n = 1 + rng.next_u32() % 300;
        for _ in 0..n {
            let low = rng.next_u32() % 8192;
            let hb = rng.next_u32() % 8;
            let ha = if rng.next_u32() % 5 == 0 {
                hb
            } else {
                (hb + 1 + rng.next_u32() % 7) % 8
            };
            vb.push((c << 16) | (hb * 8192 + low));
            if c % 50 != 7 {
                va.push((c << 16) | (ha * 8192 + low));
            }
        }
        if c % 50 == 9 {
            va.push((c << 16) | 0xFFFF); // a value only in a
        }
    }
    for c in 300..310u32 {
        va.push(c << 16); // chunks of a alone
    }
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    for op in SetOp::ALL {
        check_op(&a, &b, &ma, &mb, op);
    }
    assert_no_validation_messages(&ctx);
}

/// The record layer's filter on each path (count-scan-write; one pass with look-back, its
/// fallback forced for every tile, taken after one poll, and at its CPU default) against the
/// CPU: sizes around the tiles (64 or 256 values; the one pass 4 times as many), direct and indirect counts (the indirect one
/// below the maximum), duplicates, values in and out of sparse and dense chunks; the output
/// past the kept values stays untouched.
#[test]
fn filter_paths() {
    let ctx = context();
    let mut rng = Rng(23);
    let mut members: Vec<u32> = (0..3000).map(|_| rng.next_u32()).collect();
    members.extend(70_000..90_000);
    members.extend([0, u32::MAX]);
    let set = GpuSet::from_values(&ctx, &members).unwrap();
    let model = model_of(&members);
    let max = 20_000usize;
    let mut queries: Vec<u32> = (0..max)
        .map(|i| match i % 3 {
            0 => members[rng.next_u32() as usize % members.len()],
            1 => rng.next_u32(),
            _ => 69_990 + rng.next_u32() % 20_020,
        })
        .collect();
    queries[7] = u32::MAX;
    let scratch = set_scratch(&ctx);
    let mut input = GpuBuffer::new(&ctx, max as u64 * 4 + 16, MemoryLocation::CpuToGpu, "queries").unwrap();
    input.mapped().unwrap()[..max * 4].copy_from_slice(bytemuck_cast(&queries));
    let mut out = GpuBuffer::new(&ctx, max as u64 * 4, MemoryLocation::GpuToCpu, "kept").unwrap();
    let mut count_out = GpuBuffer::new(&ctx, 16, MemoryLocation::GpuToCpu, "count").unwrap();
    let paths = [
        FilterPath::CountScanWrite,
        FilterPath::Lookback { spins: 0 },
        FilterPath::Lookback { spins: 1 },
        FilterPath::Lookback { spins: 32 },
    ];
    for path in paths {
        for n in [
            0usize,
            1,
            63,
            64,
            65,
            255,
            256,
            257,
            511,
            512,
            513,
            2047,
            2048,
            2049,
            5 * 256 + 3,
            max,
        ] {
            for indirect in [false, true] {
                let what = format!("{path:?} n={n} indirect={indirect}");
                let want: Vec<u32> = queries[..n]
                    .iter()
                    .copied()
                    .filter(|q| model.contains(q))
                    .collect();
                out.mapped().unwrap().fill(0xAB);
                count_out.mapped().unwrap().fill(0xCD);
                input.mapped().unwrap()[max * 4..max * 4 + 4].copy_from_slice(&(n as u32).to_le_bytes());
                let count = if indirect {
                    ElementCount::Indirect(input.sub_range(max as u64 * 4, 4))
                } else {
                    ElementCount::Direct(n as u64)
                };
                let max_count = if indirect { max as u64 } else { n as u64 };
                ctx.submit_and_wait(|cmd| unsafe {
                    set.record_filter(
                        cmd,
                        &GpuSetFilterArgs {
                            path,
                            ..GpuSetFilterArgs::new(
                                input.sub_range(0, max as u64 * 4),
                                count,
                                max_count,
                                out.range(),
                                count_out.sub_range(0, 4),
                                scratch.range(),
                            )
                        },
                    )?;
                    compute_to_host(&ctx, cmd);
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{what}: {e}"));
                let got = out.mapped().unwrap();
                let kept: Vec<u32> = got[..want.len() * 4]
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                    .collect();
                assert_eq!(kept, want, "{what}: kept values");
                assert!(
                    got[want.len() * 4..].iter().all(|&b| b == 0xAB),
                    "{what}: written past the kept values"
                );
                let counted = u32::from_le_bytes(count_out.mapped().unwrap()[..4].try_into().unwrap());
                assert_eq!(counted as usize, want.len(), "{what}: count");
            }
        }
    }
    // (Only the validation messages: the paths other than the device's default create their
    // pipelines while recording.)
    assert_eq!(
        ctx.validation_message_count(),
        0,
        "{:#?}",
        ctx.validation_messages()
    );
}

/// The runs of a chunk's sorted low halves.
fn run_count(lows: &[u32]) -> usize {
    lows.iter()
        .enumerate()
        .filter(|&(i, &v)| i == 0 || lows[i - 1] + 1 != v)
        .count()
}

/// The blocks a set of these values holds with every chunk in the GPU's smallest form (after
/// `run_optimize`): a run chunk where its r runs take fewer Roaring bytes (2 + 4r) than an
/// array (2n) or a bitmap (above 4096 values) and r <= 48 (none for one run, one array block
/// for 2..=48), else the array or bitmap.
fn optimized_blocks(model: &BTreeSet<u32>) -> (u32, u32) {
    let mut chunks = std::collections::BTreeMap::<u32, Vec<u32>>::new();
    for v in model {
        chunks.entry(v >> 16).or_default().push(v & 0xFFFF);
    }
    chunks.values().fold((0, 0), |t, lows| {
        let (n, r) = (lows.len(), run_count(lows));
        let b = if n == 65536 {
            (0, 0)
        } else if r <= 48 && (n > 4096 || 2 + 4 * r < 2 * n) {
            (0, (r > 1) as u32)
        } else {
            chunk_blocks(n)
        };
        (t.0 + b.0, t.1 + b.1)
    })
}

/// Values in runs: per (chunk, runs, length, gap) that many runs of `length` values, `gap`
/// values apart, from the chunk's start + 3.
fn runs_of(spec: &[(u32, u32, u32, u32)]) -> Vec<u32> {
    let mut v = Vec::new();
    for &(c, runs, len, gap) in spec {
        for r in 0..runs {
            let first = 3 + r * (len + gap);
            v.extend((first..first + len).map(|x| (c << 16) | x));
        }
    }
    v
}

/// `op_cardinality_batch` runs its pairs side by side: one-pass pairs (run-chunk sets) all at
/// once into zeroed statuses, even where they share a set, and the others in groups whose
/// passes are recorded stage by stage with a scratch each (more pairs than one group here).
/// Each result against the model and the single-pair call.
#[test]
fn cardinality_batch_side_by_side() {
    let ctx = context();
    let mut rng = Rng(53);
    // Run-chunk sets (one pass): clustered runs, then run_optimize.
    let mut run_values = Vec::new();
    let mut run_sets = Vec::new();
    for k in 0..3u32 {
        let mut v = runs_of(&[(k, 3, 200, 50 + k), (k + 5, 1, 60_000, 0), (40, 2 + k, 100, 7)]);
        v.extend((((50 + k) << 16) + 11)..((52 + k) << 16)); // full chunks, runs at the edges
        for c in 100..130 + k {
            v.extend(((c << 16) + 7 * k + c)..((c << 16) + 900 + c)); // one run a chunk
        }
        let mut s = GpuSet::from_values(&ctx, &v).unwrap();
        s.run_optimize().unwrap();
        s.shrink_to_fit().unwrap();
        run_values.push(v);
        run_sets.push(s);
    }
    // Sets of arrays and bitmaps (the passes).
    let mut mixed: Vec<Vec<u32>> = (0..4u32)
        .map(|k| mixed_values(&mut rng, 3000 + 500 * k as usize, (k + 1) << 20))
        .collect();
    mixed[3].extend((7u32 << 16)..(7 << 16) + 6000); // a bitmap
    let mixed_sets: Vec<GpuSet> = mixed
        .iter()
        .map(|v| GpuSet::from_values(&ctx, v).unwrap())
        .collect();
    let sets: Vec<(&GpuSet, &Vec<u32>)> = run_sets
        .iter()
        .zip(&run_values)
        .chain(mixed_sets.iter().zip(&mixed))
        .collect();
    // Every ordered pair but a few: 7 x 7 - 4 = 45 pairs, a op a among them.
    let mut pairs = Vec::new();
    for (i, x) in sets.iter().enumerate() {
        for (j, y) in sets.iter().enumerate() {
            if (i + 2 * j) % 13 != 5 {
                pairs.push((x, y));
            }
        }
    }
    let set_pairs: Vec<(&GpuSet, &GpuSet)> = pairs.iter().map(|(x, y)| (x.0, y.0)).collect();
    let one_pass = set_pairs
        .iter()
        .filter(|(a, b)| GpuSet::one_pass_suits(a, b))
        .count();
    assert!(one_pass >= 6, "one-pass pairs: {one_pass}");
    assert!(
        set_pairs.len() - one_pass > 16,
        "pairs on the passes: {}",
        set_pairs.len() - one_pass
    );
    for op in SetOp::ALL {
        let got = GpuSet::op_cardinality_batch(&set_pairs, op).unwrap();
        for (k, ((a, va), (b, vb))) in pairs.iter().enumerate() {
            let want = reference::op(&model_of(va), &model_of(vb), op).len() as u64;
            assert_eq!(got[k], want, "{op:?} pair {k}");
            if k % 11 == 0 {
                assert_eq!(
                    GpuSet::op_cardinality(a, b, op).unwrap(),
                    want,
                    "{op:?} pair {k} alone"
                );
            }
        }
    }
    // The record layer with every pair forced onto one path, and a scratch of two slices
    // (groups of two on the passes): 20 pairs, ANDNOT.
    let op = SetOp::AndNot;
    let few = &set_pairs[..20];
    let scratch = GpuBuffer::new(&ctx, 2 * SET_SCRATCH_BYTES, MemoryLocation::GpuOnly, "scratch").unwrap();
    let mut statuses =
        GpuBuffer::new(&ctx, 20 * SET_STATUS_BYTES, MemoryLocation::GpuToCpu, "statuses").unwrap();
    for path in [CardinalityPath::Passes, CardinalityPath::OnePass] {
        statuses.mapped().unwrap().fill(0xA5);
        ctx.submit_and_wait(|cmd| unsafe {
            let args = GpuSetCardinalityBatchArgs {
                path,
                ..GpuSetCardinalityBatchArgs::new(few, op, scratch.range(), statuses.range())
            };
            GpuSet::record_op_cardinality_batch(cmd, &args)?;
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        let words = read_words(&mut statuses, 8 * few.len());
        for (k, ((_, va), (_, vb))) in pairs[..20].iter().enumerate() {
            let got = bytemuck_from(&words[8 * k..8 * k + 8]);
            let want = reference::op(&model_of(va), &model_of(vb), op).len() as u64;
            assert_eq!((got.ok, got.cardinality()), (1, want), "{path:?} pair {k}");
        }
    }
    assert_no_validation_messages(&ctx);
}

/// Run chunks (Roaring's run containers on the GPU): sets holding them built three ways
/// (values then `run_optimize`, a serialization with run containers, ranges), around the
/// limits (one run in the entry, 48 runs in a block, 49 runs back to an array, runs of more
/// than 4096 values in place of bitmaps, a run of 65535 values, runs at both chunk edges and
/// ending at 2^32), their blocks exact; every operation with run chunks on either side and as
/// the destination's old chunk (pairs of single runs, whose intersections and cardinalities
/// classify decides, among them), in place too, their cardinalities, lookups, ranges and
/// serializations, against the model.
#[test]
fn run_chunks() {
    let ctx = context();
    let mut rng = Rng(48);
    let mut va = runs_of(&[
        (1, 1, 5, 0),
        (2, 48, 3, 2),
        (3, 49, 3, 2),
        (5, 40, 200, 50),
        (9, 2, 1000, 30_000),
        (10, 1, 4000, 0),
        (11, 30, 2, 1),
    ]);
    va.extend(0..65535); // chunk 0: one run of 65535 values
    va.extend((4 << 16)..(4 << 16) + 100);
    va.extend((5 << 16) - 36..5 << 16); // chunk 4 ends in a run
    va.extend((8 << 16)..(9 << 16)); // full
    va.extend((0..3000).map(|i| (6 << 16) | (i * 7))); // an array without runs
    va.extend((0..5000).map(|i| (7 << 16) | (i * 3))); // a bitmap without runs
    va.extend(u32::MAX - 999..=u32::MAX);
    // Chunks 13..17 hold one run in both sets: overlapping, apart, covering the chunk together,
    // meeting in one value.
    let pairs_of_runs = [
        ((100, 5000), (4000, 9000)),
        ((0, 10), (20, 30)),
        ((0, 40_001), (30_000, 65_536)),
        ((100, 201), (200, 301)),
    ];
    for (i, &((a0, a1), _)) in pairs_of_runs.iter().enumerate() {
        va.extend(((13 + i as u32) << 16) + a0..((13 + i as u32) << 16) + a1);
    }
    let vb = {
        let mut v = runs_of(&[
            (0, 3, 10_000, 5000),
            (1, 2, 3, 1),
            (2, 20, 7, 5),
            (3, 10, 100, 10),
            (5, 45, 150, 60),
            (6, 4, 300, 4000),
            (7, 1, 30_000, 0),
            (8, 3, 20, 20),
            (10, 5, 900, 100),
            (12, 1, 65536 - 3, 0),
        ]);
        v.extend(mixed_values(&mut rng, 3000, 9 << 16));
        for (i, &(_, (b0, b1))) in pairs_of_runs.iter().enumerate() {
            v.extend(((13 + i as u32) << 16) + b0..((13 + i as u32) << 16) + b1);
        }
        v
    };
    let (ma, mb) = (model_of(&va), model_of(&vb));
    // Three ways to a set of run chunks, each with the exact blocks of the optimized form.
    let mut a = GpuSet::from_values(&ctx, &va).unwrap();
    assert_eq!(
        a.pool_blocks(),
        exact_blocks(&ma),
        "built from values: arrays and bitmaps"
    );
    a.run_optimize().unwrap();
    check(&a, &ma, "run_optimize");
    a.shrink_to_fit().unwrap();
    assert_eq!(a.pool_blocks(), optimized_blocks(&ma), "run_optimize: blocks");
    check(&a, &ma, "run_optimize, shrunk");
    a.run_optimize().unwrap();
    check(&a, &ma, "run_optimize twice");
    // The record layer's run_optimize, into the caller's command buffer: with no free block
    // (a set built from values has none) it writes nothing and reports what it needs, as every
    // recorded operation; with those blocks reserved it runs.
    let mut recorded = GpuSet::from_values(&ctx, &va).unwrap();
    let (scratch, mut status) = scratch_and_status(&ctx);
    let mut record = |s: &GpuSet| -> SetOpStatus {
        ctx.submit_and_wait(|cmd| unsafe {
            s.record_run_optimize(
                cmd,
                &GpuSetRunOptimizeArgs {
                    scratch: scratch.range(),
                    status: status.sub_range(0, 32),
                },
            )?;
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        *bytemuck_from(&read_words(&mut status, 8))
    };
    let first = record(&recorded);
    assert_eq!(
        first.ok, 0,
        "recorded run_optimize without free blocks: {first:?}"
    );
    check(
        &recorded,
        &ma,
        "recorded run_optimize without free blocks: nothing changed",
    );
    let short = |need: u32, free: u32| need.saturating_sub(free);
    recorded
        .reserve(
            short(first.need_bitmap_blocks, first.free_bitmap_blocks),
            short(first.need_array_blocks, first.free_array_blocks),
        )
        .unwrap();
    let second = record(&recorded);
    assert_eq!(
        second.ok, 1,
        "recorded run_optimize with the blocks it needs: {second:?}"
    );
    recorded.shrink_to_fit().unwrap();
    assert_eq!(
        recorded.pool_blocks(),
        optimized_blocks(&ma),
        "recorded run_optimize: blocks"
    );
    check(&recorded, &ma, "recorded run_optimize");
    let read = GpuSet::deserialize(&ctx, &reference::serialize(&ma)).unwrap();
    assert_eq!(read.pool_blocks(), optimized_blocks(&ma), "deserialized: blocks");
    check(&read, &ma, "deserialized");
    let mut ranges = GpuSet::new(&ctx).unwrap();
    let mut first = None;
    for &v in &ma {
        match first {
            None => first = Some((v, v)),
            Some((f, l)) if l + 1 == v => first = Some((f, v)),
            Some((f, l)) => {
                ranges.insert_range(f as u64, l as u64 + 1).unwrap();
                first = Some((v, v));
            }
        }
    }
    let (f, l) = first.unwrap();
    ranges.insert_range(f as u64, l as u64 + 1).unwrap();
    check(&ranges, &ma, "ranges");
    let b = GpuSet::deserialize(&ctx, &reference::serialize(&mb)).unwrap();
    check(&b, &mb, "b deserialized");
    let plain_vals = mixed_values(&mut rng, 20_000, 2 << 16);
    let plain = GpuSet::from_values(&ctx, &plain_vals).unwrap();
    let mp = model_of(&plain_vals);
    // Every operation, run chunks on either side, and against arrays and bitmaps.
    let sets = [(&a, &ma), (&b, &mb), (&plain, &mp), (&ranges, &ma)];
    for (i, j) in [(0, 1), (1, 0), (0, 2), (2, 1), (1, 3), (0, 0)] {
        for op in SetOp::ALL {
            check_op(sets[i].0, sets[j].0, sets[i].1, sets[j].1, op);
        }
    }
    // Run chunks as the destination's old chunks: results written over them, in place too.
    for op in SetOp::ALL {
        let mut d = GpuSet::deserialize(&ctx, &reference::serialize(&mb)).unwrap();
        d.assign(SetOperand::Set(&plain), SetOperand::Set(&a), op)
            .unwrap();
        check(
            &d,
            &reference::op(&mp, &ma, op),
            &format!("{op:?} over run chunks"),
        );
        let mut d = GpuSet::deserialize(&ctx, &reference::serialize(&ma)).unwrap();
        d.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
        check(&d, &reference::op(&ma, &mb, op), &format!("{op:?} in place"));
        d.assign(SetOperand::Set(&plain), SetOperand::This, op).unwrap();
        let want = reference::op(&mp, &reference::op(&ma, &mb, op), op);
        check(&d, &want, &format!("{op:?} in place, second operand"));
    }
    // Inserts and removals into run chunks.
    let mut d = GpuSet::deserialize(&ctx, &reference::serialize(&ma)).unwrap();
    let mut md = ma.clone();
    let ins: Vec<u32> = (0..2000)
        .map(|i| (i % 13) << 16 | (rng.next_u32() % 2000))
        .collect();
    d.insert(&ins).unwrap();
    md.extend(&ins);
    check(&d, &md, "inserted into run chunks");
    d.run_optimize().unwrap();
    let rem: Vec<u32> = md.iter().copied().step_by(5).collect();
    d.remove(&rem).unwrap();
    rem.iter().for_each(|v| {
        md.remove(v);
    });
    check(&d, &md, "removed from run chunks");
    // Lookups, filters and ranges over run chunks.
    let queries: Vec<u32> = (0..20_000)
        .map(|i| match i % 3 {
            0 => rng.next_u32() % (14 << 16),
            1 => *ma.iter().nth(rng.next_u32() as usize % ma.len()).unwrap() + (rng.next_u32() % 3),
            _ => u32::MAX - rng.next_u32() % 2000,
        })
        .collect();
    for (s, m) in [(&a, &ma), (&b, &mb), (&ranges, &ma)] {
        let mut found = vec![false; queries.len()];
        s.contains(&queries, &mut found).unwrap();
        for (q, f) in queries.iter().zip(&found) {
            assert_eq!(*f, m.contains(q), "contains {q}");
        }
        let want: Vec<u32> = queries.iter().copied().filter(|q| m.contains(q)).collect();
        assert_eq!(s.filter(&queries).unwrap(), want, "filter");
        for k in 0..40u64 {
            let lo = (k * 0x5_4321 + rng.next_u32() as u64 % 70_000).min(1 << 32);
            let hi = (lo + rng.next_u32() as u64 % 200_000).min(1 << 32);
            let (lo, hi) = if k == 39 { (0, 1 << 32) } else { (lo, hi) };
            assert_eq!(
                s.range_cardinality(lo, hi).unwrap(),
                reference::range_cardinality(m, lo, hi),
                "range [{lo}, {hi})"
            );
        }
    }
    assert_no_validation_messages(&ctx);
}

/// `runs` runs of 4..=max_len values (so that `run_optimize` keeps them as runs) with gaps of
/// 1..=max_gap values, in chunk `chunk` from a random start (cut at the chunk's end).
fn random_runs(rng: &mut Rng, chunk: u32, runs: u32, max_len: u32, max_gap: u32) -> Vec<u32> {
    let mut v = Vec::new();
    let mut x = rng.next_u32() % 64;
    for _ in 0..runs {
        let len = 4 + rng.next_u32() % (max_len - 3);
        v.extend((x..(x + len).min(65536)).map(|i| chunk << 16 | i));
        x += len + 1 + rng.next_u32() % max_gap;
        if x >= 65536 {
            break;
        }
    }
    v
}

/// Values of the intervals `[first, last]` in chunk `chunk`.
fn intervals(chunk: u32, list: &[(u32, u32)]) -> Vec<u32> {
    list.iter()
        .flat_map(|&(f, l)| (f..=l).map(move |x| chunk << 16 | x))
        .collect()
}

/// Pairs of chunks that are each empty, full or a run chunk, with at most 46 runs together
/// (glsl/set/run_pairs.comp walks their runs; more go to the chunk kernel): random run counts
/// on both sides, 46 and 47 runs together, a full chunk against 45 and 46 runs, run chunks
/// copied (the other side empty) and complemented (the other side full), results that become
/// arrays (a value or two left, and 93 values in 46 runs, the most), full or empty, runs of
/// more than 4096 values. Every operation
/// into a new set, over a set of arrays and bitmaps (the old chunks' blocks reused or given
/// back), over the last result (run chunks), in place on either side, on the one-pass path,
/// and the cardinalities; the blocks exact where every result chunk is in its smallest form.
#[test]
fn run_pairs() {
    let ctx = context();
    let mut rng = Rng(4646);
    let (mut va, mut vb) = (Vec::new(), Vec::new());
    for c in 0..40 {
        let (ra, rb) = (1 + rng.next_u32() % 30, 1 + rng.next_u32() % 30);
        let long = if c % 4 == 0 { 3000 } else { 40 };
        va.extend(random_runs(&mut rng, c, ra, long, 60));
        vb.extend(random_runs(&mut rng, c, rb, 40, 60));
    }
    let full: Vec<u32> = (0..65536).collect();
    for (c, ra, rb) in [
        (40, 23, 23),
        (41, 24, 23),
        (42, 0, 46),
        (43, 0, 47),
        (44, 20, 0),
        (45, 47, 0),
    ] {
        va.extend(random_runs(&mut rng, c, ra, 50, 50));
        vb.extend(random_runs(&mut rng, c, rb, 50, 50));
    }
    // Full chunks against 45 and 46 runs.
    va.extend(full.iter().map(|x| 46 << 16 | x));
    vb.extend(random_runs(&mut rng, 46, 45, 50, 50));
    vb.extend(full.iter().map(|x| 47 << 16 | x));
    va.extend(random_runs(&mut rng, 47, 46, 50, 50));
    // Results of a value or two (arrays), full and empty results, long runs.
    va.extend(intervals(48, &[(7, 100)]));
    vb.extend(intervals(48, &[(8, 100)]));
    va.extend(intervals(49, &[(10, 20), (30, 40), (50, 60)]));
    vb.extend(intervals(49, &[(11, 20), (30, 39), (50, 59)]));
    va.extend(intervals(50, &[(0, 99), (200, 299)]));
    vb.extend(intervals(50, &[(100, 199), (300, 65535)]));
    va.extend(intervals(51, &[(0, 20_000), (30_000, 50_000)]));
    vb.extend(intervals(51, &[(10_000, 40_000), (60_000, 65_535)]));
    va.extend(intervals(52, &[(5, 65_530)]));
    vb.extend((0..40u32).flat_map(|i| intervals(52, &[(100 + i * 1000, 103 + i * 1000)])));
    // 46 runs of two or three values (93, an array of one full block of 47 words) from
    // ANDNOT and XOR: the largest array a run pair writes.
    for k in 0..23 {
        va.extend(intervals(53, &[(12 * k, 12 * k + if k == 22 { 8 } else { 7 })]));
        vb.extend(intervals(53, &[(12 * k + 2, 12 * k + 5)]));
    }
    va.extend(intervals(65535, &[(0, 9), (65_500, 65_535)]));
    vb.extend(intervals(65535, &[(5, 65_510)]));
    let (ma, mb) = (model_of(&va), model_of(&vb));
    let mut a = GpuSet::from_values(&ctx, &va).unwrap();
    a.run_optimize().unwrap();
    let mut b = GpuSet::from_values(&ctx, &vb).unwrap();
    b.run_optimize().unwrap();
    a.shrink_to_fit().unwrap();
    b.shrink_to_fit().unwrap();
    assert_eq!(a.pool_blocks(), optimized_blocks(&ma), "a run-optimized");
    assert_eq!(b.pool_blocks(), optimized_blocks(&mb), "b run-optimized");
    let plain_values: Vec<u32> = (0..53u32)
        .flat_map(|c| (0..(c * 97) % 5000 + 1).map(move |i| c << 16 | (i * 13 % 65536)))
        .collect();
    let mut last: Option<GpuSet> = None;
    for op in SetOp::ALL {
        let want = check_op(&a, &b, &ma, &mb, op);
        let mut fresh = GpuSet::new(&ctx).unwrap();
        assign_reserved(&mut fresh, SetOperand::Set(&a), SetOperand::Set(&b), op);
        check(&fresh, &want, &format!("{op:?}, one-pass path"));
        let mut over_plain = GpuSet::from_values(&ctx, &plain_values).unwrap();
        over_plain
            .assign(SetOperand::Set(&a), SetOperand::Set(&b), op)
            .unwrap();
        check(&over_plain, &want, &format!("{op:?} over arrays and bitmaps"));
        if let Some(mut d) = last.take() {
            assign_reserved(&mut d, SetOperand::Set(&a), SetOperand::Set(&b), op);
            check(&d, &want, &format!("{op:?} over the last result"));
        }
        let mut in_a = GpuSet::deserialize(&ctx, &reference::serialize(&ma)).unwrap();
        in_a.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
        check(&in_a, &want, &format!("{op:?} in place"));
        let mut in_b = GpuSet::deserialize(&ctx, &reference::serialize(&mb)).unwrap();
        in_b.assign(SetOperand::Set(&a), SetOperand::This, op).unwrap();
        check(&in_b, &want, &format!("{op:?} in place, second operand"));
        // Every result chunk in its smallest form, but for AND: an intersection of two single
        // runs stays a run in the entry (no block) where an array would be smaller in Roaring.
        if op != SetOp::And {
            let mut exact = GpuSet::op(&a, &b, op).unwrap();
            exact.shrink_to_fit().unwrap();
            assert_eq!(exact.pool_blocks(), optimized_blocks(&want), "{op:?}: blocks");
        }
        last = Some(fresh);
    }
    assert_no_validation_messages(&ctx);
}

/// The cardinality of an operation on both recorded paths (the clear, classify and pair
/// kernels; the one pass over the directory that counts every pair itself) and on `Auto`,
/// against the model, with the same status: every chunk kind against every other (empty,
/// full, one run, runs, arrays of one block and of several, bitmaps), lists short and long
/// enough for one invocation's walk, run chunks and their arrays-and-bitmaps form, the same
/// set on both sides, and many pairs counted by workgroups.
#[test]
fn cardinality_paths() {
    let ctx = context();
    let mut rng = Rng(52);
    let mut va = runs_of(&[
        (1, 1, 5, 0),
        (2, 48, 3, 2),
        (3, 40, 200, 50),
        (5, 2, 1000, 30_000),
        (6, 1, 4000, 0),
        (7, 30, 2, 1),
        (20, 3, 100, 7),
    ]);
    va.extend((4 << 16)..(5 << 16)); // full
    va.extend((0..3000).map(|i| (8 << 16) | (i * 7))); // arrays
    va.extend((0..5000).map(|i| (9 << 16) | (i * 3))); // bitmaps
    va.extend((0..600).map(|i| (10 << 16) | (i * 50)));
    va.extend((11 << 16) + 100..(11 << 16) + 60_000);
    // Pairs of arrays in 300 consecutive chunks: more than a workgroup's chunks, so some
    // workgroups count many listed pairs.
    va.extend((0..300u32).flat_map(|c| (0..40).map(move |i| ((100 + c) << 16) | (i * 31 + c))));
    va.extend(mixed_values(&mut rng, 2000, 30 << 16));
    // Arrays of two and three blocks, short enough together for one invocation's walk.
    let a21: Vec<u32> = (0..120).map(|_| (21 << 16) | (rng.next_u32() % 1500)).collect();
    va.extend(&a21);
    va.extend((0..200).map(|i| (22 << 16) | (i * 5)));
    let mut vb = runs_of(&[
        (1, 3, 10, 7),
        (2, 20, 7, 5),
        (3, 10, 100, 10),
        (5, 1, 65536 - 3, 0),
        (7, 20, 3, 3),
        (8, 5, 900, 100),
        (9, 2, 40, 5),
        (20, 45, 5, 3),
    ]);
    vb.extend((0..4500).map(|i| (6 << 16) | (i * 11))); // a bitmap against a run
    vb.extend((0..100).map(|i| (10 << 16) | (i * 301)));
    vb.extend((11 << 16)..(12 << 16)); // full against a run
    vb.extend((0..300u32).flat_map(|c| (0..50).map(move |i| ((100 + c) << 16) | (i * 29 + 2 * c))));
    vb.extend(mixed_values(&mut rng, 2000, (30 << 16) + 5000));
    vb.extend(a21.iter().step_by(2)); // half of a's values there, and others
    vb.extend((0..70).map(|_| (21 << 16) | (rng.next_u32() % 1500)));
    vb.extend(runs_of(&[(22, 40, 20, 9)]));
    let (ma, mb) = (model_of(&va), model_of(&vb));
    let (mut a, mut b) = (
        GpuSet::from_values(&ctx, &va).unwrap(),
        GpuSet::from_values(&ctx, &vb).unwrap(),
    );
    let (scratch, mut status) = scratch_and_status(&ctx);
    let mut card = |x: &GpuSet, y: &GpuSet, op: SetOp, path: CardinalityPath| -> SetOpStatus {
        recorded_cardinality(&ctx, &scratch, &mut status, x, y, op, path)
    };
    for form in ["arrays and bitmaps", "run chunks"] {
        if form == "run chunks" {
            a.run_optimize().unwrap();
            b.run_optimize().unwrap();
        }
        for (x, y, mx, my, which) in [
            (&a, &b, &ma, &mb, "a op b"),
            (&b, &a, &mb, &ma, "b op a"),
            (&a, &a, &ma, &ma, "a op a"),
        ] {
            for op in SetOp::ALL {
                let want = reference::op(mx, my, op).len() as u64;
                let passes = card(x, y, op, CardinalityPath::Passes);
                let what = format!("{form}, {which}, {op:?}");
                assert_eq!(passes.ok, 1, "{what}: {passes:?}");
                assert_eq!(passes.cardinality(), want, "{what}, passes: {passes:?}");
                for path in [
                    CardinalityPath::OnePass,
                    CardinalityPath::OnePassSlots,
                    CardinalityPath::Auto,
                ] {
                    let got = card(x, y, op, path);
                    assert_eq!(got, passes, "{what}, {path:?} against the passes");
                }
            }
        }
    }
    assert_eq!(
        ctx.validation_message_count(),
        0,
        "{:#?}",
        ctx.validation_messages()
    );
    // The slots form, forced here, is made when a set is created only on devices without
    // 64-bit buffer atomics; elsewhere its pipeline was made while recording, once.
    let forced = u64::from(ctx.profile().int64_atomics);
    assert_eq!(ctx.pipelines_created_while_recording(), forced);
}

/// The status of `x op y`'s cardinality recorded on `path` (the status filled with a pattern
/// first, so that a pass that writes nothing shows).
fn recorded_cardinality(
    ctx: &vkalgo::Context,
    scratch: &GpuBuffer,
    status: &mut GpuBuffer,
    x: &GpuSet,
    y: &GpuSet,
    op: SetOp,
    path: CardinalityPath,
) -> SetOpStatus {
    status.mapped().unwrap()[..32].fill(0xA5);
    let range = status.sub_range(0, 32);
    recorded_status(ctx, status, |cmd| unsafe {
        let args = GpuSetCardinalityArgs::new(x, y, op, scratch.range(), range);
        GpuSet::record_op_cardinality(cmd, &GpuSetCardinalityArgs { path, ..args })
    })
}

/// Submits what `record` records into its command buffer (which writes a status to the first
/// 32 bytes of `status`), waits, and reads the status.
fn recorded_status(
    ctx: &vkalgo::Context,
    status: &mut GpuBuffer,
    record: impl FnOnce(vkalgo::ash::vk::CommandBuffer) -> vkalgo::Result<()>,
) -> SetOpStatus {
    ctx.submit_and_wait(|cmd| {
        record(cmd)?;
        unsafe { compute_to_host(ctx, cmd) };
        Ok(())
    })
    .unwrap();
    *bytemuck_from(&read_words(status, 8))
}

/// Values of every kind of chunk side by side in chunks `0..24` (both operands use the same
/// chunks, with kinds drawn per chunk and operand): empty, one value, small, medium and large
/// arrays, bitmaps, full chunks, one run, and run chunks of 2 to 60 runs (run_optimize turns
/// those of up to 48 runs into run chunks).
fn every_kind_values(rng: &mut Rng) -> Vec<u32> {
    let mut v = Vec::new();
    for c in 0..24u32 {
        chunk_of_any_kind(rng, c, &mut v);
    }
    v
}

/// Values of chunk `c` of a kind drawn at random (see [`every_kind_values`]) onto `v`.
fn chunk_of_any_kind(rng: &mut Rng, c: u32, v: &mut Vec<u32>) {
    {
        let base = c << 16;
        match rng.next_u32() % 9 {
            0 => {}
            1 => v.push(base | (rng.next_u32() & 0xFFFF)),
            2 => v.extend((0..1 + rng.next_u32() % 300).map(|_| base | (rng.next_u32() & 0xFFFF))),
            3 => v.extend((0..600 + rng.next_u32() % 1400).map(|_| base | (rng.next_u32() & 0xFFFF))),
            4 => v.extend((0..3000 + rng.next_u32() % 1096).map(|i| base | (i * 13 % 65536))),
            5 => v.extend((0..5000 + rng.next_u32() % 20_000).map(|_| base | (rng.next_u32() & 0xFFFF))),
            6 => v.extend(base..base + 65536),
            7 => {
                let first = rng.next_u32() % 60_000;
                v.extend(base + first..base + first + 1 + rng.next_u32() % (65536 - first));
            }
            _ => {
                let runs = 2 + rng.next_u32() % 59;
                v.extend(random_runs(rng, c, runs, 300, 700));
            }
        }
    }
}

/// Every operation on both paths (`OpPath::PairKernels`: each pair to the kernel of its kind;
/// `OpPath::OneKernel`: every pair to chunk_update.comp, which `Auto` takes for operands of
/// few array and bitmap blocks) over operands with every kind of chunk, some of them
/// run-optimized: into a new set (pools grown from nothing, the retry after the growth on the
/// same path), over a set of arrays, bitmaps and runs (its blocks reused or given back), in
/// place on either side, and on the one-pass path (the free blocks reserved first, the blocks
/// same blocks afterwards on both paths). The same result on both paths, the model's.
#[test]
fn op_paths() {
    let ctx = context();
    let mut rng = Rng(77);
    let over = {
        let mut v = every_kind_values(&mut rng);
        v.extend(runs_of(&[(30, 12, 40, 9)]));
        v
    };
    for round in 0..6 {
        let va = every_kind_values(&mut rng);
        let vb = every_kind_values(&mut rng);
        let (ma, mb) = (model_of(&va), model_of(&vb));
        let build = |values: &[u32], optimize: bool| {
            let mut s = GpuSet::from_values(&ctx, values).unwrap();
            if optimize {
                s.run_optimize().unwrap();
                s.shrink_to_fit().unwrap();
            }
            s
        };
        let (opt_a, opt_b) = (round % 2 == 1, round % 3 != 0);
        let (a, b) = (build(&va, opt_a), build(&vb, opt_b));
        let op = SetOp::ALL[round % 4];
        let mut blocks = Vec::new();
        for path in [OpPath::PairKernels, OpPath::OneKernel] {
            let what = |how: &str| format!("round {round}, {op:?} on {path:?}, {how}");
            let want = reference::op(&ma, &mb, op);
            let (sa, sb) = (SetOperand::Set(&a), SetOperand::Set(&b));
            let mut d = GpuSet::new(&ctx).unwrap();
            d.assign_on(sa, sb, op, path).unwrap();
            check(&d, &want, &what("into a new set"));
            let mut d = build(&over, true);
            d.assign_on(sa, sb, op, path).unwrap();
            check(&d, &want, &what("over runs, arrays and bitmaps"));
            d.assign_on(SetOperand::This, sb, op, path).unwrap();
            check(&d, &reference::op(&want, &mb, op), &what("in place, d = d op b"));
            let mut d = build(&va, opt_a);
            d.assign_on(sb, SetOperand::This, op, path).unwrap();
            check(&d, &reference::op(&mb, &ma, op), &what("in place, d = b op d"));
            let mut d = build(&over, false);
            d.reserve_for_op(sa, sb, op).unwrap();
            d.assign_on(sa, sb, op, path).unwrap();
            check(&d, &want, &what("on the one-pass path"));
            d.shrink_to_fit().unwrap();
            blocks.push(d.pool_blocks());
        }
        // Each chunk of the result in the same form whichever kernel wrote it.
        assert_eq!(
            blocks[0], blocks[1],
            "round {round}: blocks of the result on the two paths"
        );
    }
    assert_no_validation_messages(&ctx);
}

/// On `OpPath::OneKernel` chunk_update.comp alone counts what the result needs: recorded into
/// sets short of blocks, its status (blocks needed, the counted cardinality, the chunks
/// listed) is the pair kernels' status; one array block short, nothing is written; with the
/// blocks reserved, the result is the model's. Operands of run chunks, arrays and bitmaps in
/// hundreds of chunks, so that the counting is spread over many workgroups.
#[test]
fn one_kernel_counts_what_the_pair_kernels_count() {
    let ctx = context();
    let mut rng = Rng(91);
    let values = |rng: &mut Rng, shift: u32| {
        let mut v = Vec::new();
        for c in 0..400u32 {
            let runs = 2 + rng.next_u32() % 12;
            v.extend(random_runs(rng, c * 3 + shift, runs, 200, 400));
        }
        for c in 1200..1230u32 {
            v.extend((0..800 + rng.next_u32() % 2000).map(|_| c << 16 | (rng.next_u32() & 0xFFFF)));
        }
        for c in 1230..1240u32 {
            v.extend((0..6000).map(|_| c << 16 | (rng.next_u32() & 0xFFFF)));
        }
        v
    };
    let (va, vb) = (values(&mut rng, 0), values(&mut rng, 1));
    let mut a = GpuSet::from_values(&ctx, &va).unwrap();
    let mut b = GpuSet::from_values(&ctx, &vb).unwrap();
    for s in [&mut a, &mut b] {
        s.run_optimize().unwrap();
        s.shrink_to_fit().unwrap();
    }
    let (scratch, mut status) = scratch_and_status(&ctx);
    for op in SetOp::ALL {
        let want = reference::op(&model_of(&va), &model_of(&vb), op);
        let mut record = |d: &GpuSet, path: OpPath| {
            ctx.submit_and_wait(|cmd| unsafe {
                let (sa, sb) = (SetOperand::Set(&a), SetOperand::Set(&b));
                let args = GpuSetOpArgs::new(sa, sb, op, scratch.range(), status.sub_range(0, 32));
                d.record_op(cmd, &GpuSetOpArgs { path, ..args })?;
                compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap();
            *bytemuck_from(&read_words(&mut status, 8))
        };
        let pairs: SetOpStatus = record(&GpuSet::new(&ctx).unwrap(), OpPath::PairKernels);
        let mut d = GpuSet::new(&ctx).unwrap();
        let one: SetOpStatus = record(&d, OpPath::OneKernel);
        assert_eq!(one, pairs, "{op:?}: the status of the counting on both paths");
        assert_eq!(one.ok, 0, "{op:?}: a new set has no free block: {one:?}");
        assert!(one.need_array_blocks > 0, "{op:?}: {one:?}");
        d.reserve(one.need_bitmap_blocks, one.need_array_blocks - 1)
            .unwrap();
        let short = record(&d, OpPath::OneKernel);
        assert_eq!(short.ok, 0, "{op:?}: one array block short: {short:?}");
        assert_eq!(d.cardinality().unwrap(), 0, "{op:?}: nothing written");
        d.reserve(one.need_bitmap_blocks, one.need_array_blocks).unwrap();
        let done = record(&d, OpPath::OneKernel);
        assert_eq!(done.ok, 1, "{op:?}: {done:?}");
        check(&d, &want, &format!("{op:?} on one kernel, the blocks reserved"));
    }
    assert_no_validation_messages(&ctx);
}

/// Packed sets (`GpuSet::pack`: a directory of the non-empty chunks only, the runs of run
/// chunks as words of the array pool): chunks of every kind at every position of the index's
/// groups of 64 (0, 31, 32, 63, 64, ..., 65535). A packed set reads as the model (values,
/// serialization, contains, filter, range cardinalities, pools), takes less memory than flat,
/// serves as either operand or both of every operation on both paths and of every cardinality
/// path and batch; recording a write into it is refused and changes nothing, and the host
/// layer's writes unpack it first.
#[test]
fn packed_sets() {
    let ctx = context();
    let mut rng = Rng(4242);
    let chunk_ids = [
        0u32, 1, 31, 32, 33, 63, 64, 65, 127, 128, 1000, 4095, 30000, 65534, 65535,
    ];
    let values = |rng: &mut Rng| {
        let mut v = Vec::new();
        for &c in &chunk_ids {
            chunk_of_any_kind(rng, c, &mut v);
        }
        for _ in 0..20 {
            let c = rng.next_u32() % 65536;
            chunk_of_any_kind(rng, c, &mut v);
        }
        v
    };
    let (scratch, mut status) = scratch_and_status(&ctx);
    for round in 0..4 {
        let (va, vb) = (values(&mut rng), values(&mut rng));
        let (ma, mb) = (model_of(&va), model_of(&vb));
        let build = |v: &[u32], optimize: bool| {
            let mut s = GpuSet::from_values(&ctx, v).unwrap();
            if optimize {
                s.run_optimize().unwrap();
                s.shrink_to_fit().unwrap();
            }
            s
        };
        let what = |how: &str| format!("round {round}: {how}");
        let mut a = build(&va, round % 2 == 0);
        let flat_bytes = a.memory_bytes();
        a.pack().unwrap();
        a.pack().unwrap(); // packed already: nothing to do
        assert!(a.is_packed());
        assert!(a.memory_bytes() < flat_bytes, "{}", what("packed memory"));
        check(&a, &ma, &what("packed a"));
        let mut b = build(&vb, round % 3 == 0);
        if round % 2 == 1 {
            b.pack().unwrap();
            check(&b, &mb, &what("packed b"));
        }
        // Single-set reads.
        let mut queries: Vec<u32> = va.iter().step_by(7).copied().collect();
        queries.extend((0..3000).map(|_| rng.next_u32()));
        queries.extend(
            chunk_ids
                .iter()
                .flat_map(|&c| [c << 16, c << 16 | 0xFFFF, c << 16 | 777]),
        );
        let mut found = vec![false; queries.len()];
        a.contains(&queries, &mut found).unwrap();
        for (q, f) in queries.iter().zip(&found) {
            assert_eq!(*f, ma.contains(q), "{}", what(&format!("contains {q}")));
        }
        let kept: Vec<u32> = queries.iter().copied().filter(|q| ma.contains(q)).collect();
        assert_eq!(a.filter(&queries).unwrap(), kept, "{}", what("filter"));
        for (begin, end) in [
            (0u64, 1u64 << 32),
            (5, 70 << 16),
            (31 << 16 | 9, 65 << 16 | 3),
            (65535 << 16, 1 << 32),
        ] {
            let want = ma
                .range(begin as u32..)
                .take_while(|&&v| (v as u64) < end)
                .count() as u64;
            let want = if begin >= 1 << 32 { 0 } else { want };
            assert_eq!(
                a.range_cardinality(begin, end).unwrap(),
                want,
                "{}",
                what(&format!("range [{begin}, {end})"))
            );
        }
        // Operands of operations and cardinalities.
        let mut card = |x: &GpuSet, y: &GpuSet, op: SetOp, path: CardinalityPath| -> u64 {
            let st = recorded_cardinality(&ctx, &scratch, &mut status, x, y, op, path);
            assert_eq!(st.ok, 1);
            st.cardinality()
        };
        for op in SetOp::ALL {
            for (x, y, mx, my, which) in [
                (&a, &b, &ma, &mb, "a op b"),
                (&b, &a, &mb, &ma, "b op a"),
                (&a, &a, &ma, &ma, "a op a"),
            ] {
                let want = reference::op(mx, my, op);
                for path in [OpPath::PairKernels, OpPath::OneKernel] {
                    let mut d = GpuSet::new(&ctx).unwrap();
                    d.assign_on(SetOperand::Set(x), SetOperand::Set(y), op, path)
                        .unwrap();
                    check(&d, &want, &what(&format!("{which}, {op:?} on {path:?}")));
                }
                for path in [
                    CardinalityPath::Passes,
                    CardinalityPath::OnePass,
                    CardinalityPath::Auto,
                ] {
                    let got = card(x, y, op, path);
                    assert_eq!(
                        got,
                        want.len() as u64,
                        "{}",
                        what(&format!("{which}, {op:?} cardinality on {path:?}"))
                    );
                }
            }
            let batch = GpuSet::op_cardinality_batch(&[(&a, &b), (&b, &a)], op).unwrap();
            let want = [
                reference::op(&ma, &mb, op).len() as u64,
                reference::op(&mb, &ma, op).len() as u64,
            ];
            assert_eq!(batch, want, "{}", what(&format!("{op:?} cardinality batch")));
        }
        // Recorded, with the blocks of the bound reserved (reserve_for_op reads packed
        // operands' directories).
        let op = SetOp::ALL[(round + 1) % 4];
        let mut d = build(&va, false);
        d.reserve_for_op(SetOperand::Set(&a), SetOperand::Set(&b), op)
            .unwrap();
        let range = status.sub_range(0, 32);
        let (sa, sb) = (SetOperand::Set(&a), SetOperand::Set(&b));
        let reserved = recorded_status(&ctx, &mut status, |cmd| unsafe {
            let args = GpuSetOpArgs::new(sa, sb, op, scratch.range(), range);
            d.record_op(
                cmd,
                &GpuSetOpArgs {
                    reserved: true,
                    ..args
                },
            )
        });
        assert_eq!(reserved.ok, 1, "{}", what("reserved op"));
        check(
            &d,
            &reference::op(&ma, &mb, op),
            &what(&format!("recorded reserved {op:?}")),
        );
        // Recording a write into a packed set is refused and records nothing.
        let before = a.to_vec().unwrap();
        let refused = ctx.submit_and_wait(|cmd| unsafe {
            a.record_op(
                cmd,
                &GpuSetOpArgs::new(
                    SetOperand::This,
                    SetOperand::Set(&b),
                    SetOp::Or,
                    scratch.range(),
                    status.sub_range(0, 32),
                ),
            )
        });
        assert!(matches!(refused, Err(Error::InvalidArgument(_))), "{refused:?}");
        let refused = ctx.submit_and_wait(|cmd| unsafe {
            a.record_insert_range(
                cmd,
                &GpuSetInsertRangeArgs {
                    begin: 5,
                    end: 10,
                    scratch: scratch.range(),
                    status: status.sub_range(0, 32),
                },
            )
        });
        assert!(matches!(refused, Err(Error::InvalidArgument(_))), "{refused:?}");
        assert_eq!(
            a.to_vec().unwrap(),
            before,
            "{}",
            what("after the refused writes")
        );
        assert!(a.is_packed());
        // The host layer's writes unpack.
        let op = SetOp::ALL[round];
        a.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
        assert!(!a.is_packed());
        let ma2 = reference::op(&ma, &mb, op);
        check(&a, &ma2, &what(&format!("a = a {op:?} b, a packed before")));
        a.pack().unwrap();
        a.unpack().unwrap();
        assert!(!a.is_packed());
        check(&a, &ma2, &what("packed and unpacked"));
        a.pack().unwrap();
        a.insert(&[7, 1 << 31]).unwrap();
        let mut ma3 = ma2.clone();
        ma3.extend([7, 1 << 31]);
        check(&a, &ma3, &what("insert into a packed set"));
    }
    // At most PACK_MAX_CHUNKS non-empty chunks are packed; a set with more stays flat.
    for chunks in [PACK_MAX_CHUNKS, PACK_MAX_CHUNKS + 1] {
        let values: Vec<u32> = (0..chunks).map(|c| c << 16 | (c % 65536)).collect();
        let mut s = GpuSet::from_values(&ctx, &values).unwrap();
        s.pack().unwrap();
        assert_eq!(s.is_packed(), chunks <= PACK_MAX_CHUNKS, "{chunks} chunks");
        check(&s, &model_of(&values), &format!("{chunks} chunks after pack"));
    }
    assert_no_validation_messages(&ctx);
    assert_eq!(ctx.pipelines_created_while_recording(), 0);
}

/// Untrusted Roaring files cost time and host memory linear in their size: the whole universe
/// as CRoaring writes it (925,700 bytes; read value by value it took seconds) and 65,536 chunks
/// of one 5,000-value run (an 8 KiB bitmap each, 512 MiB, when read value by value) become
/// directory entries of full and run chunks, no pool block, and write back the same bytes.
#[test]
fn run_files_read_in_linear_time_and_memory() {
    let ctx = context();
    let mut full = GpuSet::new(&ctx).unwrap();
    full.insert_range(0, 1 << 32).unwrap();
    let universe = full.serialize().unwrap();
    assert_eq!(universe.len(), 925_700);
    let runs = vkalgo::set::reference::serialize_runs(65536, |k| vec![((k * 7) as u16 % 60_000, 5000)]);
    // In chunk 3 (a run from 21), 5000 (just past chunk 0's run [0, 5000)), 2^32 - 1.
    let queries = [21 + 3 * 65536, 5000, u32::MAX];
    for (what, bytes, cardinality, want) in [
        ("the universe", &universe, 1u64 << 32, [true; 3]),
        ("runs of 5,000", &runs, 65536 * 5000, [true, false, false]),
    ] {
        let start = std::time::Instant::now();
        let read = GpuSet::deserialize(&ctx, bytes).unwrap();
        let took = start.elapsed();
        assert_eq!(read.cardinality().unwrap(), cardinality, "{what}");
        assert_eq!(read.pool_blocks(), (0, 0), "{what}: only directory entries");
        assert!(took.as_secs_f64() < 10.0, "{what}: {took:?}");
        assert_eq!(&read.serialize().unwrap(), bytes, "{what}");
        let mut found = [false; 3];
        read.contains(&queries, &mut found).unwrap();
        assert_eq!(found, want, "{what}");
    }
    assert_no_validation_messages(&ctx);
}

/// A C context (`vkalgo_context_create_external`) over `ctx`'s instance, device AND queue, so
/// that sets can be created and read through the C ABI's `_host` calls and recorded into
/// `ctx`'s command buffers (the test makes one call at a time: the queue lock does nothing).
unsafe fn c_context_with_queue(ctx: &vkalgo::Context) -> *mut vkalgo_ffi::VkalgoContext {
    use std::ffi::c_void;
    use vkalgo::ash::vk::{self, Handle};
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    unsafe extern "C" fn no_lock(_user_data: *mut c_void, _lock: u32) {}
    let entry = vkalgo::ash::Entry::load().expect("Vulkan loader");
    let queue = ctx.device().get_device_queue(ctx.queue_family_index(), 0);
    let flag = |on: bool, bit: u32| if on { bit } else { 0 };
    let desc = VkalgoExternalContextDesc {
        instance: VkInstance(ctx.instance().handle().as_raw() as *mut c_void),
        physical_device: VkPhysicalDevice(ctx.physical_device().as_raw() as *mut c_void),
        device: VkDevice(ctx.device().handle().as_raw() as *mut c_void),
        queue_family_index: ctx.queue_family_index(),
        queue: VkQueue(queue.as_raw() as *mut c_void),
        get_instance_proc_addr: Some(std::mem::transmute::<
            vk::PFN_vkGetInstanceProcAddr,
            unsafe extern "system" fn(VkInstance, *const std::ffi::c_char) -> *const c_void,
        >(entry.static_fn().get_instance_proc_addr)),
        flags: flag(ctx.profile().int64_atomics, VKALGO_CONTEXT_INT64_ATOMICS_ENABLED)
            | flag(ctx.profile().int16, VKALGO_CONTEXT_INT16_ENABLED),
        queue_lock: Some(no_lock),
        ..Default::default()
    };
    let mut cctx = std::ptr::null_mut();
    assert_eq!(
        vkalgo_context_create_external(&desc, &mut cctx),
        VkalgoResult::VkalgoSuccess
    );
    cctx
}

/// The sets' record layer through the C ABI (`vkalgo_set_record_*`), each result compared
/// exactly with the CPU model: an operation into a third set (refused first by its empty
/// pools: status `ok` 0 and nothing written; then reserved with `reserve_for_op_host` and
/// recorded on the one-pass path alone) and into an operand itself, the cardinalities of
/// every operation, a batch of them, a sorted insert and a removal, a range, run_optimize, an
/// unsorted insert through an insert plan with an indirect count, contains, filter, to_array
/// and a range cardinality (with barriers between them); then refused calls (NULL pointers, a
/// non-NULL `next`, bad counts, ranges, flags, sizes, alignments, overlaps) in one command
/// buffer that changes nothing.
#[test]
fn c_abi_set_record_layer() {
    use std::ffi::c_void;
    use std::ptr::{null, null_mut};
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::set::*;
    use vkalgo_ffi::set_record::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let ctx = context();
    let ok = VkalgoResult::VkalgoSuccess;
    let invalid = VkalgoResult::VkalgoErrorInvalidArgument;
    let ops = [
        (VKALGO_SET_AND, SetOp::And),
        (VKALGO_SET_OR, SetOp::Or),
        (VKALGO_SET_ANDNOT, SetOp::AndNot),
        (VKALGO_SET_XOR, SetOp::Xor),
    ];
    unsafe {
        let cctx = c_context_with_queue(&ctx);
        let range = |b: &GpuBuffer, offset: u64, size: u64| VkalgoBufferRange {
            buffer: VkBuffer(b.buffer().as_raw()),
            offset,
            size,
        };
        let none = VkalgoBufferRange {
            buffer: VkBuffer(0),
            offset: 0,
            size: 0,
        };
        let submit = |record: &dyn Fn(VkCommandBuffer)| {
            ctx.submit_and_wait(|cmd| {
                record(VkCommandBuffer(cmd.as_raw() as *mut c_void));
                compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap();
        };
        let upload = |buf: &mut GpuBuffer, at: usize, data: &[u32]| {
            buf.mapped().unwrap()[at * 4..(at + data.len()) * 4].copy_from_slice(bytemuck_cast(data));
        };
        let read_status = |buf: &mut GpuBuffer, i: usize| -> VkalgoSetOpStatus {
            let bytes = &buf.mapped().unwrap()[32 * i..32 * i + 32];
            std::ptr::read_unaligned(bytes.as_ptr() as *const VkalgoSetOpStatus)
        };
        let to_vec = |s: *const VkalgoSet| -> Vec<u32> {
            let mut card = 0u64;
            assert_eq!(vkalgo_set_cardinality_host(s, &mut card), ok);
            let mut out = vec![0u32; card as usize];
            let mut n = 0usize;
            assert_eq!(
                vkalgo_set_to_array_host(s, out.as_mut_ptr(), out.len(), &mut n),
                ok
            );
            assert_eq!(n as u64, card);
            out
        };
        let same = |s: *const VkalgoSet, model: &BTreeSet<u32>, what: &str| {
            let got = to_vec(s);
            let want: Vec<u32> = model.iter().copied().collect();
            assert_eq!(got.len(), want.len(), "{what}: cardinality");
            assert!(got == want, "{what}: values differ");
        };

        // What the record calls need: one scratch of SET_SCRATCH_BYTES (16-byte aligned), and
        // statuses of VKALGO_SET_STATUS_BYTES that C reads as VkalgoSetOpStatus.
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(vkalgo_set_record_requirements(cctx, &mut req), ok);
        assert_eq!((req.scratch.size, req.scratch.alignment), (SET_SCRATCH_BYTES, 16));
        assert_eq!(req.scratch.usage, vkalgo::BUFFER_USAGE.as_raw());
        assert_eq!(req.storage.size + req.keys_alt.size + req.offsets.size, 0);
        assert_eq!(VKALGO_SET_STATUS_BYTES as u64, SET_STATUS_BYTES);
        assert_eq!(std::mem::size_of::<VkalgoSetOpStatus>() as u64, SET_STATUS_BYTES);
        let scratch = GpuBuffer::new(&ctx, 2 * req.scratch.size, MemoryLocation::GpuOnly, "scratch").unwrap();
        let one_scratch = range(&scratch, 0, req.scratch.size);
        let mut status = GpuBuffer::new(&ctx, 32 * 16, MemoryLocation::GpuToCpu, "statuses").unwrap();
        let st: Vec<VkalgoBufferRange> = (0..16).map(|i| range(&status, 32 * i, 32)).collect();

        // Sets through the C ABI: a and b from a few thousand values, c empty (no blocks).
        let mut rng = Rng(0xc0ab_5e75);
        let va = mixed_values(&mut rng, 3000, 7 << 16);
        let vb = mixed_values(&mut rng, 3000, (7 << 16) + 9000);
        let new_set = |values: &[u32]| {
            let mut s = null_mut();
            assert_eq!(vkalgo_set_create(cctx, &VkalgoSetDesc::default(), &mut s), ok);
            assert_eq!(vkalgo_set_insert_host(s, values.as_ptr(), values.len()), ok);
            s
        };
        let (a, b, c) = (new_set(&va), new_set(&vb), new_set(&[]));
        let (mut ma, mut mb) = (model_of(&va), model_of(&vb));
        let op_args = |x: *const VkalgoSet, y: *const VkalgoSet, op, reserved, status| VkalgoSetOpArgs {
            a: x,
            b: y,
            op,
            reserved,
            scratch: one_scratch,
            status,
            ..Default::default()
        };

        // c = a OR b with no free block in c: nothing written, the status says what it needs.
        submit(&|cmd| {
            assert_eq!(
                vkalgo_set_record_op(c, cmd, &op_args(a, b, VKALGO_SET_OR, 0, st[0])),
                ok
            )
        });
        let s = read_status(&mut status, 0);
        assert_eq!(s.ok, 0, "empty pools: {s:?}");
        assert!(s.need_array_blocks > s.free_array_blocks, "{s:?}");
        same(c, &BTreeSet::new(), "c after the refused op");
        // With the bound reserved, the one-pass path alone (reserved = 1) writes it.
        assert_eq!(vkalgo_set_reserve_for_op_host(c, a, b, VKALGO_SET_OR), ok);
        submit(&|cmd| {
            assert_eq!(
                vkalgo_set_record_op(c, cmd, &op_args(a, b, VKALGO_SET_OR, 1, st[0])),
                ok
            )
        });
        let s = read_status(&mut status, 0);
        assert_eq!(s.ok, 1, "reserved: {s:?}");
        let mut mc = reference::op(&ma, &mb, SetOp::Or);
        same(c, &mc, "c = a OR b");
        // a = a XOR b in place (the destination as operand: the same pointer).
        assert_eq!(vkalgo_set_reserve_for_op_host(a, a, b, VKALGO_SET_XOR), ok);
        submit(&|cmd| {
            assert_eq!(
                vkalgo_set_record_op(a, cmd, &op_args(a, b, VKALGO_SET_XOR, 0, st[1])),
                ok
            )
        });
        assert_eq!(read_status(&mut status, 1).ok, 1);
        ma = reference::op(&ma, &mb, SetOp::Xor);
        same(a, &ma, "a = a XOR b");

        // The cardinality of every operation, one command buffer (a barrier between them: the
        // one-pass count keeps its workgroup count in a's memory).
        submit(&|cmd| {
            for (i, &(op, _)) in ops.iter().enumerate() {
                let args = VkalgoSetCardinalityArgs {
                    a,
                    b: c,
                    op,
                    scratch: one_scratch,
                    status: st[i],
                    ..Default::default()
                };
                assert_eq!(vkalgo_set_record_op_cardinality(cmd, &args), ok);
                assert_eq!(vkalgo_set_record_barrier(a, cmd), ok);
            }
        });
        for (i, &(_, op)) in ops.iter().enumerate() {
            let s = read_status(&mut status, i);
            assert_eq!(s.ok, 1, "{op:?} cardinality: {s:?}");
            assert_eq!(
                vkalgo_set_op_status_cardinality(&s),
                reference::op(&ma, &mc, op).len() as u64,
                "{op:?} cardinality"
            );
        }
        // A batch: three pairs sharing sets, two scratches.
        let (first, second) = ([a as *const VkalgoSet, b, c], [b as *const VkalgoSet, a, b]);
        let batch = VkalgoSetCardinalityBatchArgs {
            a: first.as_ptr(),
            b: second.as_ptr(),
            count: 3,
            op: VKALGO_SET_ANDNOT,
            scratch: range(&scratch, 0, 2 * req.scratch.size),
            statuses: range(&status, 32 * 4, 3 * 32),
            ..Default::default()
        };
        submit(&|cmd| assert_eq!(vkalgo_set_record_op_cardinality_batch(cmd, &batch), ok));
        for (i, (x, y)) in [(&ma, &mb), (&mb, &ma), (&mc, &mb)].into_iter().enumerate() {
            let s = read_status(&mut status, 4 + i);
            assert_eq!(s.ok, 1, "batch pair {i}: {s:?}");
            assert_eq!(
                vkalgo_set_op_status_cardinality(&s),
                reference::op(x, y, SetOp::AndNot).len() as u64,
                "batch pair {i}"
            );
        }

        // Writes that may need blocks: recorded, and when the status reports a shortfall,
        // recorded again after vkalgo_set_reserve_host of what it needed.
        let mut status_cell = Some(status);
        let mut write =
            |set: *mut VkalgoSet, what: &str, record: &dyn Fn(VkCommandBuffer) -> VkalgoResult| {
                let status = status_cell.as_mut().unwrap();
                for attempt in 0..2 {
                    submit(&|cmd| assert_eq!(record(cmd), ok, "{what}"));
                    let s = read_status(status, 0);
                    if s.ok == 1 {
                        return;
                    }
                    assert_eq!(attempt, 0, "{what}: short again after the reservation: {s:?}");
                    assert_eq!(
                        vkalgo_set_reserve_host(set, s.need_bitmap_blocks, s.need_array_blocks),
                        ok
                    );
                }
            };
        let mut values = GpuBuffer::new(&ctx, 4 * 4096, MemoryLocation::CpuToGpu, "values").unwrap();
        // Sorted values with duplicates into b, then half of them removed again.
        let mut sorted: Vec<u32> = (0..1500)
            .map(|_| 0x4000_0000 + rng.next_u32() % 300_000)
            .collect();
        sorted.extend_from_within(..100);
        sorted.sort_unstable();
        upload(&mut values, 0, &sorted);
        let sorted_args = |values: &GpuBuffer, n: usize, remove| VkalgoSetInsertSortedArgs {
            sorted: range(values, 0, 4 * n as u64),
            count: n as u64,
            remove,
            scratch: one_scratch,
            status: st[0],
            ..Default::default()
        };
        write(b, "insert_sorted", &|cmd| {
            vkalgo_set_record_insert_sorted(b, cmd, &sorted_args(&values, sorted.len(), 0))
        });
        mb.extend(&sorted);
        same(b, &mb, "b after insert_sorted");
        let half = sorted.len() / 2;
        write(b, "remove sorted", &|cmd| {
            vkalgo_set_record_insert_sorted(b, cmd, &sorted_args(&values, half, 1))
        });
        for v in &sorted[..half] {
            mb.remove(v);
        }
        same(b, &mb, "b after the removal");
        // A range over three chunks (the middle one full) into b.
        let (begin, end) = ((0x5000_0000u64) - 3, 0x5000_0000u64 + 65536 + 70);
        let range_args = VkalgoSetInsertRangeArgs {
            begin,
            end,
            scratch: one_scratch,
            status: st[0],
            ..Default::default()
        };
        write(b, "insert_range", &|cmd| {
            vkalgo_set_record_insert_range(b, cmd, &range_args)
        });
        mb.extend(begin as u32..end as u32);
        same(b, &mb, "b after insert_range");
        // run_optimize: the same values, in their smallest forms.
        let optimize = VkalgoSetRunOptimizeArgs {
            scratch: one_scratch,
            status: st[0],
            ..Default::default()
        };
        write(b, "run_optimize", &|cmd| {
            vkalgo_set_record_run_optimize(b, cmd, &optimize)
        });
        same(b, &mb, "b after run_optimize");
        let mut bytes = 0usize;
        assert_eq!(vkalgo_set_serialize_host(b, null_mut(), 0, &mut bytes), ok);
        let mut file = vec![0u8; bytes];
        assert_eq!(
            vkalgo_set_serialize_host(b, file.as_mut_ptr().cast(), bytes, &mut bytes),
            ok
        );
        assert_eq!(
            file,
            reference::serialize(&mb),
            "b's serialization after run_optimize"
        );

        // Unsorted values with duplicates into c through an insert plan, the count indirect
        // (the first 1200 of 1300).
        let mut plan = null_mut();
        let plan_desc = VkalgoSetInsertPlanDesc {
            max_count: 1300,
            ..Default::default()
        };
        assert_eq!(vkalgo_set_insert_plan_create(cctx, &plan_desc, &mut plan), ok);
        let mut plan_req = VkalgoMemoryRequirements::default();
        assert_eq!(
            vkalgo_set_insert_plan_memory_requirements(plan, &mut plan_req),
            ok
        );
        let unsorted: Vec<u32> = (0..1300).map(|i| 0x6000_0000 + (i * 7919 % 1100) * 181).collect();
        upload(&mut values, 0, &unsorted);
        upload(&mut values, 2048, &[1200]);
        let alt = GpuBuffer::new(
            &ctx,
            plan_req.keys_alt.size.max(4),
            MemoryLocation::GpuOnly,
            "alt",
        )
        .unwrap();
        let sort_scratch = GpuBuffer::new(
            &ctx,
            plan_req.scratch.size.max(4),
            MemoryLocation::GpuOnly,
            "sort scratch",
        )
        .unwrap();
        assert_eq!(vkalgo_set_reserve_host(c, 2, 64), ok);
        let insert = VkalgoSetInsertArgs {
            plan,
            values: range(&values, 0, 4 * 1300),
            values_alt: range(&alt, 0, plan_req.keys_alt.size.max(4)),
            sort_scratch: range(&sort_scratch, 0, plan_req.scratch.size.max(4)),
            count_buffer: range(&values, 4 * 2048, 4),
            scratch: one_scratch,
            status: st[0],
            ..Default::default()
        };
        let mut status = status_cell.take().unwrap();
        submit(&|cmd| assert_eq!(vkalgo_set_record_insert(c, cmd, &insert), ok));
        assert_eq!(read_status(&mut status, 0).ok, 1, "insert with room reserved");
        mc.extend(&unsorted[..1200]);
        same(c, &mc, "c after the unsorted insert");
        vkalgo_set_insert_plan_destroy(plan);

        // Readers of a in one command buffer: contains, filter, to_array, range cardinality.
        let mut queries: Vec<u32> = ma.iter().copied().step_by(3).collect();
        queries.extend((0..1000).map(|_| rng.next_u32()));
        upload(&mut values, 0, &queries);
        let n = queries.len() as u64;
        let card = ma.len() as u64;
        let mut out = GpuBuffer::new(&ctx, 4 * (2 * n + card + 16), MemoryLocation::GpuToCpu, "out").unwrap();
        let (flags_at, kept_at, array_at, counts_at) = (0, n, 2 * n, 2 * n + card);
        let (rb, re) = (7u64 << 16, (7u64 << 16) + 20_000);
        submit(&|cmd| {
            let contains = VkalgoSetContainsArgs {
                values: range(&values, 0, 4 * n),
                count: n,
                flags: range(&out, 4 * flags_at, 4 * n),
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_contains(a, cmd, &contains), ok);
            let filter = VkalgoSetFilterArgs {
                values: range(&values, 0, 4 * n),
                count: n,
                out: range(&out, 4 * kept_at, 4 * n),
                out_count: range(&out, 4 * counts_at, 4),
                scratch: one_scratch,
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_filter(a, cmd, &filter), ok);
            assert_eq!(vkalgo_set_record_barrier(a, cmd), ok);
            let to_array = VkalgoSetToArrayArgs {
                out: range(&out, 4 * array_at, 4 * card),
                capacity: card,
                count_out: range(&out, 4 * (counts_at + 2), 8),
                scratch: one_scratch,
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_to_array(a, cmd, &to_array), ok);
            let range_card = VkalgoSetRangeCardinalityArgs {
                begin: rb,
                end: re,
                out: range(&out, 4 * (counts_at + 4), 8),
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_range_cardinality(a, cmd, &range_card), ok);
        });
        let words = read_words(&mut out, (counts_at + 6) as usize);
        let word = |i: u64| words[i as usize];
        let flags: Vec<u32> = (0..n).map(|i| word(flags_at + i)).collect();
        let want_flags: Vec<u32> = queries.iter().map(|q| ma.contains(q) as u32).collect();
        assert_eq!(flags, want_flags, "contains");
        let want_kept: Vec<u32> = queries.iter().copied().filter(|q| ma.contains(q)).collect();
        assert_eq!(word(counts_at) as usize, want_kept.len(), "filter count");
        let kept: Vec<u32> = (0..want_kept.len() as u64).map(|i| word(kept_at + i)).collect();
        assert_eq!(kept, want_kept, "filter");
        let array: Vec<u32> = (0..card).map(|i| word(array_at + i)).collect();
        assert!(array.iter().copied().eq(ma.iter().copied()), "to_array");
        assert_eq!(
            word(counts_at + 2) as u64 | (word(counts_at + 3) as u64) << 32,
            card,
            "to_array count"
        );
        assert_eq!(
            word(counts_at + 4) as u64 | (word(counts_at + 5) as u64) << 32,
            ma.range(rb as u32..re as u32).count() as u64,
            "range cardinality"
        );

        // Refused calls: each records nothing, so the command buffer holding them all changes
        // neither the statuses (a pattern) nor the sets. (A packed destination is refused by
        // the Rust layer: packed_sets.)
        status.mapped().unwrap().fill(0xA5);
        let pattern = status.mapped().unwrap().to_vec();
        let mut plan = null_mut();
        assert_eq!(vkalgo_set_insert_plan_create(cctx, &plan_desc, &mut plan), ok);
        let next = &req as *const VkalgoMemoryRequirements as *const c_void;
        submit(&|cmd| {
            let good = op_args(a, b, VKALGO_SET_OR, 0, st[0]);
            let null_cmd = VkCommandBuffer(null_mut());
            for (args, what) in [
                (VkalgoSetOpArgs { next, ..good }, "next"),
                (VkalgoSetOpArgs { a: null(), ..good }, "a NULL"),
                (VkalgoSetOpArgs { b: null(), ..good }, "b NULL"),
                (
                    VkalgoSetOpArgs {
                        op: VkalgoSetOp(4),
                        ..good
                    },
                    "unknown op",
                ),
                (VkalgoSetOpArgs { reserved: 2, ..good }, "reserved 2"),
                (
                    VkalgoSetOpArgs {
                        scratch: range(&scratch, 0, SET_SCRATCH_BYTES - 16),
                        ..good
                    },
                    "scratch too small",
                ),
                (
                    VkalgoSetOpArgs {
                        scratch: range(&scratch, 8, SET_SCRATCH_BYTES),
                        ..good
                    },
                    "scratch misaligned",
                ),
                (
                    VkalgoSetOpArgs {
                        scratch: none,
                        ..good
                    },
                    "no scratch",
                ),
                (
                    VkalgoSetOpArgs {
                        status: range(&status, 0, 16),
                        ..good
                    },
                    "status too small",
                ),
                (
                    VkalgoSetOpArgs {
                        status: range(&scratch, 0, 32),
                        ..good
                    },
                    "status in the scratch",
                ),
            ] {
                assert_eq!(vkalgo_set_record_op(a, cmd, &args), invalid, "op: {what}");
            }
            assert_eq!(vkalgo_set_record_op(a, cmd, null()), invalid);
            assert_eq!(vkalgo_set_record_op(null_mut(), cmd, &good), invalid);
            assert_eq!(vkalgo_set_record_op(a, null_cmd, &good), invalid);
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message());
            assert!(!message.to_bytes().is_empty());
            let card = VkalgoSetCardinalityArgs {
                a,
                b,
                op: VKALGO_SET_AND,
                scratch: one_scratch,
                status: st[0],
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_op_cardinality(cmd, null()), invalid);
            assert_eq!(vkalgo_set_record_op_cardinality(null_cmd, &card), invalid);
            assert_eq!(
                vkalgo_set_record_op_cardinality(cmd, &VkalgoSetCardinalityArgs { next, ..card }),
                invalid
            );
            assert_eq!(
                vkalgo_set_record_op_cardinality(cmd, &VkalgoSetCardinalityArgs { b: null(), ..card }),
                invalid
            );
            let pairs_with_null = [a as *const VkalgoSet, null()];
            for args in [
                VkalgoSetCardinalityBatchArgs { next, ..batch },
                VkalgoSetCardinalityBatchArgs { a: null(), ..batch },
                VkalgoSetCardinalityBatchArgs {
                    b: pairs_with_null.as_ptr(),
                    count: 2,
                    ..batch
                },
                VkalgoSetCardinalityBatchArgs {
                    statuses: range(&status, 0, 2 * 32),
                    ..batch
                },
            ] {
                assert_eq!(vkalgo_set_record_op_cardinality_batch(cmd, &args), invalid);
            }
            let sorted = sorted_args(&values, 10, 0);
            for args in [
                VkalgoSetInsertSortedArgs { next, ..sorted },
                VkalgoSetInsertSortedArgs { remove: 2, ..sorted },
                VkalgoSetInsertSortedArgs {
                    count: (1 << 24) + 1,
                    ..sorted
                },
                VkalgoSetInsertSortedArgs {
                    count_buffer: range(&values, 4 * 2048, 4),
                    max_count: (1 << 24) + 1,
                    ..sorted
                },
            ] {
                assert_eq!(vkalgo_set_record_insert_sorted(a, cmd, &args), invalid);
            }
            for args in [
                VkalgoSetInsertRangeArgs { next, ..range_args },
                VkalgoSetInsertRangeArgs {
                    begin: 9,
                    end: 8,
                    ..range_args
                },
                VkalgoSetInsertRangeArgs {
                    end: (1 << 32) + 1,
                    ..range_args
                },
            ] {
                assert_eq!(vkalgo_set_record_insert_range(a, cmd, &args), invalid);
            }
            assert_eq!(
                vkalgo_set_record_run_optimize(a, cmd, &VkalgoSetRunOptimizeArgs { next, ..optimize }),
                invalid
            );
            let insert = VkalgoSetInsertArgs { plan, ..insert };
            for args in [
                VkalgoSetInsertArgs { next, ..insert },
                VkalgoSetInsertArgs {
                    plan: null(),
                    ..insert
                },
                VkalgoSetInsertArgs {
                    count_buffer: none,
                    count: 1301,
                    ..insert
                },
                VkalgoSetInsertArgs {
                    status: none,
                    ..insert
                },
            ] {
                assert_eq!(vkalgo_set_record_insert(a, cmd, &args), invalid);
            }
            let contains = VkalgoSetContainsArgs {
                values: none,
                count: 5,
                flags: range(&status, 0, 20),
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_contains(a, cmd, &contains), invalid);
            let filter = VkalgoSetFilterArgs {
                next,
                values: range(&values, 0, 40),
                count: 10,
                out: range(&status, 0, 40),
                out_count: range(&status, 64, 4),
                scratch: one_scratch,
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_filter(a, cmd, &filter), invalid);
            let to_array = VkalgoSetToArrayArgs {
                out: range(&status, 0, 64),
                capacity: 16,
                count_out: range(&status, 64, 8),
                scratch: none,
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_to_array(a, cmd, &to_array), invalid);
            let range_card = VkalgoSetRangeCardinalityArgs {
                begin: 10,
                end: 9,
                out: range(&status, 0, 8),
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_range_cardinality(a, cmd, &range_card), invalid);
            assert_eq!(vkalgo_set_record_barrier(null(), cmd), invalid);
            assert_eq!(vkalgo_set_record_barrier(a, null_cmd), invalid);
        });
        assert!(
            status.mapped().unwrap().to_vec() == pattern,
            "a refused call wrote"
        );
        vkalgo_set_insert_plan_destroy(plan);
        same(a, &ma, "a after the refused calls");
        same(b, &mb, "b after the refused calls");
        same(c, &mc, "c after the refused calls");
        // Refused host calls and queries.
        let mut with_next = VkalgoMemoryRequirements {
            next: &mut req as *mut VkalgoMemoryRequirements as *mut c_void,
            ..Default::default()
        };
        assert_eq!(vkalgo_set_record_requirements(cctx, &mut with_next), invalid);
        assert_eq!(vkalgo_set_record_requirements(cctx, null_mut()), invalid);
        let mut plan = null_mut();
        let too_many = VkalgoSetInsertPlanDesc {
            max_count: (1 << 24) + 1,
            ..Default::default()
        };
        assert_eq!(vkalgo_set_insert_plan_create(cctx, &too_many, &mut plan), invalid);
        let with_next = VkalgoSetInsertPlanDesc { next, ..plan_desc };
        assert_eq!(
            vkalgo_set_insert_plan_create(cctx, &with_next, &mut plan),
            invalid
        );
        assert!(plan.is_null());
        assert_eq!(vkalgo_set_reserve_host(null_mut(), 1, 1), invalid);
        assert_eq!(
            vkalgo_set_reserve_for_op_host(a, a, null(), VKALGO_SET_OR),
            invalid
        );
        assert_eq!(vkalgo_set_reserve_for_op_host(a, a, b, VkalgoSetOp(7)), invalid);

        for s in [a, b, c] {
            vkalgo_set_destroy(s);
        }
        vkalgo_context_destroy(cctx);
    }
    assert_no_validation_messages(&ctx);
}
