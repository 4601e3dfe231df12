//! Bad input changes nothing and says why: plans over the maximum or with bad tunings, host
//! calls with mismatched flags or values, record calls with a null command buffer.

use super::*;

#[test]
fn refused_plans() {
    let ctx = context();
    let desc = |max| SelectDesc::new(KeyType::U32, ValueType::None, SelectMode::Unique, max);
    assert!(matches!(
        ctx.select_plan(&desc(vkalgo::SELECT_MAX_COUNT + 1)),
        Err(Error::InvalidArgument(_))
    ));
    for tuning in [(48, 4), (256, 0), (256, 17), (16, 4)] {
        let mut d = desc(1000);
        d.tuning = Some(SelectTuning {
            workgroup_size: tuning.0,
            items_per_invocation: tuning.1,
            lookback_spins: 0,
        });
        assert!(
            matches!(ctx.select_plan(&d), Err(Error::InvalidArgument(_))),
            "{tuning:?}"
        );
    }
}

#[test]
fn refused_host_calls_change_nothing() {
    let ctx = context();
    let mut keys = vec![3u32, 3, 1, 2];
    let before = keys.clone();
    let short = [1u8, 0, 1];
    assert!(matches!(
        ctx.select(&keys, &Selection::Flagged(&short)),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        ctx.select_pairs(&keys, &[1u32, 2], &Selection::Unique),
        Err(Error::InvalidArgument(_))
    ));
    let broken = Selection::If {
        glsl: "bool vkalgo_select(uint k) { return undefined_name; }",
        params: [0; 4],
    };
    assert!(matches!(
        ctx.select_in_place(&mut keys, &broken),
        Err(Error::CompileError(_))
    ));
    assert!(matches!(
        ctx.select_in_place(&mut keys, &Selection::Flagged(&short)),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(keys, before);
    assert_eq!(
        ctx.select::<u64>(&[], &Selection::Unique).unwrap(),
        Vec::<u64>::new()
    );
}

#[test]
fn null_command_buffer() {
    let ctx = context();
    let plan = ctx
        .select_plan(&SelectDesc::new(
            KeyType::U32,
            ValueType::None,
            SelectMode::Unique,
            10,
        ))
        .unwrap();
    let scratch = plan.memory_requirements().scratch.size;
    let buf = GpuBuffer::new(&ctx, 1024 + scratch, MemoryLocation::GpuOnly, "t").unwrap();
    let args = SelectArgs {
        keys_in: buf.sub_range(0, 40),
        values_in: None,
        flags: None,
        keys_out: buf.sub_range(256, 40),
        values_out: None,
        selected_count: buf.sub_range(512, 4),
        scratch: buf.sub_range(1024, scratch),
        count: ElementCount::Direct(10),
        params: [0; 4],
    };
    let r = unsafe { plan.record(vkalgo::ash::vk::CommandBuffer::null(), &args) };
    assert!(matches!(r, Err(Error::InvalidArgument(_))));
}

/// Warm-up makes the select's pipelines for every key and value type (a plan then finds them).
#[test]
fn warm_up() {
    let ctx = context();
    ctx.warm_up(&[vkalgo::Algorithm::Select]).unwrap();
    let keys = [2.0f64, 2.0, -1.0];
    assert_eq!(
        ctx.select_pairs(&keys, &[1u64, 2, 3], &Selection::Unique)
            .unwrap()
            .1,
        vec![1, 3]
    );
}
