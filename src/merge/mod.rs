//! Stable merge of sorted runs by the merge path (co-rank), set operations on sorted arrays,
//! and a segmented merge / stable merge sort built on the same kernels.
//!
//! Keys are any of the radix sort's six key types ([`KeyType`]) in the sort's order (floats in
//! IEEE-754 totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN), ascending or
//! descending, optionally with 4- or 8-byte values ([`ValueType`]).
//!
//! - [`MergePlan`]: merges two sorted runs A and B into one. Stable: equal keys keep A's
//!   elements first, each run in its own order. A small partition kernel finds the co-ranks of
//!   every output tile (one search per tile boundary, in global memory: by a cluster of lanes
//!   where boundaries are few, a galloping search within the workgroup's window where they are
//!   many; both start from where the co-rank would be if A and B were drawn from one
//!   distribution) and writes them to a tile table; then each workgroup stages its tile's spans of A
//!   and B in shared memory with coalesced loads, every invocation finds its own co-rank by
//!   binary search in shared memory and merges several outputs, and the tile goes out
//!   coalesced (a merge of keys alone gives each workgroup two consecutive tiles and loads the
//!   second one's keys while the first merges). Small merges
//!   ([`MergePlan::small_limit`]: about 2^20 outputs of keys alone, 2^22 with values) skip the
//!   partition kernel: two subgroups of each workgroup find its tile's co-ranks together, a
//!   few rounds of one probe per lane, so the merge is one dispatch. No workgroup ever waits on
//!   another.
//! - [`SetOpPlan`]: intersection, union, difference and symmetric difference of two sorted
//!   (ascending) runs with std::set_* multiset semantics (a value present ca times in A and cb
//!   times in B appears min(ca, cb), max(ca, cb), max(ca - cb, 0) and |ca - cb| times; see
//!   [`SetOp`]), sorted; the output count goes to a caller buffer. The runs are walked as
//!   std::set_* walks them (a pair of equal keys, one from each run, is one step) on the
//!   balanced path: the partition kernel moves each tile boundary of the merge path so that
//!   no pair is split, and each invocation finds its own start in the staged tile the same
//!   way. After the partition, either one pass in which each tile finds its output offset by
//!   decoupled look-back (two tiles per workgroup, both walked before one look-back; bounded
//!   waits whose fallback walks the silent tile itself: [`SetOpPath::Lookback`], where the
//!   device profile allows inter-workgroup waiting) or
//!   count per tile, scan, walk again and write ([`SetOpPath::CountScanWrite`]: no workgroup
//!   waits on another; CPU drivers).
//! - [`MergeSortPlan`]: merges k sorted runs of one array (given by their offsets) pairwise in
//!   rounds ([`MergeSortPlan::record_segmented`]: ceil(log2 k) rounds), or sorts a whole array
//!   stably ([`MergeSortPlan::record`]): each workgroup sorts a block of
//!   [`MergeSortPlan::tile_size`] elements, then rounds merge runs of 1, 2, 4, ... blocks.
//!   Choosing between it and the radix sort ([`crate::SortPlan`]): both are stable and order
//!   the same key types the same way. The radix sort reads and writes the data a fixed 4
//!   (32-bit keys) or 8 (64-bit keys) times, the merge sort 1 + ceil(log2(n / tile)) times
//!   (2^16 u32 keys: 6 passes at the GPU tile of 2816; 2^24: 14), so the radix sort is the
//!   better choice for whole arrays beyond a few tiles, and the merge sort for data that is
//!   already in k sorted runs (ceil(log2 k) passes: a sorted array plus a sorted batch of new
//!   keys is one merge). Measured on an H100 (`vkalgo-bench merge --sort-sizes 16,20,24`, the
//!   same random u32 keys): merge sort 0.065 / 0.134 / 1.126 ms against the radix sort's
//!   0.041 / 0.066 / 0.410 ms at 2^16 / 2^20 / 2^24, so for whole arrays of full-width keys
//!   the radix sort is 1.6-2.7x faster at every size measured
//!   (docs/benchmarks/2026-11-22-h100.md).
//!
//! Counts: each run holds at most 2^32 - 1 elements ([`MAX_RUN`]); the output of a merge of
//! two runs may reach 2^33 - 2 elements and is addressed with 64-bit positions. Set operations
//! take at most 2^32 - 1 elements in A and B together (their output count is a u32); the merge
//! sort at most 2^32 - 1 elements and 2^31 runs.
//!
//! # Synchronization contract of the `record` calls
//! - Before: writes to the inputs (keys, values, offsets) and to indirect counts must be visible
//!   to the `COMPUTE_SHADER` stage (`SHADER_READ`; the merge sort also writes its keys and
//!   values: `SHADER_READ | SHADER_WRITE`); earlier accesses to the outputs, the alternate
//!   buffers and scratch must be complete before `COMPUTE_SHADER` and `TRANSFER` (the set
//!   operations' look-back path clears its scratch; today in its partition pass, the contract
//!   keeps `TRANSFER` free for a fill).
//! - vkalgo records the barriers between its own passes.
//! - After: the outputs (and a set operation's output count) are written by the
//!   `COMPUTE_SHADER` stage (`SHADER_WRITE`); add a barrier from there before reading them.
//!   Scratch holds nothing of use afterwards.

mod host;
pub mod reference;

pub use host::MergeOptions;

use crate::core::buffer::{BufferRange, ElementCount, MemoryRequirements};
use crate::core::pipelines::{Kernel, Specialization};
use crate::core::shaders::{self, ShaderSource};
use crate::core::spirv::push_constants;
use crate::error::{Error, Result};
use crate::scan::{ScanArgs, ScanDesc, ScanOp, ScanPath, ScanPlan};
use crate::sort::{KeyType, SortResult, ValueType};
use crate::{Context, SetOp};
use ash::vk;

/// The most elements one run (and the merge sort's array) may hold.
pub const MAX_RUN: u64 = u32::MAX as u64;
/// Alignment vkalgo asks for scratch ranges.
const ALIGNMENT: u64 = 16;
/// Bytes of one tile-table entry (glsl/merge/merge_common.glsl write_tile).
const TILE_ENTRY_BYTES: u64 = 32;
/// Bytes before the look-back status words of a set operation (the fallback counter; see
/// glsl/common/lookback.glsl).
const LOOKBACK_HEADER: u64 = 16;
/// Merges of at most this many tiles take the fused path (no partition kernel) by default, keys
/// alone ... (H200, u32 keys at 512 x 7, fused against partitioned: 2^19 outputs 11.3 against
/// 13.5 us, 2^21 21.2 against 17.9 us; docs/benchmarks/2026-11-23-h200-merge-partition.md)
const FUSED_TILES_KEYS: u64 = 256;
/// ... and with values, whose longer tiles hide more of each workgroup's own search (u32 pairs:
/// 2^22 outputs 35.9 against 39.4 us, 2^23 68.4 against 61.0 us).
const FUSED_TILES_PAIRS: u64 = 1024;

// Partition modes (glsl/merge/merge_common.glsl MODE_*).
const MODE_TWO: u32 = 0;
const MODE_UNIFORM: u32 = 1;
const MODE_OFFSETS: u32 = 2;
const MODE_COUNT_TILES: u32 = 3;
const MODE_TWO_BALANCED: u32 = 4;

push_constants! {
    /// Push constants of every merge kernel (glsl/merge/merge_common.glsl, block `MergePush`).
    pub(crate) struct MergePush {
        a_keys: u64,
        b_keys: u64,
        out_keys: u64,
        a_values: u64,
        b_values: u64,
        out_values: u64,
        tiles_addr: u64,
        a_count_addr: u64,
        b_count_addr: u64,
        aux_addr: u64,
        aux2_addr: u64,
        a_count: u32,
        b_count: u32,
        a_max: u32,
        b_max: u32,
        mode: u32,
        width: u32,
        runs: u32,
        max_tiles: u32,
        lanes: u32,
        /// Padding to a multiple of 8 bytes.
        reserved: u32,
    }
}

/// Tuning of the merge kernels: a tile is `workgroup_size * items_per_thread` outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MergeTuning {
    /// Invocations per workgroup: a power of two from 32 to the device's limit.
    pub workgroup_size: u32,
    /// Outputs each invocation merges per tile (1..=32). Odd counts keep the invocations'
    /// shared-memory writes (stride `items_per_thread`) free of bank conflicts.
    pub items_per_thread: u32,
    /// Set operations on the look-back path: polls of a silent predecessor before walking its
    /// tile instead (0: the device's default; 1 takes the fallback nearly always). `u32::MAX`
    /// is a test mode: every tile walks its nearest predecessor's tile itself, so the fallback
    /// runs for every tile after the first whatever the schedule.
    pub lookback_spins: u32,
}

impl MergeTuning {
    /// The tuning vkalgo uses on this device for `key_type` keys.
    ///
    /// GPUs: 256 invocations x 11 outputs for 4-byte keys, x 7 for 8-byte keys (tiles of 11
    /// and 14 KiB of keys, the merge kernel's only shared memory, so that several workgroups
    /// share a multiprocessor's ~48 KiB under NVIDIA's Vulkan driver; odd counts avoid
    /// shared-memory bank conflicts, as ModernGPU's merge tunings do). Not yet measured against
    /// alternatives (`vkalgo-bench merge --tuning ...`). CPU drivers: 64 x 7.
    pub fn for_device(ctx: &Context, key_type: KeyType) -> Self {
        if ctx.is_cpu_device() {
            return MergeTuning {
                workgroup_size: 64,
                items_per_thread: 7,
                lookback_spins: 0,
            };
        }
        let limit = ctx.profile.max_workgroup_invocations.clamp(32, 256);
        let workgroup_size = 1 << (31 - limit.leading_zeros()); // largest power of two <= limit
        MergeTuning {
            workgroup_size,
            items_per_thread: if key_type.bytes() == 8 { 7 } else { 11 },
            lookback_spins: 0,
        }
    }

    /// The tuning of the two-run merge ([`Context::merge_plan`]): [`MergeTuning::for_device`],
    /// except 4-byte keys alone or with 4-byte values on GPUs that allow 512 invocations:
    /// 512 x 7. Measured on an H100 at 2^26 + 2^26: u32 -> u32 pairs in 0.815 ms against 0.892
    /// ms at 256 x 11 (docs/benchmarks/2026-11-22-merge-scan-h100.md); u32 keys, which merge two
    /// tiles per workgroup, in 0.464 ms against 0.489 at 256 x 9 and 0.492 at 256 x 11
    /// (docs/benchmarks/2026-11-22-merge-keys-scan-tiles-h100.md).
    pub fn for_merge(ctx: &Context, key_type: KeyType, value_type: ValueType) -> Self {
        let base = Self::for_device(ctx, key_type);
        let four_byte = key_type.bytes() == 4 && matches!(value_type, ValueType::None | ValueType::U32);
        if !ctx.is_cpu_device() && four_byte && ctx.profile.max_workgroup_invocations >= 512 {
            return MergeTuning {
                workgroup_size: 512,
                items_per_thread: 7,
                ..base
            };
        }
        base
    }

    /// The tuning of the set operations ([`Context::set_op_plan`]): [`MergeTuning::for_device`],
    /// except 4-byte keys on GPUs: 256 x 15 (tiles of 15 KiB, three workgroups in 48 KiB; on an
    /// H100, AND of 2^24 + 2^24 in 0.219 ms against 0.227 at 256 x 11, 0.237 at 256 x 13, 0.257
    /// at 256 x 17, docs/benchmarks/2026-11-22-merge-keys-scan-tiles-h100.md).
    pub fn for_set_op(ctx: &Context, key_type: KeyType) -> Self {
        let base = Self::for_device(ctx, key_type);
        if !ctx.is_cpu_device() && key_type.bytes() == 4 && base.workgroup_size == 256 {
            return MergeTuning {
                items_per_thread: 15,
                ..base
            };
        }
        base
    }

    fn tile(&self) -> u64 {
        self.workgroup_size as u64 * self.items_per_thread as u64
    }

    fn check(&self, ctx: &Context, key_type: KeyType, value_type: ValueType) -> Result<()> {
        let wg = self.workgroup_size;
        if !wg.is_power_of_two() || wg < 32 || wg > ctx.profile.max_workgroup_invocations.min(1024) {
            return Err(Error::invalid(format!(
                "merge: workgroup size {wg} is not a power of two in 32..=device limit"
            )));
        }
        if !(1..=32).contains(&self.items_per_thread) {
            return Err(Error::invalid(format!(
                "merge: items_per_thread {} not in 1..=32",
                self.items_per_thread
            )));
        }
        let shared = shared_bytes(self, key_type, value_type);
        let max = ctx.profile.max_shared_memory as u64;
        if shared > max {
            return Err(Error::invalid(format!(
                "merge: tuning {wg}x{} needs {shared} bytes of shared memory; {} has {max}",
                self.items_per_thread, ctx.profile.device_name
            )));
        }
        Ok(())
    }
}

/// Shared memory of the largest merge kernel of a tuning (keys and source indices of a tile,
/// the workgroup-scan slots of the set operations).
fn shared_bytes(tuning: &MergeTuning, key_type: KeyType, _value_type: ValueType) -> u64 {
    let tile = tuning.tile();
    tile * key_type.bytes() + tile * 4 + tuning.workgroup_size as u64 * 4 + 64
}

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
    /// The largest count of A any call merges (at most [`MAX_RUN`]).
    pub max_a: u64,
    /// The largest count of B any call merges (at most [`MAX_RUN`]).
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

fn check_max(what: &str, max: u64) -> Result<()> {
    if max > MAX_RUN {
        return Err(Error::invalid(format!(
            "{what} {max} exceeds the largest run {MAX_RUN}"
        )));
    }
    Ok(())
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
        let mut kernels = vec![(shader("check", desc.key_type, None)?, spec)];
        if fused {
            kernels.push((
                shader("fused", desc.key_type, Some(desc.value_type))?,
                merge_spec(spec, desc.value_type),
            ));
        }
        if partitioned {
            kernels.push((
                shader("merge", desc.key_type, Some(desc.value_type))?,
                merge_spec(spec, desc.value_type),
            ));
            kernels.push((
                shader("partition", desc.key_type, None)?,
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

/// Refuses overlaps between any of `written` and any other range of `all` (reads may share).
fn check_overlaps(algo: &str, written: &[(&str, BufferRange)], all: &[(&str, BufferRange)]) -> Result<()> {
    for (wn, w) in written {
        for (an, a) in all {
            if wn != an && w.overlaps(a) {
                return Err(Error::invalid(format!(
                    "{algo}: the {wn} and {an} ranges overlap"
                )));
            }
        }
    }
    Ok(())
}

fn key_order(key_type: KeyType, descending: bool) -> u32 {
    let kind = match key_type {
        KeyType::U32 | KeyType::U64 => 0,
        KeyType::I32 | KeyType::I64 => 1,
        KeyType::F32 | KeyType::F64 => 2,
    };
    kind | ((descending as u32) << 2)
}

fn specialization(tuning: &MergeTuning, key_type: KeyType, descending: bool) -> Specialization {
    Specialization {
        workgroup_size: tuning.workgroup_size,
        vecs_per_thread: tuning.items_per_thread,
        spin_limit: 1,
        stage_split: 1,
        key_order: key_order(key_type, descending),
    }
}

/// Tiles up to which [`MergePath::Auto`] takes the fused path.
fn fused_tiles(value_type: ValueType) -> u64 {
    if value_type == ValueType::None {
        FUSED_TILES_KEYS
    } else {
        FUSED_TILES_PAIRS
    }
}

/// Consecutive tiles one workgroup of the merge kernel takes: 2 for keys alone (it loads the
/// second tile's keys into registers while the first merges: 5% faster for u32 keys at 2^26 +
/// 2^26 on an H100, docs/benchmarks/2026-11-22-merge-keys-scan-tiles-h100.md), 1 with values, where
/// the extra registers cost more than they gain.
fn tiles_per_group(value_type: ValueType) -> u32 {
    if value_type == ValueType::None {
        2
    } else {
        1
    }
}

/// The merge kernel's specialization: the plan's, with its tiles per workgroup.
fn merge_spec(spec: Specialization, value_type: ValueType) -> Specialization {
    Specialization {
        stage_split: tiles_per_group(value_type),
        ..spec
    }
}

/// Workgroups of the merge kernel for `tiles` tiles.
fn merge_groups(tiles: u64, value_type: ValueType) -> Result<u32> {
    groups(tiles, tiles_per_group(value_type) as u64)
}

/// Tiles one workgroup of the look-back set operation walks (glsl/merge/setop.comp): both
/// before it looks back, so one look-back serves two tiles and no workgroup waits on a tile
/// that has not been walked.
const SETOP_TILES_PER_GROUP: u32 = 2;

/// The look-back set operation's specialization: the plan's, with its tiles per workgroup.
fn setop_lookback_spec(spec: Specialization) -> Specialization {
    Specialization {
        stage_split: SETOP_TILES_PER_GROUP,
        ..spec
    }
}

/// A set operation kernel's specialization (setop_count, setop_write, setop_lookback): the
/// plan's, with the operation in KEY_ORDER's bits 3-5 as op + 1, so that each operation's
/// pipeline has its rules folded into the walk (glsl/merge/setop.comp `set_op`; H200, u32
/// 2^24 + 2^24: 5.4-6.6% faster than one pipeline reading the operation from the push
/// constants, docs/benchmarks/2026-11-24-h200-setop-folded.md). CPU drivers, where compiling
/// pipelines costs more than walking, fold it for 4-byte unsigned keys only, so that their
/// tests run both forms.
fn setop_spec(ctx: &Context, spec: Specialization, key_type: KeyType, op: SetOp) -> Specialization {
    if ctx.is_cpu_device() && key_type != KeyType::U32 {
        return spec;
    }
    Specialization {
        key_order: spec.key_order | ((op as u32 + 1) << 3),
        ..spec
    }
}

/// The merge shader `family` (partition, check, setop_count, setop_write: keys only; merge,
/// fused, blocksort: with the value suffix).
fn shader(family: &str, key_type: KeyType, value_type: Option<ValueType>) -> Result<&'static ShaderSource> {
    let name = match value_type {
        Some(v) => format!("merge_{family}_k{}_v{}", key_type.bits(), v as u32),
        None => format!("merge_{family}_k{}", key_type.bits()),
    };
    merge_shaders()
        .find(|s| s.name == name)
        .ok_or_else(|| Error::Internal(format!("no shader {name}")))
}

/// Every merge shader (the permutations of the generated shader table).
fn merge_shaders() -> impl Iterator<Item = &'static ShaderSource> {
    shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("merge_"))
}

/// Every merge shader with its push-constant layout (checked against the SPIR-V by a test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    merge_shaders()
        .map(|s| (*s, MergePush::FIELDS, std::mem::size_of::<MergePush>()))
        .collect()
}

fn addr(ctx: &Context, range: Option<BufferRange>) -> u64 {
    range.map_or(0, |r| ctx.address_of(&r))
}

fn count_addr(ctx: &Context, count: &ElementCount) -> u64 {
    match count {
        ElementCount::Direct(_) => 0,
        ElementCount::Indirect(range) => ctx.address_of(range),
    }
}

/// Invocations per workgroup of the partition kernel in the two-run modes (merges of two runs,
/// set operations). Each invocation searches one tile boundary, a chain of dependent random
/// loads; small workgroups spread the searches over every multiprocessor (with the merge's 512
/// invocations, a 2^23 + 2^23 merge's boundaries filled only 10 workgroups).
const PARTITION_WORKGROUP: u32 = 64;

/// Invocations of the partition kernel's two-run modes searching one tile boundary together
/// (glsl/merge/merge_common.glsl cluster_co_rank) for `tiles` tiles: a power of two up to the
/// device's smallest subgroup, 16 and half the workgroup, doubled while the searching
/// invocations stay within PARTITION_SEARCH_INVOCATIONS. A cluster search shortens each
/// boundary's chain of dependent loads (about log(lanes + 1) bits per round instead of one) but
/// loads more, so it pays where boundaries are few; with one lane the kernel keeps each binary
/// search within its workgroup's window of tiles (glsl/merge/partition.comp). H200, u32 keys,
/// ms: merge 2^20 + 2^20 one lane 0.0191, 16 lanes 0.0161; 2^23 + 2^23 one lane 0.0692, 8 lanes
/// 0.0664; 2^26 + 2^26 one lane 0.4053, 4 lanes 0.443, 8 lanes 0.4605; set intersection 2^24 +
/// 2^24 one lane 0.1868, 4 lanes 0.1844
/// (docs/benchmarks/2026-11-23-h200-setops-two-tiles.md). Both searches have since started
/// from a guess (clusters of 4 lanes or more, and one lane): the partition of 2^23 + 2^23
/// took 9 us instead of 18, of 2^26 + 2^26 15.5 instead of 41
/// (docs/benchmarks/2026-11-25-h200-guided-partition.md); the widths were not measured again.
fn partition_lanes(ctx: &Context, tuning: &MergeTuning, tiles: u64) -> u32 {
    let min_subgroup = ctx.profile().min_subgroup_size;
    let most = if min_subgroup.is_power_of_two() {
        min_subgroup
    } else {
        1
    }
    .min(16)
    .min(PARTITION_WORKGROUP.min(tuning.workgroup_size) / 2)
    .max(1);
    let mut lanes = 1;
    while lanes * 2 <= most && tiles * (lanes as u64) * 2 <= PARTITION_SEARCH_INVOCATIONS {
        lanes *= 2;
    }
    lanes
}

/// The most invocations the partition kernel's two-run modes search with (see
/// [`partition_lanes`]).
const PARTITION_SEARCH_INVOCATIONS: u64 = 1 << 16;

/// The partition kernel's specialization in the two-run modes: PARTITION_WORKGROUP invocations
/// (or the tuning's workgroup size where smaller), and as many items per invocation as keep
/// its tile (workgroup size x items) the merge's.
fn partition_spec(spec: Specialization, tuning: &MergeTuning) -> Specialization {
    let workgroup_size = PARTITION_WORKGROUP.min(tuning.workgroup_size);
    Specialization {
        workgroup_size,
        vecs_per_thread: (tuning.tile() / workgroup_size as u64) as u32,
        ..spec
    }
}

/// Workgroups of the partition kernel in the two-run modes: each workgroup searches
/// `workgroup_size / lanes` tile boundaries and writes the entries of the tiles between them
/// (glsl/merge/partition.comp).
fn two_run_partition_groups(tiles: u64, tuning: &MergeTuning, lanes: u32) -> Result<u32> {
    let boundaries = (PARTITION_WORKGROUP.min(tuning.workgroup_size) / lanes) as u64;
    groups(tiles, boundaries - 1)
}

/// Workgroups for `items` items at `per_group` items per workgroup (u32: the dispatch splits
/// larger grids over y).
fn groups(items: u64, per_group: u64) -> Result<u32> {
    u32::try_from(items.div_ceil(per_group)).map_err(|_| Error::invalid("merge: too many workgroups"))
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

    fn spec(&self) -> Specialization {
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
                if fused { "fused" } else { "merge" },
                self.desc.key_type,
                Some(self.desc.value_type),
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
                shader("partition", self.desc.key_type, None)?,
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

#[allow(clippy::too_many_arguments)]
unsafe fn record_check(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    tuning: &MergeTuning,
    key_type: KeyType,
    descending: bool,
    mut push: MergePush,
    longest: u64,
    flags: &BufferRange,
) -> Result<()> {
    if longest < 2 {
        return Ok(());
    }
    flags.check(ctx, "merge check flags", 8, 4)?;
    let kernel = ctx.kernel(
        shader("check", key_type, None)?,
        specialization(tuning, key_type, descending),
    )?;
    push.aux_addr = ctx.address_of(flags);
    ctx.dispatch(cmd, kernel, &push, groups(longest, tuning.tile())?);
    Ok(())
}

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
        })?;
        let path = match desc.path {
            SetOpPath::Auto if self.profile.lookback => SetOpPath::Lookback,
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
            0 if self.is_cpu_device() => 32,
            0 => 256,
            // Test mode: the shader's SPIN_LIMIT 0 forces the fallback (see the field's docs).
            u32::MAX => 0,
            spins => spins,
        };
        let plain = specialization(&tuning, desc.key_type, false);
        let spec = Specialization { spin_limit, ..plain };
        let mut kernels = vec![
            (
                shader("partition", desc.key_type, None)?,
                partition_spec(spec, &tuning),
            ),
            (shader("check", desc.key_type, None)?, plain),
        ];
        let walk_spec = setop_spec(self, spec, desc.key_type, desc.op);
        if path == SetOpPath::Lookback {
            kernels.push((
                shader("setop_lookback", desc.key_type, None)?,
                setop_lookback_spec(walk_spec),
            ));
        } else {
            kernels.push((shader("setop_count", desc.key_type, None)?, walk_spec));
            kernels.push((shader("setop_write", desc.key_type, None)?, walk_spec));
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
    /// As [`MergePlan::record`].
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &SetOpArgs) -> Result<()> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("set operation: the command buffer is null"));
        }
        let (a_direct, b_direct, a, b) = self.check_args(ctx, args)?;
        // At least one tile, so that an empty result still writes its count.
        let tiles = (a + b).div_ceil(self.tile_size()).max(1);
        let key_type = self.desc.key_type;
        let spec = Specialization {
            spin_limit: self.spin_limit,
            ..specialization(&self.tuning, key_type, false)
        };
        let partition = ctx.kernel(
            shader("partition", key_type, None)?,
            partition_spec(spec, &self.tuning),
        )?;
        let mut push = self.push(ctx, args, a_direct, b_direct);
        push.max_tiles = tiles as u32;
        push.lanes = partition_lanes(ctx, &self.tuning, tiles);
        debug_assert!(tiles <= self.max_tiles);
        let walk_spec = setop_spec(ctx, spec, key_type, self.desc.op);
        if self.path == SetOpPath::Lookback {
            let lookback = ctx.kernel(
                shader("setop_lookback", key_type, None)?,
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
            ctx.dispatch(cmd, lookback, &push, groups(tiles, SETOP_TILES_PER_GROUP as u64)?);
            return Ok(());
        }
        let count = ctx.kernel(shader("setop_count", key_type, None)?, walk_spec)?;
        let write = ctx.kernel(shader("setop_write", key_type, None)?, walk_spec)?;
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

/// What to plan a merge sort or segmented merge for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeSortDesc {
    /// Key type.
    pub key_type: KeyType,
    /// Payload type ([`ValueType::None`]: keys only).
    pub value_type: ValueType,
    /// Largest key first (still stable).
    pub descending: bool,
    /// The largest array any call sorts or merges (at most [`MAX_RUN`]).
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
            })?;
            let scan_offset = starts_offset + ((max_pairs + 1) * 4).next_multiple_of(ALIGNMENT);
            let size = scan_offset + scan.memory_requirements().scratch.size.max(ALIGNMENT);
            (Some(scan), scan_offset, size)
        } else {
            (None, starts_offset, starts_offset)
        };
        let spec = specialization(&tuning, desc.key_type, desc.descending);
        self.prepare_kernels(&[
            (shader("partition", desc.key_type, None)?, spec),
            (
                shader("merge", desc.key_type, Some(desc.value_type))?,
                merge_spec(spec, desc.value_type),
            ),
            (shader("blocksort", desc.key_type, Some(desc.value_type))?, spec),
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
            partition: ctx.kernel(shader("partition", self.desc.key_type, None)?, spec)?,
            merge: ctx.kernel(
                shader("merge", self.desc.key_type, Some(self.desc.value_type))?,
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
    /// As [`MergePlan::record`].
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
            shader("blocksort", self.desc.key_type, Some(self.desc.value_type))?,
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
    /// As [`MergePlan::record`].
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
