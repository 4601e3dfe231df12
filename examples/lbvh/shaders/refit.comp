#version 460
// Bottom-up boxes (Karras 2012, section 4, "bounding boxes"): one invocation per leaf writes
// the leaf (the exact f32 box of its triangle, a = triangle index, b = LEAF), then climbs. At
// each inner node an atomic counter (cleared to 0 before the dispatch) decides: the first
// child to arrive stops, the second, which then knows both children's boxes are written,
// writes the union and goes on to the parent. Nobody waits for anybody, so nothing can spin;
// a climb is at most as long as the tree is deep (< 65 levels: keys are 64-bit, see
// hierarchy.comp).
//
// Memory ordering: a child's box is written before its counter increment
// (memoryBarrierBuffer, release) and the sibling's box is read after it (memoryBarrierBuffer,
// acquire); the node array is coherent. On lavapipe the program sets FENCES = false: there a
// memory barrier executed in divergent control flow silently ends the invocation (Mesa 22.3:
// nothing after it runs, so inner boxes stay unwritten), and it needs none: its atomics are
// sequentially consistent LLVM atomics on the CPU's coherent memory, which already order the
// plain loads and stores around them.
#include "common.glsl"

layout(constant_id = 0) const bool FENCES = true;

layout(push_constant) uniform Push {
    uint64_t tris;     // 9 f32 per triangle
    uint64_t values;   // sorted triangle indices
    uint64_t nodes;    // in: a, b of inner nodes; out: boxes, leaves
    uint64_t parents;  // parent of each non-root node
    uint64_t flags;    // one u32 per inner node, 0 before the dispatch
    uint n;
} pc;

void main() {
    F32s tri = F32s(pc.tris);
    U32s values = U32s(pc.values);
    CoherentU32s nodes = CoherentU32s(pc.nodes);
    U32s parents = U32s(pc.parents);
    CoherentU32s flags = CoherentU32s(pc.flags);
    uint inner = pc.n - 1u;
    for (uint k = gl_GlobalInvocationID.x; k < pc.n; k += grid_stride()) {
        uint t = values.v[k];
        uint b = 9u * t;
        vec3 v0 = vec3(tri.v[b + 0u], tri.v[b + 1u], tri.v[b + 2u]);
        vec3 v1 = vec3(tri.v[b + 3u], tri.v[b + 4u], tri.v[b + 5u]);
        vec3 v2 = vec3(tri.v[b + 6u], tri.v[b + 7u], tri.v[b + 8u]);
        vec3 lo = min(min(v0, v1), v2);
        vec3 hi = max(max(v0, v1), v2);
        uint node = inner + k;
        uint w = 8u * node;
        nodes.v[w + 0u] = floatBitsToUint(lo.x);
        nodes.v[w + 1u] = floatBitsToUint(lo.y);
        nodes.v[w + 2u] = floatBitsToUint(lo.z);
        nodes.v[w + 3u] = floatBitsToUint(hi.x);
        nodes.v[w + 4u] = floatBitsToUint(hi.y);
        nodes.v[w + 5u] = floatBitsToUint(hi.z);
        nodes.v[w + 6u] = t;
        nodes.v[w + 7u] = LEAF;
        // Climb while this invocation is the second to reach the parent (at most 64 levels:
        // the bound keeps the loop finite whatever the tree).
        for (uint level = 0u; node != 0u && level < 80u; level++) {
            uint p = parents.v[node];
            if (FENCES) memoryBarrierBuffer();  // this node's box before the counter
            if (atomicAdd(flags.v[p], 1u) == 0u) break;  // the sibling is not done: it goes on
            if (FENCES) memoryBarrierBuffer();  // the sibling's box after the counter
            uint wp = 8u * p;
            uint wa = 8u * nodes.v[wp + 6u];
            uint wb = 8u * nodes.v[wp + 7u];
            for (uint c = 0u; c < 3u; c++) {
                float l = min(uintBitsToFloat(nodes.v[wa + c]), uintBitsToFloat(nodes.v[wb + c]));
                float h = max(uintBitsToFloat(nodes.v[wa + 3u + c]), uintBitsToFloat(nodes.v[wb + 3u + c]));
                nodes.v[wp + c] = floatBitsToUint(l);
                nodes.v[wp + 3u + c] = floatBitsToUint(h);
            }
            node = p;
        }
    }
}
