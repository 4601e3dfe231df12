//! C ABI of the GPU hash map: create/destroy, blocking host calls, the record layer, and the
//! device view for lookups from the caller's shaders (glsl/public/vkalgo_hash_map.glsl).
//!
//! Keys and values are arrays of the map's key and value types (`uint32_t` or `uint64_t`,
//! naturally aligned). A map must be destroyed before its context.

use super::types::*;
use super::{
    byte_len, context_ref, guard, no_extension, non_null, try_filled, write_out, VkalgoContext, VkalgoResult,
};
use vkalgo::hash::{
    HashEraseArgs, HashFindArgs, HashInsertArgs, HashKeyType, HashMap, HashMapDesc, HashRetrieveArgs,
    HashValueType, InsertStatus,
};
use vkalgo::Context;
use vkalgo::Error;

/// A GPU hash map (owns its device memory). Keeps its context alive: destroy it before or after
/// the context handle. Host calls may come from several threads; `vkalgo_hash_map_rehash_host`
/// needs exclusive use of the map.
pub struct VkalgoHashMap {
    map: HashMap,
}

/// What hash map to create.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashMapDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// `VKALGO_KEY_U32` or `VKALGO_KEY_U64`. The two largest key values are reserved.
    pub key_type: VkalgoKeyType,
    /// `VKALGO_VALUE_U32` or `VKALGO_VALUE_U64`.
    pub value_type: VkalgoValueType,
    /// Slots wanted (> 0). The map rounds it up to s * p slots, s the slots per 32-byte bucket
    /// (4 for u32 keys and values, else 2) and p the smallest prime >= max(2, ceil(capacity /
    /// s)); `vkalgo_hash_map_capacity` returns the result. At most 2^31 slots after rounding
    /// (larger: INVALID_ARGUMENT); batches hold at most 2^32 - 1 keys.
    pub capacity: u64,
}

/// What a shader needs to look keys up in a map: `VkalgoHashMapView` of
/// `vkalgo/glsl/vkalgo_hash_map.glsl` (same 32-byte layout). Valid until the map is destroyed
/// or rehashed.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct VkalgoHashMapDeviceView {
    /// Device address of bucket 0.
    pub buckets: u64,
    /// Number of buckets (a prime, or 2).
    pub num_buckets: u32,
    /// Buckets a lookup visits at most.
    pub max_probes: u32,
    /// 32 or 64.
    pub key_bits: u32,
    /// 32 or 64.
    pub value_bits: u32,
    /// Bytes per slot: 8 (u32 keys and values) or 16.
    pub slot_bytes: u32,
    /// Slots per bucket.
    pub bucket_slots: u32,
}

/// The buffers of a recorded insert. Optional ranges: `buffer = VK_NULL_HANDLE` for none.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashInsertArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Keys (the map's key type).
    pub keys: VkalgoBufferRange,
    /// Values (the map's value type), one per key.
    pub values: VkalgoBufferRange,
    /// Number of keys when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a u32 at `count_buffer.offset`, read on the GPU, clamped to
    /// `max_count`. VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count (sizes the dispatch and the range checks).
    pub max_count: u64,
    /// Optional per-key u32 `VKALGO_HASH_STATUS_*` codes.
    pub status: VkalgoBufferRange,
    /// Optional u32 that the number of keys not stored (full or reserved) is ADDED to.
    pub failed_count: VkalgoBufferRange,
}

/// The buffers of a recorded find (or contains, without values).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashFindArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Keys to look up.
    pub keys: VkalgoBufferRange,
    /// Optional output values (0 for absent keys).
    pub values: VkalgoBufferRange,
    /// Optional output u32 flags: 1 found, 0 not.
    pub found: VkalgoBufferRange,
    /// Number of keys when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count (see `VkalgoHashInsertArgs`).
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count.
    pub max_count: u64,
}

/// The buffers of a recorded erase.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashEraseArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Keys to erase.
    pub keys: VkalgoBufferRange,
    /// Optional output u32 flags: 1 if this key erased an entry.
    pub erased: VkalgoBufferRange,
    /// Number of keys when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count (see `VkalgoHashInsertArgs`).
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count.
    pub max_count: u64,
}

/// The buffers of a recorded retrieve_all.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashRetrieveArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Output keys (room for `capacity`).
    pub keys: VkalgoBufferRange,
    /// Optional output values (room for `capacity`).
    pub values: VkalgoBufferRange,
    /// Entries the outputs can take.
    pub capacity: u64,
    /// A u32 receiving the number of live entries (may exceed `capacity`).
    pub count_out: VkalgoBufferRange,
}

/// The Rust desc of `d` (capacity 0 refused).
pub(crate) unsafe fn map_desc(d: *const VkalgoHashMapDesc) -> vkalgo::Result<HashMapDesc> {
    non_null(d, "desc")?;
    let d = &*d;
    no_extension(d.next, "hash map desc")?;
    let key_type = match d.key_type {
        VKALGO_KEY_U32 => HashKeyType::U32,
        VKALGO_KEY_U64 => HashKeyType::U64,
        other => {
            return Err(Error::invalid(format!(
                "hash map key type {}: expected VKALGO_KEY_U32 or VKALGO_KEY_U64",
                other.0
            )))
        }
    };
    let value_type = match d.value_type {
        VKALGO_VALUE_U32 => HashValueType::U32,
        VKALGO_VALUE_U64 => HashValueType::U64,
        other => {
            return Err(Error::invalid(format!(
                "hash map value type {}: expected VKALGO_VALUE_U32 or VKALGO_VALUE_U64",
                other.0
            )))
        }
    };
    if d.capacity == 0 {
        return Err(Error::invalid("hash map capacity 0"));
    }
    Ok(HashMapDesc::new(key_type, value_type, d.capacity))
}

pub(crate) unsafe fn map_ref<'a>(map: *const VkalgoHashMap) -> vkalgo::Result<&'a HashMap> {
    non_null(map, "map")?;
    Ok(&(*map).map)
}

unsafe fn map_mut<'a>(map: *mut VkalgoHashMap) -> vkalgo::Result<&'a mut HashMap> {
    non_null(map, "map")?;
    Ok(&mut (*map).map)
}

/// Runs `$body` with `$K`/`$V` bound to the map's key and value types.
macro_rules! with_types_of_map {
    ($map:expr, |$K:ident, $V:ident| $body:expr) => {
        match ($map.key_type(), $map.value_type()) {
            (HashKeyType::U32, HashValueType::U32) => {
                type $K = u32;
                type $V = u32;
                $body
            }
            (HashKeyType::U32, HashValueType::U64) => {
                type $K = u32;
                type $V = u64;
                $body
            }
            (HashKeyType::U64, HashValueType::U32) => {
                type $K = u64;
                type $V = u32;
                $body
            }
            (HashKeyType::U64, HashValueType::U64) => {
                type $K = u64;
                type $V = u64;
                $body
            }
            (k, v) => Err(Error::Internal(format!(
                "hash map with key type {k:?} and value type {v:?}"
            ))),
        }
    };
}

pub(crate) use with_types_of_map;

/// Runs `$body` with `$keys` and `$values` rebound to the `$count` host keys and values they
/// point at, typed by the object's key and value types (checked for NULL and alignment).
macro_rules! with_host_pairs {
    ($object:expr, $keys:ident, $values:ident, $count:expr, $body:expr) => {
        $crate::hash::with_types_of_map!($object, |K, V| {
            let $keys = $crate::hash::host_slice::<K>($keys, $count, "keys")?;
            let $values = $crate::hash::host_slice::<V>($values, $count, "values")?;
            $body
        })
    };
}

pub(crate) use with_host_pairs;

/// A C args struct of the hash room: it starts with the extension pointer `next`.
pub(crate) trait CArgs {
    /// The extension pointer (NULL: none is defined yet).
    fn next(&self) -> *const std::ffi::c_void;
}

/// Implements [`CArgs`] for args structs with a `next` field.
macro_rules! c_args {
    ($($args:ty),* $(,)?) => {
        $(impl crate::hash::CArgs for $args {
            fn next(&self) -> *const std::ffi::c_void {
                self.next
            }
        })*
    };
}

pub(crate) use c_args;

c_args!(
    VkalgoHashInsertArgs,
    VkalgoHashFindArgs,
    VkalgoHashEraseArgs,
    VkalgoHashRetrieveArgs,
    VkalgoHashRehashArgs,
    VkalgoHashSizeArgs,
);

/// The args at `args`, checked for NULL and for a `next` that is not NULL (`what` names them).
pub(crate) unsafe fn args_ref<'a, T: CArgs>(args: *const T, what: &str) -> vkalgo::Result<&'a T> {
    non_null(args, "args")?;
    let a = &*args;
    no_extension(a.next(), what)?;
    Ok(a)
}

/// The command buffer, refused when NULL (calls that record nothing but a barrier check it
/// themselves: Vulkan would not).
pub(crate) fn non_null_command_buffer(
    cmd: VkCommandBuffer,
) -> vkalgo::Result<vkalgo::ash::vk::CommandBuffer> {
    if cmd.0.is_null() {
        return Err(Error::invalid("the command buffer is NULL"));
    }
    Ok(cmd.to_vk())
}

impl VkalgoHashSizeArgs {
    /// The Rust args of a recorded size (of a map or a multimap).
    pub(crate) fn to_rust(self) -> vkalgo::hash::HashSizeArgs {
        vkalgo::hash::HashSizeArgs {
            out: self.out.to_rust(),
        }
    }
}

impl VkalgoHashInsertArgs {
    /// The Rust args of a recorded insert (or insert-or-apply).
    pub(crate) fn to_rust(self) -> HashInsertArgs {
        HashInsertArgs {
            keys: self.keys.to_rust(),
            values: self.values.to_rust(),
            count: element_count(self.count, self.count_buffer),
            max_count: self.max_count,
            status: self.status.to_rust_optional(),
            failed_count: self.failed_count.to_rust_optional(),
        }
    }
}

/// Refuses a batch of more than [`vkalgo::hash::MAX_BATCH`] keys before anything is allocated.
pub(crate) fn check_batch(count: usize) -> vkalgo::Result<()> {
    if count as u64 > vkalgo::hash::MAX_BATCH {
        return Err(Error::invalid(format!(
            "{count} keys in one batch: at most {}",
            vkalgo::hash::MAX_BATCH
        )));
    }
    Ok(())
}

/// A host array of `count` elements of T at `ptr` (checked for NULL, alignment and a size an
/// array can have).
pub(crate) unsafe fn host_slice<'a, T>(
    ptr: *const std::ffi::c_void,
    count: usize,
    what: &str,
) -> vkalgo::Result<&'a [T]> {
    non_null(ptr, what)?;
    byte_len(count, std::mem::size_of::<T>() as u64, what)?;
    if (ptr as usize) % std::mem::align_of::<T>() != 0 {
        return Err(Error::invalid(format!(
            "{what} is not aligned to {} bytes",
            std::mem::align_of::<T>()
        )));
    }
    Ok(std::slice::from_raw_parts(ptr as *const T, count))
}

pub(crate) unsafe fn host_slice_mut<'a, T>(
    ptr: *mut std::ffi::c_void,
    count: usize,
    what: &str,
) -> vkalgo::Result<&'a mut [T]> {
    host_slice::<T>(ptr, count, what)?;
    Ok(std::slice::from_raw_parts_mut(ptr as *mut T, count))
}

/// Creates an empty hash map on `ctx` (allocates and clears its storage; blocking). `*out` is
/// set only on success. Errors: unknown key/value type or capacity 0 (INVALID_ARGUMENT), u64
/// keys/values on a device without 64-bit buffer atomics (UNSUPPORTED), too large
/// (OUT_OF_MEMORY or INVALID_ARGUMENT).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoHashMapDesc,
    out: *mut *mut VkalgoHashMap,
) -> VkalgoResult {
    guard("vkalgo_hash_map_create", || {
        // SAFETY: the caller keeps the context alive until the map is destroyed (documented).
        let ctx: &'static Context = context_ref(ctx)?;
        let desc = map_desc(desc)?;
        non_null(out, "out")?;
        let map = HashMap::new(ctx, &desc)?;
        super::box_out(out, VkalgoHashMap { map })
    })
}

/// Flag of `vkalgo_hash_map_create_in`: do not clear the map (no submission); record
/// `vkalgo_hash_map_record_clear` and a barrier before any other operation on it.
pub const VKALGO_HASH_MAP_UNINITIALIZED: u32 = 1;

/// The memory a map of `desc` takes on the caller's memory (`storage`, for
/// `vkalgo_hash_map_create_in`).
/// Checks `desc` as `vkalgo_hash_map_create` does and creates the map's pipelines.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_memory_requirements(
    ctx: *const VkalgoContext,
    desc: *const VkalgoHashMapDesc,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_hash_map_memory_requirements", || {
        let ctx = context_ref(ctx)?;
        let desc = map_desc(desc)?;
        write_requirements(out, HashMap::memory_requirements(ctx, &desc)?)
    })
}

/// Creates an empty hash map on the caller's memory: `*range` (at least the `storage` size of
/// `vkalgo_hash_map_memory_requirements`, aligned as it says, on a buffer with its usage
/// flags; the buffer must outlive the map and serve nothing else meanwhile). vkalgo allocates
/// nothing. The map is cleared with a blocking submission, unless `flags` has
/// `VKALGO_HASH_MAP_UNINITIALIZED`. `vkalgo_hash_map_rehash_host` refuses such a map. `*out`
/// is set only on success.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_create_in(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoHashMapDesc,
    range: *const VkalgoBufferRange,
    flags: u32,
    out: *mut *mut VkalgoHashMap,
) -> VkalgoResult {
    guard("vkalgo_hash_map_create_in", || {
        let ctx = context_ref(ctx)?;
        let desc = map_desc(desc)?;
        non_null(range, "range")?;
        non_null(out, "out")?;
        if flags & !VKALGO_HASH_MAP_UNINITIALIZED != 0 {
            return Err(Error::invalid(format!("unknown flags 0x{flags:x}")));
        }
        let range = (*range).to_rust();
        let map = if flags & VKALGO_HASH_MAP_UNINITIALIZED != 0 {
            HashMap::new_uninitialized_in(ctx, &desc, range)?
        } else {
            HashMap::new_in(ctx, &desc, range)?
        };
        super::box_out(out, VkalgoHashMap { map })
    })
}

/// Destroys a map and frees its memory (NULL: no-op). Work recorded with it must have finished.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_destroy(map: *mut VkalgoHashMap) {
    super::destroy_boxed(map);
}

/// Inserts `count` keys with their values (blocking). A present key gets the new value; of
/// duplicate keys in one call one value is stored, unspecified which. A reserved key (the
/// two largest values of the key type) refuses the whole call with INVALID_ARGUMENT before
/// anything changes. Keys that find no free slot are not stored: VKALGO_ERROR_TABLE_FULL,
/// with every other key stored and the size exact.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_insert_host(
    map: *mut VkalgoHashMap,
    keys: *const std::ffi::c_void,
    values: *const std::ffi::c_void,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_hash_map_insert_host", || {
        let map = map_ref(map)?;
        if count == 0 {
            return Ok(());
        }
        with_host_pairs!(map, keys, values, count, map.insert(keys, values))
    })
}

/// `vkalgo_hash_map_insert_host` that also writes each key's `VKALGO_HASH_STATUS_*` code to
/// `status_out` (`count` u32; written also when the result is VKALGO_ERROR_TABLE_FULL).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_insert_status_host(
    map: *mut VkalgoHashMap,
    keys: *const std::ffi::c_void,
    values: *const std::ffi::c_void,
    status_out: *mut u32,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_hash_map_insert_status_host", || {
        let map = map_ref(map)?;
        if count == 0 {
            return Ok(());
        }
        check_batch(count)?;
        non_null(status_out, "status_out")?;
        let mut status = try_filled(InsertStatus::Full, count, "status")?;
        let result = with_types_of_map!(map, |K, V| {
            let keys = host_slice::<K>(keys, count, "keys")?;
            let values = host_slice::<V>(values, count, "values")?;
            map.insert_with_status(keys, values, &mut status)
        });
        if matches!(result, Ok(()) | Err(Error::TableFull(_))) {
            for (i, s) in status.iter().enumerate() {
                *status_out.add(i) = *s as u32;
            }
        }
        result
    })
}

/// Looks up `count` keys (blocking): `values_out[i]` gets the value (0 when absent) and, if
/// `found_out` is not NULL, `found_out[i]` 1 (found) or 0. On error the outputs are unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_find_host(
    map: *mut VkalgoHashMap,
    keys: *const std::ffi::c_void,
    values_out: *mut std::ffi::c_void,
    found_out: *mut u8,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_hash_map_find_host", || {
        let map = map_ref(map)?;
        if count == 0 {
            return Ok(());
        }
        check_batch(count)?;
        with_types_of_map!(map, |K, V| {
            let keys = host_slice::<K>(keys, count, "keys")?;
            let out = host_slice_mut::<V>(values_out, count, "values_out")?;
            let mut values = try_filled(0 as V, count, "values")?;
            let mut found = try_filled(false, count, "found")?;
            map.find(keys, &mut values, Some(&mut found))?;
            out.copy_from_slice(&values);
            if !found_out.is_null() {
                for (i, f) in found.iter().enumerate() {
                    *found_out.add(i) = *f as u8;
                }
            }
            Ok(())
        })
    })
}

/// Whether each of `count` keys is in the map (blocking): `found_out[i]` 1 or 0.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_contains_host(
    map: *mut VkalgoHashMap,
    keys: *const std::ffi::c_void,
    found_out: *mut u8,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_hash_map_contains_host", || {
        let map = map_ref(map)?;
        if count == 0 {
            return Ok(());
        }
        check_batch(count)?;
        non_null(found_out, "found_out")?;
        let mut found = try_filled(false, count, "found")?;
        with_types_of_map!(map, |K, V| {
            let _ = std::marker::PhantomData::<V>;
            let keys = host_slice::<K>(keys, count, "keys")?;
            map.contains(keys, &mut found)
        })?;
        for (i, f) in found.iter().enumerate() {
            *found_out.add(i) = *f as u8;
        }
        Ok(())
    })
}

/// Erases `count` keys (blocking; their slots are reused by later inserts). Absent and reserved
/// keys are no error. Once erases left tombstones in 1/32 of the slots, the next erase first
/// reclaims them in place (keys moved back, tombstones no key needs emptied).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_erase_host(
    map: *mut VkalgoHashMap,
    keys: *const std::ffi::c_void,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_hash_map_erase_host", || {
        let map = map_ref(map)?;
        if count == 0 {
            return Ok(());
        }
        with_types_of_map!(map, |K, V| {
            let _ = std::marker::PhantomData::<V>;
            let keys = host_slice::<K>(keys, count, "keys")?;
            map.erase(keys).map(|_| ())
        })
    })
}

/// The exact number of live keys (blocking).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_size_host(map: *const VkalgoHashMap, out: *mut u64) -> VkalgoResult {
    guard("vkalgo_hash_map_size_host", || {
        let map = map_ref(map)?;
        non_null(out, "out")?;
        *out = map.size()?;
        Ok(())
    })
}

/// A map's counts (`vkalgo_hash_map_stats_host`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashMapStats {
    /// Reserved for extension structs: set it to NULL.
    pub next: *mut std::ffi::c_void,
    /// Live keys.
    pub size: u64,
    /// Tombstones: erased slots of buckets that were full when erased (inserts reuse them; the
    /// reclaim a later erase starts empties those no stored key needs; a rehash drops them).
    pub tombstones: u64,
    /// Slots of the map.
    pub capacity: u64,
}

/// Live keys, tombstones and capacity of the map (blocking). `out->next` must be NULL (no
/// extension is defined yet); on error `*out` is unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_stats_host(
    map: *const VkalgoHashMap,
    out: *mut VkalgoHashMapStats,
) -> VkalgoResult {
    guard("vkalgo_hash_map_stats_host", || {
        let map = map_ref(map)?;
        non_null(out, "out")?;
        no_extension((*out).next, "hash map stats")?;
        let stats = map.stats()?;
        *out = VkalgoHashMapStats {
            next: std::ptr::null_mut(),
            size: stats.size,
            tombstones: stats.tombstones,
            capacity: stats.capacity,
        };
        Ok(())
    })
}

/// The number of slots (the requested capacity rounded up).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_capacity(map: *const VkalgoHashMap, out: *mut u64) -> VkalgoResult {
    guard("vkalgo_hash_map_capacity", || {
        write_out(out, map_ref(map)?.capacity())
    })
}

/// Moves the entries into new storage of `new_capacity` slots (rounded up), dropping
/// tombstones; the same capacity is fine. Below the number of live keys: INVALID_ARGUMENT.
/// If keys find no slot: VKALGO_ERROR_TABLE_FULL and the map is unchanged. The device view
/// changes (blocking).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_rehash_host(
    map: *mut VkalgoHashMap,
    new_capacity: u64,
) -> VkalgoResult {
    guard("vkalgo_hash_map_rehash_host", || {
        map_mut(map)?.rehash(new_capacity)
    })
}

/// Removes every entry (blocking).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_clear_host(map: *mut VkalgoHashMap) -> VkalgoResult {
    guard("vkalgo_hash_map_clear_host", || map_ref(map)?.clear())
}

/// Copies every live entry (in no particular order) into `keys_out` / `values_out`, which
/// have room for `capacity_out` entries, and sets `*count_out` to the number of entries. If
/// they do not fit: INVALID_ARGUMENT, `*count_out` = the needed count, nothing else written.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_retrieve_all_host(
    map: *const VkalgoHashMap,
    keys_out: *mut std::ffi::c_void,
    values_out: *mut std::ffi::c_void,
    capacity_out: usize,
    count_out: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_hash_map_retrieve_all_host", || {
        let map = map_ref(map)?;
        non_null(count_out, "count_out")?;
        let size = map.size()? as usize;
        if size > capacity_out {
            *count_out = size;
            return Err(Error::invalid(format!(
                "the map holds {size} entries but the output has room for {capacity_out} (count_out = {size})"
            )));
        }
        if capacity_out > 0 {
            non_null(keys_out, "keys_out")?;
            non_null(values_out, "values_out")?;
        }
        if size == 0 {
            *count_out = 0;
            return Ok(());
        }
        with_types_of_map!(map, |K, V| {
            let keys = host_slice_mut::<K>(keys_out, capacity_out, "keys_out")?;
            let values = host_slice_mut::<V>(values_out, capacity_out, "values_out")?;
            let (k, v) = map.retrieve_all::<K, V>()?;
            keys[..k.len()].copy_from_slice(&k);
            values[..v.len()].copy_from_slice(&v);
            *count_out = k.len();
            Ok(())
        })
    })
}

impl From<vkalgo::hash::HashMapDeviceView> for VkalgoHashMapDeviceView {
    fn from(v: vkalgo::hash::HashMapDeviceView) -> Self {
        VkalgoHashMapDeviceView {
            buckets: v.buckets,
            num_buckets: v.num_buckets,
            max_probes: v.max_probes,
            key_bits: v.key_bits,
            value_bits: v.value_bits,
            slot_bytes: v.slot_bytes,
            bucket_slots: v.bucket_slots,
        }
    }
}

/// What a shader needs to look keys up in the map (see `VkalgoHashMapDeviceView`).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_device_view(
    map: *const VkalgoHashMap,
    out: *mut VkalgoHashMapDeviceView,
) -> VkalgoResult {
    guard("vkalgo_hash_map_device_view", || {
        write_out(out, map_ref(map)?.device_view().into())
    })
}

/// Records a barrier ordering map operations with each other (COMPUTE_SHADER and TRANSFER
/// writes before COMPUTE_SHADER and TRANSFER reads and writes). Record it between two
/// operations on a map.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_record_barrier(
    map: *const VkalgoHashMap,
    command_buffer: VkCommandBuffer,
) -> VkalgoResult {
    guard("vkalgo_hash_map_record_barrier", || {
        let map = map_ref(map)?;
        map.record_barrier(non_null_command_buffer(command_buffer)?);
        Ok(())
    })
}

/// Records emptying the map (TRANSFER fills, then a barrier to COMPUTE_SHADER).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_record_clear(
    map: *const VkalgoHashMap,
    command_buffer: VkCommandBuffer,
) -> VkalgoResult {
    guard("vkalgo_hash_map_record_clear", || {
        map_ref(map)?.record_clear(command_buffer.to_vk())
    })
}

/// Records an insert (see `vkalgo_hash_map_insert_host` for the semantics; reserved keys are
/// skipped and reported per key). Inputs are read and outputs written in COMPUTE_SHADER.
/// Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_record_insert(
    map: *const VkalgoHashMap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashInsertArgs,
) -> VkalgoResult {
    guard("vkalgo_hash_map_record_insert", || {
        let map = map_ref(map)?;
        let args = args_ref(args, "hash insert args")?.to_rust();
        map.record_insert(command_buffer.to_vk(), &args)
    })
}

/// What `vkalgo_hash_map_record_rehash_into` moves the map into.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashRehashArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The destination: a map of the same key and value types, empty (created, or cleared
    /// with a barrier after the clear), on memory apart from the source's.
    pub dst: *const VkalgoHashMap,
    /// Optional u32 (buffer VK_NULL_HANDLE: none): the number of keys that found no slot in
    /// `dst` is ADDED to it (zero it first).
    pub failed_count: VkalgoBufferRange,
}

/// Records moving every live entry of `map` into `args->dst` (tombstones are dropped): the
/// record-layer rehash. Reads `map` and writes `dst` in COMPUTE_SHADER; then use `dst` in
/// place of `map` and destroy `map` once the GPU is done with it. Keys that find no slot in
/// `dst` are not moved (counted in `failed_count`). Different key or value types, overlapping
/// storage or a non-NULL `next`: INVALID_ARGUMENT. Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_record_rehash_into(
    map: *const VkalgoHashMap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashRehashArgs,
) -> VkalgoResult {
    guard("vkalgo_hash_map_record_rehash_into", || {
        let map = map_ref(map)?;
        let a = args_ref(args, "hash rehash args")?;
        non_null(a.dst, "args->dst")?;
        let dst = map_ref(a.dst)?;
        let cmd = non_null_command_buffer(command_buffer)?;
        let args = vkalgo::hash::HashRehashArgs {
            dst,
            failed_count: a.failed_count.to_rust_optional(),
        };
        map.record_rehash_into(cmd, &args)
    })
}

/// Records a lookup (values and/or found flags). Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_record_find(
    map: *const VkalgoHashMap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashFindArgs,
) -> VkalgoResult {
    guard("vkalgo_hash_map_record_find", || {
        let map = map_ref(map)?;
        let a = args_ref(args, "hash find args")?;
        let args = HashFindArgs {
            keys: a.keys.to_rust(),
            values: a.values.to_rust_optional(),
            found: a.found.to_rust_optional(),
            count: element_count(a.count, a.count_buffer),
            max_count: a.max_count,
        };
        map.record_find(command_buffer.to_vk(), &args)
    })
}

/// Records an erase, preceded by the reclaim of tombstones (five dispatches that return at once
/// unless earlier erases left tombstones in 1/32 of the slots since the last reclaim). Nothing
/// is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_record_erase(
    map: *const VkalgoHashMap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashEraseArgs,
) -> VkalgoResult {
    guard("vkalgo_hash_map_record_erase", || {
        let map = map_ref(map)?;
        let a = args_ref(args, "hash erase args")?;
        let args = HashEraseArgs {
            keys: a.keys.to_rust(),
            erased: a.erased.to_rust_optional(),
            count: element_count(a.count, a.count_buffer),
            max_count: a.max_count,
        };
        map.record_erase(command_buffer.to_vk(), &args)
    })
}

/// Where `vkalgo_hash_map_record_size` writes the map's size.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashSizeArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// A u32 receiving the number of live keys.
    pub out: VkalgoBufferRange,
}

/// Records writing the size (a u32) to `args->out` (COMPUTE_SHADER write). Nothing is recorded
/// on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_record_size(
    map: *const VkalgoHashMap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashSizeArgs,
) -> VkalgoResult {
    guard("vkalgo_hash_map_record_size", || {
        let map = map_ref(map)?;
        let args = args_ref(args, "hash size args")?.to_rust();
        map.record_size(command_buffer.to_vk(), &args)
    })
}

/// Records compacting the live entries into the caller's buffers and their number into
/// `count_out`. Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_record_retrieve_all(
    map: *const VkalgoHashMap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashRetrieveArgs,
) -> VkalgoResult {
    guard("vkalgo_hash_map_record_retrieve_all", || {
        let map = map_ref(map)?;
        let a = args_ref(args, "hash retrieve args")?;
        let args = HashRetrieveArgs {
            keys: a.keys.to_rust(),
            values: a.values.to_rust_optional(),
            capacity: a.capacity,
            count_out: a.count_out.to_rust(),
        };
        map.record_retrieve_all(command_buffer.to_vk(), &args)
    })
}
