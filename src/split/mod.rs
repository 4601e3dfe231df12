//! Multisplit: a STABLE split of keys, or key-value pairs, into `m` buckets chosen by a bucket
//! function; the buckets are laid out in bucket order in one output array (elements of one
//! bucket in their input order) and the `m + 1` bucket offsets are written too.
//!
//! Keys are any of the sort's six types ([`KeyType`]), optionally with 4- or 8-byte values.
//! Bucket functions ([`BucketFn`]):
//! - [`BucketFn::Bits`]: `(ordered key bits >> bit_offset) & (m - 1)`, `m` a power of two (the
//!   sort's order-preserving bits: floats in IEEE-754 totalOrder);
//! - [`BucketFn::Splitters`]: the number of the `m - 1` splitters `<=` the key, in the sort's
//!   key order (splitters non-decreasing; repeated splitters give empty buckets). Up to 64
//!   buckets a binary search of the splitters; above, a first pass builds a splitter index in
//!   the scratch (a table over the high bits of the key's distance from the first splitter),
//!   so each key searches only the splitters sharing its slot. [`SplitPath::Auto`] keeps
//!   SPLITTERS on the tile paths wherever they fit;
//! - [`BucketFn::Ids`]: one caller-given `u32` bucket id per element;
//! - [`BucketFn::Glsl`]: GLSL source defining `uint vkalgo_bucket(T key)` (`T` is `uint`,
//!   `int`, `float`, `uint64_t`, `int64_t` or `double`), which may read `uvec4 vkalgo_params`
//!   (four u32 set per call). Compiled at run time with shaderc; the SPIR-V is cached by source
//!   text for the process and the pipelines per context, so a second plan with the same
//!   source compiles nothing. A compile error is [`Error::CompileError`] with shaderc's
//!   message. `double` keys need the device feature `shaderFloat64`. The function must be
//!   pure (see "Bucket functions must be pure" below).
//!
//! # Method
//! The seed technique (Ashkiani, Davidson, Meyer & Owens, "GPU Multisplit", PPoPP 2016): the
//! lanes of a subgroup holding the same bucket find each other with one subgroup ballot per
//! bucket-id bit, which ranks them stably within the subgroup (the staged tile paths find them
//! through a table of lane masks in shared memory instead from 9 buckets, as CUB's atomic-OR
//! match ranking; `docs/tuning/split.md#match-table`). The paths ([`SplitPath`]):
//! - the Onesweep path ([`SplitPath::Onesweep`]; [`SplitPath::Auto`] takes it from `m = 8`
//!   (4-byte keys alone by BITS or GLSL from `m = 33`; pairs: `m = 4`; u32 -> u32 pairs by
//!   BITS from `m = 17`, by GLSL from `m = 33`) with
//!   BITS or GLSL where the device profile runs the look-back, with SPLITTERS only where no
//!   tile path fits, `docs/tuning/split.md#splitters-tile-paths`): the sort's
//!   Onesweep (Adinets & Merrill 2022) with the bucket as its digit.
//!   One read of the keys counts the buckets, one workgroup turns the counts into bucket
//!   starts, and one pass ranks each tile (ballots, as the seed), finds the tile's offset per
//!   bucket by decoupled look-back and writes the tile in bucket order. Above 256 buckets, two
//!   such passes (the bucket id's low 8 bits, then the rest) through alternate buffers in
//!   scratch, then a search of the output for the offsets; see `src/split/onesweep.rs`.
//!   Workgroups wait on earlier ones there (bounded, with the sort's fallback of counting a
//!   silent predecessor's keys itself).
//!
//! Every other path runs (1) a count of each column's buckets into a bucket-major matrix,
//! (2) one exclusive scan of the matrix (the scan module's record layer: one look-back pass
//! into a second matrix where the device runs the look-back, its state zeroed by the count
//! pass; else reduce-then-scan, in place on the tile paths, into a second matrix on the column
//! path), (3) the offsets, (4) a stable scatter that recomputes the buckets and ranks, each
//! write bounded by its bucket's counted run (see "Bucket functions must be pure"). No
//! workgroup of the count and scatter waits on another
//! (the safe kind, for every device). They differ in what a column is and where its
//! counters live:
//! - tile paths ([`SplitPath::TileDirect`], [`SplitPath::TileStaged`],
//!   [`SplitPath::TileSubgroupStaged`]; [`SplitPath::Auto`]
//!   takes them below those bucket counts, for IDS, without the look-back, and otherwise wherever the
//!   workgroup's counter rows fit, `m <= 1024` on a GPU with 48 KiB of shared memory): a
//!   column is a workgroup's tile of `workgroup size x tile_items` elements. The count keeps
//!   8-bit counters in registers where `m <= 8` (one subgroup a tile, 16-byte loads), else
//!   adds one shared atomic per element; the scatter ranks each item with ballots and per-subgroup
//!   running counts (in registers, lane `b` holding bucket `b`'s, where `m` fits the subgroup;
//!   else a shared row of `m` counters per subgroup), turns the rows into positions (with
//!   register counters on the direct path for keys alone and u32 -> u32 pairs, for keys
//!   alone on the subgroup-staged one, and for 4-byte keys with or without 4-byte values on the
//!   staged one, each subgroup finds its own buckets' starts instead: `subgroup_positions`),
//!   and writes
//!   each element straight from registers (direct: few contiguous runs per store for small
//!   `m`) or stages the tile in shared memory in bucket order and writes coalesced runs
//!   (staged: larger `m`; Auto stages above `m = 32` for keys and `m = 4` for pairs, and
//!   u32 -> u32 pairs into 4 to 32 buckets by BITS or GLSL, whose buckets the
//!   staged scatter recomputes from the keys: faster there than the Onesweep split), or
//!   stages each subgroup's run alone, with no workgroup barrier (subgroup-staged, the seed's
//!   warp-level reordering: `m` at most the subgroup size; Auto takes it for u32 -> u32 pairs
//!   into 3 to 12 buckets by BITS or 3 to 7 by GLSL and 4-byte keys alone into 11 to 32 by
//!   BITS or GLSL; fewer buckets of those keys stay direct). A workgroup of
//!   the subgroup-staged scatter takes four tiles in turn for keys alone, and one of the direct
//!   or subgroup-staged scatter two for u32 -> u32 pairs into up to 4 buckets, loading the next
//!   tile while it ranks one;
//! - the column path ([`SplitPath::GlobalCounters`]: larger `m`, or by request): a column is
//!   `column_steps * G` elements, `G` the device's smallest subgroup size, walked by one lane
//!   group of `G` lanes; its `m` counters are the matrix entries themselves, in global memory
//!   (any `m` up to 65536).
//!
//! Counts up to [`SplitPlan::small_limit`] take one workgroup and one dispatch
//! ([`SplitPath::Small`], the matrix in shared memory) under [`SplitPath::Auto`].
//!
//! Every path reads the keys twice (count, then split) and writes them once: the output
//! position of an element needs the total of every smaller bucket over the WHOLE input, so a
//! one-pass split needs a counting pass first (as Onesweep's upfront histogram).
//!
//! # Bucket ids out of range
//! A bucket id `>= m` (from [`BucketFn::Ids`] or [`BucketFn::Glsl`]) sets bit
//! [`STATUS_BAD_BUCKET`] of the STATUS WORD, the u32 at byte [`STATUS_OFFSET`] of the scratch
//! range, and then the outputs (`keys_out`, `values_out`, `offsets`) are not written at all.
//! The status word is written by every recorded multisplit (0 when every id was in range;
//! the tile paths find a bad id from the scanned matrix's total, which leaves such elements
//! out: their count pass zeroes the word and their offsets pass raises the bit); the caller
//! may copy it out after the split (the host layer does, and returns
//! [`Error::InvalidArgument`]).
//!
//! # Bucket functions must be pure
//! Every path evaluates the bucket function at least twice per element, in different
//! dispatches and invocations: once to count the buckets, once (or more: the Onesweep ranking
//! and scatter, its look-back's own count of a silent predecessor, the staged paths' second
//! look at a staged key) to place the elements. A [`BucketFn::Glsl`] function must therefore
//! give a key the same bucket every time: no state of its own (private globals kept across
//! calls, buffers it writes or that change during the split, answers that depend on the
//! workgroup or invocation), and within the device's limits (lavapipe stops an invocation's
//! loop after 65535 iterations, and then the function answers something else). (BITS and
//! SPLITTERS are pure; IDS reads its buffer twice, which must not change during the split.)
//!
//! Whatever the function does, no write leaves the output ranges: every write position is
//! bounded by the run its bucket was counted for in its column, tile or Onesweep tile (a
//! compare on the position each path computes anyway), and those runs end at or before the
//! count. Where an element would leave its counted run, it is not written and bit
//! [`STATUS_INCONSISTENT`] of the status word is set (the host layer returns
//! [`Error::InvalidArgument`] and changes nothing); `keys_out`, `values_out` and `offsets` then
//! hold no split. How each path finds it:
//! - [`SplitPath::Small`]: each matrix entry keeps its run's end beside its cursor; an element
//!   at or past the end is refused.
//! - [`SplitPath::GlobalCounters`]: the matrix is scanned out of place; the count matrix's entry
//!   holds the places its run has left, lowered as the scatter fills it, and the scanned
//!   matrix's next entry is the run's end.
//! - the tile paths: before a subgroup (or the workgroup) writes, its ranking's count of each
//!   bucket (its subgroup's and those before it, or the tile's) must not exceed the run the
//!   scanned matrix gives the tile (the next entry less this one); a staged key's bucket
//!   computed again from the key (GLSL) must be the run holding its slot.
//! - [`SplitPath::Onesweep`]: the ranking keeps each key's digit; a staged key's digit computed
//!   again must be the run holding its rank; each tile's part of a digit's range must end
//!   inside the range the upfront histogram counted; a count of a silent predecessor made by
//!   the look-back's fallback is published into that tile's ring entry (compare-and-swap) and
//!   used only then, and the tile compares it with its own count when it publishes (an
//!   exchange). A fallback whose predecessor's entry was already overwritten (only after a
//!   bounded ring wait gave up) is not checked.
//!
//! As every pass meets every element once, no run falls short unless another overflows, so
//! any run with an element out of its counted place is reported. An impure function that
//! happens to give a valid permutation (two elements swapping buckets between the passes; in
//! the two-pass Onesweep split, a function whose answers differ between the digit passes
//! while each pass agrees with itself) may go unreported, and then the offsets the two-pass
//! split searches in its output need not match it.
//!
//! # Maximum count
//! [`MAX_COUNT`] = 2^32 - 1 elements; element addresses are 64-bit, so no index arithmetic
//! wraps below that. The count matrix must also fit a scan (at most 2^32 - 1 entries): the
//! plan refuses larger combinations. The Onesweep path splits up to the sort's
//! [`crate::sort::SORT_MAX_COUNT`] (2^32 - 2^15); [`SplitPath::Auto`] plans above it take the
//! tile paths.
//!
//! # Synchronization contract of [`SplitPlan::record`]
//! - Before: writes to the keys, values, splitters, bucket ids and the indirect count must be
//!   visible to the `COMPUTE_SHADER` stage (`SHADER_READ`); earlier accesses to `keys_out`,
//!   `values_out`, `offsets` and `scratch` must be complete before `COMPUTE_SHADER` and
//!   `TRANSFER` (vkalgo clears the scratch with `vkCmdFillBuffer`).
//! - vkalgo records the barriers between its own passes.
//! - After: `keys_out`, `values_out`, `offsets` and the status word are written by the
//!   `COMPUTE_SHADER` stage (`SHADER_WRITE`); add a barrier from there before reading them.
//!   The input buffers are only read.

// desc.rs: what a split is asked for; choice.rs: the path and geometry (pure); tuning.rs: the
// tuning tables; plan.rs: the plan; record.rs: recording it; tiles.rs: the tile kernels'
// variant bits and specialization; onesweep.rs: the Onesweep split on the sort's kernels;
// glsl.rs: GLSL bucket functions compiled at run time; host.rs: the blocking calls;
// reference.rs: the CPU reference.
mod choice;
mod desc;
pub(crate) mod glsl;
mod host;
mod onesweep;
mod plan;
mod record;
pub mod reference;
mod shaderc;
#[cfg(test)]
pub(crate) mod shared_constants;
mod tiles;
mod tuning;

pub use desc::{
    BucketFn, SplitArgs, SplitDesc, SplitPath, MAX_BUCKETS, MAX_COUNT, MAX_TILE_ITEMS, STATUS_BAD_BUCKET,
    STATUS_INCONSISTENT, STATUS_OFFSET,
};
pub use glsl::glsl_compilations;
pub(crate) use host::check_sorted;
pub use host::{Bucketing, HostBucketing};
pub use plan::SplitPlan;

use crate::core::shaders::ShaderSource;
use crate::sort::ValueType;
#[cfg(doc)]
use crate::{error::Error, sort::KeyType};
use plan::*;
pub(crate) use record::SplitPush;

/// The histogram's counting pass (glsl/histogram/histogram.comp) with the GLSL bucket function
/// `source` for `key_type` keys, compiled through the multisplit's run-time path and cache
/// (`glsl.rs`): the hook the histogram room counts GLSL buckets with.
pub(crate) fn histogram_glsl_shader(
    source: &str,
    key_type: crate::sort::KeyType,
) -> crate::error::Result<&'static ShaderSource> {
    glsl::compile(source, key_type, ValueType::None, glsl::Pass::KeyHistogram)
}

/// Every multisplit shader with its push-constant layout (checked against the SPIR-V by a
/// test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    use crate::sort::SortPush;
    split_shaders()
        .map(|s| {
            if s.name.starts_with("split_onesweep") {
                // The sort's kernels (the Onesweep split, src/split/onesweep.rs).
                (*s, SortPush::FIELDS, std::mem::size_of::<SortPush>())
            } else {
                (*s, SplitPush::FIELDS, std::mem::size_of::<SplitPush>())
            }
        })
        .collect()
}
