//! The join's pairs: S's payload beside each R payload the retrieve wrote. vkalgo has no
//! expand (or gather) primitive and the example keeps to the library's operations, so the
//! expansion is built from scans and hash maps. S row i owns positions `[offsets[i],
//! offsets[i + 1])`; the row owning position p is the last row whose offset is at most p, that
//! is the number of rows with offset <= p, minus one (rows without pairs share the next row's
//! offset and come before it). So:
//!
//! 1. `heads`, offset -> rows starting there: insert-or-apply (sum) of a 1 per row at its offset;
//! 2. the positions 0, 1, ..., pairs - 1: a fill of ones and its exclusive scan (in `out_s`);
//! 3. each position looked up in `heads` (absent: 0), into `rows`, and the inclusive scan of
//!    that: the owning row plus one, per position;
//! 4. `by_row`, row + 1 -> S's payload (keys 1..=|S|: the inclusive scan of ones), looked up
//!    at every position, into `out_s`.
//!
//! Two lookups and two scans over the pairs, where a dedicated kernel would write each pair
//! once: the price of the library-only form, in the `pairs` phase.

use crate::timer::full_barrier;
use vkalgo::ash::vk;
use vkalgo::{
    BufferRange, Context, ElementCount, GpuBuffer, HashFindArgs, HashInsertArgs, HashKeyType, HashMap,
    HashMapDesc, HashValueType, MemoryLocation, ReduceOp, Result, ScanArgs, ScanDesc, ScanOp, ScanPlan,
};

/// The pairs' buffers and the expansion's maps, scans and temporaries.
pub struct Expansion {
    ctx: Context,
    /// Pairs of the join.
    pub pairs: u64,
    /// R's payload of each pair (the retrieve writes it).
    pub out_r: GpuBuffer,
    /// S's payload of each pair.
    pub out_s: GpuBuffer,
    rows: GpuBuffer,
    ones: GpuBuffer,
    row_keys: GpuBuffer,
    heads: HashMap,
    by_row: HashMap,
    /// Scans (each with its scratch): positions (exclusive), owning rows (inclusive), row keys.
    scans: [(ScanPlan, GpuBuffer); 3],
    s_rows: u64,
}

impl Expansion {
    /// The buffers for `pairs` pairs of `s_rows` S rows.
    pub fn new(ctx: &Context, pairs: u64, s_rows: u64) -> Result<Expansion> {
        let gpu = |bytes: u64, name| GpuBuffer::new(ctx, bytes.max(16), MemoryLocation::GpuOnly, name);
        let desc = HashMapDesc::new(HashKeyType::U32, HashValueType::U32, 2 * s_rows);
        let scan = |op, count: u64| -> Result<(ScanPlan, GpuBuffer)> {
            let plan = ctx.scan_plan(&ScanDesc::new(op, count.max(1)))?;
            let scratch = gpu(plan.memory_requirements().scratch.size, "expansion scan scratch")?;
            Ok((plan, scratch))
        };
        Ok(Expansion {
            ctx: ctx.clone(),
            pairs,
            out_r: gpu(4 * pairs, "pairs: R payloads")?,
            out_s: gpu(4 * pairs, "pairs: S payloads")?,
            rows: gpu(4 * pairs, "pairs: rows")?,
            ones: gpu(4 * s_rows, "ones")?,
            row_keys: gpu(4 * s_rows, "row keys")?,
            heads: ctx.hash_map(&desc)?,
            by_row: ctx.hash_map(&desc)?,
            scans: [
                scan(ScanOp::Exclusive, pairs)?,
                scan(ScanOp::Inclusive, pairs)?,
                scan(ScanOp::Inclusive, s_rows)?,
            ],
            s_rows,
        })
    }

    /// Records emptying the two maps.
    ///
    /// # Safety
    /// `cmd` is recording on the context's device; the maps are not in use.
    pub unsafe fn record_clear(&self, cmd: vk::CommandBuffer) -> Result<()> {
        unsafe {
            self.heads.record_clear(cmd)?;
            self.by_row.record_clear(cmd)
        }
    }

    /// Records the expansion (see the module docs) from each S row's offset (a u32 per row)
    /// and payload, into `out_s`.
    ///
    /// # Safety
    /// `cmd` is recording on the context's device; the ranges and the expansion live until
    /// the submission has completed; the maps were cleared and the offsets written before.
    pub unsafe fn record_pairs(
        &self,
        cmd: vk::CommandBuffer,
        offsets: BufferRange,
        payloads: BufferRange,
    ) -> Result<()> {
        let (ctx, d, ns, t) = (&self.ctx, self.ctx.device(), self.s_rows, self.pairs);
        if t == 0 {
            return Ok(());
        }
        let all = |b: &GpuBuffer, n: u64| b.sub_range(0, 4 * n);
        let scan = |i: usize, range: BufferRange, n: u64| {
            let args = ScanArgs {
                input: range,
                output: range,
                scratch: self.scans[i].1.range(),
                count: ElementCount::Direct(n),
            };
            unsafe { self.scans[i].0.record(cmd, &args) }
        };
        let insert = |keys, values| HashInsertArgs {
            keys,
            values,
            count: ElementCount::Direct(ns),
            max_count: ns,
            status: None,
            failed_count: None,
        };
        let find = |keys, values, n| HashFindArgs {
            keys,
            values: Some(values),
            found: None,
            count: ElementCount::Direct(n),
            max_count: n,
        };
        unsafe {
            d.cmd_fill_buffer(cmd, self.ones.buffer(), 0, 4 * ns, 1);
            d.cmd_fill_buffer(cmd, self.row_keys.buffer(), 0, 4 * ns, 1);
            d.cmd_fill_buffer(cmd, self.out_s.buffer(), 0, 4 * t, 1);
        }
        full_barrier(ctx, cmd);
        let ones = all(&self.ones, ns);
        unsafe {
            self.heads
                .record_insert_or_apply(cmd, &insert(offsets, ones), ReduceOp::Sum)?
        };
        scan(0, all(&self.out_s, t), t)?; // positions
        scan(2, all(&self.row_keys, ns), ns)?; // 1..=|S|
        full_barrier(ctx, cmd);
        unsafe {
            self.by_row
                .record_insert(cmd, &insert(all(&self.row_keys, ns), payloads))?;
            self.heads
                .record_find(cmd, &find(all(&self.out_s, t), all(&self.rows, t), t))?;
        }
        full_barrier(ctx, cmd);
        scan(1, all(&self.rows, t), t)?; // owning row + 1
        full_barrier(ctx, cmd);
        unsafe {
            self.by_row
                .record_find(cmd, &find(all(&self.rows, t), all(&self.out_s, t), t))
        }
    }
}
