//! The look-back path: fallbacks stay exact and leave the scratch zeroed.

use super::*;

/// With one spin allowed, look-back waiters compute stalled predecessors' aggregates from the
/// input (the fallback) whenever a predecessor has not published yet; with `u32::MAX` (the test
/// mode) every tile computes its nearest predecessor's aggregate itself, and the counter in
/// scratch proves the fallback ran. Results stay exact.
///
/// The larger count has more tiles than the workgroup-wide look-back window serves, so its
/// tiles read their window with one subgroup; the smaller one's (98 and 391 tiles) with the
/// whole workgroup.
#[test]
fn fallback_is_exact() {
    let ctx = context();
    for (n, lookback_spins) in [1_000_003, 100_003]
        .into_iter()
        .flat_map(|n| [(n, 1), (n, u32::MAX)])
    {
        let data = Rng(77 + n as u64).vec_u32(n);
        for vecs_per_thread in [1, 4] {
            let tuning = Some(vkalgo::ScanTuning {
                workgroup_size: 64,
                vecs_per_thread,
                lookback_spins,
            });
            let plan = ctx
                .scan_plan(&ScanDesc {
                    op: ScanOp::Inclusive,
                    path: ScanPath::Lookback,
                    max_count: n as u64,
                    tuning,
                    keep_scratch_zeroed: false,
                    ..Default::default()
                })
                .unwrap();
            let tiles = (n as u64).div_ceil(plan.tile_size());
            for _ in 0..2 {
                let (got, fallbacks) =
                    record_scan_counted(&ctx, &plan, &data, n as u64, Layout::default()).unwrap();
                assert!(
                    got == reference::scan_u32(&data, ScanOp::Inclusive),
                    "fallback n={n} v={vecs_per_thread} spins={lookback_spins}"
                );
                if lookback_spins == u32::MAX {
                    assert!(
                        fallbacks as u64 >= tiles - 1,
                        "test mode: {fallbacks} fallbacks counted, {tiles} tiles"
                    );
                }
            }
        }
    }
}

/// A look-back plan that keeps its scratch zeroed: no clear is recorded, every scan leaves the
/// scratch zeroed again (the fallback count of the test mode aside), and results stay exact
/// across many calls of different sizes, direct and indirect, with forced fallbacks too.
#[test]
fn keeps_scratch_zeroed() {
    use vkalgo::{ElementCount, GpuBuffer, MemoryLocation, ScanArgs, ScanTuning};
    let ctx = context_with_lookback(true);
    if !ctx.profile().int64_atomics {
        return; // the look-back path needs 64-bit atomics (checked in plan tests)
    }
    let max = 300_000u64;
    // Tiles of 128 elements: over 512 tiles, where the scan runs plain and a fill restores
    // the zeros.
    let tiny = ScanTuning {
        workgroup_size: 32,
        vecs_per_thread: 1,
        lookback_spins: 0,
    };
    // No tuning: the default plan, whose counts up to 2^18 run in smaller tiles, so the rounds
    // below switch between the two tile sizes on one scratch.
    for (spins, tuning) in [
        (0, Some(ScanTuning::for_device(&ctx))),
        (u32::MAX, Some(ScanTuning::for_device(&ctx))),
        (0, Some(tiny)),
        (0, None),
    ] {
        let plan = ctx
            .scan_plan(&ScanDesc {
                op: ScanOp::Inclusive,
                path: ScanPath::Lookback,
                max_count: max,
                tuning: tuning.map(|t| ScanTuning {
                    lookback_spins: spins,
                    ..t
                }),
                keep_scratch_zeroed: true,
                ..Default::default()
            })
            .unwrap();
        let scratch_bytes = plan.memory_requirements().scratch.size;
        let mut scratch = GpuBuffer::new(&ctx, scratch_bytes, MemoryLocation::GpuToCpu, "scratch").unwrap();
        scratch.mapped().unwrap().fill(0);
        let mut input = GpuBuffer::new(&ctx, max * 4, MemoryLocation::CpuToGpu, "in").unwrap();
        let mut output = GpuBuffer::new(&ctx, max * 4, MemoryLocation::GpuToCpu, "out").unwrap();
        let mut count = GpuBuffer::new(&ctx, 16, MemoryLocation::CpuToGpu, "count").unwrap();
        for (round, n) in [300_000u64, 5, 123_457, 4096 * 3 + 1, 300_000, 77]
            .into_iter()
            .enumerate()
        {
            let seed = round as u64 + spins as u64 + tuning.map_or(1, |t| t.workgroup_size as u64);
            let data = Rng(seed).vec_u32(n as usize);
            bytemuck::cast_slice_mut::<u8, u32>(input.mapped().unwrap())[..n as usize].copy_from_slice(&data);
            count.mapped().unwrap()[..4].copy_from_slice(&(n as u32).to_le_bytes());
            let indirect = round % 2 == 1;
            let args = ScanArgs {
                input: input.sub_range(0, max * 4),
                output: output.sub_range(0, max * 4),
                scratch: scratch.range(),
                count: if indirect {
                    ElementCount::Indirect(count.sub_range(0, 4))
                } else {
                    ElementCount::Direct(n)
                },
            };
            let args = if indirect {
                args
            } else {
                ScanArgs {
                    input: input.sub_range(0, n * 4),
                    output: output.sub_range(0, n * 4),
                    ..args
                }
            };
            ctx.submit_and_wait(|cmd| unsafe {
                host_to_compute(&ctx, cmd);
                plan.record(cmd, &args)?;
                compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap();
            let got = &bytemuck::cast_slice::<u8, u32>(output.mapped().unwrap())[..n as usize];
            assert!(
                got == reference::scan_u32(&data, ScanOp::Inclusive),
                "spins {spins} round {round} n {n}"
            );
            let words: &[u32] = bytemuck::cast_slice(scratch.mapped().unwrap());
            let dirty = words.iter().enumerate().find(|&(i, &w)| i != 1 && w != 0);
            assert!(
                dirty.is_none(),
                "spins {spins} round {round}: scratch word {dirty:?} left non-zero"
            );
            if spins == u32::MAX && n > 8192 {
                assert!(words[1] > 0, "the test mode ran the fallback");
            }
        }
    }
}
