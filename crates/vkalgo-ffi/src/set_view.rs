//! C ABI of a set's device view: what a caller's shader needs to test membership through
//! `vkalgo/glsl/vkalgo_set.glsl`.

use super::set::{set_ref, VkalgoSet};
use super::{guard, write_out, VkalgoResult};

/// What a shader needs to test membership in a set: `VkalgoSetView` of
/// `vkalgo/glsl/vkalgo_set.glsl` (same 16-byte layout). Valid until the next call that changes
/// the set (inserts, removals, operations written into it, pack, unpack, reserve, shrink,
/// run_optimize).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct VkalgoSetDeviceView {
    /// Device address of the set's control block.
    pub control: u64,
    /// 1 where the directory is packed (`vkalgo_set_pack_host`), else 0.
    pub packed: u32,
    /// 0.
    pub reserved: u32,
}

impl From<vkalgo::SetDeviceView> for VkalgoSetDeviceView {
    fn from(v: vkalgo::SetDeviceView) -> Self {
        VkalgoSetDeviceView {
            control: v.control,
            packed: v.packed,
            reserved: v.reserved,
        }
    }
}

/// What a shader needs to test membership in the set (see `VkalgoSetDeviceView`).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_device_view(
    set: *const VkalgoSet,
    out: *mut VkalgoSetDeviceView,
) -> VkalgoResult {
    guard("vkalgo_set_device_view", || {
        write_out(out, set_ref(set, "set")?.device_view().into())
    })
}
