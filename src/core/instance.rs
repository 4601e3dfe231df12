//! The Vulkan instance of vkalgo's own contexts: loader, layers and instance extensions.

use super::validation::VALIDATION_LAYER;
use crate::error::{Error, Result, VkResultExt};
use ash::vk;
use std::ffi::{c_char, CStr};
use std::sync::Mutex;

/// A Vulkan instance of vkalgo's own contexts, with its loader. Contexts without validation
/// share one, made by the first of them and kept for the rest of the process: later contexts
/// create their devices on it, and it is never destroyed, since NVIDIA's driver refuses new
/// instances after a few dozen made and destroyed in one process
/// (docs/driver-bugs.md#nvidia-instance-limit). A context with validation makes an instance of
/// its own (destroyed with it): a debug messenger belongs to an instance and hears every device
/// on it, so a shared one would mix contexts' messages.
#[derive(Clone)]
pub(super) struct VkalgoInstance {
    pub(super) entry: ash::Entry,
    pub(super) instance: ash::Instance,
    /// Whether VK_EXT_debug_utils is enabled on the instance.
    pub(super) debug_utils: bool,
}

/// The instance of the contexts without validation, once made ([`VkalgoInstance`]).
static SHARED_INSTANCE: Mutex<Option<VkalgoInstance>> = Mutex::new(None);

impl VkalgoInstance {
    /// The process's instance without validation, made on first use.
    pub(super) fn shared() -> Result<VkalgoInstance> {
        let mut made = SHARED_INSTANCE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(shared) = made.as_ref() {
            return Ok(shared.clone());
        }
        let shared = unsafe { Self::create(false, None) }?;
        *made = Some(shared.clone());
        Ok(shared)
    }

    /// A new instance, with the validation layer if `validation` (and `messenger` for the
    /// messages of its creation).
    pub(super) unsafe fn create(
        validation: bool,
        messenger: Option<&mut vk::DebugUtilsMessengerCreateInfoEXT<'_>>,
    ) -> Result<VkalgoInstance> {
        let entry = ash::Entry::load().map_err(|e| {
            Error::unsupported(format!(
                "the Vulkan loader (libvulkan.so.1, libvulkan.1.dylib or vulkan-1.dll) could not be loaded: {e}"
            ))
        })?;
        let layers = entry.enumerate_instance_layer_properties().unwrap_or_default();
        let instance_exts = entry
            .enumerate_instance_extension_properties(None)
            .unwrap_or_default();
        let has_instance_ext = |n: &CStr| instance_exts.iter().any(|e| e.extension_name_as_c_str() == Ok(n));
        let mut layer_names: Vec<*const c_char> = Vec::new();
        let mut ext_names: Vec<*const c_char> = Vec::new();
        if validation {
            if !layers
                .iter()
                .any(|l| l.layer_name_as_c_str() == Ok(VALIDATION_LAYER))
            {
                return Err(Error::unsupported(
                    "validation was requested (VKALGO_VALIDATION=1) but the layer VK_LAYER_KHRONOS_validation is not installed",
                ));
            }
            layer_names.push(VALIDATION_LAYER.as_ptr());
        }
        let debug_utils_available = has_instance_ext(ash::ext::debug_utils::NAME);
        if validation && !debug_utils_available {
            return Err(Error::unsupported(
                "validation needs VK_EXT_debug_utils, which the loader lacks",
            ));
        }
        if debug_utils_available {
            ext_names.push(ash::ext::debug_utils::NAME.as_ptr());
        }
        // Devices of portability implementations (MoltenVK) are listed only when asked for.
        let portability = has_instance_ext(ash::khr::portability_enumeration::NAME);
        if portability {
            ext_names.push(ash::khr::portability_enumeration::NAME.as_ptr());
        }
        let app = vk::ApplicationInfo::default()
            .application_name(c"vkalgo")
            .engine_name(c"vkalgo")
            .api_version(vk::API_VERSION_1_3);
        let enables = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
        let mut validation_features =
            vk::ValidationFeaturesEXT::default().enabled_validation_features(&enables);
        let mut create = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_layer_names(&layer_names)
            .enabled_extension_names(&ext_names);
        if portability {
            create = create.flags(vk::InstanceCreateFlags::ENUMERATE_PORTABILITY_KHR);
        }
        if validation {
            create = create.push_next(&mut validation_features);
            if let Some(messenger) = messenger {
                create = create.push_next(messenger);
            }
        }
        let instance = entry.create_instance(&create, None).during("vkCreateInstance")?;
        Ok(VkalgoInstance {
            entry,
            instance,
            debug_utils: debug_utils_available,
        })
    }
}
