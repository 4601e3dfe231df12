//! Chunked transfers through one staging buffer, the warm timing of a check, and the shared
//! slice of the CPU threads.

use super::*;
pub use crate::harness::full_barrier;

/// Writes `bytes` bytes at `offset` of `dst`, chunk by chunk: `fill(first_byte, chunk)` fills
/// each chunk of the staging buffer on the host first.
pub fn upload_with(
    ctx: &Context,
    dst: vk::Buffer,
    offset: u64,
    bytes: u64,
    mut fill: impl FnMut(u64, &mut [u8]),
) -> Result<()> {
    let mut staging = GpuBuffer::new(ctx, STAGING_BYTES, MemoryLocation::CpuToGpu, "large upload")?;
    let mut done = 0u64;
    while done < bytes {
        let len = (bytes - done).min(STAGING_BYTES);
        fill(done, &mut staging.mapped().expect("mapped")[..len as usize]);
        let region = [vk::BufferCopy {
            src_offset: 0,
            dst_offset: offset + done,
            size: len,
        }];
        ctx.submit_and_wait(|cmd| unsafe {
            full_barrier(ctx, cmd);
            ctx.device().cmd_copy_buffer(cmd, staging.buffer(), dst, &region);
            full_barrier(ctx, cmd);
            Ok(())
        })?;
        done += len;
    }
    Ok(())
}

/// Uploads `data` to `offset` of `dst`.
pub fn upload_u32(ctx: &Context, dst: vk::Buffer, offset: u64, data: &[u32], threads: usize) -> Result<()> {
    let bytes: &[u8] = bytemuck::cast_slice(data);
    upload_with(ctx, dst, offset, bytes.len() as u64, |first, chunk| {
        par_copy(
            chunk,
            &bytes[first as usize..first as usize + chunk.len()],
            threads,
        )
    })
}

/// Reads `bytes` bytes from `offset` of `src` chunk by chunk: `take(first_byte, chunk)`.
pub fn download_with(
    ctx: &Context,
    src: vk::Buffer,
    offset: u64,
    bytes: u64,
    mut take: impl FnMut(u64, &[u8]),
) -> Result<()> {
    let mut staging = GpuBuffer::new(ctx, STAGING_BYTES, MemoryLocation::GpuToCpu, "large download")?;
    let mut done = 0u64;
    while done < bytes {
        let len = (bytes - done).min(STAGING_BYTES);
        let region = [vk::BufferCopy {
            src_offset: offset + done,
            dst_offset: 0,
            size: len,
        }];
        ctx.submit_and_wait(|cmd| unsafe {
            full_barrier(ctx, cmd);
            ctx.device().cmd_copy_buffer(cmd, src, staging.buffer(), &region);
            ctx.memory_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::PipelineStageFlags::HOST,
                vk::AccessFlags::HOST_READ,
            );
            Ok(())
        })?;
        take(done, &staging.mapped().expect("mapped")[..len as usize]);
        done += len;
    }
    Ok(())
}

/// Reads `n` u32 from `offset` of `src`.
pub fn download_u32(ctx: &Context, src: vk::Buffer, offset: u64, n: u64, threads: usize) -> Result<Vec<u32>> {
    let mut out = vec![0u32; n as usize];
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut out);
    download_with(ctx, src, offset, n * 4, |first, chunk| {
        par_copy(
            &mut bytes[first as usize..first as usize + chunk.len()],
            chunk,
            threads,
        )
    })?;
    Ok(out)
}

/// Downloads `n` u32 from `offset` of `src` chunk by chunk and compares element `p` with
/// `want(p)` on several threads (`corrupt`: the last element's lowest bit flipped first, a
/// self-test). Returns the first wrong element as (index, got, wanted).
pub fn download_compare(
    ctx: &Context,
    src: vk::Buffer,
    offset: u64,
    n: u64,
    threads: usize,
    corrupt: bool,
    want: impl Fn(u64) -> u32 + Sync,
) -> Result<Option<(u64, u32, u32)>> {
    let mut wrong: Option<(u64, u32, u32)> = None;
    let want = &want;
    download_with(ctx, src, offset, n * 4, |first, chunk| {
        if wrong.is_some() {
            return;
        }
        let mut words: Vec<u32> = bytemuck::cast_slice(chunk).to_vec();
        if corrupt && first + chunk.len() as u64 >= n * 4 {
            *words.last_mut().expect("a chunk is never empty") ^= 1;
        }
        let e0 = first / 4;
        let per = words.len().div_ceil(threads).max(1);
        let words = &words;
        wrong = std::thread::scope(|s| {
            let handles: Vec<_> = words
                .chunks(per)
                .enumerate()
                .map(|(c, part)| {
                    s.spawn(move || {
                        let p0 = e0 + (c * per) as u64;
                        part.iter().enumerate().find_map(|(j, &got)| {
                            let p = p0 + j as u64;
                            let w = want(p);
                            (got != w).then_some((p, got, w))
                        })
                    })
                })
                .collect();
            handles
                .into_iter()
                .filter_map(|h| h.join().unwrap())
                .min_by_key(|w| w.0)
        });
    })?;
    Ok(wrong)
}

/// Times `record` on the GPU after sustained copies, so that the GPU has left its post-idle
/// slow state (see [`crate::harness::Yardstick`]; the CPU references leave it idle for
/// seconds); with `again` a second time (the first run touches fresh buffers first).
/// Returns the last run's milliseconds.
pub fn time_warm(
    ctx: &Context,
    timer: &Timer,
    again: bool,
    mut record: impl FnMut(vk::CommandBuffer) -> Result<()>,
) -> Result<f64> {
    let yardstick = crate::harness::yardstick(ctx, timer)?;
    let mut ms = 0.0;
    for _ in 0..1 + again as usize {
        yardstick.warm(ctx, timer)?;
        let times = timer.regions(|cmd, mark| {
            unsafe { full_barrier(ctx, cmd) };
            mark(cmd);
            record(cmd)?;
            mark(cmd);
            Ok(())
        })?;
        ms = times[0];
    }
    Ok(ms)
}

/// A shared pointer for threads that write disjoint elements of one slice.
#[derive(Clone, Copy)]
pub struct SharedSlice(pub *mut u32);
unsafe impl Send for SharedSlice {}
unsafe impl Sync for SharedSlice {}

impl SharedSlice {
    /// Writes `value` at element `i`.
    ///
    /// # Safety
    /// `i` is within the slice and no other thread touches element `i` meanwhile.
    pub unsafe fn write(&self, i: usize, value: u32) {
        *self.0.add(i) = value;
    }
}
