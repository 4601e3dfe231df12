//! Order statistics of sets on the record layer: ranks (CRoaring's `roaring_bitmap_rank`),
//! select (the value of a 0-based rank), minimum and maximum, into the caller's buffers
//! (glsl/set/order.comp). Rank and select first write the exclusive sums of the chunk
//! cardinalities into the scratch (glsl/set/info.comp modes 0 and 3, as to-array does); each
//! query is then one invocation: rank indexes its chunk by the value's high 16 bits, select
//! finds its chunk by binary search over the sums; both resolve within the chunk by its kind
//! (full: arithmetic; runs: a walk; bitmap: popcounts; array: binary search or index).
//! Minimum and maximum: one invocation per chunk finds the first and last non-empty chunks
//! (atomics into the output), then one invocation their smallest and largest values.

use super::gpu::GpuSet;
use super::layout::{CHUNKS, SET_SCRATCH_BYTES};
use super::passes::{set_spec, wg, SetPush, OFFSET_BLOCKS};
use crate::core::buffer::{BufferRange, ElementCount};
use crate::core::shaders;
use crate::error::{Error, Result};
use ash::vk;

/// Scratch word (and the next) where the passes before rank and select leave the set's
/// cardinality (u64 as two u32; glsl/set/order.comp S_ORDER_TOTAL).
pub(super) const S_ORDER_TOTAL: u32 = 24;
/// glsl/set/order.comp's modes: ranks of values ...
pub(super) const ORDER_RANK: u32 = 0;
/// ... values of ranks ...
pub(super) const ORDER_SELECT: u32 = 1;
/// ... the first and last non-empty chunks ...
pub(super) const ORDER_MIN_MAX: u32 = 2;
/// ... and from them the minimum and the maximum.
pub(super) const ORDER_MIN_MAX_RESOLVE: u32 = 3;

/// What [`GpuSet::record_select`] writes for a rank at or above the cardinality (besides the
/// `out_of_range` flag): `u32::MAX`, which is also a value a set may hold, so read the flag.
pub const SELECT_OUT_OF_RANGE: u32 = u32::MAX;

/// Bytes [`GpuSet::record_min_max`] writes: three u32 (minimum, maximum, 1 when the set is
/// not empty).
pub const SET_MIN_MAX_BYTES: u64 = 12;

/// Arguments of [`GpuSet::record_rank`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSetRankArgs {
    /// The values (u32) whose ranks are wanted (any order, duplicates allowed).
    pub values: BufferRange,
    /// How many values (at most 2^32 - 1).
    pub count: ElementCount,
    /// For an indirect count: the most it can be. Ignored for a direct count.
    pub max_count: u64,
    /// A u64 (two u32, low first; 4-byte aligned offset) per value: the number of the set's
    /// values at or below it (up to 2^32).
    pub ranks: BufferRange,
    /// [`SET_SCRATCH_BYTES`] bytes (16-byte aligned offset), overlapping neither `values` nor
    /// `ranks`.
    pub scratch: BufferRange,
}

/// Arguments of [`GpuSet::record_select`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSetSelectArgs {
    /// The 0-based ranks (u64 as two u32, low first; 4-byte aligned offset), any order,
    /// duplicates allowed.
    pub ranks: BufferRange,
    /// How many ranks (at most 2^32 - 1).
    pub count: ElementCount,
    /// For an indirect count: the most it can be. Ignored for a direct count.
    pub max_count: u64,
    /// A u32 per rank: the set's value of that rank; [`SELECT_OUT_OF_RANGE`] for a rank at or
    /// above the cardinality.
    pub values: BufferRange,
    /// A u32: 0 when every rank was below the cardinality, 1 when any was not (the call zeroes
    /// it first).
    pub out_of_range: BufferRange,
    /// [`SET_SCRATCH_BYTES`] bytes (16-byte aligned offset), overlapping no other range.
    pub scratch: BufferRange,
}

/// Arguments of [`GpuSet::record_min_max`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSetMinMaxArgs {
    /// [`SET_MIN_MAX_BYTES`] (4-byte aligned offset) receiving three u32: the smallest value,
    /// the largest value, and 1; for an empty set 0, 0 and 0.
    pub out: BufferRange,
}

/// The number of queries and the indirect count's address of a rank or select.
fn query_count(set: &GpuSet, count: ElementCount, max_count: u64, what: &str) -> Result<(u64, u64)> {
    let (n, addr) = match count {
        ElementCount::Direct(n) => (n, 0),
        ElementCount::Indirect(r) => {
            r.check(&set.ctx, "set count", 4, 4)?;
            (max_count, set.ctx.address_of(&r))
        }
    };
    if n > u32::MAX as u64 {
        return Err(Error::invalid(format!("{what}: count above 2^32 - 1")));
    }
    Ok((n, addr))
}

/// Refuses a scratch that overlaps an input or an output.
fn check_apart(scratch: &BufferRange, ranges: &[&BufferRange], what: &str) -> Result<()> {
    if ranges.iter().any(|r| r.overlaps(scratch)) {
        return Err(Error::invalid(format!(
            "{what}: the scratch overlaps an input or an output"
        )));
    }
    Ok(())
}

impl GpuSet {
    /// Records the ranks of values: for each of `args.count` values (u32) the number of the
    /// set's values at or below it (CRoaring's `roaring_bitmap_rank`; u64, up to 2^32 for the
    /// full set) into `args.ranks`. Three passes: the chunks' exclusive sums of cardinalities
    /// into the scratch (two), then one invocation per value.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_rank(&self, cmd: vk::CommandBuffer, args: &GpuSetRankArgs) -> Result<()> {
        let GpuSetRankArgs {
            values,
            count,
            max_count,
            ranks,
            scratch,
        } = *args;
        let (n, addr) = query_count(self, count, max_count, "set rank")?;
        values.check(&self.ctx, "set rank values", n * 4, 4)?;
        ranks.check(&self.ctx, "set ranks", n * 8, 4)?;
        scratch.check(&self.ctx, "set scratch", SET_SCRATCH_BYTES, 16)?;
        check_apart(&scratch, &[&values, &ranks], "set rank")?;
        let push = SetPush {
            values: self.ctx.address_of(&values),
            out_addr: self.ctx.address_of(&ranks),
            count_addr: addr,
            count: n as u32,
            max_count: n as u32,
            mode: ORDER_RANK,
            ..Default::default()
        };
        unsafe { self.record_order_queries(cmd, &scratch, push, n) }
    }

    /// Records select: for each of `args.count` 0-based ranks (u64) the set's value of that
    /// rank (u32) into `args.values`. A rank cannot be refused at record time: one at or above
    /// the cardinality writes [`SELECT_OUT_OF_RANGE`] for that query and sets the u32 at
    /// `args.out_of_range` to 1 (it is zeroed first, and stays 0 when every rank is in range).
    /// Three passes: the chunks' exclusive sums of cardinalities into the scratch (two), then
    /// one invocation per rank (a binary search over the sums).
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_select(&self, cmd: vk::CommandBuffer, args: &GpuSetSelectArgs) -> Result<()> {
        let GpuSetSelectArgs {
            ranks,
            count,
            max_count,
            values,
            out_of_range,
            scratch,
        } = *args;
        let (n, addr) = query_count(self, count, max_count, "set select")?;
        ranks.check(&self.ctx, "set select ranks", n * 8, 4)?;
        values.check(&self.ctx, "set select values", n * 4, 4)?;
        out_of_range.check(&self.ctx, "set select out_of_range", 4, 4)?;
        scratch.check(&self.ctx, "set scratch", SET_SCRATCH_BYTES, 16)?;
        check_apart(&scratch, &[&ranks, &values, &out_of_range], "set select")?;
        if values.overlaps(&out_of_range) {
            return Err(Error::invalid("set select: values and out_of_range overlap"));
        }
        unsafe { self.ctx.record_compute_fill(cmd, &out_of_range, 1, 0)? };
        let push = SetPush {
            values: self.ctx.address_of(&ranks),
            out_addr: self.ctx.address_of(&values),
            range_lo: self.ctx.address_of(&out_of_range),
            count_addr: addr,
            count: n as u32,
            max_count: n as u32,
            mode: ORDER_SELECT,
            ..Default::default()
        };
        unsafe { self.record_order_queries(cmd, &scratch, push, n) }
    }

    /// The passes of a rank or select (`push` with its queries, outputs and mode): the chunk
    /// sums and the total into `scratch` (info.comp modes 0 and 3), then the queries.
    unsafe fn record_order_queries(
        &self,
        cmd: vk::CommandBuffer,
        scratch: &BufferRange,
        push: SetPush,
        n: u64,
    ) -> Result<()> {
        let ctx = &self.ctx;
        if n == 0 && push.count_addr == 0 {
            return Ok(());
        }
        let info = self.reader_kernel(&shaders::SET_INFO, set_spec(ctx))?;
        let order = self.reader_kernel(&shaders::SET_ORDER, set_spec(ctx))?;
        let scratch_addr = ctx.address_of(scratch);
        let info_push = SetPush {
            meta_d: self.meta(),
            scratch: scratch_addr,
            out_addr: scratch_addr + S_ORDER_TOTAL as u64 * 4,
            mode: 0,
            ..Default::default()
        };
        unsafe {
            ctx.dispatch(cmd, info, &info_push, OFFSET_BLOCKS);
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, info, &SetPush { mode: 3, ..info_push }, OFFSET_BLOCKS);
            ctx.compute_to_compute(cmd);
        }
        let push = SetPush {
            meta_d: self.meta(),
            scratch: scratch_addr,
            ..push
        };
        unsafe { ctx.dispatch(cmd, order, &push, n.div_ceil(wg(ctx) as u64) as u32) };
        Ok(())
    }

    /// Records the minimum and the maximum: three u32 into `args.out` (the smallest value, the
    /// largest, and 1; 0, 0 and 0 for an empty set). Three passes: `out` zeroed, one
    /// invocation per chunk adds the first and last non-empty chunks into it (atomics), one
    /// invocation their extreme values.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_min_max(&self, cmd: vk::CommandBuffer, args: &GpuSetMinMaxArgs) -> Result<()> {
        let GpuSetMinMaxArgs { out } = *args;
        let ctx = &self.ctx;
        out.check(ctx, "set min_max output", SET_MIN_MAX_BYTES, 4)?;
        let order = self.reader_kernel(&shaders::SET_ORDER, set_spec(ctx))?;
        let push = SetPush {
            meta_d: self.meta(),
            out_addr: ctx.address_of(&out),
            mode: ORDER_MIN_MAX,
            ..Default::default()
        };
        unsafe {
            ctx.record_compute_fill(cmd, &out, 2, 0)?;
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, order, &push, CHUNKS.div_ceil(wg(ctx) as u64) as u32);
            ctx.compute_to_compute(cmd);
            let resolve = SetPush {
                mode: ORDER_MIN_MAX_RESOLVE,
                ..push
            };
            ctx.dispatch(cmd, order, &resolve, 1);
        }
        Ok(())
    }
}
