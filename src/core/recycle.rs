//! Buffers of the host calls kept after they are freed, for the next buffer of the same size
//! class and memory location: a host call that makes and frees its working, staging and
//! readback buffers (and the storage of sets it makes) every time reuses them instead of
//! allocating and freeing Vulkan memory each time (docs/tuning/core.md#buffer-recycling).
//! Only buffers the library makes for itself are kept, never one made by `GpuBuffer::new`.

use ash::vk;
use gpu_allocator::vulkan::Allocation;
use gpu_allocator::MemoryLocation;
use std::collections::VecDeque;

/// Smallest buffer kept: smaller ones are sub-allocated from blocks the allocator keeps.
const KEEP_MIN_BYTES: u64 = 64 << 10;
/// Largest buffer kept.
const KEEP_MAX_BYTES: u64 = 64 << 20;
/// Bytes kept at most, device-local and host-visible buffers together; the oldest go first.
const KEPT_BYTES_MAX: u64 = 256 << 20;

/// The size a kept buffer is made with for a request of `bytes`: rounded up to one of eight
/// sizes per power of two (at most 12.5% more), so that requests of nearly the same size
/// share buffers. `None` for sizes that are not kept.
pub(crate) fn size_class(bytes: u64) -> Option<u64> {
    if !(KEEP_MIN_BYTES..=KEEP_MAX_BYTES).contains(&bytes) {
        return None;
    }
    let step = (1u64 << (63 - bytes.leading_zeros())) / 8;
    Some(bytes.next_multiple_of(step))
}

/// A freed buffer kept for reuse, with its memory.
pub(crate) struct Kept {
    pub(crate) buffer: vk::Buffer,
    pub(crate) allocation: Allocation,
    pub(crate) class: u64,
    pub(crate) location: MemoryLocation,
    pub(crate) address: u64,
}

/// The kept buffers of a context, oldest first.
#[derive(Default)]
pub(crate) struct Recycler {
    kept: VecDeque<Kept>,
    bytes: u64,
}

impl Recycler {
    /// A kept buffer of size class `class` in `location`, taken out of the cache.
    pub(crate) fn take(&mut self, location: MemoryLocation, class: u64) -> Option<Kept> {
        let i = self
            .kept
            .iter()
            .rposition(|k| k.class == class && k.location == location)?;
        let k = self.kept.remove(i)?;
        self.bytes -= k.class;
        Some(k)
    }

    /// Keeps `k`; returns the buffers that no longer fit (the oldest), for the caller to free.
    pub(crate) fn keep(&mut self, k: Kept) -> Vec<Kept> {
        let mut evicted = Vec::new();
        while self.bytes + k.class > KEPT_BYTES_MAX {
            match self.kept.pop_front() {
                Some(old) => {
                    self.bytes -= old.class;
                    evicted.push(old);
                }
                None => break,
            }
        }
        self.bytes += k.class;
        self.kept.push_back(k);
        evicted
    }

    /// Every kept buffer, taken out (to free them).
    pub(crate) fn drain(&mut self) -> Vec<Kept> {
        self.bytes = 0;
        self.kept.drain(..).collect()
    }

    /// Bytes of memory the kept buffers' allocations hold.
    pub(crate) fn bytes(&self) -> u64 {
        self.kept.iter().map(|k| k.allocation.size()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::size_class;

    #[test]
    fn size_classes_round_up_by_at_most_an_eighth() {
        assert_eq!(size_class(1000), None);
        assert_eq!(size_class(65 << 20), None);
        assert_eq!(size_class(64 << 10), Some(64 << 10));
        assert_eq!(size_class((64 << 10) + 1), Some(72 << 10));
        assert_eq!(size_class(16 << 20), Some(16 << 20));
        for bytes in [(64u64 << 10) + 7, 100_000, 3 << 20, (64 << 20) - 1] {
            let class = size_class(bytes).unwrap();
            assert!(class >= bytes && class - bytes <= bytes / 8, "{bytes} -> {class}");
        }
    }
}
