//! The tile paths' variants: the tile kernels' variant bits (specialization constant 2,
//! `TILE_VARIANT` in glsl/split/split_common.glsl), the tile geometry and the plan's
//! specialization constants. The choices behind them are in `tuning.rs`.

use super::tuning;
#[cfg(doc)]
use super::SplitPath;
use super::{key_kind, SplitDesc, SplitPlan, SPLIT_KEY_ORDER_INDEXED};
use crate::core::pipelines::Specialization;

// The tile kernels' variant bits: the same names and values as the table of bits, names and
// meanings in glsl/split/split_common.glsl (TILE_VARIANT; checked by a test below).

/// Tile variant bit: the tile scatter stages the whole tile in shared memory.
pub(super) const TILE_VARIANT_STAGED: u32 = 1 << 0;
/// Tile variant bit: lane `b` keeps bucket `b`'s running count (`m` at most the smallest
/// subgroup size).
pub(super) const TILE_VARIANT_REGISTERS: u32 = 1 << 1;
/// Tile variant bit: each subgroup stages its own run (with [`TILE_VARIANT_REGISTERS`]).
pub(super) const TILE_VARIANT_SUBGROUP_STAGED: u32 = 1 << 2;
/// Tile variant bit of the tile count: one subgroup counts a whole tile in registers (8-bit
/// fields, four buckets a register), [`SplitPlan::count_tiles_per_group`] tiles a workgroup,
/// its share loaded in 16-byte vectors.
pub(super) const TILE_VARIANT_COUNT_REGISTERS: u32 = 1 << 3;
/// Tile variant field: the bucket-id bits ceil(log2 m), to which the tile kernels unroll their
/// loops over id bits (bucket_fn.glsl UNROLLED_ID_BITS).
pub(super) const TILE_VARIANT_ID_BITS_SHIFT: u32 = 8;
/// Mask of the id-bits field (after the shift; the plan's id bits never exceed it).
#[allow(dead_code)] // named for the table; the GLSL reads it
pub(super) const TILE_VARIANT_ID_BITS_MASK: u32 = 63;
/// Tile variant field: log2 of the tiles a workgroup of the scatter takes
/// ([`SplitPlan::scatter_tiles_per_group`]).
pub(super) const TILE_VARIANT_TILES_SHIFT: u32 = 16;
/// Mask of the tiles field (after the shift).
pub(super) const TILE_VARIANT_TILES_MASK: u32 = 15;
/// Tile variant field: how a workgroup with one tile orders its start
/// ([`SplitPlan::first_tile_order`]).
pub(super) const TILE_VARIANT_FIRST_ORDER_SHIFT: u32 = 20;
/// Mask of the first-order field (after the shift).
pub(super) const TILE_VARIANT_FIRST_ORDER_MASK: u32 = 3;
/// Tile variant bit: each subgroup finds its buckets' starts itself
/// ([`SplitPlan::subgroup_positions`]).
pub(super) const TILE_VARIANT_SUBGROUP_POSITIONS: u32 = 1 << 22;
/// Tile variant bit: the direct path with subgroup positions takes every element's position
/// before it stores any ([`SplitPlan::shuffles_before_stores`]).
pub(super) const TILE_VARIANT_SHUFFLES_FIRST: u32 = 1 << 23;
/// Tile variant bit: register counters rank through a table of lane masks in shared memory
/// instead of one ballot per id bit ([`tuning::match_table`]).
pub(super) const TILE_VARIANT_MATCH_TABLE: u32 = 1 << 24;
/// The bits of the tile variant only the tile scatter reads (its write path, tiles a
/// workgroup, first-tile order, subgroup positions): the other passes' pipelines leave them
/// out, so plans that differ only there share those pipelines.
pub(super) const TILE_VARIANT_SCATTER_ONLY: u32 = TILE_VARIANT_STAGED
    | TILE_VARIANT_REGISTERS
    | TILE_VARIANT_SUBGROUP_STAGED
    | (TILE_VARIANT_TILES_MASK << TILE_VARIANT_TILES_SHIFT)
    | (TILE_VARIANT_FIRST_ORDER_MASK << TILE_VARIANT_FIRST_ORDER_SHIFT)
    | TILE_VARIANT_SUBGROUP_POSITIONS
    | TILE_VARIANT_SHUFFLES_FIRST
    | TILE_VARIANT_MATCH_TABLE;

/// How a workgroup of the tile scatter that takes one tile orders its start
/// (glsl/split/tile_scatter.comp FIRST_TILE_ORDER; chosen by [`tuning::FIRST_TILE_ORDER`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FirstTileOrder {
    /// The status check under a barrier, the loads, the counter rows zeroed between two more
    /// barriers.
    CheckLoadZero = 0,
    /// The counter rows zeroed under the status check's barrier, then the loads.
    ZeroLoad = 1,
    /// The loads, then the counter rows zeroed under the status check's barrier.
    LoadZero = 2,
}

/// How the tile path cuts the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TileGeometry {
    /// Elements per invocation (BATCH in glsl/split/split_common.glsl).
    pub(super) items: u32,
    /// How the scatter writes the ranked tile.
    pub(super) write: TileWrite,
}

/// How the tile scatter writes a ranked tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TileWrite {
    /// Straight from registers ([`SplitPath::TileDirect`]).
    Direct,
    /// Each subgroup's run staged in bucket order ([`SplitPath::TileSubgroupStaged`]).
    SubgroupStaged,
    /// The whole tile staged in bucket order ([`SplitPath::TileStaged`]).
    Staged,
}

/// Whether the tile scatter keeps two sets of counter rows, one for even and one for odd tiles:
/// subgroup positions with several tiles a workgroup, where a subgroup writes its row for the
/// next tile while later subgroups may still read the rows of this one (glsl/split/
/// tile_scatter.comp DOUBLE_BUFFERED_ROWS).
pub(super) fn double_buffered_rows(desc: &SplitDesc, write: TileWrite, group_lanes: u32) -> bool {
    tuning::subgroup_positions(desc, write, group_lanes)
        && tuning::scatter_tiles_per_group(desc, write, group_lanes) > 1
}

/// The specialization constants of the multisplit's kernels (glsl/split/split_common.glsl).
#[derive(Clone, Copy)]
pub(super) struct SplitSpec {
    /// Invocations per workgroup (constant_id 0).
    pub(super) workgroup_size: u32,
    /// Words of the tile kernels' shared pool (COUNTER_WORDS, constant_id 1); the tile count
    /// with [`TILE_VARIANT_COUNT_REGISTERS`] reads it as the vectors a lane loads at once
    /// (LOAD_VECTORS).
    pub(super) counter_words: u32,
    /// The tile kernels' variant bits (TILE_VARIANT, constant_id 2: the `TILE_VARIANT_*`
    /// above); 1 without a tile path (no split pass spins).
    pub(super) tile_variant: u32,
    /// Steps whose elements a lane loads before ranking any of them (BATCH, constant_id 5).
    pub(super) batch: u32,
    /// Key kind (0 unsigned, 1 signed, 2 float) | [`SPLIT_KEY_ORDER_INDEXED`] (KEY_ORDER,
    /// constant_id 6).
    pub(super) key_order: u32,
}

impl From<SplitSpec> for Specialization {
    fn from(spec: SplitSpec) -> Self {
        Specialization {
            workgroup_size: spec.workgroup_size,
            id1: spec.counter_words,
            id2: spec.tile_variant,
            id5: spec.batch,
            id6: spec.key_order,
            id8: 0,
        }
    }
}

impl SplitPlan {
    /// The specialization constants of every kernel of the plan.
    pub(super) fn specialization(&self) -> SplitSpec {
        SplitSpec {
            workgroup_size: self.workgroup_size,
            counter_words: self.counter_words,
            tile_variant: match self.tile {
                Some(tile) => {
                    let mut variant = 0;
                    match tile.write {
                        TileWrite::Staged => variant |= TILE_VARIANT_STAGED,
                        TileWrite::SubgroupStaged => variant |= TILE_VARIANT_SUBGROUP_STAGED,
                        TileWrite::Direct => {}
                    }
                    if self.desc.bucket_count <= self.group_lanes {
                        variant |= TILE_VARIANT_REGISTERS;
                    }
                    variant |= self.id_bits() << TILE_VARIANT_ID_BITS_SHIFT;
                    variant |= self.scatter_tiles_per_group().trailing_zeros() << TILE_VARIANT_TILES_SHIFT;
                    variant |= (self.first_tile_order() as u32) << TILE_VARIANT_FIRST_ORDER_SHIFT;
                    if self.subgroup_positions() {
                        variant |= TILE_VARIANT_SUBGROUP_POSITIONS;
                    }
                    if self.shuffles_before_stores() {
                        variant |= TILE_VARIANT_SHUFFLES_FIRST;
                    }
                    if self.match_table {
                        variant |= TILE_VARIANT_MATCH_TABLE;
                    }
                    variant
                }
                None => 1,
            },
            batch: self.batch,
            key_order: key_kind(self.desc.key_type)
                | if self.splitter_index.is_some() {
                    SPLIT_KEY_ORDER_INDEXED
                } else {
                    0
                },
        }
    }

    /// The specialization of every pass but the tile scatter (the offsets, the small path,
    /// the Onesweep bucket starts; the count builds on it): the scatter-only bits left out.
    pub(super) fn pass_specialization(&self) -> SplitSpec {
        let mut spec = self.specialization();
        if self.tile.is_some() {
            spec.tile_variant &= !TILE_VARIANT_SCATTER_ONLY;
        }
        spec
    }

    /// The specialization of the counting pass: the tile count keeps only `m` shared
    /// counters (not the scatter's pool, which would cut its occupancy), or counts in
    /// registers, loading that many 16-byte vectors per lane at once.
    pub(super) fn count_specialization(&self) -> SplitSpec {
        let mut spec = self.pass_specialization();
        if self.tile.is_some() {
            if self.count_tiles_per_group() > 1 {
                spec.tile_variant |= TILE_VARIANT_COUNT_REGISTERS;
                spec.counter_words = self.count_load_vectors;
            } else {
                spec.counter_words = self.desc.bucket_count.next_multiple_of(256);
            }
        }
        spec
    }

    /// Tiles one workgroup of the tile scatter takes (see [`tuning::SCATTER_TILES_PER_GROUP`]).
    pub(super) fn scatter_tiles_per_group(&self) -> u32 {
        self.tile.map_or(1, |tile| {
            tuning::scatter_tiles_per_group(&self.desc, tile.write, self.group_lanes)
        })
    }

    /// Whether each subgroup of the tile scatter finds its buckets' output starts itself (see
    /// [`tuning::subgroup_positions`]).
    pub(super) fn subgroup_positions(&self) -> bool {
        self.tile
            .is_some_and(|tile| tuning::subgroup_positions(&self.desc, tile.write, self.group_lanes))
    }

    /// Whether the direct path with subgroup positions takes every element's position before it
    /// stores any (see [`tuning::SHUFFLES_FIRST_MIN_BUCKETS`]).
    pub(super) fn shuffles_before_stores(&self) -> bool {
        self.subgroup_positions()
            && self.tile.is_some_and(|tile| tile.write == TileWrite::Direct)
            && self.desc.bucket_count >= tuning::shuffles_first_min_buckets()
    }

    /// How a workgroup of the tile scatter that takes one tile orders its start (see
    /// [`tuning::FIRST_TILE_ORDER`]; variants with several tiles a workgroup ignore it).
    pub(super) fn first_tile_order(&self) -> FirstTileOrder {
        match self.tile {
            Some(tile) => tuning::first_tile_order(
                &self.desc,
                tile.write,
                self.match_table,
                self.subgroup_positions(),
            ),
            None => FirstTileOrder::CheckLoadZero,
        }
    }

    /// Tiles one workgroup of the tile count takes: one per lane group where the tile's counts
    /// fit the registers' 8-bit fields (a lane's share under 256 elements, at most
    /// [`tuning::COUNT_REGISTERS_MAX_BUCKETS`] buckets), else 1 (shared counters).
    pub(super) fn count_tiles_per_group(&self) -> u32 {
        let tile_length = self.column_length();
        let max_buckets = tuning::count_registers_max_buckets(&self.desc);
        match self.tile {
            Some(_)
                if self.desc.bucket_count <= max_buckets && tile_length / self.group_lanes as u64 <= 255 =>
            {
                self.workgroup_size / self.group_lanes
            }
            _ => 1,
        }
    }

    #[doc(hidden)]
    /// Largest number of columns of the plan (diagnostics).
    pub fn max_columns(&self) -> u64 {
        self.max_columns
    }
}

#[cfg(test)]
mod tests {
    use super::tuning::{match_table, scatter_tiles_per_group};
    use super::{SplitDesc, TileWrite};
    use crate::core::tuning::DeviceClass;
    use crate::{BucketFn, KeyType, ValueType};

    /// Which tile scatters rank through the table of lane masks: on a GPU with 32-lane
    /// subgroups the measured splits from 4 id bits, on a CPU driver every such split from 2
    /// buckets, never where `m` exceeds the subgroup or subgroups are wider than 32 lanes.
    #[test]
    fn match_table_takes_the_measured_splits() {
        let desc = |value_type, m, bucket_fn| SplitDesc::new(KeyType::U32, value_type, m, bucket_fn, 1 << 20);
        let (keys, pairs) = (ValueType::None, ValueType::U32);
        let (sub, staged) = (TileWrite::SubgroupStaged, TileWrite::Staged);
        let class = |cpu| {
            if cpu {
                DeviceClass::Cpu
            } else {
                DeviceClass::Nvidia
            }
        };
        for (d, write, lanes, widest, cpu, takes) in [
            (desc(keys, 16, BucketFn::Glsl), sub, 32, 32, false, true),
            (desc(keys, 9, BucketFn::Bits), sub, 32, 32, false, true),
            (desc(keys, 32, BucketFn::Bits), sub, 32, 32, false, true),
            (desc(keys, 8, BucketFn::Glsl), sub, 32, 32, false, false),
            (desc(keys, 16, BucketFn::Ids), sub, 32, 32, false, false),
            (desc(keys, 16, BucketFn::Glsl), staged, 32, 32, false, false),
            (
                desc(keys, 16, BucketFn::Glsl),
                TileWrite::Direct,
                32,
                32,
                false,
                false,
            ),
            (desc(keys, 16, BucketFn::Glsl), sub, 32, 64, false, false),
            (desc(keys, 33, BucketFn::Glsl), sub, 32, 32, false, false),
            (desc(pairs, 32, BucketFn::Glsl), staged, 32, 32, false, true),
            (desc(pairs, 16, BucketFn::Bits), staged, 32, 32, false, true),
            (desc(pairs, 16, BucketFn::Ids), staged, 32, 32, false, false),
            (desc(pairs, 8, BucketFn::Glsl), staged, 32, 32, false, false),
            (desc(pairs, 16, BucketFn::Glsl), sub, 32, 32, false, false),
            (
                desc(ValueType::U64, 16, BucketFn::Glsl),
                staged,
                32,
                32,
                false,
                false,
            ),
            (desc(keys, 2, BucketFn::Bits), sub, 8, 8, true, true),
            (desc(pairs, 8, BucketFn::Glsl), staged, 8, 8, true, true),
            (desc(pairs, 16, BucketFn::Glsl), staged, 8, 8, true, false),
            (desc(keys, 1, BucketFn::Bits), sub, 8, 8, true, false),
        ] {
            assert_eq!(
                match_table(&d, write, lanes, widest, class(cpu)),
                takes,
                "{:?} m={} {:?} {write:?} lanes {lanes}..{widest} cpu {cpu}",
                d.value_type,
                d.bucket_count,
                d.bucket_fn
            );
        }
        let mut u64_keys = desc(keys, 16, BucketFn::Glsl);
        u64_keys.key_type = KeyType::U64;
        assert!(!match_table(&u64_keys, sub, 32, 32, DeviceClass::Nvidia));
    }

    /// Tiles a workgroup of the tile scatter: keys alone on the subgroup-staged path four, two
    /// where `m` is the lane group's width; pairs into at most 4 buckets two on the direct and
    /// subgroup-staged paths; everything else one.
    #[test]
    fn scatter_tiles_per_group_takes_the_measured_counts() {
        let desc = |value_type, m| SplitDesc::new(KeyType::U32, value_type, m, BucketFn::Glsl, 1 << 20);
        let (keys, pairs) = (ValueType::None, ValueType::U32);
        let (sub, staged, direct) = (TileWrite::SubgroupStaged, TileWrite::Staged, TileWrite::Direct);
        for (d, write, lanes, tiles) in [
            (desc(keys, 16), sub, 32, 4),
            (desc(keys, 31), sub, 32, 4),
            (desc(keys, 32), sub, 32, 2),
            (desc(keys, 8), sub, 8, 2),
            (desc(keys, 8), sub, 16, 4),
            (desc(keys, 32), staged, 32, 1),
            (desc(keys, 4), direct, 32, 1),
            (desc(pairs, 4), sub, 32, 2),
            (desc(pairs, 2), direct, 32, 2),
            (desc(pairs, 8), sub, 32, 1),
            (desc(pairs, 4), staged, 32, 1),
        ] {
            assert_eq!(
                scatter_tiles_per_group(&d, write, lanes),
                tiles,
                "{:?} m={} {write:?} lanes {lanes}",
                d.value_type,
                d.bucket_count
            );
        }
    }
}
