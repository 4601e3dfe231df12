//! The memory probe's raw buffers: each bound to its own allocation of a chosen memory type.

use ash::vk;
use vkalgo::{BufferRange, Context, Result, BUFFER_USAGE};

/// A buffer bound to its own `VkDeviceMemory` of a chosen memory type.
pub(super) struct RawBuffer<'a> {
    ctx: &'a Context,
    pub(super) buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: u64,
}

impl<'a> RawBuffer<'a> {
    pub(super) fn new(
        ctx: &'a Context,
        size: u64,
        type_index: u32,
        dedicated: bool,
        touch: bool,
    ) -> Result<Self> {
        let d = ctx.device();
        let info = vk::BufferCreateInfo::default().size(size).usage(BUFFER_USAGE);
        let buffer =
            unsafe { d.create_buffer(&info, None) }.map_err(|e| vkalgo::Error::vk("vkCreateBuffer", e))?;
        let req = unsafe { d.get_buffer_memory_requirements(buffer) };
        let mut flags = vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
        let mut ded = vk::MemoryDedicatedAllocateInfo::default().buffer(buffer);
        let mut alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(type_index)
            .push_next(&mut flags);
        if dedicated {
            alloc = alloc.push_next(&mut ded);
        }
        let memory = unsafe { d.allocate_memory(&alloc, None) }
            .map_err(|e| vkalgo::Error::vk("vkAllocateMemory", e))?;
        unsafe { d.bind_buffer_memory(buffer, memory, 0) }
            .map_err(|e| vkalgo::Error::vk("vkBindBufferMemory", e))?;
        if touch {
            let p = unsafe { d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()) }
                .map_err(|e| vkalgo::Error::vk("vkMapMemory", e))?;
            unsafe {
                std::ptr::write_bytes(p as *mut u8, 0x5a, size as usize);
                d.unmap_memory(memory);
            }
        }
        Ok(RawBuffer {
            ctx,
            buffer,
            memory,
            size,
        })
    }

    pub(super) fn range(&self) -> BufferRange {
        BufferRange::new(self.buffer, 0, self.size)
    }
}

impl Drop for RawBuffer<'_> {
    fn drop(&mut self) {
        unsafe {
            self.ctx.device().destroy_buffer(self.buffer, None);
            self.ctx.device().free_memory(self.memory, None);
        }
    }
}

/// The memory types the probe allocates from: device-local (not host-visible where there is
/// one), device-local and host-visible (resizable BAR), host-only.
pub(super) struct Types {
    pub(super) device_only: u32,
    pub(super) bar: Option<u32>,
    pub(super) host_only: Option<u32>,
}

/// Prints the device's memory types and picks the probe's.
pub(super) fn memory_types(ctx: &Context) -> Types {
    let props = unsafe {
        ctx.instance()
            .get_physical_device_memory_properties(ctx.physical_device())
    };
    let types = &props.memory_types[..props.memory_type_count as usize];
    for (i, t) in types.iter().enumerate() {
        println!(
            "memory type {i}: heap {} ({} MiB) {:?}",
            t.heap_index,
            props.memory_heaps[t.heap_index as usize].size >> 20,
            t.property_flags
        );
    }
    let find = |want: vk::MemoryPropertyFlags, avoid: vk::MemoryPropertyFlags| {
        types
            .iter()
            .position(|t| t.property_flags.contains(want) && !t.property_flags.intersects(avoid))
            .map(|i| i as u32)
    };
    let dl = vk::MemoryPropertyFlags::DEVICE_LOCAL;
    let hv = vk::MemoryPropertyFlags::HOST_VISIBLE;
    let device_only = find(dl, hv)
        .or(find(dl, vk::MemoryPropertyFlags::empty()))
        .expect("a device-local type");
    let bar = find(dl | hv, vk::MemoryPropertyFlags::empty());
    let host_only = find(hv, dl);
    println!("types: device-local {device_only}, device-local+host-visible {bar:?}, host-only {host_only:?}");
    Types {
        device_only,
        bar,
        host_only,
    }
}
