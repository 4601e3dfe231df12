#version 460
// Reduce-by-key without inter-workgroup waiting: one workgroup scans the tiles' pairs in the
// scratch (tiles.comp, RBK_WRITE 0) in place into exclusive ones, the pair of everything
// before each tile, a workgroup's width of tiles per step; it writes the number of runs.
#define RBK_SPINE
#include "rbk_common.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint tiles = n / pc.tile_elems + (n % pc.tile_elems != 0u ? 1u : 0u);
    uint64_t pairs = pc.scratch + RBK_SCRATCH_HEADER;
    uint carry_heads = 0u;
    VALUE_T carry_value = op_identity();
    for (uint base = 0u; base < tiles; base += WG_SIZE) {
        uint t = base + gl_LocalInvocationIndex;
        uint heads = 0u;
        VALUE_T value = op_identity();
        if (t < tiles) {
            uvec4 p = PairRef(pairs + uint64_t(t) * 16ul).v[0];
            heads = p.x;
            value = pair_value(p);
        }
        uint total_heads;
        VALUE_T total_value;
        workgroup_pair_scan(heads, value, total_heads, total_value);
        pair_combine(carry_heads, carry_value, heads, value);
        if (t < tiles) {
            PairRef(pairs + uint64_t(t) * 16ul).v[0] = pair_pack(heads, value);
        }
        pair_combine(carry_heads, carry_value, total_heads, total_value);
        carry_heads = total_heads;
        carry_value = total_value;
    }
    if (gl_LocalInvocationIndex == 0u) {
        U32Ref(pc.run_count).v[0] = carry_heads;
    }
}
