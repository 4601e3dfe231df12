#version 460
// Hash map bookkeeping, run by one invocation: mode 0 resets the retrieve cursor; mode 1
// writes the size (u32) to flags_addr; mode 2 writes the cursor (u32); mode 3 writes the
// whole header (size, tombstones, cursor, reserved: 4 x u32).
#include "hash_common.glsl"

void main() {
    if (gl_LocalInvocationIndex != 0u || linear_workgroup_id() != 0u) {
        return;
    }
    HashHeaderRef h = HashHeaderRef(pc.header_addr);
    if (pc.mode == 0u) {
        h.cursor = 0u;
    } else if (pc.mode == 1u) {
        U32Ref(pc.flags_addr).v[0] = h.size;
    } else if (pc.mode == 2u) {
        U32Ref(pc.flags_addr).v[0] = h.cursor;
    } else if (pc.mode == 3u) {
        U32x4Ref(pc.flags_addr).v[0] = uvec4(h.size, h.tombstones, h.cursor, h.reserved);
    }
}
