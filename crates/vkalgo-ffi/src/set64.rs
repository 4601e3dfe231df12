//! C ABI of the GPU sets of u64 (`GpuSet64`: a 32-bit set per high 32 bits, as CRoaring's
//! Roaring64): create/destroy, blocking host calls, set operations, comparisons and the
//! Roaring64 portable serialization. A set keeps its context alive (destroy them in any
//! order). Every call checks its arguments first; on an error nothing changes and nothing is
//! written (except the needed count or size that `vkalgo_set64_to_array` and
//! `vkalgo_set64_serialize` report).

use super::set::{slice, slice_mut};
use super::{context_ref, guard, non_null, try_filled, write_out, VkalgoContext, VkalgoResult};
use vkalgo::set64::GpuSet64;
use vkalgo::{Error, SetOp};

/// A set of uint64_t values on the GPU (owns its device memory, keeps its context alive).
///
/// Threads: calls that only read a set (contains, cardinality, to_array, minimum, maximum,
/// comparisons, serialize, or a set as an operand) may run concurrently; a call that changes a
/// set (insert, remove, the destination of `vkalgo_set64_op`) needs exclusive use of it.
pub struct VkalgoSet64 {
    pub(crate) set: GpuSet64,
}

unsafe fn set64_ref<'a>(set: *const VkalgoSet64, what: &str) -> vkalgo::Result<&'a GpuSet64> {
    non_null(set, what)?;
    Ok(&(*set).set)
}

/// Creates an empty set on `ctx` into `*out` (no GPU work). `*out` is set only on success.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_create(
    ctx: *mut VkalgoContext,
    out: *mut *mut VkalgoSet64,
) -> VkalgoResult {
    guard("vkalgo_set64_create", || {
        let ctx = context_ref(ctx)?;
        non_null(out, "out")?;
        let set = GpuSet64::new(ctx)?;
        super::box_out(out, VkalgoSet64 { set })
    })
}

/// Destroys a set and frees its memory (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_destroy(set: *mut VkalgoSet64) {
    super::destroy_boxed(set);
}

/// Inserts `count` values (any order, duplicates allowed; NULL only with `count` 0). The
/// values are sorted on the host; high keys the set lacks get new 32-bit sets, the others are
/// rewritten by the GPU in one submission. On an error the set is unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_insert(
    set: *mut VkalgoSet64,
    values: *const u64,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_set64_insert", || {
        non_null(set, "set")?;
        let values = slice(values, count, "values")?;
        (*set).set.insert(values)
    })
}

/// Removes `count` values (any order, duplicates and absent values allowed; NULL only with
/// `count` 0). 32-bit sets left empty are dropped. On an error the set is unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_remove(
    set: *mut VkalgoSet64,
    values: *const u64,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_set64_remove", || {
        non_null(set, "set")?;
        let values = slice(values, count, "values")?;
        (*set).set.remove(values)
    })
}

/// `found_out[i]` = 1 if `values[i]` is in the set, else 0, for `count` values (NULL arrays
/// only with `count` 0). One submission per 2^24 values.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_contains(
    set: *const VkalgoSet64,
    values: *const u64,
    count: usize,
    found_out: *mut u8,
) -> VkalgoResult {
    guard("vkalgo_set64_contains", || {
        let set = set64_ref(set, "set")?;
        let values = slice(values, count, "values")?;
        let out = slice_mut(found_out, count, "found_out")?;
        let mut found = try_filled(false, count, "found_out")?;
        set.contains(values, &mut found)?;
        for (o, f) in out.iter_mut().zip(found) {
            *o = u8::from(f);
        }
        Ok(())
    })
}

/// The number of values in the set into `*out` (the whole universe, 2^64 values, reports
/// 2^64 - 1). Answered on the host where the 32-bit sets' counts are known (sets built from
/// values or read from a serialization, or counted by an earlier call).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_cardinality(set: *const VkalgoSet64, out: *mut u64) -> VkalgoResult {
    guard("vkalgo_set64_cardinality", || {
        let set = set64_ref(set, "set")?;
        non_null(out, "out")?;
        write_out(out, set.cardinality()?)
    })
}

/// The values in ascending order into `out` (room for `capacity`), their number into
/// `*written`. Capacity too small: INVALID_ARGUMENT, `*written` = the cardinality, nothing
/// written to `out`. `out` may be NULL only with `capacity` 0.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_to_array(
    set: *const VkalgoSet64,
    out: *mut u64,
    capacity: usize,
    written: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_set64_to_array", || {
        let set = set64_ref(set, "set")?;
        non_null(written, "written")?;
        let card = set.cardinality()?;
        if card > capacity as u64 {
            *written = usize::try_from(card).unwrap_or(usize::MAX);
            return Err(Error::invalid(format!(
                "the set holds {card} values, out has room for {capacity}"
            )));
        }
        let out = slice_mut(out, capacity, "out")?;
        *written = set.to_array(out)?;
        Ok(())
    })
}

/// `*dst = a op b` (`op` one of `VKALGO_SET_AND`, `_OR`, `_ANDNOT`, `_XOR`); `dst` may be `a`
/// or `b` (or both). The pairs of 32-bit sets of the high keys both operands have run in one
/// submission. All three sets must come from the same context (else INVALID_ARGUMENT). On an
/// error `dst` is unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_op(
    dst: *mut VkalgoSet64,
    a: *const VkalgoSet64,
    b: *const VkalgoSet64,
    op: u32,
) -> VkalgoResult {
    guard("vkalgo_set64_op", || {
        non_null(dst, "dst")?;
        let op = SetOp::from_raw(op)?;
        let result = {
            // Shared references only (dst may be a or b) until the result replaces dst.
            let (a, b) = (set64_ref(a, "a")?, set64_ref(b, "b")?);
            if !(*dst).set.context().same_as(a.context()) {
                return Err(Error::invalid("set64 op: the sets come from different contexts"));
            }
            GpuSet64::op(a, b, op)?
        };
        (*dst).set = result;
        Ok(())
    })
}

/// The cardinality of `a op b` into `*out`, without materializing it (`op` as
/// `vkalgo_set64_op`).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_op_cardinality(
    a: *const VkalgoSet64,
    b: *const VkalgoSet64,
    op: u32,
    out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_set64_op_cardinality", || {
        let (a, b) = (set64_ref(a, "a")?, set64_ref(b, "b")?);
        non_null(out, "out")?;
        let op = SetOp::from_raw(op)?;
        write_out(out, GpuSet64::op_cardinality(a, b, op)?)
    })
}

/// The smallest value of the set into `*out`. An empty set: INVALID_ARGUMENT, `*out`
/// unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_minimum(set: *const VkalgoSet64, out: *mut u64) -> VkalgoResult {
    guard("vkalgo_set64_minimum", || {
        let set = set64_ref(set, "set")?;
        non_null(out, "out")?;
        let min = set
            .minimum()?
            .ok_or_else(|| Error::invalid("set64 minimum: the set is empty"))?;
        write_out(out, min)
    })
}

/// The largest value of the set into `*out`. An empty set: INVALID_ARGUMENT, `*out`
/// unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_maximum(set: *const VkalgoSet64, out: *mut u64) -> VkalgoResult {
    guard("vkalgo_set64_maximum", || {
        let set = set64_ref(set, "set")?;
        non_null(out, "out")?;
        let max = set
            .maximum()?
            .ok_or_else(|| Error::invalid("set64 maximum: the set is empty"))?;
        write_out(out, max)
    })
}

/// `*out` = 1 when `a` and `b` hold the same values, else 0 (one submission at most). Sets of
/// different contexts: INVALID_ARGUMENT, `*out` unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_equals(
    a: *const VkalgoSet64,
    b: *const VkalgoSet64,
    out: *mut u8,
) -> VkalgoResult {
    compare_sets("vkalgo_set64_equals", a, b, out, GpuSet64::equals)
}

/// `*out` = 1 when every value of `a` is in `b` (equal sets count), else 0 (one submission
/// at most). Sets of different contexts: INVALID_ARGUMENT, `*out` unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_is_subset(
    a: *const VkalgoSet64,
    b: *const VkalgoSet64,
    out: *mut u8,
) -> VkalgoResult {
    compare_sets("vkalgo_set64_is_subset", a, b, out, GpuSet64::is_subset)
}

/// A comparison of two sets into `*out` (1 or 0), written only on success.
unsafe fn compare_sets(
    what: &str,
    a: *const VkalgoSet64,
    b: *const VkalgoSet64,
    out: *mut u8,
    compare: fn(&GpuSet64, &GpuSet64) -> vkalgo::Result<bool>,
) -> VkalgoResult {
    guard(what, || {
        let (a, b) = (set64_ref(a, "a")?, set64_ref(b, "b")?);
        non_null(out, "out")?;
        write_out(out, u8::from(compare(a, b)?))
    })
}

/// The size in bytes of the Roaring64 portable serialization `vkalgo_set64_serialize` writes,
/// into `*out`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_serialized_size(
    set: *const VkalgoSet64,
    out: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_set64_serialized_size", || {
        let set = set64_ref(set, "set")?;
        non_null(out, "out")?;
        let size = usize::try_from(set.serialized_size()?)
            .map_err(|_| Error::OutOfMemory("set64: the serialization exceeds the address space".into()))?;
        write_out(out, size)
    })
}

/// Writes the Roaring64 portable serialization into `out` (room for `capacity` bytes) and its
/// size into `*written`: the bytes CRoaring's `roaring64_bitmap_portable_serialize` writes for
/// the same values after `run_optimize` (a little-endian uint64_t count of 32-bit bitmaps,
/// then per high key, ascending, the key as a little-endian uint32_t and that 32-bit bitmap's
/// Roaring portable serialization). `out` NULL with `capacity` 0: reports the size and
/// succeeds. Capacity too small: INVALID_ARGUMENT, `*written` = the size needed, nothing
/// written to `out`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_serialize(
    set: *const VkalgoSet64,
    out: *mut u8,
    capacity: usize,
    written: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_set64_serialize", || {
        let set = set64_ref(set, "set")?;
        non_null(written, "written")?;
        let bytes = set.serialize()?;
        *written = bytes.len();
        if out.is_null() && capacity == 0 {
            return Ok(());
        }
        if bytes.len() > capacity {
            return Err(Error::invalid(format!(
                "the serialization takes {} bytes, out has room for {capacity}",
                bytes.len()
            )));
        }
        slice_mut(out, bytes.len(), "out")?.copy_from_slice(&bytes);
        Ok(())
    })
}

/// Creates a set on `ctx` from a Roaring64 portable serialization that is all of the `size`
/// bytes at `data` (as CRoaring's `roaring64_bitmap_portable_deserialize_safe` reads it, but
/// stricter: bytes after the serialization are refused too). Malformed input (truncated, a
/// bitmap count the bytes cannot hold, high keys not strictly ascending, a malformed 32-bit
/// bitmap, trailing bytes): INVALID_ARGUMENT and no set. `*out` is set only on success.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_deserialize(
    ctx: *mut VkalgoContext,
    data: *const u8,
    size: usize,
    out: *mut *mut VkalgoSet64,
) -> VkalgoResult {
    guard("vkalgo_set64_deserialize", || {
        let ctx = context_ref(ctx)?;
        non_null(out, "out")?;
        let data = slice(data, size, "data")?;
        let set = GpuSet64::deserialize(ctx, data)?;
        super::box_out(out, VkalgoSet64 { set })
    })
}

/// Creates a set on `ctx` from the Roaring64 portable serialization at the start of the `size`
/// bytes at `data`, and the number of bytes it takes into `*read` (the bytes after it are not
/// read: a serialization followed by other data), as CRoaring's
/// `roaring64_bitmap_portable_deserialize_safe` and `_deserialize_size` together. Malformed
/// input: INVALID_ARGUMENT as `vkalgo_set64_deserialize` (but for trailing bytes); `*out` and
/// `*read` are set only on success.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_deserialize_prefix(
    ctx: *mut VkalgoContext,
    data: *const u8,
    size: usize,
    read: *mut usize,
    out: *mut *mut VkalgoSet64,
) -> VkalgoResult {
    guard("vkalgo_set64_deserialize_prefix", || {
        let ctx = context_ref(ctx)?;
        non_null(read, "read")?;
        non_null(out, "out")?;
        let data = slice(data, size, "data")?;
        let (set, taken) = GpuSet64::deserialize_prefix(ctx, data)?;
        *read = taken;
        super::box_out(out, VkalgoSet64 { set })
    })
}

/// Gives every 32-bit set of the set its smallest form for reading (packed directory, no free
/// block), as `vkalgo_set_pack_host` does for one: results of `vkalgo_set64_op`, inserts and
/// removals are flat with free blocks until then. Two submissions; on an error the set is
/// unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_pack(set: *mut VkalgoSet64) -> VkalgoResult {
    guard("vkalgo_set64_pack", || {
        non_null(set, "set")?;
        (*set).set.pack()
    })
}

/// Bytes of device memory the set's 32-bit sets hold into `*out`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set64_memory_bytes(set: *const VkalgoSet64, out: *mut u64) -> VkalgoResult {
    guard("vkalgo_set64_memory_bytes", || {
        let set = set64_ref(set, "set")?;
        write_out(out, set.memory_bytes())
    })
}
