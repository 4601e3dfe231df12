#version 460
// Shrinking a set's pools (src/set/pools.rs GpuSet::shrink_to_fit): after the host copied the
// blocks in use into new pools of exactly `count` bitmap and `max_count` array blocks (blocks
// with ids below those counts in place, every block above them into a free id below them), this
// pass rewrites the references: each chunk's directory entry and each array chunk's header
// words (the ids of its blocks 1..k-1; a run chunk's one block has none). The meta block
// already holds the new pools' addresses.
//
// values: the relocation table, u32 new ids: bitmap ids count.. first (aux entries), then
// array ids max_count... An id below the pool's new size is unchanged. One invocation per
// chunk, grid-stride.
#include "set_common.glsl"

uint relocated_bitmap(uint id) {
    return id < pc.count ? id : U32Ref(pc.values).v[id - pc.count];
}

uint relocated_array(uint id) {
    return id < pc.max_count ? id : U32Ref(pc.values).v[pc.aux + (id - pc.max_count)];
}

void main() {
    uint stride = pc.grid * WG_SIZE;
    uint first = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    for (uint c = first; c < CHUNKS; c += stride) {
        uvec2 e = dir_entry(pc.meta_d, c);
        uint r = chunk_runs(e.x);
        if (e.x == 0u || e.x == FULL || r == 1u) {
            continue;  // no storage (one run lives in the entry)
        }
        if (r == 0u && e.x > ARRAY_MAX) {
            uint id = relocated_bitmap(e.y);
            if (id != e.y) {
                set_dir_entry(pc.meta_d, c, uvec2(e.x, id));
            }
            continue;
        }
        uint id0 = relocated_array(e.y);
        if (id0 != e.y) {
            set_dir_entry(pc.meta_d, c, uvec2(e.x, id0));
        }
        U32Ref header = U32Ref(array_block_addr(pc.meta_d, id0));
        uint k = r != 0u ? 1u : array_blocks(e.x);
        for (uint j = 0u; j + 1u < k; j++) {
            uint id = header.v[j];
            uint moved = relocated_array(id);
            if (moved != id) {
                header.v[j] = moved;
            }
        }
    }
}
