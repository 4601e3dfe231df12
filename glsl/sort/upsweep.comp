#version 460
// Safe path (no waiting between workgroups), step 1 of a digit pass: workgroup b counts the
// digits of its tiles [b * tiles_per_block, ...) into counts[digit * blocks + b] (digit-major,
// so one exclusive scan of the whole array gives every (digit, block) its output position).
#include "sort_common.glsl"

shared uint s_count[RADIX];

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
    for (uint i = gl_LocalInvocationIndex; i < RADIX; i += WG_SIZE) {
        s_count[i] = 0u;
    }
    barrier();
    for (uint t = first; t < last; ++t) {
        // A 64-bit base address per tile, indexed by the offset in the tile.
        uint valid = n - t * TILE_KEYS;
        KeyRef keys = tile_keys_at(g_keys_in, t * TILE_KEYS);
        [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
            uint idx = i * WG_SIZE + gl_LocalInvocationIndex;
            if (idx < valid) {
                atomicAdd(s_count[stored_key_digit(keys.v[idx])], 1u);
            }
        }
    }
    barrier();
    U32Ref counts = U32Ref(pc.scratch + SCRATCH_RING);
    for (uint d = gl_LocalInvocationIndex; d < RADIX; d += WG_SIZE) {
        counts.v[d * pc.blocks + block] = s_count[d];
    }
}
