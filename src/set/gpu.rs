//! The set object: its buffers (control block with the directory, two block pools and their
//! rings), upload and download of its chunk image, pool growth, and the record layer.

use super::roaring::{Chunks, Container, ARRAY_MAX, CHUNK_VALUES, RUN_MAX};
use super::{ARRAY_BLOCK_BYTES, BITMAP_BLOCK_BYTES};
use crate::core::buffer::{
    BufferRange, ElementCount, GpuBuffer, MemoryLocation, ObjectStorage, StorageRequirements,
    STORAGE_ALIGNMENT,
};
use crate::core::pipelines::Specialization;
use crate::core::runner::read_back;
use crate::core::shaders::{self, ShaderSource};
use crate::core::spirv::push_constants;
use crate::error::{Error, Result};
use crate::{Context, SetOp};
use ash::vk;
use std::sync::atomic::{AtomicU32, Ordering};

push_constants! {
    /// Push constants of every set kernel (glsl/set/set_common.glsl, block `SetPush`).
    pub(crate) struct SetPush {
        meta_d: u64,
        meta_a: u64,
        meta_b: u64,
        scratch: u64,
        values: u64,
        out_addr: u64,
        count_addr: u64,
        range_lo: u64,
        range_hi: u64,
        count: u32,
        max_count: u32,
        op: u32,
        mode: u32,
        grid: u32,
        aux: u32,
    }
}

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
const DIR_PACKED_D: u32 = 1;
const DIR_PACKED_A: u32 = 2;
const DIR_PACKED_B: u32 = 4;

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
fn with_forms(spec: Specialization, forms: u32) -> Specialization {
    Specialization {
        key_order: forms,
        ..spec
    }
}
/// Scratch words: SCRATCH_HEADER counters (glsl/set/set_common.glsl S_*; the last one the
/// batch's failure flag), then five lists of CHUNKS words.
const SCRATCH_HEADER: u64 = 32;
const SCRATCH_WORDS: u64 = SCRATCH_HEADER + 5 * CHUNKS;
/// Bytes of the scratch range a recorded operation needs (its counters and chunk lists).
pub const SET_SCRATCH_BYTES: u64 = SCRATCH_WORDS * 4;
/// Bytes of the status a recorded modifying operation writes ([`SetOpStatus`]: 8 u32).
pub const SET_STATUS_BYTES: u64 = 32;
/// Word of the scratch where a one-pass filter's look-back state starts (glsl/set/filter.comp:
/// S_START; 16 bytes, then a u64 status word per tile, within the scratch's last three lists).
const FILTER_STATUS_WORD: u64 = SCRATCH_HEADER + 2 * CHUNKS;

/// Values an invocation of the one-pass filter takes (glsl/set/filter.comp FILTER_ITEMS). On
/// an NVIDIA H200, 2^24 queries against sets of about 2^24 values, ms sparse / dense /
/// clustered: 1 value 0.552 / 0.333 / 0.477, 2 values 0.365 / 0.189 / 0.315, 4 0.295 / 0.122 /
/// 0.238, 8 0.407 / 0.120 / 0.308; count-scan-write 0.610 / 0.227 / 0.292
/// (docs/benchmarks/2026-11-26-h200-splitters-filter.md).
const FILTER_ITEMS: u64 = 4;

/// How a recorded filter finds each tile's output offset ([`GpuSet::record_filter_on`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// How a cardinality-only operation is recorded ([`GpuSet::record_op_cardinality_on`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    fn counts_in_one_pass(self, a: &GpuSet, b: &GpuSet) -> bool {
        match self {
            CardinalityPath::Auto => GpuSet::one_pass_suits(a, b),
            CardinalityPath::Passes => false,
            CardinalityPath::OnePass | CardinalityPath::OnePassSlots => true,
        }
    }
}

/// Which kernels write an operation of two sets ([`GpuSet::record_op_on`],
/// [`GpuSet::assign_on`]). The result is the same on every path.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    fn one_kernel(self, op: SetOp, few_blocks: bool) -> bool {
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
const ONE_PASS_CARD_BITMAP_BLOCKS: u32 = 16;
/// ... at most this many array blocks ...
const ONE_PASS_CARD_ARRAY_BLOCKS: u32 = 2048;
/// ... and at most one array block for this many non-empty chunks: most chunks are then empty,
/// full or single runs, which the entries decide, and the pairs walked are short. On an H200
/// (docs/benchmarks/2026-11-27-h200-one-pass-cardinality.md) two clustered 2^24-value sets (about
/// 8200 chunks and 475 blocks each) count 1.7-2.0x faster in one pass, but pairs of arrays in
/// every non-empty chunk (a block or two each) 1.2-3.6x slower.
const ONE_PASS_CARD_CHUNKS_PER_ARRAY_BLOCK: u32 = 4;
/// Pairs of a cardinality batch counted by the passes side by side at most
/// ([`GpuSet::record_op_cardinality_batch`]), each with a scratch of its own.
pub(crate) const CARD_BATCH_SCRATCHES: usize = 8;
/// The one-pass pairs of a cardinality batch get about this many workgroups together (each
/// pair a power of two of them, at least [`ONE_PASS_BATCH_MIN_GRID`]) ... On an H200, 16
/// clustered pairs: 33.4 us with 128 workgroups each, 26.0 us with 512 together, 25.2 us
/// with 256 (docs/benchmarks/2026-11-27-h200-cardinality-sums64.md).
const ONE_PASS_BATCH_WORKGROUPS: u32 = 256;
/// ... and each at least this many.
const ONE_PASS_BATCH_MIN_GRID: u32 = 16;
/// Workgroups of the one-pass cardinality (grid-stride over the directory).
const ONE_PASS_CARD_GRID: u32 = 256;
/// classify.comp's aux flag of [`OpPath::OneKernel`]: every pair listed for
/// chunk_update.comp (glsl/set/classify.comp CLASSIFY_ONE_KERNEL).
const CLASSIFY_ONE_KERNEL: u32 = 4;

/// Largest value count of one recorded insert/remove/contains/filter.
pub(crate) const MAX_BATCH: u64 = 1 << 24;

const MODE_OP: u32 = 0;
const MODE_CARD: u32 = 1;
const MODE_RANGE: u32 = 2;
const MODE_VALUES: u32 = 3;
const MODE_OPTIMIZE: u32 = 4;

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
}

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
    ) -> Result<StorageRequirements> {
        check_pool_blocks(bitmap_blocks, array_blocks)?;
        let (_, size) = caller_layout(bitmap_blocks, array_blocks);
        Ok(StorageRequirements {
            size,
            alignment: STORAGE_ALIGNMENT,
            usage: crate::BUFFER_USAGE,
        })
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
    fn reader_kernel(
        &self,
        shader: &ShaderSource,
        spec: Specialization,
    ) -> Result<crate::core::pipelines::Kernel> {
        self.ctx
            .kernel(shader, with_forms(spec, dir_forms(Some(self), None, None)))
    }

    /// Refuses to record a write into a packed set.
    fn check_writable(&self, what: &str) -> Result<()> {
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
    fn pool_block_total(&self) -> u32 {
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
    /// bound too high only costs idle workgroups).
    pub(super) fn note_update(&self, u: &Update) {
        self.chunk_bound.fetch_max(u.result_bound, Ordering::Relaxed);
    }

    pub(super) fn meta(&self) -> u64 {
        self.control.address()
    }

    fn check_same_context(&self, other: &GpuSet, what: &str) -> Result<()> {
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

/// Workgroups of a grid-stride pass over at most `bound` listed chunks: at most 4096, so each
/// takes at most 16 chunks (lavapipe ends an invocation's loops after 32768 iterations in
/// total, measured, and one chunk may take an invocation over 1024 iterations with 64
/// invocations), and no more than there can be chunks (idle workgroups cost a lot on CPU
/// drivers).
/// Workgroups of chunk_update.comp and the medium array pairs at most (see
/// record_update_phase).
const UPDATE_GRID: u32 = 256;
/// Workgroups of bitmap_pairs.comp at most on GPUs (not limited by chunk_grid): at most 4
/// pairs each for a whole universe of bitmaps, so the last workgroups to start end soon after
/// the others (an H100, every chunk a bitmap: 0.8-2.0% faster than 4096 workgroups of 16
/// pairs; 65536 of one pair each 3.5% slower than 4096,
/// docs/benchmarks/2026-11-25-h100-dense-bitmaps.md).
const BITMAPS_GRID: u32 = 16384;
/// ... and in an operation's counting stage (stage 0), which does nothing on the one-pass
/// path (the destination holds free blocks for the bound: operations repeated into one set,
/// or reserved): there its idle workgroups cost their launch. On an H200, every chunk a
/// bitmap: `record_op` 2.1% faster with 1024 (90.2-90.7% of the copy bandwidth instead of
/// 88%), where a counting stage that runs (the destination short of blocks) is about 7%
/// slower (as the cardinalities with 1024,
/// docs/benchmarks/2026-11-27-h200-cardinality-entry-runs.md).
const BITMAPS_COUNT_GRID: u32 = 1024;
const MEDIUM_GRID: u32 = 1024;

/// Chunks per workgroup of to_array's offsets passes and of range cardinalities, and the
/// workgroups of the offsets passes (glsl/set/info.comp OFFSET_BLOCK, OFFSET_BLOCKS).
const OFFSET_BLOCK: u64 = 256;
const OFFSET_BLOCKS: u32 = (CHUNKS / OFFSET_BLOCK) as u32;

fn chunk_grid(bound: u32) -> u32 {
    bound.clamp(1, 4096)
}

/// Invocations per workgroup: 256 on GPUs; 64 on CPU drivers, where each invocation of a
/// kernel with barriers is a coroutine and a chunk's work spread over fewer of them is several
/// times faster (lavapipe).
pub(crate) fn wg(ctx: &Context) -> u32 {
    if ctx.is_cpu_device() {
        64
    } else {
        256
    }
}

/// One modifying (or counting) operation as passes: the push constants that differ.
pub(crate) struct Update {
    pub d: u64,
    pub a: u64,
    pub b: u64,
    pub op: u32,
    pub mode: u32,
    pub range: (u64, u64),
    /// Sorted values (MODE_VALUES) and their count.
    pub values: u64,
    pub count: ElementCount,
    pub max_count: u32,
    /// At most this many chunks can be listed (work or trivial).
    pub bound: u32,
    /// Two sets' operation: at most this many chunks are bitmaps in both (the smaller of their
    /// bitmap pools), which sizes bitmap_pairs.comp's grid; 0 for other updates.
    pub bitmap_pair_bound: u32,
    /// Two sets' operation or cardinality: at most this many chunks hold blocks in either
    /// operand (their array and bitmap pools together), and only such chunks make pairs of
    /// arrays or copies, which sizes the array-pair kernels' grids; `u32::MAX` for other
    /// updates.
    pub block_chunk_bound: u32,
    /// The destination's bound on non-empty chunks afterwards.
    pub result_bound: u32,
    /// Two sets' operation on [`OpPath::OneKernel`]: classify lists every pair for
    /// chunk_update.comp, and the other pair kernels are not launched.
    pub one_kernel: bool,
    /// The sets' directory forms ([`dir_forms`]): packed operands are read, never written.
    pub forms: u32,
}

/// Refuses pools of more than 2^31 blocks.
fn check_pool_blocks(bitmap_blocks: u32, array_blocks: u32) -> Result<()> {
    if bitmap_blocks > 1 << 31 || array_blocks > 1 << 31 {
        return Err(Error::invalid("set storage: a pool would exceed 2^31 blocks"));
    }
    Ok(())
}

/// Creates every set pipeline (when a set is made, not while recording).
pub(crate) fn prepare_kernels(ctx: &Context) -> Result<()> {
    let spec = set_spec(ctx);
    let list = [
        &shaders::SET_BOUNDARIES,
        &shaders::SET_CHECK,
        &shaders::SET_BITMAP_PAIRS,
        &shaders::SET_CLASSIFY,
        &shaders::SET_CONTAINS,
        &shaders::SET_FILTER,
        &shaders::SET_INFO,
        &shaders::SET_TO_ARRAY,
        &shaders::SET_TRIVIAL,
        &shaders::SET_COMPACT,
    ];
    ctx.prepare_kernels(&list.map(|s| (s, spec)))?;
    if ctx.profile.lookback {
        ctx.prepare_kernels(&[(&shaders::SET_FILTER, filter_lookback_spec(ctx, filter_spins(ctx)))])?;
    }
    ctx.prepare_kernels(&[
        (&shaders::SET_CHUNK_UPDATE, update_spec(ctx)),
        (one_pass_card_shader(ctx.profile.int64_atomics), update_spec(ctx)),
        (&shaders::SET_ARRAY_PAIRS_MEDIUM, medium_pairs_spec(ctx)),
        (small_pairs_shader(ctx), small_pairs_spec()),
    ])
}

/// Polls of a silent tile before the one-pass filter looks its values up itself (as the
/// merge's look-back: 256 on GPUs, 32 on CPU drivers).
fn filter_spins(ctx: &Context) -> u32 {
    if ctx.is_cpu_device() {
        32
    } else {
        256
    }
}

/// The one-pass filter's specialization (SPIN_LIMIT `spins`).
fn filter_lookback_spec(ctx: &Context, spins: u32) -> Specialization {
    Specialization::new(wg(ctx), 1, spins)
}

/// The specialization of most set kernels (flat directories).
fn set_spec(ctx: &Context) -> Specialization {
    Specialization::new(wg(ctx), 1, 1)
}

fn kernel(ctx: &Context, s: &ShaderSource) -> Result<crate::core::pipelines::Kernel> {
    ctx.kernel(s, set_spec(ctx))
}

/// Pipelines for packed sets ([`GpuSet::pack`]), made by the first packing on a context (so
/// that recording never makes one): the passes of operations and cardinalities with either
/// operand or both packed, and the single-set readers with the set packed.
fn prepare_packed_kernels(ctx: &Context) -> Result<()> {
    let spec = set_spec(ctx);
    let mut list: Vec<(&ShaderSource, Specialization)> = Vec::new();
    for forms in [DIR_PACKED_A, DIR_PACKED_B, DIR_PACKED_A | DIR_PACKED_B] {
        for (shader, s) in [
            (&shaders::SET_CLASSIFY, spec),
            (&shaders::SET_BITMAP_PAIRS, spec),
            (&shaders::SET_TRIVIAL, spec),
            (&shaders::SET_CHUNK_UPDATE, update_spec(ctx)),
            (one_pass_card_shader(ctx.profile.int64_atomics), update_spec(ctx)),
            (&shaders::SET_ARRAY_PAIRS_MEDIUM, medium_pairs_spec(ctx)),
            (small_pairs_shader(ctx), small_pairs_spec()),
        ] {
            list.push((shader, with_forms(s, forms)));
        }
    }
    for shader in [
        &shaders::SET_CONTAINS,
        &shaders::SET_FILTER,
        &shaders::SET_INFO,
        &shaders::SET_TO_ARRAY,
    ] {
        list.push((shader, with_forms(spec, DIR_PACKED_D)));
    }
    if ctx.profile.lookback {
        list.push((
            &shaders::SET_FILTER,
            with_forms(filter_lookback_spec(ctx, filter_spins(ctx)), DIR_PACKED_D),
        ));
    }
    ctx.prepare_kernels(&list)
}

/// The medium array-pair kernel (glsl/set/array_pairs.comp): 256 invocations per pair on
/// GPUs, 64 on CPU drivers (see [`wg`]).
fn medium_pairs_spec(ctx: &Context) -> Specialization {
    Specialization::new(if ctx.is_cpu_device() { 64 } else { 256 }, 1, 1)
}

/// The chunk kernel's workgroup (glsl/set/chunk_update.comp): on GPUs the widest power of two
/// up to 512 invocations the device allows. Its 18.5 KiB of shared memory let two workgroups
/// share a multiprocessor: on an H100, two of 512 invocations (60 registers) ran clustered
/// sets' operations 3-22% faster than two of 1024 (which the driver held to 32 registers),
/// docs/benchmarks/2026-11-25-h100-chunk-kernel.md. CPU drivers keep [`wg`].
fn update_spec(ctx: &Context) -> Specialization {
    let size = if ctx.is_cpu_device() {
        wg(ctx)
    } else {
        let limit = ctx.profile.max_workgroup_invocations.clamp(wg(ctx), 512);
        1 << (31 - limit.leading_zeros())
    };
    Specialization::new(size, 1, 1)
}

/// The small-pair kernel (glsl/set/small_pairs.comp): 32 invocations, one subgroup on GPUs
/// (the kernel needs at least 32). On an H200, sparse 2^24-value sets: counting passes 0.27-0.30
/// ms with the medium kernel's design at 128 invocations per small pair, 0.19 ms with this one
/// (docs/benchmarks/2026-11-23-h200-small-pairs.md).
fn small_pairs_spec() -> Specialization {
    Specialization::new(32, 1, 1)
}

/// The small-pair kernel's permutation: its lists as 16-bit shared-memory values where the
/// device has shaderInt16 (one load a step of the walk instead of a load, a shift and a mask),
/// else as 32-bit words of two values.
fn small_pairs_shader(ctx: &Context) -> &'static ShaderSource {
    if ctx.profile.int16 {
        &shaders::SET_SMALL_PAIRS_LIST16
    } else {
        &shaders::SET_SMALL_PAIRS
    }
}

/// How the one-pass cardinality's workgroups bring their sums together.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum OnePassTail {
    /// Into two 64-bit words of the first operand's control block, one atomic each (needs
    /// 64-bit buffer atomics): the workgroup that completes the count writes the status.
    Sums64,
    /// Into scratch words of each workgroup's own, added up by the last to finish (counted in
    /// the first operand's control block).
    Slots,
    /// Straight into a status that is zero before the dispatch (the host layer's batches):
    /// nothing in a control block, so operations sharing a set run side by side.
    ZeroedStatus,
}

impl OnePassTail {
    /// The tail of a recorded operation: `Sums64` where the device has 64-bit buffer atomics.
    fn recorded(ctx: &Context) -> Self {
        if ctx.profile.int64_atomics {
            OnePassTail::Sums64
        } else {
            OnePassTail::Slots
        }
    }
}

/// The one-pass cardinality's kernel: with `sums64` its workgroups add their sums into two
/// 64-bit words (one atomic each; needs 64-bit buffer atomics), else into scratch words of
/// their own that the last workgroup adds up (both take a status zeroed before).
fn one_pass_card_shader(sums64: bool) -> &'static ShaderSource {
    if sums64 {
        &shaders::SET_CHUNK_COUNT_SUMS64
    } else {
        &shaders::SET_CHUNK_COUNT
    }
}

/// Records a cardinality-only update (`u`, MODE_CARD) in one pass over the directory
/// (glsl/set/chunk_update.comp FUSED_COUNT) into the status at `status`, its workgroups'
/// sums brought together as `tail` says. With [`OnePassTail::Sums64`] each workgroup adds
/// its sums and a count of itself into two 64-bit words of the first operand's control block
/// with one atomic each, and the workgroup that completes a word's count writes that word's
/// totals and clears it: the tail is one round trip. With [`OnePassTail::Slots`] each
/// workgroup's sums go to its own scratch words and the last workgroup to finish adds them up;
/// it counts the finished workgroups in the first operand's control block, a multiple of the
/// grid between operations (so that it needs no clear). Either way two such operations on one
/// set must not overlap; with [`OnePassTail::ZeroedStatus`] they may, and no barrier is
/// recorded before or after the dispatch (the caller's). `side_by_side`: how many such
/// dispatches run at once (a batch's), which share [`ONE_PASS_BATCH_WORKGROUPS`].
pub(crate) unsafe fn record_one_pass_cardinality(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    u: &Update,
    scratch: &BufferRange,
    status: u64,
    tail: OnePassTail,
    side_by_side: u32,
) -> Result<()> {
    let spec = update_spec(ctx);
    let sums64 = match tail {
        OnePassTail::Sums64 => true,
        OnePassTail::Slots => false,
        OnePassTail::ZeroedStatus => ctx.profile.int64_atomics,
    };
    let count = ctx.kernel(one_pass_card_shader(sums64), with_forms(spec, u.forms))?;
    let mut grid = (CHUNKS as u32 / spec.workgroup_size).clamp(1, ONE_PASS_CARD_GRID);
    if side_by_side > 1 {
        // A batch's one-pass pairs share the GPU: fewer workgroups each, more chunks an
        // invocation (a power of two, so that the grid-stride loop stays within the chunks).
        let share = (ONE_PASS_BATCH_WORKGROUPS / side_by_side).max(ONE_PASS_BATCH_MIN_GRID);
        grid = grid.min(1 << (31 - share.leading_zeros()));
    }
    debug_assert!(
        grid.is_power_of_two(),
        "the finished count needs a power-of-two grid"
    );
    let push = SetPush {
        meta_d: 0,
        meta_a: u.a,
        meta_b: u.b,
        scratch: ctx.address_of(scratch),
        values: 0,
        out_addr: status,
        count_addr: 0,
        range_lo: 0,
        range_hi: 0,
        count: 0,
        max_count: 0,
        op: u.op,
        mode: u32::from(tail == OnePassTail::ZeroedStatus),
        grid,
        aux: 0,
    };
    if tail == OnePassTail::ZeroedStatus {
        ctx.dispatch(cmd, count, &push, grid);
        return Ok(());
    }
    // Earlier passes on the scratch, the status or the count (another operation of a batch).
    earlier_passes_barrier(ctx, cmd);
    ctx.dispatch(cmd, count, &push, grid);
    ctx.compute_to_compute(cmd);
    Ok(())
}

/// Earlier passes (another operation, a batch's, or the caller's transfers) before a pass
/// that reads or writes what they wrote: compute and transfer writes before compute reads and
/// writes. A set operation's clear is a compute dispatch followed by a compute-to-compute
/// barrier (cheaper than a transfer fill and its barrier:
/// docs/benchmarks/2026-11-22-merge-scan-h100.md).
unsafe fn earlier_passes_barrier(ctx: &Context, cmd: vk::CommandBuffer) {
    ctx.memory_barrier(
        cmd,
        vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
        vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::SHADER_READ | vk::AccessFlags::TRANSFER_WRITE,
        vk::PipelineStageFlags::COMPUTE_SHADER,
        vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::SHADER_READ,
    );
}

/// Scratch words an operation clears first: the counters, and the batch's failure flag (the
/// header's last word) when it is the first of its batch.
fn counters_to_clear(first: bool) -> u32 {
    (if first { SCRATCH_HEADER } else { SCRATCH_HEADER - 1 }) as u32
}

/// Records the passes of one update: clear the scratch counters (and the batch's failure
/// flag when `first`), classify or boundaries, count, check (status to `status`), write.
pub(crate) unsafe fn record_update(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    u: &Update,
    scratch: &BufferRange,
    status: u64,
    first: bool,
) -> Result<()> {
    record_update_phase(ctx, cmd, u, scratch, status, first, Phase::All)
}

/// Which passes of an update [`record_update_phase`] records.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Everything.
    All,
    /// After the pools grew: clear the failure flag, check again, write (the lists and counts
    /// in scratch are still those of the failed attempt, which changed nothing).
    Retry,
    /// An operation of two sets on the one-pass path only (no counting or check pass): the
    /// last classify workgroup decides whether the free blocks cover the bound.
    Reserved,
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn record_update_phase(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    u: &Update,
    scratch: &BufferRange,
    status: u64,
    first: bool,
    phase: Phase,
) -> Result<()> {
    let p = UpdatePasses::new(ctx, cmd, u, scratch, status);
    if u.mode == MODE_CARD && phase == Phase::All {
        return record_cardinality_passes(ctx, cmd, std::slice::from_ref(&p), first);
    }
    p.barrier_before_clear();
    if phase == Phase::Reserved {
        debug_assert_eq!(u.mode, MODE_OP);
        ctx.record_compute_fill(cmd, scratch, counters_to_clear(first), 0)?;
        ctx.compute_to_compute(cmd);
        p.classify(0, 1)?;
        ctx.compute_to_compute(cmd);
    } else if phase == Phase::All {
        // Counters and, first in a batch, the failure flag (the header's last word).
        ctx.record_compute_fill(cmd, scratch, counters_to_clear(first), 0)?;
        ctx.compute_to_compute(cmd);
        match u.mode {
            MODE_VALUES => {
                // One invocation per chunk (boundaries.comp).
                let groups = (CHUNKS / wg(ctx) as u64) as u32;
                ctx.dispatch(cmd, kernel(ctx, &shaders::SET_BOUNDARIES)?, &p.push(0, 0), groups);
            }
            m => p.classify(m, 0)?,
        }
        ctx.compute_to_compute(cmd);
        p.pair_passes(0)?;
        ctx.compute_to_compute(cmd);
    } else {
        // The failure flag (the header's last word).
        let flag = scratch.part((SCRATCH_HEADER - 1) * 4, 4);
        ctx.record_compute_fill(cmd, &flag, 1, 0)?;
        ctx.compute_to_compute(cmd);
    }
    if phase != Phase::Reserved {
        let check = kernel(ctx, &shaders::SET_CHECK)?;
        ctx.dispatch(cmd, check, &p.push(if u.mode == MODE_CARD { 1 } else { 0 }, 0), 1);
        ctx.compute_to_compute(cmd);
    }
    if u.mode != MODE_CARD {
        // The work lists and the trivial list are disjoint chunks, and each pass takes blocks
        // only from the free ids as they were before the operation (the check pass counted
        // them) while freed ids go after them: the writing passes run side by side.
        p.pair_passes(1)?;
        if u.mode != MODE_VALUES {
            let trivial = p.kernel(&shaders::SET_TRIVIAL, set_spec(ctx))?;
            ctx.dispatch(cmd, trivial, &p.push(0, 0), u.bound.div_ceil(wg(ctx)).max(1));
        }
        ctx.compute_to_compute(cmd);
    }
    Ok(())
}

/// Records the passes of cardinality-only updates (`MODE_CARD`), each with its own scratch and
/// status, stage by stage: every clear, a barrier, every classification, a barrier, every
/// pair pass, a barrier. The updates only read their sets and write their own scratch and
/// status, so those of one stage run side by side (the host layer's batches: one barrier per
/// stage instead of three per operation).
pub(crate) unsafe fn record_cardinality_passes(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    updates: &[UpdatePasses],
    first: bool,
) -> Result<()> {
    let Some(p) = updates.first() else {
        return Ok(());
    };
    p.barrier_before_clear();
    // Cardinality only: every pass adds its sums straight into the zeroed status (stage 2 of
    // the pair passes), so no check pass follows. The scratch counters and the status in one
    // dispatch: one launch less, dense-set cardinalities 2-5% faster on an H100
    // (docs/benchmarks/2026-11-25-h100-set-copies.md).
    let counters = counters_to_clear(first);
    for p in updates {
        debug_assert_eq!(p.u.mode, MODE_CARD);
        p.scratch.check("fill destination", counters as u64 * 4, 4)?;
        ctx.record_compute_fill_two_at(
            cmd,
            (p.scratch_addr, counters),
            (p.status, (SET_STATUS_BYTES / 4) as u32),
            0,
        )?;
    }
    ctx.compute_to_compute(cmd);
    for p in updates {
        p.classify(MODE_CARD, 2)?;
    }
    ctx.compute_to_compute(cmd);
    for p in updates {
        p.pair_passes(2)?;
    }
    ctx.compute_to_compute(cmd);
    Ok(())
}

/// One update's passes as record_update_phase records them: its push constants and
/// dispatches.
pub(crate) struct UpdatePasses<'a> {
    ctx: &'a Context,
    cmd: vk::CommandBuffer,
    u: &'a Update,
    scratch: &'a BufferRange,
    scratch_addr: u64,
    status: u64,
    grid: u32,
    count: u32,
    count_addr: u64,
}

impl<'a> UpdatePasses<'a> {
    pub(crate) fn new(
        ctx: &'a Context,
        cmd: vk::CommandBuffer,
        u: &'a Update,
        scratch: &'a BufferRange,
        status: u64,
    ) -> Self {
        let (count, count_addr) = match u.count {
            ElementCount::Direct(n) => (n as u32, 0),
            ElementCount::Indirect(r) => (0, ctx.address_of(&r)),
        };
        UpdatePasses {
            ctx,
            cmd,
            u,
            scratch,
            scratch_addr: ctx.address_of(scratch),
            status,
            grid: chunk_grid(u.bound),
            count,
            count_addr,
        }
    }

    fn push_with(&self, mode: u32, aux: u32, grid: u32) -> SetPush {
        let u = self.u;
        SetPush {
            meta_d: u.d,
            meta_a: u.a,
            meta_b: u.b,
            scratch: self.scratch_addr,
            values: u.values,
            out_addr: self.status,
            count_addr: self.count_addr,
            range_lo: u.range.0,
            range_hi: u.range.1,
            count: self.count,
            max_count: u.max_count,
            op: u.op,
            mode,
            grid,
            aux,
        }
    }

    fn push(&self, mode: u32, aux: u32) -> SetPush {
        self.push_with(mode, aux, self.grid)
    }

    /// A kernel of this update: `spec` with the update's directory forms.
    fn kernel(&self, shader: &ShaderSource, spec: Specialization) -> Result<crate::core::pipelines::Kernel> {
        self.ctx.kernel(shader, with_forms(spec, self.u.forms))
    }

    /// Earlier passes on the scratch (another operation of a batch) before its clear
    /// ([`earlier_passes_barrier`]).
    unsafe fn barrier_before_clear(&self) {
        earlier_passes_barrier(self.ctx, self.cmd);
    }

    /// The classification pass (one invocation per chunk).
    unsafe fn classify(&self, mode: u32, aux: u32) -> Result<()> {
        let classify = self.kernel(&shaders::SET_CLASSIFY, set_spec(self.ctx))?;
        let groups = (CHUNKS / wg(self.ctx) as u64) as u32;
        let aux = if self.u.one_kernel {
            aux | CLASSIFY_ONE_KERNEL
        } else {
            aux
        };
        self.ctx
            .dispatch(self.cmd, classify, &self.push(mode, aux), groups);
        Ok(())
    }

    /// The passes over the chunk pairs, counting (stage 0), writing (1) or adding a
    /// cardinality into the status (2). The work lists are disjoint: they run side by side.
    unsafe fn pair_passes(&self, stage: u32) -> Result<()> {
        let (ctx, cmd, u) = (self.ctx, self.cmd, self.u);
        let source_mode = match u.mode {
            MODE_VALUES => 1,
            MODE_RANGE => 2,
            MODE_OPTIMIZE => 3,
            _ => 0,
        };
        // Grid-stride kernels get no more workgroups than can run at once (about a
        // multiprocessor's worth each on today's GPUs): chunk_update's 18.5 KiB of shared memory
        // fits two per multiprocessor, bitmap_pairs' and the medium pairs' several; workgroups
        // beyond those only queue up, and those that find nothing to do still cost a launch.
        let with_grid = |kernel, mode, cap: u32| {
            let grid = self.grid.min(cap);
            ctx.dispatch(cmd, kernel, &self.push_with(mode, stage, grid), grid)
        };
        with_grid(
            self.kernel(&shaders::SET_CHUNK_UPDATE, update_spec(ctx))?,
            source_mode,
            UPDATE_GRID,
        );
        if u.one_kernel {
            // Classify listed every pair for chunk_update.comp: the other kernels would only
            // cost their launches.
            return Ok(());
        }
        if source_mode == 0 {
            // CPU drivers get at most 1024 (idle workgroups cost them a lot).
            // Workgroups beyond the pairs that can be listed only cost their launch: 16384
            // idle ones took 13 us on an H100 (sparse sets, which have no bitmaps), so the
            // grid follows the operands' smaller bitmap pool. It is a grid-stride loop, so a
            // pool grown between recording and execution only makes workgroups take more pairs.
            let pairs = u.bound.min(u.bitmap_pair_bound);
            let bitmaps_grid = if ctx.is_cpu_device() {
                self.grid.min(pairs.max(1)).min(1024)
            } else if stage == 0 {
                pairs.clamp(1, BITMAPS_COUNT_GRID)
            } else {
                pairs.clamp(1, BITMAPS_GRID)
            };
            let bitmaps = self.kernel(&shaders::SET_BITMAP_PAIRS, set_spec(ctx))?;
            ctx.dispatch(
                cmd,
                bitmaps,
                &self.push_with(0, stage, bitmaps_grid),
                bitmaps_grid,
            );
        }
        // Pairs of arrays and chunk copies come only from chunks that hold blocks: operands
        // with few (clustered sets, mostly runs in their entries) launch as few workgroups,
        // not thousands that find nothing. On an H200, clustered 2^24-value sets: AND 1.21x
        // faster (reserved 1.09x), OR / ANDNOT / XOR 1.09-1.10x
        // (docs/benchmarks/2026-11-27-h200-cardinality-entry-runs.md).
        let listed = u.block_chunk_bound.max(1);
        with_grid(
            self.kernel(small_pairs_shader(ctx), small_pairs_spec())?,
            source_mode,
            listed,
        );
        with_grid(
            self.kernel(&shaders::SET_ARRAY_PAIRS_MEDIUM, medium_pairs_spec(ctx))?,
            source_mode,
            MEDIUM_GRID.min(listed),
        );
        Ok(())
    }
}

impl GpuSet {
    pub(super) fn operand_meta(&self, x: SetOperand, what: &str) -> Result<u64> {
        match x {
            SetOperand::This => Ok(self.meta()),
            SetOperand::Set(s) => {
                self.check_same_context(s, what)?;
                Ok(s.meta())
            }
        }
    }

    /// The set an operand names.
    fn operand_set<'s>(&'s self, x: SetOperand<'s>) -> &'s GpuSet {
        match x {
            SetOperand::This => self,
            SetOperand::Set(s) => s,
        }
    }

    /// The update of `self = a op b` on `path`.
    pub(super) fn op_update(&self, a: SetOperand, b: SetOperand, op: SetOp, path: OpPath) -> Result<Update> {
        let (sa, sb) = (self.operand_set(a), self.operand_set(b));
        let (ba, bb) = (sa.chunk_bound(), sb.chunk_bound());
        let result = match op {
            SetOp::And => ba.min(bb),
            SetOp::AndNot => ba,
            _ => ba.saturating_add(bb).min(CHUNKS as u32),
        };
        Ok(Update {
            bound: ba
                .saturating_add(bb)
                .saturating_add(self.chunk_bound())
                .min(CHUNKS as u32),
            bitmap_pair_bound: sa.bm_blocks.min(sb.bm_blocks),
            block_chunk_bound: sa.pool_block_total().saturating_add(sb.pool_block_total()),
            result_bound: result,
            one_kernel: path.one_kernel(op, Self::one_pass_suits(sa, sb)),
            forms: dir_forms(None, Some(sa), Some(sb)),
            d: self.meta(),
            a: self.operand_meta(a, "set op")?,
            b: self.operand_meta(b, "set op")?,
            op: op as u32,
            mode: MODE_OP,
            range: (0, 0),
            values: 0,
            count: ElementCount::Direct(0),
            max_count: 0,
        })
    }

    pub(super) fn card_update(a: &GpuSet, b: &GpuSet, op: SetOp) -> Result<Update> {
        a.check_same_context(b, "set op cardinality")?;
        Ok(Update {
            bound: a.chunk_bound().saturating_add(b.chunk_bound()).min(CHUNKS as u32),
            bitmap_pair_bound: a.bm_blocks.min(b.bm_blocks),
            block_chunk_bound: a.pool_block_total().saturating_add(b.pool_block_total()),
            result_bound: 0,
            one_kernel: false,
            forms: dir_forms(None, Some(a), Some(b)),
            d: 0,
            a: a.meta(),
            b: b.meta(),
            op: op as u32,
            mode: MODE_CARD,
            range: (0, 0),
            values: 0,
            count: ElementCount::Direct(0),
            max_count: 0,
        })
    }

    pub(super) fn range_update(&self, begin: u64, end: u64) -> Update {
        let chunks = if begin < end {
            ((end - 1) >> 16) - (begin >> 16) + 1
        } else {
            0
        } as u32;
        Update {
            bound: chunks,
            bitmap_pair_bound: 0,
            block_chunk_bound: u32::MAX,
            result_bound: self.chunk_bound().saturating_add(chunks).min(CHUNKS as u32),
            one_kernel: false,
            forms: 0,
            d: self.meta(),
            a: self.meta(),
            b: 0,
            op: SetOp::Or as u32,
            mode: MODE_RANGE,
            range: (begin, end),
            values: 0,
            count: ElementCount::Direct(0),
            max_count: 0,
        }
    }

    /// run_optimize: every chunk that is neither empty nor full written again by
    /// chunk_update.comp, in the form result_form picks.
    pub(super) fn optimize_update(&self) -> Update {
        let chunks = self.chunk_bound();
        Update {
            bound: chunks,
            bitmap_pair_bound: 0,
            block_chunk_bound: u32::MAX,
            result_bound: chunks,
            one_kernel: false,
            forms: 0,
            d: self.meta(),
            a: self.meta(),
            b: self.meta(),
            op: SetOp::Or as u32,
            mode: MODE_OPTIMIZE,
            range: (0, 0),
            values: 0,
            count: ElementCount::Direct(0),
            max_count: 0,
        }
    }

    pub(super) fn values_update(
        &self,
        sorted: u64,
        count: ElementCount,
        max_count: u32,
        remove: bool,
    ) -> Update {
        let touched = max_count.min(CHUNKS as u32);
        Update {
            bound: touched,
            bitmap_pair_bound: 0,
            block_chunk_bound: u32::MAX,
            result_bound: if remove {
                self.chunk_bound()
            } else {
                self.chunk_bound().saturating_add(touched).min(CHUNKS as u32)
            },
            one_kernel: false,
            forms: 0,
            d: self.meta(),
            a: self.meta(),
            b: 0,
            op: if remove { SetOp::AndNot } else { SetOp::Or } as u32,
            mode: MODE_VALUES,
            range: (0, 0),
            values: sorted,
            count,
            max_count,
        }
    }

    /// Records `self = a op b` (operands may be the set itself) into `cmd`: see the module's
    /// synchronization contract. `scratch`: [`SET_SCRATCH_BYTES`] bytes (16-byte aligned
    /// offset); `status`: [`SET_STATUS_BYTES`] bytes receiving a [`SetOpStatus`]. When the
    /// destination's pools lack free blocks ([`GpuSet::reserve`]) nothing is written and the
    /// status says what was needed. With free blocks for the bound of
    /// [`GpuSet::reserve_for_op`] the operation takes its one-pass path (no counting pass).
    /// Either operand may be packed ([`GpuSet::pack`]); a packed destination is refused
    /// ([`Error::InvalidArgument`], nothing recorded), as for every recorded write.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of the set's device in the recording state; the ranges
    /// must stay valid until it has executed; other work must not use the sets meanwhile
    /// without barriers.
    pub unsafe fn record_op(
        &self,
        cmd: vk::CommandBuffer,
        a: SetOperand,
        b: SetOperand,
        op: SetOp,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<()> {
        self.record_op_on(cmd, a, b, op, OpPath::Auto, false, scratch, status)
    }

    /// [`GpuSet::record_op`], or with `reserved` [`GpuSet::record_op_reserved`], on a chosen
    /// path (tests and benchmarks): the arguments' checks, then the passes.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn record_op_on(
        &self,
        cmd: vk::CommandBuffer,
        a: SetOperand,
        b: SetOperand,
        op: SetOp,
        path: OpPath,
        reserved: bool,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<()> {
        let phase = if reserved { Phase::Reserved } else { Phase::All };
        self.check_writable("set op")?;
        scratch.check("set scratch", SET_SCRATCH_BYTES, 16)?;
        status.check("set status", SET_STATUS_BYTES, 4)?;
        if scratch.overlaps(status) {
            return Err(Error::invalid("set op: scratch and status overlap"));
        }
        let u = self.op_update(a, b, op, path)?;
        self.note_update(&u);
        record_update_phase(
            &self.ctx,
            cmd,
            &u,
            scratch,
            self.ctx.address_of(status),
            true,
            phase,
        )
    }

    /// Records `self = a op b` on the one-pass path only, in three passes (clear, classify,
    /// write) instead of five: the destination must hold the free blocks of
    /// [`GpuSet::reserve_for_op`] for these operands. When it does not (the operands changed
    /// since the reservation, or an earlier operation of the batch failed), nothing is written
    /// and the status says so with the bound as the need; reserve that many and record again.
    /// Arguments as [`GpuSet::record_op`].
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_op_reserved(
        &self,
        cmd: vk::CommandBuffer,
        a: SetOperand,
        b: SetOperand,
        op: SetOp,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<()> {
        self.record_op_on(cmd, a, b, op, OpPath::Auto, true, scratch, status)
    }

    /// Records the cardinality of `a op b` without materializing it: a [`SetOpStatus`] to
    /// `status` ([`SetOpStatus::cardinality`]). Operands with few array and bitmap blocks
    /// (clustered sets after [`GpuSet::run_optimize`]) are counted in one pass, which keeps a
    /// count of its workgroups in `a`'s control block: like every operation on a set, it must
    /// not overlap another that uses the same set (record [`GpuSet::record_barrier`] between
    /// them).
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_op_cardinality(
        cmd: vk::CommandBuffer,
        a: &GpuSet,
        b: &GpuSet,
        op: SetOp,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<()> {
        unsafe { Self::record_op_cardinality_on(cmd, a, b, op, CardinalityPath::Auto, scratch, status) }
    }

    /// [`GpuSet::record_op_cardinality`] on a chosen path (tests and benchmarks).
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn record_op_cardinality_on(
        cmd: vk::CommandBuffer,
        a: &GpuSet,
        b: &GpuSet,
        op: SetOp,
        path: CardinalityPath,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<()> {
        scratch.check("set scratch", SET_SCRATCH_BYTES, 16)?;
        status.check("set status", SET_STATUS_BYTES, 4)?;
        unsafe { Self::record_cardinality(cmd, a, b, op, path, scratch, a.ctx.address_of(status)) }
    }

    /// Whether [`CardinalityPath::Auto`] counts `a op b` in one pass: few bitmap and array
    /// blocks in the operands' pools, most of their chunks empty, full or single runs (tests).
    #[doc(hidden)]
    pub fn one_pass_suits(a: &GpuSet, b: &GpuSet) -> bool {
        let array_blocks = a.ar_blocks.saturating_add(b.ar_blocks);
        a.bm_blocks.saturating_add(b.bm_blocks) <= ONE_PASS_CARD_BITMAP_BLOCKS
            && array_blocks <= ONE_PASS_CARD_ARRAY_BLOCKS
            && array_blocks.saturating_mul(ONE_PASS_CARD_CHUNKS_PER_ARRAY_BLOCK)
                <= a.chunk_bound().saturating_add(b.chunk_bound())
    }

    /// Records the cardinality of `a op b` on `path`, its status to the address `status`.
    pub(super) unsafe fn record_cardinality(
        cmd: vk::CommandBuffer,
        a: &GpuSet,
        b: &GpuSet,
        op: SetOp,
        path: CardinalityPath,
        scratch: &BufferRange,
        status: u64,
    ) -> Result<()> {
        let u = Self::card_update(a, b, op)?;
        let one_pass = path.counts_in_one_pass(a, b);
        let tail = match path {
            CardinalityPath::OnePassSlots => OnePassTail::Slots,
            _ => OnePassTail::recorded(&a.ctx),
        };
        unsafe {
            if one_pass {
                record_one_pass_cardinality(&a.ctx, cmd, &u, scratch, status, tail, 1)
            } else {
                record_update(&a.ctx, cmd, &u, scratch, status, true)
            }
        }
    }

    /// Records the cardinalities of `a_i op b_i` for many pairs (one query set against many,
    /// say) as one operation whose pairs run side by side, the status of pair `i` at byte
    /// `32 i` of `statuses` ([`SetOpStatus`], [`SET_STATUS_BYTES`] each; the batch zeroes them
    /// first). Pairs that [`GpuSet::record_op_cardinality`] would count in one pass are all
    /// counted at once, adding into their zeroed statuses (no control block is written, so
    /// the pairs may share sets); the others are counted by the passes, as many at once as
    /// `scratch` holds [`SET_SCRATCH_BYTES`] (at least one, at most 8 used), recorded stage by
    /// stage so that they wait on the same barriers. The whole batch is one operation on each
    /// of its sets: record [`GpuSet::record_barrier`] between it and another that uses them.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_op_cardinality_batch(
        cmd: vk::CommandBuffer,
        pairs: &[(&GpuSet, &GpuSet)],
        op: SetOp,
        scratch: &BufferRange,
        statuses: &BufferRange,
    ) -> Result<()> {
        unsafe {
            Self::record_op_cardinality_batch_on(cmd, pairs, op, CardinalityPath::Auto, scratch, statuses)
        }
    }

    /// [`GpuSet::record_op_cardinality_batch`] with every pair on a chosen path (tests and
    /// benchmarks).
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    #[doc(hidden)]
    pub unsafe fn record_op_cardinality_batch_on(
        cmd: vk::CommandBuffer,
        pairs: &[(&GpuSet, &GpuSet)],
        op: SetOp,
        path: CardinalityPath,
        scratch: &BufferRange,
        statuses: &BufferRange,
    ) -> Result<()> {
        let Some(&(first, _)) = pairs.first() else {
            return Ok(());
        };
        let ctx = &first.ctx;
        let mut updates = Vec::with_capacity(pairs.len());
        for (a, b) in pairs {
            first.check_same_context(a, "set op cardinality batch")?;
            updates.push(Self::card_update(a, b, op)?);
        }
        scratch.check("set scratch", SET_SCRATCH_BYTES, 16)?;
        let status_bytes = SET_STATUS_BYTES * pairs.len() as u64;
        statuses.check("set statuses", status_bytes, 4)?;
        let one_pass: Vec<bool> = pairs.iter().map(|(a, b)| path.counts_in_one_pass(a, b)).collect();
        let by_passes: Vec<usize> = (0..pairs.len()).filter(|&i| !one_pass[i]).collect();
        let slices = ((scratch.size / SET_SCRATCH_BYTES) as usize)
            .min(CARD_BATCH_SCRATCHES)
            .min(by_passes.len())
            .max(1);
        let scratches: Vec<BufferRange> = (0..slices as u64)
            .map(|k| scratch.part(k * SET_SCRATCH_BYTES, SET_SCRATCH_BYTES))
            .collect();
        let status_of = |i: usize| ctx.address_of(statuses) + i as u64 * SET_STATUS_BYTES;
        unsafe {
            if one_pass.contains(&true) {
                // Earlier passes on the statuses or the sets (the caller's barrier), then the
                // statuses zeroed: the one-pass pairs add their sums into them, touching no
                // control block, so they all run at once, even where they share a set.
                earlier_passes_barrier(ctx, cmd);
                ctx.record_compute_fill(cmd, statuses, (status_bytes / 4) as u32, 0)?;
                ctx.compute_to_compute(cmd);
                let side_by_side = one_pass.iter().filter(|&&p| p).count() as u32;
                for i in (0..pairs.len()).filter(|&i| one_pass[i]) {
                    record_one_pass_cardinality(
                        ctx,
                        cmd,
                        &updates[i],
                        &scratches[0],
                        status_of(i),
                        OnePassTail::ZeroedStatus,
                        side_by_side,
                    )?;
                }
            }
            for group in by_passes.chunks(slices) {
                let passes: Vec<UpdatePasses> = group
                    .iter()
                    .zip(&scratches)
                    .map(|(&i, scratch)| UpdatePasses::new(ctx, cmd, &updates[i], scratch, status_of(i)))
                    .collect();
                record_cardinality_passes(ctx, cmd, &passes, true)?;
            }
            ctx.compute_to_compute(cmd);
        }
        Ok(())
    }

    /// Records an insert (`remove = false`) or removal of `count` values that are already
    /// SORTED ascending in `sorted` (duplicates allowed; sort them with
    /// [`SortPlan::record`](crate::SortPlan::record) first). At most 2^24 values
    /// (`max_count` bounds an indirect count). Status and scratch as [`GpuSet::record_op`].
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn record_insert_sorted(
        &self,
        cmd: vk::CommandBuffer,
        sorted: &BufferRange,
        count: ElementCount,
        max_count: u64,
        remove: bool,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<()> {
        let max = match count {
            ElementCount::Direct(n) => n,
            ElementCount::Indirect(r) => {
                r.check("set count", 4, 4)?;
                max_count
            }
        };
        if max > MAX_BATCH {
            return Err(Error::invalid(format!("set insert: count {max} above 2^24")));
        }
        self.check_writable("set insert")?;
        sorted.check("set values", max * 4, 4)?;
        scratch.check("set scratch", SET_SCRATCH_BYTES, 16)?;
        status.check("set status", SET_STATUS_BYTES, 4)?;
        if max == 0 {
            return Ok(());
        }
        let u = self.values_update(self.ctx.address_of(sorted), count, max as u32, remove);
        self.note_update(&u);
        record_update(&self.ctx, cmd, &u, scratch, self.ctx.address_of(status), true)
    }

    /// Records an insert of every value of `[begin, end)` (`begin <= end <= 2^32`; an empty
    /// range records nothing). Status and scratch as [`GpuSet::record_op`]: when the pools lack
    /// free blocks nothing is written and the status says what was needed.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_insert_range(
        &self,
        cmd: vk::CommandBuffer,
        begin: u64,
        end: u64,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<()> {
        check_range(begin, end, "set insert_range")?;
        self.check_writable("set insert_range")?;
        scratch.check("set scratch", SET_SCRATCH_BYTES, 16)?;
        status.check("set status", SET_STATUS_BYTES, 4)?;
        if scratch.overlaps(status) {
            return Err(Error::invalid("set insert_range: scratch and status overlap"));
        }
        if begin == end {
            return Ok(());
        }
        let u = self.range_update(begin, end);
        self.note_update(&u);
        record_update(&self.ctx, cmd, &u, scratch, self.ctx.address_of(status), true)
    }

    /// Records [`GpuSet::run_optimize`]: every chunk that is neither empty nor full is
    /// written again in the form the GPU picks for its values (runs where CRoaring's
    /// run_optimize would pick them and there are at most 48, else an array or a bitmap).
    /// Status and scratch as [`GpuSet::record_op`] (a run chunk never takes more blocks than
    /// the array or bitmap it replaces, but a chunk that an operation left as runs may be
    /// written back as an array or a bitmap).
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_run_optimize(
        &self,
        cmd: vk::CommandBuffer,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<()> {
        scratch.check("set scratch", SET_SCRATCH_BYTES, 16)?;
        status.check("set status", SET_STATUS_BYTES, 4)?;
        if scratch.overlaps(status) {
            return Err(Error::invalid("set run_optimize: scratch and status overlap"));
        }
        self.check_writable("set run_optimize")?;
        let u = self.optimize_update();
        self.note_update(&u);
        record_update(&self.ctx, cmd, &u, scratch, self.ctx.address_of(status), true)
    }

    /// The sort plan and its memory needs for [`GpuSet::record_insert`] of up to `max_count`
    /// values: `values_alt` needs `keys_alt_size` bytes, `sort_scratch` `scratch_size`.
    pub fn insert_plan(ctx: &Context, max_count: u64) -> Result<crate::SortPlan> {
        if max_count > MAX_BATCH {
            return Err(Error::invalid(format!(
                "set insert: max_count {max_count} above 2^24"
            )));
        }
        ctx.sort_plan(&crate::SortDesc::new(
            crate::KeyType::U32,
            crate::ValueType::None,
            max_count.max(1),
        ))
    }

    /// Records an insert (`remove = false`) or removal of `count` values in any order,
    /// duplicates allowed (at most 2^24; `max_count` bounds an indirect count and must be
    /// the plan's): the values are sorted with `plan` ([`GpuSet::insert_plan`]) IN PLACE, so
    /// `values` (and `values_alt`, `sort_scratch`) hold scratch contents afterwards; then as
    /// [`GpuSet::record_insert_sorted`].
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn record_insert(
        &self,
        cmd: vk::CommandBuffer,
        plan: &crate::SortPlan,
        values: &BufferRange,
        values_alt: &BufferRange,
        sort_scratch: &BufferRange,
        count: ElementCount,
        remove: bool,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<()> {
        self.check_writable("set insert")?;
        let max_count = plan.desc().max_count;
        if max_count > MAX_BATCH || plan.desc().key_type != crate::KeyType::U32 {
            return Err(Error::invalid(
                "set insert: the plan must sort u32 keys, at most 2^24",
            ));
        }
        let bytes = match count {
            ElementCount::Direct(n) if n > max_count => {
                return Err(Error::invalid(format!(
                    "set insert: count {n} above the plan's {max_count}"
                )));
            }
            ElementCount::Direct(n) => n * 4,
            ElementCount::Indirect(_) => max_count * 4,
        };
        values.check("set insert values", bytes, 4)?;
        values_alt.check("set insert values_alt", bytes, 4)?;
        let sorted = plan.record(
            &self.ctx,
            cmd,
            &crate::SortArgs {
                keys: values.part(0, bytes),
                values: None,
                keys_alt: values_alt.part(0, bytes),
                values_alt: None,
                scratch: *sort_scratch,
                count,
            },
        )?;
        self.ctx.compute_to_compute(cmd);
        let src = match sorted {
            crate::SortResult::InPlace => values,
            crate::SortResult::Alternate => values_alt,
        };
        self.record_insert_sorted(cmd, src, count, max_count, remove, scratch, status)
    }

    /// Records `contains`: for each of `count` values (u32) a u32 flag (1 in the set, 0 not)
    /// into `flags`. At most 2^32 - 1 values.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_contains(
        &self,
        cmd: vk::CommandBuffer,
        values: &BufferRange,
        count: ElementCount,
        max_count: u64,
        flags: &BufferRange,
    ) -> Result<()> {
        let (n, addr) = match count {
            ElementCount::Direct(n) => (n, 0),
            ElementCount::Indirect(r) => {
                r.check("set count", 4, 4)?;
                (max_count, self.ctx.address_of(&r))
            }
        };
        if n > u32::MAX as u64 {
            return Err(Error::invalid("set contains: count above 2^32 - 1"));
        }
        values.check("set values", n * 4, 4)?;
        flags.check("set flags", n * 4, 4)?;
        let push = SetPush {
            meta_d: self.meta(),
            values: self.ctx.address_of(values),
            out_addr: self.ctx.address_of(flags),
            count_addr: addr,
            count: n as u32,
            max_count: n as u32,
            ..Default::default()
        };
        let k = self.reader_kernel(&shaders::SET_CONTAINS, set_spec(&self.ctx))?;
        self.ctx
            .dispatch(cmd, k, &push, n.div_ceil(wg(&self.ctx) as u64) as u32);
        Ok(())
    }

    /// Records a filter: the values of `values` that are in the set, in input order, into
    /// `out` (room for `count` values), their number (a u32) into `out_count`. At most 65536
    /// workgroups of values: 2^24 on GPUs, 2^22 on CPU drivers. Where the device runs
    /// look-back passes, one pass that looks each value up once; elsewhere count, scan and
    /// write passes that look it up twice.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn record_filter(
        &self,
        cmd: vk::CommandBuffer,
        values: &BufferRange,
        count: ElementCount,
        max_count: u64,
        out: &BufferRange,
        out_count: &BufferRange,
        scratch: &BufferRange,
    ) -> Result<()> {
        unsafe {
            self.record_filter_on(
                cmd,
                FilterPath::Auto,
                values,
                count,
                max_count,
                out,
                out_count,
                scratch,
            )
        }
    }

    /// [`GpuSet::record_filter`] on a chosen path (tests and benchmarks).
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn record_filter_on(
        &self,
        cmd: vk::CommandBuffer,
        path: FilterPath,
        values: &BufferRange,
        count: ElementCount,
        max_count: u64,
        out: &BufferRange,
        out_count: &BufferRange,
        scratch: &BufferRange,
    ) -> Result<()> {
        let ctx = &self.ctx;
        let (n, addr) = match count {
            ElementCount::Direct(n) => (n, 0),
            ElementCount::Indirect(r) => {
                r.check("set count", 4, 4)?;
                (max_count, ctx.address_of(&r))
            }
        };
        let max = 65536 * wg(ctx) as u64;
        if n > max {
            return Err(Error::invalid(format!(
                "set filter: count {n} above {max} (65536 workgroups)"
            )));
        }
        values.check("set values", n * 4, 4)?;
        out.check("set filter output", n * 4, 4)?;
        out_count.check("set filter count", 4, 4)?;
        scratch.check("set scratch", SET_SCRATCH_BYTES, 16)?;
        let tiles = n.div_ceil(wg(ctx) as u64) as u32;
        let mut push = SetPush {
            meta_d: self.meta(),
            scratch: ctx.address_of(scratch),
            values: ctx.address_of(values),
            out_addr: ctx.address_of(out),
            count_addr: addr,
            count: n as u32,
            max_count: n as u32,
            ..Default::default()
        };
        if tiles == 0 {
            ctx.device
                .cmd_fill_buffer(cmd, out_count.buffer, out_count.offset, 4, 0);
            return Ok(());
        }
        let spins = match path {
            FilterPath::Auto if ctx.profile.lookback => Some(filter_spins(ctx)),
            FilterPath::Auto | FilterPath::CountScanWrite => None,
            FilterPath::Lookback { spins } => Some(spins),
        };
        if let Some(spin_limit) = spins {
            // The status words (and the 16 bytes before them) zeroed, then the one pass, in
            // tiles of FILTER_ITEMS values an invocation.
            let tiles = n.div_ceil(wg(ctx) as u64 * FILTER_ITEMS) as u32;
            let status_bytes = 16 + tiles as u64 * 8;
            let status = scratch.part(FILTER_STATUS_WORD * 4, status_bytes);
            ctx.record_compute_fill(cmd, &status, (status_bytes / 4) as u32, 0)?;
            ctx.compute_to_compute(cmd);
            push.mode = 2;
            push.range_lo = ctx.address_of(out_count);
            let filter = self.reader_kernel(&shaders::SET_FILTER, filter_lookback_spec(ctx, spin_limit))?;
            ctx.dispatch(cmd, filter, &push, tiles);
            return Ok(());
        }
        let filter = self.reader_kernel(&shaders::SET_FILTER, set_spec(ctx))?;
        let info = kernel(ctx, &shaders::SET_INFO)?;
        push.mode = 0;
        ctx.dispatch(cmd, filter, &push, tiles);
        ctx.compute_to_compute(cmd);
        let info_push = SetPush {
            scratch: push.scratch,
            out_addr: ctx.address_of(out_count),
            count: tiles,
            mode: 2,
            ..Default::default()
        };
        ctx.dispatch(cmd, info, &info_push, 1);
        ctx.compute_to_compute(cmd);
        push.mode = 1;
        ctx.dispatch(cmd, filter, &push, tiles);
        Ok(())
    }

    /// Records to-array: the set's values ascending into `out` (at most `capacity` of them:
    /// values past it are not written) and the cardinality (u64 as two u32, low first) into
    /// `count_out`.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_to_array(
        &self,
        cmd: vk::CommandBuffer,
        out: &BufferRange,
        capacity: u64,
        count_out: &BufferRange,
        scratch: &BufferRange,
    ) -> Result<()> {
        let ctx = &self.ctx;
        let capacity = capacity.min(u32::MAX as u64);
        out.check("set to_array output", capacity * 4, 4)?;
        count_out.check("set to_array count", 8, 4)?;
        scratch.check("set scratch", SET_SCRATCH_BYTES, 16)?;
        let push = SetPush {
            meta_d: self.meta(),
            scratch: ctx.address_of(scratch),
            out_addr: ctx.address_of(count_out),
            mode: 0,
            ..Default::default()
        };
        // The chunk offsets and the list of non-empty chunks: each block's sums, then each
        // block's offsets from the sums before it (glsl/set/info.comp modes 0 and 3).
        let info = self.reader_kernel(&shaders::SET_INFO, set_spec(ctx))?;
        ctx.dispatch(cmd, info, &push, OFFSET_BLOCKS);
        ctx.compute_to_compute(cmd);
        ctx.dispatch(cmd, info, &SetPush { mode: 3, ..push }, OFFSET_BLOCKS);
        ctx.compute_to_compute(cmd);
        let push = SetPush {
            out_addr: ctx.address_of(out),
            max_count: capacity as u32,
            grid: chunk_grid(self.chunk_bound()),
            ..push
        };
        ctx.dispatch(
            cmd,
            self.reader_kernel(&shaders::SET_TO_ARRAY, set_spec(ctx))?,
            &push,
            push.grid,
        );
        Ok(())
    }

    /// Records the cardinality of `[begin, end)` (u64 as two u32, low first) into `out`: it
    /// zeroes `out`, then workgroups of 256 of the range's chunks each add their count.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_range_cardinality(
        &self,
        cmd: vk::CommandBuffer,
        begin: u64,
        end: u64,
        out: &BufferRange,
    ) -> Result<()> {
        check_range(begin, end, "set range cardinality")?;
        out.check("set range cardinality output", 8, 4)?;
        let ctx = &self.ctx;
        let info = self.reader_kernel(&shaders::SET_INFO, set_spec(ctx))?;
        // Workgroups of 256 of the range's chunks each add their count to `out`, zeroed first
        // (glsl/set/info.comp mode 1).
        let groups = if begin < end {
            ((((end - 1) >> 16) - (begin >> 16)) / OFFSET_BLOCK + 1) as u32
        } else {
            1
        };
        ctx.record_compute_fill(cmd, out, 2, 0)?;
        ctx.compute_to_compute(cmd);
        let push = SetPush {
            meta_d: self.meta(),
            out_addr: ctx.address_of(out),
            range_lo: begin,
            range_hi: end,
            mode: 1,
            ..Default::default()
        };
        ctx.dispatch(cmd, info, &push, groups);
        Ok(())
    }
}

pub(crate) fn check_range(begin: u64, end: u64, what: &str) -> Result<()> {
    if begin > end || end > 1 << 32 {
        return Err(Error::invalid(format!(
            "{what}: [{begin}, {end}) is not a range within [0, 2^32]"
        )));
    }
    Ok(())
}

#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    [
        shaders::SET_CLASSIFY,
        shaders::SET_BOUNDARIES,
        shaders::SET_CHUNK_UPDATE,
        shaders::SET_CHUNK_COUNT,
        shaders::SET_CHUNK_COUNT_SUMS64,
        shaders::SET_BITMAP_PAIRS,
        shaders::SET_ARRAY_PAIRS_MEDIUM,
        shaders::SET_TRIVIAL,
        shaders::SET_CHECK,
        shaders::SET_INFO,
        shaders::SET_TO_ARRAY,
        shaders::SET_CONTAINS,
        shaders::SET_FILTER,
        shaders::SET_COMPACT,
        shaders::SET_SMALL_PAIRS,
        shaders::SET_SMALL_PAIRS_LIST16,
    ]
    .into_iter()
    .map(|s| (s, SetPush::FIELDS, std::mem::size_of::<SetPush>()))
    .collect()
}
