//! Bad input: refused with InvalidArgument, the arrays unchanged, nothing recorded.

use super::*;
use vkalgo::{
    ElementCount, Error, GpuBuffer, KeyType, MemoryLocation, SegmentedSortArgs, SegmentedSortDesc, ValueType,
    SEGMENTED_SORT_MAX_COUNT, SEGMENTED_SORT_MAX_SEGMENTS,
};

fn is_invalid<T: std::fmt::Debug>(r: vkalgo::Result<T>) -> bool {
    matches!(r, Err(Error::InvalidArgument(_)))
}

#[test]
fn refused_and_nothing_written() {
    let ctx = context();
    let original: Vec<u32> = (0..100u32).rev().collect();
    let bad_offsets: [&[u64]; 6] = [
        &[],               // no offsets
        &[1, 100],         // not starting at 0
        &[0, 50, 40, 100], // decreasing
        &[0, 99],          // last != count
        &[0, 101],         // beyond the count
        &[0, 50],          // short of the count
    ];
    for offsets in bad_offsets {
        let mut keys = original.clone();
        assert!(is_invalid(ctx.segmented_sort(&mut keys, offsets)), "{offsets:?}");
        assert_eq!(keys, original, "{offsets:?}: keys written");
        let mut values: Vec<u64> = (0..100).collect();
        assert!(is_invalid(ctx.segmented_sort_pairs(
            &mut keys,
            &mut values,
            offsets
        )));
        assert_eq!(keys, original);
        assert_eq!(values, (0..100).collect::<Vec<u64>>());
    }
    // Keys and values of different lengths; a bad bit range.
    let mut keys = original.clone();
    let mut values = vec![0u32; 99];
    assert!(is_invalid(ctx.segmented_sort_pairs(
        &mut keys,
        &mut values,
        &[0, 100]
    )));
    for (begin_bit, end_bit) in [(8, 8), (20, 10), (0, 33), (32, 0)] {
        let options = SegmentedSortOptions {
            begin_bit,
            end_bit,
            ..Default::default()
        };
        assert!(is_invalid(ctx.segmented_sort_keys_with(
            &mut keys,
            &[0, 100],
            &options
        )));
        // count 0 checks the bit range too.
        assert!(is_invalid(ctx.segmented_sort_keys_with(
            &mut [0u32; 0],
            &[0],
            &options
        )));
    }
    assert_eq!(keys, original);
    // count 0 with its one offset is valid; without it not.
    ctx.segmented_sort(&mut [0u32; 0], &[0]).unwrap();
    ctx.segmented_sort(&mut [0u32; 0], &[0, 0, 0]).unwrap();
    assert!(is_invalid(ctx.segmented_sort(&mut [0u32; 0], &[])));
}

#[test]
fn counts_beyond_the_maximum_are_refused() {
    let ctx = context();
    let desc = |count, segments| SegmentedSortDesc::new(KeyType::U32, ValueType::None, count, segments);
    assert!(is_invalid(
        ctx.segmented_sort_plan(&desc(SEGMENTED_SORT_MAX_COUNT + 1, 1))
    ));
    assert!(is_invalid(
        ctx.segmented_sort_plan(&desc(1, SEGMENTED_SORT_MAX_SEGMENTS + 1))
    ));
    let plan = ctx.segmented_sort_plan(&desc(1000, 10)).unwrap();
    let scratch_bytes = plan.memory_requirements().scratch.size;
    let buf = GpuBuffer::new(&ctx, 16384 + scratch_bytes, MemoryLocation::CpuToGpu, "t").unwrap();
    let good = SegmentedSortArgs {
        keys: buf.sub_range(0, 4000),
        values: None,
        offsets: buf.sub_range(4096, 44),
        scratch: buf.sub_range(16384, scratch_bytes),
        count: ElementCount::Direct(1000),
        segments: ElementCount::Direct(10),
    };
    let bad = [
        SegmentedSortArgs {
            count: ElementCount::Direct(1001),
            ..good
        },
        SegmentedSortArgs {
            segments: ElementCount::Direct(11),
            ..good
        },
        SegmentedSortArgs {
            offsets: buf.sub_range(4096, 40),
            ..good
        },
        SegmentedSortArgs {
            values: Some(buf.sub_range(8192, 4000)),
            ..good
        },
        SegmentedSortArgs {
            offsets: buf.sub_range(3996, 44),
            ..good
        },
        SegmentedSortArgs {
            scratch: buf.sub_range(16384, scratch_bytes - 16),
            ..good
        },
    ];
    ctx.submit_and_wait(|cmd| unsafe {
        assert!(is_invalid(
            plan.record(vkalgo::ash::vk::CommandBuffer::null(), &good)
        ));
        for (i, args) in bad.iter().enumerate() {
            assert!(is_invalid(plan.record(cmd, args)), "bad args {i}");
        }
        Ok(())
    })
    .unwrap();
}
