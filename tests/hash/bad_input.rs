//! Bad input through the Rust API is refused and changes nothing; the documented maxima.

use super::*;

#[test]
fn refused_and_nothing_written() {
    let ctx = context();
    for capacity in [0u64, (1 << 31) + 1] {
        assert!(matches!(
            HashMap::new(&ctx, &desc::<u32, u32>(capacity)),
            Err(Error::InvalidArgument(_))
        ));
    }
    let mut map = HashMap::new(&ctx, &desc::<u32, u32>(1000)).unwrap();
    map.insert(&[1u32, 2, 3], &[4u32, 5, 6]).unwrap();
    // Wrong types and lengths.
    assert!(matches!(
        map.insert(&[1u64], &[1u32]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        map.insert(&[1u32], &[1u64]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        map.insert(&[1u32, 2], &[1u32]),
        Err(Error::InvalidArgument(_))
    ));
    let mut v = vec![0u32; 1];
    assert!(matches!(
        map.find(&[1u32, 2], &mut v, None),
        Err(Error::InvalidArgument(_))
    ));
    let mut f = vec![false; 1];
    assert!(matches!(
        map.contains(&[1u64], &mut f),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(map.erase(&[1u64]), Err(Error::InvalidArgument(_))));
    let (mut k2, mut v2) = (vec![0u32; 2], vec![0u32; 2]);
    match map.retrieve_all_into(&mut k2, &mut v2) {
        Err(Error::InvalidArgument(m)) => assert!(m.contains("holds 3 entries"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(k2, vec![0, 0]);
    assert!(matches!(map.rehash(0), Err(Error::InvalidArgument(_))));
    assert!(matches!(map.rehash(2), Err(Error::InvalidArgument(_))));
    let mut status = vec![InsertStatus::Full; 1];
    assert!(matches!(
        map.insert_with_status(&[9u32, 10], &[1u32, 2], &mut status),
        Err(Error::InvalidArgument(_))
    ));

    // Record layer.
    let buf = GpuBuffer::new(&ctx, 1 << 16, MemoryLocation::GpuOnly, "bad").unwrap();
    let good = HashInsertArgs {
        keys: buf.sub_range(0, 400),
        values: buf.sub_range(1024, 400),
        count: ElementCount::Direct(100),
        max_count: 0,
        status: Some(buf.sub_range(4096, 400)),
        failed_count: Some(buf.sub_range(8192, 4)),
    };
    let null = BufferRange::new(vk::Buffer::null(), 0, 400);
    let other = HashMap::new(&ctx, &desc::<u32, u64>(10)).unwrap();
    let cases: Vec<(&str, HashInsertArgs)> = vec![
        (
            "keys too small",
            HashInsertArgs {
                keys: buf.sub_range(0, 396),
                ..good
            },
        ),
        (
            "values misaligned",
            HashInsertArgs {
                values: buf.sub_range(1026, 400),
                ..good
            },
        ),
        ("null keys", HashInsertArgs { keys: null, ..good }),
        (
            "status overlaps keys",
            HashInsertArgs {
                status: Some(buf.sub_range(200, 400)),
                ..good
            },
        ),
        (
            "failed overlaps status",
            HashInsertArgs {
                failed_count: Some(buf.sub_range(4096, 4)),
                ..good
            },
        ),
        (
            "count over u32",
            HashInsertArgs {
                count: ElementCount::Direct(1 << 32),
                ..good
            },
        ),
        (
            "indirect max over the ranges",
            HashInsertArgs {
                count: ElementCount::Indirect(buf.sub_range(12288, 4)),
                max_count: 101,
                ..good
            },
        ),
        (
            "indirect count misaligned",
            HashInsertArgs {
                count: ElementCount::Indirect(buf.sub_range(12290, 4)),
                max_count: 100,
                ..good
            },
        ),
        (
            "count buffer overlaps status",
            HashInsertArgs {
                count: ElementCount::Indirect(buf.sub_range(4096, 4)),
                max_count: 100,
                ..good
            },
        ),
    ];
    ctx.submit_and_wait(|cmd| {
        for (what, args) in &cases {
            match unsafe { map.record_insert(cmd, args) } {
                Err(Error::InvalidArgument(m)) => assert!(!m.is_empty(), "{what}"),
                other => panic!("{what}: expected InvalidArgument, got {other:?}"),
            }
        }
        assert!(matches!(
            unsafe { map.record_insert(vk::CommandBuffer::null(), &good) },
            Err(Error::InvalidArgument(_))
        ));
        let find = HashFindArgs {
            keys: buf.sub_range(0, 400),
            values: Some(buf.sub_range(100, 400)),
            found: None,
            count: ElementCount::Direct(100),
            max_count: 0,
        };
        assert!(matches!(
            unsafe { map.record_find(cmd, &find) },
            Err(Error::InvalidArgument(_))
        ));
        let retrieve = HashRetrieveArgs {
            keys: buf.sub_range(0, 40),
            values: None,
            capacity: 11,
            count_out: buf.sub_range(8192, 4),
        };
        assert!(matches!(
            unsafe { map.record_retrieve_all(cmd, &retrieve) },
            Err(Error::InvalidArgument(_))
        ));
        assert!(matches!(
            unsafe {
                map.record_rehash_into(
                    cmd,
                    &HashRehashArgs {
                        dst: &other,
                        failed_count: None,
                    },
                )
            },
            Err(Error::InvalidArgument(_))
        ));
        assert!(matches!(
            unsafe {
                map.record_rehash_into(
                    cmd,
                    &HashRehashArgs {
                        dst: &map,
                        failed_count: None,
                    },
                )
            },
            Err(Error::InvalidArgument(_))
        ));
        Ok(())
    })
    .unwrap();
    // The map and the context stay usable, the contents unchanged.
    let mut values = vec![0u32; 3];
    map.find(&[1u32, 2, 3], &mut values, None).unwrap();
    assert_eq!(values, vec![4, 5, 6]);
    assert_eq!(map.size().unwrap(), 3);
}

/// Maximum capacity and batch size (64-bit addressing, issue 20): refused past the documented
/// maxima with InvalidArgument, before anything is allocated or recorded.
#[test]
fn counts_beyond_the_maximum_are_refused() {
    let ctx = context();
    use vkalgo::hash::{max_capacity, MAX_BATCH, MAX_SLOTS};
    assert_eq!(MAX_SLOTS, 1 << 31);
    assert_eq!(MAX_BATCH, u32::MAX as u64);
    for (k, v, bucket, slots) in [
        (HashKeyType::U32, HashValueType::U32, 32, 4u64),
        (HashKeyType::U32, HashValueType::U32, 64, 8),
        (HashKeyType::U64, HashValueType::U64, 32, 2),
        (HashKeyType::U64, HashValueType::U32, 64, 4),
    ] {
        let desc = HashMapDesc {
            bucket_bytes: Some(bucket),
            ..HashMapDesc::new(k, v, max_capacity(slots) + 1)
        };
        assert!(matches!(
            HashMap::new(&ctx, &desc),
            Err(Error::InvalidArgument(_))
        ));
    }
    let map = HashMap::new(&ctx, &desc::<u32, u32>(100)).unwrap();
    let n = MAX_BATCH + 1;
    // Counts past MAX_BATCH (direct, or an indirect count's max_count) are refused.
    let keys = GpuBuffer::new(&ctx, 64, MemoryLocation::GpuOnly, "k").unwrap();
    let r = keys.sub_range(0, 64);
    ctx.submit_and_wait(|cmd| unsafe {
        for count in [
            ElementCount::Direct(n),
            ElementCount::Indirect(keys.sub_range(0, 4)),
        ] {
            let e = map.record_insert(
                cmd,
                &HashInsertArgs {
                    keys: r,
                    values: r,
                    count,
                    max_count: n,
                    status: None,
                    failed_count: None,
                },
            );
            assert!(matches!(e, Err(Error::InvalidArgument(_))), "{e:?}");
            let e = map.record_find(
                cmd,
                &HashFindArgs {
                    keys: r,
                    values: Some(r),
                    found: None,
                    count,
                    max_count: n,
                },
            );
            assert!(matches!(e, Err(Error::InvalidArgument(_))), "{e:?}");
            let e = map.record_erase(
                cmd,
                &HashEraseArgs {
                    keys: r,
                    erased: None,
                    count,
                    max_count: n,
                },
            );
            assert!(matches!(e, Err(Error::InvalidArgument(_))), "{e:?}");
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(map.size().unwrap(), 0);
}
