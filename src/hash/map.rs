//! The map object: its storage (one gpu-allocator buffer: counters, then the buckets), its
//! geometry, the kernel of each operation, and the record layer.

use super::apply::{apply_shared_shape, ApplySharedShape};
use super::geometry;
use super::table::{table_accessors, table_shader, Table, TableShape};
use super::{
    HashEraseArgs, HashFindArgs, HashInsertArgs, HashKeyType, HashMapDesc, HashMapDeviceView, HashRehashArgs,
    HashRetrieveArgs, HashSizeArgs, HashTuning, HashValueType,
};
use crate::core::buffer::{
    BufferRange, ElementCount, GpuBuffer, MemoryLocation, MemoryRequirements, ObjectStorage,
    STORAGE_ALIGNMENT,
};
use crate::core::pipelines::Specialization;
use crate::core::shaders::{self, HashOp, ShaderSource};
use crate::core::spirv::push_constants;
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;

/// The specialization constants of the hash map's kernels (glsl/hash/hash_common.glsl).
#[derive(Clone, Copy)]
pub(super) struct HashSpec {
    /// Invocations per workgroup (constant_id 0).
    workgroup_size: u32,
    /// Keys each invocation of insert, find and erase handles (KEYS_PER_INVOCATION,
    /// constant_id 1).
    keys_per_invocation: u32,
}

impl HashSpec {
    fn of(tuning: &HashTuning) -> Self {
        HashSpec {
            workgroup_size: tuning.workgroup_size,
            keys_per_invocation: tuning.keys_per_invocation,
        }
    }
}

impl From<HashSpec> for Specialization {
    fn from(spec: HashSpec) -> Self {
        Specialization {
            workgroup_size: spec.workgroup_size,
            id1: spec.keys_per_invocation,
            id2: 1,
            id5: 1,
            id6: 0,
            id8: 0,
        }
    }
}

impl From<ApplySharedShape> for Specialization {
    fn from(shape: ApplySharedShape) -> Self {
        Specialization {
            workgroup_size: shape.workgroup_size,
            id1: 1,
            id2: 1,
            id5: shape.keys_per_invocation,
            id6: shape.slots,
            id8: 0,
        }
    }
}

push_constants! {
    /// Push constants of every hash-map kernel (glsl/hash/hash_common.glsl, block `HashPush`).
    pub(crate) struct HashPush {
        buckets_addr: u64,
        header_addr: u64,
        keys_addr: u64,
        values_addr: u64,
        pub(super) flags_addr: u64,
        count_addr: u64,
        pub(super) failed_addr: u64,
        pub(super) count: u32,
        pub(super) max_count: u32,
        num_buckets: u32,
        max_probes: u32,
        pub(super) mode: u32,
        _pad0: u32,
    }
}

/// meta.comp modes.
const META_RESET_CURSOR: u32 = 0;
const META_WRITE_SIZE: u32 = 1;
const META_WRITE_CURSOR: u32 = 2;
const META_WRITE_HEADER: u32 = 3;

/// The map's kernels, indexing [`HashMap`]'s kernel list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op {
    Insert = 0,
    Migrate = 1,
    Find = 2,
    Erase = 3,
    Retrieve = 4,
    Apply = 5,
    Reclaim = 6,
}

/// The shader of each [`Op`] for a layout.
fn kernels(
    key: HashKeyType,
    value: HashValueType,
    bucket_bytes: u32,
    packed: bool,
) -> Result<[&'static ShaderSource; 7]> {
    let find = |op: HashOp, packed: bool| table_shader("hash map", op, key, value, bucket_bytes, packed);
    Ok([
        find(HashOp::Insert, packed)?,
        find(HashOp::Migrate, packed)?,
        find(HashOp::Find, false)?,
        find(HashOp::Erase, false)?,
        find(HashOp::Retrieve, false)?,
        find(HashOp::Apply, packed)?,
        find(HashOp::Reclaim, false)?,
    ])
}

/// The shared-memory insert-or-apply for a layout: u32 keys and values only.
fn apply_shared_kernel(
    key: HashKeyType,
    value: HashValueType,
    bucket_bytes: u32,
    packed: bool,
) -> Option<&'static ShaderSource> {
    if key != HashKeyType::U32 || value != HashValueType::U32 {
        return None;
    }
    table_shader("hash map", HashOp::ApplyShared, key, value, bucket_bytes, packed).ok()
}

/// A GPU hash map on a [`Context`]: owns its storage (through the context's gpu-allocator),
/// records its operations into your command buffers (`record_*`) and offers blocking host
/// calls (`insert`, `find`, ...). See the [`hash`](crate::hash) module for the scheme and the
/// guarantees.
///
/// Dropping the map frees its storage at once: work recorded with it must have finished.
pub struct HashMap {
    pub(super) ctx: Context,
    pub(super) table: Table,
    kernels: [&'static ShaderSource; 7],
    /// The shared-memory insert-or-apply (u32 keys and values only).
    apply_shared: Option<&'static ShaderSource>,
}

impl Context {
    /// Creates a hash map (see [`HashMap::new`]).
    pub fn hash_map(&self, desc: &HashMapDesc) -> Result<HashMap> {
        HashMap::new(self, desc)
    }
}

impl HashMap {
    /// Creates an empty map: allocates its storage (device-local) and clears it with a blocking
    /// submission on the context's queue. Errors: capacity 0 or over 2^31 slots
    /// ([`Error::InvalidArgument`]), storage larger than the device's largest allocation or
    /// memory exhausted ([`Error::OutOfMemory`]), u64 keys/values or a packed insert on a device
    /// without `shaderBufferInt64Atomics` ([`Error::Unsupported`]).
    pub fn new(ctx: &Context, desc: &HashMapDesc) -> Result<Self> {
        let map = Self::new_uninitialized(ctx, desc)?;
        // SAFETY: `cmd` is the runner's recording command buffer.
        let cleared = ctx.submit_and_wait(|cmd| unsafe { map.record_clear(cmd) });
        if let Err(Error::Timeout(m)) = cleared {
            map.table.storage.leak();
            return Err(Error::Timeout(m));
        }
        cleared?;
        Ok(map)
    }

    /// Like [`HashMap::new`] without the clear (no submission): record
    /// [`HashMap::record_clear`] (and a barrier) before any other operation.
    pub fn new_uninitialized(ctx: &Context, desc: &HashMapDesc) -> Result<Self> {
        let layout = MapLayout::new(ctx, desc)?;
        let storage = GpuBuffer::new(
            ctx,
            layout.shape.bytes,
            MemoryLocation::GpuOnly,
            "vkalgo hash map",
        )?;
        Ok(Self::with_storage(ctx, layout, ObjectStorage::own(storage)))
    }

    /// The memory a map of `desc` takes when it lives on the caller's memory
    /// ([`HashMap::new_in`]): size, alignment and buffer usage. Checks `desc` as
    /// [`HashMap::new`] does and creates the map's pipelines.
    pub fn memory_requirements(ctx: &Context, desc: &HashMapDesc) -> Result<MemoryRequirements> {
        let layout = MapLayout::new(ctx, desc)?;
        Ok(MemoryRequirements::storage(layout.shape.bytes, STORAGE_ALIGNMENT))
    }

    /// Creates an empty map on the caller's memory: `range` (at least
    /// [`HashMap::memory_requirements`] bytes, aligned as it says, of a buffer with its usage
    /// flags, device-local for speed) holds the whole map, and vkalgo allocates nothing. The
    /// map is cleared with a blocking submission on the context's queue.
    ///
    /// # Safety
    /// `range` must name a live buffer of this context's device with
    /// [`crate::BUFFER_USAGE`], bound to memory, that outlives the map, and that nothing else
    /// uses while the map lives.
    pub unsafe fn new_in(ctx: &Context, desc: &HashMapDesc, range: BufferRange) -> Result<Self> {
        let map = Self::new_uninitialized_in(ctx, desc, range)?;
        // SAFETY: `cmd` is the runner's recording command buffer.
        let cleared = ctx.submit_and_wait(|cmd| unsafe { map.record_clear(cmd) });
        cleared?;
        Ok(map)
    }

    /// Like [`HashMap::new_in`] without the clear (no submission, for engines that record
    /// everything): record [`HashMap::record_clear`] (and a barrier) before any other
    /// operation.
    ///
    /// # Safety
    /// As for [`HashMap::new_in`].
    pub unsafe fn new_uninitialized_in(
        ctx: &Context,
        desc: &HashMapDesc,
        range: BufferRange,
    ) -> Result<Self> {
        let layout = MapLayout::new(ctx, desc)?;
        let storage = ObjectStorage::caller(ctx, "hash map storage", range, layout.shape.bytes)?;
        Ok(Self::with_storage(ctx, layout, storage))
    }

    fn with_storage(ctx: &Context, layout: MapLayout, storage: ObjectStorage) -> Self {
        HashMap {
            ctx: ctx.clone(),
            table: Table {
                noun: "map",
                storage,
                shape: layout.shape,
            },
            kernels: layout.kernels,
            apply_shared: layout.apply_shared,
        }
    }

    /// Whether the map lives on memory the caller gave ([`HashMap::new_in`]).
    pub fn on_caller_memory(&self) -> bool {
        self.table.storage.is_callers()
    }

    table_accessors!("map");

    /// What a shader needs to look keys up (glsl/public/vkalgo_hash_map.glsl). Valid until the
    /// map is dropped or rehashed.
    pub fn device_view(&self) -> HashMapDeviceView {
        self.table.device_view()
    }

    pub(super) fn shader(&self, op: Op) -> &'static ShaderSource {
        self.kernels[op as usize]
    }

    /// The shared-memory insert-or-apply, where the layout has one (u32 keys and values).
    pub(super) fn apply_shared_shader(&self) -> Option<&'static ShaderSource> {
        self.apply_shared
    }

    fn items_per_invocation(&self, shader: &ShaderSource) -> u64 {
        let per_key = ["hash_insert", "hash_find", "hash_erase", "hash_apply"];
        if per_key.iter().any(|p| shader.name.starts_with(p)) {
            self.table.shape.tuning.keys_per_invocation as u64
        } else {
            1
        }
    }

    pub(super) fn base_push(&self) -> HashPush {
        HashPush {
            buckets_addr: self.table.buckets_address(),
            header_addr: self.table.header_address(),
            num_buckets: self.table.shape.num_buckets,
            max_probes: self.table.shape.max_probes,
            ..Default::default()
        }
    }

    pub(super) fn specialization(&self) -> HashSpec {
        HashSpec::of(&self.table.shape.tuning)
    }

    /// Dispatches `shader` over `items` work items (keys for insert/find/erase: several per
    /// invocation; buckets or a single item for the others: one per invocation).
    pub(super) fn run(
        &self,
        cmd: vk::CommandBuffer,
        shader: &ShaderSource,
        push: &HashPush,
        items: u64,
    ) -> Result<()> {
        let kernel = self.ctx.kernel(shader, self.specialization())?;
        let per_group = self.table.shape.tuning.workgroup_size as u64 * self.items_per_invocation(shader);
        let groups = items.div_ceil(per_group);
        // SAFETY: the caller's command buffer is recording (documented on every record call).
        unsafe { self.ctx.dispatch(cmd, kernel, push, groups as u32) };
        Ok(())
    }

    /// Records the shared-memory insert-or-apply `shader` over `items` keys on a grid of at most
    /// `max_groups` workgroups, each walking its share of the tiles (glsl/hash/apply_shared.comp).
    pub(super) fn run_apply_shared(
        &self,
        cmd: vk::CommandBuffer,
        shader: &ShaderSource,
        push: &HashPush,
        items: u64,
        shape: ApplySharedShape,
        max_groups: u32,
    ) -> Result<()> {
        let kernel = self.ctx.kernel(shader, shape)?;
        let per_group = shape.workgroup_size as u64 * shape.keys_per_invocation as u64;
        let groups = items.div_ceil(per_group).clamp(1, max_groups as u64);
        // SAFETY: the caller's command buffer is recording (documented on every record call).
        unsafe { self.ctx.dispatch(cmd, kernel, push, groups as u32) };
        Ok(())
    }

    /// Records emptying the map (size and tombstones 0): three `vkCmdFillBuffer` on the map's
    /// storage (TRANSFER writes), followed by a barrier to COMPUTE_SHADER. Order it after
    /// earlier operations on the map with [`HashMap::record_barrier`].
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_clear(&self, cmd: vk::CommandBuffer) -> Result<()> {
        check_cmd(cmd, "hash clear")?;
        // SAFETY: `cmd` is recording (documented).
        unsafe { self.table.record_fills(&self.ctx, cmd) };
        Ok(())
    }

    /// Records an insert of `args.count` keys with their values. Keys already in the map get
    /// the new value; keys that find no free slot within the probe bound and reserved keys are
    /// not stored (per-key status and failure counter report them). See the module docs for
    /// duplicates in one batch. Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_insert(&self, cmd: vk::CommandBuffer, args: &HashInsertArgs) -> Result<()> {
        match self.insert_push("hash insert", cmd, args)? {
            Some((push, n)) => self.run(cmd, self.shader(Op::Insert), &push, n),
            None => Ok(()),
        }
    }

    /// The checked push constants of an insert-like operation over `args` and its key count;
    /// `None` for zero keys (nothing to record).
    pub(super) fn insert_push(
        &self,
        what: &str,
        cmd: vk::CommandBuffer,
        args: &HashInsertArgs,
    ) -> Result<Option<(HashPush, u64)>> {
        check_cmd(cmd, what)?;
        let count = resolve_count(&self.ctx, what, args.count, args.max_count)?;
        let n = count.elements;
        let (kb, vb) = (
            self.table.shape.key_type.bytes(),
            self.table.shape.value_type.bytes(),
        );
        args.keys.check(&self.ctx, &format!("{what} keys"), n * kb, kb)?;
        args.values
            .check(&self.ctx, &format!("{what} values"), n * vb, vb)?;
        if let Some(status) = &args.status {
            status.check(&self.ctx, &format!("{what} status"), n * 4, 4)?;
        }
        if let Some(failed) = &args.failed_count {
            failed.check(&self.ctx, &format!("{what} failed_count"), 4, 4)?;
        }
        check_no_overlap(
            what,
            &[Some(args.keys), Some(args.values), count.range],
            &[args.status, args.failed_count],
        )?;
        if n == 0 {
            return Ok(None);
        }
        let push = HashPush {
            keys_addr: self.ctx.address_of(&args.keys),
            values_addr: self.ctx.address_of(&args.values),
            flags_addr: args.status.map_or(0, |r| self.ctx.address_of(&r)),
            failed_addr: args.failed_count.map_or(0, |r| self.ctx.address_of(&r)),
            count_addr: count.range.map_or(0, |r| self.ctx.address_of(&r)),
            count: count.direct,
            max_count: n as u32,
            ..self.base_push()
        };
        Ok(Some((push, n)))
    }

    /// Records a lookup of `args.count` keys: values (0 when absent) and/or found flags.
    /// With neither output it records nothing. Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_find(&self, cmd: vk::CommandBuffer, args: &HashFindArgs) -> Result<()> {
        check_cmd(cmd, "hash find")?;
        let count = resolve_count(&self.ctx, "hash find", args.count, args.max_count)?;
        let n = count.elements;
        let (kb, vb) = (
            self.table.shape.key_type.bytes(),
            self.table.shape.value_type.bytes(),
        );
        args.keys.check(&self.ctx, "hash find keys", n * kb, kb)?;
        if let Some(values) = &args.values {
            values.check(&self.ctx, "hash find values", n * vb, vb)?;
        }
        if let Some(found) = &args.found {
            found.check(&self.ctx, "hash find found flags", n * 4, 4)?;
        }
        check_no_overlap(
            "hash find",
            &[Some(args.keys), count.range],
            &[args.values, args.found],
        )?;
        if n == 0 || (args.values.is_none() && args.found.is_none()) {
            return Ok(());
        }
        let push = HashPush {
            keys_addr: self.ctx.address_of(&args.keys),
            values_addr: args.values.map_or(0, |r| self.ctx.address_of(&r)),
            flags_addr: args.found.map_or(0, |r| self.ctx.address_of(&r)),
            count_addr: count.range.map_or(0, |r| self.ctx.address_of(&r)),
            count: count.direct,
            max_count: n as u32,
            ..self.base_push()
        };
        self.run(cmd, self.shader(Op::Find), &push, n)
    }

    /// Records an erase of `args.count` keys (their slots become free for later inserts;
    /// absent and reserved keys are no error). It starts with the reclaim of tombstones (see
    /// the module docs): five more dispatches, which return at once unless earlier erases left
    /// tombstones in 1/32 of the slots since the last reclaim. Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_erase(&self, cmd: vk::CommandBuffer, args: &HashEraseArgs) -> Result<()> {
        check_cmd(cmd, "hash erase")?;
        let count = resolve_count(&self.ctx, "hash erase", args.count, args.max_count)?;
        let n = count.elements;
        let kb = self.table.shape.key_type.bytes();
        args.keys.check(&self.ctx, "hash erase keys", n * kb, kb)?;
        if let Some(erased) = &args.erased {
            erased.check(&self.ctx, "hash erase flags", n * 4, 4)?;
        }
        check_no_overlap("hash erase", &[Some(args.keys), count.range], &[args.erased])?;
        if n == 0 {
            return Ok(());
        }
        let push = HashPush {
            keys_addr: self.ctx.address_of(&args.keys),
            flags_addr: args.erased.map_or(0, |r| self.ctx.address_of(&r)),
            count_addr: count.range.map_or(0, |r| self.ctx.address_of(&r)),
            count: count.direct,
            max_count: n as u32,
            ..self.base_push()
        };
        self.ctx.kernel(self.shader(Op::Erase), self.specialization())?; // fail before recording
        self.record_reclaim(cmd)?;
        self.run(cmd, self.shader(Op::Erase), &push, n)
    }

    /// Records writing the map's size (live keys, a u32) to `args.out` (COMPUTE_SHADER write).
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_size(&self, cmd: vk::CommandBuffer, args: &HashSizeArgs) -> Result<()> {
        check_cmd(cmd, "hash size")?;
        args.out.check(&self.ctx, "hash size output", 4, 4)?;
        self.record_meta(cmd, META_WRITE_SIZE, self.ctx.address_of(&args.out))
    }

    /// Records writing the map's counters (size, tombstones, retrieve cursor, 0: four u32) to
    /// `dst` (16 bytes, 16-byte aligned device address).
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub(crate) unsafe fn record_header_copy(&self, cmd: vk::CommandBuffer, dst_address: u64) -> Result<()> {
        self.record_meta(cmd, META_WRITE_HEADER, dst_address)
    }

    fn record_meta(&self, cmd: vk::CommandBuffer, mode: u32, dst: u64) -> Result<()> {
        let push = HashPush {
            flags_addr: dst,
            mode,
            ..self.base_push()
        };
        self.run(cmd, &shaders::HASH_META, &push, 1)
    }

    /// Records compacting every live entry into `args.keys` / `args.values` (in no particular
    /// order; at most `args.capacity` written) and the number of live entries into
    /// `args.count_out`: three passes (reset the map's cursor, compact, write the count) with
    /// barriers between them. Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_retrieve_all(&self, cmd: vk::CommandBuffer, args: &HashRetrieveArgs) -> Result<()> {
        check_cmd(cmd, "hash retrieve_all")?;
        let capacity = args.capacity.min(self.capacity());
        let (kb, vb) = (
            self.table.shape.key_type.bytes(),
            self.table.shape.value_type.bytes(),
        );
        args.keys
            .check(&self.ctx, "hash retrieve_all keys", capacity * kb, kb)?;
        if let Some(values) = &args.values {
            values.check(&self.ctx, "hash retrieve_all values", capacity * vb, vb)?;
        }
        args.count_out
            .check(&self.ctx, "hash retrieve_all count_out", 4, 4)?;
        check_no_overlap(
            "hash retrieve_all",
            &[],
            &[Some(args.keys), args.values, Some(args.count_out)],
        )?;
        let push = HashPush {
            keys_addr: if capacity > 0 {
                self.ctx.address_of(&args.keys)
            } else {
                0
            },
            values_addr: match args.values {
                Some(r) if capacity > 0 => self.ctx.address_of(&r),
                _ => 0,
            },
            max_count: capacity as u32,
            ..self.base_push()
        };
        let retrieve = self
            .ctx
            .kernel(self.shader(Op::Retrieve), self.specialization())?;
        self.ctx.kernel(&shaders::HASH_META, self.specialization())?; // fail before recording
        self.record_meta(cmd, META_RESET_CURSOR, 0)?;
        let groups = (self.table.shape.num_buckets as u64)
            .div_ceil(self.table.shape.tuning.workgroup_size as u64) as u32;
        // SAFETY: `cmd` is recording (documented).
        unsafe {
            self.ctx.compute_to_compute(cmd);
            self.ctx.dispatch(cmd, retrieve, &push, groups);
            self.ctx.compute_to_compute(cmd);
        }
        self.record_meta(cmd, META_WRITE_CURSOR, self.ctx.address_of(&args.count_out))
    }

    /// Records moving every live entry of this map into `args.dst` (tombstones are dropped):
    /// the record-layer rehash. `dst` must have the same key and value types and be empty (new
    /// or cleared, with a barrier after the clear); then swap the two maps (`std::mem::swap`)
    /// and drop the old one once the GPU is done. Keys that find no slot in `dst` are not
    /// moved: their number is ADDED to the optional u32 `args.failed_count` (zero it first). Reads this
    /// map and writes `dst` in COMPUTE_SHADER. Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_rehash_into(&self, cmd: vk::CommandBuffer, args: &HashRehashArgs) -> Result<()> {
        let HashRehashArgs { dst, failed_count } = *args;
        let failed_count = failed_count.as_ref();
        check_cmd(cmd, "hash rehash")?;
        if dst.table.shape.key_type != self.table.shape.key_type
            || dst.table.shape.value_type != self.table.shape.value_type
        {
            return Err(Error::invalid(format!(
                "hash rehash: destination holds {:?}/{:?}, source {:?}/{:?}",
                dst.table.shape.key_type,
                dst.table.shape.value_type,
                self.table.shape.key_type,
                self.table.shape.value_type
            )));
        }
        if dst.table.storage.range().overlaps(&self.table.storage.range()) {
            return Err(Error::invalid(
                "hash rehash: the destination overlaps the source map",
            ));
        }
        if let Some(f) = failed_count {
            f.check(&self.ctx, "hash rehash failed_count", 4, 4)?;
        }
        let push = HashPush {
            keys_addr: self.table.buckets_address(),
            failed_addr: failed_count.map_or(0, |r| self.ctx.address_of(r)),
            count: self.table.shape.num_buckets,
            ..dst.base_push()
        };
        dst.run(
            cmd,
            dst.shader(Op::Migrate),
            &push,
            self.table.shape.num_buckets as u64,
        )
    }

    /// Leaks the storage (after a timed-out submission that may still use it: never free
    /// memory under the GPU).
    pub(super) fn leak(self) {
        self.table.storage.leak();
    }
}

/// A checked description: its table shape, kernels (with their pipelines created).
struct MapLayout {
    shape: TableShape,
    kernels: [&'static ShaderSource; 7],
    apply_shared: Option<&'static ShaderSource>,
}

impl MapLayout {
    fn new(ctx: &Context, desc: &HashMapDesc) -> Result<Self> {
        let shape = TableShape::checked(ctx, desc, "hash map")?;
        let (bucket_bytes, packed) = (shape.bucket_bytes, shape.packed);
        let kernels = kernels(desc.key_type, desc.value_type, bucket_bytes, packed)?;
        let apply_shared = apply_shared_kernel(desc.key_type, desc.value_type, bucket_bytes, packed);
        let spec = HashSpec::of(&shape.tuning);
        let mut list: Vec<_> = kernels.iter().map(|&k| (k, spec)).collect();
        list.push((&shaders::HASH_META, spec));
        ctx.prepare_kernels(&list)?;
        let apply_shape = apply_shared_shape(ctx.device_class());
        if let Some(shader) = apply_shared.filter(|_| apply_shape.fits(ctx.profile())) {
            ctx.prepare_kernels(&[(shader, apply_shape)])?;
        }
        Ok(MapLayout {
            shape,
            kernels,
            apply_shared,
        })
    }
}

pub(super) fn slot_bytes(key: HashKeyType, value: HashValueType) -> u64 {
    if key == HashKeyType::U32 && value == HashValueType::U32 {
        8
    } else {
        16
    }
}

pub(super) fn check_cmd(cmd: vk::CommandBuffer, what: &str) -> Result<()> {
    if cmd == vk::CommandBuffer::null() {
        return Err(Error::invalid(format!("{what}: the command buffer is null")));
    }
    Ok(())
}

/// A resolved element count: how many elements to size and dispatch for, the direct count for
/// the push constants, and the indirect count's range.
pub(super) struct Count {
    pub(super) elements: u64,
    pub(super) direct: u32,
    pub(super) range: Option<BufferRange>,
}

pub(super) fn resolve_count(ctx: &Context, what: &str, count: ElementCount, max_count: u64) -> Result<Count> {
    match count {
        ElementCount::Direct(n) => {
            check_batch(what, n)?;
            Ok(Count {
                elements: n,
                direct: n as u32,
                range: None,
            })
        }
        ElementCount::Indirect(range) => {
            range.check(ctx, &format!("{what} count buffer"), 4, 4)?;
            check_batch(what, max_count)?;
            Ok(Count {
                elements: max_count,
                direct: 0,
                range: Some(range),
            })
        }
    }
}

/// Refuses batches of more than [`geometry::MAX_BATCH`] keys.
pub(super) fn check_batch(what: &str, n: u64) -> Result<()> {
    if n > geometry::MAX_BATCH {
        return Err(Error::invalid(format!(
            "{what}: {n} keys exceed the largest batch, {} keys",
            geometry::MAX_BATCH
        )));
    }
    Ok(())
}

/// Outputs must not overlap each other or any input.
pub(super) fn check_no_overlap(
    what: &str,
    inputs: &[Option<BufferRange>],
    outputs: &[Option<BufferRange>],
) -> Result<()> {
    let outs: Vec<BufferRange> = outputs.iter().flatten().copied().collect();
    for (i, o) in outs.iter().enumerate() {
        let clash =
            inputs.iter().flatten().any(|r| r.overlaps(o)) || outs[i + 1..].iter().any(|r| r.overlaps(o));
        if clash {
            return Err(Error::invalid(format!(
                "{what}: an output range overlaps another input or output range"
            )));
        }
    }
    Ok(())
}

/// Every hash shader with its push-constant layout (checked against the SPIR-V by a test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    crate::core::shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("hash_"))
        .map(|&s| (s, HashPush::FIELDS, std::mem::size_of::<HashPush>()))
        .collect()
}
