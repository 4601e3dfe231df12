#version 460
// Reduce-then-scan, pass 3 of 3 (and, over the partials, pass 2): workgroup p scans the tiles
// of its part in order, seeded with partials[p] (exclusive prefix of the part), or
// with 0 when aux_addr is 0. Reading a tile and writing it back happen in the same
// workgroup, so in-place scans are safe.
#include "scan_common.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint part = linear_workgroup_id();
    uint num_tiles = tile_count(n);
    uint first_tile = part * pc.tiles_per_partition;
    if (first_tile >= num_tiles) {
        return;
    }
    uint end_tile = min(first_tile + pc.tiles_per_partition, num_tiles);
    uint carry = pc.aux_addr != 0ul ? U32Ref(pc.aux_addr).v[part] : 0u;
    for (uint t = first_tile; t < end_tile; ++t) {
        uint start = t * TILE_ELEMS;
        uint valid = n - start;
        load_tile(pc.input_addr, start, valid);
        uint total = scan_tile_local(pc.inclusive != 0u);
        add_to_tile(carry);
        store_tile(pc.output_addr, start, valid);
        carry += total;
    }
}
