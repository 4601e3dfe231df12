//! The benchmark's hooks (the `bench` feature, enabled by crates/vkalgo-bench only): the
//! diagnostics variables `VKALGO_PIPELINE_STATS=1` (the driver's statistics of every pipeline,
//! through VK_KHR_pipeline_executable_properties) and `VKALGO_SORT_CLOCK=1` (clock-instrumented
//! Onesweep kernels, through VK_KHR_shader_clock), honoured on vkalgo's own devices where the
//! driver has the extension. Core reaches this module only at feature-gated seams: device
//! creation (src/core/features.rs, src/core/context.rs) and pipeline creation
//! (src/core/pipelines.rs). `SortPlan::record_profiled` (src/sort/record.rs) is gated too.

use crate::{Context, ContextState};
use ash::vk;
use std::ffi::c_char;
use std::sync::Mutex;

/// Which diagnostics extensions a device was created with.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Diagnostics {
    /// VK_KHR_pipeline_executable_properties (`VKALGO_PIPELINE_STATS=1`).
    statistics: bool,
    /// VK_KHR_shader_clock (`VKALGO_SORT_CLOCK=1`).
    shader_clock: bool,
}

/// The diagnostics the environment asks for and the device has, with the feature structs that
/// enable them (alive until the device is created).
pub(crate) struct DeviceDiagnostics {
    pub enabled: Diagnostics,
    statistics: vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR<'static>,
    clock: vk::PhysicalDeviceShaderClockFeaturesKHR<'static>,
}

impl DeviceDiagnostics {
    /// What `VKALGO_PIPELINE_STATS` and `VKALGO_SORT_CLOCK` ask for, where `pd` has it.
    pub unsafe fn requested(instance: &ash::Instance, pd: vk::PhysicalDevice) -> Self {
        let has = |name: &std::ffi::CStr| {
            instance
                .enumerate_device_extension_properties(pd)
                .unwrap_or_default()
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(name))
        };
        let asked = |var: &str| std::env::var(var).is_ok_and(|v| v == "1");
        DeviceDiagnostics {
            enabled: Diagnostics {
                statistics: asked("VKALGO_PIPELINE_STATS")
                    && has(ash::khr::pipeline_executable_properties::NAME),
                shader_clock: asked("VKALGO_SORT_CLOCK") && has(ash::khr::shader_clock::NAME),
            },
            statistics: vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
                .pipeline_executable_info(true),
            clock: vk::PhysicalDeviceShaderClockFeaturesKHR::default().shader_subgroup_clock(true),
        }
    }

    /// Adds the enabled extensions to `exts` and their features to `create`.
    pub fn enable<'a>(
        &'a mut self,
        exts: &mut Vec<*const c_char>,
        mut create: vk::DeviceCreateInfo<'a>,
    ) -> vk::DeviceCreateInfo<'a> {
        if self.enabled.statistics {
            exts.push(ash::khr::pipeline_executable_properties::NAME.as_ptr());
            create = create.push_next(&mut self.statistics);
        }
        if self.enabled.shader_clock {
            exts.push(ash::khr::shader_clock::NAME.as_ptr());
            create = create.push_next(&mut self.clock);
        }
        create
    }
}

/// The driver's statistics of the pipelines a context created (`VKALGO_PIPELINE_STATS=1`).
#[derive(Default)]
pub(crate) struct PipelineStatistics {
    loader: Option<ash::khr::pipeline_executable_properties::Device>,
    collected: Mutex<Vec<String>>,
}

impl PipelineStatistics {
    /// The flags a pipeline is created with (statistics captured when collected).
    pub fn create_flags(&self) -> vk::PipelineCreateFlags {
        if self.loader.is_some() {
            vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
        } else {
            vk::PipelineCreateFlags::empty()
        }
    }

    /// Keeps the statistics of a pipeline just created: one line, headed by the shader's name,
    /// workgroup size and vectors per thread.
    pub unsafe fn collect(&self, pipeline: vk::Pipeline, name: &str, workgroup_size: u32, vecs: u32) {
        let Some(loader) = &self.loader else {
            return;
        };
        let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
        let count = loader
            .get_pipeline_executable_properties(&info)
            .map(|v| v.len())
            .unwrap_or(0);
        let mut text = format!("{name} wg{workgroup_size} x{vecs}:");
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
        if let Ok(mut collected) = self.collected.lock() {
            collected.push(text);
        }
    }
}

/// Turns on in a new context of vkalgo's own device the diagnostics its device was created with.
pub(crate) unsafe fn attach(ctx: &mut ContextState, instance: &ash::Instance, enabled: Diagnostics) {
    ctx.pipelines.shader_clock = enabled.shader_clock;
    if enabled.statistics {
        ctx.pipelines.statistics.loader = Some(ash::khr::pipeline_executable_properties::Device::new(
            instance,
            &ctx.device,
        ));
    }
}

impl Context {
    /// Driver statistics of the pipelines created so far (register counts, shared memory,
    /// ...), one line per pipeline; empty unless `VKALGO_PIPELINE_STATS=1` was set when a
    /// default context was created on a driver with VK_KHR_pipeline_executable_properties.
    #[doc(hidden)]
    pub fn pipeline_statistics(&self) -> Vec<String> {
        self.pipelines
            .statistics
            .collected
            .lock()
            .map(|c| c.clone())
            .unwrap_or_default()
    }
}
