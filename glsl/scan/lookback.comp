#version 460
// Single-pass scan with decoupled look-back and fallback (see common/lookback.glsl).
// Tile t is workgroup t on GPUs: they start workgroups in order, and a wait on a tile whose
// workgroup has not started ends in the fallback (faster than an atomic ticket per tile:
// docs/tuning/scan.md#tile-order); CPU drivers take tiles by ticket
// (common/tile_ticket.glsl). aux_addr holds the look-back state:
//   u32 tile ticket, u32 fallback count (test mode), u32 finished workgroups, u32 unused;
//   then one u64 status word per tile; all zero at start.
// Input and output must not overlap: the fallback re-reads a predecessor's input.
//
// Self-cleaning (SELF_CLEANING, a kept-zeroed scratch): vkalgo records no clear and the last
// workgroup to finish zeroes the state again for the next scan: every workgroup
// counts itself finished after its last look-back read and status write (release), and the one
// that brings the count to the dispatch's size (acquire) knows no workgroup reads or writes the
// state any more. With SCAN_FLAG_WORKGROUP_LOOKBACK the whole workgroup reads each look-back
// window (lookback_exclusive_prefix_workgroup), else its first subgroup.
#include "scan_common.glsl"

uint g_n;

uint lookback_fallback_thread_value(uint tile) {
    return thread_sum_of_tile(pc.input_addr, tile * TILE_ELEMS, TILE_ELEMS);
}

#define LOOKBACK_WORKGROUP_WINDOW
#include "../common/lookback.glsl"

#include "../common/last_workgroup.glsl"

// SELF_CLEANING: the last workgroup to finish its look-back (before its tile is stored)
// zeroes the state of the `tiles` tiles. Workgroup-uniform control flow.
void finish_and_clean(uint tiles) {
    lookback_state_finish(pc.aux_addr, pc.aux_addr + 16ul, tiles);
}

void main() {
    g_n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint num_tiles = tile_count(g_n);
    uint tile = lookback_tile(pc.aux_addr);
    if (tile >= num_tiles) {
        finish_and_clean(num_tiles);
        return;
    }
    uint64_t status_addr = pc.aux_addr + 16ul;
    uint start = tile * TILE_ELEMS;
    uint valid = g_n - start;
    load_tile(pc.input_addr, start, valid);
    // The tile's total is published before the tile is scanned, so successors wait less
    // (docs/tuning/scan.md#early-aggregate).
    uint subgroup_prefix;
    uint total = tile_total(subgroup_prefix);
    if (gl_LocalInvocationIndex == 0) {
        lookback_publish(status_addr, tile, tile == 0u ? LOOKBACK_INCLUSIVE : LOOKBACK_AGGREGATE,
                         total);
    }
    scan_subgroup_run(pc.inclusive != 0u, subgroup_prefix);
    uint prefix = 0;
    if (tile > 0u) {
        prefix = (pc.flags & SCAN_FLAG_WORKGROUP_LOOKBACK) != 0u
            ? lookback_exclusive_prefix_workgroup(status_addr, tile)
            : lookback_exclusive_prefix(status_addr, tile);
        if (gl_LocalInvocationIndex == 0) {
            lookback_publish(status_addr, tile, LOOKBACK_INCLUSIVE, prefix + total);
        }
    }
    finish_and_clean(num_tiles);
    add_to_tile(prefix);
    store_tile(pc.output_addr, start, valid);
}
