//! The record layer: the checks of a call's buffers and the passes of the plan's path.

use super::plan::{counts_bytes, SelectPush, Shaders, SCRATCH_ALIGNMENT, SCRATCH_STATUS};
use super::{SelectArgs, SelectMode, SelectPlan};
use crate::core::buffer::{BufferRange, ElementCount};
use crate::core::lookback_state::{LookbackScratch, KEPT_ZEROED_MAX_TILES};
use crate::core::types::ValueType;
use crate::error::{Error, Result};
use crate::scan::ScanArgs;
use ash::vk;

impl SelectPlan {
    /// Records the select of `args.count` elements (see the module docs for the
    /// synchronization contract): the kept keys (and values) of `keys_in` (`values_in`) to the
    /// start of `keys_out` (`values_out`) in their order, their number to `selected_count`.
    /// Outputs and scratch must overlap no other range of the call (no in-place select here:
    /// the host calls copy). Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &SelectArgs) -> Result<()> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("select: the command buffer is null"));
        }
        let (direct, n) = args.count.resolve(ctx, "select: count", self.desc.max_count)?;
        self.check_ranges(args, n)?;
        let address = |r: Option<BufferRange>| r.map_or(0, |r| ctx.address_of(&r));
        let tile = self.tuning.workgroup_size as u64 * self.tuning.items_per_invocation as u64;
        // Tiles of the call: of the count when direct, of the plan's maximum when indirect
        // (the kernels skip tiles past the count read on the GPU); at least one workgroup,
        // which writes the count kept of no elements.
        let tiles = match direct {
            Some(d) => d.div_ceil(tile),
            None => self.max_tiles,
        };
        let push = SelectPush {
            keys_in: ctx.address_of(&args.keys_in),
            values_in: address(args.values_in),
            flags_addr: address(args.flags),
            keys_out: ctx.address_of(&args.keys_out),
            values_out: address(args.values_out),
            kept_addr: ctx.address_of(&args.selected_count),
            aux_addr: ctx.address_of(&args.scratch),
            count_addr: match args.count {
                ElementCount::Indirect(range) => ctx.address_of(&range),
                ElementCount::Direct(_) => 0,
            },
            params: args.params,
            count: direct.unwrap_or(0) as u32,
            max_count: self.desc.max_count as u32,
        };
        match self.shaders {
            Shaders::Lookback(shader) => {
                let state = args.scratch.part(0, SCRATCH_STATUS + tiles * 8);
                let scratch = LookbackScratch::of_plan(self.desc.keep_scratch_zeroed);
                let spec = self
                    .spec
                    .self_cleaning(scratch.self_cleaning(tiles, KEPT_ZEROED_MAX_TILES));
                let kernel = ctx.kernel(shader, spec)?;
                // SAFETY: `cmd` is recording (documented); the ranges were checked.
                unsafe {
                    ctx.record_lookback(cmd, scratch, &state, tiles, KEPT_ZEROED_MAX_TILES, || {
                        ctx.dispatch(cmd, kernel, &push, tiles.max(1) as u32)
                    })?;
                }
            }
            Shaders::CountScan { count, scatter } => {
                let count_kernel = ctx.kernel(count, self.spec)?;
                let scatter_kernel = ctx.kernel(scatter, self.spec)?;
                let scan = self
                    .scan
                    .as_ref()
                    .ok_or_else(|| Error::Internal("select: count-scan plan without its scan".into()))?;
                let counts = args.scratch.part(0, tiles * 4);
                let at = counts_bytes(self.max_tiles);
                let scan_args = ScanArgs {
                    input: counts,
                    output: counts,
                    scratch: args.scratch.part(at, args.scratch.size - at),
                    count: ElementCount::Direct(tiles),
                };
                // SAFETY: as above; the scan checks its own ranges.
                unsafe {
                    if tiles > 0 {
                        ctx.dispatch(cmd, count_kernel, &push, tiles as u32);
                        ctx.compute_to_compute(cmd);
                        scan.record(cmd, &scan_args)?;
                        ctx.compute_to_compute(cmd);
                    }
                    ctx.dispatch(cmd, scatter_kernel, &push, tiles.max(1) as u32);
                }
            }
        }
        Ok(())
    }

    /// Checks every range of the call for `n` elements (the count, or the plan's maximum for
    /// an indirect count).
    fn check_ranges(&self, args: &SelectArgs, n: u64) -> Result<()> {
        let ctx = &self.ctx;
        let kb = self.desc.key_type.bytes();
        let vb = self.desc.value_type.bytes();
        args.keys_in.check(ctx, "select keys_in", n * kb, kb)?;
        args.keys_out.check(ctx, "select keys_out", n * kb, kb)?;
        let has_values = self.desc.value_type != ValueType::None;
        match (has_values, args.values_in, args.values_out) {
            (true, Some(vin), Some(vout)) => {
                vin.check(ctx, "select values_in", n * vb, vb)?;
                vout.check(ctx, "select values_out", n * vb, vb)?;
            }
            (false, None, None) => {}
            _ => {
                return Err(Error::invalid(
                    "select: values_in and values_out are given exactly when the plan has a value type",
                ))
            }
        }
        match (&self.desc.mode, args.flags) {
            (SelectMode::Flagged, Some(flags)) => {
                flags.check(ctx, "select flags", n.next_multiple_of(4), 4)?
            }
            (SelectMode::Flagged, None) => return Err(Error::invalid("select: FLAGGED needs flags")),
            (_, Some(_)) => return Err(Error::invalid("select: flags are only for FLAGGED")),
            (_, None) => {}
        }
        args.selected_count.check(ctx, "select selected_count", 4, 4)?;
        args.scratch.check(
            ctx,
            "select scratch",
            self.requirements.scratch.size,
            SCRATCH_ALIGNMENT,
        )?;
        let part = |r: BufferRange, bytes: u64| r.part(0, bytes);
        let mut reads = vec![part(args.keys_in, n * kb)];
        reads.extend(args.values_in.map(|r| part(r, n * vb)));
        reads.extend(args.flags.map(|r| part(r, n.next_multiple_of(4))));
        if let ElementCount::Indirect(range) = args.count {
            reads.push(range.part(0, 4));
        }
        let mut writes = vec![part(args.keys_out, n * kb)];
        writes.extend(args.values_out.map(|r| part(r, n * vb)));
        writes.push(part(args.selected_count, 4));
        writes.push(part(args.scratch, self.requirements.scratch.size));
        for (i, w) in writes.iter().enumerate() {
            let clash = reads.iter().any(|r| r.overlaps(w))
                || writes.iter().enumerate().any(|(j, o)| j != i && o.overlaps(w));
            if clash {
                return Err(Error::invalid(
                    "select: an output, the count kept or the scratch overlaps another range of the call",
                ));
            }
        }
        Ok(())
    }
}
