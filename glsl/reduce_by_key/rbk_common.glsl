// Reduce-by-key and run-length encoding: what every pass shares (src/reduce_by_key); the tile
// in registers of the passes that read and write elements is in rbk_tile.glsl.
//
// A run is a maximal stretch of consecutive keys with equal bits. A tile is WG_SIZE * ITEMS
// elements, held in registers in striped rows (rbk_tile.glsl); each invocation writes the runs that
// end in its elements. A tile, or any stretch of elements, is
// summarized by a pair (heads, value): how many runs start in it, and op over its elements
// from its last head to its end (over all of them where no run starts in it). Pairs combine
// associatively: (a, b) -> (a.heads + b.heads, b.heads > 0 ? b.value : op(a.value, b.value)).
//
// Permutations: KEY_BITS 32 or 64; VALUE_WORDS 0 (run-length encoding: every value is 1,
// summed, written as u32), 1 (u32 values) or 2 (u64 values). Specialization: RBK_OP
// (constant_id 5: RBK_OP_*), ITEMS (constant_id 1), SPIN_LIMIT (constant_id 2, look-back).
// Values are combined as VALUE_T: u64 for u64 values, u32 otherwise (u32 sums wrap).
#ifndef RBK_COMMON_GLSL
#define RBK_COMMON_GLSL

#extension GL_KHR_memory_scope_semantics : require
#include "../common/vkalgo.glsl"
// RBK_OP_*, RBK_FLAG_*, RBK_SCRATCH_HEADER (generated from src/reduce_by_key/shared_constants.rs).
#include "../generated/reduce_by_key.glsl"

#if KEY_BITS == 64
#define KEY_T uint64_t
#else
#define KEY_T uint
#endif

layout(constant_id = 5) const uint RBK_OP = 0;

layout(push_constant) uniform RbkPush {
    uint64_t keys_in;      // KEY_T[count]
    uint64_t values_in;    // VALUE_WORDS 1: u32[count], 2: u64[count]; 0: unused
    uint64_t keys_out;     // KEY_T per run
    uint64_t values_out;   // u32 (VALUE_WORDS 0, 1) or u64 (2) per run
    uint64_t run_count;    // one u32: the number of runs
    uint64_t scratch;      // look-back state or the tiles' pairs
    uint64_t count_addr;   // indirect count (a u32); 0: direct
    uint count;            // direct count
    uint max_count;        // clamp of an indirect count
    uint max_tiles;        // tiles of the plan's max_count (the scratch's layout)
    uint tile_elems;       // elements per tile (the spine's tiles)
} pc;

layout(buffer_reference, std430, buffer_reference_align = 8) buffer KeyRef { KEY_T v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer U64Ref { uint64_t v[]; };
// A pair in scratch: heads in .x, the value's low and high words in .z and .w.
layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer PairRef { uvec4 v[]; };

// The type values combine in: u32 unless the values are u64. The spine, one permutation for
// every value type, combines the tiles' pairs as u64 (u32 values zero-extended).
#if VALUE_WORDS == 2 || defined(RBK_SPINE)
#define WIDE_VALUES 1
#define VALUE_T uint64_t
#else
#define WIDE_VALUES 0
#define VALUE_T uint
#endif

#define ITEMS VECS_PER_THREAD
#define TILE (WG_SIZE * ITEMS)

VALUE_T op_identity() {
    return RBK_OP == RBK_OP_MIN ? ~VALUE_T(0) : VALUE_T(0);
}

VALUE_T op_apply(VALUE_T a, VALUE_T b) {
    if (RBK_OP == RBK_OP_MIN) {
        return min(a, b);
    } else if (RBK_OP == RBK_OP_MAX) {
        return max(a, b);
    }
    return a + b;
}

// Pair combination (a before b); heads wrap never: at most 2^32 - 1 elements.
void pair_combine(uint a_heads, VALUE_T a_value, inout uint b_heads, inout VALUE_T b_value) {
    b_value = b_heads > 0u ? b_value : op_apply(a_value, b_value);
    b_heads += a_heads;
}

#if WIDE_VALUES
uvec2 unpack_value(VALUE_T v) { return unpackUint2x32(v); }
VALUE_T pack_value(uvec2 w) { return packUint2x32(w); }
VALUE_T shuffle_value(VALUE_T v, uint lane) { return subgroup_shuffle_u64(v, lane); }
#else
uvec2 unpack_value(VALUE_T v) { return uvec2(v, 0u); }
VALUE_T pack_value(uvec2 w) { return w.x; }
VALUE_T shuffle_value(VALUE_T v, uint lane) { return subgroupShuffle(v, lane); }
#endif

uvec4 pair_pack(uint heads, VALUE_T value) {
    return uvec4(heads, 0u, unpack_value(value));
}

VALUE_T pair_value(uvec4 p) {
    return pack_value(p.zw);
}

KEY_T load_key(uint i) {
    return KeyRef(pc.keys_in + uint64_t(i) * uint64_t(KEY_BITS / 8)).v[0];
}

VALUE_T load_value(uint i) {
#if VALUE_WORDS == 2
    return U64Ref(pc.values_in + uint64_t(i) * 8ul).v[0];
#elif VALUE_WORDS == 1
    return U32Ref(pc.values_in + uint64_t(i) * 4ul).v[0];
#else
    return VALUE_T(1);
#endif
}

uint tile_count(uint n) {
    return n / TILE + (n % TILE != 0u ? 1u : 0u);  // no wrap for n near 2^32
}

// ---- the workgroup's scan of pairs (subgroup shuffles, then the subgroups' totals) ----

shared uint s_sg_heads[(WG_SIZE + MIN_SUBGROUP_SIZE - 1u) / MIN_SUBGROUP_SIZE];
shared VALUE_T s_sg_value[(WG_SIZE + MIN_SUBGROUP_SIZE - 1u) / MIN_SUBGROUP_SIZE];

// The subgroups' pairs combined in tile order: the invocation of each subgroup where `writer`
// holds its subgroup's pair (`heads`, `value`); `before_*` get the pair of the subgroups before
// this one, `total_*` the workgroup's. Workgroup-uniform control flow.
void workgroup_subgroup_pairs(bool writer, uint heads, VALUE_T value, out uint before_heads,
                              out VALUE_T before_value, out uint total_heads,
                              out VALUE_T total_value) {
    if (writer) {
        s_sg_heads[gl_SubgroupID] = heads;
        s_sg_value[gl_SubgroupID] = value;
    }
    barrier();
    uint h = 0u;
    VALUE_T v = op_identity();
    before_heads = 0u;
    before_value = op_identity();
    for (uint g = 0u; g < gl_NumSubgroups; ++g) {
        if (g == gl_SubgroupID) {
            before_heads = h;
            before_value = v;
        }
        uint gh = s_sg_heads[g];
        VALUE_T gv = s_sg_value[g];
        pair_combine(h, v, gh, gv);
        h = gh;
        v = gv;
    }
    total_heads = h;
    total_value = v;
    barrier();  // the slots may be reused right after
}

// Exclusive scan of every invocation's pair over the workgroup (identity pair for invocation
// 0); `total_*` get the workgroup's pair. Workgroup-uniform control flow.
void workgroup_pair_scan(inout uint heads, inout VALUE_T value, out uint total_heads,
                         out VALUE_T total_value) {
    uint lane = gl_SubgroupInvocationID;
    // Inclusive within the subgroup: lane l combines the pair d lanes down, d = 1, 2, 4, ...
    for (uint d = 1u; d < gl_SubgroupSize; d *= 2u) {
        uint from = lane >= d ? lane - d : lane;
        uint h = subgroupShuffle(heads, from);
        VALUE_T v = shuffle_value(value, from);
        if (lane >= d) {
            pair_combine(h, v, heads, value);
        }
    }
    // Exclusive within the subgroup: the inclusive pair of the lane below.
    uint from = lane > 0u ? lane - 1u : 0u;
    uint h = subgroupShuffle(heads, from);
    VALUE_T v = shuffle_value(value, from);
    uint before_heads;
    VALUE_T before_value;
    workgroup_subgroup_pairs(lane + 1u == gl_SubgroupSize, heads, value, before_heads, before_value,
                             total_heads, total_value);
    heads = lane > 0u ? h : 0u;
    value = lane > 0u ? v : op_identity();
    pair_combine(before_heads, before_value, heads, value);
}

// ---- a tile from global memory (the look-back's fallback for a silent predecessor) ----

// This invocation's pair over its elements of tile `tile` (identity past the count).
void thread_pair(uint tile, uint n, out uint heads, out VALUE_T value) {
    uint start = tile * TILE;
    uint valid = n - start;
    uint first = gl_LocalInvocationIndex * ITEMS;
    heads = 0u;
    value = op_identity();
    if (first >= valid) {
        return;
    }
    uint idx = start + first;
    KEY_T prev = idx > 0u ? load_key(idx - 1u) : KEY_T(0);
    bool has_prev = idx > 0u;
    for (uint r = 0u; r < ITEMS && first + r < valid; ++r) {
        KEY_T key = load_key(idx + r);
        VALUE_T v = load_value(idx + r);
        if (!has_prev || key != prev) {
            heads += 1u;
            value = v;
        } else {
            value = op_apply(value, v);
        }
        prev = key;
        has_prev = true;
    }
}

// The pair of tile `tile`, in every invocation. Workgroup-uniform control flow.
void tile_pair(uint tile, uint n, out uint heads, out VALUE_T value) {
    uint h;
    VALUE_T v;
    thread_pair(tile, n, h, v);
    workgroup_pair_scan(h, v, heads, value);
}

#endif
