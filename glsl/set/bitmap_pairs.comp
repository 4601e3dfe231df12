#version 460
// The bitmap pairs of an operation of two sets (scratch list S_BITMAPS, from classify): chunks
// where both operands are 8 KiB bitmaps, combined straight from global memory. chunk_update.comp
// would expand them into three 8 KiB bitmaps of shared memory (one workgroup per
// multiprocessor); here only an array result needs shared memory (its 8 KiB of u16 values), so
// several workgroups share a multiprocessor and the dense sets' pairs stream.
//
// A pair's two bitmaps are read once, in 16-byte vectors striped over the workgroup (vector
// t + i * WG_SIZE to invocation t: every round of loads is coalesced), and combined in
// registers; a bitmap result is stored from there. Only an array result (at most 4096 values)
// reads the words again, in the order its values take.
//
// One workgroup per pair, grid-stride over the list (src/set/tuning.rs BitmapPairsGrid); the next
// pair's list entry and directory entries are loaded while a pair is worked on. Stage (aux) 0
// adds the result's cardinality and the blocks it needs to the scratch counters (skipped on
// the one-pass path); stage 1 (after the check pass found enough free blocks) takes the
// result's blocks, writes the result (a bitmap, an array, or nothing: empty or full) and gives
// the destination chunk's old blocks back: dense operations stream near the copy bandwidth
// (docs/tuning/set.md#dense-bitmaps). The counting stages load a pair's vectors while the pair
// before is reduced (count_pairs; docs/tuning/set.md#bitmap-pairs-count-ahead).
#define WORKGROUP_SCAN_COMPACT_SLOTS
#include "set_common.glsl"
#include "../common/workgroup_scan.glsl"

// The array result: values two per word.
shared uint so[ARRAY_MAX / 2u];

#include "array_store.glsl"

// A bitmap's 16-byte vectors, and how many each invocation holds.
#define BITMAP_VECS (BITMAP_WORDS / VEC_WORDS)
const uint LANE_VECS = BITMAP_VECS / WG_SIZE;

// The bitmap pools of sets a, b and the destination, read once.
uint64_t g_bm_a;
uint64_t g_bm_b;
uint64_t g_bm_d;

uvec4 bitmap_vector(uint64_t pool, uint id, uint q) {
    return U32x4Ref(bitmap_block(pool, id)).v[q];
}

// Word w of the pair's result, read again (array results).
uint result_word(uvec2 ea, uvec2 eb, uint w) {
    uint a = U32Ref(bitmap_block(g_bm_a, ea.y)).v[w];
    uint b = U32Ref(bitmap_block(g_bm_b, eb.y)).v[w];
    return apply_op(pc.op, a, b);
}

// Writes the array result of `card` values (at most ARRAY_MAX) into the k array blocks whose
// ids are in s_ids: invocation t places the values of words [t * per, (t + 1) * per), which
// come in order, from the exclusive scan of their counts on.
void write_array_result(uvec2 ea, uvec2 eb, uint card, uint k) {
    uint t = gl_LocalInvocationIndex;
    uint per = BITMAP_WORDS / WG_SIZE;
    uint mine = 0u;
    for (uint i = 0u; i < per; i++) {
        mine += bitCount(result_word(ea, eb, t * per + i));
    }
    for (uint w = t; w < (card + 1u) / 2u; w += WG_SIZE) {
        so[w] = 0u;
    }
    uint total;
    uint p = workgroup_exclusive_scan(mine, total);  // its barriers order the clears
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
}

// A listed pair's chunk and its directory entries (old_d only when writing).
struct BitmapPair {
    uint c;
    uvec2 ea;
    uvec2 eb;
    uvec2 old_d;
};

BitmapPair bitmap_pair(uint c, bool write) {
    BitmapPair p;
    p.c = c;
    p.ea = dir_entry(pc.meta_a, c);
    p.eb = dir_entry(pc.meta_b, c);
    p.old_d = write ? dir_entry(pc.meta_d, c) : uvec2(0u);
    return p;
}

// The chunk of list item `item`, or 0 past the list's end (never read then).
uint listed_chunk(uint item, uint n) {
    return item < n ? U32Ref(pc.scratch).v[S_BITMAPS_ENTRY(item)] : 0u;
}

// Loads pair p's vectors: invocation t's of both bitmaps.
void load_pair(BitmapPair p, out uvec4 va[LANE_VECS], out uvec4 vb[LANE_VECS]) {
    [[unroll]] for (uint i = 0u; i < LANE_VECS; i++) {
        va[i] = bitmap_vector(g_bm_a, p.ea.y, gl_LocalInvocationIndex + i * WG_SIZE);
        vb[i] = bitmap_vector(g_bm_b, p.eb.y, gl_LocalInvocationIndex + i * WG_SIZE);
    }
}

// This invocation's share of a pair's result cardinality, from its vectors.
uint lane_count(uvec4 va[LANE_VECS], uvec4 vb[LANE_VECS]) {
    uint mine = 0u;
    [[unroll]] for (uint i = 0u; i < LANE_VECS; i++) {
        mine += popcount4(apply_op(pc.op, va[i], vb[i]));
    }
    return mine;
}

// Sums the shares over the workgroup and counts the pair (invocation 0's `sums`).
void count_pair(uint mine, inout PassSums sums) {
    uint card = workgroup_reduce_add(mine);
    if (gl_LocalInvocationIndex == 0u) {
        pass_sums_count(sums, card);
    }
}

// The counting stages (0, and 2: cardinality only): the pairs from `item` on, grid-stride,
// each counted and added to `sums`. A pair's vectors are consumed into this invocation's count
// before the next pair's are loaded into the same registers, so those loads are in flight
// during the workgroup's reduction (entries load two pairs ahead, list entries three). A
// workgroup with one pair loads nothing ahead (the wasted loads slow small dense sets:
// docs/tuning/set.md#bitmap-pairs-count-ahead).
void count_pairs(uint item, uint n, inout PassSums sums) {
    uvec4 va[LANE_VECS];
    uvec4 vb[LANE_VECS];
    load_pair(bitmap_pair(listed_chunk(item, n), false), va, vb);
    if (item + pc.grid >= n) {
        count_pair(lane_count(va, vb), sums);
        return;
    }
    BitmapPair ahead = bitmap_pair(listed_chunk(item + pc.grid, n), false);
    uint c_ahead = listed_chunk(item + 2u * pc.grid, n);
    for (; item < n; item += pc.grid) {
        uint mine = lane_count(va, vb);
        if (item + pc.grid < n) {
            load_pair(ahead, va, vb);
            ahead = bitmap_pair(c_ahead, false);
            c_ahead = listed_chunk(item + 3u * pc.grid, n);
        }
        count_pair(mine, sums);
    }
}

void main() {
    set_begin();
    uint t = gl_LocalInvocationIndex;
    uint n = U32Ref(pc.scratch).v[S_BITMAP_COUNT];
    bool write = pc.aux == 1u;
    if (write ? U32Ref(pc.scratch).v[S_OK] == 0u : one_pass(pc.scratch, pc.meta_d)) {
        return;  // nothing to write, or nothing to count (the one-pass path)
    }
    uint item = linear_workgroup_id();
    if (item >= n) {
        return;
    }
    PassSums sums = pass_sums_new();  // invocation 0's
    ArrayPool dest = write_pool(write);
    g_bm_a = SetMetaRef(pc.meta_a).bm_pool;
    g_bm_b = SetMetaRef(pc.meta_b).bm_pool;
    g_bm_d = write ? SetMetaRef(pc.meta_d).bm_pool : 0ul;
    if (!write) {
        count_pairs(item, n, sums);
        if (t == 0u) {
            pass_sums_flush(sums);
        }
        return;
    }
    // The writing stage. The next pair's directory entries and the list entry after it are
    // loaded while a pair is worked on, so that a pair's operand loads wait on no other load.
    // (Its operands loaded a pair ahead as well measured the same:
    // docs/tuning/set.md#dense-bitmaps.)
    BitmapPair next = bitmap_pair(listed_chunk(item, n), true);
    uint c_after = listed_chunk(item + pc.grid, n);
    for (; item < n; item += pc.grid) {
        BitmapPair cur = next;
        // Every load is issued before any is used (loads and use in one loop were slower:
        // docs/tuning/set.md#dense-bitmaps).
        uvec4 va[LANE_VECS];
        uvec4 vb[LANE_VECS];
        load_pair(cur, va, vb);
        uvec4 r[LANE_VECS];
        uint mine = 0u;
        [[unroll]] for (uint i = 0u; i < LANE_VECS; i++) {
            r[i] = apply_op(pc.op, va[i], vb[i]);
            mine += popcount4(r[i]);
        }
        if (item + pc.grid < n) {
            next = bitmap_pair(c_after, true);
            c_after = listed_chunk(item + 2u * pc.grid, n);
        }
        barrier();  // the previous pair's shared data is read no more
        uint card = workgroup_reduce_add(mine);
        uvec2 need = chunk_blocks(card);
        // One invocation takes the result's blocks and the ring slots for the old chunk's
        // (two atomics that do not wait on each other); the old chunk's ids go back after the
        // result is stored. A block given back now is not taken again by this operation (the
        // passes take only the ids that were free before it), and the operands are read no
        // more unless the result is an array.
        // A bitmap result over an old bitmap chunk keeps its block (no atomics; the operands'
        // vectors are in registers by now, also when one of them is the destination).
        if (t == 0u) {
            if (need.x != 0u && chunk_blocks(cur.old_d.x).x != 0u) {
                s_pos = cur.old_d.y;
            } else {
                uint taken = 0u;
                if (need.x != 0u) {
                    taken = take_blocks(POOL_BITMAP, 1u);
                } else if (need.y != 0u) {
                    taken = take_blocks(POOL_ARRAY, need.y);
                }
                uint freed = free_chunk_slots(cur.old_d);
                s_pos = need.x != 0u ? ring_id(POOL_BITMAP, taken) : taken;
                s_free_pos = freed;
            }
        }
        barrier();
        uint id0 = 0u;
        if (need.x != 0u) {
            id0 = s_pos;
            [[unroll]] for (uint i = 0u; i < LANE_VECS; i++) {
                U32x4Ref(bitmap_block(g_bm_d, id0)).v[t + i * WG_SIZE] = r[i];
            }
        } else if (need.y != 0u) {
            uint pos = s_pos;
            for (uint i = t; i < need.y; i += WG_SIZE) {
                s_ids[i] = ring_id(POOL_ARRAY, pos + i);
            }
            write_array_result(cur.ea, cur.eb, card, need.y);  // its barriers order s_ids
            id0 = s_ids[0];
        }
        free_chunk_ids(cur.old_d, dest);
        if (t == 0u) {
            set_dir_entry(pc.meta_d, cur.c, uvec2(card, id0));
            pass_sums_written(sums, cur.old_d.x, card);
        }
    }
    if (t == 0u) {
        pass_sums_flush(sums);
    }
}
