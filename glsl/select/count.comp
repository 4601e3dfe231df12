#version 460
// Select without inter-workgroup waiting, pass 1 of 3: workgroup t writes the number of kept
// elements of tile t to the u32 counts at aux_addr (0 for a tile past the count: an indirect
// count scans every tile of the plan's maximum). The plan's scan then turns the counts into
// exclusive prefixes, which scatter.comp reads.
#include "select_common.glsl"

void main() {
    vkalgo_params = pc.params;
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint tiles = select_tile_count(n);
    uint slots = pc.count_addr == 0ul ? tiles : select_tile_count(pc.max_count);
    uint tile = linear_workgroup_id();
    if (tile >= slots) {
        return;
    }
    uint kept = 0u;
    if (tile < tiles) {
        kept = workgroup_reduce_add(tile_thread_count(tile, n));
    }
    if (gl_LocalInvocationIndex == 0u) {
        U32Ref(u32_addr(pc.aux_addr, tile)).v[0] = kept;
    }
}
