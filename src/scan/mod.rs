//! Prefix scan: exclusive and inclusive scans of the sort's six key types ([`KeyType`]) with
//! [`ReduceOp::Sum`], [`ReduceOp::Min`] or [`ReduceOp::Max`] ([`ScanDesc::combine`]), in place
//! or out of place, any count up to [`SCAN_MAX_COUNT`] (2^32 - 1), direct or indirect counts.
//!
//! The operations are the reduce's ([`crate::reduce`]): sums of integers wrap; sums of floats
//! are taken in any association order, starting from +0.0 (no prefix is -0.0); f64 sums need
//! the device feature `shaderFloat64` ([`Error::Unsupported`] without it); minima and maxima
//! follow the sort's order (floats in IEEE-754 totalOrder, NaNs by their bits). An exclusive
//! scan's first element is the identity: 0 for sums, the largest key of the type in the sort's
//! order for minima (f32 bits `0x7FFFFFFF`, `i32::MAX`, `u32::MAX`, ...), the smallest for
//! maxima (f32 bits `0xFFFFFFFF`, `i32::MIN`, 0, ...).
//!
//! Sums of u32 and i32 (the same bits) take the tuned u32 kernels on every path below. Every
//! other type and operation takes the typed kernels (glsl/scan/typed.comp) on the same paths,
//! tiers and tiles (docs/tuning/scan.md#typed-scans); the look-back of 64-bit elements keeps
//! two status words per tile (its scratch is larger).
//!
//! The paths:
//! - [`ScanPath::Lookback`]: single pass, decoupled look-back (tile t is workgroup t on GPUs,
//!   taken by ticket on CPU drivers; each publishes its tile's total before it scans the
//!   tile) with a bounded wait that falls back
//!   to recomputing a stalled predecessor (never hangs, whatever the scheduling). Reads the
//!   input once and writes the output once. Plans with the default tuning size the tiles to
//!   the count on GPUs: 256 x 2 vectors up to 2^18, 512 x 2 up to 2^20, 512 x 4 up to 2^21,
//!   256 x 8, and 1024 x 8 above 2^25. Scans of 33 to 512 tiles look back with the whole
//!   workgroup (a window of one status word per invocation), others with one subgroup.
//! - [`ScanPath::ReduceThenScan`]: three passes (reduce partitions, scan the partials, scan the
//!   partitions) with no inter-workgroup waiting at all; reads the input twice.
//!
//! - [`ScanPath::Small`]: one workgroup, one dispatch, for small counts. Plans with the default
//!   tuning size that workgroup to the count (from 256 x 1 for 1024 elements to 1024 x 4 for
//!   16384).
//!
//! [`ScanPath::Auto`] takes the small path up to [`ScanPlan::small_limit`] elements, else the
//! device profile's choice (look-back where the driver keeps started workgroups running; never
//! on CPU drivers such as lavapipe). In-place scans never take the look-back path: its
//! fallback re-reads a predecessor's input.
//!
//! # Synchronization contract of [`ScanPlan::record`]
//! - Before: writes to `input` and to the indirect count must be visible to the
//!   `COMPUTE_SHADER` stage (`SHADER_READ`); earlier accesses to `output` and `scratch` must be
//!   complete before `COMPUTE_SHADER` and `TRANSFER` (vkalgo clears scratch; today with a
//!   compute dispatch, the contract keeps `TRANSFER` free for a fill).
//! - vkalgo records the barriers between its own passes.
//! - After: `output` is written by the `COMPUTE_SHADER` stage (`SHADER_WRITE`); add a barrier
//!   from there before reading it. `scratch` holds nothing of use afterwards.

mod host;
mod lookback;
mod reduce_then_scan;
pub mod reference;
#[cfg(test)]
pub(crate) mod shared_constants;
mod tuning;

use crate::core::buffer::{BufferRange, ElementCount, MemoryRequirements};
use crate::core::lookback_state::LookbackScratch;
use crate::core::pipelines::Specialization;
#[cfg(test)]
use crate::core::shaders;
use crate::core::shaders::ShaderSource;
use crate::core::spirv::push_constants;
use crate::core::types::{KeyType, ReduceOp};
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;

/// Exclusive or inclusive scan (the operation is [`ScanDesc::combine`]; the sums below).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum ScanOp {
    /// `out[i] = in[0] + ... + in[i-1]` (`out[0] = 0`).
    Exclusive = 0,
    /// `out[i] = in[0] + ... + in[i]`.
    Inclusive = 1,
}

/// Which scan algorithm to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum ScanPath {
    /// The device profile decides (look-back where allowed).
    Auto = 0,
    /// Single-pass decoupled look-back (needs 64-bit buffer atomics).
    Lookback = 1,
    /// Reduce-then-scan: no inter-workgroup waiting.
    ReduceThenScan = 2,
    /// One workgroup scans everything, tile after tile, in one dispatch: no scratch clear, no
    /// waiting, the lowest latency for small counts ([`ScanPath::Auto`] takes it up to
    /// [`ScanPlan::small_limit`] elements). Any count works, but large ones run on one
    /// multiprocessor.
    Small = 3,
}

/// Tuning of the scan kernels (a tile is `workgroup_size * vecs_per_thread * 4` elements).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScanTuning {
    /// Invocations per workgroup: a power of two from 32 to the device's limit.
    pub workgroup_size: u32,
    /// uvec4 vectors each invocation loads per tile (1..=8).
    pub vecs_per_thread: u32,
    /// Look-back: spins on a silent predecessor before computing its aggregate from the
    /// input instead (0: the device's default). `u32::MAX` is a test mode: every tile computes
    /// its nearest predecessor's aggregate itself, whatever the schedule (the fallbacks are
    /// counted in scratch at [`LOOKBACK_FALLBACKS_OFFSET`]).
    pub lookback_spins: u32,
}

impl ScanTuning {
    /// The tuning vkalgo uses on this device for 32-bit elements: 256 invocations x 8 vectors
    /// (8192 elements per tile) on GPUs, 4 vectors on CPU drivers; 64-bit elements take 4
    /// vectors on GPUs (`src/scan/tuning.rs`).
    pub fn for_device(ctx: &Context) -> Self {
        tuning::default_tuning(ctx.device_class())
    }

    fn tile_elements(&self) -> u64 {
        self.workgroup_size as u64 * self.vecs_per_thread as u64 * 4
    }
}

/// What to plan for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanDesc {
    /// Exclusive or inclusive.
    pub op: ScanOp,
    /// Which algorithm ([`ScanPath::Auto`]: the device profile's choice).
    pub path: ScanPath,
    /// The largest count any call of this plan will scan (sizes scratch; bounds indirect counts).
    pub max_count: u64,
    /// Kernel tuning (`None`: vkalgo's choice for the device).
    pub tuning: Option<ScanTuning>,
    /// The look-back path's scratch is this plan's own and stays zeroed between calls: the
    /// caller zeroes it once before the first call, every look-back scan leaves it zeroed
    /// again (its last workgroup clears it), and no clear is recorded before the scan (one
    /// clear dispatch and one barrier less per call, a good part of a small scan's time). The
    /// scratch must then serve no other plan or purpose. The other paths ignore it.
    pub keep_scratch_zeroed: bool,
    /// Element type ([`KeyType::U32`] by [`ScanDesc::new`]).
    pub key_type: KeyType,
    /// How elements combine ([`ReduceOp::Sum`] by [`ScanDesc::new`]; see the module docs).
    pub combine: ReduceOp,
}

impl ScanDesc {
    /// An exclusive or inclusive sum of up to `max_count` u32 elements on the default path.
    pub fn new(op: ScanOp, max_count: u64) -> Self {
        ScanDesc::typed(KeyType::U32, ReduceOp::Sum, op, max_count)
    }

    /// An exclusive or inclusive scan of up to `max_count` elements of `key_type` with
    /// `combine` on the default path.
    pub fn typed(key_type: KeyType, combine: ReduceOp, op: ScanOp, max_count: u64) -> Self {
        ScanDesc {
            op,
            path: ScanPath::Auto,
            max_count,
            tuning: None,
            keep_scratch_zeroed: false,
            key_type,
            combine,
        }
    }

    /// The same description with `path`.
    pub fn with_path(self, path: ScanPath) -> Self {
        ScanDesc { path, ..self }
    }

    /// Bytes of one element.
    fn element_bytes(&self) -> u64 {
        self.key_type.bytes()
    }
}

impl Default for ScanDesc {
    /// An exclusive u32 sum of up to 0 elements on the default path.
    fn default() -> Self {
        ScanDesc::new(ScanOp::Exclusive, 0)
    }
}

/// The typed kernel of a scan of `key_type` with `combine` (glsl/scan/typed.comp: its
/// reduce-then-scan passes), or `None` where the u32 kernels serve: sums of u32 and of i32
/// (the same bits).
fn typed_kernel(key_type: KeyType, combine: ReduceOp) -> Option<&'static ShaderSource> {
    use crate::core::shaders::*;
    match (key_type, combine) {
        (KeyType::U32 | KeyType::I32, ReduceOp::Sum) => None,
        (KeyType::F64, ReduceOp::Sum) => Some(&SCAN_TYPED_F64_SUM),
        (k, _) if k.bits() == 64 => Some(&SCAN_TYPED_K64),
        _ => Some(&SCAN_TYPED_K32),
    }
}

/// The typed look-back kernel of a scan of `key_type` with `combine` (the typed kernel's
/// TYPED_LOOKBACK permutation).
fn typed_lookback_kernel(key_type: KeyType, combine: ReduceOp) -> &'static ShaderSource {
    use crate::core::shaders::*;
    match (key_type, combine) {
        (KeyType::F64, ReduceOp::Sum) => &SCAN_TYPED_LOOKBACK_F64_SUM,
        (k, _) if k.bits() == 64 => &SCAN_TYPED_LOOKBACK_K64,
        _ => &SCAN_TYPED_LOOKBACK_K32,
    }
}

/// The buffers of one recorded scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanArgs {
    /// Input elements of the plan's key type (offset a multiple of the element size; 16 is
    /// faster for u32 and i32 sums).
    pub input: BufferRange,
    /// Output elements of the plan's key type; the same range as `input` scans in place; any
    /// other overlap is refused.
    pub output: BufferRange,
    /// Scratch memory as [`ScanPlan::memory_requirements`] asks.
    pub scratch: BufferRange,
    /// How many elements to scan.
    pub count: ElementCount,
}

/// The largest count a scan plan accepts: 2^32 - 1 elements (16 GiB of u32). Larger plans are
/// refused with [`Error::InvalidArgument`] by [`Context::scan_plan`] and therefore by every
/// host call and C function. Below it no index arithmetic of the kernels wraps (tiles are only
/// visited when they start below the count; tile and partition counts stay below 2^25), and
/// every element is reached through a 64-bit byte address (glsl/scan/scan_common.glsl), so
/// elements at 2^31 and beyond are scanned right. Integer sums wrap.
pub const SCAN_MAX_COUNT: u64 = u32::MAX as u64;

/// Largest number of partitions of the reduce-then-scan path (one scan tile of partials).
const MAX_PARTITIONS: u64 = 4096;
/// Bytes at the start of the look-back scratch before the status words (the fallback and
/// finished-workgroup counters; glsl/scan/lookback.comp).
const LOOKBACK_HEADER_BYTES: u64 = 16;
/// Alignment vkalgo asks for scratch ranges.
const SCRATCH_ALIGNMENT: u64 = 16;

push_constants! {
    /// Push constants of every scan pass (glsl/scan/scan_common.glsl, block `ScanPush`).
    pub(crate) struct ScanPush {
        input_addr: u64,
        output_addr: u64,
        aux_addr: u64,
        count_addr: u64,
        count: u32,
        max_count: u32,
        inclusive: u32,
        tiles_per_partition: u32,
        num_partitions: u32,
        flags: u32,
    }
}

/// ScanPush::flags: the typed kernel's input and output are accumulator bits (the scan of the
/// partials; glsl/scan/typed.comp).
const SCAN_FLAG_ACCUMULATOR_BITS: u32 = 4;
/// The typed kernel's passes (TYPED_PASS, bits 4-7 of constant_id 5): the reduce of each
/// partition.
const TYPED_PASS_REDUCE: u32 = 0;
/// The typed kernel's passes: the seeded scan of each partition.
const TYPED_PASS_DOWNSWEEP: u32 = 1;

/// ScanPush::flags: every invocation of the look-back scan reads a status word per step
/// (glsl/common/lookback.glsl `lookback_exclusive_prefix_workgroup`), for
/// [`lookback::WORKGROUP_LOOKBACK_TILES`].
const SCAN_FLAG_WORKGROUP_LOOKBACK: u32 = 2;

/// Where a look-back scan counts its fallbacks in scratch (a u32; diagnostics and tests).
#[doc(hidden)]
pub const LOOKBACK_FALLBACKS_OFFSET: u64 = 4;

/// A scan planned for one context: path, tuning and scratch size are fixed. Cheap to keep and
/// to record many times.
#[derive(Clone, Debug)]
pub struct ScanPlan {
    ctx: Context,
    desc: ScanDesc,
    path: ScanPath,
    /// The typed kernel (`None`: the u32 kernels; see [`typed_kernel`]).
    typed: Option<&'static ShaderSource>,
    /// The typed look-back kernel (`None` for the u32 kernels).
    typed_lookback: Option<&'static ShaderSource>,
    /// Bytes of look-back status per tile: 8 (a flag and a 32-bit value in one word), 16 for
    /// 64-bit elements (two such words).
    status_bytes: u64,
    tuning: ScanTuning,
    spin_limit: u32,
    /// Counts up to this take the small path when the plan's path was Auto (0: never).
    small_limit: u64,
    /// The look-back path's tiles by count (plans with the default tuning only; see
    /// [`tuning::LOOKBACK_TIERS`]): (largest count, tuning), ascending; a count above every
    /// entry takes the plan's tuning.
    lookback_tiers: Vec<(u64, ScanTuning)>,
    /// The small path's workgroup geometries by growing tile (plans with the default tuning
    /// only; see [`tuning::SMALL_TILES`]).
    small_geometries: Vec<ScanTuning>,
    requirements: MemoryRequirements,
}

/// How the reduce-then-scan path splits `tiles` tiles: (partitions, tiles per partition).
fn partitioning(tiles: u64) -> (u64, u64) {
    if tiles == 0 {
        return (0, 1);
    }
    let per = tiles.div_ceil(tiles.min(MAX_PARTITIONS));
    (tiles.div_ceil(per), per)
}

impl Context {
    /// Plans a scan: checks the description against the device and fixes path and tuning.
    pub fn scan_plan(&self, desc: &ScanDesc) -> Result<ScanPlan> {
        self.plan_scan(desc, false)
    }

    /// A plan whose calls all scan in place (input = output), which never take the look-back
    /// path: `Auto` keeps its one-workgroup path for small counts and is reduce-then-scan
    /// above, without the look-back pipelines a general plan creates.
    pub(crate) fn scan_plan_in_place(&self, desc: &ScanDesc) -> Result<ScanPlan> {
        self.plan_scan(desc, true)
    }

    fn plan_scan(&self, desc: &ScanDesc, in_place: bool) -> Result<ScanPlan> {
        if desc.max_count > SCAN_MAX_COUNT {
            return Err(Error::invalid(format!(
                "scan: max_count {} exceeds the largest supported count {SCAN_MAX_COUNT} (2^32 - 1)",
                desc.max_count
            )));
        }
        let tuning = desc
            .tuning
            .unwrap_or_else(|| tuning::default_tuning_for(self.device_class(), desc.key_type.bits()));
        let wg = tuning.workgroup_size;
        if !wg.is_power_of_two() || wg < 32 || wg > self.profile.max_workgroup_invocations.min(1024) {
            return Err(Error::invalid(format!(
                "scan: workgroup size {wg} is not a power of two in 32..=device limit"
            )));
        }
        if !(1..=8).contains(&tuning.vecs_per_thread) {
            return Err(Error::invalid(format!(
                "scan: vecs_per_thread {} not in 1..=8",
                tuning.vecs_per_thread
            )));
        }
        let typed = typed_kernel(desc.key_type, desc.combine);
        if desc.key_type == KeyType::F64 && desc.combine == ReduceOp::Sum && !self.supports_float64() {
            return Err(Error::unsupported(format!(
                "scan: sums of f64 keys need shaderFloat64, which {} lacks",
                self.profile.device_name
            )));
        }
        let typed_lookback = typed.map(|_| typed_lookback_kernel(desc.key_type, desc.combine));
        let status_bytes = 8 * (desc.key_type.bits() as u64 / 32);
        let path = match desc.path {
            ScanPath::Auto if self.profile.lookback && !in_place => ScanPath::Lookback,
            ScanPath::Auto => ScanPath::ReduceThenScan,
            ScanPath::Lookback if !self.profile.int64_atomics => {
                return Err(Error::unsupported(format!(
                    "scan: the look-back path needs shaderBufferInt64Atomics, which {} lacks",
                    self.profile.device_name
                )))
            }
            p => p,
        };
        let class = self.device_class();
        let max_invocations = self.profile.max_workgroup_invocations;
        let lookback_tiers = if desc.tuning.is_none() && path == ScanPath::Lookback {
            tuning::lookback_tiers(class, max_invocations, &tuning, desc.key_type.bits())
        } else {
            Vec::new()
        };
        let max_tiles = lookback_tiers
            .iter()
            .map(|(limit, t)| desc.max_count.min(*limit).div_ceil(t.tile_elements()))
            .fold(desc.max_count.div_ceil(tuning.tile_elements()), u64::max);
        let small_max_tiles = if typed.is_some() {
            SMALL_PATH_MAX_TILES_CPU_TYPED
        } else {
            SMALL_PATH_MAX_TILES_CPU
        };
        if path == ScanPath::Small && self.is_cpu_device() && max_tiles > small_max_tiles {
            // One invocation walks every tile: CPU drivers end its loops after a fixed number
            // of iterations in total (docs/driver-bugs.md#lavapipe-loop-limit).
            return Err(Error::invalid(format!(
                "scan: the small path on a CPU driver takes at most {} elements ({} requested)",
                small_max_tiles * tuning.tile_elements(),
                desc.max_count
            )));
        }
        let (max_partitions, _) = partitioning(max_tiles);
        // One partial per partition, of the element's width (u32 for the u32 kernels).
        let rts_bytes = max_partitions * if typed.is_some() { desc.element_bytes() } else { 4 };
        // A look-back plan also fits reduce-then-scan scratch: in-place calls use that path.
        let scratch_size = match path {
            ScanPath::Lookback => lookback::clear_bytes(max_tiles, status_bytes).max(rts_bytes),
            _ => rts_bytes,
        };
        let spin_limit = match tuning.lookback_spins {
            0 => tuning::default_spins(class),
            // Test mode: the shader's SPIN_LIMIT 0 forces the fallback (see the field's docs).
            u32::MAX => 0,
            spins => spins,
        };
        let small_geometries = if desc.tuning.is_none() {
            tuning::small_geometries(class, max_invocations)
        } else {
            Vec::new()
        };
        let small_limit = match desc.path {
            ScanPath::Auto => tuning::small_limit(class, &small_geometries),
            _ => 0,
        };
        let plan = ScanPlan {
            ctx: self.clone(),
            desc: *desc,
            path,
            typed,
            typed_lookback,
            status_bytes,
            tuning,
            spin_limit,
            small_limit,
            lookback_tiers,
            small_geometries,
            requirements: MemoryRequirements::scratch(scratch_size, SCRATCH_ALIGNMENT),
        };
        self.prepare_kernels(&plan.kernels())?;
        Ok(plan)
    }
}

/// Most tiles a forced [`ScanPath::Small`] plan may span on a CPU driver (its per-invocation
/// loop cap; every tile costs the walking invocation a few loop iterations).
const SMALL_PATH_MAX_TILES_CPU: u64 = 1024;
/// [`SMALL_PATH_MAX_TILES_CPU`] for the typed kernels, whose invocations loop over their
/// elements of each tile one by one.
const SMALL_PATH_MAX_TILES_CPU_TYPED: u64 = 128;

impl ScanPlan {
    /// Scratch memory every [`ScanPlan::record`] call needs.
    pub fn memory_requirements(&self) -> MemoryRequirements {
        self.requirements
    }

    /// The path this plan records (never [`ScanPath::Auto`]); in-place calls of a look-back
    /// plan record reduce-then-scan.
    pub fn path(&self) -> ScanPath {
        self.path
    }

    /// Elements per tile (one workgroup's unit of work).
    pub fn tile_size(&self) -> u64 {
        self.tuning.tile_elements()
    }

    /// The description the plan was made from.
    pub fn desc(&self) -> &ScanDesc {
        &self.desc
    }

    /// Counts up to this are scanned by one workgroup in one dispatch ([`ScanPath::Small`])
    /// when the plan was made with [`ScanPath::Auto`] (0: never).
    pub fn small_limit(&self) -> u64 {
        self.small_limit
    }

    fn specialization(&self) -> ScanSpec {
        self.specialization_of(&self.tuning)
    }

    fn specialization_of(&self, tuning: &ScanTuning) -> ScanSpec {
        ScanSpec {
            workgroup_size: tuning.workgroup_size,
            vecs_per_thread: tuning.vecs_per_thread,
            lookback_spins: self.spin_limit,
            self_cleaning: false,
            typed: self.typed.map(|_| TypedSpec {
                combine: self.desc.combine,
                key_kind: self.desc.key_type.kind(),
                pass: TYPED_PASS_DOWNSWEEP,
            }),
        }
    }

    /// The small path's geometry for `elements`: the smallest tile that holds them (`None`:
    /// the plan's tuning, for plans with the caller's tuning and counts above every tile).
    fn small_geometry(&self, elements: u64) -> Option<&ScanTuning> {
        self.small_geometries
            .iter()
            .find(|g| g.tile_elements() >= elements)
    }

    /// Every pipeline the plan's calls may record (created with the plan).
    fn kernels(&self) -> Vec<(&'static ShaderSource, ScanSpec)> {
        use crate::core::shaders::*;
        let spec = self.specialization();
        if let Some(typed) = self.typed {
            let mut list = vec![(typed, spec.pass(TYPED_PASS_DOWNSWEEP))];
            if self.path != ScanPath::Small {
                list.push((typed, spec.pass(TYPED_PASS_REDUCE)));
            }
            if self.path == ScanPath::Small || self.small_limit > 0 {
                for g in &self.small_geometries {
                    list.push((typed, self.specialization_of(g).pass(TYPED_PASS_DOWNSWEEP)));
                }
            }
            if let (ScanPath::Lookback, Some(lookback)) = (self.path, self.typed_lookback) {
                list.push((lookback, spec));
                for (_, tiles) in self.lookback_tiers.iter().filter(|(_, t)| *t != self.tuning) {
                    list.push((lookback, self.specialization_of(tiles)));
                }
            }
            self.add_self_cleaning(&mut list);
            return list;
        }
        let mut list = vec![(&SCAN_DOWNSWEEP_VEC4, spec), (&SCAN_DOWNSWEEP_SCALAR, spec)];
        if self.path != ScanPath::Small {
            list.extend([(&SCAN_REDUCE_VEC4, spec), (&SCAN_REDUCE_SCALAR, spec)]);
        }
        if self.path == ScanPath::Small || self.small_limit > 0 {
            for g in &self.small_geometries {
                let g = self.specialization_of(g);
                list.extend([(&SCAN_DOWNSWEEP_VEC4, g), (&SCAN_DOWNSWEEP_SCALAR, g)]);
            }
        }
        if self.path == ScanPath::Lookback {
            list.extend([(&SCAN_LOOKBACK_VEC4, spec), (&SCAN_LOOKBACK_SCALAR, spec)]);
            for (_, tiles) in self.lookback_tiers.iter().filter(|(_, t)| *t != self.tuning) {
                let spec = self.specialization_of(tiles);
                list.extend([(&SCAN_LOOKBACK_VEC4, spec), (&SCAN_LOOKBACK_SCALAR, spec)]);
            }
        }
        self.add_self_cleaning(&mut list);
        list
    }

    /// A plan that keeps its scratch zeroed: the self-cleaning variant of each look-back kernel
    /// of `list` beside it (a call past the self-cleaning tiles, or on a cleared scratch, takes
    /// the plain one).
    fn add_self_cleaning(&self, list: &mut Vec<(&'static ShaderSource, ScanSpec)>) {
        if !self.desc.keep_scratch_zeroed {
            return;
        }
        let is_lookback = |shader: &ShaderSource| {
            self.typed_lookback.is_some_and(|l| l.name == shader.name)
                || shader.name == crate::core::shaders::SCAN_LOOKBACK_VEC4.name
                || shader.name == crate::core::shaders::SCAN_LOOKBACK_SCALAR.name
        };
        let cleaning: Vec<_> = list
            .iter()
            .filter(|(shader, _)| is_lookback(shader))
            .map(|&(shader, spec)| {
                (
                    shader,
                    ScanSpec {
                        self_cleaning: true,
                        ..spec
                    },
                )
            })
            .collect();
        list.extend(cleaning);
    }

    /// Records the scan into `cmd` (see the module's synchronization contract). Arguments are
    /// checked first; on error nothing is recorded.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &ScanArgs) -> Result<()> {
        unsafe { self.record_scan(&self.ctx, cmd, args, false) }
    }

    /// Bytes at the start of the scratch that a scan of `elements` (out of place) reads
    /// zeroed, for [`ScanPlan::record_precleared`]: `None` where that call takes a path that
    /// needs no zeroed scratch.
    pub(crate) fn precleared_bytes(&self, elements: u64) -> Option<u64> {
        match self.recorded_path(elements, false) {
            RecordedPath::Lookback(tuning) if elements > 0 => {
                let tuning = tuning.unwrap_or(&self.tuning);
                let tiles = elements.div_ceil(tuning.tile_elements());
                Some(lookback::clear_bytes(tiles, self.status_bytes))
            }
            _ => None,
        }
    }

    /// The passes a call over `elements` records (`in_place`: input and output the same
    /// range), chosen here alone so that [`ScanPlan::precleared_bytes`] and the recording
    /// agree: counts up to the small limit (direct, or indirect with a bound that small) take
    /// one workgroup; look-back plans scan out of place in one pass, in place by
    /// reduce-then-scan.
    fn recorded_path(&self, elements: u64, in_place: bool) -> RecordedPath<'_> {
        if self.path == ScanPath::Small || elements <= self.small_limit {
            RecordedPath::Small(self.small_geometry(elements))
        } else if self.path == ScanPath::Lookback && !in_place {
            RecordedPath::Lookback(self.lookback_tiles(elements))
        } else {
            RecordedPath::ReduceThenScan
        }
    }

    /// [`ScanPlan::record`] after the caller's own commands zeroed
    /// [`ScanPlan::precleared_bytes`] bytes of the scratch for this call (with the barrier
    /// between): no clear of its own, and nothing left zeroed after it. An algorithm with a
    /// pass of its own before the scan (the multisplit's count) zeroes the scan's state there
    /// instead of recording a clear. Both take the path from `recorded_path`.
    ///
    /// # Safety
    /// As [`ScanPlan::record`].
    pub(crate) unsafe fn record_precleared(
        &self,
        ctx: &Context,
        cmd: vk::CommandBuffer,
        args: &ScanArgs,
    ) -> Result<()> {
        unsafe { self.record_scan(ctx, cmd, args, true) }
    }

    unsafe fn record_scan(
        &self,
        ctx: &Context,
        cmd: vk::CommandBuffer,
        args: &ScanArgs,
        precleared: bool,
    ) -> Result<()> {
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("scan: the command buffer is null"));
        }
        let max = self.desc.max_count;
        let (direct, elements) = args.count.resolve(ctx, "scan: count", max)?;
        if let ElementCount::Indirect(range) = args.count {
            if range.overlaps(&args.output) || range.overlaps(&args.scratch) {
                return Err(Error::invalid(
                    "scan: the count buffer overlaps the output or scratch range",
                ));
            }
        }
        if elements == 0 {
            return Ok(()); // nothing to scan (a direct count of 0, or a plan for 0 elements)
        }
        let element = self.desc.element_bytes();
        let bytes = elements * element;
        args.input.check(ctx, "scan input", bytes, element)?;
        args.output.check(ctx, "scan output", bytes, element)?;
        args.scratch.check(
            ctx,
            "scan scratch",
            self.requirements.scratch.size,
            SCRATCH_ALIGNMENT,
        )?;
        let in_place = args.input.buffer == args.output.buffer && args.input.offset == args.output.offset;
        if !in_place && args.input.overlaps(&args.output) {
            return Err(Error::invalid(
                "scan: input and output ranges overlap without being the same range",
            ));
        }
        if args.scratch.overlaps(&args.input) || args.scratch.overlaps(&args.output) {
            return Err(Error::invalid(
                "scan: the scratch range overlaps the input or output range",
            ));
        }
        let input_addr = ctx.address_of(&args.input);
        let output_addr = ctx.address_of(&args.output);
        let vec4 = input_addr % 16 == 0 && output_addr % 16 == 0;
        let push = ScanPush {
            input_addr,
            output_addr,
            aux_addr: ctx.address_of(&args.scratch),
            count_addr: match args.count {
                ElementCount::Direct(_) => 0,
                ElementCount::Indirect(range) => ctx.address_of(&range),
            },
            count: direct.unwrap_or(0) as u32,
            max_count: max as u32,
            inclusive: (self.desc.op == ScanOp::Inclusive) as u32,
            ..Default::default()
        };
        let mut pass = Pass {
            ctx,
            cmd,
            spec: self.specialization(),
            vec4,
            typed: self.typed,
            typed_lookback: self.typed_lookback,
            status_bytes: self.status_bytes,
        };
        match self.recorded_path(elements, in_place) {
            RecordedPath::Small(geometry) => {
                let tiles = self.retile(&mut pass, geometry, elements);
                reduce_then_scan::record_single(&pass, push, tiles)
            }
            RecordedPath::Lookback(tuning) => {
                let tiles = self.retile(&mut pass, tuning, elements);
                let state = match (precleared, self.desc.keep_scratch_zeroed) {
                    (true, _) => LookbackScratch::Cleared,
                    (false, keep) => LookbackScratch::of_plan(keep),
                };
                lookback::record(&pass, push, tiles, &args.scratch, state)
            }
            RecordedPath::ReduceThenScan => {
                reduce_then_scan::record(&pass, push, elements.div_ceil(self.tile_size()))
            }
        }
    }

    /// The tiles of `elements` under `tuning` (whose specialization `pass` then takes), or
    /// under the plan's tuning when there is none.
    fn retile(&self, pass: &mut Pass, tuning: Option<&ScanTuning>, elements: u64) -> u64 {
        let tuning = tuning.unwrap_or(&self.tuning);
        pass.spec = self.specialization_of(tuning);
        elements.div_ceil(tuning.tile_elements())
    }

    /// The look-back path's tuning for `elements` (None: the plan's): the first of
    /// [`ScanPlan::lookback_tiers`] whose count reaches it.
    fn lookback_tiles(&self, elements: u64) -> Option<&ScanTuning> {
        self.lookback_tiers
            .iter()
            .find(|(limit, _)| elements <= *limit)
            .map(|(_, t)| t)
    }
}

/// The passes one scan call records ([`ScanPlan::recorded_path`]), with the tuning each
/// takes (`None`: the plan's).
enum RecordedPath<'a> {
    /// One workgroup, in the smallest small geometry that holds the count.
    Small(Option<&'a ScanTuning>),
    /// One decoupled look-back pass (out of place).
    Lookback(Option<&'a ScanTuning>),
    /// Reduce, scan of the tile sums, downsweep.
    ReduceThenScan,
}

/// The specialization constants of the scan's kernels (glsl/scan/scan_common.glsl,
/// glsl/scan/typed.comp).
#[derive(Clone, Copy)]
struct ScanSpec {
    /// Invocations per workgroup (constant_id 0).
    workgroup_size: u32,
    /// uvec4 vectors per invocation per tile (VECS_PER_THREAD, constant_id 1).
    vecs_per_thread: u32,
    /// Polls of a silent predecessor in the look-back before the waiter computes that tile's
    /// part itself (SPIN_LIMIT, constant_id 2; 0 is the test mode that always does).
    lookback_spins: u32,
    /// The look-back clears its kept-zeroed state itself (SELF_CLEANING, constant_id 8).
    self_cleaning: bool,
    /// The typed kernels' constants; `None` for the u32 kernels.
    typed: Option<TypedSpec>,
}

/// The typed kernels' specialization (glsl/scan/typed.comp).
#[derive(Clone, Copy)]
struct TypedSpec {
    /// The operation (bits 0-3 of TYPED_CONFIG, constant_id 5).
    combine: ReduceOp,
    /// The key kind (KEY_ORDER, constant_id 6): 0 unsigned, 1 signed, 2 float.
    key_kind: u32,
    /// The pass, TYPED_PASS_* (bits 4-7 of TYPED_CONFIG; the look-back kernel ignores it).
    pass: u32,
}

impl ScanSpec {
    /// The typed kernel's `pass` (TYPED_PASS_*).
    fn pass(self, pass: u32) -> Self {
        ScanSpec {
            typed: self.typed.map(|t| TypedSpec { pass, ..t }),
            ..self
        }
    }
}

impl From<ScanSpec> for Specialization {
    fn from(spec: ScanSpec) -> Self {
        let (id5, id6) = match spec.typed {
            Some(t) => (t.combine as u32 | t.pass << 4, t.key_kind),
            None => (1, 0),
        };
        Specialization {
            workgroup_size: spec.workgroup_size,
            id1: spec.vecs_per_thread,
            id2: spec.lookback_spins,
            id5,
            id6,
            id8: spec.self_cleaning as u32,
        }
    }
}

/// What every pass of one recorded scan shares.
pub(crate) struct Pass<'a> {
    ctx: &'a Context,
    cmd: vk::CommandBuffer,
    spec: ScanSpec,
    vec4: bool,
    /// The typed kernel (`None`: the u32 kernels).
    typed: Option<&'static ShaderSource>,
    /// The typed look-back kernel (where `typed` is one).
    typed_lookback: Option<&'static ShaderSource>,
    /// Bytes of look-back status per tile ([`ScanPlan`]'s).
    status_bytes: u64,
}

impl Pass<'_> {
    fn shader(&self, vec4: &'static ShaderSource, scalar: &'static ShaderSource) -> &'static ShaderSource {
        if self.vec4 {
            vec4
        } else {
            scalar
        }
    }
}

/// Every scan shader with its push-constant layout (checked against the SPIR-V by a test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    [
        shaders::SCAN_REDUCE_VEC4,
        shaders::SCAN_REDUCE_SCALAR,
        shaders::SCAN_DOWNSWEEP_VEC4,
        shaders::SCAN_DOWNSWEEP_SCALAR,
        shaders::SCAN_LOOKBACK_VEC4,
        shaders::SCAN_LOOKBACK_SCALAR,
        shaders::SCAN_TYPED_K32,
        shaders::SCAN_TYPED_LOOKBACK_K32,
        shaders::SCAN_TYPED_K64,
        shaders::SCAN_TYPED_LOOKBACK_K64,
        shaders::SCAN_TYPED_F64_SUM,
        shaders::SCAN_TYPED_LOOKBACK_F64_SUM,
    ]
    .into_iter()
    .map(|s| (s, ScanPush::FIELDS, std::mem::size_of::<ScanPush>()))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::partitioning;

    #[test]
    fn partitions_cover_all_tiles() {
        for tiles in [1u64, 2, 4095, 4096, 4097, 65536, 131072, 1 << 20, 1_000_003] {
            let (parts, per) = partitioning(tiles);
            assert!(parts <= super::MAX_PARTITIONS, "{tiles}");
            assert!(
                parts * per >= tiles && (parts - 1) * per < tiles,
                "{tiles}: {parts} x {per}"
            );
        }
    }
}
