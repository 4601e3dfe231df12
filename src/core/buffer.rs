//! Buffers: the caller's `{VkBuffer, offset, size}` ranges of the record layer, and
//! [`GpuBuffer`], a buffer with its own memory for the host layer, tests and benchmarks.

use super::recycle::{size_class, Kept};
use crate::error::{Error, Result, VkResultExt};
use crate::Context;
use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
pub use gpu_allocator::MemoryLocation;
use std::sync::Arc;

/// A range of a caller's buffer. The buffer must have been created with
/// `SHADER_DEVICE_ADDRESS` and `STORAGE_BUFFER` usage; `offset` and `size` are in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct BufferRange {
    /// The buffer.
    pub buffer: vk::Buffer,
    /// Start of the range within the buffer, in bytes.
    pub offset: u64,
    /// Length of the range, in bytes.
    pub size: u64,
}

impl BufferRange {
    /// A range of `buffer`.
    pub fn new(buffer: vk::Buffer, offset: u64, size: u64) -> Self {
        BufferRange { buffer, offset, size }
    }

    /// `size` bytes from `at` bytes into this range (scratch carved into parts).
    pub fn part(&self, at: u64, size: u64) -> Self {
        BufferRange::new(self.buffer, self.offset + at, size)
    }

    /// Whether two ranges share any byte.
    pub fn overlaps(&self, other: &BufferRange) -> bool {
        self.buffer == other.buffer
            && self.size > 0
            && other.size > 0
            && self.offset < other.offset.saturating_add(other.size)
            && other.offset < self.offset.saturating_add(self.size)
    }

    /// Checks that the range is usable for `bytes` bytes at `align`-byte alignment and lies
    /// within its buffer as far as Vulkan can tell (the buffer's memory requirements bound its
    /// size: a range past them is refused before any GPU work could write there); `what`
    /// names it in the error.
    pub(crate) fn check(&self, ctx: &Context, what: &str, bytes: u64, align: u64) -> Result<()> {
        if self.buffer == vk::Buffer::null() {
            return Err(Error::invalid(format!("{what}: the buffer is VK_NULL_HANDLE")));
        }
        self.check_within_buffer(ctx, what)?;
        if self.offset % align != 0 {
            return Err(Error::invalid(format!(
                "{what}: offset {} is not a multiple of {align} bytes",
                self.offset
            )));
        }
        if self.offset.checked_add(self.size).is_none() {
            return Err(Error::invalid(format!("{what}: offset + size overflows")));
        }
        if bytes > self.size {
            return Err(Error::invalid(format!(
                "{what}: needs {bytes} bytes but the range holds {}",
                self.size
            )));
        }
        Ok(())
    }
}

impl BufferRange {
    /// Refuses a range that ends past its buffer as far as Vulkan can tell: the buffer's
    /// memory requirements bound its size (a range past them cannot be the caller's memory).
    pub(crate) fn check_within_buffer(&self, ctx: &Context, what: &str) -> Result<()> {
        let bound = unsafe { ctx.device.get_buffer_memory_requirements(self.buffer) }.size;
        if self.offset.checked_add(self.size).map_or(true, |end| end > bound) {
            return Err(Error::invalid(format!(
                "{what}: the range [{}, +{}) goes past its buffer (at most {bound} bytes by \
                 vkGetBufferMemoryRequirements)",
                self.offset, self.size
            )));
        }
        Ok(())
    }
}

impl Context {
    /// Device address of the start of `range` (the buffer needs SHADER_DEVICE_ADDRESS usage).
    pub(crate) fn address_of(&self, range: &BufferRange) -> u64 {
        let info = vk::BufferDeviceAddressInfo::default().buffer(range.buffer);
        unsafe { self.device.get_buffer_device_address(&info) + range.offset }
    }
}

/// Usage flags of every buffer vkalgo creates or asks the caller for (`INDIRECT_BUFFER`: the
/// segmented sort's scratch holds the dispatch sizes of its merge rounds).
pub const BUFFER_USAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::STORAGE_BUFFER.as_raw()
        | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS.as_raw()
        | vk::BufferUsageFlags::TRANSFER_SRC.as_raw()
        | vk::BufferUsageFlags::TRANSFER_DST.as_raw()
        | vk::BufferUsageFlags::INDIRECT_BUFFER.as_raw(),
);

/// A buffer with its own memory (from the context's allocator), usable as a [`BufferRange`].
/// Free it with [`GpuBuffer::destroy`] (or let it drop: it frees itself through its context,
/// which it keeps alive).
pub struct GpuBuffer {
    ctx: Context,
    buffer: vk::Buffer,
    allocation: Option<Allocation>,
    size: u64,
    address: u64,
    /// The size class and location it was made with where the context keeps it for reuse
    /// when it is freed ([`GpuBuffer::recycled`]).
    kept_as: Option<(u64, MemoryLocation)>,
}

/// Device-local buffers from this size up get a dedicated allocation.
const DEDICATED_BYTES: u64 = 32 << 20;

impl GpuBuffer {
    /// Creates a buffer of `size` bytes (at least 16) in `location`
    /// (`GpuOnly` for working buffers, `CpuToGpu`/`GpuToCpu` for staging).
    pub fn new(ctx: &Context, size: u64, location: MemoryLocation, name: &str) -> Result<Self> {
        let size = size.max(16);
        // Beyond maxMemoryAllocationSize an allocation may fail (Vulkan 1.1: it is not invalid
        // usage); NVIDIA's driver reports 4 GiB but grants far more. Such buffers get their own
        // allocation, and a refusal is reported as OutOfMemory naming the reported limit.
        let beyond_reported_max =
            ctx.profile.max_memory_allocation_size > 0 && size > ctx.profile.max_memory_allocation_size;
        let device = &ctx.device;
        let info = vk::BufferCreateInfo::default()
            .size(size)
            .usage(BUFFER_USAGE)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        let buffer = unsafe { device.create_buffer(&info, None) }.during("vkCreateBuffer")?;
        let requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
        let allocation = {
            let mut guard = ctx.allocator();
            let allocator = guard
                .as_mut()
                .ok_or_else(|| Error::Internal("allocator gone".into()))?;
            allocator.allocate(&AllocationCreateDesc {
                name,
                requirements,
                location,
                linear: true,
                // Large device-local buffers get their own VkDeviceMemory (as VMA does for big
                // resources): the driver can back them with large pages, and freeing them
                // returns the memory instead of leaving holes in a shared block.
                allocation_scheme: if (location == MemoryLocation::GpuOnly && size >= DEDICATED_BYTES)
                    || beyond_reported_max
                {
                    AllocationScheme::DedicatedBuffer(buffer)
                } else {
                    AllocationScheme::GpuAllocatorManaged
                },
            })
        };
        let allocation = match allocation {
            Ok(a) => a,
            Err(e) => {
                unsafe { device.destroy_buffer(buffer, None) };
                let e: Error = e.into();
                return Err(if beyond_reported_max {
                    Error::OutOfMemory(format!(
                        "{name}: {size} bytes (over the device's reported largest allocation of {} bytes) were refused: {e}",
                        ctx.profile.max_memory_allocation_size
                    ))
                } else {
                    e
                });
            }
        };
        if let Err(e) = unsafe { device.bind_buffer_memory(buffer, allocation.memory(), allocation.offset()) }
        {
            unsafe { device.destroy_buffer(buffer, None) };
            if let Some(a) = ctx.allocator().as_mut() {
                let _ = a.free(allocation);
            }
            return Err(Error::vk("vkBindBufferMemory", e));
        }
        let address = unsafe {
            device.get_buffer_device_address(&vk::BufferDeviceAddressInfo::default().buffer(buffer))
        };
        Ok(GpuBuffer {
            ctx: ctx.clone(),
            buffer,
            allocation: Some(allocation),
            size,
            address,
            kept_as: None,
        })
    }

    /// A buffer of `size` bytes that the context keeps when it is freed, and gives to the next
    /// such request of the same size class and location (src/core/recycle.rs): made with its
    /// class's size, which may exceed `size` by an eighth. Sizes the context does not keep get
    /// a buffer of their own, as [`GpuBuffer::new`] makes it.
    pub(crate) fn recycled(ctx: &Context, size: u64, location: MemoryLocation, name: &str) -> Result<Self> {
        let size = size.max(16);
        let Some(class) = size_class(size) else {
            return Self::new(ctx, size, location, name);
        };
        if let Some(k) = ctx.recycler().take(location, class) {
            return Ok(GpuBuffer {
                ctx: ctx.clone(),
                buffer: k.buffer,
                allocation: Some(k.allocation),
                size,
                address: k.address,
                kept_as: Some((class, location)),
            });
        }
        let mut b = Self::new(ctx, class, location, name)?;
        b.size = size;
        b.kept_as = Some((class, location));
        Ok(b)
    }

    /// The Vulkan buffer.
    pub fn buffer(&self) -> vk::Buffer {
        self.buffer
    }

    /// Size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Device address of byte 0.
    pub fn address(&self) -> u64 {
        self.address
    }

    /// The whole buffer as a range.
    pub fn range(&self) -> BufferRange {
        BufferRange::new(self.buffer, 0, self.size)
    }

    /// `len` bytes from `offset` as a range.
    pub fn sub_range(&self, offset: u64, len: u64) -> BufferRange {
        BufferRange::new(self.buffer, offset, len)
    }

    /// Host view of a host-visible buffer (`None` for device-local memory).
    pub fn mapped(&mut self) -> Option<&mut [u8]> {
        self.allocation.as_mut().and_then(|a| a.mapped_slice_mut())
    }

    /// Frees the buffer now.
    pub fn destroy(self) {}

    /// Leaks the buffer (after a timed-out submission that may still use it).
    pub(crate) fn leak(mut self) {
        if let Some(a) = self.allocation.take() {
            std::mem::forget(a);
        }
        self.buffer = vk::Buffer::null();
    }
}

impl Drop for GpuBuffer {
    fn drop(&mut self) {
        if self.ctx.is_lost() {
            // The GPU may still use it (a host call timed out): leave it allocated.
            return;
        }
        if let Some(a) = self.allocation.take() {
            if let (Some((class, location)), false) = (self.kept_as, self.buffer == vk::Buffer::null()) {
                let evicted = self.ctx.recycler().keep(Kept {
                    buffer: self.buffer,
                    allocation: a,
                    class,
                    location,
                    address: self.address,
                });
                self.ctx.free_kept(evicted);
                return;
            }
            if let Some(allocator) = self.ctx.allocator().as_mut() {
                let _ = allocator.free(a);
            }
        }
        if self.buffer != vk::Buffer::null() {
            unsafe { self.ctx.device.destroy_buffer(self.buffer, None) };
        }
    }
}

/// What one range the caller provides must be: its size, the alignment of its offset (and
/// device address), and the usage flags of its buffer. Size 0: the range is not needed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BufferRequirements {
    /// Bytes of the range (0: not needed).
    pub size: u64,
    /// Alignment of the range's offset and device address, in bytes.
    pub alignment: u64,
    /// Usage flags the buffer must have been created with.
    pub usage: vk::BufferUsageFlags,
}

impl BufferRequirements {
    /// A range of `size` bytes at `alignment` on a buffer with vkalgo's usage
    /// ([`BUFFER_USAGE`]).
    pub(crate) fn new(size: u64, alignment: u64) -> Self {
        BufferRequirements {
            size,
            alignment,
            usage: BUFFER_USAGE,
        }
    }
}

/// What a plan or an object needs of the caller's memory besides its inputs and outputs, one
/// named range each (the same struct for every algorithm; a range it does not use has size 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemoryRequirements {
    /// Scratch memory of a record call.
    pub scratch: BufferRequirements,
    /// Alternate keys (sorts): the result may end there.
    pub keys_alt: BufferRequirements,
    /// Alternate values (sorts with values).
    pub values_alt: BufferRequirements,
    /// The bucket offsets a multisplit writes (`bucket_count + 1` u32).
    pub offsets: BufferRequirements,
    /// The storage of an object created in the caller's memory (hash maps, sets).
    pub storage: BufferRequirements,
}

impl MemoryRequirements {
    /// Requirements of a plan that needs only scratch.
    pub(crate) fn scratch(size: u64, alignment: u64) -> Self {
        MemoryRequirements {
            scratch: BufferRequirements::new(size, alignment),
            ..Default::default()
        }
    }

    /// Requirements of an object's storage.
    pub(crate) fn storage(size: u64, alignment: u64) -> Self {
        MemoryRequirements {
            storage: BufferRequirements::new(size, alignment),
            ..Default::default()
        }
    }
}

/// An element count: a host integer, or a u32 in a GPU buffer written by earlier GPU work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementCount {
    /// The count, known on the host when recording.
    Direct(u64),
    /// A u32 at the start of this range, read by the GPU when the commands execute; counts
    /// above the plan's maximum are clamped to it.
    Indirect(BufferRange),
}

impl ElementCount {
    /// Checks the count against a plan's maximum `max` and returns (the direct count, if any;
    /// the element count to size buffers for: the count, or `max` for an indirect count).
    /// `what` names the count in errors ("sort: count", "merge: count of A").
    pub(crate) fn resolve(&self, ctx: &Context, what: &str, max: u64) -> Result<(Option<u64>, u64)> {
        match self {
            ElementCount::Direct(n) if *n > max => Err(Error::invalid(format!(
                "{what} {n} exceeds the plan's maximum {max}"
            ))),
            ElementCount::Direct(n) => Ok((Some(*n), *n)),
            ElementCount::Indirect(range) => {
                range.check(ctx, &format!("{what} buffer"), 4, 4)?;
                Ok((None, max))
            }
        }
    }
}

/// Alignment vkalgo asks of the caller's ranges that hold objects.
pub(crate) const STORAGE_ALIGNMENT: u64 = 256;

/// The storage of an object: vkalgo's own allocation, a part of an allocation vkalgo shares
/// between objects made together, or a range of the caller's buffer that vkalgo never frees.
pub(crate) struct ObjectStorage {
    range: BufferRange,
    address: u64,
    backing: Backing,
}

/// Who frees an [`ObjectStorage`]'s memory.
enum Backing {
    /// vkalgo's allocation for this object alone.
    Own(GpuBuffer),
    /// vkalgo's allocation shared with other objects: freed with the last of them.
    Shared(Arc<GpuBuffer>),
    /// The caller's memory.
    Caller,
}

impl ObjectStorage {
    /// vkalgo's allocation (freed with the storage).
    pub(crate) fn own(buffer: GpuBuffer) -> Self {
        ObjectStorage {
            range: buffer.range(),
            address: buffer.address(),
            backing: Backing::Own(buffer),
        }
    }

    /// `size` bytes from `offset` of vkalgo's allocation `buffer`, which other objects share
    /// (freed with the last of them).
    pub(crate) fn shared(buffer: &Arc<GpuBuffer>, offset: u64, size: u64) -> Self {
        debug_assert!(offset + size <= buffer.size());
        ObjectStorage {
            range: buffer.range().part(offset, size),
            address: buffer.address() + offset,
            backing: Backing::Shared(buffer.clone()),
        }
    }

    /// The caller's `range` for an object of `bytes` bytes (`what` names it in errors): a
    /// non-null buffer, at least `bytes` long, offset and device address
    /// [`STORAGE_ALIGNMENT`]-aligned. The storage is the first `bytes` of the range.
    pub(crate) fn caller(ctx: &Context, what: &str, range: BufferRange, bytes: u64) -> Result<Self> {
        if range.buffer == vk::Buffer::null() {
            return Err(Error::invalid(format!("{what}: the buffer is null")));
        }
        if range.size < bytes {
            return Err(Error::invalid(format!(
                "{what}: {} bytes given, it takes {bytes}",
                range.size
            )));
        }
        range.check_within_buffer(ctx, what)?;
        let address = ctx.address_of(&range);
        if range.offset % STORAGE_ALIGNMENT != 0 || address % STORAGE_ALIGNMENT != 0 {
            return Err(Error::invalid(format!(
                "{what}: offset {} is not {STORAGE_ALIGNMENT}-byte aligned",
                range.offset
            )));
        }
        Ok(ObjectStorage {
            range: range.part(0, bytes),
            address,
            backing: Backing::Caller,
        })
    }

    /// `size` bytes from `offset` of a storage on the caller's memory, as a storage of its own.
    pub(crate) fn caller_part(&self, offset: u64, size: u64) -> Self {
        debug_assert!(self.is_callers() && offset + size <= self.range.size);
        ObjectStorage {
            range: self.range.part(offset, size),
            address: self.address + offset,
            backing: Backing::Caller,
        }
    }

    pub(crate) fn buffer(&self) -> vk::Buffer {
        self.range.buffer
    }

    /// Offset of the storage within [`ObjectStorage::buffer`].
    pub(crate) fn offset(&self) -> u64 {
        self.range.offset
    }

    pub(crate) fn size(&self) -> u64 {
        self.range.size
    }

    /// Device address of the storage's first byte.
    pub(crate) fn address(&self) -> u64 {
        self.address
    }

    /// The storage as a buffer range.
    pub(crate) fn range(&self) -> BufferRange {
        self.range
    }

    /// Whether the storage is the caller's.
    pub(crate) fn is_callers(&self) -> bool {
        matches!(self.backing, Backing::Caller)
    }

    /// Never frees vkalgo's allocation (the GPU may still use it); the caller's is theirs.
    pub(crate) fn leak(self) {
        match self.backing {
            Backing::Own(b) => b.leak(),
            // The shared allocation is never freed: this reference is never dropped.
            Backing::Shared(b) => std::mem::forget(b),
            Backing::Caller => {}
        }
    }
}
