//! The kernels' geometry the plan needs: how the safe path groups its tiles into blocks, and
//! the shared memory each kind of kernel declares for a tuning.

#[cfg(doc)]
use super::SortPlan;
use super::{SortDesc, SortTuning, ValueType};
use crate::Context;

/// How the safe path splits `tiles` tiles: (blocks, tiles per block).
pub(super) fn blocking(tiles: u64, max_blocks: u64) -> (u64, u64) {
    if tiles == 0 {
        return (0, 1);
    }
    let per = tiles.div_ceil(tiles.min(max_blocks));
    (tiles.div_ceil(per), per)
}

/// How a rank-and-scatter kernel stages its tile in shared memory (glsl/sort/sort_common.glsl).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    /// 1 / stage_split of the tile's words per round, in the pool of the digit counters (the
    /// Onesweep and safe-path kernels).
    Rounds,
    /// The whole tile at once, in the pool of the digit counters (the small-N kernels).
    WholeTile,
    /// The whole tile at once, with the digit counters after it (the resident kernel where the
    /// plan finds room: [`SortPlan::resident_counters_apart`]).
    WholeTileApart,
}

/// Shared memory (bytes) the rank-and-scatter kernels declare for `tuning` staging as `stage`
/// says (glsl/sort/small.comp and glsl/sort/resident.comp declare the same pool and tables as
/// the tile kernels).
pub(super) fn shared_bytes(ctx: &Context, tuning: &SortTuning, desc: &SortDesc, stage: Stage) -> u64 {
    let wg = tuning.workgroup_size as u64;
    let rows = wg / ctx.profile.min_subgroup_size.max(1) as u64;
    // Digit counters and the staged tile (two words per 8-byte element), one pool.
    let wide = desc.key_type.bytes() == 8 || desc.value_type.bytes() == 8;
    let stage_words = match (stage, wide) {
        (Stage::Rounds, _) => tuning.tile_keys() / tuning.stage_split as u64,
        (_, true) => tuning.tile_keys() * 2,
        (_, false) => tuning.tile_keys(),
    };
    let counter_words = rows * 256;
    let pool = if stage == Stage::WholeTileApart {
        (counter_words + stage_words) * 4
    } else {
        counter_words.max(stage_words) * 4
    };
    // Digit offsets (shared with the fallback counts), per-subgroup scan slots, the match
    // table (32 lane masks per subgroup), and the workgroup-scan slots of the kernels that use
    // them; small counters.
    let match_table = rows * 32 * 4;
    pool + 1024 + rows * 4 + match_table + wg * 4 + 64
}

/// Shared memory of the block merge sort with the resident `tuning`: the whole tile's keys and
/// values, and with values each key's source position (glsl/sort/block_merge.comp).
pub(super) fn block_merge_shared_bytes(desc: &SortDesc, tuning: &SortTuning) -> u64 {
    let sources = if desc.value_type == ValueType::None { 0 } else { 4 };
    tuning.tile_keys() * (desc.key_type.bytes() + desc.value_type.bytes() + sources) + 64
}

#[cfg(test)]
mod tests {
    use super::blocking;
    use crate::sort::MAX_BLOCKS;

    #[test]
    fn blocks_cover_all_tiles() {
        for tiles in [1u64, 2, 1023, 1024, 1025, 65536, 1_000_003] {
            let (blocks, per) = blocking(tiles, MAX_BLOCKS);
            assert!(blocks <= MAX_BLOCKS, "{tiles}");
            assert!(
                blocks * per >= tiles && (blocks - 1) * per < tiles,
                "{tiles}: {blocks} x {per}"
            );
        }
    }
}
