//! C ABI of prefix scan: the host convenience calls and the record layer.

use super::types::*;
use super::{context_ref, guard, non_null, plan_context, try_copy, try_filled, VkalgoContext, VkalgoResult};
use vkalgo::Error;
use vkalgo::{ElementCount, ScanArgs, ScanDesc, ScanOp, ScanPath, ScanPlan};

/// Scan operation: exclusive sum.
pub const VKALGO_SCAN_EXCLUSIVE: u32 = 0;
/// Scan operation: inclusive sum.
pub const VKALGO_SCAN_INCLUSIVE: u32 = 1;
/// Scan path: the device profile decides.
pub const VKALGO_SCAN_PATH_AUTO: u32 = 0;
/// Scan path: single-pass decoupled look-back.
pub const VKALGO_SCAN_PATH_LOOKBACK: u32 = 1;
/// Scan path: reduce-then-scan (no inter-workgroup waiting).
pub const VKALGO_SCAN_PATH_REDUCE_THEN_SCAN: u32 = 2;
/// Scan path: one workgroup scans everything in one dispatch (lowest latency for small counts).
pub const VKALGO_SCAN_PATH_SMALL: u32 = 3;

/// A scan plan (path, tuning, scratch size fixed for one context).
///
/// Keeps its context alive. Immutable once created: any thread may query it or record it,
/// concurrently; destroying it while another thread uses it is the caller's error.
pub struct VkalgoScanPlan {
    plan: ScanPlan,
    /// The context the plan was made for (kept alive by the plan).
    ctx: vkalgo::Context,
}

/// What to plan a scan for.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoScanDesc {
    /// `VKALGO_SCAN_EXCLUSIVE` or `VKALGO_SCAN_INCLUSIVE`.
    pub op: u32,
    /// `VKALGO_SCAN_PATH_*`.
    pub path: u32,
    /// Largest element count any call of the plan scans.
    pub max_count: u64,
    /// `VKALGO_SCAN_FLAG_*` bits (0: none).
    pub flags: u32,
}

/// Scan plan flag: the look-back scratch is the plan's own and stays zeroed between calls
/// (zero it once before the first call; each look-back scan leaves it zeroed and no clear is
/// recorded before it). The scratch must then serve nothing else.
pub const VKALGO_SCAN_FLAG_KEEP_SCRATCH_ZEROED: u32 = 1;

/// The buffers of one recorded scan (u32 elements).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoScanArgs {
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

fn scan_op(op: u32) -> vkalgo::Result<ScanOp> {
    match op {
        VKALGO_SCAN_EXCLUSIVE => Ok(ScanOp::Exclusive),
        VKALGO_SCAN_INCLUSIVE => Ok(ScanOp::Inclusive),
        other => Err(Error::invalid(format!("unknown scan op {other}"))),
    }
}

fn scan_path(path: u32) -> vkalgo::Result<ScanPath> {
    match path {
        VKALGO_SCAN_PATH_AUTO => Ok(ScanPath::Auto),
        VKALGO_SCAN_PATH_LOOKBACK => Ok(ScanPath::Lookback),
        VKALGO_SCAN_PATH_REDUCE_THEN_SCAN => Ok(ScanPath::ReduceThenScan),
        VKALGO_SCAN_PATH_SMALL => Ok(ScanPath::Small),
        other => Err(Error::invalid(format!("unknown scan path {other}"))),
    }
}

unsafe fn host_scan(
    ctx: *mut VkalgoContext,
    input: *const u32,
    output: *mut u32,
    count: usize,
    op: ScanOp,
) -> vkalgo::Result<()> {
    let ctx = context_ref(ctx)?;
    if count == 0 {
        return Ok(());
    }
    non_null(input, "input")?;
    non_null(output, "output")?;
    // The count is checked (at most SCAN_MAX_COUNT) before the input is read.
    ctx.scan_plan(&ScanDesc::new(op, count as u64))?;
    // The input is copied to a staging buffer before anything is written, so input == output
    // (or any overlap) is fine.
    let source = try_copy(std::slice::from_raw_parts(input, count), "input")?;
    let mut result = try_filled(0u32, count, "output")?;
    ctx.scan_u32(&source, &mut result, op)?;
    std::ptr::copy_nonoverlapping(result.as_ptr(), output, count);
    Ok(())
}

/// Exclusive sum of `count` u32 from `input` into `output` on the GPU (blocking).
/// `input == output` is allowed. On error `output` is unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_scan_exclusive_u32_host(
    ctx: *mut VkalgoContext,
    input: *const u32,
    output: *mut u32,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_scan_exclusive_u32_host", || {
        host_scan(ctx, input, output, count, ScanOp::Exclusive)
    })
}

/// Inclusive sum of `count` u32 from `input` into `output` on the GPU (blocking).
/// `input == output` is allowed. On error `output` is unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_scan_inclusive_u32_host(
    ctx: *mut VkalgoContext,
    input: *const u32,
    output: *mut u32,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_scan_inclusive_u32_host", || {
        host_scan(ctx, input, output, count, ScanOp::Inclusive)
    })
}

/// Plans a scan on `ctx`. `*out` is set only on success; destroy it with
/// `vkalgo_scan_plan_destroy`.
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
        let d = &*desc;
        if d.flags & !VKALGO_SCAN_FLAG_KEEP_SCRATCH_ZEROED != 0 {
            return Err(Error::invalid(format!("scan: unknown flags 0x{:x}", d.flags)));
        }
        let desc = ScanDesc {
            op: scan_op(d.op)?,
            path: scan_path(d.path)?,
            max_count: d.max_count,
            tuning: None,
            keep_scratch_zeroed: d.flags & VKALGO_SCAN_FLAG_KEEP_SCRATCH_ZEROED != 0,
        };
        let plan = ctx.scan_plan(&desc)?;
        *out = Box::into_raw(Box::new(VkalgoScanPlan {
            plan,
            ctx: ctx.clone(),
        }));
        Ok(())
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
        non_null(out, "out")?;
        *out = (*plan).plan.memory_requirements().into();
        Ok(())
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

/// Records the scan into the caller's command buffer. `ctx` may be NULL (the plan's context, which the
/// plan keeps alive, is used); otherwise it must be the plan's context. Synchronization: writes to the input
/// and count buffer must be visible to COMPUTE_SHADER reads; earlier uses of output and
/// scratch must be complete before COMPUTE_SHADER and TRANSFER; afterwards the output is
/// written by COMPUTE_SHADER (SHADER_WRITE). Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_scan_record(
    ctx: *const VkalgoContext,
    plan: *const VkalgoScanPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoScanArgs,
) -> VkalgoResult {
    guard("vkalgo_scan_record", || {
        non_null(plan, "plan")?;
        let ctx = plan_context(ctx, &(*plan).ctx, "scan record")?;
        non_null(args, "args")?;
        let a = &*args;
        let count = if a.count_buffer.buffer.0 == 0 {
            ElementCount::Direct(a.count)
        } else {
            ElementCount::Indirect(a.count_buffer.to_rust())
        };
        let args = ScanArgs {
            input: a.input.to_rust(),
            output: a.output.to_rust(),
            scratch: a.scratch.to_rust(),
            count,
        };
        (*plan).plan.record(ctx, command_buffer.to_vk(), &args)
    })
}
