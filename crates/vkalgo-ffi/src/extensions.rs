//! Extension structures: what a desc's `next` pointer may chain. Each begins with the `next` of
//! the structure after it and its [`VkalgoStructureType`], so a callee reads the chain without
//! knowing every structure in it.

use super::types::*;
use vkalgo::Error;

/// The fields every extension structure begins with.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoExtensionHeader {
    /// The next extension structure of the chain, or NULL.
    pub next: *const std::ffi::c_void,
    /// A `VKALGO_STRUCTURE_TYPE_*` code: which structure this is.
    pub structure_type: VkalgoStructureType,
}

/// Chained to a `VkalgoReduceDesc`, `VkalgoSelectDesc` or `VkalgoReduceByKeyDesc` given to its
/// `*_plan_create`: the plan's scratch is its own and stays zeroed between
/// calls. Zero it once before the first call; every call leaves it as the plan needs it and no
/// clear is recorded before it (one dispatch and one barrier less a call). The scratch must
/// then serve nothing else. The host calls ignore it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoKeepScratchZeroed {
    /// The next extension structure of the chain, or NULL.
    pub next: *const std::ffi::c_void,
    /// `VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED`.
    pub structure_type: VkalgoStructureType,
}

/// Chained to a `VkalgoSegmentedSortDesc` given to `vkalgo_segmented_sort_plan_create`: no
/// segment of any call is longer than `max_segment_length` elements. A bound of at most the
/// plan's small limit (`vkalgo_segmented_sort_plan_small_limit`) records the sort in two
/// dispatches, without the merge rounds; a longer segment is then left in an unspecified order
/// of its own elements (never an access outside the buffers). The host call finds the bound
/// in the offsets itself.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSegmentLengthBound {
    /// The next extension structure of the chain, or NULL.
    pub next: *const std::ffi::c_void,
    /// `VKALGO_STRUCTURE_TYPE_SEGMENT_LENGTH_BOUND`.
    pub structure_type: VkalgoStructureType,
    /// The most elements any segment holds.
    pub max_segment_length: u64,
}

/// The last `VkalgoSegmentLengthBound` of the chain from `next` (checked by
/// [`chained_types`] first), or None.
///
/// # Safety
/// As [`chained_types`].
pub(crate) unsafe fn segment_length_bound(
    next: *const std::ffi::c_void,
    what: &str,
) -> vkalgo::Result<Option<u64>> {
    chained_types(next, what, &[VKALGO_STRUCTURE_TYPE_SEGMENT_LENGTH_BOUND])?;
    let mut bound = None;
    let mut at = next as *const VkalgoExtensionHeader;
    while !at.is_null() {
        let header = std::ptr::read(at);
        if header.structure_type == VKALGO_STRUCTURE_TYPE_SEGMENT_LENGTH_BOUND {
            if at as usize % std::mem::align_of::<VkalgoSegmentLengthBound>() != 0 {
                return Err(Error::invalid(format!(
                    "{what}: VkalgoSegmentLengthBound is not aligned to 8 bytes"
                )));
            }
            bound = Some(std::ptr::read(at as *const VkalgoSegmentLengthBound).max_segment_length);
        }
        at = header.next as *const VkalgoExtensionHeader;
    }
    Ok(bound)
}

/// The longest chain read: a longer one is refused (a chain that loops never ends).
const MAX_CHAIN: usize = 16;

/// The types of the structures chained from `next`, in order. Refuses a misaligned structure,
/// a type not in `accepted`, and a chain longer than 16 structures.
///
/// # Safety
/// Every non-NULL pointer of the chain must point to a readable extension header.
pub(crate) unsafe fn chained_types(
    next: *const std::ffi::c_void,
    what: &str,
    accepted: &[VkalgoStructureType],
) -> vkalgo::Result<Vec<VkalgoStructureType>> {
    let mut types = Vec::new();
    let mut at = next as *const VkalgoExtensionHeader;
    while !at.is_null() {
        if types.len() == MAX_CHAIN {
            return Err(Error::invalid(format!(
                "{what}: more than {MAX_CHAIN} extension structures chained (a loop?)"
            )));
        }
        if at as usize % std::mem::align_of::<VkalgoExtensionHeader>() != 0 {
            return Err(Error::invalid(format!(
                "{what}: an extension structure is not aligned to a pointer"
            )));
        }
        let header = std::ptr::read(at);
        if !accepted.contains(&header.structure_type) {
            return Err(Error::invalid(format!(
                "{what}: extension structure type {} is not one this call takes",
                header.structure_type.0
            )));
        }
        types.push(header.structure_type);
        at = header.next as *const VkalgoExtensionHeader;
    }
    Ok(types)
}
