//! The tile paths' variants and tuning: which path `Auto` takes, the tile scatter's variant
//! bits (specialization constant 2 of glsl/split/tile_scatter.comp), tile lengths, tiles a
//! workgroup, the first tile's order, the ranking by ballots or by the table of lane masks, and
//! the plan's specialization constants. Each rule cites the measurements behind it.

#[cfg(doc)]
use super::SplitPath;
use super::{id_bits, key_kind, BucketFn, SplitDesc, SplitPlan, SPLIT_KEY_ORDER_INDEXED};
use crate::core::pipelines::Specialization;
use crate::ValueType;

/// Tile scatter variant (specialization constant 2, glsl/split/tile_scatter.comp): stage the
/// tile in shared memory.
pub(super) const TILE_SPEC_STAGED: u32 = 1;
/// Tile scatter variant: lane `b` keeps bucket `b`'s running count (`m` at most the smallest
/// subgroup size).
pub(super) const TILE_SPEC_REGISTERS: u32 = 2;
/// Tile scatter variant: each subgroup stages its own run (with [`TILE_SPEC_REGISTERS`]).
pub(super) const TILE_SPEC_SUBGROUP_STAGED: u32 = 4;
/// Tile count variant: one subgroup counts a whole tile in registers (8-bit fields, four buckets
/// a register; `m` <= [`COUNT_REGISTERS_MAX_BUCKETS`]), [`SplitPlan::count_tiles_per_group`]
/// tiles a workgroup, its share loaded in 16-byte vectors (glsl/split/tile_count.comp).
pub(super) const TILE_SPEC_COUNT_REGISTERS: u32 = 8;
/// Most buckets the tile count keeps in registers (four 8-bit fields in each of two words).
pub(super) const COUNT_REGISTERS_MAX_BUCKETS: u32 = 8;
/// Most buckets the tile count keeps in registers for keys alone (see
/// [`SplitPlan::count_tiles_per_group`]).
pub(super) const COUNT_REGISTERS_MAX_BUCKETS_KEYS: u32 = 4;
/// Tile kernels' variant, bits 8..13: the bucket-id bits ceil(log2 m), to which the tile
/// kernels unroll their loops over id bits (glsl/split/bucket_fn.glsl UNROLLED_ID_BITS). On an
/// NVIDIA H100, 2^26 u32 keys: m = 2 0.380 -> 0.329 ms, m = 4 0.435 -> 0.359 ms, staged
/// m = 1024 4.04 -> 3.66 ms (docs/benchmarks/2026-11-23-resident-steps-h100.md).
pub(super) const TILE_SPEC_ID_BITS_SHIFT: u32 = 8;
/// Tile scatter variant: log2 of the tiles a workgroup takes in bits 16..19
/// ([`SplitPlan::scatter_tiles_per_group`]).
pub(super) const TILE_SPEC_TILES_SHIFT: u32 = 16;
/// Tile scatter variant: how a workgroup with one tile orders its start, in bits 20..21
/// ([`SplitPlan::first_tile_order`]).
pub(super) const TILE_SPEC_FIRST_ORDER_SHIFT: u32 = 20;
/// Tile scatter variant: each subgroup finds its buckets' starts itself
/// ([`SplitPlan::subgroup_positions`]).
pub(super) const TILE_SPEC_SUBGROUP_POSITIONS: u32 = 1 << 22;
/// Tile scatter variant: the direct path with subgroup positions takes every element's position
/// before it stores any ([`SplitPlan::shuffles_before_stores`]).
pub(super) const TILE_SPEC_SHUFFLES_FIRST: u32 = 1 << 23;
/// Tile scatter variant: register counters rank through a table of lane masks in shared memory
/// instead of one ballot per id bit ([`SplitPlan::match_table`]).
pub(super) const TILE_SPEC_MATCH_TABLE: u32 = 1 << 24;
/// Fewest buckets for which the direct path with subgroup positions takes every position before
/// its first store; fewer buckets store each element right after its position's shuffle. Either
/// order costs the same instructions; the driver's schedule differs. On an NVIDIA H200, u32 keys
/// at 2^24 / 2^26, ms, shuffles first against each store after its shuffle: into 5 buckets
/// 0.0763 / 0.2718 against 0.0749 / 0.2567, into 7 0.0782 / 0.2694 against 0.0774 / 0.2681, into
/// 8 0.0809 / 0.2767 against 0.0836 / 0.2848, into 9 0.0861 / 0.2969 against 0.0881 / 0.3035,
/// into 10 0.0883 / 0.3107 against 0.0898 / 0.3225
/// (docs/benchmarks/2026-11-26-h200-split-subgroup-positions.md).
pub(super) const SHUFFLES_FIRST_MIN_BUCKETS: u32 = 8;
/// The bits of the tile variant only the tile scatter reads (its write path, tiles a
/// workgroup, first-tile order, subgroup positions): the other passes' pipelines leave them
/// out, so plans that differ only there share those pipelines.
pub(super) const TILE_SPEC_SCATTER_ONLY: u32 = TILE_SPEC_STAGED
    | TILE_SPEC_REGISTERS
    | TILE_SPEC_SUBGROUP_STAGED
    | (0xF << TILE_SPEC_TILES_SHIFT)
    | (0x3 << TILE_SPEC_FIRST_ORDER_SHIFT)
    | TILE_SPEC_SUBGROUP_POSITIONS
    | TILE_SPEC_SHUFFLES_FIRST
    | TILE_SPEC_MATCH_TABLE;
/// Largest `m` [`SplitPath::Auto`] writes straight from registers on the tile path, keys only
/// and with values (larger `m` is staged). Measured on an NVIDIA H100, 2^26 u32 keys, 8 items
/// per invocation: keys direct 0.93 ms against staged 1.06 ms at m = 32, 1.47 against 1.27 at
/// m = 256; pairs direct 0.58 against 1.11 at m = 2, 1.07 against 0.87 at m = 8
/// (docs/benchmarks/2026-11-22-multisplit-h100.md).
pub(super) const DIRECT_MAX_BUCKETS: (u32, u32) = (32, 4);
/// Largest `m` [`SplitPath::Auto`] writes straight from registers by IDS where the staged path
/// would split with per-subgroup starts (4-byte keys, alone or with 4-byte values; otherwise
/// [`DIRECT_MAX_BUCKETS`]): (keys alone, pairs). On an NVIDIA H200 at 2^24 / 2^26, ms, direct
/// against staged (docs/benchmarks/2026-11-26-h200-split-staged-starts.md):
/// - keys into 20 0.1640 / 0.6119 against 0.1705 / 0.6361, into 24 0.1770 / 0.6452 against
///   0.1725 / 0.6438, into 28 0.1846 / 0.6867 against 0.1724 / 0.6454, into 32 0.1923 / 0.7283
///   against 0.1731 / 0.6472;
/// - pairs into 2 0.1219 / 0.4303 against 0.1256 / 0.4491, into 3 0.1381 / 0.4906 against
///   0.1378 / 0.4979, into 4 0.1507 / 0.5464 against 0.1386 / 0.5009.
pub(super) const DIRECT_MAX_BUCKETS_IDS: (u32, u32) = (23, 3);
/// Most buckets for which [`SplitPath::Auto`] stages u32 -> u32 pairs (4-byte keys and
/// values) whose bucket the staged scatter recomputes from the key, from 4 buckets, rather than
/// taking the Onesweep split or the direct tile path: (BITS, GLSL). Measured on an NVIDIA H200
/// at 2^24 / 2^26, ms, staged against the Onesweep split: BITS at m = 4 0.146 / 0.501 against
/// 0.164 / 0.580, m = 16 0.157 / 0.552 against 0.163 / 0.577, m = 32 0.167 / 0.593 against
/// 0.164 / 0.580; GLSL at m = 4 0.143 / 0.492 against 0.170 / 0.602 (direct 0.158 / 0.559),
/// m = 32 0.166 / 0.591 against 0.171 / 0.606, m = 64 0.181 / 0.654 against 0.172 / 0.611.
/// Keys alone stay faster on the Onesweep split from m = 8
/// (docs/benchmarks/2026-11-24-h200-split-staged.md). With per-subgroup starts
/// ([`subgroup_positions`]) the staged path also takes BITS into 17 to 32 buckets: into 32
/// 0.1311 / 0.4741 ms against the Onesweep split's 0.1651 / 0.5817
/// (docs/benchmarks/2026-11-26-h200-split-staged-starts.md).
pub(super) const STAGED_PAIRS_MAX_BUCKETS: (u32, u32) = (32, 32);

/// Bucket counts for which [`SplitPath::Auto`] takes [`SplitPath::TileSubgroupStaged`] for
/// u32 -> u32 pairs split by BITS or GLSL (where `m` fits the device's smallest subgroup).
/// Measured on an NVIDIA H200 at 2^24 / 2^26, GLSL, ms, subgroup-staged (4 items) against the
/// path Auto took before: m = 3 0.131 / 0.443 against direct 0.142 / 0.485; m = 4 0.132 /
/// 0.452 against staged 0.146 / 0.497; m = 6 0.135 / 0.457 against 0.148 / 0.521; m = 8 0.136
/// / 0.466 against 0.151 / 0.528; m = 12 0.146 / 0.509 against 0.155 / 0.541; m = 16 0.153 /
/// 0.560 against 0.155 / 0.546 (staged kept); m = 2 0.126 / 0.432 against direct 0.117 /
/// 0.416 (direct kept). IDS is left to the other paths: at m = 4, 2^26, with 4 items two
/// commands gave 0.722 and 0.606 ms against direct 0.657 and 0.646
/// (docs/benchmarks/2026-11-24-h200-split-subgroup-staged.md).
/// By GLSL the staged path with per-subgroup starts ([`subgroup_positions`]) is as fast or faster
/// from 8 buckets: at 2^24 / 2^26, ms, subgroup-staged against staged, into 5 0.1149 / 0.4177
/// against 0.1190 / 0.4178, into 8 0.1186 / 0.4292 against 0.1182 / 0.4140, into 12 0.1266 /
/// 0.4619 against 0.1247 / 0.4455, into 16 0.1333 / 0.5008 against 0.1203 / 0.4343; by BITS
/// into 8 subgroup-staged stays (0.1157 / 0.4130 against 0.1272 / 0.4497)
/// (docs/benchmarks/2026-11-26-h200-split-staged-starts.md). So: (BITS, GLSL) ranges.
pub(super) const SUBGROUP_STAGED_PAIRS_BUCKETS: (
    std::ops::RangeInclusive<u32>,
    std::ops::RangeInclusive<u32>,
) = (3..=12, 3..=7);
/// Bucket counts for which [`SplitPath::Auto`] takes [`SplitPath::TileSubgroupStaged`] for
/// 4-byte keys alone split by BITS or GLSL (where `m` fits the device's smallest subgroup).
/// Measured on an NVIDIA H200 at 2^24 / 2^26, GLSL, ms, with the tile count in registers:
/// m = 8 0.110 / 0.385 against the Onesweep split's 0.126 / 0.430 (BITS 0.120 / 0.406) and
/// direct 0.118 / 0.404; m = 12 0.121 / 0.435 against Onesweep 0.126 / 0.432; m = 6 0.110 /
/// 0.385 against direct 0.104 / 0.352 (direct kept below 8); m = 16 0.127 / 0.452 against
/// Onesweep 0.126 / 0.432 (docs/benchmarks/2026-11-24-h200-split-count-registers.md). With 8
/// items and four tiles a workgroup ([`SUBGROUP_STAGED_KEYS_ITEMS`]), on an NVIDIA H100, ms:
/// m = 16 0.108 / 0.367-0.370 against the Onesweep split's 0.133-0.140 / 0.440-0.462, m = 32
/// 0.120-0.122 / 0.418-0.420 against 0.133-0.137 / 0.442-0.461
/// (docs/benchmarks/2026-11-25-h100-split-tiles-per-group.md). Below 11 buckets the direct path
/// with subgroup positions is faster ([`DIRECT_KEYS_MAX_BUCKETS`]).
pub(super) const SUBGROUP_STAGED_KEYS_BUCKETS: std::ops::RangeInclusive<u32> = 11..=32;
/// Most buckets for which [`SplitPath::Auto`] keeps 4-byte keys alone split by BITS or GLSL on
/// the direct tile path (each subgroup finding its buckets' starts itself:
/// [`subgroup_positions`]) rather than the Onesweep split or the subgroup-staged path. On an
/// NVIDIA H200 at 2^24 / 2^26, GLSL, ms, direct against subgroup-staged: m = 8 0.0811 / 0.2761
/// against 0.0881 / 0.2952 (BITS 0.0795 / 0.2738 against 0.0896 / 0.2966), m = 9 0.0864 /
/// 0.2964 against 0.0936 / 0.3136, m = 10 0.0880 / 0.3102 against 0.0932 / 0.3145, m = 11
/// 0.0937 / 0.3263 against 0.0942 / 0.3153, m = 12 0.0979 / 0.3435 against 0.0946 / 0.3181
/// (docs/benchmarks/2026-11-26-h200-split-subgroup-positions.md).
pub(super) const DIRECT_KEYS_MAX_BUCKETS: u32 = 10;
/// Elements per invocation of [`SplitPath::TileStaged`] on GPUs for 4-byte keys with u32
/// values where [`staged_pairs_take_fewer_items`] says so; 8 elsewhere. On an NVIDIA H200,
/// u32 -> u32 pairs on the staged path, ms at 2^24 / 2^26, 8 items against 7 (the faster of
/// two rounds each): by GLSL into 4 0.1101 / 0.3910 against 0.1075 / 0.3830, into 8 0.1180 /
/// 0.4140 against 0.1156 / 0.4085, into 12 0.1211 / 0.4314 against 0.1179 / 0.4192, into 16
/// 0.1213 / 0.4350 against 0.1185 / 0.4252, but into 20 0.1270 / 0.4570 against 0.1294 /
/// 0.4673 and into 32 0.1284 / 0.4629 against 0.1327 / 0.4831; by BITS into 16 0.1232 / 0.4446
/// against 0.1209 / 0.4333 (into 8, where `Auto` takes the subgroup-staged path, 0.6-1.5%
/// slower, into 32 3.5-3.7% slower); by IDS faster at every count from 4 to 32 (into 4 0.1392 /
/// 0.5008 against 0.1381 / 0.4984, into 24 0.1845 / 0.6823 against 0.1747 / 0.6451, into 32
/// 0.1867 / 0.6897 against 0.1817 / 0.6754); by SPLITTERS (one round) into 8 0.2005 / 0.7236
/// against 0.1958 / 0.7056 and into 16 0.2212 / 0.8273 against 0.2154 / 0.8109, into 32 the
/// same. 6, 9 and 10 items were slower than 8 into 16 and 32
/// (docs/benchmarks/2026-11-28-h200-staged-pairs-items.md).
pub(super) const STAGED_PAIRS_FEW_ITEMS: u32 = 7;

/// Whether the staged path takes [`STAGED_PAIRS_FEW_ITEMS`] for `desc` on a GPU: 4-byte keys
/// with u32 values, by BITS, GLSL or SPLITTERS into at most 16 buckets, by IDS into at most 32.
pub(super) fn staged_pairs_take_fewer_items(desc: &SplitDesc) -> bool {
    let max = match desc.bucket_fn {
        BucketFn::Bits | BucketFn::Glsl | BucketFn::Splitters => 16,
        BucketFn::Ids => 32,
    };
    desc.key_type.bytes() == 4 && desc.value_type == ValueType::U32 && desc.bucket_count <= max
}
/// Default elements per invocation of [`SplitPath::TileSubgroupStaged`] on GPUs: at 8 the
/// workgroup's pool (keys, then values, one word per element) let five 256-invocation
/// workgroups share an H200 multiprocessor's 48 KiB, at 4 eight. Pairs at m = 8, 2^26: 0.504
/// ms with 8 items, 0.485 with 6, 0.466 with 4; at m = 32, 0.646 with 8, 0.806 with 4 (runs
/// of 4 elements per bucket and subgroup).
pub(super) const SUBGROUP_STAGED_ITEMS: u32 = 4;
/// Default elements per invocation of [`SplitPath::TileSubgroupStaged`] for keys alone on GPUs,
/// whose workgroups take [`SCATTER_TILES_PER_GROUP_KEYS_STAGED`] tiles each. On an H100, u32
/// keys into 8 buckets at 2^26, ms (scatter pass in brackets): 4 items and 1 tile a workgroup
/// 0.396 (0.292), 4 and 4 0.369 (0.263), 8 and 1 0.382 (0.279), 8 and 2 0.355 (0.252), 8 and 4
/// 0.349 (0.245); 2 items 0.47-0.51 (docs/benchmarks/2026-11-25-h100-split-tiles-per-group.md).
/// On an H200 at 2^24 / 2^26, GLSL bucket, ms, with 8 / 10 / 12 / 14 / 16 items: into 8
/// buckets 0.0946 / 0.3154, 0.0945 / 0.3133, 0.0930 / 0.3036, 0.0967 / 0.3284, 0.1000 /
/// 0.33-0.41; into 32 0.1085 / 0.3760, 0.1082 / 0.3728, 0.1060 / 0.3587, 0.1082 / 0.3828,
/// 0.1063 / 0.3748; with 12 items, 2 or 8 tiles a workgroup were no faster than 4
/// (docs/benchmarks/2026-11-26-h200-split-first-tile-order.md).
pub(super) const SUBGROUP_STAGED_KEYS_ITEMS: u32 = 12;
/// Tiles one workgroup of the subgroup-staged tile scatter takes for keys alone (see
/// [`SUBGROUP_STAGED_KEYS_ITEMS`]). The direct path stays at 1 (u32 keys into 2 buckets at 2^26
/// on an H100: 0.285 ms with 1, 0.293 with 4; into 4 0.314 and 0.330).
pub(super) const SCATTER_TILES_PER_GROUP_KEYS_STAGED: u32 = 4;
/// Tiles one workgroup of the subgroup-staged tile scatter takes for keys alone into as many
/// buckets as a lane group has lanes (every lane holds a bucket's counter; 32 on NVIDIA GPUs).
/// On an NVIDIA H200, u32 keys by GLSL at 2^24 / 2^26, ms, four tiles against two: into 32
/// 0.0913-0.0930 / 0.3214-0.3225 against 0.0898 / 0.3110 (scatter pass 0.2467 against 0.2373
/// ms at 2^26), but into 31 0.0913-0.0919 / 0.3014-0.3015 against 0.0899 / 0.3104, into 28
/// 0.0897-0.0900 / 0.2976-0.2991 against 0.0893 / 0.3069 and into 16 0.0870-0.0874 / 0.2900-0.2904
/// against 0.0863 / 0.2977. On keys scaled to [0, 0.984 * 2^32) (unequal last bucket) into 32,
/// 0.3074 against 0.3112: the step at 32 is the uniform keys' (a hash partition's)
/// (docs/benchmarks/2026-11-28-h200-split-keys-32.md).
pub(super) const SCATTER_TILES_PER_GROUP_KEYS_FULL_GROUP: u32 = 2;
/// Tiles one workgroup of the direct and subgroup-staged tile scatters takes for u32 -> u32
/// pairs into at most [`SCATTER_PAIRS_TWO_TILES_MAX_BUCKETS`] buckets. On an H100 at 2^24 /
/// 2^26, ms, one tile against two: subgroup-staged by GLSL, m = 3 0.1354-0.1366 / 0.494-0.497
/// against 0.133 / 0.476, m = 4 0.141 / 0.516-0.517 against 0.135-0.136 / 0.491, m = 8
/// 0.150-0.151 / 0.545-0.546 against 0.150-0.152 / 0.543-0.545 (0.613 with four tiles); direct
/// by GLSL, m = 2 0.1428-0.1430 / 0.5220-0.5221 against 0.1399-0.1400 / 0.5045-0.5051, by BITS
/// at 2^26 m = 4 0.744-0.745 against 0.710. The staged path is slower with more tiles (pairs into
/// 16 and 32 buckets 1.05-1.10x slower with two), and keeps one
/// (docs/benchmarks/2026-11-25-h100-split-tiles-per-group.md).
pub(super) const SCATTER_TILES_PER_GROUP_PAIRS: u32 = 2;
/// See [`SCATTER_TILES_PER_GROUP_PAIRS`].
pub(super) const SCATTER_PAIRS_TWO_TILES_MAX_BUCKETS: u32 = 4;

/// How a workgroup of the tile scatter that takes one tile orders its start
/// (glsl/split/tile_scatter.comp FIRST_TILE_ORDER).
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

/// Whether [`SplitPath::Auto`] takes [`SplitPath::TileSubgroupStaged`] for `desc` where it
/// fits (see [`SUBGROUP_STAGED_PAIRS_BUCKETS`] and [`SUBGROUP_STAGED_KEYS_BUCKETS`]).
pub(super) fn auto_subgroup_stages(desc: &SplitDesc) -> bool {
    let buckets = match desc.value_type {
        ValueType::U32 if desc.bucket_fn == BucketFn::Glsl => SUBGROUP_STAGED_PAIRS_BUCKETS.1,
        ValueType::U32 => SUBGROUP_STAGED_PAIRS_BUCKETS.0,
        ValueType::None => SUBGROUP_STAGED_KEYS_BUCKETS,
        ValueType::U64 => return false,
    };
    matches!(desc.bucket_fn, BucketFn::Bits | BucketFn::Glsl)
        && desc.key_type.bytes() == 4
        && buckets.contains(&desc.bucket_count)
}

/// Whether [`SplitPath::Auto`] takes the direct tile path for `desc` where the Onesweep split
/// would otherwise take it (see [`DIRECT_KEYS_MAX_BUCKETS`]).
pub(super) fn auto_direct_keys(desc: &SplitDesc) -> bool {
    desc.value_type == ValueType::None
        && matches!(desc.bucket_fn, BucketFn::Bits | BucketFn::Glsl)
        && desc.key_type.bytes() == 4
        && desc.bucket_count <= DIRECT_KEYS_MAX_BUCKETS
}

/// Whether [`SplitPath::Auto`] prefers the staged tile path for `desc` (see
/// [`STAGED_PAIRS_MAX_BUCKETS`]), where it fits.
pub(super) fn auto_stages_pairs(desc: &SplitDesc) -> bool {
    let max = match desc.bucket_fn {
        BucketFn::Bits => STAGED_PAIRS_MAX_BUCKETS.0,
        BucketFn::Glsl => STAGED_PAIRS_MAX_BUCKETS.1,
        _ => return false,
    };
    desc.value_type == ValueType::U32 && desc.key_type.bytes() == 4 && (4..=max).contains(&desc.bucket_count)
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

/// Tiles one workgroup of the tile scatter takes, one after another, the next tile's loads
/// issued before this one is ranked (a power of two, glsl/split/tile_scatter.comp
/// TILES_PER_GROUP): [`SCATTER_TILES_PER_GROUP_KEYS_STAGED`] for keys alone on the
/// subgroup-staged path ([`SCATTER_TILES_PER_GROUP_KEYS_FULL_GROUP`] where `m` is
/// `group_lanes`), [`SCATTER_TILES_PER_GROUP_PAIRS`] for u32 values into few buckets on the
/// direct and subgroup-staged paths; else 1.
pub(super) fn scatter_tiles_per_group(desc: &SplitDesc, write: TileWrite, group_lanes: u32) -> u32 {
    match (write, desc.value_type) {
        (TileWrite::SubgroupStaged, ValueType::None) if desc.bucket_count == group_lanes => {
            SCATTER_TILES_PER_GROUP_KEYS_FULL_GROUP
        }
        (TileWrite::SubgroupStaged, ValueType::None) => SCATTER_TILES_PER_GROUP_KEYS_STAGED,
        (TileWrite::SubgroupStaged | TileWrite::Direct, ValueType::U32)
            if desc.bucket_count <= SCATTER_PAIRS_TWO_TILES_MAX_BUCKETS =>
        {
            SCATTER_TILES_PER_GROUP_PAIRS
        }
        _ => 1,
    }
}

/// Whether each subgroup of the tile scatter finds its buckets' output starts itself (the
/// scanned matrix's entry plus the counter rows of the subgroups before it), so that no
/// workgroup turns the rows into positions and no second workgroup barrier follows: register
/// counters (`m` at most `group_lanes`) on the direct path for keys alone and for u32 -> u32
/// pairs (4-byte keys and values: the pairs measured), on the subgroup-staged path for keys
/// alone, and on the staged path for 4-byte keys alone or with 4-byte values (there each
/// subgroup finds the tile's bucket starts itself, with no workgroup scan); by any bucket
/// function but IDS, and by IDS for keys alone into 2 buckets and on the staged path. On an
/// NVIDIA H200 at 2^24 / 2^26, ms:
/// - u32 -> u32 pairs, staged (docs/benchmarks/2026-11-26-h200-split-staged-starts.md; the
///   plan then also takes [`FirstTileOrder::LoadZero`], a further 1-3%): GLSL into 4 0.1170 /
///   0.4160 -> 0.1116 / 0.3963, into 8 0.1260 / 0.4470 -> 0.1204 / 0.4228, into 16 0.1287 /
///   0.4680 -> 0.1247 / 0.4488, into 32 0.1314 / 0.4762 -> 0.1280 / 0.4647; BITS into 8 0.1312
///   / 0.4649 -> 0.1303 / 0.4620, into 16 equal, into 32 0.1326 / 0.4817 -> 0.1308 / 0.4729;
///   u32 keys into 16 and 32 about 6-7% faster (the subgroup-staged path stays faster there);
///   pairs by IDS (first tile [`FirstTileOrder::ZeroLoad`], still the fastest) into 4 0.1455 /
///   0.5283 -> 0.1385 / 0.5007, into 8 0.1631 / 0.5972 -> 0.1534 / 0.5571, into 32 0.1884 /
///   0.7036 -> 0.1869 / 0.6967;
/// - u32 keys, direct (docs/benchmarks/2026-11-26-h200-split-register-rows.md): GLSL into 2
///   0.0650 / 0.2196 -> 0.0644 / 0.2198, into 3 0.0718 / 0.2436 -> 0.0702 / 0.2353, into 5
///   0.0816 / 0.2839 -> 0.0751 / 0.2576; IDS into 2 0.0882 / 0.3251 -> 0.0794 / 0.2746, but
///   into 3 0.0834 / 0.2943 -> 0.0897 / 0.3160 and into 5 2-3% slower (kept off there);
/// - u32 -> u32 pairs, direct, two tiles a workgroup, GLSL
///   (docs/benchmarks/2026-11-26-h200-split-subgroup-positions.md): into 2 0.1087 / 0.3768 ->
///   0.1030 / 0.3706, into 3 0.1240 / 0.4287 -> 0.1090 / 0.3856, into 4 0.1412 / 0.5185 ->
///   0.1166 / 0.4153; by BITS into 2 0.1087 / 0.3769 -> 0.1040 / 0.3779; but by IDS into 2
///   0.1215 / 0.4305 -> 0.1438 / 0.54 (kept off);
/// - u32 keys, subgroup-staged, four tiles a workgroup, GLSL: into 12 0.0946 / 0.3181 -> 0.0937
///   / 0.3162, into 16 0.0952 / 0.3180 -> 0.0942 / 0.3170, into 32 0.1025 / 0.3467 -> 0.1015 /
///   0.3439. Pairs on that path were 3-4% slower into 2-4 buckets (two tiles a workgroup), 1.3-1.9%
///   into 12 and 7% by BITS into 8, and keep the rows-to-positions step.
pub(super) fn subgroup_positions(desc: &SplitDesc, write: TileWrite, group_lanes: u32) -> bool {
    let path_takes = match write {
        TileWrite::Direct => {
            desc.value_type == ValueType::None
                || (desc.value_type == ValueType::U32 && desc.key_type.bytes() == 4)
        }
        TileWrite::SubgroupStaged => desc.value_type == ValueType::None,
        TileWrite::Staged => {
            desc.key_type.bytes() == 4 && matches!(desc.value_type, ValueType::None | ValueType::U32)
        }
    };
    path_takes
        && desc.bucket_count <= group_lanes
        && (desc.bucket_fn != BucketFn::Ids
            || write == TileWrite::Staged
            || (desc.value_type == ValueType::None && id_bits(desc.bucket_count) == 1))
}

/// Fewest bucket-id bits for which the tile scatter ranks through a table of lane masks (see
/// [`match_table`]) on GPUs. With fewer, the ballots (one per id bit) cost less than the table's
/// shared atomic, load, store and barrier per element. On an NVIDIA H200 at 2^24 / 2^26, ms,
/// ballots against the table (docs/benchmarks/2026-11-28-h200-split-match-table.md):
/// - u32 keys, subgroup-staged, GLSL (BITS within 1%): into 8 0.0868 / 0.2902 against 0.0875 /
///   0.2941, into 12 0.0939 / 0.3176 against 0.0889 / 0.2962, into 16 0.0940 / 0.3162 against
///   0.0874 / 0.2893, into 24 0.1011 / 0.3428 against 0.0883 / 0.2925, into 32 0.1015 / 0.3447
///   against 0.0907 / 0.3156; into 3 and 4 (direct) 15-29% slower with the table;
/// - u32 -> u32 pairs, staged, GLSL: into 8 0.1160 / 0.4084 against 0.1161 / 0.3988, into 16
///   0.1183 / 0.4260 against 0.1133 / 0.4010, into 24 0.1272 / 0.4588 against 0.1183 / 0.4196,
///   into 32 0.1277 / 0.4627 against 0.1197 / 0.4295. By BITS the table was 1-7% slower into
///   8, 16 and 32 with the first tile's order of the ballots ([`FirstTileOrder::LoadZero`]), but
///   with [`FirstTileOrder::CheckLoadZero`] into 16 0.1215 / 0.4352 -> 0.1161 / 0.4121 and into
///   32 0.1311 / 0.4744 -> 0.1216 / 0.4371 (command 91). Pairs on the subgroup-staged path were
///   8-14% slower into 3 to 8: they keep the ballots.
pub(super) const MATCH_TABLE_MIN_ID_BITS: u32 = 4;

/// Whether the tile scatter ranks through a table of lane masks in shared memory instead of one
/// ballot per id bit (glsl/split/tile_scatter.comp MATCH_TABLE; the tables lie where the tile
/// is staged after the ranking, so at least 2 items a lane): register counters (`m` at most
/// `group_lanes`) on subgroups of at most 32 lanes, from [`MATCH_TABLE_MIN_ID_BITS`] id bits,
/// for 4-byte keys alone by BITS or GLSL on the subgroup-staged path and for 4-byte keys with
/// u32 values by BITS or GLSL on the staged path with per-subgroup starts (the splits measured). CPU
/// drivers take it for every such split from 2 buckets (their subgroups hold at most 16
/// lanes, so no larger `m` reaches it), which is where the tests cover it.
pub(super) fn match_table(
    desc: &SplitDesc,
    write: TileWrite,
    group_lanes: u32,
    max_subgroup: u32,
    cpu: bool,
) -> bool {
    let four_byte_keys = desc.key_type.bytes() == 4;
    let takes = match write {
        TileWrite::SubgroupStaged => {
            four_byte_keys
                && desc.value_type == ValueType::None
                && matches!(desc.bucket_fn, BucketFn::Bits | BucketFn::Glsl)
        }
        TileWrite::Staged => {
            four_byte_keys
                && desc.value_type == ValueType::U32
                && matches!(desc.bucket_fn, BucketFn::Bits | BucketFn::Glsl)
                && subgroup_positions(desc, write, group_lanes)
                && scatter_tiles_per_group(desc, write, group_lanes) == 1
        }
        TileWrite::Direct => false,
    };
    let min_bits = if cpu { 1 } else { MATCH_TABLE_MIN_ID_BITS };
    takes && desc.bucket_count <= group_lanes && max_subgroup <= 32 && id_bits(desc.bucket_count) >= min_bits
}

/// Whether the tile scatter keeps two sets of counter rows, one for even and one for odd tiles:
/// subgroup positions with several tiles a workgroup, where a subgroup writes its row for the
/// next tile while later subgroups may still read the rows of this one (glsl/split/
/// tile_scatter.comp DOUBLE_BUFFERED_ROWS).
pub(super) fn double_buffered_rows(desc: &SplitDesc, write: TileWrite, group_lanes: u32) -> bool {
    subgroup_positions(desc, write, group_lanes) && scatter_tiles_per_group(desc, write, group_lanes) > 1
}

impl SplitPlan {
    /// The specialization constants of every kernel of the plan.
    pub(super) fn specialization(&self) -> Specialization {
        Specialization {
            workgroup_size: self.workgroup_size,
            vecs_per_thread: self.counter_words,
            // (The tile scatter's variant; no split pass spins.)
            spin_limit: match self.tile {
                Some(tile) => {
                    let mut variant = 0;
                    match tile.write {
                        TileWrite::Staged => variant |= TILE_SPEC_STAGED,
                        TileWrite::SubgroupStaged => variant |= TILE_SPEC_SUBGROUP_STAGED,
                        TileWrite::Direct => {}
                    }
                    if self.desc.bucket_count <= self.group_lanes {
                        variant |= TILE_SPEC_REGISTERS;
                    }
                    variant |= self.id_bits() << TILE_SPEC_ID_BITS_SHIFT;
                    variant |= self.scatter_tiles_per_group().trailing_zeros() << TILE_SPEC_TILES_SHIFT;
                    variant |= (self.first_tile_order() as u32) << TILE_SPEC_FIRST_ORDER_SHIFT;
                    if self.subgroup_positions() {
                        variant |= TILE_SPEC_SUBGROUP_POSITIONS;
                    }
                    if self.shuffles_before_stores() {
                        variant |= TILE_SPEC_SHUFFLES_FIRST;
                    }
                    if self.match_table {
                        variant |= TILE_SPEC_MATCH_TABLE;
                    }
                    variant
                }
                None => 1,
            },
            stage_split: self.batch,
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
    pub(super) fn pass_specialization(&self) -> Specialization {
        let mut spec = self.specialization();
        if self.tile.is_some() {
            spec.spin_limit &= !TILE_SPEC_SCATTER_ONLY;
        }
        spec
    }

    /// The specialization of the counting pass: the tile count keeps only `m` shared
    /// counters (not the scatter's pool, which would cut its occupancy), or counts in
    /// registers, loading that many 16-byte vectors per lane at once.
    pub(super) fn count_specialization(&self) -> Specialization {
        let mut spec = self.pass_specialization();
        if self.tile.is_some() {
            if self.count_tiles_per_group() > 1 {
                spec.spin_limit |= TILE_SPEC_COUNT_REGISTERS;
                spec.vecs_per_thread = self.count_load_vectors;
            } else {
                spec.vecs_per_thread = self.desc.bucket_count.next_multiple_of(256);
            }
        }
        spec
    }

    /// Tiles one workgroup of the tile scatter takes (see [`scatter_tiles_per_group`]).
    pub(super) fn scatter_tiles_per_group(&self) -> u32 {
        self.tile.map_or(1, |tile| {
            scatter_tiles_per_group(&self.desc, tile.write, self.group_lanes)
        })
    }

    /// Whether each subgroup of the tile scatter finds its buckets' output starts itself (see
    /// [`subgroup_positions`]).
    pub(super) fn subgroup_positions(&self) -> bool {
        self.tile
            .is_some_and(|tile| subgroup_positions(&self.desc, tile.write, self.group_lanes))
    }

    /// Whether the direct path with subgroup positions takes every element's position before it
    /// stores any: from [`SHUFFLES_FIRST_MIN_BUCKETS`] buckets.
    pub(super) fn shuffles_before_stores(&self) -> bool {
        self.subgroup_positions()
            && self.tile.is_some_and(|tile| tile.write == TileWrite::Direct)
            && self.desc.bucket_count >= SHUFFLES_FIRST_MIN_BUCKETS
    }

    /// How a workgroup of the tile scatter that takes one tile orders its start (see
    /// [`FirstTileOrder`]; variants with several tiles a workgroup ignore it). The three orders
    /// cost the same instructions, but the driver schedules each variant's code differently
    /// with each. On an NVIDIA H200 (driver 580), 2^24 / 2^26 u32 keys, against
    /// [`FirstTileOrder::CheckLoadZero`] (docs/benchmarks/2026-11-26-h200-split-first-tile-order.md):
    /// - keys alone, direct: `LoadZero` 2.5% faster into 2 buckets, 2.8% into 3, equal into 5
    ///   (`ZeroLoad` 3.7% slower into 5);
    /// - u32 -> u32 pairs, subgroup-staged, GLSL: `LoadZero` 1.9-4.8% faster into 5, 8 and 12
    ///   buckets; by BITS into 8, `ZeroLoad` 4.9% faster (`LoadZero` 3.5%);
    /// - pairs, staged: into 16 buckets (4 id bits) both others 7-10% slower; into 24 and 32 (5
    ///   id bits) `LoadZero` 3.8-3.9% faster, `ZeroLoad` 12% slower; by IDS into 8 to 32
    ///   buckets `ZeroLoad` 12-16% faster (the ids' loads, which the ranking issues, then go
    ///   out with the keys' and values', no barrier between them);
    /// - pairs, staged with per-subgroup starts ([`subgroup_positions`]): `LoadZero` fastest
    ///   into 4 to 32 buckets by GLSL and BITS, 0.8-3.1% faster than `CheckLoadZero` (into 16 by
    ///   GLSL 0.1243 / 0.4483 -> 0.1203 / 0.4343 ms), `ZeroLoad` 1-11% slower
    ///   (docs/benchmarks/2026-11-26-h200-split-staged-starts.md); but by BITS ranked through the
    ///   table of lane masks ([`match_table`]) `CheckLoadZero` into 16 and 32 buckets 0.1161 /
    ///   0.4121 and 0.1216 / 0.4371 ms, `ZeroLoad` 0.1167 / 0.4146 and 0.1269 / 0.4350,
    ///   `LoadZero` 0.1277 / 0.4692 and 0.1348 / 0.5030
    ///   (docs/benchmarks/2026-11-28-h200-split-match-table.md, command 91).
    pub(super) fn first_tile_order(&self) -> FirstTileOrder {
        let Some(tile) = self.tile else {
            return FirstTileOrder::CheckLoadZero;
        };
        let bucket_fn = self.desc.bucket_fn;
        match tile.write {
            TileWrite::Staged if bucket_fn == BucketFn::Ids => FirstTileOrder::ZeroLoad,
            TileWrite::Staged if bucket_fn == BucketFn::Bits && self.match_table => {
                FirstTileOrder::CheckLoadZero
            }
            TileWrite::Staged if self.id_bits() >= 5 || self.subgroup_positions() => FirstTileOrder::LoadZero,
            TileWrite::Staged => FirstTileOrder::CheckLoadZero,
            TileWrite::SubgroupStaged if bucket_fn == BucketFn::Bits => FirstTileOrder::ZeroLoad,
            TileWrite::SubgroupStaged => FirstTileOrder::LoadZero,
            TileWrite::Direct if self.desc.value_type == ValueType::None => FirstTileOrder::LoadZero,
            TileWrite::Direct => FirstTileOrder::CheckLoadZero,
        }
    }

    /// Tiles one workgroup of the tile count takes: one per lane group where the tile's counts
    /// fit the registers' 8-bit fields (a lane's share under 256 elements, at most
    /// [`COUNT_REGISTERS_MAX_BUCKETS`] buckets), else 1 (shared counters). On an NVIDIA H200,
    /// whole splits at 2^24 / 2^26, ms, shared counters against registers: u32 keys into 4
    /// buckets 0.103 / 0.292 against 0.091 / 0.277, u32 -> u32 pairs into 3 0.129 / 0.439
    /// against 0.122 / 0.407, into 8 0.135 / 0.464 against 0.133 / 0.451; into 16 (four
    /// registers) 0.154 / 0.542 against 0.163 / 0.572, so 8 is the limit
    /// (docs/benchmarks/2026-11-24-h200-split-count-registers.md). Keys alone, whose tiles
    /// are longer into 8 to 32 buckets ([`SUBGROUP_STAGED_KEYS_ITEMS`]), count in registers
    /// into at most [`COUNT_REGISTERS_MAX_BUCKETS_KEYS`]: on an H200, u32 keys into 8 buckets
    /// 0.0930 / 0.3036 ms with registers, 0.0895 / 0.2994 with shared counters; u32 -> u32
    /// pairs into 8 0.1193 / 0.4309 against 0.1222 / 0.4433
    /// (docs/benchmarks/2026-11-26-h200-split-first-tile-order.md).
    pub(super) fn count_tiles_per_group(&self) -> u32 {
        let tile_length = self.column_length();
        let max_buckets = if self.desc.value_type == ValueType::None {
            COUNT_REGISTERS_MAX_BUCKETS_KEYS
        } else {
            COUNT_REGISTERS_MAX_BUCKETS
        };
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
    use super::{match_table, scatter_tiles_per_group, BucketFn, SplitDesc, TileWrite};
    use crate::{KeyType, ValueType};

    /// Which tile scatters rank through the table of lane masks: on a GPU with 32-lane
    /// subgroups the measured splits from 4 id bits, on a CPU driver every such split from 2
    /// buckets, never where `m` exceeds the subgroup or subgroups are wider than 32 lanes.
    #[test]
    fn match_table_takes_the_measured_splits() {
        let desc = |value_type, m, bucket_fn| SplitDesc::new(KeyType::U32, value_type, m, bucket_fn, 1 << 20);
        let (keys, pairs) = (ValueType::None, ValueType::U32);
        let (sub, staged) = (TileWrite::SubgroupStaged, TileWrite::Staged);
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
                match_table(&d, write, lanes, widest, cpu),
                takes,
                "{:?} m={} {:?} {write:?} lanes {lanes}..{widest} cpu {cpu}",
                d.value_type,
                d.bucket_count,
                d.bucket_fn
            );
        }
        let mut u64_keys = desc(keys, 16, BucketFn::Glsl);
        u64_keys.key_type = KeyType::U64;
        assert!(!match_table(&u64_keys, sub, 32, 32, false));
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
