//! C ABI of the sets' record layer: `vkalgo_set_record_*(set, cmd, &args)` into the caller's
//! command buffers on the caller's buffers, the reservations recorded writes need
//! (`vkalgo_set_reserve_host`, `vkalgo_set_reserve_for_op_host`), the scratch they take
//! (`vkalgo_set_record_requirements`) and the status they write (`VkalgoSetOpStatus`).
//!
//! Synchronization (as the Rust `vkalgo::set` module's record layer): inputs are read and
//! outputs written in COMPUTE_SHADER (SHADER_READ / SHADER_WRITE): make the caller's writes of
//! the inputs visible to that stage first, and record a barrier from COMPUTE_SHADER before
//! reading the outputs. A set's own memory is read and written in COMPUTE_SHADER and TRANSFER:
//! between two recorded operations that touch the same set, record
//! `vkalgo_set_record_barrier`.
//!
//! Recorded writes cannot grow a set's pools: reserve free blocks first
//! (`vkalgo_set_reserve_host`, `vkalgo_set_reserve_for_op_host`, or `VkalgoSetDesc` at
//! creation). When the free blocks fall short, the GPU writes nothing to the set and the
//! status (`VkalgoSetOpStatus`, `ok` = 0) says how many it needed; reserve them and record
//! again. A packed set (`vkalgo_set_pack_host`) may be read, not written.
//!
//! Every call checks its arguments first (NULL pointers, `next`, counts, the ranges' sizes and
//! alignments, the sets' contexts); on an error it records nothing and returns
//! VKALGO_ERROR_INVALID_ARGUMENT (or the error that stopped it) with a message. Paths are
//! chosen by vkalgo (the Rust API's `path` fields are left at `Auto`).

use super::set::{set_list, set_ref, slice, VkalgoSet};
use super::types::*;
use super::{context_ref, guard, no_extension, non_null, try_collect, VkalgoContext, VkalgoResult};
use vkalgo::set::{
    GpuSet, GpuSetCardinalityArgs, GpuSetCardinalityBatchArgs, GpuSetContainsArgs, GpuSetFilterArgs,
    GpuSetInsertArgs, GpuSetInsertRangeArgs, GpuSetInsertSortedArgs, GpuSetManyCardinalityArgs, GpuSetOpArgs,
    GpuSetOpBatchArgs, GpuSetOpManyArgs, GpuSetRangeCardinalityArgs, GpuSetRunOptimizeArgs,
    GpuSetToArrayArgs, SetOperand,
};
use vkalgo::sort::SortPlan;
use vkalgo::Error;

/// Bytes of the status a recorded set operation writes (`sizeof(VkalgoSetOpStatus)`: 8
/// uint32_t); its range needs a 4-byte aligned offset.
pub const VKALGO_SET_STATUS_BYTES: u32 = 32;

/// The status a recorded set operation (`vkalgo_set_record_op`, `_op_cardinality`,
/// `_op_cardinality_batch`, `_insert_sorted`, `_insert`, `_insert_range`, `_run_optimize`)
/// writes to its `status` range: `VKALGO_SET_STATUS_BYTES` bytes, 8 uint32_t in this order.
/// The GPU's layout (not an argument struct: no `next`); read it after the command buffer has
/// completed (and a barrier to the host or a transfer).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VkalgoSetOpStatus {
    /// 1: the result was written; 0: the destination's pool was short (or an earlier
    /// operation of the batch failed) and nothing was written.
    pub ok: u32,
    /// Bitmap blocks the result needed (on the one-pass path, the bound it was checked
    /// against: see `vkalgo_set_reserve_for_op_host`).
    pub need_bitmap_blocks: u32,
    /// Array blocks the result needed (on the one-pass path, the bound).
    pub need_array_blocks: u32,
    /// Free bitmap blocks before the operation.
    pub free_bitmap_blocks: u32,
    /// Free array blocks before the operation.
    pub free_array_blocks: u32,
    /// Cardinality-only operations: the result's values in chunks that are not full.
    pub partial_cardinality: u32,
    /// Cardinality-only operations: the result's full chunks (65536 values each).
    pub full_chunks: u32,
    /// Chunk pairs that needed a workgroup.
    pub work_chunks: u32,
}

/// The cardinality a cardinality-only operation's status reports: `partial_cardinality +
/// 65536 * full_chunks` (NULL: 0).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_op_status_cardinality(status: *const VkalgoSetOpStatus) -> u64 {
    if status.is_null() {
        return 0;
    }
    let s = &*status;
    s.partial_cardinality as u64 + s.full_chunks as u64 * vkalgo::set::CHUNK_VALUES as u64
}

/// What the set record calls need of the caller's memory besides their inputs and outputs:
/// `scratch` (`SET_SCRATCH_BYTES`, about 1.25 MiB, at a 16-byte aligned offset, on a buffer
/// with the usage flags it gives) for every call that takes one (it holds a batch of pairs of
/// small sets for `vkalgo_set_record_op_cardinality_batch`; `vkalgo_set_record_op_batch`
/// takes `vkalgo_set_op_batch_scratch_bytes`). The other ranges are 0. Statuses are `VKALGO_SET_STATUS_BYTES`
/// each (4-byte aligned). The same on every context today; NULL ctx or out, or `out->next`
/// not NULL: INVALID_ARGUMENT.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_requirements(
    ctx: *const VkalgoContext,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_set_record_requirements", || {
        context_ref(ctx)?;
        write_requirements(out, GpuSet::record_requirements())
    })
}

/// Adds `bitmap_blocks` (8 KiB) and `array_blocks` (192 bytes) free blocks to the set's pools,
/// for recorded writes, which cannot grow them (blocking: the pools are copied into new ones,
/// so work recorded with the set must have finished). More than 2^31 blocks in a pool, or a
/// set on the caller's memory (`vkalgo_set_create_in`, fixed pools): INVALID_ARGUMENT.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_reserve_host(
    set: *mut VkalgoSet,
    bitmap_blocks: u32,
    array_blocks: u32,
) -> VkalgoResult {
    guard("vkalgo_set_reserve_host", || {
        non_null(set, "set")?;
        (*set).set.reserve(bitmap_blocks, array_blocks)
    })
}

/// Reserves free blocks in `dst` so that a recorded `op` of `a` and `b` into it takes the
/// one-pass path (no counting pass; `VkalgoSetOpArgs::reserved` records that path alone): a
/// bound per chunk computed from the operands' chunk cardinalities, which is what the
/// operation's status then reports as needed. `a` and `b` may be `dst` (their value now).
/// Blocking (downloads the directories); errors as `vkalgo_set_reserve_host`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_reserve_for_op_host(
    dst: *mut VkalgoSet,
    a: *const VkalgoSet,
    b: *const VkalgoSet,
    op: VkalgoSetOp,
) -> VkalgoResult {
    guard("vkalgo_set_reserve_for_op_host", || {
        non_null(dst, "dst")?;
        let a = operand(a, dst, "a")?;
        let b = operand(b, dst, "b")?;
        let op = op.to_rust()?;
        (*dst).set.reserve_for_op(a, b, op)
    })
}

/// `p` as an operand of an operation into `dst`: `This` when it is `dst` (no reference to
/// `dst`'s set is made), else the set (NULL: INVALID_ARGUMENT naming `what`).
unsafe fn operand<'a>(
    p: *const VkalgoSet,
    dst: *const VkalgoSet,
    what: &str,
) -> vkalgo::Result<SetOperand<'a>> {
    non_null(p, what)?;
    Ok(if std::ptr::eq(p, dst) {
        SetOperand::This
    } else {
        SetOperand::Set(&(*p).set)
    })
}

/// The command buffer (VK_NULL_HANDLE: INVALID_ARGUMENT).
pub(crate) fn command_buffer(cmd: VkCommandBuffer) -> vkalgo::Result<ash::vk::CommandBuffer> {
    if cmd.0.is_null() {
        return Err(Error::invalid("the command buffer is NULL"));
    }
    Ok(cmd.to_vk())
}

/// `*args`, checked: not NULL, `next` NULL (`what` names the struct in the message).
pub(crate) unsafe fn args_ref<'a, T>(
    args: *const T,
    next: impl FnOnce(&T) -> *const std::ffi::c_void,
    what: &str,
) -> vkalgo::Result<&'a T> {
    non_null(args, what)?;
    let a = &*args;
    no_extension(next(a), what)?;
    Ok(a)
}

/// Records a barrier ordering every earlier set pass (and transfer) before every later one
/// (COMPUTE_SHADER and TRANSFER writes before COMPUTE_SHADER and TRANSFER reads and writes):
/// between two recorded operations that touch the same set.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_barrier(
    set: *const VkalgoSet,
    command_buffer: VkCommandBuffer,
) -> VkalgoResult {
    guard("vkalgo_set_record_barrier", || {
        let set = set_ref(set, "set")?;
        set.record_barrier(self::command_buffer(command_buffer)?);
        Ok(())
    })
}

/// The operands and buffers of `vkalgo_set_record_op`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetOpArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// First operand: the destination itself (the same pointer: its value before the
    /// operation) or another set of the same context (either may be packed).
    pub a: *const VkalgoSet,
    /// Second operand, as `a`.
    pub b: *const VkalgoSet,
    /// The operation (`VKALGO_SET_*`).
    pub op: VkalgoSetOp,
    /// 0: the whole operation, whatever the destination's free blocks (the one-pass path when
    /// they cover the bound of `vkalgo_set_reserve_for_op_host`, else the counting pass and
    /// the check first). 1: the one-pass path only, in three passes (clear, classify, write)
    /// instead of five: the destination must hold the free blocks of
    /// `vkalgo_set_reserve_for_op_host` for these operands. When it does not (the operands
    /// changed since the reservation, or an earlier operation failed), nothing is written and
    /// the status says so with the bound as the need.
    pub reserved: u32,
    /// Scratch (`vkalgo_set_record_requirements`).
    pub scratch: VkalgoBufferRange,
    /// `VKALGO_SET_STATUS_BYTES` receiving a `VkalgoSetOpStatus` (not overlapping `scratch`).
    pub status: VkalgoBufferRange,
}

/// Records `*set = a op b` (`args->a` and `args->b` may be `set`). When the set's pools lack
/// free blocks nothing is written and the status says what was needed (`ok` = 0). A packed
/// destination: INVALID_ARGUMENT.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_op(
    set: *mut VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetOpArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_op", || {
        non_null(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set op args")?;
        let mut rust = GpuSetOpArgs::new(
            operand(a.a, set, "args->a")?,
            operand(a.b, set, "args->b")?,
            a.op.to_rust()?,
            a.scratch.to_rust(),
            a.status.to_rust(),
        );
        rust.reserved = c_bool(a.reserved, "set op args: reserved")?;
        (*set).set.record_op(cmd, &rust)
    })
}

/// The operands and buffers of `vkalgo_set_record_op_cardinality`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetCardinalityArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// First operand.
    pub a: *const VkalgoSet,
    /// Second operand (the same context as `a`; may be `a`).
    pub b: *const VkalgoSet,
    /// The operation (`VKALGO_SET_*`).
    pub op: VkalgoSetOp,
    /// Scratch (`vkalgo_set_record_requirements`).
    pub scratch: VkalgoBufferRange,
    /// `VKALGO_SET_STATUS_BYTES` receiving a `VkalgoSetOpStatus`: the cardinality is
    /// `vkalgo_set_op_status_cardinality` of it.
    pub status: VkalgoBufferRange,
}

/// Records the cardinality of `args->a op args->b` without materializing it (both operands are
/// in `args`: no set is written). Operands with few array and bitmap blocks are counted in one
/// pass that keeps a count of its workgroups in `a`'s memory: like every operation, record
/// `vkalgo_set_record_barrier` between it and another that uses the same set.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_op_cardinality(
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetCardinalityArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_op_cardinality", || {
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set cardinality args")?;
        let rust = GpuSetCardinalityArgs::new(
            set_ref(a.a, "args->a")?,
            set_ref(a.b, "args->b")?,
            a.op.to_rust()?,
            a.scratch.to_rust(),
            a.status.to_rust(),
        );
        GpuSet::record_op_cardinality(cmd, &rust)
    })
}

/// The pairs and buffers of `vkalgo_set_record_op_cardinality_batch`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetCardinalityBatchArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// `count` first operands (the same set in every `a[i]` for one query against many).
    pub a: *const *const VkalgoSet,
    /// `count` second operands. Sets may appear in several pairs; all of one context.
    pub b: *const *const VkalgoSet,
    /// Number of pairs (0: nothing recorded, `a` and `b` may be NULL).
    pub count: usize,
    /// The operation of every pair (`VKALGO_SET_*`).
    pub op: VkalgoSetOp,
    /// At least one scratch (`vkalgo_set_record_requirements`); pairs counted by the passes
    /// run as many at once as it holds their chunk lists (a few KiB a pair of small sets).
    pub scratch: VkalgoBufferRange,
    /// `count * VKALGO_SET_STATUS_BYTES`: the `VkalgoSetOpStatus` of pair `i` at byte `32 i`
    /// (not overlapping `scratch`).
    pub statuses: VkalgoBufferRange,
}

/// Records the cardinalities of `a[i] op b[i]` for `args->count` pairs as one operation whose
/// pairs run side by side (one query set against many). The whole batch is one operation on
/// each of its sets: record `vkalgo_set_record_barrier` between it and another that uses them.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_op_cardinality_batch(
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetCardinalityBatchArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_op_cardinality_batch", || {
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set cardinality batch args")?;
        let op = a.op.to_rust()?;
        let (first, second) = (slice(a.a, a.count, "args->a")?, slice(a.b, a.count, "args->b")?);
        let pairs = try_collect(a.count, "pairs", |i| {
            Ok((
                set_ref(first[i], "args->a[i]")?,
                set_ref(second[i], "args->b[i]")?,
            ))
        })?;
        let rust = GpuSetCardinalityBatchArgs::new(&pairs, op, a.scratch.to_rust(), a.statuses.to_rust());
        GpuSet::record_op_cardinality_batch(cmd, &rust)
    })
}

/// The sets and buffers of `vkalgo_set_record_op_many_cardinality`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetManyCardinalityArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// `count` operands, at least one, all of one context; a set may repeat.
    pub sets: *const *const VkalgoSet,
    /// Number of operands.
    pub count: usize,
    /// The operation (`VKALGO_SET_*`; ANDNOT: `sets[0]` minus the union of the others).
    pub op: VkalgoSetOp,
    /// `vkalgo_set_op_many_cardinality_scratch_bytes(count)` bytes (16-byte aligned offset).
    pub scratch: VkalgoBufferRange,
    /// `VKALGO_SET_STATUS_BYTES`: the `VkalgoSetOpStatus` (zeroed first by the call; not
    /// overlapping `scratch`).
    pub status: VkalgoBufferRange,
}

/// The scratch bytes `vkalgo_set_record_op_many_cardinality` needs for `sets` operands: 16 a
/// set and 769 KiB + 16.
#[no_mangle]
pub extern "C" fn vkalgo_set_op_many_cardinality_scratch_bytes(sets: usize) -> u64 {
    GpuSet::op_many_cardinality_scratch_bytes(sets)
}

/// Records `|sets[0] op sets[1] op ... op sets[count - 1]|` without materializing it into a
/// `VkalgoSetOpStatus` (`ok` 1; cardinality = partial_cardinality + full_chunks * 65536): two
/// dispatches whatever the number of sets. It reads the sets: record
/// `vkalgo_set_record_barrier` between it and work that writes them. No sets, NULL entries,
/// sets of different contexts, scratch or status too small or overlapping: INVALID_ARGUMENT;
/// more than 64 sets on a CPU driver: UNSUPPORTED; nothing recorded.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_op_many_cardinality(
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetManyCardinalityArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_op_many_cardinality", || {
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set many cardinality args")?;
        let op = a.op.to_rust()?;
        let operands = set_list(a.sets, a.count, "args->sets")?;
        let rust = GpuSetManyCardinalityArgs {
            sets: &operands,
            op,
            scratch: a.scratch.to_rust(),
            status: a.status.to_rust(),
        };
        GpuSet::record_op_many_cardinality(cmd, &rust)
    })
}

/// The operands and buffers of `vkalgo_set_record_op_many`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetOpManyArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// `count` operands, at least one, all of the destination's context, none of them the
    /// destination; a set may repeat, packed ones too.
    pub sets: *const *const VkalgoSet,
    /// Number of operands.
    pub count: usize,
    /// The operation (`VKALGO_SET_*`; ANDNOT: `sets[0]` minus the union of the others).
    pub op: VkalgoSetOp,
    /// `vkalgo_set_op_many_scratch_bytes(count)` bytes (16-byte aligned offset).
    pub scratch: VkalgoBufferRange,
    /// `VKALGO_SET_STATUS_BYTES` receiving a `VkalgoSetOpStatus` (not overlapping `scratch`).
    pub status: VkalgoBufferRange,
}

/// The scratch bytes `vkalgo_set_record_op_many` needs for `sets` operands:
/// `VKALGO_SET_SCRATCH_BYTES` and 16 a set and for the destination.
#[no_mangle]
pub extern "C" fn vkalgo_set_op_many_scratch_bytes(sets: usize) -> u64 {
    GpuSet::op_many_scratch_bytes(sets)
}

/// Records `*set = sets[0] op sets[1] op ... op sets[count - 1]` (ANDNOT: `sets[0]` minus the
/// union of the others) as one pass sequence whatever the number of sets. As
/// `vkalgo_set_record_op`: when the set's pools lack free blocks nothing is written and the
/// status says what was needed (`ok` = 0). No sets, NULL entries, the destination among the
/// operands or packed, sets of different contexts, scratch or status too small or
/// overlapping: INVALID_ARGUMENT; more than 32 sets on a CPU driver: UNSUPPORTED; nothing
/// recorded.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_op_many(
    set: *mut VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetOpManyArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_op_many", || {
        non_null(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set op many args")?;
        let op = a.op.to_rust()?;
        let operands = set_list(a.sets, a.count, "args->sets")?;
        let rust = GpuSetOpManyArgs {
            sets: &operands,
            op,
            scratch: a.scratch.to_rust(),
            status: a.status.to_rust(),
        };
        (*set).set.record_op_many(cmd, &rust)
    })
}

/// The jobs and buffers of `vkalgo_set_record_op_batch` and
/// `vkalgo_set_op_batch_scratch_bytes`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetOpBatchArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// `count` destinations: distinct, not packed, none of them an operand of any job.
    pub dst: *const *mut VkalgoSet,
    /// `count` first operands (sets may repeat; packed ones too).
    pub a: *const *const VkalgoSet,
    /// `count` second operands. All sets of one context.
    pub b: *const *const VkalgoSet,
    /// Number of jobs (0: nothing recorded, the arrays may be NULL).
    pub count: usize,
    /// The operation of every job (`VKALGO_SET_*`).
    pub op: VkalgoSetOp,
    /// `vkalgo_set_op_batch_scratch_bytes` bytes (16-byte aligned offset).
    pub scratch: VkalgoBufferRange,
    /// `count * VKALGO_SET_STATUS_BYTES`: the `VkalgoSetOpStatus` of job `i` at byte `32 i`
    /// (not overlapping `scratch`).
    pub statuses: VkalgoBufferRange,
}

/// The jobs of `args` as the Rust record layer takes them (after the C ABI's checks).
unsafe fn batch_jobs(args: &VkalgoSetOpBatchArgs) -> Result<Vec<(&GpuSet, &GpuSet, &GpuSet)>, Error> {
    let dst = slice(args.dst, args.count, "args->dst")?;
    let (a, b) = (
        slice(args.a, args.count, "args->a")?,
        slice(args.b, args.count, "args->b")?,
    );
    try_collect(args.count, "jobs", |i| {
        Ok((
            set_ref(dst[i].cast_const(), "args->dst[i]")?,
            set_ref(a[i], "args->a[i]")?,
            set_ref(b[i], "args->b[i]")?,
        ))
    })
}

/// `*bytes_out` = the scratch bytes `vkalgo_set_record_op_batch` needs for `args`'s jobs as
/// the sets are now (`scratch` and `statuses` are ignored). Refuses what the record call
/// refuses of the jobs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_op_batch_scratch_bytes(
    args: *const VkalgoSetOpBatchArgs,
    bytes_out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_set_op_batch_scratch_bytes", || {
        let a = args_ref(args, |a| a.next, "set op batch args")?;
        non_null(bytes_out, "bytes_out")?;
        let op = a.op.to_rust()?;
        let bytes = GpuSet::op_batch_scratch_bytes(&batch_jobs(a)?, op)?;
        *bytes_out = bytes;
        Ok(())
    })
}

/// Records `*dst[i] = a[i] op b[i]` for `args->count` jobs as one pass sequence whatever their
/// number. A job whose destination lacks free blocks writes nothing and its status says what
/// it needed (`ok` = 0); the others are written. The whole batch is one operation on each of
/// its sets: record `vkalgo_set_record_barrier` between it and other work on them. Sets of
/// different contexts, a destination twice or among the operands, a packed destination,
/// scratch or statuses too small: INVALID_ARGUMENT, nothing recorded.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_op_batch(
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetOpBatchArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_op_batch", || {
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set op batch args")?;
        let op = a.op.to_rust()?;
        let jobs = batch_jobs(a)?;
        let rust = GpuSetOpBatchArgs {
            jobs: &jobs,
            op,
            scratch: a.scratch.to_rust(),
            statuses: a.statuses.to_rust(),
        };
        GpuSet::record_op_batch(cmd, &rust)
    })
}

/// The values and buffers of `vkalgo_set_record_insert_sorted`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetInsertSortedArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The values (uint32_t) SORTED ascending, duplicates allowed.
    pub sorted: VkalgoBufferRange,
    /// Number of values (at most 2^24) when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a uint32_t at `count_buffer.offset`, read on the GPU, clamped to
    /// `max_count`. VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count (at most 2^24); ignored for a direct count.
    pub max_count: u64,
    /// 0: insert the values; 1: remove them.
    pub remove: u32,
    /// Scratch (`vkalgo_set_record_requirements`).
    pub scratch: VkalgoBufferRange,
    /// `VKALGO_SET_STATUS_BYTES` receiving a `VkalgoSetOpStatus` (not overlapping `scratch`).
    pub status: VkalgoBufferRange,
}

/// Records an insert (or, with `args->remove`, a removal) of values already sorted ascending.
/// When the set's pools lack free blocks nothing is written and the status says what was
/// needed.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_insert_sorted(
    set: *mut VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetInsertSortedArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_insert_sorted", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set insert sorted args")?;
        let rust = GpuSetInsertSortedArgs {
            sorted: a.sorted.to_rust(),
            count: element_count(a.count, a.count_buffer),
            max_count: a.max_count,
            remove: c_bool(a.remove, "set insert sorted args: remove")?,
            scratch: a.scratch.to_rust(),
            status: a.status.to_rust(),
        };
        set.record_insert_sorted(cmd, &rust)
    })
}

/// The range and buffers of `vkalgo_set_record_insert_range`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetInsertRangeArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// First value of the range.
    pub begin: u64,
    /// One past the last value (`begin <= end <= 2^32`; `begin == end`: nothing recorded).
    pub end: u64,
    /// Scratch (`vkalgo_set_record_requirements`).
    pub scratch: VkalgoBufferRange,
    /// `VKALGO_SET_STATUS_BYTES` receiving a `VkalgoSetOpStatus` (not overlapping `scratch`).
    pub status: VkalgoBufferRange,
}

/// Records an insert of every value of `[args->begin, args->end)`. When the set's pools lack
/// free blocks nothing is written and the status says what was needed.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_insert_range(
    set: *mut VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetInsertRangeArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_insert_range", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set insert range args")?;
        let rust = GpuSetInsertRangeArgs {
            begin: a.begin,
            end: a.end,
            scratch: a.scratch.to_rust(),
            status: a.status.to_rust(),
        };
        set.record_insert_range(cmd, &rust)
    })
}

/// The buffers of `vkalgo_set_record_run_optimize`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetRunOptimizeArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// Scratch (`vkalgo_set_record_requirements`).
    pub scratch: VkalgoBufferRange,
    /// `VKALGO_SET_STATUS_BYTES` receiving a `VkalgoSetOpStatus` (not overlapping `scratch`).
    pub status: VkalgoBufferRange,
}

/// Records `vkalgo_set_run_optimize_host`: every chunk neither empty nor full written again in
/// its smallest form (runs where CRoaring's run_optimize picks them and there are at most 48,
/// else an array or a bitmap). A run chunk never takes more blocks than the array or bitmap it
/// replaces, but a chunk an operation left as runs may become an array or a bitmap: when the
/// pools lack free blocks nothing is written and the status says so.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_run_optimize(
    set: *mut VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetRunOptimizeArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_run_optimize", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set run optimize args")?;
        let rust = GpuSetRunOptimizeArgs {
            scratch: a.scratch.to_rust(),
            status: a.status.to_rust(),
        };
        set.record_run_optimize(cmd, &rust)
    })
}

/// The sort `vkalgo_set_record_insert` runs on its values first (an ascending radix sort of
/// uint32_t keys, made for one context, which it keeps alive). Immutable once created: any
/// thread may query or record it.
pub struct VkalgoSetInsertPlan {
    plan: SortPlan,
}

/// What `vkalgo_set_insert_plan_create` plans.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetInsertPlanDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The most values one `vkalgo_set_record_insert` of this plan takes (at most 2^24; it
    /// also bounds an indirect count).
    pub max_count: u64,
}

/// Plans the sort of `vkalgo_set_record_insert` for up to `desc->max_count` values. `*out` is
/// set only on success; destroy it with `vkalgo_set_insert_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_insert_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSetInsertPlanDesc,
    out: *mut *mut VkalgoSetInsertPlan,
) -> VkalgoResult {
    guard("vkalgo_set_insert_plan_create", || {
        let ctx = context_ref(ctx)?;
        let d = args_ref(desc, |d| d.next, "set insert plan desc")?;
        non_null(out, "out")?;
        let plan = GpuSet::insert_plan(ctx, d.max_count)?;
        super::box_out(out, VkalgoSetInsertPlan { plan })
    })
}

/// Destroys an insert plan (NULL: no-op). Work recorded with it must have finished.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_insert_plan_destroy(plan: *mut VkalgoSetInsertPlan) {
    super::destroy_boxed(plan);
}

/// The memory each `vkalgo_set_record_insert` of this plan needs for its sort: `keys_alt` is
/// `VkalgoSetInsertArgs::values_alt` (as large as the values), `scratch` is
/// `VkalgoSetInsertArgs::sort_scratch` (the set's own scratch is the one of
/// `vkalgo_set_record_requirements`).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_insert_plan_memory_requirements(
    plan: *const VkalgoSetInsertPlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_set_insert_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

/// The plan, values and buffers of `vkalgo_set_record_insert`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetInsertArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The sort plan (`vkalgo_set_insert_plan_create`); its max_count bounds the count.
    pub plan: *const VkalgoSetInsertPlan,
    /// The values (uint32_t, any order, duplicates allowed), sorted IN PLACE: they hold
    /// scratch contents afterwards.
    pub values: VkalgoBufferRange,
    /// The sort's alternate buffer (the plan's `keys_alt` size); scratch contents afterwards.
    pub values_alt: VkalgoBufferRange,
    /// The sort's scratch (the plan's `scratch` requirements).
    pub sort_scratch: VkalgoBufferRange,
    /// Number of values (at most the plan's max_count) when `count_buffer.buffer` is
    /// VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a uint32_t at `count_buffer.offset`, read on the GPU, clamped to the
    /// plan's max_count. VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// 0: insert the values; 1: remove them.
    pub remove: u32,
    /// The set's scratch (`vkalgo_set_record_requirements`).
    pub scratch: VkalgoBufferRange,
    /// `VKALGO_SET_STATUS_BYTES` receiving a `VkalgoSetOpStatus` (not overlapping `scratch`).
    pub status: VkalgoBufferRange,
}

/// Records an insert (or, with `args->remove`, a removal) of values in any order: the plan's
/// sort, then as `vkalgo_set_record_insert_sorted`. Every argument is checked before anything
/// is recorded. When the set's pools lack free blocks nothing is written to the set and the
/// status says what was needed.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_insert(
    set: *mut VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetInsertArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_insert", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set insert args")?;
        non_null(a.plan, "args->plan")?;
        let rust = GpuSetInsertArgs {
            plan: &(*a.plan).plan,
            values: a.values.to_rust(),
            values_alt: a.values_alt.to_rust(),
            sort_scratch: a.sort_scratch.to_rust(),
            count: element_count(a.count, a.count_buffer),
            remove: c_bool(a.remove, "set insert args: remove")?,
            scratch: a.scratch.to_rust(),
            status: a.status.to_rust(),
        };
        set.record_insert(cmd, &rust)
    })
}

/// The values and buffers of `vkalgo_set_record_contains`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetContainsArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The values (uint32_t) to look up.
    pub values: VkalgoBufferRange,
    /// Number of values (at most 2^32 - 1) when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a uint32_t at `count_buffer.offset`, read on the GPU, clamped to
    /// `max_count`. VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count; ignored for a direct count.
    pub max_count: u64,
    /// A uint32_t per value: 1 in the set, 0 not.
    pub flags: VkalgoBufferRange,
}

/// Records a lookup of each value: `flags[i]` 1 if `values[i]` is in the set, else 0.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_contains(
    set: *const VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetContainsArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_contains", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set contains args")?;
        let rust = GpuSetContainsArgs {
            values: a.values.to_rust(),
            count: element_count(a.count, a.count_buffer),
            max_count: a.max_count,
            flags: a.flags.to_rust(),
        };
        set.record_contains(cmd, &rust)
    })
}

/// The values and buffers of `vkalgo_set_record_filter`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetFilterArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The values (uint32_t) to filter.
    pub values: VkalgoBufferRange,
    /// Number of values when `count_buffer.buffer` is VK_NULL_HANDLE (at most 65536
    /// workgroups of values: 2^24 on GPUs, 2^22 on CPU drivers).
    pub count: u64,
    /// Indirect count: a uint32_t at `count_buffer.offset`, read on the GPU, clamped to
    /// `max_count`. VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count; ignored for a direct count.
    pub max_count: u64,
    /// The values that are in the set, in input order (room for the count).
    pub out: VkalgoBufferRange,
    /// A uint32_t receiving the number of values written to `out`.
    pub out_count: VkalgoBufferRange,
    /// Scratch (`vkalgo_set_record_requirements`).
    pub scratch: VkalgoBufferRange,
}

/// Records a filter: the values that are in the set, in input order, into `args->out`, their
/// number into `args->out_count`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_filter(
    set: *const VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetFilterArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_filter", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set filter args")?;
        let rust = GpuSetFilterArgs::new(
            a.values.to_rust(),
            element_count(a.count, a.count_buffer),
            a.max_count,
            a.out.to_rust(),
            a.out_count.to_rust(),
            a.scratch.to_rust(),
        );
        set.record_filter(cmd, &rust)
    })
}

/// The buffers of `vkalgo_set_record_to_array`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetToArrayArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The set's values ascending (room for `capacity` uint32_t).
    pub out: VkalgoBufferRange,
    /// The most values written to `out` (values past it are not written).
    pub capacity: u64,
    /// 8 bytes receiving the cardinality (a uint64_t as two uint32_t, low first).
    pub count_out: VkalgoBufferRange,
    /// Scratch (`vkalgo_set_record_requirements`).
    pub scratch: VkalgoBufferRange,
}

/// Records to-array: the set's values ascending into `args->out` (at most `args->capacity`)
/// and its cardinality into `args->count_out`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_to_array(
    set: *const VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetToArrayArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_to_array", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set to_array args")?;
        let rust = GpuSetToArrayArgs {
            out: a.out.to_rust(),
            capacity: a.capacity,
            count_out: a.count_out.to_rust(),
            scratch: a.scratch.to_rust(),
        };
        set.record_to_array(cmd, &rust)
    })
}

/// The range and output of `vkalgo_set_record_range_cardinality`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetRangeCardinalityArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// First value of the range.
    pub begin: u64,
    /// One past the last value (`begin <= end <= 2^32`).
    pub end: u64,
    /// 8 bytes receiving the count (a uint64_t as two uint32_t, low first).
    pub out: VkalgoBufferRange,
}

/// Records the number of the set's values in `[args->begin, args->end)` into `args->out`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_range_cardinality(
    set: *const VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetRangeCardinalityArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_range_cardinality", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set range cardinality args")?;
        let rust = GpuSetRangeCardinalityArgs {
            begin: a.begin,
            end: a.end,
            out: a.out.to_rust(),
        };
        set.record_range_cardinality(cmd, &rust)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C status is the Rust one, word for word, and its size is the constant's.
    #[test]
    fn status_layout_is_the_rust_one() {
        assert_eq!(
            std::mem::size_of::<VkalgoSetOpStatus>() as u64,
            vkalgo::set::SET_STATUS_BYTES
        );
        assert_eq!(VKALGO_SET_STATUS_BYTES as u64, vkalgo::set::SET_STATUS_BYTES);
        let rust = vkalgo::SetOpStatus {
            ok: 1,
            need_bitmap_blocks: 2,
            need_array_blocks: 3,
            free_bitmap_blocks: 4,
            free_array_blocks: 5,
            partial_cardinality: 6,
            full_chunks: 7,
            work_chunks: 8,
        };
        // SAFETY: both are 8 u32 (sizes checked above).
        let c: VkalgoSetOpStatus = unsafe { std::mem::transmute(rust) };
        assert_eq!(
            [
                c.ok,
                c.need_bitmap_blocks,
                c.need_array_blocks,
                c.free_bitmap_blocks,
                c.free_array_blocks,
                c.partial_cardinality,
                c.full_chunks,
                c.work_chunks
            ],
            [1, 2, 3, 4, 5, 6, 7, 8]
        );
        assert_eq!(
            unsafe { vkalgo_set_op_status_cardinality(&c) },
            rust.cardinality()
        );
        assert_eq!(unsafe { vkalgo_set_op_status_cardinality(std::ptr::null()) }, 0);
    }

    /// Calls refused before anything is looked at: NULL pointers and a non-NULL `next`.
    #[test]
    fn null_arguments_are_refused() {
        let invalid = VkalgoResult::VkalgoErrorInvalidArgument;
        let cmd = VkCommandBuffer(std::ptr::null_mut());
        unsafe {
            let mut req = VkalgoMemoryRequirements::default();
            assert_eq!(
                vkalgo_set_record_requirements(std::ptr::null(), &mut req),
                invalid
            );
            assert_eq!(vkalgo_set_reserve_host(std::ptr::null_mut(), 1, 1), invalid);
            assert_eq!(
                vkalgo_set_reserve_for_op_host(
                    std::ptr::null_mut(),
                    std::ptr::null(),
                    std::ptr::null(),
                    VKALGO_SET_OR
                ),
                invalid
            );
            assert_eq!(vkalgo_set_record_barrier(std::ptr::null(), cmd), invalid);
            let op = VkalgoSetOpArgs::default();
            assert_eq!(vkalgo_set_record_op(std::ptr::null_mut(), cmd, &op), invalid);
            let card = VkalgoSetCardinalityArgs::default();
            assert_eq!(vkalgo_set_record_op_cardinality(cmd, &card), invalid);
            let batch = VkalgoSetCardinalityBatchArgs::default();
            assert_eq!(vkalgo_set_record_op_cardinality_batch(cmd, &batch), invalid);
            let op_batch = VkalgoSetOpBatchArgs::default();
            assert_eq!(vkalgo_set_record_op_batch(cmd, &op_batch), invalid);
            let mut bytes = 0u64;
            assert_eq!(
                vkalgo_set_op_batch_scratch_bytes(std::ptr::null(), &mut bytes),
                invalid
            );
            let mut plan = std::ptr::null_mut();
            let desc = VkalgoSetInsertPlanDesc::default();
            assert_eq!(
                vkalgo_set_insert_plan_create(std::ptr::null_mut(), &desc, &mut plan),
                invalid
            );
            assert!(plan.is_null());
            assert_eq!(
                vkalgo_set_insert_plan_memory_requirements(std::ptr::null(), &mut req),
                invalid
            );
            vkalgo_set_insert_plan_destroy(std::ptr::null_mut());
        }
    }
}
