#version 460
// Insert/remove of values, after the values were sorted: one invocation per value finds the
// chunks' runs (start and end index per chunk in scratch) and lists each chunk with values
// once (skipping chunks the operation cannot change: full ones for an insert (op OR), empty
// ones for a remove (op ANDNOT)).
#include "set_common.glsl"

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint i = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (i >= n) {
        return;
    }
    uint c = U32Ref(u32_addr(pc.values, i)).v[0] >> 16;
    uint prev = i > 0u ? (U32Ref(u32_addr(pc.values, i - 1u)).v[0] >> 16) : 0xFFFFFFFFu;
    uint next = i + 1u < n ? (U32Ref(u32_addr(pc.values, i + 1u)).v[0] >> 16) : 0xFFFFFFFFu;
    if (c != prev) {
        U32Ref(pc.scratch).v[S_START + c] = i;
        uint cd = dir_entry(pc.meta_d, c).x;
        bool unchanged = (pc.op == OP_OR && cd == FULL) || (pc.op == OP_ANDNOT && cd == 0u);
        if (!unchanged) {
            uint slot = atomicAdd(U32AtomicRef(pc.scratch).v[S_WORK_COUNT], 1u);
            U32Ref(pc.scratch).v[S_WORK + slot] = c;
        }
    }
    if (c != next) {
        U32Ref(pc.scratch).v[S_END + c] = i + 1u;
    }
}
