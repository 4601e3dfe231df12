// Multisplit: declarations, key forms, bucket functions and the subgroup-level ranking shared by
// every split pass.
//
// Method (Ashkiani, Davidson, Meyer & Owens, "GPU Multisplit", PPoPP 2016): the input is cut into
// COLUMNS, contiguous runs of column_steps * G elements (G = MIN_SUBGROUP_SIZE lanes: a "lane
// group"; a subgroup of S lanes holds S / G lane groups, so the layout does not depend on the
// subgroup size the driver picks). Each lane group walks its column G elements at a time. In a
// step, the lanes holding the same bucket find each other with one ballot per bit of the bucket
// id (the warp-level multisplit's match), so each knows how many peers of its bucket come before
// it in input order (stable) and how many there are.
//  1. histogram.comp: every column counts its buckets into the bucket-major matrix
//     counts[bucket * columns + column].
//  2. One exclusive scan over the whole matrix (the scan module): entry (b, c) becomes the output
//     index of the first element of bucket b in column c.
//  3. offsets.comp: offsets[b] = entry (b, 0), offsets[m] = count.
//  4. scatter.comp: every column walks its elements again, recomputes buckets and ranks, and
//     writes each element to its place in the run of entry (b, c) (the scan is out of place:
//     the count matrix, decremented as the run fills, bounds every write to the run).
// No workgroup ever waits on another.
//
// Permutation defines: KEY_BITS (32 or 64), VALUE_WORDS (0 keys only, 1 u32 values, 2 u64
// values), BUCKET_FN (0 BITS, 1 SPLITTERS, 2 IDS, 3 GLSL: the includer supplies
// `uint vkalgo_bucket(T key)` in "vkalgo_bucket.glsl" and KEY_TYPE_CODE 0..5 names T).
// The key kind (unsigned, signed, float) is specialization constant 6 (as in the sort).
#ifndef VKALGO_SPLIT_COMMON_GLSL
#define VKALGO_SPLIT_COMMON_GLSL

#include "../common/vkalgo.glsl"
// The constants shared with src/split/ (generated from src/split/shared_constants.rs).
#include "../generated/bucket_fn.glsl"
#include "../generated/split.glsl"
#extension GL_KHR_shader_subgroup_vote : require
#if defined(KEY_TYPE_CODE) && KEY_TYPE_CODE == 5
// GLSL bucket functions of double keys take a double.
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
#endif

#if !defined(KEY_BITS) || !defined(VALUE_WORDS) || !defined(BUCKET_FN)
#error "KEY_BITS, VALUE_WORDS and BUCKET_FN must be defined by the permutation table"
#endif

#if KEY_BITS == 64
#define KEY_T uint64_t
#define KEY_SIGNED_T int64_t
layout(buffer_reference, std430, buffer_reference_align = 8) buffer KeyRef { uint64_t v[]; };
#else
#define KEY_T uint
#define KEY_SIGNED_T int
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyRef { uint v[]; };
#endif

#if VALUE_WORDS == 2
#define VALUE_T uint64_t
layout(buffer_reference, std430, buffer_reference_align = 8) buffer ValueRef { uint64_t v[]; };
#elif VALUE_WORDS == 1
#define VALUE_T uint
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ValueRef { uint v[]; };
#endif

// Must match src/split/mod.rs (SplitPush).
layout(push_constant) uniform SplitPush {
    uint64_t keys_in;      // input keys
    uint64_t keys_out;     // output keys (bucket-major)
    uint64_t values_in;    // input values (0 without values)
    uint64_t values_out;   // output values
    uint64_t scratch;      // u32 status word at +0
    uint64_t count_addr;   // 0: use `count`; else the address of a u32 count
    uint64_t aux;          // SPLITTERS: the splitter index (splitter_index.comp); IDS: one u32 per element; else 0
    uint64_t offsets;      // u32[m + 1] bucket offsets
    uint64_t matrix;       // the count matrix (u32[m * columns], + 1 on the tile paths)
    uint count;            // direct element count
    uint max_count;        // the plan's maximum (clamps an indirect count)
    uint bucket_count;     // m
    uint bit_offset;       // BITS: first ordered key bit of the bucket id
    uint columns;          // columns of the count matrix
    uint column_steps;     // steps of G elements per column
    uint id_bits;          // ceil(log2(m)): bits of a bucket id
    uint flags;            // SPLIT_FLAG_*
    uint clear_words;      // tile count: words of scan scratch (after the status word) it zeroes
    uint counts_gap;       // column scatter: the count matrix lies 16 * counts_gap bytes before `matrix`
    uvec4 params;          // GLSL: vkalgo_params
} pc;

// The status word's bits (generated/bucket_fn.glsl): STATUS_BAD_BUCKET, an element had a
// bucket >= m; STATUS_INCONSISTENT, the bucket function answered differently in the counting
// pass and in the pass that places the elements: an element would have been written outside
// the place counted for it (every write position is bounded by its bucket's counted run, which
// ends at or before the count, so no write leaves the output ranges; such elements are not
// written).
// SPLIT_FLAG_TOTAL_STATUS (the tile paths): the count pass leaves the status word alone and
// appends a zero entry to the matrix, so the scanned matrix ends with the total counted
// (elements with a bucket >= m are not counted); the offsets pass writes the status word from
// it (see tile_split_bad).
// SCAN_STATE_OFFSET: byte offset of the scan's look-back state in the scratch, after the status
// word's slot.

layout(constant_id = 6) const uint KEY_ORDER = 0;
const uint KEY_KIND = KEY_ORDER & 3u;
// Bit 3 of KEY_ORDER: SPLITTERS search the splitter index (src/split/mod.rs
// SPLIT_KEY_ORDER_INDEXED), so the driver drops the other search from the pipeline.
const bool SPLITTERS_INDEXED = (KEY_ORDER & SPLIT_KEY_ORDER_INDEXED) != 0u;

// Words of the tile shaders' shared pool (VECS_PER_THREAD, constant_id 1, carries it for the
// split); the column shaders keep their counters in the matrix itself (any m).
#define COUNTER_WORDS VECS_PER_THREAD

#define G MIN_SUBGROUP_SIZE
#if KEY_BITS == 64
const uint64_t KEY_SIGN = 0x8000000000000000ul;
#else
const uint KEY_SIGN = 0x80000000u;
#endif

// The key's order-preserving bits (as the sort's: unsigned as is, signed with the sign bit
// flipped, floats in IEEE-754 totalOrder).
KEY_T ordered_bits(KEY_T k) {
    if (KEY_KIND == 1u) {
        return k ^ KEY_SIGN;
    } else if (KEY_KIND == 2u) {
        return k ^ (KEY_T(KEY_SIGNED_T(k) >> (KEY_BITS - 1)) | KEY_SIGN);
    }
    return k;
}

uint element_count() {
    return load_count(pc.count_addr, pc.count, pc.max_count);
}

// ---- the tile kernels' variant ----
// TILE_VARIANT is specialization constant 2 (declared as SPIN_LIMIT in common/vkalgo.glsl; no
// split pass spins), fixed per pipeline so the driver drops the other code paths. Its bits, set
// by the plan (src/split/tiles.rs, the same names and values; the choices in
// src/split/tuning.rs):
//
//   bits    name                             meaning
//   0       TILE_VARIANT_STAGED              the scatter stages the whole tile (TILE_STAGED)
//   1       TILE_VARIANT_REGISTERS           lane b keeps bucket b's running count, m <= the
//                                            smallest subgroup (TILE_REGISTERS)
//   2       TILE_VARIANT_SUBGROUP_STAGED     each subgroup stages its own run, with
//                                            TILE_REGISTERS (TILE_SUBGROUP_STAGED)
//   3       TILE_VARIANT_COUNT_REGISTERS     the count: one subgroup a tile, 8-bit counters in
//                                            registers (tile_count.comp COUNT_REGISTERS)
//   8..13   TILE_VARIANT_ID_BITS_SHIFT/MASK  bucket-id bits ceil(log2 m) the tile kernels'
//                                            loops unroll to (bucket_fn.glsl UNROLLED_ID_BITS)
//   16..19  TILE_VARIANT_TILES_SHIFT/MASK    log2 of the scatter's tiles a workgroup
//                                            (TILES_PER_GROUP)
//   20..21  TILE_VARIANT_FIRST_ORDER_SHIFT/  how a scatter workgroup with one tile orders its
//           MASK                             start (FIRST_TILE_ORDER)
//   22      TILE_VARIANT_SUBGROUP_POSITIONS  each subgroup finds its buckets' starts itself, with
//                                            TILE_REGISTERS (SUBGROUP_POSITIONS, STAGED_POSITIONS)
//   23      TILE_VARIANT_SHUFFLES_FIRST      direct with SUBGROUP_POSITIONS: every position
//                                            before the first store (SHUFFLES_FIRST)
//   24      TILE_VARIANT_MATCH_TABLE         rank through a table of lane masks, not ballots
//                                            (MATCH_TABLE)
//
// The bits 0-2 and 16-24 only the tile scatter reads; the other passes' pipelines leave them
// out (src/split/tiles.rs TILE_VARIANT_SCATTER_ONLY).
#define TILE_VARIANT SPIN_LIMIT
// (The TILE_VARIANT_* values: generated/split.glsl.)

#include "../common/bucket_fn.glsl"

// ---- lane groups and columns ----

// This lane's group in the subgroup and its lane in the group.
uint group_in_subgroup() { return gl_SubgroupInvocationID / G; }
uint lane_in_group() { return gl_SubgroupInvocationID % G; }

// The column of this lane's group: groups are numbered through the dispatch in subgroup order.
uint column_of_lane() {
    return (linear_workgroup_id() * WG_SIZE + gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID) / G;
}

// Ballot bits of this lane's group.
uvec4 group_mask() {
    uint first = group_in_subgroup() * G;
    uvec4 mask = uvec4(0u);
    [[unroll]] for (uint w = 0u; w < 4u; ++w) {
        uint lo = max(first, w * 32u);
        uint hi = min(first + G, (w + 1u) * 32u);
        if (lo < hi) {
            uint n = hi - lo;
            uint bits = n == 32u ? 0xFFFFFFFFu : ((1u << n) - 1u);
            mask[w] = bits << (lo - w * 32u);
        }
    }
    return mask;
}

// Subgroup masks with the words past the largest subgroup size zero: on devices whose
// subgroups have at most 32 lanes (MAX_SUBGROUP_SIZE is a specialization constant) the driver
// folds every operation on the upper three words away.
uvec4 fold_mask(uvec4 v) {
    return MAX_SUBGROUP_SIZE <= 32u ? uvec4(v.x, 0u, 0u, 0u) : v;
}

// subgroupBallot, folded.
uvec4 ballot(bool p) {
    return fold_mask(subgroupBallot(p));
}

// The lanes of this lane's group that hold bucket `b` and are `ok` (in `okmask`, the ballot of
// ok within the group). One ballot per id bit. Subgroup-uniform control flow.
uvec4 peers_of(uint b, uvec4 okmask) {
    uvec4 peers = okmask;
    ID_LOOP for (uint bit = 0u; bit < ID_LOOP_END; ++bit) {
        if (ID_GUARD(bit)) {
            bool set = ((b >> bit) & 1u) != 0u;
            uvec4 vote = ballot(set);
            peers &= set ? vote : ~vote;
        }
    }
    return peers;
}

// peers_of, and the number of ok lanes (in `okmask`) holding bucket `t` in `t_count` (0 when
// t >= m), from the same ballots: with t a lane index, lane t learns its bucket's count.
uvec4 peers_and_count_of(uint b, uvec4 okmask, uint t, out uint t_count) {
    uvec4 peers = okmask;
    uvec4 own = okmask;
    ID_LOOP for (uint bit = 0u; bit < ID_LOOP_END; ++bit) {
        if (ID_GUARD(bit)) {
            bool set = ((b >> bit) & 1u) != 0u;
            uvec4 vote = ballot(set);
            peers &= set ? vote : ~vote;
            own &= ((t >> bit) & 1u) != 0u ? vote : ~vote;
        }
    }
    t_count = t < pc.bucket_count ? popcount4(own) : 0u;
    return peers;
}

// Byte address of matrix entry (bucket, column).
uint64_t matrix_addr(uint bucket, uint column) {
    return pc.matrix + (uint64_t(bucket) * uint64_t(pc.columns) + uint64_t(column)) * 4ul;
}

// Raises STATUS_INCONSISTENT in the status word (rare: only for an impure bucket function).
void report_inconsistent() {
    atomicOr(U32AtomicRef(pc.scratch).v[0], STATUS_INCONSISTENT);
}

// With SPLIT_FLAG_TOTAL_STATUS: whether some bucket id was >= m, read from the scanned matrix's
// last entry (entry m * columns, the total counted), which then falls short of the count.
bool tile_split_bad() {
    uint64_t last = uint64_t(pc.bucket_count) * uint64_t(pc.columns);
    return U32Ref(pc.matrix + last * 4ul).v[0] != element_count();
}

// Index of this lane's group in the workgroup.
uint group_in_workgroup() {
    return (gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID) / G;
}


// Steps whose elements a lane loads before ranking any of them (independent loads in flight;
// the plan makes column_steps a multiple of it): specialization constant 5 (the sort's stage
// split). GPUs take 8; CPU drivers 1 (their compiler's time grows with the unrolled batch).
layout(constant_id = 5) const uint BATCH = 1;

uint64_t column_length() {
    return uint64_t(pc.column_steps) * uint64_t(G);
}

// ---- tiles (tile_count.comp, tile_scatter.comp) ----
// A tile is TILE_LENGTH = WG_SIZE * BATCH consecutive elements, one workgroup's. Subgroup s
// (of S = gl_SubgroupSize lanes) holds the run [s * S * BATCH, (s + 1) * S * BATCH) of it, and
// its item i in lane l is element s * S * BATCH + i * S + l: input order within a subgroup is
// (item, lane), so a ballot per item ranks stably. pc.columns is the number of tiles.
#define TILE_LENGTH (WG_SIZE * BATCH)

// Index of item `item` of this lane in tile `tile`.
uint64_t tile_item_index(uint tile, uint item) {
    return uint64_t(tile) * uint64_t(TILE_LENGTH)
         + uint64_t((gl_SubgroupID * BATCH + item) * gl_SubgroupSize + gl_SubgroupInvocationID);
}

// Place of this lane's item 0 in its tile; item i is i * gl_SubgroupSize further. Kernels
// address item i as a constant offset from the lane's first element, which the loads take as
// an immediate instead of 64-bit arithmetic per item (tile_scatter.comp, keys alone).
uint tile_lane_first() {
    return gl_SubgroupID * BATCH * gl_SubgroupSize + gl_SubgroupInvocationID;
}

// Items of tile `tile` below the count n (0 for a tile past an indirect count).
uint tile_items(uint tile, uint n) {
    uint64_t first = uint64_t(tile) * uint64_t(TILE_LENGTH);
    return first >= uint64_t(n) ? 0u : uint(min(uint64_t(TILE_LENGTH), uint64_t(n) - first));
}

#endif
