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
//!   message. `double` keys need the device feature `shaderFloat64`. The function must be
//!   pure (see "Bucket functions must be pure" below).
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
//! pass; else reduce-then-scan, in place on the tile paths, into a second matrix on the column
//! path), (3) the offsets, (4) a stable scatter that recomputes the buckets and ranks, each
//! write bounded by its bucket's counted run (see "Bucket functions must be pure"). No
//! workgroup of the count and scatter waits on another
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
//! out: their count pass zeroes the word and their offsets pass raises the bit); the caller
//! may copy it out after the split (the host layer does, and returns
//! [`Error::InvalidArgument`]).
//!
//! # Bucket functions must be pure
//! Every path evaluates the bucket function at least twice per element, in different
//! dispatches and invocations: once to count the buckets, once (or more: the Onesweep ranking
//! and scatter, its look-back's own count of a silent predecessor, the staged paths' second
//! look at a staged key) to place the elements. A [`BucketFn::Glsl`] function must therefore
//! give a key the same bucket every time: no state of its own (private globals kept across
//! calls, buffers it writes or that change during the split, answers that depend on the
//! workgroup or invocation), and within the device's limits (lavapipe stops an invocation's
//! loop after 65535 iterations, and then the function answers something else). (BITS and
//! SPLITTERS are pure; IDS reads its buffer twice, which must not change during the split.)
//!
//! Whatever the function does, no write leaves the output ranges: every write position is
//! bounded by the run its bucket was counted for in its column, tile or Onesweep tile (a
//! compare on the position each path computes anyway), and those runs end at or before the
//! count. Where an element would leave its counted run, it is not written and bit
//! [`STATUS_INCONSISTENT`] of the status word is set (the host layer returns
//! [`Error::InvalidArgument`] and changes nothing); `keys_out`, `values_out` and `offsets` then
//! hold no split. How each path finds it:
//! - [`SplitPath::Small`]: each matrix entry keeps its run's end beside its cursor; an element
//!   at or past the end is refused.
//! - [`SplitPath::GlobalCounters`]: the matrix is scanned out of place; the count matrix's entry
//!   holds the places its run has left, lowered as the scatter fills it, and the scanned
//!   matrix's next entry is the run's end.
//! - the tile paths: before a subgroup (or the workgroup) writes, its ranking's count of each
//!   bucket (its subgroup's and those before it, or the tile's) must not exceed the run the
//!   scanned matrix gives the tile (the next entry less this one); a staged key's bucket
//!   computed again from the key (GLSL) must be the run holding its slot.
//! - [`SplitPath::Onesweep`]: the ranking keeps each key's digit; a staged key's digit computed
//!   again must be the run holding its rank; each tile's part of a digit's range must end
//!   inside the range the upfront histogram counted; a count of a silent predecessor made by
//!   the look-back's fallback is published into that tile's ring entry (compare-and-swap) and
//!   used only then, and the tile compares it with its own count when it publishes (an
//!   exchange). A fallback whose predecessor's entry was already overwritten (only after a
//!   bounded ring wait gave up) is not checked.
//!
//! As every pass meets every element once, no run falls short unless another overflows, so
//! any run with an element out of its counted place is reported. An impure function that
//! happens to give a valid permutation (two elements swapping buckets between the passes; in
//! the two-pass Onesweep split, a function whose answers differ between the digit passes
//! while each pass agrees with itself) may go unreported, and then the offsets the two-pass
//! split searches in its output need not match it.
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

// glsl.rs: GLSL bucket functions compiled at run time; host.rs: the blocking calls;
// onesweep.rs: the Onesweep split on the sort's kernels; tiles.rs: the tile paths' variants,
// tuning and specialization; reference.rs: the CPU reference.
mod glsl;
mod host;
mod onesweep;
mod shaderc;

pub use host::HostBucketing;
mod tiles;
use tiles::*;
pub mod reference;

pub use glsl::glsl_compilations;
pub use host::Bucketing;

use crate::core::buffer::{BufferRange, BufferRequirements, ElementCount, MemoryRequirements};
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
#[non_exhaustive]
pub enum BucketFn {
    /// `(ordered key bits >> bit_offset) & (m - 1)`, `m` a power of two.
    Bits = 0,
    /// The number of the `m - 1` splitters `<=` the key (sort order).
    Splitters = 1,
    /// One `u32` bucket id per element, given by the caller.
    Ids = 2,
    /// GLSL source defining `uint vkalgo_bucket(T key)`, compiled at run time. It must be pure:
    /// the same key gives the same bucket in every pass and invocation (no private globals
    /// kept across calls, no buffers it writes or that change during the split, no answers by
    /// workgroup or invocation, no loops past the device's limits). Otherwise no write leaves
    /// the output ranges, but the result is no split: where an element would leave the place
    /// counted for it, [`STATUS_INCONSISTENT`] is set (the host calls return
    /// [`Error::InvalidArgument`] and change nothing); see the module docs.
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
#[non_exhaustive]
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
/// Status-word bit: the bucket function answered differently in the passes that count the
/// buckets and that place the elements (a [`BucketFn::Glsl`] function that is not pure): an
/// element would have gone outside the place its bucket was counted for. Such elements are not
/// written; `keys_out`, `values_out` and `offsets` then hold no split (each write stays inside
/// its range).
pub const STATUS_INCONSISTENT: u32 = 2;
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
        counts_gap: u32,
        params: [u32; 4],
    }
}

/// A multisplit planned for one context: kernels, geometry and memory sizes are fixed. Cheap to
/// keep and to record many times.
#[derive(Clone, Debug)]
pub struct SplitPlan {
    ctx: Context,
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
    requirements: MemoryRequirements,
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
            (scan_scratch + self.scan.memory_requirements().scratch.size).next_multiple_of(ALIGNMENT);
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

impl SplitPlan {
    /// Memory every [`SplitPlan::record`] call needs.
    pub fn memory_requirements(&self) -> MemoryRequirements {
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

    fn check_args(&self, ctx: &Context, args: &SplitArgs) -> Result<(Option<u64>, u64)> {
        let max = self.desc.max_count;
        let (direct, elements) = args.count.resolve(ctx, "multisplit: count", max)?;
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
            .check(ctx, "multisplit keys", elements * key_size, key_size)?;
        args.keys_out
            .check(ctx, "multisplit keys_out", elements * key_size, key_size)?;
        let mut ranges = vec![("keys", args.keys, false), ("keys_out", args.keys_out, true)];
        if let (Some(values), Some(values_out)) = (args.values, args.values_out) {
            let size = self.desc.value_type.bytes();
            values.check(ctx, "multisplit values", elements * size, size)?;
            values_out.check(ctx, "multisplit values_out", elements * size, size)?;
            ranges.push(("values", values, false));
            ranges.push(("values_out", values_out, true));
        }
        match (self.desc.bucket_fn, args.splitters, args.bucket_ids) {
            (BucketFn::Splitters, splitters, None) if splitters.is_some() || self.desc.bucket_count == 1 => {
                let bytes = (self.desc.bucket_count as u64 - 1) * key_size;
                if let (Some(splitters), true) = (splitters, bytes > 0) {
                    splitters.check(ctx, "multisplit splitters", bytes, key_size)?;
                    ranges.push(("splitters", splitters, false));
                }
            }
            (BucketFn::Splitters, _, _) => {
                return Err(Error::invalid(
                    "multisplit: SPLITTERS needs the splitters range and no bucket_ids",
                ))
            }
            (BucketFn::Ids, None, Some(ids)) => {
                ids.check(ctx, "multisplit bucket_ids", elements * 4, 4)?;
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
            .check(ctx, "multisplit offsets", self.requirements.offsets.size, 4)?;
        args.scratch.check(
            ctx,
            "multisplit scratch",
            self.requirements.scratch.size,
            ALIGNMENT,
        )?;
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
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &SplitArgs) -> Result<()> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("multisplit: the command buffer is null"));
        }
        let (direct, elements) = self.check_args(ctx, args)?;
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
            counts_gap: 0,
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
        // One entry more is scanned: the total counted (the tile paths' SPLIT_FLAG_TOTAL_STATUS;
        // every run of the scatter ends where the next entry begins, the last at the total).
        let tiles = self.tile.is_some();
        let scanned_entries = matrix_entries + 1;
        let counts = args.scratch.part(layout.counts, scanned_entries * 4);
        let scanned = args.scratch.part(layout.scanned, scanned_entries * 4);
        let scan_args = ScanArgs {
            input: counts,
            output: scanned,
            scratch: args.scratch.part(
                layout.scan_scratch,
                passes.scan.memory_requirements().scratch.size,
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
            // (The column scatter finds the count matrix this far before the scanned one.)
            counts_gap: ((layout.scanned - layout.counts) / 16) as u32,
            ..push
        };
        unsafe {
            if !tiles {
                // (The count matrix with its extra last entry, zero: the total's.)
                let cleared = layout.counts + scanned_entries * 4;
                ctx.record_compute_fill(cmd, &args.scratch, (cleared / 4) as u32, 0)?;
                ctx.compute_to_compute(cmd);
            }
            ctx.dispatch(cmd, histogram, &count_push, count_groups);
            ctx.compute_to_compute(cmd);
            if scan_clear.is_some() {
                passes.scan.record_precleared(ctx, cmd, &scan_args)?;
            } else {
                passes.scan.record(cmd, &scan_args)?;
            }
            ctx.compute_to_compute(cmd);
            // (aux 0: the offsets come from the matrix; see glsl/split/offsets.comp.)
            ctx.dispatch(cmd, offsets_kernel, &SplitPush { aux: 0, ..push }, offset_groups);
            // The scatter only reads the scanned matrix (the column scatter lowers the count
            // matrix's entries): it runs beside the offsets pass, with no barrier between them.
            // Dropping that barrier speeds up small splits (figures: docs/benchmarks/).
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
        // (Below 2^15: glsl/split/small.comp keeps a position and its run's end in 16 bits
        // each.)
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
            // reduce-then-scan scans it in place, but on the column path, always out of place:
            // its scatter bounds every write by the count matrix's entry (the places its run
            // has left), which it lowers as it writes (glsl/split/scatter.comp).
            let scan_desc = ScanDesc {
                op: ScanOp::Exclusive,
                path: ScanPath::Auto,
                max_count: matrix_entries + 1,
                tuning: None,
                keep_scratch_zeroed: false,
            };
            let out_of_place = self.profile.lookback || tile.is_none();
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
            ctx: self.clone(),
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
            requirements: MemoryRequirements {
                offsets: BufferRequirements::new((m as u64 + 1) * 4, ALIGNMENT),
                ..MemoryRequirements::scratch(scratch_size, ALIGNMENT)
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

#[cfg(test)]
mod tests {
    use super::{id_bits, SPLITTERS_PLAIN_MAX};

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
}
