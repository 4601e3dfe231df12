//! The join and the group-by on the GPU, through vkalgo's record layer, each phase between GPU
//! timestamps:
//!
//! - **build**: a [`HashMultimap`] of R (key -> payload, every row kept; 2 |R| slots).
//! - **count**: each S row's matches ([`HashMultimap::record_count`], a u32 per row) and their
//!   exclusive scan (one more entry than rows: the last is the number of pairs). The host then
//!   reads that number (to size the output, as a join must; outside the GPU times).
//! - **retrieve**: each S row's R payloads from its offset on ([`HashMultimap::record_retrieve`]).
//! - **pairs**: S's payload beside each of them (crate::expand), so that the pair j of the join
//!   is `(out_r[j], out_s[j])`.
//! - **group-by**: [`HashMap::record_insert_or_apply`] (sum) of S's payloads per key.
//!
//! Each repetition is two submissions: clear the multimap, build and count; read the number of
//! pairs; clear the maps, retrieve, pairs and group-by.

use crate::data::Table;
use crate::expand::Expansion;
use crate::timer::{full_barrier, upload, Timer};
use vkalgo::ash::vk;
use vkalgo::{
    Context, ElementCount, Error, GpuBuffer, HashInsertArgs, HashKeyType, HashMap, HashMapDesc, HashMultimap,
    HashMultimapCountArgs, HashMultimapInsertArgs, HashMultimapOffsets, HashMultimapRetrieveArgs,
    HashValueType, MemoryLocation, ReduceOp, Result, ScanArgs, ScanDesc, ScanOp, ScanPlan,
};

/// The phases, in the order [`Join::run`] reports their times.
pub const PHASES: [&str; 5] = ["build", "count", "retrieve", "pairs", "groupby"];

/// A (key, payload) table on the device.
struct Columns {
    keys: GpuBuffer,
    payloads: GpuBuffer,
    rows: u64,
}

impl Columns {
    /// Uploads table `t`.
    fn new(ctx: &Context, t: &Table, name: &str) -> Result<Columns> {
        Ok(Columns {
            keys: upload(ctx, &t.keys, name)?,
            payloads: upload(ctx, &t.payloads, name)?,
            rows: t.keys.len() as u64,
        })
    }

    /// The first `4 * rows` bytes of `b`.
    fn range(&self, b: &GpuBuffer) -> vkalgo::BufferRange {
        b.sub_range(0, 4 * self.rows)
    }
}

/// The join's state on the device.
pub struct Join<'a> {
    ctx: &'a Context,
    r: Columns,
    s: Columns,
    multimap: HashMultimap,
    /// A u32 per S row, and a last one kept 0.
    counts: GpuBuffer,
    /// The exclusive scan of `counts`: where each S row's pairs start; the last, how many.
    pub offsets: GpuBuffer,
    /// The number of pairs, copied for the host.
    total: GpuBuffer,
    scan: ScanPlan,
    scratch: GpuBuffer,
    groups: HashMap,
    /// The pairs (made once their number is known).
    pub expansion: Option<Expansion>,
}

impl<'a> Join<'a> {
    /// Uploads R and S and makes the multimap (2 |R| slots), the scan of the counts and the
    /// group-by's map (twice the distinct keys S can have: at most min(|R|, |S|)).
    pub fn new(ctx: &'a Context, r: &Table, s: &Table) -> Result<Join<'a>> {
        let (r, s) = (Columns::new(ctx, r, "R")?, Columns::new(ctx, s, "S")?);
        let desc = |capacity| HashMapDesc::new(HashKeyType::U32, HashValueType::U32, capacity);
        let multimap = ctx.hash_multimap(&desc(2 * r.rows))?;
        let groups = ctx.hash_map(&desc(2 * r.rows.min(s.rows)))?;
        let scan = ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, s.rows + 1))?;
        let gpu = |bytes: u64, name| GpuBuffer::new(ctx, bytes.max(16), MemoryLocation::GpuOnly, name);
        Ok(Join {
            ctx,
            counts: gpu(4 * (s.rows + 1), "counts")?,
            offsets: gpu(4 * (s.rows + 1), "offsets")?,
            total: GpuBuffer::new(ctx, 16, MemoryLocation::GpuToCpu, "total")?,
            scratch: gpu(scan.memory_requirements().scratch.size, "scan scratch")?,
            scan,
            multimap,
            groups,
            r,
            s,
            expansion: None,
        })
    }

    /// S's rows.
    pub fn s_rows(&self) -> u64 {
        self.s.rows
    }

    /// The group-by's map (its keys and sums, for the check).
    pub fn groups(&self) -> &HashMap {
        &self.groups
    }

    /// One repetition: the first submission (build, count), the number of pairs read, the
    /// second (retrieve, pairs, group-by). Returns the phases' milliseconds and the pairs.
    /// R's keys repeat at most twice, so S's rows have at most two matches and the pairs (at
    /// most 2^31) fit the u32 offsets.
    pub fn run(&mut self, timer: &Timer) -> Result<([f64; 5], u64)> {
        let first = timer.regions(|cmd, mark| self.record_build_count(cmd, mark))?;
        let mapped = self
            .total
            .mapped()
            .ok_or_else(|| Error::Internal("total not mapped".into()))?;
        let pairs = u32::from_le_bytes(mapped[..4].try_into().unwrap()) as u64;
        if self.expansion.as_ref().map_or(true, |e| e.pairs != pairs) {
            self.expansion = None; // the old buffers go first
            self.expansion = Some(Expansion::new(self.ctx, pairs, self.s.rows)?);
        }
        let second = timer.regions(|cmd, mark| self.record_join_rest(cmd, mark))?;
        Ok(([first[0], first[1], second[0], second[1], second[2]], pairs))
    }

    /// Clear, build, count (and the number of pairs copied for the host).
    fn record_build_count(
        &self,
        cmd: vk::CommandBuffer,
        mark: &mut dyn FnMut(vk::CommandBuffer),
    ) -> Result<()> {
        let (ctx, d, ns) = (self.ctx, self.ctx.device(), self.s.rows);
        // SAFETY (every recording here): `cmd` is recording; every object and buffer lives
        // until the submission has completed; full barriers order the operations.
        unsafe {
            self.multimap.record_clear(cmd)?;
            d.cmd_fill_buffer(cmd, self.counts.buffer(), 4 * ns, 4, 0);
        }
        full_barrier(ctx, cmd);
        let build = HashMultimapInsertArgs {
            keys: self.r.range(&self.r.keys),
            values: self.r.range(&self.r.payloads),
            count: ElementCount::Direct(self.r.rows),
            max_count: self.r.rows,
            failed_count: None,
        };
        mark(cmd);
        unsafe { self.multimap.record_insert(cmd, &build)? };
        mark(cmd);
        full_barrier(ctx, cmd);
        let count = HashMultimapCountArgs {
            keys: self.s.range(&self.s.keys),
            counts_out: self.s.range(&self.counts),
            count: ElementCount::Direct(ns),
            max_count: ns,
        };
        let scan = ScanArgs {
            input: self.counts.sub_range(0, 4 * (ns + 1)),
            output: self.offsets.sub_range(0, 4 * (ns + 1)),
            scratch: self.scratch.range(),
            count: ElementCount::Direct(ns + 1),
        };
        mark(cmd);
        unsafe { self.multimap.record_count(cmd, &count)? };
        full_barrier(ctx, cmd);
        unsafe { self.scan.record(cmd, &scan)? };
        mark(cmd);
        full_barrier(ctx, cmd);
        let last = [vk::BufferCopy::default().src_offset(4 * ns).size(4)];
        unsafe { d.cmd_copy_buffer(cmd, self.offsets.buffer(), self.total.buffer(), &last) };
        full_barrier(ctx, cmd);
        Ok(())
    }

    /// Clear the maps, retrieve, pairs, group-by.
    fn record_join_rest(
        &self,
        cmd: vk::CommandBuffer,
        mark: &mut dyn FnMut(vk::CommandBuffer),
    ) -> Result<()> {
        let (ctx, ns) = (self.ctx, self.s.rows);
        let e = self.expansion.as_ref().expect("sized by run");
        // SAFETY (every recording here): as in record_build_count.
        unsafe {
            e.record_clear(cmd)?;
            self.groups.record_clear(cmd)?;
        }
        full_barrier(ctx, cmd);
        let retrieve = HashMultimapRetrieveArgs {
            keys: self.s.range(&self.s.keys),
            offsets: HashMultimapOffsets::U32(self.s.range(&self.offsets)),
            values_out: e.out_r.sub_range(0, 4 * e.pairs.max(1)),
            capacity: e.pairs,
            count: ElementCount::Direct(ns),
            max_count: ns,
        };
        mark(cmd);
        unsafe { self.multimap.record_retrieve(cmd, &retrieve)? };
        mark(cmd);
        full_barrier(ctx, cmd);
        mark(cmd);
        unsafe { e.record_pairs(cmd, self.s.range(&self.offsets), self.s.range(&self.s.payloads))? };
        mark(cmd);
        full_barrier(ctx, cmd);
        let group_by = HashInsertArgs {
            keys: self.s.range(&self.s.keys),
            values: self.s.range(&self.s.payloads),
            count: ElementCount::Direct(ns),
            max_count: ns,
            status: None,
            failed_count: None,
        };
        mark(cmd);
        unsafe {
            self.groups
                .record_insert_or_apply(cmd, &group_by, ReduceOp::Sum)?
        };
        mark(cmd);
        full_barrier(ctx, cmd);
        Ok(())
    }
}
