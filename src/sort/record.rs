//! Recording a planned sort: the argument checks, the push constants of the first pass, and the
//! choice of the kernels a count takes (small.rs, onesweep.rs, safe.rs record them).

use super::plan::SortSpec;
use super::push::{sort_shader, SortPush};
use super::{onesweep, safe, small, SortArgs, SortPath, SortPlan, SortResult, ValueType, ALIGNMENT};
use crate::core::buffer::ElementCount;
use crate::core::pipelines::Specialization;
use crate::core::shaders::{ShaderSource, SortKernel};
use crate::core::types::KeyType;
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;

impl SortPlan {
    fn check_args(&self, ctx: &Context, args: &SortArgs) -> Result<(Option<u64>, u64)> {
        let max = self.desc.max_count;
        let (direct, elements) = args.count.resolve(ctx, "sort: count", max)?;
        let has_values = self.desc.value_type != ValueType::None;
        if args.values.is_some() != has_values || args.values_alt.is_some() != has_values {
            return Err(Error::invalid(if has_values {
                "sort: the plan sorts pairs: values and values_alt are required"
            } else {
                "sort: the plan sorts keys only: values and values_alt must be None"
            }));
        }
        let key_bytes = elements * self.desc.key_type.bytes();
        let key_align = self.desc.key_type.bytes();
        args.keys.check(ctx, "sort keys", key_bytes, key_align)?;
        args.keys_alt.check(ctx, "sort keys_alt", key_bytes, key_align)?;
        let value_bytes = elements * self.desc.value_type.bytes();
        if let (Some(values), Some(values_alt)) = (args.values, args.values_alt) {
            let align = self.desc.value_type.bytes();
            values.check(ctx, "sort values", value_bytes, align)?;
            values_alt.check(ctx, "sort values_alt", value_bytes, align)?;
        }
        args.scratch
            .check(ctx, "sort scratch", self.requirements.scratch.size, ALIGNMENT)?;
        let mut ranges = vec![
            ("keys", args.keys),
            ("keys_alt", args.keys_alt),
            ("scratch", args.scratch),
        ];
        if let (Some(values), Some(values_alt)) = (args.values, args.values_alt) {
            ranges.push(("values", values));
            ranges.push(("values_alt", values_alt));
        }
        if let ElementCount::Indirect(count) = args.count {
            for (name, range) in &ranges {
                if count.overlaps(range) {
                    return Err(Error::invalid(format!(
                        "sort: the count buffer overlaps the {name} range"
                    )));
                }
            }
        }
        for (i, (a_name, a)) in ranges.iter().enumerate() {
            for (b_name, b) in &ranges[i + 1..] {
                if a.overlaps(b) {
                    return Err(Error::invalid(format!(
                        "sort: the {a_name} and {b_name} ranges overlap"
                    )));
                }
            }
        }
        Ok((direct, elements))
    }

    /// Records the sort into `cmd` (see the module's synchronization contract) and says where
    /// the result will be. Arguments are checked first; on error nothing is recorded.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &SortArgs) -> Result<SortResult> {
        self.record_inner(&self.ctx, cmd, args, None, None)
    }

    /// Records the plan (a one- or two-pass Onesweep plan) with the digit pass's bucket hook:
    /// `hook`'s kernels, bucket operands, status word and output (the last pass's; the first of
    /// two writes the alternates).
    ///
    /// # Safety
    /// As [`SortPlan::record`].
    pub(crate) unsafe fn record_with_digit_hook(
        &self,
        ctx: &Context,
        cmd: vk::CommandBuffer,
        args: &SortArgs,
        hook: &DigitHook,
    ) -> Result<()> {
        if self.path != SortPath::Onesweep || self.pass_count > 2 {
            return Err(Error::Internal(
                "multisplit: the bucket split needs a one- or two-pass Onesweep plan".into(),
            ));
        }
        self.record_inner(ctx, cmd, args, None, Some(hook))?;
        Ok(())
    }

    /// The specialization constants of the plan's tile kernels.
    pub(crate) fn kernel_specialization(&self) -> Specialization {
        self.specialization().into()
    }

    /// Like [`SortPlan::record`], and writes a timestamp into `pool` after every dispatch,
    /// from query `first_query` on (for benchmarks: the cost of each pass). Returns the
    /// result location and the number of timestamps written.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    #[cfg(feature = "bench")]
    #[doc(hidden)]
    pub unsafe fn record_profiled(
        &self,
        cmd: vk::CommandBuffer,
        args: &SortArgs,
        pool: vk::QueryPool,
        first_query: u32,
    ) -> Result<(SortResult, u32)> {
        let marks = std::cell::Cell::new(first_query);
        let location = self.record_inner(&self.ctx, cmd, args, Some((pool, &marks)), None)?;
        Ok((location, marks.get() - first_query))
    }

    fn record_inner(
        &self,
        ctx: &Context,
        cmd: vk::CommandBuffer,
        args: &SortArgs,
        timestamps: Option<(vk::QueryPool, &std::cell::Cell<u32>)>,
        hook: Option<&DigitHook>,
    ) -> Result<SortResult> {
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("sort: the command buffer is null"));
        }
        let (direct, elements) = self.check_args(ctx, args)?;
        if elements == 0 {
            return Ok(self.result_location());
        }
        let max_tiles = self.desc.max_count.div_ceil(self.tile_size());
        let mut push = SortPush {
            keys_in: ctx.address_of(&args.keys),
            keys_out: ctx.address_of(&args.keys_alt),
            values_in: args.values.map_or(0, |r| ctx.address_of(&r)),
            values_out: args.values_alt.map_or(0, |r| ctx.address_of(&r)),
            scratch: ctx.address_of(&args.scratch),
            count_addr: match args.count {
                ElementCount::Direct(_) => 0,
                ElementCount::Indirect(range) => ctx.address_of(&range),
            },
            count: direct.unwrap_or(0) as u32,
            max_count: self.desc.max_count as u32,
            begin_bit: self.desc.begin_bit,
            end_bit: self.end_bit,
            pass_index: 0,
            pass_count: self.pass_count,
            max_tiles: max_tiles as u32,
            blocks: 0,
            tiles_per_block: 1,
            reserved: 0,
            ..SortPush::default()
        };
        if let Some(hook) = hook {
            push.aux = hook.aux;
            push.split_status = hook.status;
            push.bucket_count = hook.bucket_count;
            push.id_bits = hook.id_bits;
            push.params = hook.params;
        }
        let pass = Pass {
            ctx,
            cmd,
            spec: self.specialization(),
            key_type: self.desc.key_type,
            value_type: self.desc.value_type,
            tiles: elements.div_ceil(self.tile_size()),
            timestamps,
        };
        let small = match self.path {
            SortPath::Small => true,
            SortPath::Auto => unreachable!("plans never keep the Auto path"),
            _ => self.desc.path == SortPath::Auto && elements <= self.auto_small_limit,
        };
        if small && elements <= self.resident_limit {
            let kernel = if self.resident_merges {
                SortKernel::BlockMerge
            } else if self.resident_all_steps(direct) {
                SortKernel::ResidentAll
            } else {
                SortKernel::Resident
            };
            small::record_resident(&pass, push, kernel, self.resident_specialization())?;
        } else if small {
            small::record(&pass, push)?;
        } else if self.path == SortPath::Onesweep {
            onesweep::record(&pass, push, &args.scratch, hook)?;
        } else {
            let scan = self
                .block_scan
                .as_ref()
                .ok_or_else(|| Error::Internal("sort: safe plan without block scan".into()))?;
            safe::record(&pass, push, &args.scratch, scan)?;
        }
        Ok(self.result_location())
    }
}

/// The digit pass's bucket hook: a one- or two-pass Onesweep sort whose digits are the bits of
/// each key's bucket rather than of the key (glsl/sort/sort_common.glsl SPLIT_BUCKETS, with the
/// bucket functions of glsl/common/bucket_fn.glsl). The sort owns the hook; its caller (the
/// multisplit's Onesweep split) supplies the bucket kernels and operands.
///
/// It holds the hook's kernels (histogram, Onesweep pass) compiled with SPLIT_BUCKETS, or `None`
/// for the plain sort kernels (the bucket's bits are key bits), the push constants they read,
/// and where the last pass writes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DigitHook {
    /// (histogram, Onesweep pass) kernels of the bucket function.
    pub kernels: Option<(&'static ShaderSource, &'static ShaderSource)>,
    /// The bucket function's operand (SPLITTERS: the address of the splitters).
    pub aux: u64,
    /// The address of the u32 status word the kernels raise (a bucket id >= `bucket_count`,
    /// or a bucket function that answered differently in the passes).
    pub status: u64,
    /// m.
    pub bucket_count: u32,
    /// ceil(log2(m)).
    pub id_bits: u32,
    /// GLSL: vkalgo_params.
    pub params: [u32; 4],
    /// Addresses the last pass writes the keys and values to.
    pub keys_out: u64,
    /// ... (0 without values).
    pub values_out: u64,
}

/// What every pass of one recorded sort shares.
pub(crate) struct Pass<'a> {
    pub(super) ctx: &'a Context,
    pub(super) cmd: vk::CommandBuffer,
    pub(super) spec: SortSpec,
    pub(super) key_type: KeyType,
    value_type: ValueType,
    /// Tiles of the recorded count (of max_count for indirect counts).
    pub(super) tiles: u64,
    /// Profiling: a timestamp after every dispatch (pool, next query).
    timestamps: Option<(vk::QueryPool, &'a std::cell::Cell<u32>)>,
}

impl Pass<'_> {
    /// Records a dispatch, then (when profiling) a timestamp.
    pub(super) unsafe fn dispatch(
        &self,
        kernel: crate::core::pipelines::Kernel,
        push: &SortPush,
        groups: u32,
    ) {
        self.ctx.dispatch(self.cmd, kernel, push, groups);
        if let Some((pool, next)) = self.timestamps {
            self.ctx.device.cmd_write_timestamp(
                self.cmd,
                vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                pool,
                next.get(),
            );
            next.set(next.get() + 1);
        }
    }

    /// The shader of `kernel` for this key type and payload (Onesweep with clock counters
    /// where the diagnostics ask for them and such a permutation exists).
    pub(super) fn shader(&self, kernel: SortKernel) -> Result<&'static ShaderSource> {
        if self.ctx.pipelines.shader_clock && kernel == SortKernel::Onesweep {
            if let Ok(shader) = sort_shader(SortKernel::OnesweepClock, self.key_type, self.value_type) {
                return Ok(shader);
            }
        }
        sort_shader(kernel, self.key_type, self.value_type)
    }

    /// The shader of a counting `kernel`, which reads keys alone.
    pub(super) fn keys_shader(&self, kernel: SortKernel) -> Result<&'static ShaderSource> {
        sort_shader(kernel, self.key_type, ValueType::None)
    }

    /// Swaps input and output of the push constants (the next digit pass).
    pub(super) fn next_pass(push: &mut SortPush) {
        std::mem::swap(&mut push.keys_in, &mut push.keys_out);
        std::mem::swap(&mut push.values_in, &mut push.values_out);
        push.pass_index += 1;
    }
}
