//! Bad input changes nothing and says why: counts over the plan's or the library's maximum,
//! overlapping or misaligned ranges, a null command buffer, bad tunings.

use super::*;

#[test]
fn refused_before_anything_is_recorded() {
    let ctx = context();
    let plan = ctx
        .reduce_plan(&ReduceDesc::new(KeyType::U64, ReduceOp::Sum, 1000))
        .unwrap();
    let scratch_bytes = plan.memory_requirements().scratch.size;
    let mut buf = GpuBuffer::new(&ctx, 1 << 16, MemoryLocation::CpuToGpu, "t").unwrap();
    buf.mapped().unwrap().fill(0xA5);
    let good = ReduceArgs {
        input: buf.sub_range(0, 8000),
        result: buf.sub_range(8192, 8),
        scratch: buf.sub_range(16384, scratch_bytes),
        count: ElementCount::Direct(1000),
    };
    let cases = [
        (
            "count over the plan's",
            ReduceArgs {
                count: ElementCount::Direct(1001),
                ..good
            },
        ),
        (
            "result inside the input",
            ReduceArgs {
                result: buf.sub_range(80, 8),
                ..good
            },
        ),
        (
            "scratch over the result",
            ReduceArgs {
                scratch: buf.sub_range(8192, scratch_bytes),
                ..good
            },
        ),
        (
            "misaligned input",
            ReduceArgs {
                input: buf.sub_range(4, 8000),
                ..good
            },
        ),
        (
            "short input",
            ReduceArgs {
                input: buf.sub_range(0, 7992),
                ..good
            },
        ),
        (
            "short scratch",
            ReduceArgs {
                scratch: buf.sub_range(16384, scratch_bytes - 8),
                ..good
            },
        ),
        (
            "input past the buffer",
            ReduceArgs {
                input: buf.sub_range((1 << 16) - 4000, 8000),
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
fn plans_refused() {
    let ctx = context();
    let too_many = ReduceDesc::new(KeyType::U32, ReduceOp::Min, 1 << 32);
    assert!(matches!(
        ctx.reduce_plan(&too_many),
        Err(Error::InvalidArgument(_))
    ));
    for tuning in [
        ReduceTuning {
            workgroup_size: 48,
            items_per_invocation: 4,
            max_workgroups: 8,
        },
        ReduceTuning {
            workgroup_size: 2048,
            items_per_invocation: 4,
            max_workgroups: 8,
        },
        ReduceTuning {
            workgroup_size: 64,
            items_per_invocation: 0,
            max_workgroups: 8,
        },
        ReduceTuning {
            workgroup_size: 64,
            items_per_invocation: 17,
            max_workgroups: 8,
        },
        ReduceTuning {
            workgroup_size: 64,
            items_per_invocation: 4,
            max_workgroups: 0,
        },
        ReduceTuning {
            workgroup_size: 64,
            items_per_invocation: 4,
            max_workgroups: 4097,
        },
    ] {
        let desc = ReduceDesc {
            tuning: Some(tuning),
            ..ReduceDesc::new(KeyType::F32, ReduceOp::Sum, 10)
        };
        assert!(
            matches!(ctx.reduce_plan(&desc), Err(Error::InvalidArgument(_))),
            "{tuning:?}"
        );
    }
}
