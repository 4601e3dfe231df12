//! Sets through the C ABI's record layer.

use super::*;

/// The sets' record layer through the C ABI (`vkalgo_set_record_*`), each result compared
/// exactly with the CPU model: an operation into a third set (refused first by its empty
/// pools: status `OK` 0 and nothing written; then reserved with `reserve_for_op_host` and
/// recorded on the one-pass path alone) and into an operand itself, the cardinalities of
/// every operation, a batch of them, a batch of operations, a sorted insert and a removal, a range, run_optimize, an
/// unsorted insert through an insert plan with an indirect count, contains, filter, to_array
/// and a range cardinality (with barriers between them); then refused calls (NULL pointers, a
/// non-NULL `next`, bad counts, ranges, flags, sizes, alignments, overlaps) in one command
/// buffer that changes nothing.
#[test]
fn record_layer() {
    use std::ffi::c_void;
    use std::ptr::{null, null_mut};
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::set::*;
    use vkalgo_ffi::set_record::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let ctx = context();
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
            assert_eq!(vkalgo_set_cardinality_host(s, &mut card), OK);
            let mut out = vec![0u32; card as usize];
            let mut n = 0usize;
            assert_eq!(
                vkalgo_set_to_array_host(s, out.as_mut_ptr(), out.len(), &mut n),
                OK
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
        assert_eq!(vkalgo_set_record_requirements(cctx, &mut req), OK);
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
            assert_eq!(vkalgo_set_create(cctx, &VkalgoSetDesc::default(), &mut s), OK);
            assert_eq!(vkalgo_set_insert_host(s, values.as_ptr(), values.len()), OK);
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
                OK
            )
        });
        let s = read_status(&mut status, 0);
        assert_eq!(s.ok, 0, "empty pools: {s:?}");
        assert!(s.need_array_blocks > s.free_array_blocks, "{s:?}");
        same(c, &BTreeSet::new(), "c after the refused op");
        // With the bound reserved, the one-pass path alone (reserved = 1) writes it.
        assert_eq!(vkalgo_set_reserve_for_op_host(c, a, b, VKALGO_SET_OR), OK);
        submit(&|cmd| {
            assert_eq!(
                vkalgo_set_record_op(c, cmd, &op_args(a, b, VKALGO_SET_OR, 1, st[0])),
                OK
            )
        });
        let s = read_status(&mut status, 0);
        assert_eq!(s.ok, 1, "reserved: {s:?}");
        let mut mc = reference::op(&ma, &mb, SetOp::Or);
        same(c, &mc, "c = a OR b");
        // a = a XOR b in place (the destination as operand: the same pointer).
        assert_eq!(vkalgo_set_reserve_for_op_host(a, a, b, VKALGO_SET_XOR), OK);
        submit(&|cmd| {
            assert_eq!(
                vkalgo_set_record_op(a, cmd, &op_args(a, b, VKALGO_SET_XOR, 0, st[1])),
                OK
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
                assert_eq!(vkalgo_set_record_op_cardinality(cmd, &args), OK);
                assert_eq!(vkalgo_set_record_barrier(a, cmd), OK);
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
        submit(&|cmd| assert_eq!(vkalgo_set_record_op_cardinality_batch(cmd, &batch), OK));
        for (i, (x, y)) in [(&ma, &mb), (&mb, &ma), (&mc, &mb)].into_iter().enumerate() {
            let s = read_status(&mut status, 4 + i);
            assert_eq!(s.ok, 1, "batch pair {i}: {s:?}");
            assert_eq!(
                vkalgo_set_op_status_cardinality(&s),
                reference::op(x, y, SetOp::AndNot).len() as u64,
                "batch pair {i}"
            );
        }

        // A batch of operations into two fresh sets with their bounds reserved (one pass
        // sequence for both), its scratch sized by vkalgo_set_op_batch_scratch_bytes; then
        // refused batches (a destination twice or among the operands, scratch a block short,
        // NULL out, a non-NULL next), which record nothing.
        let (d0, d1) = (new_set(&[]), new_set(&[]));
        assert_eq!(vkalgo_set_reserve_for_op_host(d0, a, b, VKALGO_SET_OR), OK);
        assert_eq!(vkalgo_set_reserve_for_op_host(d1, b, c, VKALGO_SET_OR), OK);
        let (dsts, firsts, seconds) = ([d0, d1], [a as *const VkalgoSet, b], [b as *const VkalgoSet, c]);
        let mut op_batch = VkalgoSetOpBatchArgs {
            dst: dsts.as_ptr(),
            a: firsts.as_ptr(),
            b: seconds.as_ptr(),
            count: 2,
            op: VKALGO_SET_OR,
            statuses: range(&status, 32 * 8, 2 * 32),
            ..Default::default()
        };
        let mut bytes = 0u64;
        assert_eq!(vkalgo_set_op_batch_scratch_bytes(&op_batch, &mut bytes), OK);
        assert!(bytes > 0 && bytes <= 2 * req.scratch.size, "{bytes}");
        op_batch.scratch = range(&scratch, 0, bytes);
        let (twice, aliased) = ([d0, d0], [a as *const VkalgoSet, d1]);
        submit(&|cmd| {
            for bad in [
                VkalgoSetOpBatchArgs {
                    dst: twice.as_ptr(),
                    ..op_batch
                },
                VkalgoSetOpBatchArgs {
                    b: aliased.as_ptr(),
                    ..op_batch
                },
                VkalgoSetOpBatchArgs {
                    scratch: range(&scratch, 0, bytes - 16),
                    ..op_batch
                },
                VkalgoSetOpBatchArgs {
                    next: &op_batch as *const VkalgoSetOpBatchArgs as *const c_void,
                    ..op_batch
                },
                VkalgoSetOpBatchArgs {
                    op: VkalgoSetOp(7),
                    ..op_batch
                },
            ] {
                assert_eq!(vkalgo_set_record_op_batch(cmd, &bad), INVALID);
            }
            assert_eq!(vkalgo_set_record_op_batch(cmd, &op_batch), OK);
        });
        assert_eq!(vkalgo_set_op_batch_scratch_bytes(&op_batch, null_mut()), INVALID);
        assert_eq!(vkalgo_set_op_batch_scratch_bytes(null(), &mut bytes), INVALID);
        for (i, (d, x, y)) in [(d0, &ma, &mb), (d1, &mb, &mc)].into_iter().enumerate() {
            assert_eq!(read_status(&mut status, 8 + i).ok, 1, "op batch job {i}");
            same(d, &reference::op(x, y, SetOp::Or), &format!("op batch job {i}"));
        }
        vkalgo_set_destroy(d0);
        vkalgo_set_destroy(d1);

        // Writes that may need blocks: recorded, and when the status reports a shortfall,
        // recorded again after vkalgo_set_reserve_host of what it needed.
        let mut status_cell = Some(status);
        let mut write =
            |set: *mut VkalgoSet, what: &str, record: &dyn Fn(VkCommandBuffer) -> VkalgoResult| {
                let status = status_cell.as_mut().unwrap();
                for attempt in 0..2 {
                    submit(&|cmd| assert_eq!(record(cmd), OK, "{what}"));
                    let s = read_status(status, 0);
                    if s.ok == 1 {
                        return;
                    }
                    assert_eq!(attempt, 0, "{what}: short again after the reservation: {s:?}");
                    assert_eq!(
                        vkalgo_set_reserve_host(set, s.need_bitmap_blocks, s.need_array_blocks),
                        OK
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
        assert_eq!(vkalgo_set_serialize_host(b, null_mut(), 0, &mut bytes), OK);
        let mut file = vec![0u8; bytes];
        assert_eq!(
            vkalgo_set_serialize_host(b, file.as_mut_ptr().cast(), bytes, &mut bytes),
            OK
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
        assert_eq!(vkalgo_set_insert_plan_create(cctx, &plan_desc, &mut plan), OK);
        let mut plan_req = VkalgoMemoryRequirements::default();
        assert_eq!(
            vkalgo_set_insert_plan_memory_requirements(plan, &mut plan_req),
            OK
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
        assert_eq!(vkalgo_set_reserve_host(c, 2, 64), OK);
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
        submit(&|cmd| assert_eq!(vkalgo_set_record_insert(c, cmd, &insert), OK));
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
            assert_eq!(vkalgo_set_record_contains(a, cmd, &contains), OK);
            let filter = VkalgoSetFilterArgs {
                values: range(&values, 0, 4 * n),
                count: n,
                out: range(&out, 4 * kept_at, 4 * n),
                out_count: range(&out, 4 * counts_at, 4),
                scratch: one_scratch,
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_filter(a, cmd, &filter), OK);
            assert_eq!(vkalgo_set_record_barrier(a, cmd), OK);
            let to_array = VkalgoSetToArrayArgs {
                out: range(&out, 4 * array_at, 4 * card),
                capacity: card,
                count_out: range(&out, 4 * (counts_at + 2), 8),
                scratch: one_scratch,
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_to_array(a, cmd, &to_array), OK);
            let range_card = VkalgoSetRangeCardinalityArgs {
                begin: rb,
                end: re,
                out: range(&out, 4 * (counts_at + 4), 8),
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_range_cardinality(a, cmd, &range_card), OK);
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
        assert_eq!(vkalgo_set_insert_plan_create(cctx, &plan_desc, &mut plan), OK);
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
                assert_eq!(vkalgo_set_record_op(a, cmd, &args), INVALID, "op: {what}");
            }
            assert_eq!(vkalgo_set_record_op(a, cmd, null()), INVALID);
            assert_eq!(vkalgo_set_record_op(null_mut(), cmd, &good), INVALID);
            assert_eq!(vkalgo_set_record_op(a, null_cmd, &good), INVALID);
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
            assert_eq!(vkalgo_set_record_op_cardinality(cmd, null()), INVALID);
            assert_eq!(vkalgo_set_record_op_cardinality(null_cmd, &card), INVALID);
            assert_eq!(
                vkalgo_set_record_op_cardinality(cmd, &VkalgoSetCardinalityArgs { next, ..card }),
                INVALID
            );
            assert_eq!(
                vkalgo_set_record_op_cardinality(cmd, &VkalgoSetCardinalityArgs { b: null(), ..card }),
                INVALID
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
                assert_eq!(vkalgo_set_record_op_cardinality_batch(cmd, &args), INVALID);
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
                assert_eq!(vkalgo_set_record_insert_sorted(a, cmd, &args), INVALID);
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
                assert_eq!(vkalgo_set_record_insert_range(a, cmd, &args), INVALID);
            }
            assert_eq!(
                vkalgo_set_record_run_optimize(a, cmd, &VkalgoSetRunOptimizeArgs { next, ..optimize }),
                INVALID
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
                assert_eq!(vkalgo_set_record_insert(a, cmd, &args), INVALID);
            }
            let contains = VkalgoSetContainsArgs {
                values: none,
                count: 5,
                flags: range(&status, 0, 20),
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_contains(a, cmd, &contains), INVALID);
            let filter = VkalgoSetFilterArgs {
                next,
                values: range(&values, 0, 40),
                count: 10,
                out: range(&status, 0, 40),
                out_count: range(&status, 64, 4),
                scratch: one_scratch,
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_filter(a, cmd, &filter), INVALID);
            let to_array = VkalgoSetToArrayArgs {
                out: range(&status, 0, 64),
                capacity: 16,
                count_out: range(&status, 64, 8),
                scratch: none,
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_to_array(a, cmd, &to_array), INVALID);
            let range_card = VkalgoSetRangeCardinalityArgs {
                begin: 10,
                end: 9,
                out: range(&status, 0, 8),
                ..Default::default()
            };
            assert_eq!(vkalgo_set_record_range_cardinality(a, cmd, &range_card), INVALID);
            assert_eq!(vkalgo_set_record_barrier(null(), cmd), INVALID);
            assert_eq!(vkalgo_set_record_barrier(a, null_cmd), INVALID);
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
        assert_eq!(vkalgo_set_record_requirements(cctx, &mut with_next), INVALID);
        assert_eq!(vkalgo_set_record_requirements(cctx, null_mut()), INVALID);
        let mut plan = null_mut();
        let too_many = VkalgoSetInsertPlanDesc {
            max_count: (1 << 24) + 1,
            ..Default::default()
        };
        assert_eq!(vkalgo_set_insert_plan_create(cctx, &too_many, &mut plan), INVALID);
        let with_next = VkalgoSetInsertPlanDesc { next, ..plan_desc };
        assert_eq!(
            vkalgo_set_insert_plan_create(cctx, &with_next, &mut plan),
            INVALID
        );
        assert!(plan.is_null());
        assert_eq!(vkalgo_set_reserve_host(null_mut(), 1, 1), INVALID);
        assert_eq!(
            vkalgo_set_reserve_for_op_host(a, a, null(), VKALGO_SET_OR),
            INVALID
        );
        assert_eq!(vkalgo_set_reserve_for_op_host(a, a, b, VkalgoSetOp(7)), INVALID);

        for s in [a, b, c] {
            vkalgo_set_destroy(s);
        }
        vkalgo_context_destroy(cctx);
    }
}
