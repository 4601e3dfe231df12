//! Khronos validation layer support: the messenger that counts (and logs) every message, so
//! tests can fail on any.

use ash::vk;
use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Name of the Khronos validation layer.
pub(crate) const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

/// Messages received from the validation layer.
#[derive(Default)]
pub(crate) struct ValidationState {
    pub count: AtomicU64,
    pub messages: Mutex<Vec<String>>,
}

impl ValidationState {
    pub fn record(&self, message: String) {
        self.count.fetch_add(1, Ordering::SeqCst);
        log::error!("vulkan validation: {message}");
        if let Ok(mut m) = self.messages.lock() {
            if m.len() < 64 {
                m.push(message);
            }
        }
    }
}

/// The debug-utils callback: counts warnings and errors of the validation layer.
pub(crate) unsafe extern "system" fn messenger_callback(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    if user.is_null() || data.is_null() {
        return vk::FALSE;
    }
    let state = &*(user as *const ValidationState);
    let text = if (*data).p_message.is_null() {
        String::from("(no message)")
    } else {
        CStr::from_ptr((*data).p_message).to_string_lossy().into_owned()
    };
    if severity.intersects(
        vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
    ) {
        state.record(text);
    } else {
        log::debug!("vulkan: {text}");
    }
    vk::FALSE
}
