//! C ABI of the GPU sets of u32: create/destroy, blocking host calls, set operations and the
//! Roaring portable serialization. A set keeps its context alive (destroy them in any order).
//! Every call checks its arguments first; on an error nothing changes and nothing is written
//! (except the needed count or size that `vkalgo_set_to_array_host` and
//! `vkalgo_set_serialize_host` report).

use super::types::*;
use super::{
    context_ref, guard, no_extension, non_null, try_collect, try_filled, VkalgoContext, VkalgoResult,
};
use vkalgo::set::{GpuSet, SetOperand};
use vkalgo::Error;

/// A set of uint32_t values on the GPU (owns its device memory, keeps its context alive).
///
/// Threads: calls that only read a set (contains, cardinality, to_array, filter, serialize, or
/// a set as an operand) may run concurrently; a call that changes a set (insert, remove, a
/// result of vkalgo_set_op_host) needs exclusive use of it.
pub struct VkalgoSet {
    pub(crate) set: GpuSet,
}

pub(crate) unsafe fn set_ref<'a>(set: *const VkalgoSet, what: &str) -> vkalgo::Result<&'a GpuSet> {
    non_null(set, what)?;
    Ok(&(*set).set)
}

/// The `count` sets of the C array `sets` (`what` names it in errors): a NULL array with a
/// count, or a NULL entry, is refused.
pub(crate) unsafe fn set_list<'a>(
    sets: *const *const VkalgoSet,
    count: usize,
    what: &str,
) -> vkalgo::Result<Vec<&'a GpuSet>> {
    let entries = slice(sets, count, what)?;
    super::try_collect(count, what, |i| set_ref(entries[i], &format!("{what}[{i}]")))
}

pub(crate) unsafe fn slice<'a, T>(ptr: *const T, count: usize, what: &str) -> vkalgo::Result<&'a [T]> {
    if count == 0 {
        return Ok(&[]);
    }
    non_null(ptr, what)?;
    super::byte_len(count, std::mem::size_of::<T>() as u64, what)?;
    Ok(std::slice::from_raw_parts(ptr, count))
}

pub(crate) unsafe fn slice_mut<'a, T>(ptr: *mut T, count: usize, what: &str) -> vkalgo::Result<&'a mut [T]> {
    if count == 0 {
        return Ok(&mut []);
    }
    non_null(ptr, what)?;
    super::byte_len(count, std::mem::size_of::<T>() as u64, what)?;
    Ok(std::slice::from_raw_parts_mut(ptr, count))
}

/// What set to create: the blocks of its pools. A bitmap block (8 KiB) holds one chunk of more
/// than 4096 values; array blocks (192 bytes) hold 1 to 23 per chunk of up to 4096 values.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// `vkalgo_set_create`: bitmap blocks reserved up front (0: none; the pools grow as
    /// needed). On the caller's memory: the fixed bitmap pool.
    pub bitmap_blocks: u32,
    /// `vkalgo_set_create`: array blocks reserved up front (0: none). On the caller's memory:
    /// the fixed array pool.
    pub array_blocks: u32,
}

/// `desc`, checked (NULL: INVALID_ARGUMENT).
unsafe fn set_desc<'a>(desc: *const VkalgoSetDesc) -> vkalgo::Result<&'a VkalgoSetDesc> {
    non_null(desc, "desc")?;
    no_extension((*desc).next, "set desc")?;
    Ok(&*desc)
}

/// Creates an empty set on `ctx` into `*out`, with the blocks of `desc` reserved (blocking
/// when any are).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSetDesc,
    out: *mut *mut VkalgoSet,
) -> VkalgoResult {
    guard("vkalgo_set_create", || {
        let ctx = context_ref(ctx)?;
        let d = set_desc(desc)?;
        non_null(out, "out")?;
        let mut set = GpuSet::new(ctx)?;
        if d.bitmap_blocks > 0 || d.array_blocks > 0 {
            set.reserve(d.bitmap_blocks, d.array_blocks)?;
        }
        super::box_out(out, VkalgoSet { set })
    })
}

/// The memory (`storage`) an empty set with the fixed pools of `desc` takes on the caller's
/// memory (`vkalgo_set_create_in`).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_memory_requirements(
    ctx: *const VkalgoContext,
    desc: *const VkalgoSetDesc,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_set_memory_requirements", || {
        let ctx = context_ref(ctx)?;
        let d = set_desc(desc)?;
        write_requirements(
            out,
            GpuSet::memory_requirements(ctx, d.bitmap_blocks, d.array_blocks)?,
        )
    })
}

/// Creates an empty set on the caller's memory: `*range` (at least the `storage` size of
/// `vkalgo_set_memory_requirements` for the same desc, aligned as it says, on a buffer with
/// its usage flags; the buffer must outlive the set and serve nothing else meanwhile). The
/// pools are fixed: an operation that needs more blocks fails with
/// VKALGO_ERROR_OUT_OF_MEMORY and changes nothing. `flags`: 0 (none is defined). Blocking
/// (one submission writes the directory and free lists). `*out` is set only on success.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_create_in(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSetDesc,
    range: *const VkalgoBufferRange,
    flags: u32,
    out: *mut *mut VkalgoSet,
) -> VkalgoResult {
    guard("vkalgo_set_create_in", || {
        let ctx = context_ref(ctx)?;
        let d = set_desc(desc)?;
        non_null(range, "range")?;
        non_null(out, "out")?;
        if flags != 0 {
            return Err(Error::invalid(format!("set: unknown flags 0x{flags:x}")));
        }
        let set = GpuSet::new_in(ctx, (*range).to_rust(), d.bitmap_blocks, d.array_blocks)?;
        super::box_out(out, VkalgoSet { set })
    })
}

/// Destroys a set and frees its memory (NULL: no-op). Work recorded with it must have finished.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_destroy(set: *mut VkalgoSet) {
    super::destroy_boxed(set);
}

/// Inserts `count` values (any order, duplicates allowed), in batches of 2^22: on a set whose
/// pools cannot grow (on caller memory), VKALGO_ERROR_OUT_OF_MEMORY leaves the batches before
/// the failing one applied.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_insert_host(
    set: *mut VkalgoSet,
    values: *const u32,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_set_insert_host", || {
        non_null(set, "set")?;
        let values = slice(values, count, "values")?;
        (*set).set.insert(values)
    })
}

/// Removes `count` values (any order, duplicates and absent values allowed).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_remove_host(
    set: *mut VkalgoSet,
    values: *const u32,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_set_remove_host", || {
        non_null(set, "set")?;
        let values = slice(values, count, "values")?;
        (*set).set.remove(values)
    })
}

/// Inserts every value of `[begin, end)`; `begin <= end <= 2^32`, else INVALID_ARGUMENT.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_insert_range_host(
    set: *mut VkalgoSet,
    begin: u64,
    end: u64,
) -> VkalgoResult {
    guard("vkalgo_set_insert_range_host", || {
        non_null(set, "set")?;
        (*set).set.insert_range(begin, end)
    })
}

/// Keeps each chunk in its smallest form, as CRoaring's `run_optimize`: run chunks (Roaring's
/// run containers, up to 48 runs) where their runs take fewer bytes than an array or a bitmap.
/// Sets built from values hold arrays and bitmaps until this is called; ranges, deserialized
/// run containers and operations on run chunks give run chunks. Follow with
/// `vkalgo_set_shrink_to_fit_host` to give the freed blocks back.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_run_optimize_host(set: *mut VkalgoSet) -> VkalgoResult {
    guard("vkalgo_set_run_optimize_host", || {
        non_null(set, "set")?;
        (*set).set.run_optimize()
    })
}

/// Moves the set into pools of exactly the blocks it uses, giving back the free blocks that
/// growth and removals left (a set read by `vkalgo_set_deserialize_host` has none). INVALID_ARGUMENT
/// for a set on the caller's memory (`vkalgo_set_create_in`), whose pools are fixed.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_shrink_to_fit_host(set: *mut VkalgoSet) -> VkalgoResult {
    guard("vkalgo_set_shrink_to_fit_host", || {
        non_null(set, "set")?;
        (*set).set.shrink_to_fit()
    })
}

/// Packs the set for reading: its directory keeps only the non-empty chunks (16 KiB and 8 bytes
/// a chunk instead of 512 KiB), run chunks' runs share the array pool (4 bytes a run), and no
/// block is free. Every call reads a packed set; the calls that write it (insert, remove,
/// insert_range, run_optimize, `vkalgo_set_op_host` into it) unpack it first. The set's buffers are
/// made again: work recorded with it must have finished. No-op when packed already.
/// INVALID_ARGUMENT for a set on the caller's memory (`vkalgo_set_create_in`).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_pack_host(set: *mut VkalgoSet) -> VkalgoResult {
    guard("vkalgo_set_pack_host", || {
        non_null(set, "set")?;
        (*set).set.pack()
    })
}

/// Gives a packed set (`vkalgo_set_pack_host`) its flat directory again, so that recorded writes may
/// target it. No-op when not packed.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_unpack_host(set: *mut VkalgoSet) -> VkalgoResult {
    guard("vkalgo_set_unpack_host", || {
        non_null(set, "set")?;
        (*set).set.unpack()
    })
}

/// `*out` = 1 if the set is packed (`vkalgo_set_pack_host`), else 0.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_is_packed(set: *const VkalgoSet, out: *mut u32) -> VkalgoResult {
    guard("vkalgo_set_is_packed", || {
        let set = set_ref(set, "set")?;
        non_null(out, "out")?;
        *out = u32::from(set.is_packed());
        Ok(())
    })
}

/// Bytes of device memory the set holds (directory, pools with their free blocks, rings).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_memory_bytes(set: *const VkalgoSet, out: *mut u64) -> VkalgoResult {
    guard("vkalgo_set_memory_bytes", || {
        let set = set_ref(set, "set")?;
        non_null(out, "out")?;
        *out = set.memory_bytes();
        Ok(())
    })
}

/// `out[i]` = 1 if `values[i]` is in the set, else 0.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_contains_host(
    set: *const VkalgoSet,
    values: *const u32,
    out: *mut u8,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_set_contains_host", || {
        let set = set_ref(set, "set")?;
        let values = slice(values, count, "values")?;
        let out = slice_mut(out, count, "out")?;
        let mut flags = try_filled(0u32, count, "out")?;
        set.contains_flags(values, &mut flags)?;
        for (o, f) in out.iter_mut().zip(flags) {
            *o = f as u8;
        }
        Ok(())
    })
}

/// The number of values in the set (up to 2^32) into `*out`. Answered on the host, with no GPU
/// work, where the set has not been written since an earlier call counted it or it was read
/// from a Roaring serialization.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_cardinality_host(set: *const VkalgoSet, out: *mut u64) -> VkalgoResult {
    guard("vkalgo_set_cardinality_host", || {
        let set = set_ref(set, "set")?;
        non_null(out, "out")?;
        *out = set.cardinality()?;
        Ok(())
    })
}

/// The number of values in `[begin, end)` into `*out` (`begin <= end <= 2^32`).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_range_cardinality_host(
    set: *const VkalgoSet,
    begin: u64,
    end: u64,
    out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_set_range_cardinality_host", || {
        let set = set_ref(set, "set")?;
        non_null(out, "out")?;
        *out = set.range_cardinality(begin, end)?;
        Ok(())
    })
}

/// `*dst = a op b` (`op` one of `VKALGO_SET_*`); `dst` may be `a` or `b` (or both). All three
/// sets must come from the same context.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_op_host(
    dst: *mut VkalgoSet,
    a: *const VkalgoSet,
    b: *const VkalgoSet,
    op: VkalgoSetOp,
) -> VkalgoResult {
    guard("vkalgo_set_op_host", || {
        non_null(dst, "dst")?;
        non_null(a, "a")?;
        non_null(b, "b")?;
        let op = op.to_rust()?;
        let is_dst = |p: *const VkalgoSet| std::ptr::eq(p, dst as *const VkalgoSet);
        // Operands that are dst are passed as `This`: no shared reference to dst is made.
        let a_op = if is_dst(a) {
            SetOperand::This
        } else {
            SetOperand::Set(&(*a).set)
        };
        let b_op = if is_dst(b) {
            SetOperand::This
        } else {
            SetOperand::Set(&(*b).set)
        };
        (*dst).set.assign(a_op, b_op, op)
    })
}

/// The cardinality of `a op b` into `*out`, without materializing it.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_op_cardinality_host(
    a: *const VkalgoSet,
    b: *const VkalgoSet,
    op: VkalgoSetOp,
    out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_set_op_cardinality_host", || {
        let a = set_ref(a, "a")?;
        let b = set_ref(b, "b")?;
        non_null(out, "out")?;
        let op = op.to_rust()?;
        *out = GpuSet::op_cardinality(a, b, op)?;
        Ok(())
    })
}

/// `*out` = 1 when `a` and `b` hold the same values, else 0 (one submission at most). Sets of
/// different contexts: INVALID_ARGUMENT, `*out` unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_equals(
    a: *const VkalgoSet,
    b: *const VkalgoSet,
    out: *mut u8,
) -> VkalgoResult {
    compare_sets("vkalgo_set_equals", a, b, out, GpuSet::equals)
}

/// `*out` = 1 when every value of `a` is in `b` (equal sets count), else 0 (one submission at
/// most). Sets of different contexts: INVALID_ARGUMENT, `*out` unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_is_subset(
    a: *const VkalgoSet,
    b: *const VkalgoSet,
    out: *mut u8,
) -> VkalgoResult {
    compare_sets("vkalgo_set_is_subset", a, b, out, GpuSet::is_subset)
}

/// A comparison of two sets into `*out` (1 or 0), written only on success.
unsafe fn compare_sets(
    what: &str,
    a: *const VkalgoSet,
    b: *const VkalgoSet,
    out: *mut u8,
    compare: fn(&GpuSet, &GpuSet) -> vkalgo::Result<bool>,
) -> VkalgoResult {
    guard(what, || {
        let a = set_ref(a, "a")?;
        let b = set_ref(b, "b")?;
        non_null(out, "out")?;
        *out = u8::from(compare(a, b)?);
        Ok(())
    })
}

/// The cardinalities of `a[i] op b[i]` for `count` pairs into `out[i]` (one query set against
/// many: the same set in every `a[i]`), in one submission with the pairs side by side. Sets
/// may appear in several pairs. On an error nothing is written to `out`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_op_cardinality_batch_host(
    a: *const *const VkalgoSet,
    b: *const *const VkalgoSet,
    count: usize,
    op: VkalgoSetOp,
    out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_set_op_cardinality_batch_host", || {
        let op = op.to_rust()?;
        if count == 0 {
            return Ok(());
        }
        let (a, b) = (slice(a, count, "a")?, slice(b, count, "b")?);
        non_null(out, "out")?;
        let pairs = try_collect(count, "pairs", |i| {
            Ok((set_ref(a[i], "a[i]")?, set_ref(b[i], "b[i]")?))
        })?;
        let cards = GpuSet::op_cardinality_batch(&pairs, op)?;
        std::slice::from_raw_parts_mut(out, count).copy_from_slice(&cards);
        Ok(())
    })
}

/// The values in ascending order into `out` (room for `capacity`), their number into
/// `*count`. Capacity too small: INVALID_ARGUMENT, `*count` = the cardinality, nothing written.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_to_array_host(
    set: *const VkalgoSet,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_set_to_array_host", || {
        let set = set_ref(set, "set")?;
        non_null(count, "count")?;
        let card = set.cardinality()?;
        if card > capacity as u64 {
            *count = usize::try_from(card).unwrap_or(usize::MAX);
            return Err(Error::invalid(format!(
                "the set holds {card} values, out has room for {capacity}"
            )));
        }
        let out = slice_mut(out, capacity, "out")?;
        *count = set.to_array(out)?;
        Ok(())
    })
}

/// The values of `values` that are in the set, in input order, into `out` (room for `count`),
/// their number into `*out_count`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_filter_host(
    set: *const VkalgoSet,
    values: *const u32,
    count: usize,
    out: *mut u32,
    out_count: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_set_filter_host", || {
        let set = set_ref(set, "set")?;
        let values = slice(values, count, "values")?;
        let out = slice_mut(out, count, "out")?;
        non_null(out_count, "out_count")?;
        let kept = set.filter(values)?;
        out[..kept.len()].copy_from_slice(&kept);
        *out_count = kept.len();
        Ok(())
    })
}

/// Writes the Roaring portable serialization into `out` (room for `capacity` bytes) and its
/// size into `*size`: each chunk as CRoaring's `run_optimize` would hold it (a run container
/// where smaller, else an array or a bitmap; cookie 12347 when any run container is written,
/// else 12346), the bytes CRoaring writes for the same values. `out` NULL with capacity 0:
/// reports the size and succeeds. Capacity too small: INVALID_ARGUMENT, `*size` = the size
/// needed, nothing written.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_serialize_host(
    set: *const VkalgoSet,
    out: *mut std::ffi::c_void,
    capacity: usize,
    size: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_set_serialize_host", || {
        let set = set_ref(set, "set")?;
        non_null(size, "size")?;
        let bytes = set.serialize()?;
        *size = bytes.len();
        if out.is_null() && capacity == 0 {
            return Ok(());
        }
        if bytes.len() > capacity {
            return Err(Error::invalid(format!(
                "the serialization takes {} bytes, out has room for {capacity}",
                bytes.len()
            )));
        }
        let out = slice_mut(out as *mut u8, bytes.len(), "out")?;
        out.copy_from_slice(&bytes);
        Ok(())
    })
}

/// Creates a set on `ctx` from a Roaring portable serialization (`size` bytes at `data`;
/// cookies 12346 and 12347; array, bitmap and run containers). Malformed input (truncated,
/// wrong cookie, counts or offsets out of range, unsorted arrays, trailing bytes, ...):
/// INVALID_ARGUMENT and no set.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_deserialize_host(
    ctx: *mut VkalgoContext,
    data: *const std::ffi::c_void,
    size: usize,
    out: *mut *mut VkalgoSet,
) -> VkalgoResult {
    guard("vkalgo_set_deserialize_host", || {
        let ctx = context_ref(ctx)?;
        non_null(out, "out")?;
        let data = slice(data as *const u8, size, "data")?;
        let set = GpuSet::deserialize(ctx, data)?;
        super::box_out(out, VkalgoSet { set })
    })
}
