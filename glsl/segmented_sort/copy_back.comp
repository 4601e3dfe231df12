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
        for (uint x = gl_LocalInvocationIndex; x < len; x += WG_SIZE) {
            uint64_t i = uint64_t(s.out0 + x);
            store_key(pc.keys, i, load_key(pc.keys_alt, i));
#if VALUE_WORDS > 0
            store_value(pc.values, i, load_value(pc.values_alt, i));
#endif
        }
    }
}
