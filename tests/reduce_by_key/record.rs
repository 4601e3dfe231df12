//! The record layer: both paths (look-back with its fallback forced, and reduce-then-scan),
//! small and large tiles, offsets, indirect counts below and above the count, poison around
//! the outputs.

use super::*;

fn plans(
    ctx: &Context,
    key_type: KeyType,
    value_type: ValueType,
    op: ReduceOp,
    max: u64,
) -> Vec<ReduceByKeyPlan> {
    let tunings = [
        None,
        Some(ReduceByKeyTuning {
            workgroup_size: 32,
            items_per_invocation: 1,
            lookback_spins: 0,
        }),
        Some(ReduceByKeyTuning {
            workgroup_size: 64,
            items_per_invocation: 16,
            lookback_spins: u32::MAX,
        }),
        // Rows of two elements a lane (items not a multiple of 4).
        Some(ReduceByKeyTuning {
            workgroup_size: 64,
            items_per_invocation: 6,
            lookback_spins: 0,
        }),
    ];
    let mut out = Vec::new();
    for path in [ReduceByKeyPath::Lookback, ReduceByKeyPath::ReduceThenScan] {
        for tuning in tunings {
            let desc = ReduceByKeyDesc {
                path,
                tuning,
                ..ReduceByKeyDesc::new(key_type, value_type, op, max)
            };
            let plan = ctx.reduce_by_key_plan(&desc).unwrap();
            assert_eq!(plan.path(), path);
            out.push(plan);
        }
    }
    out
}

#[test]
fn both_paths_tunings_offsets_and_indirect_counts() {
    let ctx = context();
    let mut rng = Rng(7);
    for (key_type, value_type, op) in [
        (KeyType::U32, ValueType::U32, ReduceOp::Sum),
        (KeyType::F64, ValueType::U64, ReduceOp::Min),
        (KeyType::I32, ValueType::None, ReduceOp::Sum),
        (KeyType::U64, ValueType::U32, ReduceOp::Max),
    ] {
        let n = 9000usize;
        for runs in [
            Runs::AllEqual,
            Runs::Random(300),
            Runs::Fixed(64),
            Runs::AllDistinct,
        ] {
            let keys = match key_type {
                KeyType::U32 => keys_bytes::<u32>(n, runs, &mut rng),
                KeyType::F64 => keys_bytes::<f64>(n, runs, &mut rng),
                KeyType::I32 => keys_bytes::<i32>(n, runs, &mut rng),
                _ => keys_bytes::<u64>(n, runs, &mut rng),
            };
            let (values, wide) = values_for(n, value_type, &mut rng);
            let kb = key_type.bytes() as usize;
            for plan in plans(&ctx, key_type, value_type, op, n as u64) {
                for (offset, indirect) in [(0, None), (24, Some(4097u32)), (8, Some(0)), (16, Some(u32::MAX))]
                {
                    let got = record(&ctx, &plan, &keys, &values, offset, indirect);
                    let m = indirect.map_or(n, |c| (c as usize).min(n));
                    let (wk, wv) = expected(&keys[..m * kb], kb, &wide[..m.min(wide.len())], value_type, op);
                    let what =
                        format!("{key_type:?} {value_type:?} {op:?} {runs:?} {plan:?} {offset} {indirect:?}");
                    assert_eq!(got.runs as usize, wk.len() / kb, "{what}");
                    assert!(got.keys == wk, "{what}: keys");
                    assert!(got.values == wv, "{what}: values");
                    assert!(got.poison_held, "{what}: written outside the runs");
                }
            }
        }
    }
}

/// The forced fallback of the look-back path over many tiles: every tile computes its
/// predecessor's pair itself, and the runs span many tiles.
#[test]
fn lookback_fallback_over_many_tiles() {
    let ctx = context();
    let mut rng = Rng(8);
    let n = 100_000;
    let keys = keys_bytes::<u32>(n, Runs::Random(5000), &mut rng);
    let (values, wide) = values_for(n, ValueType::U64, &mut rng);
    let desc = ReduceByKeyDesc {
        path: ReduceByKeyPath::Lookback,
        tuning: Some(ReduceByKeyTuning {
            workgroup_size: 32,
            items_per_invocation: 4,
            lookback_spins: u32::MAX,
        }),
        ..ReduceByKeyDesc::new(KeyType::U32, ValueType::U64, ReduceOp::Sum, n as u64)
    };
    let plan = ctx.reduce_by_key_plan(&desc).unwrap();
    let got = record(&ctx, &plan, &keys, &values, 0, None);
    let (wk, wv) = expected(&keys, 4, &wide, ValueType::U64, ReduceOp::Sum);
    assert_eq!(got.runs as usize, wk.len() / 4);
    assert!(got.keys == wk && got.values == wv);
}

/// A look-back plan that keeps its scratch zeroed, in the default tiles (its last workgroup
/// clears the state), in tiles of 32 (more tiles than that: a clear after the dispatch) and
/// with the forced fallback: one scratch zeroed once serves calls of every size (direct and
/// indirect, larger and smaller than the call before), each exact, and after each the state is
/// zero again but for the fallback count.
#[test]
fn kept_zeroed_scratch_across_calls() {
    let ctx = context();
    let mut rng = Rng(9);
    let n = 9000usize;
    for tuning in [
        None,
        Some(ReduceByKeyTuning {
            workgroup_size: 32,
            items_per_invocation: 1,
            lookback_spins: 32,
        }),
        Some(ReduceByKeyTuning {
            workgroup_size: 64,
            items_per_invocation: 16,
            lookback_spins: u32::MAX,
        }),
    ] {
        for value_type in [ValueType::U64, ValueType::None] {
            let desc = ReduceByKeyDesc {
                path: ReduceByKeyPath::Lookback,
                tuning,
                keep_scratch_zeroed: true,
                ..ReduceByKeyDesc::new(KeyType::U32, value_type, ReduceOp::Sum, n as u64)
            };
            let plan = ctx.reduce_by_key_plan(&desc).unwrap();
            let bytes = plan.memory_requirements().scratch.size;
            let mut scratch = GpuBuffer::new(&ctx, bytes, MemoryLocation::CpuToGpu, "scratch").unwrap();
            scratch.mapped().unwrap().fill(0);
            for (round, (m, indirect)) in [(n, None), (5, None), (n, Some(4097u32)), (0, None), (7777, None)]
                .into_iter()
                .enumerate()
            {
                let keys = keys_bytes::<u32>(m, Runs::Random(40), &mut rng);
                let (values, wide) = values_for(m, value_type, &mut rng);
                let got = record_with_scratch(&ctx, &plan, &keys, &values, 0, indirect, Some(&scratch));
                let used = indirect.map_or(m, |c| c as usize);
                let (wk, wv) = expected(
                    &keys[..used * 4],
                    4,
                    &wide[..used.min(wide.len())],
                    value_type,
                    ReduceOp::Sum,
                );
                let what = format!("{tuning:?} {value_type:?} round {round} n {m} {indirect:?}");
                assert_eq!(got.runs as usize, wk.len() / 4, "{what}");
                assert!(got.keys == wk && got.values == wv, "{what}");
                assert!(got.poison_held, "{what}: written outside the runs");
                let words: &[u32] = bytemuck::cast_slice(scratch.mapped().unwrap());
                let dirty = words.iter().enumerate().find(|&(i, &w)| i != 1 && w != 0);
                assert!(dirty.is_none(), "{what}: scratch word {dirty:?} left non-zero");
            }
        }
    }
}
