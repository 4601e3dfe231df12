//! Sets through the host layer, against the model: builds, ranges, operations, random
//! sequences, results over old blocks, the full universe, pool thresholds and growth, shrinking,
//! in-place operations, the host's cardinality cache.

use super::*;

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
}
