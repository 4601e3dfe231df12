#version 460
// One invocation between an operation's counting and writing passes: whether the destination
// has enough free blocks (and no earlier operation of the batch failed). Writes the
// operation's status (8 u32 at out_addr): ok, bitmap blocks needed, array blocks needed,
// free bitmap blocks, free array blocks, partial cardinality sum, full chunks, work chunks.
// mode 1: cardinality only (no destination; always ok). mode 2 (a batch's first pass): clear
// the scratch counters, and with aux 2 the status. mode 3 (a batch's last pass): the
// destination's count of non-empty chunks to the status's word 8. On the one-pass path
// (set_common.glsl one_pass) the counting pass did not run, and the bound classify computed
// stands for the blocks needed.
#include "set_common.glsl"

void main() {
    set_begin();
    if (gl_LocalInvocationIndex != 0u || linear_workgroup_id() != 0u) {
        return;
    }
    U32Ref s = U32Ref(pc.scratch);
    if (pc.mode == 2u) {
        for (uint i = 0u; i < S_WORK; i++) {
            s.v[i] = 0u;
        }
        for (uint i = 0u; pc.aux == 2u && i < 8u; i++) {
            U32Ref(pc.out_addr).v[i] = 0u;
        }
        return;
    }
    if (pc.mode == 3u) {
        U32Ref(pc.out_addr).v[8] = U32Ref(pc.meta_d + META_NONEMPTY).v[0];
        return;
    }
    uint free_bm = 0u;
    uint free_ar = 0u;
    bool ok = true;
    uint need_bm = s.v[S_NEED_BM];
    uint need_ar = s.v[S_NEED_AR];
    if (pc.mode != 1u) {
        U32Ref cur = U32Ref(cursor_addr(pc.meta_d, 0u));
        free_bm = cur.v[1] - cur.v[0];
        free_ar = cur.v[3] - cur.v[2];
        if (one_pass(pc.scratch, pc.meta_d)) {
            need_bm = s.v[S_BOUND_BM];
            need_ar = s.v[S_BOUND_AR];
        } else {
            ok = s.v[S_FAILED] == 0u && need_bm <= free_bm && need_ar <= free_ar;
            if (!ok) {
                s.v[S_FAILED] = 1u;
            }
        }
    }
    s.v[S_OK] = ok ? 1u : 0u;
    U32Ref o = U32Ref(pc.out_addr);
    o.v[0] = ok ? 1u : 0u;
    o.v[1] = need_bm;
    o.v[2] = need_ar;
    o.v[3] = free_bm;
    o.v[4] = free_ar;
    o.v[5] = s.v[S_CARD_PARTIAL];
    o.v[6] = s.v[S_CARD_FULL];
    o.v[7] = s.v[S_WORK_COUNT] + s.v[S_PAIR_COUNT] + s.v[S_PAIR_MEDIUM_COUNT] + s.v[S_BITMAP_COUNT]
           + s.v[S_COPY_COUNT] + s.v[S_RUN_PAIR_COUNT];
}
