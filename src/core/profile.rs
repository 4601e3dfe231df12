//! The device profile: what vkalgo knows about the device it runs on, and the policies derived
//! from it (notably whether single-pass look-back algorithms may be used).

use ash::vk;
use std::ffi::CStr;

/// Kind of physical device, in the order the default context prefers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum DeviceType {
    /// A discrete GPU.
    Discrete,
    /// A GPU integrated with the CPU.
    Integrated,
    /// A virtualized GPU.
    Virtual,
    /// A CPU implementation (for example Mesa's lavapipe).
    Cpu,
    /// Anything else.
    Other,
}

impl DeviceType {
    pub(crate) fn from_vk(t: vk::PhysicalDeviceType) -> Self {
        match t {
            vk::PhysicalDeviceType::DISCRETE_GPU => DeviceType::Discrete,
            vk::PhysicalDeviceType::INTEGRATED_GPU => DeviceType::Integrated,
            vk::PhysicalDeviceType::VIRTUAL_GPU => DeviceType::Virtual,
            vk::PhysicalDeviceType::CPU => DeviceType::Cpu,
            _ => DeviceType::Other,
        }
    }
}

/// PCI vendor ids of vendors whose drivers keep workgroups that have started running (the
/// forward-progress behaviour single-pass look-back relies on for speed).
const VENDORS_WITH_FORWARD_PROGRESS: &[u32] = &[
    0x10DE, /* NVIDIA */
    0x1002, /* AMD */
    0x8086, /* Intel */
];

/// What vkalgo knows about a device: identity, limits, features it enabled, and policies.
#[derive(Debug, Clone)]
pub struct DeviceProfile {
    /// Device name as the driver reports it.
    pub device_name: String,
    /// Kind of device.
    pub device_type: DeviceType,
    /// PCI vendor id.
    pub vendor_id: u32,
    /// PCI device id.
    pub device_id: u32,
    /// Vulkan API version the device supports (`vk::make_api_version` encoding).
    pub api_version: u32,
    /// Driver name and version text (from VkPhysicalDeviceDriverProperties).
    pub driver: String,
    /// Default subgroup size.
    pub subgroup_size: u32,
    /// Smallest subgroup size the device may use for compute.
    pub min_subgroup_size: u32,
    /// Largest subgroup size the device may use for compute.
    pub max_subgroup_size: u32,
    /// Shared (workgroup) memory per workgroup, in bytes.
    pub max_shared_memory: u32,
    /// Largest workgroup.
    pub max_workgroup_invocations: u32,
    /// Largest dispatch per dimension.
    pub max_workgroup_count: [u32; 3],
    /// Largest storage-buffer range a descriptor may cover (vkalgo uses device addresses and is
    /// not bound by it).
    pub max_storage_buffer_range: u32,
    /// Largest single memory allocation, in bytes.
    pub max_memory_allocation_size: u64,
    /// Nanoseconds per timestamp tick.
    pub timestamp_period: f32,
    /// Whether the compute queue supports timestamps.
    pub timestamps: bool,
    /// 64-bit atomics on storage buffers (needed by the look-back status words).
    pub int64_atomics: bool,
    /// 16-bit integers in shaders (shaderInt16, enabled where the device has it): the sets'
    /// small array pairs keep their u16 lists as 16-bit shared-memory values.
    pub int16: bool,
    /// 64-bit floats in shaders (shaderFloat64, enabled where the device has it): sums of f64
    /// keys (reduce, scan) and GLSL bucket functions of f64 keys.
    pub float64: bool,
    /// Whether pipelines can require full subgroups (VK_EXT_subgroup_size_control / 1.3).
    pub full_subgroups: bool,
    /// Whether single-pass decoupled look-back algorithms are used by default. Chosen from the
    /// device (GPUs of vendors known to keep started workgroups running; never CPU drivers),
    /// then overridden by the caller's options, then by `VKALGO_LOOKBACK=on|off`.
    pub lookback: bool,
}

impl DeviceProfile {
    /// The default look-back policy for a device (before any override).
    pub fn default_lookback_policy(device_type: DeviceType, vendor_id: u32, int64_atomics: bool) -> bool {
        int64_atomics
            && matches!(device_type, DeviceType::Discrete | DeviceType::Integrated)
            && VENDORS_WITH_FORWARD_PROGRESS.contains(&vendor_id)
    }

    /// `major.minor.patch` of the device's API version.
    pub fn api_version_string(&self) -> String {
        format!(
            "{}.{}.{}",
            vk::api_version_major(self.api_version),
            vk::api_version_minor(self.api_version),
            vk::api_version_patch(self.api_version)
        )
    }
}

/// Device capabilities read from the physical device, with the reason it cannot be used (if any).
pub(crate) struct Capabilities {
    pub profile: DeviceProfile,
    pub missing: Vec<&'static str>,
    pub queue_family: Option<u32>,
    pub subgroup_size_control_ext: bool,
    pub core13: bool,
}

/// Reads everything vkalgo needs to know about `pd` and checks its required features.
pub(crate) unsafe fn query_capabilities(instance: &ash::Instance, pd: vk::PhysicalDevice) -> Capabilities {
    let props = instance.get_physical_device_properties(pd);
    let api = props.api_version;
    let mut driver = vk::PhysicalDeviceDriverProperties::default();
    let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
    let mut size_control = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
    let extensions = instance
        .enumerate_device_extension_properties(pd)
        .unwrap_or_default();
    let has_ext = |name: &CStr| extensions.iter().any(|e| e.extension_name_as_c_str() == Ok(name));
    let size_control_ext = has_ext(ash::ext::subgroup_size_control::NAME);
    let core13 = api >= vk::API_VERSION_1_3;
    {
        let mut props2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut driver)
            .push_next(&mut subgroup);
        if core13 || size_control_ext {
            props2 = props2.push_next(&mut size_control);
        }
        instance.get_physical_device_properties2(pd, &mut props2);
    }
    let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut f_size_control = vk::PhysicalDeviceSubgroupSizeControlFeatures::default();
    let features = {
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut f12);
        if core13 || size_control_ext {
            f2 = f2.push_next(&mut f_size_control);
        }
        instance.get_physical_device_features2(pd, &mut f2);
        f2.features
    };
    let mut missing = Vec::new();
    if api < vk::API_VERSION_1_2 {
        missing.push("Vulkan 1.2");
    }
    if f12.buffer_device_address == 0 {
        missing.push("bufferDeviceAddress");
    }
    if features.shader_int64 == 0 {
        missing.push("shaderInt64");
    }
    if !subgroup.supported_stages.contains(vk::ShaderStageFlags::COMPUTE) {
        missing.push("subgroup operations in compute shaders");
    }
    let ops = vk::SubgroupFeatureFlags::BASIC
        | vk::SubgroupFeatureFlags::ARITHMETIC
        | vk::SubgroupFeatureFlags::BALLOT
        | vk::SubgroupFeatureFlags::SHUFFLE
        | vk::SubgroupFeatureFlags::VOTE;
    if !subgroup.supported_operations.contains(ops) {
        missing.push("subgroup operations basic/vote/arithmetic/ballot/shuffle");
    }
    let families = instance.get_physical_device_queue_family_properties(pd);
    let queue_family = families
        .iter()
        .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
        .map(|i| i as u32);
    if queue_family.is_none() {
        missing.push("a compute queue");
    }
    let timestamps = queue_family.is_some_and(|q| families[q as usize].timestamp_valid_bits > 0);
    let full_subgroups = (core13 || size_control_ext) && f_size_control.compute_full_subgroups != 0;
    let (min_sg, max_sg) = if size_control.max_subgroup_size > 0 {
        (size_control.min_subgroup_size, size_control.max_subgroup_size)
    } else {
        (subgroup.subgroup_size, subgroup.subgroup_size)
    };
    let device_type = DeviceType::from_vk(props.device_type);
    let int64_atomics = f12.shader_buffer_int64_atomics != 0;
    let limits = props.limits;
    let profile = DeviceProfile {
        device_name: props
            .device_name_as_c_str()
            .unwrap_or(c"?")
            .to_string_lossy()
            .into_owned(),
        device_type,
        vendor_id: props.vendor_id,
        device_id: props.device_id,
        api_version: api,
        driver: format!(
            "{} {}",
            driver.driver_name_as_c_str().unwrap_or(c"").to_string_lossy(),
            driver.driver_info_as_c_str().unwrap_or(c"").to_string_lossy()
        )
        .trim()
        .to_string(),
        subgroup_size: subgroup.subgroup_size,
        min_subgroup_size: min_sg,
        max_subgroup_size: max_sg,
        max_shared_memory: limits.max_compute_shared_memory_size,
        max_workgroup_invocations: limits.max_compute_work_group_invocations,
        max_workgroup_count: limits.max_compute_work_group_count,
        max_storage_buffer_range: limits.max_storage_buffer_range,
        max_memory_allocation_size: max_allocation_size(instance, pd),
        timestamp_period: limits.timestamp_period,
        timestamps,
        int64_atomics,
        int16: features.shader_int16 != 0,
        float64: features.shader_float64 != 0,
        full_subgroups,
        lookback: DeviceProfile::default_lookback_policy(device_type, props.vendor_id, int64_atomics),
    };
    Capabilities {
        profile,
        missing,
        queue_family,
        subgroup_size_control_ext: size_control_ext,
        core13,
    }
}

unsafe fn max_allocation_size(instance: &ash::Instance, pd: vk::PhysicalDevice) -> u64 {
    let mut maintenance3 = vk::PhysicalDeviceMaintenance3Properties::default();
    let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut maintenance3);
    instance.get_physical_device_properties2(pd, &mut props2);
    maintenance3.max_memory_allocation_size
}

/// Parses an on/off environment variable (`on`/`off`, also `1`/`0`, `true`/`false`,
/// `yes`/`no`); unset or empty: `None`.
fn env_on_off(name: &str) -> crate::Result<Option<bool>> {
    parse_on_off(name, std::env::var(name).ok().as_deref())
}

/// The value of on/off variable `name` ([`env_on_off`]).
fn parse_on_off(name: &str, value: Option<&str>) -> crate::Result<Option<bool>> {
    match value.map(|v| v.to_ascii_lowercase()).as_deref() {
        None | Some("") => Ok(None),
        Some("on" | "1" | "true" | "yes") => Ok(Some(true)),
        Some("off" | "0" | "false" | "no") => Ok(Some(false)),
        Some(other) => Err(crate::Error::invalid(format!(
            "{name}={other:?}: expected on or off"
        ))),
    }
}

/// `VKALGO_SHADER_INT16=off` leaves shaderInt16 unused even where the device has it (the tests
/// run the 32-bit-word permutations this way on drivers that have it); unset or `on` allow it.
pub(crate) fn int16_allowed_by_env() -> crate::Result<bool> {
    Ok(env_on_off("VKALGO_SHADER_INT16")?.unwrap_or(true))
}

/// Parses `VKALGO_LOOKBACK` (see [`env_on_off`]).
pub(crate) fn lookback_from_env() -> crate::Result<Option<bool>> {
    env_on_off("VKALGO_LOOKBACK")
}

#[cfg(test)]
mod tests {
    use super::parse_on_off;

    #[test]
    fn on_off_values() {
        assert_eq!(parse_on_off("X", None).unwrap(), None);
        assert_eq!(parse_on_off("X", Some("")).unwrap(), None);
        for on in ["on", "ON", "1", "true", "yes"] {
            assert_eq!(parse_on_off("X", Some(on)).unwrap(), Some(true), "{on}");
        }
        for off in ["off", "Off", "0", "false", "no"] {
            assert_eq!(parse_on_off("X", Some(off)).unwrap(), Some(false), "{off}");
        }
        let err = parse_on_off("VKALGO_SHADER_INT16", Some("maybe"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("VKALGO_SHADER_INT16") && err.contains("on or off"),
            "{err}"
        );
    }
}
