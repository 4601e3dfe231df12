//! Which physical device vkalgo's own context uses: the `VKALGO_DEVICE` selector and the
//! preference order.

use super::profile::{query_capabilities, Capabilities};
use crate::error::{Error, Result, VkResultExt};
use ash::vk;

/// Which device the default context uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceSelector {
    /// The best device: discrete > integrated > virtual > CPU (ties: enumeration order).
    Best,
    /// The device at this index in the instance's enumeration order.
    Index(usize),
    /// The first device (in preference order) whose name contains this text, ignoring case.
    NameContains(String),
}

impl DeviceSelector {
    /// Parses the `VKALGO_DEVICE` syntax: an index, or a name substring.
    pub fn parse(text: &str) -> Self {
        let text = text.trim();
        if text.is_empty() {
            DeviceSelector::Best
        } else if let Ok(i) = text.parse() {
            DeviceSelector::Index(i)
        } else {
            DeviceSelector::NameContains(text.to_string())
        }
    }
}

/// The physical device `selector` picks on `instance`, with its capabilities; an error when
/// there is none, or when the picked one lacks what vkalgo needs.
pub(super) unsafe fn select_device(
    instance: &ash::Instance,
    selector: &DeviceSelector,
) -> Result<(vk::PhysicalDevice, Capabilities)> {
    let physical = instance
        .enumerate_physical_devices()
        .during("vkEnumeratePhysicalDevices")?;
    if physical.is_empty() {
        return Err(Error::unsupported("no Vulkan device found"));
    }
    let mut caps: Vec<_> = physical
        .iter()
        .map(|&pd| query_capabilities(instance, pd))
        .collect();
    let describe = |i: usize| format!("device {i} ({})", caps[i].profile.device_name);
    // Preference order: device type, then enumeration order.
    let mut order: Vec<usize> = (0..physical.len()).collect();
    order.sort_by_key(|&i| (caps[i].profile.device_type, i));
    let chosen = match selector {
        DeviceSelector::Best => order
            .iter()
            .copied()
            .find(|&i| caps[i].missing.is_empty())
            .ok_or_else(|| {
                let reasons: Vec<String> = order
                    .iter()
                    .map(|&i| format!("{} lacks {}", describe(i), caps[i].missing.join(", ")))
                    .collect();
                Error::unsupported(format!("no usable Vulkan device: {}", reasons.join("; ")))
            })?,
        DeviceSelector::Index(i) => {
            if *i >= physical.len() {
                return Err(Error::invalid(format!(
                    "VKALGO_DEVICE={i}: only {} device(s) present",
                    physical.len()
                )));
            }
            *i
        }
        DeviceSelector::NameContains(s) => {
            let needle = s.to_lowercase();
            order
                .iter()
                .copied()
                .find(|&i| caps[i].profile.device_name.to_lowercase().contains(&needle))
                .ok_or_else(|| Error::invalid(format!("VKALGO_DEVICE={s:?}: no device name contains it")))?
        }
    };
    let cap = &caps[chosen];
    if !cap.missing.is_empty() {
        return Err(Error::unsupported(format!(
            "{} lacks {}",
            describe(chosen),
            cap.missing.join(", ")
        )));
    }
    let pd = physical[chosen];
    Ok((pd, caps.swap_remove(chosen)))
}
