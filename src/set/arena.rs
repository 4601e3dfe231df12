//! The storage of many sets made by one call: small sets share allocations, so that a call
//! that makes hundreds of sets creates a few buffers instead of five a set.

use super::gpu::GpuSet;
use super::layout::part_sizes;
use crate::core::buffer::{GpuBuffer, MemoryLocation, ObjectStorage, STORAGE_ALIGNMENT};
use crate::error::Result;
use crate::Context;
use std::sync::Arc;

/// Bytes of one shared allocation at most: below the size at which a buffer gets memory of its
/// own (src/core/buffer.rs), so each is a part of the allocator's blocks.
const SHARED_BYTES: u64 = 16 << 20;

/// Sets that take more than this get buffers of their own: a set keeps its shared allocation
/// alive, so a large set should not keep many others' memory.
const SHARED_SET_MAX: u64 = SHARED_BYTES / 4;

/// What one set made by a bulk call takes: its (bitmap, array) pool blocks and the bytes of
/// its control buffer (header and directory, flat or packed).
#[derive(Clone, Copy)]
pub(super) struct SetShape {
    /// Blocks of the bitmap pool (8 KiB each).
    pub(super) bm_blocks: u32,
    /// Blocks of the array pool (192 bytes each).
    pub(super) ar_blocks: u32,
    /// Bytes of the control buffer (src/set/layout.rs `control_bytes`).
    pub(super) control_bytes: u64,
}

impl SetShape {
    /// The five parts' sizes (control, two pools, two rings), each at least 16 bytes as a
    /// buffer of its own would be.
    fn sizes(&self) -> [u64; 5] {
        let mut sizes = part_sizes(self.bm_blocks, self.ar_blocks);
        sizes[0] = self.control_bytes;
        sizes.map(|s| s.max(16))
    }
}

/// Bytes a set of part `sizes` takes in a shared allocation (each part
/// [`STORAGE_ALIGNMENT`]-aligned).
fn aligned_bytes(sizes: &[u64; 5]) -> u64 {
    sizes.iter().map(|s| s.next_multiple_of(STORAGE_ALIGNMENT)).sum()
}

impl GpuSet {
    /// The five parts (control, bitmap pool, array pool, bitmap ring, array ring) of sets of
    /// `shapes`, in order: sets of up to [`SHARED_SET_MAX`] bytes share allocations of up to
    /// [`SHARED_BYTES`] (freed with the last set of each), larger ones get their own buffers.
    /// In a shared allocation the sets' parts lie kind by kind, so that their control buffers
    /// are contiguous (one fill zeroes their directories).
    pub(super) fn buffers_many(ctx: &Context, shapes: &[SetShape]) -> Result<Vec<[ObjectStorage; 5]>> {
        let sizes: Vec<[u64; 5]> = shapes.iter().map(SetShape::sizes).collect();
        let mut parts: Vec<Option<[ObjectStorage; 5]>> = (0..shapes.len()).map(|_| None).collect();
        let place = |group: &[usize], bytes: u64, parts: &mut [Option<[ObjectStorage; 5]>]| -> Result<()> {
            if group.is_empty() {
                return Ok(());
            }
            let buffer = Arc::new(GpuBuffer::recycled(
                ctx,
                bytes,
                MemoryLocation::GpuOnly,
                "vkalgo sets",
            )?);
            let mut offsets = vec![[0u64; 5]; group.len()];
            let mut at = 0u64;
            for p in 0..5 {
                for (g, &i) in group.iter().enumerate() {
                    offsets[g][p] = at;
                    at += sizes[i][p].next_multiple_of(STORAGE_ALIGNMENT);
                }
            }
            for (g, &i) in group.iter().enumerate() {
                parts[i] = Some(std::array::from_fn(|p| {
                    ObjectStorage::shared(&buffer, offsets[g][p], sizes[i][p])
                }));
            }
            Ok(())
        };
        // Greedy groups in order: a set joins the current allocation while it fits.
        let mut group: Vec<usize> = Vec::new();
        let mut group_bytes = 0u64;
        for (i, shape) in shapes.iter().enumerate() {
            let bytes = aligned_bytes(&sizes[i]);
            if bytes > SHARED_SET_MAX {
                parts[i] = Some(Self::buffers(
                    ctx,
                    shape.bm_blocks,
                    shape.ar_blocks,
                    shape.control_bytes,
                )?);
                continue;
            }
            if group_bytes + bytes > SHARED_BYTES {
                place(&group, group_bytes, &mut parts)?;
                group.clear();
                group_bytes = 0;
            }
            group.push(i);
            group_bytes += bytes;
        }
        place(&group, group_bytes, &mut parts)?;
        Ok(parts.into_iter().map(|p| p.expect("every set placed")).collect())
    }
}
