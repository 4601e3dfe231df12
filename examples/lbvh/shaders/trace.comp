#version 460
// One primary ray per pixel through the BVH: stack traversal (nearer child first, a bounded
// stack of 64 entries: the tree is less than 65 levels deep, see hierarchy.comp), nearest hit
// by Moller-Trumbore ("Fast, Minimum Storage Ray/Triangle Intersection", 1997), colour from
// the hit triangle's normal. A ray that would overflow the stack or exceed the step bound
// (lavapipe caps a loop at 65535 iterations per invocation) is counted and drawn magenta.
#include "common.glsl"

layout(push_constant) uniform Push {
    uint64_t tris;
    uint64_t nodes;
    uint64_t image;     // out: RGBA8 per pixel, row 0 at the top
    uint64_t failures;  // u32 count of rays cut short
    float eye_x, eye_y, eye_z;
    float corner_x, corner_y, corner_z;  // direction to the top-left pixel's corner
    float right_x, right_y, right_z;     // across the image
    float down_x, down_y, down_z;        // down the image
    uint width, height;
} pc;

const int STACK = 64;
const int MAX_STEPS = 60000;

float box_entry(U32s nodes, uint node, vec3 o, vec3 inv, float tmax) {
    uint w = 8u * node;
    vec3 lo = vec3(uintBitsToFloat(nodes.v[w]), uintBitsToFloat(nodes.v[w + 1u]), uintBitsToFloat(nodes.v[w + 2u]));
    vec3 hi = vec3(uintBitsToFloat(nodes.v[w + 3u]), uintBitsToFloat(nodes.v[w + 4u]), uintBitsToFloat(nodes.v[w + 5u]));
    vec3 t0 = (lo - o) * inv, t1 = (hi - o) * inv;
    vec3 tn = min(t0, t1), tf = max(t0, t1);
    float enter = max(max(tn.x, tn.y), max(tn.z, 0.0));
    float leave = min(min(tf.x, tf.y), min(tf.z, tmax));
    return enter <= leave ? enter : -1.0;
}

void main() {
    uint x = gl_GlobalInvocationID.x % pc.width;
    uint y = gl_GlobalInvocationID.x / pc.width;
    if (gl_GlobalInvocationID.x >= pc.width * pc.height) return;
    F32s tri = F32s(pc.tris);
    U32s nodes = U32s(pc.nodes);
    vec3 o = vec3(pc.eye_x, pc.eye_y, pc.eye_z);
    vec3 dir = normalize(vec3(pc.corner_x, pc.corner_y, pc.corner_z) +
                         (float(x) + 0.5) * vec3(pc.right_x, pc.right_y, pc.right_z) +
                         (float(y) + 0.5) * vec3(pc.down_x, pc.down_y, pc.down_z));
    vec3 inv = 1.0 / dir;
    float best = 1e30;
    uint hit = LEAF;
    uint stack[STACK];
    int sp = 0;
    bool failed = false;
    if (box_entry(nodes, 0u, o, inv, best) >= 0.0) stack[sp++] = 0u;
    for (int step = 0; sp > 0; step++) {
        if (step == MAX_STEPS) { failed = true; break; }
        uint node = stack[--sp];
        uint w = 8u * node;
        uint a = nodes.v[w + 6u], b = nodes.v[w + 7u];
        if (b == LEAF) {
            uint tb = 9u * a;
            vec3 v0 = vec3(tri.v[tb], tri.v[tb + 1u], tri.v[tb + 2u]);
            vec3 e1 = vec3(tri.v[tb + 3u], tri.v[tb + 4u], tri.v[tb + 5u]) - v0;
            vec3 e2 = vec3(tri.v[tb + 6u], tri.v[tb + 7u], tri.v[tb + 8u]) - v0;
            vec3 p = cross(dir, e2);
            float det = dot(e1, p);
            if (abs(det) < 1e-12) continue;
            float f = 1.0 / det;
            vec3 s = o - v0;
            float u = f * dot(s, p);
            if (u < 0.0 || u > 1.0) continue;
            vec3 q = cross(s, e1);
            float v = f * dot(dir, q);
            if (v < 0.0 || u + v > 1.0) continue;
            float t = f * dot(e2, q);
            if (t > 0.0 && t < best) { best = t; hit = a; }
            continue;
        }
        float ta = box_entry(nodes, a, o, inv, best);
        float tb = box_entry(nodes, b, o, inv, best);
        if (sp + 2 > STACK) { failed = true; break; }
        // Push the farther child first, so the nearer one is visited first.
        if (ta >= 0.0 && tb >= 0.0) {
            stack[sp++] = ta <= tb ? b : a;
            stack[sp++] = ta <= tb ? a : b;
        } else if (ta >= 0.0) {
            stack[sp++] = a;
        } else if (tb >= 0.0) {
            stack[sp++] = b;
        }
    }
    vec3 colour;
    if (failed) {
        atomicAdd(U32s(pc.failures).v[0], 1u);
        colour = vec3(1.0, 0.0, 1.0);
    } else if (hit == LEAF) {
        colour = mix(vec3(0.10, 0.12, 0.16), vec3(0.30, 0.34, 0.42), float(y) / float(pc.height));
    } else {
        uint tb = 9u * hit;
        vec3 v0 = vec3(tri.v[tb], tri.v[tb + 1u], tri.v[tb + 2u]);
        vec3 n = cross(vec3(tri.v[tb + 3u], tri.v[tb + 4u], tri.v[tb + 5u]) - v0,
                       vec3(tri.v[tb + 6u], tri.v[tb + 7u], tri.v[tb + 8u]) - v0);
        n = normalize(n);
        if (dot(n, dir) > 0.0) n = -n;  // the side facing the camera
        float light = 0.25 + 0.75 * max(dot(n, normalize(vec3(0.4, 1.0, 0.3))), 0.0);
        colour = (0.5 * n + 0.5) * light;
    }
    uvec3 c = uvec3(clamp(colour, 0.0, 1.0) * 255.0 + 0.5);
    U32s(pc.image).v[gl_GlobalInvocationID.x] = c.r | (c.g << 8) | (c.b << 16) | (255u << 24);
}
