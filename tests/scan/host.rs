//! Scans through the host layer: sizes around the tiles on both paths and with both operators,
//! large inputs, tunings, the small path.

use super::*;

/// Adversarial inputs: full-range random (sums wrap), all 0xFFFFFFFF, ones, a single spike.
fn datasets(n: usize, seed: u64) -> Vec<(&'static str, Vec<u32>)> {
    let mut spike = vec![0u32; n];
    if n > 0 {
        spike[n / 2] = 0xFFFF_FFFF;
    }
    vec![
        ("random", Rng(seed).vec_u32(n)),
        ("all_max", vec![u32::MAX; n]),
        ("ones", vec![1; n]),
        ("spike", spike),
    ]
}

#[test]
fn sizes_around_tiles_both_paths_both_ops() {
    let ctx = context();
    let tile = ctx
        .scan_plan(&ScanDesc::new(ScanOp::Exclusive, 1))
        .unwrap()
        .tile_size() as usize;
    let sizes = [
        1,
        2,
        3,
        31,
        255,
        tile - 1,
        tile,
        tile + 1,
        2 * tile - 1,
        3 * tile + 7,
        65_537,
        1 << 16,
        1 << 18,
        999_983,
    ];
    for path in PATHS {
        for op in [ScanOp::Exclusive, ScanOp::Inclusive] {
            for &n in &sizes {
                for (name, data) in datasets(n, n as u64) {
                    check(&ctx, path, op, n, Layout::default(), &data, name);
                }
            }
        }
    }
}

#[test]
fn count_zero_records_nothing() {
    let ctx = context();
    for path in PATHS {
        let plan = ctx
            .scan_plan(&ScanDesc {
                op: ScanOp::Exclusive,
                path,
                max_count: 64,
                tuning: None,
                keep_scratch_zeroed: false,
                ..Default::default()
            })
            .unwrap();
        let got = record_scan(&ctx, &plan, &[7; 64], 0, Layout::default()).unwrap();
        assert!(got.iter().all(|&w| w == POISON), "{path:?}: count 0 wrote output");
    }
}

#[test]
fn large_inputs() {
    let ctx = context();
    for path in PATHS {
        let n = 1 << 22;
        let data = Rng(22).vec_u32(n);
        check(
            &ctx,
            path,
            ScanOp::Exclusive,
            n,
            Layout::default(),
            &data,
            "random 2^22",
        );
    }
    let n = (1 << 23) + 12345;
    let data = Rng(23).vec_u32(n);
    check(
        &ctx,
        ScanPath::Lookback,
        ScanOp::Inclusive,
        n,
        Layout::default(),
        &data,
        "random 2^23+12345",
    );
    // Above 2^25 a look-back plan with the default tuning takes large tiles (GPUs that allow
    // workgroups of 1024 invocations; too slow for a CPU driver in every test configuration).
    if !ctx.is_cpu_device() {
        let n = (1 << 25) + 12345;
        let data = Rng(25).vec_u32(n);
        for op in [ScanOp::Exclusive, ScanOp::Inclusive] {
            check(
                &ctx,
                ScanPath::Auto,
                op,
                n,
                Layout::default(),
                &data,
                "random 2^25+12345",
            );
        }
    }
}

#[test]
fn tunings() {
    let ctx = context();
    let n = 123_457;
    let data = Rng(3).vec_u32(n);
    for (workgroup_size, vecs_per_thread) in [(64, 1), (128, 3), (256, 6), (512, 8)] {
        let tuning = Some(vkalgo::ScanTuning {
            workgroup_size,
            vecs_per_thread,
            lookback_spins: 0,
        });
        for path in PATHS {
            let plan = ctx
                .scan_plan(&ScanDesc {
                    op: ScanOp::Exclusive,
                    path,
                    max_count: n as u64,
                    tuning,
                    keep_scratch_zeroed: false,
                    ..Default::default()
                })
                .unwrap();
            let got = record_scan(&ctx, &plan, &data, n as u64, Layout::default()).unwrap();
            assert!(
                got == reference::scan_u32(&data, ScanOp::Exclusive),
                "{path:?} {workgroup_size}x{vecs_per_thread}"
            );
        }
    }
}

#[test]
fn host_layer() {
    let ctx = context();
    for n in [0usize, 1, 1000, 100_003] {
        let data = Rng(n as u64 + 1).vec_u32(n);
        let mut out = vec![POISON; n];
        ctx.scan_u32(&data, &mut out, ScanOp::Exclusive).unwrap();
        assert!(
            out == reference::scan_u32(&data, ScanOp::Exclusive),
            "host exclusive n={n}"
        );
        let mut in_place = data.clone();
        ctx.scan_u32_in_place(&mut in_place, ScanOp::Inclusive).unwrap();
        assert!(
            in_place == reference::scan_u32(&data, ScanOp::Inclusive),
            "host in place n={n}"
        );
    }
    let mut short = vec![0u32; 3];
    assert!(matches!(
        ctx.scan_u32(&[1, 2, 3, 4], &mut short, ScanOp::Exclusive),
        Err(vkalgo::Error::InvalidArgument(_))
    ));
    assert_eq!(short, vec![0; 3]);
}

/// The small path (one workgroup, one dispatch): sizes around tiles (the plan's, and the
/// small geometries' 1024, 4096 / 8192 and 16384 elements), in place and out of place, direct
/// and indirect counts, both ops; and its bound on CPU drivers.
#[test]
fn small_path() {
    let ctx = context();
    let tile = ctx
        .scan_plan(&ScanDesc::new(ScanOp::Exclusive, 1))
        .unwrap()
        .tile_size() as usize;
    for (i, n) in [
        1,
        7,
        1025,
        tile - 1,
        tile,
        tile + 1,
        8193,
        16_384,
        16_385,
        5 * tile + 3,
        100_000,
    ]
    .into_iter()
    .enumerate()
    {
        for op in [ScanOp::Exclusive, ScanOp::Inclusive] {
            for (name, data) in datasets(n, 50 + i as u64) {
                check(&ctx, ScanPath::Small, op, n, Layout::default(), &data, name);
            }
            let data = Rng(60 + i as u64).vec_u32(n);
            for layout in [
                Layout {
                    in_place: true,
                    ..Default::default()
                },
                Layout {
                    indirect: true,
                    input_offset: 4,
                    output_offset: 12,
                    ..Default::default()
                },
            ] {
                check(&ctx, ScanPath::Small, op, n, layout, &data, "random");
            }
        }
    }
    // Auto plans report their small limit (0 on CPU drivers); a forced small plan on a CPU
    // driver is bounded by its loop cap.
    let auto = ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, 1 << 20)).unwrap();
    assert_eq!(auto.small_limit() == 0, ctx.is_cpu_device());
    if ctx.is_cpu_device() {
        let huge = ctx.scan_plan(&ScanDesc {
            path: ScanPath::Small,
            ..ScanDesc::new(ScanOp::Exclusive, 1 << 30)
        });
        assert!(matches!(huge, Err(vkalgo::Error::InvalidArgument(_))), "{huge:?}");
    }
}
