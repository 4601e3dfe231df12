//! C ABI of the histogram: the host call and the record layer, on the multisplit's desc.

use super::split::{glsl_text, VkalgoMultisplitDesc};
use super::types::*;
use super::{context_ref, guard, no_extension, non_null, VkalgoContext, VkalgoResult};
use std::ffi::c_void;
use vkalgo::histogram::HISTOGRAM_MAX_COUNT;
use vkalgo::split::{BucketFn, HostBucketing, MAX_BUCKETS};
use vkalgo::{Error, HistogramArgs, HistogramDesc, HistogramPlan};

/// Largest element count of a histogram (2^32 - 1: no u32 count of a recorded histogram wraps).
pub const VKALGO_HISTOGRAM_MAX_COUNT: u64 = 4294967295;

/// A histogram plan (kernel and scratch size fixed for one context, key type, bucket function
/// and maximum count). Keeps its context alive; immutable once made: any thread may record it.
pub struct VkalgoHistogramPlan {
    plan: HistogramPlan,
}

/// The buffers of one recorded histogram.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoHistogramArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// Input keys (offset a multiple of the key size). IDS reads no key: any range, or
    /// VK_NULL_HANDLE.
    pub keys: VkalgoBufferRange,
    /// SPLITTERS: bucket_count - 1 keys (VK_NULL_HANDLE for one bucket or another function).
    pub splitters: VkalgoBufferRange,
    /// IDS: one u32 per element (else VK_NULL_HANDLE).
    pub bucket_ids: VkalgoBufferRange,
    /// bucket_count u32 counts receiving the histogram; left untouched when a bucket id is out
    /// of range.
    pub counts: VkalgoBufferRange,
    /// Scratch as `vkalgo_histogram_plan_memory_requirements` reports; its u32 at byte 0 is
    /// the status word (VKALGO_MULTISPLIT_STATUS_BAD_BUCKET: an id was >= bucket_count).
    pub scratch: VkalgoBufferRange,
    /// Element count when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a u32 at `count_buffer.offset`, read on the GPU (clamped to the plan's
    /// max_count). VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// GLSL: vkalgo_params of this call.
    pub params: [u32; 4],
}

/// The Rust desc of the multisplit desc `d` for `max_count` keys: key type, bucket count,
/// bucket function, bit offset and GLSL source (value type, path and max_count ignored).
unsafe fn histogram_desc(d: *const VkalgoMultisplitDesc, max_count: u64) -> vkalgo::Result<HistogramDesc> {
    non_null(d, "desc")?;
    let d = &*d;
    no_extension(d.next, "histogram desc")?;
    let bucket_fn = BucketFn::from_raw(d.bucket_fn.0)?;
    let mut desc = HistogramDesc::new(d.key_type.to_rust()?, d.bucket_count, bucket_fn, max_count);
    desc.bit_offset = d.bit_offset;
    if bucket_fn == BucketFn::Glsl {
        desc.glsl = Some(
            glsl_text(d.glsl)?
                .ok_or_else(|| Error::invalid("histogram: GLSL needs desc->glsl"))?
                .to_string(),
        );
    }
    Ok(desc)
}

/// counts[b] = keys in bucket b < bucket_count, with the multisplit's bucket functions (the
/// same VkalgoMultisplitDesc; value_type, path and max_count ignored), on the GPU (blocking).
/// `counts` receives bucket_count u64 counts. SPLITTERS read desc->splitters (bucket_count - 1
/// keys, non-decreasing), IDS desc->bucket_ids (`count` u32, 4-byte aligned). Errors (nothing
/// written): NULL keys with count > 0, NULL counts, an unknown key type or bucket function, a
/// count over VKALGO_HISTOGRAM_MAX_COUNT, a bucket id >= bucket_count (IDS, GLSL), unsorted
/// splitters (INVALID_ARGUMENT); a GLSL source that does not compile (COMPILE).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_histogram_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMultisplitDesc,
    keys: *const c_void,
    count: usize,
    counts: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_histogram_host", || {
        let ctx = context_ref(ctx)?;
        let h = histogram_desc(desc, count as u64)?;
        non_null(counts, "counts")?;
        // Refused before any caller array is read.
        if count as u64 > HISTOGRAM_MAX_COUNT {
            return Err(Error::invalid(format!(
                "histogram: count {count} exceeds {HISTOGRAM_MAX_COUNT}"
            )));
        }
        let m = h.bucket_count;
        if m == 0 || m > MAX_BUCKETS {
            return Err(Error::invalid(format!(
                "histogram: bucket_count {m} is not in 1..={MAX_BUCKETS}"
            )));
        }
        if count > 0 {
            non_null(keys, "keys")?;
        }
        let d = &*desc;
        let key_size = h.key_type.bytes() as usize;
        let splitters = match h.bucket_fn {
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
        let ids = match h.bucket_fn {
            BucketFn::Ids if count > 0 => {
                non_null(d.bucket_ids, "desc->bucket_ids")?;
                if (d.bucket_ids as usize) % 4 != 0 {
                    return Err(Error::invalid(
                        "histogram: desc->bucket_ids is not 4-byte aligned",
                    ));
                }
                Some(std::slice::from_raw_parts(d.bucket_ids, count))
            }
            BucketFn::Ids => Some(&[][..]),
            _ => None,
        };
        let bucketing = HostBucketing {
            bucket_fn: h.bucket_fn,
            bucket_count: m,
            bit_offset: h.bit_offset,
            splitters,
            ids,
            glsl: h.glsl.as_deref(),
            params: d.params,
        };
        let key_bytes: &[u8] = if count == 0 {
            &[]
        } else {
            std::slice::from_raw_parts(keys as *const u8, count * key_size)
        };
        let result = ctx.histogram_host_bytes(h.key_type, &bucketing, key_bytes)?;
        std::ptr::copy_nonoverlapping(result.as_ptr(), counts, result.len());
        Ok(())
    })
}

/// Plans a histogram of up to `max_count` keys (at most VKALGO_HISTOGRAM_MAX_COUNT) on the
/// multisplit desc `desc` (its splitters, bucket_ids, value_type, path and max_count are not
/// used; a GLSL source is compiled now, or found in the cache). `*out` is set only on success;
/// destroy it with `vkalgo_histogram_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_histogram_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMultisplitDesc,
    max_count: u64,
    out: *mut *mut VkalgoHistogramPlan,
) -> VkalgoResult {
    guard("vkalgo_histogram_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(out, "out")?;
        let plan = ctx.histogram_plan(&histogram_desc(desc, max_count)?)?;
        super::box_out(out, VkalgoHistogramPlan { plan })
    })
}

/// Destroys a histogram plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_histogram_plan_destroy(plan: *mut VkalgoHistogramPlan) {
    super::destroy_boxed(plan);
}

/// The scratch memory (it holds the status word at byte 0) each `vkalgo_histogram_record` of
/// this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_histogram_plan_memory_requirements(
    plan: *const VkalgoHistogramPlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_histogram_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

/// Records the histogram into the caller's command buffer (on the plan's context, which the
/// plan keeps alive): a compute fill of the scratch, a barrier, the count, a barrier, the
/// finish. Synchronization: writes to the inputs and count buffer must be visible to
/// COMPUTE_SHADER reads; earlier uses of the counts and scratch must be complete before
/// COMPUTE_SHADER; afterwards the counts and the status word are written by
/// COMPUTE_SHADER (SHADER_WRITE). A bucket id >= bucket_count sets
/// VKALGO_MULTISPLIT_STATUS_BAD_BUCKET in the status word, and then the counts are not
/// written. Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_histogram_record(
    plan: *const VkalgoHistogramPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoHistogramArgs,
) -> VkalgoResult {
    guard("vkalgo_histogram_record", || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "histogram args")?;
        let args = HistogramArgs {
            keys: a.keys.to_rust(),
            splitters: a.splitters.to_rust_optional(),
            bucket_ids: a.bucket_ids.to_rust_optional(),
            counts: a.counts.to_rust(),
            scratch: a.scratch.to_rust(),
            count: element_count(a.count, a.count_buffer),
            params: a.params,
        };
        (*plan).plan.record(command_buffer.to_vk(), &args)
    })
}
