//! Host-side submission for the convenience layer: one command buffer, one fence, bounded waits.

use super::buffer::{GpuBuffer, MemoryLocation};
use crate::error::{Error, Result, VkResultExt};
use crate::Context;
use ash::vk;

pub(crate) struct HostRunner {
    pool: vk::CommandPool,
    cmd: vk::CommandBuffer,
    fence: vk::Fence,
}

impl HostRunner {
    unsafe fn new(ctx: &Context) -> Result<Self> {
        let d = &ctx.device;
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(ctx.queue_family_index)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        let pool = d
            .create_command_pool(&pool_info, None)
            .during("vkCreateCommandPool")?;
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        let cmd = match d.allocate_command_buffers(&alloc) {
            Ok(c) => c[0],
            Err(e) => {
                d.destroy_command_pool(pool, None);
                return Err(Error::vk("vkAllocateCommandBuffers", e));
            }
        };
        let fence = match d.create_fence(&vk::FenceCreateInfo::default(), None) {
            Ok(f) => f,
            Err(e) => {
                d.destroy_command_pool(pool, None);
                return Err(Error::vk("vkCreateFence", e));
            }
        };
        Ok(HostRunner { pool, cmd, fence })
    }

    pub(crate) unsafe fn destroy(self, device: &ash::Device) {
        device.destroy_fence(self.fence, None);
        device.destroy_command_pool(self.pool, None);
    }
}

impl Context {
    /// Records commands with `record` into a one-time command buffer, submits it to the
    /// context's queue and waits for it (at most the context's timeout). Calls are serialized.
    ///
    /// On [`Error::Timeout`] the work may still be running: the context is marked lost
    /// ([`Context::is_lost`]): its command buffer, buffers and pipelines are never freed, and
    /// later host calls fail with [`Error::DeviceLost`].
    ///
    /// On an external context this needs the caller's queue and queue lock
    /// ([`crate::ExternalContextDesc`]); the lock is held around `vkQueueSubmit`.
    pub fn submit_and_wait(&self, record: impl FnOnce(vk::CommandBuffer) -> Result<()>) -> Result<()> {
        if self.is_lost() {
            return Err(Error::DeviceLost);
        }
        if !self.owns_device() && (self.queue == vk::Queue::null() || self.queue_lock.is_none()) {
            return Err(Error::invalid(
                "host calls on an external context need the caller's queue and its queue lock \
                 (ExternalContextDesc::queue and queue_lock; C: queue and queue_lock)",
            ));
        }
        let mut guard = self.runner.lock().unwrap_or_else(|p| p.into_inner());
        if guard.is_none() {
            *guard = Some(unsafe { HostRunner::new(self)? });
        }
        let runner = guard.as_ref().unwrap();
        let d = &self.device;
        unsafe {
            d.reset_command_buffer(runner.cmd, vk::CommandBufferResetFlags::empty())
                .during("vkResetCommandBuffer")?;
            let begin =
                vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            d.begin_command_buffer(runner.cmd, &begin)
                .during("vkBeginCommandBuffer")?;
            let recorded = record(runner.cmd);
            let ended = d.end_command_buffer(runner.cmd).during("vkEndCommandBuffer");
            recorded?;
            ended?;
            let cmds = [runner.cmd];
            let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
            if let Some(lock) = &self.queue_lock {
                lock(true);
            }
            let submitted = d.queue_submit(self.queue, &submit, runner.fence);
            if let Some(lock) = &self.queue_lock {
                lock(false);
            }
            submitted.during("vkQueueSubmit")?;
            let timeout_ns = u64::try_from(self.timeout.as_nanos()).unwrap_or(u64::MAX);
            match d.wait_for_fences(&[runner.fence], true, timeout_ns) {
                Ok(()) => {
                    d.reset_fences(&[runner.fence]).during("vkResetFences")?;
                    Ok(())
                }
                Err(vk::Result::TIMEOUT) => {
                    // The command buffer may still execute: abandon it rather than reuse it.
                    // (HostRunner has no Drop: dropping the handles without destroying them
                    // abandons them.)
                    guard.take();
                    self.lost.store(true, std::sync::atomic::Ordering::SeqCst);
                    Err(Error::Timeout(format!(
                        "GPU work did not finish within {:?}; the context is lost (nothing it \
                         allocated is freed, later host calls fail)",
                        self.timeout
                    )))
                }
                Err(e) => Err(Error::vk("vkWaitForFences", e)),
            }
        }
    }

    /// A device-local buffer of `bytes` bytes for the host layer (kept for reuse when freed:
    /// [`GpuBuffer::recycled`]).
    pub(crate) fn device_buffer(&self, bytes: u64, name: &str) -> Result<GpuBuffer> {
        GpuBuffer::recycled(self, bytes, MemoryLocation::GpuOnly, name)
    }

    /// A host-visible staging buffer holding a copy of `data`.
    pub(crate) fn staging_from<T: bytemuck::Pod>(&self, data: &[T]) -> Result<GpuBuffer> {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        let mut staging = GpuBuffer::recycled(
            self,
            bytes.len() as u64,
            MemoryLocation::CpuToGpu,
            "vkalgo upload",
        )?;
        let mapped = staging
            .mapped()
            .ok_or_else(|| Error::Internal("staging buffer is not mapped".into()))?;
        mapped[..bytes.len()].copy_from_slice(bytes);
        Ok(staging)
    }

    /// A host-visible buffer to download `bytes` bytes into (kept for reuse when freed).
    pub(crate) fn readback_buffer(&self, bytes: u64) -> Result<GpuBuffer> {
        GpuBuffer::recycled(self, bytes, MemoryLocation::GpuToCpu, "vkalgo download")
    }

    /// Records a copy of `bytes` bytes between two buffers (offsets 0).
    pub(crate) unsafe fn record_copy(
        &self,
        cmd: vk::CommandBuffer,
        src: &GpuBuffer,
        dst: &GpuBuffer,
        bytes: u64,
    ) {
        if bytes > 0 {
            let region = [vk::BufferCopy {
                src_offset: 0,
                dst_offset: 0,
                size: bytes,
            }];
            self.device
                .cmd_copy_buffer(cmd, src.buffer(), dst.buffer(), &region);
        }
    }

    /// Makes compute-shader writes visible to host reads after the fence.
    pub(crate) unsafe fn compute_to_host(&self, cmd: vk::CommandBuffer) {
        self.memory_barrier(
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_WRITE,
            vk::PipelineStageFlags::HOST,
            vk::AccessFlags::HOST_READ,
        );
    }

    /// Makes transfer writes visible to host reads after the fence.
    pub(crate) unsafe fn transfer_to_host(&self, cmd: vk::CommandBuffer) {
        self.memory_barrier(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_WRITE,
            vk::PipelineStageFlags::HOST,
            vk::AccessFlags::HOST_READ,
        );
    }
}

/// Copies the first `out.len()` elements of a mapped readback buffer into `out`.
pub(crate) fn read_back<T: bytemuck::Pod>(buffer: &mut GpuBuffer, out: &mut [T]) -> Result<()> {
    let bytes = std::mem::size_of_val(out);
    let mapped = buffer
        .mapped()
        .ok_or_else(|| Error::Internal("readback buffer is not mapped".into()))?;
    bytemuck::cast_slice_mut::<T, u8>(out).copy_from_slice(&mapped[..bytes]);
    Ok(())
}

/// Leaks buffers the GPU may still use after a timed-out submission, then returns the error.
macro_rules! finish_submission {
    ($result:expr, $($buffer:expr),* $(,)?) => {
        match $result {
            Err(crate::error::Error::Timeout(m)) => {
                $($buffer.leak();)*
                return Err(crate::error::Error::Timeout(m));
            }
            other => other?,
        }
    };
}
pub(crate) use finish_submission;
