#version 460
// Reduce-then-scan, pass 1 of 3: workgroup p sums the tiles of its part into
// partials[p] (a part past the end writes 0). No inter-workgroup waiting.
#include "scan_common.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint part = linear_workgroup_id();
    if (part >= pc.num_partitions) {
        return;
    }
    uint num_tiles = tile_count(n);
    uint first_tile = part * pc.tiles_per_partition;
    uint end_tile = min(first_tile + pc.tiles_per_partition, num_tiles);
    uint sum = 0;
    for (uint t = first_tile; t < end_tile; ++t) {
        uint start = t * TILE_ELEMS;
        sum += thread_sum_of_tile(pc.input_addr, start, n - start);
    }
    uint total = workgroup_reduce_add(sum);
    if (gl_LocalInvocationIndex == 0) {
        U32Ref(pc.aux_addr).v[part] = total;
    }
}
