#version 460
// Small-N path by merging: ONE workgroup sorts up to TILE_KEYS (= WG_SIZE x KEYS_PER_THREAD)
// elements in a single dispatch, on the key bits [begin_bit, end_bit) of the ordered keys,
// stably (equal keys keep their input order), as the radix passes would: the block merge sort
// of common/block_merge_sort.glsl (as the merge sort's first step, glsl/merge/blocksort.comp),
// whose work does not depend on the key width, so 8-byte keys cost no more than 4-byte ones.
//
// Elements past the count take the largest compare key; they start after every real element
// and the sort is stable, so they stay after the real elements with the largest key. Values
// stay where they were staged and are written out by each key's source position.
//
// The result goes where the radix passes would have left it (SortPlan::result_location): the
// caller's buffers when pass_count is even, the alternates when odd.
#define SORT_COUNTING_ONLY
#include "sort_common.glsl"

#if KEY_BITS == 64
#define CKEY_T uint64_t
#else
#define CKEY_T uint
#endif

shared KEY_T s_keys[TILE_KEYS];
#if VALUE_WORDS > 0
shared uint s_src[TILE_KEYS];
shared VALUE_T s_values[TILE_KEYS];
#endif

CKEY_T g_ckey_mask;

// The bits sorted on, shifted down.
CKEY_T compare_key(KEY_T ordered) {
    return CKEY_T(ordered >> pc.begin_bit) & g_ckey_mask;
}

#define BMS_KEY_T KEY_T
#define BMS_ITEMS KEYS_PER_THREAD
#define BMS_TILE TILE_KEYS
#define BMS_SOURCES (VALUE_WORDS > 0)
bool bms_after(KEY_T a, KEY_T b) {
    return compare_key(a) > compare_key(b);
}
#include "../common/block_merge_sort.glsl"

void main() {
    uint n = element_count();
    if (n == 0u) {
        return;
    }
    uint width = pc.end_bit - pc.begin_bit;
    g_ckey_mask = width >= KEY_BITS ? ~CKEY_T(0) : (CKEY_T(1) << width) - CKEY_T(1);
    uint lid = gl_LocalInvocationIndex;

    // Striped load (coalesced) into shared memory, keys in ordered form; past the count the
    // largest key.
    KeyRef key_in = KeyRef(pc.keys_in + uint64_t(lid) * uint64_t(KEY_BYTES));
#if VALUE_WORDS > 0
    ValueRef value_in = ValueRef(pc.values_in + uint64_t(lid) * uint64_t(VALUE_BYTES));
#endif
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint p = j * WG_SIZE + lid;
        s_keys[p] = p < n ? ordered_bits(key_in.v[j * WG_SIZE]) : ~KEY_T(0);
#if VALUE_WORDS > 0
        s_values[p] = p < n ? value_in.v[j * WG_SIZE] : VALUE_T(0);
#endif
    }
    barrier();
    block_merge_sort();

    // Striped store (coalesced) of the first n elements, keys in the caller's form.
    bool in_place = (pc.pass_count & 1u) == 0u;
    KeyRef key_out = KeyRef((in_place ? pc.keys_in : pc.keys_out) + uint64_t(lid) * uint64_t(KEY_BYTES));
#if VALUE_WORDS > 0
    ValueRef value_out = ValueRef((in_place ? pc.values_in : pc.values_out) + uint64_t(lid) * uint64_t(VALUE_BYTES));
#endif
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint p = j * WG_SIZE + lid;
        if (p < n) {
            key_out.v[j * WG_SIZE] = raw_bits(s_keys[p]);
#if VALUE_WORDS > 0
            value_out.v[j * WG_SIZE] = s_values[s_src[p]];
#endif
        }
    }
}
