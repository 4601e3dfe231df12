//! GPU timestamps around the phases of one submission, and the copies between the host and
//! device-local buffers.

use vkalgo::ash::vk;
use vkalgo::{Context, Error, GpuBuffer, MemoryLocation, Result};

/// Timestamps one submission can write.
const TIMESTAMPS: u32 = 32;

/// A timestamp query pool on the context's device.
pub struct Timer<'a> {
    ctx: &'a Context,
    pool: vk::QueryPool,
}

impl<'a> Timer<'a> {
    /// A pool of [`TIMESTAMPS`] timestamps; refuses a queue without timestamps.
    pub fn new(ctx: &'a Context) -> Result<Self> {
        if !ctx.profile().timestamps {
            return Err(Error::Unsupported(format!(
                "{} has no timestamps",
                ctx.device_name()
            )));
        }
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::TIMESTAMP)
            .query_count(TIMESTAMPS);
        // SAFETY: a valid create info on the context's device.
        let pool = unsafe { ctx.device().create_query_pool(&info, None) }
            .map_err(|e| Error::vk("vkCreateQueryPool", e))?;
        Ok(Timer { ctx, pool })
    }

    /// Records `body` in one submission and waits; `body` calls `mark` to start and to end
    /// each timed region (a timestamp once everything recorded before it has completed).
    /// Returns each region's milliseconds.
    pub fn regions(
        &self,
        body: impl FnOnce(vk::CommandBuffer, &mut dyn FnMut(vk::CommandBuffer)) -> Result<()>,
    ) -> Result<Vec<f64>> {
        let d = self.ctx.device();
        let mut used = 0u32;
        self.ctx.submit_and_wait(|cmd| {
            // SAFETY: `cmd` is recording; the queries stay below the pool's count.
            unsafe { d.cmd_reset_query_pool(cmd, self.pool, 0, TIMESTAMPS) };
            let mut mark = |cmd: vk::CommandBuffer| {
                assert!(used < TIMESTAMPS, "too many timestamps");
                let stage = vk::PipelineStageFlags::BOTTOM_OF_PIPE;
                unsafe { d.cmd_write_timestamp(cmd, stage, self.pool, used) };
                used += 1;
            };
            body(cmd, &mut mark)
        })?;
        assert!(used % 2 == 0, "unbalanced timed regions");
        let mut stamps = vec![0u64; used as usize];
        if used > 0 {
            let flags = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT;
            // SAFETY: the submission wrote queries 0..used and has completed.
            unsafe { d.get_query_pool_results(self.pool, 0, &mut stamps, flags) }
                .map_err(|e| Error::vk("vkGetQueryPoolResults", e))?;
        }
        let period = self.ctx.profile().timestamp_period as f64 / 1e6;
        Ok(stamps
            .chunks(2)
            .map(|w| w[1].wrapping_sub(w[0]) as f64 * period)
            .collect())
    }
}

impl Drop for Timer<'_> {
    fn drop(&mut self) {
        // SAFETY: no submission using the pool is pending (every one was waited for).
        unsafe { self.ctx.device().destroy_query_pool(self.pool, None) };
    }
}

/// Everything recorded before it has completed and its writes are visible to everything
/// recorded after it (between the phases and the operations of a phase).
pub fn full_barrier(ctx: &Context, cmd: vk::CommandBuffer) {
    let all = vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE;
    let stages = vk::PipelineStageFlags::ALL_COMMANDS;
    // SAFETY: `cmd` is recording on the context's device (every caller records into the
    // runner's command buffer).
    unsafe { ctx.memory_barrier(cmd, stages, all, stages, all) };
}

/// A device-local buffer holding `data` (at least 16 bytes).
pub fn upload(ctx: &Context, data: &[u32], name: &str) -> Result<GpuBuffer> {
    let bytes = (data.len() as u64 * 4).max(16);
    let dst = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, name)?;
    let mut staging = GpuBuffer::new(ctx, bytes, MemoryLocation::CpuToGpu, "hash_join upload")?;
    let mapped = staging
        .mapped()
        .ok_or_else(|| Error::Internal("staging not mapped".into()))?;
    mapped[..data.len() * 4].copy_from_slice(bytemuck::cast_slice(data));
    let region = [vk::BufferCopy::default().size(bytes)];
    ctx.submit_and_wait(|cmd| {
        // SAFETY: both buffers are live and large enough.
        unsafe {
            ctx.device()
                .cmd_copy_buffer(cmd, staging.buffer(), dst.buffer(), &region)
        };
        full_barrier(ctx, cmd);
        Ok(())
    })?;
    Ok(dst)
}

/// The first `n` u32 of a device-local buffer.
pub fn download(ctx: &Context, src: &GpuBuffer, n: usize) -> Result<Vec<u32>> {
    let bytes = (n as u64 * 4).max(16);
    let mut staging = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuToCpu, "hash_join download")?;
    let region = [vk::BufferCopy::default().size(n as u64 * 4)];
    ctx.submit_and_wait(|cmd| {
        if n > 0 {
            // SAFETY: both buffers are live and large enough.
            unsafe {
                ctx.device()
                    .cmd_copy_buffer(cmd, src.buffer(), staging.buffer(), &region)
            };
        }
        let (transfer, host) = (vk::PipelineStageFlags::TRANSFER, vk::PipelineStageFlags::HOST);
        let (written, read) = (vk::AccessFlags::TRANSFER_WRITE, vk::AccessFlags::HOST_READ);
        // SAFETY: `cmd` is recording on the context's device.
        unsafe { ctx.memory_barrier(cmd, transfer, written, host, read) };
        Ok(())
    })?;
    let mapped = staging
        .mapped()
        .ok_or_else(|| Error::Internal("readback not mapped".into()))?;
    Ok(bytemuck::cast_slice(&mapped[..n * 4]).to_vec())
}
