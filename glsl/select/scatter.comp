#version 460
// Select without inter-workgroup waiting, pass 3 of 3: workgroup t ranks the kept elements of
// tile t and writes them from the exclusive prefix of the tile counts at aux_addr (count.comp,
// then the plan's scan). The last tile writes the number kept (a count of 0: workgroup 0).
#include "select_common.glsl"

void main() {
    vkalgo_params = pc.params;
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint tiles = select_tile_count(n);
    uint tile = linear_workgroup_id();
    if (tile >= tiles) {
        if (tile == 0u) {
            write_kept(0u);
        }
        return;
    }
    uint start = tile * TILE;
    uint bits = keep_bits(start, n - start, true);
    uint total = tile_ranks(bits);
    uint prefix = U32Ref(u32_addr(pc.aux_addr, tile)).v[0];
    scatter_tile(bits, prefix);
    if (tile + 1u == tiles) {
        write_kept(prefix + total);
    }
}
