//! Set operations on two sorted runs: their description, plan and recording (the partition on
//! the balanced path, then the look-back pass or count, scan and write).

use super::kernels::{
    count_addr, groups, partition_spec, record_check, setop_lookback_spec, setop_spec, shader,
    specialization, two_run_partition_groups, MergePush, MergeSpec, MODE_TWO_BALANCED,
};
use super::tuning::{
    auto_set_op_lookback, default_lookback_spins, partition_lanes, setop_lookback_tiles, MergeTuning,
};
use super::{check_overlaps, ALIGNMENT, MAX_RUN, TILE_ENTRY_BYTES};
use crate::core::buffer::{BufferRange, ElementCount, MemoryRequirements};
use crate::core::shaders::MergeKernel;
use crate::error::{Error, Result};
use crate::scan::{ScanArgs, ScanDesc, ScanOp, ScanPath, ScanPlan};
use crate::sort::{KeyType, ValueType};
use crate::{Context, SetOp};
use ash::vk;

/// Bytes before the look-back status words of a set operation (the fallback counter; see
/// glsl/common/lookback.glsl).
const LOOKBACK_HEADER: u64 = 16;

/// Which set-operation kernels to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum SetOpPath {
    /// Look-back where the device profile allows inter-workgroup waiting, else count, scan,
    /// write.
    #[default]
    Auto,
    /// One pass after the partition: each tile finds its output offset by decoupled look-back
    /// (bounded waits with a fallback that walks a silent tile itself; needs 64-bit buffer
    /// atomics).
    Lookback,
    /// Count the kept outputs per tile, scan the counts, merge again and write: no workgroup
    /// waits on another.
    CountScanWrite,
}

/// What to plan a set operation on two sorted runs for (ascending keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetOpDesc {
    /// Key type of both runs and the output.
    pub key_type: KeyType,
    /// The operation.
    pub op: SetOp,
    /// The largest count of A any call takes.
    pub max_a: u64,
    /// The largest count of B any call takes (max_a + max_b at most 2^32 - 1).
    pub max_b: u64,
    /// Which kernels to record.
    pub path: SetOpPath,
    /// Kernel tuning (`None`: [`MergeTuning::for_set_op`]).
    pub tuning: Option<MergeTuning>,
}

impl SetOpDesc {
    /// `op` on up to `max_a` and `max_b` keys of `key_type`, default path and tuning.
    pub fn new(key_type: KeyType, op: SetOp, max_a: u64, max_b: u64) -> Self {
        SetOpDesc {
            key_type,
            op,
            max_a,
            max_b,
            path: SetOpPath::Auto,
            tuning: None,
        }
    }
}

/// The buffers of one recorded set operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetOpArgs {
    /// Run A (ascending).
    pub a: BufferRange,
    /// Run B (ascending).
    pub b: BufferRange,
    /// Output keys: room for count(A) + count(B) keys (the maxima with indirect counts), the
    /// most any operation writes.
    pub out: BufferRange,
    /// A u32 that receives the number of output keys.
    pub out_count: BufferRange,
    /// Scratch as [`SetOpPlan::memory_requirements`] asks.
    pub scratch: BufferRange,
    /// Elements of A.
    pub a_count: ElementCount,
    /// Elements of B.
    pub b_count: ElementCount,
}

/// A set operation planned for one context.
#[derive(Clone, Debug)]
pub struct SetOpPlan {
    ctx: Context,
    desc: SetOpDesc,
    path: SetOpPath,
    spin_limit: u32,
    tuning: MergeTuning,
    max_tiles: u64,
    scan: ScanPlan,
    counts_offset: u64,
    scan_offset: u64,
    requirements: MemoryRequirements,
}

impl Context {
    /// Plans a set operation on sorted runs.
    pub fn set_op_plan(&self, desc: &SetOpDesc) -> Result<SetOpPlan> {
        if desc.max_a.saturating_add(desc.max_b) > MAX_RUN {
            return Err(Error::invalid(format!(
                "set operation: max_a + max_b = {} exceeds {MAX_RUN}",
                desc.max_a.saturating_add(desc.max_b)
            )));
        }
        let tuning = desc
            .tuning
            .unwrap_or_else(|| MergeTuning::for_set_op(self, desc.key_type));
        tuning.check(self, desc.key_type, ValueType::None)?;
        let max_tiles = (desc.max_a + desc.max_b).div_ceil(tuning.tile()).max(1);
        let scan = self.scan_plan(&ScanDesc {
            op: ScanOp::Exclusive,
            path: ScanPath::ReduceThenScan,
            max_count: max_tiles + 1,
            tuning: None,
            keep_scratch_zeroed: false,
            ..Default::default()
        })?;
        let path = match desc.path {
            SetOpPath::Auto if auto_set_op_lookback(self) => SetOpPath::Lookback,
            SetOpPath::Auto => SetOpPath::CountScanWrite,
            SetOpPath::Lookback if !self.profile.int64_atomics => {
                return Err(Error::unsupported(format!(
                    "set operation: the look-back path needs shaderBufferInt64Atomics, which {} lacks",
                    self.profile.device_name
                )))
            }
            p => p,
        };
        let counts_offset = ((max_tiles + 1) * TILE_ENTRY_BYTES).next_multiple_of(ALIGNMENT);
        let (scan_offset, scratch_size) = if path == SetOpPath::Lookback {
            // The look-back header (16 bytes) and one status word per tile.
            (counts_offset, counts_offset + LOOKBACK_HEADER + max_tiles * 8)
        } else {
            let scan_offset = counts_offset + ((max_tiles + 1) * 4).next_multiple_of(ALIGNMENT);
            (
                scan_offset,
                scan_offset + scan.memory_requirements().scratch.size.max(ALIGNMENT),
            )
        };
        let spin_limit = match tuning.lookback_spins {
            0 => default_lookback_spins(self.device_class()),
            // Test mode: the shader's SPIN_LIMIT 0 forces the fallback (see the field's docs).
            u32::MAX => 0,
            spins => spins,
        };
        let plain = specialization(&tuning, desc.key_type, false);
        let spec = MergeSpec {
            lookback_spins: spin_limit,
            ..plain
        };
        let mut kernels = vec![
            (
                shader(MergeKernel::Partition, desc.key_type, ValueType::None)?,
                partition_spec(spec, &tuning),
            ),
            (shader(MergeKernel::Check, desc.key_type, ValueType::None)?, plain),
        ];
        let walk_spec = setop_spec(self, spec, desc.key_type, desc.op);
        if path == SetOpPath::Lookback {
            kernels.push((
                shader(MergeKernel::SetOpLookback, desc.key_type, ValueType::None)?,
                setop_lookback_spec(walk_spec),
            ));
        } else {
            kernels.push((
                shader(MergeKernel::SetOpCount, desc.key_type, ValueType::None)?,
                walk_spec,
            ));
            kernels.push((
                shader(MergeKernel::SetOpWrite, desc.key_type, ValueType::None)?,
                walk_spec,
            ));
        }
        self.prepare_kernels(&kernels)?;
        Ok(SetOpPlan {
            ctx: self.clone(),
            desc: *desc,
            path,
            spin_limit,
            tuning,
            max_tiles,
            scan,
            counts_offset,
            scan_offset,
            requirements: MemoryRequirements::scratch(scratch_size, ALIGNMENT),
        })
    }
}

impl SetOpPlan {
    /// Scratch every [`SetOpPlan::record`] needs.
    pub fn memory_requirements(&self) -> MemoryRequirements {
        self.requirements
    }

    /// Merge outputs per tile.
    pub fn tile_size(&self) -> u64 {
        self.tuning.tile()
    }

    /// The path this plan records (never [`SetOpPath::Auto`]).
    pub fn path(&self) -> SetOpPath {
        self.path
    }

    /// The description the plan was made from.
    pub fn desc(&self) -> &SetOpDesc {
        &self.desc
    }

    fn check_args(&self, ctx: &Context, args: &SetOpArgs) -> Result<(Option<u64>, Option<u64>, u64, u64)> {
        let d = &self.desc;
        let (a_direct, a) = args.a_count.resolve(ctx, "set operation: count of A", d.max_a)?;
        let (b_direct, b) = args.b_count.resolve(ctx, "set operation: count of B", d.max_b)?;
        let kb = d.key_type.bytes();
        args.a.check(ctx, "set operation a", a * kb, kb)?;
        args.b.check(ctx, "set operation b", b * kb, kb)?;
        args.out.check(ctx, "set operation out", (a + b) * kb, kb)?;
        args.out_count.check(ctx, "set operation out_count", 4, 4)?;
        args.scratch.check(
            ctx,
            "set operation scratch",
            self.requirements.scratch.size,
            ALIGNMENT,
        )?;
        let mut all = vec![
            ("a", args.a),
            ("b", args.b),
            ("out", args.out),
            ("out_count", args.out_count),
            ("scratch", args.scratch),
        ];
        for (name, c) in [("A count", &args.a_count), ("B count", &args.b_count)] {
            if let ElementCount::Indirect(r) = c {
                all.push((name, *r));
            }
        }
        let written = [
            ("out", args.out),
            ("out_count", args.out_count),
            ("scratch", args.scratch),
        ];
        check_overlaps("set operation", &written, &all)?;
        Ok((a_direct, b_direct, a, b))
    }

    fn push(
        &self,
        ctx: &Context,
        args: &SetOpArgs,
        a_direct: Option<u64>,
        b_direct: Option<u64>,
    ) -> MergePush {
        MergePush {
            a_keys: ctx.address_of(&args.a),
            b_keys: ctx.address_of(&args.b),
            out_keys: ctx.address_of(&args.out),
            tiles_addr: ctx.address_of(&args.scratch),
            a_count_addr: count_addr(ctx, &args.a_count),
            b_count_addr: count_addr(ctx, &args.b_count),
            aux_addr: ctx.address_of(&args.scratch) + self.counts_offset,
            aux2_addr: ctx.address_of(&args.out_count),
            a_count: a_direct.unwrap_or(0) as u32,
            b_count: b_direct.unwrap_or(0) as u32,
            a_max: self.desc.max_a as u32,
            b_max: self.desc.max_b as u32,
            mode: MODE_TWO_BALANCED,
            runs: self.desc.op as u32,
            ..Default::default()
        }
    }

    /// Records the set operation into `cmd` (see the module's synchronization contract): the
    /// output keys and their count (a u32 at `out_count`). Arguments are checked first; on
    /// error nothing is recorded. Unsorted input gives an unspecified result within `out`.
    ///
    /// # Safety
    /// As [`MergePlan::record`](super::MergePlan::record).
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &SetOpArgs) -> Result<()> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("set operation: the command buffer is null"));
        }
        let (a_direct, b_direct, a, b) = self.check_args(ctx, args)?;
        // At least one tile, so that an empty result still writes its count.
        let tiles = (a + b).div_ceil(self.tile_size()).max(1);
        let key_type = self.desc.key_type;
        let spec = MergeSpec {
            lookback_spins: self.spin_limit,
            ..specialization(&self.tuning, key_type, false)
        };
        let partition = ctx.kernel(
            shader(MergeKernel::Partition, key_type, ValueType::None)?,
            partition_spec(spec, &self.tuning),
        )?;
        let mut push = self.push(ctx, args, a_direct, b_direct);
        push.max_tiles = tiles as u32;
        push.lanes = partition_lanes(ctx, &self.tuning, tiles);
        debug_assert!(tiles <= self.max_tiles);
        let walk_spec = setop_spec(ctx, spec, key_type, self.desc.op);
        if self.path == SetOpPath::Lookback {
            let lookback = ctx.kernel(
                shader(MergeKernel::SetOpLookback, key_type, ValueType::None)?,
                setop_lookback_spec(walk_spec),
            )?;
            // The partition pass zeroes the look-back state (LOOKBACK_HEADER + 8 bytes per
            // tile at counts_offset) on the way.
            push.width = 1;
            ctx.dispatch(
                cmd,
                partition,
                &push,
                two_run_partition_groups(tiles, &self.tuning, push.lanes)?,
            );
            ctx.compute_to_compute(cmd);
            ctx.dispatch(
                cmd,
                lookback,
                &push,
                groups(tiles, setop_lookback_tiles() as u64)?,
            );
            return Ok(());
        }
        let count = ctx.kernel(
            shader(MergeKernel::SetOpCount, key_type, ValueType::None)?,
            walk_spec,
        )?;
        let write = ctx.kernel(
            shader(MergeKernel::SetOpWrite, key_type, ValueType::None)?,
            walk_spec,
        )?;
        let counts = args.scratch.part(self.counts_offset, (tiles + 1) * 4);
        let scan_scratch = args.scratch.part(
            self.scan_offset,
            self.scan.memory_requirements().scratch.size.max(ALIGNMENT),
        );
        ctx.dispatch(
            cmd,
            partition,
            &push,
            two_run_partition_groups(tiles, &self.tuning, push.lanes)?,
        );
        ctx.compute_to_compute(cmd);
        ctx.dispatch(cmd, count, &push, groups(tiles, 1)?);
        ctx.compute_to_compute(cmd);
        self.scan.record(
            cmd,
            &ScanArgs {
                input: counts,
                output: counts,
                scratch: scan_scratch,
                count: ElementCount::Direct(tiles + 1),
            },
        )?;
        ctx.compute_to_compute(cmd);
        ctx.dispatch(cmd, write, &push, groups(tiles, 1)?);
        Ok(())
    }

    /// The host layer's sortedness check (see [`MergePlan::record_check`]).
    pub(crate) unsafe fn record_check(
        &self,
        ctx: &Context,
        cmd: vk::CommandBuffer,
        args: &SetOpArgs,
        flags: &BufferRange,
    ) -> Result<()> {
        let (a_direct, b_direct, a, b) = self.check_args(ctx, args)?;
        record_check(
            ctx,
            cmd,
            &self.tuning,
            self.desc.key_type,
            false,
            self.push(ctx, args, a_direct, b_direct),
            a.max(b),
            flags,
        )
    }
}
