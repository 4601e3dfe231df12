// Chunks whose result is one operand's chunk unchanged, written into another set (an OR, XOR
// or ANDNOT where the other operand's chunk is empty, an AND where it is full; classify.comp's
// copy list): the chunk's storage is copied block by block, without expanding or merging
// anything. Sets of clustered values are mostly such chunks under OR and XOR; they went
// through chunk_update.comp's bitmaps before (H200, 2^24 values in runs of 1..4096: OR 0.81 ms;
// docs/benchmarks/2026-11-24-h200-carveouts-set-copies.md). Included by small_pairs.comp,
// whose grid-stride loop over the copy list follows the small pairs': its small workgroups
// suit chains of dependent loads, and a dispatch of its own cost dense sets' operations about
// 1 us even with nothing to copy. Each invocation moves COPY_BATCH words a round, every load
// issued before the first store.
//
// The includer lends its shared memory (no more may be declared here: shared memory and
// registers decide how many small pairs share a multiprocessor): COPY_IDS(i) and
// COPY_SRC_IDS(i), ARRAY_BLOCK_WORDS words each, for the destination's new array block ids
// and the source's (block 0's, then its header's), and COPY_POS, one word.
#ifndef VKALGO_SET_COPY_CHUNK_GLSL
#define VKALGO_SET_COPY_CHUNK_GLSL

#define COPY_BATCH 8u

layout(buffer_reference, std430, buffer_reference_align = 16) buffer CopyVec4Ref { uvec4 v[]; };

// Copies the 8 KiB bitmap at `from` to `to` (byte addresses).
void copy_bitmap_block(uint64_t from, uint64_t to) {
    const uint vecs = BITMAP_WORDS / 4u;
    const uint batch = COPY_BATCH / 4u;
    for (uint base = 0u; base < vecs; base += WG_SIZE * batch) {
        uvec4 v[batch];
        [[unroll]] for (uint i = 0u; i < batch; ++i) {
            uint q = base + i * WG_SIZE + gl_LocalInvocationIndex;
            if (q < vecs) {
                v[i] = CopyVec4Ref(from + uint64_t(q) * 16ul).v[0];
            }
        }
        [[unroll]] for (uint i = 0u; i < batch; ++i) {
            uint q = base + i * WG_SIZE + gl_LocalInvocationIndex;
            if (q < vecs) {
                CopyVec4Ref(to + uint64_t(q) * 16ul).v[0] = v[i];
            }
        }
    }
}

// Copies an array chunk of `card` values in k blocks from blocks COPY_SRC_IDS of the set at
// `src` to the destination's blocks COPY_IDS: block 0's header gets the new ids, the value
// words move as they are (the word stream has the same layout in both).
void copy_array_blocks(uint64_t src, uint card, uint k) {
    uint h = k - 1u;
    uint stream = h + (card + 1u) / 2u;
    for (uint base = 0u; base < stream; base += WG_SIZE * COPY_BATCH) {
        uint words[COPY_BATCH];
        [[unroll]] for (uint i = 0u; i < COPY_BATCH; ++i) {
            uint w = base + i * WG_SIZE + gl_LocalInvocationIndex;
            words[i] = 0u;
            if (w < h) {
                words[i] = COPY_IDS(w + 1u);
            } else if (w < stream) {
                uint64_t block = array_block_addr(src, COPY_SRC_IDS(w / ARRAY_BLOCK_WORDS));
                words[i] = U32Ref(block).v[w % ARRAY_BLOCK_WORDS];
            }
        }
        [[unroll]] for (uint i = 0u; i < COPY_BATCH; ++i) {
            uint w = base + i * WG_SIZE + gl_LocalInvocationIndex;
            if (w < stream) {
                uint64_t block = array_block_addr(pc.meta_d, COPY_IDS(w / ARRAY_BLOCK_WORDS));
                U32Ref(block).v[w % ARRAY_BLOCK_WORDS] = words[i];
            }
        }
    }
}

// Copy list item `item`: stage 0 (write false) counts the chunk; stage 1 gives the
// destination chunk's old blocks back, takes new ones and copies. Workgroup-uniform control
// flow; `dest` the destination's array pool, `sums` invocation 0's.
void copy_listed_chunk(uint item, bool write, ArrayPool dest, inout PassSums sums) {
    uint t = gl_LocalInvocationIndex;
    uint entry = U32Ref(pc.scratch).v[S_COPIES + item];
    uint c = entry & 0xFFFFu;
    uint64_t src = (entry >> 16) == 0u ? pc.meta_a : pc.meta_b;
    uvec2 e = dir_entry(src, c);
    if (!write) {
        if (t == 0u) {
            pass_sums_count(sums, e.x);
        }
        return;
    }
    uvec2 old_d = dir_entry(pc.meta_d, c);
    bool bitmap = e.x > ARRAY_MAX;
    uint k = bitmap ? 1u : array_blocks(e.x);
    barrier();  // the previous item's shared data is read no more
    if (t == 0u) {
        free_chunk_begin(old_d);
        COPY_POS = take_blocks(bitmap ? POOL_BITMAP : POOL_ARRAY, k);
    }
    barrier();
    free_chunk_ids(old_d, dest);
    uint id0;
    if (bitmap) {
        id0 = ring_id(POOL_BITMAP, COPY_POS);
        copy_bitmap_block(bitmap_word_addr(src, e.y, 0u), bitmap_word_addr(pc.meta_d, id0, 0u));
    } else {
        for (uint i = t; i < k; i += WG_SIZE) {
            COPY_IDS(i) = ring_id(POOL_ARRAY, COPY_POS + i);
            COPY_SRC_IDS(i) = i == 0u ? e.y : U32Ref(array_block_addr(src, e.y)).v[i - 1u];
        }
        barrier();
        copy_array_blocks(src, e.x, k);
        id0 = COPY_IDS(0u);
    }
    if (t == 0u) {
        set_dir_entry(pc.meta_d, c, uvec2(e.x, id0));
        pass_sums_written(sums, old_d.x, e.x);
    }
}

#endif
