//! What a multisplit is asked for: the bucket functions, the paths, the description of a
//! plan, the buffers of one call and the public limits and status bits.

#[cfg(doc)]
use super::SplitPlan;
use crate::core::buffer::{BufferRange, ElementCount};
use crate::error::{Error, Result};
use crate::sort::{KeyType, SortTuning, ValueType};

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
    /// [`Error::InvalidArgument`] and change nothing); see the [module docs](crate::split).
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
}

/// How a multisplit cuts its input and where it keeps its bucket counters (every path but
/// [`SplitPath::Onesweep`] is the safe kind: no workgroup waits on another; see the [module
/// docs](crate::split)).
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

/// Largest [`SplitDesc::tile_items`].
pub const MAX_TILE_ITEMS: u32 = 32;

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
