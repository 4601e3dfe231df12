//! The multimap object: its storage (one gpu-allocator buffer: counters, buckets, the overflow
//! counters the map's lookups read), its geometry and its kernels.

use super::push::{self, Kernels, MultimapPush};
use crate::core::buffer::{GpuBuffer, MemoryLocation, ObjectStorage};
use crate::core::shaders::ShaderSource;
use crate::error::{Error, Result};
use crate::hash::geometry::{self, HEADER_BYTES};
use crate::hash::map::slot_bytes;
use crate::hash::table::TableShape;
use crate::hash::{HashKeyType, HashMapDesc, HashMapDeviceView, HashTuning, HashValueType};
use crate::Context;
use ash::vk;

/// A GPU hash multimap on a [`Context`]: stores every inserted pair (duplicate keys and pairs
/// included), owns its storage (through the context's gpu-allocator), records its operations
/// into your command buffers (`record_*`) and offers blocking host calls (`insert`, `count`,
/// `retrieve`, ...). See [`crate::hash::multimap`] for the scheme and the guarantees.
///
/// Keeps its context alive (it holds a clone). Dropping the multimap frees its storage at
/// once: work recorded with it must have finished.
pub struct HashMultimap {
    pub(super) ctx: Context,
    storage: ObjectStorage,
    key_type: HashKeyType,
    value_type: HashValueType,
    num_buckets: u32,
    bucket_slots: u32,
    max_probes: u32,
    packed: bool,
    tuning: HashTuning,
    pub(super) kernels: Kernels,
    /// Host calls that change the pairs (insert, clear) share it; a host retrieve holds it
    /// alone across its two submissions, so that it counts and retrieves one state.
    pub(super) host_gate: std::sync::RwLock<()>,
}

impl Context {
    /// Creates a hash multimap (see [`HashMultimap::new`]).
    pub fn hash_multimap(&self, desc: &HashMapDesc) -> Result<HashMultimap> {
        HashMultimap::new(self, desc)
    }
}

impl HashMultimap {
    /// Creates an empty multimap of `desc` (the map's desc: key and value types, capacity in
    /// slots rounded up as for a map, packed insert, bucket bytes, tuning): allocates its
    /// storage (device-local) and clears it with a blocking submission on the context's queue.
    /// Errors: capacity 0 or over 2^31 slots, a bad bucket size or tuning
    /// ([`Error::InvalidArgument`]), storage larger than the device's largest allocation or
    /// memory exhausted ([`Error::OutOfMemory`]), u64 keys/values or a packed insert on a
    /// device without `shaderBufferInt64Atomics` ([`Error::Unsupported`]).
    pub fn new(ctx: &Context, desc: &HashMapDesc) -> Result<Self> {
        let layout = MultimapLayout::new(ctx, desc)?;
        let storage = GpuBuffer::new(ctx, layout.bytes, MemoryLocation::GpuOnly, "vkalgo hash multimap")?;
        let multimap = HashMultimap {
            ctx: ctx.clone(),
            storage: ObjectStorage::own(storage),
            key_type: desc.key_type,
            value_type: desc.value_type,
            num_buckets: layout.num_buckets,
            bucket_slots: layout.bucket_slots,
            max_probes: geometry::max_probes(layout.num_buckets as u64),
            packed: layout.packed,
            tuning: layout.tuning,
            kernels: layout.kernels,
            host_gate: std::sync::RwLock::new(()),
        };
        // SAFETY: `cmd` is the runner's recording command buffer.
        let cleared = ctx.submit_and_wait(|cmd| unsafe { multimap.record_clear(cmd) });
        if let Err(Error::Timeout(m)) = cleared {
            multimap.storage.leak();
            return Err(Error::Timeout(m));
        }
        cleared?;
        Ok(multimap)
    }

    /// The context the multimap lives on.
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// Key type.
    pub fn key_type(&self) -> HashKeyType {
        self.key_type
    }

    /// Value type.
    pub fn value_type(&self) -> HashValueType {
        self.value_type
    }

    /// Slots of the multimap (the requested capacity rounded up: slots per bucket * buckets):
    /// the most pairs it can hold.
    pub fn capacity(&self) -> u64 {
        self.num_buckets as u64 * self.bucket_slots as u64
    }

    /// Slots per bucket.
    pub fn bucket_slots(&self) -> u32 {
        self.bucket_slots
    }

    /// Bytes per bucket (32 or 64).
    pub fn bucket_bytes(&self) -> u32 {
        self.bucket_slots * self.slot_bytes() as u32
    }

    /// Buckets of the multimap (a prime, or 2).
    pub fn num_buckets(&self) -> u32 {
        self.num_buckets
    }

    /// Buckets an operation visits at most per key.
    pub fn max_probes(&self) -> u32 {
        self.max_probes
    }

    /// Whether inserts claim slots with one 64-bit CAS of the `{key, value}` pair.
    pub fn packed_insert(&self) -> bool {
        self.packed
    }

    /// The kernel tuning in use.
    pub fn tuning(&self) -> HashTuning {
        self.tuning
    }

    /// Bytes of device memory the multimap holds.
    pub fn memory_bytes(&self) -> u64 {
        self.storage.size()
    }

    /// Bytes per slot: 8 for u32/u32 multimaps, else 16.
    pub fn slot_bytes(&self) -> u64 {
        slot_bytes(self.key_type, self.value_type)
    }

    /// What a shader needs to count and walk keys (glsl/public/vkalgo_hash_map.glsl:
    /// `vkalgo_hash_multimap_count_*`, `vkalgo_hash_multimap_first_*` / `_next_*`; the map
    /// lookups work too). Valid until the multimap is dropped.
    pub fn device_view(&self) -> HashMapDeviceView {
        HashMapDeviceView {
            buckets: self.buckets_address(),
            num_buckets: self.num_buckets,
            max_probes: self.max_probes,
            key_bits: self.key_type.bytes() as u32 * 8,
            value_bits: self.value_type.bytes() as u32 * 8,
            slot_bytes: self.slot_bytes() as u32,
            bucket_slots: self.bucket_slots,
        }
    }

    pub(super) fn storage(&self) -> &ObjectStorage {
        &self.storage
    }

    pub(super) fn header_address(&self) -> u64 {
        self.storage.address()
    }

    fn buckets_address(&self) -> u64 {
        self.storage.address() + HEADER_BYTES
    }

    /// Push constants with the multimap's own fields set.
    pub(super) fn base_push(&self) -> MultimapPush {
        MultimapPush {
            buckets_addr: self.buckets_address(),
            header_addr: self.header_address(),
            num_buckets: self.num_buckets,
            max_probes: self.max_probes,
            ..Default::default()
        }
    }

    /// Dispatches a per-key kernel over `keys` keys (`keys_per_invocation` each), or the size
    /// kernel (`keys` = 1).
    pub(super) fn run(
        &self,
        cmd: vk::CommandBuffer,
        shader: &ShaderSource,
        push: &MultimapPush,
        keys: u64,
    ) -> Result<()> {
        let kernel = self.ctx.kernel(shader, push::specialization(&self.tuning))?;
        let per_group = self.tuning.workgroup_size as u64 * self.tuning.keys_per_invocation as u64;
        let groups = keys.div_ceil(per_group);
        // SAFETY: the caller's command buffer is recording (documented on every record call).
        unsafe { self.ctx.dispatch(cmd, kernel, push, groups as u32) };
        Ok(())
    }
}

/// Checks `desc` for a multimap and creates its pipelines, allocating nothing ([`crate::Context::warm_up`]).
pub(crate) fn prepare_kernels(ctx: &Context, desc: &HashMapDesc) -> Result<()> {
    MultimapLayout::new(ctx, desc).map(|_| ())
}

/// A checked description: geometry, kernels (with their pipelines created) and size.
struct MultimapLayout {
    num_buckets: u32,
    bucket_slots: u32,
    packed: bool,
    tuning: HashTuning,
    kernels: Kernels,
    bytes: u64,
}

impl MultimapLayout {
    /// The checks of a map's desc (src/hash/table.rs), for a multimap.
    fn new(ctx: &Context, desc: &HashMapDesc) -> Result<Self> {
        let TableShape {
            num_buckets,
            bucket_slots,
            bucket_bytes,
            packed,
            tuning,
            bytes,
        } = TableShape::checked(ctx, desc, "hash multimap")?;
        let kernels = Kernels::of(desc.key_type, desc.value_type, bucket_bytes, packed)?;
        let spec = push::specialization(&tuning);
        let list: Vec<_> = kernels.all().iter().map(|&k| (k, spec)).collect();
        ctx.prepare_kernels(&list)?;
        // The overflow counters are all ones (the map's lookups read them;
        // glsl/hash/multimap_common.glsl).
        Ok(MultimapLayout {
            num_buckets,
            bucket_slots,
            packed,
            tuning,
            kernels,
            bytes,
        })
    }
}
