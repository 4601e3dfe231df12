//! Buffers with their own dedicated device-local memory, so that one may be larger than what
//! the allocator hands out.

use ash::vk;
use vkalgo::{BufferRange, Context, BUFFER_USAGE};

/// A buffer bound to its own `vkAllocateMemory` allocation (device-local, device-address
/// capable), so it may be larger than what the allocator hands out.
pub struct RawBuffer {
    ctx: Context,
    pub buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: u64,
}

/// The device-local memory heaps: (index, bytes).
pub fn device_local_heaps(ctx: &Context) -> Vec<(u32, u64)> {
    let props = unsafe {
        ctx.instance()
            .get_physical_device_memory_properties(ctx.physical_device())
    };
    (0..props.memory_heap_count)
        .filter(|&h| {
            props.memory_heaps[h as usize]
                .flags
                .contains(vk::MemoryHeapFlags::DEVICE_LOCAL)
        })
        .map(|h| (h, props.memory_heaps[h as usize].size))
        .collect()
}

/// The device-local memory types among `type_bits`; host-visible ones last (resizable BAR
/// memory is precious).
fn device_local_types(ctx: &Context, type_bits: u32) -> Vec<u32> {
    let props = unsafe {
        ctx.instance()
            .get_physical_device_memory_properties(ctx.physical_device())
    };
    let flags = |t: u32| props.memory_types[t as usize].property_flags;
    let mut types: Vec<u32> = (0..props.memory_type_count)
        .filter(|&t| type_bits & (1 << t) != 0 && flags(t).contains(vk::MemoryPropertyFlags::DEVICE_LOCAL))
        .collect();
    types.sort_by_key(|&t| flags(t).contains(vk::MemoryPropertyFlags::HOST_VISIBLE));
    types
}

impl RawBuffer {
    /// A device-local buffer of `size` bytes; Err(message) when the device refuses it.
    pub fn new(ctx: &Context, size: u64, name: &str) -> std::result::Result<Self, String> {
        let device = ctx.device();
        let info = vk::BufferCreateInfo::default()
            .size(size.max(16))
            .usage(BUFFER_USAGE)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        let buffer = unsafe { device.create_buffer(&info, None) }
            .map_err(|e| format!("{name}: vkCreateBuffer({size} bytes) failed: {e:?}"))?;
        let requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
        let mut errors = Vec::new();
        for t in device_local_types(ctx, requirements.memory_type_bits) {
            let mut flags =
                vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
            let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().buffer(buffer);
            let alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(requirements.size)
                .memory_type_index(t)
                .push_next(&mut flags)
                .push_next(&mut dedicated);
            match unsafe { device.allocate_memory(&alloc, None) } {
                Ok(memory) => {
                    if let Err(e) = unsafe { device.bind_buffer_memory(buffer, memory, 0) } {
                        unsafe {
                            device.free_memory(memory, None);
                            device.destroy_buffer(buffer, None);
                        }
                        return Err(format!("{name}: vkBindBufferMemory failed: {e:?}"));
                    }
                    return Ok(RawBuffer {
                        ctx: ctx.clone(),
                        buffer,
                        memory,
                        size,
                    });
                }
                Err(e) => errors.push(format!("type {t}: {e:?}")),
            }
        }
        unsafe { device.destroy_buffer(buffer, None) };
        let why = if errors.is_empty() {
            "no device-local memory type".to_string()
        } else {
            errors.join(", ")
        };
        let limit = ctx.profile().max_memory_allocation_size;
        Err(format!(
            "{name}: the device refused {} bytes of device-local memory ({why}; maxMemoryAllocationSize {limit})",
            requirements.size,
        ))
    }

    /// `len` bytes from `offset`.
    pub fn range(&self, offset: u64, len: u64) -> BufferRange {
        assert!(offset + len <= self.size);
        BufferRange::new(self.buffer, offset, len)
    }
}

impl Drop for RawBuffer {
    fn drop(&mut self) {
        let device = self.ctx.device();
        unsafe {
            device.destroy_buffer(self.buffer, None);
            device.free_memory(self.memory, None);
        }
    }
}
