//! Bad input through the Rust API is refused and nothing is written.

use super::*;

fn is_invalid<T: std::fmt::Debug>(r: vkalgo::Result<T>, what: &str) {
    assert!(matches!(r, Err(Error::InvalidArgument(_))), "{what}: {r:?}");
}

#[test]
fn refused_and_nothing_written() {
    let ctx = context();
    let tile = tile_of(&ctx, KeyType::U32);
    // Unsorted runs (a single inversion late in a multi-tile run), every path and order.
    let mut a: Vec<u32> = (0..3 * tile as u32).collect();
    a.swap(2 * tile + 5, 2 * tile + 6);
    let b: Vec<u32> = (0..100).collect();
    for path in [MergePath::Fused, MergePath::Partitioned] {
        let options = MergeOptions {
            path,
            ..Default::default()
        };
        let mut out = vec![7u32; a.len() + b.len()];
        is_invalid(ctx.merge_with(&a, &b, &mut out, &options), "unsorted A");
        is_invalid(ctx.merge_with(&b, &a, &mut out, &options), "unsorted B");
        let descending = MergeOptions {
            descending: true,
            ..options
        };
        is_invalid(
            ctx.merge_with(&b, &b, &mut out[..200], &descending),
            "ascending runs, descending merge",
        );
        let mut out_values = vec![7u32; out.len()];
        let av = vec![1u32; a.len()];
        let bv = vec![2u32; b.len()];
        is_invalid(
            ctx.merge_pairs_with(&a, &av, &b, &bv, &mut out, &mut out_values, &options),
            "unsorted pairs",
        );
        assert!(out.iter().chain(&out_values).all(|&w| w == 7), "nothing written");
    }
    // A NaN out of place is unsorted too.
    let mut out = [0f32; 4];
    is_invalid(
        ctx.merge(&[f32::NAN, 1.0], &[1.0, 2.0], &mut out),
        "NaN before 1.0",
    );
    for op in SetOp::ALL {
        is_invalid(ctx.sorted_set_op(op, &a, &b), "unsorted set input A");
        is_invalid(ctx.sorted_set_op(op, &b, &a), "unsorted set input B");
    }
    // Lengths.
    let mut out = vec![0u32; 5];
    is_invalid(ctx.merge(&[1u32, 2], &[3u32, 4], &mut out), "output too long");
    let mut out_values = vec![0u64; 4];
    let mut out = vec![0u32; 4];
    is_invalid(
        ctx.merge_pairs(
            &[1u32, 2],
            &[1u64],
            &[3u32, 4],
            &[1u64, 2],
            &mut out,
            &mut out_values,
        ),
        "values shorter than keys",
    );
    // Plans.
    is_invalid(
        ctx.merge_plan(&MergeDesc::new(KeyType::U32, ValueType::None, 1 << 32, 1)),
        "max_a over 2^32 - 1",
    );
    is_invalid(
        ctx.set_op_plan(&SetOpDesc {
            key_type: KeyType::U32,
            op: SetOp::And,
            max_a: 1 << 31,
            max_b: 1 << 31,
            path: SetOpPath::Auto,
            tuning: None,
        }),
        "set operation over 2^32 - 1",
    );
    for (workgroup_size, items_per_thread) in [(48, 4), (16, 4), (64, 0), (64, 33), (2048, 1)] {
        is_invalid(
            ctx.merge_plan(&MergeDesc {
                tuning: Some(MergeTuning {
                    workgroup_size,
                    items_per_thread,
                    lookback_spins: 0,
                }),
                ..MergeDesc::new(KeyType::U32, ValueType::None, 10, 10)
            }),
            &format!("tuning {workgroup_size}x{items_per_thread}"),
        );
    }
    // Record layer: nothing is recorded on error.
    let plan = ctx
        .merge_plan(&MergeDesc::new(KeyType::U32, ValueType::None, 100, 100))
        .unwrap();
    let buf = GpuBuffer::new(&ctx, 4096, MemoryLocation::GpuOnly, "bad").unwrap();
    let other = GpuBuffer::new(&ctx, 4096, MemoryLocation::GpuOnly, "bad2").unwrap();
    let good = MergeArgs {
        a_keys: buf.sub_range(0, 400),
        a_values: None,
        b_keys: buf.sub_range(400, 400),
        b_values: None,
        out_keys: buf.sub_range(800, 800),
        out_values: None,
        scratch: other.sub_range(0, plan.memory_requirements().scratch.size),
        a_count: ElementCount::Direct(100),
        b_count: ElementCount::Direct(100),
    };
    let bad_cases: Vec<(&str, MergeArgs)> = vec![
        (
            "count over max",
            MergeArgs {
                a_count: ElementCount::Direct(101),
                ..good
            },
        ),
        (
            "output too small",
            MergeArgs {
                out_keys: buf.sub_range(800, 796),
                ..good
            },
        ),
        (
            "output overlaps input",
            MergeArgs {
                out_keys: buf.sub_range(396, 800),
                ..good
            },
        ),
        (
            "scratch overlaps output",
            MergeArgs {
                scratch: buf.sub_range(800, 800),
                ..good
            },
        ),
        (
            "values without a value type",
            MergeArgs {
                a_values: Some(buf.sub_range(1600, 400)),
                ..good
            },
        ),
        (
            "misaligned keys",
            MergeArgs {
                a_keys: buf.sub_range(2, 400),
                ..good
            },
        ),
        (
            "null buffer",
            MergeArgs {
                b_keys: BufferRange::new(vk::Buffer::null(), 0, 400),
                ..good
            },
        ),
        (
            "indirect count overlapping output",
            MergeArgs {
                a_count: ElementCount::Indirect(buf.sub_range(800, 4)),
                ..good
            },
        ),
    ];
    for (what, args) in bad_cases {
        let r = ctx.submit_and_wait(|cmd| unsafe { plan.record(cmd, &args) });
        is_invalid(r, what);
    }
    // The context is still usable.
    let mut out = [0u32; 4];
    ctx.merge(&[1u32, 3], &[2u32, 4], &mut out).unwrap();
    assert_eq!(out, [1, 2, 3, 4]);
    // Segmented merge: bad offsets and unsorted runs.
    let mut keys = vec![1u32, 2, 0, 5];
    for offsets in [vec![0u32, 2, 5], vec![1, 4], vec![0, 3, 2, 4], vec![]] {
        is_invalid(
            ctx.segmented_merge::<u32, u32>(&mut keys, None, &offsets, &MergeOptions::default()),
            &format!("offsets {offsets:?}"),
        );
    }
    is_invalid(
        ctx.segmented_merge::<u32, u32>(&mut keys, None, &[0, 3, 4], &MergeOptions::default()),
        "unsorted run",
    );
    assert_eq!(keys, [1, 2, 0, 5]);
}
