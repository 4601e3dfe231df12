//! The merge sort and the segmented merge: their description, plan and recording (a block
//! sort, then rounds of pairwise merges through the partition and merge kernels).

use super::kernels::{
    addr, groups, merge_groups, merge_spec, shader, specialization, MergePush, MODE_COUNT_TILES,
    MODE_OFFSETS, MODE_UNIFORM,
};
use super::tuning::MergeTuning;
use super::{check_max, check_overlaps, ALIGNMENT, TILE_ENTRY_BYTES};
use crate::core::buffer::{BufferRange, ElementCount, MemoryRequirements};
use crate::core::pipelines::Kernel;
use crate::core::shaders::MergeKernel;
use crate::error::{Error, Result};
use crate::scan::{ScanArgs, ScanDesc, ScanOp, ScanPath, ScanPlan};
use crate::sort::{KeyType, SortResult, ValueType};
use crate::Context;
use ash::vk;

/// What to plan a merge sort or segmented merge for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeSortDesc {
    /// Key type.
    pub key_type: KeyType,
    /// Payload type ([`ValueType::None`]: keys only).
    pub value_type: ValueType,
    /// Largest key first (still stable).
    pub descending: bool,
    /// The largest array any call sorts or merges (at most [`MAX_RUN`](super::MAX_RUN)).
    pub max_count: u64,
    /// The most runs a [`MergeSortPlan::record_segmented`] call merges (0: the plan only
    /// sorts; at most 2^31).
    pub max_runs: u64,
    /// Kernel tuning (`None`: [`MergeTuning::for_device`]).
    pub tuning: Option<MergeTuning>,
}

impl MergeSortDesc {
    /// An ascending sort of up to `max_count` elements.
    pub fn new(key_type: KeyType, value_type: ValueType, max_count: u64) -> Self {
        MergeSortDesc {
            key_type,
            value_type,
            descending: false,
            max_count,
            max_runs: 0,
            tuning: None,
        }
    }
}

/// The buffers of one recorded merge sort or segmented merge. The result is in `keys`/`values`
/// or in the alternates, as the record call returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeSortArgs {
    /// The keys (segmented merge: the runs, each sorted in the plan's order).
    pub keys: BufferRange,
    /// The values (`None` exactly when the plan's value type is [`ValueType::None`]).
    pub values: Option<BufferRange>,
    /// Alternate keys, as large as the keys.
    pub keys_alt: BufferRange,
    /// Alternate values (`None` exactly when `values` is).
    pub values_alt: Option<BufferRange>,
    /// Scratch as [`MergeSortPlan::memory_requirements`] asks.
    pub scratch: BufferRange,
    /// Elements of the array.
    pub count: u64,
}

/// The buffers of one recorded segmented merge ([`MergeSortPlan::record_segmented`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentedMergeArgs {
    /// The array of runs, each sorted in the plan's order, with its alternates and scratch.
    pub array: MergeSortArgs,
    /// `runs + 1` u32 run starts, non-decreasing from 0 to the count.
    pub offsets: BufferRange,
    /// The number of runs (at most the plan's `max_runs`).
    pub runs: u64,
}

/// A merge sort / segmented merge planned for one context.
#[derive(Clone, Debug)]
pub struct MergeSortPlan {
    ctx: Context,
    desc: MergeSortDesc,
    tuning: MergeTuning,
    scan: Option<ScanPlan>,
    starts_offset: u64,
    scan_offset: u64,
    requirements: MemoryRequirements,
}

impl Context {
    /// Plans a merge sort (and, with `max_runs`, segmented merges).
    pub fn merge_sort_plan(&self, desc: &MergeSortDesc) -> Result<MergeSortPlan> {
        check_max("merge sort: max_count", desc.max_count)?;
        if desc.max_runs > 1 << 31 {
            return Err(Error::invalid(format!(
                "merge sort: max_runs {} exceeds 2^31",
                desc.max_runs
            )));
        }
        let tuning = desc
            .tuning
            .unwrap_or_else(|| MergeTuning::for_device(self, desc.key_type));
        tuning.check(self, desc.key_type, desc.value_type)?;
        let tile = tuning.tile();
        // Tile-table entries of the largest round: uniform rounds take
        // ceil(n / 2w) * 2w / tile tiles (w < n), segmented rounds ceil(n / tile) + pairs.
        let n = desc.max_count;
        let mut table = n.div_ceil(tile) + 1;
        let mut w = tile;
        while w < n {
            table = table.max(n.div_ceil(2 * w) * (2 * w / tile));
            w *= 2;
        }
        let max_pairs = desc.max_runs.div_ceil(2);
        table = table.max(n.div_ceil(tile) + max_pairs + 1);
        let starts_offset = (table * TILE_ENTRY_BYTES).next_multiple_of(ALIGNMENT);
        let (scan, scan_offset, scratch_size) = if desc.max_runs > 1 {
            let scan = self.scan_plan(&ScanDesc {
                op: ScanOp::Exclusive,
                path: ScanPath::ReduceThenScan,
                max_count: max_pairs + 1,
                tuning: None,
                keep_scratch_zeroed: false,
                ..Default::default()
            })?;
            let scan_offset = starts_offset + ((max_pairs + 1) * 4).next_multiple_of(ALIGNMENT);
            let size = scan_offset + scan.memory_requirements().scratch.size.max(ALIGNMENT);
            (Some(scan), scan_offset, size)
        } else {
            (None, starts_offset, starts_offset)
        };
        let spec = specialization(&tuning, desc.key_type, desc.descending);
        self.prepare_kernels(&[
            (
                shader(MergeKernel::Partition, desc.key_type, ValueType::None)?,
                spec,
            ),
            (
                shader(MergeKernel::Merge, desc.key_type, desc.value_type)?,
                merge_spec(spec, desc.value_type),
            ),
            (
                shader(MergeKernel::BlockSort, desc.key_type, desc.value_type)?,
                spec,
            ),
        ])?;
        Ok(MergeSortPlan {
            ctx: self.clone(),
            desc: *desc,
            tuning,
            scan,
            starts_offset,
            scan_offset,
            requirements: MemoryRequirements::scratch(scratch_size.max(ALIGNMENT), ALIGNMENT),
        })
    }
}

/// Kernels and buffers of one recorded merge sort.
struct SortPasses<'a> {
    ctx: &'a Context,
    cmd: vk::CommandBuffer,
    partition: Kernel,
    merge: Kernel,
    push: MergePush,
    /// (keys, values) addresses of the two buffers; `current` holds the data.
    buffers: [(u64, u64); 2],
    current: usize,
    workgroup_size: u64,
    value_type: ValueType,
}

impl SortPasses<'_> {
    /// One merge round: partition into the tile table (`tiles` entries), merge into the other
    /// buffer.
    unsafe fn round(&mut self, mode: u32, width: u32, tiles: u64) -> Result<()> {
        let (keys, values) = self.buffers[self.current];
        let (out_keys, out_values) = self.buffers[1 - self.current];
        self.push.a_keys = keys;
        self.push.b_keys = keys;
        self.push.a_values = values;
        self.push.b_values = values;
        self.push.out_keys = out_keys;
        self.push.out_values = out_values;
        self.push.mode = mode;
        self.push.width = width;
        self.push.max_tiles = tiles as u32;
        self.ctx.compute_to_compute(self.cmd);
        self.ctx.dispatch(
            self.cmd,
            self.partition,
            &self.push,
            groups(2 * tiles, self.workgroup_size)?,
        );
        self.ctx.compute_to_compute(self.cmd);
        self.ctx.dispatch(
            self.cmd,
            self.merge,
            &self.push,
            merge_groups(tiles, self.value_type)?,
        );
        self.current = 1 - self.current;
        Ok(())
    }
}

impl MergeSortPlan {
    /// Scratch every record call needs.
    pub fn memory_requirements(&self) -> MemoryRequirements {
        self.requirements
    }

    /// Elements per block of the first step (and per merge tile).
    pub fn tile_size(&self) -> u64 {
        self.tuning.tile()
    }

    /// The description the plan was made from.
    pub fn desc(&self) -> &MergeSortDesc {
        &self.desc
    }

    /// Merge rounds after the block sort for `count` elements.
    pub fn rounds(&self, count: u64) -> u32 {
        let mut rounds = 0;
        let mut w = self.tile_size();
        while w < count {
            rounds += 1;
            w *= 2;
        }
        rounds
    }

    fn check_args(&self, ctx: &Context, args: &MergeSortArgs) -> Result<()> {
        let d = &self.desc;
        if args.count > d.max_count {
            return Err(Error::invalid(format!(
                "merge sort: count {} exceeds the plan's max_count {}",
                args.count, d.max_count
            )));
        }
        let has_values = d.value_type != ValueType::None;
        if args.values.is_some() != has_values || args.values_alt.is_some() != has_values {
            return Err(Error::invalid(if has_values {
                "merge sort: the plan sorts pairs: values and values_alt are required"
            } else {
                "merge sort: the plan sorts keys only: values and values_alt must be None"
            }));
        }
        let kb = d.key_type.bytes();
        let vb = d.value_type.bytes();
        args.keys.check(ctx, "merge sort keys", args.count * kb, kb)?;
        args.keys_alt
            .check(ctx, "merge sort keys_alt", args.count * kb, kb)?;
        if let (Some(v), Some(va)) = (args.values, args.values_alt) {
            v.check(ctx, "merge sort values", args.count * vb, vb)?;
            va.check(ctx, "merge sort values_alt", args.count * vb, vb)?;
        }
        args.scratch.check(
            ctx,
            "merge sort scratch",
            self.requirements.scratch.size,
            ALIGNMENT,
        )?;
        let mut all = vec![
            ("keys", args.keys),
            ("keys_alt", args.keys_alt),
            ("scratch", args.scratch),
        ];
        if let (Some(v), Some(va)) = (args.values, args.values_alt) {
            all.push(("values", v));
            all.push(("values_alt", va));
        }
        check_overlaps("merge sort", &all, &all)
    }

    fn passes<'a>(
        &self,
        ctx: &'a Context,
        cmd: vk::CommandBuffer,
        args: &MergeSortArgs,
    ) -> Result<SortPasses<'a>> {
        let spec = specialization(&self.tuning, self.desc.key_type, self.desc.descending);
        Ok(SortPasses {
            ctx,
            cmd,
            partition: ctx.kernel(
                shader(MergeKernel::Partition, self.desc.key_type, ValueType::None)?,
                spec,
            )?,
            merge: ctx.kernel(
                shader(MergeKernel::Merge, self.desc.key_type, self.desc.value_type)?,
                merge_spec(spec, self.desc.value_type),
            )?,
            push: MergePush {
                tiles_addr: ctx.address_of(&args.scratch),
                a_count: args.count as u32,
                a_max: self.desc.max_count as u32,
                ..Default::default()
            },
            buffers: [
                (ctx.address_of(&args.keys), addr(ctx, args.values)),
                (ctx.address_of(&args.keys_alt), addr(ctx, args.values_alt)),
            ],
            current: 0,
            workgroup_size: self.tuning.workgroup_size as u64,
            value_type: self.desc.value_type,
        })
    }

    fn location(current: usize) -> SortResult {
        if current == 0 {
            SortResult::InPlace
        } else {
            SortResult::Alternate
        }
    }

    /// Records a stable sort of the whole array (see the module's synchronization contract)
    /// and says where the result will be. Arguments are checked first; on error nothing is
    /// recorded.
    ///
    /// # Safety
    /// As [`MergePlan::record`](super::MergePlan::record).
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &MergeSortArgs) -> Result<SortResult> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("merge sort: the command buffer is null"));
        }
        self.check_args(ctx, args)?;
        let n = args.count;
        if n == 0 {
            return Ok(SortResult::InPlace);
        }
        let mut passes = self.passes(ctx, cmd, args)?;
        let spec = specialization(&self.tuning, self.desc.key_type, self.desc.descending);
        let blocksort = ctx.kernel(
            shader(MergeKernel::BlockSort, self.desc.key_type, self.desc.value_type)?,
            spec,
        )?;
        let tile = self.tile_size();
        let (keys, values) = passes.buffers[0];
        let mut push = passes.push;
        push.a_keys = keys;
        push.out_keys = keys;
        push.a_values = values;
        push.out_values = values;
        ctx.dispatch(cmd, blocksort, &push, groups(n, tile)?);
        let mut w = tile;
        while w < n {
            let tiles = n.div_ceil(2 * w) * (2 * w / tile);
            passes.round(MODE_UNIFORM, w as u32, tiles)?;
            w *= 2;
        }
        Ok(Self::location(passes.current))
    }

    /// Records a stable merge of the `runs` sorted runs of the array, run r covering
    /// `[offsets[r], offsets[r + 1])` (`offsets`: `runs + 1` u32 in a GPU buffer, non-decreasing,
    /// from 0 to the count; other offsets give an unspecified result inside the buffers),
    /// pairwise in ceil(log2(runs)) rounds; equal keys keep the order of their runs. Says
    /// where the result will be. See the module's synchronization contract (the offsets are
    /// an input).
    ///
    /// # Safety
    /// As [`MergePlan::record`](super::MergePlan::record).
    pub unsafe fn record_segmented(
        &self,
        cmd: vk::CommandBuffer,
        args: &SegmentedMergeArgs,
    ) -> Result<SortResult> {
        let ctx = &self.ctx;
        let SegmentedMergeArgs {
            array: ref args,
            ref offsets,
            runs,
        } = *args;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("segmented merge: the command buffer is null"));
        }
        self.check_args(ctx, args)?;
        if runs > self.desc.max_runs {
            return Err(Error::invalid(format!(
                "segmented merge: {runs} runs exceed the plan's max_runs {}",
                self.desc.max_runs
            )));
        }
        offsets.check(ctx, "segmented merge offsets", (runs + 1) * 4, 4)?;
        for (name, r) in [
            ("keys", Some(args.keys)),
            ("keys_alt", Some(args.keys_alt)),
            ("values", args.values),
            ("values_alt", args.values_alt),
            ("scratch", Some(args.scratch)),
        ] {
            if r.is_some_and(|r| r.overlaps(offsets)) {
                return Err(Error::invalid(format!(
                    "segmented merge: the offsets and {name} ranges overlap"
                )));
            }
        }
        let n = args.count;
        if n == 0 || runs <= 1 {
            return Ok(SortResult::InPlace);
        }
        let scan = self
            .scan
            .as_ref()
            .ok_or_else(|| Error::Internal("segmented merge: plan without scan".into()))?;
        let mut passes = self.passes(ctx, cmd, args)?;
        let count_tiles = passes.partition;
        let starts = args
            .scratch
            .part(self.starts_offset, self.scan_offset - self.starts_offset);
        let scan_scratch = args.scratch.part(
            self.scan_offset,
            scan.memory_requirements().scratch.size.max(ALIGNMENT),
        );
        passes.push.aux_addr = ctx.address_of(offsets);
        passes.push.aux2_addr = ctx.address_of(&starts);
        passes.push.runs = runs as u32;
        let tile = self.tile_size();
        let mut per_half = 1u64;
        let mut first = true;
        while per_half < runs {
            let pairs = runs.div_ceil(2 * per_half);
            let mut push = passes.push;
            push.mode = MODE_COUNT_TILES;
            push.width = per_half as u32;
            push.max_tiles = (pairs + 1) as u32;
            if !first {
                ctx.compute_to_compute(cmd); // the previous round's partition read the starts
            }
            first = false;
            ctx.dispatch(
                cmd,
                count_tiles,
                &push,
                groups(pairs + 1, self.tuning.workgroup_size as u64)?,
            );
            ctx.compute_to_compute(cmd);
            scan.record(
                cmd,
                &ScanArgs {
                    input: starts.part(0, (pairs + 1) * 4),
                    output: starts.part(0, (pairs + 1) * 4),
                    scratch: scan_scratch,
                    count: ElementCount::Direct(pairs + 1),
                },
            )?;
            passes.round(MODE_OFFSETS, per_half as u32, n.div_ceil(tile) + pairs)?;
            per_half *= 2;
        }
        Ok(Self::location(passes.current))
    }
}
