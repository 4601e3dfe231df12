//! Compute pipelines: one layout (push constants only, no descriptor sets) shared by every
//! pass, and pipelines created once per context for each (shader, specialization) pair.

use super::shaders::ShaderSource;
use crate::error::{Error, Result, VkResultExt};
use crate::Context;
use ash::vk;
use std::collections::HashMap;
use std::sync::Mutex;

/// Bytes of push constants every pipeline layout declares (the Vulkan minimum guarantee).
pub(crate) const PUSH_CONSTANT_BYTES: u32 = 128;

/// Tuning values passed as specialization constants (ids 0, 1, 2, 5 and 6 in
/// glsl/common/vkalgo.glsl; ids 3 and 4 always carry the device's minimum and maximum subgroup
/// size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Specialization {
    /// Invocations per workgroup (constant_id 0, local_size_x_id).
    pub workgroup_size: u32,
    /// uvec4 vectors per invocation per tile (constant_id 1).
    pub vecs_per_thread: u32,
    /// Look-back spins before the fallback (constant_id 2).
    pub spin_limit: u32,
    /// The sort's stage split (constant_id 5); 1 for the other algorithms.
    pub stage_split: u32,
    /// The sort's key order (constant_id 6): key kind (0 unsigned, 1 signed, 2 float) | 4 for
    /// descending; 0 for the other algorithms.
    pub key_order: u32,
}

impl Specialization {
    /// The constants of an algorithm other than the sort (ids 5 and 6 at their defaults).
    pub fn new(workgroup_size: u32, vecs_per_thread: u32, spin_limit: u32) -> Self {
        Specialization {
            workgroup_size,
            vecs_per_thread,
            spin_limit,
            stage_split: 1,
            key_order: 0,
        }
    }
}

/// A pipeline ready to dispatch, with the layout its push constants go through.
#[derive(Clone, Copy)]
pub(crate) struct Kernel {
    pub pipeline: vk::Pipeline,
    pub layout: vk::PipelineLayout,
}

pub(crate) struct Pipelines {
    layout: vk::PipelineLayout,
    cache: vk::PipelineCache,
    full_subgroups: bool,
    created: Mutex<HashMap<(&'static str, Specialization), vk::Pipeline>>,
    /// Diagnostics (`VKALGO_PIPELINE_STATS=1` on vkalgo's own devices): the driver's
    /// statistics of every pipeline created (registers, shared memory, ...).
    pub(crate) statistics: Option<ash::khr::pipeline_executable_properties::Device>,
    pub(crate) collected_statistics: Mutex<Vec<String>>,
    /// Diagnostics: VK_KHR_shader_clock is enabled (kernels may use clock-instrumented
    /// permutations).
    pub(crate) shader_clock: bool,
}

impl Pipelines {
    pub(crate) unsafe fn new(
        device: &ash::Device,
        cache: vk::PipelineCache,
        full_subgroups: bool,
    ) -> Result<Self> {
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .offset(0)
            .size(PUSH_CONSTANT_BYTES)];
        let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges);
        let layout = device
            .create_pipeline_layout(&info, None)
            .during("vkCreatePipelineLayout")?;
        Ok(Pipelines {
            layout,
            cache,
            full_subgroups,
            created: Mutex::new(HashMap::new()),
            statistics: None,
            collected_statistics: Mutex::new(Vec::new()),
            shader_clock: false,
        })
    }

    pub(crate) unsafe fn destroy(&self, device: &ash::Device) {
        if let Ok(mut created) = self.created.lock() {
            for (_, p) in created.drain() {
                device.destroy_pipeline(p, None);
            }
        }
        device.destroy_pipeline_layout(self.layout, None);
    }
}

impl Context {
    /// The pipeline for `shader` with `spec`, created on first use and kept for the context's
    /// lifetime.
    pub(crate) fn kernel(&self, shader: &ShaderSource, spec: Specialization) -> Result<Kernel> {
        let pipelines = &self.pipelines;
        let mut created = pipelines
            .created
            .lock()
            .map_err(|_| Error::Internal("pipeline map poisoned".into()))?;
        if let Some(&pipeline) = created.get(&(shader.name, spec)) {
            return Ok(Kernel {
                pipeline,
                layout: pipelines.layout,
            });
        }
        let pipeline = unsafe { self.create_pipeline(shader, spec)? };
        created.insert((shader.name, spec), pipeline);
        Ok(Kernel {
            pipeline,
            layout: pipelines.layout,
        })
    }

    unsafe fn create_pipeline(&self, shader: &ShaderSource, spec: Specialization) -> Result<vk::Pipeline> {
        let code = ash::util::read_spv(&mut std::io::Cursor::new(shader.spirv))
            .map_err(|e| Error::Internal(format!("embedded SPIR-V {}: {e}", shader.name)))?;
        let module_info = vk::ShaderModuleCreateInfo::default().code(&code);
        let module = self
            .device
            .create_shader_module(&module_info, None)
            .during("vkCreateShaderModule")?;
        // Ids 3 and 4 (the device's subgroup size range) are the same for every pipeline.
        let values = [
            spec.workgroup_size,
            spec.vecs_per_thread,
            spec.spin_limit,
            self.profile.min_subgroup_size.max(1),
            self.profile.max_subgroup_size.max(1),
            spec.stage_split,
            spec.key_order,
        ];
        let entries: Vec<vk::SpecializationMapEntry> = (0..values.len() as u32)
            .map(|i| vk::SpecializationMapEntry {
                constant_id: i,
                offset: i * 4,
                size: 4,
            })
            .collect();
        let spec_info = vk::SpecializationInfo::default()
            .map_entries(&entries)
            .data(bytemuck::cast_slice(&values));
        let mut flags = vk::PipelineShaderStageCreateFlags::empty();
        if self.pipelines.full_subgroups {
            flags |= vk::PipelineShaderStageCreateFlags::REQUIRE_FULL_SUBGROUPS;
        }
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .flags(flags)
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main")
            .specialization_info(&spec_info);
        let mut create_flags = vk::PipelineCreateFlags::empty();
        if self.pipelines.statistics.is_some() {
            create_flags |= vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR;
        }
        let info = [vk::ComputePipelineCreateInfo::default()
            .flags(create_flags)
            .stage(stage)
            .layout(self.pipelines.layout)];
        let result = self
            .device
            .create_compute_pipelines(self.pipelines.cache, &info, None);
        self.device.destroy_shader_module(module, None);
        let pipeline = result.map_err(|(_, e)| Error::vk("vkCreateComputePipelines", e))?[0];
        if let Some(stats) = &self.pipelines.statistics {
            self.collect_statistics(stats, pipeline, shader.name, spec);
        }
        if let Some(debug) = &self.debug_utils {
            let name = format!(
                "vkalgo:{} wg{} v{}\0",
                shader.name, spec.workgroup_size, spec.vecs_per_thread
            );
            let name = std::ffi::CStr::from_bytes_with_nul(name.as_bytes()).unwrap_or(c"vkalgo");
            let info = vk::DebugUtilsObjectNameInfoEXT::default()
                .object_handle(pipeline)
                .object_name(name);
            let _ = debug.set_debug_utils_object_name(&info);
        }
        Ok(pipeline)
    }

    unsafe fn collect_statistics(
        &self,
        loader: &ash::khr::pipeline_executable_properties::Device,
        pipeline: vk::Pipeline,
        name: &str,
        spec: Specialization,
    ) {
        let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
        let count = loader
            .get_pipeline_executable_properties(&info)
            .map(|v| v.len())
            .unwrap_or(0);
        let mut text = format!("{name} wg{} x{}:", spec.workgroup_size, spec.vecs_per_thread);
        for index in 0..count as u32 {
            let exec = vk::PipelineExecutableInfoKHR::default()
                .pipeline(pipeline)
                .executable_index(index);
            let Ok(stats) = loader.get_pipeline_executable_statistics(&exec) else {
                continue;
            };
            for stat in &stats {
                let value = match stat.format {
                    vk::PipelineExecutableStatisticFormatKHR::BOOL32 => stat.value.b32 as u64,
                    vk::PipelineExecutableStatisticFormatKHR::INT64 => stat.value.i64 as u64,
                    vk::PipelineExecutableStatisticFormatKHR::UINT64 => stat.value.u64,
                    _ => stat.value.f64 as u64,
                };
                let label = stat
                    .name_as_c_str()
                    .map(|c| c.to_string_lossy().into_owned())
                    .unwrap_or_default();
                text += &format!(" {label}={value};");
            }
        }
        if let Ok(mut collected) = self.pipelines.collected_statistics.lock() {
            collected.push(text);
        }
    }

    /// Driver statistics of the pipelines created so far (register counts, shared memory,
    /// ...), one line per pipeline; empty unless `VKALGO_PIPELINE_STATS=1` was set when a
    /// default context was created on a driver with VK_KHR_pipeline_executable_properties.
    #[doc(hidden)]
    pub fn pipeline_statistics(&self) -> Vec<String> {
        self.pipelines
            .collected_statistics
            .lock()
            .map(|c| c.clone())
            .unwrap_or_default()
    }

    /// Records a dispatch of `groups` workgroups (split over y when beyond the x limit) with
    /// `push` as push constants.
    pub(crate) unsafe fn dispatch<P: bytemuck::Pod>(
        &self,
        cmd: vk::CommandBuffer,
        kernel: Kernel,
        push: &P,
        groups: u32,
    ) {
        debug_assert!(std::mem::size_of::<P>() <= PUSH_CONSTANT_BYTES as usize);
        if groups == 0 {
            return;
        }
        let d = &self.device;
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, kernel.pipeline);
        d.cmd_push_constants(
            cmd,
            kernel.layout,
            vk::ShaderStageFlags::COMPUTE,
            0,
            bytemuck::bytes_of(push),
        );
        let max_x = self.profile.max_workgroup_count[0].clamp(1, 65535);
        // Beyond the x limit: as few rows as needed, split evenly (x * y >= groups, the
        // excess under one row; kernels skip linear ids past their work).
        let (x, y) = if groups <= max_x {
            (groups, 1)
        } else {
            let y = groups.div_ceil(max_x);
            (groups.div_ceil(y), y)
        };
        d.cmd_dispatch(cmd, x, y, 1);
    }
}
