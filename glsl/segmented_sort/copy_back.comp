#version 460
// Segmented sort, merge rounds: each workgroup copies merged tiles of the round's tile table (a
// grid stride over the round's tiles) from the alternate buffers back to the keys and values (the positions the merge
// wrote), so that the next round, and the result, read the keys. No workgroup waits on
// another.
#include "segsort_common.glsl"

void main() {
    uint tiles = round_tiles();
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    for (uint t = linear_workgroup_id(); t < tiles; t += groups) {
        TileSpan s = read_tile(t);
        uint len = min(s.la + s.lb, TILE);
        // Every load of the tile is issued before the first store.
        KEY_T keys[ITEMS];
        [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
            uint x = e * WG_SIZE + gl_LocalInvocationIndex;
            if (x < len) {
                keys[e] = load_key(pc.keys_alt, uint64_t(s.out0 + x));
            }
        }
#if VALUE_WORDS > 0
        VALUE_T values[ITEMS];
        [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
            uint x = e * WG_SIZE + gl_LocalInvocationIndex;
            if (x < len) {
                values[e] = load_value(pc.values_alt, uint64_t(s.out0 + x));
            }
        }
#endif
        [[unroll]] for (uint e = 0u; e < ITEMS; ++e) {
            uint x = e * WG_SIZE + gl_LocalInvocationIndex;
            if (x < len) {
                store_key(pc.keys, uint64_t(s.out0 + x), keys[e]);
#if VALUE_WORDS > 0
                store_value(pc.values, uint64_t(s.out0 + x), values[e]);
#endif
            }
        }
    }
}
