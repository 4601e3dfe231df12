//! The set object: its buffers (control block with the directory, two block pools and their
//! rings), upload and download of its chunk image, packing, pool growth and shrinking. Its
//! passes are in passes.rs, its record calls in record.rs.

use super::passes::{
    check_pool_blocks, kernel, prepare_kernels, prepare_packed_kernels, wg, SetPush, Update,
};
use super::roaring::{Chunks, Container, ARRAY_MAX, CHUNK_VALUES, RUN_MAX};
use super::{ARRAY_BLOCK_BYTES, BITMAP_BLOCK_BYTES};
use crate::core::buffer::{
    BufferRange, GpuBuffer, MemoryLocation, MemoryRequirements, ObjectStorage, STORAGE_ALIGNMENT,
};
use crate::core::pipelines::Specialization;
use crate::core::runner::read_back;
use crate::core::shaders::{self, ShaderSource};
use crate::error::{Error, Result};
use crate::{Context, SetOp};
use ash::vk;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

pub(crate) const CHUNKS: u64 = 65536;
/// Byte offset of the directory in the control buffer.
const META_DIR: u64 = 256;
/// The control buffer of a set with a flat directory (an entry for every chunk).
const CONTROL_BYTES: u64 = META_DIR + CHUNKS * 8;
/// A packed directory's index (glsl/set/set_common.glsl DIR_INDEX_BYTES): a uvec4 per 64
/// chunks (the mask of the non-empty ones, the non-empty chunks before them, 0); the entries of
/// the non-empty chunks follow it.
const DIR_GROUPS: usize = 1024;
const DIR_INDEX_BYTES: u64 = DIR_GROUPS as u64 * 16;
/// [`GpuSet::pack`] packs sets of at most this many non-empty chunks (half the chunks: the
/// directory then drops by at least 47%). Sets with more stay flat: packed they would save
/// little or nothing and read slower (on an H200, operations on sparse 2^24-value sets, every
/// chunk non-empty, were 1.26-1.41x slower with packed operands;
/// docs/benchmarks/2026-11-28-h200-packed-sets.md).
pub const PACK_MAX_CHUNKS: u32 = 32768;
/// Directory forms bits of a pipeline (glsl/set/set_common.glsl DIR_FORMS): the set at
/// meta_d, meta_a, meta_b is packed.
pub(super) const DIR_PACKED_D: u32 = 1;
pub(super) const DIR_PACKED_A: u32 = 2;
pub(super) const DIR_PACKED_B: u32 = 4;

/// The control buffer's bytes: a flat directory, or a packed one of `entries` entries.
fn control_bytes(packed_entries: Option<u32>) -> u64 {
    match packed_entries {
        None => CONTROL_BYTES,
        Some(n) => META_DIR + DIR_INDEX_BYTES + n as u64 * 8,
    }
}

/// The forms bits of a pipeline recording with these sets as destination (or only set), first
/// and second operand.
pub(crate) fn dir_forms(d: Option<&GpuSet>, a: Option<&GpuSet>, b: Option<&GpuSet>) -> u32 {
    let bit = |s: Option<&GpuSet>, b: u32| if s.is_some_and(|s| s.is_packed()) { b } else { 0 };
    bit(d, DIR_PACKED_D) | bit(a, DIR_PACKED_A) | bit(b, DIR_PACKED_B)
}

/// `spec` for a set pipeline whose sets have the directory forms `forms` (specialization
/// constant 6, which the set kernels read as DIR_FORMS).
pub(super) fn with_forms(spec: Specialization, forms: u32) -> Specialization {
    Specialization {
        key_order: forms,
        ..spec
    }
}
/// Scratch words: SCRATCH_HEADER counters (glsl/set/set_common.glsl S_*; the last one the
/// batch's failure flag), then five lists of CHUNKS words.
pub(super) const SCRATCH_HEADER: u64 = 32;
const SCRATCH_WORDS: u64 = SCRATCH_HEADER + 5 * CHUNKS;
/// Bytes of the scratch range a recorded operation needs (its counters and chunk lists).
pub const SET_SCRATCH_BYTES: u64 = SCRATCH_WORDS * 4;
/// Bytes of the status a recorded modifying operation writes ([`SetOpStatus`]: 8 u32).
pub const SET_STATUS_BYTES: u64 = 32;
/// Word of the scratch where a one-pass filter's look-back state starts (glsl/set/filter.comp:
/// S_START; 16 bytes, then a u64 status word per tile, within the scratch's last three lists).
pub(super) const FILTER_STATUS_WORD: u64 = SCRATCH_HEADER + 2 * CHUNKS;

/// Values an invocation of the one-pass filter takes (glsl/set/filter.comp FILTER_ITEMS). On
/// an NVIDIA H200, 2^24 queries against sets of about 2^24 values, ms sparse / dense /
/// clustered: 1 value 0.552 / 0.333 / 0.477, 2 values 0.365 / 0.189 / 0.315, 4 0.295 / 0.122 /
/// 0.238, 8 0.407 / 0.120 / 0.308; count-scan-write 0.610 / 0.227 / 0.292
/// (docs/benchmarks/2026-11-26-h200-splitters-filter.md).
pub(super) const FILTER_ITEMS: u64 = 4;

/// How a recorded filter finds each tile's output offset
/// ([`GpuSetFilterArgs::path`](super::GpuSetFilterArgs::path)).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FilterPath {
    /// One pass with look-back where the device runs look-back passes, else count, scan and
    /// write.
    Auto,
    /// Count, scan and write: no workgroup waits on another.
    CountScanWrite,
    /// One pass with decoupled look-back: `spins` polls of a silent tile before looking its
    /// values up itself (0: every tile looks its predecessor's values up, whatever it
    /// published; a test mode).
    Lookback {
        /// Polls before the fallback.
        spins: u32,
    },
}

/// How a cardinality-only operation is recorded
/// ([`GpuSetCardinalityArgs::path`](super::GpuSetCardinalityArgs::path)).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CardinalityPath {
    /// [`CardinalityPath::OnePass`] for operands with few bitmap and array blocks, most of
    /// their chunks empty, full or single runs; else [`CardinalityPath::Passes`].
    Auto,
    /// The operations' passes: clear, classify, the pair kernels adding into the status.
    Passes,
    /// One pass over the directory that counts every pair itself (glsl/set/chunk_update.comp
    /// FUSED_COUNT); its workgroups add their sums into two 64-bit words where the device has
    /// 64-bit buffer atomics, else as [`CardinalityPath::OnePassSlots`].
    OnePass,
    /// [`CardinalityPath::OnePass`] with each workgroup's sums in scratch words of its own,
    /// added up by the last workgroup to finish (the form for devices without 64-bit buffer
    /// atomics).
    OnePassSlots,
}

impl CardinalityPath {
    /// Whether `a op b` is counted in one pass on this path.
    pub(super) fn counts_in_one_pass(self, a: &GpuSet, b: &GpuSet) -> bool {
        match self {
            CardinalityPath::Auto => GpuSet::one_pass_suits(a, b),
            CardinalityPath::Passes => false,
            CardinalityPath::OnePass | CardinalityPath::OnePassSlots => true,
        }
    }
}

/// Which kernels write an operation of two sets
/// ([`GpuSetOpArgs::path`](super::GpuSetOpArgs::path), [`GpuSet::assign_on`]). The result is the same on every path.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OpPath {
    /// [`OpPath::OneKernel`] for intersections of operands with few bitmap and array blocks,
    /// most of their chunks empty, full or single runs (as [`CardinalityPath::Auto`] picks its
    /// one pass); else [`OpPath::PairKernels`]. On an H200, clustered 2^24-value sets: AND
    /// 1.12x faster on one kernel (the three idle launches of each stage saved), OR, ANDNOT
    /// and XOR 1.08-1.21x slower (their chunks copied from one operand, which small_pairs.comp
    /// copies many at a time, take a chunk_update.comp workgroup each;
    /// docs/benchmarks/2026-11-28-h200-one-kernel-and.md).
    Auto,
    /// Each listed pair to the kernel made for its kind: pairs of bitmaps to
    /// glsl/set/bitmap_pairs.comp, pairs of short arrays and chunk copies to small_pairs.comp
    /// and array_pairs.comp, the rest to chunk_update.comp.
    PairKernels,
    /// Every listed pair to chunk_update.comp: the three other pair kernels are not launched.
    OneKernel,
}

impl OpPath {
    /// Whether `a op b` is written by chunk_update.comp alone on this path, for operands that
    /// [`GpuSet::one_pass_suits`] or not (`few_blocks`).
    pub(super) fn one_kernel(self, op: SetOp, few_blocks: bool) -> bool {
        match self {
            OpPath::Auto => op == SetOp::And && few_blocks,
            OpPath::PairKernels => false,
            OpPath::OneKernel => true,
        }
    }
}

/// [`CardinalityPath::Auto`] takes the one-pass cardinality where the operands' pools hold at
/// most this many bitmap blocks together (each bitmap pair is counted by a workgroup, one
/// pair after another) ...
pub(super) const ONE_PASS_CARD_BITMAP_BLOCKS: u32 = 16;
/// ... at most this many array blocks ...
pub(super) const ONE_PASS_CARD_ARRAY_BLOCKS: u32 = 2048;
/// ... and at most one array block for this many non-empty chunks: most chunks are then empty,
/// full or single runs, which the entries decide, and the pairs walked are short. On an H200
/// (docs/benchmarks/2026-11-27-h200-one-pass-cardinality.md) two clustered 2^24-value sets (about
/// 8200 chunks and 475 blocks each) count 1.7-2.0x faster in one pass, but pairs of arrays in
/// every non-empty chunk (a block or two each) 1.2-3.6x slower.
pub(super) const ONE_PASS_CARD_CHUNKS_PER_ARRAY_BLOCK: u32 = 4;
/// Pairs of a cardinality batch counted by the passes side by side at most
/// ([`GpuSet::record_op_cardinality_batch`]), each with a scratch of its own.
pub(crate) const CARD_BATCH_SCRATCHES: usize = 8;
/// The one-pass pairs of a cardinality batch get about this many workgroups together (each
/// pair a power of two of them, at least [`ONE_PASS_BATCH_MIN_GRID`]) ... On an H200, 16
/// clustered pairs: 33.4 us with 128 workgroups each, 26.0 us with 512 together, 25.2 us
/// with 256 (docs/benchmarks/2026-11-27-h200-cardinality-sums64.md).
pub(super) const ONE_PASS_BATCH_WORKGROUPS: u32 = 256;
/// ... and each at least this many.
pub(super) const ONE_PASS_BATCH_MIN_GRID: u32 = 16;
/// Workgroups of the one-pass cardinality (grid-stride over the directory).
pub(super) const ONE_PASS_CARD_GRID: u32 = 256;
/// classify.comp's aux flag of [`OpPath::OneKernel`]: every pair listed for
/// chunk_update.comp (glsl/set/classify.comp CLASSIFY_ONE_KERNEL).
pub(super) const CLASSIFY_ONE_KERNEL: u32 = 4;

/// Largest value count of one recorded insert/remove/contains/filter.
pub(crate) const MAX_BATCH: u64 = 1 << 24;

/// A directory entry's first word is the cardinality | the run count << RUN_SHIFT
/// (glsl/set/set_common.glsl).
const RUN_SHIFT: u32 = 17;
const CARD_MASK: u32 = (1 << RUN_SHIFT) - 1;

/// Array blocks a chunk of `n` values (1..=4096) takes.
pub(crate) fn array_blocks(n: u32) -> u32 {
    let words = n.div_ceil(2);
    1.max((words - 1).div_ceil(47))
}

/// Blocks (bitmap, array) a chunk of cardinality `n` holds (glsl/set/set_common.glsl
/// chunk_blocks).
fn chunk_blocks(n: u32) -> (u64, u64) {
    match n {
        0 | CHUNK_VALUES => (0, 0),
        n if n > ARRAY_MAX => (1, 0),
        n => (0, array_blocks(n) as u64),
    }
}

/// Blocks enough for any chunk of `lo..=hi` values (set_common.glsl chunk_blocks_between).
fn chunk_blocks_between(lo: u32, hi: u32) -> (u64, u64) {
    if hi == 0 || lo == CHUNK_VALUES {
        return (0, 0);
    }
    let array = if lo <= ARRAY_MAX {
        array_blocks(hi.min(ARRAY_MAX)) as u64
    } else {
        0
    };
    ((hi > ARRAY_MAX) as u64, array)
}

/// The bound on the blocks `op` of sets whose directory entries' first words (cardinality |
/// runs << RUN_SHIFT) are `xa` and `xb` needs, as glsl/set/classify.comp sums it for the
/// one-pass path: per chunk, the exact blocks where the cardinalities decide the result (none
/// where it is empty, full, or the destination's own chunk: `d_is_a`, `d_is_b`), else the
/// blocks enough for any result between the fewest and the most values `op` can give; where
/// an operand's chunk is a run chunk, the result may be one: an array block beside a bitmap.
pub(crate) fn op_block_bound(op: SetOp, xa: &[u32], xb: &[u32], d_is_a: bool, d_is_b: bool) -> (u64, u64) {
    let full = CHUNK_VALUES;
    let mut total = (0u64, 0u64);
    for (&xa, &xb) in xa.iter().zip(xb) {
        let (ca, cb) = (xa & CARD_MASK, xb & CARD_MASK);
        let operand_runs = (xa | xb) >> RUN_SHIFT != 0;
        let run_bound = |(bm, ar): (u64, u64)| {
            if operand_runs {
                (bm, ar.max(bm))
            } else {
                (bm, ar)
            }
        };
        // (result cardinality, it is operand a's chunk, it is operand b's chunk) when decided.
        let decided = match op {
            SetOp::And if ca == 0 || cb == 0 => Some((0, false, false)),
            SetOp::And if ca == full => Some((cb, false, true)),
            SetOp::And if cb == full => Some((ca, true, false)),
            SetOp::Or if ca == full || cb == full => Some((full, false, false)),
            SetOp::Or if ca == 0 => Some((cb, false, true)),
            SetOp::Or if cb == 0 => Some((ca, true, false)),
            SetOp::AndNot if ca == 0 || cb == full => Some((0, false, false)),
            SetOp::AndNot if cb == 0 => Some((ca, true, false)),
            SetOp::AndNot if ca == full => Some((full - cb, false, false)),
            SetOp::Xor if ca == 0 => Some((cb, false, true)),
            SetOp::Xor if cb == 0 => Some((ca, true, false)),
            SetOp::Xor if ca == full => Some((full - cb, false, false)),
            SetOp::Xor if cb == full => Some((full - ca, false, false)),
            _ => None,
        };
        let blocks = match decided {
            Some((card, is_a, is_b)) => {
                // One run lives in the entry: copied without storage.
                let one_run = (is_a && xa >> RUN_SHIFT == 1) || (is_b && xb >> RUN_SHIFT == 1);
                if card == 0 || card == full || (is_a && d_is_a) || (is_b && d_is_b) || one_run {
                    (0, 0)
                } else if is_run_pair(xa, xb) {
                    (0, 1)
                } else {
                    run_bound(chunk_blocks(card))
                }
            }
            // Two runs of one interval: their intersection lives in the entry (classify.comp).
            None if op == SetOp::And && xa >> RUN_SHIFT == 1 && xb >> RUN_SHIFT == 1 => (0, 0),
            // Run chunks of few runs together (run_pairs.glsl): one array block at most.
            None if is_run_pair(xa, xb) => (0, 1),
            // The fewest and the most values the result can hold (classify.comp result_range).
            None => run_bound(match op {
                SetOp::And => chunk_blocks_between((ca + cb).saturating_sub(full), ca.min(cb)),
                SetOp::Or => chunk_blocks_between(ca.max(cb), (ca + cb).min(full)),
                SetOp::AndNot => chunk_blocks_between(ca.saturating_sub(cb), ca),
                SetOp::Xor => chunk_blocks_between(ca.abs_diff(cb), (ca + cb).min(2 * full - ca - cb)),
            }),
        };
        total = (total.0 + blocks.0, total.1 + blocks.1);
    }
    total
}

/// Runs of at most this many together in two chunks that are each empty, full or a run chunk
/// make a pair for glsl/set/run_pairs.glsl (set_common.glsl RUN_PAIR_MAX).
const RUN_PAIR_MAX: u32 = 46;

/// Whether the chunks with entries' first words `xa` and `xb` are a pair for run_pairs.glsl
/// (set_common.glsl is_run_pair): each empty (no runs), full (one run) or a run chunk, with at
/// most RUN_PAIR_MAX runs together.
fn is_run_pair(xa: u32, xb: u32) -> bool {
    let runs = |x: u32| match x & CARD_MASK {
        0 => Some(0),
        CHUNK_VALUES => Some(1),
        _ if x >> RUN_SHIFT != 0 => Some(x >> RUN_SHIFT),
        _ => None,
    };
    matches!((runs(xa), runs(xb)), (Some(ra), Some(rb)) if ra + rb <= RUN_PAIR_MAX)
}

/// An operand of [`GpuSet::assign`]: the destination itself, or another set.
#[derive(Clone, Copy)]
pub enum SetOperand<'a> {
    /// The set being assigned to (its value before the operation).
    This,
    /// Another set of the same context.
    Set(&'a GpuSet),
}

/// The status a recorded modifying operation writes (8 u32, [`SET_STATUS_BYTES`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct SetOpStatus {
    /// 1: the result was written; 0: the destination's pool was short (or an earlier
    /// operation of the batch failed) and nothing was written.
    pub ok: u32,
    /// Bitmap blocks the result needed (on the one-pass path, the bound it was checked
    /// against: see [`GpuSet::reserve_for_op`]).
    pub need_bitmap_blocks: u32,
    /// Array blocks the result needed (on the one-pass path, the bound).
    pub need_array_blocks: u32,
    /// Free bitmap blocks before the operation.
    pub free_bitmap_blocks: u32,
    /// Free array blocks before the operation.
    pub free_array_blocks: u32,
    /// Cardinality-only operations: the result's values in chunks that are not full.
    pub partial_cardinality: u32,
    /// Cardinality-only operations: the result's full chunks.
    pub full_chunks: u32,
    /// Chunk pairs that needed a workgroup.
    pub work_chunks: u32,
}

impl SetOpStatus {
    /// The result's cardinality (cardinality-only operations).
    pub fn cardinality(&self) -> u64 {
        self.partial_cardinality as u64 + self.full_chunks as u64 * CHUNK_VALUES as u64
    }
}

/// A set of u32 values on the GPU (see the [`set`](crate::set) module). Holds its
/// [`Context`] alive. Dropping the set frees its memory at once: work recorded with it must
/// have finished.
pub struct GpuSet {
    pub(super) ctx: Context,
    pub(super) control: ObjectStorage,
    pub(super) bm_pool: ObjectStorage,
    pub(super) ar_pool: ObjectStorage,
    pub(super) bm_ring: ObjectStorage,
    pub(super) ar_ring: ObjectStorage,
    pub(super) bm_blocks: u32,
    pub(super) ar_blocks: u32,
    /// Packed directory ([`GpuSet::pack`]): its number of entries (the non-empty chunks);
    /// `None` for a flat one.
    pub(super) packed: Option<u32>,
    /// At least the number of non-empty chunks (tracked on the host through every operation,
    /// so passes over listed chunks launch no more workgroups than can have work).
    pub(super) chunk_bound: AtomicU32,
    /// The set's cardinality where the host knows it ([`UNKNOWN_CARDINALITY`] otherwise):
    /// built from chunks on the host, or counted by [`GpuSet::cardinality`] since the last
    /// write. Every write forgets it when it is recorded.
    pub(super) known_cardinality: AtomicU64,
    /// Set once a write into this set is recorded through the record layer: the host cannot
    /// tell when the caller's command buffer runs it, so from then on the set's cardinality is
    /// counted on the GPU at every call.
    pub(super) recorded_writes: AtomicBool,
}

/// [`GpuSet::known_cardinality`] when the host does not know the cardinality (no set holds
/// 2^64 - 1 values).
const UNKNOWN_CARDINALITY: u64 = u64::MAX;

/// Sizes of the five parts for pools of `bm` and `ar` blocks.
fn part_sizes(bm: u32, ar: u32) -> [u64; 5] {
    [
        CONTROL_BYTES,
        bm as u64 * BITMAP_BLOCK_BYTES,
        ar as u64 * ARRAY_BLOCK_BYTES,
        ring_capacity(bm) * 4,
        ring_capacity(ar) * 4,
    ]
}

/// Offsets of the five parts (directory, two pools, two rings) in a caller's range, each
/// [`STORAGE_ALIGNMENT`]-aligned, and the bytes they take.
fn caller_layout(bm: u32, ar: u32) -> ([u64; 5], u64) {
    let mut at = 0u64;
    let offsets = part_sizes(bm, ar).map(|size| {
        let offset = at;
        at = (at + size).next_multiple_of(STORAGE_ALIGNMENT);
        offset
    });
    (offsets, at)
}

/// Downloaded bytes as little-endian u32 words (a download's Vec<u8> need not be 4-aligned:
/// an empty one is not, so bytemuck's casts may refuse it).
fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

fn ring_capacity(blocks: u32) -> u64 {
    (blocks.max(1) as u64).next_power_of_two()
}

/// A flat directory (two words per chunk) as a packed one: the index (a uvec4 per 64 chunks:
/// the mask of the non-empty ones, the non-empty chunks before the group, 0), then the
/// entries of the non-empty chunks in chunk order.
fn pack_directory(dir: &[u32]) -> Vec<u32> {
    let mut index = Vec::with_capacity(DIR_GROUPS * 4);
    let mut entries = Vec::new();
    for g in 0..DIR_GROUPS {
        let mut mask = 0u64;
        let base = (entries.len() / 2) as u32;
        for i in 0..64 {
            let c = g * 64 + i;
            if dir[2 * c] != 0 {
                mask |= 1 << i;
                entries.extend_from_slice(&dir[2 * c..2 * c + 2]);
            }
        }
        index.extend_from_slice(&[mask as u32, (mask >> 32) as u32, base, 0]);
    }
    index.extend_from_slice(&entries);
    index
}

/// A packed directory's words (index, then `entries` entries) as a flat one. Errors: an index
/// that does not match its entries (a corrupt set).
fn unpack_directory(words: &[u32], entries: u32) -> Result<Vec<u32>> {
    let corrupt = |m: String| Error::Internal(format!("set download: packed directory {m}"));
    let mut dir = vec![0u32; 2 * CHUNKS as usize];
    let list = &words[DIR_GROUPS * 4..];
    let mut next = 0u32;
    for g in 0..DIR_GROUPS {
        let w = &words[g * 4..g * 4 + 4];
        if w[2] != next {
            return Err(corrupt(format!("group {g} starts at {}, expected {next}", w[2])));
        }
        let mask = w[0] as u64 | (w[1] as u64) << 32;
        for i in 0..64 {
            if mask >> i & 1 == 1 {
                let k = next as usize;
                if next >= entries {
                    return Err(corrupt(format!("more than its {entries} entries")));
                }
                let c = g * 64 + i;
                dir[2 * c..2 * c + 2].copy_from_slice(&list[2 * k..2 * k + 2]);
                if dir[2 * c] == 0 {
                    return Err(corrupt(format!("chunk {c} marked non-empty, entry empty")));
                }
                next += 1;
            }
        }
    }
    if next != entries {
        return Err(corrupt(format!("{next} chunks marked, {entries} entries")));
    }
    Ok(dir)
}

/// The 80 bytes at the start of the control buffer: the addresses of `parts` (bitmap pool,
/// array pool, bitmap ring, array ring), the rings' masks for pools of `bm_blocks` and
/// `ar_blocks` blocks, then (at 64) the cursors. At 80 follows the count of non-empty chunks,
/// at 84 the one-pass cardinality's count of finished workgroups (glsl/set/set_common.glsl
/// META_CARD_TICKET), zero when the set is made and written by the GPU alone.
fn meta_bytes(parts: [&ObjectStorage; 4], bm_blocks: u32, ar_blocks: u32, cursors: [u32; 4]) -> Vec<u8> {
    let mut m = vec![0u8; 80];
    for (i, part) in parts.iter().enumerate() {
        m[i * 8..i * 8 + 8].copy_from_slice(&part.address().to_le_bytes());
    }
    for (i, blocks) in [bm_blocks, ar_blocks].into_iter().enumerate() {
        let mask = (ring_capacity(blocks) - 1) as u32;
        m[32 + i * 4..36 + i * 4].copy_from_slice(&mask.to_le_bytes());
    }
    for (i, c) in cursors.iter().enumerate() {
        m[64 + i * 4..68 + i * 4].copy_from_slice(&c.to_le_bytes());
    }
    m
}

impl GpuSet {
    /// Uploads byte images into buffers (one submission).
    fn upload(ctx: &Context, parts: &[(&ObjectStorage, u64, &[u8])]) -> Result<()> {
        let mut staging = Vec::new();
        for (_, _, bytes) in parts {
            staging.push(if bytes.is_empty() {
                None
            } else {
                Some(ctx.staging_from(bytes)?)
            });
        }
        let done = ctx.submit_and_wait(|cmd| unsafe {
            for ((dst, offset, bytes), s) in parts.iter().zip(&staging) {
                if let Some(s) = s {
                    let region = [vk::BufferCopy {
                        src_offset: 0,
                        dst_offset: dst.offset() + *offset,
                        size: bytes.len() as u64,
                    }];
                    ctx.device.cmd_copy_buffer(cmd, s.buffer(), dst.buffer(), &region);
                }
            }
            ctx.transfer_to_compute(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = done {
            staging.into_iter().flatten().for_each(|s| s.leak());
            return Err(Error::Timeout(m));
        }
        done
    }

    /// Downloads byte ranges of buffers (one submission).
    fn download(ctx: &Context, parts: &[(&ObjectStorage, u64, u64)]) -> Result<Vec<Vec<u8>>> {
        let mut readback = Vec::new();
        for (_, _, len) in parts {
            readback.push(ctx.readback_buffer((*len).max(16))?);
        }
        let done = ctx.submit_and_wait(|cmd| unsafe {
            ctx.compute_to_transfer(cmd);
            for ((src, offset, len), r) in parts.iter().zip(&readback) {
                if *len > 0 {
                    let region = [vk::BufferCopy {
                        src_offset: src.offset() + *offset,
                        dst_offset: 0,
                        size: *len,
                    }];
                    ctx.device.cmd_copy_buffer(cmd, src.buffer(), r.buffer(), &region);
                }
            }
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = done {
            readback.into_iter().for_each(|s| s.leak());
            return Err(Error::Timeout(m));
        }
        done?;
        let mut out = Vec::new();
        for ((_, _, len), mut r) in parts.iter().zip(readback) {
            let mut v = vec![0u8; *len as usize];
            read_back(&mut r, &mut v)?;
            out.push(v);
        }
        Ok(out)
    }

    fn buffers(
        ctx: &Context,
        bm_blocks: u32,
        ar_blocks: u32,
        control_size: u64,
    ) -> Result<[ObjectStorage; 5]> {
        let control = GpuBuffer::new(ctx, control_size, MemoryLocation::GpuOnly, "vkalgo set directory")?;
        let [bm_pool, ar_pool, bm_ring, ar_ring] = Self::pool_buffers(ctx, bm_blocks, ar_blocks)?;
        Ok([ObjectStorage::own(control), bm_pool, ar_pool, bm_ring, ar_ring])
    }

    /// The two pools and their rings for `bm_blocks` and `ar_blocks` blocks.
    fn pool_buffers(ctx: &Context, bm_blocks: u32, ar_blocks: u32) -> Result<[ObjectStorage; 4]> {
        let dev = |bytes: u64, name: &str| {
            GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, name).map(ObjectStorage::own)
        };
        let sizes = part_sizes(bm_blocks, ar_blocks);
        Ok([
            dev(sizes[1], "vkalgo set bitmap pool")?,
            dev(sizes[2], "vkalgo set array pool")?,
            dev(sizes[3], "vkalgo set bitmap ring")?,
            dev(sizes[4], "vkalgo set array ring")?,
        ])
    }

    /// The ring cursors (bitmap head, tail, array head, tail) and both rings as the kernels see
    /// them: ring_capacity entries (the buffers may be larger), indexed by cursor & (capacity -
    /// 1).
    fn download_rings(&self) -> Result<([u32; 4], [Vec<u8>; 2])> {
        let mut parts = Self::download(
            &self.ctx,
            &[
                (&self.control, 64, 16),
                (&self.bm_ring, 0, ring_capacity(self.bm_blocks) * 4),
                (&self.ar_ring, 0, ring_capacity(self.ar_blocks) * 4),
            ],
        )?;
        let ar = parts.pop().unwrap_or_default();
        let bm = parts.pop().unwrap_or_default();
        let mut cursors = [0u32; 4];
        cursors.copy_from_slice(bytemuck::cast_slice(&parts[0]));
        Ok((cursors, [bm, ar]))
    }

    /// The memory an empty set with fixed pools of `bitmap_blocks` bitmap blocks (8 KiB, one
    /// per chunk of more than 4096 values) and `array_blocks` array blocks (192 bytes, 1 to 23
    /// per chunk of up to 4096 values, see [`GpuSet::pool_blocks`]) takes on the caller's
    /// memory ([`GpuSet::new_in`]): size, alignment and buffer usage.
    pub fn memory_requirements(
        _ctx: &Context,
        bitmap_blocks: u32,
        array_blocks: u32,
    ) -> Result<MemoryRequirements> {
        check_pool_blocks(bitmap_blocks, array_blocks)?;
        let (_, size) = caller_layout(bitmap_blocks, array_blocks);
        Ok(MemoryRequirements::storage(size, STORAGE_ALIGNMENT))
    }

    /// An empty set on the caller's memory, with fixed pools (every block free): `range` (at
    /// least [`GpuSet::memory_requirements`] bytes, aligned as it says, of a buffer with its
    /// usage flags) holds the whole set and vkalgo allocates nothing for it. Operations that
    /// need more blocks than the pools have left fail with [`Error::OutOfMemory`] and change
    /// nothing (a recorded one reports it in its status); [`GpuSet::reserve`] is refused.
    /// Blocking: the directory and rings are written with one submission.
    ///
    /// # Safety
    /// `range` must name a live buffer of this context's device with [`crate::BUFFER_USAGE`],
    /// bound to memory, that outlives the set and serves nothing else while it lives.
    pub unsafe fn new_in(
        ctx: &Context,
        range: BufferRange,
        bitmap_blocks: u32,
        array_blocks: u32,
    ) -> Result<Self> {
        check_pool_blocks(bitmap_blocks, array_blocks)?;
        prepare_kernels(ctx)?;
        let (offsets, size) = caller_layout(bitmap_blocks, array_blocks);
        let storage = ObjectStorage::caller(ctx, "set storage", range, size)?;
        let sizes = part_sizes(bitmap_blocks, array_blocks);
        let parts: [ObjectStorage; 5] = std::array::from_fn(|p| storage.caller_part(offsets[p], sizes[p]));
        let [control, bm_pool, ar_pool, bm_ring, ar_ring] = parts;
        let meta = meta_bytes(
            [&bm_pool, &ar_pool, &bm_ring, &ar_ring],
            bitmap_blocks,
            array_blocks,
            [0, bitmap_blocks, 0, array_blocks],
        );
        let mut control_image = vec![0u8; CONTROL_BYTES as usize];
        control_image[..80].copy_from_slice(&meta);
        let ring = |blocks: u32| -> Vec<u32> {
            let mut ids: Vec<u32> = (0..blocks).collect();
            ids.resize(ring_capacity(blocks) as usize, 0);
            ids
        };
        let (bm_ring_image, ar_ring_image) = (ring(bitmap_blocks), ring(array_blocks));
        Self::upload(
            ctx,
            &[
                (&control, 0, &control_image),
                (&bm_ring, 0, bytemuck::cast_slice(&bm_ring_image)),
                (&ar_ring, 0, bytemuck::cast_slice(&ar_ring_image)),
            ],
        )?;
        Ok(GpuSet {
            ctx: ctx.clone(),
            control,
            bm_pool,
            ar_pool,
            bm_ring,
            ar_ring,
            bm_blocks: bitmap_blocks,
            ar_blocks: array_blocks,
            packed: None,
            chunk_bound: AtomicU32::new(0),
            known_cardinality: AtomicU64::new(0),
            recorded_writes: AtomicBool::new(false),
        })
    }

    /// Whether the set lives on the caller's memory ([`GpuSet::new_in`]).
    pub fn on_caller_memory(&self) -> bool {
        self.control.is_callers()
    }

    /// An empty set (no pool blocks yet: the first operations grow the pools).
    pub fn new(ctx: &Context) -> Result<Self> {
        Self::from_chunks(ctx, &Chunks::new())
    }

    /// A set holding exactly `chunks`, each in its [`Container::gpu_form`] (pools sized to
    /// fit, no free blocks).
    pub(crate) fn from_chunks(ctx: &Context, chunks: &Chunks) -> Result<Self> {
        Self::from_chunks_in(ctx, chunks, false)
    }

    /// [`GpuSet::from_chunks`] with a flat or a packed directory (`packed`: the runs of run
    /// chunks of several runs as consecutive words of the array pool, after the arrays'
    /// blocks).
    fn from_chunks_in(ctx: &Context, chunks: &Chunks, packed: bool) -> Result<Self> {
        prepare_kernels(ctx)?;
        if packed {
            prepare_packed_kernels(ctx)?;
        }
        let chunks: Chunks = chunks.iter().map(|(k, c)| (*k, c.clone().gpu_form())).collect();
        let bm_blocks = chunks
            .iter()
            .filter(|(_, c)| matches!(c, Container::Bitmap(_)))
            .count() as u32;
        let array_chunk_blocks: u32 = chunks
            .iter()
            .map(|(_, c)| match c {
                Container::Array(a) => array_blocks(a.len() as u32),
                Container::Runs(r) if !packed => (r.len() > 1) as u32,
                _ => 0,
            })
            .sum();
        let packed_run_words: usize = chunks
            .iter()
            .map(|(_, c)| match c {
                Container::Runs(r) if packed && r.len() > 1 => r.len(),
                _ => 0,
            })
            .sum();
        let ar_blocks = array_chunk_blocks + packed_run_words.div_ceil(48) as u32;
        let entries = packed.then_some(chunks.len() as u32);
        let [control, bm_pool, ar_pool, bm_ring, ar_ring] =
            Self::buffers(ctx, bm_blocks, ar_blocks, control_bytes(entries))?;
        let mut run_words: Vec<u32> = Vec::with_capacity(packed_run_words);
        let mut dir = vec![0u32; 2 * CHUNKS as usize];
        let mut bm = Vec::<u64>::with_capacity(bm_blocks as usize * 1024);
        let mut ar = Vec::<u32>::with_capacity(ar_blocks as usize * 48);
        let (mut next_bm, mut next_ar) = (0u32, 0u32);
        for (key, c) in &chunks {
            let k = *key as usize;
            dir[2 * k] = c.cardinality();
            match c {
                Container::Full => {}
                Container::Runs(runs) => {
                    dir[2 * k] |= (runs.len() as u32) << RUN_SHIFT;
                    let word = |&(first, last): &(u16, u16)| first as u32 | (last as u32) << 16;
                    if runs.len() == 1 {
                        dir[2 * k + 1] = word(&runs[0]);
                    } else if packed {
                        dir[2 * k + 1] = array_chunk_blocks * 48 + run_words.len() as u32;
                        run_words.extend(runs.iter().map(word));
                    } else {
                        dir[2 * k + 1] = next_ar;
                        let start = ar.len();
                        ar.extend(runs.iter().map(word));
                        ar.resize(start + 48, 0);
                        next_ar += 1;
                    }
                }
                Container::Bitmap(b) => {
                    dir[2 * k + 1] = next_bm;
                    next_bm += 1;
                    bm.extend_from_slice(b);
                }
                Container::Array(a) => {
                    let blocks = array_blocks(a.len() as u32);
                    dir[2 * k + 1] = next_ar;
                    let start = ar.len();
                    ar.resize(start + blocks as usize * 48, 0);
                    let stream = &mut ar[start..];
                    for i in 1..blocks {
                        stream[i as usize - 1] = next_ar + i;
                    }
                    let h = blocks as usize - 1;
                    for (j, pair) in a.chunks(2).enumerate() {
                        let hi = if pair.len() > 1 { pair[1] as u32 } else { 0 };
                        stream[h + j] = pair[0] as u32 | (hi << 16);
                    }
                    next_ar += blocks;
                }
            }
        }
        let meta = meta_bytes(
            [&bm_pool, &ar_pool, &bm_ring, &ar_ring],
            bm_blocks,
            ar_blocks,
            [0; 4],
        );
        ar.extend_from_slice(&run_words);
        let mut control_image = vec![0u8; control_bytes(entries) as usize];
        control_image[..80].copy_from_slice(&meta);
        control_image[80..84].copy_from_slice(&(chunks.len() as u32).to_le_bytes());
        let dir_image = if packed { pack_directory(&dir) } else { dir };
        control_image[META_DIR as usize..].copy_from_slice(bytemuck::cast_slice(&dir_image));
        Self::upload(
            ctx,
            &[
                (&control, 0, &control_image),
                (&bm_pool, 0, bytemuck::cast_slice(&bm)),
                (&ar_pool, 0, bytemuck::cast_slice(&ar)),
            ],
        )?;
        Ok(GpuSet {
            ctx: ctx.clone(),
            control,
            bm_pool,
            ar_pool,
            bm_ring,
            ar_ring,
            bm_blocks,
            ar_blocks,
            packed: entries,
            chunk_bound: AtomicU32::new(chunks.len() as u32),
            known_cardinality: AtomicU64::new(chunks.iter().map(|(_, c)| c.cardinality() as u64).sum()),
            recorded_writes: AtomicBool::new(false),
        })
    }

    /// The set's chunks, downloaded and decoded.
    pub(crate) fn to_chunks(&self) -> Result<Chunks> {
        let parts = Self::download(
            &self.ctx,
            &[
                (&self.control, META_DIR, self.dir_bytes()),
                (&self.bm_pool, 0, self.bm_blocks as u64 * BITMAP_BLOCK_BYTES),
                (&self.ar_pool, 0, self.ar_blocks as u64 * ARRAY_BLOCK_BYTES),
            ],
        )?;
        let dir = self.flat_directory(&parts[0])?;
        let bm: Vec<u64> = parts[1]
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
            .collect();
        let ar = le_words(&parts[2]);
        let corrupt = |m: String| Error::Internal(format!("set download: {m}"));
        let mut chunks = Chunks::new();
        for c in 0..CHUNKS as usize {
            let (x, id) = (dir[2 * c], dir[2 * c + 1]);
            let (card, runs) = (x & CARD_MASK, (x >> RUN_SHIFT) as usize);
            let container = match card {
                _ if runs > 0 => {
                    // Several runs: a block (flat) or the index of their first word in the
                    // array pool (packed).
                    let first = if self.packed.is_some() {
                        id as usize
                    } else {
                        id as usize * 48
                    };
                    if runs > RUN_MAX || (runs > 1 && first + runs > ar.len()) {
                        return Err(corrupt(format!("chunk {c}: {runs} runs at {id}")));
                    }
                    let word = |i: usize| if runs == 1 { id } else { ar[first + i] };
                    let list: Vec<(u16, u16)> = (0..runs)
                        .map(|i| (word(i) as u16, (word(i) >> 16) as u16))
                        .collect();
                    if list.iter().any(|&(first, last)| first > last) {
                        return Err(corrupt(format!("chunk {c}: a run ends before it starts")));
                    }
                    let container = Container::Runs(list);
                    let held = container.cardinality();
                    if held != card {
                        return Err(corrupt(format!(
                            "chunk {c}: runs hold {held} values, entry says {card}"
                        )));
                    }
                    container
                }
                0 => continue,
                CHUNK_VALUES => Container::Full,
                n if n > CHUNK_VALUES => return Err(corrupt(format!("chunk {c} cardinality {n}"))),
                n if n > ARRAY_MAX => {
                    if id >= self.bm_blocks {
                        return Err(corrupt(format!("chunk {c} bitmap block {id}")));
                    }
                    Container::Bitmap(bm[id as usize * 1024..id as usize * 1024 + 1024].to_vec())
                }
                n => {
                    let k = array_blocks(n);
                    let word = |blk: u32, off: u32| -> Result<u32> {
                        let b = if blk == 0 {
                            id
                        } else {
                            ar[id as usize * 48 + blk as usize - 1]
                        };
                        if b >= self.ar_blocks {
                            return Err(corrupt(format!("chunk {c} array block {b}")));
                        }
                        Ok(ar[b as usize * 48 + off as usize])
                    };
                    if id >= self.ar_blocks {
                        return Err(corrupt(format!("chunk {c} array block {id}")));
                    }
                    let mut values = Vec::with_capacity(n as usize);
                    for j in 0..n {
                        let w = k - 1 + j / 2;
                        let x = word(w / 48, w % 48)?;
                        values.push(if j % 2 == 0 { x as u16 } else { (x >> 16) as u16 });
                    }
                    Container::Array(values)
                }
            };
            chunks.push((c as u16, container));
        }
        Ok(chunks)
    }

    /// Checks the set's storage (for tests): every block of both pools is held by exactly one
    /// chunk or free in its ring exactly once. Blocking. Errors: [`Error::Internal`] naming the
    /// first block found lost, shared or out of range.
    #[doc(hidden)]
    pub fn verify_pools(&self) -> Result<()> {
        let (cursors, rings) = self.download_rings()?;
        let parts = Self::download(
            &self.ctx,
            &[
                (&self.control, META_DIR, self.dir_bytes()),
                (&self.ar_pool, 0, self.ar_blocks as u64 * ARRAY_BLOCK_BYTES),
            ],
        )?;
        let (dir, ar) = (self.flat_directory(&parts[0])?, le_words(&parts[1]));
        let fail = |m: String| Err(Error::Internal(format!("set pools: {m}")));
        let mut held = [
            vec![false; self.bm_blocks as usize],
            vec![false; self.ar_blocks as usize],
        ];
        let mut claim = |pool: usize, id: u32, by: &dyn Fn() -> String| -> Result<()> {
            match held[pool].get_mut(id as usize) {
                None => fail(format!("{} holds block {id} of pool {pool}, out of range", by())),
                Some(true) => fail(format!("{} holds block {id} of pool {pool}, held twice", by())),
                Some(h) => {
                    *h = true;
                    Ok(())
                }
            }
        };
        // A packed set's runs of several runs lie in the array pool's last blocks, after every
        // array's: those blocks are held by the runs together.
        let mut run_words = 0usize;
        let mut packed_runs = Vec::new();
        for c in 0..CHUNKS as usize {
            let (x, id) = (dir[2 * c], dir[2 * c + 1]);
            let (card, runs) = (x & CARD_MASK, x >> RUN_SHIFT);
            let by = || format!("chunk {c} ({card} values, {runs} runs)");
            match card {
                _ if runs > 1 && self.packed.is_some() => {
                    packed_runs.push((id as usize, runs as usize, c));
                    run_words += runs as usize;
                }
                _ if runs > 1 => claim(1, id, &by)?,
                _ if runs == 1 => {}
                0 | CHUNK_VALUES => {}
                n if n > ARRAY_MAX => claim(0, id, &by)?,
                n => {
                    claim(1, id, &by)?;
                    for b in 1..array_blocks(n) as usize {
                        claim(1, ar[id as usize * 48 + b - 1], &by)?;
                    }
                }
            }
        }
        if run_words > 0 {
            let blocks = run_words.div_ceil(48);
            let start = (self.ar_blocks as usize)
                .checked_sub(blocks)
                .ok_or_else(|| Error::Internal(format!("set pools: {run_words} run words")))?;
            let mut end = start * 48;
            packed_runs.sort_unstable();
            for &(first, runs, c) in &packed_runs {
                if first < end || first + runs > self.ar_blocks as usize * 48 {
                    return fail(format!(
                        "chunk {c}: runs at word {first} overlap or leave the pool"
                    ));
                }
                end = first + runs;
            }
            for id in start..self.ar_blocks as usize {
                claim(1, id as u32, &|| "the packed runs".to_string())?;
            }
        }
        for (pool, ring) in rings.iter().enumerate() {
            let ring = le_words(ring);
            let (head, tail) = (cursors[2 * pool], cursors[2 * pool + 1]);
            for i in 0..tail.wrapping_sub(head) {
                let id = ring[(head.wrapping_add(i) as usize) & (ring.len() - 1)];
                claim(pool, id, &|| format!("ring position {}", head.wrapping_add(i)))?;
            }
        }
        for (pool, h) in held.iter().enumerate() {
            if let Some(id) = h.iter().position(|h| !h) {
                return fail(format!("block {id} of pool {pool} is neither held nor free"));
            }
        }
        Ok(())
    }

    /// The context the set lives on.
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// Whether the set's directory is packed ([`GpuSet::pack`]).
    pub fn is_packed(&self) -> bool {
        self.packed.is_some()
    }

    /// Packs the set for reading, where it has at most [`PACK_MAX_CHUNKS`] non-empty chunks
    /// (else it stays flat; see [`GpuSet::is_packed`]): its directory keeps only the non-empty
    /// chunks (an index of 16 KiB and 8 bytes per chunk, instead of 8 bytes for each of the
    /// 65536 chunks), the runs of run chunks share the array pool's last blocks (4 bytes a
    /// run), and the pools hold no free block. On an H200, a clustered set of 2^24 values
    /// (runs of 1..4096 values) took 0.74x the bytes of its Roaring serialization packed,
    /// 5.41x flat (docs/benchmarks/2026-11-28-h200-packed-sets.md). A packed set is read by
    /// every call (operand of operations and cardinalities, contains, filter, to_array,
    /// range cardinality, serialize); a chunk's entry costs it one dependent load more
    /// (there, operations with packed clustered operands 0.98-1.07x the time, their
    /// cardinalities 1.07-1.12x). A blocking call that writes the set ([`GpuSet::insert`],
    /// [`GpuSet::assign`], ..., [`GpuSet::reserve`]) unpacks it first; recording a write
    /// into a packed set is refused ([`GpuSet::unpack`] it). Blocking: downloads the set and
    /// uploads it packed, in new buffers, so work recorded with the set before must have
    /// finished and be recorded again. No-op when packed already. Errors: a set on the
    /// caller's memory ([`Error::InvalidArgument`]: its layout is fixed), memory
    /// ([`Error::OutOfMemory`]).
    pub fn pack(&mut self) -> Result<()> {
        if self.packed.is_some() {
            return Ok(());
        }
        if self.on_caller_memory() {
            return Err(Error::invalid(
                "set pack: the set lives on the caller's memory, whose layout is fixed",
            ));
        }
        if self.chunk_bound() > PACK_MAX_CHUNKS {
            // The exact count of non-empty chunks (the bound may be above it).
            let count = Self::download(&self.ctx, &[(&self.control, 80, 4)])?;
            let nonempty = le_words(&count[0])[0];
            self.set_chunk_bound(nonempty);
            if nonempty > PACK_MAX_CHUNKS {
                return Ok(());
            }
        }
        let chunks = self.to_chunks()?;
        *self = Self::from_chunks_in(&self.ctx, &chunks, true)?;
        Ok(())
    }

    /// Gives a packed set its flat directory again ([`GpuSet::pack`]), so that it can be
    /// written (its pools hold no free block afterwards). Blocking, in new buffers, as
    /// [`GpuSet::pack`]. No-op when not packed.
    pub fn unpack(&mut self) -> Result<()> {
        if self.packed.is_none() {
            return Ok(());
        }
        let chunks = self.to_chunks()?;
        *self = Self::from_chunks_in(&self.ctx, &chunks, false)?;
        Ok(())
    }

    /// A kernel reading this set alone (as the push constants' meta_d): `spec` with its
    /// directory's form.
    pub(super) fn reader_kernel(
        &self,
        shader: &ShaderSource,
        spec: Specialization,
    ) -> Result<crate::core::pipelines::Kernel> {
        self.ctx
            .kernel(shader, with_forms(spec, dir_forms(Some(self), None, None)))
    }

    /// Refuses to record a write into a packed set.
    pub(super) fn check_writable(&self, what: &str) -> Result<()> {
        if self.packed.is_some() {
            return Err(Error::invalid(format!(
                "{what}: the set is packed (GpuSet::pack); unpack it before recording a write"
            )));
        }
        Ok(())
    }

    /// Bytes of the directory at META_DIR in the control buffer.
    fn dir_bytes(&self) -> u64 {
        control_bytes(self.packed) - META_DIR
    }

    /// The directory downloaded from META_DIR ([`GpuSet::dir_bytes`]) as a flat one (two words
    /// per chunk).
    fn flat_directory(&self, bytes: &[u8]) -> Result<Vec<u32>> {
        let words = le_words(bytes);
        match self.packed {
            None => Ok(words),
            Some(n) => unpack_directory(&words, n),
        }
    }

    /// Bytes of device memory the set holds: directory, pools (free blocks included) and
    /// rings.
    pub fn memory_bytes(&self) -> u64 {
        control_bytes(self.packed)
            + self.bm_blocks as u64 * BITMAP_BLOCK_BYTES
            + self.ar_blocks as u64 * ARRAY_BLOCK_BYTES
            + 4 * (ring_capacity(self.bm_blocks) + ring_capacity(self.ar_blocks))
    }

    /// Blocks in the (bitmap, array) pools, free ones included.
    pub fn pool_blocks(&self) -> (u32, u32) {
        (self.bm_blocks, self.ar_blocks)
    }

    /// Blocks in both pools together, free ones included: at least the chunks that hold any.
    pub(super) fn pool_block_total(&self) -> u32 {
        self.bm_blocks.saturating_add(self.ar_blocks)
    }

    /// Adds `bitmap_blocks` and `array_blocks` free blocks to the pools (for recorded
    /// operations, which cannot grow them). Blocking: downloads the rings, builds the new pools
    /// and rings (the old contents copied, block ids unchanged), uploads them. Errors: more than
    /// 2^31 blocks in a pool ([`Error::InvalidArgument`]), memory ([`Error::OutOfMemory`]).
    pub fn reserve(&mut self, bitmap_blocks: u32, array_blocks: u32) -> Result<()> {
        if bitmap_blocks == 0 && array_blocks == 0 {
            return Ok(());
        }
        self.unpack()?;
        if self.on_caller_memory() {
            return Err(Error::invalid(
                "set reserve: the set lives on the caller's memory, whose pools are fixed",
            ));
        }
        let new_bm = self.bm_blocks as u64 + bitmap_blocks as u64;
        let new_ar = self.ar_blocks as u64 + array_blocks as u64;
        if new_bm > 1 << 31 || new_ar > 1 << 31 {
            return Err(Error::invalid("set reserve: a pool would exceed 2^31 blocks"));
        }
        let (new_bm, new_ar) = (new_bm as u32, new_ar as u32);
        let ctx = self.ctx.clone();
        let (cursors, old) = self.download_rings()?;
        let free_ids = |ring: &[u8], head: u32, tail: u32, total: u32, new_total: u32| -> Vec<u32> {
            let ring: &[u32] = bytemuck::cast_slice(ring);
            let mask = ring.len() as u32 - 1;
            let mut ids: Vec<u32> = (0..tail.wrapping_sub(head))
                .map(|i| ring[(head.wrapping_add(i) & mask) as usize])
                .collect();
            ids.extend(total..new_total);
            ids.resize(ring_capacity(new_total) as usize, 0);
            ids
        };
        let bm_free = tail_count(cursors[0], cursors[1]) + (new_bm - self.bm_blocks);
        let ar_free = tail_count(cursors[2], cursors[3]) + (new_ar - self.ar_blocks);
        let bm_ring_image = free_ids(&old[0], cursors[0], cursors[1], self.bm_blocks, new_bm);
        let ar_ring_image = free_ids(&old[1], cursors[2], cursors[3], self.ar_blocks, new_ar);
        let [bm_pool, ar_pool, bm_ring, ar_ring] = Self::pool_buffers(&ctx, new_bm, new_ar)?;
        let meta = meta_bytes(
            [&bm_pool, &ar_pool, &bm_ring, &ar_ring],
            new_bm,
            new_ar,
            [0, bm_free, 0, ar_free],
        );
        let (old_bm_bytes, old_ar_bytes) = (
            self.bm_blocks as u64 * BITMAP_BLOCK_BYTES,
            self.ar_blocks as u64 * ARRAY_BLOCK_BYTES,
        );
        let copied = ctx.submit_and_wait(|cmd| unsafe {
            ctx.compute_to_transfer(cmd);
            for (src, dst, bytes) in [
                (&self.bm_pool, &bm_pool, old_bm_bytes),
                (&self.ar_pool, &ar_pool, old_ar_bytes),
            ] {
                if bytes > 0 {
                    let region = [vk::BufferCopy {
                        src_offset: 0,
                        dst_offset: 0,
                        size: bytes,
                    }];
                    ctx.device
                        .cmd_copy_buffer(cmd, src.buffer(), dst.buffer(), &region);
                }
            }
            ctx.transfer_to_compute(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = copied {
            bm_pool.leak();
            ar_pool.leak();
            return Err(Error::Timeout(m));
        }
        copied?;
        Self::upload(
            &ctx,
            &[
                (&self.control, 0, &meta),
                (&bm_ring, 0, bytemuck::cast_slice(&bm_ring_image)),
                (&ar_ring, 0, bytemuck::cast_slice(&ar_ring_image)),
            ],
        )?;
        self.bm_pool = bm_pool;
        self.ar_pool = ar_pool;
        self.bm_ring = bm_ring;
        self.ar_ring = ar_ring;
        self.bm_blocks = new_bm;
        self.ar_blocks = new_ar;
        Ok(())
    }

    /// Reserves free blocks so that a recorded `op` of `a` and `b` into this set takes the
    /// one-pass path: its counting pass is skipped when the free blocks cover a bound computed
    /// from the operands' chunk cardinalities. Per chunk that needs work, the result's size
    /// lies in a range known from `|a|` and `|b|` alone (the intersection's from
    /// `|a| + |b| - 65536` to `min(|a|, |b|)`, the union's from `max(|a|, |b|)` to
    /// `|a| + |b|`, ...): a bitmap block if the result may be a bitmap, array blocks for up to
    /// 4096 values if it may be an array. That bound is what the operation's status then
    /// reports as needed; it exceeds the exact need where results may be either kind (up to 43
    /// array blocks, 8 KiB, beside each bitmap). Blocking (downloads the directories); errors
    /// as [`GpuSet::reserve`].
    pub fn reserve_for_op(&mut self, a: SetOperand, b: SetOperand, op: SetOp) -> Result<()> {
        self.operand_meta(a, "set reserve_for_op")?;
        self.operand_meta(b, "set reserve_for_op")?;
        self.unpack()?;
        let control_a = match a {
            SetOperand::This => &self.control,
            SetOperand::Set(s) => &s.control,
        };
        let control_b = match b {
            SetOperand::This => &self.control,
            SetOperand::Set(s) => &s.control,
        };
        let (set_a, set_b) = (self.operand_set(a), self.operand_set(b));
        let parts = Self::download(
            &self.ctx,
            &[
                (control_a, META_DIR, set_a.dir_bytes()),
                (control_b, META_DIR, set_b.dir_bytes()),
                (&self.control, 64, 16),
            ],
        )?;
        let entries = |set: &GpuSet, bytes: &[u8]| -> Result<Vec<u32>> {
            Ok(set.flat_directory(bytes)?.iter().step_by(2).copied().collect())
        };
        let (bm, ar) = op_block_bound(
            op,
            &entries(set_a, &parts[0])?,
            &entries(set_b, &parts[1])?,
            matches!(a, SetOperand::This),
            matches!(b, SetOperand::This),
        );
        let cursors: &[u32] = bytemuck::cast_slice(&parts[2]);
        let free_bm = cursors[1].wrapping_sub(cursors[0]) as u64;
        let free_ar = cursors[3].wrapping_sub(cursors[2]) as u64;
        let short = |need: u64, free: u64| -> Result<u32> {
            u32::try_from(need.saturating_sub(free))
                .map_err(|_| Error::invalid("set reserve_for_op: a pool would exceed 2^31 blocks"))
        };
        self.reserve(short(bm, free_bm)?, short(ar, free_ar)?)
    }

    /// Gives back the pools' free blocks: the set is moved into pools of exactly the blocks it
    /// uses (as a set read from a serialization), so [`GpuSet::memory_bytes`] drops to what
    /// the content needs. Growth leaves free blocks behind (each growth adds an eighth of the
    /// pool beyond the shortfall, and removals free blocks); call this after building a set
    /// that will mostly be read. Blocking: downloads the rings, copies the blocks in use (those
    /// above the new pool size into free ids below it) and rewrites the references on the GPU.
    /// No-op when no block is free. Errors: a set on the caller's memory
    /// ([`Error::InvalidArgument`]: its pools are fixed), memory ([`Error::OutOfMemory`]).
    pub fn shrink_to_fit(&mut self) -> Result<()> {
        if self.packed.is_some() {
            return Ok(()); // a packed set holds no free block
        }
        if self.on_caller_memory() {
            return Err(Error::invalid(
                "set shrink_to_fit: the set lives on the caller's memory, whose pools are fixed",
            ));
        }
        let ctx = self.ctx.clone();
        let (cursors, old) = self.download_rings()?;
        let bm = Relocation::new(&old[0], cursors[0], cursors[1], self.bm_blocks)?;
        let ar = Relocation::new(&old[1], cursors[2], cursors[3], self.ar_blocks)?;
        if bm.used == self.bm_blocks && ar.used == self.ar_blocks {
            return Ok(());
        }
        let [bm_pool, ar_pool, bm_ring, ar_ring] = Self::pool_buffers(&ctx, bm.used, ar.used)?;
        // Every block is in use: the rings hold no free id (head = tail = 0).
        let meta = ctx.staging_from(&meta_bytes(
            [&bm_pool, &ar_pool, &bm_ring, &ar_ring],
            bm.used,
            ar.used,
            [0; 4],
        ))?;
        let mut table = bm.new_ids.clone();
        table.extend_from_slice(&ar.new_ids);
        table.push(0);
        let table = ctx.staging_from(&table)?;
        let push = SetPush {
            meta_d: self.meta(),
            values: table.address(),
            count: bm.used,
            max_count: ar.used,
            aux: bm.new_ids.len() as u32,
            grid: (CHUNKS as u32).div_ceil(wg(&ctx)).min(256),
            ..Default::default()
        };
        let compact = kernel(&ctx, &shaders::SET_COMPACT)?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            ctx.compute_to_transfer(cmd);
            for (src, dst, reloc, block_bytes) in [
                (&self.bm_pool, &bm_pool, &bm, BITMAP_BLOCK_BYTES),
                (&self.ar_pool, &ar_pool, &ar, ARRAY_BLOCK_BYTES),
            ] {
                let mut regions = Vec::new();
                if reloc.used > 0 {
                    regions.push(vk::BufferCopy {
                        src_offset: src.offset(),
                        dst_offset: dst.offset(),
                        size: reloc.used as u64 * block_bytes,
                    });
                }
                for (i, &to) in reloc.new_ids.iter().enumerate() {
                    if to != u32::MAX {
                        regions.push(vk::BufferCopy {
                            src_offset: src.offset() + (reloc.used as u64 + i as u64) * block_bytes,
                            dst_offset: dst.offset() + to as u64 * block_bytes,
                            size: block_bytes,
                        });
                    }
                }
                if !regions.is_empty() {
                    ctx.device
                        .cmd_copy_buffer(cmd, src.buffer(), dst.buffer(), &regions);
                }
            }
            let region = [vk::BufferCopy {
                src_offset: 0,
                dst_offset: self.control.offset(),
                size: 80,
            }];
            ctx.device
                .cmd_copy_buffer(cmd, meta.buffer(), self.control.buffer(), &region);
            ctx.transfer_to_compute(cmd);
            ctx.dispatch(cmd, compact, &push, push.grid);
            ctx.compute_to_compute(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = done {
            for b in [bm_pool, ar_pool, bm_ring, ar_ring] {
                b.leak();
            }
            meta.leak();
            table.leak();
            return Err(Error::Timeout(m));
        }
        done?;
        self.bm_pool = bm_pool;
        self.ar_pool = ar_pool;
        self.bm_ring = bm_ring;
        self.ar_ring = ar_ring;
        self.bm_blocks = bm.used;
        self.ar_blocks = ar.used;
        Ok(())
    }

    /// Grows the pools after a failed operation: the shortfall plus an eighth of the pool.
    pub(super) fn grow_for(&mut self, status: &SetOpStatus) -> Result<()> {
        let short = |need: u32, free: u32, total: u32| -> u32 {
            if need <= free {
                0
            } else {
                (need - free).saturating_add(total / 8)
            }
        };
        let bm = short(
            status.need_bitmap_blocks,
            status.free_bitmap_blocks,
            self.bm_blocks,
        );
        let ar = short(status.need_array_blocks, status.free_array_blocks, self.ar_blocks);
        if self.on_caller_memory() {
            return Err(Error::OutOfMemory(format!(
                "set on the caller's memory: the operation needs {} bitmap and {} array blocks, \
                 its fixed pools have {} and {} free; the operation changed nothing",
                status.need_bitmap_blocks,
                status.need_array_blocks,
                status.free_bitmap_blocks,
                status.free_array_blocks
            )));
        }
        if bm == 0 && ar == 0 {
            return Err(Error::Internal(
                "set: an operation failed with enough free blocks".into(),
            ));
        }
        self.reserve(bm, ar)
    }

    /// The host's bound on non-empty chunks.
    pub(super) fn chunk_bound(&self) -> u32 {
        self.chunk_bound.load(Ordering::Relaxed)
    }

    /// Sets the bound to the exact count of non-empty chunks read back after an update.
    pub(super) fn set_chunk_bound(&self, nonempty: u32) {
        self.chunk_bound.store(nonempty, Ordering::Relaxed);
    }

    /// Raises the bound after recording an update into this set (bounds never shrink: a
    /// bound too high only costs idle workgroups), and forgets the set's cardinality.
    pub(super) fn note_update(&self, u: &Update) {
        self.chunk_bound.fetch_max(u.result_bound, Ordering::Relaxed);
        self.known_cardinality
            .store(UNKNOWN_CARDINALITY, Ordering::SeqCst);
    }

    /// [`GpuSet::note_update`] for a write recorded into the caller's command buffer: the
    /// set's cardinality is no longer kept on the host.
    pub(super) fn note_recorded_update(&self, u: &Update) {
        self.recorded_writes.store(true, Ordering::SeqCst);
        self.note_update(u);
    }

    /// The cardinality the host knows: none once a write was recorded into the set.
    pub(super) fn known_cardinality(&self) -> Option<u64> {
        if self.recorded_writes.load(Ordering::SeqCst) {
            return None;
        }
        let known = self.known_cardinality.load(Ordering::SeqCst);
        (known != UNKNOWN_CARDINALITY).then_some(known)
    }

    /// Keeps a cardinality counted on the GPU with no write in between (the caller holds the
    /// set: host writes need `&mut`, and a recorded write makes it unused).
    pub(super) fn remember_cardinality(&self, cardinality: u64) {
        if !self.recorded_writes.load(Ordering::SeqCst) {
            self.known_cardinality.store(cardinality, Ordering::SeqCst);
        }
    }

    pub(super) fn meta(&self) -> u64 {
        self.control.address()
    }

    pub(super) fn check_same_context(&self, other: &GpuSet, what: &str) -> Result<()> {
        if !self.ctx.same_as(&other.ctx) {
            return Err(Error::invalid(format!(
                "{what}: the sets come from different contexts"
            )));
        }
        Ok(())
    }

    /// Records a barrier ordering every earlier set pass (and transfer) before every later
    /// one: between two recorded operations on the same set.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of the set's device in the recording state.
    pub unsafe fn record_barrier(&self, cmd: vk::CommandBuffer) {
        self.ctx.memory_barrier(
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE,
            vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::SHADER_READ
                | vk::AccessFlags::SHADER_WRITE
                | vk::AccessFlags::TRANSFER_READ
                | vk::AccessFlags::TRANSFER_WRITE,
        );
    }
}

/// Where [`GpuSet::shrink_to_fit`] moves one pool's blocks: the pool keeps its `used` blocks
/// in use, and each one above that takes a free id below it.
struct Relocation {
    /// Blocks in use (the new pool size).
    used: u32,
    /// For old ids `used..total`: the new id, or `u32::MAX` where the block was free.
    new_ids: Vec<u32>,
}

impl Relocation {
    /// From a pool's ring image (free ids at ring `[head, tail)`, indexed modulo the ring's
    /// capacity) and its block count.
    fn new(ring: &[u8], head: u32, tail: u32, total: u32) -> Result<Self> {
        let ring: &[u32] = bytemuck::cast_slice(ring);
        let free = tail_count(head, tail);
        if free > total {
            return Err(Error::Internal(format!(
                "set shrink_to_fit: {free} free ids in a pool of {total} blocks"
            )));
        }
        let used = total - free;
        let mask = ring.len() as u32 - 1;
        let mut is_free = vec![false; total as usize];
        for i in 0..free {
            let id = ring[(head.wrapping_add(i) & mask) as usize];
            match is_free.get_mut(id as usize) {
                Some(seen @ false) => *seen = true,
                _ => {
                    return Err(Error::Internal(format!(
                        "set shrink_to_fit: free id {id} out of range or listed twice"
                    )))
                }
            }
        }
        // The free ids below `used` are exactly as many as the blocks in use above it.
        let mut targets = (0..used).filter(|&id| is_free[id as usize]);
        let new_ids = (used..total)
            .map(|id| match is_free[id as usize] {
                true => u32::MAX,
                false => targets.next().unwrap_or(u32::MAX),
            })
            .collect();
        Ok(Relocation { used, new_ids })
    }
}

fn tail_count(head: u32, tail: u32) -> u32 {
    tail.wrapping_sub(head)
}
