//! GPU sets of 32-bit integers ([`GpuSet`]): subsets of `[0, 2^32)` in chunked bitmap/array
//! containers from GPU block pools, with insert, remove, ranges, contains, (range)
//! cardinality, AND / OR / ANDNOT / XOR (materialized or counted only; of many sets at once,
//! [`GpuSet::op_many`] and [`GpuSet::op_many_cardinality`], and of many pairs in one
//! submission, [`GpuSet::op_batch`]), to-array,
//! filter, order statistics (minimum, maximum, rank and select: [`GpuSet::rank`],
//! [`GpuSet::select`]) and the Roaring portable serialization for interchange with CRoaring, pyroaring, Java's
//! RoaringBitmap and Iceberg deletion vectors.
//!
//! ```
//! use vkalgo::{Context, GpuSet, SetOp};
//! let ctx = Context::new()?;
//! let mut a = GpuSet::new(&ctx)?;
//! a.insert(&[7, 3, 7, 1 << 31])?;
//! a.insert_range(100, 200)?;
//! let mut b = GpuSet::new(&ctx)?;
//! b.insert(&[3, 150, 4_000_000_000])?;
//! assert_eq!(GpuSet::op_cardinality(&a, &b, SetOp::And)?, 2);
//! let c = GpuSet::op(&a, &b, SetOp::Or)?;
//! assert_eq!(c.cardinality()?, 104);
//! let bytes = c.serialize()?; // Roaring portable format
//! let d = GpuSet::deserialize(&ctx, &bytes)?;
//! assert_eq!(d.to_vec()?, c.to_vec()?);
//! # Ok::<(), vkalgo::Error>(())
//! ```
//!
//! # 64-bit sets
//! [`GpuSet64`](crate::GpuSet64) (module [`set64`](crate::set64)) holds u64 values as
//! CRoaring's Roaring64 does: a [`GpuSet`] per high 32 bits, the low 32 bits in it; its
//! operations run every high key's pair of sets in one submission
//! ([`GpuSet::assign_batch`], [`GpuSet::op_cardinality_batch`]), and it reads and writes the
//! Roaring64 portable format.
//!
//! # Layout
//! The universe is cut into 65536 **chunks** of 2^16 values (Roaring's containers, so that
//! interchange maps chunk to container exactly). A **directory** on the GPU holds per chunk its
//! cardinality (0..=65536) and a block id; the cardinality alone gives the kind: empty (0) and
//! full (65536) chunks have no storage; up to 4096 values (Roaring's threshold) a chunk is a
//! sorted array of u16, above it an 8 KiB bitmap. A chunk converts between the kinds whenever
//! an operation moves its cardinality across the threshold.
//!
//! Storage comes from two **pools of fixed-size blocks** per set, each with a ring of free
//! block ids and two atomic cursors on the GPU (the seed's in-kernel pool: take with
//! `atomicAdd(head)`, give back with `atomicAdd(tail)`, index masked):
//! - bitmap blocks of 8 KiB: one per bitmap chunk;
//! - array blocks of 192 bytes (48 words): an array chunk of `n` values takes
//!   `k = max(1, ceil((ceil(n/2) - 1) / 47))` blocks in any order; block 0 starts with the ids
//!   of the other `k - 1` blocks, then the values follow two per word across the blocks, so
//!   value `j` is two dependent loads away (binary search in `contains`). 192 bytes keep the
//!   rounding waste small for the sparse chunks of large sets (256 values take 3 blocks, 576
//!   bytes, against Roaring's 520 with its container header) while a 4096-value array's 43
//!   header ids still fit block 0.
//!
//! **Run chunks** (Roaring's run containers): a chunk of r runs of consecutive values, each a
//! word `first | last << 16`. The directory entry's first word is the cardinality | r << 17;
//! one run lives in the entry's second word (no storage), 2..=48 runs in one array block. A
//! chunk is kept as runs where CRoaring's `run_optimize` would pick runs (their 2 + 4r bytes
//! below an array's 2n, or below a bitmap's 8192) and r <= 48. Run chunks come from ranges
//! ([`GpuSet::insert_range`]), deserialized run containers, [`GpuSet::run_optimize`] and
//! operations where an operand's chunk is one (as CRoaring's run containers beget run
//! containers); a set built from values holds arrays and bitmaps until `run_optimize`. A pair
//! of chunks that are each empty, full or a run chunk, with at most 46 runs together, is
//! computed by one invocation walking both run lists (glsl/set/run_pairs.glsl, as CRoaring
//! does; its result has at most 46 runs, so one array block at most); other pairs with a run
//! chunk go to the kernel that expands chunks into shared bitmaps (chunk_update.comp), which
//! writes their results in the form above; the pair kernels for arrays and bitmaps never see
//! one. A run chunk of one run copied by an operation, the intersection of two such (one run
//! or none) and every cardinality of two such are decided by the classification pass from the
//! entries alone.
//!
//! Memory of a set ([`GpuSet::memory_bytes`]): the directory, the pools and the rings (4 bytes
//! per block). A set that is written has a flat directory (an 8-byte entry for each of the
//! 65536 chunks: 512 KiB); [`GpuSet::pack`] gives a set of at most [`PACK_MAX_CHUNKS`]
//! non-empty chunks a packed one for reading (an index of 16 KiB, 8 bytes a non-empty chunk,
//! the runs of run chunks as 4-byte words of the array pool), which every call reads and the
//! blocking writes unpack first. Growth adds an eighth of a pool beyond the shortfall and
//! removals free blocks; [`GpuSet::shrink_to_fit`] gives the free blocks back (the blocks in
//! use above the new pool size move into free ids below it), and [`GpuSet::from_values`] ends
//! with it. Packed clustered sets take fewer bytes than their Roaring serialization, flat ones
//! several times more; small sets cost more per value (an array chunk takes at least one
//! 192-byte block, a packed directory at least its 16 KiB index): docs/tuning/set.md#packed-sets.
//! Sets made by one call ([`GpuSet::from_values_many`], [`GpuSet::deserialize_many`],
//! [`GpuSet::op_batch`]) share allocations: sets of up to 4 MiB lie together in buffers of up
//! to 16 MiB, each freed with the last of its sets (a set kept after the others are dropped
//! keeps its buffer alive; a pool that grows moves to a buffer of its own).
//! [`GpuSet::serialize`] writes the bytes CRoaring writes.
//!
//! # Operations and the pool
//! Every modifying operation runs as passes over the directory: a classification pass (one
//! invocation per chunk) decides from the operands' cardinalities which chunks are settled
//! (empty, full, or an unchanged operand: no work) and lists the chunk pairs that need a
//! workgroup, by kind; a counting pass computes each listed chunk's result in shared memory
//! and sums the blocks it needs; a one-invocation check compares them with the free blocks;
//! then, only if enough are free, the writing pass writes the results. A result goes over
//! its destination chunk's old blocks where they suffice (the old array blocks hold its first
//! blocks, a bitmap keeps its bitmap block); only the shortfall is taken from the ring and only
//! the surplus given back, so operations repeated into one set make few atomic round trips on
//! the pools' cursors. An operation of two sets (AND, OR, ANDNOT, XOR) has a **one-pass
//! path**, and so do inserts and removals of sorted values: classification also sums, per
//! listed chunk, the blocks enough for any result size the operands' cardinalities allow (the
//! intersection's lies between `|a| + |b| - 65536` and `min(|a|, |b|)`, an insert's between
//! the chunk's size and that plus the run's); when the destination's free blocks cover that
//! bound, the counting pass does nothing and the writing pass runs at once
//! ([`GpuSet::reserve_for_op`] reserves that many; the status then reports the bound as the
//! need). For sparse sets the counting pass costs about as much as the writing pass.
//! [`GpuSet::record_op`] with [`GpuSetOpArgs::reserved`] records that path alone, in three
//! passes (clear, classify, write: the last classification workgroup decides), for engines
//! that reserve the bound; it writes nothing when the free blocks fall short. Cardinality-only operations add their sums
//! straight into the (zeroed) status and need no check pass: clear, classify, count. Where
//! most chunks of the operands are empty, full or single runs (few array and bitmap blocks:
//! clustered sets after `run_optimize`), a cardinality is one pass instead: each invocation
//! decides its chunk from the entries or walks the two chunks' runs and values, workgroups
//! count bitmaps and long arrays through shared bitmaps, and each workgroup adds its sums and
//! a count of itself into two 64-bit words of the first operand's control block with one
//! atomic each: the one that completes the count has the totals, writes the status and clears
//! the words (without 64-bit buffer atomics: scratch words per workgroup, added up by the last
//! to finish; the one pass's invocations read the directory four neighbouring chunks at a time:
//! docs/tuning/set.md#one-pass-cardinality). Two
//! arrays (or an array and a run of inserted values) of at most
//! 2048 values together go to kernels that work on the sorted lists element by element in
//! small shared memory (two size classes, 640 and 2048 values), so that many such pairs share a
//! multiprocessor: the chunks of sparse sets are mostly such pairs. A chunk the result takes unchanged
//! from one operand (an OR, XOR or ANDNOT where the other operand's chunk is empty, an AND
//! where it is full) is copied block by block into another destination: the chunks of
//! clustered sets are mostly such copies under OR and XOR. Two bitmaps (an operation
//! of two sets) combine word by word straight from global memory, with shared memory only for
//! an array result: the chunks of dense sets stream. The rest (larger arrays, an array with a
//! bitmap, runs of inserted values into bitmaps, ranges) expand into two 8 KiB bitmaps per
//! workgroup (of up to 512 invocations on GPUs: two fit a multiprocessor), or stay sorted lists
//! there when the result is an array. An intersection of operands with few array and bitmap
//! blocks (clustered sets after `run_optimize`) lists every pair for that kernel and launches
//! no other pair kernel, which would find nothing to do there (OR, ANDNOT and XOR, whose
//! one-sided copies that kernel takes one workgroup each for, stay on the pair kernels:
//! docs/tuning/set.md#one-kernel-and). When the pool is short, nothing has been
//! written: the host layer grows the pool (to the shortfall plus an eighth) and runs the
//! operation again. Only the filter waits on other workgroups, and only where the device runs
//! look-back passes: one pass in which each tile of values finds its output offset by
//! decoupled look-back, looking a silent tile's values up itself after a bounded wait
//! (elsewhere count, scan and write passes). So nothing can hang on any driver.
//!
//! # Record layer and synchronization
//! `record_*` functions take `(cmd, &args)`, one arguments struct each ([`GpuSetOpArgs`],
//! [`GpuSetCardinalityArgs`], [`GpuSetCardinalityBatchArgs`], [`GpuSetOpBatchArgs`], [`GpuSetInsertSortedArgs`],
//! [`GpuSetInsertArgs`], [`GpuSetInsertRangeArgs`], [`GpuSetRunOptimizeArgs`],
//! [`GpuSetContainsArgs`], [`GpuSetFilterArgs`], [`GpuSetToArrayArgs`],
//! [`GpuSetRangeCardinalityArgs`], [`GpuSetRankArgs`], [`GpuSetSelectArgs`],
//! [`GpuSetMinMaxArgs`]; their scratch and status sizes:
//! [`GpuSet::record_requirements`]), check every argument before recording anything, and
//! record into your command buffer on your buffers (inputs read and outputs written in
//! `COMPUTE_SHADER` with `SHADER_READ` / `SHADER_WRITE`; make your writes of the inputs visible
//! to that stage first, and record a compute-to-whatever barrier before reading the outputs). The set's own buffers are read and written in `COMPUTE_SHADER` (and
//! `TRANSFER`: a recorded operation clears its scratch counters first, today with a compute
//! dispatch, and the contract keeps `TRANSFER` free for a fill): between two
//! recorded operations that touch the same set, record [`GpuSet::record_barrier`]. Recorded
//! modifications need the pool large enough ([`GpuSet::reserve`]); when it is not, the
//! operation writes nothing and its status says so. Many cardinalities (one query set against
//! many) are one operation with [`GpuSet::record_op_cardinality_batch`], and many operations
//! into their own destinations with [`GpuSet::record_op_batch`]: each pass runs for every pair
//! in one dispatch (one pair per layer of workgroups), and pairs may share operands. The
//! cardinality of a many-way operation is two dispatches whatever the number of sets
//! ([`GpuSet::record_op_many_cardinality`]). Rank and
//! select read the chunks'
//! exclusive sums of cardinalities, written into the scratch first (as to-array's offsets);
//! a recorded select cannot refuse a rank out of range, so it writes [`SELECT_OUT_OF_RANGE`]
//! for it and sets a flag word. The host calls submit to the context's queue and wait.

mod arena;
mod args;
mod batch;
mod blocks;
mod bulk;
mod compare;
mod deserialize;
mod gpu;
mod host;
mod image;
mod layout;
mod many;
mod many_cardinality;
mod many_op;
mod order;
mod order_host;
mod passes;
pub(crate) use passes::prepare_kernels;
mod paths;
mod pools;
mod record;
pub mod reference;
pub(crate) mod roaring;
mod serialize;
#[cfg(test)]
pub(crate) mod shared_constants;
mod to_array_many;
mod transfer;
mod tuning;
mod updates;
mod verify;
mod view;

pub use args::{
    GpuSetCardinalityArgs, GpuSetCardinalityBatchArgs, GpuSetContainsArgs, GpuSetFilterArgs,
    GpuSetInsertArgs, GpuSetInsertRangeArgs, GpuSetInsertSortedArgs, GpuSetManyCardinalityArgs, GpuSetOpArgs,
    GpuSetOpBatchArgs, GpuSetOpManyArgs, GpuSetRangeCardinalityArgs, GpuSetRunOptimizeArgs,
    GpuSetToArrayArgs,
};
pub(crate) use bulk::chunks_of_sorted;
pub use gpu::{GpuSet, SetOpStatus, SetOperand};
pub use layout::{
    ARRAY_BLOCK_BYTES, BITMAP_BLOCK_BYTES, PACK_MAX_CHUNKS, SET_SCRATCH_BYTES, SET_STATUS_BYTES,
};
pub use many_cardinality::SET_MANY_CARDINALITY_CPU_MAX;
pub use many_op::SET_MANY_OP_CPU_MAX;
pub use order::{GpuSetMinMaxArgs, GpuSetRankArgs, GpuSetSelectArgs, SELECT_OUT_OF_RANGE, SET_MIN_MAX_BYTES};
#[cfg(test)]
pub(crate) use passes::push_layouts;
pub use paths::{CardinalityPath, FilterPath, OpPath};
pub use roaring::{ARRAY_MAX, CHUNK_VALUES};
pub use view::SetDeviceView;
