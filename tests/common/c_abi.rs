//! C ABI contexts for the tests that go through `vkalgo-ffi`.

use vkalgo::ash::vk;
use vkalgo::ash::vk::Handle;
use vkalgo::{Context, GpuBuffer};
use vkalgo_ffi::extensions::VkalgoKeepScratchZeroed;
use vkalgo_ffi::types::{
    VkBuffer, VkalgoBufferRange, VkalgoStructureType, VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED,
};
use vkalgo_ffi::VkalgoResult;

/// `VKALGO_SUCCESS`: what a C call that worked returns.
pub const OK: VkalgoResult = VkalgoResult::VkalgoSuccess;
/// `VKALGO_ERROR_INVALID_ARGUMENT`: what a refused call returns.
pub const INVALID: VkalgoResult = VkalgoResult::VkalgoErrorInvalidArgument;

/// The C range of `size` bytes at `offset` in `buf`.
pub fn c_range(buf: &GpuBuffer, offset: u64, size: u64) -> VkalgoBufferRange {
    VkalgoBufferRange {
        buffer: VkBuffer(buf.buffer().as_raw()),
        offset,
        size,
    }
}

/// A `VkalgoKeepScratchZeroed` to chain to a plan's desc, and one of an unknown structure type
/// (a chain the plan must refuse).
pub fn keep_scratch_zeroed_chains() -> (VkalgoKeepScratchZeroed, VkalgoKeepScratchZeroed) {
    let kept = VkalgoKeepScratchZeroed {
        next: std::ptr::null(),
        structure_type: VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED,
    };
    let unknown = VkalgoKeepScratchZeroed {
        structure_type: VkalgoStructureType(7),
        ..kept
    };
    (kept, unknown)
}

/// A C context of its own (`vkalgo_context_create_default`). Destroy it with
/// `vkalgo_context_destroy`.
pub unsafe fn c_default_context() -> *mut vkalgo_ffi::VkalgoContext {
    let mut c = std::ptr::null_mut();
    assert_eq!(
        vkalgo_ffi::vkalgo_context_create_default(&mut c),
        vkalgo_ffi::VkalgoResult::VkalgoSuccess
    );
    c
}

/// A C context (`vkalgo_context_create_external`) over `ctx`'s instance and device, for
/// record-layer calls through the C ABI on buffers made with `ctx` (no queue: host calls on it
/// are refused). Destroy it with `vkalgo_context_destroy`.
pub unsafe fn c_context_over(ctx: &Context) -> *mut vkalgo_ffi::VkalgoContext {
    c_external_context(ctx, false, ctx.profile().int16)
}

/// A C context over `ctx`'s instance, device AND queue, so that its host calls run on the same
/// device as `ctx`'s buffers (the tests make one call at a time: the queue lock does nothing).
/// Destroy it with `vkalgo_context_destroy`.
pub unsafe fn c_context_with_queue(ctx: &Context) -> *mut vkalgo_ffi::VkalgoContext {
    c_external_context(ctx, true, ctx.profile().int16)
}

/// A C context over `ctx`'s instance and device, with its queue where `with_queue`, with the
/// 64-bit atomics flag as `ctx`'s profile and the 16-bit flag where `int16`.
pub unsafe fn c_external_context(
    ctx: &Context,
    with_queue: bool,
    int16: bool,
) -> *mut vkalgo_ffi::VkalgoContext {
    use std::ffi::c_void;
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    unsafe extern "C" fn no_lock(_user_data: *mut c_void, _lock: u32) {}
    let entry = vkalgo::ash::Entry::load().expect("Vulkan loader");
    let queue = if with_queue {
        VkQueue(
            ctx.device()
                .get_device_queue(ctx.queue_family_index(), 0)
                .as_raw() as *mut c_void,
        )
    } else {
        VkQueue(std::ptr::null_mut())
    };
    let flag = |on: bool, bit: u32| if on { bit } else { 0 };
    let desc = VkalgoExternalContextDesc {
        instance: VkInstance(ctx.instance().handle().as_raw() as *mut c_void),
        physical_device: VkPhysicalDevice(ctx.physical_device().as_raw() as *mut c_void),
        device: VkDevice(ctx.device().handle().as_raw() as *mut c_void),
        queue_family_index: ctx.queue_family_index(),
        queue,
        get_instance_proc_addr: Some(std::mem::transmute::<
            vk::PFN_vkGetInstanceProcAddr,
            unsafe extern "system" fn(VkInstance, *const std::ffi::c_char) -> *const c_void,
        >(entry.static_fn().get_instance_proc_addr)),
        flags: flag(ctx.profile().int64_atomics, VKALGO_CONTEXT_INT64_ATOMICS_ENABLED)
            | flag(int16, VKALGO_CONTEXT_INT16_ENABLED)
            | flag(ctx.profile().float64, VKALGO_CONTEXT_FLOAT64_ENABLED),
        // Record-layer calls only without a queue.
        queue_lock: if with_queue { Some(no_lock) } else { None },
        ..Default::default()
    };
    let mut cctx = std::ptr::null_mut();
    assert_eq!(
        vkalgo_context_create_external(&desc, &mut cctx),
        VkalgoResult::VkalgoSuccess
    );
    cctx
}
