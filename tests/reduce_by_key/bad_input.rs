//! Bad input changes nothing and says why: counts over the plan's or the library's maximum,
//! values given or missing against the value type, overlapping or misaligned ranges, a null
//! command buffer, bad tunings.

use super::*;
use vkalgo::Error;

#[test]
fn refused_and_nothing_written() {
    let ctx = context();
    let plan = ctx
        .reduce_by_key_plan(&ReduceByKeyDesc::new(
            KeyType::U64,
            ValueType::U32,
            ReduceOp::Sum,
            1000,
        ))
        .unwrap();
    let scratch_bytes = plan.memory_requirements().scratch.size;
    let mut buf = GpuBuffer::new(&ctx, 1 << 17, MemoryLocation::CpuToGpu, "t").unwrap();
    buf.mapped().unwrap().fill(0xA5);
    let good = ReduceByKeyArgs {
        keys_in: buf.sub_range(0, 8000),
        values_in: Some(buf.sub_range(8192, 4000)),
        keys_out: buf.sub_range(16384, 8000),
        values_out: buf.sub_range(24576, 4000),
        run_count: buf.sub_range(28672, 4),
        scratch: buf.sub_range(32768, scratch_bytes),
        count: ElementCount::Direct(1000),
    };
    let cases = [
        (
            "count over the plan's",
            ReduceByKeyArgs {
                count: ElementCount::Direct(1001),
                ..good
            },
        ),
        (
            "values missing",
            ReduceByKeyArgs {
                values_in: None,
                ..good
            },
        ),
        (
            "keys_out over the keys",
            ReduceByKeyArgs {
                keys_out: buf.sub_range(8, 8000),
                ..good
            },
        ),
        (
            "values_out over keys_out",
            ReduceByKeyArgs {
                values_out: buf.sub_range(16384, 4000),
                ..good
            },
        ),
        (
            "run count in the scratch",
            ReduceByKeyArgs {
                run_count: buf.sub_range(32768, 4),
                ..good
            },
        ),
        (
            "scratch too small",
            ReduceByKeyArgs {
                scratch: buf.sub_range(32768, 16),
                ..good
            },
        ),
        (
            "keys misaligned",
            ReduceByKeyArgs {
                keys_in: buf.sub_range(4, 8000),
                ..good
            },
        ),
        (
            "values_out too small",
            ReduceByKeyArgs {
                values_out: buf.sub_range(24576, 3996),
                ..good
            },
        ),
    ];
    for (what, args) in cases {
        let r = ctx.submit_and_wait(|cmd| unsafe { plan.record(cmd, &args) });
        assert!(matches!(r, Err(Error::InvalidArgument(_))), "{what}: {r:?}");
    }
    let null = unsafe { plan.record(vkalgo::ash::vk::CommandBuffer::null(), &good) };
    assert!(matches!(null, Err(Error::InvalidArgument(_))));
    let rle = ctx
        .reduce_by_key_plan(&ReduceByKeyDesc::run_length(KeyType::U64, 1000))
        .unwrap();
    let with_values = ReduceByKeyArgs {
        scratch: buf.sub_range(32768, rle.memory_requirements().scratch.size),
        ..good
    };
    let r = ctx.submit_and_wait(|cmd| unsafe { rle.record(cmd, &with_values) });
    assert!(
        matches!(r, Err(Error::InvalidArgument(_))),
        "values for NONE: {r:?}"
    );
    assert!(
        buf.mapped().unwrap().iter().all(|&b| b == 0xA5),
        "something was written"
    );
}

#[test]
fn counts_beyond_the_maximum_are_refused() {
    let ctx = context();
    let over = vkalgo::reduce_by_key::REDUCE_BY_KEY_MAX_COUNT + 1;
    let desc = ReduceByKeyDesc::new(KeyType::U32, ValueType::U32, ReduceOp::Sum, over);
    assert!(matches!(
        ctx.reduce_by_key_plan(&desc),
        Err(Error::InvalidArgument(_))
    ));
    let max = ReduceByKeyDesc {
        max_count: over - 1,
        ..desc
    };
    assert!(ctx.reduce_by_key_plan(&max).is_ok());
    for tuning in [(16, 4), (100, 4), (64, 0), (64, 17)] {
        let bad = ReduceByKeyDesc {
            tuning: Some(ReduceByKeyTuning {
                workgroup_size: tuning.0,
                items_per_invocation: tuning.1,
                lookback_spins: 0,
            }),
            ..desc
        };
        assert!(
            matches!(ctx.reduce_by_key_plan(&bad), Err(Error::InvalidArgument(_))),
            "{tuning:?}"
        );
    }
    let keys = [1u32, 2];
    let r = ctx.reduce_by_key_host_bytes(
        KeyType::U32,
        ValueType::U32,
        ReduceOp::Sum,
        bytemuck::cast_slice(&keys),
        Some(&[0u8; 4]),
    );
    assert!(
        matches!(r, Err(Error::InvalidArgument(_))),
        "values of another length"
    );
    let r = ctx.reduce_by_key_host_bytes(
        KeyType::U32,
        ValueType::U64,
        ReduceOp::Sum,
        bytemuck::cast_slice(&keys),
        None,
    );
    assert!(matches!(r, Err(Error::InvalidArgument(_))), "values missing");
}
