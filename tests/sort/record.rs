//! Sorts through the record layer: offsets, indirect counts, where the result lies.

use super::*;

#[test]
fn offsets_indirect_counts_and_result_location() {
    let ctx = context();
    let (tile, small) = geometry(&ctx, KeyType::U32, ValueType::U32);
    for path in PATHS {
        let max = if path == SortPath::Small {
            small
        } else {
            5 * tile + 9
        };
        record_layer_case(&ctx, path, max, max, false);
        record_layer_case(&ctx, path, max, max - tile - 3, true);
        record_layer_case(&ctx, path, max, 1, true);
        record_layer_case(&ctx, path, max, 0, true);
    }
}

/// Tiles that are not a power of two (288 keys: 96 invocations x 3), an odd number of them, at a
/// large byte offset that is not a multiple of 16: the per-tile 64-bit base addresses of the
/// counting kernels, the Onesweep constant-digit copy, the small path and the
/// 64-bit scatter addresses, with direct and indirect counts on every path.
#[test]
fn odd_tiles_at_large_offsets() {
    let ctx = context();
    let offset = (16 << 20) + 4;
    // One tuning: each costs its own pipeline compilations on lavapipe in every CI variant.
    let tuning = SortTuning {
        workgroup_size: 96,
        keys_per_thread: 3,
        lookback_spins: 0,
        stage_split: 1,
    };
    let tile = 96 * 3;
    for path in [SortPath::Safe, SortPath::Onesweep, SortPath::Small] {
        // Odd tile counts: 7 and 5 (the small path: 3 and 1).
        let max = if path == SortPath::Small {
            2 * tile + 7
        } else {
            6 * tile + 9
        };
        record_layer_case_at(&ctx, path, Some(tuning), offset, max, max, false);
        record_layer_case_at(&ctx, path, Some(tuning), offset, max, max - 2 * tile - 1, true);
    }
}

#[test]
fn result_location_follows_the_pass_count() {
    let ctx = context();
    let plan = |begin_bit, end_bit, key_type| {
        ctx.sort_plan(&SortDesc {
            begin_bit,
            end_bit,
            ..SortDesc::new(key_type, ValueType::None, 100)
        })
        .unwrap()
    };
    assert_eq!(plan(0, 0, KeyType::U32).pass_count(), 4);
    assert_eq!(plan(0, 0, KeyType::U32).result_location(), SortResult::InPlace);
    assert_eq!(plan(0, 0, KeyType::F64).pass_count(), 8);
    assert_eq!(plan(0, 8, KeyType::U32).result_location(), SortResult::Alternate);
    assert_eq!(plan(0, 20, KeyType::U32).pass_count(), 3);
    assert_eq!(plan(3, 4, KeyType::U64).pass_count(), 1);
}
