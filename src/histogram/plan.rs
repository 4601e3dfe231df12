//! The histogram plan: its checks, its pipeline and the record layer.

use super::{tuning, HistogramArgs, HistogramDesc, HistogramTuning, HISTOGRAM_MAX_COUNT};
use crate::core::buffer::{ElementCount, MemoryRequirements};
use crate::core::pipelines::Specialization;
use crate::core::shaders::{self, BucketFnKind, KeyBits, ShaderSource};
use crate::core::spirv::push_constants;
use crate::core::types::KeyType;
use crate::error::{Error, Result};
use crate::split::{BucketFn, MAX_BUCKETS};
use crate::Context;
use ash::vk;

push_constants! {
    /// Push constants of the histogram kernel (glsl/histogram/histogram.comp, block
    /// `HistogramPush`).
    pub(crate) struct HistogramPush {
        keys: u64,
        counts: u64,
        scratch: u64,
        count_addr: u64,
        aux: u64,
        count: u32,
        max_count: u32,
        bucket_count: u32,
        bit_offset: u32,
        id_bits: u32,
        pass: u32,
        params: [u32; 4],
    }
}

/// Byte offset of the running counts in the scratch (the status word's slot is first).
pub(super) const SCRATCH_COUNTS: u64 = 16;
/// The kernel's counting pass (glsl/histogram/histogram.comp `pc.pass`).
pub(super) const PASS_COUNT: u32 = 0;
/// The kernel's finish: the running counts to the caller's where the status word is clean.
pub(super) const PASS_FINISH: u32 = 1;
/// Shared counters are allocated in multiples of this many words (fewer distinct pipelines).
const SHARED_WORDS_STEP: u32 = 256;

/// Most buckets whose splitters the counting kernel searches as a tree in shared memory.
const TREE_MAX_BUCKETS: u32 = 4096;

/// The specialization constants of the histogram kernel (glsl/histogram/histogram.comp).
#[derive(Clone, Copy)]
struct HistogramSpec {
    /// Invocations per workgroup (constant_id 0).
    workgroup_size: u32,
    /// Elements per invocation per tile (constant_id 1).
    items: u32,
    /// Words of the private shared counts; 1: global atomics (SHARED_WORDS, constant_id 2).
    shared_words: u32,
    /// Nodes of the splitters' search tree in shared memory; 1: none (TREE_NODES,
    /// constant_id 5).
    tree_nodes: u32,
    /// The key kind: 0 unsigned, 1 signed, 2 float (KEY_ORDER, constant_id 6).
    key_kind: u32,
}

impl From<HistogramSpec> for Specialization {
    fn from(spec: HistogramSpec) -> Self {
        Specialization {
            workgroup_size: spec.workgroup_size,
            id1: spec.items,
            id2: spec.shared_words,
            id5: spec.tree_nodes,
            id6: spec.key_kind,
            id8: 0,
        }
    }
}

/// A histogram plan: made once for a key type, bucket function and maximum count, recorded any
/// number of times ([`HistogramPlan::record`]).
pub struct HistogramPlan {
    ctx: Context,
    desc: HistogramDesc,
    tuning: HistogramTuning,
    shader: &'static ShaderSource,
    shared_words: u32,
    tree_nodes: u32,
    groups: u32,
}

impl std::fmt::Debug for HistogramPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HistogramPlan")
            .field("desc", &self.desc)
            .field("tuning", &self.tuning)
            .field("shared_words", &self.shared_words)
            .field("tree_nodes", &self.tree_nodes)
            .field("workgroups", &self.groups)
            .finish()
    }
}

impl Context {
    /// Plans a histogram. Errors: a count over [`HISTOGRAM_MAX_COUNT`], a bucket count not in
    /// 1..=[`MAX_BUCKETS`], a bucket function against the multisplit's rules or a bad tuning
    /// ([`Error::InvalidArgument`]); a GLSL source that does not compile
    /// ([`Error::CompileError`]); a GLSL function of f64 keys on a device without
    /// `shaderFloat64`, or no shaderc library ([`Error::Unsupported`]).
    pub fn histogram_plan(&self, desc: &HistogramDesc) -> Result<HistogramPlan> {
        if desc.max_count > HISTOGRAM_MAX_COUNT {
            return Err(Error::invalid(format!(
                "histogram: max_count {} exceeds {HISTOGRAM_MAX_COUNT}",
                desc.max_count
            )));
        }
        let m = desc.bucket_count;
        if m == 0 || m > MAX_BUCKETS {
            return Err(Error::invalid(format!(
                "histogram: bucket_count {m} not in 1..={MAX_BUCKETS}"
            )));
        }
        self.check_bucket_fn(
            "histogram",
            desc.key_type,
            m,
            desc.bucket_fn,
            desc.bit_offset,
            desc.glsl.is_some(),
        )?;
        let tuning = desc.tuning.unwrap_or_else(|| HistogramTuning::for_device(self));
        check_tuning(self, &tuning)?;
        let shader = histogram_shader(desc)?;
        let shared_words = if m <= tuning.shared_buckets {
            m.next_multiple_of(SHARED_WORDS_STEP)
        } else {
            1
        };
        let tree_nodes = splitter_tree_nodes(desc, shared_words, self.profile.max_shared_memory);
        let tile = tuning.workgroup_size as u64 * tuning.items_per_invocation as u64;
        let groups = desc
            .max_count
            .div_ceil(tile)
            .clamp(1, tuning.max_workgroups as u64) as u32;
        let plan = HistogramPlan {
            ctx: self.clone(),
            desc: desc.clone(),
            tuning,
            shader,
            shared_words,
            tree_nodes,
            groups,
        };
        self.prepare_kernels(&[(shader, plan.spec())])?;
        Ok(plan)
    }
}

/// Nodes of the search tree the counting kernel builds of the splitters in shared memory (the
/// next power of two of `m`), or 1 for none: splitters only, at most [`TREE_MAX_BUCKETS`]
/// buckets, where the tree fits beside the private counts (docs/tuning/histogram.md#splitter-tree).
fn splitter_tree_nodes(desc: &HistogramDesc, shared_words: u32, max_shared_memory: u32) -> u32 {
    let m = desc.bucket_count;
    if desc.bucket_fn != BucketFn::Splitters || !(2..=TREE_MAX_BUCKETS).contains(&m) {
        return 1;
    }
    let nodes = m.next_power_of_two();
    let bytes = nodes as u64 * desc.key_type.bytes() + shared_words as u64 * 4;
    if bytes > max_shared_memory as u64 {
        return 1;
    }
    nodes
}

/// The counting kernel for the plan's key width and bucket function (GLSL: compiled with the
/// caller's source through the multisplit's cache).
fn histogram_shader(desc: &HistogramDesc) -> Result<&'static ShaderSource> {
    let key = KeyBits::of(desc.key_type);
    let kind = match desc.bucket_fn {
        BucketFn::Bits => BucketFnKind::Bits,
        BucketFn::Splitters => BucketFnKind::Splitters,
        BucketFn::Ids => BucketFnKind::Ids,
        BucketFn::Glsl => {
            let source = desc.glsl.as_deref().unwrap_or_default();
            return crate::split::histogram_glsl_shader(source, desc.key_type);
        }
    };
    shaders::histogram(kind, key)
        .ok_or_else(|| Error::Internal(format!("histogram: no shader {kind:?} for {key:?}")))
}

fn check_tuning(ctx: &Context, t: &HistogramTuning) -> Result<()> {
    let wg = t.workgroup_size;
    if !wg.is_power_of_two() || wg < 32 || wg > ctx.profile.max_workgroup_invocations.min(1024) {
        return Err(Error::invalid(format!(
            "histogram: workgroup size {wg} is not a power of two in 32..=device limit"
        )));
    }
    if !(1..=16).contains(&t.items_per_invocation) {
        return Err(Error::invalid(format!(
            "histogram: items_per_invocation {} not in 1..=16",
            t.items_per_invocation
        )));
    }
    if !(1..=tuning::MAX_WORKGROUPS).contains(&t.max_workgroups) {
        return Err(Error::invalid(format!(
            "histogram: max_workgroups {} not in 1..={}",
            t.max_workgroups,
            tuning::MAX_WORKGROUPS
        )));
    }
    // The private counts (rounded up) must fit the device's shared memory.
    let bytes = (t.shared_buckets as u64).next_multiple_of(SHARED_WORDS_STEP as u64) * 4;
    if bytes > ctx.profile.max_shared_memory as u64 {
        return Err(Error::invalid(format!(
            "histogram: shared_buckets {} do not fit the device's {} bytes of shared memory",
            t.shared_buckets, ctx.profile.max_shared_memory
        )));
    }
    Ok(())
}

fn key_kind(key_type: KeyType) -> u32 {
    match key_type {
        KeyType::I32 | KeyType::I64 => 1,
        KeyType::F32 | KeyType::F64 => 2,
        _ => 0,
    }
}

impl HistogramPlan {
    /// What the plan was made for.
    pub fn desc(&self) -> &HistogramDesc {
        &self.desc
    }

    /// The kernel tuning the plan uses.
    pub fn tuning(&self) -> HistogramTuning {
        self.tuning
    }

    /// Whether the plan counts in shared memory (else with global atomics only).
    pub fn shared_counts(&self) -> bool {
        self.shared_words > 1
    }

    /// Scratch every [`HistogramPlan::record`] call needs: the status word's slot and `m`
    /// running counts.
    pub fn memory_requirements(&self) -> MemoryRequirements {
        MemoryRequirements::scratch(self.scratch_bytes(), 16)
    }

    fn scratch_bytes(&self) -> u64 {
        (SCRATCH_COUNTS + self.desc.bucket_count as u64 * 4).next_multiple_of(16)
    }

    fn spec(&self) -> HistogramSpec {
        HistogramSpec {
            workgroup_size: self.tuning.workgroup_size,
            items: self.tuning.items_per_invocation,
            shared_words: self.shared_words,
            tree_nodes: self.tree_nodes,
            key_kind: key_kind(self.desc.key_type),
        }
    }

    /// Checks the call's buffers against the plan: the count (direct, or `None` for an
    /// indirect one) and the most elements it may be.
    fn check_args(&self, args: &HistogramArgs) -> Result<(Option<u64>, u64)> {
        let ctx = &self.ctx;
        let (direct, n) = args.count.resolve(ctx, "histogram: count", self.desc.max_count)?;
        let kb = self.desc.key_type.bytes();
        let m = self.desc.bucket_count as u64;
        let mut reads = Vec::new();
        if self.desc.bucket_fn != BucketFn::Ids {
            args.keys.check(ctx, "histogram keys", n * kb, kb)?;
            reads.push(args.keys.part(0, n * kb));
        }
        match (self.desc.bucket_fn, args.splitters, args.bucket_ids) {
            (BucketFn::Splitters, Some(s), None) if m > 1 => {
                s.check(ctx, "histogram splitters", (m - 1) * kb, kb)?;
                reads.push(s.part(0, (m - 1) * kb));
            }
            (BucketFn::Splitters, None, None) if m == 1 => {}
            (BucketFn::Splitters, _, _) => {
                return Err(Error::invalid(
                    "histogram: SPLITTERS needs the splitters range (none for one bucket) and no bucket_ids",
                ))
            }
            (BucketFn::Ids, None, Some(ids)) => {
                ids.check(ctx, "histogram bucket_ids", n * 4, 4)?;
                reads.push(ids.part(0, n * 4));
            }
            (BucketFn::Ids, _, _) => {
                return Err(Error::invalid(
                    "histogram: IDS needs the bucket_ids range and no splitters",
                ))
            }
            (_, None, None) => {}
            _ => {
                return Err(Error::invalid(
                    "histogram: splitters and bucket_ids are only for SPLITTERS and IDS",
                ))
            }
        }
        if let ElementCount::Indirect(range) = args.count {
            reads.push(range.part(0, 4));
        }
        args.counts.check(ctx, "histogram counts", m * 4, 4)?;
        args.scratch
            .check(ctx, "histogram scratch", self.scratch_bytes(), 16)?;
        let counts = args.counts.part(0, m * 4);
        let scratch = args.scratch.part(0, self.scratch_bytes());
        if counts.overlaps(&scratch) || reads.iter().any(|r| r.overlaps(&counts) || r.overlaps(&scratch)) {
            return Err(Error::invalid(
                "histogram: the counts or the scratch overlap another range of the call",
            ));
        }
        Ok((direct, n))
    }

    /// Records the histogram of `args.count` elements into `args.counts`: a compute fill
    /// of the scratch, a barrier, the count, a barrier and the finish (see the module docs
    /// for the synchronization contract; the status word says whether a bucket id was out of
    /// range). Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &HistogramArgs) -> Result<()> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("histogram: the command buffer is null"));
        }
        let (direct, _) = self.check_args(args)?;
        let kernel = ctx.kernel(self.shader, self.spec())?;
        let m = self.desc.bucket_count;
        let push = HistogramPush {
            keys: if self.desc.bucket_fn == BucketFn::Ids {
                0
            } else {
                ctx.address_of(&args.keys)
            },
            counts: ctx.address_of(&args.counts),
            scratch: ctx.address_of(&args.scratch),
            count_addr: match args.count {
                ElementCount::Indirect(range) => ctx.address_of(&range),
                ElementCount::Direct(_) => 0,
            },
            aux: match (args.splitters, args.bucket_ids) {
                (Some(r), _) | (_, Some(r)) => ctx.address_of(&r),
                _ => 0,
            },
            count: direct.unwrap_or(0) as u32,
            max_count: self.desc.max_count as u32,
            bucket_count: m,
            bit_offset: self.desc.bit_offset,
            id_bits: id_bits(m),
            pass: PASS_COUNT,
            params: args.params,
        };
        let finish = HistogramPush {
            pass: PASS_FINISH,
            ..push
        };
        let finish_groups = m.div_ceil(self.tuning.workgroup_size);
        let scratch = args.scratch;
        let words = (self.scratch_bytes() / 4) as u32;
        // SAFETY: `cmd` is recording (documented); the ranges were checked above. A compute
        // clear and a compute barrier cost less than a fill and a transfer barrier
        // (docs/tuning/core.md#compute-fill).
        unsafe {
            ctx.record_compute_fill(cmd, &scratch.part(0, words as u64 * 4), words, 0)?;
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, kernel, &push, self.groups);
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, kernel, &finish, finish_groups);
        }
        Ok(())
    }
}

/// Bits of a bucket id below `m`: ceil(log2(m)).
fn id_bits(m: u32) -> u32 {
    if m <= 1 {
        0
    } else {
        32 - (m - 1).leading_zeros()
    }
}

/// The histogram shaders with their push-constant layout (checked against the SPIR-V by a
/// test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("histogram_"))
        .map(|s| (*s, HistogramPush::FIELDS, std::mem::size_of::<HistogramPush>()))
        .collect()
}
