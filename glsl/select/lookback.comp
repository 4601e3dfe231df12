#version 460
// Select in one pass with decoupled look-back and its fallback (common/lookback.glsl): tile t
// (workgroup t, or by ticket on CPU drivers: the u32 at aux_addr) ranks its kept elements, publishes their count, looks back for the count
// kept before it and writes its kept elements from there. aux_addr holds the look-back state:
// SELECT_SCRATCH_STATUS bytes of counters, then one u64 status word per tile; all zero at
// start. The fallback re-reads a predecessor's input, so input and output must not overlap.
// The last tile writes the number kept (a count of 0: workgroup 0).
//
// With SELECT_OPTION_KEEP_SCRATCH_ZEROED the caller promises zeroed scratch (vkalgo records no
// clear) and the last workgroup to finish zeroes it again for the next call: every workgroup
// counts itself finished (the u32 at SELECT_SCRATCH_FINISHED) after its last look-back read
// and status write, and the one that brings the count to the dispatch's size knows no
// workgroup reads or writes the state any more.
#include "select_common.glsl"

uint g_n;

uint lookback_fallback_thread_value(uint tile) {
    return tile_thread_count(tile, g_n);
}

#include "../common/lookback.glsl"
#include "../common/last_workgroup.glsl"

// SELECT_OPTION_KEEP_SCRATCH_ZEROED: counts this workgroup finished once its look-back reads
// and status writes are done (before the scatter); the last one to finish zeroes the status
// words of the `tiles` tiles, the tile ticket and the count (the fallback count stays for the
// tests). Only the first subgroup counts and clears. Workgroup-uniform control flow.
void finish_and_clean(uint tiles) {
    if ((pc.options & SELECT_OPTION_KEEP_SCRATCH_ZEROED) == 0u ||
        !finished_last_in_first_subgroup(pc.aux_addr + SELECT_SCRATCH_FINISHED)) {
        return;
    }
    uint64_t status_addr = pc.aux_addr + SELECT_SCRATCH_STATUS;
    for (uint t = gl_SubgroupInvocationID; t < tiles; t += gl_SubgroupSize) {
        U64AtomicRef(status_addr + uint64_t(t) * 8ul).v[0] = 0ul;
    }
    if (subgroupElect()) {
        U32AtomicRef(pc.aux_addr).v[0] = 0u;
        U32AtomicRef(pc.aux_addr + SELECT_SCRATCH_FINISHED).v[0] = 0u;
    }
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
