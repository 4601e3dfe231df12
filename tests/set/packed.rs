//! Packed sets.

use super::*;

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
    let mut batch_statuses =
        GpuBuffer::new(&ctx, 4 * SET_STATUS_BYTES, MemoryLocation::GpuToCpu, "statuses").unwrap();
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
            // Recorded on the one pass: every pair in one dispatch per directory form.
            let pairs = [(&a, &b), (&b, &a), (&a, &a), (&b, &b)];
            let models = [(&ma, &mb), (&mb, &ma), (&ma, &ma), (&mb, &mb)];
            batch_statuses.mapped().unwrap().fill(0xA5);
            ctx.submit_and_wait(|cmd| unsafe {
                let args = GpuSetCardinalityBatchArgs {
                    path: CardinalityPath::OnePass,
                    ..GpuSetCardinalityBatchArgs::new(&pairs, op, scratch.range(), batch_statuses.range())
                };
                GpuSet::record_op_cardinality_batch(cmd, &args)?;
                compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap();
            let words = read_words(&mut batch_statuses, 8 * pairs.len());
            for (k, (mx, my)) in models.iter().enumerate() {
                let got = bytemuck_from(&words[8 * k..8 * k + 8]);
                let want = reference::op(mx, my, op).len() as u64;
                assert_eq!(
                    (got.ok, got.cardinality()),
                    (1, want),
                    "{}",
                    what(&format!("{op:?} one-pass batch pair {k}"))
                );
            }
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
    assert_eq!(ctx.pipelines_created_while_recording(), 0);
}
