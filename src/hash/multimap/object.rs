//! The multimap object: its storage (one gpu-allocator buffer: counters, buckets, the overflow
//! counters the map's lookups read), its geometry and its kernels.

use super::push::{self, Kernels, MultimapPush};
use crate::core::buffer::{GpuBuffer, MemoryLocation, ObjectStorage};
use crate::core::shaders::ShaderSource;
use crate::error::{Error, Result};
use crate::hash::table::{table_accessors, Table, TableShape};
use crate::hash::{HashMapDesc, HashMapDeviceView};
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
    pub(in crate::hash) table: Table,
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
        let bytes = layout.shape.bytes;
        let storage = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, "vkalgo hash multimap")?;
        let multimap = HashMultimap {
            ctx: ctx.clone(),
            table: Table {
                noun: "multimap",
                storage: ObjectStorage::own(storage),
                shape: layout.shape,
            },
            kernels: layout.kernels,
            host_gate: std::sync::RwLock::new(()),
        };
        // SAFETY: `cmd` is the runner's recording command buffer.
        let cleared = ctx.submit_and_wait(|cmd| unsafe { multimap.record_clear(cmd) });
        if let Err(Error::Timeout(m)) = cleared {
            multimap.table.storage.leak();
            return Err(Error::Timeout(m));
        }
        cleared?;
        Ok(multimap)
    }

    table_accessors!("multimap");

    /// What a shader needs to count and walk keys (glsl/public/vkalgo_hash_map.glsl:
    /// `vkalgo_hash_multimap_count_*`, `vkalgo_hash_multimap_first_*` / `_next_*`; the map
    /// lookups work too). Valid until the multimap is dropped.
    pub fn device_view(&self) -> HashMapDeviceView {
        self.table.device_view()
    }

    /// Push constants with the multimap's own fields set.
    pub(super) fn base_push(&self) -> MultimapPush {
        MultimapPush {
            buckets_addr: self.table.buckets_address(),
            header_addr: self.table.header_address(),
            num_buckets: self.table.shape.num_buckets,
            max_probes: self.table.shape.max_probes,
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
        let kernel = self
            .ctx
            .kernel(shader, push::specialization(&self.table.shape.tuning))?;
        let tuning = &self.table.shape.tuning;
        let per_group = tuning.workgroup_size as u64 * tuning.keys_per_invocation as u64;
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

/// A checked description: the table shape and the kernels (with their pipelines created).
struct MultimapLayout {
    shape: TableShape,
    kernels: Kernels,
}

impl MultimapLayout {
    /// The checks of a map's desc (src/hash/table.rs), for a multimap.
    fn new(ctx: &Context, desc: &HashMapDesc) -> Result<Self> {
        let shape = TableShape::checked(ctx, desc, "hash multimap")?;
        let kernels = Kernels::of(desc.key_type, desc.value_type, shape.bucket_bytes, shape.packed)?;
        let spec = push::specialization(&shape.tuning);
        let list: Vec<_> = kernels.all().iter().map(|&k| (k, spec)).collect();
        ctx.prepare_kernels(&list)?;
        Ok(MultimapLayout { shape, kernels })
    }
}
