//! The logical device of vkalgo's own context: its queue, the features it enables (the
//! required ones and the optional ones that help) and its device extensions.

use super::profile::{Capabilities, DeviceProfile};
use crate::error::{Result, VkResultExt};
use ash::vk;
use std::ffi::c_char;

/// A device made by [`create_logical_device`], with its queue and the diagnostics it enabled.
pub(super) struct LogicalDevice {
    pub device: ash::Device,
    /// Queue 0 of the chosen family.
    pub queue: vk::Queue,
    /// VK_KHR_pipeline_executable_properties is enabled (`VKALGO_PIPELINE_STATS=1`).
    pub statistics: bool,
    /// VK_KHR_shader_clock is enabled (`VKALGO_SORT_CLOCK=1`).
    pub shader_clock: bool,
}

/// Creates the device of `pd` with one queue of `queue_family_index`: the required features
/// plus the optional ones that help (as `profile` says which the device has), and the
/// extensions that `cap` and the diagnostics variables call for.
pub(super) unsafe fn create_logical_device(
    instance: &ash::Instance,
    pd: vk::PhysicalDevice,
    cap: &Capabilities,
    profile: &DeviceProfile,
    queue_family_index: u32,
) -> Result<LogicalDevice> {
    let priorities = [1.0f32];
    let queue_info = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(queue_family_index)
        .queue_priorities(&priorities)];
    // shaderFloat64 where the device has it: multisplit GLSL bucket functions of f64 keys.
    let float64 = instance.get_physical_device_features(pd).shader_float64 == vk::TRUE;
    let features = vk::PhysicalDeviceFeatures::default()
        .shader_int64(true)
        .shader_int16(profile.int16)
        .shader_float64(float64);
    let mut f12 = vk::PhysicalDeviceVulkan12Features::default()
        .buffer_device_address(true)
        .shader_buffer_int64_atomics(profile.int64_atomics);
    let mut f13 = vk::PhysicalDeviceVulkan13Features::default()
        .subgroup_size_control(profile.full_subgroups)
        .compute_full_subgroups(profile.full_subgroups);
    let mut f_size_control = vk::PhysicalDeviceSubgroupSizeControlFeatures::default()
        .subgroup_size_control(profile.full_subgroups)
        .compute_full_subgroups(profile.full_subgroups);
    let mut device_exts: Vec<*const c_char> = Vec::new();
    let mut create = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queue_info)
        .enabled_features(&features)
        .push_next(&mut f12);
    if cap.core13 {
        create = create.push_next(&mut f13);
    } else if profile.full_subgroups && cap.subgroup_size_control_ext {
        device_exts.push(ash::ext::subgroup_size_control::NAME.as_ptr());
        create = create.push_next(&mut f_size_control);
    }
    // Diagnostics: pipeline statistics from the driver, on request.
    let statistics = std::env::var("VKALGO_PIPELINE_STATS").is_ok_and(|v| v == "1")
        && instance
            .enumerate_device_extension_properties(pd)
            .unwrap_or_default()
            .iter()
            .any(|e| e.extension_name_as_c_str() == Ok(ash::khr::pipeline_executable_properties::NAME));
    let mut f_statistics =
        vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default().pipeline_executable_info(true);
    if statistics {
        device_exts.push(ash::khr::pipeline_executable_properties::NAME.as_ptr());
        create = create.push_next(&mut f_statistics);
    }
    let shader_clock = std::env::var("VKALGO_SORT_CLOCK").is_ok_and(|v| v == "1")
        && instance
            .enumerate_device_extension_properties(pd)
            .unwrap_or_default()
            .iter()
            .any(|e| e.extension_name_as_c_str() == Ok(ash::khr::shader_clock::NAME));
    let mut f_clock = vk::PhysicalDeviceShaderClockFeaturesKHR::default().shader_subgroup_clock(true);
    if shader_clock {
        device_exts.push(ash::khr::shader_clock::NAME.as_ptr());
        create = create.push_next(&mut f_clock);
    }
    // A portability implementation's device must be created with VK_KHR_portability_subset.
    let portability_subset = instance
        .enumerate_device_extension_properties(pd)
        .unwrap_or_default()
        .iter()
        .any(|e| e.extension_name_as_c_str() == Ok(ash::khr::portability_subset::NAME));
    if portability_subset {
        device_exts.push(ash::khr::portability_subset::NAME.as_ptr());
    }
    create = create.enabled_extension_names(&device_exts);
    let device = instance
        .create_device(pd, &create, None)
        .during("vkCreateDevice")?;
    let queue = device.get_device_queue(queue_family_index, 0);
    Ok(LogicalDevice {
        device,
        queue,
        statistics,
        shader_clock,
    })
}
