#version 460
// The trivial list of an operation (after the check pass found enough blocks): chunks whose
// result is empty or full. One invocation per entry (grid-stride) gives the destination chunk's blocks
// back and sets its directory entry.
// The old chunk may be a run chunk.
#define SET_RUN_CHUNKS
#include "set_common.glsl"

void main() {
    if (U32Ref(pc.scratch).v[S_OK] == 0u) {
        return;
    }
    uint n = U32Ref(pc.scratch).v[S_TRIVIAL_COUNT];
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * WG_SIZE;
    for (uint i = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex; i < n; i += stride) {
        uint entry = U32Ref(pc.scratch).v[S_TRIVIAL + i];
        uint c = entry & 0xFFFFu;
        uint card = entry & FULL;
        uvec2 old_d = dir_entry(pc.meta_d, c);
        free_chunk_storage_serial(old_d);
        set_dir_entry(pc.meta_d, c, uvec2(card, 0u));
        note_nonempty(pc.meta_d, old_d.x, card);
    }
}
