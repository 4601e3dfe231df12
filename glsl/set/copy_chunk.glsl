// Chunks whose result is one operand's chunk unchanged, written into another set (an OR, XOR
// or ANDNOT where the other operand's chunk is empty, an AND where it is full; classify.comp's
// copy list): the chunk's storage is copied block by block, without expanding or merging
// anything. Sets of clustered values are mostly such chunks under OR and XOR; they went
// through chunk_update.comp's bitmaps before (docs/tuning/set.md#chunk-copies). Included by
// small_pairs.comp, whose grid-stride loop over the copy list follows the small pairs': its
// small workgroups suit chains of dependent loads, and a dispatch of its own cost dense sets'
// operations a launch even with nothing to copy.
//
// Arrays and bitmaps move in 16-byte vectors, COPY_BATCH an invocation a round, and the next
// list entry's directory entries load while a chunk is copied. Before, arrays moved word by
// word, 8 a round, with each entry's loads waited for in turn; 8 vectors a round would cost
// sparse pairs through this kernel's registers (docs/tuning/set.md#chunk-copies).
//
// The includer lends its shared memory (no more may be declared here: shared memory and
// registers decide how many small pairs share a multiprocessor): COPY_IDS(i) and
// COPY_SRC_IDS(i) read, COPY_SET_IDS(i, id) and COPY_SET_SRC_IDS(i, id) write two arrays of
// ARRAY_BLOCK_WORDS words, for the destination's new array block ids and the source's (block
// 0's, then its header's), and COPY_POS is one word.
#ifndef VKALGO_SET_COPY_CHUNK_GLSL
#define VKALGO_SET_COPY_CHUNK_GLSL

// 16-byte vectors an invocation moves a round, every load issued before the first store.
#define COPY_BATCH 4u

// Copies the 8 KiB bitmap at `from` to `to` (byte addresses).
void copy_bitmap_block(uint64_t from, uint64_t to) {
    const uint vecs = BITMAP_WORDS / 4u;
    for (uint base = 0u; base < vecs; base += WG_SIZE * COPY_BATCH) {
        uvec4 v[COPY_BATCH];
        [[unroll]] for (uint i = 0u; i < COPY_BATCH; ++i) {
            uint q = base + i * WG_SIZE + gl_LocalInvocationIndex;
            if (q < vecs) {
                v[i] = U32x4Ref(from).v[q];
            }
        }
        [[unroll]] for (uint i = 0u; i < COPY_BATCH; ++i) {
            uint q = base + i * WG_SIZE + gl_LocalInvocationIndex;
            if (q < vecs) {
                U32x4Ref(to).v[q] = v[i];
            }
        }
    }
}

// Copies an array chunk of `card` values in k blocks from blocks COPY_SRC_IDS of the set at
// `src` to the destination's blocks COPY_IDS, in 16-byte vectors of the word stream (the
// stream has the same layout in both, and no vector straddles two blocks): block 0's header
// gets the new ids, the value words move as they are.
void copy_array_blocks(uint64_t src, uint card, uint k) {
    uint h = k - 1u;
    uint vecs = (h + (card + 1u) / 2u + VEC_WORDS - 1u) / VEC_WORDS;
    uint64_t src_pool = SetMetaRef(src).ar_pool;
    uint64_t dst_pool = SetMetaRef(pc.meta_d).ar_pool;
    for (uint base = 0u; base < vecs; base += WG_SIZE * COPY_BATCH) {
        uvec4 v[COPY_BATCH];
        [[unroll]] for (uint i = 0u; i < COPY_BATCH; ++i) {
            uint q = base + i * WG_SIZE + gl_LocalInvocationIndex;
            v[i] = uvec4(0u);
            if (q < vecs) {
                v[i] = stream_vector(src_pool, COPY_SRC_IDS(q / BLOCK_VECS), q);
            }
        }
        [[unroll]] for (uint i = 0u; i < COPY_BATCH; ++i) {
            uint q = base + i * WG_SIZE + gl_LocalInvocationIndex;
            if (q < vecs) {
                // Header words (the ids of blocks 1..k-1) are the destination's own.
                [[unroll]] for (uint x = 0u; x < VEC_WORDS; ++x) {
                    uint w = q * VEC_WORDS + x;
                    if (w < h) {
                        v[i][x] = COPY_IDS(w + 1u);
                    }
                }
                U32x4Ref(pool_block(dst_pool, COPY_IDS(q / BLOCK_VECS))).v[q % BLOCK_VECS] = v[i];
            }
        }
    }
}

// An entry of the copy list, its chunk's directory entries loaded (those of the next entry
// load while a chunk is copied: a copy's loads are otherwise a chain of round trips from the
// list entry to the data).
struct CopyItem {
    uint c;          // the chunk
    uint64_t src;    // the operand it is copied from
    uvec2 e;         // its entry there
    uvec2 old_d;     // the destination's entry (stage 1)
};

CopyItem copy_item(uint item, bool write) {
    CopyItem it;
    uint entry = U32Ref(pc.scratch).v[S_COPIES + item];
    it.c = entry & 0xFFFFu;
    it.src = (entry >> 16) == 0u ? pc.meta_a : pc.meta_b;
    it.e = dir_entry(it.src, it.c);
    it.old_d = write ? dir_entry(pc.meta_d, it.c) : uvec2(0u);
    return it;
}

// Copies one chunk of the copy list: stage 0 (write false) counts the chunk; stage 1 copies it
// over the destination chunk's old blocks where they suffice, taking and giving back the
// rest. Workgroup-uniform control flow; `dest` the destination's array pool, `sums`
// invocation 0's.
void copy_listed_chunk(CopyItem it, bool write, ArrayPool dest, inout PassSums sums) {
    uint t = gl_LocalInvocationIndex;
    uvec2 e = it.e;
    if (!write) {
        if (t == 0u) {
            pass_sums_count(sums, e.x);
        }
        return;
    }
    uvec2 old_d = it.old_d;
    bool bitmap = e.x > ARRAY_MAX;
    uint k = bitmap ? 1u : array_blocks(e.x);
    // The destination chunk's old blocks take the copy where they can: a bitmap over a bitmap,
    // an array over the old array blocks (set_common.glsl reuse_blocks_begin).
    bool bitmap_over_bitmap = bitmap && chunk_blocks(old_d.x).x != 0u;
    barrier();  // the previous item's shared data is read no more
    if (t == 0u) {
        if (bitmap) {
            if (!bitmap_over_bitmap) {
                free_chunk_begin(old_d);
                COPY_POS = take_blocks(POOL_BITMAP, 1u);
            }
        } else {
            reuse_blocks_begin(old_d, k);
        }
    }
    barrier();
    uint id0;
    if (bitmap) {
        free_chunk_ids(old_d, dest);
        id0 = bitmap_over_bitmap ? old_d.y : ring_id(POOL_BITMAP, COPY_POS);
        copy_bitmap_block(bitmap_word_addr(it.src, e.y, 0u), bitmap_word_addr(pc.meta_d, id0, 0u));
    } else {
        for (uint i = t; i < reuse_blocks_end(old_d, k); i += WG_SIZE) {
            uint id = reuse_blocks_id(old_d, k, i, dest);
            if (i < k) {
                COPY_SET_IDS(i, id);
                COPY_SET_SRC_IDS(i, i == 0u ? e.y : U32Ref(array_block_addr(it.src, e.y)).v[i - 1u]);
            }
        }
        barrier();
        copy_array_blocks(it.src, e.x, k);
        id0 = COPY_IDS(0u);
    }
    if (t == 0u) {
        set_dir_entry(pc.meta_d, it.c, uvec2(e.x, id0));
        pass_sums_written(sums, old_d.x, e.x);
    }
}

// The copy list, grid-stride over the workgroups (workgroup-uniform control flow).
void copy_listed_chunks(bool write, ArrayPool dest, inout PassSums sums) {
    uint copies = U32Ref(pc.scratch).v[S_COPY_COUNT];
    uint item = linear_workgroup_id();
    if (item >= copies) {
        return;
    }
    CopyItem next = copy_item(item, write);
    for (; item < copies; item += pc.grid) {
        CopyItem cur = next;
        if (item + pc.grid < copies) {
            next = copy_item(item + pc.grid, write);
        }
        copy_listed_chunk(cur, write, dest, sums);
    }
}

#endif
