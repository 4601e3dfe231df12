//! The kernel paths: one pass and counting, inserts and removals, filters, cardinalities,
//! operations, the one kernel against the pair kernels.

use super::*;

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
}

/// The record layer's filter on each path (count-scan-write; one pass with look-back, its
/// fallback forced for every tile, taken after one poll, and at its CPU default) against the
/// CPU: sizes around the tiles (64 or 256 values; the one pass 4 times as many), direct and indirect counts (the indirect one
/// below the maximum), duplicates, values in and out of sparse and dense chunks; the output
/// past the kept values stays untouched.
#[test]
fn filter_paths() {
    let ctx = context();
    // The forced diagnostic paths (any spin count, either one-pass form) make their pipeline
    // on first use, while recording; plans and sets prepare only the pipelines `Auto` takes.
    ctx.allow_pipelines_created_while_recording();
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

/// The cardinality of an operation on both recorded paths (the clear, classify and pair
/// kernels; the one pass over the directory that counts every pair itself) and on `Auto`,
/// against the model, with the same status: every chunk kind against every other (empty,
/// full, one run, runs, arrays of one block and of several, bitmaps), lists short and long
/// enough for one invocation's walk, run chunks and their arrays-and-bitmaps form, the same
/// set on both sides, and many pairs counted by workgroups.
#[test]
fn cardinality_paths() {
    let ctx = context();
    // The forced diagnostic paths (any spin count, either one-pass form) make their pipeline
    // on first use, while recording; plans and sets prepare only the pipelines `Auto` takes.
    ctx.allow_pipelines_created_while_recording();
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
}
