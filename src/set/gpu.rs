//! The set object: its buffers (control block with the directory, two block pools and their
//! rings), their upload and download, creation, packing and the host's bookkeeping. Its host
//! images are in image.rs, its pools' growth and shrinking in pools.rs, their verification in
//! verify.rs, its passes in passes.rs and its record calls in record.rs.

use super::layout::{
    caller_layout, control_bytes, part_sizes, ring_capacity, with_forms, SetSpec, ARRAY_BLOCK_BYTES,
    BITMAP_BLOCK_BYTES, DIR_PACKED_A, DIR_PACKED_B, DIR_PACKED_D, PACK_MAX_CHUNKS,
};
use super::passes::{check_pool_blocks, prepare_kernels, Update};
use super::roaring::{Chunks, CHUNK_VALUES};
use crate::core::buffer::{
    BufferRange, GpuBuffer, MemoryLocation, MemoryRequirements, ObjectStorage, STORAGE_ALIGNMENT,
};
use crate::core::shaders::ShaderSource;
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

/// The forms bits of a pipeline recording with these sets as destination (or only set), first
/// and second operand.
pub(crate) fn dir_forms(d: Option<&GpuSet>, a: Option<&GpuSet>, b: Option<&GpuSet>) -> u32 {
    let bit = |s: Option<&GpuSet>, b: u32| if s.is_some_and(|s| s.is_packed()) { b } else { 0 };
    bit(d, DIR_PACKED_D) | bit(a, DIR_PACKED_A) | bit(b, DIR_PACKED_B)
}

/// An operand of [`GpuSet::assign`]: the destination itself, or another set.
#[derive(Clone, Copy)]
pub enum SetOperand<'a> {
    /// The set being assigned to (its value before the operation).
    This,
    /// Another set of the same context.
    Set(&'a GpuSet),
}

/// The status a recorded modifying operation writes (8 u32, [`SET_STATUS_BYTES`](super::SET_STATUS_BYTES)).
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
pub(super) const UNKNOWN_CARDINALITY: u64 = u64::MAX;

/// Downloaded bytes as little-endian u32 words (a download's Vec<u8> need not be 4-aligned:
/// an empty one is not, so bytemuck's casts may refuse it).
pub(super) fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

impl GpuSet {
    /// A set over its five parts (control, bitmap pool, array pool and the pools' rings) of
    /// `blocks` (bitmap, array) blocks: its directory form (`packed`: the entries of a packed
    /// one), a bound on its non-empty chunks and its cardinality ([`UNKNOWN_CARDINALITY`] where
    /// not known); no write recorded yet.
    pub(super) fn from_parts(
        ctx: &Context,
        [control, bm_pool, ar_pool, bm_ring, ar_ring]: [ObjectStorage; 5],
        (bm_blocks, ar_blocks): (u32, u32),
        packed: Option<u32>,
        chunk_bound: u32,
        cardinality: u64,
    ) -> GpuSet {
        GpuSet {
            ctx: ctx.clone(),
            control,
            bm_pool,
            ar_pool,
            bm_ring,
            ar_ring,
            bm_blocks,
            ar_blocks,
            packed,
            chunk_bound: AtomicU32::new(chunk_bound),
            known_cardinality: AtomicU64::new(cardinality),
            recorded_writes: AtomicBool::new(false),
        }
    }

    pub(super) fn buffers(
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
    pub(super) fn pool_buffers(ctx: &Context, bm_blocks: u32, ar_blocks: u32) -> Result<[ObjectStorage; 4]> {
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
        let set = GpuSet::from_parts(ctx, parts, (bitmap_blocks, array_blocks), None, 0, 0);
        Self::stage_empty(ctx, &[&set])?.run(ctx)?;
        Ok(set)
    }

    /// Whether the set lives on the caller's memory ([`GpuSet::new_in`]).
    pub fn on_caller_memory(&self) -> bool {
        self.control.is_callers()
    }

    /// An empty set (no pool blocks yet: the first operations grow the pools).
    pub fn new(ctx: &Context) -> Result<Self> {
        let mut made = Self::empty_many(ctx, &[(0, 0)])?;
        Ok(made.pop().expect("one set made"))
    }

    /// A set holding exactly `chunks`, each in its [`Container::gpu_form`] (pools sized to
    /// fit, no free blocks).
    pub(crate) fn from_chunks(ctx: &Context, chunks: &Chunks) -> Result<Self> {
        Self::from_chunks_in(ctx, chunks, false)
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
    /// run), and the pools hold no free block: clustered sets then take fewer bytes than their
    /// Roaring serialization (docs/tuning/set.md#packed-sets). A packed set is read by every
    /// call (operand of operations and cardinalities, contains, filter, to_array, range
    /// cardinality, serialize); a chunk's entry costs it one dependent load more. A blocking
    /// call that writes the set ([`GpuSet::insert`],
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
        spec: SetSpec,
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
        self.note_result_bound(u.result_bound);
    }

    /// [`GpuSet::note_update`] for a write whose result holds at most `bound` non-empty
    /// chunks.
    pub(super) fn note_result_bound(&self, bound: u32) {
        self.chunk_bound.fetch_max(bound, Ordering::Relaxed);
        self.known_cardinality
            .store(UNKNOWN_CARDINALITY, Ordering::SeqCst);
    }

    /// [`GpuSet::note_update`] for a write recorded into the caller's command buffer: the
    /// set's cardinality is no longer kept on the host.
    pub(super) fn note_recorded_update(&self, u: &Update) {
        self.note_recorded_bound(u.result_bound);
    }

    /// [`GpuSet::note_result_bound`] for a write recorded into the caller's command buffer.
    pub(super) fn note_recorded_bound(&self, bound: u32) {
        self.recorded_writes.store(true, Ordering::SeqCst);
        self.note_result_bound(bound);
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
