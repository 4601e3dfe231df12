//! Run chunks: the cardinality batches side by side, run chunks, run pairs.

use super::*;

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
}
