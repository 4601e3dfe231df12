//! Bad input is refused and changes nothing; counts beyond the maximum are refused.

use super::*;

/// Counts up to SORT_MAX_COUNT (2^32 - 2^15) are planned on every path but the small one;
/// one more is refused with InvalidArgument by the plan, the host sort and the C ABI, before
/// anything is read or written.
#[test]
fn counts_beyond_the_maximum_are_refused() {
    use vkalgo::sort::SORT_MAX_COUNT;
    let ctx = context();
    assert_eq!(SORT_MAX_COUNT, (1u64 << 32) - (1 << 15));
    for path in [SortPath::Auto, SortPath::Safe, SortPath::Onesweep] {
        for (key_type, value_type) in [(KeyType::U32, ValueType::None), (KeyType::F64, ValueType::U64)] {
            let desc = |max_count| SortDesc {
                path,
                ..SortDesc::new(key_type, value_type, max_count)
            };
            let plan = ctx
                .sort_plan(&desc(SORT_MAX_COUNT))
                .unwrap_or_else(|e| panic!("{path:?} {key_type:?}: {e}"));
            let req = plan.memory_requirements();
            assert_eq!(req.keys_alt.size, SORT_MAX_COUNT * key_type.bytes());
            assert_eq!(req.values_alt.size, SORT_MAX_COUNT * value_type.bytes());
            for over in [SORT_MAX_COUNT + 1, u32::MAX as u64, 1 << 32, u64::MAX] {
                match ctx.sort_plan(&desc(over)) {
                    Err(vkalgo::Error::InvalidArgument(m)) => {
                        assert!(m.contains("max_count"), "{m}")
                    }
                    other => panic!("{path:?} {key_type:?} max_count {over}: {other:?}"),
                }
            }
        }
    }
    // The C ABI refuses from the count alone: the arrays (far shorter than the count) are
    // neither read nor written.
    unsafe {
        use vkalgo_ffi::sort::*;
        use vkalgo_ffi::types::*;
        use vkalgo_ffi::*;
        let c = c_default_context();
        let desc = VkalgoSortDesc {
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_NONE,
            begin_bit: 0,
            end_bit: 0,
            descending: 0,
            ..Default::default()
        };
        let mut keys = [3u32, 2, 1];
        let r = vkalgo_sort_host(
            c,
            &desc,
            keys.as_mut_ptr().cast(),
            std::ptr::null_mut(),
            (SORT_MAX_COUNT + 1) as usize,
        );
        assert_eq!(r, VkalgoResult::VkalgoErrorInvalidArgument);
        assert_eq!(keys, [3, 2, 1]);
        let mut plan = std::ptr::null_mut();
        let over = VkalgoSortDesc {
            max_count: SORT_MAX_COUNT + 1,
            ..desc
        };
        let r = vkalgo_sort_plan_create(c, &over, &mut plan);
        assert_eq!(r, VkalgoResult::VkalgoErrorInvalidArgument);
        assert!(plan.is_null());
        let at_max = VkalgoSortDesc {
            max_count: SORT_MAX_COUNT,
            ..desc
        };
        let r = vkalgo_sort_plan_create(c, &at_max, &mut plan);
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        vkalgo_sort_plan_destroy(plan);
        vkalgo_context_destroy(c);
    }
}

#[test]
fn refused_and_nothing_written() {
    let ctx = context();
    let err = |r: vkalgo::Result<vkalgo::SortPlan>| matches!(r, Err(vkalgo::Error::InvalidArgument(_)));
    let plan = |f: &dyn Fn(&mut SortDesc)| {
        let mut d = SortDesc::new(KeyType::U32, ValueType::None, 1000);
        f(&mut d);
        ctx.sort_plan(&d)
    };
    let split = |workgroup_size, keys_per_thread, stage_split| {
        Some(vkalgo::SortTuning {
            workgroup_size,
            keys_per_thread,
            lookback_spins: 0,
            stage_split,
        })
    };
    let tuned = |workgroup_size, keys_per_thread| split(workgroup_size, keys_per_thread, 1);
    let odd = tuned(64, 3);
    // (what, the change to a valid description, refused)
    type Case<'a> = (&'a str, &'a dyn Fn(&mut SortDesc), bool);
    let descs: [Case; 17] = [
        ("end_bit beyond the key", &|d| d.end_bit = 33, true),
        (
            "an empty bit range",
            &|d| {
                d.begin_bit = 12;
                d.end_bit = 12
            },
            true,
        ),
        ("begin_bit at the width", &|d| d.begin_bit = 32, true),
        (
            "max_count past 2^32 - 1",
            &|d| d.max_count = u32::MAX as u64 + 1,
            true,
        ),
        (
            "the small path past its maximum",
            &|d| {
                d.path = SortPath::Small;
                d.max_count = 1 << 24
            },
            true,
        ),
        ("workgroup size 48", &|d| d.tuning = tuned(48, 8), true),
        ("workgroup size 0", &|d| d.tuning = tuned(0, 8), true),
        (
            "any multiple of 32 is a workgroup size",
            &|d| d.tuning = tuned(96, 8),
            false,
        ),
        ("odd keys per thread suit 4-byte keys", &|d| d.tuning = odd, false),
        (
            "8-byte keys are staged in two rounds: keys per thread must be even",
            &|d| {
                d.key_type = KeyType::U64;
                d.tuning = odd
            },
            true,
        ),
        (
            "8-byte values are staged in two rounds: keys per thread must be even",
            &|d| {
                d.value_type = ValueType::U64;
                d.tuning = odd
            },
            true,
        ),
        ("stage split 0", &|d| d.tuning = split(64, 8, 0), true),
        ("stage split 3", &|d| d.tuning = split(64, 8, 3), true),
        (
            "a split stage takes two rounds: keys per thread must be even",
            &|d| d.tuning = split(64, 3, 2),
            true,
        ),
        (
            "a split stage with 6 keys per thread",
            &|d| d.tuning = split(64, 6, 2),
            false,
        ),
        (
            "8-byte keys in a split stage take four rounds",
            &|d| {
                d.key_type = KeyType::U64;
                d.tuning = split(64, 6, 2)
            },
            true,
        ),
        (
            "8-byte values in a split stage with 8 keys per thread",
            &|d| {
                d.value_type = ValueType::U64;
                d.tuning = split(64, 8, 2)
            },
            false,
        ),
    ];
    for (what, change, refused) in descs {
        assert_eq!(err(plan(change)), refused, "{what}");
    }
    assert!(KeyType::from_raw(6).is_err() && ValueType::from_raw(3).is_err());

    // Host calls: nothing changes on error.
    let mut keys: Vec<u32> = (0..100).rev().collect();
    let before = keys.clone();
    let mut short_values = vec![0u32; 99];
    assert!(ctx.sort_pairs(&mut keys, &mut short_values).is_err());
    let bad = SortOptions {
        begin_bit: 40,
        ..Default::default()
    };
    assert!(ctx.sort_keys_with(&mut keys, &bad).is_err());
    assert_eq!(keys, before);

    // Record layer: wrong buffers are refused before anything is recorded.
    let p = ctx
        .sort_plan(&SortDesc::new(KeyType::U32, ValueType::U32, 1000))
        .unwrap();
    let req = p.memory_requirements();
    let buf = |bytes: u64| GpuBuffer::new(&ctx, bytes, MemoryLocation::GpuOnly, "bad input").unwrap();
    let (k, v, ka, va, s) = (buf(4096), buf(4096), buf(4096), buf(4096), buf(req.scratch.size));
    let good = SortArgs {
        keys: k.sub_range(0, 4000),
        values: Some(v.sub_range(0, 4000)),
        keys_alt: ka.sub_range(0, 4000),
        values_alt: Some(va.sub_range(0, 4000)),
        scratch: s.range(),
        count: ElementCount::Direct(1000),
    };
    let cases: Vec<(&str, SortArgs)> = vec![
        (
            "count over max",
            SortArgs {
                count: ElementCount::Direct(1001),
                ..good
            },
        ),
        ("no values", SortArgs { values: None, ..good }),
        (
            "keys too small",
            SortArgs {
                keys: k.sub_range(0, 3996),
                ..good
            },
        ),
        (
            "misaligned keys",
            SortArgs {
                keys: k.sub_range(2, 4000),
                ..good
            },
        ),
        (
            "alt overlaps keys",
            SortArgs {
                keys_alt: k.sub_range(0, 4000),
                ..good
            },
        ),
        (
            "scratch too small",
            SortArgs {
                scratch: s.sub_range(0, req.scratch.size - 4),
                ..good
            },
        ),
        (
            "count buffer in keys",
            SortArgs {
                count: ElementCount::Indirect(k.sub_range(0, 4)),
                ..good
            },
        ),
    ];
    ctx.submit_and_wait(|cmd| {
        for (what, args) in &cases {
            assert!(
                matches!(
                    unsafe { p.record(cmd, args) },
                    Err(vkalgo::Error::InvalidArgument(_))
                ),
                "{what}"
            );
        }
        assert!(unsafe { p.record(vk::CommandBuffer::null(), &good) }.is_err());
        Ok(())
    })
    .unwrap();
    let keys_only = ctx
        .sort_plan(&SortDesc::new(KeyType::U32, ValueType::None, 1000))
        .unwrap();
    ctx.submit_and_wait(|cmd| {
        assert!(
            unsafe { keys_only.record(cmd, &good) }.is_err(),
            "values given to a keys-only plan"
        );
        Ok(())
    })
    .unwrap();

    // The context still sorts.
    let mut keys: Vec<u32> = (0..5000).rev().collect();
    ctx.sort(&mut keys).unwrap();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));
}
