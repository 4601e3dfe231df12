#version 460
// Safe path, step 3 of a digit pass (after the exclusive scan of the block counts): workgroup b
// ranks and scatters its tiles in order, starting each digit at the scanned position of
// (digit, b) and advancing it by each tile's count. No workgroup waits on another.
#include "sort_common.glsl"

void main() {
    use_push_constant_pass();
    uint n = element_count();
    uint tiles = tiles_of(n);
    uint block = linear_workgroup_id();
    if (block >= pc.blocks) {
        return; // past the last block of a split dispatch
    }
    uint first = block * pc.tiles_per_block;
    uint last = min(tiles, first + pc.tiles_per_block);
    U32Ref positions = U32Ref(pc.scratch + SCRATCH_RING);
    uint running[DIGITS_PER_THREAD];
    [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        running[j] = d < RADIX ? positions.v[d * pc.blocks + block] : 0u;
    }
    for (uint t = first; t < last; ++t) {
        uint start = t * TILE_KEYS;
        uint valid = min(TILE_KEYS, n - start);
        clear_digit_counters();
        barrier();
        rank_tile(start, valid);
        [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
            uint d = owned_digit(j);
            if (d < RADIX) {
                s_digit_offset[d] = running[j] - g_local_start[j];
            }
            running[j] += g_tile_count[j];
        }
        scatter_tile(start, valid);
    }
}
