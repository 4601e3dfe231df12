//! Fresh random input written by a compute shader right before each timed repetition, the way
//! bench/cuda/cub_bench.cu's `fill_random` kernel does it for CUB: both sides then start their
//! timed work with the same data in the same cache state (the input just written, as much of
//! it in L2 as fits). The values are `mix32(i * 0x9e3779b9 + salt)`, `salt = mix32(seed *
//! 0x9e3779b9 + 0x632be5ab)`, computed identically on the CPU for the check.

use super::MAX_BATCH;
use ash::vk;
use vkalgo::{Context, Error, Result};

const WORKGROUP: u32 = 256;

/// glsl: `src/fresh.comp`, compiled by `cargo xtask shaders` (checked for drift in CI).
const SPIRV: &[u8] = include_bytes!("../fresh.spv");

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Push {
    addr: u64,
    count: u64,
    salt: u32,
    pad: u32,
}

/// The bench's mirror of the CUDA side's hash (a bijection on u32).
pub fn mix32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

fn salt(seed: u32) -> u32 {
    mix32(seed.wrapping_mul(0x9e37_79b9).wrapping_add(0x632b_e5ab))
}

/// The values [`RandomFill::record`] writes for `seed`, computed on the CPU.
pub fn random_values(n: usize, seed: u32) -> Vec<u32> {
    let s = salt(seed);
    (0..n as u32)
        .map(|i| mix32(i.wrapping_mul(0x9e37_79b9).wrapping_add(s)))
        .collect()
}

/// A compute pipeline that fills u32 words with fresh pseudo-random values.
pub struct RandomFill<'a> {
    ctx: &'a Context,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    /// Workgroups per dispatch: 32 per multiprocessor-ish, as the CUDA side's grid_for caps it.
    max_groups: u32,
}

impl<'a> RandomFill<'a> {
    pub fn new(ctx: &'a Context) -> Result<Self> {
        let code = ash::util::read_spv(&mut std::io::Cursor::new(SPIRV))
            .map_err(|e| Error::Internal(format!("fresh.spv: {e}")))?;
        let device = ctx.device();
        unsafe {
            let module = device
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
                .map_err(|e| Error::vk("vkCreateShaderModule", e))?;
            let ranges = [vk::PushConstantRange::default()
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
                .size(std::mem::size_of::<Push>() as u32)];
            let layout = device
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges),
                    None,
                )
                .map_err(|e| Error::vk("vkCreatePipelineLayout", e))?;
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"main");
            let info = vk::ComputePipelineCreateInfo::default()
                .stage(stage)
                .layout(layout);
            let created = device.create_compute_pipelines(vk::PipelineCache::null(), &[info], None);
            device.destroy_shader_module(module, None);
            let pipeline = match created {
                Ok(p) => p[0],
                Err((_, e)) => {
                    device.destroy_pipeline_layout(layout, None);
                    return Err(Error::vk("vkCreateComputePipelines", e));
                }
            };
            // CUDA side: grid_for caps the grid at 32 blocks of 256 per multiprocessor; 132
            // multiprocessors on an H100/H200. The exact cap matters little for a fill.
            Ok(Self {
                ctx,
                layout,
                pipeline,
                max_groups: 32 * 132,
            })
        }
    }

    /// Records a fill of `count` u32 words at device address `addr` with the values of `seed`.
    /// # Safety
    /// `cmd` records; `addr` names at least `count` words of a live buffer.
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, addr: u64, count: u64, seed: u32) {
        let d = self.ctx.device();
        let push = Push {
            addr,
            count,
            salt: salt(seed),
            pad: 0,
        };
        let groups = count.div_ceil(WORKGROUP as u64).clamp(1, self.max_groups as u64) as u32;
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
        d.cmd_push_constants(
            cmd,
            self.layout,
            vk::ShaderStageFlags::COMPUTE,
            0,
            bytemuck::bytes_of(&push),
        );
        d.cmd_dispatch(cmd, groups, 1, 1);
    }

    /// The seed of repetition `rep` of a batch (the batch's seeds never repeat within a run).
    pub fn seed(base: u32, rep: u32) -> u32 {
        base.wrapping_mul(MAX_BATCH + 1).wrapping_add(rep)
    }
}

impl Drop for RandomFill<'_> {
    fn drop(&mut self) {
        unsafe {
            let d = self.ctx.device();
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_pipeline_layout(self.layout, None);
        }
    }
}
