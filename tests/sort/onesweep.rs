//! Onesweep's forced fallback, ring wrap and constant scratch.

use super::*;

#[test]
fn scratch_is_constant_and_small() {
    let ctx = context();
    for max_count in [1u64 << 12, 1 << 20, vkalgo::sort::SORT_MAX_COUNT] {
        let plan = ctx
            .sort_plan(&SortDesc {
                path: SortPath::Onesweep,
                ..SortDesc::new(KeyType::U64, ValueType::U64, max_count)
            })
            .unwrap();
        let req = plan.memory_requirements();
        assert!(
            req.scratch.size <= 2 << 20,
            "{max_count}: {} bytes",
            req.scratch.size
        );
        assert_eq!(req.keys_alt.size, max_count * 8);
        assert_eq!(req.values_alt.size, max_count * 8);
    }
}

/// Onesweep with a look-back that gives up after one poll: predecessors that have not
/// published are counted by the waiting tile itself (the fallback), and results stay exact.
/// With several lavapipe threads (scripts/test.sh runs LP_NUM_THREADS=4) tiles really do
/// run concurrently; the ring wraps (over 1016 tiles per pass) in the larger case.
#[test]
fn forced_fallback_and_ring_wrap() {
    let ctx = context();
    let mut rng = Rng(77);
    // (96 x 3: a workgroup size that is not a power of two, and an odd number of keys.)
    // lookback_spins 1: a waiter gives up after one poll; u32::MAX: the test mode in which every
    // tile counts its nearest predecessor itself (the counters must show it).
    let cases = [
        (64u32, 8u32, 50_000usize, 1u32),
        (96, 3, 30_000, 1),
        (32, 1, 40_000, 1),
        (64, 8, 50_000, u32::MAX),
        (96, 3, 30_000, u32::MAX),
    ];
    for (wg, keys_per_thread, n, lookback_spins) in cases {
        let tuning = vkalgo::SortTuning {
            workgroup_size: wg,
            keys_per_thread,
            lookback_spins,
            stage_split: if keys_per_thread % 2 == 0 { 2 } else { 1 },
        };
        let keys: Vec<u32> = (0..n).map(|_| rng.next_u32() % 3000).collect();
        let desc = SortDesc {
            path: SortPath::Onesweep,
            tuning: Some(tuning),
            ..SortDesc::new(KeyType::U32, ValueType::U32, n as u64)
        };
        let plan = ctx.sort_plan(&desc).unwrap();
        assert!(n as u64 / plan.tile_size() > 1016 || wg != 32);
        let bytes = n as u64 * 4;
        let upload = |data: &[u32]| {
            let mut b = GpuBuffer::new(&ctx, bytes, MemoryLocation::CpuToGpu, "fallback data").unwrap();
            b.mapped().unwrap()[..bytes as usize].copy_from_slice(bytemuck::cast_slice(data));
            b
        };
        let values: Vec<u32> = (0..n as u32).collect();
        let (mut k, mut v) = (upload(&keys), upload(&values));
        let (mut ka, mut va) = (upload(&values), upload(&values));
        let mut scratch = GpuBuffer::new(
            &ctx,
            plan.memory_requirements().scratch.size,
            MemoryLocation::GpuToCpu,
            "s",
        )
        .unwrap();
        let args = SortArgs {
            keys: k.range(),
            values: Some(v.range()),
            keys_alt: ka.range(),
            values_alt: Some(va.range()),
            scratch: scratch.range(),
            count: ElementCount::Direct(n as u64),
        };
        ctx.submit_and_wait(|cmd| unsafe {
            plan.record(cmd, &args)?;
            common::compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        let (got_keys, got_values) = match plan.result_location() {
            SortResult::InPlace => (read(&mut k), read(&mut v)),
            SortResult::Alternate => (read(&mut ka), read(&mut va)),
        };
        let mut want_keys = keys.clone();
        let mut want_values = values.clone();
        reference::sort_pairs(&mut want_keys, Some(&mut want_values), 0, 0, false);
        assert_eq!(got_keys[..n], want_keys[..], "{wg}x{keys_per_thread}");
        assert_eq!(got_values[..n], want_values[..], "{wg}x{keys_per_thread}");
        if lookback_spins == u32::MAX {
            // Keys below 3000: the two low digits vary, the two high ones are copied (no
            // look-back), so at least (tiles - 1) fallbacks per ranked pass.
            let stats = read(&mut scratch);
            let fallbacks = stats[(vkalgo::sort::ONESWEEP_STATS_OFFSET / 4) as usize] as u64;
            let tiles = (n as u64).div_ceil(plan.tile_size());
            assert!(
                fallbacks >= 2 * (tiles - 1),
                "{wg}x{keys_per_thread}: {fallbacks} fallbacks counted, {tiles} tiles"
            );
        }
    }
}
