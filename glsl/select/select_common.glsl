// Select (stream compaction): what the passes share. A tile is WG_SIZE * ITEMS elements; each
// subgroup owns a contiguous stretch of it, ITEMS rows of its lanes, and in round r lane l holds
// element l of row r (every load coalesced; a row's kept elements are ranked by a ballot, the
// rows in order by their counts, the subgroups by one workgroup scan). An
// element is kept by the mode: a nonzero flag byte (FLAGGED), the caller's GLSL predicate
// `bool vkalgo_select(T key)` (IF: SELECT_GLSL, compiled at run time with KEY_TYPE_CODE naming
// T), or a key whose bits differ from its predecessor's (UNIQUE; element 0 is always kept).
// Kept elements keep their order: an element's place is the number kept before it.
//
// Permutations: KEY_BITS 32 or 64; VALUE_WORDS 0, 1 or 2 (none, u32 or u64 values).
// Specialization: SELECT_MODE (constant_id 5: SELECT_MODE_*), ITEMS (constant_id 1),
// SPIN_LIMIT (constant_id 2, the look-back's).
//
// 64-bit safety: counts and indices are u32 (the plan's maximum count is 2^32 - 1); every
// element is reached through a 64-bit byte address, and a tile is visited only when it starts
// below the count, so no index wraps.
#ifndef VKALGO_SELECT_COMMON_GLSL
#define VKALGO_SELECT_COMMON_GLSL

#if defined(SELECT_GLSL) && defined(KEY_TYPE_CODE) && KEY_TYPE_CODE == 5
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
#endif
#include "../common/vkalgo.glsl"
#include "../common/workgroup_scan.glsl"
// SELECT_MODE_* and the scratch layout (generated from src/select/shared_constants.rs).
#include "../generated/select.glsl"

#if KEY_BITS == 64
#define KEY_T uint64_t
#else
#define KEY_T uint
#endif
#if VALUE_WORDS == 2
#define VALUE_T uint64_t
#elif VALUE_WORDS == 1
#define VALUE_T uint
#endif

layout(constant_id = 5) const uint SELECT_MODE = 0;

// Must match src/select/plan.rs (SelectPush).
layout(push_constant) uniform SelectPush {
    uint64_t keys_in;      // KEY_T[count]
    uint64_t values_in;    // VALUE_T[count] (VALUE_WORDS > 0)
    uint64_t flags_addr;   // FLAGGED: one byte per element, 4-byte aligned, whole words readable
    uint64_t keys_out;     // KEY_T[kept]
    uint64_t values_out;   // VALUE_T[kept] (VALUE_WORDS > 0)
    uint64_t kept_addr;    // one u32 receiving the number kept
    uint64_t aux_addr;     // look-back: state; count and scatter passes: the tile counts
    uint64_t count_addr;   // indirect count (a u32); 0: direct
    uvec4 params;          // IF: vkalgo_params
    uint count;            // direct count
    uint max_count;        // clamp of an indirect count
} pc;

#if KEY_BITS == 64
layout(buffer_reference, std430, buffer_reference_align = 8) buffer SelectKeyRef { KEY_T v[]; };
#else
layout(buffer_reference, std430, buffer_reference_align = 4) buffer SelectKeyRef { KEY_T v[]; };
#endif
#if VALUE_WORDS == 2
layout(buffer_reference, std430, buffer_reference_align = 8) buffer SelectValueRef { VALUE_T v[]; };
#elif VALUE_WORDS == 1
layout(buffer_reference, std430, buffer_reference_align = 4) buffer SelectValueRef { VALUE_T v[]; };
#endif

#define ITEMS VECS_PER_THREAD
#define TILE (WG_SIZE * ITEMS)
#define KEY_BYTES uint64_t(KEY_BITS / 8)

// The caller's four parameters (set from pc.params by main).
uvec4 vkalgo_params;

#ifdef SELECT_GLSL
// The caller's predicate, on the key in its own type.
#include "vkalgo_select.glsl"
#endif

KEY_T load_key(uint i) {
    return SelectKeyRef(pc.keys_in + uint64_t(i) * KEY_BYTES).v[0];
}

// Flag byte `i`, read from its aligned word (no 8-bit storage needed).
uint load_flag(uint i) {
    uint64_t at = pc.flags_addr + uint64_t(i);
    uint word = U32Ref(at & ~3ul).v[0];
    return (word >> (uint(at & 3ul) * 8u)) & 0xFFu;
}

// Whether element `i`, whose key is `key`, is kept.
bool keep_element(uint i, KEY_T key) {
#ifdef SELECT_GLSL
#if KEY_TYPE_CODE == 0
    return vkalgo_select(uint(key));
#elif KEY_TYPE_CODE == 1
    return vkalgo_select(int(key));
#elif KEY_TYPE_CODE == 2
    return vkalgo_select(uintBitsToFloat(key));
#elif KEY_TYPE_CODE == 3
    return vkalgo_select(uint64_t(key));
#elif KEY_TYPE_CODE == 4
    return vkalgo_select(int64_t(key));
#else
    return vkalgo_select(uint64BitsToDouble(key));
#endif
#else
    if (SELECT_MODE == SELECT_MODE_FLAGGED) {
        return load_flag(i) != 0u;
    }
    return i == 0u || load_key(i - 1u) != key;  // UNIQUE: keep_bits takes the shuffled key instead
#endif
}

// Whether the rule reads the keys (FLAGGED reads only flags: its keys are loaded when written).
#ifdef SELECT_GLSL
const bool READS_KEYS = true;
#else
const bool READS_KEYS = SELECT_MODE != SELECT_MODE_FLAGGED;
#endif

// The keys (and values) of this invocation's elements of the tile being written (keep_bits
// with `hold`), loaded with the rule's input so that the scatter, after the look-back, does
// not wait for memory again.
KEY_T g_keys[ITEMS];
#if VALUE_WORDS > 0
VALUE_T g_values[ITEMS];
#endif

// The subgroup's lanes (fewer than gl_SubgroupSize in a workgroup smaller than a subgroup).
uint subgroup_lanes() {
    return min(gl_SubgroupSize, WG_SIZE);
}

// Tile position of this invocation's element of round r: row r of its subgroup's stretch.
uint round_offset(uint r) {
    uint lanes = subgroup_lanes();
    return (gl_SubgroupID * ITEMS + r) * lanes + gl_SubgroupInvocationID;
}

// The subgroup's keys of one row rotated up a lane, for UNIQUE: lane l receives lane l - 1's
// key, lane 0 the row's last key (the next row's lane 0 predecessor). Subgroup-uniform control
// flow.
KEY_T rotate_up(KEY_T key) {
    uint lane = gl_SubgroupInvocationID;
    uint below = lane == 0u ? subgroup_lanes() - 1u : lane - 1u;
#if KEY_BITS == 64
    return subgroup_shuffle_u64(key, below);
#else
    return subgroupShuffle(key, below);
#endif
}

// The elements of the tile at `start` this invocation keeps, bit r for round r; `valid`
// elements of the tile exist. `hold`: the tile this workgroup writes (not a predecessor's
// counted by the look-back's fallback): its keys and values stay in g_keys and g_values.
// Subgroup-uniform control flow (UNIQUE shuffles each round's keys).
uint keep_bits(uint start, uint valid, bool hold) {
    uint bits = 0u;
#if !defined(SELECT_GLSL)
    // UNIQUE: lane 0's predecessor, the key before the stretch (from memory) and then each
    // row's last (the rotation of the row before). Other lanes take the lane below's.
    KEY_T carried = KEY_T(0);
    if (SELECT_MODE == SELECT_MODE_UNIQUE && gl_SubgroupInvocationID == 0u) {
        uint first = round_offset(0u);
        if (first < valid && start + first > 0u) {
            carried = load_key(start + first - 1u);
        }
    }
#endif
    [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
        uint offset = round_offset(r);
        bool exists = offset < valid;
        KEY_T key = (READS_KEYS || hold) && exists ? load_key(start + offset) : KEY_T(0);
#if !defined(SELECT_GLSL)
        if (SELECT_MODE == SELECT_MODE_UNIQUE) {
            KEY_T rotated = rotate_up(key);
            KEY_T before = gl_SubgroupInvocationID == 0u ? carried : rotated;
            carried = rotated;
            if (exists && (start + offset == 0u || before != key)) {
                bits |= 1u << r;
            }
        }
#endif
        if (exists) {
            if (hold) {
                g_keys[r] = key;
#if VALUE_WORDS > 0
                g_values[r] = SelectValueRef(pc.values_in + uint64_t(start + offset) * uint64_t(VALUE_WORDS * 4)).v[0];
#endif
            }
#if defined(SELECT_GLSL)
            if (keep_element(start + offset, key)) {
                bits |= 1u << r;
            }
#else
            if (SELECT_MODE != SELECT_MODE_UNIQUE && keep_element(start + offset, key)) {
                bits |= 1u << r;
            }
#endif
        }
    }
    return bits;
}

// This invocation's count of kept elements of tile `tile` (the look-back's fallback, the count
// pass), `n` elements in all.
uint tile_thread_count(uint tile, uint n) {
    uint start = tile * TILE;
    return bitCount(keep_bits(start, n - start, false));
}

// The kept elements of the tile before this subgroup's (tile_ranks).
uint g_subgroup_prefix;

// Counts the kept elements of the tile (bits from keep_bits) and of the subgroups before this
// one (g_subgroup_prefix). Returns the tile's total. Workgroup-uniform control flow.
uint tile_ranks(uint bits) {
    uint kept = 0u;
    [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
        kept += subgroupBallotBitCount(subgroupBallot((bits & (1u << r)) != 0u));
    }
    uint total;
    g_subgroup_prefix = workgroup_exclusive_scan_subgroup_values(kept, total);
    return total;
}

// Writes the kept elements of the held tile (bits, g_keys, g_values: keep_bits with `hold`;
// tile_ranks) from output place `base`: a row's kept elements after the rows before, in lane
// order.
void scatter_tile(uint bits, uint base) {
    uint row_base = base + g_subgroup_prefix;
    [[unroll]] for (uint r = 0u; r < ITEMS; ++r) {
        uvec4 ballot = subgroupBallot((bits & (1u << r)) != 0u);
        if ((bits & (1u << r)) != 0u) {
            uint to = row_base + subgroupBallotExclusiveBitCount(ballot);
            SelectKeyRef(pc.keys_out + uint64_t(to) * KEY_BYTES).v[0] = g_keys[r];
#if VALUE_WORDS > 0
            SelectValueRef(pc.values_out + uint64_t(to) * uint64_t(VALUE_WORDS * 4)).v[0] = g_values[r];
#endif
        }
        row_base += subgroupBallotBitCount(ballot);
    }
}

uint select_tile_count(uint n) {
    return n / TILE + (n % TILE != 0u ? 1u : 0u);  // no wrap for n near 2^32
}

// Writes the number kept (invocation 0).
void write_kept(uint kept) {
    if (gl_LocalInvocationIndex == 0u) {
        U32Ref(pc.kept_addr).v[0] = kept;
    }
}

#endif
