//! Uploads and downloads through one staging buffer, and deterministic random data.

use ash::vk;
use vkalgo::{Context, GpuBuffer, MemoryLocation, Result};

/// Bytes moved per staging round trip: big host-visible allocations can fragment device memory
/// and leave later large buffers on small pages (seen on an H200: copies at 1.5 TB/s instead of
/// 4 TB/s), so uploads and downloads go through one modest staging buffer.
pub const STAGING_BYTES: u64 = 64 << 20;

/// Fills the start of a device buffer with `data` through a staging buffer.
pub fn upload<T: bytemuck::Pod>(ctx: &Context, dst: &GpuBuffer, data: &[T]) -> Result<()> {
    let bytes: &[u8] = bytemuck::cast_slice(data);
    let mut staging = GpuBuffer::new(ctx, STAGING_BYTES, MemoryLocation::CpuToGpu, "bench upload")?;
    for (i, chunk) in bytes.chunks(STAGING_BYTES as usize).enumerate() {
        staging.mapped().expect("mapped")[..chunk.len()].copy_from_slice(chunk);
        let region = [vk::BufferCopy {
            src_offset: 0,
            dst_offset: i as u64 * STAGING_BYTES,
            size: chunk.len() as u64,
        }];
        ctx.submit_and_wait(|cmd| unsafe {
            ctx.device()
                .cmd_copy_buffer(cmd, staging.buffer(), dst.buffer(), &region);
            Ok(())
        })?;
    }
    Ok(())
}

/// Reads the first `n` elements of a device buffer.
pub fn download<T: bytemuck::Pod>(ctx: &Context, src: &GpuBuffer, n: usize) -> Result<Vec<T>> {
    let mut out = vec![T::zeroed(); n];
    let mut staging = GpuBuffer::new(ctx, STAGING_BYTES, MemoryLocation::GpuToCpu, "bench download")?;
    for (i, chunk) in bytemuck::cast_slice_mut::<T, u8>(&mut out)
        .chunks_mut(STAGING_BYTES as usize)
        .enumerate()
    {
        let region = [vk::BufferCopy {
            src_offset: i as u64 * STAGING_BYTES,
            dst_offset: 0,
            size: chunk.len() as u64,
        }];
        ctx.submit_and_wait(|cmd| unsafe {
            ctx.device()
                .cmd_copy_buffer(cmd, src.buffer(), staging.buffer(), &region);
            ctx.memory_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::PipelineStageFlags::HOST,
                vk::AccessFlags::HOST_READ,
            );
            Ok(())
        })?;
        chunk.copy_from_slice(&staging.mapped().expect("mapped")[..chunk.len()]);
    }
    Ok(out)
}

/// Deterministic xorshift data, different for every seed.
pub fn random_u32(n: usize, seed: u64) -> Vec<u32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 16) as u32
        })
        .collect()
}
