// Reduce-by-key and run-length encoding: what every pass shares (src/reduce_by_key).
//
// A run is a maximal stretch of consecutive keys with equal bits. A tile is WG_SIZE * ITEMS
// elements; invocation i of a tile takes ITEMS consecutive elements into registers (below) and
// writes the runs that end in them. A tile, or any stretch of elements, is
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
    if (lane + 1u == gl_SubgroupSize) {
        s_sg_heads[gl_SubgroupID] = heads;
        s_sg_value[gl_SubgroupID] = value;
    }
    // Exclusive within the subgroup: the inclusive pair of the lane below.
    uint from = lane > 0u ? lane - 1u : 0u;
    uint h = subgroupShuffle(heads, from);
    VALUE_T v = shuffle_value(value, from);
    heads = lane > 0u ? h : 0u;
    value = lane > 0u ? v : op_identity();
    barrier();
    // The subgroups below this one, then the rest for the total.
    uint before_heads = 0u;
    VALUE_T before_value = op_identity();
    for (uint g = 0u; g < gl_NumSubgroups; ++g) {
        if (g == gl_SubgroupID) {
            pair_combine(before_heads, before_value, heads, value);
        }
        uint gh = s_sg_heads[g];
        VALUE_T gv = s_sg_value[g];
        pair_combine(before_heads, before_value, gh, gv);
        before_heads = gh;
        before_value = gv;
    }
    total_heads = before_heads;
    total_value = before_value;
    barrier();  // the slots may be reused right after
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

#ifndef RBK_SPINE
// ---- a tile in registers (not in the spine, which scans the tiles' pairs alone) ----
//
// Invocation i of a tile takes its ITEMS consecutive elements (a blocked layout, so that its
// serial walk sees the runs in order) straight into registers: 16-byte loads where its
// elements are whole and aligned, else one by one. No shared memory holds the tile, so that
// the occupancy is the registers' (the driver's shared memory per multiprocessor is small);
// the runs leave through a small window per subgroup (write_runs).

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4Ref { uvec4 v[]; };

// This invocation's elements: keys, values, how many of them are in the tile (t_count), and
// bit r set in t_heads / t_ends where element r starts / ends a run.
KEY_T t_keys[ITEMS];
VALUE_T t_values[ITEMS];
uint t_count;
uint t_heads;
uint t_ends;

// dst[0..ITEMS) from the 16-byte aligned address `addr`, 32-bit or 64-bit elements (ITEMS a
// multiple of 4 or 2; the unrolled loops' indices stay below ITEMS either way).
#define LOAD_WHOLE_32(dst, addr)                                        \
    [[unroll]] for (uint q = 0u; q < ITEMS / 4u; ++q) {                 \
        uvec4 w = Vec4Ref(addr).v[q];                                   \
        dst[4u * q] = w.x;                                              \
        dst[4u * q + 1u] = w.y;                                         \
        dst[4u * q + 2u] = w.z;                                         \
        dst[4u * q + 3u] = w.w;                                         \
    }
#define LOAD_WHOLE_64(dst, addr)                                        \
    [[unroll]] for (uint q = 0u; q < ITEMS / 2u; ++q) {                 \
        uvec4 w = Vec4Ref(addr).v[q];                                   \
        dst[2u * q] = packUint2x32(w.xy);                               \
        dst[2u * q + 1u] = packUint2x32(w.zw);                          \
    }

// Loads t_keys and t_values of the `t_count` elements from element `idx`: whole and aligned
// runs of 16 bytes as vectors, else element by element.
void load_thread_elements(uint idx) {
    uint64_t key_addr = pc.keys_in + uint64_t(idx) * uint64_t(KEY_BITS / 8);
    bool whole = t_count == ITEMS;
    if (whole && (ITEMS * KEY_BITS / 32u) % 4u == 0u && (key_addr & 15ul) == 0ul) {
#if KEY_BITS == 64
        LOAD_WHOLE_64(t_keys, key_addr)
#else
        LOAD_WHOLE_32(t_keys, key_addr)
#endif
    } else {
        [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
            t_keys[r] = r < t_count ? load_key(idx + r) : KEY_T(0);
        }
    }
#if VALUE_WORDS > 0
    uint64_t value_addr = pc.values_in + uint64_t(idx) * uint64_t(VALUE_WORDS * 4);
    if (whole && (ITEMS * VALUE_WORDS) % 4u == 0u && (value_addr & 15ul) == 0ul) {
#if VALUE_WORDS == 2
        LOAD_WHOLE_64(t_values, value_addr)
#else
        LOAD_WHOLE_32(t_values, value_addr)
#endif
    } else {
        [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
            t_values[r] = r < t_count ? load_value(idx + r) : VALUE_T(0);
        }
    }
#else
    [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
        t_values[r] = VALUE_T(1);
    }
#endif
}

KEY_T shuffle_key(KEY_T k, uint lane) {
#if KEY_BITS == 64
    return subgroup_shuffle_u64(k, lane);
#else
    return subgroupShuffle(k, lane);
#endif
}

// Reads this invocation's elements of the tile at `start` (`valid` of them exist, `n` in all)
// and marks where runs start and end. The keys beside an invocation's elements come from the
// lanes beside it, or from memory at a subgroup's edges. Subgroup-uniform control flow.
void read_thread_elements(uint start, uint valid, uint n) {
    uint first = gl_LocalInvocationIndex * ITEMS;
    t_count = first < valid ? min(valid - first, ITEMS) : 0u;
    uint idx = start + first;
    load_thread_elements(idx);
    uint lane = gl_SubgroupInvocationID;
    KEY_T below = shuffle_key(t_keys[ITEMS - 1u], lane == 0u ? 0u : lane - 1u);
    KEY_T above = shuffle_key(t_keys[0], min(lane + 1u, gl_SubgroupSize - 1u));
    t_heads = 0u;
    t_ends = 0u;
    if (t_count > 0u) {
        // The key before element 0 (none before the first element of all).
        bool has_before = idx > 0u;
        if (has_before && lane == 0u) {
            below = load_key(idx - 1u);
        }
        // The key after the last element, where there is one: the next lane's first when
        // that lane holds elements of this tile, else from memory.
        uint after = idx + t_count;
        bool has_after = after < n;
        if (has_after && (lane + 1u == gl_SubgroupSize || first + t_count >= valid)) {
            above = load_key(after);
        }
        bool head0 = !has_before || t_keys[0] != below;
        [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
            if (r < t_count) {
                bool end = r + 1u < t_count ? t_keys[r + 1u] != t_keys[r]
                                            : !has_after || above != t_keys[r];
                t_heads |= (r == 0u ? head0 : t_keys[r] != t_keys[r - 1u]) ? 1u << r : 0u;
                t_ends |= end ? 1u << r : 0u;
            }
        }
    }
}

// This invocation's pair over its elements (read_thread_elements first).
void thread_elements_pair(out uint heads, out VALUE_T value) {
    heads = 0u;
    value = op_identity();
    [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
        if (r < t_count) {
            if ((t_heads & (1u << r)) != 0u) {
                heads += 1u;
                value = t_values[r];
            } else {
                value = op_apply(value, t_values[r]);
            }
        }
    }
}

// The pair of the tile at `start` (`valid` elements, `n` in all), read into registers:
// `heads`/`value` become this invocation's exclusive pair within the tile, `tile_*` the
// tile's. Workgroup-uniform control flow.
void tile_elements_pair(uint start, uint valid, uint n, out uint heads, out VALUE_T value,
                        out uint tile_heads, out VALUE_T tile_value) {
    read_thread_elements(start, valid, n);
    thread_elements_pair(heads, value);
    workgroup_pair_scan(heads, value, tile_heads, tile_value);
}

// Each subgroup's runs leave through a window of 4 entries per invocation of shared memory,
// coalesced: the subgroup's ends are consecutive runs, so a window of them is one stretch of
// the output (4 * WG_SIZE entries in all, a fraction of a tile).
#define OUT_WINDOW_PER_LANE 4u
shared KEY_T s_out_keys[OUT_WINDOW_PER_LANE * WG_SIZE];
shared VALUE_T s_out_values[OUT_WINDOW_PER_LANE * WG_SIZE];

// Writes the runs that end in this invocation's elements. `heads`/`value`: the pair of every
// element before this invocation's, the tiles before included (so `heads` >= 1 wherever an
// element continues a run). Subgroup-uniform control flow.
void write_runs(uint heads, VALUE_T value) {
    // Each end's result, and the run of this invocation's first end.
    VALUE_T end_values[ITEMS];
    uint first_end_run = 0xFFFFFFFFu;
    [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
        if (r < t_count) {
            if ((t_heads & (1u << r)) != 0u) {
                heads += 1u;
                value = t_values[r];
            } else {
                value = op_apply(value, t_values[r]);
            }
            end_values[r] = value;
            if ((t_ends & (1u << r)) != 0u && first_end_run == 0xFFFFFFFFu) {
                first_end_run = heads - 1u;
            }
        }
    }
    uint ends = uint(bitCount(t_ends));
    uint before = subgroupExclusiveAdd(ends);
    uint total = subgroup_total(before, ends);
    // The run of the subgroup's first end.
    uint base = subgroupMin(ends > 0u ? first_end_run - before : 0xFFFFFFFFu);
    // (A workgroup smaller than the subgroup has one partial subgroup.)
    uint window = OUT_WINDOW_PER_LANE * min(gl_SubgroupSize, WG_SIZE);
    uint slot0 = OUT_WINDOW_PER_LANE * gl_SubgroupID * gl_SubgroupSize;
    for (uint w = 0u; w < total; w += window) {
        uint k = before;
        [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
            if ((t_ends & (1u << r)) != 0u) {
                uint at = k - w;
                if (at < window) {
                    s_out_keys[slot0 + at] = t_keys[r];
                    s_out_values[slot0 + at] = end_values[r];
                }
                k += 1u;
            }
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        for (uint j = gl_SubgroupInvocationID; j < window; j += gl_SubgroupSize) {
            if (w + j < total) {
                uint run = base + w + j;
                KeyRef(pc.keys_out + uint64_t(run) * uint64_t(KEY_BITS / 8)).v[0] = s_out_keys[slot0 + j];
#if VALUE_WORDS == 2
                U64Ref(pc.values_out + uint64_t(run) * 8ul).v[0] = s_out_values[slot0 + j];
#else
                U32Ref(pc.values_out + uint64_t(run) * 4ul).v[0] = s_out_values[slot0 + j];
#endif
            }
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
    }
}

#endif  // RBK_SPINE

#endif
