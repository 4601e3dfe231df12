//! The pipeline barriers vkalgo records between its own passes.

use crate::Context;
use ash::vk;

impl Context {
    /// Records a global memory barrier: everything `src_stage` wrote with `src_access` becomes
    /// visible to `dst_stage` accesses `dst_access` (for the caller's own commands around
    /// vkalgo's, e.g. host writes before a scan and shader writes before a readback).
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state.
    pub unsafe fn memory_barrier(
        &self,
        cmd: vk::CommandBuffer,
        src_stage: vk::PipelineStageFlags,
        src_access: vk::AccessFlags,
        dst_stage: vk::PipelineStageFlags,
        dst_access: vk::AccessFlags,
    ) {
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(src_access)
            .dst_access_mask(dst_access)];
        self.device.cmd_pipeline_barrier(
            cmd,
            src_stage,
            dst_stage,
            vk::DependencyFlags::empty(),
            &barrier,
            &[],
            &[],
        );
    }

    /// Between two compute passes: the first's shader writes are visible to the second's
    /// shader reads and writes.
    pub(crate) unsafe fn compute_to_compute(&self, cmd: vk::CommandBuffer) {
        self.memory_barrier(
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_WRITE,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
        );
    }

    /// After a compute pass that wrote `VkDispatchIndirectCommand`s (and data) for later
    /// indirect dispatches: its writes are visible to their indirect reads and shader accesses.
    pub(crate) unsafe fn compute_to_indirect(&self, cmd: vk::CommandBuffer) {
        self.memory_barrier(
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_WRITE,
            vk::PipelineStageFlags::DRAW_INDIRECT | vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::INDIRECT_COMMAND_READ
                | vk::AccessFlags::SHADER_READ
                | vk::AccessFlags::SHADER_WRITE,
        );
    }

    /// After a transfer (fill/copy) that a compute pass reads or writes next.
    pub(crate) unsafe fn transfer_to_compute(&self, cmd: vk::CommandBuffer) {
        self.memory_barrier(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_WRITE,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
        );
    }

    /// After a transfer whose bytes a later transfer writes over or reads.
    pub(crate) unsafe fn transfer_to_transfer(&self, cmd: vk::CommandBuffer) {
        self.memory_barrier(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_WRITE,
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE,
        );
    }

    /// After a compute pass whose results a transfer (copy to a staging buffer) reads.
    pub(crate) unsafe fn compute_to_transfer(&self, cmd: vk::CommandBuffer) {
        self.memory_barrier(
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_WRITE,
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE,
        );
    }
}
