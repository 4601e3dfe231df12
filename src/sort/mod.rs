//! LSD radix sort of keys or key-value pairs: keys u32, i32, f32, u64, i64, f64 (floats in
//! IEEE-754 totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN), optional u32 or
//! u64 values, ascending or descending, on a bit range of the key's order-preserving bits.
//! Stable in every mode: equal keys keep their input order. Counts up to [`SORT_MAX_COUNT`]
//! (2^32 - 2^15); elements at 2^31 and beyond are reached through 64-bit addresses.
//!
//! Three paths, 8-bit digits:
//! - [`SortPath::Onesweep`]: one upfront pass counts the digits of every pass in one read of
//!   the keys; then one pass per digit ranks each tile and finds its global offsets by
//!   decoupled look-back (Adinets & Merrill, "Onesweep", 2022). The look-back status lives in a
//!   fixed-size circular buffer (under 2 MiB, whatever the count), so scratch is that plus the
//!   alternate key/value buffers. Every wait is bounded and falls back to counting a silent
//!   predecessor's keys: no schedule can hang it. A pass whose digit is the same in every key
//!   (the upfront counts show it: small integers in wide keys, codes narrower than the key)
//!   only copies its tiles in place (ranking is at its slowest there, with every key on one
//!   digit: docs/tuning/sort.md#constant-digit-copy).
//! - [`SortPath::Safe`]: per digit: count per block, scan the counts, rank and scatter. No
//!   workgroup ever waits on another; the profile picks it on drivers without a
//!   forward-progress promise (CPU drivers such as lavapipe).
//! - [`SortPath::Small`]: one workgroup runs every pass in a single dispatch; [`SortPath::Auto`]
//!   takes it up to [`SortPlan::auto_small_limit`] elements. Counts up to
//!   [`SortPlan::resident_limit`] (as many elements as fit the workgroup's shared memory: on a
//!   GPU with 48 KiB, 8192 4-byte or 5120 8-byte elements) take a kernel that reads the input
//!   once, keeps it in registers and shared memory through every digit pass and writes the
//!   result once (after CUB's single-tile sort; keys of seven or more digit passes, such as
//!   full 8-byte keys, are merge-sorted there instead: [`BLOCK_MERGE_MIN_PASSES`]); larger
//!   ones go through global memory tile by tile in every pass.
//!
//! Each digit pass moves the data between the caller's buffers and the alternate buffers, so
//! after an odd number of passes the result is in the alternate buffers:
//! [`SortPlan::record`] returns where it is ([`SortResult`]). Full-width keys take 4 (32-bit)
//! or 8 (64-bit) passes, so their result is in the original buffers.
//!
//! # Synchronization contract of [`SortPlan::record`]
//! - Before: writes to the keys, values and indirect count must be visible to the
//!   `COMPUTE_SHADER` stage (`SHADER_READ | SHADER_WRITE`: the buffers are also written);
//!   earlier accesses to the alternate buffers and scratch must be complete before
//!   `COMPUTE_SHADER` and `TRANSFER` (vkalgo clears scratch with `vkCmdFillBuffer`).
//! - vkalgo records the barriers between its own passes.
//! - After: the result buffers are written by the `COMPUTE_SHADER` stage (`SHADER_WRITE`); add a
//!   barrier from there before reading them. The other pair and scratch hold nothing of use.

// The files: desc.rs (what a sort is planned for), tuning.rs (the tuning tables), geometry.rs
// (shared memory and blocks of the kernels), plan.rs (Context::sort_plan: checks, path choice,
// limits, memory), record.rs (SortPlan::record and the kernels a count takes; small.rs,
// onesweep.rs and safe.rs record each path), push.rs (push constants and shader lookup),
// host.rs (the host sorts), keys.rs (the Rust key and value types), reference.rs (the CPU sort
// the tests compare with).

mod desc;
mod geometry;
mod host;
mod keys;
mod onesweep;
mod plan;
mod push;
mod record;
pub mod reference;
mod safe;
#[cfg(test)]
pub(crate) mod shared_constants;
mod small;
mod tuning;

pub use crate::core::types::{KeyType, ValueType};
pub use desc::{SortArgs, SortDesc, SortPath, SortResult, SortTuning};
pub use host::SortOptions;
pub use keys::{SortKey, SortValue};
pub use plan::SortPlan;
#[cfg(test)]
pub(crate) use push::push_layouts;
pub(crate) use push::SortPush;
pub(crate) use record::DigitHook;
pub use tuning::BLOCK_MERGE_MIN_PASSES;

#[cfg(doc)]
use crate::{error::Error, Context};

/// The largest count a sort plan accepts: 2^32 - 2^15 = 4,294,934,528 elements. Larger plans
/// are refused with [`Error::InvalidArgument`] by [`Context::sort_plan`], and therefore by every
/// host call and C function.
///
/// Why this bound: the kernels index elements with u32 arithmetic within the tile grid and
/// reach memory through 64-bit byte addresses (glsl/sort/sort_common.glsl), so elements at
/// 2^31 and beyond are sorted right. A tile holds at most 2^15 keys (1024 invocations x 32
/// keys), so below this count `tiles * tile_size <= count + tile_size - 1 <= 2^32 - 1`: no
/// element index of any tile wraps, whatever the tile size (also the tiles that are not powers
/// of two, 512 x 20 for example); digit counts and offsets are below 2^32; and the Onesweep
/// ring's sequence numbers (`pass * max_tiles + tile`, below 8 * 2^27 with tiles of at least
/// 32 keys) fit its 30-bit tags.
pub const SORT_MAX_COUNT: u64 = (1 << 32) - (1 << 15);

// Limits of the kernels and the scratch layout they share with glsl/sort/sort_common.glsl.

/// Most keys in one tile (1024 invocations x 32 keys per invocation).
const MAX_TILE_KEYS: u64 = 1024 * 32;

/// Status ring of the Onesweep path: tiles (glsl/sort/onesweep.comp RING_TILES).
const RING_TILES: u64 = 1016;
/// Start of the ring / block counts in scratch (glsl/sort/sort_common.glsl SCRATCH_RING).
const SCRATCH_RING: u64 = 8320;
/// Where a Onesweep sort leaves its event counters in scratch (16 u32, valid until the next
/// sort with the same scratch): fallbacks, ring-wait timeouts, tail-wait timeouts, ring-wait
/// polls, tail-wait polls, look-back steps; with `VKALGO_SORT_CLOCK=1` (builds with the `bench` feature) on a driver with
/// VK_KHR_shader_clock, the passes of 4- and 8-byte keys without values or with u32 values
/// also add each phase's cycles / 16 in counters 8..13
/// (ticket, key loads + ballots, counter updates, digit scan + ranks + staging, look-back,
/// scatter), count invocation 0's look-back steps without progress (6) and predecessors
/// added (7), and keep the most workgroups in flight in counter 15. For benchmarks and
/// diagnostics.
#[doc(hidden)]
pub const ONESWEEP_STATS_OFFSET: u64 = 8256;
/// Largest number of blocks of the safe path (the block-count matrix is 256 x blocks).
const MAX_BLOCKS: u64 = 1024;
/// Largest number of workgroups of the upfront histogram pass.
const MAX_HISTOGRAM_GROUPS: u64 = 2048;
/// Tiles the small path handles (one workgroup: every pass reads its input twice).
const SMALL_TILES: u64 = 4;
/// Alignment vkalgo asks for every range.
const ALIGNMENT: u64 = 16;
/// Bits of one digit pass.
const RADIX_BITS: u32 = 8;

#[cfg(test)]
mod tests {

    /// The arithmetic SORT_MAX_COUNT rests on, for every tile size a plan accepts (32..=1024
    /// invocations in steps of 32, 1..=32 keys each): the tile grid of the largest count ends
    /// at or below 2^32 - 1 (u32 element indices never wrap), and the Onesweep sequence numbers
    /// of 8 passes fit 30 bits.
    #[test]
    fn max_count_keeps_tile_arithmetic_in_range() {
        let max = super::SORT_MAX_COUNT;
        assert_eq!(max, 4_294_934_528);
        for wg in (32..=1024u64).step_by(32) {
            for kpt in 1..=32u64 {
                let tile = wg * kpt;
                assert!(tile <= super::MAX_TILE_KEYS);
                let tiles = max.div_ceil(tile);
                assert!(tiles * tile <= u32::MAX as u64 + 1, "{wg}x{kpt}");
                // The last tile's largest element index (past the count included).
                assert!(tiles * tile - 1 <= u32::MAX as u64, "{wg}x{kpt}");
                assert!(8 * tiles <= 1 << 30, "{wg}x{kpt}: sequence numbers");
                // A ticket never reaches the constant-digit flag (bit 31).
                assert!(tiles + 65535 < 1 << 31);
            }
        }
    }
}
