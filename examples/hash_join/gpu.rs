//! The join and the group-by on the GPU, through vkalgo's record layer, each phase between GPU
//! timestamps:
//!
//! - **build**: a [`HashMultimap`] of R (key -> payload, every row kept; 2 |R| slots).
//! - **count**: each S row's matches ([`HashMultimap::record_count`], a u32 per row) and their
//!   exclusive scan (one more entry than rows: the last is the number of pairs). The host then
//!   reads that number (to size the output, as a join must; outside the GPU times).
//! - **retrieve**: each S row's R payloads from its offset on, and with S's payloads as the
//!   retrieve's tags, that row's S payload beside each of them
//!   ([`HashMultimap::record_retrieve`]): the pair j of the join is `(out_r[j], out_s[j])`.
//! - **group-by**: [`HashMap::record_insert_or_apply`] (sum) of S's payloads per key.
//!
//! Each repetition is two submissions: clear the multimap, build and count; read the number of
//! pairs; clear the group-by's map, retrieve and group-by.

use crate::data::Table;
use crate::timer::{full_barrier, upload, Timer};
use vkalgo::ash::vk;
use vkalgo::{
    Context, ElementCount, Error, GpuBuffer, HashInsertArgs, HashKeyType, HashMap, HashMapDesc, HashMultimap,
    HashMultimapCountArgs, HashMultimapInsertArgs, HashMultimapOffsets, HashMultimapRetrieveArgs,
    HashMultimapTags, HashValueType, MemoryLocation, ReduceOp, Result, ScanArgs, ScanDesc, ScanOp, ScanPlan,
};

/// The phases, in the order [`Join::run`] reports their times.
pub const PHASES: [&str; 4] = ["build", "count", "retrieve", "groupby"];

/// The join's output: the pairs' R payloads and S payloads (made once their number is known).
pub struct Pairs {
    /// How many pairs.
    pub pairs: u64,
    /// R's payload of each pair.
    pub out_r: GpuBuffer,
    /// S's payload of each pair.
    pub out_s: GpuBuffer,
}

impl Pairs {
    fn new(ctx: &Context, pairs: u64) -> Result<Pairs> {
        let gpu = |name| GpuBuffer::new(ctx, (4 * pairs).max(16), MemoryLocation::GpuOnly, name);
        Ok(Pairs {
            pairs,
            out_r: gpu("pairs: R payloads")?,
            out_s: gpu("pairs: S payloads")?,
        })
    }
}

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
    pub pairs: Option<Pairs>,
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
            pairs: None,
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
    /// second (retrieve, group-by). Returns the phases' milliseconds and the pairs.
    /// R's keys repeat at most twice, so S's rows have at most two matches and the pairs (at
    /// most 2^31) fit the u32 offsets.
    pub fn run(&mut self, timer: &Timer) -> Result<([f64; 4], u64)> {
        let first = timer.regions(|cmd, mark| self.record_build_count(cmd, mark))?;
        let mapped = self
            .total
            .mapped()
            .ok_or_else(|| Error::Internal("total not mapped".into()))?;
        let pairs = u32::from_le_bytes(mapped[..4].try_into().unwrap()) as u64;
        if self.pairs.as_ref().map_or(true, |p| p.pairs != pairs) {
            self.pairs = None; // the old buffers go first
            self.pairs = Some(Pairs::new(self.ctx, pairs)?);
        }
        let second = timer.regions(|cmd, mark| self.record_join_rest(cmd, mark))?;
        Ok(([first[0], first[1], second[0], second[1]], pairs))
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

    /// Clear the group-by's map, retrieve (the pairs), group-by.
    fn record_join_rest(
        &self,
        cmd: vk::CommandBuffer,
        mark: &mut dyn FnMut(vk::CommandBuffer),
    ) -> Result<()> {
        let (ctx, ns) = (self.ctx, self.s.rows);
        let e = self.pairs.as_ref().expect("sized by run");
        // SAFETY (every recording here): as in record_build_count.
        unsafe { self.groups.record_clear(cmd)? };
        full_barrier(ctx, cmd);
        let retrieve = HashMultimapRetrieveArgs {
            keys: self.s.range(&self.s.keys),
            offsets: HashMultimapOffsets::U32(self.s.range(&self.offsets)),
            values_out: e.out_r.sub_range(0, 4 * e.pairs.max(1)),
            capacity: e.pairs,
            tags: Some(HashMultimapTags {
                tags: self.s.range(&self.s.payloads),
                tags_out: e.out_s.sub_range(0, 4 * e.pairs.max(1)),
            }),
            count: ElementCount::Direct(ns),
            max_count: ns,
        };
        mark(cmd);
        unsafe { self.multimap.record_retrieve(cmd, &retrieve)? };
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
