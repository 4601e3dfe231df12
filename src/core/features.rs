//! The logical device of vkalgo's own context: its queue, the features it enables (the
//! required ones and the optional ones that help) and its device extensions.

use super::profile::{Capabilities, DeviceProfile};
use crate::error::{Result, VkResultExt};
use ash::vk;
use std::ffi::c_char;

/// A device made by [`create_logical_device`], with its queue (and the benchmark's
/// diagnostics it enabled).
pub(super) struct LogicalDevice {
    pub device: ash::Device,
    /// Queue 0 of the chosen family.
    pub queue: vk::Queue,
    #[cfg(feature = "bench")]
    pub diagnostics: crate::bench::Diagnostics,
}

/// Creates the device of `pd` with one queue of `queue_family_index`: the required features
/// plus the optional ones that help (as `profile` says which the device has), and the
/// extensions that `cap` (and with the `bench` feature, the diagnostics variables) call for.
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
    // shaderFloat64 where the device has it: sums of f64 keys, GLSL bucket functions of f64 keys.
    let features = vk::PhysicalDeviceFeatures::default()
        .shader_int64(true)
        .shader_int16(profile.int16)
        .shader_float64(profile.float64);
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
    // The benchmark's diagnostics (src/bench.rs), on request.
    #[cfg(feature = "bench")]
    let mut diagnostics = crate::bench::DeviceDiagnostics::requested(instance, pd);
    #[cfg(feature = "bench")]
    {
        create = diagnostics.enable(&mut device_exts, create);
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
        #[cfg(feature = "bench")]
        diagnostics: diagnostics.enabled,
    })
}

impl crate::Context {
    /// Whether shaders may use 64-bit floats: vkalgo's own device enables `shaderFloat64` where
    /// the device has it; an external context where the caller says it enabled it
    /// ([`crate::ExternalContextDesc::shader_float64`]). The pipelines with double arithmetic
    /// need it.
    pub(crate) fn supports_float64(&self) -> bool {
        self.profile.float64
    }
}
