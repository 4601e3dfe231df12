//! C ABI of the GPU hash multimap: create/destroy, blocking host calls (insert, size, count,
//! retrieve, clear), the record layer, and the device view for the caller's shaders
//! (glsl/public/vkalgo_hash_map.glsl: `vkalgo_hash_multimap_count_*`, first/next walks).
//!
//! Keys and values are arrays of the multimap's key and value types (`uint32_t` or
//! `uint64_t`, naturally aligned). The desc is the hash map's (`VkalgoHashMapDesc`).

use super::hash::{
    args_ref, c_args, check_batch, host_slice, host_slice_mut, map_desc, non_null_command_buffer,
};
use super::hash::{with_host_pairs, with_types_of_map, VkalgoHashMapDesc};
use super::hash::{VkalgoHashMapDeviceView, VkalgoHashSizeArgs};
use super::types::*;
use super::write_out;
use super::{context_ref, guard, non_null, try_filled, VkalgoContext, VkalgoResult};
use vkalgo::hash::{
    HashKeyType, HashMultimap, HashMultimapCountArgs, HashMultimapInsertArgs, HashMultimapOffsets,
    HashMultimapRetrieveArgs, HashMultimapTags, HashValueType,
};
use vkalgo::Context;
use vkalgo::Error;

/// A GPU hash multimap: stores every pair inserted, duplicate keys and pairs included (owns
/// its device memory). Keeps its context alive: destroy it before or after the context handle.
/// Host calls may come from several threads.
pub struct VkalgoHashMultimap {
    mm: HashMultimap,
}

/// The buffers of a recorded multimap insert. Optional ranges: `buffer = VK_NULL_HANDLE` for
/// none.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashMultimapInsertArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Keys (the multimap's key type).
    pub keys: VkalgoBufferRange,
    /// Values (the multimap's value type), one per key.
    pub values: VkalgoBufferRange,
    /// Number of pairs when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a u32 at `count_buffer.offset`, read on the GPU, clamped to
    /// `max_count`. VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count (sizes the dispatch and the range checks).
    pub max_count: u64,
    /// Optional u32 that the number of pairs not stored (no empty slot within the probe bound,
    /// or a reserved key) is ADDED to.
    pub failed_count: VkalgoBufferRange,
}

/// The buffers of a recorded count.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashMultimapCountArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Keys to count.
    pub keys: VkalgoBufferRange,
    /// Output: a u32 per key, the number of stored pairs with that key.
    pub counts_out: VkalgoBufferRange,
    /// Number of keys when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count (see `VkalgoHashMultimapInsertArgs`).
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count.
    pub max_count: u64,
}

/// The buffers of a recorded retrieve.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHashMultimapRetrieveArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Keys to retrieve.
    pub keys: VkalgoBufferRange,
    /// Per key, the position in `values_out` where its values start (for example the
    /// exclusive scan of a recorded count's output).
    pub offsets: VkalgoBufferRange,
    /// 32 (u32 offsets) or 64 (u64 offsets).
    pub offset_bits: u32,
    /// Output values (room for `capacity` values of the multimap's value type).
    pub values_out: VkalgoBufferRange,
    /// Values `values_out` can take: positions at or past it are not written.
    pub capacity: u64,
    /// Number of keys when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count (see `VkalgoHashMultimapInsertArgs`).
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count.
    pub max_count: u64,
    /// Optional tags, a u32 per key (VK_NULL_HANDLE: none): key i's tag is written at every
    /// position of `tags_out` where one of its values is written (a join's probe payloads
    /// beside the build payloads, in one pass).
    pub tags: VkalgoBufferRange,
    /// With `tags`: room for `capacity` u32. Both or neither.
    pub tags_out: VkalgoBufferRange,
}

unsafe fn multimap_ref<'a>(mm: *const VkalgoHashMultimap) -> vkalgo::Result<&'a HashMultimap> {
    non_null(mm, "multimap")?;
    Ok(&(*mm).mm)
}

c_args!(
    VkalgoHashMultimapInsertArgs,
    VkalgoHashMultimapCountArgs,
    VkalgoHashMultimapRetrieveArgs,
);

/// Creates an empty hash multimap on `ctx` (allocates and clears its storage; blocking).
/// `desc` is a hash map's desc: key and value types and capacity (slots, rounded up as for a
/// map; the most pairs the multimap holds). `*out` is set only on success. Errors: unknown
/// key/value type or capacity 0 (INVALID_ARGUMENT), u64 keys/values on a device without 64-bit
/// buffer atomics (UNSUPPORTED), too large (OUT_OF_MEMORY or INVALID_ARGUMENT).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoHashMapDesc,
    out: *mut *mut VkalgoHashMultimap,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_create", || {
        let ctx: &Context = context_ref(ctx)?;
        let desc = map_desc(desc)?;
        non_null(out, "out")?;
        let mm = HashMultimap::new(ctx, &desc)?;
        super::box_out(out, VkalgoHashMultimap { mm })
    })
}

/// Destroys a multimap and frees its memory (NULL: no-op). Work recorded with it must have
/// finished.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_destroy(mm: *mut VkalgoHashMultimap) {
    super::destroy_boxed(mm);
}

/// Stores `count` pairs (blocking), duplicate keys and duplicate pairs included. A reserved key
/// (the two largest values of the key type) refuses the whole call with INVALID_ARGUMENT
/// before anything changes. Pairs that find no empty slot within the probe bound are not
/// stored: VKALGO_ERROR_TABLE_FULL, with every other pair stored and the size exact.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_insert_host(
    mm: *mut VkalgoHashMultimap,
    keys: *const std::ffi::c_void,
    values: *const std::ffi::c_void,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_insert_host", || {
        let mm = multimap_ref(mm)?;
        if count == 0 {
            return Ok(());
        }
        check_batch(count)?;
        with_host_pairs!(mm, keys, values, count, mm.insert(keys, values))
    })
}

/// The exact number of pairs stored (blocking).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_size(
    mm: *mut VkalgoHashMultimap,
    pairs_out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_size", || {
        let mm = multimap_ref(mm)?;
        non_null(pairs_out, "pairs_out")?;
        *pairs_out = mm.size()?;
        Ok(())
    })
}

/// `counts_out[i]` = the number of stored pairs whose key is `keys[i]` (blocking; `count` u32).
/// A reserved key refuses the call (INVALID_ARGUMENT). On error `counts_out` is unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_count_host(
    mm: *mut VkalgoHashMultimap,
    keys: *const std::ffi::c_void,
    count: usize,
    counts_out: *mut u32,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_count_host", || {
        let mm = multimap_ref(mm)?;
        if count == 0 {
            return Ok(());
        }
        check_batch(count)?;
        let out = host_slice_mut::<u32>(counts_out.cast(), count, "counts_out")?;
        let mut counts = try_filled(0u32, count, "counts")?;
        with_types_of_map!(mm, |K, V| {
            let _ = std::marker::PhantomData::<V>;
            let keys = host_slice::<K>(keys, count, "keys")?;
            mm.count(keys, &mut counts)
        })?;
        out.copy_from_slice(&counts);
        Ok(())
    })
}

/// Every value of each of `count` keys (blocking): key `i`'s values at
/// `values_out[offsets_out[i] .. offsets_out[i + 1])` (`count + 1` offsets, `offsets_out[0] =
/// 0`), in no particular order within a key; `*total_out = offsets_out[count]`. `values_out`
/// has room for `capacity` values (it may be NULL when `capacity` is 0). `capacity` below the
/// total: INVALID_ARGUMENT with `*total_out` set to the total and nothing else written. A
/// reserved key refuses the call (INVALID_ARGUMENT); on any other error nothing is written.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_retrieve_host(
    mm: *mut VkalgoHashMultimap,
    keys: *const std::ffi::c_void,
    count: usize,
    offsets_out: *mut u64,
    values_out: *mut std::ffi::c_void,
    capacity: usize,
    total_out: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_retrieve_host", || {
        let mm = multimap_ref(mm)?;
        non_null(total_out, "total_out")?;
        check_batch(count)?;
        let offsets_out = host_slice_mut::<u64>(offsets_out.cast(), count + 1, "offsets_out")?;
        if count > 0 {
            non_null(keys, "keys")?;
        }
        // Filled by the call; the last one also when the room is too small (the total).
        let mut offsets = try_filled(u64::MAX, count + 1, "offsets")?;
        let result = with_types_of_map!(mm, |K, V| {
            let keys: &[K] = if count == 0 {
                &[]
            } else {
                host_slice::<K>(keys, count, "keys")?
            };
            let values: &mut [V] = if capacity == 0 {
                &mut []
            } else {
                host_slice_mut::<V>(values_out, capacity, "values_out")?
            };
            mm.retrieve_into(keys, &mut offsets, values)
        });
        match result {
            Ok(total) => {
                offsets_out.copy_from_slice(&offsets);
                *total_out = total as usize;
                Ok(())
            }
            Err(Error::InvalidArgument(m)) if offsets[count] != u64::MAX => {
                *total_out = offsets[count] as usize;
                Err(Error::InvalidArgument(format!(
                    "{m} (total_out = {})",
                    offsets[count]
                )))
            }
            Err(e) => Err(e),
        }
    })
}

/// Removes every pair (blocking).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_clear_host(mm: *mut VkalgoHashMultimap) -> VkalgoResult {
    guard("vkalgo_hash_multimap_clear_host", || multimap_ref(mm)?.clear())
}

/// The number of slots (the requested capacity rounded up): the most pairs it holds.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_capacity(
    mm: *const VkalgoHashMultimap,
    out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_capacity", || {
        write_out(out, multimap_ref(mm)?.capacity())
    })
}

/// What a shader needs to count and walk keys of the multimap (`VkalgoHashMapView` of
/// `vkalgo/glsl/vkalgo_hash_map.glsl`: `vkalgo_hash_multimap_count_*`,
/// `vkalgo_hash_multimap_first_*` / `_next_*`). Valid until the multimap is destroyed.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_device_view(
    mm: *const VkalgoHashMultimap,
    out: *mut VkalgoHashMapDeviceView,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_device_view", || {
        write_out(out, multimap_ref(mm)?.device_view().into())
    })
}

/// Records a barrier ordering multimap operations with each other (COMPUTE_SHADER and TRANSFER
/// writes before COMPUTE_SHADER and TRANSFER reads and writes). Record it between two
/// operations on a multimap.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_record_barrier(
    mm: *const VkalgoHashMultimap,
    command_buffer: VkCommandBuffer,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_record_barrier", || {
        let mm = multimap_ref(mm)?;
        mm.record_barrier(non_null_command_buffer(command_buffer)?);
        Ok(())
    })
}

/// Records emptying the multimap (TRANSFER fills, then a barrier to COMPUTE_SHADER).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_record_clear(
    mm: *const VkalgoHashMultimap,
    command_buffer: VkCommandBuffer,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_record_clear", || {
        multimap_ref(mm)?.record_clear(command_buffer.to_vk())
    })
}

/// Records an insert (see `vkalgo_hash_multimap_insert_host`; reserved keys are skipped and
/// counted as failed). Inputs are read and outputs written in COMPUTE_SHADER. Nothing is
/// recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_record_insert(
    mm: *const VkalgoHashMultimap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashMultimapInsertArgs,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_record_insert", || {
        let mm = multimap_ref(mm)?;
        let a = args_ref(args, "hash multimap insert args")?;
        let args = HashMultimapInsertArgs {
            keys: a.keys.to_rust(),
            values: a.values.to_rust(),
            count: element_count(a.count, a.count_buffer),
            max_count: a.max_count,
            failed_count: a.failed_count.to_rust_optional(),
        };
        mm.record_insert(command_buffer.to_vk(), &args)
    })
}

/// Records counting each key's pairs into `args->counts_out`. Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_record_count(
    mm: *const VkalgoHashMultimap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashMultimapCountArgs,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_record_count", || {
        let mm = multimap_ref(mm)?;
        let a = args_ref(args, "hash multimap count args")?;
        let args = HashMultimapCountArgs {
            keys: a.keys.to_rust(),
            counts_out: a.counts_out.to_rust(),
            count: element_count(a.count, a.count_buffer),
            max_count: a.max_count,
        };
        mm.record_count(command_buffer.to_vk(), &args)
    })
}

/// Records writing each key's values from its offset on (positions at or past `capacity` are
/// not written). `offset_bits` other than 32 or 64: INVALID_ARGUMENT. Nothing is recorded on
/// error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_record_retrieve(
    mm: *const VkalgoHashMultimap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashMultimapRetrieveArgs,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_record_retrieve", || {
        let mm = multimap_ref(mm)?;
        let a = args_ref(args, "hash multimap retrieve args")?;
        let offsets = match a.offset_bits {
            32 => HashMultimapOffsets::U32(a.offsets.to_rust()),
            64 => HashMultimapOffsets::U64(a.offsets.to_rust()),
            other => {
                return Err(Error::invalid(format!(
                    "hash multimap retrieve: offset_bits {other} is neither 32 nor 64"
                )))
            }
        };
        let tags = match (a.tags.to_rust_optional(), a.tags_out.to_rust_optional()) {
            (None, None) => None,
            (Some(tags), Some(tags_out)) => Some(HashMultimapTags { tags, tags_out }),
            _ => {
                return Err(Error::invalid(
                    "hash multimap retrieve: tags and tags_out go together (both or neither)",
                ))
            }
        };
        let args = HashMultimapRetrieveArgs {
            keys: a.keys.to_rust(),
            offsets,
            values_out: a.values_out.to_rust(),
            capacity: a.capacity,
            tags,
            count: element_count(a.count, a.count_buffer),
            max_count: a.max_count,
        };
        mm.record_retrieve(command_buffer.to_vk(), &args)
    })
}

/// Records writing the number of pairs stored (a u32) to `args->out` (COMPUTE_SHADER write).
/// Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_multimap_record_size(
    mm: *const VkalgoHashMultimap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashSizeArgs,
) -> VkalgoResult {
    guard("vkalgo_hash_multimap_record_size", || {
        let mm = multimap_ref(mm)?;
        let args = args_ref(args, "hash size args")?.to_rust();
        mm.record_size(command_buffer.to_vk(), &args)
    })
}
