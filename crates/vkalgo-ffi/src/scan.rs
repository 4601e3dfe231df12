//! C ABI of prefix scan: the host convenience call and the record layer.

use super::types::*;
use super::{context_ref, guard, no_extension, non_null, try_copy, try_filled, VkalgoContext, VkalgoResult};
use vkalgo::Error;
use vkalgo::{KeyType, ReduceOp, ScanArgs, ScanDesc, ScanOp, ScanPath, ScanPlan};

/// A scan plan (path, tuning, scratch size fixed for one context).
///
/// Keeps its context alive. Immutable once created: any thread may query it or record it,
/// concurrently; destroying it while another thread uses it is the caller's error.
pub struct VkalgoScanPlan {
    plan: ScanPlan,
}

/// What to scan: exclusive or inclusive, the key type and operation, and for plans the path,
/// the largest count and flags. A zero-initialized desc (with `op` and `path` set) is an
/// exclusive or inclusive sum of u32, as before `key_type` and `combine` existed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoScanDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Exclusive (the first element is the identity of `combine`) or inclusive.
    pub op: VkalgoScanOp,
    /// Which kernels to record (`VKALGO_SCAN_PATH_AUTO`: the device decides). Host calls take
    /// it too.
    pub path: VkalgoScanPath,
    /// Plans: the largest element count any record call scans. Host calls ignore it.
    pub max_count: u64,
    /// `VKALGO_SCAN_FLAG_*` bits (0: none).
    pub flags: u32,
    /// A `VKALGO_KEY_*` code: the element type (`VKALGO_KEY_U32` = 0, the sort's six types).
    /// Elements are of this type everywhere (host arrays, buffer ranges).
    pub key_type: u32,
    /// A `VKALGO_OP_*` code: `VKALGO_OP_SUM` = 0 (integers wrap; floats in any association
    /// order, starting from +0.0), `_MIN` or `_MAX` (in the sort's order: floats in IEEE-754
    /// totalOrder). Identities, the first element of an exclusive scan: SUM 0; MIN the largest
    /// key of the type in the sort's order (f32 bits 0x7FFFFFFF, f64 0x7FFFFFFFFFFFFFFF, i32
    /// 0x7FFFFFFF, u32 0xFFFFFFFF); MAX the smallest (f32 bits 0xFFFFFFFF, i32 0x80000000, u32
    /// 0). Sums of u32 and i32 take the tuned u32 kernels; the other scans a typed kernel on
    /// the same paths.
    pub combine: u32,
}

/// Scan plan flag: the look-back scratch is the plan's own and stays zeroed between calls
/// (zero it once before the first call; each look-back scan leaves it zeroed and no clear is
/// recorded before it). The scratch must then serve nothing else.
pub const VKALGO_SCAN_FLAG_KEEP_SCRATCH_ZEROED: u32 = 1;

/// The buffers of one recorded scan (elements of the plan's key type; offsets a multiple of
/// the element size).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoScanArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Input elements.
    pub input: VkalgoBufferRange,
    /// Output elements: the same range as `input` scans in place; other overlaps are refused.
    pub output: VkalgoBufferRange,
    /// Scratch memory as `vkalgo_scan_plan_memory_requirements` reports.
    pub scratch: VkalgoBufferRange,
    /// Element count when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a u32 at `count_buffer.offset`, read on the GPU (clamped to the plan's
    /// max_count). VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
}

/// The Rust desc of `d` for `max_count` elements.
unsafe fn scan_desc(d: *const VkalgoScanDesc, max_count: u64) -> vkalgo::Result<ScanDesc> {
    non_null(d, "desc")?;
    let d = &*d;
    no_extension(d.next, "scan desc")?;
    if d.flags & !VKALGO_SCAN_FLAG_KEEP_SCRATCH_ZEROED != 0 {
        return Err(Error::invalid(format!("scan: unknown flags 0x{:x}", d.flags)));
    }
    let op = match d.op {
        VKALGO_SCAN_EXCLUSIVE => ScanOp::Exclusive,
        VKALGO_SCAN_INCLUSIVE => ScanOp::Inclusive,
        other => return Err(Error::invalid(format!("scan: unknown op {}", other.0))),
    };
    let path = match d.path {
        VKALGO_SCAN_PATH_AUTO => ScanPath::Auto,
        VKALGO_SCAN_PATH_LOOKBACK => ScanPath::Lookback,
        VKALGO_SCAN_PATH_REDUCE_THEN_SCAN => ScanPath::ReduceThenScan,
        VKALGO_SCAN_PATH_SMALL => ScanPath::Small,
        other => return Err(Error::invalid(format!("scan: unknown path {}", other.0))),
    };
    let key_type = KeyType::from_raw(d.key_type)
        .map_err(|_| Error::invalid(format!("scan: unknown key type {}", d.key_type)))?;
    let combine = ReduceOp::from_raw(d.combine)
        .map_err(|_| Error::invalid(format!("scan: unknown combine operation {}", d.combine)))?;
    Ok(ScanDesc {
        op,
        path,
        max_count,
        tuning: None,
        keep_scratch_zeroed: d.flags & VKALGO_SCAN_FLAG_KEEP_SCRATCH_ZEROED != 0,
        key_type,
        combine,
    })
}

/// Scans `count` elements of `desc->key_type` from `input` into `output` on the GPU (blocking)
/// as `desc` says (its `max_count` is ignored, its flags checked but not used). `input ==
/// output` is allowed; both aligned to the element size. Errors (`output` unchanged): NULL
/// pointers with count > 0, an unknown op, path, key type or combine operation, a count over
/// 2^32 - 1 (INVALID_ARGUMENT); an f64 sum on a device without shaderFloat64 (UNSUPPORTED).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_scan_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoScanDesc,
    input: *const std::ffi::c_void,
    output: *mut std::ffi::c_void,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_scan_host", || {
        let ctx = context_ref(ctx)?;
        let mut desc = scan_desc(desc, count as u64)?;
        desc.keep_scratch_zeroed = false;
        // The count and path are checked (count at most SCAN_MAX_COUNT) before the input is read.
        ctx.scan_plan(&desc)?;
        if count == 0 {
            return Ok(());
        }
        non_null(input, "input")?;
        non_null(output, "output")?;
        macro_rules! run {
            ($t:ty) => {{
                let align = std::mem::align_of::<$t>();
                if (input as usize) % align != 0 || (output as usize) % align != 0 {
                    return Err(Error::invalid(
                        "scan: input or output is not aligned to its element size",
                    ));
                }
                // The input is copied before anything is written, so input == output (or any
                // overlap) is fine.
                let source = try_copy(
                    std::slice::from_raw_parts(input as *const $t, count),
                    "input",
                )?;
                let mut result = try_filled(<$t>::default(), count, "output")?;
                ctx.scan_with_path(&source, &mut result, desc.op, desc.combine, desc.path)?;
                std::ptr::copy_nonoverlapping(result.as_ptr(), output as *mut $t, count);
            }};
        }
        match desc.key_type {
            KeyType::U32 => run!(u32),
            KeyType::I32 => run!(i32),
            KeyType::F32 => run!(f32),
            KeyType::U64 => run!(u64),
            KeyType::I64 => run!(i64),
            KeyType::F64 => run!(f64),
            other => return Err(Error::invalid(format!("scan: key type {other:?}"))),
        }
        Ok(())
    })
}

/// Plans a scan of up to `desc->max_count` elements. `*out` is set only on success; destroy
/// it with `vkalgo_scan_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_scan_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoScanDesc,
    out: *mut *mut VkalgoScanPlan,
) -> VkalgoResult {
    guard("vkalgo_scan_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        non_null(out, "out")?;
        let plan = ctx.scan_plan(&scan_desc(desc, (*desc).max_count)?)?;
        super::box_out(out, VkalgoScanPlan { plan })
    })
}

/// Destroys a scan plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_scan_plan_destroy(plan: *mut VkalgoScanPlan) {
    super::destroy_boxed(plan);
}

/// The scratch memory each `vkalgo_scan_record` of this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_scan_plan_memory_requirements(
    plan: *const VkalgoScanPlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_scan_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

/// Elements per tile of the plan (0 for a NULL plan): sizes around it are the edge cases.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_scan_plan_tile_size(plan: *const VkalgoScanPlan) -> u64 {
    if plan.is_null() {
        return 0;
    }
    (*plan).plan.tile_size()
}

/// Counts up to this are scanned by one workgroup in one dispatch (the small path) when the
/// plan's path is AUTO (0: never, and for a NULL plan).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_scan_plan_small_limit(plan: *const VkalgoScanPlan) -> u64 {
    if plan.is_null() {
        return 0;
    }
    (*plan).plan.small_limit()
}

/// Records the scan into the caller's command buffer (on the plan's context, which the plan
/// keeps alive). Synchronization: writes to the input and count buffer must be visible to
/// COMPUTE_SHADER reads; earlier uses of output and scratch must be complete before
/// COMPUTE_SHADER and TRANSFER; afterwards the output is written by COMPUTE_SHADER
/// (SHADER_WRITE). Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_scan_record(
    plan: *const VkalgoScanPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoScanArgs,
) -> VkalgoResult {
    guard("vkalgo_scan_record", || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "scan args")?;
        let args = ScanArgs {
            input: a.input.to_rust(),
            output: a.output.to_rust(),
            scratch: a.scratch.to_rust(),
            count: element_count(a.count, a.count_buffer),
        };
        (*plan).plan.record(command_buffer.to_vk(), &args)
    })
}
