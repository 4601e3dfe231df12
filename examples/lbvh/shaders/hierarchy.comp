#version 460
// The radix-tree hierarchy of Karras, "Maximizing Parallelism in the Construction of BVHs,
// Octrees, and k-d Trees" (HPG 2012), Figure 4: inner node i (0 <= i < N - 1) finds the
// range of sorted keys it covers from the common prefixes of its neighbours, then its split
// by binary search. Nodes: inner i is node i, the leaf of sorted position k is node N - 1 + k,
// so the root is node 0 (also for N = 1, where it is the only leaf).
//
// Duplicate codes: as Karras suggests (section 4), a key is the code followed by its sorted
// position, so all keys differ: delta(i, j) = clz(code_i ^ code_j) when the codes differ, else
// 32 + clz(i ^ j). Every loop below runs at most 27 times (log2 of 2^26).
#include "common.glsl"

layout(push_constant) uniform Push {
    uint64_t keys;     // sorted codes
    uint64_t nodes;    // out: a, b of inner nodes
    uint64_t parents;  // out: parent of each non-root node
    uint n;
} pc;

uint clz(uint x) { return 31u - uint(findMSB(x)); }  // x != 0

int delta(int i, int j) {
    if (j < 0 || j >= int(pc.n)) return -1;
    U32s keys = U32s(pc.keys);
    uint ki = keys.v[i], kj = keys.v[j];
    return ki != kj ? int(clz(ki ^ kj)) : 32 + int(clz(uint(i ^ j)));
}

void main() {
    U32s nodes = U32s(pc.nodes);
    U32s parents = U32s(pc.parents);
    int inner = int(pc.n) - 1;
    for (uint u = gl_GlobalInvocationID.x; u < uint(inner); u += grid_stride()) {
        int i = int(u);
        // Direction of the range: towards the neighbour sharing the longer prefix.
        int d = delta(i, i + 1) - delta(i, i - 1) >= 0 ? 1 : -1;
        int dmin = delta(i, i - d);
        // Upper bound of the range's length, then the length by binary search.
        int lmax = 2;
        while (delta(i, i + lmax * d) > dmin) lmax *= 2;
        int l = 0;
        for (int t = lmax / 2; t >= 1; t /= 2) {
            if (delta(i, i + (l + t) * d) > dmin) l += t;
        }
        int j = i + l * d;
        // The split: the last position sharing more than the range's common prefix with i.
        int dnode = delta(i, j);
        int s = 0;
        for (int div = 2;; div *= 2) {
            int t = (l + div - 1) / div;
            if (delta(i, i + (s + t) * d) > dnode) s += t;
            if (t <= 1) break;
        }
        int gamma = i + s * d + min(d, 0);
        uint left = min(i, j) == gamma ? uint(inner + gamma) : uint(gamma);
        uint right = max(i, j) == gamma + 1 ? uint(inner + gamma + 1) : uint(gamma + 1);
        nodes.v[8u * u + 6u] = left;
        nodes.v[8u * u + 7u] = right;
        parents.v[left] = u;
        parents.v[right] = u;
    }
}
