//! Prefix scan on a real Vulkan device (lavapipe in CI), compared exactly with the CPU
//! reference, through the record layer and the host layer, on both paths.

mod common;
use common::*;
use vkalgo::scan::reference;
use vkalgo::{ScanDesc, ScanOp, ScanPath};

const PATHS: [ScanPath; 2] = [ScanPath::ReduceThenScan, ScanPath::Lookback];

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

fn check(
    ctx: &vkalgo::Context,
    path: ScanPath,
    op: ScanOp,
    n: usize,
    layout: Layout,
    data: &[u32],
    what: &str,
) {
    let plan = ctx
        .scan_plan(&ScanDesc {
            op,
            path,
            max_count: n as u64,
            tuning: None,
            keep_scratch_zeroed: false,
        })
        .unwrap();
    let got = record_scan(ctx, &plan, data, n as u64, layout).unwrap();
    let expected = reference::scan_u32(data, op);
    if got != expected {
        let first = got.iter().zip(&expected).position(|(a, b)| a != b).unwrap();
        panic!(
            "{what}: {path:?} {op:?} n={n} {layout:?}: first mismatch at {first}: got {} expected {}",
            got[first], expected[first]
        );
    }
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
    assert_no_validation_messages(&ctx);
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
            })
            .unwrap();
        let got = record_scan(&ctx, &plan, &[7; 64], 0, Layout::default()).unwrap();
        assert!(got.iter().all(|&w| w == POISON), "{path:?}: count 0 wrote output");
    }
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
}

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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
                })
                .unwrap();
            let got = record_scan(&ctx, &plan, &data, n as u64, Layout::default()).unwrap();
            assert!(
                got == reference::scan_u32(&data, ScanOp::Exclusive),
                "{path:?} {workgroup_size}x{vecs_per_thread}"
            );
        }
    }
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
}

/// With one spin allowed, look-back waiters compute stalled predecessors' aggregates from the
/// input (the fallback) whenever a predecessor has not published yet; with `u32::MAX` (the test
/// mode) every tile computes its nearest predecessor's aggregate itself, and the counter in
/// scratch proves the fallback ran. Results stay exact.
///
/// The larger count has more tiles than the workgroup-wide look-back window serves, so its
/// tiles read their window with one subgroup; the smaller one's (98 and 391 tiles) with the
/// whole workgroup.
#[test]
fn lookback_fallback_is_exact() {
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
    assert_no_validation_messages(&ctx);
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    use vkalgo::{BufferRange, ElementCount, Error, GpuBuffer, MemoryLocation, ScanArgs};
    let ctx = context();
    let plan = ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, 1000)).unwrap();
    let buf = GpuBuffer::new(&ctx, 1 << 16, MemoryLocation::GpuOnly, "bad input").unwrap();
    let scratch = GpuBuffer::new(
        &ctx,
        plan.memory_requirements().scratch.size,
        MemoryLocation::GpuOnly,
        "s",
    )
    .unwrap();
    let good = ScanArgs {
        input: buf.sub_range(0, 4000),
        output: buf.sub_range(8192, 4000),
        scratch: scratch.range(),
        count: ElementCount::Direct(1000),
    };
    let null = vkalgo::ash::vk::Buffer::null();
    let cases: Vec<(&str, ScanArgs)> = vec![
        (
            "count over max",
            ScanArgs {
                count: ElementCount::Direct(1001),
                ..good
            },
        ),
        (
            "misaligned input",
            ScanArgs {
                input: buf.sub_range(2, 4000),
                ..good
            },
        ),
        (
            "misaligned output",
            ScanArgs {
                output: buf.sub_range(8194, 4000),
                ..good
            },
        ),
        (
            "input too small",
            ScanArgs {
                input: buf.sub_range(0, 3996),
                ..good
            },
        ),
        (
            "null input",
            ScanArgs {
                input: BufferRange::new(null, 0, 4000),
                ..good
            },
        ),
        (
            "partial overlap",
            ScanArgs {
                output: buf.sub_range(400, 4000),
                ..good
            },
        ),
        (
            "scratch too small",
            ScanArgs {
                scratch: scratch.sub_range(0, plan.memory_requirements().scratch.size - 4),
                ..good
            },
        ),
        (
            "scratch misaligned",
            ScanArgs {
                scratch: scratch.sub_range(4, plan.memory_requirements().scratch.size),
                ..good
            },
        ),
        (
            "scratch overlaps input",
            ScanArgs {
                scratch: buf.sub_range(0, 4096),
                ..good
            },
        ),
        (
            "count buffer overlaps output",
            ScanArgs {
                count: ElementCount::Indirect(buf.sub_range(8192, 4)),
                ..good
            },
        ),
        (
            "count buffer misaligned",
            ScanArgs {
                count: ElementCount::Indirect(buf.sub_range(16386, 4)),
                ..good
            },
        ),
    ];
    ctx.submit_and_wait(|cmd| {
        for (what, args) in &cases {
            match unsafe { plan.record(cmd, args) } {
                Err(Error::InvalidArgument(m)) => assert!(!m.is_empty(), "{what}"),
                other => panic!("{what}: expected InvalidArgument, got {other:?}"),
            }
        }
        assert!(matches!(
            unsafe { plan.record(vkalgo::ash::vk::CommandBuffer::null(), &good) },
            Err(Error::InvalidArgument(_))
        ));
        Ok(())
    })
    .unwrap();
    assert!(matches!(
        ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, 1 << 33)),
        Err(Error::InvalidArgument(_))
    ));
    let bad_tuning = Some(vkalgo::ScanTuning {
        workgroup_size: 100,
        vecs_per_thread: 4,
        lookback_spins: 0,
    });
    assert!(matches!(
        ctx.scan_plan(&ScanDesc {
            op: ScanOp::Exclusive,
            path: ScanPath::Auto,
            max_count: 10,
            tuning: bad_tuning,
            keep_scratch_zeroed: false,
        }),
        Err(Error::InvalidArgument(_))
    ));
    // The context stays usable.
    let mut out = vec![0u32; 3];
    ctx.scan_u32(&[1, 2, 3], &mut out, ScanOp::Exclusive).unwrap();
    assert_eq!(out, vec![0, 1, 3]);
    assert_no_validation_messages(&ctx);
}

/// Counts up to SCAN_MAX_COUNT (2^32 - 1) are planned on both paths; one more is refused with
/// InvalidArgument by the plan and by the host calls of Rust and C, from the count alone (the
/// arrays, far shorter than the count, are neither read nor written).
#[test]
fn counts_beyond_the_maximum_are_refused() {
    use vkalgo::scan::SCAN_MAX_COUNT;
    use vkalgo::Error;
    let ctx = context();
    assert_eq!(SCAN_MAX_COUNT, u32::MAX as u64);
    for path in [ScanPath::Auto, ScanPath::ReduceThenScan, ScanPath::Lookback] {
        let desc = |max_count| ScanDesc {
            path,
            ..ScanDesc::new(ScanOp::Inclusive, max_count)
        };
        let plan = ctx.scan_plan(&desc(SCAN_MAX_COUNT)).unwrap();
        assert!(plan.memory_requirements().scratch.size < 64 << 20, "{path:?}");
        for over in [SCAN_MAX_COUNT + 1, 1 << 33, u64::MAX] {
            match ctx.scan_plan(&desc(over)) {
                Err(Error::InvalidArgument(m)) => assert!(m.contains("max_count"), "{m}"),
                other => panic!("{path:?} max_count {over}: {other:?}"),
            }
        }
    }
    unsafe {
        use vkalgo_ffi::scan::*;
        use vkalgo_ffi::types::*;
        use vkalgo_ffi::*;
        let mut c = std::ptr::null_mut();
        assert_eq!(vkalgo_context_create_default(&mut c), VkalgoResult::VkalgoSuccess);
        let input = [1u32, 2, 3];
        let mut output = [7u32; 3];
        let over = (SCAN_MAX_COUNT + 1) as usize;
        for (op, want) in [
            (VKALGO_SCAN_EXCLUSIVE, [0, 1, 3]),
            (VKALGO_SCAN_INCLUSIVE, [1, 3, 6]),
        ] {
            let desc = VkalgoScanDesc {
                op,
                ..Default::default()
            };
            // Over the maximum, an unknown path, an extension struct: refused, nothing written.
            let unknown_path = VkalgoScanDesc {
                path: VkalgoScanPath(9),
                ..desc
            };
            let extended = VkalgoScanDesc {
                next: (&desc as *const VkalgoScanDesc).cast(),
                ..desc
            };
            for (what, d, n) in [
                ("over", &desc, over),
                ("path", &unknown_path, 3),
                ("next", &extended, 3),
            ] {
                let r = vkalgo_scan_host(c, d, input.as_ptr(), output.as_mut_ptr(), n);
                assert_eq!(r, VkalgoResult::VkalgoErrorInvalidArgument, "{op:?} {what}");
                assert_eq!(output, [7; 3]);
            }
            let r = vkalgo_scan_host(c, &desc, input.as_ptr(), output.as_mut_ptr(), 3);
            assert_eq!((r, output), (VkalgoResult::VkalgoSuccess, want), "{op:?}");
            output = [7; 3];
        }
        vkalgo_context_destroy(c);
    }
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
}

/// A look-back plan that keeps its scratch zeroed: no clear is recorded, every scan leaves the
/// scratch zeroed again (the fallback count of the test mode aside), and results stay exact
/// across many calls of different sizes, direct and indirect, with forced fallbacks too.
#[test]
fn lookback_keeps_scratch_zeroed() {
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
    assert_no_validation_messages(&ctx);
}
