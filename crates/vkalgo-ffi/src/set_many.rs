//! C ABI of many sets in one call: the many-way operation and the batch of independent pairs
//! (blocking host calls; on an error nothing changes and the call returns
//! VKALGO_ERROR_INVALID_ARGUMENT or the error that stopped it).

use super::set::{set_ref, slice, VkalgoSet};
use super::types::VkalgoSetOp;
use super::{guard, non_null, VkalgoResult};
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
        let sets = slice(sets, count, "sets")?;
        let mut operands = Vec::new();
        operands
            .try_reserve_exact(count)
            .map_err(|_| Error::OutOfMemory(format!("{count} sets: no host memory")))?;
        for &s in sets {
            if std::ptr::eq(s, dst) {
                return Err(Error::invalid("dst is one of the operands"));
            }
            operands.push(set_ref(s, "sets[i]")?);
        }
        (*dst).set.assign_many(&operands, op)
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
