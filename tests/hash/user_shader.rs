//! What the user-shader tests of the map and the multimap share: running a caller's compute
//! shader (compiled against glsl/public/vkalgo_hash_map.glsl) with a push-constant block.

use super::*;

/// Runs the SPIR-V compute shader `spirv` (64 invocations per workgroup) over `invocations`
/// invocations with `push` as its push constants, in one blocking submission ordered after the
/// host's writes and before the host's reads; the pipeline is destroyed afterwards.
pub(crate) fn run_user_shader<P: bytemuck::Pod>(ctx: &Context, spirv: &[u32], push: &P, invocations: u32) {
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

/// The SPIR-V of tests/shaders/`$name`.comp, a caller's shader, as `cargo xtask shaders`
/// compiled it for (`$key64`: 64-bit keys, `$value64`: 64-bit values).
macro_rules! user_spirv {
    ($name:literal, $key64:expr, $value64:expr) => {{
        let builds: [[&[u8]; 2]; 2] = [
            [
                include_bytes!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/shaders/",
                    $name,
                    "_k32_v32.spv"
                )),
                include_bytes!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/shaders/",
                    $name,
                    "_k32_v64.spv"
                )),
            ],
            [
                include_bytes!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/shaders/",
                    $name,
                    "_k64_v32.spv"
                )),
                include_bytes!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/shaders/",
                    $name,
                    "_k64_v64.spv"
                )),
            ],
        ];
        let bytes = builds[$key64 as usize][$value64 as usize];
        ash::util::read_spv(&mut std::io::Cursor::new(bytes)).unwrap()
    }};
}

pub(crate) use user_spirv;
