#version 460
// The trivial list of an operation (after the check pass found enough blocks): chunks whose
// result is empty or full. One invocation per entry gives the destination chunk's blocks
// back and sets its directory entry.
#include "set_common.glsl"

void main() {
    uint i = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (U32Ref(pc.scratch).v[S_OK] == 0u || i >= U32Ref(pc.scratch).v[S_TRIVIAL_COUNT]) {
        return;
    }
    uint entry = U32Ref(pc.scratch).v[S_TRIVIAL + i];
    uint c = entry & 0xFFFFu;
    uint card = entry & FULL;
    free_chunk_storage_serial(pc.meta_d, dir_entry(pc.meta_d, c));
    set_dir_entry(pc.meta_d, c, uvec2(card, 0u));
}
