#version 460
// Multisplit, tile path, step 1: the counts of every tile's buckets (TILE_LENGTH elements, see
// split_common.glsl) go into column `tile` of the bucket-major matrix (every entry of the
// tile's column is written, zeros included, so the matrix needs no clearing). An element whose
// bucket is >= m is not counted: the matrix's extra last entry (m * columns), written 0 here,
// becomes the total counted in the scan, and the offsets pass sets the status word when it
// falls short of the count (SPLIT_FLAG_TOTAL_STATUS). The pass also zeroes the status word and
// the scan's look-back state (pc.clear_words words after the status word's 16 bytes; each
// workgroup a slice), so no clear is recorded before it. Two forms, by the plan
// (TILE_VARIANT_COUNT_REGISTERS of the variant table in split_common.glsl):
//  - COUNT_REGISTERS (m <= 8, a lane's share of a tile under 256 elements): one subgroup
//    counts a whole tile, TILES_PER_GROUP tiles a workgroup, with no shared memory and no
//    barrier. Each lane loads its share in 16-byte vectors (the count needs no element order),
//    keeps its counts as 8-bit fields of up to two registers, and the subgroup sums them as
//    16-bit fields (two buckets a word). The tile's element order does not matter to a count.
//  - otherwise one workgroup a tile, one shared atomic add per element (faster than ballots
//    per id bit and a leader's add: docs/tuning/split.md#count-registers).
//
// Both forms read a whole tile (every tile but the last) without a check per element: items
// addressed from the lane's first, vectors from the tile's first
// (docs/tuning/split.md#count-whole-tiles).
//
// Tiles are counted in reverse (tile columns - 1 - g for the g-th counted): GPUs start
// workgroups in id order, so the tiles this pass reads last are the first ones the scatter pass
// (in tile order) reads again, while some are still in L2 (docs/tuning/split.md#count-reverse).
#define SPLIT_TILES 1
#define SPLIT_TILE_KERNEL 1 // loops over id bits unrolled to the plan's count (bucket_fn.glsl)
#include "split_common.glsl"

// The register form (variant table: split_common.glsl).
const bool COUNT_REGISTERS = (TILE_VARIANT & TILE_VARIANT_COUNT_REGISTERS) != 0u;
// Tiles per workgroup in the register form: one per lane group of the smallest subgroup size
// (the plan dispatches columns / TILES_PER_GROUP workgroups).
const uint TILES_PER_GROUP = WG_SIZE / MIN_SUBGROUP_SIZE;
// Registers of 8-bit counters in the register form: four buckets each (m <= 8).
const uint COUNT_WORDS = UNROLLED_ID_BITS <= 2u ? 1u : 2u;
// 16-byte vectors a lane loads before counting any of their elements (the register form
// takes specialization constant 1 for it, which the shared form takes for its counters).
#define LOAD_VECTORS VECS_PER_THREAD

// The counted stream: the bucket ids themselves for IDS, else the keys.
#if BUCKET_FN == 2
#define STREAM_BITS 32
#else
#define STREAM_BITS KEY_BITS
#endif
// Elements per 16-byte vector.
#define VECTOR_ELEMENTS (128u / STREAM_BITS)

// The shared form's m counters (the plan gives that form COUNTER_WORDS >= m).
shared uint s_counts[COUNTER_WORDS];

uint64_t stream_base() {
#if BUCKET_FN == 2
    return pc.aux;
#else
    return pc.keys_in;
#endif
}

// Element `e` of the stream as a key (IDS: the id in the low bits).
KEY_T load_element(uint64_t base, uint64_t e) {
#if BUCKET_FN == 2
    return KEY_T(U32Ref(base + e * 4ul).v[0]);
#else
    return KeyRef(base + e * uint64_t(KEY_BITS / 8)).v[0];
#endif
}

// The bucket of a counted element.
uint counted_bucket(KEY_T x) {
#if BUCKET_FN == 2
    return uint(x);
#else
    return bucket_of(x, 0ul); // (the index is read by IDS only)
#endif
}

// Adds element x to the 8-bit counter of its bucket (counts[b / 4], field b % 4); an id >= m
// is not counted.
void count_element(KEY_T x, uint m, inout uint counts[2]) {
    uint b = counted_bucket(x);
    if (b < m) {
        uint one = 1u << ((b & 3u) * 8u);
        [[unroll]] for (uint w = 0u; w < COUNT_WORDS; ++w) {
            counts[w] += (b >> 2) == w ? one : 0u;
        }
    }
}

// The register form: this subgroup counts tile `tile` and writes its column.
void count_tile_in_registers(uint tile, uint n, uint m) {
    uint lanes = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint64_t base = stream_base();
    bool aligned = (base & 15ul) == 0ul;
    uint64_t tile_first = uint64_t(tile) * uint64_t(TILE_LENGTH);
    uint tile_vectors = TILE_LENGTH / VECTOR_ELEMENTS;
    uint counts[2] = uint[2](0u, 0u);
    if (aligned && tile_first + uint64_t(TILE_LENGTH) <= uint64_t(n)) {
        // A whole tile from a 16-byte aligned base: no check per element.
        [[dont_unroll]] for (uint round_first = 0u; round_first < tile_vectors; round_first += LOAD_VECTORS * lanes) {
            uvec4 w[LOAD_VECTORS];
            [[unroll]] for (uint v = 0u; v < LOAD_VECTORS; ++v) {
                uint vector = round_first + v * lanes + lane;
                uint64_t e0 = tile_first + uint64_t(min(vector, tile_vectors - 1u)) * uint64_t(VECTOR_ELEMENTS);
                w[v] = U32x4Ref(base + e0 * uint64_t(STREAM_BITS / 8u)).v[0];
            }
            [[unroll]] for (uint v = 0u; v < LOAD_VECTORS; ++v) {
                if (round_first + v * lanes + lane < tile_vectors) {
#if STREAM_BITS == 64
                    count_element(KEY_T(packUint2x32(w[v].xy)), m, counts);
                    count_element(KEY_T(packUint2x32(w[v].zw)), m, counts);
#else
                    [[unroll]] for (uint c = 0u; c < 4u; ++c) {
                        count_element(KEY_T(w[v][c]), m, counts);
                    }
#endif
                }
            }
        }
    } else {
        [[dont_unroll]] for (uint round_first = 0u; round_first < tile_vectors; round_first += LOAD_VECTORS * lanes) {
            KEY_T x[LOAD_VECTORS * VECTOR_ELEMENTS];
            bool valid[LOAD_VECTORS * VECTOR_ELEMENTS];
            [[unroll]] for (uint v = 0u; v < LOAD_VECTORS; ++v) {
                uint vector = round_first + v * lanes + lane;
                uint64_t e0 = tile_first + uint64_t(vector) * uint64_t(VECTOR_ELEMENTS);
                bool in_tile = vector < tile_vectors;
                if (in_tile && aligned && e0 + uint64_t(VECTOR_ELEMENTS) <= uint64_t(n)) {
                    uvec4 w = U32x4Ref(base + e0 * uint64_t(STREAM_BITS / 8u)).v[0];
#if STREAM_BITS == 64
                    x[v * 2u] = packUint2x32(w.xy);
                    x[v * 2u + 1u] = packUint2x32(w.zw);
#else
                    [[unroll]] for (uint c = 0u; c < 4u; ++c) {
                        x[v * 4u + c] = KEY_T(w[c]);
                    }
#endif
                    [[unroll]] for (uint c = 0u; c < VECTOR_ELEMENTS; ++c) {
                        valid[v * VECTOR_ELEMENTS + c] = true;
                    }
                } else {
                    [[unroll]] for (uint c = 0u; c < VECTOR_ELEMENTS; ++c) {
                        uint64_t e = e0 + uint64_t(c);
                        bool ok = in_tile && e < uint64_t(n);
                        valid[v * VECTOR_ELEMENTS + c] = ok;
                        x[v * VECTOR_ELEMENTS + c] = ok ? load_element(base, e) : KEY_T(0);
                    }
                }
            }
            [[unroll]] for (uint i = 0u; i < LOAD_VECTORS * VECTOR_ELEMENTS; ++i) {
                if (valid[i]) {
                    count_element(x[i], m, counts);
                }
            }
        }
    }
    // Sums of the 8-bit fields as 16-bit fields: `even[w]` holds buckets 4w and 4w + 2, `odd[w]`
    // buckets 4w + 1 and 4w + 3 (a tile holds at most 65535 elements).
    uint even[2];
    uint odd[2];
    [[unroll]] for (uint w = 0u; w < COUNT_WORDS; ++w) {
        even[w] = 0u;
        odd[w] = 0u;
        if (w * 4u < m) {
            even[w] = subgroup_sum(counts[w] & 0x00FF00FFu);
            odd[w] = subgroup_sum((counts[w] >> 8) & 0x00FF00FFu);
        }
    }
    for (uint b = lane; b < m; b += lanes) {
        uint total = 0u;
        [[unroll]] for (uint w = 0u; w < COUNT_WORDS; ++w) {
            if ((b >> 2) == w) {
                total = (b & 1u) == 0u ? even[w] : odd[w];
            }
        }
        total = (total >> (((b >> 1) & 1u) * 16u)) & 0xFFFFu;
        U32Ref(matrix_addr(b, tile)).v[0] = total;
    }
}

// The shared form: this workgroup counts tile `tile` with one shared atomic add per element.
void count_tile_in_shared(uint tile, uint n, uint m) {
    uint lid = gl_LocalInvocationIndex;
    for (uint b = lid; b < m; b += WG_SIZE) {
        s_counts[b] = 0u;
    }
    barrier();
    KEY_T keys[BATCH];
    if (tile_items(tile, n) == TILE_LENGTH) {
        // A whole tile: items addressed from the lane's first, no check per element.
        uint64_t lane_index = uint64_t(tile) * uint64_t(TILE_LENGTH) + uint64_t(tile_lane_first());
        uint64_t lane_keys = pc.keys_in + lane_index * uint64_t(KEY_BITS / 8);
        [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
            keys[i] = KeyRef(lane_keys + uint64_t(i * gl_SubgroupSize) * uint64_t(KEY_BITS / 8)).v[0];
        }
        [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
            uint b = bucket_of(keys[i], lane_index + uint64_t(i * gl_SubgroupSize));
            if (b < m) { // (else not counted)
                atomicAdd(s_counts[b], 1u);
            }
        }
    } else {
        [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
            uint64_t index = tile_item_index(tile, i);
            keys[i] = index < uint64_t(n) ? KeyRef(pc.keys_in + index * uint64_t(KEY_BITS / 8)).v[0] : KEY_T(0);
        }
        [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
            uint64_t index = tile_item_index(tile, i);
            if (index < uint64_t(n)) {
                uint b = bucket_of(keys[i], index);
                if (b < m) { // (else not counted)
                    atomicAdd(s_counts[b], 1u);
                }
            }
        }
    }
    barrier();
    for (uint b = lid; b < m; b += WG_SIZE) {
        U32Ref(matrix_addr(b, tile)).v[0] = s_counts[b];
    }
}

// This workgroup's slice of the scan state to zero, the matrix's last entry and the status word.
void clear_scan_state(uint groups) {
    uint wg = linear_workgroup_id();
    uint per_group = (pc.clear_words + groups - 1u) / groups;
    uint begin = wg * per_group;
    uint end = min(begin + per_group, pc.clear_words);
    for (uint w = begin + gl_LocalInvocationIndex; w < end; w += WG_SIZE) {
        U32Ref(pc.scratch + SCAN_STATE_OFFSET + uint64_t(w) * 4ul).v[0] = 0u;
    }
    if (wg == 0u && gl_LocalInvocationIndex == 0u) {
        U32Ref(pc.matrix + uint64_t(pc.bucket_count) * uint64_t(pc.columns) * 4ul).v[0] = 0u;
        // The status word: the offsets and scatter passes (which run side by side) raise its
        // bits.
        U32Ref(pc.scratch).v[0] = 0u;
    }
}

void main() {
    vkalgo_params = pc.params;
    uint n = element_count();
    uint m = pc.bucket_count;
    clear_scan_state(COUNT_REGISTERS ? (pc.columns + TILES_PER_GROUP - 1u) / TILES_PER_GROUP : pc.columns);
    if (COUNT_REGISTERS) {
        uint first = linear_workgroup_id() * TILES_PER_GROUP;
        for (uint j = gl_SubgroupID; j < TILES_PER_GROUP; j += gl_NumSubgroups) {
            uint g = first + j;
            if (g >= pc.columns) {
                break; // subgroup-uniform
            }
            count_tile_in_registers(pc.columns - 1u - g, n, m);
        }
    } else {
        uint wg = linear_workgroup_id();
        if (wg >= pc.columns) {
            return; // workgroup-uniform
        }
        count_tile_in_shared(pc.columns - 1u - wg, n, m);
    }
}
