//! The record layer: offsets, an indirect count below the maximum, a scratch reused by two
//! reduces in one command buffer, tunings that force many partials or one, a count of 0.

use super::*;

/// Runs `plan` over `keys` through the record layer: the input at `offset`, the result at an
/// offset between poison words, the count direct or a u32 in the buffer. Returns the result's
/// bytes and whether the poison around it held.
fn record<K: TestKey>(
    ctx: &Context,
    plan: &vkalgo::ReducePlan,
    keys: &[K],
    offset: u64,
    indirect: Option<u32>,
) -> (Vec<u8>, bool) {
    let kb = std::mem::size_of::<K>() as u64;
    let n = keys.len() as u64;
    let scratch_bytes = plan.memory_requirements().scratch.size;
    let (in_at, res_at, cnt_at) = (offset, offset + n * kb + 64, offset + n * kb + 128);
    let scratch_at = (cnt_at + 64).next_multiple_of(256);
    let mut buf = GpuBuffer::new(ctx, scratch_at + scratch_bytes, MemoryLocation::CpuToGpu, "t").unwrap();
    {
        let m = buf.mapped().unwrap();
        m.fill(0xA5);
        m[in_at as usize..(in_at + n * kb) as usize].copy_from_slice(bytemuck::cast_slice(keys));
        m[cnt_at as usize..cnt_at as usize + 4].copy_from_slice(&indirect.unwrap_or(0).to_le_bytes());
    }
    let args = ReduceArgs {
        input: buf.sub_range(in_at, n * kb),
        result: buf.sub_range(res_at, kb),
        scratch: buf.sub_range(scratch_at, scratch_bytes),
        count: match indirect {
            Some(_) => ElementCount::Indirect(buf.sub_range(cnt_at, 4)),
            None => ElementCount::Direct(n),
        },
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        plan.record(cmd, &args)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let m = buf.mapped().unwrap();
    let result = m[res_at as usize..(res_at + kb) as usize].to_vec();
    let poison_held = m[(res_at - 8) as usize..res_at as usize]
        .iter()
        .all(|&b| b == 0xA5)
        && m[(res_at + kb) as usize..(res_at + kb + 8) as usize]
            .iter()
            .all(|&b| b == 0xA5);
    (result, poison_held)
}

#[test]
fn offsets_indirect_counts_and_tunings() {
    let ctx = context();
    let mut rng = Rng(11);
    let keys: Vec<i64> = keys_for(50_000, &DISTRIBUTIONS[0], ReduceOp::Max, &mut rng);
    let tunings = [
        None,
        Some(ReduceTuning {
            workgroup_size: 32,
            items_per_invocation: 1,
            max_workgroups: 4096,
        }),
        Some(ReduceTuning {
            workgroup_size: 64,
            items_per_invocation: 16,
            max_workgroups: 1,
        }),
        Some(ReduceTuning {
            workgroup_size: 128,
            items_per_invocation: 3,
            max_workgroups: 7,
        }),
    ];
    for op in ReduceOp::ALL {
        for tuning in tunings {
            let plan = ctx
                .reduce_plan(&ReduceDesc {
                    tuning,
                    ..ReduceDesc::new(KeyType::I64, op, keys.len() as u64)
                })
                .unwrap();
            for (offset, indirect) in [
                (0, None),
                (24, Some(31_337u32)),
                (8, Some(0)),
                (16, Some(u32::MAX)),
            ] {
                let (got, poison) = record(&ctx, &plan, &keys, offset, indirect);
                let n = indirect.map_or(keys.len(), |c| (c as usize).min(keys.len()));
                let want = bits(reference::reduce(&keys[..n], op));
                assert_eq!(
                    got, want,
                    "{op:?} {tuning:?} offset {offset} indirect {indirect:?}"
                );
                assert!(poison, "{op:?} {tuning:?}: written outside the result");
            }
        }
    }
}

/// Two reduces of one plan with one scratch in one command buffer (the first leaves its counter
/// at zero; the second clears it anyway).
#[test]
fn scratch_reused_in_one_command_buffer() {
    let ctx = context();
    let a: Vec<u32> = (0..10_000).map(|i| i * 3).collect();
    let b: Vec<u32> = (0..7_000).map(|i| i ^ 0x5555).collect();
    let plan = ctx
        .reduce_plan(&ReduceDesc::new(KeyType::U32, ReduceOp::Sum, 10_000))
        .unwrap();
    let scratch_bytes = plan.memory_requirements().scratch.size;
    let mut buf = GpuBuffer::new(&ctx, 1 << 18, MemoryLocation::CpuToGpu, "t").unwrap();
    {
        let m = buf.mapped().unwrap();
        m[..40_000].copy_from_slice(bytemuck::cast_slice(&a));
        m[40_000..68_000].copy_from_slice(bytemuck::cast_slice(&b));
    }
    let args = |input: vkalgo::BufferRange, at: u64| ReduceArgs {
        input,
        result: buf.sub_range(at, 4),
        scratch: buf.sub_range(1 << 17, scratch_bytes),
        count: ElementCount::Direct(input.size / 4),
    };
    let (first, second) = (
        args(buf.sub_range(0, 40_000), 70_000),
        args(buf.sub_range(40_000, 28_000), 70_016),
    );
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(&ctx, cmd);
        plan.record(cmd, &first)?;
        compute_to_compute(&ctx, cmd);
        plan.record(cmd, &second)?;
        compute_to_host(&ctx, cmd);
        Ok(())
    })
    .unwrap();
    let m = buf.mapped().unwrap();
    let word = |at: usize| u32::from_le_bytes(m[at..at + 4].try_into().unwrap());
    assert_eq!(word(70_000), reference::reduce(&a, ReduceOp::Sum));
    assert_eq!(word(70_016), reference::reduce(&b, ReduceOp::Sum));
}

/// A plan that keeps its scratch zeroed: the scratch is zeroed once, then reduces of different
/// counts (direct, indirect, zero) in one command buffer each leave it zeroed for the next, with
/// many workgroups (each finishing through the counter) or one.
#[test]
fn kept_zeroed_scratch_stays_zeroed() {
    let ctx = context();
    let keys: Vec<u32> = (0..20_000u32).map(|i| i.wrapping_mul(0x9E37_79B9)).collect();
    for tuning in [
        None,
        Some(ReduceTuning {
            workgroup_size: 32,
            items_per_invocation: 2,
            max_workgroups: 97,
        }),
        Some(ReduceTuning {
            workgroup_size: 64,
            items_per_invocation: 4,
            max_workgroups: 1,
        }),
    ] {
        let plan = ctx
            .reduce_plan(&ReduceDesc {
                tuning,
                keep_scratch_zeroed: true,
                ..ReduceDesc::new(KeyType::U32, ReduceOp::Max, keys.len() as u64)
            })
            .unwrap();
        let scratch_bytes = plan.memory_requirements().scratch.size;
        let (input_at, results_at, count_at, scratch_at) = (0u64, 80_000u64, 80_064u64, 81_920u64);
        let mut buf =
            GpuBuffer::new(&ctx, scratch_at + scratch_bytes, MemoryLocation::CpuToGpu, "t").unwrap();
        {
            let m = buf.mapped().unwrap();
            m.fill(0);
            m[..80_000].copy_from_slice(bytemuck::cast_slice(&keys));
            m[count_at as usize..count_at as usize + 4].copy_from_slice(&1_234u32.to_le_bytes());
        }
        let counts = [
            ElementCount::Direct(20_000),
            ElementCount::Indirect(buf.sub_range(count_at, 4)),
            ElementCount::Direct(0),
            ElementCount::Direct(7),
        ];
        ctx.submit_and_wait(|cmd| unsafe {
            host_to_compute(&ctx, cmd);
            for (i, &count) in counts.iter().enumerate() {
                let args = ReduceArgs {
                    input: buf.sub_range(input_at, 80_000),
                    result: buf.sub_range(results_at + 4 * i as u64, 4),
                    scratch: buf.sub_range(scratch_at, scratch_bytes),
                    count,
                };
                plan.record(cmd, &args)?;
                compute_to_compute(&ctx, cmd);
            }
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        let m = buf.mapped().unwrap();
        let word = |at: u64| u32::from_le_bytes(m[at as usize..at as usize + 4].try_into().unwrap());
        for (i, n) in [20_000usize, 1_234, 0, 7].into_iter().enumerate() {
            assert_eq!(
                word(results_at + 4 * i as u64),
                reference::reduce(&keys[..n], ReduceOp::Max),
                "{tuning:?}: call {i} of {n} keys"
            );
        }
        assert_eq!(word(scratch_at), 0, "{tuning:?}: the counter is back at zero");
    }
}
