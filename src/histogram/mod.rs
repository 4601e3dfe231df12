//! Histogram: how many elements fall in each of `m` buckets, with the multisplit's bucket
//! functions ([`BucketFn`]: BITS, SPLITTERS, IDS and run-time GLSL; see the
//! [`split`](crate::split) module) over any of the sort's six key types ([`KeyType`]).
//!
//! ```
//! use vkalgo::{Bucketing, Context};
//! let ctx = Context::new()?;
//! let keys = [3u32, 9, 1, 7, 4];
//! let counts = ctx.histogram(&keys, &Bucketing::Splitters(&[4u32, 8]))?;
//! assert_eq!(counts, vec![2, 2, 1]);
//! # Ok::<(), vkalgo::Error>(())
//! ```
//!
//! # Method
//! Two dispatches of one kernel (glsl/histogram/histogram.comp). The count: each workgroup
//! walks the tiles of a grid stride (`workgroup_size * items_per_invocation` elements a tile,
//! coalesced loads) and counts their buckets into running counts in the scratch. Up to
//! [`HistogramTuning::shared_buckets`] buckets a workgroup counts into a private copy in shared
//! memory, flushed with one atomic add per non-zero bucket at its end; above, every count is a
//! global atomic. Either way the lanes of a subgroup that hold the same bucket as its first
//! counted lane are added with one atomic (all keys in one bucket, the atomics' worst case,
//! costs one atomic per subgroup and step). The finish copies the running counts to the
//! caller's counts. No workgroup waits for another. SPLITTERS are searched as given (a binary
//! search of the `m - 1` splitters per key; no splitter index, as each key is met once).
//!
//! # Bucket ids out of range
//! A bucket id `>= m` (IDS or GLSL) is not counted and sets bit
//! [`STATUS_BAD_BUCKET`](crate::split::STATUS_BAD_BUCKET) of the STATUS WORD, the u32 at byte
//! [`HISTOGRAM_STATUS_OFFSET`] of the scratch range (as the multisplit's); the finish then
//! leaves `counts` untouched. The status word is written by every recorded histogram (0 when
//! every id was in range). The host calls return [`Error::InvalidArgument`](crate::Error) and
//! write nothing.
//!
//! # Maximum count
//! [`HISTOGRAM_MAX_COUNT`] = 2^32 - 1 elements (element indices are u32 in the kernel, its
//! addresses 64-bit), so no bucket's u32 count can wrap. The host calls return u64 counts.
//!
//! # Synchronization contract (record layer)
//! The keys, splitters, bucket ids and an indirect count are read, the counts and the scratch
//! written, in the `COMPUTE_SHADER` stage; the scratch (status word and running counts) is
//! zeroed by a compute dispatch first, followed by a compute-to-compute barrier, and the two
//! dispatches are ordered by a barrier of their own. Order your writes of the inputs before
//! the call, and the reads of the counts and the status word after it, with barriers of your
//! own.

mod host;
mod plan;
pub mod reference;
#[cfg(test)]
pub(crate) mod shared_constants;
mod tuning;

#[cfg(test)]
pub(crate) use plan::push_layouts;
pub use plan::HistogramPlan;

use crate::core::buffer::{BufferRange, ElementCount};
use crate::sort::KeyType;
use crate::split::{BucketFn, SplitDesc};

/// The most elements one histogram counts: 2^32 - 1 (so that no u32 count wraps).
pub const HISTOGRAM_MAX_COUNT: u64 = u32::MAX as u64;
/// Byte offset of the status word in the scratch range (bit
/// [`STATUS_BAD_BUCKET`](crate::split::STATUS_BAD_BUCKET): a bucket id was `>= m`).
pub const HISTOGRAM_STATUS_OFFSET: u64 = 0;

/// What to plan a histogram for: the multisplit's bucket-function fields, the maximum count
/// and an optional tuning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistogramDesc {
    /// Key type.
    pub key_type: KeyType,
    /// `m`, the number of buckets (1..=[`crate::split::MAX_BUCKETS`]).
    pub bucket_count: u32,
    /// The bucket function (the multisplit's rules: BITS needs a power-of-two `m`).
    pub bucket_fn: BucketFn,
    /// [`BucketFn::Bits`]: first order-preserving key bit of the bucket id. Ignored otherwise.
    pub bit_offset: u32,
    /// [`BucketFn::Glsl`]: the source defining `uint vkalgo_bucket(T key)`. Ignored otherwise.
    pub glsl: Option<String>,
    /// The largest count any call of this plan counts (bounds indirect counts).
    pub max_count: u64,
    /// Kernel tuning (`None`: vkalgo's choice for the device).
    pub tuning: Option<HistogramTuning>,
}

impl HistogramDesc {
    /// A histogram of up to `max_count` keys into `bucket_count` buckets by `bucket_fn` (bit
    /// offset 0, no GLSL source, the device's tuning).
    pub fn new(key_type: KeyType, bucket_count: u32, bucket_fn: BucketFn, max_count: u64) -> Self {
        HistogramDesc {
            key_type,
            bucket_count,
            bucket_fn,
            bit_offset: 0,
            glsl: None,
            max_count,
            tuning: None,
        }
    }

    /// The histogram of a multisplit's bucketing: its key type, bucket function, bit offset,
    /// GLSL source and maximum count (the value type and the path do not apply).
    pub fn from_split(desc: &SplitDesc) -> Self {
        HistogramDesc {
            bit_offset: desc.bit_offset,
            glsl: desc.glsl.clone(),
            ..HistogramDesc::new(desc.key_type, desc.bucket_count, desc.bucket_fn, desc.max_count)
        }
    }
}

/// Tuning of the histogram kernel: a tile is `workgroup_size * items_per_invocation` elements;
/// at most `max_workgroups` workgroups walk the tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HistogramTuning {
    /// Invocations per workgroup: a power of two from 32 to the device's limit (at most 1024).
    pub workgroup_size: u32,
    /// Elements each invocation loads per tile (1..=16).
    pub items_per_invocation: u32,
    /// Workgroups of the grid at most (1..=65535).
    pub max_workgroups: u32,
    /// Most buckets counted in shared memory (a private copy per workgroup); above, global
    /// atomics. 0: always global. Capped by the device's shared memory.
    pub shared_buckets: u32,
}

impl HistogramTuning {
    /// The tuning vkalgo uses on this device (`src/histogram/tuning.rs`).
    pub fn for_device(ctx: &crate::Context) -> Self {
        tuning::default_tuning(ctx.device_class(), ctx.profile.max_shared_memory)
    }
}

/// The buffers of one recorded histogram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistogramArgs {
    /// Input keys (offset a multiple of the key size). [`BucketFn::Ids`] reads no key: any
    /// range (it may be empty).
    pub keys: BufferRange,
    /// [`BucketFn::Splitters`]: `m - 1` keys of the key type, non-decreasing in the sort's key
    /// order (not checked on the GPU: unsorted splitters give buckets that are still `< m`;
    /// `None` where `m = 1`).
    pub splitters: Option<BufferRange>,
    /// [`BucketFn::Ids`]: one u32 bucket id per element.
    pub bucket_ids: Option<BufferRange>,
    /// `m` u32 counts receiving the histogram (offset a multiple of 4); must not overlap any
    /// other range. Left untouched when a bucket id is out of range.
    pub counts: BufferRange,
    /// Scratch as [`HistogramPlan::memory_requirements`] asks; holds the status word.
    pub scratch: BufferRange,
    /// How many elements: direct, or a u32 read on the GPU, clamped to the plan's `max_count`.
    pub count: ElementCount,
    /// [`BucketFn::Glsl`]: `vkalgo_params` of this call.
    pub params: [u32; 4],
}
