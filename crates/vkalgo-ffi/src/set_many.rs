//! C ABI of many sets in one call: the many-way operation, the batch of independent pairs,
//! and sets built, serialized, read, listed and counted many at a time (blocking host calls;
//! on an error nothing changes and the call returns VKALGO_ERROR_INVALID_ARGUMENT or the error
//! that stopped it).

use super::set::{set_list, set_ref, slice, slice_mut, VkalgoSet};
use super::types::VkalgoSetOp;
use super::{context_ref, guard, non_null, VkalgoContext, VkalgoResult};
use std::collections::HashSet;
use vkalgo::{Error, GpuSet, SetOperand};

/// `*dst = sets[0] op sets[1] op ... op sets[count - 1]`, left to right (ANDNOT: `sets[0]`
/// minus the union of the others; one set: a copy of it). `count` >= 1, no entry NULL, `dst`
/// not one of the operands, every set of the same context: else INVALID_ARGUMENT and `dst`
/// unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_op_many(
    dst: *mut VkalgoSet,
    sets: *const *const VkalgoSet,
    count: usize,
    op: VkalgoSetOp,
) -> VkalgoResult {
    guard("vkalgo_set_op_many", || {
        non_null(dst, "dst")?;
        let op = op.to_rust()?;
        if count == 0 {
            return Err(Error::invalid("count is 0: no sets"));
        }
        let operands = set_list(sets, count, "sets")?;
        if operands.iter().any(|s| std::ptr::eq(*s, &(*dst).set)) {
            return Err(Error::invalid("dst is one of the operands"));
        }
        (*dst).set.assign_many(&operands, op)
    })
}

/// `*cardinality_out = |sets[0] op sets[1] op ... op sets[count - 1]|` (ANDNOT: `sets[0]`
/// minus the union of the others) without materializing it, in one submission. `count` >= 1,
/// no entry NULL, every set of the same context: else INVALID_ARGUMENT and
/// `*cardinality_out` untouched. On a CPU driver at most 64 sets (else UNSUPPORTED).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_op_many_cardinality(
    sets: *const *const VkalgoSet,
    count: usize,
    op: VkalgoSetOp,
    cardinality_out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_set_op_many_cardinality", || {
        non_null(cardinality_out, "cardinality_out")?;
        let op = op.to_rust()?;
        if count == 0 {
            return Err(Error::invalid("count is 0: no sets"));
        }
        let operands = set_list(sets, count, "sets")?;
        *cardinality_out = GpuSet::op_many_cardinality(&operands, op)?;
        Ok(())
    })
}

/// `*dst[i] = *a[i] op *b[i]` for every `i < count`, in one submission. The `dst` sets must
/// be distinct and none may be an operand of any pair; operands may repeat; every set of the
/// same context; no entry NULL: else INVALID_ARGUMENT and nothing changed. `count` 0: nothing
/// to do.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_op_batch(
    dst: *const *mut VkalgoSet,
    a: *const *const VkalgoSet,
    b: *const *const VkalgoSet,
    count: usize,
    op: VkalgoSetOp,
) -> VkalgoResult {
    guard("vkalgo_set_op_batch", || {
        let op = op.to_rust()?;
        if count == 0 {
            return Ok(());
        }
        let (dst, a, b) = (
            slice(dst, count, "dst")?,
            slice(a, count, "a")?,
            slice(b, count, "b")?,
        );
        let mut targets = HashSet::new();
        targets
            .try_reserve(count)
            .map_err(|_| Error::OutOfMemory(format!("{count} pairs: no host memory")))?;
        for &d in dst {
            non_null(d, "dst[i]")?;
            if !targets.insert(d as *const VkalgoSet) {
                return Err(Error::invalid("a set is dst of two pairs"));
            }
        }
        let mut pairs = Vec::with_capacity(count);
        for (&x, &y) in a.iter().zip(b) {
            if targets.contains(&x) || targets.contains(&y) {
                return Err(Error::invalid("a dst set is an operand of a pair"));
            }
            pairs.push((set_ref(x, "a[i]")?, set_ref(y, "b[i]")?));
        }
        // Every dst is distinct and no operand: the exclusive references do not alias.
        let mut jobs: Vec<_> = dst
            .iter()
            .zip(&pairs)
            .map(|(&d, &(x, y))| (&mut (*d).set, SetOperand::Set(x), SetOperand::Set(y), op))
            .collect();
        GpuSet::assign_batch(&mut jobs)
    })
}

/// Writes the new sets to `out[0..]` (room checked by the caller).
unsafe fn write_sets(made: Vec<GpuSet>, out: *mut *mut VkalgoSet) -> vkalgo::Result<()> {
    for (i, set) in made.into_iter().enumerate() {
        *out.add(i) = Box::into_raw(Box::new(VkalgoSet { set }));
    }
    Ok(())
}

/// The CSR input of the bulk constructors: `count + 1` offsets, the `offsets[count]` elements
/// at `data` they index, and `sets_out` checked (room for `count` sets).
unsafe fn csr_input<'a, T>(
    data: *const T,
    offsets: *const u64,
    count: usize,
    sets_out: *mut *mut VkalgoSet,
    what: &str,
) -> vkalgo::Result<(&'a [T], &'a [u64])> {
    let entries = count
        .checked_add(1)
        .ok_or_else(|| Error::invalid("count overflows"))?;
    let offsets = slice(offsets, entries, "offsets")?;
    let total = usize::try_from(offsets[count]).map_err(|_| Error::invalid("offsets[count] is too large"))?;
    let data = slice(data, total, what)?;
    if count > 0 {
        non_null(sets_out, "sets_out")?;
    }
    Ok((data, offsets))
}

/// Creates `count` sets on `ctx`, set `i` holding `values[offsets[i]..offsets[i + 1]]` (any
/// order, duplicates allowed): `offsets` has `count + 1` entries, starts at 0 and never
/// decreases (CSR; `values` holds `offsets[count]` values). One upload for all; the new sets
/// go to `sets_out[0..count]` (destroy each; sets of up to 4 MiB share buffers of up to
/// 16 MiB, each freed with the last of its sets). Bad offsets or a NULL: INVALID_ARGUMENT, no
/// set.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_from_values_many(
    ctx: *mut VkalgoContext,
    values: *const u32,
    offsets: *const u64,
    count: usize,
    sets_out: *mut *mut VkalgoSet,
) -> VkalgoResult {
    guard("vkalgo_set_from_values_many", || {
        let ctx = context_ref(ctx)?;
        let (values, offsets) = csr_input(values, offsets, count, sets_out, "values")?;
        write_sets(GpuSet::from_values_many(ctx, values, offsets)?, sets_out)
    })
}

/// Creates `count` sets on `ctx` from Roaring portable serializations back to back: set `i`
/// from `data[offsets[i]..offsets[i + 1]]` (`offsets`: `count + 1` entries from 0, never
/// decreasing; `data` holds `offsets[count]` bytes). One upload for all; the new sets go to
/// `sets_out[0..count]` (buffers shared as `vkalgo_set_from_values_many`'s). Malformed
/// offsets or serializations: INVALID_ARGUMENT, no set.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_deserialize_many(
    ctx: *mut VkalgoContext,
    data: *const u8,
    offsets: *const u64,
    count: usize,
    sets_out: *mut *mut VkalgoSet,
) -> VkalgoResult {
    guard("vkalgo_set_deserialize_many", || {
        let ctx = context_ref(ctx)?;
        let (data, offsets) = csr_input(data, offsets, count, sets_out, "data")?;
        write_sets(GpuSet::deserialize_many(ctx, data, offsets)?, sets_out)
    })
}

/// Writes `items` into `out` (room for `capacity`) and `offsets` into `offsets_out` (`count + 1`
/// entries), the number of items into `*written`. `out` NULL with capacity 0: only `*written`
/// (the size query). Capacity too small: INVALID_ARGUMENT, `*written` = the number needed,
/// nothing else written.
unsafe fn write_many<T: Copy>(
    items: &[T],
    offsets: &[u64],
    out: *mut T,
    capacity: usize,
    offsets_out: *mut u64,
    written: *mut usize,
) -> vkalgo::Result<()> {
    non_null(written, "written")?;
    *written = items.len();
    if out.is_null() && capacity == 0 {
        return Ok(());
    }
    if items.len() > capacity {
        return Err(Error::invalid(format!(
            "the output takes {} elements, out has room for {capacity}",
            items.len()
        )));
    }
    non_null(offsets_out, "offsets_out")?;
    slice_mut(out, items.len(), "out")?.copy_from_slice(items);
    std::slice::from_raw_parts_mut(offsets_out, offsets.len()).copy_from_slice(offsets);
    Ok(())
}

/// The Roaring portable serializations of `sets[0..count]` (each as
/// `vkalgo_set_serialize_host` writes it) back to back into `out` (room for `capacity` bytes),
/// their offsets into `offsets_out` (`count + 1` entries: set `i`'s bytes are
/// `out[offsets_out[i]..offsets_out[i + 1]]`) and the total into `*written`; one download for
/// all. `out` NULL with capacity 0: the size query. Capacity too small: INVALID_ARGUMENT,
/// `*written` = the bytes needed, nothing else written.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_serialize_many(
    sets: *const *const VkalgoSet,
    count: usize,
    out: *mut u8,
    capacity: usize,
    offsets_out: *mut u64,
    written: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_set_serialize_many", || {
        let list = set_list(sets, count, "sets")?;
        let (bytes, offsets) = GpuSet::serialize_many(&list)?;
        write_many(&bytes, &offsets, out, capacity, offsets_out, written)
    })
}

/// The values of `sets[0..count]` in ascending order, back to back, into `out` (room for
/// `capacity` values), their offsets into `offsets_out` (`count + 1` entries) and the total
/// into `*written`; one download for all. Size query and too small a capacity as
/// `vkalgo_set_serialize_many`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_to_array_many(
    sets: *const *const VkalgoSet,
    count: usize,
    out: *mut u32,
    capacity: usize,
    offsets_out: *mut u64,
    written: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_set_to_array_many", || {
        let list = set_list(sets, count, "sets")?;
        let (values, offsets) = GpuSet::to_array_many(&list)?;
        write_many(&values, &offsets, out, capacity, offsets_out, written)
    })
}

/// The cardinality of each of `sets[0..count]` into `out[0..count]`: those known on the host at
/// once, the others counted in one submission. On an error nothing is written.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_cardinalities(
    sets: *const *const VkalgoSet,
    count: usize,
    out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_set_cardinalities", || {
        let list = set_list(sets, count, "sets")?;
        let cards = GpuSet::cardinalities(&list)?;
        slice_mut(out, count, "out")?.copy_from_slice(&cards);
        Ok(())
    })
}
