//! Bad input is refused and changes nothing.

use super::*;

#[test]
fn refused_and_nothing_written() {
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
            ..Default::default()
        }),
        Err(Error::InvalidArgument(_))
    ));
    // The context stays usable.
    let mut out = vec![0u32; 3];
    ctx.scan_u32(&[1, 2, 3], &mut out, ScanOp::Exclusive).unwrap();
    assert_eq!(out, vec![0, 1, 3]);
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
        let c = c_default_context();
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
                let r = vkalgo_scan_host(c, d, input.as_ptr().cast(), output.as_mut_ptr().cast(), n);
                assert_eq!(r, VkalgoResult::VkalgoErrorInvalidArgument, "{op:?} {what}");
                assert_eq!(output, [7; 3]);
            }
            let r = vkalgo_scan_host(c, &desc, input.as_ptr().cast(), output.as_mut_ptr().cast(), 3);
            assert_eq!((r, output), (VkalgoResult::VkalgoSuccess, want), "{op:?}");
            output = [7; 3];
        }
        vkalgo_context_destroy(c);
    }
}
