#version 460
// Segmented sort, merge rounds: each workgroup copies one merged tile of the round's tile
// table from the alternate buffers back to the keys and values (the positions the merge
// wrote), so that the next round, and the result, read the keys. No workgroup waits on
// another.
#include "segsort_common.glsl"

void main() {
    uint t = linear_workgroup_id();
    if (t >= pc.max_tiles) {
        return;
    }
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
