//! The record layer: offsets, indirect counts, tunings (shared and global counts, one
//! workgroup, many), an out-of-range id leaving the counts untouched with the status bit set,
//! a scratch reused by two histograms in one command buffer.

use super::*;

/// The inputs of one recorded histogram.
struct Input<'a> {
    keys: &'a [u32],
    splitters: Option<&'a [u32]>,
    ids: Option<&'a [u32]>,
}

/// Runs `plan` through the record layer: inputs at `offset`, the counts between poison words,
/// the count direct or a u32 in the buffer. Returns the counts, the status word and whether
/// the poison around the counts held.
fn record(
    ctx: &Context,
    plan: &vkalgo::HistogramPlan,
    input: &Input,
    offset: u64,
    indirect: Option<u32>,
) -> (Vec<u32>, u32, bool) {
    let n = input.keys.len() as u64;
    let m = plan.desc().bucket_count as u64;
    let scratch_bytes = plan.memory_requirements().scratch.size;
    let keys_at = offset;
    let aux_at = (keys_at + n * 4 + 64).next_multiple_of(16);
    let aux_len = input
        .ids
        .map_or(0, |i| i.len())
        .max(input.splitters.map_or(0, |s| s.len())) as u64;
    let counts_at = aux_at + aux_len * 4 + 64;
    let count_at = counts_at + m * 4 + 64;
    let scratch_at = (count_at + 64).next_multiple_of(256);
    let mut buf = GpuBuffer::new(ctx, scratch_at + scratch_bytes, MemoryLocation::CpuToGpu, "t").unwrap();
    {
        let map = buf.mapped().unwrap();
        map.fill(0xA5);
        let put = |map: &mut [u8], at: u64, words: &[u32]| {
            map[at as usize..at as usize + words.len() * 4].copy_from_slice(bytemuck::cast_slice(words));
        };
        put(map, keys_at, input.keys);
        if let Some(aux) = input.ids.or(input.splitters) {
            put(map, aux_at, aux);
        }
        put(map, count_at, &[indirect.unwrap_or(0)]);
    }
    let aux = |len: Option<usize>| len.map(|l| buf.sub_range(aux_at, l as u64 * 4));
    let args = HistogramArgs {
        keys: buf.sub_range(keys_at, n * 4),
        splitters: aux(input.splitters.map(|s| s.len())).filter(|r| r.size > 0),
        bucket_ids: aux(input.ids.map(|i| i.len())),
        counts: buf.sub_range(counts_at, m * 4),
        scratch: buf.sub_range(scratch_at, scratch_bytes),
        count: match indirect {
            Some(_) => ElementCount::Indirect(buf.sub_range(count_at, 4)),
            None => ElementCount::Direct(n),
        },
        params: [0; 4],
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        plan.record(cmd, &args)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let map = buf.mapped().unwrap();
    let word = |at: u64| u32::from_le_bytes(map[at as usize..at as usize + 4].try_into().unwrap());
    let counts = (0..m).map(|b| word(counts_at + b * 4)).collect();
    let poison = (1..=8).all(|i| map[(counts_at - i) as usize] == 0xA5)
        && (0..8).all(|i| map[(counts_at + m * 4 + i) as usize] == 0xA5);
    (counts, word(scratch_at), poison)
}

/// Tunings: shared counts, global atomics only, one workgroup, many small ones.
fn tunings() -> [Option<HistogramTuning>; 4] {
    [
        None,
        Some(HistogramTuning {
            workgroup_size: 64,
            items_per_invocation: 3,
            max_workgroups: 7,
            shared_buckets: 0,
        }),
        Some(HistogramTuning {
            workgroup_size: 32,
            items_per_invocation: 1,
            max_workgroups: 65535,
            shared_buckets: 1024,
        }),
        Some(HistogramTuning {
            workgroup_size: 128,
            items_per_invocation: 16,
            max_workgroups: 1,
            shared_buckets: 256,
        }),
    ]
}

#[test]
fn offsets_indirect_counts_and_tunings() {
    let ctx = context();
    let mut rng = Rng(12);
    let keys: Vec<u32> = (0..50_000)
        .map(|i| if i % 3 == 0 { 42 } else { rng.next_u32() })
        .collect();
    for tuning in tunings() {
        for (m, offset_bits) in [(1u32, 0u32), (32, 5), (1024, 20)] {
            let plan = ctx
                .histogram_plan(&HistogramDesc {
                    tuning,
                    bit_offset: offset_bits,
                    ..HistogramDesc::new(KeyType::U32, m, BucketFn::Bits, keys.len() as u64)
                })
                .unwrap();
            if let Some(t) = tuning {
                assert_eq!(plan.shared_counts(), m <= t.shared_buckets, "{t:?} m {m}");
            }
            for (offset, indirect) in [
                (0, None),
                (24, Some(31_337u32)),
                (8, Some(0)),
                (16, Some(u32::MAX)),
            ] {
                let input = Input {
                    keys: &keys,
                    splitters: None,
                    ids: None,
                };
                let (got, status, poison) = record(&ctx, &plan, &input, offset, indirect);
                let n = indirect.map_or(keys.len(), |c| (c as usize).min(keys.len()));
                let b = Bucketing::Bits {
                    bucket_count: m,
                    bit_offset: offset_bits,
                };
                let want: Vec<u32> = reference::histogram(&keys[..n], &b)
                    .unwrap()
                    .into_iter()
                    .map(|c| c as u32)
                    .collect();
                assert_eq!(
                    got, want,
                    "{tuning:?} m {m} offset {offset} indirect {indirect:?}"
                );
                assert_eq!(status, 0, "status");
                assert!(poison, "{tuning:?}: written outside the counts");
            }
        }
    }
}

/// SPLITTERS and IDS through the record layer, shared and global, the largest bucket count.
#[test]
fn splitters_and_ids() {
    let ctx = context();
    let mut rng = Rng(13);
    let keys: Vec<u32> = (0..30_001).map(|_| rng.next_u32()).collect();
    for tuning in tunings() {
        for m in [1u32, 3, 300, MAX_BUCKETS] {
            let splitters = splitters_for(&keys, m, &mut rng);
            let plan = ctx
                .histogram_plan(&HistogramDesc {
                    tuning,
                    ..HistogramDesc::new(KeyType::U32, m, BucketFn::Splitters, keys.len() as u64)
                })
                .unwrap();
            let input = Input {
                keys: &keys,
                splitters: Some(&splitters),
                ids: None,
            };
            let (got, status, poison) = record(&ctx, &plan, &input, 16, None);
            let want = reference::histogram(&keys, &Bucketing::Splitters(&splitters)).unwrap();
            assert!(
                got.iter().zip(&want).all(|(&a, &b)| a as u64 == b),
                "splitters m {m}"
            );
            assert!(status == 0 && poison, "splitters m {m}");
            let ids: Vec<u32> = (0..keys.len()).map(|_| rng.next_u32() % m).collect();
            let plan = ctx
                .histogram_plan(&HistogramDesc {
                    tuning,
                    ..HistogramDesc::new(KeyType::U32, m, BucketFn::Ids, keys.len() as u64)
                })
                .unwrap();
            let input = Input {
                keys: &keys,
                splitters: None,
                ids: Some(&ids),
            };
            let (got, status, poison) = record(&ctx, &plan, &input, 0, Some(20_000));
            let want = reference::count(&ids[..20_000], m).unwrap();
            assert!(got.iter().zip(&want).all(|(&a, &b)| a as u64 == b), "ids m {m}");
            assert!(status == 0 && poison, "ids m {m}");
        }
    }
}

/// An id >= m sets the status bit and leaves the counts untouched (shared and global).
#[test]
fn out_of_range_id_changes_nothing() {
    let ctx = context();
    let keys: Vec<u32> = (0..5000).collect();
    for tuning in tunings() {
        for bad_at in [0usize, 4999] {
            let mut ids: Vec<u32> = (0..5000).map(|i| i % 10).collect();
            ids[bad_at] = 10 + bad_at as u32;
            let plan = ctx
                .histogram_plan(&HistogramDesc {
                    tuning,
                    ..HistogramDesc::new(KeyType::U32, 10, BucketFn::Ids, 5000)
                })
                .unwrap();
            let input = Input {
                keys: &keys,
                splitters: None,
                ids: Some(&ids),
            };
            let (got, status, poison) = record(&ctx, &plan, &input, 0, None);
            assert_eq!(status & STATUS_BAD_BUCKET, STATUS_BAD_BUCKET, "{tuning:?}");
            assert!(got.iter().all(|&c| c == 0xA5A5_A5A5), "counts written: {got:?}");
            assert!(poison);
        }
    }
}

/// Two histograms of one plan with one scratch in one command buffer.
#[test]
fn scratch_reused_in_one_command_buffer() {
    let ctx = context();
    let a: Vec<u32> = (0..10_000).map(|i| i * 3).collect();
    let b: Vec<u32> = (0..7_000).map(|i| i ^ 0x5555).collect();
    let plan = ctx
        .histogram_plan(&HistogramDesc::new(KeyType::U32, 16, BucketFn::Bits, 10_000))
        .unwrap();
    let scratch_bytes = plan.memory_requirements().scratch.size;
    let mut buf = GpuBuffer::new(&ctx, 1 << 18, MemoryLocation::CpuToGpu, "t").unwrap();
    {
        let m = buf.mapped().unwrap();
        m[..40_000].copy_from_slice(bytemuck::cast_slice(&a));
        m[40_000..68_000].copy_from_slice(bytemuck::cast_slice(&b));
    }
    let args = |keys: vkalgo::BufferRange, at: u64| HistogramArgs {
        keys,
        splitters: None,
        bucket_ids: None,
        counts: buf.sub_range(at, 64),
        scratch: buf.sub_range(1 << 17, scratch_bytes),
        count: ElementCount::Direct(keys.size / 4),
        params: [0; 4],
    };
    let (first, second) = (
        args(buf.sub_range(0, 40_000), 70_000),
        args(buf.sub_range(40_000, 28_000), 70_064),
    );
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(&ctx, cmd);
        plan.record(cmd, &first)?;
        use vkalgo::ash::vk;
        let stages = vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER;
        let access =
            vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::SHADER_READ | vk::AccessFlags::TRANSFER_WRITE;
        ctx.memory_barrier(cmd, stages, access, stages, access);
        plan.record(cmd, &second)?;
        compute_to_host(&ctx, cmd);
        Ok(())
    })
    .unwrap();
    let m = buf.mapped().unwrap();
    let counts = |at: usize| -> Vec<u64> {
        bytemuck::cast_slice::<u8, u32>(&m[at..at + 64])
            .iter()
            .map(|&c| c as u64)
            .collect()
    };
    let bits = Bucketing::Bits {
        bucket_count: 16,
        bit_offset: 0,
    };
    assert_eq!(counts(70_000), reference::histogram(&a, &bits).unwrap());
    assert_eq!(counts(70_064), reference::histogram(&b, &bits).unwrap());
}
