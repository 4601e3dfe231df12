#version 460
// Histogram: counts[b] = the elements whose bucket is b, for the multisplit's bucket functions
// (glsl/common/bucket_fn.glsl). Two passes of this kernel (pc.pass):
//  - HISTOGRAM_PASS_COUNT: each workgroup walks the tiles of a grid stride (WG_SIZE * ITEMS
//    elements a tile, coalesced loads) and counts their buckets into the running counts in the
//    scratch (zeroed by the host's vkCmdFillBuffer). With SHARED_WORDS > 1 (the plan's choice,
//    m <= SHARED_WORDS) the workgroup counts into a private copy in shared memory and adds it
//    to the running counts once, with one atomic per non-zero bucket; otherwise every count
//    is a global atomic. Within a subgroup the lanes holding the bucket of the first counted
//    lane are added by one atomic (all keys in one bucket: one atomic a subgroup, not one a
//    lane). A bucket id >= m is not counted and raises STATUS_BAD_BUCKET in the status word.
//  - HISTOGRAM_PASS_FINISH: the running counts are copied to the caller's counts, only when
//    the status word is clean (a bad id leaves the caller's counts untouched).
// No workgroup waits for another.
//
// Permutations: KEY_BITS (32 or 64), BUCKET_FN (0 BITS, 1 SPLITTERS, 2 IDS; 3 GLSL, compiled at
// run time with KEY_TYPE_CODE naming the key type of the caller's function). Specialization:
// VECS_PER_THREAD (constant_id 1: elements per invocation per tile), SPIN_LIMIT (constant_id 2:
// SHARED_WORDS, the shared counters), TREE_NODES (constant_id 5: SPLITTERS searched in shared
// memory, below), KEY_ORDER (constant_id 6: the key kind).
#include "../common/vkalgo.glsl"
// HISTOGRAM_SCRATCH_COUNTS and the pass codes (generated from src/histogram/shared_constants.rs).
#include "../generated/histogram.glsl"
#if defined(KEY_TYPE_CODE) && KEY_TYPE_CODE == 5
// GLSL bucket functions of double keys take a double.
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
#endif

#if !defined(KEY_BITS) || !defined(BUCKET_FN)
#error "KEY_BITS and BUCKET_FN must be defined by the permutation table"
#endif

#if KEY_BITS == 64
#define KEY_T uint64_t
layout(buffer_reference, std430, buffer_reference_align = 8) buffer KeyRef { uint64_t v[]; };
#else
#define KEY_T uint
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyRef { uint v[]; };
#endif
#define VKALGO_KEY_ORDER
#include "../common/vkalgo.glsl"

// Must match src/histogram/plan.rs (HistogramPush). The names bucket_fn.glsl reads (aux,
// bucket_count, bit_offset, id_bits, params) are the multisplit's.
layout(push_constant) uniform HistogramPush {
    uint64_t keys;         // KEY_T[count] (not read by IDS)
    uint64_t counts;       // the caller's u32[m] counts (written by the finish pass)
    uint64_t scratch;      // u32 status word at +0, u32[m] running counts at HISTOGRAM_SCRATCH_COUNTS
    uint64_t count_addr;   // indirect count (a u32); 0: direct
    uint64_t aux;          // SPLITTERS: the m - 1 splitters; IDS: one u32 per element; else 0
    uint count;            // direct count
    uint max_count;        // clamp of an indirect count
    uint bucket_count;     // m
    uint bit_offset;       // BITS: first ordered key bit of the bucket id
    uint id_bits;          // ceil(log2(m))
    uint pass;             // HISTOGRAM_PASS_*
    uvec4 params;          // GLSL: vkalgo_params
} pc;

// SPLITTERS are searched as the caller gave them (no splitter index: each key is met once).
const bool SPLITTERS_INDEXED = false;
#include "../common/bucket_fn.glsl"

// SPLITTERS with TREE_NODES > 1 (constant_id 5, a power of two >= m): the m - 1 splitters as
// ordered bits in shared memory, in breadth-first order of a complete search tree of
// TREE_NODES - 1 nodes (node j's children 2j and 2j + 1; index 0 unused), the nodes past the
// last splitter the largest key. The levels near the root sit side by side, so the lanes'
// first steps read few words of distinct banks (docs/tuning/histogram.md#splitter-tree).
layout(constant_id = 5) const uint TREE_NODES = 1u;
const bool SPLITTER_TREE = BUCKET_FN == 1 && TREE_NODES > 1u;
shared KEY_T s_tree[TREE_NODES];

// Fills s_tree from the caller's splitters. Workgroup-uniform control flow.
void build_splitter_tree() {
    uint depth = uint(findMSB(TREE_NODES));
    uint splitters = pc.bucket_count - 1u;
    for (uint j = gl_LocalInvocationIndex + 1u; j < TREE_NODES; j += WG_SIZE) {
        uint level = uint(findMSB(j));
        // Node j's place in the sorted order: the in-order rank in a complete tree.
        uint rank = ((2u * (j - (1u << level)) + 1u) << (depth - 1u - level)) - 1u;
        s_tree[j] = rank < splitters ? ordered_bits(splitter_at(pc.aux, rank)) : ~KEY_T(0);
    }
    barrier();
}

// The number of splitters <= key (its bucket), by a descent of s_tree: one step a level, no
// branch. A key equal to the largest key also passes the padding nodes: clamped to m - 1.
uint tree_bucket(KEY_T key) {
    KEY_T k = ordered_bits(key);
    uint depth = uint(findMSB(TREE_NODES));
    uint j = 1u;
    for (uint level = 0u; level < depth; ++level) {
        j = 2u * j + (s_tree[j] <= k ? 1u : 0u);
    }
    return min(j - TREE_NODES, pc.bucket_count - 1u);
}

// The bucket of element i, whose key is `key`.
uint histogram_bucket(KEY_T key, uint64_t i) {
    return SPLITTER_TREE ? tree_bucket(key) : bucket_of(key, i);
}

#define ITEMS VECS_PER_THREAD
#define TILE (WG_SIZE * ITEMS)
// Words of the workgroup's private counts; 1: every count is a global atomic.
#define SHARED_WORDS SPIN_LIMIT
const bool PRIVATE_COUNTS = SHARED_WORDS > 1u;

shared uint s_counts[SHARED_WORDS];

// Whether this invocation met a bucket id >= m.
bool g_bad = false;

uint64_t running_counts() {
    return pc.scratch + HISTOGRAM_SCRATCH_COUNTS;
}

// Adds `amount` to bucket b's count (shared or global).
void add_count(uint b, uint amount) {
    if (PRIVATE_COUNTS) {
        atomicAdd(s_counts[b], amount);
    } else {
        atomicAdd(U32AtomicRef(running_counts() + uint64_t(b) * 4ul).v[0], amount);
    }
}

// Counts bucket b of this lane where `counted`. Subgroup-uniform control flow: the lanes that
// hold the first counted lane's bucket add once, by their lowest lane; the others one each.
void count_bucket(uint b, bool counted) {
    if (counted && b >= pc.bucket_count) {
        g_bad = true;
        counted = false;
    }
    uvec4 counted_lanes = subgroupBallot(counted);
    if (counted_lanes == uvec4(0u)) {
        return; // subgroup-uniform
    }
    uint first = subgroupShuffle(b, subgroupBallotFindLSB(counted_lanes));
    bool grouped = counted && b == first;
    uvec4 group = subgroupBallot(grouped);
    if (grouped) {
        if (gl_SubgroupInvocationID == subgroupBallotFindLSB(group)) {
            add_count(b, subgroupBallotBitCount(group));
        }
    } else if (counted) {
        add_count(b, 1u);
    }
}

// The key of element i (IDS reads no key).
KEY_T load_key(uint i) {
#if BUCKET_FN == 2
    return KEY_T(0);
#else
    return KeyRef(pc.keys + uint64_t(i) * uint64_t(KEY_BITS / 8)).v[0];
#endif
}

void count_pass() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint m = pc.bucket_count;
    uint lid = gl_LocalInvocationIndex;
    if (PRIVATE_COUNTS) {
        for (uint b = lid; b < m; b += WG_SIZE) {
            s_counts[b] = 0u;
        }
        barrier();
    }
    if (SPLITTER_TREE) {
        build_splitter_tree();
    }
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    uint tiles = n / TILE + (n % TILE != 0u ? 1u : 0u); // no wrap for n near 2^32
    for (uint t = linear_workgroup_id(); t < tiles; t += groups) {
        uint start = t * TILE;
        uint left = n - start; // below 2^32: start < n
        if (left >= TILE) {
            // A whole tile: ITEMS independent loads per invocation, each round coalesced.
            KEY_T x[ITEMS];
            [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
                x[r] = load_key(start + r * WG_SIZE + lid);
            }
            [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
                uint i = start + r * WG_SIZE + lid;
                count_bucket(histogram_bucket(x[r], uint64_t(i)), true);
            }
        } else {
            for (uint r = 0u; r < ITEMS; ++r) {
                uint offset = r * WG_SIZE + lid;
                bool counted = offset < left;
                uint b = 0u;
                if (counted) {
                    b = histogram_bucket(load_key(start + offset), uint64_t(start + offset));
                }
                count_bucket(b, counted);
            }
        }
    }
    if (PRIVATE_COUNTS) {
        barrier();
        for (uint b = lid; b < m; b += WG_SIZE) {
            uint c = s_counts[b];
            if (c != 0u) {
                atomicAdd(U32AtomicRef(running_counts() + uint64_t(b) * 4ul).v[0], c);
            }
        }
    }
    if (g_bad) {
        atomicOr(U32AtomicRef(pc.scratch).v[0], STATUS_BAD_BUCKET);
    }
}

// The running counts to the caller's, where the status word is clean.
void finish_pass() {
    uint b = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex;
    if (b < pc.bucket_count && U32Ref(pc.scratch).v[0] == 0u) {
        U32Ref(pc.counts + uint64_t(b) * 4ul).v[0] = U32Ref(running_counts() + uint64_t(b) * 4ul).v[0];
    }
}

void main() {
    vkalgo_params = pc.params;
    if (pc.pass == HISTOGRAM_PASS_FINISH) {
        finish_pass();
    } else {
        count_pass();
    }
}
