//! Reduce: one value from all the elements of an array, with [`ReduceOp`] (sum, min or max) over
//! any of the sort's six key types ([`KeyType`]).
//!
//! - Sums of integers wrap (u64 and i64 modulo 2^64); sums of floats are taken in any order
//!   (the result may differ from a sequential sum in the last bits). f64 sums need the device
//!   feature `shaderFloat64` ([`Error::Unsupported`](crate::Error) without it).
//! - Minima and maxima follow the sort's order: floats in IEEE-754 totalOrder (-NaN < -inf <
//!   ... < -0 < +0 < ... < +inf < +NaN), so NaNs take part by their bits.
//! - Zero elements give the operation's identity: 0 for sums, the largest key of the type in
//!   the sort's order for minima (f32 bits `0x7FFFFFFF`, f64 `0x7FFFFFFFFFFFFFFF`, `u32::MAX`,
//!   `i32::MAX`, ...), the smallest for maxima (f32 bits `0xFFFFFFFF`, `i32::MIN`, 0, ...).
//!
//! ```
//! use vkalgo::{Context, ReduceOp};
//! let ctx = Context::new()?;
//! assert_eq!(ctx.reduce(&[3u32, 9, 1], ReduceOp::Max)?, 9);
//! assert_eq!(ctx.reduce(&[-2.5f32, 1.0], ReduceOp::Sum)?, -1.5);
//! assert_eq!(ctx.reduce::<i64>(&[], ReduceOp::Min)?, i64::MAX);
//! # Ok::<(), vkalgo::Error>(())
//! ```
//!
//! # Method
//! One dispatch: each workgroup combines the tiles of a grid-stride walk over the input
//! (`workgroup_size * items` elements a tile, coalesced loads) into a partial in scratch; the
//! last workgroup to finish, known from a counter of finished workgroups, combines the partials
//! and writes the result. No workgroup waits for another, so the reduce runs on devices
//! without forward-progress guarantees between workgroups. Minima and maxima compare the
//! keys' order-preserving bits as unsigned integers, as the radix sort does.
//!
//! # Synchronization contract (record layer)
//! The input and an indirect count are read, the result and the scratch written, in the
//! `COMPUTE_SHADER` stage; the scratch's counter is zeroed first by a compute dispatch,
//! followed by a compute-to-compute barrier (none with [`ReduceDesc::keep_scratch_zeroed`]:
//! the call then writes the scratch only in the reduce's own dispatch). Order your writes of the input before the call,
//! and the reads of the result after it, with barriers of your own.

mod host;
mod plan;
pub mod reference;
#[cfg(test)]
pub(crate) mod shared_constants;
mod tuning;

#[cfg(test)]
pub(crate) use plan::push_layouts;
pub use plan::ReducePlan;

use crate::core::buffer::{BufferRange, ElementCount};
use crate::core::types::{KeyType, ReduceOp};

/// The most elements one reduce takes: 2^32 - 1 (element indices are u32 in the kernel, its
/// addresses 64-bit).
pub const REDUCE_MAX_COUNT: u64 = u32::MAX as u64;

/// What to plan for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduceDesc {
    /// Element type.
    pub key_type: KeyType,
    /// The operation.
    pub op: ReduceOp,
    /// The largest count any call of this plan will reduce (bounds indirect counts).
    pub max_count: u64,
    /// Kernel tuning (`None`: vkalgo's choice for the device).
    pub tuning: Option<ReduceTuning>,
    /// The scratch is this plan's own and arrives zeroed: zero it once before the first call;
    /// every reduce leaves it zeroed again (its last workgroup resets the counter), and no
    /// clear is recorded before the dispatch (one dispatch and one barrier less per call, a
    /// good part of a small reduce's time). The scratch must then serve no other plan or
    /// purpose.
    pub keep_scratch_zeroed: bool,
}

impl ReduceDesc {
    /// A reduce of up to `max_count` elements of `key_type` with `op`.
    pub fn new(key_type: KeyType, op: ReduceOp, max_count: u64) -> Self {
        ReduceDesc {
            key_type,
            op,
            max_count,
            tuning: None,
            keep_scratch_zeroed: false,
        }
    }
}

/// Tuning of the reduce kernel: a tile is `workgroup_size * items_per_invocation` elements;
/// at most `max_workgroups` workgroups walk the tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReduceTuning {
    /// Invocations per workgroup: a power of two from 32 to the device's limit (at most 1024).
    pub workgroup_size: u32,
    /// Elements each invocation loads per tile (1..=16).
    pub items_per_invocation: u32,
    /// Workgroups of the grid at most (1..=4096): each writes one partial.
    pub max_workgroups: u32,
}

impl ReduceTuning {
    /// The tuning vkalgo uses on this device (`src/reduce/tuning.rs`).
    pub fn for_device(ctx: &crate::Context) -> Self {
        tuning::default_tuning(ctx.device_class())
    }
}

/// The buffers of one recorded reduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduceArgs {
    /// The elements (offset a multiple of the key size).
    pub input: BufferRange,
    /// One key receiving the result (offset a multiple of the key size); must not overlap the
    /// input or the scratch.
    pub result: BufferRange,
    /// Scratch memory as [`ReducePlan::memory_requirements`] asks.
    pub scratch: BufferRange,
    /// How many elements: direct, or a u32 read on the GPU, clamped to the plan's
    /// `max_count`.
    pub count: ElementCount,
}
