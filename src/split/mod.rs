//! Multisplit: a STABLE split of keys, or key-value pairs, into `m` buckets chosen by a bucket
//! function; the buckets are laid out in bucket order in one output array (elements of one
//! bucket in their input order) and the `m + 1` bucket offsets are written too.
//!
//! Keys are any of the sort's six types ([`KeyType`]), optionally with 4- or 8-byte values.
//! Bucket functions ([`BucketFn`]):
//! - [`BucketFn::Bits`]: `(ordered key bits >> bit_offset) & (m - 1)`, `m` a power of two (the
//!   sort's order-preserving bits: floats in IEEE-754 totalOrder);
//! - [`BucketFn::Splitters`]: the number of the `m - 1` splitters `<=` the key, in the sort's
//!   key order (splitters non-decreasing; repeated splitters give empty buckets). Up to 64
//!   buckets a binary search of the splitters; above, a first pass builds a splitter index in
//!   the scratch (a table over the high bits of the key's distance from the first splitter),
//!   so each key searches only the splitters sharing its slot. [`SplitPath::Auto`] keeps
//!   SPLITTERS on the tile paths wherever they fit;
//! - [`BucketFn::Ids`]: one caller-given `u32` bucket id per element;
//! - [`BucketFn::Glsl`]: GLSL source defining `uint vkalgo_bucket(T key)` (`T` is `uint`,
//!   `int`, `float`, `uint64_t`, `int64_t` or `double`), which may read `uvec4 vkalgo_params`
//!   (four u32 set per call). Compiled at run time with shaderc; the SPIR-V is cached by source
//!   text for the process and the pipelines per context, so a second plan with the same
//!   source compiles nothing. A compile error is [`Error::CompileError`] with shaderc's
//!   message. `double` keys need the device feature `shaderFloat64`.
//!
//! # Method
//! The seed technique (Ashkiani, Davidson, Meyer & Owens, "GPU Multisplit", PPoPP 2016): the
//! lanes of a subgroup holding the same bucket find each other with one subgroup ballot per
//! bucket-id bit, which ranks them stably within the subgroup (the staged tile paths find them
//! through a table of lane masks in shared memory instead from 9 buckets, as CUB's atomic-OR
//! match ranking; docs/benchmarks/2026-11-28-h200-split-match-table.md). The paths ([`SplitPath`]):
//! - the Onesweep path ([`SplitPath::Onesweep`]; [`SplitPath::Auto`] takes it from `m = 8`
//!   (4-byte keys alone by BITS or GLSL from `m = 33`; pairs: `m = 4`; u32 -> u32 pairs by
//!   BITS from `m = 17`, by GLSL from `m = 33`) with
//!   BITS or GLSL where the device profile runs the look-back, with SPLITTERS only where no
//!   tile path fits: on an H200, u32 keys into 4096 buckets, not into 1024): the sort's
//!   Onesweep (Adinets & Merrill 2022) with the bucket as its digit.
//!   One read of the keys counts the buckets, one workgroup turns the counts into bucket
//!   starts, and one pass ranks each tile (ballots, as the seed), finds the tile's offset per
//!   bucket by decoupled look-back and writes the tile in bucket order. Above 256 buckets, two
//!   such passes (the bucket id's low 8 bits, then the rest) through alternate buffers in
//!   scratch, then a search of the output for the offsets; see `src/split/onesweep.rs`.
//!   Workgroups wait on earlier ones there (bounded, with the sort's fallback of counting a
//!   silent predecessor's keys itself).
//!
//! Every other path runs (1) a count of each column's buckets into a bucket-major matrix,
//! (2) one exclusive scan of the matrix (the scan module's record layer: one look-back pass
//! into a second matrix where the device runs the look-back, its state zeroed by the count
//! pass; else reduce-then-scan in place), (3) the offsets, (4) a stable scatter that
//! recomputes the buckets and ranks. No workgroup of the count and scatter waits on another
//! (the safe kind, for every device). They differ in what a column is and where its
//! counters live:
//! - tile paths ([`SplitPath::TileDirect`], [`SplitPath::TileStaged`],
//!   [`SplitPath::TileSubgroupStaged`]; [`SplitPath::Auto`]
//!   takes them below those bucket counts, for IDS, without the look-back, and otherwise wherever the
//!   workgroup's counter rows fit, `m <= 1024` on a GPU with 48 KiB of shared memory): a
//!   column is a workgroup's tile of `workgroup size x tile_items` elements. The count keeps
//!   8-bit counters in registers where `m <= 8` (one subgroup a tile, 16-byte loads), else
//!   adds one shared atomic per element; the scatter ranks each item with ballots and per-subgroup
//!   running counts (in registers, lane `b` holding bucket `b`'s, where `m` fits the subgroup;
//!   else a shared row of `m` counters per subgroup), turns the rows into positions (with
//!   register counters on the direct path for keys alone and u32 -> u32 pairs, for keys
//!   alone on the subgroup-staged one, and for 4-byte keys with or without 4-byte values on the
//!   staged one, each subgroup finds its own buckets' starts instead: `subgroup_positions`),
//!   and writes
//!   each element straight from registers (direct: few contiguous runs per store for small
//!   `m`) or stages the tile in shared memory in bucket order and writes coalesced runs
//!   (staged: larger `m`; Auto stages above `m = 32` for keys and `m = 4` for pairs, and
//!   u32 -> u32 pairs into 4 to 32 buckets by BITS or GLSL, whose buckets the
//!   staged scatter recomputes from the keys: faster there than the Onesweep split), or
//!   stages each subgroup's run alone, with no workgroup barrier (subgroup-staged, the seed's
//!   warp-level reordering: `m` at most the subgroup size; Auto takes it for u32 -> u32 pairs
//!   into 3 to 12 buckets by BITS or 3 to 7 by GLSL and 4-byte keys alone into 11 to 32 by
//!   BITS or GLSL; fewer buckets of those keys stay direct). A workgroup of
//!   the subgroup-staged scatter takes four tiles in turn for keys alone, and one of the direct
//!   or subgroup-staged scatter two for u32 -> u32 pairs into up to 4 buckets, loading the next
//!   tile while it ranks one;
//! - the column path ([`SplitPath::GlobalCounters`]: larger `m`, or by request): a column is
//!   `column_steps * G` elements, `G` the device's smallest subgroup size, walked by one lane
//!   group of `G` lanes; its `m` counters are the matrix entries themselves, in global memory
//!   (any `m` up to 65536).
//!
//! Counts up to [`SplitPlan::small_limit`] take one workgroup and one dispatch
//! ([`SplitPath::Small`], the matrix in shared memory) under [`SplitPath::Auto`].
//!
//! Every path reads the keys twice (count, then split) and writes them once: the output
//! position of an element needs the total of every smaller bucket over the WHOLE input, so a
//! one-pass split needs a counting pass first (as Onesweep's upfront histogram).
//!
//! # Bucket ids out of range
//! A bucket id `>= m` (from [`BucketFn::Ids`] or [`BucketFn::Glsl`]) sets bit
//! [`STATUS_BAD_BUCKET`] of the STATUS WORD, the u32 at byte [`STATUS_OFFSET`] of the scratch
//! range, and then the outputs (`keys_out`, `values_out`, `offsets`) are not written at all.
//! The status word is written by every recorded multisplit (0 when every id was in range;
//! the tile paths find a bad id from the scanned matrix's total, which leaves such elements
//! out, and their offsets pass writes the word); the caller may copy it out after the split
//! (the host layer does, and returns [`Error::InvalidArgument`]).
//!
//! # Maximum count
//! [`MAX_COUNT`] = 2^32 - 1 elements; element addresses are 64-bit, so no index arithmetic
//! wraps below that. The count matrix must also fit a scan (at most 2^32 - 1 entries): the
//! plan refuses larger combinations. The Onesweep path splits up to the sort's
//! [`crate::sort::SORT_MAX_COUNT`] (2^32 - 2^15); [`SplitPath::Auto`] plans above it take the
//! tile paths.
//!
//! # Synchronization contract of [`SplitPlan::record`]
//! - Before: writes to the keys, values, splitters, bucket ids and the indirect count must be
//!   visible to the `COMPUTE_SHADER` stage (`SHADER_READ`); earlier accesses to `keys_out`,
//!   `values_out`, `offsets` and `scratch` must be complete before `COMPUTE_SHADER` and
//!   `TRANSFER` (vkalgo clears the scratch with `vkCmdFillBuffer`).
//! - vkalgo records the barriers between its own passes.
//! - After: `keys_out`, `values_out`, `offsets` and the status word are written by the
//!   `COMPUTE_SHADER` stage (`SHADER_WRITE`); add a barrier from there before reading them.
//!   The input buffers are only read.

mod glsl;
pub(crate) mod host;
mod onesweep;
pub mod reference;

pub use glsl::glsl_compilations;
pub use host::Bucketing;

use crate::core::buffer::{BufferRange, ElementCount, BUFFER_USAGE};
use crate::core::pipelines::Specialization;
use crate::core::shaders::{self, ShaderSource};
use crate::core::spirv::push_constants;
use crate::error::{Error, Result};
use crate::scan::{ScanArgs, ScanDesc, ScanOp, ScanPath, ScanPlan};
use crate::sort::{KeyType, SortTuning, ValueType};
use crate::Context;
use ash::vk;

/// A bucket function (the values match the C constants `VKALGO_BUCKET_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum BucketFn {
    /// `(ordered key bits >> bit_offset) & (m - 1)`, `m` a power of two.
    Bits = 0,
    /// The number of the `m - 1` splitters `<=` the key (sort order).
    Splitters = 1,
    /// One `u32` bucket id per element, given by the caller.
    Ids = 2,
    /// GLSL source defining `uint vkalgo_bucket(T key)`, compiled at run time.
    Glsl = 3,
}

impl BucketFn {
    /// The bucket function with the C value `raw`.
    pub fn from_raw(raw: u32) -> Result<Self> {
        Ok(match raw {
            0 => BucketFn::Bits,
            1 => BucketFn::Splitters,
            2 => BucketFn::Ids,
            3 => BucketFn::Glsl,
            other => {
                return Err(Error::invalid(format!(
                    "multisplit: unknown bucket function {other}"
                )))
            }
        })
    }

    fn shader_suffix(self) -> &'static str {
        match self {
            BucketFn::Bits => "bits",
            BucketFn::Splitters => "splitters",
            BucketFn::Ids => "ids",
            BucketFn::Glsl => "glsl",
        }
    }
}

/// How a multisplit cuts its input and where it keeps its bucket counters (every path but
/// [`SplitPath::Onesweep`] is the safe kind: no workgroup waits on another; see the module
/// docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u32)]
pub enum SplitPath {
    /// [`SplitPath::Small`] for direct counts up to [`SplitPlan::small_limit`]; above it
    /// [`SplitPath::TileSubgroupStaged`] for u32 -> u32 pairs into 3 to 12 buckets by BITS or 3
    /// to 7 by GLSL and 4-byte keys alone into 11 to 32 by BITS or GLSL, where `m` fits the
    /// device's smallest subgroup; [`SplitPath::TileStaged`] for
    /// u32 -> u32 pairs into 4 to 32 buckets by BITS or GLSL;
    /// [`SplitPath::TileDirect`] for 4-byte keys alone into up to 10 buckets by BITS or GLSL;
    /// else
    /// [`SplitPath::Onesweep`] from `m = 8` (pairs: `m = 4`; not IDS) where the device profile
    /// runs the look-back, else the tile paths where the workgroup's counter rows fit
    /// ([`SplitPath::TileDirect`] up to `m = 32` for keys and `m = 4` for pairs; by IDS, where
    /// `m` fits the subgroup, up to 23 for 4-byte keys alone and 3 for u32 -> u32 pairs; else
    /// [`SplitPath::TileStaged`]), else [`SplitPath::GlobalCounters`].
    #[default]
    Auto = 0,
    /// Column path: each lane group's counters are the count matrix's entries in global
    /// memory (any `m`).
    GlobalCounters = 2,
    /// One workgroup, one dispatch, the count matrix in shared memory: counts up to
    /// [`SplitPlan::small_limit`] (refused above). [`SplitPath::Auto`] takes it for direct
    /// counts up to that limit.
    Small = 3,
    /// Workgroup tiles: each workgroup ranks its tile with per-subgroup counters (registers
    /// where `m` fits the subgroup, else shared memory) and writes every element straight to
    /// its place (few contiguous runs per store for small `m`). Refused where the counter rows
    /// do not fit.
    TileDirect = 5,
    /// Workgroup tiles as [`SplitPath::TileDirect`], the tile staged in shared memory in
    /// bucket order and written in coalesced runs (larger `m`). Refused where the counter
    /// rows or the staged tile do not fit.
    TileStaged = 6,
    /// Workgroup tiles as [`SplitPath::TileDirect`] with counters in registers (`m` at most the
    /// device's smallest subgroup size), each subgroup staging its own run of the tile in
    /// bucket order in shared memory and writing it in coalesced runs, with no workgroup
    /// barrier (the seed's warp-level reordering). Refused for larger `m`.
    TileSubgroupStaged = 8,
    /// The sort's Onesweep with the bucket as its digit: an upfront count of the buckets,
    /// then one pass that ranks each tile, finds its offsets by decoupled look-back
    /// (workgroups wait on earlier ones, bounded, with the sort's fallback) and writes it in
    /// bucket order; above 256 buckets two passes (scratch then holds alternate keys and
    /// values) and a search of the output for the offsets. `m >= 2`, bucket functions BITS,
    /// SPLITTERS and GLSL, devices with 64-bit atomics, up to the sort's maximum count;
    /// refused otherwise. [`SplitPath::Auto`] takes it from 8 buckets (keys
    /// only) or 4 (pairs) where the device profile runs the look-back, but where it takes a
    /// tile path (see [`SplitPath::Auto`]).
    Onesweep = 7,
}

/// Largest number of buckets.
pub const MAX_BUCKETS: u32 = 65536;
/// Largest element count of a multisplit.
pub const MAX_COUNT: u64 = u32::MAX as u64;
/// Byte offset of the status word in the scratch range.
pub const STATUS_OFFSET: u64 = 0;
/// Status-word bit: some bucket id was `>= m`; nothing was written.
pub const STATUS_BAD_BUCKET: u32 = 1;
/// Push flag of the tile paths (glsl/split/split_common.glsl): the status word comes from the
/// scanned matrix's total, written by the offsets pass.
const SPLIT_FLAG_TOTAL_STATUS: u32 = 1;
/// Bytes of the status word's slot at the start of the scratch (the scan's state follows;
/// glsl/split/split_common.glsl SCAN_STATE_OFFSET).
const STATUS_BYTES: u64 = 16;
/// Most buckets a split by SPLITTERS searches the caller's splitters for without an index
/// (glsl/split/bucket_fn.glsl SPLITTERS_PLAIN_MAX). On an NVIDIA H200 at 2^26 u32 keys on
/// the tile paths, the plain search was faster up to 16 buckets (keys into 4 0.38 against
/// 0.51 ms, into 8 0.46 against 0.52), even at 32 and 64, the index faster from 128 (keys
/// into 256 1.29 against 1.47 ms, into 1024 4.10 against 5.04; into 4096, Onesweep, 6.26
/// against 11.3) (docs/benchmarks/2026-11-26-h200-splitters-filter.md).
const SPLITTERS_PLAIN_MAX: u32 = 64;
/// Bit of the split kernels' key order constant (glsl/split/split_common.glsl
/// SPLITTERS_INDEXED): the plan has a splitter index. Keeps the unused search out of the
/// pipelines.
const SPLIT_KEY_ORDER_INDEXED: u32 = 8;
/// Most bits of the splitter index's table (2^14 + 1 entries, 64 KiB).
const SPLITTER_TABLE_MAX_BITS: u32 = 14;

/// The splitter index of a split by SPLITTERS (glsl/split/splitter_index.comp, searched by
/// glsl/split/bucket_fn.glsl): where it lies in the scratch and the bits of its table.
///
/// The index turns a key's bucket from a binary search over all `m - 1` splitters (a chain of
/// `ceil(log2 m)` dependent loads) into a table read and a search of the few splitters sharing
/// the key's slot. Its table has `2^(ceil(log2 m) + 1)` slots (at most
/// 2^[`SPLITTER_TABLE_MAX_BITS`]), so spread-out splitters share a slot with about one other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SplitterIndex {
    /// Byte offset in the scratch (16-byte aligned).
    offset: u64,
    /// R: the table has `2^R + 1` entries.
    table_bits: u32,
}

impl SplitterIndex {
    /// The index of a split into `m` buckets (`m >= 2`), at the first aligned offset from
    /// `offset`.
    fn new(offset: u64, m: u32) -> Self {
        SplitterIndex {
            offset: offset.next_multiple_of(ALIGNMENT),
            table_bits: (id_bits(m) + 1).min(SPLITTER_TABLE_MAX_BITS),
        }
    }

    /// Bytes of the index: a 16-byte header, the splitters (padded to 16 bytes), the table.
    fn bytes(&self, m: u32, key_size: u64) -> u64 {
        16 + ((m as u64 - 1) * key_size).next_multiple_of(16) + ((1u64 << self.table_bits) + 1) * 4
    }

    /// Invocations of the index pass: one per table entry and per splitter.
    fn invocations(&self, m: u32) -> u64 {
        ((1u64 << self.table_bits) + 1).max(m as u64 - 1)
    }
}

/// Entries of the small path's shared count matrix (glsl/split/small.comp SMALL_WORDS).
const SMALL_WORDS: u64 = 4096;
/// Tile scatter variant (specialization constant 2, glsl/split/tile_scatter.comp): stage the
/// tile in shared memory.
const TILE_SPEC_STAGED: u32 = 1;
/// Tile scatter variant: lane `b` keeps bucket `b`'s running count (`m` at most the smallest
/// subgroup size).
const TILE_SPEC_REGISTERS: u32 = 2;
/// Tile scatter variant: each subgroup stages its own run (with [`TILE_SPEC_REGISTERS`]).
const TILE_SPEC_SUBGROUP_STAGED: u32 = 4;
/// Tile count variant: one subgroup counts a whole tile in registers (8-bit fields, four buckets
/// a register; `m` <= [`COUNT_REGISTERS_MAX_BUCKETS`]), [`SplitPlan::count_tiles_per_group`]
/// tiles a workgroup, its share loaded in 16-byte vectors (glsl/split/tile_count.comp).
const TILE_SPEC_COUNT_REGISTERS: u32 = 8;
/// Most buckets the tile count keeps in registers (four 8-bit fields in each of two words).
const COUNT_REGISTERS_MAX_BUCKETS: u32 = 8;
/// Most buckets the tile count keeps in registers for keys alone (see
/// [`SplitPlan::count_tiles_per_group`]).
const COUNT_REGISTERS_MAX_BUCKETS_KEYS: u32 = 4;
/// Tile kernels' variant, bits 8..13: the bucket-id bits ceil(log2 m), to which the tile
/// kernels unroll their loops over id bits (glsl/split/bucket_fn.glsl UNROLLED_ID_BITS). On an
/// NVIDIA H100, 2^26 u32 keys: m = 2 0.380 -> 0.329 ms, m = 4 0.435 -> 0.359 ms, staged
/// m = 1024 4.04 -> 3.66 ms (docs/benchmarks/2026-11-23-resident-steps-h100.md).
const TILE_SPEC_ID_BITS_SHIFT: u32 = 8;
/// Tile scatter variant: log2 of the tiles a workgroup takes in bits 16..19
/// ([`SplitPlan::scatter_tiles_per_group`]).
const TILE_SPEC_TILES_SHIFT: u32 = 16;
/// Tile scatter variant: how a workgroup with one tile orders its start, in bits 20..21
/// ([`SplitPlan::first_tile_order`]).
const TILE_SPEC_FIRST_ORDER_SHIFT: u32 = 20;
/// Tile scatter variant: each subgroup finds its buckets' starts itself
/// ([`SplitPlan::subgroup_positions`]).
const TILE_SPEC_SUBGROUP_POSITIONS: u32 = 1 << 22;
/// Tile scatter variant: the direct path with subgroup positions takes every element's position
/// before it stores any ([`SplitPlan::shuffles_before_stores`]).
const TILE_SPEC_SHUFFLES_FIRST: u32 = 1 << 23;
/// Tile scatter variant: register counters rank through a table of lane masks in shared memory
/// instead of one ballot per id bit ([`SplitPlan::match_table`]).
const TILE_SPEC_MATCH_TABLE: u32 = 1 << 24;
/// Fewest buckets for which the direct path with subgroup positions takes every position before
/// its first store; fewer buckets store each element right after its position's shuffle. Either
/// order costs the same instructions; the driver's schedule differs. On an NVIDIA H200, u32 keys
/// at 2^24 / 2^26, ms, shuffles first against each store after its shuffle: into 5 buckets
/// 0.0763 / 0.2718 against 0.0749 / 0.2567, into 7 0.0782 / 0.2694 against 0.0774 / 0.2681, into
/// 8 0.0809 / 0.2767 against 0.0836 / 0.2848, into 9 0.0861 / 0.2969 against 0.0881 / 0.3035,
/// into 10 0.0883 / 0.3107 against 0.0898 / 0.3225
/// (docs/benchmarks/2026-11-26-h200-split-subgroup-positions.md).
const SHUFFLES_FIRST_MIN_BUCKETS: u32 = 8;
/// The bits of the tile variant only the tile scatter reads (its write path, tiles a
/// workgroup, first-tile order, subgroup positions): the other passes' pipelines leave them
/// out, so plans that differ only there share those pipelines.
const TILE_SPEC_SCATTER_ONLY: u32 = TILE_SPEC_STAGED
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
const DIRECT_MAX_BUCKETS: (u32, u32) = (32, 4);
/// Largest `m` [`SplitPath::Auto`] writes straight from registers by IDS where the staged path
/// would split with per-subgroup starts (4-byte keys, alone or with 4-byte values; otherwise
/// [`DIRECT_MAX_BUCKETS`]): (keys alone, pairs). On an NVIDIA H200 at 2^24 / 2^26, ms, direct
/// against staged (docs/benchmarks/2026-11-26-h200-split-staged-starts.md):
/// - keys into 20 0.1640 / 0.6119 against 0.1705 / 0.6361, into 24 0.1770 / 0.6452 against
///   0.1725 / 0.6438, into 28 0.1846 / 0.6867 against 0.1724 / 0.6454, into 32 0.1923 / 0.7283
///   against 0.1731 / 0.6472;
/// - pairs into 2 0.1219 / 0.4303 against 0.1256 / 0.4491, into 3 0.1381 / 0.4906 against
///   0.1378 / 0.4979, into 4 0.1507 / 0.5464 against 0.1386 / 0.5009.
const DIRECT_MAX_BUCKETS_IDS: (u32, u32) = (23, 3);
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
const STAGED_PAIRS_MAX_BUCKETS: (u32, u32) = (32, 32);

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
const SUBGROUP_STAGED_PAIRS_BUCKETS: (std::ops::RangeInclusive<u32>, std::ops::RangeInclusive<u32>) =
    (3..=12, 3..=7);
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
const SUBGROUP_STAGED_KEYS_BUCKETS: std::ops::RangeInclusive<u32> = 11..=32;
/// Most buckets for which [`SplitPath::Auto`] keeps 4-byte keys alone split by BITS or GLSL on
/// the direct tile path (each subgroup finding its buckets' starts itself:
/// [`subgroup_positions`]) rather than the Onesweep split or the subgroup-staged path. On an
/// NVIDIA H200 at 2^24 / 2^26, GLSL, ms, direct against subgroup-staged: m = 8 0.0811 / 0.2761
/// against 0.0881 / 0.2952 (BITS 0.0795 / 0.2738 against 0.0896 / 0.2966), m = 9 0.0864 /
/// 0.2964 against 0.0936 / 0.3136, m = 10 0.0880 / 0.3102 against 0.0932 / 0.3145, m = 11
/// 0.0937 / 0.3263 against 0.0942 / 0.3153, m = 12 0.0979 / 0.3435 against 0.0946 / 0.3181
/// (docs/benchmarks/2026-11-26-h200-split-subgroup-positions.md).
const DIRECT_KEYS_MAX_BUCKETS: u32 = 10;
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
const STAGED_PAIRS_FEW_ITEMS: u32 = 7;

/// Whether the staged path takes [`STAGED_PAIRS_FEW_ITEMS`] for `desc` on a GPU: 4-byte keys
/// with u32 values, by BITS, GLSL or SPLITTERS into at most 16 buckets, by IDS into at most 32.
fn staged_pairs_take_fewer_items(desc: &SplitDesc) -> bool {
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
const SUBGROUP_STAGED_ITEMS: u32 = 4;
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
const SUBGROUP_STAGED_KEYS_ITEMS: u32 = 12;
/// Tiles one workgroup of the subgroup-staged tile scatter takes for keys alone (see
/// [`SUBGROUP_STAGED_KEYS_ITEMS`]). The direct path stays at 1 (u32 keys into 2 buckets at 2^26
/// on an H100: 0.285 ms with 1, 0.293 with 4; into 4 0.314 and 0.330).
const SCATTER_TILES_PER_GROUP_KEYS_STAGED: u32 = 4;
/// Tiles one workgroup of the direct and subgroup-staged tile scatters takes for u32 -> u32
/// pairs into at most [`SCATTER_PAIRS_TWO_TILES_MAX_BUCKETS`] buckets. On an H100 at 2^24 /
/// 2^26, ms, one tile against two: subgroup-staged by GLSL, m = 3 0.1354-0.1366 / 0.494-0.497
/// against 0.133 / 0.476, m = 4 0.141 / 0.516-0.517 against 0.135-0.136 / 0.491, m = 8
/// 0.150-0.151 / 0.545-0.546 against 0.150-0.152 / 0.543-0.545 (0.613 with four tiles); direct
/// by GLSL, m = 2 0.1428-0.1430 / 0.5220-0.5221 against 0.1399-0.1400 / 0.5045-0.5051, by BITS
/// at 2^26 m = 4 0.744-0.745 against 0.710. The staged path is slower with more tiles (pairs into
/// 16 and 32 buckets 1.05-1.10x slower with two), and keeps one
/// (docs/benchmarks/2026-11-25-h100-split-tiles-per-group.md).
const SCATTER_TILES_PER_GROUP_PAIRS: u32 = 2;
/// See [`SCATTER_TILES_PER_GROUP_PAIRS`].
const SCATTER_PAIRS_TWO_TILES_MAX_BUCKETS: u32 = 4;

/// How a workgroup of the tile scatter that takes one tile orders its start
/// (glsl/split/tile_scatter.comp FIRST_TILE_ORDER).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FirstTileOrder {
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
fn auto_subgroup_stages(desc: &SplitDesc) -> bool {
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
fn auto_direct_keys(desc: &SplitDesc) -> bool {
    desc.value_type == ValueType::None
        && matches!(desc.bucket_fn, BucketFn::Bits | BucketFn::Glsl)
        && desc.key_type.bytes() == 4
        && desc.bucket_count <= DIRECT_KEYS_MAX_BUCKETS
}

/// Whether [`SplitPath::Auto`] prefers the staged tile path for `desc` (see
/// [`STAGED_PAIRS_MAX_BUCKETS`]), where it fits.
fn auto_stages_pairs(desc: &SplitDesc) -> bool {
    let max = match desc.bucket_fn {
        BucketFn::Bits => STAGED_PAIRS_MAX_BUCKETS.0,
        BucketFn::Glsl => STAGED_PAIRS_MAX_BUCKETS.1,
        _ => return false,
    };
    desc.value_type == ValueType::U32 && desc.key_type.bytes() == 4 && (4..=max).contains(&desc.bucket_count)
}

/// Most shared memory (bytes) the counters of one workgroup take.
const MAX_COUNTER_BYTES: u64 = 16384;
/// Largest [`SplitDesc::tile_items`].
pub const MAX_TILE_ITEMS: u32 = 32;
/// Alignment vkalgo asks for every range.
const ALIGNMENT: u64 = 16;

/// What to plan a multisplit for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitDesc {
    /// Key type.
    pub key_type: KeyType,
    /// Payload type ([`ValueType::None`]: keys only).
    pub value_type: ValueType,
    /// `m`, the number of buckets (1..=[`MAX_BUCKETS`]).
    pub bucket_count: u32,
    /// The bucket function.
    pub bucket_fn: BucketFn,
    /// [`BucketFn::Bits`]: first order-preserving key bit of the bucket id (below the key's
    /// width). Ignored otherwise.
    pub bit_offset: u32,
    /// [`BucketFn::Glsl`]: the source defining `uint vkalgo_bucket(T key)`. Ignored otherwise.
    pub glsl: Option<String>,
    /// The largest count any call of this plan splits (sizes scratch; bounds indirect counts).
    pub max_count: u64,
    /// Where the counters live ([`SplitPath::Auto`]: by `m` and the device).
    pub path: SplitPath,
    /// Elements per invocation of a tile (the tile paths); 0 picks the device's default (8
    /// on GPUs; for [`SplitPath::TileSubgroupStaged`] 12 for keys alone and 4 with values; 4
    /// on CPU drivers). At most 32.
    pub tile_items: u32,
    /// [`SplitPath::Onesweep`]: the sort kernels' tuning (`None`: the sort's for the device;
    /// see [`crate::SortTuning`]).
    pub onesweep_tuning: Option<SortTuning>,
}

impl SplitDesc {
    /// A split of up to `max_count` elements into `bucket_count` buckets by `bucket_fn`
    /// (bit offset 0, no GLSL source).
    pub fn new(
        key_type: KeyType,
        value_type: ValueType,
        bucket_count: u32,
        bucket_fn: BucketFn,
        max_count: u64,
    ) -> Self {
        SplitDesc {
            key_type,
            value_type,
            bucket_count,
            bucket_fn,
            bit_offset: 0,
            glsl: None,
            max_count,
            path: SplitPath::Auto,
            tile_items: 0,
            onesweep_tuning: None,
        }
    }
}

/// The buffers of one recorded multisplit (out of place: the inputs are only read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitArgs {
    /// Input keys (offset a multiple of the key size).
    pub keys: BufferRange,
    /// Input values (`None` exactly when the plan's value type is [`ValueType::None`]).
    pub values: Option<BufferRange>,
    /// Output keys, bucket by bucket (as large as the keys; must not overlap any other range).
    pub keys_out: BufferRange,
    /// Output values (`None` exactly when `values` is).
    pub values_out: Option<BufferRange>,
    /// [`BucketFn::Splitters`]: `m - 1` keys of the key type, non-decreasing in the sort's key
    /// order (not checked on the GPU: unsorted splitters give buckets that are still `< m`).
    pub splitters: Option<BufferRange>,
    /// [`BucketFn::Ids`]: one u32 bucket id per element.
    pub bucket_ids: Option<BufferRange>,
    /// `m + 1` u32 bucket offsets: bucket `b` is `[offsets[b], offsets[b + 1])`, `offsets[m]` is
    /// the count.
    pub offsets: BufferRange,
    /// Scratch as [`SplitPlan::memory_requirements`] asks; holds the status word.
    pub scratch: BufferRange,
    /// How many elements to split.
    pub count: ElementCount,
    /// [`BucketFn::Glsl`]: `vkalgo_params` of this call.
    pub params: [u32; 4],
}

/// Memory a multisplit plan needs from the caller besides inputs and outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMemoryRequirements {
    /// Bytes of scratch (status word; count matrix and scan scratch, or on the Onesweep path
    /// the sort's scratch and, above 256 buckets, `max_count` alternate keys and values; with
    /// SPLITTERS above 64 buckets the splitter index: the splitters and a table of at most
    /// 64 KiB).
    pub scratch_size: u64,
    /// Bytes of the offsets range (`(m + 1) * 4`).
    pub offsets_size: u64,
    /// Alignment of every range's offset (keys and values need their element size too).
    pub alignment: u64,
    /// Usage flags every buffer passed to the multisplit must have.
    pub usage: vk::BufferUsageFlags,
}

push_constants! {
    /// Push constants of every multisplit pass (glsl/split/split_common.glsl, block `SplitPush`).
    pub(crate) struct SplitPush {
        keys_in: u64,
        keys_out: u64,
        values_in: u64,
        values_out: u64,
        scratch: u64,
        count_addr: u64,
        aux: u64,
        offsets: u64,
        matrix: u64,
        count: u32,
        max_count: u32,
        bucket_count: u32,
        bit_offset: u32,
        columns: u32,
        column_steps: u32,
        id_bits: u32,
        flags: u32,
        clear_words: u32,
        _pad: u32,
        params: [u32; 4],
    }
}

/// A multisplit planned for one context: kernels, geometry and memory sizes are fixed. Cheap to
/// keep and to record many times.
#[derive(Clone, Debug)]
pub struct SplitPlan {
    desc: SplitDesc,
    workgroup_size: u32,
    /// Lanes of a lane group (the device's smallest subgroup size).
    group_lanes: u32,
    column_steps: u32,
    max_columns: u64,
    /// Words of the tile scatter's shared pool (1 on the column path).
    counter_words: u32,
    /// Steps each lane loads before ranking them (glsl/split/split_common.glsl BATCH).
    batch: u32,
    /// 16-byte vectors a lane of the tile count's register form loads at once: 8 on GPUs
    /// (bytes in flight); 2 on CPU drivers, whose compiler is slow on long unrolled batches.
    count_load_vectors: u32,
    /// The tile path's geometry (`None`: the lane-group column paths).
    tile: Option<TileGeometry>,
    /// Whether the tile scatter ranks through a table of lane masks ([`match_table`]).
    match_table: bool,
    /// The count-scan-scatter passes of the tile and column paths (`None` on the Onesweep path).
    columns: Option<ColumnPasses>,
    /// The Onesweep path.
    onesweep: Option<onesweep::OnesweepSplit>,
    small: &'static ShaderSource,
    /// SPLITTERS above [`SPLITTERS_PLAIN_MAX`] buckets: the splitter index every pass
    /// searches, after the other scratch.
    splitter_index: Option<SplitterIndex>,
    /// Largest count of the one-workgroup path (0: none).
    small_limit: u64,
    requirements: SplitMemoryRequirements,
}

/// The passes of the tile and column paths above the small path.
#[derive(Clone, Debug)]
struct ColumnPasses {
    /// The matrix is scanned into a second one (else in place).
    out_of_place: bool,
    scan: ScanPlan,
    histogram: &'static ShaderSource,
    scatter: &'static ShaderSource,
}

/// Where the tile and column paths keep their parts of the scratch (byte offsets).
struct ScratchLayout {
    /// The scan's scratch, right after the status word (the column path's fill clears both;
    /// on the tile paths the count zeroes the scan's state).
    scan_scratch: u64,
    /// The count matrix.
    counts: u64,
    /// The scanned matrix (`counts` where it is scanned in place).
    scanned: u64,
    /// Bytes in all.
    size: u64,
}

impl ColumnPasses {
    /// The scratch layout for a matrix of up to `entries` entries.
    fn layout(&self, entries: u64) -> ScratchLayout {
        // (One entry more: the tile paths' total.)
        let matrix_bytes = ((entries + 1) * 4).next_multiple_of(ALIGNMENT);
        let scan_scratch = STATUS_BYTES;
        let counts =
            (scan_scratch + self.scan.memory_requirements().scratch_size).next_multiple_of(ALIGNMENT);
        let scanned = if self.out_of_place {
            counts + matrix_bytes
        } else {
            counts
        };
        ScratchLayout {
            scan_scratch,
            counts,
            scanned,
            size: scanned + matrix_bytes,
        }
    }
}

/// How the tile path cuts the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TileGeometry {
    /// Elements per invocation (BATCH in glsl/split/split_common.glsl).
    items: u32,
    /// How the scatter writes the ranked tile.
    write: TileWrite,
}

/// How the tile scatter writes a ranked tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TileWrite {
    /// Straight from registers ([`SplitPath::TileDirect`]).
    Direct,
    /// Each subgroup's run staged in bucket order ([`SplitPath::TileSubgroupStaged`]).
    SubgroupStaged,
    /// The whole tile staged in bucket order ([`SplitPath::TileStaged`]).
    Staged,
}

impl SplitPlan {
    /// Memory every [`SplitPlan::record`] call needs.
    pub fn memory_requirements(&self) -> SplitMemoryRequirements {
        self.requirements
    }

    /// The description the plan was made from.
    pub fn desc(&self) -> &SplitDesc {
        &self.desc
    }

    /// The path the plan records above [`SplitPlan::small_limit`] (never
    /// [`SplitPath::Auto`]; [`SplitPath::Small`] when the plan asked for it).
    pub fn path(&self) -> SplitPath {
        if self.desc.path == SplitPath::Small {
            SplitPath::Small
        } else if self.onesweep.is_some() {
            SplitPath::Onesweep
        } else if let Some(tile) = self.tile {
            match tile.write {
                TileWrite::Direct => SplitPath::TileDirect,
                TileWrite::SubgroupStaged => SplitPath::TileSubgroupStaged,
                TileWrite::Staged => SplitPath::TileStaged,
            }
        } else {
            SplitPath::GlobalCounters
        }
    }

    /// Largest count the one-workgroup path handles ([`SplitPath::Auto`] takes it for direct
    /// counts up to this).
    pub fn small_limit(&self) -> u64 {
        self.small_limit
    }

    /// Elements of one column of the count matrix above [`SplitPlan::small_limit`]: a
    /// workgroup's tile on the tile paths, else one lane group's run of the input (the
    /// Onesweep path has no matrix).
    pub fn column_length(&self) -> u64 {
        match self.tile {
            Some(tile) => tile.items as u64 * self.workgroup_size as u64,
            None => self.lane_column_length(),
        }
    }

    /// Elements of a lane group's column (the small path and the column paths).
    fn lane_column_length(&self) -> u64 {
        self.column_steps as u64 * self.group_lanes as u64
    }

    fn id_bits(&self) -> u32 {
        id_bits(self.desc.bucket_count)
    }

    /// The splitter index's pass for the plan's key width.
    fn splitter_index_shader(&self) -> Result<&'static ShaderSource> {
        let name = format!("split_splitter_index_k{}", self.desc.key_type.bits());
        split_shaders()
            .find(|s| s.name == name)
            .ok_or_else(|| Error::Internal(format!("no shader {name}")))
    }

    fn check_args(&self, args: &SplitArgs) -> Result<(Option<u64>, u64)> {
        let max = self.desc.max_count;
        let (direct, elements) = args.count.resolve("multisplit: count", max)?;
        let has_values = self.desc.value_type != ValueType::None;
        if args.values.is_some() != has_values || args.values_out.is_some() != has_values {
            return Err(Error::invalid(if has_values {
                "multisplit: the plan splits pairs: values and values_out are required"
            } else {
                "multisplit: the plan splits keys only: values and values_out must be None"
            }));
        }
        let key_size = self.desc.key_type.bytes();
        args.keys
            .check("multisplit keys", elements * key_size, key_size)?;
        args.keys_out
            .check("multisplit keys_out", elements * key_size, key_size)?;
        let mut ranges = vec![("keys", args.keys, false), ("keys_out", args.keys_out, true)];
        if let (Some(values), Some(values_out)) = (args.values, args.values_out) {
            let size = self.desc.value_type.bytes();
            values.check("multisplit values", elements * size, size)?;
            values_out.check("multisplit values_out", elements * size, size)?;
            ranges.push(("values", values, false));
            ranges.push(("values_out", values_out, true));
        }
        match (self.desc.bucket_fn, args.splitters, args.bucket_ids) {
            (BucketFn::Splitters, splitters, None) if splitters.is_some() || self.desc.bucket_count == 1 => {
                let bytes = (self.desc.bucket_count as u64 - 1) * key_size;
                if let (Some(splitters), true) = (splitters, bytes > 0) {
                    splitters.check("multisplit splitters", bytes, key_size)?;
                    ranges.push(("splitters", splitters, false));
                }
            }
            (BucketFn::Splitters, _, _) => {
                return Err(Error::invalid(
                    "multisplit: SPLITTERS needs the splitters range and no bucket_ids",
                ))
            }
            (BucketFn::Ids, None, Some(ids)) => {
                ids.check("multisplit bucket_ids", elements * 4, 4)?;
                ranges.push(("bucket_ids", ids, false));
            }
            (BucketFn::Ids, _, _) => {
                return Err(Error::invalid(
                    "multisplit: IDS needs the bucket_ids range and no splitters",
                ))
            }
            (_, None, None) => {}
            _ => {
                return Err(Error::invalid(
                    "multisplit: splitters and bucket_ids are only for SPLITTERS and IDS",
                ))
            }
        }
        args.offsets
            .check("multisplit offsets", self.requirements.offsets_size, 4)?;
        args.scratch
            .check("multisplit scratch", self.requirements.scratch_size, ALIGNMENT)?;
        ranges.push(("offsets", args.offsets, true));
        ranges.push(("scratch", args.scratch, true));
        if let ElementCount::Indirect(count) = args.count {
            ranges.push(("count", count, false));
        }
        // Anything written must overlap nothing else (inputs may share a buffer).
        for (i, (a_name, a, a_written)) in ranges.iter().enumerate() {
            for (b_name, b, b_written) in &ranges[i + 1..] {
                if (*a_written || *b_written) && a.size > 0 && b.size > 0 && a.overlaps(b) {
                    return Err(Error::invalid(format!(
                        "multisplit: the {a_name} and {b_name} ranges overlap"
                    )));
                }
            }
        }
        Ok((direct, elements))
    }

    /// Records the multisplit into `cmd` (see the module's synchronization contract).
    /// Arguments are checked first; on error nothing is recorded.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record(&self, ctx: &Context, cmd: vk::CommandBuffer, args: &SplitArgs) -> Result<()> {
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("multisplit: the command buffer is null"));
        }
        let (direct, elements) = self.check_args(args)?;
        let small = match self.desc.path {
            SplitPath::Small => true,
            SplitPath::Auto => direct.is_some_and(|n| n <= self.small_limit),
            _ => false,
        };
        let column_length = if small {
            self.lane_column_length()
        } else {
            self.column_length()
        };
        let columns = elements.div_ceil(column_length).max(1);
        let m = self.desc.bucket_count as u64;
        let matrix_entries = m * columns;
        let spec = self.pass_specialization();
        let offsets_kernel = ctx.kernel(&shaders::SPLIT_OFFSETS, spec)?;
        let offset_groups = (m + 1).div_ceil(self.workgroup_size as u64) as u32;
        let push = SplitPush {
            keys_in: ctx.address_of(&args.keys),
            keys_out: ctx.address_of(&args.keys_out),
            values_in: args.values.map_or(0, |r| ctx.address_of(&r)),
            values_out: args.values_out.map_or(0, |r| ctx.address_of(&r)),
            scratch: ctx.address_of(&args.scratch),
            count_addr: match args.count {
                ElementCount::Direct(_) => 0,
                ElementCount::Indirect(range) => ctx.address_of(&range),
            },
            aux: match (args.splitters, args.bucket_ids) {
                (Some(r), _) if r.size > 0 => ctx.address_of(&r),
                (_, Some(r)) if r.size > 0 => ctx.address_of(&r),
                _ => 0,
            },
            offsets: ctx.address_of(&args.offsets),
            matrix: 0,
            count: direct.unwrap_or(0) as u32,
            max_count: self.desc.max_count as u32,
            bucket_count: self.desc.bucket_count,
            bit_offset: self.desc.bit_offset,
            columns: columns as u32,
            column_steps: self.column_steps,
            id_bits: self.id_bits(),
            flags: 0,
            clear_words: 0,
            _pad: 0,
            params: args.params,
        };
        // SPLITTERS: the index first; every pass then searches it (aux).
        let push = match self.splitter_index {
            Some(index) if push.aux != 0 => {
                let kernel = ctx.kernel(self.splitter_index_shader()?, spec)?;
                let index_push = SplitPush {
                    keys_in: push.aux,
                    aux: push.scratch + index.offset,
                    bit_offset: index.table_bits,
                    ..push
                };
                let groups = index
                    .invocations(self.desc.bucket_count)
                    .div_ceil(self.workgroup_size as u64) as u32;
                unsafe {
                    ctx.dispatch(cmd, kernel, &index_push, groups);
                    ctx.compute_to_compute(cmd);
                }
                SplitPush {
                    aux: index_push.aux,
                    ..push
                }
            }
            _ => push,
        };
        if small {
            let kernel = ctx.kernel(self.small, spec)?;
            unsafe { ctx.dispatch(cmd, kernel, &push, 1) };
            return Ok(());
        }
        if let Some(onesweep) = &self.onesweep {
            let starts = match onesweep.bucket_starts() {
                Some(shader) => Some(ctx.kernel(shader, spec)?),
                None => None,
            };
            let offsets = (offsets_kernel, offset_groups);
            return unsafe { onesweep.record(ctx, cmd, args, push, offsets, starts) };
        }
        let passes = self
            .columns
            .as_ref()
            .ok_or_else(|| Error::Internal("multisplit: plan without passes".into()))?;
        let histogram = ctx.kernel(passes.histogram, self.count_specialization())?;
        let scatter = ctx.kernel(passes.scatter, self.specialization())?;
        let layout = passes.layout(self.max_columns * m);
        // The tile paths scan one entry more: the total counted (SPLIT_FLAG_TOTAL_STATUS).
        let tiles = self.tile.is_some();
        let scanned_entries = matrix_entries + tiles as u64;
        let counts = args.scratch.part(layout.counts, scanned_entries * 4);
        let scanned = args.scratch.part(layout.scanned, scanned_entries * 4);
        let scan_args = ScanArgs {
            input: counts,
            output: scanned,
            scratch: args.scratch.part(
                layout.scan_scratch,
                passes.scan.memory_requirements().scratch_size,
            ),
            count: ElementCount::Direct(scanned_entries),
        };
        let scan_clear = passes
            .out_of_place
            .then(|| passes.scan.precleared_bytes(scanned_entries))
            .flatten();
        let wg = self.workgroup_size as u64;
        let column_groups = if self.tile.is_some() {
            columns as u32 // one workgroup per tile
        } else {
            (columns * self.group_lanes as u64).div_ceil(wg) as u32
        };
        let count_groups = column_groups.div_ceil(self.count_tiles_per_group());
        let push = SplitPush {
            flags: if tiles { SPLIT_FLAG_TOTAL_STATUS } else { 0 },
            ..push
        };
        // The tile count writes every matrix entry and the extra last one, and zeroes the
        // scan's look-back state where its call reads it zeroed (laid out after the status
        // word): nothing is cleared before it (one dispatch and one barrier less). On an H200
        // at 2^24 / 2^26, ms: u32 keys into 3 buckets 0.0805 / 0.2635 -> 0.0780 / 0.2625,
        // into 8 0.1091 / 0.3837 -> 0.1050 / 0.3714; u32 -> u32 pairs into 8 0.1252 / 0.4414
        // -> 0.1213 / 0.4290 (docs/benchmarks/2026-11-24-h200-split-count-registers.md). The
        // column histogram adds into a matrix cleared with the status word and the scan's
        // state.
        let count_push = SplitPush {
            matrix: ctx.address_of(&counts),
            clear_words: scan_clear.map_or(0, |bytes| (bytes / 4) as u32),
            ..push
        };
        let push = SplitPush {
            matrix: ctx.address_of(&scanned),
            ..push
        };
        unsafe {
            if !tiles {
                let cleared = layout.counts + matrix_entries * 4;
                ctx.record_compute_fill(cmd, &args.scratch, (cleared / 4) as u32, 0)?;
                ctx.compute_to_compute(cmd);
            }
            ctx.dispatch(cmd, histogram, &count_push, count_groups);
            ctx.compute_to_compute(cmd);
            if scan_clear.is_some() {
                passes.scan.record_precleared(ctx, cmd, &scan_args)?;
            } else {
                passes.scan.record(ctx, cmd, &scan_args)?;
            }
            ctx.compute_to_compute(cmd);
            // (aux 0: the offsets come from the matrix; see glsl/split/offsets.comp.)
            ctx.dispatch(cmd, offsets_kernel, &SplitPush { aux: 0, ..push }, offset_groups);
            if self.tile.is_none() {
                // The column scatter advances the matrix entries the offsets pass reads.
                ctx.compute_to_compute(cmd);
            }
            // The tile scatter only reads the matrix: it runs beside the offsets pass, with no
            // barrier between them. On an H200, u32 keys into 2-4 buckets: 2^20 12-14%, 2^22 8%,
            // 2^24 2-3%, 2^26 1% faster (docs/benchmarks/2026-11-23-h200-multisplit-scan.md).
            // (Tile paths: several tiles a workgroup; the column path: 1.)
            let scatter_groups = column_groups.div_ceil(self.scatter_tiles_per_group());
            ctx.dispatch(cmd, scatter, &push, scatter_groups);
        }
        Ok(())
    }
}

impl Context {
    /// Plans a multisplit: checks the description against the device, compiles a GLSL bucket
    /// function (or takes it from the cache) and fixes geometry and memory sizes.
    pub fn split_plan(&self, desc: &SplitDesc) -> Result<SplitPlan> {
        if desc.max_count > MAX_COUNT {
            return Err(Error::invalid(format!(
                "multisplit: max_count {} exceeds the largest supported count {MAX_COUNT}",
                desc.max_count
            )));
        }
        let m = desc.bucket_count;
        if m == 0 || m > MAX_BUCKETS {
            return Err(Error::invalid(format!(
                "multisplit: bucket_count {m} not in 1..={MAX_BUCKETS}"
            )));
        }
        if desc.tile_items > MAX_TILE_ITEMS {
            return Err(Error::invalid(format!(
                "multisplit: tile_items {} exceeds {MAX_TILE_ITEMS}",
                desc.tile_items
            )));
        }
        let width = desc.key_type.bits();
        match desc.bucket_fn {
            BucketFn::Bits => {
                if !m.is_power_of_two() {
                    return Err(Error::invalid(format!(
                        "multisplit: BITS needs a power-of-two bucket_count, not {m}"
                    )));
                }
                if desc.bit_offset >= width {
                    return Err(Error::invalid(format!(
                        "multisplit: bit_offset {} is not below the key's {width} bits",
                        desc.bit_offset
                    )));
                }
            }
            BucketFn::Glsl if desc.glsl.is_none() => {
                return Err(Error::invalid("multisplit: GLSL needs a source text"));
            }
            _ => {}
        }
        if desc.bucket_fn == BucketFn::Glsl && desc.key_type == KeyType::F64 && !self.supports_float64() {
            return Err(Error::unsupported(format!(
                "multisplit: GLSL bucket functions of double keys need shaderFloat64, which {} lacks",
                self.profile.device_name
            )));
        }
        let cpu = self.is_cpu_device();
        let group_lanes = self.profile.min_subgroup_size.max(1);
        let subgroup = self.profile.max_subgroup_size.max(1);
        let workgroup_size = if cpu { 64 } else { 256 }.max(subgroup);
        // Steps per column: a column holds at least 8 steps and 8 elements per bucket, so the
        // count matrix has at most about count / 8 + m entries; CPU drivers stop every
        // invocation after 65535 loop iterations, so their columns stay short.
        let max_steps: u64 = if cpu { 2048 } else { 1 << 16 };
        // Steps loaded before any is ranked: 8 on GPUs (loads in flight); 1 on CPU drivers,
        // whose shader compiler took minutes over the unrolled batches of the tests' pipelines.
        let column_batch: u32 = if cpu { 1 } else { 8 };
        // (A multiple of 8 steps, so of every batch.)
        let column_steps = (8 * m as u64)
            .div_ceil(group_lanes as u64)
            .clamp(8, max_steps)
            .next_multiple_of(8);
        let lane_column_length = column_steps * group_lanes as u64;
        // The one-workgroup path: its matrix (m x columns) in SMALL_WORDS of shared memory,
        // and few enough elements that one workgroup beats several dispatches.
        let small_cap = if cpu { 4096 } else { 16384 };
        let small_limit = (SMALL_WORDS / m as u64 * lane_column_length).min(small_cap);
        if desc.path == SplitPath::Small && (small_limit == 0 || desc.max_count > small_limit) {
            return Err(Error::invalid(format!(
                "multisplit: the small path splits at most {small_limit} elements into {m} buckets; max_count is {}",
                desc.max_count
            )));
        }

        // The tile paths: per-subgroup counter rows (rows x m words) within the counter budget;
        // staged, the pool also holds the tile (one word per element and key or value word)
        // and two words per bucket, next to the workgroup scan's words.
        let rows = (workgroup_size / group_lanes) as u64;
        let budget = MAX_COUNTER_BYTES.min(self.profile.max_shared_memory as u64 / 2);
        let counter_fits = rows * m as u64 * 4 <= budget;
        let word_size = desc.key_type.bytes().max(desc.value_type.bytes());
        let tile_items = |write: TileWrite| match desc.tile_items {
            0 if cpu => 4,
            0 if write == TileWrite::SubgroupStaged && desc.value_type == ValueType::None => {
                SUBGROUP_STAGED_KEYS_ITEMS
            }
            0 if write == TileWrite::SubgroupStaged => SUBGROUP_STAGED_ITEMS,
            0 if write == TileWrite::Staged && staged_pairs_take_fewer_items(desc) => STAGED_PAIRS_FEW_ITEMS,
            0 => 8,
            items => items,
        };
        let pool_words = |write: TileWrite| -> u64 {
            let tile_length = workgroup_size as u64 * tile_items(write) as u64;
            // Subgroup positions over several tiles a workgroup: two sets of rows, by tile parity.
            let row_sets = if double_buffered_rows(desc, write, group_lanes) {
                2
            } else {
                1
            };
            let counters = row_sets * rows * m as u64;
            let words = match write {
                // Per-subgroup starts: the rows after the staged tile and the bucket tables.
                TileWrite::Staged if subgroup_positions(desc, write, group_lanes) => {
                    tile_length * (word_size / 4) + 2 * m as u64 + counters
                }
                TileWrite::Staged => counters.max(tile_length * (word_size / 4)) + 2 * m as u64,
                TileWrite::SubgroupStaged => counters + tile_length * (word_size / 4),
                TileWrite::Direct => counters,
            };
            words.max(1).next_multiple_of(256)
        };
        // (Staged, the counter rows may take the device's shared memory beyond the counter
        // budget: at m = 1024 on an H100 one workgroup per SM still beat the column paths.)
        let staged_fits = (pool_words(TileWrite::Staged) + workgroup_size as u64 + 16) * 4
            <= self.profile.max_shared_memory as u64;
        let subgroup_staged_fits = m <= group_lanes
            && (pool_words(TileWrite::SubgroupStaged) + workgroup_size as u64 + 16) * 4
                <= self.profile.max_shared_memory as u64;
        let ids_staged_starts =
            desc.bucket_fn == BucketFn::Ids && subgroup_positions(desc, TileWrite::Staged, group_lanes);
        let direct_max = match (desc.value_type, ids_staged_starts) {
            (ValueType::None, false) => DIRECT_MAX_BUCKETS.0,
            (ValueType::None, true) => DIRECT_MAX_BUCKETS_IDS.0,
            (_, false) => DIRECT_MAX_BUCKETS.1,
            (_, true) => DIRECT_MAX_BUCKETS_IDS.1,
        };
        // Where Auto takes a tile path rather than the Onesweep split (or, for pairs, the
        // direct path).
        let auto_tile = match desc.path {
            SplitPath::Auto if subgroup_staged_fits && auto_subgroup_stages(desc) => {
                Some(TileWrite::SubgroupStaged)
            }
            SplitPath::Auto if staged_fits && auto_stages_pairs(desc) => Some(TileWrite::Staged),
            SplitPath::Auto if counter_fits && auto_direct_keys(desc) => Some(TileWrite::Direct),
            _ => None,
        };
        let tile = match desc.path {
            SplitPath::Auto if auto_tile.is_some() => auto_tile,
            SplitPath::Auto if counter_fits && m <= direct_max => Some(TileWrite::Direct),
            SplitPath::Auto if staged_fits => Some(TileWrite::Staged),
            SplitPath::TileDirect if counter_fits => Some(TileWrite::Direct),
            SplitPath::TileStaged if staged_fits => Some(TileWrite::Staged),
            SplitPath::TileSubgroupStaged if subgroup_staged_fits => Some(TileWrite::SubgroupStaged),
            SplitPath::TileDirect | SplitPath::TileStaged | SplitPath::TileSubgroupStaged => {
                return Err(Error::invalid(format!(
                "multisplit: the {:?} path does not fit {m} buckets ({rows} counter rows, {} shared bytes)",
                desc.path, self.profile.max_shared_memory
            )))
            }
            _ => None,
        }
        .map(|write| TileGeometry {
            items: tile_items(write),
            write,
        });

        let onesweep_path = match desc.path {
            SplitPath::Onesweep => match onesweep::refusal(self, desc) {
                Some(why) => {
                    return Err(Error::invalid(format!(
                        "multisplit: the Onesweep path does not take this split: {why}"
                    )))
                }
                None => true,
            },
            // SPLITTERS stay on a tile path wherever one fits: their search per key made the
            // Onesweep split 2-7x slower than the best tile path at every m up to 1024 on an
            // NVIDIA H200 (2^26 u32 keys into 8: 2.89 ms against 0.46 direct; pairs into 256:
            // 2.85 against 1.42 staged; docs/benchmarks/2026-11-26-h200-splitters-filter.md).
            _ if desc.bucket_fn == BucketFn::Splitters && tile.is_some() => false,
            _ => auto_tile.is_none() && onesweep::auto_takes(self, desc),
        };
        let tile = if onesweep_path { None } else { tile };
        let column_length = if let Some(tile) = tile {
            workgroup_size as u64 * tile.items as u64
        } else {
            lane_column_length
        };
        let max_columns = desc.max_count.div_ceil(column_length).max(1);
        let matrix_entries = m as u64 * max_columns;
        // (Lane indices of the dispatch, up to one workgroup past the last column, are u32.)
        let lanes = max_columns * group_lanes as u64 + workgroup_size as u64;
        if !onesweep_path && (matrix_entries >= u32::MAX as u64 || lanes > u32::MAX as u64) {
            return Err(Error::invalid(format!(
                "multisplit: {m} buckets x {max_columns} columns exceed the count matrix's 2^32 - 1 entries"
            )));
        }
        let counter_words = tile.map_or(1, |tile| pool_words(tile.write) as u32);
        let small = self.split_shader(desc, Some(glsl::Pass::Small), "small", true)?;
        let (columns, onesweep, scratch_size) = if onesweep_path {
            let split = onesweep::OnesweepSplit::new(self, desc, id_bits(m))?;
            let scratch_size = split.scratch_size();
            (None, Some(split), scratch_size)
        } else {
            let (count, scatter, count_pass, scatter_pass) = if tile.is_some() {
                (
                    "tile_count",
                    "tile_scatter",
                    glsl::Pass::TileCount,
                    glsl::Pass::TileScatter,
                )
            } else {
                ("histogram", "scatter", glsl::Pass::Histogram, glsl::Pass::Scatter)
            };
            // The matrix is scanned in place: `Auto` gives matrices up to the small limit the
            // one-workgroup scan sized to them, instead of reduce-then-scan's three dispatches
            // (or one 8192-element tile). On an H200: 2^24 u32 keys into 2 buckets (16384
            // entries) 11% faster, 2^20 at m = 2..32 4-25%
            // (docs/benchmarks/2026-11-23-h200-multisplit-scan.md).
            // Where the device runs look-back scans, the matrix is scanned out of place (a
            // look-back scan of its own input in place could not redo a silent predecessor's
            // tile), in one pass whose state the count pass zeroes, instead of
            // reduce-then-scan's three passes in place. On an H200 at 2^24 / 2^26, ms: u32
            // keys into 4 buckets 0.091 / 0.277 -> 0.082 / 0.269, u32 -> u32 pairs into 8
            // 0.133 / 0.451 -> 0.126 / 0.442
            // (docs/benchmarks/2026-11-24-h200-split-count-registers.md). Elsewhere
            // reduce-then-scan scans it in place.
            let scan_desc = ScanDesc {
                op: ScanOp::Exclusive,
                path: ScanPath::Auto,
                max_count: matrix_entries + 1,
                tuning: None,
                keep_scratch_zeroed: false,
            };
            let out_of_place = self.profile.lookback;
            let scan = if out_of_place {
                self.scan_plan(&scan_desc)?
            } else {
                self.scan_plan_in_place(&scan_desc)?
            };
            let passes = ColumnPasses {
                out_of_place,
                scan,
                histogram: self.split_shader(desc, Some(count_pass), count, false)?,
                scatter: self.split_shader(desc, Some(scatter_pass), scatter, true)?,
            };
            let scratch_size = passes.layout(matrix_entries).size;
            (Some(passes), None, scratch_size)
        };
        let splitter_index = (desc.bucket_fn == BucketFn::Splitters && m > SPLITTERS_PLAIN_MAX)
            .then(|| SplitterIndex::new(scratch_size, m));
        let scratch_size = match splitter_index {
            Some(index) => index.offset + index.bytes(m, desc.key_type.bytes()),
            None => scratch_size,
        };
        let plan = SplitPlan {
            desc: desc.clone(),
            workgroup_size,
            group_lanes,
            column_steps: column_steps as u32,
            max_columns,
            counter_words,
            match_table: tile.is_some_and(|tile| {
                tile.items >= 2 && match_table(desc, tile.write, group_lanes, subgroup, cpu)
            }),
            batch: tile.map_or(column_batch, |t| t.items),
            count_load_vectors: if cpu { 2 } else { 8 },
            tile,
            columns,
            onesweep,
            small,
            splitter_index,
            small_limit,
            requirements: SplitMemoryRequirements {
                scratch_size,
                offsets_size: (m as u64 + 1) * 4,
                alignment: ALIGNMENT,
                usage: BUFFER_USAGE,
            },
        };
        let spec = plan.pass_specialization();
        let mut kernels = vec![(&shaders::SPLIT_OFFSETS, spec), (plan.small, spec)];
        if let Some(starts) = plan.onesweep.as_ref().and_then(|o| o.bucket_starts()) {
            kernels.push((starts, spec));
        }
        if plan.splitter_index.is_some() {
            kernels.push((plan.splitter_index_shader()?, spec));
        }
        if let Some(passes) = &plan.columns {
            kernels.push((passes.histogram, plan.count_specialization()));
            kernels.push((passes.scatter, plan.specialization()));
        }
        self.prepare_kernels(&kernels)?;
        Ok(plan)
    }

    /// A split shader: the built-in `split_{name}_k{bits}[_v{values}]_{fn}` (with the value
    /// width where `moves_values`), or for GLSL bucket functions `pass` compiled with the
    /// caller's source (or taken from the cache).
    fn split_shader(
        &self,
        desc: &SplitDesc,
        pass: Option<glsl::Pass>,
        name: &str,
        moves_values: bool,
    ) -> Result<&'static ShaderSource> {
        if let (BucketFn::Glsl, Some(pass)) = (desc.bucket_fn, pass) {
            let source = desc.glsl.as_deref().unwrap_or_default();
            return glsl::compile(source, desc.key_type, desc.value_type, pass);
        }
        let key_bits = desc.key_type.bits();
        let values = if moves_values {
            format!("_v{}", desc.value_type as u32)
        } else {
            String::new()
        };
        let name = format!(
            "split_{name}_k{key_bits}{values}_{}",
            desc.bucket_fn.shader_suffix()
        );
        split_shaders()
            .find(|s| s.name == name)
            .ok_or_else(|| Error::Internal(format!("no shader {name}")))
    }

    fn supports_float64(&self) -> bool {
        unsafe {
            self.instance
                .get_physical_device_features(self.physical_device)
                .shader_float64
                == vk::TRUE
        }
    }
}

/// Tiles one workgroup of the tile scatter takes, one after another, the next tile's loads
/// issued before this one is ranked (a power of two, glsl/split/tile_scatter.comp
/// TILES_PER_GROUP): [`SCATTER_TILES_PER_GROUP_KEYS_STAGED`] for keys alone on the
/// subgroup-staged path, [`SCATTER_TILES_PER_GROUP_PAIRS`] for u32 values into few buckets on
/// the direct and subgroup-staged paths; else 1.
fn scatter_tiles_per_group(desc: &SplitDesc, write: TileWrite) -> u32 {
    match (write, desc.value_type) {
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
fn subgroup_positions(desc: &SplitDesc, write: TileWrite, group_lanes: u32) -> bool {
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
const MATCH_TABLE_MIN_ID_BITS: u32 = 4;

/// Whether the tile scatter ranks through a table of lane masks in shared memory instead of one
/// ballot per id bit (glsl/split/tile_scatter.comp MATCH_TABLE; the tables lie where the tile
/// is staged after the ranking, so at least 2 items a lane): register counters (`m` at most
/// `group_lanes`) on subgroups of at most 32 lanes, from [`MATCH_TABLE_MIN_ID_BITS`] id bits,
/// for 4-byte keys alone by BITS or GLSL on the subgroup-staged path and for 4-byte keys with
/// u32 values by BITS or GLSL on the staged path with per-subgroup starts (the splits measured). CPU
/// drivers take it for every such split from 2 buckets (their subgroups hold at most 16
/// lanes, so no larger `m` reaches it), which is where the tests cover it.
fn match_table(desc: &SplitDesc, write: TileWrite, group_lanes: u32, max_subgroup: u32, cpu: bool) -> bool {
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
                && scatter_tiles_per_group(desc, write) == 1
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
fn double_buffered_rows(desc: &SplitDesc, write: TileWrite, group_lanes: u32) -> bool {
    subgroup_positions(desc, write, group_lanes) && scatter_tiles_per_group(desc, write) > 1
}

/// Bits of a bucket id below `m`: ceil(log2(m)).
fn id_bits(m: u32) -> u32 {
    if m <= 1 {
        0
    } else {
        32 - (m - 1).leading_zeros()
    }
}

/// The key kind of specialization constant 6 (0 unsigned, 1 signed, 2 float).
fn key_kind(key_type: KeyType) -> u32 {
    match key_type {
        KeyType::U32 | KeyType::U64 => 0,
        KeyType::I32 | KeyType::I64 => 1,
        KeyType::F32 | KeyType::F64 => 2,
    }
}

/// Every built-in multisplit shader.
fn split_shaders() -> impl Iterator<Item = &'static ShaderSource> {
    shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("split_"))
}

/// Every multisplit shader with its push-constant layout (checked against the SPIR-V by a
/// test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    use crate::sort::SortPush;
    split_shaders()
        .map(|s| {
            if s.name.starts_with("split_onesweep") {
                // The sort's kernels (the Onesweep split, src/split/onesweep.rs).
                (*s, SortPush::FIELDS, std::mem::size_of::<SortPush>())
            } else {
                (*s, SplitPush::FIELDS, std::mem::size_of::<SplitPush>())
            }
        })
        .collect()
}

impl SplitPlan {
    /// The specialization constants of every kernel of the plan.
    fn specialization(&self) -> Specialization {
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
                    if self.match_table() {
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
    fn pass_specialization(&self) -> Specialization {
        let mut spec = self.specialization();
        if self.tile.is_some() {
            spec.spin_limit &= !TILE_SPEC_SCATTER_ONLY;
        }
        spec
    }

    /// The specialization of the counting pass: the tile count keeps only `m` shared
    /// counters (not the scatter's pool, which would cut its occupancy), or counts in
    /// registers, loading that many 16-byte vectors per lane at once.
    fn count_specialization(&self) -> Specialization {
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
    fn scatter_tiles_per_group(&self) -> u32 {
        self.tile
            .map_or(1, |tile| scatter_tiles_per_group(&self.desc, tile.write))
    }

    /// Whether each subgroup of the tile scatter finds its buckets' output starts itself (see
    /// [`subgroup_positions`]).
    fn subgroup_positions(&self) -> bool {
        self.tile
            .is_some_and(|tile| subgroup_positions(&self.desc, tile.write, self.group_lanes))
    }

    /// Whether the tile scatter ranks through a table of lane masks (see [`match_table`]).
    fn match_table(&self) -> bool {
        self.match_table
    }

    /// Whether the direct path with subgroup positions takes every element's position before it
    /// stores any: from [`SHUFFLES_FIRST_MIN_BUCKETS`] buckets.
    fn shuffles_before_stores(&self) -> bool {
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
    fn first_tile_order(&self) -> FirstTileOrder {
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
    fn count_tiles_per_group(&self) -> u32 {
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
    use super::{id_bits, match_table, BucketFn, SplitDesc, TileWrite, SPLITTERS_PLAIN_MAX};
    use crate::{KeyType, ValueType};

    /// The tile kernels search m - 1 splitters in exactly `id_bits(m)` halving steps
    /// (glsl/split/bucket_fn.glsl splitters_at_most), which needs m - 1 < 2^id_bits(m); and the
    /// bits hold every bucket id below m, but no fewer would.
    #[test]
    fn id_bits_bound_the_buckets() {
        for m in 1..=65536u32 {
            let bits = id_bits(m);
            assert!(((m - 1) as u64) < (1u64 << bits), "m = {m}: {bits} bits");
            assert!(bits == 0 || (m - 1) >= (1 << (bits - 1)), "m = {m}: {bits} bits");
        }
    }

    /// The plan and the bucket function agree on which splits search without an index.
    #[test]
    fn splitters_plain_max_matches_the_shader() {
        let glsl = include_str!("../../glsl/split/bucket_fn.glsl");
        let define = format!("#define SPLITTERS_PLAIN_MAX {SPLITTERS_PLAIN_MAX}u");
        assert!(glsl.contains(&define), "bucket_fn.glsl lacks `{define}`");
    }

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
}
