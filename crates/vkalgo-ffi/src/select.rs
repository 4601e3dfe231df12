//! C ABI of the select (stream compaction): the host call and the record layer.

use super::extensions::chained_types;
use super::types::*;
use super::{byte_len, context_ref, guard, no_extension, non_null, VkalgoContext, VkalgoResult};
use std::ffi::{c_char, c_void, CStr};
use vkalgo::{Error, KeyType, SelectArgs, SelectDesc, SelectMode, SelectPlan, Selection, ValueType};

/// Select mode: keep element i where `flags[i] != 0`.
pub const VKALGO_SELECT_FLAGGED: u32 = 0;
/// Select mode: keep where the GLSL `bool vkalgo_select(T key)` is true.
pub const VKALGO_SELECT_IF: u32 = 1;
/// Select mode: keep the first of each run of equal consecutive keys (equal bits).
pub const VKALGO_SELECT_UNIQUE: u32 = 2;
/// The most elements one select takes (2^32 - 1; `vkalgo::SELECT_MAX_COUNT`, checked by a
/// test).
pub const VKALGO_SELECT_MAX_COUNT: u64 = 4294967295;

/// What to select. `flags` is data of `vkalgo_select_host` (a recorded select takes a buffer);
/// plans take the rest.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSelectDesc {
    /// NULL, or a chain of extension structures: `VkalgoKeepScratchZeroed` (plans).
    pub next: *const c_void,
    /// A `VKALGO_KEY_*` code: the sort's six key types.
    pub key_type: u32,
    /// A `VKALGO_VALUE_*` code (`VKALGO_VALUE_NONE`: keys only).
    pub value_type: u32,
    /// A `VKALGO_SELECT_*` mode.
    pub mode: u32,
    /// FLAGGED: `count` bytes, one per element (host call).
    pub flags: *const u8,
    /// IF: NUL-terminated GLSL source defining `bool vkalgo_select(T key)` (T: uint, int,
    /// float, uint64_t, int64_t or double by the key type), which may read
    /// `uvec4 vkalgo_params`; compiled at run time and cached as the multisplit's GLSL (a
    /// compile error is VKALGO_ERROR_COMPILE). It must be pure: it runs more than once per
    /// element.
    pub glsl: *const c_char,
    /// IF: vkalgo_params (host call; a recorded select takes them in its args).
    pub params: [u32; 4],
}

/// A select plan (kernels, path and scratch size fixed for one context, key and value type,
/// mode and maximum count). Keeps its context alive; immutable once made: any thread may
/// record it.
pub struct VkalgoSelectPlan {
    plan: SelectPlan,
}

/// The buffers of one recorded select. Outputs, the count kept and the scratch must overlap no
/// other range of the call.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSelectArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// Input keys (offset a multiple of the key size).
    pub keys_in: VkalgoBufferRange,
    /// Input values (VK_NULL_HANDLE exactly when the plan has no value type).
    pub values_in: VkalgoBufferRange,
    /// FLAGGED: one byte per element, offset a multiple of 4, the range at least the count
    /// rounded up to 4 bytes (whole words are read); else VK_NULL_HANDLE.
    pub flags: VkalgoBufferRange,
    /// Output keys: room for the count; the kept ones come first, in order.
    pub keys_out: VkalgoBufferRange,
    /// Output values (VK_NULL_HANDLE exactly when `values_in` is).
    pub values_out: VkalgoBufferRange,
    /// One u32 receiving the number kept (offset a multiple of 4): usable as the
    /// `count_buffer` of a later record call.
    pub selected_count: VkalgoBufferRange,
    /// Scratch memory as `vkalgo_select_plan_memory_requirements` reports.
    pub scratch: VkalgoBufferRange,
    /// Element count when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a u32 at `count_buffer.offset`, read on the GPU (clamped to the plan's
    /// max_count). VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// IF: vkalgo_params of this call.
    pub params: [u32; 4],
}

/// The types and mode of `d` (the GLSL source read for IF), and whether a
/// `VkalgoKeepScratchZeroed` is chained.
unsafe fn desc_parts(d: *const VkalgoSelectDesc) -> vkalgo::Result<(KeyType, ValueType, SelectMode, bool)> {
    non_null(d, "desc")?;
    let d = &*d;
    let chained = chained_types(
        d.next,
        "select desc",
        &[VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED],
    )?;
    let keep_scratch_zeroed = chained.contains(&VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED);
    let key_type = KeyType::from_raw(d.key_type)?;
    let value_type = ValueType::from_raw(d.value_type)?;
    let mode = match d.mode {
        VKALGO_SELECT_FLAGGED => SelectMode::Flagged,
        VKALGO_SELECT_UNIQUE => SelectMode::Unique,
        VKALGO_SELECT_IF => {
            non_null(d.glsl, "select: IF needs desc->glsl, which")?;
            let glsl = CStr::from_ptr(d.glsl)
                .to_str()
                .map_err(|_| Error::invalid("select: the GLSL source is not UTF-8"))?;
            SelectMode::If {
                glsl: glsl.to_string(),
            }
        }
        other => return Err(Error::invalid(format!("select: unknown mode {other}"))),
    };
    Ok((key_type, value_type, mode, keep_scratch_zeroed))
}

/// Selects from `keys_in[0..count)` (and `values_in`) on the GPU (blocking): the kept keys
/// (values) to the start of `keys_out` (`values_out`), in order, and their number to
/// `*selected_count`. Outputs need room for `count` elements (only the kept ones are written);
/// `values_in` and `values_out` are ignored (may be NULL) when the value type is NONE;
/// `keys_in` may equal `keys_out` (and `values_in` `values_out`). `count` 0 is valid
/// (`*selected_count` = 0). Errors (nothing written): NULL data with count > 0, NULL flags in
/// FLAGGED mode with count > 0, NULL glsl in IF mode, an unknown key type, value type or mode,
/// a count over VKALGO_SELECT_MAX_COUNT (INVALID_ARGUMENT); a GLSL predicate that does not
/// compile (COMPILE); no shaderc library (UNSUPPORTED).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn vkalgo_select_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSelectDesc,
    keys_in: *const c_void,
    values_in: *const c_void,
    count: usize,
    keys_out: *mut c_void,
    values_out: *mut c_void,
    selected_count: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_select_host", || {
        let ctx = context_ref(ctx)?;
        // A chained VkalgoKeepScratchZeroed is for plans: the host call's scratch is its own.
        let (key_type, value_type, mode, _) = desc_parts(desc)?;
        non_null(selected_count, "selected_count")?;
        if count as u64 > VKALGO_SELECT_MAX_COUNT {
            return Err(Error::invalid(format!(
                "select: count {count} exceeds {VKALGO_SELECT_MAX_COUNT}"
            )));
        }
        let d = &*desc;
        let with_values = value_type != ValueType::None;
        if count > 0 {
            non_null(keys_in, "keys_in")?;
            non_null(keys_out, "keys_out")?;
            if with_values {
                non_null(values_in, "values_in")?;
                non_null(values_out, "values_out")?;
            }
            if mode == SelectMode::Flagged {
                non_null(d.flags, "select: FLAGGED needs desc->flags, which")?;
            }
        }
        let key_bytes = byte_len(count, key_type.bytes(), "select keys")?;
        let value_bytes = byte_len(count, value_type.bytes(), "select values")?;
        let bytes = |p: *const c_void, n: usize| -> &[u8] {
            if n == 0 {
                &[]
            } else {
                std::slice::from_raw_parts(p as *const u8, n)
            }
        };
        let flags = bytes(
            d.flags as *const c_void,
            if mode == SelectMode::Flagged { count } else { 0 },
        );
        let selection = match &mode {
            SelectMode::Flagged => Selection::Flagged(flags),
            SelectMode::If { glsl } => Selection::If {
                glsl,
                params: d.params,
            },
            _ => Selection::Unique,
        };
        // The outputs are written only after the inputs' last use (they may be the same memory).
        let (kept_keys, kept_values, kept) = ctx.select_host_bytes(
            key_type,
            value_type,
            &selection,
            bytes(keys_in, key_bytes),
            with_values.then(|| bytes(values_in, value_bytes)),
        )?;
        let kept_key_bytes = kept as usize * key_type.bytes() as usize;
        if kept_key_bytes > 0 {
            std::ptr::copy(kept_keys.as_ptr(), keys_out as *mut u8, kept_key_bytes);
        }
        if let Some(v) = kept_values {
            let n = kept as usize * value_type.bytes() as usize;
            if n > 0 {
                std::ptr::copy(v.as_ptr(), values_out as *mut u8, n);
            }
        }
        *selected_count = kept;
        Ok(())
    })
}

/// Plans a select of up to `max_count` elements (at most VKALGO_SELECT_MAX_COUNT; the path is
/// the device's choice). `desc->flags` and `desc->params` are not used (a recorded select
/// takes them in its args). A chained `VkalgoKeepScratchZeroed` keeps the plan's scratch
/// zeroed between calls (zero it once before the first). `*out` is set only on success;
/// destroy it with `vkalgo_select_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_select_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSelectDesc,
    max_count: u64,
    out: *mut *mut VkalgoSelectPlan,
) -> VkalgoResult {
    guard("vkalgo_select_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(out, "out")?;
        let (key_type, value_type, mode, keep_scratch_zeroed) = desc_parts(desc)?;
        let plan = ctx.select_plan(&SelectDesc {
            keep_scratch_zeroed,
            ..SelectDesc::new(key_type, value_type, mode, max_count)
        })?;
        super::box_out(out, VkalgoSelectPlan { plan })
    })
}

/// Destroys a select plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_select_plan_destroy(plan: *mut VkalgoSelectPlan) {
    super::destroy_boxed(plan);
}

/// The scratch memory each `vkalgo_select_record` of this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_select_plan_memory_requirements(
    plan: *const VkalgoSelectPlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_select_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

/// Records the select into the caller's command buffer (on the plan's context, which the plan
/// keeps alive): on the look-back path a compute fill of the scratch, a barrier and one
/// dispatch (with a kept-zeroed scratch the dispatch alone, or past 256 tiles the dispatch, a
/// barrier and the fill); on the count-scan path a count, a scan of the tile counts and a scatter, with
/// their barriers. Synchronization: writes to the inputs, flags and count buffer must be
/// visible to COMPUTE_SHADER reads; earlier uses of the outputs, the count kept and the
/// scratch must be complete before COMPUTE_SHADER; afterwards they are written
/// by COMPUTE_SHADER (SHADER_WRITE). Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_select_record(
    plan: *const VkalgoSelectPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSelectArgs,
) -> VkalgoResult {
    guard("vkalgo_select_record", || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "select args")?;
        let args = SelectArgs {
            keys_in: a.keys_in.to_rust(),
            values_in: a.values_in.to_rust_optional(),
            flags: a.flags.to_rust_optional(),
            keys_out: a.keys_out.to_rust(),
            values_out: a.values_out.to_rust_optional(),
            selected_count: a.selected_count.to_rust(),
            scratch: a.scratch.to_rust(),
            count: element_count(a.count, a.count_buffer),
            params: a.params,
        };
        (*plan).plan.record(command_buffer.to_vk(), &args)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn constants_match_rust() {
        assert_eq!(super::VKALGO_SELECT_MAX_COUNT, vkalgo::SELECT_MAX_COUNT);
        assert_eq!(
            super::VKALGO_SELECT_IF,
            vkalgo::SelectMode::If { glsl: String::new() }.code()
        );
        assert_eq!(super::VKALGO_SELECT_UNIQUE, vkalgo::SelectMode::Unique.code());
        assert_eq!(super::VKALGO_SELECT_FLAGGED, vkalgo::SelectMode::Flagged.code());
        assert_eq!(
            super::super::VKALGO_ALGORITHM_SELECT,
            vkalgo::Algorithm::Select as u32
        );
    }
}
