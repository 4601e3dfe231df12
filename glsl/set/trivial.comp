#version 460
// The trivial list of an operation (after the check pass found enough blocks): chunks whose
// result is empty, full, an operand's run chunk of one run (its entry alone), or the
// intersection of two such runs. One invocation per entry (grid-stride) gives the destination chunk's blocks
// back and sets its directory entry.
// The old chunk may be a run chunk.
#define SET_RUN_CHUNKS
#include "set_common.glsl"

void main() {
    set_begin();
    if (U32Ref(pc.scratch).v[S_OK] == 0u) {
        return;
    }
    uint n = U32Ref(pc.scratch).v[S_TRIVIAL_COUNT];
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * WG_SIZE;
    for (uint i = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex; i < n; i += stride) {
        uint entry = U32Ref(pc.scratch).v[S_TRIVIAL + i];
        uint c = entry & 0xFFFFu;
        uvec2 e = uvec2(entry & FULL, 0u);
        uint copy = entry & (TRIVIAL_COPY_A | TRIVIAL_COPY_B);
        if (copy == TRIVIAL_COPY_A) {
            e = dir_entry(pc.meta_a, c);
        } else if (copy == TRIVIAL_COPY_B) {
            e = dir_entry(pc.meta_b, c);
        } else if (copy != 0u) {
            // The intersection of two overlapping runs (classify.comp).
            uvec2 both = run_overlap(dir_entry(pc.meta_a, c).y, dir_entry(pc.meta_b, c).y);
            e = uvec2((both.y - both.x + 1u) | (1u << RUN_SHIFT), both.x | (both.y << 16));
        }
        uvec2 old_d = dir_entry(pc.meta_d, c);
        free_chunk_storage_serial(old_d);
        set_dir_entry(pc.meta_d, c, e);
        note_nonempty(pc.meta_d, old_d.x, e.x);
    }
}
