//! What a map and a multimap share: the table a desc describes (its checks: device features,
//! the packed claim, the tuning, the bucket size, the capacity), the storage and geometry
//! behind both objects with their public accessors, and the host calls' common checks.

use super::geometry::{self, HEADER_BYTES};
use super::map::slot_bytes;
use super::{HashKey, HashKeyType, HashMapDesc, HashMapDeviceView, HashTuning, HashValue, HashValueType};
use crate::core::buffer::{GpuBuffer, ObjectStorage};
use crate::core::shaders::{self, HashBucketBytes, HashCas, HashOp, HashValueBits, KeyBits, ShaderSource};
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;

/// A checked desc: the table's types and geometry.
pub(super) struct TableShape {
    pub(super) key_type: HashKeyType,
    pub(super) value_type: HashValueType,
    pub(super) num_buckets: u32,
    /// Buckets an operation visits at most per key.
    pub(super) max_probes: u32,
    pub(super) bucket_slots: u32,
    pub(super) bucket_bytes: u32,
    pub(super) packed: bool,
    pub(super) tuning: HashTuning,
    /// Bytes of the storage: counters, then the buckets.
    pub(super) bytes: u64,
}

impl TableShape {
    /// Checks `desc` for the table of a `what` ("hash map", "hash multimap"): 64-bit atomics
    /// for u64 keys or values and for a packed claim, a workgroup size and keys per invocation
    /// in range, 32- or 64-byte buckets, a capacity of 1..=2^31 slots after rounding.
    pub(super) fn checked(ctx: &Context, desc: &HashMapDesc, what: &str) -> Result<Self> {
        let int64_atomics = ctx.profile.int64_atomics;
        let wide = desc.key_type == HashKeyType::U64 || desc.value_type == HashValueType::U64;
        if wide && !int64_atomics {
            return Err(Error::unsupported(format!(
                "{what} with {:?} keys and {:?} values needs shaderBufferInt64Atomics, which {} lacks",
                desc.key_type, desc.value_type, ctx.profile.device_name
            )));
        }
        let packed = match desc.packed_insert {
            _ if wide => false,
            None => int64_atomics,
            Some(true) if !int64_atomics => {
                return Err(Error::unsupported(format!(
                    "packed {what} insert needs shaderBufferInt64Atomics, which {} lacks",
                    ctx.profile.device_name
                )))
            }
            Some(p) => p,
        };
        let tuning = desc.tuning.unwrap_or_else(|| HashTuning::for_device(ctx));
        let wg = tuning.workgroup_size;
        if !wg.is_power_of_two() || wg < 32 || wg > ctx.profile.max_workgroup_invocations.min(1024) {
            return Err(Error::invalid(format!(
                "{what}: workgroup size {wg} is not a power of two in 32..=device limit"
            )));
        }
        if !(1..=8).contains(&tuning.keys_per_invocation) {
            return Err(Error::invalid(format!(
                "{what}: keys_per_invocation {} not in 1..=8",
                tuning.keys_per_invocation
            )));
        }
        let bucket_bytes = desc
            .bucket_bytes
            .unwrap_or_else(|| HashMapDesc::default_bucket_bytes(desc.key_type, desc.value_type));
        if bucket_bytes != 32 && bucket_bytes != 64 {
            return Err(Error::invalid(format!(
                "{what}: bucket_bytes {bucket_bytes} is neither 32 nor 64"
            )));
        }
        let bucket_slots = bucket_bytes as u64 / slot_bytes(desc.key_type, desc.value_type);
        let buckets = geometry::buckets_for_capacity(desc.capacity, bucket_slots).ok_or_else(|| {
            Error::invalid(format!(
                "{what} capacity {} is not in 1..={}",
                desc.capacity,
                geometry::MAX_SLOTS
            ))
        })?;
        Ok(TableShape {
            key_type: desc.key_type,
            value_type: desc.value_type,
            num_buckets: buckets as u32,
            max_probes: geometry::max_probes(buckets),
            bucket_slots: bucket_slots as u32,
            bucket_bytes,
            packed,
            tuning,
            bytes: HEADER_BYTES + buckets * bucket_bytes as u64,
        })
    }
}

/// The host calls' error when `failed` of `n` items (`items`: "keys", "pairs") found no free
/// slot within `max_probes` buckets of a table of `capacity` slots; `Ok` when none failed.
pub(crate) fn check_failed(
    what: &str,
    items: &str,
    failed: u32,
    n: u64,
    max_probes: u32,
    capacity: u64,
) -> Result<()> {
    if failed == 0 {
        return Ok(());
    }
    Err(Error::TableFull(format!(
        "{what}: {failed} of {n} {items} found no free slot within {max_probes} buckets and were \
         not stored (capacity {capacity}); the other {items} are stored"
    )))
}

/// The storage and geometry of a map or a multimap: what [`super::HashMap`] and
/// [`super::HashMultimap`] share (each embeds one as `table`).
pub(super) struct Table {
    /// "map" or "multimap", for messages.
    pub(super) noun: &'static str,
    pub(super) storage: ObjectStorage,
    pub(super) shape: TableShape,
}

impl Table {
    /// Slots: slots per bucket * buckets.
    pub(super) fn capacity(&self) -> u64 {
        self.shape.num_buckets as u64 * self.shape.bucket_slots as u64
    }

    /// Bytes per slot: 8 for u32/u32 tables, else 16.
    pub(super) fn slot_bytes(&self) -> u64 {
        slot_bytes(self.shape.key_type, self.shape.value_type)
    }

    /// Bytes per bucket (32 or 64).
    pub(super) fn bucket_bytes(&self) -> u32 {
        self.shape.bucket_slots * self.slot_bytes() as u32
    }

    /// Device address of the counters.
    pub(super) fn header_address(&self) -> u64 {
        self.storage.address()
    }

    /// Device address of the first bucket.
    pub(super) fn buckets_address(&self) -> u64 {
        self.storage.address() + HEADER_BYTES
    }

    /// What a shader needs to walk the table.
    pub(super) fn device_view(&self) -> HashMapDeviceView {
        HashMapDeviceView {
            buckets: self.buckets_address(),
            num_buckets: self.shape.num_buckets,
            max_probes: self.shape.max_probes,
            key_bits: self.shape.key_type.bytes() as u32 * 8,
            value_bits: self.shape.value_type.bytes() as u32 * 8,
            slot_bytes: self.slot_bytes() as u32,
            bucket_slots: self.shape.bucket_slots,
        }
    }

    /// Records the fills of a clear: counters 0, buckets all ones (EMPTY keys) (TRANSFER
    /// writes), then a barrier to COMPUTE_SHADER.
    ///
    /// # Safety
    /// `cmd` must be a recording command buffer of `ctx`'s device.
    pub(super) unsafe fn record_fills(&self, ctx: &Context, cmd: vk::CommandBuffer) {
        let d = &ctx.device;
        let (buffer, at) = (self.storage.buffer(), self.storage.offset());
        let bucket_bytes = self.shape.num_buckets as u64 * self.bucket_bytes() as u64;
        // SAFETY: `cmd` is recording (documented); the ranges lie inside the storage.
        unsafe {
            d.cmd_fill_buffer(cmd, buffer, at, HEADER_BYTES, 0);
            d.cmd_fill_buffer(cmd, buffer, at + HEADER_BYTES, bucket_bytes, u32::MAX);
            ctx.transfer_to_compute(cmd);
        }
    }

    /// Refuses key and value types other than the table's.
    pub(super) fn check_types<K: HashKey, V: HashValue>(&self, what: &str) -> Result<()> {
        if K::TYPE != self.shape.key_type || V::TYPE != self.shape.value_type {
            return Err(Error::invalid(format!(
                "{what}: the {} holds {:?} keys and {:?} values, the call passes {:?} and {:?}",
                self.noun,
                self.shape.key_type,
                self.shape.value_type,
                K::TYPE,
                V::TYPE
            )));
        }
        Ok(())
    }

    /// Refuses a key type other than the table's.
    pub(super) fn check_key_type<K: HashKey>(&self, what: &str) -> Result<()> {
        if K::TYPE != self.shape.key_type {
            return Err(Error::invalid(format!(
                "{what}: the {} holds {:?} keys, the call passes {:?}",
                self.noun,
                self.shape.key_type,
                K::TYPE
            )));
        }
        Ok(())
    }
}

/// Refuses a host batch over the maximum or holding a reserved key; `nothing` says what the
/// refusal left undone ("nothing was inserted").
pub(super) fn check_host_keys<K: HashKey>(what: &str, keys: &[K], nothing: &str) -> Result<()> {
    super::map::check_batch(what, keys.len() as u64)?;
    if let Some(i) = keys.iter().position(|k| k.is_reserved()) {
        return Err(Error::invalid(format!(
            "{what}: key {} (index {i}) is reserved (the two largest values of the key type \
             mark empty and erased slots); {nothing}",
            keys[i].to_u64()
        )));
    }
    Ok(())
}

/// A host insert's pairs: staged and in device-local buffers, the copies recorded by
/// [`UploadedPairs::record_copies`].
pub(super) struct UploadedPairs {
    up_keys: GpuBuffer,
    up_values: GpuBuffer,
    pub(super) keys: GpuBuffer,
    pub(super) values: GpuBuffer,
    key_bytes: u64,
    value_bytes: u64,
}

impl UploadedPairs {
    /// Stages `keys` and `values` and allocates their device copies (named after `label`).
    pub(super) fn new<K: HashKey, V: HashValue>(
        ctx: &Context,
        keys: &[K],
        values: &[V],
        label: &str,
    ) -> Result<Self> {
        let key_bytes = std::mem::size_of_val(keys) as u64;
        let value_bytes = std::mem::size_of_val(values) as u64;
        Ok(UploadedPairs {
            up_keys: ctx.staging_from(keys)?,
            up_values: ctx.staging_from(values)?,
            keys: ctx.device_buffer(key_bytes, &format!("vkalgo {label} keys"))?,
            values: ctx.device_buffer(value_bytes, &format!("vkalgo {label} values"))?,
            key_bytes,
            value_bytes,
        })
    }

    /// Records the copies of the staged pairs into the device buffers (TRANSFER writes).
    ///
    /// # Safety
    /// `cmd` must be a recording command buffer of `ctx`'s device.
    pub(super) unsafe fn record_copies(&self, ctx: &Context, cmd: vk::CommandBuffer) {
        // SAFETY: `cmd` is recording (documented); the buffers hold the bytes copied.
        unsafe {
            ctx.record_copy(cmd, &self.up_keys, &self.keys, self.key_bytes);
            ctx.record_copy(cmd, &self.up_values, &self.values, self.value_bytes);
        }
    }

    /// Leaks the buffers (after a timed-out submission that may still use them).
    pub(super) fn leak(self) {
        for buffer in [self.up_keys, self.up_values, self.keys, self.values] {
            buffer.leak();
        }
    }
}

/// The shader of `op` for a table of `key` and `value` types and `bucket_bytes` buckets
/// (`packed`: the claim with one 64-bit CAS of the pair); `what` names the object in the error.
pub(super) fn table_shader(
    what: &str,
    op: HashOp,
    key: HashKeyType,
    value: HashValueType,
    bucket_bytes: u32,
    packed: bool,
) -> Result<&'static ShaderSource> {
    let key_bits = if key.bytes() == 8 {
        KeyBits::K64
    } else {
        KeyBits::K32
    };
    let value_bits = if value.bytes() == 8 {
        HashValueBits::V64
    } else {
        HashValueBits::V32
    };
    let bucket = if bucket_bytes == 64 {
        HashBucketBytes::B64
    } else {
        HashBucketBytes::B32
    };
    let cas = if packed { HashCas::PackedPair } else { HashCas::Key };
    shaders::hash(op, key_bits, value_bits, cas, bucket).ok_or_else(|| {
        Error::Internal(format!(
            "{what}: no shader {op:?} for {key:?} keys, {value:?} values, {bucket:?}, {cas:?}"
        ))
    })
}

/// The public methods a map and a multimap share, written once: expanded inside `impl HashMap`
/// and `impl HashMultimap` (each has `ctx: Context` and `table: Table` fields); `$noun` names
/// the object in the docs. The C coverage test (crates/vkalgo-ffi/src/coverage.rs) reads the
/// `pub fn`s here for every impl that invokes it.
macro_rules! table_accessors {
    ($noun:literal) => {
        #[doc = concat!("The context the ", $noun, " lives on.")]
        pub fn context(&self) -> &crate::Context {
            &self.ctx
        }

        /// Key type.
        pub fn key_type(&self) -> crate::hash::HashKeyType {
            self.table.shape.key_type
        }

        /// Value type.
        pub fn value_type(&self) -> crate::hash::HashValueType {
            self.table.shape.value_type
        }

        #[doc = concat!("Slots of the ", $noun, " (the requested capacity rounded up: slots per ")]
        /// bucket * buckets): the most entries it can hold.
        pub fn capacity(&self) -> u64 {
            self.table.capacity()
        }

        /// Slots per bucket.
        pub fn bucket_slots(&self) -> u32 {
            self.table.shape.bucket_slots
        }

        /// Bytes per bucket (32 or 64).
        pub fn bucket_bytes(&self) -> u32 {
            self.table.bucket_bytes()
        }

        #[doc = concat!("Buckets of the ", $noun, " (a prime, or 2).")]
        pub fn num_buckets(&self) -> u32 {
            self.table.shape.num_buckets
        }

        /// Buckets an operation visits at most per key.
        pub fn max_probes(&self) -> u32 {
            self.table.shape.max_probes
        }

        /// Whether inserts claim slots with one 64-bit CAS of the `{key, value}` pair.
        pub fn packed_insert(&self) -> bool {
            self.table.shape.packed
        }

        /// The kernel tuning in use.
        pub fn tuning(&self) -> crate::hash::HashTuning {
            self.table.shape.tuning
        }

        #[doc = concat!("Bytes of device memory the ", $noun, " holds.")]
        pub fn memory_bytes(&self) -> u64 {
            self.table.storage.size()
        }

        #[doc = concat!("Bytes per slot: 8 for u32/u32 ", $noun, "s, else 16.")]
        pub fn slot_bytes(&self) -> u64 {
            self.table.slot_bytes()
        }

        #[doc = concat!("Records a barrier that orders ", $noun, " operations (and `record_clear`'s")]
        /// fills) with each other: COMPUTE_SHADER and TRANSFER writes before COMPUTE_SHADER and
        #[doc = concat!("TRANSFER reads and writes. Record it between two operations on a ", $noun, ".")]
        ///
        /// # Safety
        /// `cmd` must be a command buffer of this context's device in the recording state; every
        /// buffer range must name a live buffer of that device with the usage vkalgo asks for
        /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
        /// completed; the synchronization contract in the module docs must be met.
        pub unsafe fn record_barrier(&self, cmd: ash::vk::CommandBuffer) {
            use ash::vk::{AccessFlags, PipelineStageFlags};
            let stages = PipelineStageFlags::COMPUTE_SHADER | PipelineStageFlags::TRANSFER;
            let writes = AccessFlags::SHADER_WRITE | AccessFlags::TRANSFER_WRITE;
            let all = writes | AccessFlags::SHADER_READ | AccessFlags::TRANSFER_READ;
            // SAFETY: `cmd` is recording (documented).
            unsafe { self.ctx.memory_barrier(cmd, stages, writes, stages, all) };
        }
    };
}
pub(super) use table_accessors;
