//! Recording a multisplit: the push constants, the argument checks and the passes of each
//! path.

use super::{
    BucketFn, SplitArgs, SplitPath, SplitPlan, SplitterIndex, ValueType, ALIGNMENT, SPLIT_FLAG_TOTAL_STATUS,
};
use crate::core::buffer::ElementCount;
use crate::core::pipelines::Kernel;

use crate::core::spirv::push_constants;
use crate::error::{Error, Result};
use crate::scan::ScanArgs;
use crate::Context;
use ash::vk;

push_constants! {
    /// Push constants of every multisplit pass (glsl/split/split_common.glsl, block `SplitPush`).
    pub(crate) struct SplitPush {
        pub(super) keys_in: u64,
        pub(super) keys_out: u64,
        pub(super) values_in: u64,
        pub(super) values_out: u64,
        pub(super) scratch: u64,
        pub(super) count_addr: u64,
        pub(super) aux: u64,
        pub(super) offsets: u64,
        pub(super) matrix: u64,
        pub(super) count: u32,
        pub(super) max_count: u32,
        pub(super) bucket_count: u32,
        pub(super) bit_offset: u32,
        pub(super) columns: u32,
        pub(super) column_steps: u32,
        pub(super) id_bits: u32,
        pub(super) flags: u32,
        pub(super) clear_words: u32,
        pub(super) counts_gap: u32,
        pub(super) params: [u32; 4],
    }
}

impl SplitPlan {
    /// Checks the call's buffers against the plan: the count (direct, or `None` for an
    /// indirect one) and the most elements it may be.
    fn check_args(&self, ctx: &Context, args: &SplitArgs) -> Result<(Option<u64>, u64)> {
        let max = self.desc.max_count;
        let (direct, elements) = args.count.resolve(ctx, "multisplit: count", max)?;
        let has_values = self.desc.value_type != ValueType::None;
        if args.values.is_some() != has_values || args.values_out.is_some() != has_values {
            return Err(Error::invalid(if has_values {
                "multisplit: the plan splits pairs: values and values_out are required"
            } else {
                "multisplit: the plan splits keys only: values and values_out must be None"
            }));
        }
        let key_size = self.desc.key_type.bytes();
        args.keys
            .check(ctx, "multisplit keys", elements * key_size, key_size)?;
        args.keys_out
            .check(ctx, "multisplit keys_out", elements * key_size, key_size)?;
        let mut ranges = vec![("keys", args.keys, false), ("keys_out", args.keys_out, true)];
        if let (Some(values), Some(values_out)) = (args.values, args.values_out) {
            let size = self.desc.value_type.bytes();
            values.check(ctx, "multisplit values", elements * size, size)?;
            values_out.check(ctx, "multisplit values_out", elements * size, size)?;
            ranges.push(("values", values, false));
            ranges.push(("values_out", values_out, true));
        }
        match (self.desc.bucket_fn, args.splitters, args.bucket_ids) {
            (BucketFn::Splitters, splitters, None) if splitters.is_some() || self.desc.bucket_count == 1 => {
                let bytes = (self.desc.bucket_count as u64 - 1) * key_size;
                if let (Some(splitters), true) = (splitters, bytes > 0) {
                    splitters.check(ctx, "multisplit splitters", bytes, key_size)?;
                    ranges.push(("splitters", splitters, false));
                }
            }
            (BucketFn::Splitters, _, _) => {
                return Err(Error::invalid(
                    "multisplit: SPLITTERS needs the splitters range and no bucket_ids",
                ))
            }
            (BucketFn::Ids, None, Some(ids)) => {
                ids.check(ctx, "multisplit bucket_ids", elements * 4, 4)?;
                ranges.push(("bucket_ids", ids, false));
            }
            (BucketFn::Ids, _, _) => {
                return Err(Error::invalid(
                    "multisplit: IDS needs the bucket_ids range and no splitters",
                ))
            }
            (_, None, None) => {}
            _ => {
                return Err(Error::invalid(
                    "multisplit: splitters and bucket_ids are only for SPLITTERS and IDS",
                ))
            }
        }
        args.offsets
            .check(ctx, "multisplit offsets", self.requirements.offsets.size, 4)?;
        args.scratch.check(
            ctx,
            "multisplit scratch",
            self.requirements.scratch.size,
            ALIGNMENT,
        )?;
        ranges.push(("offsets", args.offsets, true));
        ranges.push(("scratch", args.scratch, true));
        if let ElementCount::Indirect(count) = args.count {
            ranges.push(("count", count, false));
        }
        // Anything written must overlap nothing else (inputs may share a buffer).
        for (i, (a_name, a, a_written)) in ranges.iter().enumerate() {
            for (b_name, b, b_written) in &ranges[i + 1..] {
                if (*a_written || *b_written) && a.size > 0 && b.size > 0 && a.overlaps(b) {
                    return Err(Error::invalid(format!(
                        "multisplit: the {a_name} and {b_name} ranges overlap"
                    )));
                }
            }
        }
        Ok((direct, elements))
    }

    /// Records the multisplit into `cmd` (see the module's synchronization contract).
    /// Arguments are checked first; on error nothing is recorded.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &SplitArgs) -> Result<()> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("multisplit: the command buffer is null"));
        }
        let (direct, elements) = self.check_args(ctx, args)?;
        let small = match self.desc.path {
            SplitPath::Small => true,
            SplitPath::Auto => direct.is_some_and(|n| n <= self.small_limit),
            _ => false,
        };
        let column_length = if small {
            self.lane_column_length()
        } else {
            self.column_length()
        };
        let columns = elements.div_ceil(column_length).max(1);
        let m = self.desc.bucket_count as u64;
        let spec = self.pass_specialization();
        let offsets_kernel = ctx.kernel(super::plan::offsets_shader(), spec)?;
        let offset_groups = (m + 1).div_ceil(self.workgroup_size as u64) as u32;
        let push = self.base_push(ctx, args, direct, columns);
        // SPLITTERS: the index first; every pass then searches it (aux).
        let push = match self.splitter_index {
            Some(index) if push.aux != 0 => unsafe { self.record_splitter_index(cmd, push, index)? },
            _ => push,
        };
        if small {
            let kernel = ctx.kernel(self.small, spec)?;
            unsafe { ctx.dispatch(cmd, kernel, &push, 1) };
            return Ok(());
        }
        if let Some(onesweep) = &self.onesweep {
            let starts = match onesweep.bucket_starts() {
                Some(shader) => Some(ctx.kernel(shader, spec)?),
                None => None,
            };
            let offsets = (offsets_kernel, offset_groups);
            return unsafe { onesweep.record(ctx, cmd, args, push, offsets, starts) };
        }
        unsafe { self.record_columns(cmd, args, push, columns, (offsets_kernel, offset_groups)) }
    }

    /// The push constants every pass starts from.
    fn base_push(&self, ctx: &Context, args: &SplitArgs, direct: Option<u64>, columns: u64) -> SplitPush {
        SplitPush {
            keys_in: ctx.address_of(&args.keys),
            keys_out: ctx.address_of(&args.keys_out),
            values_in: args.values.map_or(0, |r| ctx.address_of(&r)),
            values_out: args.values_out.map_or(0, |r| ctx.address_of(&r)),
            scratch: ctx.address_of(&args.scratch),
            count_addr: match args.count {
                ElementCount::Direct(_) => 0,
                ElementCount::Indirect(range) => ctx.address_of(&range),
            },
            aux: match (args.splitters, args.bucket_ids) {
                (Some(r), _) if r.size > 0 => ctx.address_of(&r),
                (_, Some(r)) if r.size > 0 => ctx.address_of(&r),
                _ => 0,
            },
            offsets: ctx.address_of(&args.offsets),
            matrix: 0,
            count: direct.unwrap_or(0) as u32,
            max_count: self.desc.max_count as u32,
            bucket_count: self.desc.bucket_count,
            bit_offset: self.desc.bit_offset,
            columns: columns as u32,
            column_steps: self.column_steps,
            id_bits: self.id_bits(),
            flags: 0,
            clear_words: 0,
            counts_gap: 0,
            params: args.params,
        }
    }

    /// Records the splitter index's pass; returns `push` with the index as the bucket
    /// function's data.
    ///
    /// # Safety
    /// As [`SplitPlan::record`].
    unsafe fn record_splitter_index(
        &self,
        cmd: vk::CommandBuffer,
        push: SplitPush,
        index: SplitterIndex,
    ) -> Result<SplitPush> {
        let ctx = &self.ctx;
        let kernel = ctx.kernel(self.splitter_index_shader()?, self.pass_specialization())?;
        let index_push = SplitPush {
            keys_in: push.aux,
            aux: push.scratch + index.offset,
            bit_offset: index.table_bits,
            ..push
        };
        let groups = index
            .invocations(self.desc.bucket_count)
            .div_ceil(self.workgroup_size as u64) as u32;
        unsafe {
            ctx.dispatch(cmd, kernel, &index_push, groups);
            ctx.compute_to_compute(cmd);
        }
        Ok(SplitPush {
            aux: index_push.aux,
            ..push
        })
    }

    /// Records the count, scan, offsets and scatter passes of the tile and column paths over
    /// `columns` columns (`offsets`: the offsets kernel and its workgroups).
    ///
    /// # Safety
    /// As [`SplitPlan::record`].
    unsafe fn record_columns(
        &self,
        cmd: vk::CommandBuffer,
        args: &SplitArgs,
        push: SplitPush,
        columns: u64,
        offsets: (Kernel, u32),
    ) -> Result<()> {
        let ctx = &self.ctx;
        let (offsets_kernel, offset_groups) = offsets;
        let matrix_entries = self.desc.bucket_count as u64 * columns;
        let passes = self
            .columns
            .as_ref()
            .ok_or_else(|| Error::Internal("multisplit: plan without passes".into()))?;
        let histogram = ctx.kernel(passes.histogram, self.count_specialization())?;
        let scatter = ctx.kernel(passes.scatter, self.specialization())?;
        let layout = passes.layout(self.max_columns * self.desc.bucket_count as u64);
        // One entry more is scanned: the total counted (the tile paths' SPLIT_FLAG_TOTAL_STATUS;
        // every run of the scatter ends where the next entry begins, the last at the total).
        let tiles = self.tile.is_some();
        let scanned_entries = matrix_entries + 1;
        let counts = args.scratch.part(layout.counts, scanned_entries * 4);
        let scanned = args.scratch.part(layout.scanned, scanned_entries * 4);
        let scan_args = ScanArgs {
            input: counts,
            output: scanned,
            scratch: args.scratch.part(
                layout.scan_scratch,
                passes.scan.memory_requirements().scratch.size,
            ),
            count: ElementCount::Direct(scanned_entries),
        };
        let scan_clear = passes
            .out_of_place
            .then(|| passes.scan.precleared_bytes(scanned_entries))
            .flatten();
        let wg = self.workgroup_size as u64;
        let column_groups = if self.tile.is_some() {
            columns as u32 // one workgroup per tile
        } else {
            (columns * self.group_lanes as u64).div_ceil(wg) as u32
        };
        let count_groups = column_groups.div_ceil(self.count_tiles_per_group());
        let push = SplitPush {
            flags: if tiles { SPLIT_FLAG_TOTAL_STATUS } else { 0 },
            ..push
        };
        // The tile count writes every matrix entry and the extra last one, and zeroes the
        // scan's look-back state where its call reads it zeroed (laid out after the status
        // word): nothing is cleared before it (one dispatch and one barrier less;
        // docs/tuning/split.md#count-zeroes-state). The column histogram adds into a matrix cleared with the status word and the scan's
        // state.
        let count_push = SplitPush {
            matrix: ctx.address_of(&counts),
            clear_words: scan_clear.map_or(0, |bytes| (bytes / 4) as u32),
            ..push
        };
        let push = SplitPush {
            matrix: ctx.address_of(&scanned),
            // (The column scatter finds the count matrix this far before the scanned one.)
            counts_gap: ((layout.scanned - layout.counts) / 16) as u32,
            ..push
        };
        unsafe {
            if !tiles {
                // (The count matrix with its extra last entry, zero: the total's.)
                let cleared = layout.counts + scanned_entries * 4;
                ctx.record_compute_fill(cmd, &args.scratch, (cleared / 4) as u32, 0)?;
                ctx.compute_to_compute(cmd);
            }
            ctx.dispatch(cmd, histogram, &count_push, count_groups);
            ctx.compute_to_compute(cmd);
            if scan_clear.is_some() {
                passes.scan.record_precleared(ctx, cmd, &scan_args)?;
            } else {
                passes.scan.record(cmd, &scan_args)?;
            }
            ctx.compute_to_compute(cmd);
            // (aux 0: the offsets come from the matrix; see glsl/split/offsets.comp.)
            ctx.dispatch(cmd, offsets_kernel, &SplitPush { aux: 0, ..push }, offset_groups);
            // The scatter only reads the scanned matrix (the column scatter lowers the count
            // matrix's entries): it runs beside the offsets pass, with no barrier between them.
            // (docs/tuning/split.md#offsets-beside-scatter)
            // (Tile paths: several tiles a workgroup; the column path: 1.)
            let scatter_groups = column_groups.div_ceil(self.scatter_tiles_per_group());
            ctx.dispatch(cmd, scatter, &push, scatter_groups);
        }
        Ok(())
    }
}
