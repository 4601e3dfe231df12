//! The merge of two sorted runs: its description, plan and recording (a partition kernel and
//! the tile merge, or the fused merge for small counts).

use super::kernels::{
    addr, count_addr, merge_groups, merge_spec, partition_spec, record_check, shader, specialization,
    two_run_partition_groups, MergePush, MergeSpec, MODE_TWO,
};
use super::tuning::{fused_tiles, partition_lanes, MergeTuning};
use super::{check_max, check_overlaps, ALIGNMENT, TILE_ENTRY_BYTES};
use crate::core::buffer::{BufferRange, ElementCount, MemoryRequirements};
use crate::core::shaders::MergeKernel;
use crate::error::{Error, Result};
use crate::sort::{KeyType, ValueType};
use crate::Context;
use ash::vk;

/// Which merge kernels to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum MergePath {
    /// Fused up to [`MergePlan::small_limit`] outputs, partitioned above.
    #[default]
    Auto,
    /// A partition kernel writes the tile table, then the merge kernel runs.
    Partitioned,
    /// One dispatch: every workgroup finds its tile's co-ranks itself (any size; for small
    /// merges).
    Fused,
}

/// What to plan a merge of two sorted runs for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeDesc {
    /// Key type of both runs.
    pub key_type: KeyType,
    /// Payload type ([`ValueType::None`]: keys only).
    pub value_type: ValueType,
    /// Both runs and the output are in descending order (still stable: A's first).
    pub descending: bool,
    /// The largest count of A any call merges (at most [`MAX_RUN`](super::MAX_RUN)).
    pub max_a: u64,
    /// The largest count of B any call merges (at most [`MAX_RUN`](super::MAX_RUN)).
    pub max_b: u64,
    /// Which kernels to record.
    pub path: MergePath,
    /// Kernel tuning (`None`: [`MergeTuning::for_merge`]).
    pub tuning: Option<MergeTuning>,
}

impl MergeDesc {
    /// An ascending merge of up to `max_a` + `max_b` elements.
    pub fn new(key_type: KeyType, value_type: ValueType, max_a: u64, max_b: u64) -> Self {
        MergeDesc {
            key_type,
            value_type,
            descending: false,
            max_a,
            max_b,
            path: MergePath::Auto,
            tuning: None,
        }
    }
}

/// The buffers of one recorded merge. Values are `None` exactly when the plan's value type is
/// [`ValueType::None`]. No output range may overlap another range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeArgs {
    /// Keys of run A (sorted in the plan's order).
    pub a_keys: BufferRange,
    /// Values of run A.
    pub a_values: Option<BufferRange>,
    /// Keys of run B.
    pub b_keys: BufferRange,
    /// Values of run B.
    pub b_values: Option<BufferRange>,
    /// Output keys: room for count(A) + count(B) keys (the maxima with indirect counts).
    pub out_keys: BufferRange,
    /// Output values.
    pub out_values: Option<BufferRange>,
    /// Scratch as [`MergePlan::memory_requirements`] asks.
    pub scratch: BufferRange,
    /// Elements of A.
    pub a_count: ElementCount,
    /// Elements of B.
    pub b_count: ElementCount,
}

/// A merge planned for one context. Cheap to keep and to record many times.
#[derive(Clone, Debug)]
pub struct MergePlan {
    ctx: Context,
    desc: MergeDesc,
    tuning: MergeTuning,
    requirements: MemoryRequirements,
}

impl Context {
    /// Plans a merge of two sorted runs.
    pub fn merge_plan(&self, desc: &MergeDesc) -> Result<MergePlan> {
        check_max("merge: max_a", desc.max_a)?;
        check_max("merge: max_b", desc.max_b)?;
        let tuning = desc
            .tuning
            .unwrap_or_else(|| MergeTuning::for_merge(self, desc.key_type, desc.value_type));
        tuning.check(self, desc.key_type, desc.value_type)?;
        let max_tiles = (desc.max_a + desc.max_b).div_ceil(tuning.tile());
        let spec = specialization(&tuning, desc.key_type, desc.descending);
        // The pipelines the plan's path may record: fused, partitioned, or both for Auto plans
        // whose largest merge passes the fused limit.
        let fused_tiles = fused_tiles(desc.value_type);
        let fused = desc.path != MergePath::Partitioned;
        let partitioned = match desc.path {
            MergePath::Partitioned => true,
            MergePath::Fused => false,
            MergePath::Auto => max_tiles > fused_tiles,
        };
        let mut kernels = vec![(shader(MergeKernel::Check, desc.key_type, ValueType::None)?, spec)];
        if fused {
            kernels.push((
                shader(MergeKernel::Fused, desc.key_type, desc.value_type)?,
                merge_spec(spec, desc.value_type),
            ));
        }
        if partitioned {
            kernels.push((
                shader(MergeKernel::Merge, desc.key_type, desc.value_type)?,
                merge_spec(spec, desc.value_type),
            ));
            kernels.push((
                shader(MergeKernel::Partition, desc.key_type, ValueType::None)?,
                partition_spec(spec, &tuning),
            ));
        }
        self.prepare_kernels(&kernels)?;
        Ok(MergePlan {
            ctx: self.clone(),
            desc: *desc,
            tuning,
            requirements: MemoryRequirements::scratch(
                ((max_tiles + 1) * TILE_ENTRY_BYTES).max(ALIGNMENT),
                ALIGNMENT,
            ),
        })
    }
}

impl MergePlan {
    /// Scratch every [`MergePlan::record`] needs (the tile table).
    pub fn memory_requirements(&self) -> MemoryRequirements {
        self.requirements
    }

    /// Outputs per tile (the unit of the tile table; a workgroup merging keys alone takes two).
    pub fn tile_size(&self) -> u64 {
        self.tuning.tile()
    }

    /// The tuning the plan's kernels run with.
    pub fn tuning(&self) -> MergeTuning {
        self.tuning
    }

    /// Largest total count that [`MergePath::Auto`] merges in one dispatch (the fused path).
    pub fn small_limit(&self) -> u64 {
        fused_tiles(self.desc.value_type) * self.tile_size()
    }

    /// The description the plan was made from.
    pub fn desc(&self) -> &MergeDesc {
        &self.desc
    }

    fn check_args(&self, ctx: &Context, args: &MergeArgs) -> Result<(Option<u64>, Option<u64>, u64, u64)> {
        let d = &self.desc;
        let (a_direct, a) = args.a_count.resolve(ctx, "merge: count of A", d.max_a)?;
        let (b_direct, b) = args.b_count.resolve(ctx, "merge: count of B", d.max_b)?;
        let has_values = d.value_type != ValueType::None;
        let given = [args.a_values, args.b_values, args.out_values];
        if given.iter().any(|v| v.is_some() != has_values) {
            return Err(Error::invalid(if has_values {
                "merge: the plan merges pairs: a_values, b_values and out_values are required"
            } else {
                "merge: the plan merges keys only: the values must be None"
            }));
        }
        let kb = d.key_type.bytes();
        let vb = d.value_type.bytes();
        args.a_keys.check(ctx, "merge a_keys", a * kb, kb)?;
        args.b_keys.check(ctx, "merge b_keys", b * kb, kb)?;
        args.out_keys.check(ctx, "merge out_keys", (a + b) * kb, kb)?;
        if let (Some(av), Some(bv), Some(ov)) = (args.a_values, args.b_values, args.out_values) {
            av.check(ctx, "merge a_values", a * vb, vb)?;
            bv.check(ctx, "merge b_values", b * vb, vb)?;
            ov.check(ctx, "merge out_values", (a + b) * vb, vb)?;
        }
        args.scratch
            .check(ctx, "merge scratch", self.requirements.scratch.size, ALIGNMENT)?;
        let mut all = vec![
            ("a_keys", args.a_keys),
            ("b_keys", args.b_keys),
            ("out_keys", args.out_keys),
            ("scratch", args.scratch),
        ];
        let mut written = vec![("out_keys", args.out_keys), ("scratch", args.scratch)];
        for (name, r) in [
            ("a_values", args.a_values),
            ("b_values", args.b_values),
            ("out_values", args.out_values),
        ] {
            if let Some(r) = r {
                all.push((name, r));
            }
        }
        if let Some(ov) = args.out_values {
            written.push(("out_values", ov));
        }
        for (name, c) in [("A count", &args.a_count), ("B count", &args.b_count)] {
            if let ElementCount::Indirect(r) = c {
                all.push((name, *r));
            }
        }
        check_overlaps("merge", &written, &all)?;
        Ok((a_direct, b_direct, a, b))
    }

    fn push(
        &self,
        ctx: &Context,
        args: &MergeArgs,
        a_direct: Option<u64>,
        b_direct: Option<u64>,
    ) -> MergePush {
        MergePush {
            a_keys: ctx.address_of(&args.a_keys),
            b_keys: ctx.address_of(&args.b_keys),
            out_keys: ctx.address_of(&args.out_keys),
            a_values: addr(ctx, args.a_values),
            b_values: addr(ctx, args.b_values),
            out_values: addr(ctx, args.out_values),
            tiles_addr: ctx.address_of(&args.scratch),
            a_count_addr: count_addr(ctx, &args.a_count),
            b_count_addr: count_addr(ctx, &args.b_count),
            a_count: a_direct.unwrap_or(0) as u32,
            b_count: b_direct.unwrap_or(0) as u32,
            a_max: self.desc.max_a as u32,
            b_max: self.desc.max_b as u32,
            mode: MODE_TWO,
            ..Default::default()
        }
    }

    fn spec(&self) -> MergeSpec {
        specialization(&self.tuning, self.desc.key_type, self.desc.descending)
    }

    /// Records the merge into `cmd` (see the module's synchronization contract). Arguments are
    /// checked first; on error nothing is recorded.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &MergeArgs) -> Result<()> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("merge: the command buffer is null"));
        }
        let (a_direct, b_direct, a, b) = self.check_args(ctx, args)?;
        let total = a + b;
        if total == 0 {
            return Ok(());
        }
        let tiles = total.div_ceil(self.tile_size());
        let fused = match self.desc.path {
            MergePath::Fused => true,
            MergePath::Partitioned => false,
            MergePath::Auto => total <= self.small_limit(),
        };
        let spec = self.spec();
        let merge = ctx.kernel(
            shader(
                if fused {
                    MergeKernel::Fused
                } else {
                    MergeKernel::Merge
                },
                self.desc.key_type,
                self.desc.value_type,
            )?,
            merge_spec(spec, self.desc.value_type),
        )?;
        let mut push = self.push(ctx, args, a_direct, b_direct);
        push.max_tiles = tiles as u32;
        push.lanes = partition_lanes(ctx, &self.tuning, tiles);
        if fused {
            push.tiles_addr = 0;
        } else {
            let partition = ctx.kernel(
                shader(MergeKernel::Partition, self.desc.key_type, ValueType::None)?,
                partition_spec(spec, &self.tuning),
            )?;
            ctx.dispatch(
                cmd,
                partition,
                &push,
                two_run_partition_groups(tiles, &self.tuning, push.lanes)?,
            );
            ctx.compute_to_compute(cmd);
        }
        ctx.dispatch(cmd, merge, &push, merge_groups(tiles, self.desc.value_type)?);
        Ok(())
    }

    /// Records the sortedness check of the host layer: sets the u32 at `flags` (cleared by the
    /// caller) when A is not sorted in the plan's order, the u32 after it when B is not.
    pub(crate) unsafe fn record_check(
        &self,
        ctx: &Context,
        cmd: vk::CommandBuffer,
        args: &MergeArgs,
        flags: &BufferRange,
    ) -> Result<()> {
        let (a_direct, b_direct, a, b) = self.check_args(ctx, args)?;
        record_check(
            ctx,
            cmd,
            &self.tuning,
            self.desc.key_type,
            self.desc.descending,
            self.push(ctx, args, a_direct, b_direct),
            a.max(b),
            flags,
        )
    }
}
