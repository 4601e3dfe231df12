//! Select (stream compaction): the elements of an array that a rule keeps, in their order, with
//! their values, over any of the sort's six key types ([`KeyType`]) and the sort's value types
//! ([`ValueType`]). Three rules ([`SelectMode`]):
//!
//! - [`SelectMode::Flagged`]: element `i` is kept where the byte `flags[i]` is nonzero.
//! - [`SelectMode::If`]: where the caller's GLSL predicate `bool vkalgo_select(T key)` is true
//!   (`T` the key type's GLSL type: `uint`, `int`, `float`, `uint64_t`, `int64_t`, `double`; the
//!   source may read `uvec4 vkalgo_params`). It is compiled at run time with libshaderc, as the
//!   multisplit's GLSL bucket functions are, and cached per process; a compile error is
//!   [`Error::CompileError`](crate::Error). It must be pure (it runs more than once per
//!   element: in the look-back's fallback, or in the count and scatter passes).
//! - [`SelectMode::Unique`]: the first of each run of equal consecutive keys, "equal" meaning
//!   equal bits (`-0.0` and `+0.0` differ, NaNs with the same bits are equal).
//!
//! ```
//! use vkalgo::{Context, Selection};
//! let ctx = Context::new()?;
//! assert_eq!(ctx.select(&[3u32, 3, 1, 1, 3], &Selection::Unique)?, vec![3, 1, 3]);
//! assert_eq!(ctx.select(&[3u32, 9, 1], &Selection::Flagged(&[0, 1, 1]))?, vec![9, 1]);
//! # Ok::<(), vkalgo::Error>(())
//! ```
//!
//! # Method
//! A tile is `workgroup_size * items_per_invocation` elements, each subgroup a contiguous
//! stretch of it in rows of its lanes; a row's kept elements are ranked by a ballot, the rows
//! in order, and the subgroups by one workgroup scan of their counts.
//! Two paths ([`SelectPath`]):
//! - [`SelectPath::Lookback`]: one pass: each tile publishes its count and finds the count kept
//!   before it by decoupled look-back with the scan's bounded wait and fallback (a silent
//!   predecessor's count is computed from the input), then writes its kept elements.
//! - [`SelectPath::CountScan`]: no inter-workgroup waiting: a pass counts each tile's kept
//!   elements, the scan's plan scans the counts, and a pass writes every tile's kept elements.
//!
//! [`SelectPath::Auto`] takes the count-scan path on CPU drivers such as lavapipe (no look-back)
//! and on NVIDIA GPUs for flagged and predicate selects of at least 2^22 elements and unique
//! selects of at least 2^24 (the plan's `max_count`; there the waiting costs more than the
//! second read; below, the extra dispatches cost more than the waiting:
//! docs/tuning/select.md#auto-path), else the look-back path.
//!
//! # The count kept
//! `selected_count` receives one u32, the number of elements kept, at the start of its range.
//! It is the layout of [`ElementCount::Indirect`]: a later plan of this context takes that
//! range as its count directly (a `VkDispatchIndirectCommand` counts workgroups, so a dispatch
//! of your own needs that count converted first).
//!
//! # Synchronization contract (record layer)
//! The inputs, the flags and an indirect count are read, the outputs, the count kept and the
//! scratch written, in the `COMPUTE_SHADER` stage; the look-back path zeroes its scratch by a
//! compute dispatch first, followed by a compute-to-compute barrier (with
//! [`SelectDesc::keep_scratch_zeroed`]: none, or past 256 tiles a compute-to-compute barrier
//! and that clear after the select's dispatch). Order your writes of the inputs
//! before the call, and your reads of the outputs after it, with barriers of your own; vkalgo
//! records the barriers between its own passes.

mod host;
mod plan;
mod record;
pub mod reference;
#[cfg(test)]
pub(crate) mod shared_constants;
mod tuning;

pub use host::Selection;
#[cfg(test)]
pub(crate) use plan::push_layouts;
pub use plan::SelectPlan;
#[cfg(test)]
pub(crate) use plan::GLSL_TARGETS;

use crate::core::buffer::{BufferRange, ElementCount};
use crate::core::tuning::fit_workgroup;
use crate::core::types::{KeyType, ValueType};

/// The most elements one select takes: 2^32 - 1 (indices and the count kept are u32 in the
/// kernels, their addresses 64-bit).
pub const SELECT_MAX_COUNT: u64 = u32::MAX as u64;

/// Which elements a select keeps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SelectMode {
    /// Element `i` where the byte `flags[i]` is nonzero.
    Flagged,
    /// Where the GLSL predicate `bool vkalgo_select(T key)` of `glsl` is true (module docs).
    If {
        /// GLSL source defining `vkalgo_select`; it may read `uvec4 vkalgo_params`.
        glsl: String,
    },
    /// The first of each run of consecutive keys with equal bits.
    Unique,
}

impl SelectMode {
    /// The mode's code: the C constants `VKALGO_SELECT_*` (0 FLAGGED, 1 IF, 2 UNIQUE).
    pub fn code(&self) -> u32 {
        match self {
            SelectMode::Flagged => 0,
            SelectMode::If { .. } => 1,
            SelectMode::Unique => 2,
        }
    }
}

/// Which kernels a select plan records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum SelectPath {
    /// The device profile and the mode decide (module docs).
    Auto = 0,
    /// One pass with decoupled look-back (needs 64-bit buffer atomics).
    Lookback = 1,
    /// Count, scan of the tile counts, scatter: no inter-workgroup waiting.
    CountScan = 2,
}

/// Tuning of the select kernels: a tile is `workgroup_size * items_per_invocation` elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SelectTuning {
    /// Invocations per workgroup: a power of two from 32 to the device's limit (at most 1024).
    pub workgroup_size: u32,
    /// Elements each invocation holds per tile (1..=16).
    pub items_per_invocation: u32,
    /// Look-back: spins on a silent predecessor before computing its count from the input
    /// (0: the device's default; `u32::MAX`: a test mode in which every tile computes its
    /// nearest predecessor's count itself).
    pub lookback_spins: u32,
}

impl SelectTuning {
    /// The tuning vkalgo uses on this device for `path` and a plan of `max_count` elements
    /// (`src/select/tuning.rs`: the look-back path's tiles grow with the plan; a workgroup over
    /// the device's limit is halved, its items doubled;
    /// [`SelectPath::Auto`]: the look-back path's where the device allows look-back, else the
    /// count-scan path's).
    pub fn for_device(ctx: &crate::Context, path: SelectPath, max_count: u64) -> Self {
        let path = match path {
            SelectPath::Auto if ctx.profile.lookback => SelectPath::Lookback,
            SelectPath::Auto => SelectPath::CountScan,
            p => p,
        };
        let t = tuning::default_tuning(ctx.device_class(), path, max_count);
        let (workgroup_size, items_per_invocation) = fit_workgroup(
            ctx.profile.max_workgroup_invocations,
            t.workgroup_size,
            t.items_per_invocation,
            16,
        );
        SelectTuning {
            workgroup_size,
            items_per_invocation,
            ..t
        }
    }

    fn tile_elements(&self) -> u64 {
        self.workgroup_size as u64 * self.items_per_invocation as u64
    }
}

/// What to plan for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectDesc {
    /// Key type.
    pub key_type: KeyType,
    /// Value type ([`ValueType::None`]: keys only).
    pub value_type: ValueType,
    /// Which elements are kept.
    pub mode: SelectMode,
    /// The largest count any call of this plan will select from (at most
    /// [`SELECT_MAX_COUNT`]; sizes scratch and bounds indirect counts).
    pub max_count: u64,
    /// Which kernels ([`SelectPath::Auto`]: the device profile's choice).
    pub path: SelectPath,
    /// Kernel tuning (`None`: vkalgo's choice for the device).
    pub tuning: Option<SelectTuning>,
    /// The scratch is this plan's own and stays as the plan needs it between calls: the caller
    /// zeroes it once before the first call, every select leaves it so (the look-back's last
    /// workgroup clears its state; the count-scan path's scan likewise), and no clear is
    /// recorded before the select (one clear dispatch and one barrier less per call, a good
    /// part of a small select's time). The scratch must then serve no other plan or purpose.
    pub keep_scratch_zeroed: bool,
}

impl SelectDesc {
    /// A select of up to `max_count` elements on the default path.
    pub fn new(key_type: KeyType, value_type: ValueType, mode: SelectMode, max_count: u64) -> Self {
        SelectDesc {
            key_type,
            value_type,
            mode,
            max_count,
            path: SelectPath::Auto,
            tuning: None,
            keep_scratch_zeroed: false,
        }
    }
}

/// The buffers of one recorded select. Outputs must overlap no input and no other output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelectArgs {
    /// Input keys (offset a multiple of the key size).
    pub keys_in: BufferRange,
    /// Input values (exactly when the plan has a value type; offset a multiple of its size).
    pub values_in: Option<BufferRange>,
    /// [`SelectMode::Flagged`]: one byte per element (offset a multiple of 4, the range at
    /// least the count rounded up to 4 bytes: the kernels read whole words); else `None`.
    pub flags: Option<BufferRange>,
    /// Output keys: room for the count (the kept ones come first, in order; the rest is left
    /// as it was).
    pub keys_out: BufferRange,
    /// Output values (exactly when `values_in` is given): room for the count.
    pub values_out: Option<BufferRange>,
    /// One u32 receiving the number kept (offset a multiple of 4; see the module docs).
    pub selected_count: BufferRange,
    /// Scratch memory as [`SelectPlan::memory_requirements`] asks.
    pub scratch: BufferRange,
    /// How many elements: direct, or a u32 read on the GPU, clamped to the plan's
    /// `max_count`.
    pub count: ElementCount,
    /// [`SelectMode::If`]: `vkalgo_params` of this call.
    pub params: [u32; 4],
}
