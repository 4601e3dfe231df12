// Reduce-by-key and run-length encoding: what every pass shares (src/reduce_by_key).
//
// A run is a maximal stretch of consecutive keys with equal bits. A tile is WG_SIZE * ITEMS
// elements; invocation i of a tile takes ITEMS consecutive elements (a blocked layout, so
// that its serial walk sees the runs in order). A tile, or any stretch of elements, is
// summarized by a pair (heads, value): how many runs start in it, and op over its elements
// from its last head to its end (over all of them where no run starts in it). Pairs combine
// associatively: (a, b) -> (a.heads + b.heads, b.heads > 0 ? b.value : op(a.value, b.value)).
//
// Permutations: KEY_BITS 32 or 64; VALUE_WORDS 0 (run-length encoding: every value is 1,
// summed, written as u32), 1 (u32 values) or 2 (u64 values). Specialization: RBK_OP
// (constant_id 5: RBK_OP_*), ITEMS (constant_id 1), SPIN_LIMIT (constant_id 2, look-back).
// Values are combined as u64 (u32 sums wrap modulo 2^32 when written back as u32).
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

#define ITEMS VECS_PER_THREAD
#define TILE (WG_SIZE * ITEMS)

uint64_t op_identity() {
    return RBK_OP == RBK_OP_MIN ? ~0ul : 0ul;
}

uint64_t op_apply(uint64_t a, uint64_t b) {
    if (RBK_OP == RBK_OP_MIN) {
        return min(a, b);
    } else if (RBK_OP == RBK_OP_MAX) {
        return max(a, b);
    }
    return a + b;
}

// Pair combination (a before b); heads wrap never: at most 2^32 - 1 elements.
void pair_combine(uint a_heads, uint64_t a_value, inout uint b_heads, inout uint64_t b_value) {
    b_value = b_heads > 0u ? b_value : op_apply(a_value, b_value);
    b_heads += a_heads;
}

uvec4 pair_pack(uint heads, uint64_t value) {
    return uvec4(heads, 0u, uint(value), uint(value >> 32));
}

uint64_t pair_value(uvec4 p) {
    return uint64_t(p.z) | (uint64_t(p.w) << 32);
}

KEY_T load_key(uint i) {
    return KeyRef(pc.keys_in + uint64_t(i) * uint64_t(KEY_BITS / 8)).v[0];
}

uint64_t load_value(uint i) {
#if VALUE_WORDS == 2
    return U64Ref(pc.values_in + uint64_t(i) * 8ul).v[0];
#elif VALUE_WORDS == 1
    return uint64_t(U32Ref(pc.values_in + uint64_t(i) * 4ul).v[0]);
#else
    return 1ul;
#endif
}

uint tile_count(uint n) {
    return n / TILE + (n % TILE != 0u ? 1u : 0u);  // no wrap for n near 2^32
}

// ---- the workgroup's scan of pairs (Hillis-Steele in shared memory) ----

shared uint s_heads[gl_WorkGroupSize.x];
shared uint64_t s_value[gl_WorkGroupSize.x];

// Exclusive scan of every invocation's pair over the workgroup (identity pair for invocation
// 0); `total_*` get the workgroup's pair. Workgroup-uniform control flow.
void workgroup_pair_scan(inout uint heads, inout uint64_t value, out uint total_heads,
                         out uint64_t total_value) {
    uint lid = gl_LocalInvocationIndex;
    s_heads[lid] = heads;
    s_value[lid] = value;
    barrier();
    for (uint offset = 1u; offset < WG_SIZE; offset *= 2u) {
        uint h = heads;
        uint64_t v = value;
        if (lid >= offset) {
            pair_combine(s_heads[lid - offset], s_value[lid - offset], h, v);
        }
        barrier();
        s_heads[lid] = h;
        s_value[lid] = v;
        heads = h;
        value = v;
        barrier();
    }
    total_heads = s_heads[WG_SIZE - 1u];
    total_value = s_value[WG_SIZE - 1u];
    heads = lid > 0u ? s_heads[lid - 1u] : 0u;
    value = lid > 0u ? s_value[lid - 1u] : op_identity();
    barrier();  // the slots may be reused right after
}

// ---- the tiles ----

// This invocation's pair over its elements of tile `tile` (identity past the count).
void thread_pair(uint tile, uint n, out uint heads, out uint64_t value) {
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
        uint64_t v = load_value(idx + r);
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
void tile_pair(uint tile, uint n, out uint heads, out uint64_t value) {
    uint h;
    uint64_t v;
    thread_pair(tile, n, h, v);
    workgroup_pair_scan(h, v, heads, value);
}

// Writes the runs that end in this invocation's elements of tile `tile`, given the pair of
// every element before them (`heads` runs started before: the current run is heads - 1).
void thread_write(uint tile, uint n, uint heads, uint64_t value) {
    uint start = tile * TILE;
    uint valid = n - start;
    uint first = gl_LocalInvocationIndex * ITEMS;
    if (first >= valid) {
        return;
    }
    uint idx = start + first;
    KEY_T key = load_key(idx);
    bool head = idx == 0u || load_key(idx - 1u) != key;
    for (uint r = 0u; r < ITEMS && first + r < valid; ++r) {
        uint i = idx + r;
        uint64_t v = load_value(i);
        if (head) {
            heads += 1u;
            value = v;
        } else {
            value = op_apply(value, v);
        }
        bool last = i + 1u >= n;
        KEY_T next = last ? key : load_key(i + 1u);
        if (last || next != key) {
            uint run = heads - 1u;
            KeyRef(pc.keys_out + uint64_t(run) * uint64_t(KEY_BITS / 8)).v[0] = key;
#if VALUE_WORDS == 2
            U64Ref(pc.values_out + uint64_t(run) * 8ul).v[0] = value;
#else
            U32Ref(pc.values_out + uint64_t(run) * 4ul).v[0] = uint(value);
#endif
        }
        head = !last && next != key;
        key = next;
    }
}

// Writes the runs ending in tile `tile`, given the pair of every element before the tile.
// Workgroup-uniform control flow.
void tile_write(uint tile, uint n, uint carry_heads, uint64_t carry_value) {
    uint h;
    uint64_t v;
    thread_pair(tile, n, h, v);
    uint total_heads;
    uint64_t total_value;
    workgroup_pair_scan(h, v, total_heads, total_value);
    pair_combine(carry_heads, carry_value, h, v);
    thread_write(tile, n, h, v);
}

#endif
