//! What a sort is planned for: key and value types, paths, the kernel tuning, the description
//! and the buffers of one recorded sort.

#[cfg(doc)]
use super::{SortPlan, ONESWEEP_STATS_OFFSET};
use crate::core::buffer::{BufferRange, ElementCount};
use crate::core::types::{KeyType, ValueType};

/// Which sort algorithm to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u32)]
#[non_exhaustive]
pub enum SortPath {
    /// Small counts: one workgroup; larger: Onesweep where the device profile allows
    /// inter-workgroup waiting, else the safe path.
    #[default]
    Auto = 0,
    /// Onesweep with a circular look-back buffer (needs 64-bit buffer atomics).
    Onesweep = 1,
    /// Count, scan, scatter per digit: no inter-workgroup waiting.
    Safe = 2,
    /// One workgroup for everything (counts up to [`SortPlan::small_limit`]): counts up to
    /// [`SortPlan::resident_limit`] sorted in shared memory, larger ones tile by tile through
    /// global memory.
    Small = 3,
}

/// Where a recorded sort left its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortResult {
    /// In the caller's key (and value) buffers.
    InPlace,
    /// In the alternate key (and value) buffers.
    Alternate,
}

/// Tuning of the sort kernels (a tile is `workgroup_size * keys_per_thread` keys). A plan made
/// with the caller's tuning also runs the single-workgroup resident kernel with it (its
/// capacity, [`SortPlan::resident_limit`], is then one tile); without one, that kernel takes
/// its own geometry from the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SortTuning {
    /// Invocations per workgroup: a multiple of 32 (and of the device's largest subgroup) up to
    /// the device's limit.
    pub workgroup_size: u32,
    /// Keys each invocation ranks per tile (1..=32; a multiple of `stage_split`, twice that for
    /// 8-byte keys or values: the most staging rounds the kernels may take).
    pub keys_per_thread: u32,
    /// Look-back polls of a silent predecessor before counting its keys instead (0: default).
    /// `u32::MAX` is a test mode: every tile counts its nearest predecessor's keys itself, so
    /// the fallback runs for every tile after the first whatever the schedule (counted in the
    /// Onesweep event counters, [`ONESWEEP_STATS_OFFSET`]).
    pub lookback_spins: u32,
    /// Parts the ranked tile passes through shared memory in on its way out (1 or 2): 2 halves
    /// the staging memory, so more workgroups fit on a multiprocessor, for two more barriers
    /// per element word. 8-byte keys and values take up to twice as many rounds; the kernels
    /// take the fewest rounds that fit the shared memory they declare anyway (the digit
    /// counters use the same memory), e.g. 3 for 8-byte keys at 512 x 12 split in two.
    pub stage_split: u32,
}

impl SortTuning {
    /// Keys per tile.
    pub(super) fn tile_keys(&self) -> u64 {
        self.workgroup_size as u64 * self.keys_per_thread as u64
    }

    /// Staging rounds of the widest element type of `desc` at most (each round covers whole
    /// steps of keys per thread; glsl/sort/sort_common.glsl takes fewer where they fit).
    pub(super) fn staging_rounds(&self, desc: &SortDesc) -> u32 {
        let words = desc.key_type.bytes().max(desc.value_type.bytes()).div_ceil(4) as u32;
        self.stage_split * words
    }
}

/// What to plan a sort for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortDesc {
    /// Key type.
    pub key_type: KeyType,
    /// Payload type ([`ValueType::None`]: keys only).
    pub value_type: ValueType,
    /// The largest count any call of this plan sorts (sizes buffers; bounds indirect counts).
    pub max_count: u64,
    /// First order-preserving key bit sorted on (usually 0).
    pub begin_bit: u32,
    /// One past the last bit sorted on; 0 means the key's full width.
    pub end_bit: u32,
    /// Largest key first (still stable).
    pub descending: bool,
    /// Which algorithm ([`SortPath::Auto`]: by count and device profile).
    pub path: SortPath,
    /// Kernel tuning (`None`: vkalgo's choice for the device).
    pub tuning: Option<SortTuning>,
}

impl SortDesc {
    /// An ascending full-width sort of up to `max_count` keys of `key_type` with `value_type`
    /// payloads.
    pub fn new(key_type: KeyType, value_type: ValueType, max_count: u64) -> Self {
        SortDesc {
            key_type,
            value_type,
            max_count,
            begin_bit: 0,
            end_bit: 0,
            descending: false,
            path: SortPath::Auto,
            tuning: None,
        }
    }
}

/// The buffers of one recorded sort. Keys and values are sorted "in place" in the sense that
/// the result is in `keys`/`values` or in the alternates, as [`SortPlan::record`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortArgs {
    /// The keys (offset a multiple of the key size).
    pub keys: BufferRange,
    /// The values (`None` exactly when the plan's value type is [`ValueType::None`]).
    pub values: Option<BufferRange>,
    /// Alternate keys buffer, as large as the keys.
    pub keys_alt: BufferRange,
    /// Alternate values buffer (`None` exactly when `values` is).
    pub values_alt: Option<BufferRange>,
    /// Scratch memory as [`SortPlan::memory_requirements`] asks.
    pub scratch: BufferRange,
    /// How many elements to sort.
    pub count: ElementCount,
}
