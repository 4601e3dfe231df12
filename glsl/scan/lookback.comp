#version 460
// Single-pass scan with decoupled look-back and fallback (see common/lookback.glsl).
// Tiles are numbered dynamically from an atomic counter, so a tile only ever waits on tiles
// whose workgroups have already started. aux_addr holds the look-back state:
//   u32 tile counter (16 bytes reserved), then one u64 status word per tile, all zero at start.
// Input and output must not overlap: the fallback re-reads a predecessor's input.
#include "scan_common.glsl"

uint g_n;

uint lookback_fallback_thread_value(uint tile) {
    return thread_sum_of_tile(pc.input_addr, tile * TILE_ELEMS, TILE_ELEMS);
}

#include "../common/lookback.glsl"

void main() {
    g_n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint num_tiles = tile_count(g_n);
    uint ticket = 0;
    if (gl_LocalInvocationIndex == 0) {
        ticket = atomicAdd(U32AtomicRef(pc.aux_addr).v[0], 1u);
    }
    uint tile = workgroup_broadcast_first(ticket);
    if (tile >= num_tiles) {
        return;
    }
    uint64_t status_addr = pc.aux_addr + 16ul;
    uint start = tile * TILE_ELEMS;
    uint valid = g_n - start;
    load_tile(pc.input_addr, start, valid);
    uint total = scan_tile_local(pc.inclusive != 0u);
    if (gl_LocalInvocationIndex == 0) {
        lookback_publish(status_addr, tile, tile == 0u ? LOOKBACK_INCLUSIVE : LOOKBACK_AGGREGATE,
                         total);
    }
    uint prefix = 0;
    if (tile > 0u) {
        prefix = lookback_exclusive_prefix(status_addr, tile);
        if (gl_LocalInvocationIndex == 0) {
            lookback_publish(status_addr, tile, LOOKBACK_INCLUSIVE, prefix + total);
        }
    }
    add_to_tile(prefix);
    store_tile(pc.output_addr, start, valid);
}
