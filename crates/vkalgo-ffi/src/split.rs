//! C ABI of the multisplit: the host convenience call and the record layer.

use super::types::*;
use super::{context_ref, guard, in_place_on_copies, non_null, plan_context, VkalgoContext, VkalgoResult};
use std::ffi::{c_char, c_void, CStr};
use vkalgo::sort::{KeyType, ValueType};
use vkalgo::split::HostBucketing;
use vkalgo::split::{BucketFn, SplitArgs, SplitDesc, SplitPlan};
use vkalgo::ElementCount;
use vkalgo::Error;

/// Bucket function: `(ordered key bits >> bit_offset) & (bucket_count - 1)`, bucket_count a
/// power of two.
pub const VKALGO_BUCKET_BITS: u32 = 0;
/// Bucket function: the number of the `bucket_count - 1` splitters `<=` the key (sort order).
pub const VKALGO_BUCKET_SPLITTERS: u32 = 1;
/// Bucket function: one caller-given u32 bucket id per element.
pub const VKALGO_BUCKET_IDS: u32 = 2;
/// Bucket function: GLSL source defining `uint vkalgo_bucket(T key)`, compiled at run time.
pub const VKALGO_BUCKET_GLSL: u32 = 3;
/// Largest bucket count of a multisplit.
pub const VKALGO_MULTISPLIT_MAX_BUCKETS: u32 = 65536;
/// Bit of the multisplit status word (the u32 at byte 0 of the scratch range after a recorded
/// multisplit): a bucket id was `>= bucket_count`, and no output was written.
pub const VKALGO_MULTISPLIT_STATUS_BAD_BUCKET: u32 = 1;

/// What to split and how (the pointers are used by `vkalgo_multisplit_host` only; a plan takes
/// the types, bucket count, bucket function, bit offset and GLSL source).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMultisplitDesc {
    /// `VKALGO_KEY_*` (the sort's six).
    pub key_type: u32,
    /// `VKALGO_VALUE_NONE` / `_U32` / `_U64`.
    pub value_type: u32,
    /// m: 1..=VKALGO_MULTISPLIT_MAX_BUCKETS.
    pub bucket_count: u32,
    /// `VKALGO_BUCKET_BITS` = 0, `_SPLITTERS` = 1, `_IDS` = 2, `_GLSL` = 3.
    pub bucket_fn: u32,
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
}

/// Memory a multisplit plan needs from the caller.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMultisplitMemoryRequirements {
    /// Bytes of scratch (holds the status word at byte 0).
    pub scratch_size: VkDeviceSize,
    /// Bytes of the offsets range: (bucket_count + 1) u32.
    pub offsets_size: VkDeviceSize,
    /// Alignment of every range's offset.
    pub alignment: VkDeviceSize,
    /// Usage flags every buffer passed to the multisplit must have.
    pub usage: VkBufferUsageFlags,
}

/// The buffers of one recorded multisplit (out of place).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMultisplitArgs {
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
    /// The context the plan was made for (kept alive by the plan).
    ctx: vkalgo::Context,
}

unsafe fn glsl_text<'a>(glsl: *const c_char) -> vkalgo::Result<Option<&'a str>> {
    if glsl.is_null() {
        return Ok(None);
    }
    CStr::from_ptr(glsl)
        .to_str()
        .map(Some)
        .map_err(|_| Error::invalid("multisplit: the GLSL source is not UTF-8"))
}

unsafe fn split_desc(d: &VkalgoMultisplitDesc, max_count: u64) -> vkalgo::Result<SplitDesc> {
    let bucket_fn = BucketFn::from_raw(d.bucket_fn)?;
    let mut desc = SplitDesc::new(
        KeyType::from_raw(d.key_type)?,
        ValueType::from_raw(d.value_type)?,
        d.bucket_count,
        bucket_fn,
        max_count,
    );
    desc.bit_offset = d.bit_offset;
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
/// bucket b is `[offsets[b], offsets[b + 1])`. A bucket id >= bucket_count (IDS or GLSL) is
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
        let split = split_desc(d, count as u64)?;
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

/// Plans a multisplit of up to `max_count` elements (`desc`'s splitters and bucket_ids
/// pointers are not used; a GLSL source is compiled now, or found in the cache). `*out` is set
/// only on success; destroy it with `vkalgo_multisplit_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_multisplit_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMultisplitDesc,
    max_count: u64,
    out: *mut *mut VkalgoMultisplitPlan,
) -> VkalgoResult {
    guard("vkalgo_multisplit_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        non_null(out, "out")?;
        let plan = ctx.split_plan(&split_desc(&*desc, max_count)?)?;
        *out = Box::into_raw(Box::new(VkalgoMultisplitPlan {
            plan,
            ctx: ctx.clone(),
        }));
        Ok(())
    })
}

/// Destroys a multisplit plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_multisplit_plan_destroy(plan: *mut VkalgoMultisplitPlan) {
    super::destroy_boxed(plan);
}

/// The scratch and offsets sizes each `vkalgo_multisplit_record` of this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_multisplit_plan_memory_requirements(
    plan: *const VkalgoMultisplitPlan,
    out: *mut VkalgoMultisplitMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_multisplit_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        non_null(out, "out")?;
        let r = (*plan).plan.memory_requirements();
        *out = VkalgoMultisplitMemoryRequirements {
            scratch_size: r.scratch_size,
            offsets_size: r.offsets_size,
            alignment: r.alignment,
            usage: r.usage.as_raw(),
        };
        Ok(())
    })
}

/// Records the multisplit into the caller's command buffer (out of place: inputs are only
/// read). `ctx` may be NULL (the plan's context, which the plan keeps alive, is used);
/// otherwise it must be the plan's context. Synchronization: writes to the inputs and the count buffer must be visible to
/// COMPUTE_SHADER reads; earlier uses of the outputs and scratch must be complete before
/// COMPUTE_SHADER and TRANSFER (scratch is cleared with vkCmdFillBuffer); afterwards the
/// outputs and the status word (u32 at byte 0 of scratch) are written by COMPUTE_SHADER
/// (SHADER_WRITE). A bucket id >= bucket_count sets VKALGO_MULTISPLIT_STATUS_BAD_BUCKET in the
/// status word, and then no output is written. Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_multisplit_record(
    ctx: *const VkalgoContext,
    plan: *const VkalgoMultisplitPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoMultisplitArgs,
) -> VkalgoResult {
    guard("vkalgo_multisplit_record", || {
        non_null(plan, "plan")?;
        let ctx = plan_context(ctx, &(*plan).ctx, "multisplit record")?;
        non_null(args, "args")?;
        let a = &*args;
        let count = if a.count_buffer.buffer.0 == 0 {
            ElementCount::Direct(a.count)
        } else {
            ElementCount::Indirect(a.count_buffer.to_rust())
        };
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
        (*plan).plan.record(ctx, command_buffer.to_vk(), &args)
    })
}
