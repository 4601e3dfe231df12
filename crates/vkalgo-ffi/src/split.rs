//! C ABI of the multisplit: the host convenience call and the record layer.

use super::types::*;
use super::{context_ref, guard, in_place_on_copies, no_extension, non_null, VkalgoContext, VkalgoResult};
use std::ffi::{c_char, c_void, CStr};
use vkalgo::sort::ValueType;
use vkalgo::split::HostBucketing;
use vkalgo::split::{BucketFn, SplitArgs, SplitDesc, SplitPath, SplitPlan};
use vkalgo::Error;

/// Largest bucket count of a multisplit.
pub const VKALGO_MULTISPLIT_MAX_BUCKETS: u32 = 65536;
/// Bit of the multisplit status word (the u32 at byte 0 of the scratch range after a recorded
/// multisplit): a bucket id was `>= bucket_count`, and no output was written.
pub const VKALGO_MULTISPLIT_STATUS_BAD_BUCKET: u32 = 1;
/// Bit of the multisplit status word: the bucket function is not pure (a GLSL function gave an
/// element a different bucket in the pass that counts the buckets than in the pass that places
/// the elements), so some element would have left the place counted for it. Such elements are
/// not written (no write leaves keys_out, values_out or offsets, nor passes the count), and
/// the outputs hold no split.
pub const VKALGO_MULTISPLIT_STATUS_INCONSISTENT: u32 = 2;

/// What to split and how. The `splitters` and `bucket_ids` pointers are data of
/// `vkalgo_multisplit_host` (a recorded multisplit takes them as buffers); plans take the rest,
/// host calls all but `path` (checked, not used) and `max_count`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMultisplitDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// The key type (the sort's six).
    pub key_type: VkalgoKeyType,
    /// The value type (`VKALGO_VALUE_NONE`: keys only).
    pub value_type: VkalgoValueType,
    /// m: 1..=VKALGO_MULTISPLIT_MAX_BUCKETS.
    pub bucket_count: u32,
    /// How an element's bucket is found. GLSL bucket functions must be pure: the same key
    /// gives the same bucket in every pass (the split evaluates it at least twice per element,
    /// in different dispatches and invocations), with no state of its own (private globals
    /// kept across calls, buffers it writes or that change during the split, the workgroup or
    /// invocation it runs in) and within the device's limits (lavapipe stops a loop after
    /// 65535 iterations). Otherwise no write leaves the output ranges, but the result is no
    /// split: where an element would leave the place its bucket was counted for, a recorded
    /// split sets VKALGO_MULTISPLIT_STATUS_INCONSISTENT in the status word and
    /// `vkalgo_multisplit_host` returns VKALGO_ERROR_INVALID_ARGUMENT and changes nothing; an
    /// impure function that happens to give a valid permutation may go unreported.
    pub bucket_fn: VkalgoBucketFn,
    /// BITS: first order-preserving key bit of the bucket id.
    pub bit_offset: u32,
    /// SPLITTERS: bucket_count - 1 keys of key_type, non-decreasing in the sort's key order.
    pub splitters: *const c_void,
    /// IDS: one per element.
    pub bucket_ids: *const u32,
    /// GLSL: NUL-terminated source.
    pub glsl: *const c_char,
    /// GLSL: vkalgo_params.
    pub params: [u32; 4],
    /// Plans: the largest count any record call splits. Host calls ignore it.
    pub max_count: u64,
    /// Plans: which kernels to record (`VKALGO_MULTISPLIT_PATH_AUTO`: the plan decides). Host
    /// calls choose their own (an unknown value is still refused).
    pub path: VkalgoMultisplitPath,
}

/// The buffers of one recorded multisplit (out of place).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMultisplitArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// Input keys.
    pub keys: VkalgoBufferRange,
    /// Input values (VK_NULL_HANDLE exactly when the plan has no value type).
    pub values: VkalgoBufferRange,
    /// Output keys, bucket by bucket.
    pub keys_out: VkalgoBufferRange,
    /// Output values (VK_NULL_HANDLE exactly when `values` is).
    pub values_out: VkalgoBufferRange,
    /// SPLITTERS: bucket_count - 1 keys (else VK_NULL_HANDLE).
    pub splitters: VkalgoBufferRange,
    /// IDS: one u32 per element (else VK_NULL_HANDLE).
    pub bucket_ids: VkalgoBufferRange,
    /// bucket_count + 1 u32 offsets (`offsets[bucket_count]` = count).
    pub offsets: VkalgoBufferRange,
    /// Scratch as `vkalgo_multisplit_plan_memory_requirements` reports.
    pub scratch: VkalgoBufferRange,
    /// Element count when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a u32 read on the GPU (clamped to the plan's max_count).
    pub count_buffer: VkalgoBufferRange,
    /// GLSL: vkalgo_params of this call.
    pub params: [u32; 4],
}

/// A multisplit plan (kernels, geometry and memory sizes fixed for one context).
///
/// Keeps its context alive. Threads: immutable once created; any thread may query or record
/// it, concurrently.
pub struct VkalgoMultisplitPlan {
    plan: SplitPlan,
}

pub(crate) unsafe fn glsl_text<'a>(glsl: *const c_char) -> vkalgo::Result<Option<&'a str>> {
    if glsl.is_null() {
        return Ok(None);
    }
    CStr::from_ptr(glsl)
        .to_str()
        .map(Some)
        .map_err(|_| Error::invalid("multisplit: the GLSL source is not UTF-8"))
}

/// The Rust desc of `d` for `max_count` elements.
unsafe fn split_desc(d: &VkalgoMultisplitDesc, max_count: u64) -> vkalgo::Result<SplitDesc> {
    no_extension(d.next, "multisplit desc")?;
    let bucket_fn = BucketFn::from_raw(d.bucket_fn.0)?;
    let mut desc = SplitDesc::new(
        d.key_type.to_rust()?,
        d.value_type.to_rust()?,
        d.bucket_count,
        bucket_fn,
        max_count,
    );
    desc.bit_offset = d.bit_offset;
    desc.path = match d.path {
        VKALGO_MULTISPLIT_PATH_AUTO => SplitPath::Auto,
        VKALGO_MULTISPLIT_PATH_GLOBAL_COUNTERS => SplitPath::GlobalCounters,
        VKALGO_MULTISPLIT_PATH_SMALL => SplitPath::Small,
        VKALGO_MULTISPLIT_PATH_TILE_DIRECT => SplitPath::TileDirect,
        VKALGO_MULTISPLIT_PATH_TILE_STAGED => SplitPath::TileStaged,
        VKALGO_MULTISPLIT_PATH_ONESWEEP => SplitPath::Onesweep,
        VKALGO_MULTISPLIT_PATH_TILE_SUBGROUP_STAGED => SplitPath::TileSubgroupStaged,
        other => return Err(Error::invalid(format!("multisplit: unknown path {}", other.0))),
    };
    if bucket_fn == BucketFn::Glsl {
        desc.glsl = Some(
            glsl_text(d.glsl)?
                .ok_or_else(|| Error::invalid("multisplit: GLSL needs desc->glsl"))?
                .to_string(),
        );
    }
    Ok(desc)
}

/// Splits `count` keys (and their values) stably into `desc->bucket_count` buckets on the GPU,
/// in place (blocking). `values` is NULL exactly when `desc->value_type` is
/// `VKALGO_VALUE_NONE`. `bucket_offsets` (NULL: not wanted) receives bucket_count + 1 offsets:
/// bucket b is `[offsets[b], offsets[b + 1])`. A bucket id >= bucket_count (IDS or GLSL) or a
/// GLSL bucket function found not to be pure (VKALGO_MULTISPLIT_STATUS_INCONSISTENT) is
/// VKALGO_ERROR_INVALID_ARGUMENT; a GLSL source that does not compile is
/// VKALGO_ERROR_COMPILE with shaderc's message. On any error nothing is changed.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_multisplit_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMultisplitDesc,
    keys: *mut c_void,
    values: *mut c_void,
    count: usize,
    bucket_offsets: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_multisplit_host", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        let d = &*desc;
        let mut split = split_desc(d, count as u64)?;
        split.path = SplitPath::Auto;
        // Refused before any caller array is read: the plan checks these too, but only after
        // the keys are copied and the splitters (bucket_count - 1 of them) read.
        if count as u64 > vkalgo::split::MAX_COUNT {
            return Err(Error::invalid(format!(
                "multisplit: count {count} exceeds the largest supported count {}",
                vkalgo::split::MAX_COUNT
            )));
        }
        if split.bucket_count == 0 || split.bucket_count > vkalgo::split::MAX_BUCKETS {
            return Err(Error::invalid(format!(
                "multisplit: bucket_count {} is not in 1..={}",
                split.bucket_count,
                vkalgo::split::MAX_BUCKETS
            )));
        }
        let has_values = split.value_type != ValueType::None;
        if has_values && values.is_null() && count > 0 {
            return Err(Error::invalid(
                "multisplit: values is NULL but a value type is given",
            ));
        }
        if !has_values && !values.is_null() {
            return Err(Error::invalid("multisplit: values given with VKALGO_VALUE_NONE"));
        }
        if count > 0 {
            non_null(keys, "keys")?;
        }
        let m = split.bucket_count;
        let key_size = split.key_type.bytes() as usize;
        let splitters = match split.bucket_fn {
            BucketFn::Splitters if m > 1 => {
                non_null(d.splitters, "desc->splitters")?;
                Some(std::slice::from_raw_parts(
                    d.splitters as *const u8,
                    (m as usize - 1) * key_size,
                ))
            }
            BucketFn::Splitters => Some(&[][..]),
            _ => None,
        };
        let ids = match split.bucket_fn {
            BucketFn::Ids if count > 0 => {
                non_null(d.bucket_ids, "desc->bucket_ids")?;
                Some(std::slice::from_raw_parts(d.bucket_ids, count))
            }
            BucketFn::Ids => Some(&[][..]),
            _ => None,
        };
        let bucketing = HostBucketing {
            bucket_fn: split.bucket_fn,
            bucket_count: m,
            bit_offset: split.bit_offset,
            splitters,
            ids,
            glsl: split.glsl.as_deref(),
            params: d.params,
        };
        let offsets = in_place_on_copies(
            keys,
            key_size as u64,
            values,
            split.value_type.bytes(),
            count,
            "multisplit",
            |k, v| ctx.split_host_bytes(split.key_type, split.value_type, &bucketing, k, v),
        )?;
        if !bucket_offsets.is_null() {
            std::ptr::copy_nonoverlapping(offsets.as_ptr(), bucket_offsets, offsets.len());
        }
        Ok(())
    })
}

/// Plans a multisplit of up to `desc->max_count` elements (`desc`'s splitters and bucket_ids
/// pointers are not used; a GLSL source is compiled now, or found in the cache). `*out` is set
/// only on success; destroy it with `vkalgo_multisplit_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_multisplit_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMultisplitDesc,
    out: *mut *mut VkalgoMultisplitPlan,
) -> VkalgoResult {
    guard("vkalgo_multisplit_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        non_null(out, "out")?;
        let plan = ctx.split_plan(&split_desc(&*desc, (*desc).max_count)?)?;
        super::box_out(out, VkalgoMultisplitPlan { plan })
    })
}

/// Destroys a multisplit plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_multisplit_plan_destroy(plan: *mut VkalgoMultisplitPlan) {
    super::destroy_boxed(plan);
}

/// The scratch (it holds the status word at byte 0) and the offsets range (`bucket_count + 1`
/// u32) each `vkalgo_multisplit_record` of this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_multisplit_plan_memory_requirements(
    plan: *const VkalgoMultisplitPlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_multisplit_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

/// Records the multisplit into the caller's command buffer (out of place: inputs are only
/// read; on the plan's context, which the plan keeps alive). Synchronization: writes to the
/// inputs and the count buffer must be visible to
/// COMPUTE_SHADER reads; earlier uses of the outputs and scratch must be complete before
/// COMPUTE_SHADER and TRANSFER (scratch is cleared with vkCmdFillBuffer); afterwards the
/// outputs and the status word (u32 at byte 0 of scratch) are written by COMPUTE_SHADER
/// (SHADER_WRITE). A bucket id >= bucket_count sets VKALGO_MULTISPLIT_STATUS_BAD_BUCKET in the
/// status word, and then no output is written. Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_multisplit_record(
    plan: *const VkalgoMultisplitPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoMultisplitArgs,
) -> VkalgoResult {
    guard("vkalgo_multisplit_record", || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "multisplit args")?;
        let count = element_count(a.count, a.count_buffer);
        let args = SplitArgs {
            keys: a.keys.to_rust(),
            values: a.values.to_rust_optional(),
            keys_out: a.keys_out.to_rust(),
            values_out: a.values_out.to_rust_optional(),
            splitters: a.splitters.to_rust_optional(),
            bucket_ids: a.bucket_ids.to_rust_optional(),
            offsets: a.offsets.to_rust(),
            scratch: a.scratch.to_rust(),
            count,
            params: a.params,
        };
        (*plan).plan.record(command_buffer.to_vk(), &args)
    })
}
