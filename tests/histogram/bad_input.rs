//! Bad input changes nothing and says why: plans against the bucket functions' rules, counts
//! over the plan's or the library's maximum, missing, overlapping or misaligned ranges, a null
//! command buffer, bad tunings, bad host data.

use super::*;

#[test]
fn plans_refused() {
    let ctx = context();
    let new = |m: u32, f: BucketFn| HistogramDesc::new(KeyType::U32, m, f, 100);
    let cases = [
        (
            "count over the maximum",
            HistogramDesc::new(KeyType::U32, 4, BucketFn::Bits, 1 << 32),
        ),
        ("no buckets", new(0, BucketFn::Ids)),
        ("too many buckets", new(MAX_BUCKETS + 1, BucketFn::Ids)),
        ("BITS of 3 buckets", new(3, BucketFn::Bits)),
        (
            "bit offset past the key",
            HistogramDesc {
                bit_offset: 32,
                ..new(4, BucketFn::Bits)
            },
        ),
        ("GLSL without a source", new(4, BucketFn::Glsl)),
    ];
    for (what, desc) in cases {
        assert!(
            matches!(ctx.histogram_plan(&desc), Err(Error::InvalidArgument(_))),
            "{what}"
        );
    }
    let bad_tunings = [
        (48, 4, 8, 0),
        (2048, 4, 8, 0),
        (64, 0, 8, 0),
        (64, 17, 8, 0),
        (64, 4, 0, 0),
        (64, 4, 65536, 0),
        (64, 4, 8, 1 << 30),
    ];
    for (workgroup_size, items_per_invocation, max_workgroups, shared_buckets) in bad_tunings {
        let tuning = HistogramTuning {
            workgroup_size,
            items_per_invocation,
            max_workgroups,
            shared_buckets,
        };
        let desc = HistogramDesc {
            tuning: Some(tuning),
            ..new(4, BucketFn::Bits)
        };
        assert!(
            matches!(ctx.histogram_plan(&desc), Err(Error::InvalidArgument(_))),
            "{tuning:?}"
        );
    }
    let broken = HistogramDesc {
        glsl: Some("uint vkalgo_bucket(uint k) { return k +; }".into()),
        ..new(4, BucketFn::Glsl)
    };
    assert!(matches!(ctx.histogram_plan(&broken), Err(Error::CompileError(_))));
}

#[test]
fn records_refused_before_anything_is_recorded() {
    let ctx = context();
    let plan = ctx
        .histogram_plan(&HistogramDesc::new(KeyType::U64, 8, BucketFn::Splitters, 1000))
        .unwrap();
    let scratch_bytes = plan.memory_requirements().scratch.size;
    let mut buf = GpuBuffer::new(&ctx, 1 << 16, MemoryLocation::CpuToGpu, "t").unwrap();
    buf.mapped().unwrap().fill(0xA5);
    let good = HistogramArgs {
        keys: buf.sub_range(0, 8000),
        splitters: Some(buf.sub_range(8192, 56)),
        bucket_ids: None,
        counts: buf.sub_range(8448, 32),
        scratch: buf.sub_range(16384, scratch_bytes),
        count: ElementCount::Direct(1000),
        params: [0; 4],
    };
    let cases = [
        (
            "count over the plan's",
            HistogramArgs {
                count: ElementCount::Direct(1001),
                ..good
            },
        ),
        (
            "counts inside the keys",
            HistogramArgs {
                counts: buf.sub_range(80, 32),
                ..good
            },
        ),
        (
            "scratch over the counts",
            HistogramArgs {
                scratch: buf.sub_range(8448, scratch_bytes),
                ..good
            },
        ),
        (
            "counts over the splitters",
            HistogramArgs {
                counts: buf.sub_range(8200, 32),
                ..good
            },
        ),
        (
            "misaligned keys",
            HistogramArgs {
                keys: buf.sub_range(4, 8000),
                ..good
            },
        ),
        (
            "misaligned counts",
            HistogramArgs {
                counts: buf.sub_range(8450, 32),
                ..good
            },
        ),
        (
            "short keys",
            HistogramArgs {
                keys: buf.sub_range(0, 7992),
                ..good
            },
        ),
        (
            "short counts",
            HistogramArgs {
                counts: buf.sub_range(8448, 28),
                ..good
            },
        ),
        (
            "short scratch",
            HistogramArgs {
                scratch: buf.sub_range(16384, scratch_bytes - 16),
                ..good
            },
        ),
        (
            "short splitters",
            HistogramArgs {
                splitters: Some(buf.sub_range(8192, 48)),
                ..good
            },
        ),
        (
            "no splitters",
            HistogramArgs {
                splitters: None,
                ..good
            },
        ),
        (
            "ids with splitters",
            HistogramArgs {
                bucket_ids: Some(buf.sub_range(24_000, 4000)),
                ..good
            },
        ),
        (
            "keys past the buffer",
            HistogramArgs {
                keys: buf.sub_range((1 << 16) - 4000, 8000),
                ..good
            },
        ),
    ];
    ctx.submit_and_wait(|cmd| unsafe {
        for (what, args) in &cases {
            match plan.record(cmd, args) {
                Err(Error::InvalidArgument(_)) => {}
                other => panic!("{what}: {other:?}"),
            }
        }
        match plan.record(vkalgo::ash::vk::CommandBuffer::null(), &good) {
            Err(Error::InvalidArgument(_)) => {}
            other => panic!("null command buffer: {other:?}"),
        }
        Ok(())
    })
    .unwrap();
    assert!(
        buf.mapped().unwrap().iter().all(|&b| b == 0xA5),
        "a refused call wrote"
    );
}

#[test]
fn host_data_refused() {
    let ctx = context();
    let keys: Vec<i32> = (0..100).collect();
    let unsorted = [5i32, 3];
    let e = ctx
        .histogram(&keys, &Bucketing::Splitters(&unsorted))
        .unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
    let ids = [0u32; 99];
    let e = ctx
        .histogram(
            &keys,
            &Bucketing::Ids {
                bucket_count: 2,
                ids: &ids,
            },
        )
        .unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
    let e = ctx
        .histogram(
            &keys,
            &Bucketing::Bits {
                bucket_count: 6,
                bit_offset: 0,
            },
        )
        .unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
    // Zero keys: all counts zero, for every bucket function.
    let none: [i32; 0] = [];
    assert_eq!(
        ctx.histogram(&none, &Bucketing::Splitters(&[1, 2])).unwrap(),
        vec![0; 3]
    );
    assert_eq!(
        ctx.histogram(
            &none,
            &Bucketing::Ids {
                bucket_count: 4,
                ids: &[]
            }
        )
        .unwrap(),
        vec![0; 4]
    );
}
