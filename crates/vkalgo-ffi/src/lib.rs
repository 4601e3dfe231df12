//! The C ABI (the only place with `extern "C"`). Every function validates its arguments,
//! catches panics, and reports errors as a negative [`VkalgoResult`] plus a thread-local
//! message ([`vkalgo_last_error_message`]). Nothing aborts, nothing prints.
//!
//! Safety (all functions): non-NULL pointers must point to valid objects of the documented
//! type and length; handles must come from the matching create call and not be destroyed.
#![allow(clippy::missing_safety_doc)]

pub mod enums;
pub mod extensions;
pub mod hash;
pub mod hash_apply;
pub mod hash_multimap;
pub mod merge;
pub mod merge_sort;
pub mod reduce;
pub mod scan;
pub mod select;
pub mod set;
pub mod set_many;
pub mod set_order;
pub mod set_record;
pub mod set_view;
pub mod sort;
pub mod split;
// (After split: the histogram takes the multisplit's desc, and the header keeps its order.)
pub mod histogram;
// (After the histogram: the header is appended to.)
pub mod reduce_by_key;
// (After reduce-by-key: the header is appended to.)
pub mod segmented_sort;
// (After the segmented sort: the header is appended to.)
pub mod set64;
pub mod types;

mod coverage;

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;
use types::*;
use vkalgo::Error;
use vkalgo::{Context, ContextOptions};

/// Major version of the library (the header's `VKALGO_VERSION_MAJOR`; both come from the
/// crate version).
pub const VKALGO_VERSION_MAJOR: u32 = version_part(env!("CARGO_PKG_VERSION_MAJOR"));
/// Minor version of the library.
pub const VKALGO_VERSION_MINOR: u32 = version_part(env!("CARGO_PKG_VERSION_MINOR"));
/// Patch version of the library.
pub const VKALGO_VERSION_PATCH: u32 = version_part(env!("CARGO_PKG_VERSION_PATCH"));

/// A decimal version component, at compile time.
const fn version_part(digits: &str) -> u32 {
    let bytes = digits.as_bytes();
    let mut value = 0;
    let mut i = 0;
    while i < bytes.len() {
        value = value * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    value
}

/// Status of every vkalgo call: 0 is success, errors are negative and distinct.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VkalgoResult {
    /// The call succeeded.
    VkalgoSuccess = 0,
    /// An argument is wrong (NULL, size, alignment, overlap, count over the maximum, unknown
    /// enum value). Nothing was changed.
    VkalgoErrorInvalidArgument = -1,
    /// The device or driver lacks a needed feature (the message names it).
    VkalgoErrorUnsupported = -2,
    /// Host or device memory ran out.
    VkalgoErrorOutOfMemory = -3,
    /// The Vulkan device was lost.
    VkalgoErrorDeviceLost = -4,
    /// A GPU wait exceeded the context's timeout.
    VkalgoErrorTimeout = -5,
    /// A table or pool is full.
    VkalgoErrorTableFull = -6,
    /// A shader compiled at run time failed to compile.
    VkalgoErrorCompile = -7,
    /// Another Vulkan error.
    VkalgoErrorVulkan = -8,
    /// A bug inside vkalgo.
    VkalgoErrorInternal = -9,
}

/// `Default` for C structs as C's `= {0}`: every field zero, `next` NULL (for Rust callers of
/// the C ABI, the tests).
macro_rules! zeroed_default {
    ($($t:ty),* $(,)?) => {$(
        impl Default for $t {
            fn default() -> Self {
                // SAFETY: every field is an integer, a raw pointer, an optional function
                // pointer, or an array or struct of those: all zero is a valid value.
                unsafe { std::mem::zeroed() }
            }
        }
    )*};
}

zeroed_default!(
    VkalgoContextDesc,
    VkalgoExternalContextDesc,
    VkalgoMemoryUsage,
    VkalgoBufferRange,
    VkalgoMemoryRequirements,
    hash::VkalgoHashMapDesc,
    hash::VkalgoHashInsertArgs,
    hash::VkalgoHashFindArgs,
    hash::VkalgoHashEraseArgs,
    hash::VkalgoHashRetrieveArgs,
    hash::VkalgoHashMapStats,
    hash::VkalgoHashRehashArgs,
    hash::VkalgoHashSizeArgs,
    merge::VkalgoMergeDesc,
    merge::VkalgoSortedSetOpDesc,
    merge::VkalgoMergeArgs,
    merge::VkalgoSortedSetOpArgs,
    merge_sort::VkalgoMergeSortDesc,
    merge_sort::VkalgoMergeSortArgs,
    scan::VkalgoScanDesc,
    scan::VkalgoScanArgs,
    reduce::VkalgoReduceDesc,
    extensions::VkalgoExtensionHeader,
    extensions::VkalgoKeepScratchZeroed,
    extensions::VkalgoSegmentLengthBound,
    reduce::VkalgoReduceArgs,
    histogram::VkalgoHistogramArgs,
    select::VkalgoSelectDesc,
    select::VkalgoSelectArgs,
    set::VkalgoSetDesc,
    set_record::VkalgoSetOpArgs,
    set_record::VkalgoSetCardinalityArgs,
    set_record::VkalgoSetCardinalityBatchArgs,
    set_record::VkalgoSetManyCardinalityArgs,
    set_record::VkalgoSetOpManyArgs,
    set_record::VkalgoSetOpBatchArgs,
    set_record::VkalgoSetInsertSortedArgs,
    set_record::VkalgoSetInsertRangeArgs,
    set_record::VkalgoSetRunOptimizeArgs,
    set_record::VkalgoSetInsertPlanDesc,
    set_record::VkalgoSetInsertArgs,
    set_record::VkalgoSetContainsArgs,
    set_record::VkalgoSetFilterArgs,
    set_record::VkalgoSetToArrayArgs,
    set_record::VkalgoSetRangeCardinalityArgs,
    set_order::VkalgoSetRankArgs,
    set_order::VkalgoSetSelectArgs,
    set_order::VkalgoSetMinMaxArgs,
    sort::VkalgoSortDesc,
    sort::VkalgoSortArgs,
    split::VkalgoMultisplitDesc,
    split::VkalgoMultisplitArgs,
);

/// A vkalgo context: a Vulkan device with vkalgo's pipelines and allocator.
///
/// Lifetime: every object created from a context (hash maps, plans, ...) keeps it alive;
/// `vkalgo_context_destroy` drops the caller's handle, and the context is freed with the last
/// handle, so objects and their context may be destroyed in any order.
///
/// Threads: every function taking a context may be called from several threads at once.
/// `_host` calls on one context are serialized on its queue (each runs as a whole, in some
/// order); record calls only record into the caller's command buffers (the caller orders
/// them). On an external context `_host` calls need the caller's queue and queue lock. A
/// `_host` call that times out marks the context lost: later `_host` calls return
/// VKALGO_ERROR_DEVICE_LOST and nothing the GPU may still use is freed.
pub struct VkalgoContext {
    pub(crate) ctx: Context,
    device_name_c: CString,
    cache_note_c: CString,
}

impl VkalgoContext {
    fn new(ctx: Context) -> Self {
        let c_string = |s: &str| CString::new(s.replace('\0', " ")).unwrap_or_default();
        let device_name_c = c_string(ctx.device_name());
        let cache_note_c = c_string(ctx.pipeline_cache_note().unwrap_or(""));
        VkalgoContext {
            ctx,
            device_name_c,
            cache_note_c,
        }
    }
}

/// Copies `size` bytes at `data` (NULL with size 0: none).
unsafe fn optional_bytes(
    data: *const std::ffi::c_void,
    size: usize,
    what: &str,
) -> vkalgo::Result<Option<Vec<u8>>> {
    match (data.is_null(), size) {
        (true, 0) => Ok(None),
        (true, _) => Err(Error::invalid(format!("{what} is NULL with a size of {size}"))),
        (false, _) => Ok(Some(try_copy(
            std::slice::from_raw_parts(data as *const u8, size),
            what,
        )?)),
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
}

impl From<&Error> for VkalgoResult {
    fn from(e: &Error) -> Self {
        match e {
            Error::InvalidArgument(_) => VkalgoResult::VkalgoErrorInvalidArgument,
            Error::Unsupported(_) => VkalgoResult::VkalgoErrorUnsupported,
            Error::OutOfMemory(_) => VkalgoResult::VkalgoErrorOutOfMemory,
            Error::DeviceLost => VkalgoResult::VkalgoErrorDeviceLost,
            Error::Timeout(_) => VkalgoResult::VkalgoErrorTimeout,
            Error::TableFull(_) => VkalgoResult::VkalgoErrorTableFull,
            Error::CompileError(_) => VkalgoResult::VkalgoErrorCompile,
            Error::Vulkan { .. } => VkalgoResult::VkalgoErrorVulkan,
            _ => VkalgoResult::VkalgoErrorInternal,
        }
    }
}

/// Runs `body`, converting errors and panics into a [`VkalgoResult`] and the thread-local
/// message. `name` prefixes the message.
pub(crate) fn guard(name: &str, body: impl FnOnce() -> vkalgo::Result<()>) -> VkalgoResult {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => {
            set_last_error("");
            VkalgoResult::VkalgoSuccess
        }
        Ok(Err(e)) => {
            set_last_error(&format!("{name}: {e}"));
            log::warn!("{name}: {e}");
            VkalgoResult::from(&e)
        }
        Err(_) => {
            set_last_error(&format!("{name}: internal panic"));
            VkalgoResult::VkalgoErrorInternal
        }
    }
}

/// Checks a pointer argument for NULL.
pub(crate) fn non_null<T>(ptr: *const T, what: &str) -> vkalgo::Result<()> {
    if ptr.is_null() {
        Err(Error::invalid(format!("{what} is NULL")))
    } else {
        Ok(())
    }
}

/// Writes `value` to `*out`, refusing a NULL `out`.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T) -> vkalgo::Result<()> {
    non_null(out, "out")?;
    *out = value;
    Ok(())
}

/// Refuses a `next` pointer that is not NULL: no extension structure is defined yet.
pub(crate) fn no_extension<T>(next: *const T, what: &str) -> vkalgo::Result<()> {
    if next.is_null() {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "{what}: no extension structure is defined (NULL)"
        )))
    }
}

/// `count` elements of `size` bytes, or an error when that is more than an array can hold
/// (`isize::MAX` bytes).
pub(crate) fn byte_len(count: usize, size: u64, what: &str) -> vkalgo::Result<usize> {
    usize::try_from(size)
        .ok()
        .and_then(|size| count.checked_mul(size))
        .filter(|&bytes| bytes <= isize::MAX as usize)
        .ok_or_else(|| Error::invalid(format!("{what}: count {count} is too large")))
}

/// `count` copies of `value` in a host vector: OUT_OF_MEMORY when the allocation fails,
/// INVALID_ARGUMENT when no array can be that large, never an abort.
pub(crate) fn try_filled<T: Clone>(value: T, count: usize, what: &str) -> vkalgo::Result<Vec<T>> {
    byte_len(count, std::mem::size_of::<T>() as u64, what)?;
    let mut v = Vec::new();
    v.try_reserve_exact(count)
        .map_err(|_| Error::OutOfMemory(format!("{what}: no host memory for {count} elements")))?;
    v.resize(count, value);
    Ok(v)
}

/// `item(0..count)` in a host vector (`what`: the items, for the message): OUT_OF_MEMORY when
/// the allocation fails, never an abort; the first error of `item` otherwise.
pub(crate) fn try_collect<T>(
    count: usize,
    what: &str,
    mut item: impl FnMut(usize) -> vkalgo::Result<T>,
) -> vkalgo::Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(count)
        .map_err(|_| Error::OutOfMemory(format!("{count} {what}: no host memory")))?;
    for i in 0..count {
        v.push(item(i)?);
    }
    Ok(v)
}

/// A host copy of `data`: OUT_OF_MEMORY when the allocation fails, never an abort.
pub(crate) fn try_copy<T: Clone>(data: &[T], what: &str) -> vkalgo::Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(data.len())
        .map_err(|_| Error::OutOfMemory(format!("{what}: no host memory for {} elements", data.len())))?;
    v.extend_from_slice(data);
    Ok(v)
}

/// Frees a handle made by `Box::into_raw` (every `_destroy`): NULL is ignored and a panic while
/// dropping is caught, never unwound into C.
pub(crate) unsafe fn destroy_boxed<T>(handle: *mut T) {
    if !handle.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(handle))));
    }
}

/// Runs `body` on copies of the caller's `count` keys (`key_size` bytes each) and values
/// (`value_size` bytes each; 0: none, `values` unused), then writes the copies back: an error
/// from `body` leaves the caller's arrays unchanged. The pointers must hold that many elements
/// (NULL only with `count` 0).
pub(crate) unsafe fn in_place_on_copies<T>(
    keys: *mut std::ffi::c_void,
    key_size: u64,
    values: *mut std::ffi::c_void,
    value_size: u64,
    count: usize,
    what: &str,
    body: impl FnOnce(&mut [u8], Option<&mut [u8]>) -> vkalgo::Result<T>,
) -> vkalgo::Result<T> {
    let key_bytes = byte_len(count, key_size, what)?;
    let value_bytes = byte_len(count, value_size, what)?;
    let copy = |ptr: *mut std::ffi::c_void, bytes: usize| {
        if bytes == 0 {
            Ok(Vec::new())
        } else {
            try_copy(std::slice::from_raw_parts(ptr as *const u8, bytes), what)
        }
    };
    let mut key_copy = copy(keys, key_bytes)?;
    let mut value_copy = if value_size > 0 {
        Some(copy(values, value_bytes)?)
    } else {
        None
    };
    let result = body(&mut key_copy, value_copy.as_deref_mut())?;
    if key_bytes > 0 {
        std::ptr::copy_nonoverlapping(key_copy.as_ptr(), keys as *mut u8, key_bytes);
    }
    if let Some(v) = value_copy.filter(|_| value_bytes > 0) {
        std::ptr::copy_nonoverlapping(v.as_ptr(), values as *mut u8, value_bytes);
    }
    Ok(result)
}

/// A shared reference to the context behind a C handle.
pub(crate) unsafe fn context_ref<'a>(ctx: *const VkalgoContext) -> vkalgo::Result<&'a Context> {
    non_null(ctx, "ctx")?;
    Ok(&(*ctx).ctx)
}

/// Hands `value` to C as a new handle in `*out` (checked for NULL by the caller first, before
/// anything is made): every `_create`.
pub(crate) unsafe fn box_out<T>(out: *mut *mut T, value: T) -> vkalgo::Result<()> {
    *out = Box::into_raw(Box::new(value));
    Ok(())
}

/// Library version as `(major << 22) | (minor << 12) | patch` (Vulkan's encoding).
#[no_mangle]
pub extern "C" fn vkalgo_version() -> u32 {
    (VKALGO_VERSION_MAJOR << 22) | (VKALGO_VERSION_MINOR << 12) | VKALGO_VERSION_PATCH
}

/// Creates a context on a device of vkalgo's own (the loader is found at run time;
/// `VKALGO_DEVICE`, `VKALGO_VALIDATION`, `VKALGO_LOOKBACK`, `VKALGO_TIMEOUT_MS` apply). Such
/// contexts share one Vulkan instance, made by the first and kept until the process ends (with
/// `VKALGO_VALIDATION` each has its own). `*out` is set only on success.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_create_default(out: *mut *mut VkalgoContext) -> VkalgoResult {
    guard("vkalgo_context_create_default", || {
        non_null(out, "out")?;
        let ctx = Context::with_options(&ContextOptions::from_env())?;
        box_out(out, VkalgoContext::new(ctx))
    })
}

/// Options of [`vkalgo_context_create`] (zero-initialize, then set what you need).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoContextDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Pipeline cache data saved from `vkalgo_context_pipeline_cache_data` (NULL: none). Data
    /// made by another device or driver is ignored (`vkalgo_context_pipeline_cache_note` says
    /// so). Copied; the caller may free it after the call.
    pub pipeline_cache_data: *const std::ffi::c_void,
    /// Bytes at `pipeline_cache_data`.
    pub pipeline_cache_data_size: usize,
}

/// Creates a context on a device of vkalgo's own, as `vkalgo_context_create_default` does,
/// with the options of `desc`. `*out` is set only on success.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_create(
    desc: *const VkalgoContextDesc,
    out: *mut *mut VkalgoContext,
) -> VkalgoResult {
    guard("vkalgo_context_create", || {
        non_null(desc, "desc")?;
        non_null(out, "out")?;
        let d = &*desc;
        no_extension(d.next, "context desc")?;
        let mut options = ContextOptions::from_env();
        options.pipeline_cache_data = optional_bytes(
            d.pipeline_cache_data,
            d.pipeline_cache_data_size,
            "pipeline_cache_data",
        )?;
        let ctx = Context::with_options(&options)?;
        box_out(out, VkalgoContext::new(ctx))
    })
}

/// The data of the context's pipeline cache, to save and pass back at the next creation
/// (`VkalgoContextDesc` or `VkalgoExternalContextDesc`). With `data` NULL, `*size` gets the
/// byte count; else `*size` must be at least that (else INVALID_ARGUMENT and nothing written)
/// and gets the bytes written.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_pipeline_cache_data(
    ctx: *const VkalgoContext,
    data: *mut std::ffi::c_void,
    size: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_context_pipeline_cache_data", || {
        non_null(ctx, "ctx")?;
        non_null(size, "size")?;
        let bytes = (*ctx).ctx.pipeline_cache_data()?;
        if data.is_null() {
            *size = bytes.len();
            return Ok(());
        }
        if *size < bytes.len() {
            return Err(Error::invalid(format!(
                "pipeline cache data: *size is {}, the data takes {}",
                *size,
                bytes.len()
            )));
        }
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), data as *mut u8, bytes.len());
        *size = bytes.len();
        Ok(())
    })
}

/// Why the pipeline cache data given at creation was not used ("" when it was, or when none
/// was given; never NULL). Valid while the context lives.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_pipeline_cache_note(ctx: *const VkalgoContext) -> *const c_char {
    if ctx.is_null() {
        return c"".as_ptr();
    }
    (*ctx).cache_note_c.as_ptr()
}

/// Warm-up mask bit: scans (every key type and operation).
pub const VKALGO_ALGORITHM_SCAN: u32 = 1;
/// Warm-up mask bit: radix sorts (every key and value type).
pub const VKALGO_ALGORITHM_SORT: u32 = 2;
/// Warm-up mask bit: hash maps (every key/value layout).
pub const VKALGO_ALGORITHM_HASH_MAP: u32 = 4;
/// Warm-up mask bit: merges.
pub const VKALGO_ALGORITHM_MERGE: u32 = 8;
/// Warm-up mask bit: merge sorts.
pub const VKALGO_ALGORITHM_MERGE_SORT: u32 = 16;
/// Warm-up mask bit: sorted-array set operations.
pub const VKALGO_ALGORITHM_SET_OPS: u32 = 32;
/// Warm-up mask bit: bitmap sets.
pub const VKALGO_ALGORITHM_SETS: u32 = 64;
/// Warm-up mask bit: reduces (every key type and operation).
pub const VKALGO_ALGORITHM_REDUCE: u32 = 128;
/// Warm-up mask bit: histograms (every key type and built-in bucket function).
pub const VKALGO_ALGORITHM_HISTOGRAM: u32 = 256;
/// Warm-up mask bit: selects (every key and value type, FLAGGED and UNIQUE).
pub const VKALGO_ALGORITHM_SELECT: u32 = 512;
/// Warm-up mask bit: reduce-by-key and run-length encoding (every key and value type and
/// operation).
pub const VKALGO_ALGORITHM_REDUCE_BY_KEY: u32 = 1024;
/// Warm-up mask bit: segmented sorts (every key type, keys only and with u32 or u64 values).
pub const VKALGO_ALGORITHM_SEGMENTED_SORT: u32 = 2048;

/// Creates the pipelines of the algorithms in `algorithms` (a mask of `VKALGO_ALGORITHM_*`)
/// now, for every key and value type at the default tuning, through the context's pipeline
/// cache (plans and objects create theirs when made; recording never compiles). Unknown
/// bits: INVALID_ARGUMENT, nothing created.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_warm_up(ctx: *const VkalgoContext, algorithms: u32) -> VkalgoResult {
    guard("vkalgo_context_warm_up", || {
        let ctx = context_ref(ctx)?;
        let known = vkalgo::Algorithm::ALL.iter().fold(0u32, |m, &a| m | a as u32);
        if algorithms & !known != 0 {
            return Err(Error::invalid(format!(
                "warm-up: unknown algorithm bits 0x{:x}",
                algorithms & !known
            )));
        }
        let list: Vec<vkalgo::Algorithm> = vkalgo::Algorithm::ALL
            .into_iter()
            .filter(|&a| algorithms & a as u32 != 0)
            .collect();
        ctx.warm_up(&list)
    })
}

/// What `vkalgo_context_memory_usage` reports.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMemoryUsage {
    /// Reserved for extension structs: set it to NULL.
    pub next: *mut std::ffi::c_void,
    /// Bytes in vkalgo's live allocations (objects' storage, host-call staging).
    pub allocated_bytes: u64,
    /// Bytes of Vulkan memory vkalgo holds (its memory blocks, allocated or not).
    pub reserved_bytes: u64,
}

/// Bytes vkalgo has allocated and holds from Vulkan on this context (objects created on
/// caller memory count nothing). NULL ctx or out: INVALID_ARGUMENT.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_memory_usage(
    ctx: *const VkalgoContext,
    out: *mut VkalgoMemoryUsage,
) -> VkalgoResult {
    guard("vkalgo_context_memory_usage", || {
        non_null(ctx, "ctx")?;
        non_null(out, "out")?;
        no_extension((*out).next, "memory usage")?;
        let usage = (*ctx).ctx.memory_usage();
        *out = VkalgoMemoryUsage {
            next: std::ptr::null_mut(),
            allocated_bytes: usage.allocated_bytes,
            reserved_bytes: usage.reserved_bytes,
        };
        Ok(())
    })
}

/// Frees the buffers the context keeps for reuse: host calls free their working, staging and
/// readback buffers (and the storage of sets made by one call) into a cache of up to 256 MiB,
/// which `vkalgo_context_memory_usage` counts as reserved, not allocated. NULL ctx:
/// INVALID_ARGUMENT.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_release_kept_memory(ctx: *const VkalgoContext) -> VkalgoResult {
    guard("vkalgo_context_release_kept_memory", || {
        non_null(ctx, "ctx")?;
        (*ctx).ctx.release_kept_memory();
        Ok(())
    })
}

/// Context flag: the caller enabled VK_EXT_debug_utils (vkalgo names its pipelines).
pub const VKALGO_CONTEXT_DEBUG_UTILS: u32 = 1;
/// Context flag: force single-pass look-back algorithms on.
pub const VKALGO_CONTEXT_LOOKBACK_ON: u32 = 2;
/// Context flag: force single-pass look-back algorithms off.
pub const VKALGO_CONTEXT_LOOKBACK_OFF: u32 = 4;
/// Context flag: the caller enabled `shaderBufferInt64Atomics` on its device (needed by the
/// look-back scan, Onesweep and 64-bit hash maps; vkalgo never uses it otherwise).
pub const VKALGO_CONTEXT_INT64_ATOMICS_ENABLED: u32 = 8;
/// Context flag: the caller enabled `subgroupSizeControl` + `computeFullSubgroups` on its device.
pub const VKALGO_CONTEXT_FULL_SUBGROUPS_ENABLED: u32 = 16;
/// Context flag: the caller enabled `shaderInt16` on its device (the sets' small array pairs
/// then keep their lists as 16-bit values).
pub const VKALGO_CONTEXT_INT16_ENABLED: u32 = 32;
/// Context flag: the caller enabled `shaderFloat64` on its device (sums of f64 keys in the
/// reduce and the scan, GLSL bucket functions of f64 keys; without it they are refused with
/// VKALGO_ERROR_UNSUPPORTED).
pub const VKALGO_CONTEXT_FLOAT64_ENABLED: u32 = 64;

/// The caller's Vulkan objects for [`vkalgo_context_create_external`]; vkalgo never destroys
/// them. The device needs Vulkan 1.2+ with `bufferDeviceAddress` and `shaderInt64` enabled.
/// Optional features vkalgo uses only when `flags` declares them enabled:
/// `VKALGO_CONTEXT_INT64_ATOMICS_ENABLED`, `VKALGO_CONTEXT_FULL_SUBGROUPS_ENABLED`,
/// `VKALGO_CONTEXT_INT16_ENABLED`, `VKALGO_CONTEXT_FLOAT64_ENABLED`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoExternalContextDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The caller's instance.
    pub instance: VkInstance,
    /// The physical device of `device`.
    pub physical_device: VkPhysicalDevice,
    /// The caller's device.
    pub device: VkDevice,
    /// A queue family with compute support.
    pub queue_family_index: u32,
    /// Queue for the blocking `_host` calls (NULL: no host calls on this context). vkalgo
    /// submits to it only while holding `queue_lock`.
    pub queue: VkQueue,
    /// The loader entry point the caller uses (vkalgo opens no loader of its own).
    pub get_instance_proc_addr: PFN_vkGetInstanceProcAddr,
    /// The caller's pipeline cache for vkalgo's pipelines (VK_NULL_HANDLE: vkalgo makes its
    /// own, from `pipeline_cache_data` when given).
    pub pipeline_cache: VkPipelineCache,
    /// `VKALGO_CONTEXT_*` flags.
    pub flags: u32,
    /// Longest wait of `_host` calls in nanoseconds (0: 120 s).
    pub timeout_ns: u64,
    /// The caller's lock for `queue`: called with 1 before and 0 after each `vkQueueSubmit`
    /// of a `_host` call, from the thread making the call. `_host` calls need `queue` and
    /// `queue_lock` (else VKALGO_ERROR_INVALID_ARGUMENT); record-layer calls need neither.
    pub queue_lock: VkalgoQueueLockFn,
    /// Passed to `queue_lock` as is.
    pub queue_lock_user_data: *mut std::ffi::c_void,
    /// Saved pipeline cache data for vkalgo's own cache, used when `pipeline_cache` is
    /// VK_NULL_HANDLE (NULL: none; copied). Data from another device or driver is ignored.
    pub pipeline_cache_data: *const std::ffi::c_void,
    /// Bytes at `pipeline_cache_data`.
    pub pipeline_cache_data_size: usize,
}

/// The caller's queue lock: `lock` is 1 to lock, 0 to unlock.
pub type VkalgoQueueLockFn = Option<unsafe extern "C" fn(user_data: *mut std::ffi::c_void, lock: u32)>;

/// The caller's queue-lock callback and its user data.
struct CallerQueueLock {
    lock: unsafe extern "C" fn(*mut std::ffi::c_void, u32),
    user_data: *mut std::ffi::c_void,
}

// SAFETY: the header documents that `queue_lock` is called from any thread making a host call
// and must be thread-safe; `user_data` is only passed back to it.
unsafe impl Send for CallerQueueLock {}
unsafe impl Sync for CallerQueueLock {}

impl CallerQueueLock {
    fn call(&self, on: bool) {
        // SAFETY: the caller's callback with its own user data (see above).
        unsafe { (self.lock)(self.user_data, on as u32) }
    }
}

/// Creates a context on the caller's device (record-layer calls record into the caller's
/// command buffers; `_host` calls submit to `desc->queue`). `*out` is set only on success.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_create_external(
    desc: *const VkalgoExternalContextDesc,
    out: *mut *mut VkalgoContext,
) -> VkalgoResult {
    guard("vkalgo_context_create_external", || {
        non_null(desc, "desc")?;
        non_null(out, "out")?;
        let d = &*desc;
        no_extension(d.next, "external context desc")?;
        let known = VKALGO_CONTEXT_DEBUG_UTILS
            | VKALGO_CONTEXT_LOOKBACK_ON
            | VKALGO_CONTEXT_LOOKBACK_OFF
            | VKALGO_CONTEXT_INT64_ATOMICS_ENABLED
            | VKALGO_CONTEXT_FULL_SUBGROUPS_ENABLED
            | VKALGO_CONTEXT_INT16_ENABLED
            | VKALGO_CONTEXT_FLOAT64_ENABLED;
        if d.flags & !known != 0 {
            return Err(Error::invalid(format!("unknown flags 0x{:x}", d.flags & !known)));
        }
        let lookback = match (
            d.flags & VKALGO_CONTEXT_LOOKBACK_ON != 0,
            d.flags & VKALGO_CONTEXT_LOOKBACK_OFF != 0,
        ) {
            (true, true) => return Err(Error::invalid("LOOKBACK_ON and LOOKBACK_OFF are both set")),
            (true, false) => Some(true),
            (false, true) => Some(false),
            (false, false) => None,
        };
        let gipa = d
            .get_instance_proc_addr
            .ok_or_else(|| Error::invalid("get_instance_proc_addr is NULL"))?;
        // SAFETY: same ABI; handles are transparent wrappers of the same bits.
        let gipa: ash::vk::PFN_vkGetInstanceProcAddr = std::mem::transmute(gipa);
        let rust_desc = vkalgo::ExternalContextDesc {
            instance: d.instance.to_vk(),
            physical_device: d.physical_device.to_vk(),
            device: d.device.to_vk(),
            queue_family_index: d.queue_family_index,
            queue: d.queue.to_vk(),
            get_instance_proc_addr: gipa,
            pipeline_cache: d.pipeline_cache.to_vk(),
            pipeline_cache_data: optional_bytes(
                d.pipeline_cache_data,
                d.pipeline_cache_data_size,
                "pipeline_cache_data",
            )?,
            debug_utils: d.flags & VKALGO_CONTEXT_DEBUG_UTILS != 0,
            lookback,
            timeout: if d.timeout_ns == 0 {
                Duration::from_secs(120)
            } else {
                Duration::from_nanos(d.timeout_ns)
            },
            shader_buffer_int64_atomics: d.flags & VKALGO_CONTEXT_INT64_ATOMICS_ENABLED != 0,
            compute_full_subgroups: d.flags & VKALGO_CONTEXT_FULL_SUBGROUPS_ENABLED != 0,
            shader_int16: d.flags & VKALGO_CONTEXT_INT16_ENABLED != 0,
            shader_float64: d.flags & VKALGO_CONTEXT_FLOAT64_ENABLED != 0,
            queue_lock: d.queue_lock.map(|lock| {
                let caller = CallerQueueLock {
                    lock,
                    user_data: d.queue_lock_user_data,
                };
                let f: vkalgo::core::QueueLock = std::sync::Arc::new(move |on: bool| caller.call(on));
                f
            }),
        };
        let ctx = Context::from_external(&rust_desc)?;
        box_out(out, VkalgoContext::new(ctx))
    })
}

/// Drops the caller's handle of a context (NULL: no-op). The context itself lives on while any
/// object created from it (hash map, plan, ...) exists, and is freed with the last of them, so
/// objects may be destroyed before or after their context in any order. Work the caller
/// recorded with it must have finished before the last handle goes.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_destroy(ctx: *mut VkalgoContext) {
    destroy_boxed(ctx);
}

/// Name of the context's device (NULL context: ""). Valid while the context lives.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_device_name(ctx: *const VkalgoContext) -> *const c_char {
    if ctx.is_null() {
        return c"".as_ptr();
    }
    (*ctx).device_name_c.as_ptr()
}

/// 1 if the context uses single-pass look-back algorithms by default, 0 if not (or NULL).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_lookback_enabled(ctx: *const VkalgoContext) -> u32 {
    if ctx.is_null() {
        return 0;
    }
    (*ctx).ctx.profile().lookback as u32
}

/// Number of validation-layer messages the context received (0 without validation or NULL).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_context_validation_message_count(ctx: *const VkalgoContext) -> u64 {
    if ctx.is_null() {
        return 0;
    }
    (*ctx).ctx.validation_message_count()
}

/// A static description of a result code (never NULL); any value, known or not, is answered
/// (unknown codes: "VKALGO_RESULT_UNKNOWN").
#[no_mangle]
pub extern "C" fn vkalgo_result_string(code: i32) -> *const c_char {
    let text: &'static std::ffi::CStr = match code {
        0 => c"VKALGO_SUCCESS",
        -1 => c"VKALGO_ERROR_INVALID_ARGUMENT",
        -2 => c"VKALGO_ERROR_UNSUPPORTED",
        -3 => c"VKALGO_ERROR_OUT_OF_MEMORY",
        -4 => c"VKALGO_ERROR_DEVICE_LOST",
        -5 => c"VKALGO_ERROR_TIMEOUT",
        -6 => c"VKALGO_ERROR_TABLE_FULL",
        -7 => c"VKALGO_ERROR_COMPILE",
        -8 => c"VKALGO_ERROR_VULKAN",
        -9 => c"VKALGO_ERROR_INTERNAL",
        _ => c"VKALGO_RESULT_UNKNOWN",
    };
    text.as_ptr()
}

/// The detail of the last failed call on this thread ("" after a success; never NULL). Valid
/// until the next vkalgo call on this thread.
#[no_mangle]
pub extern "C" fn vkalgo_last_error_message() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

#[cfg(test)]
mod tests {
    /// The committed header equals what cbindgen generates from these sources now.
    #[test]
    fn committed_header_is_fresh() {
        let generated = include_str!(concat!(env!("OUT_DIR"), "/vkalgo.h"));
        let committed =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../include/vkalgo.h"))
                .expect("include/vkalgo.h");
        assert!(
            generated == committed,
            "include/vkalgo.h is stale: run `VKALGO_UPDATE_HEADER=1 cargo build -p vkalgo-ffi` and commit it"
        );
    }

    /// The header's version macros are the crate's version (the workspace's one version).
    #[test]
    fn header_version_is_the_crate_version() {
        let header = include_str!("../../../include/vkalgo.h");
        let define = |name: &str| -> u32 {
            let line = header
                .lines()
                .find(|l| l.starts_with(&format!("#define {name} ")))
                .unwrap_or_else(|| panic!("no {name} in vkalgo.h"));
            line.rsplit(' ').next().unwrap().parse().unwrap()
        };
        let crate_version = |part: &str| -> u32 { part.parse().unwrap() };
        assert_eq!(
            define("VKALGO_VERSION_MAJOR"),
            crate_version(env!("CARGO_PKG_VERSION_MAJOR"))
        );
        assert_eq!(
            define("VKALGO_VERSION_MINOR"),
            crate_version(env!("CARGO_PKG_VERSION_MINOR"))
        );
        assert_eq!(
            define("VKALGO_VERSION_PATCH"),
            crate_version(env!("CARGO_PKG_VERSION_PATCH"))
        );
        assert_eq!(
            (
                super::VKALGO_VERSION_MAJOR,
                super::VKALGO_VERSION_MINOR,
                super::VKALGO_VERSION_PATCH
            ),
            (
                define("VKALGO_VERSION_MAJOR"),
                define("VKALGO_VERSION_MINOR"),
                define("VKALGO_VERSION_PATCH")
            )
        );
    }

    #[test]
    fn result_codes_are_distinct_and_named() {
        use super::*;
        let codes = [
            VkalgoResult::VkalgoSuccess,
            VkalgoResult::VkalgoErrorInvalidArgument,
            VkalgoResult::VkalgoErrorUnsupported,
            VkalgoResult::VkalgoErrorOutOfMemory,
            VkalgoResult::VkalgoErrorDeviceLost,
            VkalgoResult::VkalgoErrorTimeout,
            VkalgoResult::VkalgoErrorTableFull,
            VkalgoResult::VkalgoErrorCompile,
            VkalgoResult::VkalgoErrorVulkan,
            VkalgoResult::VkalgoErrorInternal,
        ];
        let mut names = std::collections::HashSet::new();
        for (i, c) in codes.iter().enumerate() {
            assert_eq!(*c as i32, -(i as i32));
            let name = unsafe { std::ffi::CStr::from_ptr(vkalgo_result_string(*c as i32)) };
            assert!(names.insert(name.to_owned()), "{name:?}");
        }
    }
}
