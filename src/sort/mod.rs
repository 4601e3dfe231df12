//! LSD radix sort of keys or key-value pairs: keys u32, i32, f32, u64, i64, f64 (floats in
//! IEEE-754 totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN), optional u32 or
//! u64 values, ascending or descending, on a bit range of the key's order-preserving bits.
//! Stable in every mode: equal keys keep their input order. Counts up to [`SORT_MAX_COUNT`]
//! (2^32 - 2^15); elements at 2^31 and beyond are reached through 64-bit addresses.
//!
//! Three paths, 8-bit digits:
//! - [`SortPath::Onesweep`]: one upfront pass counts the digits of every pass in one read of
//!   the keys; then one pass per digit ranks each tile and finds its global offsets by
//!   decoupled look-back (Adinets & Merrill, "Onesweep", 2022). The look-back status lives in a
//!   fixed-size circular buffer (under 2 MiB, whatever the count), so scratch is that plus the
//!   alternate key/value buffers. Every wait is bounded and falls back to counting a silent
//!   predecessor's keys: no schedule can hang it. A pass whose digit is the same in every key
//!   (the upfront counts show it: small integers in wide keys, codes narrower than the key)
//!   only copies its tiles in place. Ranking is at its slowest there, with every key on one
//!   digit (an H200 at 2^26: u32 keys below 2^16 1.77 -> 1.19 ms, u64 keys below 2^32
//!   4.91 -> 3.56 ms).
//! - [`SortPath::Safe`]: per digit: count per block, scan the counts, rank and scatter. No
//!   workgroup ever waits on another; the profile picks it on drivers without a
//!   forward-progress promise (CPU drivers such as lavapipe).
//! - [`SortPath::Small`]: one workgroup runs every pass in a single dispatch; [`SortPath::Auto`]
//!   takes it up to [`SortPlan::auto_small_limit`] elements. Counts up to
//!   [`SortPlan::resident_limit`] (as many elements as fit the workgroup's shared memory: on a
//!   GPU with 48 KiB, 8192 4-byte or 5120 8-byte elements) take a kernel that reads the input
//!   once, keeps it in registers and shared memory through every digit pass and writes the
//!   result once (after CUB's single-tile sort; keys of seven or more digit passes, such as
//!   full 8-byte keys, are merge-sorted there instead: [`BLOCK_MERGE_MIN_PASSES`]); larger
//!   ones go through global memory tile by tile in every pass.
//!
//! Each digit pass moves the data between the caller's buffers and the alternate buffers, so
//! after an odd number of passes the result is in the alternate buffers:
//! [`SortPlan::record`] returns where it is ([`SortResult`]). Full-width keys take 4 (32-bit)
//! or 8 (64-bit) passes, so their result is in the original buffers.
//!
//! # Synchronization contract of [`SortPlan::record`]
//! - Before: writes to the keys, values and indirect count must be visible to the
//!   `COMPUTE_SHADER` stage (`SHADER_READ | SHADER_WRITE`: the buffers are also written);
//!   earlier accesses to the alternate buffers and scratch must be complete before
//!   `COMPUTE_SHADER` and `TRANSFER` (vkalgo clears scratch with `vkCmdFillBuffer`).
//! - vkalgo records the barriers between its own passes.
//! - After: the result buffers are written by the `COMPUTE_SHADER` stage (`SHADER_WRITE`); add a
//!   barrier from there before reading them. The other pair and scratch hold nothing of use.

mod host;
mod keys;
mod onesweep;
pub mod reference;
mod safe;
mod small;

pub use host::SortOptions;
pub use keys::{SortKey, SortValue};

use crate::core::buffer::{BufferRange, BufferRequirements, ElementCount, MemoryRequirements};
use crate::core::pipelines::Specialization;
use crate::core::shaders::{self, ShaderSource};
use crate::core::spirv::push_constants;
use crate::error::{Error, Result};
use crate::scan::{ScanDesc, ScanOp, ScanPath, ScanPlan};
use crate::Context;
use ash::vk;

/// Key type of a sort (the values match the C constants `VKALGO_KEY_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum KeyType {
    /// `u32`.
    U32 = 0,
    /// `i32`.
    I32 = 1,
    /// `f32`, in IEEE-754 totalOrder.
    F32 = 2,
    /// `u64`.
    U64 = 3,
    /// `i64`.
    I64 = 4,
    /// `f64`, in IEEE-754 totalOrder.
    F64 = 5,
}

impl KeyType {
    /// Every key type.
    pub const ALL: [KeyType; 6] = [
        KeyType::U32,
        KeyType::I32,
        KeyType::F32,
        KeyType::U64,
        KeyType::I64,
        KeyType::F64,
    ];

    /// Bits of the key (32 or 64).
    pub fn bits(self) -> u32 {
        match self {
            KeyType::U32 | KeyType::I32 | KeyType::F32 => 32,
            _ => 64,
        }
    }

    /// Bytes of the key (4 or 8).
    pub fn bytes(self) -> u64 {
        self.bits() as u64 / 8
    }

    /// The key type with the C value `raw`.
    pub fn from_raw(raw: u32) -> Result<Self> {
        Ok(match raw {
            0 => KeyType::U32,
            1 => KeyType::I32,
            2 => KeyType::F32,
            3 => KeyType::U64,
            4 => KeyType::I64,
            5 => KeyType::F64,
            other => return Err(Error::invalid(format!("sort: unknown key type {other}"))),
        })
    }

    fn kind(self) -> u32 {
        match self {
            KeyType::U32 | KeyType::U64 => 0,
            KeyType::I32 | KeyType::I64 => 1,
            KeyType::F32 | KeyType::F64 => 2,
        }
    }
}

/// Payload carried with each key (the values match the C constants `VKALGO_VALUE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum ValueType {
    /// Keys only.
    None = 0,
    /// 4-byte values.
    U32 = 1,
    /// 8-byte values.
    U64 = 2,
}

impl ValueType {
    /// Every value type (keys only first).
    pub const ALL: [ValueType; 3] = [ValueType::None, ValueType::U32, ValueType::U64];

    /// Bytes of one value (0 for [`ValueType::None`]).
    pub fn bytes(self) -> u64 {
        match self {
            ValueType::None => 0,
            ValueType::U32 => 4,
            ValueType::U64 => 8,
        }
    }

    /// The value type with the C value `raw`.
    pub fn from_raw(raw: u32) -> Result<Self> {
        Ok(match raw {
            0 => ValueType::None,
            1 => ValueType::U32,
            2 => ValueType::U64,
            other => return Err(Error::invalid(format!("sort: unknown value type {other}"))),
        })
    }
}

/// Which sort algorithm to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u32)]
#[non_exhaustive]
pub enum SortPath {
    /// Small counts: one workgroup; larger: Onesweep where the device profile allows
    /// inter-workgroup waiting, else the safe path.
    #[default]
    Auto = 0,
    /// Onesweep with a circular look-back buffer (needs 64-bit buffer atomics).
    Onesweep = 1,
    /// Count, scan, scatter per digit: no inter-workgroup waiting.
    Safe = 2,
    /// One workgroup for everything (counts up to [`SortPlan::small_limit`]): counts up to
    /// [`SortPlan::resident_limit`] sorted in shared memory, larger ones tile by tile through
    /// global memory.
    Small = 3,
}

/// Where a recorded sort left its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortResult {
    /// In the caller's key (and value) buffers.
    InPlace,
    /// In the alternate key (and value) buffers.
    Alternate,
}

/// Tuning of the sort kernels (a tile is `workgroup_size * keys_per_thread` keys). A plan made
/// with the caller's tuning also runs the single-workgroup resident kernel with it (its
/// capacity, [`SortPlan::resident_limit`], is then one tile); without one, that kernel takes
/// its own geometry from the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SortTuning {
    /// Invocations per workgroup: a multiple of 32 (and of the device's largest subgroup) up to
    /// the device's limit.
    pub workgroup_size: u32,
    /// Keys each invocation ranks per tile (1..=32; a multiple of `stage_split`, twice that for
    /// 8-byte keys or values: the most staging rounds the kernels may take).
    pub keys_per_thread: u32,
    /// Look-back polls of a silent predecessor before counting its keys instead (0: default).
    /// `u32::MAX` is a test mode: every tile counts its nearest predecessor's keys itself, so
    /// the fallback runs for every tile after the first whatever the schedule (counted in the
    /// Onesweep event counters, [`ONESWEEP_STATS_OFFSET`]).
    pub lookback_spins: u32,
    /// Parts the ranked tile passes through shared memory in on its way out (1 or 2): 2 halves
    /// the staging memory, so more workgroups fit on a multiprocessor, for two more barriers
    /// per element word. 8-byte keys and values take up to twice as many rounds; the kernels
    /// take the fewest rounds that fit the shared memory they declare anyway (the digit
    /// counters use the same memory), e.g. 3 for 8-byte keys at 512 x 12 split in two.
    pub stage_split: u32,
}

/// Plans of at least this many elements take the large-sort tuning on GPUs (see
/// [`SortTuning::for_device`]).
const LARGE_SORT: u64 = 1 << 22;

impl SortTuning {
    /// The tuning vkalgo uses on this device for these key and value types and a plan of at
    /// most `max_count` elements.
    ///
    /// GPUs: 512 x 8 (a 16 KiB staged tile; 8-byte keys and values are staged in two rounds)
    /// where the device's limits allow it, else 256 x 8 or 128 x 8. From 2^22 elements, with
    /// the stage split in two: 4-byte keys alone take 512 x 20, with 4-byte values 512 x 16,
    /// 8-byte keys alone 512 x 12; 8-byte keys with 4-byte values take 384 x 12 unsplit.
    /// Measured on an H200 (docs/benchmarks/2026-11-21-h200-sort-v6.md and -v7.md): two
    /// workgroups of 512 per SM (64 registers) beat the 384- and 256-wide tunings before them
    /// at 2^26 by 6% for u32 keys, 11% for pairs and 5% for u64 keys; u64 -> u32 pairs at
    /// 384 x 12 (two workgroups per SM at 80 registers either way) beat 256 x 14 by 10%, and
    /// unsplit beat split by 1.7%.
    /// CPU drivers: 64 x 8 (their small subgroups need a counter row per subgroup in 32 KiB).
    pub fn for_device(ctx: &Context, key_type: KeyType, value_type: ValueType, max_count: u64) -> Self {
        let tuning = |workgroup_size, keys_per_thread, stage_split| SortTuning {
            workgroup_size,
            keys_per_thread,
            lookback_spins: 0,
            stage_split,
        };
        if ctx.is_cpu_device() {
            return tuning(64, 8, 1);
        }
        // The first of these the device's invocation and shared-memory limits allow. Measured
        // on an H200 (docs/benchmarks/): shared memory per SM and registers bound how many
        // workgroups run at once, so no more than 16 KiB is staged at a time (8-byte keys or
        // values, or a split stage, in more rounds).
        let desc = SortDesc::new(key_type, value_type, 0);
        let large = max_count >= LARGE_SORT && value_type.bytes() <= 4;
        let fallbacks = [tuning(512, 8, 1), tuning(256, 8, 1), tuning(128, 8, 1)];
        let first = match (large, key_type.bytes(), value_type) {
            (true, 4, ValueType::None) => Some(tuning(512, 20, 2)),
            (true, 4, _) => Some(tuning(512, 16, 2)),
            (true, _, ValueType::None) => Some(tuning(512, 12, 2)),
            (true, _, _) => Some(tuning(384, 12, 1)),
            (false, _, _) => None,
        };
        first
            .into_iter()
            .chain(fallbacks)
            .find(|t| {
                t.workgroup_size <= ctx.profile.max_workgroup_invocations
                    && shared_bytes(ctx, t, &desc, Stage::Rounds) <= ctx.profile.max_shared_memory as u64
            })
            .unwrap_or(tuning(64, 8, 1))
    }

    fn tile_keys(&self) -> u64 {
        self.workgroup_size as u64 * self.keys_per_thread as u64
    }

    /// Staging rounds of the widest element type of `desc` at most (each round covers whole
    /// steps of keys per thread; glsl/sort/sort_common.glsl takes fewer where they fit).
    fn staging_rounds(&self, desc: &SortDesc) -> u32 {
        let words = desc.key_type.bytes().max(desc.value_type.bytes()).div_ceil(4) as u32;
        self.stage_split * words
    }
}

/// What to plan a sort for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortDesc {
    /// Key type.
    pub key_type: KeyType,
    /// Payload type ([`ValueType::None`]: keys only).
    pub value_type: ValueType,
    /// The largest count any call of this plan sorts (sizes buffers; bounds indirect counts).
    pub max_count: u64,
    /// First order-preserving key bit sorted on (usually 0).
    pub begin_bit: u32,
    /// One past the last bit sorted on; 0 means the key's full width.
    pub end_bit: u32,
    /// Largest key first (still stable).
    pub descending: bool,
    /// Which algorithm ([`SortPath::Auto`]: by count and device profile).
    pub path: SortPath,
    /// Kernel tuning (`None`: vkalgo's choice for the device).
    pub tuning: Option<SortTuning>,
}

impl SortDesc {
    /// An ascending full-width sort of up to `max_count` keys of `key_type` with `value_type`
    /// payloads.
    pub fn new(key_type: KeyType, value_type: ValueType, max_count: u64) -> Self {
        SortDesc {
            key_type,
            value_type,
            max_count,
            begin_bit: 0,
            end_bit: 0,
            descending: false,
            path: SortPath::Auto,
            tuning: None,
        }
    }
}

/// The buffers of one recorded sort. Keys and values are sorted "in place" in the sense that
/// the result is in `keys`/`values` or in the alternates, as [`SortPlan::record`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortArgs {
    /// The keys (offset a multiple of the key size).
    pub keys: BufferRange,
    /// The values (`None` exactly when the plan's value type is [`ValueType::None`]).
    pub values: Option<BufferRange>,
    /// Alternate keys buffer, as large as the keys.
    pub keys_alt: BufferRange,
    /// Alternate values buffer (`None` exactly when `values` is).
    pub values_alt: Option<BufferRange>,
    /// Scratch memory as [`SortPlan::memory_requirements`] asks.
    pub scratch: BufferRange,
    /// How many elements to sort.
    pub count: ElementCount,
}

/// The largest count a sort plan accepts: 2^32 - 2^15 = 4,294,934,528 elements. Larger plans
/// are refused with [`Error::InvalidArgument`] by [`Context::sort_plan`], and therefore by every
/// host call and C function.
///
/// Why this bound: the kernels index elements with u32 arithmetic within the tile grid and
/// reach memory through 64-bit byte addresses (glsl/sort/sort_common.glsl), so elements at
/// 2^31 and beyond are sorted right. A tile holds at most 2^15 keys (1024 invocations x 32
/// keys), so below this count `tiles * tile_size <= count + tile_size - 1 <= 2^32 - 1`: no
/// element index of any tile wraps, whatever the tile size (also the tiles that are not powers
/// of two, 512 x 20 for example); digit counts and offsets are below 2^32; and the Onesweep
/// ring's sequence numbers (`pass * max_tiles + tile`, below 8 * 2^27 with tiles of at least
/// 32 keys) fit its 30-bit tags.
pub const SORT_MAX_COUNT: u64 = (1 << 32) - (1 << 15);
/// Most keys in one tile (1024 invocations x 32 keys per invocation).
const MAX_TILE_KEYS: u64 = 1024 * 32;

/// Status ring of the Onesweep path: tiles (glsl/sort/onesweep.comp RING_TILES).
const RING_TILES: u64 = 1016;
/// Start of the ring / block counts in scratch (glsl/sort/sort_common.glsl SCRATCH_RING).
const SCRATCH_RING: u64 = 8320;
/// Where a Onesweep sort leaves its event counters in scratch (16 u32, valid until the next
/// sort with the same scratch): fallbacks, ring-wait timeouts, tail-wait timeouts, ring-wait
/// polls, tail-wait polls, look-back steps; with `VKALGO_SORT_CLOCK=1` on a driver with
/// VK_KHR_shader_clock, the passes of 4- and 8-byte keys without values or with u32 values
/// also add each phase's cycles / 16 in counters 8..13
/// (ticket, key loads + ballots, counter updates, digit scan + ranks + staging, look-back,
/// scatter), count invocation 0's look-back steps without progress (6) and predecessors
/// added (7), and keep the most workgroups in flight in counter 15. For benchmarks and
/// diagnostics.
#[doc(hidden)]
pub const ONESWEEP_STATS_OFFSET: u64 = 8256;
/// Largest number of blocks of the safe path (the block-count matrix is 256 x blocks).
const MAX_BLOCKS: u64 = 1024;
/// Largest number of workgroups of the upfront histogram pass.
const MAX_HISTOGRAM_GROUPS: u64 = 2048;
/// Tiles the small path handles (one workgroup: every pass reads its input twice).
const SMALL_TILES: u64 = 4;
/// Tiles up to which [`SortPath::Auto`] takes the small path on devices with the look-back
/// (Onesweep) path: on an NVIDIA H100 (512 x 8 tiles) Onesweep sorted 2^13 keys in 0.037 ms
/// against the small path's 0.042 ms, 2^14 in 0.037 against 0.078 ms (every key type), and
/// lost only at 2^12 (0.035 against 0.024 ms).
const SMALL_TILES_BESIDE_ONESWEEP: u64 = 1;
/// Alignment vkalgo asks for every range.
const ALIGNMENT: u64 = 16;
const RADIX_BITS: u32 = 8;

push_constants! {
    /// Push constants of every sort pass (glsl/sort/sort_common.glsl, block `SortPush`).
    pub(crate) struct SortPush {
        keys_in: u64,
        keys_out: u64,
        values_in: u64,
        values_out: u64,
        scratch: u64,
        count_addr: u64,
        count: u32,
        max_count: u32,
        begin_bit: u32,
        end_bit: u32,
        pass_index: u32,
        pass_count: u32,
        max_tiles: u32,
        blocks: u32,
        tiles_per_block: u32,
        reserved: u32,
        /// The Onesweep multisplit (src/split/onesweep.rs; 0 for sorts): SPLITTERS' splitters.
        aux: u64,
        /// ... the address of the split's status word,
        split_status: u64,
        /// ... m,
        bucket_count: u32,
        /// ... ceil(log2(m)),
        id_bits: u32,
        /// ... and the GLSL bucket function's vkalgo_params.
        params: [u32; 4],
    }
}

/// A sort planned for one context: paths, tuning and memory sizes are fixed. Cheap to keep and
/// to record many times.
#[derive(Clone, Debug)]
pub struct SortPlan {
    ctx: Context,
    desc: SortDesc,
    path: SortPath,
    tuning: SortTuning,
    spin_limit: u32,
    end_bit: u32,
    pass_count: u32,
    requirements: MemoryRequirements,
    block_scan: Option<ScanPlan>,
    /// Largest count of the small path (0 where its kernels do not fit the device).
    small_limit: u64,
    /// Largest count of the shared-memory-resident kernel (0 where it does not fit).
    resident_limit: u64,
    /// Workgroup size and keys per invocation of the resident kernel.
    resident_tuning: SortTuning,
    /// Whether the resident kernel keeps its digit counters apart from its stage
    /// ([`SortPlan::resident_counters_apart`]).
    resident_counters_apart: bool,
    /// Whether the single-workgroup path up to `resident_limit` sorts by merging
    /// (glsl/sort/block_merge.comp) rather than by radix passes: see [`BLOCK_MERGE_MIN_PASSES`].
    resident_merges: bool,
    /// Largest count Auto sorts on the small path.
    auto_small_limit: u64,
}

/// How the safe path splits `tiles` tiles: (blocks, tiles per block).
fn blocking(tiles: u64, max_blocks: u64) -> (u64, u64) {
    if tiles == 0 {
        return (0, 1);
    }
    let per = tiles.div_ceil(tiles.min(max_blocks));
    (tiles.div_ceil(per), per)
}

/// How a rank-and-scatter kernel stages its tile in shared memory (glsl/sort/sort_common.glsl).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// 1 / stage_split of the tile's words per round, in the pool of the digit counters (the
    /// Onesweep and safe-path kernels).
    Rounds,
    /// The whole tile at once, in the pool of the digit counters (the small-N kernels).
    WholeTile,
    /// The whole tile at once, with the digit counters after it (the resident kernel where the
    /// plan finds room: [`SortPlan::resident_counters_apart`]).
    WholeTileApart,
}

/// Shared memory (bytes) the rank-and-scatter kernels declare for `tuning` staging as `stage`
/// says (glsl/sort/small.comp and glsl/sort/resident.comp declare the same pool and tables as
/// the tile kernels).
fn shared_bytes(ctx: &Context, tuning: &SortTuning, desc: &SortDesc, stage: Stage) -> u64 {
    let wg = tuning.workgroup_size as u64;
    let rows = wg / ctx.profile.min_subgroup_size.max(1) as u64;
    // Digit counters and the staged tile (two words per 8-byte element), one pool.
    let wide = desc.key_type.bytes() == 8 || desc.value_type.bytes() == 8;
    let stage_words = match (stage, wide) {
        (Stage::Rounds, _) => tuning.tile_keys() / tuning.stage_split as u64,
        (_, true) => tuning.tile_keys() * 2,
        (_, false) => tuning.tile_keys(),
    };
    let counter_words = rows * 256;
    let pool = if stage == Stage::WholeTileApart {
        (counter_words + stage_words) * 4
    } else {
        counter_words.max(stage_words) * 4
    };
    // Digit offsets (shared with the fallback counts), per-subgroup scan slots, the match
    // table (32 lane masks per subgroup), and the workgroup-scan slots of the kernels that use
    // them; small counters.
    let match_table = rows * 32 * 4;
    pool + 1024 + rows * 4 + match_table + wg * 4 + 64
}

/// Fewest digit passes for which the single-workgroup path sorts by merging (a block merge
/// sort, glsl/sort/block_merge.comp, whose work does not grow with the key bits) instead of
/// running the radix passes in shared memory. On an H200, u64 keys (8 passes) at 2^10 took
/// 11.3 us by merging against 13.1 by radix passes, 2^11 15.7 against 16.9, 2^12 24.7 against
/// 25.4 (with values moved through every merge round; since the merge routine is shared with
/// the merge sort, 10.3 and 14.0 us at 2^10 and 2^11); u32 keys (4 passes) at 2^12 18.7
/// against 12.9 (docs/benchmarks/2026-11-23-h200-scan-window.md).
pub const BLOCK_MERGE_MIN_PASSES: u32 = 7;

/// Shared memory of the block merge sort with the resident `tuning`: the whole tile's keys and
/// values, and with values each key's source position (glsl/sort/block_merge.comp).
fn block_merge_shared_bytes(desc: &SortDesc, tuning: &SortTuning) -> u64 {
    let sources = if desc.value_type == ValueType::None { 0 } else { 4 };
    tuning.tile_keys() * (desc.key_type.bytes() + desc.value_type.bytes() + sources) + 64
}

/// Most keys per invocation of the resident kernel on GPUs (registers: 16 keys and 16 values of
/// 4 bytes with 512 invocations stay well inside the register file) ...
const RESIDENT_MAX_KEYS_GPU: u32 = 16;
/// ... and on CPU drivers: lavapipe compiles the unrolled kernel when it first runs, 1.4 s at 8
/// keys per invocation (as long as the tiled kernel at 64 x 8), 4-5 s at 32, for each key type,
/// value width and direction.
const RESIDENT_MAX_KEYS_CPU: u32 = 8;

/// The geometry of the shared-memory-resident kernel (glsl/sort/resident.comp): its workgroup
/// size and keys per invocation, whose product is the most elements it sorts; `None` where it
/// does not fit the device.
///
/// With the caller's tuning, that tuning (its tile is then the resident capacity). Otherwise
/// the widest workgroup of 512, 256, 128 invocations (CPU drivers: 64, whose small subgroups
/// need a counter row per subgroup) the device allows, with the most keys per invocation (up
/// to 16, CPU drivers 8) whose whole-tile stage fits the shared memory the device reports:
/// the capacity is decided by the key and value widths (the stage holds max(key, value) words
/// per element). With 48 KiB (NVIDIA) and 512 invocations: 8192 elements of 4-byte keys and
/// values, 5120 with 8-byte keys or values; lavapipe (32 KiB, 64 invocations): 512. Then no
/// more keys per invocation than `max_count` needs (a plan for 2^10 keys runs 512 x 2).
/// One workgroup of 512 as in the tile kernels; CUB's single-tile sort takes 256 x 19 for
/// 4-byte keys, here the ranking runs ceil(n / workgroup size) steps per subgroup, so a wider
/// workgroup shortens each pass.
fn resident_geometry(ctx: &Context, desc: &SortDesc, tuning: &SortTuning) -> Option<SortTuning> {
    let fits =
        |t: &SortTuning| shared_bytes(ctx, t, desc, Stage::WholeTile) <= ctx.profile.max_shared_memory as u64;
    if desc.tuning.is_some() {
        return fits(tuning).then_some(*tuning);
    }
    let (sizes, most_keys): (&[u32], u32) = if ctx.is_cpu_device() {
        (&[64], RESIDENT_MAX_KEYS_CPU)
    } else {
        (&[512, 256, 128], RESIDENT_MAX_KEYS_GPU)
    };
    let subgroup = ctx.profile.max_subgroup_size.max(32);
    let widest = sizes
        .iter()
        .filter(|&&wg| wg <= ctx.profile.max_workgroup_invocations && wg % subgroup == 0)
        .find_map(|&wg| {
            (1..=most_keys).rev().find_map(|keys_per_thread| {
                let t = SortTuning {
                    workgroup_size: wg,
                    keys_per_thread,
                    lookback_spins: 0,
                    stage_split: 1,
                };
                fits(&t).then_some(t)
            })
        })?;
    // No more keys per invocation than the plan's largest count needs: every pass costs as
    // many ranking steps as the kernel holds keys, used or not (H100, u32 keys at 2^10: 512 x 2
    // 7.9 us, 512 x 16 14.5 us; at 2^12: 512 x 8 14.7 us, 512 x 16 18.5 us).
    let needed = desc.max_count.div_ceil(widest.workgroup_size as u64).max(1);
    Some(SortTuning {
        keys_per_thread: widest.keys_per_thread.min(needed as u32),
        ..widest
    })
}

impl Context {
    /// Plans a sort: checks the description against the device and fixes paths, tuning and
    /// memory sizes.
    pub fn sort_plan(&self, desc: &SortDesc) -> Result<SortPlan> {
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
        let tuning = desc
            .tuning
            .unwrap_or_else(|| SortTuning::for_device(self, desc.key_type, desc.value_type, desc.max_count));
        let wg = tuning.workgroup_size;
        let subgroup = self.profile.max_subgroup_size.max(32);
        if wg == 0 || wg % subgroup != 0 || wg > self.profile.max_workgroup_invocations.min(1024) {
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
        let max_shared = self.profile.max_shared_memory as u64;
        let shared = shared_bytes(self, &tuning, desc, Stage::Rounds);
        if shared > max_shared {
            return Err(Error::invalid(format!(
                "sort: tuning {}x{} needs {shared} bytes of shared memory; {} has {max_shared}",
                wg, tuning.keys_per_thread, self.profile.device_name
            )));
        }
        // The small-N kernels stage their whole tile at once: with a large tile they may not
        // fit, and then the plan never takes the small path. The resident kernel sorts what
        // fits its shared memory; the tiled one up to SMALL_TILES tiles.
        let small_shared = shared_bytes(self, &tuning, desc, Stage::WholeTile);
        let small_fits = small_shared <= max_shared;
        let tiled_limit = if small_fits {
            SMALL_TILES * tuning.tile_keys()
        } else {
            0
        };
        let tiled_auto_limit = if self.profile.lookback {
            tiled_limit.min(SMALL_TILES_BESIDE_ONESWEEP * tuning.tile_keys())
        } else {
            tiled_limit
        };
        let resident = resident_geometry(self, desc, &tuning);
        let resident_limit = resident.map_or(0, |t| t.tile_keys());
        let small_limit = tiled_limit.max(resident_limit);
        let auto_small_limit = tiled_auto_limit.max(resident_limit);
        let path = match desc.path {
            SortPath::Small if small_limit == 0 => {
                return Err(Error::invalid(format!(
                    "sort: the small path with tuning {}x{} needs {small_shared} bytes of shared memory; {} has {max_shared}",
                    wg, tuning.keys_per_thread, self.profile.device_name
                )))
            }
            SortPath::Auto if desc.max_count <= auto_small_limit => SortPath::Small,
            SortPath::Auto if self.profile.lookback => SortPath::Onesweep,
            SortPath::Auto => SortPath::Safe,
            SortPath::Onesweep if !self.profile.int64_atomics => {
                return Err(Error::unsupported(format!(
                    "sort: the Onesweep path needs shaderBufferInt64Atomics, which {} lacks",
                    self.profile.device_name
                )))
            }
            SortPath::Small if desc.max_count > small_limit => {
                return Err(Error::invalid(format!(
                    "sort: the small path sorts at most {small_limit} elements with this tuning; max_count is {}",
                    desc.max_count
                )))
            }
            p => p,
        };
        let max_tiles = desc.max_count.div_ceil(tuning.tile_keys());
        let (blocks, _) = blocking(max_tiles, MAX_BLOCKS);
        let block_scan = if path == SortPath::Safe {
            Some(self.scan_plan(&ScanDesc {
                op: ScanOp::Exclusive,
                path: ScanPath::ReduceThenScan,
                max_count: 256 * blocks.max(1),
                tuning: None,
                keep_scratch_zeroed: false,
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
        let spin_limit = match tuning.lookback_spins {
            0 if self.is_cpu_device() => 32,
            0 => 256,
            // Test mode: the shader's SPIN_LIMIT 0 forces the fallback (see the field's docs).
            u32::MAX => 0,
            spins => spins,
        };
        let pass_count = (end_bit - desc.begin_bit).div_ceil(RADIX_BITS);
        let resident_merges = resident.is_some_and(|t| {
            pass_count >= BLOCK_MERGE_MIN_PASSES
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
            small_limit,
            auto_small_limit,
            resident_limit,
            resident_tuning: resident.unwrap_or(tuning),
            resident_merges,
            resident_counters_apart,
        };
        self.prepare_kernels(&plan.kernels()?)?;
        Ok(plan)
    }
}

impl SortPlan {
    /// Every pipeline the plan's calls may record (created with the plan; the block scan of
    /// the safe path is a scan plan with its own).
    fn kernels(&self) -> Result<Vec<(&'static ShaderSource, Specialization)>> {
        let spec = self.specialization();
        let bits = self.desc.key_type.bits();
        let shader = |family: &str| sort_shader(family, bits, self.desc.value_type);
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
                list.push((shader("block_merge")?, self.resident_specialization()));
            } else if self.resident_limit > 0 {
                for family in ["resident", "resident_all"] {
                    list.push((shader(family)?, self.resident_specialization()));
                }
            }
            if single_most > self.resident_limit {
                list.push((shader("small")?, spec));
            }
        }
        let (k32, k64) = match self.path {
            SortPath::Onesweep => {
                list.push((&shaders::SORT_HISTOGRAM_SCAN, spec));
                list.push((shader("onesweep")?, spec));
                (&shaders::SORT_HISTOGRAM_K32, &shaders::SORT_HISTOGRAM_K64)
            }
            SortPath::Safe => {
                list.push((shader("downsweep")?, spec));
                (&shaders::SORT_UPSWEEP_K32, &shaders::SORT_UPSWEEP_K64)
            }
            _ => return Ok(list),
        };
        list.push((if bits == 64 { k64 } else { k32 }, spec));
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
    /// nor a clear of the counters before the next pass (glsl/sort/resident.comp; with the
    /// counters carried from pass to pass, u32 keys at 2^12 on an H200 13.0 -> 12.5 us,
    /// docs/benchmarks/2026-11-24-h200-resident-counters.md). With the caller's tuning the two
    /// share one pool, the smaller layout.
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

    fn specialization(&self) -> Specialization {
        Specialization {
            workgroup_size: self.tuning.workgroup_size,
            vecs_per_thread: self.tuning.keys_per_thread,
            spin_limit: self.spin_limit,
            stage_split: self.tuning.stage_split,
            key_order: self.desc.key_type.kind() | ((self.desc.descending as u32) << 2),
        }
    }

    /// The resident kernel's constants: its own geometry, and in place of the stage split
    /// (it stages the whole tile at once) its pool layout: 2 with the digit counters apart, else
    /// 1 (glsl/sort/sort_common.glsl, RESIDENT_COUNTERS_APART).
    fn resident_specialization(&self) -> Specialization {
        Specialization {
            workgroup_size: self.resident_tuning.workgroup_size,
            vecs_per_thread: self.resident_tuning.keys_per_thread,
            stage_split: if self.resident_counters_apart { 2 } else { 1 },
            ..self.specialization()
        }
    }

    /// Whether a count runs the resident kernel's permutation without a per-step test
    /// (`resident_all`, ALL_STEPS): a direct count that uses every ranking step of the
    /// geometry (ceil(count / workgroup size) = keys per invocation). The test's branch costs a
    /// MATCH instruction per step in NVIDIA's machine code, even on a count from the push
    /// constants (u32 keys at 2^12 on an H100: 14.8 us with it, 13.2 us without).
    fn resident_all_steps(&self, direct: Option<u64>) -> bool {
        let tuning = self.resident_tuning;
        direct.is_some_and(|n| n.div_ceil(tuning.workgroup_size as u64) == tuning.keys_per_thread as u64)
    }

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

    /// Records the plan (a one- or two-pass Onesweep plan) as the Onesweep multisplit
    /// (src/split/onesweep.rs): `split`'s kernels, bucket operands, status word and output
    /// (the last pass's; the first of two writes the alternates).
    ///
    /// # Safety
    /// As [`SortPlan::record`].
    pub(crate) unsafe fn record_bucket_split(
        &self,
        ctx: &Context,
        cmd: vk::CommandBuffer,
        args: &SortArgs,
        split: &BucketSplit,
    ) -> Result<()> {
        if self.path != SortPath::Onesweep || self.pass_count > 2 {
            return Err(Error::Internal(
                "multisplit: the bucket split needs a one- or two-pass Onesweep plan".into(),
            ));
        }
        self.record_inner(ctx, cmd, args, None, Some(split))?;
        Ok(())
    }

    /// The specialization constants of the plan's tile kernels.
    pub(crate) fn kernel_specialization(&self) -> Specialization {
        self.specialization()
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
        split: Option<&BucketSplit>,
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
        if let Some(split) = split {
            push.aux = split.aux;
            push.split_status = split.status;
            push.bucket_count = split.bucket_count;
            push.id_bits = split.id_bits;
            push.params = split.params;
        }
        let pass = Pass {
            ctx,
            cmd,
            spec: self.specialization(),
            key_bits: self.desc.key_type.bits(),
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
            let family = if self.resident_merges {
                "block_merge"
            } else if self.resident_all_steps(direct) {
                "resident_all"
            } else {
                "resident"
            };
            small::record_resident(&pass, push, family, self.resident_specialization())?;
        } else if small {
            small::record(&pass, push)?;
        } else if self.path == SortPath::Onesweep {
            onesweep::record(&pass, push, &args.scratch, split)?;
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

/// The Onesweep multisplit's part of a one- or two-pass sort (src/split/onesweep.rs): the
/// bucket kernels (histogram, Onesweep pass) compiled with SPLIT_BUCKETS, or `None` for BITS
/// (the plain sort kernels on the bucket's bits), the push constants they read, and where the
/// last pass writes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BucketSplit {
    /// (histogram, Onesweep pass) kernels of the bucket function.
    pub kernels: Option<(&'static ShaderSource, &'static ShaderSource)>,
    /// SPLITTERS: the address of the splitters.
    pub aux: u64,
    /// The address of the split's u32 status word.
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
    ctx: &'a Context,
    cmd: vk::CommandBuffer,
    spec: Specialization,
    key_bits: u32,
    value_type: ValueType,
    /// Tiles of the recorded count (of max_count for indirect counts).
    tiles: u64,
    /// Profiling: a timestamp after every dispatch (pool, next query).
    timestamps: Option<(vk::QueryPool, &'a std::cell::Cell<u32>)>,
}

impl Pass<'_> {
    /// Records a dispatch, then (when profiling) a timestamp.
    unsafe fn dispatch(&self, kernel: crate::core::pipelines::Kernel, push: &SortPush, groups: u32) {
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

    /// The shader of `family` ("onesweep", "downsweep", "small", "resident") for this key width
    /// and payload.
    fn shader(&self, family: &str) -> Result<&'static ShaderSource> {
        if self.ctx.pipelines.shader_clock && family == "onesweep" {
            // Diagnostics: per-phase cycle counters, where a clock permutation exists.
            let name = format!(
                "sort_{family}_k{}_v{}_clock",
                self.key_bits, self.value_type as u32
            );
            if let Some(shader) = sort_shaders().find(|s| s.name == name) {
                return Ok(shader);
            }
        }
        sort_shader(family, self.key_bits, self.value_type)
    }

    /// Swaps input and output of the push constants (the next digit pass).
    fn next_pass(push: &mut SortPush) {
        std::mem::swap(&mut push.keys_in, &mut push.keys_out);
        std::mem::swap(&mut push.values_in, &mut push.values_out);
        push.pass_index += 1;
    }
}

/// The sort shader of `family` for keys of `key_bits` and `value_type` values.
fn sort_shader(family: &str, key_bits: u32, value_type: ValueType) -> Result<&'static ShaderSource> {
    let name = format!("sort_{family}_k{key_bits}_v{}", value_type as u32);
    sort_shaders()
        .find(|s| s.name == name)
        .ok_or_else(|| Error::Internal(format!("no shader {name}")))
}

/// Every sort shader (the permutations of the generated shader table).
fn sort_shaders() -> impl Iterator<Item = &'static ShaderSource> {
    shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("sort_"))
}

/// Every sort shader with its push-constant layout (checked against the SPIR-V by a test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    sort_shaders()
        .map(|s| (*s, SortPush::FIELDS, std::mem::size_of::<SortPush>()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::blocking;

    /// The arithmetic SORT_MAX_COUNT rests on, for every tile size a plan accepts (32..=1024
    /// invocations in steps of 32, 1..=32 keys each): the tile grid of the largest count ends
    /// at or below 2^32 - 1 (u32 element indices never wrap), and the Onesweep sequence numbers
    /// of 8 passes fit 30 bits.
    #[test]
    fn max_count_keeps_tile_arithmetic_in_range() {
        let max = super::SORT_MAX_COUNT;
        assert_eq!(max, 4_294_934_528);
        for wg in (32..=1024u64).step_by(32) {
            for kpt in 1..=32u64 {
                let tile = wg * kpt;
                assert!(tile <= super::MAX_TILE_KEYS);
                let tiles = max.div_ceil(tile);
                assert!(tiles * tile <= u32::MAX as u64 + 1, "{wg}x{kpt}");
                // The last tile's largest element index (past the count included).
                assert!(tiles * tile - 1 <= u32::MAX as u64, "{wg}x{kpt}");
                assert!(8 * tiles <= 1 << 30, "{wg}x{kpt}: sequence numbers");
                // A ticket never reaches the constant-digit flag (bit 31).
                assert!(tiles + 65535 < 1 << 31);
            }
        }
    }

    #[test]
    fn blocks_cover_all_tiles() {
        for tiles in [1u64, 2, 1023, 1024, 1025, 65536, 1_000_003] {
            let (blocks, per) = blocking(tiles, super::MAX_BLOCKS);
            assert!(blocks <= super::MAX_BLOCKS, "{tiles}");
            assert!(
                blocks * per >= tiles && (blocks - 1) * per < tiles,
                "{tiles}: {blocks} x {per}"
            );
        }
    }
}
