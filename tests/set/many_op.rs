//! The many-way operation materialized on the record layer (`GpuSet::record_op_many`): every
//! op, 1 to 7 operands mixing flat and packed sets and empty, full, bitmap, array and run
//! chunks, into destinations that held other values; pools too short write nothing; bad input
//! records nothing.

use super::*;

/// Records `dst = sets[0] op ...` into fresh scratch and status; returns the status.
fn record_many(
    ctx: &vkalgo::Context,
    dst: &GpuSet,
    sets: &[&GpuSet],
    op: SetOp,
) -> Result<SetOpStatus, Error> {
    let need = GpuSet::op_many_scratch_bytes(sets.len());
    let scratch = GpuBuffer::new(ctx, need, MemoryLocation::GpuOnly, "scratch").unwrap();
    let mut status = GpuBuffer::new(ctx, 32, MemoryLocation::GpuToCpu, "status").unwrap();
    ctx.submit_and_wait(|cmd| unsafe {
        dst.record_op_many(
            cmd,
            &GpuSetOpManyArgs {
                sets,
                op,
                scratch: scratch.range(),
                status: status.range(),
            },
        )
    })?;
    Ok(*bytemuck_from(&read_words(&mut status, 8)))
}

/// Operands of every chunk kind, two of them packed, and their models.
fn operands(ctx: &vkalgo::Context) -> (Vec<GpuSet>, Vec<BTreeSet<u32>>) {
    let mut rng = Rng(0x0b_5e_7a);
    let mut lists: Vec<Vec<u32>> = (0..4)
        .map(|i| mixed_values(&mut rng, 2500, (i as u32) << 16))
        .collect();
    lists.push((60_000..200_000).collect()); // a full chunk between a bitmap and an array
    lists.push(Vec::new());
    lists.push((0..150_000).filter(|v| v % 3 != 0).collect()); // bitmaps that survive AND
    let mut sets: Vec<GpuSet> = lists
        .iter()
        .map(|v| GpuSet::from_values(ctx, v).unwrap())
        .collect();
    let mut models: Vec<BTreeSet<u32>> = lists.iter().map(|v| model_of(v)).collect();
    // Run chunks: one long run over a full chunk and many short ones.
    let mut runs: Vec<u32> = (30_000..140_000).collect();
    runs.extend((0..400u32).flat_map(|k| 200_000 + 37 * k..200_000 + 37 * k + 11));
    sets[1] = GpuSet::from_values(ctx, &runs).unwrap();
    sets[1].run_optimize().unwrap();
    models[1] = model_of(&runs);
    sets[2].pack().unwrap();
    sets[4].pack().unwrap();
    (sets, models)
}

#[test]
fn record_op_many_against_the_model() {
    let ctx = context();
    let (sets, models) = operands(&ctx);
    for count in [1usize, 2, 3, 5, 7] {
        for op in OPS {
            let order: Vec<usize> = (0..count).map(|i| (i + count) % sets.len()).collect();
            let operands: Vec<&GpuSet> = order.iter().map(|&i| &sets[i]).collect();
            let operand_models: Vec<&BTreeSet<u32>> = order.iter().map(|&i| &models[i]).collect();
            let want = many_model(&operand_models, op);
            let what = format!("{op:?} of sets {order:?}");
            // A destination that held values in chunks the result has and in others.
            let old: Vec<u32> = (0..3000u32).map(|i| i * 97).chain([u32::MAX - 5]).collect();
            let mut dst = GpuSet::from_values(&ctx, &old).unwrap();
            dst.reserve(64, 4096).unwrap();
            let status = record_many(&ctx, &dst, &operands, op).unwrap();
            assert_eq!(status.ok, 1, "{what}: {status:?}");
            assert_eq!(status.cardinality(), want.len() as u64, "{what}: status");
            let got: BTreeSet<u32> = dst.to_vec().unwrap().into_iter().collect();
            assert!(got == want, "{what}: values differ");
            if let Err(e) = dst.verify_pools() {
                panic!("{what}: {e}");
            }
            assert_eq!(
                dst.cardinality().unwrap(),
                want.len() as u64,
                "{what}: cardinality"
            );
        }
    }
    // The same set twice; the host layer's call gives the same values.
    let twice = [&sets[6], &sets[6], &sets[1]];
    for op in OPS {
        let want = many_model(&[&models[6], &models[6], &models[1]], op);
        let mut dst = GpuSet::new(&ctx).unwrap();
        dst.assign_many(&twice, op).unwrap();
        check_values(&dst, &want, &format!("{op:?} twice"));
    }
}

fn check_values(set: &GpuSet, want: &BTreeSet<u32>, what: &str) {
    let got: BTreeSet<u32> = set.to_vec().unwrap().into_iter().collect();
    assert!(got == *want, "{what}: values differ");
    if let Err(e) = set.verify_pools() {
        panic!("{what}: {e}");
    }
}

/// A destination without the free blocks the result needs: the status says what it needs and
/// nothing changes; after reserving that, the operation goes through.
#[test]
fn record_op_many_short_pools_write_nothing() {
    let ctx = context();
    let (sets, models) = operands(&ctx);
    let operands = [&sets[0], &sets[3], &sets[6]];
    let want = many_model(&[&models[0], &models[3], &models[6]], SetOp::Or);
    let old: Vec<u32> = vec![7, 70_000, 1 << 30];
    let mut dst = GpuSet::from_values(&ctx, &old).unwrap();
    let status = record_many(&ctx, &dst, &operands, SetOp::Or).unwrap();
    assert_eq!(status.ok, 0, "{status:?}");
    assert!(status.need_bitmap_blocks > 0 || status.need_array_blocks > 0);
    check_values(&dst, &model_of(&old), "unchanged");
    dst.reserve(status.need_bitmap_blocks, status.need_array_blocks)
        .unwrap();
    let status = record_many(&ctx, &dst, &operands, SetOp::Or).unwrap();
    assert_eq!(status.ok, 1, "{status:?}");
    check_values(&dst, &want, "after reserving");
}

#[test]
fn record_op_many_refuses_bad_input() {
    let ctx = context();
    let other_ctx = context();
    let a = GpuSet::from_values(&ctx, &[1, 2, 3]).unwrap();
    let dst = GpuSet::from_values(&ctx, &[9]).unwrap();
    let foreign = GpuSet::from_values(&other_ctx, &[3]).unwrap();
    let mut packed = GpuSet::from_values(&ctx, &[4]).unwrap();
    packed.pack().unwrap();
    let need = GpuSet::op_many_scratch_bytes(3);
    let scratch = GpuBuffer::new(&ctx, need + 64, MemoryLocation::GpuOnly, "scratch").unwrap();
    let status = GpuBuffer::new(&ctx, 64, MemoryLocation::GpuOnly, "status").unwrap();
    let record = |dst: &GpuSet, sets: &[&GpuSet], scratch: BufferRange, status: BufferRange| {
        ctx.submit_and_wait(|cmd| unsafe {
            dst.record_op_many(
                cmd,
                &GpuSetOpManyArgs {
                    sets,
                    op: SetOp::Or,
                    scratch,
                    status,
                },
            )
        })
    };
    let invalid = |r: Result<(), Error>| matches!(r, Err(Error::InvalidArgument(_)));
    let (s, st) = (scratch.range(), status.range());
    assert!(invalid(record(&dst, &[], s, st)));
    assert!(invalid(record(&dst, &[&a, &foreign], s, st)));
    assert!(invalid(record(&dst, &[&a, &dst], s, st)));
    assert!(invalid(record(&packed, &[&a, &a], s, st)));
    assert!(invalid(record(
        &dst,
        &[&a, &a, &a],
        scratch.sub_range(0, need - 16),
        st
    )));
    assert!(invalid(record(&dst, &[&a, &a, &a], s, status.sub_range(0, 16))));
    assert!(invalid(record(
        &dst,
        &[&a, &a, &a],
        scratch.sub_range(0, need),
        scratch.sub_range(need - 32, 32)
    )));
    check_values(&dst, &model_of(&[9]), "refused calls change nothing");
    if ctx.is_cpu_device() {
        let many: Vec<&GpuSet> = vec![&a; vkalgo::set::SET_MANY_OP_CPU_MAX + 1];
        let big = GpuBuffer::new(
            &ctx,
            GpuSet::op_many_scratch_bytes(many.len()),
            MemoryLocation::GpuOnly,
            "scratch",
        )
        .unwrap();
        assert!(matches!(
            record(&dst, &many, big.range(), st),
            Err(Error::Unsupported(_))
        ));
    }
    // The same ranges apart: the call works.
    record(&dst, &[&a, &a, &a], s, st).unwrap();
}

#[test]
fn record_op_many_c_abi() {
    use std::ffi::c_void;
    use std::ptr::null;
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::set::*;
    use vkalgo_ffi::set_record::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let ctx = context();
    unsafe {
        let cctx = c_context_with_queue(&ctx);
        let (x, y, z) = (
            c_set(cctx, &[1, 2, 3, 70_000]),
            c_set(cctx, &[2, 3, 4]),
            c_set(cctx, &[3, 70_000]),
        );
        let dst = c_set(cctx, &[9, 200_000]);
        assert_eq!(vkalgo_set_reserve_host(dst, 0, 8), OK);
        let three = [x as *const VkalgoSet, y, z];
        let need = vkalgo_set_op_many_scratch_bytes(3);
        assert_eq!(need, GpuSet::op_many_scratch_bytes(3));
        let scratch = GpuBuffer::new(&ctx, need, MemoryLocation::GpuOnly, "scratch").unwrap();
        let mut status = GpuBuffer::new(&ctx, 32, MemoryLocation::GpuToCpu, "status").unwrap();
        let args = VkalgoSetOpManyArgs {
            sets: three.as_ptr(),
            count: 3,
            op: VKALGO_SET_XOR,
            scratch: c_range(&scratch, need),
            status: c_range(&status, 32),
            ..Default::default()
        };
        let record = |dst: *mut VkalgoSet, args: &VkalgoSetOpManyArgs| {
            let mut got = OK;
            ctx.submit_and_wait(|cmd| {
                let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
                got = vkalgo_set_record_op_many(dst, c, args);
                compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap();
            got
        };
        assert_eq!(record(dst, &args), OK);
        let s: VkalgoSetOpStatus = std::ptr::read_unaligned(status.mapped().unwrap().as_ptr() as *const _);
        assert_eq!(s.ok, 1);
        let mut values = [0u32; 8];
        let mut n = 0usize;
        assert_eq!(vkalgo_set_to_array_host(dst, values.as_mut_ptr(), 8, &mut n), OK);
        assert_eq!(&values[..n], &[1, 3, 4]); // 3 is in all three, 70,000 in two
                                              // Refused, nothing recorded: no sets, a NULL entry, the destination an operand, a
                                              // scratch a word short, a non-NULL next.
        let with_null = [x as *const VkalgoSet, null()];
        let with_dst = [x as *const VkalgoSet, dst];
        for bad in [
            VkalgoSetOpManyArgs { count: 0, ..args },
            VkalgoSetOpManyArgs {
                sets: with_null.as_ptr(),
                count: 2,
                ..args
            },
            VkalgoSetOpManyArgs {
                sets: with_dst.as_ptr(),
                count: 2,
                ..args
            },
            VkalgoSetOpManyArgs {
                scratch: c_range(&scratch, need - 4),
                ..args
            },
            VkalgoSetOpManyArgs {
                next: &args as *const _ as *const c_void,
                ..args
            },
        ] {
            assert_eq!(record(dst, &bad), INVALID);
        }
        assert_eq!(vkalgo_set_to_array_host(dst, values.as_mut_ptr(), 8, &mut n), OK);
        assert_eq!(&values[..n], &[1, 3, 4]);
        for s in [x, y, z, dst] {
            vkalgo_set_destroy(s);
        }
        vkalgo_context_destroy(cctx);
    }
}
