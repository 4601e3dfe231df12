#version 460
// The trivial list of an operation (after the check pass found enough blocks): chunks whose
// result is empty, full, an operand's run chunk of one run (its entry alone), or the
// intersection of two such runs. One invocation per entry (grid-stride) gives the destination
// chunk's blocks back and sets its directory entry. The invocations past the trivial list
// write the pairs of run chunks (run_pairs.glsl), one each.
// The old chunk may be a run chunk.
#define SET_RUN_CHUNKS
#include "set_common.glsl"
#include "run_pairs.glsl"

void main() {
    if (U32Ref(pc.scratch).v[S_OK] == 0u) {
        return;
    }
    uint n = U32Ref(pc.scratch).v[S_TRIVIAL_COUNT];
    uint n_runs = U32Ref(pc.scratch).v[S_RUN_PAIR_COUNT];
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * WG_SIZE;
    uint first = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    for (uint i = first; i < n; i += stride) {
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
    if (n_runs != 0u) {
        // The run pairs, continuing the invocations' sequence past the trivial list.
        RunPairPools pools = run_pair_pools();
        ArrayPool d = array_pool(pc.meta_d);
        uint skip = n % stride;
        uint from = first >= skip ? first - skip : first + stride - skip;
        for (uint i = from; i < n_runs; i += stride) {
            run_pair_write(U32Ref(pc.scratch).v[S_RUN_PAIRS_ENTRY(i)], pools, d);
        }
    }
}
