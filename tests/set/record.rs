//! The record layer: end to end, exhaustion that writes nothing, batched operations.

use super::*;

/// The record layer on caller buffers: contains with an indirect count, filter, to_array,
/// an operation with its status, a pre-sorted insert.
#[test]
fn end_to_end() {
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
}
