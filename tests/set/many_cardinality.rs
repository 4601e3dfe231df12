//! The cardinality of a many-way operation in one dispatch (`GpuSet::op_many_cardinality`,
//! `record_op_many_cardinality`): every op, 1 to 9 operands mixing flat and packed sets, empty,
//! full, bitmap, array and run chunks, the same set twice, against the CPU model; bad input
//! records nothing.

use super::*;

#[test]
fn op_many_cardinality_against_the_model() {
    let ctx = context();
    let mut rng = Rng(0x5e7_ca4d);
    let mut lists: Vec<Vec<u32>> = (0..5)
        .map(|i| mixed_values(&mut rng, 2500, (i as u32) << 16))
        .collect();
    // A full chunk (1), a bitmap chunk (0) and an array chunk (3) in one set.
    lists.push((60_000..200_000).collect());
    lists.push(Vec::new());
    lists.push(vec![0, 1, 65_535, 65_536, u32::MAX]);
    // Dense values over the first chunks, so that intersections keep bitmaps.
    lists.push((0..150_000).filter(|v| v % 3 != 0).collect());
    let mut sets: Vec<GpuSet> = lists
        .iter()
        .map(|v| GpuSet::from_values(&ctx, v).unwrap())
        .collect();
    let mut models: Vec<BTreeSet<u32>> = lists.iter().map(|v| model_of(v)).collect();
    // Run chunks: one long run (over a full chunk) and many short ones.
    let mut runs: Vec<u32> = (30_000..140_000).collect();
    runs.extend((0..400u32).flat_map(|k| 200_000 + 37 * k..200_000 + 37 * k + 11));
    sets[1] = GpuSet::from_values(&ctx, &runs).unwrap();
    sets[1].run_optimize().unwrap();
    models[1] = model_of(&runs);
    // Packed directories beside flat ones.
    sets[2].pack().unwrap();
    sets[5].pack().unwrap();
    for count in [1usize, 2, 4, 9] {
        for op in OPS {
            {
                let order: Vec<usize> = (0..count).map(|i| (i + 2 * count) % sets.len()).collect();
                let operands: Vec<&GpuSet> = order.iter().map(|&i| &sets[i]).collect();
                let operand_models: Vec<&BTreeSet<u32>> = order.iter().map(|&i| &models[i]).collect();
                let want = many_model(&operand_models, op).len() as u64;
                let got = GpuSet::op_many_cardinality(&operands, op).unwrap();
                assert_eq!(got, want, "{op:?} of sets {order:?}");
            }
        }
    }
    // The same set several times; a set with itself.
    let twice = [&sets[8], &sets[8], &sets[1]];
    for op in OPS {
        let want = many_model(&[&models[8], &models[8], &models[1]], op).len() as u64;
        assert_eq!(
            GpuSet::op_many_cardinality(&twice, op).unwrap(),
            want,
            "{op:?} twice"
        );
    }
}

/// Many operands over the same few chunks (on GPUs more than a workgroup's subgroups look up
/// in one round): arrays, bitmaps, runs and a full chunk, whose unions and symmetric
/// differences overlap; the cardinalities and the materialized operations.
#[test]
fn op_many_cardinality_of_many_sets_sharing_chunks() {
    let ctx = context();
    let mut rng = Rng(0x6a_57);
    let mut sets = Vec::new();
    let mut models = Vec::new();
    let count = if ctx.is_cpu_device() {
        vkalgo::set::SET_MANY_CARDINALITY_CPU_MAX as u32
    } else {
        1100
    };
    for i in 0..count {
        let mut values: Vec<u32> = match i % 4 {
            // Arrays over chunks 0..3.
            0 => (0..300).map(|_| rng.next_u32() % 262_144).collect(),
            // Bitmaps.
            1 => (0..20_000).map(|_| rng.next_u32() % 131_072).collect(),
            // Runs, shifted a little each set.
            2 => (0..40u32)
                .flat_map(|k| (i * 7 + k * 5000)..(i * 7 + k * 5000 + 40 + i))
                .collect(),
            _ => (65_536 * (i % 3)..65_536 * (i % 3) + 5 + i).collect(),
        };
        if i == 7 {
            values.extend(131_072..196_608); // a full chunk
        }
        let mut set = GpuSet::from_values(&ctx, &values).unwrap();
        if i % 4 == 2 {
            set.run_optimize().unwrap();
        }
        if i % 5 == 0 {
            set.pack().unwrap();
        }
        sets.push(set);
        models.push(model_of(&values));
    }
    let operands: Vec<&GpuSet> = sets.iter().collect();
    let operand_models: Vec<&BTreeSet<u32>> = models.iter().collect();
    for op in OPS {
        let want = many_model(&operand_models, op);
        assert_eq!(
            GpuSet::op_many_cardinality(&operands, op).unwrap(),
            want.len() as u64,
            "{op:?} of {} sets",
            operands.len()
        );
        let result = GpuSet::op_many(&operands, op).unwrap();
        check(
            &result,
            &want,
            &format!("op_many {op:?} of {} sets", operands.len()),
        );
    }
}

#[test]
fn op_many_cardinality_refuses_bad_input() {
    let ctx = context();
    let other_ctx = context();
    let a = GpuSet::from_values(&ctx, &[1, 2, 3]).unwrap();
    let b = GpuSet::from_values(&other_ctx, &[3]).unwrap();
    assert!(matches!(
        GpuSet::op_many_cardinality(&[], SetOp::Or),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        GpuSet::op_many_cardinality(&[&a, &b], SetOp::Or),
        Err(Error::InvalidArgument(_))
    ));
    // The record layer: scratch too small, status too small, the two overlapping.
    let need = GpuSet::op_many_cardinality_scratch_bytes(5);
    let scratch = GpuBuffer::new(&ctx, need + 64, MemoryLocation::GpuOnly, "scratch").unwrap();
    let status = GpuBuffer::new(&ctx, 64, MemoryLocation::GpuOnly, "status").unwrap();
    let sets = [&a, &a, &a, &a, &a];
    let record = |scratch: BufferRange, status: BufferRange| {
        ctx.submit_and_wait(|cmd| unsafe {
            GpuSet::record_op_many_cardinality(
                cmd,
                &GpuSetManyCardinalityArgs {
                    sets: &sets,
                    op: SetOp::And,
                    scratch,
                    status,
                },
            )
        })
    };
    assert!(matches!(
        record(scratch.sub_range(0, need - 4), status.range()),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        record(scratch.range(), status.sub_range(0, 16)),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        record(scratch.sub_range(0, need), scratch.sub_range(need - 32, 32)),
        Err(Error::InvalidArgument(_))
    ));
    // The same ranges apart: the call works.
    record(scratch.range(), status.range()).unwrap();
}

#[test]
fn op_many_cardinality_c_abi() {
    use std::ffi::c_void;
    use std::ptr::{null, null_mut};
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::set::*;
    use vkalgo_ffi::set_many::*;
    use vkalgo_ffi::set_record::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let ctx = context();
    let other_ctx = context();
    unsafe {
        let (cctx, cother) = (c_context_with_queue(&ctx), c_context_with_queue(&other_ctx));
        let (x, y, z) = (
            c_set(cctx, &[1, 2, 3, 70_000]),
            c_set(cctx, &[2, 3, 4]),
            c_set(cctx, &[3, 70_000]),
        );
        let f = c_set(cother, &[3]);
        let three = [x as *const VkalgoSet, y, z];
        for (op, want) in [
            (VKALGO_SET_AND, 1u64),
            (VKALGO_SET_OR, 5),
            (VKALGO_SET_ANDNOT, 1),
            (VKALGO_SET_XOR, 3), // 1, 4, and 3 (in all three)
        ] {
            let mut card = 99u64;
            assert_eq!(
                vkalgo_set_op_many_cardinality(three.as_ptr(), 3, op, &mut card),
                OK
            );
            assert_eq!(card, want, "{op:?}");
        }
        // Refused, the output untouched: no sets, NULL list, entry or output, another
        // context, a bad op.
        let with_null = [x as *const VkalgoSet, null()];
        let foreign = [x as *const VkalgoSet, f];
        let or = VKALGO_SET_OR;
        let mut card = 99u64;
        assert_eq!(
            vkalgo_set_op_many_cardinality(three.as_ptr(), 0, or, &mut card),
            INVALID
        );
        assert_eq!(vkalgo_set_op_many_cardinality(null(), 2, or, &mut card), INVALID);
        assert_eq!(
            vkalgo_set_op_many_cardinality(with_null.as_ptr(), 2, or, &mut card),
            INVALID
        );
        assert_eq!(
            vkalgo_set_op_many_cardinality(foreign.as_ptr(), 2, or, &mut card),
            INVALID
        );
        assert_eq!(
            vkalgo_set_op_many_cardinality(three.as_ptr(), 3, VkalgoSetOp(9), &mut card),
            INVALID
        );
        assert_eq!(
            vkalgo_set_op_many_cardinality(three.as_ptr(), 3, or, null_mut()),
            INVALID
        );
        assert_eq!(card, 99);
        // The record call into a status C reads as VkalgoSetOpStatus.
        let need = vkalgo_set_op_many_cardinality_scratch_bytes(3);
        assert_eq!(need, GpuSet::op_many_cardinality_scratch_bytes(3));
        let scratch = GpuBuffer::new(&ctx, need, MemoryLocation::GpuOnly, "scratch").unwrap();
        let mut status = GpuBuffer::new(&ctx, 32, MemoryLocation::GpuToCpu, "status").unwrap();
        let args = VkalgoSetManyCardinalityArgs {
            sets: three.as_ptr(),
            count: 3,
            op: VKALGO_SET_XOR,
            scratch: c_range(&scratch, need),
            status: c_range(&status, 32),
            ..Default::default()
        };
        ctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(vkalgo_set_record_op_many_cardinality(c, &args), OK);
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        let s: VkalgoSetOpStatus = std::ptr::read_unaligned(status.mapped().unwrap().as_ptr() as *const _);
        assert_eq!((s.ok, vkalgo_set_op_status_cardinality(&s)), (1, 3));
        // Refused records: scratch a word short, a non-NULL next.
        let short = VkalgoSetManyCardinalityArgs {
            scratch: c_range(&scratch, need - 4),
            ..args
        };
        let extended = VkalgoSetManyCardinalityArgs {
            next: &args as *const _ as *const c_void,
            ..args
        };
        ctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(vkalgo_set_record_op_many_cardinality(c, &short), INVALID);
            assert_eq!(vkalgo_set_record_op_many_cardinality(c, &extended), INVALID);
            Ok(())
        })
        .unwrap();
        for s in [x, y, z, f] {
            vkalgo_set_destroy(s);
        }
        vkalgo_context_destroy(cctx);
        vkalgo_context_destroy(cother);
    }
}
