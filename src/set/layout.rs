//! The layout a set shares with its kernels (glsl/set/set_common.glsl): the control buffer
//! (header, directory flat or packed), the block sizes, the rings, the scratch and status of an
//! operation, and the directory entry's bits. The GPU object (gpu.rs), its host images and the
//! passes (passes.rs) all read it from here.

use crate::core::buffer::{ObjectStorage, STORAGE_ALIGNMENT};
use crate::core::pipelines::Specialization;

/// Bytes of one array block.
pub const ARRAY_BLOCK_BYTES: u64 = 192;
/// Bytes of one bitmap block.
pub const BITMAP_BLOCK_BYTES: u64 = 8192;
/// Chunks of 2^16 values in the universe.
pub(crate) const CHUNKS: u64 = 65536;
/// Byte offset of the directory in the control buffer.
pub(super) const META_DIR: u64 = 256;
/// The control buffer of a set with a flat directory (an entry for every chunk).
pub(super) const CONTROL_BYTES: u64 = META_DIR + CHUNKS * 8;
/// A packed directory's index (glsl/set/set_common.glsl DIR_INDEX_BYTES): a uvec4 per 64
/// chunks (the mask of the non-empty ones, the non-empty chunks before them, 0); the entries of
/// the non-empty chunks follow it.
pub(super) const DIR_GROUPS: usize = 1024;
pub(super) const DIR_INDEX_BYTES: u64 = DIR_GROUPS as u64 * 16;
/// [`GpuSet::pack`](super::GpuSet::pack) packs sets of at most this many non-empty chunks
/// (half the chunks: the directory then takes at most 272 of its 512 KiB). Sets with more
/// stay flat: packed they would save little and read slower
/// (docs/tuning/set.md#pack-max-chunks).
pub const PACK_MAX_CHUNKS: u32 = 32768;
/// Directory forms bits of a pipeline (glsl/set/set_common.glsl DIR_FORMS): the set at
/// meta_d, meta_a, meta_b is packed.
pub(super) const DIR_PACKED_D: u32 = 1;
pub(super) const DIR_PACKED_A: u32 = 2;
pub(super) const DIR_PACKED_B: u32 = 4;

/// The control buffer's bytes: a flat directory, or a packed one of `entries` entries.
pub(super) fn control_bytes(packed_entries: Option<u32>) -> u64 {
    match packed_entries {
        None => CONTROL_BYTES,
        Some(n) => META_DIR + DIR_INDEX_BYTES + n as u64 * 8,
    }
}

/// The specialization constants of the set kernels (glsl/set/set_common.glsl).
#[derive(Clone, Copy)]
pub(super) struct SetSpec {
    /// Invocations per workgroup (constant_id 0).
    pub(super) workgroup_size: u32,
    /// Polls of a silent tile in the one-pass filter's look-back before the waiter looks its
    /// values up itself (SPIN_LIMIT, constant_id 2); 1 for the other kernels.
    pub(super) lookback_spins: u32,
    /// Directory forms of the pipeline's sets (DIR_FORMS, constant_id 6: the DIR_PACKED_*
    /// bits).
    pub(super) dir_forms: u32,
}

impl SetSpec {
    /// A kernel of `workgroup_size` invocations on flat directories, without a look-back.
    pub(super) fn new(workgroup_size: u32) -> Self {
        SetSpec {
            workgroup_size,
            lookback_spins: 1,
            dir_forms: 0,
        }
    }
}

impl From<SetSpec> for Specialization {
    fn from(spec: SetSpec) -> Self {
        Specialization {
            workgroup_size: spec.workgroup_size,
            id1: 1,
            id2: spec.lookback_spins,
            id5: 1,
            id6: spec.dir_forms,
            id8: 0,
        }
    }
}

/// `spec` for a set pipeline whose sets have the directory forms `forms`.
pub(super) fn with_forms(spec: SetSpec, forms: u32) -> SetSpec {
    SetSpec {
        dir_forms: forms,
        ..spec
    }
}

/// Scratch words: SCRATCH_HEADER counters (glsl/set/set_common.glsl S_*; the last one the
/// batch's failure flag), then five lists of CHUNKS words.
pub(super) const SCRATCH_HEADER: u64 = 32;
const SCRATCH_WORDS: u64 = SCRATCH_HEADER + 5 * CHUNKS;
/// Bytes of the scratch range a recorded operation needs (its counters and chunk lists).
pub const SET_SCRATCH_BYTES: u64 = SCRATCH_WORDS * 4;
/// Bytes of the status a recorded modifying operation writes ([`SetOpStatus`](super::SetOpStatus): 8 u32).
pub const SET_STATUS_BYTES: u64 = 32;
/// Word of the scratch where a one-pass filter's look-back state starts (glsl/set/filter.comp:
/// S_START; 16 bytes, then a u64 status word per tile, within the scratch's last three lists).
pub(super) const FILTER_STATUS_WORD: u64 = SCRATCH_HEADER + 2 * CHUNKS;

/// classify.comp's aux flag of [`OpPath::OneKernel`](super::OpPath::OneKernel): every pair listed for
/// chunk_update.comp (glsl/set/classify.comp CLASSIFY_ONE_KERNEL).
pub(super) const CLASSIFY_ONE_KERNEL: u32 = 4;

/// Largest value count of one recorded insert/remove/contains/filter.
pub(crate) const MAX_BATCH: u64 = 1 << 24;

/// A directory entry's first word is the cardinality | the run count << RUN_SHIFT
/// (glsl/set/set_common.glsl).
pub(super) const RUN_SHIFT: u32 = 17;
pub(super) const CARD_MASK: u32 = (1 << RUN_SHIFT) - 1;

/// Sizes of the five parts for pools of `bm` and `ar` blocks.
pub(super) fn part_sizes(bm: u32, ar: u32) -> [u64; 5] {
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
pub(super) fn caller_layout(bm: u32, ar: u32) -> ([u64; 5], u64) {
    let mut at = 0u64;
    let offsets = part_sizes(bm, ar).map(|size| {
        let offset = at;
        at = (at + size).next_multiple_of(STORAGE_ALIGNMENT);
        offset
    });
    (offsets, at)
}

/// Entries of the ring of a pool of `blocks` blocks (a power of two: ids are indexed by
/// cursor & (capacity - 1)).
pub(super) fn ring_capacity(blocks: u32) -> u64 {
    (blocks.max(1) as u64).next_power_of_two()
}

/// The 80 bytes at the start of the control buffer: the addresses of `parts` (bitmap pool,
/// array pool, bitmap ring, array ring), the rings' masks for pools of `bm_blocks` and
/// `ar_blocks` blocks, then (at 64) the cursors. At 80 follows the count of non-empty chunks,
/// at 84 the one-pass cardinality's count of finished workgroups (glsl/set/set_common.glsl
/// META_CARD_TICKET), zero when the set is made and written by the GPU alone.
pub(super) fn meta_bytes(
    parts: [&ObjectStorage; 4],
    bm_blocks: u32,
    ar_blocks: u32,
    cursors: [u32; 4],
) -> Vec<u8> {
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
