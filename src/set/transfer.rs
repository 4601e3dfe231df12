//! Transfers between the host and sets' buffers: images uploaded through one staging buffer
//! (ranges zeroed on the GPU beside them), ranges downloaded through one readback buffer.

use super::gpu::GpuSet;
use crate::core::buffer::{BufferRange, GpuBuffer, MemoryLocation, ObjectStorage};
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;
use std::collections::HashMap;

/// Copy regions grouped by the buffer on the other side, in first-seen order: one copy
/// command per buffer, however the parts of sets in shared buffers interleave.
fn grouped(
    regions: impl Iterator<Item = (vk::Buffer, vk::BufferCopy)>,
) -> Vec<(vk::Buffer, Vec<vk::BufferCopy>)> {
    let mut index: HashMap<vk::Buffer, usize> = HashMap::new();
    let mut groups: Vec<(vk::Buffer, Vec<vk::BufferCopy>)> = Vec::new();
    for (buffer, region) in regions {
        let i = *index.entry(buffer).or_insert_with(|| {
            groups.push((buffer, Vec::new()));
            groups.len() - 1
        });
        groups[i].1.push(region);
    }
    groups
}

/// Makes compute-shader writes visible to later compute and transfer reads and writes.
///
/// # Safety
/// `cmd` is recording on `ctx`'s device.
unsafe fn shader_writes_to_all(ctx: &Context, cmd: vk::CommandBuffer) {
    let stages = vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER;
    let access = vk::AccessFlags::SHADER_READ
        | vk::AccessFlags::SHADER_WRITE
        | vk::AccessFlags::TRANSFER_READ
        | vk::AccessFlags::TRANSFER_WRITE;
    unsafe { ctx.memory_barrier(cmd, stages, vk::AccessFlags::SHADER_WRITE, stages, access) };
}

/// Byte images staged for upload into sets' buffers, with ranges to zero: recorded into a
/// submission by [`StagedUpload::record`], or run on its own by [`GpuSet::upload_and_zero`].
pub(super) struct StagedUpload {
    /// Every image in one buffer (16-byte aligned offsets): one allocation, not one per part
    /// (a batch of sets has hundreds of parts). `None` when there are no bytes to upload.
    staging: Option<GpuBuffer>,
    /// Copies out of the staging buffer, grouped by target buffer: (target, regions).
    copies: Vec<(vk::Buffer, Vec<vk::BufferCopy>)>,
    /// Ranges to zero, contiguous ones merged: (buffer, offset, bytes).
    fills: Vec<(vk::Buffer, u64, u64)>,
    /// The scattered parts' table in the staging buffer: its offset and its ranges.
    scatter: (u64, u32),
}

/// Largest part a staged upload scatters by a compute dispatch; larger ones are copied.
const SCATTER_MAX_BYTES: u64 = 64 << 10;
/// Fewest small parts worth a scatter dispatch.
const SCATTER_MIN_PARTS: usize = 8;

impl StagedUpload {
    /// Stages `parts` (`(storage, offset, bytes)`) and `zeros` (`(storage, offset, bytes)`,
    /// each a multiple of 4). A zeroed range may hold parts: they are written after the zeros.
    pub(super) fn new(
        ctx: &Context,
        parts: &[(&ObjectStorage, u64, &[u8])],
        zeros: &[(&ObjectStorage, u64, u64)],
    ) -> Result<Self> {
        let mut at = Vec::with_capacity(parts.len());
        let mut total = 0u64;
        for (_, _, bytes) in parts {
            at.push(total);
            total += (bytes.len() as u64).next_multiple_of(16);
        }
        // Small word-aligned parts go by one scatter dispatch where there are many, not a copy
        // region each (docs/tuning/core.md#staged-scatter).
        let scattered = |(dst, offset, bytes): &(&ObjectStorage, u64, &[u8])| {
            !bytes.is_empty()
                && bytes.len() as u64 <= SCATTER_MAX_BYTES
                && bytes.len() % 4 == 0
                && (dst.offset() + offset) % 4 == 0
        };
        let small = parts.iter().filter(|p| scattered(p)).count();
        let scatter = small >= SCATTER_MIN_PARTS && total + 16 * small as u64 <= u32::MAX as u64;
        let table_at = total;
        if scatter {
            total += 16 * small as u64;
        }
        let mut table_count = 0u32;
        let staging = if total > 0 {
            let mut staging = GpuBuffer::recycled(ctx, total, MemoryLocation::CpuToGpu, "vkalgo upload")?;
            let mapped = staging
                .mapped()
                .ok_or_else(|| Error::Internal("staging buffer is not mapped".into()))?;
            for (p, &o) in parts.iter().zip(&at) {
                let (dst, offset, bytes) = p;
                mapped[o as usize..o as usize + bytes.len()].copy_from_slice(bytes);
                if scatter && scattered(p) {
                    let d = dst.address() + offset;
                    let range = [o as u32, d as u32, (d >> 32) as u32, (bytes.len() / 4) as u32];
                    let e = (table_at + 16 * table_count as u64) as usize;
                    mapped[e..e + 16].copy_from_slice(bytemuck::cast_slice(&range));
                    table_count += 1;
                }
            }
            Some(staging)
        } else {
            None
        };
        // One copy command per target buffer for the rest (sets made together share buffers).
        let copies = grouped(
            parts
                .iter()
                .zip(&at)
                .filter(|(p, _)| !(p.2.is_empty() || scatter && scattered(p)))
                .map(|((dst, offset, bytes), &o)| {
                    let region = vk::BufferCopy {
                        src_offset: o,
                        dst_offset: dst.offset() + offset,
                        size: bytes.len() as u64,
                    };
                    (dst.buffer(), region)
                }),
        );
        // One fill per run of contiguous ranges (the directories of sets made together lie
        // back to back).
        let mut fills: Vec<(vk::Buffer, u64, u64)> = Vec::new();
        for (dst, offset, bytes) in zeros {
            let (buffer, start) = (dst.buffer(), dst.offset() + offset);
            match fills.last_mut() {
                Some((b, o, n)) if *b == buffer && *o + *n == start => *n += bytes,
                _ => fills.push((buffer, start, *bytes)),
            }
        }
        Ok(StagedUpload {
            staging,
            copies,
            fills,
            scatter: (table_at, table_count),
        })
    }

    /// Records the fills, then the copies (TRANSFER writes; the caller orders what reads them).
    /// The zeros are written by a compute shader (docs/tuning/core.md#compute-fill), which the
    /// copies and every later pass follow.
    ///
    /// # Safety
    /// `cmd` is recording on `ctx`'s device; the target buffers outlive its execution, as does
    /// this upload.
    pub(super) unsafe fn record(&self, ctx: &Context, cmd: vk::CommandBuffer) -> Result<()> {
        for &(buffer, offset, bytes) in &self.fills {
            let mut at = offset;
            while at < offset + bytes {
                let words = ((offset + bytes - at) / 4).min(1 << 30);
                let addr = ctx.address_of(&BufferRange::new(buffer, at, words * 4));
                unsafe { ctx.record_compute_fill_at(cmd, addr, words as u32, 0)? };
                at += words * 4;
            }
        }
        if !self.fills.is_empty() {
            // The images over the zeros, and whatever reads the zeros after this.
            unsafe { shader_writes_to_all(ctx, cmd) };
        }
        if let Some(s) = &self.staging {
            for (target, regions) in &self.copies {
                unsafe { ctx.device.cmd_copy_buffer(cmd, s.buffer(), *target, regions) };
            }
            let (table_at, count) = self.scatter;
            if count > 0 {
                unsafe { ctx.record_compute_scatter(cmd, s.address(), s.address() + table_at, count)? };
                // The scattered parts are compute writes: visible to whatever follows.
                unsafe { shader_writes_to_all(ctx, cmd) };
            }
        }
        Ok(())
    }

    /// Records the upload in a submission of its own and waits for it.
    pub(super) fn run(self, ctx: &Context) -> Result<()> {
        let done = ctx.submit_and_wait(|cmd| unsafe {
            self.record(ctx, cmd)?;
            ctx.transfer_to_compute(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = done {
            self.leak();
            return Err(Error::Timeout(m));
        }
        done
    }

    /// Never frees the staging buffer (after a timed-out submission that may still read it).
    pub(super) fn leak(self) {
        if let Some(s) = self.staging {
            s.leak();
        }
    }
}

impl GpuSet {
    /// Uploads byte images into buffers (one submission).
    pub(super) fn upload(ctx: &Context, parts: &[(&ObjectStorage, u64, &[u8])]) -> Result<()> {
        Self::upload_and_zero(ctx, parts, &[])
    }

    /// Uploads byte images into buffers and zeroes byte ranges ([`StagedUpload::new`]) on the
    /// GPU, in one submission: zeros cost no staging copy.
    pub(super) fn upload_and_zero(
        ctx: &Context,
        parts: &[(&ObjectStorage, u64, &[u8])],
        zeros: &[(&ObjectStorage, u64, u64)],
    ) -> Result<()> {
        StagedUpload::new(ctx, parts, zeros)?.run(ctx)
    }

    /// Downloads byte ranges of buffers (one submission).
    pub(super) fn download(ctx: &Context, parts: &[(&ObjectStorage, u64, u64)]) -> Result<Vec<Vec<u8>>> {
        Self::download_with(ctx, parts, |bytes| Ok(bytes.iter().map(|b| b.to_vec()).collect()))
    }

    /// Downloads byte ranges of buffers (one submission) and hands them to `read` as they lie
    /// in the readback memory, one slice a range.
    pub(super) fn download_with<T>(
        ctx: &Context,
        parts: &[(&ObjectStorage, u64, u64)],
        read: impl FnOnce(&[&[u8]]) -> Result<T>,
    ) -> Result<T> {
        // One readback buffer for every range (16-byte aligned offsets).
        let mut at = Vec::with_capacity(parts.len());
        let mut total = 0u64;
        for (_, _, len) in parts {
            at.push(total);
            total += len.next_multiple_of(16);
        }
        let mut readback = ctx.readback_buffer(total.max(16))?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            ctx.compute_to_transfer(cmd);
            // One copy command per source buffer (sets made together share buffers).
            let copies = grouped(parts.iter().zip(&at).filter(|(p, _)| p.2 > 0).map(
                |((src, offset, len), &o)| {
                    let region = vk::BufferCopy {
                        src_offset: src.offset() + offset,
                        dst_offset: o,
                        size: *len,
                    };
                    (src.buffer(), region)
                },
            ));
            for (source, regions) in &copies {
                ctx.device
                    .cmd_copy_buffer(cmd, *source, readback.buffer(), regions);
            }
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = done {
            readback.leak();
            return Err(Error::Timeout(m));
        }
        done?;
        let all = readback
            .mapped()
            .ok_or_else(|| Error::Internal("readback buffer is not mapped".into()))?;
        let slices: Vec<&[u8]> = parts
            .iter()
            .zip(&at)
            .map(|((_, _, len), &o)| &all[o as usize..(o + len) as usize])
            .collect();
        read(&slices)
    }
}
