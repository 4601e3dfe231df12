//! The arguments of the set record layer: one struct per `GpuSet::record_*` call, each taken
//! as `(cmd, &args)`. Ranges are the caller's buffers (see the module's synchronization
//! contract); `scratch` is always [`SET_SCRATCH_BYTES`] bytes at a 16-byte aligned offset
//! ([`GpuSet::record_requirements`]), `status` [`SET_STATUS_BYTES`] bytes at a 4-byte aligned
//! offset receiving a [`SetOpStatus`].
//!
//! [`SET_SCRATCH_BYTES`]: super::SET_SCRATCH_BYTES
//! [`SET_STATUS_BYTES`]: super::SET_STATUS_BYTES
//! [`SetOpStatus`]: super::SetOpStatus

use super::gpu::{GpuSet, SetOperand};
use super::paths::{CardinalityPath, FilterPath, OpPath};
use crate::core::buffer::{BufferRange, ElementCount};
use crate::sort::SortPlan;
use crate::SetOp;

/// Arguments of [`GpuSet::record_op`]: `self = a op b`.
#[derive(Clone, Copy)]
pub struct GpuSetOpArgs<'a> {
    /// First operand: the destination itself ([`SetOperand::This`]) or another set of the same
    /// context (either may be packed, [`GpuSet::pack`]).
    pub a: SetOperand<'a>,
    /// Second operand, as `a`.
    pub b: SetOperand<'a>,
    /// The operation.
    pub op: SetOp,
    /// Which kernels write the result (tests and benchmarks; [`OpPath::Auto`] otherwise). The
    /// result is the same on every path.
    pub path: OpPath,
    /// `false`: the whole operation, whatever the destination's free blocks (the one-pass path
    /// when they cover the bound of [`GpuSet::reserve_for_op`], else the counting pass and the
    /// check first). `true`: the one-pass path only, in three passes (clear, classify, write)
    /// instead of five: the destination must hold the free blocks of
    /// [`GpuSet::reserve_for_op`] for these operands. When it does not (the operands changed
    /// since the reservation, or an earlier operation of the batch failed), nothing is written
    /// and the status says so with the bound as the need; reserve that many and record again.
    pub reserved: bool,
    /// [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) bytes (16-byte aligned offset).
    pub scratch: BufferRange,
    /// [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES) bytes receiving a
    /// [`SetOpStatus`](super::SetOpStatus); must not overlap `scratch`.
    pub status: BufferRange,
}

impl<'a> GpuSetOpArgs<'a> {
    /// `a op b` on [`OpPath::Auto`], not `reserved`.
    pub fn new(
        a: SetOperand<'a>,
        b: SetOperand<'a>,
        op: SetOp,
        scratch: BufferRange,
        status: BufferRange,
    ) -> Self {
        GpuSetOpArgs {
            a,
            b,
            op,
            path: OpPath::Auto,
            reserved: false,
            scratch,
            status,
        }
    }
}

/// Arguments of [`GpuSet::record_op_cardinality`]: the cardinality of `a op b`.
#[derive(Clone, Copy)]
pub struct GpuSetCardinalityArgs<'a> {
    /// First operand.
    pub a: &'a GpuSet,
    /// Second operand (the same context as `a`).
    pub b: &'a GpuSet,
    /// The operation.
    pub op: SetOp,
    /// How the cardinality is counted (tests and benchmarks; [`CardinalityPath::Auto`]
    /// otherwise).
    pub path: CardinalityPath,
    /// [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) bytes (16-byte aligned offset).
    pub scratch: BufferRange,
    /// [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES) bytes receiving a
    /// [`SetOpStatus`](super::SetOpStatus) ([`SetOpStatus::cardinality`]).
    ///
    /// [`SetOpStatus::cardinality`]: super::SetOpStatus::cardinality
    pub status: BufferRange,
}

impl<'a> GpuSetCardinalityArgs<'a> {
    /// The cardinality of `a op b` on [`CardinalityPath::Auto`].
    pub fn new(a: &'a GpuSet, b: &'a GpuSet, op: SetOp, scratch: BufferRange, status: BufferRange) -> Self {
        GpuSetCardinalityArgs {
            a,
            b,
            op,
            path: CardinalityPath::Auto,
            scratch,
            status,
        }
    }
}

/// Arguments of [`GpuSet::record_op_many_cardinality`]: `|sets[0] op sets[1] op ...|`.
#[derive(Clone, Copy)]
pub struct GpuSetManyCardinalityArgs<'a> {
    /// The operands, at least one, all of one context; a set may appear several times.
    pub sets: &'a [&'a GpuSet],
    /// The operation (ANDNOT: `sets[0]` minus the union of the others).
    pub op: SetOp,
    /// [`GpuSet::op_many_cardinality_scratch_bytes`] bytes (16-byte aligned offset): the sets'
    /// device views and the list of chunks to combine.
    pub scratch: BufferRange,
    /// [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES) bytes: the [`SetOpStatus`](super::SetOpStatus)
    /// (zeroed first by the call).
    pub status: BufferRange,
}

/// Arguments of [`GpuSet::record_op_many`]: `self = sets[0] op sets[1] op ...`.
#[derive(Clone, Copy)]
pub struct GpuSetOpManyArgs<'a> {
    /// The operands, at least one, all of the destination's context, none of them the
    /// destination; a set may appear several times.
    pub sets: &'a [&'a GpuSet],
    /// The operation (ANDNOT: `sets[0]` minus the union of the others).
    pub op: SetOp,
    /// [`GpuSet::op_many_scratch_bytes`] bytes (16-byte aligned offset): the operation's
    /// counters and chunk list, then the sets' device views.
    pub scratch: BufferRange,
    /// [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES) bytes: the [`SetOpStatus`](super::SetOpStatus),
    /// as [`GpuSet::record_op`]'s.
    pub status: BufferRange,
}

/// Arguments of [`GpuSet::record_op_cardinality_batch`]: the cardinalities of `a_i op b_i`.
#[derive(Clone, Copy)]
pub struct GpuSetCardinalityBatchArgs<'a> {
    /// The pairs `(a_i, b_i)`, all of one context; sets may appear in several pairs. None:
    /// nothing is recorded.
    pub pairs: &'a [(&'a GpuSet, &'a GpuSet)],
    /// The operation of every pair.
    pub op: SetOp,
    /// How every pair is counted (tests and benchmarks; [`CardinalityPath::Auto`] otherwise:
    /// each pair as [`GpuSet::record_op_cardinality`] would count it).
    pub path: CardinalityPath,
    /// At least [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) bytes (16-byte aligned
    /// offset): pairs counted by the passes run as many at once as it holds their chunk lists
    /// (a few KiB a pair of small sets; a pair whose sets span every chunk takes all of
    /// `SET_SCRATCH_BYTES`).
    pub scratch: BufferRange,
    /// [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES) bytes a pair: the
    /// [`SetOpStatus`](super::SetOpStatus) of pair `i` at byte `32 i` (the batch zeroes them
    /// first).
    pub statuses: BufferRange,
}

impl<'a> GpuSetCardinalityBatchArgs<'a> {
    /// The cardinalities of the pairs on [`CardinalityPath::Auto`].
    pub fn new(
        pairs: &'a [(&'a GpuSet, &'a GpuSet)],
        op: SetOp,
        scratch: BufferRange,
        statuses: BufferRange,
    ) -> Self {
        GpuSetCardinalityBatchArgs {
            pairs,
            op,
            path: CardinalityPath::Auto,
            scratch,
            statuses,
        }
    }
}

/// Arguments of [`GpuSet::record_op_batch`]: `dst_i = a_i op b_i` for every job, recorded as
/// one pass sequence whatever their number.
#[derive(Clone, Copy)]
pub struct GpuSetOpBatchArgs<'a> {
    /// The jobs `(dst_i, a_i, b_i)`, all of one context: distinct flat destinations, none of
    /// them an operand of any job (operands may repeat and may be packed). None: nothing is
    /// recorded.
    pub jobs: &'a [(&'a GpuSet, &'a GpuSet, &'a GpuSet)],
    /// The operation of every job.
    pub op: SetOp,
    /// [`GpuSet::op_batch_scratch_bytes`] bytes for these jobs (16-byte aligned offset).
    pub scratch: BufferRange,
    /// [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES) bytes a job: the
    /// [`SetOpStatus`](super::SetOpStatus) of job `i` at byte `32 i`; must not overlap
    /// `scratch`.
    pub statuses: BufferRange,
}

/// Arguments of [`GpuSet::record_insert_sorted`]: values already sorted ascending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSetInsertSortedArgs {
    /// The values (u32), SORTED ascending, duplicates allowed (sort them with
    /// [`SortPlan::record`] first).
    pub sorted: BufferRange,
    /// How many values (at most 2^24).
    pub count: ElementCount,
    /// For an indirect count: the most it can be (at most 2^24). Ignored for a direct count.
    pub max_count: u64,
    /// `false`: insert the values; `true`: remove them.
    pub remove: bool,
    /// [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) bytes (16-byte aligned offset).
    pub scratch: BufferRange,
    /// [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES) bytes receiving a
    /// [`SetOpStatus`](super::SetOpStatus); must not overlap `scratch`.
    pub status: BufferRange,
}

/// Arguments of [`GpuSet::record_insert_range`]: every value of `[begin, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSetInsertRangeArgs {
    /// First value of the range.
    pub begin: u64,
    /// One past the last value (`begin <= end <= 2^32`; `begin == end`: nothing recorded).
    pub end: u64,
    /// [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) bytes (16-byte aligned offset).
    pub scratch: BufferRange,
    /// [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES) bytes receiving a
    /// [`SetOpStatus`](super::SetOpStatus); must not overlap `scratch`.
    pub status: BufferRange,
}

/// Arguments of [`GpuSet::record_run_optimize`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSetRunOptimizeArgs {
    /// [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) bytes (16-byte aligned offset).
    pub scratch: BufferRange,
    /// [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES) bytes receiving a
    /// [`SetOpStatus`](super::SetOpStatus); must not overlap `scratch`.
    pub status: BufferRange,
}

/// Arguments of [`GpuSet::record_insert`]: values in any order, sorted first.
#[derive(Clone, Copy)]
pub struct GpuSetInsertArgs<'a> {
    /// The sort plan ([`GpuSet::insert_plan`]: ascending, full-width u32 keys without values,
    /// at most 2^24); its `max_count` bounds the count.
    pub plan: &'a SortPlan,
    /// The values (u32, any order, duplicates allowed), sorted IN PLACE: they hold scratch
    /// contents afterwards.
    pub values: BufferRange,
    /// The sort's alternate keys, as large as the values (the plan's `keys_alt` size); scratch
    /// contents afterwards.
    pub values_alt: BufferRange,
    /// The sort's scratch (the plan's `scratch` requirements).
    pub sort_scratch: BufferRange,
    /// How many values (at most the plan's `max_count`; an indirect count is clamped to it).
    pub count: ElementCount,
    /// `false`: insert the values; `true`: remove them.
    pub remove: bool,
    /// [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) bytes (16-byte aligned offset).
    pub scratch: BufferRange,
    /// [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES) bytes receiving a
    /// [`SetOpStatus`](super::SetOpStatus); must not overlap `scratch`.
    pub status: BufferRange,
}

/// Arguments of [`GpuSet::record_contains`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSetContainsArgs {
    /// The values (u32) to look up.
    pub values: BufferRange,
    /// How many values (at most 2^32 - 1).
    pub count: ElementCount,
    /// For an indirect count: the most it can be. Ignored for a direct count.
    pub max_count: u64,
    /// A u32 flag per value: 1 in the set, 0 not.
    pub flags: BufferRange,
}

/// Arguments of [`GpuSet::record_filter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSetFilterArgs {
    /// The values (u32) to filter.
    pub values: BufferRange,
    /// How many values (at most 65536 workgroups of values: 2^24 on GPUs, 2^22 on CPU
    /// drivers).
    pub count: ElementCount,
    /// For an indirect count: the most it can be. Ignored for a direct count.
    pub max_count: u64,
    /// The values that are in the set, in input order (room for `count` values).
    pub out: BufferRange,
    /// A u32 receiving the number of values written to `out`.
    pub out_count: BufferRange,
    /// [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) bytes (16-byte aligned offset).
    pub scratch: BufferRange,
    /// How each tile finds its output offset (tests and benchmarks; [`FilterPath::Auto`]
    /// otherwise).
    pub path: FilterPath,
}

impl GpuSetFilterArgs {
    /// A filter of `count` values on [`FilterPath::Auto`].
    pub fn new(
        values: BufferRange,
        count: ElementCount,
        max_count: u64,
        out: BufferRange,
        out_count: BufferRange,
        scratch: BufferRange,
    ) -> Self {
        GpuSetFilterArgs {
            values,
            count,
            max_count,
            out,
            out_count,
            scratch,
            path: FilterPath::Auto,
        }
    }
}

/// Arguments of [`GpuSet::record_to_array`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSetToArrayArgs {
    /// The set's values ascending (room for `capacity` u32).
    pub out: BufferRange,
    /// The most values written to `out` (values past it are not written).
    pub capacity: u64,
    /// 8 bytes receiving the cardinality (u64 as two u32, low first).
    pub count_out: BufferRange,
    /// [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) bytes (16-byte aligned offset).
    pub scratch: BufferRange,
}

/// Arguments of [`GpuSet::record_range_cardinality`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSetRangeCardinalityArgs {
    /// First value of the range.
    pub begin: u64,
    /// One past the last value (`begin <= end <= 2^32`).
    pub end: u64,
    /// 8 bytes receiving the count (u64 as two u32, low first).
    pub out: BufferRange,
}
