//! The sort's tuning: tile shapes per device, key and value types and plan size; the resident
//! kernel's geometry limits; Auto's single-workgroup limit.

use super::geometry::{shared_bytes, Stage};
use super::{KeyType, SortDesc, SortTuning, ValueType};
use crate::Context;

/// Plans of at least this many elements take the large-sort tuning on GPUs (see
/// [`SortTuning::for_device`]).
pub(super) const LARGE_SORT: u64 = 1 << 22;

impl SortTuning {
    /// The tuning vkalgo uses on this device for these key and value types and a plan of at
    /// most `max_count` elements.
    ///
    /// GPUs: 512 x 8 (a 16 KiB staged tile; 8-byte keys and values are staged in two rounds)
    /// where the device's limits allow it, else 256 x 8 or 128 x 8. From 2^22 elements, with
    /// the stage split in two: 4-byte keys alone take 512 x 20, with 4-byte values 512 x 16,
    /// 8-byte keys alone 512 x 12; 8-byte keys with 4-byte values take 384 x 12 unsplit.
    /// Measured on an H200 (docs/benchmarks/2026-11-21-h200-sort-v6.md and -v7.md): two
    /// workgroups of 512 per SM (64 registers) beat the 384- and 256-wide tunings before them
    /// at 2^26 by 6% for u32 keys, 11% for pairs and 5% for u64 keys; u64 -> u32 pairs at
    /// 384 x 12 (two workgroups per SM at 80 registers either way) beat 256 x 14 by 10%, and
    /// unsplit beat split by 1.7%.
    /// CPU drivers: 64 x 8 (their small subgroups need a counter row per subgroup in 32 KiB).
    pub fn for_device(ctx: &Context, key_type: KeyType, value_type: ValueType, max_count: u64) -> Self {
        let tuning = |workgroup_size, keys_per_thread, stage_split| SortTuning {
            workgroup_size,
            keys_per_thread,
            lookback_spins: 0,
            stage_split,
        };
        if ctx.is_cpu_device() {
            return tuning(64, 8, 1);
        }
        // The first of these the device's invocation and shared-memory limits allow. Measured
        // on an H200 (docs/benchmarks/): shared memory per SM and registers bound how many
        // workgroups run at once, so no more than 16 KiB is staged at a time (8-byte keys or
        // values, or a split stage, in more rounds).
        let desc = SortDesc::new(key_type, value_type, 0);
        let large = max_count >= LARGE_SORT && value_type.bytes() <= 4;
        let fallbacks = [tuning(512, 8, 1), tuning(256, 8, 1), tuning(128, 8, 1)];
        let first = match (large, key_type.bytes(), value_type) {
            (true, 4, ValueType::None) => Some(tuning(512, 20, 2)),
            (true, 4, _) => Some(tuning(512, 16, 2)),
            (true, _, ValueType::None) => Some(tuning(512, 12, 2)),
            (true, _, _) => Some(tuning(384, 12, 1)),
            (false, _, _) => None,
        };
        first
            .into_iter()
            .chain(fallbacks)
            .find(|t| {
                t.workgroup_size <= ctx.profile.max_workgroup_invocations
                    && shared_bytes(ctx, t, &desc, Stage::Rounds) <= ctx.profile.max_shared_memory as u64
            })
            .unwrap_or(tuning(64, 8, 1))
    }
}

/// Tiles up to which [`SortPath::Auto`] takes the small path on devices with the look-back
/// (Onesweep) path: on an NVIDIA H100 (512 x 8 tiles) Onesweep sorted 2^13 keys in 0.037 ms
/// against the small path's 0.042 ms, 2^14 in 0.037 against 0.078 ms (every key type), and
/// lost only at 2^12 (0.035 against 0.024 ms).
pub(super) const SMALL_TILES_BESIDE_ONESWEEP: u64 = 1;

/// Fewest digit passes for which the single-workgroup path sorts by merging (a block merge
/// sort, glsl/sort/block_merge.comp, whose work does not grow with the key bits) instead of
/// running the radix passes in shared memory. On an H200, u64 keys (8 passes) at 2^10 took
/// 11.3 us by merging against 13.1 by radix passes, 2^11 15.7 against 16.9, 2^12 24.7 against
/// 25.4 (with values moved through every merge round; since the merge routine is shared with
/// the merge sort, 10.3 and 14.0 us at 2^10 and 2^11); u32 keys (4 passes) at 2^12 18.7
/// against 12.9 (docs/benchmarks/2026-11-23-h200-scan-window.md).
pub const BLOCK_MERGE_MIN_PASSES: u32 = 7;

/// Most keys per invocation of the resident kernel on GPUs (registers: 16 keys and 16 values of
/// 4 bytes with 512 invocations stay well inside the register file) ...
pub(super) const RESIDENT_MAX_KEYS_GPU: u32 = 16;
/// ... and on CPU drivers: lavapipe compiles the unrolled kernel when it first runs, 1.4 s at 8
/// keys per invocation (as long as the tiled kernel at 64 x 8), 4-5 s at 32, for each key type,
/// value width and direction.
pub(super) const RESIDENT_MAX_KEYS_CPU: u32 = 8;
