//! Bad input through the Rust API is refused with InvalidArgument and changes nothing.

use super::*;

/// Descs a multimap cannot have.
#[test]
fn bad_descs_are_refused() {
    let ctx = context();
    let bad_descs = [
        desc::<u32, u32>(0),
        desc::<u32, u32>((1 << 31) + 1),
        HashMapDesc {
            bucket_bytes: Some(48),
            ..desc::<u32, u32>(100)
        },
        HashMapDesc {
            tuning: Some(HashTuning {
                workgroup_size: 48,
                keys_per_invocation: 1,
            }),
            ..desc::<u32, u32>(100)
        },
        HashMapDesc {
            tuning: Some(HashTuning {
                workgroup_size: 64,
                keys_per_invocation: 9,
            }),
            ..desc::<u32, u32>(100)
        },
    ];
    for d in bad_descs {
        assert!(
            matches!(HashMultimap::new(&ctx, &d), Err(Error::InvalidArgument(_))),
            "{d:?}"
        );
    }
}

#[test]
fn refused_and_nothing_written() {
    let ctx = context();
    let mm = multimap::<u32, u32>(&ctx, 1000, Some(false), 32);
    let mut model = MultimapModel::new();
    insert_all(&mm, &mut model, &[1u32, 2, 1, 3], &[10u32, 20, 11, 30]);
    let unchanged = |what: &str| check_queries::<u32, u32>(&mm, &model, &[1, 2, 3, 4], what);
    host_layer_refusals(&mm);
    unchanged("host layer");
    record_layer_refusals(&ctx, &mm);
    unchanged("record layer");
}

/// Wrong types and lengths, reserved keys.
fn host_layer_refusals(mm: &HashMultimap) {
    assert!(matches!(
        mm.insert(&[1u64], &[1u32]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        mm.insert(&[1u32], &[1u64]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        mm.insert(&[1u32, 2], &[1u32]),
        Err(Error::InvalidArgument(_))
    ));
    for reserved in [u32::MAX, u32::MAX - 1] {
        match mm.insert(&[5u32, reserved], &[1u32, 2]) {
            Err(Error::InvalidArgument(m)) => assert!(m.contains("reserved"), "{m}"),
            other => panic!("{other:?}"),
        }
        let mut counts = [7u32; 2];
        assert!(matches!(
            mm.count(&[1u32, reserved], &mut counts),
            Err(Error::InvalidArgument(_))
        ));
        assert_eq!(counts, [7, 7]);
        let mut offsets = [7u64; 3];
        let mut values = [7u32; 8];
        assert!(matches!(
            mm.retrieve_into(&[1u32, reserved], &mut offsets, &mut values),
            Err(Error::InvalidArgument(_))
        ));
        assert_eq!((offsets, values), ([7; 3], [7; 8]));
    }
    let mut counts = [0u32; 1];
    assert!(matches!(
        mm.count(&[1u32, 2], &mut counts),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        mm.count(&[1u64], &mut counts),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        mm.retrieve::<u32, u64>(&[1]),
        Err(Error::InvalidArgument(_))
    ));
}

/// A range no call accepts.
const NULL: BufferRange = BufferRange {
    buffer: vk::Buffer::null(),
    offset: 0,
    size: 400,
};

/// A good insert on `buf` and bad variants of it.
fn insert_cases(
    buf: &GpuBuffer,
) -> (
    HashMultimapInsertArgs,
    Vec<(&'static str, HashMultimapInsertArgs)>,
) {
    let null = NULL;
    let insert = HashMultimapInsertArgs {
        keys: buf.sub_range(0, 400),
        values: buf.sub_range(1024, 400),
        count: ElementCount::Direct(100),
        max_count: 0,
        failed_count: Some(buf.sub_range(8192, 4)),
    };
    let inserts = [
        (
            "keys too small",
            HashMultimapInsertArgs {
                keys: buf.sub_range(0, 396),
                ..insert
            },
        ),
        (
            "values misaligned",
            HashMultimapInsertArgs {
                values: buf.sub_range(1026, 400),
                ..insert
            },
        ),
        ("null keys", HashMultimapInsertArgs { keys: null, ..insert }),
        (
            "failed overlaps keys",
            HashMultimapInsertArgs {
                failed_count: Some(buf.sub_range(40, 4)),
                ..insert
            },
        ),
        (
            "count over u32",
            HashMultimapInsertArgs {
                count: ElementCount::Direct(1 << 32),
                ..insert
            },
        ),
        (
            "indirect max over the ranges",
            HashMultimapInsertArgs {
                count: ElementCount::Indirect(buf.sub_range(12288, 4)),
                max_count: 101,
                ..insert
            },
        ),
        (
            "count buffer overlaps failed",
            HashMultimapInsertArgs {
                count: ElementCount::Indirect(buf.sub_range(8192, 4)),
                max_count: 100,
                ..insert
            },
        ),
    ];
    (insert, inserts.to_vec())
}

/// A good count on `buf` and bad variants of it.
fn count_cases(buf: &GpuBuffer) -> (HashMultimapCountArgs, Vec<(&'static str, HashMultimapCountArgs)>) {
    let null = NULL;
    let count = HashMultimapCountArgs {
        keys: buf.sub_range(0, 400),
        counts_out: buf.sub_range(2048, 400),
        count: ElementCount::Direct(100),
        max_count: 0,
    };
    let counts = [
        (
            "counts overlap keys",
            HashMultimapCountArgs {
                counts_out: buf.sub_range(200, 400),
                ..count
            },
        ),
        (
            "counts too small",
            HashMultimapCountArgs {
                counts_out: buf.sub_range(2048, 396),
                ..count
            },
        ),
        (
            "null counts",
            HashMultimapCountArgs {
                counts_out: null,
                ..count
            },
        ),
        (
            "indirect count misaligned",
            HashMultimapCountArgs {
                count: ElementCount::Indirect(buf.sub_range(12290, 4)),
                max_count: 100,
                ..count
            },
        ),
    ];
    (count, counts.to_vec())
}

/// A good retrieve on `buf` and bad variants of it.
fn retrieve_cases(
    buf: &GpuBuffer,
) -> (
    HashMultimapRetrieveArgs,
    Vec<(&'static str, HashMultimapRetrieveArgs)>,
) {
    let null = NULL;
    let retrieve = HashMultimapRetrieveArgs {
        keys: buf.sub_range(0, 400),
        offsets: HashMultimapOffsets::U32(buf.sub_range(2048, 400)),
        values_out: buf.sub_range(4096, 4000),
        capacity: 1000,
        tags: None,
        count: ElementCount::Direct(100),
        max_count: 0,
    };
    let retrieves = [
        (
            "values overlap offsets",
            HashMultimapRetrieveArgs {
                values_out: buf.sub_range(2048, 4000),
                ..retrieve
            },
        ),
        (
            "values overlap keys",
            HashMultimapRetrieveArgs {
                values_out: buf.sub_range(0, 4000),
                ..retrieve
            },
        ),
        (
            "values smaller than the capacity",
            HashMultimapRetrieveArgs {
                capacity: 1001,
                ..retrieve
            },
        ),
        (
            "capacity bytes overflow",
            HashMultimapRetrieveArgs {
                capacity: u64::MAX,
                ..retrieve
            },
        ),
        (
            "u64 offsets too small",
            HashMultimapRetrieveArgs {
                offsets: HashMultimapOffsets::U64(buf.sub_range(2048, 400)),
                ..retrieve
            },
        ),
        (
            "u64 offsets misaligned",
            HashMultimapRetrieveArgs {
                offsets: HashMultimapOffsets::U64(buf.sub_range(2052, 800)),
                ..retrieve
            },
        ),
        (
            "null values",
            HashMultimapRetrieveArgs {
                values_out: null,
                ..retrieve
            },
        ),
        (
            "null offsets",
            HashMultimapRetrieveArgs {
                offsets: HashMultimapOffsets::U32(null),
                ..retrieve
            },
        ),
    ];
    (retrieve, retrieves.to_vec())
}

/// Bad ranges, overlaps, counts and command buffers of every record call.
fn record_layer_refusals(ctx: &Context, mm: &HashMultimap) {
    let buf = GpuBuffer::new(ctx, 1 << 16, MemoryLocation::GpuOnly, "bad").unwrap();
    let (insert, inserts) = insert_cases(&buf);
    let (count, counts) = count_cases(&buf);
    let (retrieve, retrieves) = retrieve_cases(&buf);
    ctx.submit_and_wait(|cmd| {
        let refused = |what: &str, r: vkalgo::Result<()>| match r {
            Err(Error::InvalidArgument(m)) => assert!(!m.is_empty(), "{what}"),
            other => panic!("{what}: expected InvalidArgument, got {other:?}"),
        };
        for (what, args) in &inserts {
            refused(what, unsafe { mm.record_insert(cmd, args) });
        }
        for (what, args) in &counts {
            refused(what, unsafe { mm.record_count(cmd, args) });
        }
        for (what, args) in &retrieves {
            refused(what, unsafe { mm.record_retrieve(cmd, args) });
        }
        let null_cmd = vk::CommandBuffer::null();
        refused("null cmd insert", unsafe { mm.record_insert(null_cmd, &insert) });
        refused("null cmd count", unsafe { mm.record_count(null_cmd, &count) });
        refused("null cmd retrieve", unsafe {
            mm.record_retrieve(null_cmd, &retrieve)
        });
        refused("null cmd clear", unsafe { mm.record_clear(null_cmd) });
        let size = HashSizeArgs {
            out: buf.sub_range(2, 4),
        };
        refused("size misaligned", unsafe { mm.record_size(cmd, &size) });
        Ok(())
    })
    .unwrap();
}

/// Batches past MAX_BATCH (direct counts and indirect max_count) are refused before anything
/// is recorded.
#[test]
fn counts_beyond_the_maximum_are_refused() {
    let ctx = context();
    let mm = multimap::<u32, u32>(&ctx, 100, Some(false), 32);
    let n = vkalgo::hash::MAX_BATCH + 1;
    let buf = GpuBuffer::new(&ctx, 64, MemoryLocation::GpuOnly, "k").unwrap();
    let r = buf.sub_range(0, 64);
    ctx.submit_and_wait(|cmd| unsafe {
        for count in [
            ElementCount::Direct(n),
            ElementCount::Indirect(buf.sub_range(0, 4)),
        ] {
            let e = mm.record_insert(
                cmd,
                &HashMultimapInsertArgs {
                    keys: r,
                    values: r,
                    count,
                    max_count: n,
                    failed_count: None,
                },
            );
            assert!(matches!(e, Err(Error::InvalidArgument(_))), "{e:?}");
            let e = mm.record_count(
                cmd,
                &HashMultimapCountArgs {
                    keys: r,
                    counts_out: r,
                    count,
                    max_count: n,
                },
            );
            assert!(matches!(e, Err(Error::InvalidArgument(_))), "{e:?}");
            let e = mm.record_retrieve(
                cmd,
                &HashMultimapRetrieveArgs {
                    keys: r,
                    offsets: HashMultimapOffsets::U64(r),
                    values_out: r,
                    capacity: 0,
                    tags: None,
                    count,
                    max_count: n,
                },
            );
            assert!(matches!(e, Err(Error::InvalidArgument(_))), "{e:?}");
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(mm.size().unwrap(), 0);
}
