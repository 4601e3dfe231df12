//! Vulkan handle types as the C header sees them (declared by `<vulkan/vulkan_core.h>`, so
//! cbindgen does not emit them) and the C structs shared by several algorithms.

use ash::vk;
use std::ffi::{c_char, c_void};

/// Dispatchable Vulkan handle (a pointer in C).
macro_rules! dispatchable {
    ($($name:ident => $ash:ty),*) => {$(
        #[doc = concat!("`", stringify!($name), "` from vulkan_core.h.")]
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(pub *mut c_void);
        impl $name {
            pub(crate) fn to_vk(self) -> $ash {
                <$ash as vk::Handle>::from_raw(self.0 as u64)
            }
        }
    )*};
}

/// Non-dispatchable Vulkan handle (64-bit).
macro_rules! non_dispatchable {
    ($($name:ident => $ash:ty),*) => {$(
        #[doc = concat!("`", stringify!($name), "` from vulkan_core.h.")]
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(pub u64);
        impl $name {
            pub(crate) fn to_vk(self) -> $ash {
                <$ash as vk::Handle>::from_raw(self.0)
            }
        }
    )*};
}

dispatchable!(VkInstance => vk::Instance, VkPhysicalDevice => vk::PhysicalDevice, VkDevice => vk::Device,
    VkQueue => vk::Queue, VkCommandBuffer => vk::CommandBuffer);
non_dispatchable!(VkBuffer => vk::Buffer, VkPipelineCache => vk::PipelineCache);

/// `VkDeviceSize` from vulkan_core.h.
pub type VkDeviceSize = u64;
/// `VkBufferUsageFlags` from vulkan_core.h.
pub type VkBufferUsageFlags = u32;
/// `PFN_vkGetInstanceProcAddr` from vulkan_core.h.
#[allow(non_camel_case_types)]
pub type PFN_vkGetInstanceProcAddr =
    Option<unsafe extern "system" fn(VkInstance, *const c_char) -> *const c_void>;

/// A range of a buffer created with `VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
/// VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT`; offset and size in bytes. A range that ends
/// past the buffer's memory requirements (the most Vulkan tells of its size) is refused with
/// VKALGO_ERROR_INVALID_ARGUMENT before anything is recorded; within them it must lie in the
/// buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoBufferRange {
    /// The buffer (VK_NULL_HANDLE: no range).
    pub buffer: VkBuffer,
    /// First byte of the range.
    pub offset: VkDeviceSize,
    /// Bytes in the range.
    pub size: VkDeviceSize,
}

impl VkalgoBufferRange {
    pub(crate) fn to_rust(self) -> vkalgo::BufferRange {
        vkalgo::BufferRange::new(self.buffer.to_vk(), self.offset, self.size)
    }

    /// The range, or `None` for an optional one left out (buffer VK_NULL_HANDLE).
    pub(crate) fn to_rust_optional(self) -> Option<vkalgo::BufferRange> {
        (self.buffer.0 != 0).then(|| self.to_rust())
    }
}

/// Scratch memory a plan needs from the caller.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMemoryRequirements {
    /// Bytes of scratch memory (0: none).
    pub scratch_size: VkDeviceSize,
    /// Required alignment of the scratch range's offset.
    pub scratch_alignment: VkDeviceSize,
    /// Usage flags the scratch buffer must have.
    pub scratch_usage: VkBufferUsageFlags,
}

impl From<vkalgo::MemoryRequirements> for VkalgoMemoryRequirements {
    fn from(r: vkalgo::MemoryRequirements) -> Self {
        VkalgoMemoryRequirements {
            scratch_size: r.scratch_size,
            scratch_alignment: r.scratch_alignment,
            scratch_usage: r.scratch_usage.as_raw(),
        }
    }
}

/// Key type: unsigned 32-bit integers (hash map and sort).
pub const VKALGO_KEY_U32: u32 = 0;
/// Key type: signed 32-bit integers (sort).
pub const VKALGO_KEY_I32: u32 = 1;
/// Key type: 32-bit floats (sort; IEEE-754 totalOrder).
pub const VKALGO_KEY_F32: u32 = 2;
/// Key type: unsigned 64-bit integers (hash map and sort).
pub const VKALGO_KEY_U64: u32 = 3;
/// Key type: signed 64-bit integers (sort).
pub const VKALGO_KEY_I64: u32 = 4;
/// Key type: 64-bit floats (sort; IEEE-754 totalOrder).
pub const VKALGO_KEY_F64: u32 = 5;
/// Value type: no values (sort of keys only).
pub const VKALGO_VALUE_NONE: u32 = 0;
/// Value type: 32-bit values.
pub const VKALGO_VALUE_U32: u32 = 1;
/// Value type: 64-bit values.
pub const VKALGO_VALUE_U64: u32 = 2;

/// Set operation: intersection (sorted-array set operations and bitmap sets).
pub const VKALGO_SET_AND: u32 = 0;
/// Set operation: union.
pub const VKALGO_SET_OR: u32 = 1;
/// Set operation: difference, a minus b.
pub const VKALGO_SET_ANDNOT: u32 = 2;
/// Set operation: symmetric difference.
pub const VKALGO_SET_XOR: u32 = 3;
