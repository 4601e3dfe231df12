//! Running a caller's compute shader (one compiled against glsl/public/) with a push-constant
//! block, as the user-shader tests of the hash map, the multimap and the set do.

use super::buffers::{compute_to_host, host_to_compute};
use vkalgo::ash::vk;
use vkalgo::Context;

/// Runs the SPIR-V compute shader `spirv` (64 invocations per workgroup) over `invocations`
/// invocations with `push` as its push constants, in one blocking submission ordered after the
/// host's writes and before the host's reads; the pipeline is destroyed afterwards.
pub fn run_user_shader<P: bytemuck::Pod>(ctx: &Context, spirv: &[u32], push: &P, invocations: u32) {
    let d = ctx.device();
    unsafe {
        let module = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None)
            .unwrap();
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .size(std::mem::size_of::<P>() as u32)];
        let layout = d
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges),
                None,
            )
            .unwrap();
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let pipeline = d
            .create_compute_pipelines(
                vk::PipelineCache::null(),
                &[vk::ComputePipelineCreateInfo::default()
                    .stage(stage)
                    .layout(layout)],
                None,
            )
            .unwrap()[0];
        ctx.submit_and_wait(|cmd| {
            // The table was written by earlier submissions (fence-ordered); the inputs by the
            // host.
            host_to_compute(ctx, cmd);
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
            d.cmd_push_constants(
                cmd,
                layout,
                vk::ShaderStageFlags::COMPUTE,
                0,
                bytemuck::bytes_of(push),
            );
            d.cmd_dispatch(cmd, invocations.div_ceil(64), 1, 1);
            compute_to_host(ctx, cmd);
            Ok(())
        })
        .unwrap();
        d.destroy_pipeline(pipeline, None);
        d.destroy_pipeline_layout(layout, None);
        d.destroy_shader_module(module, None);
    }
}
