//! Planning a sort: the description checked against the device, the path chosen, the limits
//! of the single-workgroup kernels and the memory the plan needs.

use super::geometry::{block_merge_shared_bytes, blocking, shared_bytes, Stage};
use super::push::{histogram_scan_shader, sort_shader};
use super::tuning;
#[cfg(doc)]
use super::BLOCK_MERGE_MIN_PASSES;
use super::{
    SortDesc, SortPath, SortResult, SortTuning, ALIGNMENT, MAX_BLOCKS, MAX_TILE_KEYS, RADIX_BITS, RING_TILES,
    SCRATCH_RING, SMALL_TILES, SORT_MAX_COUNT,
};
use crate::core::buffer::{BufferRequirements, MemoryRequirements};
use crate::core::pipelines::Specialization;
use crate::core::shaders::{ShaderSource, SortKernel};
use crate::core::types::ValueType;
use crate::error::{Error, Result};
use crate::scan::{ScanDesc, ScanOp, ScanPath, ScanPlan};
use crate::Context;

/// A sort planned for one context: paths, tuning and memory sizes are fixed. Cheap to keep and
/// to record many times.
#[derive(Clone, Debug)]
pub struct SortPlan {
    pub(super) ctx: Context,
    pub(super) desc: SortDesc,
    pub(super) path: SortPath,
    pub(super) tuning: SortTuning,
    pub(super) spin_limit: u32,
    pub(super) end_bit: u32,
    pub(super) pass_count: u32,
    pub(super) requirements: MemoryRequirements,
    pub(super) block_scan: Option<ScanPlan>,
    /// Largest count of the small path (0 where its kernels do not fit the device).
    pub(super) small_limit: u64,
    /// Largest count of the shared-memory-resident kernel (0 where it does not fit).
    pub(super) resident_limit: u64,
    /// Workgroup size and keys per invocation of the resident kernel.
    pub(super) resident_tuning: SortTuning,
    /// Whether the resident kernel keeps its digit counters apart from its stage
    /// ([`SortPlan::resident_counters_apart`]).
    pub(super) resident_counters_apart: bool,
    /// Whether the single-workgroup path up to `resident_limit` sorts by merging
    /// (glsl/sort/block_merge.comp) rather than by radix passes: see [`BLOCK_MERGE_MIN_PASSES`].
    pub(super) resident_merges: bool,
    /// Largest count Auto sorts on the small path.
    pub(super) auto_small_limit: u64,
}

/// The geometry of the shared-memory-resident kernel (glsl/sort/resident.comp): its workgroup
/// size and keys per invocation, whose product is the most elements it sorts; `None` where it
/// does not fit the device.
///
/// With the caller's tuning, that tuning (its tile is then the resident capacity). Otherwise
/// the first workgroup size of the tuning table ([`tuning::resident_shapes`]) the device
/// allows, with the most keys per invocation (up to the row's limit) whose whole-tile stage
/// fits the shared memory the device reports: the key and value widths decide the capacity
/// (the stage holds max(key, value) words per element; with 48 KiB and 512 invocations, 8192
/// 4-byte or 5120 8-byte elements). Then no more keys per invocation than `max_count` needs
/// (a plan for 2^10 keys runs 512 x 2).
fn resident_geometry(ctx: &Context, desc: &SortDesc, tuning: &SortTuning) -> Option<SortTuning> {
    let fits =
        |t: &SortTuning| shared_bytes(ctx, t, desc, Stage::WholeTile) <= ctx.profile.max_shared_memory as u64;
    if desc.tuning.is_some() {
        return fits(tuning).then_some(*tuning);
    }
    let subgroup = ctx.profile.max_subgroup_size.max(32);
    let widest = tuning::resident_shapes(ctx.device_class())
        .filter(|shape| {
            shape.workgroup_size <= ctx.profile.max_workgroup_invocations
                && shape.workgroup_size % subgroup == 0
        })
        .find_map(|shape| {
            (1..=shape.max_keys).rev().find_map(|keys_per_thread| {
                let t = SortTuning {
                    workgroup_size: shape.workgroup_size,
                    keys_per_thread,
                    lookback_spins: 0,
                    stage_split: 1,
                };
                fits(&t).then_some(t)
            })
        })?;
    // No more keys per invocation than the plan's largest count needs: every pass costs as
    // many ranking steps as the kernel holds keys, used or not (docs/tuning/sort.md#resident-geometry).
    let needed = desc.max_count.div_ceil(widest.workgroup_size as u64).max(1);
    Some(SortTuning {
        keys_per_thread: widest.keys_per_thread.min(needed as u32),
        ..widest
    })
}

/// The limits of the single-workgroup kernels for a plan's description and tuning.
struct SmallLimits {
    /// Shared memory of the tiled single-workgroup kernel (it stages its whole tile at once).
    tiled_shared: u64,
    /// Largest count of the single-workgroup path ([`SortPlan::small_limit`]).
    small_limit: u64,
    /// Largest count Auto sends there ([`SortPlan::auto_small_limit`]).
    auto_small_limit: u64,
    /// The resident kernel's geometry, where it fits.
    resident: Option<SortTuning>,
    /// Largest count of the resident kernel ([`SortPlan::resident_limit`]).
    resident_limit: u64,
}

impl Context {
    /// Plans a sort: checks the description against the device and fixes paths, tuning and
    /// memory sizes.
    pub fn sort_plan(&self, desc: &SortDesc) -> Result<SortPlan> {
        let end_bit = check_bit_range(desc)?;
        let tuning = desc
            .tuning
            .unwrap_or_else(|| SortTuning::for_device(self, desc.key_type, desc.value_type, desc.max_count));
        check_tuning(self, desc, &tuning)?;
        let limits = small_limits(self, desc, &tuning);
        let path = choose_path(self, desc, &tuning, &limits)?;
        let (block_scan, scratch_size) = scratch(self, desc, &tuning, path)?;
        let spin_limit = match tuning.lookback_spins {
            0 => tuning::default_lookback_spins(self.device_class()),
            // Test mode: the shader's SPIN_LIMIT 0 forces the fallback (see the field's docs).
            u32::MAX => 0,
            spins => spins,
        };
        let pass_count = (end_bit - desc.begin_bit).div_ceil(RADIX_BITS);
        let max_shared = self.profile.max_shared_memory as u64;
        let resident = limits.resident;
        let resident_merges = resident.is_some_and(|t| {
            pass_count >= tuning::block_merge_min_passes(self.device_class())
                && t.workgroup_size.is_power_of_two()
                && block_merge_shared_bytes(desc, &t) <= max_shared
        });
        let resident_counters_apart = desc.tuning.is_none()
            && !resident_merges
            && resident.is_some_and(|t| shared_bytes(self, &t, desc, Stage::WholeTileApart) <= max_shared);
        let plan = SortPlan {
            ctx: self.clone(),
            desc: *desc,
            path,
            tuning,
            spin_limit,
            end_bit,
            pass_count,
            requirements: MemoryRequirements {
                keys_alt: BufferRequirements::new(desc.max_count * desc.key_type.bytes(), ALIGNMENT),
                values_alt: BufferRequirements::new(desc.max_count * desc.value_type.bytes(), ALIGNMENT),
                ..MemoryRequirements::scratch(scratch_size, ALIGNMENT)
            },
            block_scan,
            small_limit: limits.small_limit,
            auto_small_limit: limits.auto_small_limit,
            resident_limit: limits.resident_limit,
            resident_tuning: resident.unwrap_or(tuning),
            resident_merges,
            resident_counters_apart,
        };
        self.prepare_kernels(&plan.kernels()?)?;
        Ok(plan)
    }
}

/// Checks the count and the bit range of `desc`; returns the end bit (the key's width for 0).
fn check_bit_range(desc: &SortDesc) -> Result<u32> {
    if desc.max_count > SORT_MAX_COUNT {
        return Err(Error::invalid(format!(
            "sort: max_count {} exceeds the largest supported count {SORT_MAX_COUNT} (2^32 - 2^15)",
            desc.max_count
        )));
    }
    let width = desc.key_type.bits();
    let end_bit = if desc.end_bit == 0 { width } else { desc.end_bit };
    if end_bit > width {
        return Err(Error::invalid(format!(
            "sort: end_bit {end_bit} is beyond the {width}-bit key"
        )));
    }
    if desc.begin_bit >= end_bit {
        return Err(Error::invalid(format!(
            "sort: begin_bit {} must be below end_bit {end_bit}",
            desc.begin_bit
        )));
    }
    Ok(end_bit)
}

/// Checks `tuning` against the kernels' rules and the device's limits.
fn check_tuning(ctx: &Context, desc: &SortDesc, tuning: &SortTuning) -> Result<()> {
    let wg = tuning.workgroup_size;
    let subgroup = ctx.profile.max_subgroup_size.max(32);
    if wg == 0 || wg % subgroup != 0 || wg > ctx.profile.max_workgroup_invocations.min(1024) {
        return Err(Error::invalid(format!(
            "sort: workgroup size {wg} is not a multiple of {subgroup} in {subgroup}..=device limit"
        )));
    }
    // (At most 1024 x 32 = 32768 keys per tile: ranks in a tile are 16-bit.)
    if !(1..=32).contains(&tuning.keys_per_thread) {
        return Err(Error::invalid(format!(
            "sort: keys_per_thread {} not in 1..=32",
            tuning.keys_per_thread
        )));
    }
    // (So a tile holds at most MAX_TILE_KEYS keys: SORT_MAX_COUNT rests on it.)
    debug_assert!(tuning.tile_keys() <= MAX_TILE_KEYS);
    if !(1..=2).contains(&tuning.stage_split) {
        return Err(Error::invalid(format!(
            "sort: stage_split {} is not 1 or 2",
            tuning.stage_split
        )));
    }
    let rounds = tuning.staging_rounds(desc);
    if tuning.keys_per_thread % rounds != 0 {
        return Err(Error::invalid(format!(
            "sort: keys_per_thread {} must be a multiple of {rounds}, the most staging rounds of these types with stage_split {}",
            tuning.keys_per_thread, tuning.stage_split
        )));
    }
    let max_shared = ctx.profile.max_shared_memory as u64;
    let shared = shared_bytes(ctx, tuning, desc, Stage::Rounds);
    if shared > max_shared {
        return Err(Error::invalid(format!(
            "sort: tuning {}x{} needs {shared} bytes of shared memory; {} has {max_shared}",
            wg, tuning.keys_per_thread, ctx.profile.device_name
        )));
    }
    Ok(())
}

/// The single-workgroup kernels' limits. They stage their whole tile at once: with a large
/// tile they may not fit, and then the plan never takes the small path. The resident kernel
/// sorts what fits its shared memory; the tiled one up to SMALL_TILES tiles.
fn small_limits(ctx: &Context, desc: &SortDesc, tuning: &SortTuning) -> SmallLimits {
    let tiled_shared = shared_bytes(ctx, tuning, desc, Stage::WholeTile);
    let tiled_limit = if tiled_shared <= ctx.profile.max_shared_memory as u64 {
        SMALL_TILES * tuning.tile_keys()
    } else {
        0
    };
    let auto_tiles = tuning::auto_small_tiles(ctx.device_class(), ctx.profile.lookback);
    let tiled_auto_limit = tiled_limit.min(auto_tiles * tuning.tile_keys());
    let resident = resident_geometry(ctx, desc, tuning);
    let resident_limit = resident.map_or(0, |t| t.tile_keys());
    SmallLimits {
        tiled_shared,
        small_limit: tiled_limit.max(resident_limit),
        auto_small_limit: tiled_auto_limit.max(resident_limit),
        resident,
        resident_limit,
    }
}

/// The path a plan records (never Auto), or why the description's path cannot run.
fn choose_path(
    ctx: &Context,
    desc: &SortDesc,
    tuning: &SortTuning,
    limits: &SmallLimits,
) -> Result<SortPath> {
    let small_limit = limits.small_limit;
    Ok(match desc.path {
        SortPath::Small if small_limit == 0 => {
            return Err(Error::invalid(format!(
                "sort: the small path with tuning {}x{} needs {} bytes of shared memory; {} has {}",
                tuning.workgroup_size,
                tuning.keys_per_thread,
                limits.tiled_shared,
                ctx.profile.device_name,
                ctx.profile.max_shared_memory as u64
            )))
        }
        SortPath::Auto if desc.max_count <= limits.auto_small_limit => SortPath::Small,
        SortPath::Auto if ctx.profile.lookback => SortPath::Onesweep,
        SortPath::Auto => SortPath::Safe,
        SortPath::Onesweep if !ctx.profile.int64_atomics => {
            return Err(Error::unsupported(format!(
                "sort: the Onesweep path needs shaderBufferInt64Atomics, which {} lacks",
                ctx.profile.device_name
            )))
        }
        SortPath::Small if desc.max_count > small_limit => {
            return Err(Error::invalid(format!(
                "sort: the small path sorts at most {small_limit} elements with this tuning; max_count is {}",
                desc.max_count
            )))
        }
        p => p,
    })
}

/// The safe path's scan of the block counts, and the scratch size of the plan's path.
fn scratch(
    ctx: &Context,
    desc: &SortDesc,
    tuning: &SortTuning,
    path: SortPath,
) -> Result<(Option<ScanPlan>, u64)> {
    let max_tiles = desc.max_count.div_ceil(tuning.tile_keys());
    let (blocks, _) = blocking(max_tiles, MAX_BLOCKS);
    let block_scan = if path == SortPath::Safe {
        Some(ctx.scan_plan(&ScanDesc {
            op: ScanOp::Exclusive,
            path: ScanPath::ReduceThenScan,
            max_count: 256 * blocks.max(1),
            tuning: None,
            keep_scratch_zeroed: false,
            ..Default::default()
        })?)
    } else {
        None
    };
    let safe_bytes = block_scan.as_ref().map_or(0, |scan| {
        let counts = (256 * blocks * 4).next_multiple_of(ALIGNMENT);
        SCRATCH_RING + counts + scan.memory_requirements().scratch.size
    });
    let scratch_size = match path {
        SortPath::Onesweep => SCRATCH_RING + RING_TILES * 256 * 8,
        SortPath::Safe => safe_bytes,
        _ => ALIGNMENT,
    };
    Ok((block_scan, scratch_size))
}

/// The specialization constants of the sort's kernels (glsl/sort/sort_common.glsl).
#[derive(Clone, Copy)]
pub(super) struct SortSpec {
    /// Invocations per workgroup (constant_id 0).
    pub(super) workgroup_size: u32,
    /// Keys per invocation per tile (KEYS_PER_THREAD, constant_id 1).
    pub(super) keys_per_thread: u32,
    /// Polls of a silent predecessor in the look-back before the waiter computes that tile's
    /// part itself (SPIN_LIMIT, constant_id 2; 0 is the test mode that always does).
    pub(super) lookback_spins: u32,
    /// Parts the staged tile is split into per element word (STAGE_SPLIT, constant_id 5); the
    /// resident kernel reads it as its pool layout (2: the digit counters apart).
    pub(super) stage_split: u32,
    /// Key kind (0 unsigned, 1 signed, 2 float) | 4 for descending (KEY_ORDER, constant_id 6).
    pub(super) key_order: u32,
}

impl From<SortSpec> for Specialization {
    fn from(spec: SortSpec) -> Self {
        Specialization {
            workgroup_size: spec.workgroup_size,
            id1: spec.keys_per_thread,
            id2: spec.lookback_spins,
            id5: spec.stage_split,
            id6: spec.key_order,
            id8: 0,
        }
    }
}

impl SortPlan {
    /// Every pipeline the plan's calls may record (created with the plan; the block scan of
    /// the safe path is a scan plan with its own).
    fn kernels(&self) -> Result<Vec<(&'static ShaderSource, SortSpec)>> {
        let spec = self.specialization();
        let (key_type, value_type) = (self.desc.key_type, self.desc.value_type);
        let shader = |kernel| sort_shader(kernel, key_type, value_type);
        let mut list = Vec::new();
        if self.path == SortPath::Small || (self.desc.path == SortPath::Auto && self.small_limit > 0) {
            // The kernels of the counts that may take the single-workgroup path: the resident
            // one for counts up to its limit, the tiled one above it.
            let single_most = if self.path == SortPath::Small {
                self.desc.max_count
            } else {
                self.desc.max_count.min(self.auto_small_limit)
            };
            if self.resident_merges {
                list.push((shader(SortKernel::BlockMerge)?, self.resident_specialization()));
            } else if self.resident_limit > 0 {
                for kernel in [SortKernel::Resident, SortKernel::ResidentAll] {
                    list.push((shader(kernel)?, self.resident_specialization()));
                }
            }
            if single_most > self.resident_limit {
                list.push((shader(SortKernel::Small)?, spec));
            }
        }
        let counting = match self.path {
            SortPath::Onesweep => {
                list.push((histogram_scan_shader()?, spec));
                list.push((shader(SortKernel::Onesweep)?, spec));
                SortKernel::Histogram
            }
            SortPath::Safe => {
                list.push((shader(SortKernel::Downsweep)?, spec));
                SortKernel::Upsweep
            }
            _ => return Ok(list),
        };
        list.push((sort_shader(counting, key_type, ValueType::None)?, spec));
        Ok(list)
    }

    /// Alternate buffers and scratch every [`SortPlan::record`] call needs.
    pub fn memory_requirements(&self) -> MemoryRequirements {
        self.requirements
    }

    /// The path this plan records for counts above [`SortPlan::auto_small_limit`] (never
    /// [`SortPath::Auto`]).
    pub fn path(&self) -> SortPath {
        self.path
    }

    /// The tuning the plan's tile kernels run with (the caller's, or [`SortTuning::for_device`];
    /// the resident single-workgroup kernel takes its own geometry unless the caller gave one:
    /// see [`SortPlan::resident_limit`]).
    pub fn tuning(&self) -> SortTuning {
        self.tuning
    }

    /// Keys per tile (one workgroup's unit of work).
    pub fn tile_size(&self) -> u64 {
        self.tuning.tile_keys()
    }

    /// Largest count the single-workgroup path handles ([`SortPath::Small`] plans up to it):
    /// the larger of [`SortPlan::resident_limit`] and four tiles of the tiled single-workgroup
    /// kernel. 0 where neither kernel fits the device with the plan's tuning.
    pub fn small_limit(&self) -> u64 {
        self.small_limit
    }

    /// Largest count [`SortPath::Auto`] plans sort on the single-workgroup path: the larger of
    /// [`SortPlan::resident_limit`] and the tiled kernel's limit, which is the small limit, or
    /// one tile where the device runs the Onesweep path (faster from two tiles up).
    pub fn auto_small_limit(&self) -> u64 {
        self.auto_small_limit
    }

    /// Largest count the single-workgroup path sorts with the shared-memory-resident kernel
    /// (keys and values read once, every digit pass in registers and shared memory, the result
    /// written once): as many elements as the stage of one workgroup's shared memory holds for
    /// the plan's key and value widths, or fewer where the plan's `max_count` needs fewer
    /// keys per invocation (see [`SortPlan::small_limit`]; with the caller's tuning, its tile).
    /// Counts up to it on the single-workgroup path take this kernel; an indirect
    /// count takes it where the plan's `max_count` is up to it. 0 where it does not fit.
    /// Plans of seven or more digit passes sort these counts by merging in the same geometry
    /// ([`SortPlan::resident_merges`]).
    pub fn resident_limit(&self) -> u64 {
        self.resident_limit
    }

    /// Digit passes of one sort (8 bits each over `[begin_bit, end_bit)`).
    pub fn pass_count(&self) -> u32 {
        self.pass_count
    }

    /// Whether counts up to [`SortPlan::resident_limit`] are merge-sorted in one workgroup
    /// (glsl/sort/block_merge.comp) instead of radix-sorted there: plans of at least
    /// [`BLOCK_MERGE_MIN_PASSES`] digit passes whose resident geometry has a power-of-two
    /// workgroup and whose whole tile of keys and values fits the shared memory.
    pub fn resident_merges(&self) -> bool {
        self.resident_merges
    }

    /// Whether the resident radix kernel keeps its digit counters apart from the stage of its
    /// tile (plans of the default tuning whose geometry has room for both): staging then never
    /// overwrites the counters, so a pass needs neither the barriers that keep the two apart
    /// nor a clear of the counters before the next pass (glsl/sort/resident.comp; the counters
    /// are carried from pass to pass: docs/tuning/sort.md#resident-counters-apart). With the
    /// caller's tuning the two share one pool, the smaller layout.
    pub fn resident_counters_apart(&self) -> bool {
        self.resident_counters_apart
    }

    /// Where every [`SortPlan::record`] of this plan leaves the result.
    pub fn result_location(&self) -> SortResult {
        if self.pass_count % 2 == 0 {
            SortResult::InPlace
        } else {
            SortResult::Alternate
        }
    }

    /// The description the plan was made from.
    pub fn desc(&self) -> &SortDesc {
        &self.desc
    }

    pub(super) fn specialization(&self) -> SortSpec {
        SortSpec {
            workgroup_size: self.tuning.workgroup_size,
            keys_per_thread: self.tuning.keys_per_thread,
            lookback_spins: self.spin_limit,
            stage_split: self.tuning.stage_split,
            key_order: self.desc.key_type.kind() | ((self.desc.descending as u32) << 2),
        }
    }

    /// The resident kernel's constants: its own geometry, and in place of the stage split
    /// (it stages the whole tile at once) its pool layout: 2 with the digit counters apart, else
    /// 1 (glsl/sort/sort_common.glsl, RESIDENT_COUNTERS_APART).
    pub(super) fn resident_specialization(&self) -> SortSpec {
        SortSpec {
            workgroup_size: self.resident_tuning.workgroup_size,
            keys_per_thread: self.resident_tuning.keys_per_thread,
            stage_split: if self.resident_counters_apart { 2 } else { 1 },
            ..self.specialization()
        }
    }

    /// Whether a count runs the resident kernel's permutation without a per-step test
    /// (`resident_all`, ALL_STEPS): a direct count that uses every ranking step of the
    /// geometry (ceil(count / workgroup size) = keys per invocation). The test's branch costs a
    /// MATCH instruction per step in NVIDIA's machine code, even on a count from the push
    /// constants (docs/tuning/sort.md#resident-all-steps).
    pub(super) fn resident_all_steps(&self, direct: Option<u64>) -> bool {
        let tuning = self.resident_tuning;
        direct.is_some_and(|n| n.div_ceil(tuning.workgroup_size as u64) == tuning.keys_per_thread as u64)
    }
}
