//! Scans through the record layer: buffer offsets, in place, indirect counts, odd tiles at
//! large offsets.

use super::*;

#[test]
fn buffer_offsets_and_unaligned_ranges() {
    let ctx = context();
    let n = 50_001;
    let data = Rng(5).vec_u32(n);
    // 16-byte aligned (vector path), and 4-byte aligned (scalar path) offsets.
    for (input_offset, output_offset) in [(16, 32), (4, 8), (12, 256), (1 << 16, 4)] {
        for path in PATHS {
            let layout = Layout {
                input_offset,
                output_offset,
                ..Default::default()
            };
            check(&ctx, path, ScanOp::Exclusive, n, layout, &data, "offsets");
        }
    }
}

#[test]
fn in_place() {
    let ctx = context();
    for path in PATHS {
        for (n, offset) in [(1usize, 0u64), (4097, 4), (300_000, 64)] {
            let data = Rng(n as u64).vec_u32(n);
            let layout = Layout {
                input_offset: offset,
                in_place: true,
                ..Default::default()
            };
            check(&ctx, path, ScanOp::Inclusive, n, layout, &data, "in place");
        }
    }
}

#[test]
fn indirect_counts_below_the_maximum() {
    let ctx = context();
    let max = 100_000u64;
    let data = Rng(9).vec_u32(max as usize);
    for path in PATHS {
        let plan = ctx
            .scan_plan(&ScanDesc {
                op: ScanOp::Exclusive,
                path,
                max_count: max,
                tuning: None,
                keep_scratch_zeroed: false,
                ..Default::default()
            })
            .unwrap();
        for count in [0u64, 1, 4095, 4096, 4097, 77_777, max] {
            let layout = Layout {
                indirect: true,
                output_offset: 16,
                ..Default::default()
            };
            let got = record_scan(&ctx, &plan, &data, count, layout).unwrap();
            let expected = reference::scan_u32(&data[..count as usize], ScanOp::Exclusive);
            assert!(
                got[..count as usize] == expected[..],
                "{path:?} indirect count {count}"
            );
            assert!(
                got[count as usize..].iter().all(|&w| w == POISON),
                "{path:?} wrote past indirect count {count}"
            );
        }
        // A count above the plan's maximum is clamped to it, never overruns.
        let got = record_scan(
            &ctx,
            &plan,
            &data,
            max + 1000,
            Layout {
                indirect: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(
            got == reference::scan_u32(&data, ScanOp::Exclusive),
            "{path:?}: clamped indirect count"
        );
    }
}

/// Ranges far into their buffers (16 MiB and more; 4-byte aligned for the scalar kernels,
/// 16-byte aligned for the vector ones) with a tile that is not a power of two and an odd
/// tile count, direct and indirect, on both paths.
#[test]
fn large_offsets_odd_tiles() {
    let ctx = context();
    let tuning = vkalgo::ScanTuning {
        workgroup_size: 64,
        vecs_per_thread: 3, // 768-element tiles
        lookback_spins: 0,
    };
    let n = 9 * 768 + 5;
    let data = Rng(41).vec_u32(n);
    for path in PATHS {
        for (input_offset, output_offset) in [((16 << 20) + 4, (20 << 20) + 8), (24 << 20, 16 << 20)] {
            for (indirect, count) in [(false, n), (true, n - 768 - 1)] {
                let plan = ctx
                    .scan_plan(&ScanDesc {
                        op: ScanOp::Exclusive,
                        path,
                        max_count: n as u64,
                        tuning: Some(tuning),
                        keep_scratch_zeroed: false,
                        ..Default::default()
                    })
                    .unwrap();
                let layout = Layout {
                    input_offset,
                    output_offset,
                    in_place: false,
                    indirect,
                };
                let got = record_scan(&ctx, &plan, &data, count as u64, layout).unwrap();
                let want = reference::scan_u32(&data[..count], ScanOp::Exclusive);
                assert_eq!(&got[..count], &want[..], "{path:?} {layout:?} count {count}");
                assert!(
                    got[count..].iter().all(|&x| x == POISON),
                    "{path:?} {layout:?}: written past count"
                );
            }
        }
    }
}
