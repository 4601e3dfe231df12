// Writing an array result (u16 pairs in the includer's shared array `so`) to the destination's
// array blocks (their ids in s_ids, set_common.glsl reuse_blocks_id): store_array_result.
// Included by array_pair.glsl and bitmap_pairs.comp.
#ifndef VKALGO_SET_ARRAY_STORE_GLSL
#define VKALGO_SET_ARRAY_STORE_GLSL

// Ids of the array blocks a result takes (at most 43 for 4096 values).
shared uint s_ids[ARRAY_BLOCK_WORDS];
shared uint s_pos;

// Writes the array result of card values in so to the k blocks in s_ids: block 0's header
// (the ids of blocks 1..k-1), then the value words.
void store_array_result(uint card, uint k) {
    uint t = gl_LocalInvocationIndex;
    uint id0 = s_ids[0];
    uint h = k - 1u;
    for (uint i = t + 1u; i < k; i += WG_SIZE) {
        U32Ref(array_block_addr(pc.meta_d, id0)).v[i - 1u] = s_ids[i];
    }
    uint words = (card + 1u) / 2u;
    for (uint j = t; j < words; j += WG_SIZE) {
        uint w = h + j;
        uint id = s_ids[w / ARRAY_BLOCK_WORDS];
        U32Ref(array_block_addr(pc.meta_d, id)).v[w % ARRAY_BLOCK_WORDS] = so[j];
    }
}

#endif
