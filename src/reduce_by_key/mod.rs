//! Reduce-by-key and run-length encoding: for every maximal run of consecutive equal keys, its
//! key and [`ReduceOp`] over its values, or (run-length encoding, [`ValueType::None`]) its
//! length. Keys are any of the sort's six key types ([`KeyType`]); values are u32 or u64.
//!
//! - Keys are equal when their bits are: `-0.0` and `+0.0` are different keys, NaNs with the
//!   same bits are one key.
//! - Values are combined as unsigned integers of their width: sums wrap (modulo 2^32 or 2^64),
//!   minima and maxima compare unsigned.
//! - With [`ValueType::None`] the operation is ignored and each run's length is written as a
//!   u32.
//! - Outputs need room for as many runs as there are elements; the number of runs is written
//!   too (a u32 on the record layer).
//!
//! ```
//! use vkalgo::{Context, ReduceOp};
//! let ctx = Context::new()?;
//! let (keys, sums) = ctx.reduce_by_key(&[7u32, 7, 2, 7], &[1u32, 2, 3, 4], ReduceOp::Sum)?;
//! assert_eq!((keys, sums), (vec![7, 2, 7], vec![3, 3, 4]));
//! let (keys, lengths) = ctx.run_length_encode(&[5i64, 5, 5, -1])?;
//! assert_eq!((keys, lengths), (vec![5, -1], vec![3, 1]));
//! # Ok::<(), vkalgo::Error>(())
//! ```
//!
//! # Method
//! A tile is `workgroup_size * items_per_invocation` elements, one workgroup each; each
//! subgroup holds a contiguous stretch of it in rows of consecutive elements, loaded coalesced
//! and scanned by subgroup operations. A stretch of elements is summarized by a pair:
//! the runs that start in it, and the operation over its elements from its last run start to
//! its end. Pairs combine associatively, so the tiles' pairs are scanned, and each tile writes
//! the runs that end in it (at the index its run starts give them) once it knows the pair of
//! everything before it. Two paths ([`ReduceByKeyPath`]):
//! - Look-back: one dispatch; each tile publishes its pair, then its first subgroup walks back
//!   over its predecessors' published pairs (decoupled look-back), computing the pair of a
//!   predecessor that stays silent itself, so no schedule can hang it.
//! - Reduce-then-scan: three dispatches (each tile's pair, one workgroup's scan of the pairs,
//!   the runs) and no workgroup ever waits for another: for devices without forward-progress
//!   guarantees between workgroups.
//!
//! # Maximum count
//! [`REDUCE_BY_KEY_MAX_COUNT`] = 2^32 - 1 elements: run indices and lengths fit a u32; element
//! indices are u32 in the kernels, bounds checked without wrapping, addresses 64-bit.
//!
//! # Synchronization contract (record layer)
//! The keys, values and an indirect count are read, the outputs, the run count and the scratch
//! written, in the `COMPUTE_SHADER` stage; the look-back path first clears part of the scratch
//! with a compute dispatch followed by a compute-to-compute barrier (with
//! [`ReduceByKeyDesc::keep_scratch_zeroed`]: none, or past 256 tiles a compute-to-compute
//! barrier and that clear after the dispatch); the reduce-then-scan
//! path's dispatches are ordered by barriers of their own. Order your writes of the inputs
//! before the call, and your reads of the outputs and the run count (a compute read, or an
//! `INDIRECT_COMMAND_READ` of a `vkCmdDispatchIndirect`) after it, with barriers of your own.

mod host;
mod plan;
pub mod reference;
#[cfg(test)]
pub(crate) mod shared_constants;
mod tuning;

pub use host::RunBytes;
#[cfg(test)]
pub(crate) use plan::push_layouts;
pub use plan::ReduceByKeyPlan;

use crate::core::buffer::{BufferRange, ElementCount};
use crate::core::tuning::fit_workgroup;
use crate::core::types::{KeyType, ReduceOp, ValueType};

/// The most elements one reduce-by-key takes: 2^32 - 1.
pub const REDUCE_BY_KEY_MAX_COUNT: u64 = u32::MAX as u64;

/// Where a look-back reduce-by-key counts the predecessors whose pair it computed itself (a
/// u32 in the scratch; diagnostics and tests).
#[doc(hidden)]
pub const REDUCE_BY_KEY_FALLBACKS_OFFSET: u64 = 4;

/// Which kernels a reduce-by-key records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum ReduceByKeyPath {
    /// Look-back where the device profile allows inter-workgroup waiting
    /// ([`crate::DeviceProfile::lookback`]), else reduce-then-scan.
    Auto = 0,
    /// One dispatch with decoupled look-back (and its fallback).
    Lookback = 1,
    /// Three dispatches, no inter-workgroup waiting.
    ReduceThenScan = 2,
}

/// Tuning of the reduce-by-key kernels: a tile is `workgroup_size * items_per_invocation`
/// elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReduceByKeyTuning {
    /// Invocations per workgroup: a power of two from 32 to the device's limit (at most 1024).
    pub workgroup_size: u32,
    /// Consecutive elements each invocation takes (1..=16).
    pub items_per_invocation: u32,
    /// Look-back: steps a tile waits on a silent predecessor before it computes that
    /// predecessor's pair itself (0: the device's default). `u32::MAX` is a test mode: every
    /// tile computes its nearest predecessor's pair itself (counted in the scratch at
    /// [`REDUCE_BY_KEY_FALLBACKS_OFFSET`]).
    pub lookback_spins: u32,
}

impl ReduceByKeyTuning {
    /// The tuning vkalgo uses on this device for a plan of `max_count` elements
    /// (`src/reduce_by_key/tuning.rs`: smaller tiles for small plans on GPUs; a workgroup over
    /// the device's limit is halved, its items doubled).
    pub fn for_device(ctx: &crate::Context, max_count: u64) -> Self {
        let t = tuning::default_tuning(ctx.device_class(), max_count);
        let (workgroup_size, items_per_invocation) = fit_workgroup(
            ctx.profile.max_workgroup_invocations,
            t.workgroup_size,
            t.items_per_invocation,
            16,
        );
        ReduceByKeyTuning {
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduceByKeyDesc {
    /// Key type.
    pub key_type: KeyType,
    /// Value type; [`ValueType::None`]: run-length encoding (u32 run lengths out).
    pub value_type: ValueType,
    /// The operation on the values (ignored for [`ValueType::None`]).
    pub op: ReduceOp,
    /// The largest count any call of this plan takes (sizes the scratch; bounds indirect
    /// counts); at most [`REDUCE_BY_KEY_MAX_COUNT`].
    pub max_count: u64,
    /// Which kernels ([`ReduceByKeyPath::Auto`]: the device profile's choice).
    pub path: ReduceByKeyPath,
    /// Kernel tuning (`None`: vkalgo's choice for the device).
    pub tuning: Option<ReduceByKeyTuning>,
    /// The look-back path's scratch is this plan's own and stays zeroed between calls: the
    /// caller zeroes it once before the first call, every call leaves it zeroed again (up to
    /// 256 tiles the last workgroup clears the look-back state, past them a clear after the
    /// dispatch), and no clear is recorded before the dispatch (one clear dispatch and one
    /// barrier less per call, a good part of a small call's time). The scratch must then serve
    /// no other plan or purpose. The reduce-then-scan path ignores it.
    pub keep_scratch_zeroed: bool,
}

impl ReduceByKeyDesc {
    /// A reduce-by-key of up to `max_count` elements on the default path and tuning.
    pub fn new(key_type: KeyType, value_type: ValueType, op: ReduceOp, max_count: u64) -> Self {
        ReduceByKeyDesc {
            key_type,
            value_type,
            op,
            max_count,
            path: ReduceByKeyPath::Auto,
            tuning: None,
            keep_scratch_zeroed: false,
        }
    }

    /// A run-length encoding of up to `max_count` keys.
    pub fn run_length(key_type: KeyType, max_count: u64) -> Self {
        ReduceByKeyDesc::new(key_type, ValueType::None, ReduceOp::Sum, max_count)
    }
}

/// The buffers of one recorded reduce-by-key. Outputs must not overlap each other, the inputs
/// or the scratch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduceByKeyArgs {
    /// The keys (offset a multiple of the key size).
    pub keys_in: BufferRange,
    /// The values (offset a multiple of the value size); `None` exactly for
    /// [`ValueType::None`].
    pub values_in: Option<BufferRange>,
    /// Room for `count` keys: each run's key, in order.
    pub keys_out: BufferRange,
    /// Room for `count` values (u32 run lengths for [`ValueType::None`]): each run's value.
    pub values_out: BufferRange,
    /// One u32 (offset a multiple of 4) receiving the number of runs, written on the GPU: usable
    /// as the indirect count ([`ElementCount::Indirect`]) of a later vkalgo call, or as a
    /// workgroup count of your own `vkCmdDispatchIndirect` (after a barrier to
    /// `DRAW_INDIRECT`/`INDIRECT_COMMAND_READ`).
    pub run_count: BufferRange,
    /// Scratch memory as [`ReduceByKeyPlan::memory_requirements`] asks.
    pub scratch: BufferRange,
    /// How many elements: direct, or a u32 read on the GPU, clamped to the plan's `max_count`.
    pub count: ElementCount,
}

/// A value type of the typed host calls ([`crate::Context::reduce_by_key`]): u32 or u64,
/// combined as unsigned integers.
pub trait ReduceByKeyValue: bytemuck::Pod {
    /// The matching [`ValueType`].
    const VALUE_TYPE: ValueType;
}

impl ReduceByKeyValue for u32 {
    const VALUE_TYPE: ValueType = ValueType::U32;
}

impl ReduceByKeyValue for u64 {
    const VALUE_TYPE: ValueType = ValueType::U64;
}
