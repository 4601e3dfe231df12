#version 460
// Select in one pass with decoupled look-back and its fallback (common/lookback.glsl): tile t
// (workgroup t, or by ticket on CPU drivers: the u32 at aux_addr) ranks its kept elements, publishes their count, looks back for the count
// kept before it and writes its kept elements from there. aux_addr holds the look-back state:
// SELECT_SCRATCH_STATUS bytes of counters, then one u64 status word per tile; all zero at
// start. The fallback re-reads a predecessor's input, so input and output must not overlap.
// The last tile writes the number kept (a count of 0: workgroup 0).
//
// Self-cleaning (SELF_CLEANING, a kept-zeroed scratch): vkalgo records no clear and the last
// workgroup to finish zeroes the state again for the next call
// (common/last_workgroup.glsl lookback_state_finish).
#include "select_common.glsl"

uint g_n;

uint lookback_fallback_thread_value(uint tile) {
    return tile_thread_count(tile, g_n);
}

#include "../common/lookback.glsl"
#include "../common/last_workgroup.glsl"

// SELF_CLEANING: the last workgroup to finish its look-back (before its scatter) zeroes the
// state of the `tiles` tiles. Workgroup-uniform control flow.
void finish_and_clean(uint tiles) {
    lookback_state_finish(pc.aux_addr, pc.aux_addr + SELECT_SCRATCH_STATUS, tiles);
}

void main() {
    vkalgo_params = pc.params;
    g_n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint tiles = select_tile_count(g_n);
    uint tile = lookback_tile(pc.aux_addr);
    if (tile >= tiles) {
        if (tile == 0u) {
            write_kept(0u);
        }
        finish_and_clean(tiles);
        return;
    }
    uint64_t status_addr = pc.aux_addr + SELECT_SCRATCH_STATUS;
    uint start = tile * TILE;
    uint bits = keep_bits(start, g_n - start, true);
    uint total = tile_ranks(bits);
    if (gl_LocalInvocationIndex == 0u) {
        lookback_publish(status_addr, tile, tile == 0u ? LOOKBACK_INCLUSIVE : LOOKBACK_AGGREGATE, total);
    }
    uint prefix = 0u;
    if (tile > 0u) {
        prefix = lookback_exclusive_prefix(status_addr, tile);
        if (gl_LocalInvocationIndex == 0u) {
            lookback_publish(status_addr, tile, LOOKBACK_INCLUSIVE, prefix + total);
        }
    }
    finish_and_clean(tiles);
    scatter_tile(bits, prefix);
    if (tile + 1u == tiles) {
        write_kept(prefix + total);
    }
}
