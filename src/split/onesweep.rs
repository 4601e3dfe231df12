//! The Onesweep multisplit ([`SplitPath::Onesweep`]): the sort's Onesweep machinery (Adinets &
//! Merrill 2022) with the key's bucket as its digits. Up to 256 buckets: one read of the keys
//! counts the buckets (the upfront histogram), one workgroup scans the counts into bucket
//! starts, and one pass ranks each tile stably, finds the tile's offset per bucket by decoupled
//! look-back and writes the tile through shared memory in bucket order. More buckets: an LSD
//! radix sort of the bucket ids in two such passes (low 8 bits, then the rest; input ->
//! alternate buffers in scratch -> output), then one search per bucket of the bucket-ordered
//! output for the offsets (glsl/split/bucket_starts.comp).
//!
//! The seed's method ranks within a subgroup by ballots per bucket-id bit; the sort's ranking is
//! the same technique with a shared table for the low bits, and its look-back replaces the tile
//! paths' count matrix (m words per tile, written, scanned and read again) by m words per
//! tile in a fixed ring. The bucket function:
//! - BITS is a plain sort pass on the ordered key bits `[bit_offset, bit_offset + log2(m))`;
//! - SPLITTERS and GLSL run the sort's histogram and Onesweep kernels through the digit pass's
//!   bucket hook ([`DigitHook`]: compiled with SPLIT_BUCKETS, glsl/common/bucket_fn.glsl), which
//!   recompute the bucket from the key where the sort takes its digit, and raise the split's
//!   status word on a bucket `>= m` (the Onesweep pass then writes nothing); they also bound
//!   every write by the run the counts gave it and raise [`super::STATUS_INCONSISTENT`] where
//!   the bucket function answered otherwise than in the count (see the module docs of
//!   [`super`], "Bucket functions must be pure");
//! - IDS has no Onesweep form (a staged key's bucket must follow from the key alone).
//!
//! Scratch: the status word at [`STATUS_OFFSET`], the sort's Onesweep scratch from
//! [`SORT_SCRATCH_OFFSET`], then (two passes) the alternate keys and values.

use super::plan::builtin_shader;
#[cfg(doc)]
use super::SplitPath;
use super::{glsl, BucketFn, SplitArgs, SplitDesc, SplitPush, ALIGNMENT, STATUS_OFFSET};
use crate::core::buffer::ElementCount;
use crate::core::pipelines::Kernel;
use crate::core::shaders::{ShaderSource, SplitKernel};
use crate::error::{Error, Result};
use crate::sort::{DigitHook, SortArgs, SortDesc, SortPath, SortPlan, SORT_MAX_COUNT};
use crate::Context;
use ash::vk;

/// Byte offset of the sort's scratch in the split's scratch (after the status word).
pub(super) const SORT_SCRATCH_OFFSET: u64 = 16;
/// Byte offset of the bucket starts in the sort's scratch (glsl/sort/sort_common.glsl
/// SCRATCH_HISTOGRAMS: the upfront histogram, turned into starts by histogram_scan.comp).
const SORT_HISTOGRAMS: u64 = 64;
/// Most buckets of one digit pass.
const ONE_PASS_BUCKETS: u32 = 256;

/// A planned Onesweep split: a one- or two-pass Onesweep sort plan and the bucket kernels.
#[derive(Clone, Debug)]
pub(super) struct OnesweepSplit {
    sort: SortPlan,
    /// (histogram, Onesweep pass) with the bucket function (`None`: BITS, the sort's own).
    kernels: Option<(&'static ShaderSource, &'static ShaderSource)>,
    /// More than 256 buckets: the search for the bucket starts (else the histogram has them).
    bucket_starts: Option<&'static ShaderSource>,
    /// Bytes of the alternate keys and values (two passes; else 0).
    alternate: (u64, u64),
}

/// Whether the Onesweep split can take `desc` on this device (else the reason).
pub(super) fn refusal(ctx: &Context, desc: &SplitDesc) -> Option<String> {
    let m = desc.bucket_count;
    if m < 2 {
        Some(format!("it splits into at least 2 buckets, not {m}"))
    } else if desc.max_count > SORT_MAX_COUNT {
        Some(format!(
            "it splits at most {SORT_MAX_COUNT} elements (the sort's limit)"
        ))
    } else if desc.bucket_fn == BucketFn::Ids {
        Some("it takes BITS, SPLITTERS or GLSL bucket functions, not IDS".into())
    } else if !ctx.profile.int64_atomics {
        Some(format!(
            "it needs shaderBufferInt64Atomics, which {} lacks",
            ctx.profile.device_name
        ))
    } else {
        None
    }
}

impl OnesweepSplit {
    /// Plans the split (the caller checked [`refusal`]).
    pub(super) fn new(ctx: &Context, desc: &SplitDesc, id_bits: u32) -> Result<Self> {
        let width = desc.key_type.bits();
        // The bucket id's bits [begin_bit, end_bit): of the ordered key (BITS), else of the
        // bucket itself (at least 8 bits: one pass up to 256 buckets).
        let (begin_bit, end_bit) = match desc.bucket_fn {
            BucketFn::Bits => (desc.bit_offset, (desc.bit_offset + id_bits).min(width)),
            _ => (0, id_bits.max(8)),
        };
        let sort = ctx.sort_plan(&SortDesc {
            begin_bit,
            end_bit,
            path: SortPath::Onesweep,
            tuning: desc.onesweep_tuning,
            ..SortDesc::new(desc.key_type, desc.value_type, desc.max_count)
        })?;
        let kernels = match desc.bucket_fn {
            BucketFn::Bits => None,
            BucketFn::Glsl => {
                let source = desc.glsl.as_deref().unwrap_or_default();
                let compile = |pass| glsl::compile(source, desc.key_type, desc.value_type, pass);
                Some((
                    compile(glsl::Pass::OnesweepHistogram)?,
                    compile(glsl::Pass::Onesweep)?,
                ))
            }
            BucketFn::Splitters => Some((
                builtin_shader(desc, SplitKernel::OnesweepHistogram, false)?,
                builtin_shader(desc, SplitKernel::Onesweep, true)?,
            )),
            BucketFn::Ids => return Err(Error::Internal("multisplit: IDS has no Onesweep split".into())),
        };
        if let Some((histogram, pass)) = kernels {
            let spec = sort.kernel_specialization();
            ctx.prepare_kernels(&[(histogram, spec), (pass, spec)])?;
        }
        let bucket_starts = if desc.bucket_count > ONE_PASS_BUCKETS {
            Some(match desc.bucket_fn {
                BucketFn::Glsl => glsl::compile(
                    desc.glsl.as_deref().unwrap_or_default(),
                    desc.key_type,
                    desc.value_type,
                    glsl::Pass::BucketStarts,
                )?,
                _ => builtin_shader(desc, SplitKernel::BucketStarts, false)?,
            })
        } else {
            None
        };
        let requirements = sort.memory_requirements();
        let alternate = if sort.pass_count() > 1 {
            (requirements.keys_alt.size, requirements.values_alt.size)
        } else {
            (0, 0)
        };
        Ok(OnesweepSplit {
            sort,
            kernels,
            bucket_starts,
            alternate,
        })
    }

    /// The search for the bucket starts (more than 256 buckets); the plan prepares it.
    pub(super) fn bucket_starts(&self) -> Option<&'static ShaderSource> {
        self.bucket_starts
    }

    /// Byte offsets in scratch of the alternate keys and values.
    fn alternate_at(&self) -> (u64, u64) {
        let sort_bytes = self.sort.memory_requirements().scratch.size;
        let keys_at = SORT_SCRATCH_OFFSET + sort_bytes.next_multiple_of(ALIGNMENT);
        (keys_at, keys_at + self.alternate.0.next_multiple_of(ALIGNMENT))
    }

    /// Scratch bytes: the status word, the sort's scratch and the alternate buffers.
    pub(super) fn scratch_size(&self) -> u64 {
        self.alternate_at().1 + self.alternate.1.next_multiple_of(ALIGNMENT)
    }

    /// Records the split: the status word cleared, the sort's passes, then the offsets (from
    /// the histogram's bucket starts, or searched in the output above 256 buckets).
    ///
    /// # Safety
    /// As [`super::SplitPlan::record`]; the arguments are checked.
    pub(super) unsafe fn record(
        &self,
        ctx: &Context,
        cmd: vk::CommandBuffer,
        args: &SplitArgs,
        mut push: SplitPush,
        offsets: (Kernel, u32),
        bucket_starts: Option<Kernel>,
    ) -> Result<()> {
        let scratch = &args.scratch;
        let status = ctx.address_of(scratch) + STATUS_OFFSET;
        let sort_scratch = scratch.part(SORT_SCRATCH_OFFSET, self.sort.memory_requirements().scratch.size);
        if args.count == ElementCount::Direct(0) {
            // Nothing to split: a zero status word and zero offsets.
            unsafe {
                ctx.device
                    .cmd_fill_buffer(cmd, scratch.buffer, scratch.offset, 16, 0);
                ctx.device.cmd_fill_buffer(
                    cmd,
                    args.offsets.buffer,
                    args.offsets.offset,
                    (push.bucket_count as u64 + 1) * 4,
                    0,
                );
            }
            return Ok(());
        }
        // One pass: input -> output; two: input -> alternates (in scratch) -> output.
        let (keys_alt, values_alt) = if self.alternate.0 > 0 {
            let (keys_at, values_at) = self.alternate_at();
            (
                scratch.part(keys_at, args.keys_out.size),
                args.values_out.map(|v| scratch.part(values_at, v.size)),
            )
        } else {
            (args.keys_out, args.values_out)
        };
        let sort_args = SortArgs {
            keys: args.keys,
            values: args.values,
            keys_alt,
            values_alt,
            scratch: sort_scratch,
            count: args.count,
        };
        let hook = DigitHook {
            kernels: self.kernels,
            aux: push.aux,
            status,
            bucket_count: push.bucket_count,
            id_bits: push.id_bits,
            params: push.params,
            keys_out: push.keys_out,
            values_out: push.values_out,
        };
        unsafe {
            // (The sort's own compute clear and its barrier follow, covering this one.)
            ctx.record_compute_fill(cmd, scratch, 4, 0)?;
            self.sort.record_with_digit_hook(ctx, cmd, &sort_args, &hook)?;
            match bucket_starts {
                // Searched in the output (the barrier makes the last pass's writes visible).
                Some(kernel) => {
                    ctx.compute_to_compute(cmd);
                    ctx.dispatch(cmd, kernel, &push, offsets.1);
                }
                // The histogram's bucket starts: the barrier before the Onesweep pass already
                // ordered them before this dispatch.
                None => {
                    push.aux = ctx.address_of(&sort_scratch) + SORT_HISTOGRAMS;
                    ctx.dispatch(cmd, offsets.0, &push, offsets.1);
                }
            }
        }
        Ok(())
    }
}
