//! C ABI of the hash map's insert-or-apply (group-by): the host call and the record layer's
//! call. `op` is a `VKALGO_OP_*` code (`VkalgoReduceOp`), a plain `uint32_t` in the signatures.

use super::hash::{args_ref, map_ref, with_host_pairs, VkalgoHashInsertArgs, VkalgoHashMap};
use super::types::*;
use super::{guard, VkalgoResult};
use vkalgo::hash::{HashKeyType, HashValueType};
use vkalgo::{Error, ReduceOp};

/// For each (key, value): an absent key is inserted with its value; a present one (in the map
/// before the call, or earlier in the same batch) gets op(stored, value), unsigned (SUM wraps).
/// The result does not depend on the order within the batch. `op`: VKALGO_OP_SUM, _MIN or
/// _MAX (anything else: INVALID_ARGUMENT). Reserved keys (the two largest values of the key
/// type): INVALID_ARGUMENT, nothing changed. Keys that find no free slot are not stored:
/// VKALGO_ERROR_TABLE_FULL, every other key applied and the size exact. Blocking.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_insert_or_apply_host(
    map: *mut VkalgoHashMap,
    keys: *const std::ffi::c_void,
    values: *const std::ffi::c_void,
    count: usize,
    op: u32,
) -> VkalgoResult {
    guard("vkalgo_hash_map_insert_or_apply_host", || {
        let map = map_ref(map)?;
        let op = ReduceOp::from_raw(op)?;
        if count == 0 {
            return Ok(());
        }
        with_host_pairs!(map, keys, values, count, map.insert_or_apply(keys, values, op))
    })
}

/// Records an insert-or-apply (see `vkalgo_hash_map_insert_or_apply_host` for the semantics;
/// the arguments as `vkalgo_hash_map_record_insert`'s: reserved keys are skipped and reported
/// per key). u32/u32 maps with the packed claim take one pass, other layouts two with a
/// barrier between them. Inputs are read and outputs written in COMPUTE_SHADER. Nothing is
/// recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_hash_map_record_insert_or_apply(
    map: *const VkalgoHashMap,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHashInsertArgs,
    op: u32,
) -> VkalgoResult {
    guard("vkalgo_hash_map_record_insert_or_apply", || {
        let map = map_ref(map)?;
        let op = ReduceOp::from_raw(op)?;
        let args = args_ref(args, "hash insert args")?.to_rust();
        map.record_insert_or_apply(command_buffer.to_vk(), &args, op)
    })
}
