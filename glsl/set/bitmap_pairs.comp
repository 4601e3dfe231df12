#version 460
// The bitmap pairs of an operation of two sets (scratch list S_BITMAPS, from classify): chunks
// where both operands are 8 KiB bitmaps, combined word by word straight from global memory.
// chunk_update.comp would expand them into three 8 KiB bitmaps of shared memory (one workgroup
// per multiprocessor); here only an array result needs shared memory (its 8 KiB of u16
// values), so several workgroups share a multiprocessor and the dense sets' pairs stream.
// One workgroup per pair, grid-stride over the list. Stage (aux) 0 adds the result's
// cardinality and the blocks it needs to the scratch counters (skipped on the one-pass path);
// stage 1 (after the check pass found enough free blocks) gives the destination chunk's old
// blocks back, takes new ones and writes the result: a bitmap, an array, or nothing (empty
// or full).
#define WORKGROUP_SCAN_COMPACT_SLOTS
#include "set_common.glsl"
#include "../common/workgroup_scan.glsl"

// The array result: values two per word.
shared uint so[ARRAY_MAX / 2u];

#include "array_store.glsl"

uint result_word(uvec2 ea, uvec2 eb, uint w) {
    uint a = U32Ref(bitmap_word_addr(pc.meta_a, ea.y, w)).v[0];
    uint b = U32Ref(bitmap_word_addr(pc.meta_b, eb.y, w)).v[0];
    return apply_op(pc.op, a, b);
}

void main() {
    uint t = gl_LocalInvocationIndex;
    uint n = U32Ref(pc.scratch).v[S_BITMAP_COUNT];
    bool write = pc.aux == 1u;
    if (write ? U32Ref(pc.scratch).v[S_OK] == 0u : one_pass(pc.scratch, pc.meta_d)) {
        return;  // nothing to write, or nothing to count (the one-pass path)
    }
    PassSums sums = pass_sums_new();  // invocation 0's
    ArrayPool dest = write_pool(write);
    for (uint item = linear_workgroup_id(); item < n; item += pc.grid) {
        uint c = U32Ref(pc.scratch).v[S_BITMAPS_ENTRY(item)];
        uvec2 ea = dir_entry(pc.meta_a, c);
        uvec2 eb = dir_entry(pc.meta_b, c);
        uvec2 old_d = write ? dir_entry(pc.meta_d, c) : uvec2(0u);
        // Invocation t owns words [t * per, (t + 1) * per): its values come in order, so an
        // exclusive scan of the counts gives their places in an array result.
        uint per = BITMAP_WORDS / WG_SIZE;
        uint mine = 0u;
        for (uint i = 0u; i < per; i++) {
            mine += bitCount(result_word(ea, eb, t * per + i));
        }
        barrier();  // the previous pair's shared data is read no more
        uint total;
        uint first = workgroup_exclusive_scan(mine, total);
        uint card = total;
        uvec2 need = chunk_blocks(card);
        if (!write) {
            if (t == 0u) {
                pass_sums_count(sums, card);
            }
            continue;
        }
        // The operands are read again below; a block given back now is not taken again by
        // this operation (the passes take only the ids that were free before it).
        if (t == 0u) {
            free_chunk_begin(old_d);
        }
        barrier();
        free_chunk_ids(old_d, dest);
        uint id0 = 0u;
        if (need.x != 0u) {
            if (t == 0u) {
                s_pos = ring_id(POOL_BITMAP, take_blocks(POOL_BITMAP, 1u));
            }
            barrier();
            id0 = s_pos;
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                U32Ref(bitmap_word_addr(pc.meta_d, id0, w)).v[0] = result_word(ea, eb, w);
            }
        } else if (need.y != 0u) {
            uint k = need.y;
            take_array_blocks(k);
            for (uint w = t; w < (card + 1u) / 2u; w += WG_SIZE) {
                so[w] = 0u;
            }
            barrier();
            uint p = first;
            for (uint i = 0u; i < per; i++) {
                uint w = t * per + i;
                uint bits = result_word(ea, eb, w);
                while (bits != 0u) {
                    uint v = w * 32u + uint(findLSB(bits));
                    bits &= bits - 1u;
                    atomicOr(so[p >> 1], v << ((p & 1u) * 16u));
                    p++;
                }
            }
            barrier();
            store_array_result(card, k);
            id0 = s_ids[0];
        }
        if (t == 0u) {
            set_dir_entry(pc.meta_d, c, uvec2(card, id0));
            pass_sums_written(sums, old_d.x, card);
        }
    }
    if (t == 0u) {
        pass_sums_flush(sums);
    }
}
