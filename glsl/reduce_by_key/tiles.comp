#version 460
// Reduce-by-key without inter-workgroup waiting (src/reduce_by_key), tile t in workgroup t.
// RBK_WRITE 0: each tile's pair (rbk_common.glsl) into the scratch, at
// RBK_SCRATCH_HEADER + 16 * tile. RBK_WRITE 1: after the spine (spine.comp) has turned
// those into the pairs of everything before each tile, each tile writes the runs that end in
// it.
#include "rbk_tile.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint tile = linear_workgroup_id();
    if (tile >= tile_count(n)) {
        return;
    }
    uint start = tile * TILE;
    uint valid = min(n - start, TILE);
    uint tile_heads;
    VALUE_T tile_value;
    tile_elements_pair(start, valid, n, tile_heads, tile_value);
    uint64_t slot = pc.scratch + RBK_SCRATCH_HEADER + uint64_t(tile) * 16ul;
#if !RBK_WRITE
    if (gl_LocalInvocationIndex == 0u) {
        PairRef(slot).v[0] = pair_pack(tile_heads, tile_value);
    }
#else
    uvec4 carry = PairRef(slot).v[0];
    write_runs(carry.x, pair_value(carry));
#endif
}
