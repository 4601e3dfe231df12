//! The record layer: offsets, indirect counts and the status word, through Rust and the C ABI.

use super::*;

/// u32 -> u32 pairs by IDS on `path` (the record-layer cases).
fn ids_desc(path: SplitPath, m: u32, max_count: usize) -> SplitDesc {
    SplitDesc {
        path,
        ..SplitDesc::new(KeyType::U32, ValueType::U32, m, BucketFn::Ids, max_count as u64)
    }
}

/// The record layer's cases for `desc` at its largest count `max` (tiles of `col` elements):
/// direct and indirect counts from 0 to `max`, and bad ids.
fn record_cases(ctx: &Context, desc: &SplitDesc, max: usize, col: usize) {
    record_case(ctx, desc, max, false, false);
    record_case(ctx, desc, max - col - 1, true, false);
    record_case(ctx, desc, 1, true, false);
    record_case(ctx, desc, 0, true, false);
    record_case(ctx, desc, 0, false, false);
    record_case(ctx, desc, max - 3, false, true);
    record_case(ctx, desc, col + 1, true, true);
}

#[test]
fn offsets_indirect_counts_and_status() {
    let ctx = context();
    for (m, path) in [
        (3u32, SplitPath::Small),
        (300, SplitPath::Small),
        (3u32, SplitPath::TileDirect),
        (33u32, SplitPath::TileDirect),
        (3u32, SplitPath::TileStaged),
        (300u32, SplitPath::TileStaged),
        (3u32, SplitPath::TileSubgroupStaged),
        (3, SplitPath::GlobalCounters),
        (64, SplitPath::GlobalCounters),
        (300, SplitPath::Auto),
    ] {
        let col = column_length(&ctx, m);
        let mut max = 4 * col + 5;
        if path == SplitPath::Small {
            let plan = ctx
                .split_plan(&SplitDesc::new(
                    KeyType::U32,
                    ValueType::U32,
                    m,
                    BucketFn::Ids,
                    1 << 16,
                ))
                .unwrap();
            max = max.min(plan.small_limit() as usize);
        }
        let desc = ids_desc(path, m, max);
        record_cases(&ctx, &desc, max, col);
    }
    // Keys alone on the subgroup-staged path: each workgroup of its scatter takes several tiles
    // (the last group partly, and tiles past an indirect count none).
    let keys_desc = |max: usize| SplitDesc {
        value_type: ValueType::None,
        ..ids_desc(SplitPath::TileSubgroupStaged, 3, max)
    };
    let col = ctx.split_plan(&keys_desc(1 << 20)).expect("plan").column_length() as usize;
    let max = 9 * col + 5;
    let keys_alone = keys_desc(max);
    record_cases(&ctx, &keys_alone, max, col);
    record_case(&ctx, &keys_alone, 5 * col, true, false);
    record_case(&ctx, &keys_alone, 4 * col - 1, false, false);
    // Through the C ABI: IDS and GLSL, direct and indirect counts, a bad id.
    for (m, f) in [(5u32, BucketFn::Ids), (300, BucketFn::Ids), (7, BucketFn::Glsl)] {
        let col = column_length(&ctx, m);
        let max = 2 * col + 3;
        let desc = SplitDesc {
            glsl: (f == BucketFn::Glsl).then(|| MOD_OR_BAD.to_string()),
            ..SplitDesc::new(KeyType::U32, ValueType::U32, m, f, max as u64)
        };
        record_case_via(&ctx, &desc, max, false, false, true);
        record_case_via(&ctx, &desc, col + 1, true, false, true);
        record_case_via(&ctx, &desc, max - 1, true, true, true);
    }
    // Record-layer argument checks: nothing recorded.
    let plan = ctx
        .split_plan(&SplitDesc::new(
            KeyType::U32,
            ValueType::None,
            4,
            BucketFn::Bits,
            100,
        ))
        .unwrap();
    let req = plan.memory_requirements();
    let b = GpuBuffer::new(&ctx, 4096 + req.scratch.size, MemoryLocation::GpuOnly, "b").unwrap();
    let good = SplitArgs {
        keys: b.sub_range(0, 400),
        values: None,
        keys_out: b.sub_range(512, 400),
        values_out: None,
        splitters: None,
        bucket_ids: None,
        offsets: b.sub_range(1024, req.offsets.size),
        scratch: b.sub_range(2048, req.scratch.size),
        count: ElementCount::Direct(100),
        params: [0; 4],
    };
    let cases = [
        (
            "count over max",
            SplitArgs {
                count: ElementCount::Direct(101),
                ..good
            },
        ),
        (
            "keys_out overlaps keys",
            SplitArgs {
                keys_out: b.sub_range(200, 400),
                ..good
            },
        ),
        (
            "offsets too small",
            SplitArgs {
                offsets: b.sub_range(1024, 8),
                ..good
            },
        ),
        (
            "values without a value type",
            SplitArgs {
                values: Some(b.sub_range(0, 400)),
                ..good
            },
        ),
        (
            "bucket ids for BITS",
            SplitArgs {
                bucket_ids: Some(b.sub_range(0, 400)),
                ..good
            },
        ),
        (
            "scratch overlaps offsets",
            SplitArgs {
                scratch: b.sub_range(1024, req.scratch.size),
                ..good
            },
        ),
    ];
    ctx.submit_and_wait(|cmd| {
        for (what, args) in &cases {
            // SAFETY: nothing is recorded: every case is refused by the argument checks.
            match unsafe { plan.record(cmd, args) } {
                Err(Error::InvalidArgument(_)) => {}
                other => panic!("{what}: {other:?}"),
            }
        }
        Ok(())
    })
    .unwrap();
}
