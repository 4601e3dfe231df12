//! The segmented sort plan: its checks, its pipelines, its scratch layout and the record layer.

use super::kernels::{
    groups, key_mask, shader, specialization, SegmentedSortPush, NO_TAG, PASS_BLOCK_ARGS, PASS_COUNT,
    PASS_PARTITION, PASS_ROUND_ARGS, PASS_SEGMENT_TABLE, PASS_TINY_FIRST, ROUND_ARGS_BYTES, TABLE_TAIL_BYTES,
    TILE_ENTRY_BYTES, TINY_LIMIT,
};
use super::{
    SegmentedSortArgs, SegmentedSortDesc, SegmentedSortTuning, SEGMENTED_SORT_MAX_COUNT,
    SEGMENTED_SORT_MAX_SEGMENTS,
};
use crate::core::buffer::{BufferRange, ElementCount, MemoryRequirements};
use crate::core::pipelines::Specialization;
use crate::core::shaders::SegmentedSortKernel;
use crate::error::{Error, Result};
use crate::scan::{ScanArgs, ScanDesc, ScanOp, ScanPath, ScanPlan};
use crate::sort::ValueType;
use crate::Context;
use ash::vk;

/// Alignment of the scratch and of each part of it.
const ALIGNMENT: u64 = 16;

/// Where each part of the scratch starts.
#[derive(Clone, Copy, Debug)]
struct ScratchLayout {
    keys_alt: u64,
    values_alt: u64,
    tiles: u64,
    /// Every round's tile counts (scanned in place), then from the next 16 bytes each round's
    /// `VkDispatchIndirectCommand` (glsl/segmented_sort/partition.comp round_args).
    starts: u64,
    segment_table: u64,
    scan: u64,
    size: u64,
}

/// A segmented sort planned for one context: made once for a key and value type, bit range,
/// order and maxima, recorded any number of times ([`SegmentedSortPlan::record`]).
#[derive(Clone, Debug)]
pub struct SegmentedSortPlan {
    ctx: Context,
    desc: SegmentedSortDesc,
    tuning: SegmentedSortTuning,
    end_bit: u32,
    scan: ScanPlan,
    /// Entries of the tile table (the most tiles of one round).
    max_tiles: u64,
    layout: ScratchLayout,
}

/// One merge round of the layout: halves of `width` elements, `pairs` pairs, and its first
/// entry in the scanned tile counts (each round has `pairs + 1` entries).
#[derive(Clone, Copy, Debug)]
struct Round {
    width: u64,
    pairs: u64,
    base: u64,
}

/// Entries of the segment table of `count` elements: one per small-limit-th position and one
/// past them (glsl/segmented_sort/partition.comp, SEGSORT_PASS_SEGMENT_TABLE).
fn table_entries(tile: u64, count: u64) -> u64 {
    count.div_ceil(tile / 2) + 1
}

/// Where the segment table's tail begins, relative to the table (glsl/segmented_sort/
/// segsort_common.glsl table_tail).
fn table_tail(tile: u64, count: u64) -> u64 {
    (table_entries(tile, count) * 4).next_multiple_of(16)
}

/// The merge rounds of `count` elements in tiles of `tile` (glsl/segmented_sort/partition.comp
/// count_entry walks the same layout).
fn rounds_layout(tile: u64, count: u64) -> Vec<Round> {
    let mut rounds = Vec::new();
    let (mut width, mut base) = (tile, 0);
    while width < count {
        let pairs = count.div_ceil(2 * width);
        rounds.push(Round { width, pairs, base });
        base += pairs + 1;
        width *= 2;
    }
    rounds
}

impl Context {
    /// Plans a segmented sort. Errors ([`Error::InvalidArgument`]): a count over
    /// [`SEGMENTED_SORT_MAX_COUNT`], segments over [`SEGMENTED_SORT_MAX_SEGMENTS`], a bad bit
    /// range or tuning.
    pub fn segmented_sort_plan(&self, desc: &SegmentedSortDesc) -> Result<SegmentedSortPlan> {
        if desc.max_count > SEGMENTED_SORT_MAX_COUNT {
            return Err(Error::invalid(format!(
                "segmented sort: max_count {} exceeds {SEGMENTED_SORT_MAX_COUNT}",
                desc.max_count
            )));
        }
        if desc.max_segments > SEGMENTED_SORT_MAX_SEGMENTS {
            return Err(Error::invalid(format!(
                "segmented sort: max_segments {} exceeds {SEGMENTED_SORT_MAX_SEGMENTS}",
                desc.max_segments
            )));
        }
        let width = desc.key_type.bits();
        let end_bit = if desc.end_bit == 0 { width } else { desc.end_bit };
        if end_bit > width {
            return Err(Error::invalid(format!(
                "segmented sort: end_bit {end_bit} is beyond the {width}-bit key"
            )));
        }
        if desc.begin_bit >= end_bit {
            return Err(Error::invalid(format!(
                "segmented sort: begin_bit {} must be below end_bit {end_bit}",
                desc.begin_bit
            )));
        }
        let tuning = desc
            .tuning
            .unwrap_or_else(|| SegmentedSortTuning::for_device(self));
        check_tuning(self, desc, &tuning)?;
        let tile = tuning.tile();
        let n = desc.max_count;
        let max_tiles = n.div_ceil(tile) + n.div_ceil(2 * tile) + 1;
        let entries = rounds_layout(tile, n).iter().map(|r| r.pairs + 1).sum::<u64>();
        let scan = self.scan_plan(&ScanDesc {
            op: ScanOp::Exclusive,
            path: ScanPath::ReduceThenScan,
            max_count: entries.max(1),
            tuning: None,
            keep_scratch_zeroed: false,
            ..Default::default()
        })?;
        let a = |x: u64| x.next_multiple_of(ALIGNMENT);
        let keys_alt = 0;
        let values_alt = a(keys_alt + n * desc.key_type.bytes());
        let tiles = a(values_alt + n * desc.value_type.bytes());
        let starts = a(tiles + max_tiles * TILE_ENTRY_BYTES);
        // The round counts, then each round's dispatch command at the next 16 bytes.
        let round_args = a(entries.max(1) * 4) + rounds_layout(tile, n).len() as u64 * ROUND_ARGS_BYTES;
        let segment_table = a(starts + round_args);
        // The table's entries, then its tail (the longest segment the tiny kernel left, the
        // block pass's dispatch size) at the next 16 bytes.
        let scan_at = a(segment_table + table_tail(tile, n) + TABLE_TAIL_BYTES);
        let size = a(scan_at + scan.memory_requirements().scratch.size.max(ALIGNMENT));
        let plan = SegmentedSortPlan {
            ctx: self.clone(),
            desc: *desc,
            tuning,
            end_bit,
            scan,
            max_tiles,
            layout: ScratchLayout {
                keys_alt,
                values_alt,
                tiles,
                starts,
                segment_table,
                scan: scan_at,
                size,
            },
        };
        let spec = plan.spec();
        let mut kernels = Vec::new();
        for kernel in [
            SegmentedSortKernel::Block,
            SegmentedSortKernel::Partition,
            SegmentedSortKernel::Merge,
            SegmentedSortKernel::CopyBack,
            SegmentedSortKernel::Tiny,
        ] {
            kernels.push((shader(kernel, desc.key_type, desc.value_type)?, spec));
        }
        self.prepare_kernels(&kernels)?;
        Ok(plan)
    }
}

/// The most workgroups of the tiny kernel (its subgroups stride over the segments past them):
/// docs/tuning/segmented_sort.md#tiny-kernel.
const TINY_MAX_GROUPS: u64 = 16384;

fn check_tuning(ctx: &Context, desc: &SegmentedSortDesc, t: &SegmentedSortTuning) -> Result<()> {
    let wg = t.workgroup_size;
    if !wg.is_power_of_two() || wg < 32 || wg > ctx.profile.max_workgroup_invocations.min(1024) {
        return Err(Error::invalid(format!(
            "segmented sort: workgroup size {wg} is not a power of two in 32..=device limit"
        )));
    }
    // Sort words hold a tag below NO_TAG and a tile position in 16 bits.
    if !(1..=65535).contains(&t.merge_workgroups) {
        return Err(Error::invalid(format!(
            "segmented sort: merge_workgroups {} not in 1..=65535",
            t.merge_workgroups
        )));
    }
    if !(1..=32).contains(&t.items_per_invocation) || t.tile() > 1 << 15 || t.tile() >= NO_TAG as u64 {
        return Err(Error::invalid(format!(
            "segmented sort: items_per_invocation {} not in 1..=32, or a tile over 2^15",
            t.items_per_invocation
        )));
    }
    // Keys and sort words of a tile, and the block kernel's two words.
    let shared = t.tile() * (desc.key_type.bytes() + 4) + 8;
    if shared > ctx.profile.max_shared_memory as u64 {
        return Err(Error::invalid(format!(
            "segmented sort: tuning {wg}x{} needs {shared} bytes of shared memory; the device has {}",
            t.items_per_invocation, ctx.profile.max_shared_memory
        )));
    }
    Ok(())
}

impl SegmentedSortPlan {
    /// What the plan was made for.
    pub fn desc(&self) -> &SegmentedSortDesc {
        &self.desc
    }

    /// The kernel tuning the plan uses.
    pub fn tuning(&self) -> SegmentedSortTuning {
        self.tuning
    }

    /// Elements of a tile (the block sort's block, and a merge tile).
    pub fn tile_size(&self) -> u64 {
        self.tuning.tile()
    }

    /// The largest segment sorted whole by one workgroup (half a tile); larger ones go through
    /// the merge rounds.
    pub fn small_limit(&self) -> u64 {
        self.tuning.tile() / 2
    }

    /// Merge rounds recorded for `count` elements: `ceil(log2(count / tile))`, none where the
    /// desc bounds every segment to the small limit ([`SegmentedSortPlan::small_segments_only`]).
    pub fn rounds(&self, count: u64) -> u32 {
        if self.small_segments_only() {
            return 0;
        }
        rounds_layout(self.tile_size(), count).len() as u32
    }

    /// Whether the desc's [`SegmentedSortDesc::max_segment_len`] bounds every segment to the
    /// small limit: then only the block pass's small parts are recorded (or, for segments of
    /// at most 64 elements, the tiny kernel alone: [`SegmentedSortPlan::tiny_segments_only`]).
    pub fn small_segments_only(&self) -> bool {
        self.desc.max_segment_len.is_some_and(|l| l <= self.small_limit())
    }

    /// Whether the desc's [`SegmentedSortDesc::max_segment_len`] is at most 64 (and the small
    /// limit): one dispatch then sorts every segment, a subgroup a segment
    /// (glsl/segmented_sort/tiny.comp).
    pub fn tiny_segments_only(&self) -> bool {
        self.small_segments_only() && self.desc.max_segment_len.is_some_and(|l| l <= TINY_LIMIT)
    }

    /// Scratch every [`SegmentedSortPlan::record`] needs: the merge rounds' alternate keys and
    /// values, tile table and pair starts, and the scan's scratch.
    pub fn memory_requirements(&self) -> MemoryRequirements {
        MemoryRequirements::scratch(self.layout.size, ALIGNMENT)
    }

    fn spec(&self) -> Specialization {
        specialization(&self.tuning, self.desc.key_type, self.desc.descending)
    }

    /// Checks the call's buffers against the plan: (the direct count, the count to size for,
    /// the direct segment count, the segments to size for).
    fn check_args(&self, args: &SegmentedSortArgs) -> Result<(Option<u64>, u64, Option<u64>, u64)> {
        let ctx = &self.ctx;
        let d = &self.desc;
        let (direct, n) = args.count.resolve(ctx, "segmented sort: count", d.max_count)?;
        let (segs_direct, segs) =
            args.segments
                .resolve(ctx, "segmented sort: segment count", d.max_segments)?;
        let has_values = d.value_type != ValueType::None;
        if args.values.is_some() != has_values {
            return Err(Error::invalid(if has_values {
                "segmented sort: the plan sorts pairs: values are required"
            } else {
                "segmented sort: the plan sorts keys only: values must be None"
            }));
        }
        let kb = d.key_type.bytes();
        let vb = d.value_type.bytes();
        args.keys.check(ctx, "segmented sort keys", n * kb, kb)?;
        if let Some(v) = args.values {
            v.check(ctx, "segmented sort values", n * vb, vb)?;
        }
        args.offsets
            .check(ctx, "segmented sort offsets", (segs + 1) * 4, 4)?;
        args.scratch
            .check(ctx, "segmented sort scratch", self.layout.size, ALIGNMENT)?;
        let keys = args.keys.part(0, n * kb);
        let values = args.values.map(|v| v.part(0, n * vb));
        let scratch = args.scratch.part(0, self.layout.size);
        let mut reads = vec![("offsets", args.offsets.part(0, (segs + 1) * 4))];
        for (name, c) in [("count", &args.count), ("segment count", &args.segments)] {
            if let ElementCount::Indirect(r) = c {
                reads.push((name, r.part(0, 4)));
            }
        }
        let mut written = vec![("keys", keys), ("scratch", scratch)];
        if let Some(v) = values {
            written.push(("values", v));
        }
        for (i, (wn, w)) in written.iter().enumerate() {
            for (on, o) in written.iter().skip(i + 1).chain(reads.iter()) {
                if w.overlaps(o) {
                    return Err(Error::invalid(format!(
                        "segmented sort: the {wn} and {on} ranges overlap"
                    )));
                }
            }
        }
        Ok((direct, n, segs_direct, segs))
    }

    /// Records the segmented sort (see the module docs for the method and the synchronization
    /// contract): the tiny kernel, the block pass, then the merge rounds of the large segments.
    /// The result is in `args.keys`/`args.values`. Arguments are checked first; on error
    /// nothing is recorded.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &SegmentedSortArgs) -> Result<()> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("segmented sort: the command buffer is null"));
        }
        let (direct, n, segs_direct, _) = self.check_args(args)?;
        if n <= 1 {
            return Ok(());
        }
        let d = &self.desc;
        let spec = self.spec();
        let kernel = |k| ctx.kernel(shader(k, d.key_type, d.value_type)?, spec);
        let block = kernel(SegmentedSortKernel::Block)?;
        let partition = kernel(SegmentedSortKernel::Partition)?;
        let merge = kernel(SegmentedSortKernel::Merge)?;
        let copy_back = kernel(SegmentedSortKernel::CopyBack)?;
        let l = &self.layout;
        let scratch = |at: u64, size: u64| args.scratch.part(at, size);
        let addr = |r: BufferRange| ctx.address_of(&r);
        let count_addr = |c: &ElementCount| match c {
            ElementCount::Direct(_) => 0,
            ElementCount::Indirect(r) => ctx.address_of(r),
        };
        let kb = d.key_type.bytes();
        let vb = d.value_type.bytes();
        let tile = self.tile_size();
        let mut push = SegmentedSortPush {
            keys: addr(args.keys),
            values: args.values.map_or(0, addr),
            keys_alt: addr(scratch(l.keys_alt, n * kb)),
            values_alt: if vb == 0 {
                0
            } else {
                addr(scratch(l.values_alt, n * vb))
            },
            offsets: addr(args.offsets),
            tiles: addr(scratch(l.tiles, l.starts - l.tiles)),
            starts: addr(scratch(l.starts, l.scan - l.starts)),
            count_addr: count_addr(&args.count),
            segments_addr: count_addr(&args.segments),
            key_mask: key_mask(d.begin_bit, self.end_bit),
            segment_table: addr(scratch(l.segment_table, l.scan - l.segment_table)),
            layout_count: n as u32,
            count: direct.unwrap_or(0) as u32,
            max_count: d.max_count as u32,
            segments: segs_direct.unwrap_or(0) as u32,
            max_segments: d.max_segments as u32,
            ..Default::default()
        };
        let wg = self.tuning.workgroup_size as u64;
        // The tiny kernel: enough workgroups for a segment a subgroup, each subgroup striding
        // over the rest.
        let segments = segs_direct.unwrap_or(d.max_segments);
        let per_group = (wg / ctx.profile().max_subgroup_size.max(1) as u64).max(1);
        let tiny_groups = segments.div_ceil(per_group).clamp(1, TINY_MAX_GROUPS) as u32;
        let tiny = kernel(SegmentedSortKernel::Tiny)?;
        if self.tiny_segments_only() {
            ctx.dispatch(cmd, tiny, &push, tiny_groups);
            return Ok(());
        }
        // The segment of every small-limit-th position (and no longest segment yet); the tiny
        // kernel for the segments of at most TINY_LIMIT elements, noting the longest it
        // leaves; from that the block pass's size (none where it left none, no large parts
        // where none is large); the block pass for the rest.
        push.pass = PASS_SEGMENT_TABLE;
        ctx.dispatch(cmd, partition, &push, groups(table_entries(tile, n), wg)?);
        ctx.compute_to_compute(cmd);
        push.pass = PASS_TINY_FIRST;
        ctx.dispatch(cmd, tiny, &push, tiny_groups);
        ctx.compute_to_compute(cmd);
        // The large parts (and the rounds) only where a segment may be longer than the small
        // limit.
        let small_only = self.small_segments_only();
        push.pass = PASS_BLOCK_ARGS;
        push.pairs = u32::from(!small_only);
        push.width = ctx.max_dispatch_x();
        ctx.dispatch(cmd, partition, &push, 1);
        ctx.compute_to_indirect(cmd);
        push.pairs = 0;
        push.width = 0;
        let block_groups = scratch(l.segment_table + table_tail(tile, n) + 16, 12);
        ctx.dispatch_indirect(cmd, block, &push, block_groups);
        if small_only {
            return Ok(());
        }
        let rounds = rounds_layout(tile, n);
        let Some(last) = rounds.last() else {
            return Ok(());
        };
        let entries = last.base + last.pairs + 1;
        let merge_groups = (self.max_tiles.min(n.div_ceil(tile) + rounds[0].pairs + 1) as u32)
            .min(self.tuning.merge_workgroups);
        push.max_tiles = self.max_tiles as u32;
        // Every round's tile counts (from the offsets alone), then one scan of them.
        push.pairs = entries as u32;
        push.pass = PASS_COUNT;
        ctx.compute_to_compute(cmd); // the block pass wrote the keys (read by the rounds)
        ctx.dispatch(cmd, partition, &push, groups(entries, wg)?);
        ctx.compute_to_compute(cmd);
        let starts = scratch(l.starts, entries * 4);
        self.scan.record(
            cmd,
            &ScanArgs {
                input: starts,
                output: starts,
                scratch: scratch(l.scan, l.size - l.scan),
                count: ElementCount::Direct(entries),
            },
        )?;
        // Each round's dispatch size from the scanned counts: rounds with no merge dispatch no
        // workgroups.
        push.pass = PASS_ROUND_ARGS;
        push.pairs = rounds.len() as u32;
        push.width = merge_groups;
        ctx.compute_to_compute(cmd);
        ctx.dispatch(cmd, partition, &push, groups(rounds.len() as u64, wg)?);
        ctx.compute_to_indirect(cmd);
        push.pass = PASS_PARTITION;
        for (r, round) in rounds.iter().enumerate() {
            push.width = round.width as u32;
            push.pairs = round.pairs as u32;
            push.round_base = round.base as u32;
            let round_groups = scratch(
                l.starts + (entries * 4).next_multiple_of(16) + r as u64 * ROUND_ARGS_BYTES,
                12,
            );
            // The scan or the last copy-back wrote what the partition reads; the last merge and
            // copy-back read the tile table it writes.
            if r > 0 {
                ctx.compute_to_compute(cmd);
            }
            ctx.dispatch_indirect(cmd, partition, &push, round_groups);
            ctx.compute_to_compute(cmd);
            ctx.dispatch_indirect(cmd, merge, &push, round_groups);
            ctx.compute_to_compute(cmd);
            ctx.dispatch_indirect(cmd, copy_back, &push, round_groups);
        }
        Ok(())
    }
}
